package bank

import (
	"slices"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

// uiUsers reads the overview's newest limit users that match name, and how
// many match (-1: more than shown). A name is no index: the scan for it
// stops after UIScanLimit users.
func (st *Store) uiUsers(name string, limit int) (users []UIUser, total int) {
	defer st.lock().unlock()
	total = len(st.userOrder)
	for i, scanned := total-1, 0; i >= 0; i, scanned = i-1, scanned+1 {
		u := st.users[st.userOrder[i]]
		if name == "" {
			if len(users) == limit {
				break
			}
			users = append(users, st.uiUser(u))
			continue
		}
		if scanned == UIScanLimit {
			return users, -1
		}
		if !st.userNamed(u, strings.ToLower(name)) {
			continue
		}
		if len(users) == limit {
			return users, -1
		}
		users = append(users, st.uiUser(u))
	}
	if name != "" {
		total = len(users)
	}
	return users, total
}

// userNamed reports whether u's name or email, or a nickname of one of its
// nodes, holds lower (lower case). Callers hold mu.
func (st *Store) userNamed(u *userRecord, lower string) bool {
	if u.matchesQuery(lower) {
		return true
	}
	for _, nid := range u.nodeIDs {
		if strings.Contains(strings.ToLower(st.nodes[nid].nickname), lower) {
			return true
		}
	}
	return false
}

// uiUser is u with its nodes, as the overview shows it. Callers hold mu.
func (st *Store) uiUser(u *userRecord) UIUser {
	uu := UIUser{ID: u.id, Permission: u.permission, Created: u.created, Transactions: len(u.txIDs)}
	if len(u.legalNames) > 0 {
		uu.Name = u.legalNames[0]
	}
	if len(u.logins) > 0 {
		uu.Email = u.logins[0].Email
	}
	for _, nid := range u.nodeIDs {
		uu.Nodes = append(uu.Nodes, st.uiNode(st.nodes[nid]))
	}
	return uu
}

// uiNode is n with its subnets and statements. Callers hold mu.
func (st *Store) uiNode(n *nodeRecord) uiNode {
	un := uiNode{ID: n.id, UserID: n.userID, Nickname: n.nickname, Type: n.typ, Allowed: n.allowed,
		External:     reference.IsExternalType(n.typ),
		BalanceCents: int64(n.balance), AvailableCents: int64(n.available())}
	for _, sid := range n.subnetIDs {
		un.Subnets = append(un.Subnets, st.subnets[sid].public())
	}
	for _, id := range st.book.byNode[n.id] {
		rec := st.book.byID[id]
		us := uiStatement{ID: rec.id, Type: rec.typ, Status: rec.status, Start: rec.start, End: rec.end,
			Opening: int64(rec.opening), Ending: int64(rec.ending)}
		if rec.status == StatementGenerated {
			for _, f := range statementFiles {
				us.Files = append(us.Files, "/v3.1/statements/"+rec.id+"/"+f)
			}
		}
		un.Statements = append(un.Statements, us)
	}
	return un
}

// uiPending fills in the moves pending on the clock of the transactions in
// list. Callers hold mu.
func (st *Store) uiPending(list []UITx, now time.Time, manual bool) {
	if len(list) == 0 {
		return
	}
	index := make(map[string]int, len(list))
	for i := range list {
		index[list[i].ID] = i
	}
	for _, p := range st.pendingSteps(func(id string) bool { _, ok := index[id]; return ok }) {
		v := uiStep{Step: p.step, To: strings.TrimPrefix(p.step, "reaches "), At: p.at, Hint: advanceHint(now, p.at)}
		switch d := p.at.Sub(now); {
		case !manual && d > 0:
			v.Hint = "in " + shortDuration(d)
		case !manual:
			v.Hint = "due now"
		case d > 0:
			v.Advance = d.String()
		}
		t := &list[index[p.tx]]
		t.Next = append(t.Next, v)
	}
	for i := range list {
		slices.SortStableFunc(list[i].Next, func(a, b uiStep) int { return a.At.Compare(b.At) })
	}
}

// uiTxList reads the transactions page's list: the newest limit
// transactions that match f, with their pending moves, and how many match
// (-1: more than shown).
func (st *Store) uiTxList(f UITxFilter, limit int, now time.Time, manual bool) (list []UITx, total int) {
	defer st.lock().unlock()
	ids := st.txOrder
	nodeByID, userByID := st.nodes[f.Node] != nil, st.users[f.User] != nil
	switch {
	case nodeByID:
		ids = st.nodes[f.Node].txIDs
	case userByID:
		ids = st.users[f.User].txIDs
	}
	// The user's and the node's lists are indexes: each of their
	// transactions matches, so the page reads only what it shows. A status
	// or a name is no index: the scan for it stops after UIScanLimit
	// transactions, and the page then says that more may match.
	var tests []func(t *txRecord) bool
	if f.Status != "" {
		tests = append(tests, func(t *txRecord) bool { return t.status == f.Status })
	}
	if f.Node != "" && !nodeByID {
		name := strings.ToLower(f.Node)
		tests = append(tests, func(t *txRecord) bool {
			return strings.Contains(strings.ToLower(st.nodes[t.fromNode].nickname), name) ||
				strings.Contains(strings.ToLower(st.nodes[t.toNode].nickname), name)
		})
	}
	if f.User != "" && (nodeByID || !userByID) {
		named := map[string]bool{} // user id -> matches
		test := func(id string) bool {
			if m, ok := named[id]; ok {
				return m
			}
			u := st.users[id]
			m := u != nil && (id == f.User || !userByID && u.matchesQuery(f.User))
			named[id] = m
			return m
		}
		tests = append(tests, func(t *txRecord) bool {
			return test(st.nodes[t.fromNode].userID) || test(st.nodes[t.toNode].userID)
		})
	}
	total = len(ids)
	scanned := 0
	for i := len(ids) - 1; i >= 0; i-- {
		if len(tests) > 0 && scanned == UIScanLimit {
			total = -1
			break
		}
		scanned++
		t := st.txs[ids[i]]
		if !all(tests, t) {
			continue
		}
		if len(list) == limit {
			if len(tests) > 0 {
				total = -1 // one more matches
			}
			break
		}
		list = append(list, st.uiTx(t))
	}
	if len(tests) > 0 && total >= 0 {
		total = len(list)
	}
	st.uiPending(list, now, manual)
	return list, total
}

// uiTx is t with its parties' names and the moves legal now. Callers hold mu.
func (st *Store) uiTx(t *txRecord) UITx {
	from, to := st.nodes[t.fromNode], st.nodes[t.toNode]
	v := UITx{Transaction: t.public(), FromName: from.nickname, ToName: to.nickname, FeeCents: int64(t.feeTotal())}
	v.CodeMeaning, _ = reference.CodeMeaning(t.code)
	v.Declined = t.cardSwipe && t.status == StatusReturned && t.other["approved"] == false
	_, errSettle := pathTo(t.status, StatusSettled)
	_, errReturn := pathTo(t.status, StatusReturned)
	v.Settle, v.Return = errSettle == nil, errReturn == nil && t.dispute == nil && t.disputeOf == "" && t.dishonor == nil
	v.Dishonor = t.status == StatusReturned && t.dishonor == nil && t.dispute == nil && t.disputeOf == "" && st.achTransfer(t)
	v.Contest = t.status == StatusSettled && t.dishonor != nil && t.dishonor.contest == "" && t.dispute == nil
	v.Queue = canMove(t.status, StatusQueuedBySynapse)
	v.Release = t.status.Queued()
	v.Cancel = canMove(t.status, StatusCanceled)
	v.Decide = t.dispute != nil && t.dispute.status == DisputePending
	return v
}

// counts are how many keys, listed users and transactions the store holds.
func (st *Store) counts() (keys, users, txs int) {
	defer st.lock().unlock()
	return len(st.keys), len(st.userOrder), len(st.txOrder)
}

// UIUser is a user on the overview.
type UIUser struct {
	ID, Name, Email, Permission string
	Created                     time.Time
	Nodes                       []uiNode
	Transactions                int
}

type uiNode struct {
	ID, UserID, Nickname, Type, Allowed string
	// External: the user's account elsewhere (ACH-US, WIRE-US...), whose
	// balance the fake does not keep.
	External       bool
	BalanceCents   int64
	AvailableCents int64
	Subnets        []Subnet
	Statements     []uiStatement
}

type uiStatement struct {
	ID, Type, Status string
	Start, End       time.Time
	Opening, Ending  int64
	Files            []string // links, none until generated
}

// UITx is a transaction on the transactions page, with the moves the
// state machine allows it now.
type UITx struct {
	Transaction
	FromName, ToName, CodeMeaning string
	FeeCents                      int64
	// Declined: a card swipe the card's rules refused, RETURNED on the wire
	// with its IR code.
	Declined              bool
	Settle, Return, Queue bool
	Release, Cancel       bool
	Decide                bool
	// Dishonor and Contest: the return of a RETURNED ACH transfer may be
	// dishonored, a dishonor contested (dishonor.go).
	Dishonor, Contest bool
	// Next are its moves pending on the clock, soonest first (uiPending).
	Next []uiStep
}

// uiStep is a transaction's move pending on the clock, as Wait's failure
// message names it: what it does, when it falls due, and the Advance that
// runs it.
type uiStep struct {
	Step string // "reaches SETTLED", "reaches RETURNED (R01)"
	To   string // "SETTLED", "RETURNED (R01)"
	At   time.Time
	// Hint is advanceHint's "call Advance(1h)" on a manual clock, "in 1h"
	// on one that runs by itself.
	Hint string
	// Advance is the duration that runs it, for POST /_fake/clock/advance;
	// "" when it is due now or the clock is not manual.
	Advance string
}

// UITxFilter is the transactions page's query. User and Node take an id,
// or else a part (in any case) of a user's name or email or of a node's
// nickname.
type UITxFilter struct {
	User, Node string
	Status     Status
}

// UIScanLimit is the most transactions the transactions page looks at,
// newest first, for a filter no index answers (a status, a name), and the
// most users the overview looks at for a name.
const UIScanLimit = 10_000

// all reports whether t passes every test.
func all(tests []func(*txRecord) bool, t *txRecord) bool {
	for _, test := range tests {
		if !test(t) {
			return false
		}
	}
	return true
}

// UIHook is a captured webhook on the webhooks page.
type UIHook struct {
	Seq                            uint64
	Function, ObjectType, ObjectID string
	Status, Code, UpdatedBy, LogID string
	Date                           time.Time
	Payload                        string // indented JSON
	Signature, Signature256        string
	SignatureValid                 bool
	Deliveries                     []UIDelivery
	// Deliveries whose last attempt was delivered or failed (UIOutcome),
	// that have none yet, or that were captured and never sent.
	Delivered, Failed, Queued, NotSent int
}

// UIDelivery is one delivery of a UIHook, with its attempts.
type UIDelivery struct {
	Index          int
	SubscriptionID string
	URL            string
	Attempts       []UIAttempt
}

// UIAttempt is one attempt of a UIDelivery, with what the dashboard says
// it came to.
type UIAttempt struct {
	Attempt
	Outcome UIOutcome
	// Verdict says what the attempt came to in words: "delivered",
	// "failed", "failed: bad signature (webhook chaos)"...
	Verdict string
	After   time.Duration // from the event to the attempt, on the fake's clock
}

// UIOutcome is what the dashboard says an attempt came to.
type UIOutcome uint8

const (
	// UIFailed is an attempt that got no 2xx answer, or one to a POST signed wrong.
	UIFailed    UIOutcome = iota
	UIDelivered           // a 2xx answer to a POST signed right
	UINotSent             // captured under WithoutWebhookDelivery, never POSTed
)

// OK reports whether the attempt was delivered.
func (o UIOutcome) OK() bool { return o == UIDelivered }

// NotSent reports whether the attempt was captured and never POSTed.
func (o UIOutcome) NotSent() bool { return o == UINotSent }

// uiOAuthUser is a user's OAuth side.
type uiOAuthUser struct {
	ID, Name     string
	Fingerprints []string
	Keys         []UIKey
	ForceMFA     bool
	Pin          string
}

// UIKey is one OAuth key of a user on the OAuth page.
type UIKey struct {
	Key, Fingerprint string
	Expires          time.Time
	Expired          bool
	Scopes           []string
}

// UIOAuthUsers reads the OAuth page's newest limit users with their keys,
// and how many users there are.
func (s *Bank) UIOAuthUsers(now time.Time, limit int) (list []uiOAuthUser, total int) {
	st := s.store
	defer st.lock().unlock()
	total = len(st.userOrder)
	index := map[string]int{}
	for i := total - 1; i >= 0 && len(list) < limit; i-- {
		u := st.users[st.userOrder[i]]
		pub := u.public()
		v := uiOAuthUser{ID: u.id, Fingerprints: pub.Fingerprints, ForceMFA: u.forceMFA, Pin: u.pin}
		if len(pub.LegalNames) > 0 {
			v.Name = pub.LegalNames[0]
		}
		index[u.id] = len(list)
		list = append(list, v)
	}
	// The live keys, and those the store forgot on expiry (the last
	// maxExpiredKeys), marked expired.
	add := func(k *keyRecord) {
		if i, ok := index[k.userID]; ok {
			list[i].Keys = append(list[i].Keys, UIKey{Key: k.key, Fingerprint: k.fingerprint, Expires: k.expires,
				Expired: !now.Before(k.expires), Scopes: slices.Clone(k.scopes)})
		}
	}
	for _, k := range st.keys {
		add(k)
	}
	for i := range st.expiredKeys {
		add(&st.expiredKeys[i])
	}
	return list, total
}
