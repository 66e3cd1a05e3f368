package bank

import (
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// CardAuth is documented at synapsefake.CardAuth.
type CardAuth struct {
	// AmountCents is the amount of the purchase or withdrawal, in cents.
	AmountCents int64
	// Merchant is the merchant name shown in from.meta.merchant_name.
	Merchant string
	// Foreign marks a swipe outside the US.
	Foreign bool
	// Cash marks an ATM or cash-back withdrawal.
	Cash bool
	// DeclineWith forces a decline with this IR code from the reference table.
	DeclineWith string
	// Hold keeps an approved swipe as an authorization hold: it stays
	// CREATED, its amount held on the node's available balance, until
	// ClearAuthorization (or Settle) clears it, ReverseAuthorization
	// releases it, or it lapses AuthorizationHoldDays after the swipe. By
	// default a swipe is cleared for its amount by the clock, like any
	// transaction.
	Hold bool
	// PartialApprovalAllowed marks a merchant that accepts a partial
	// approval: the swipe carries to.meta.partial_approval_allowed true,
	// and a TRANS|POST|JIT answer approving less than AmountCents
	// (total_amount) is honoured. Without it such an answer declines the
	// swipe (IR180), as the transaction decisioning guide allows partial
	// approval only where the swipe says so.
	PartialApprovalAllowed bool
}

// The card network is a hidden user of the fake that owns the INTERCHANGE-US
// node on the other side of every card swipe, and the EXTERNAL-US node on
// the other side of every dummy transaction.

// networkNode returns the hidden counterparty node of a type, creating it on
// first use. Callers hold mu.
func (st *Store) networkNode(now time.Time, typ string) *nodeRecord {
	if id := st.network[typ]; id != "" {
		return st.nodes[id]
	}
	if st.networkUser == nil {
		u := &userRecord{id: st.newID(), created: now, updated: now, legalNames: []string{"Card Network"},
			permission: PermissionSendAndReceive, fingerprints: map[string]bool{}, pin: defaultMFAPin}
		st.users[u.id] = u // reachable by id, never listed
		st.networkUser = u
	}
	n := st.newNode(now, st.networkUser, NodeSeed{Type: typ, Nickname: typ + " network"}, "", "", nil)
	if st.network == nil {
		st.network = map[string]string{}
	}
	st.network[typ] = n.id
	return n
}

// startSwipe decides a swipe by the card's rules, or, when a
// TRANS|POST|JIT subscription is to decide it, returns the question to
// put to it, storing nothing.
func (st *Store) startSwipe(subnetID string, auth CardAuth, now time.Time) (*JITAsk, Transaction, error) {
	defer st.lock().unlock()
	defer st.asBackend()()
	sn, n, err := st.cardSubnet(subnetID)
	if err != nil {
		return nil, Transaction{}, err
	}
	amount := Cents(auth.AmountCents)
	code := auth.DeclineWith
	if code == "" {
		code = st.cardStatusCode(sn, n, auth, now)
	}
	t := st.swipeRecord(sn, n, amount, auth, now, false)
	if code == "" {
		if sub := st.jitSubscription(); sub != nil {
			return st.newJITAsk(sub, sn, t, auth, now), Transaction{}, nil
		}
		code = st.cardFundsCode(sn, n, amount, auth.Cash, now)
	}
	return nil, st.storeSwipe(sn, t, auth.Hold, code, "Transaction Created.").public(), nil
}

// storeSwipe stores the swipe t, approved when decline is "", with note
// on its CREATED entry. Callers hold mu.
func (st *Store) storeSwipe(sn *subnetRecord, t *txRecord, hold bool, decline, note string) *txRecord {
	approved := decline == ""
	t.other = map[string]any{"approved": approved, "affect_limits": approved}
	t.card = nil
	if approved && hold {
		t.card = &cardLife{hold: true, expires: t.created.AddDate(0, 0, AuthorizationHoldDays), original: t.amount, authorized: t.amount}
	}
	created := statusEntry{Date: Ms(t.created), Note: note, Status: StatusCreated}
	if approved {
		st.addTx(t, created)
	} else {
		t.code = ""
		st.addDeclined(t, created, decline)
	}
	sn.txIDs = append(sn.txIDs, t.id)
	return t
}

// swipeRecord is a new card transaction of sn's node to the card network's
// INTERCHANGE-US node, not yet stored. Callers hold mu.
func (st *Store) swipeRecord(sn *subnetRecord, n *nodeRecord, amount Cents, auth CardAuth, now time.Time, forcePost bool) *txRecord {
	net := st.networkNode(now, reference.NodeInterchangeUS)
	merchant := auth.Merchant
	if merchant == "" {
		merchant = "SYNAPSEFAKE MERCHANT"
	}
	t := &txRecord{id: st.newID(), userID: sn.userID, fromNode: n.id, toNode: net.id, amount: amount, currency: "USD",
		fees: []feeRecord{{note: "Facilitator Fee"}}, ip: "127.0.0.1", note: merchant, created: now, processOn: now, start: now,
		status: StatusCreated, cardSwipe: true, cash: auth.Cash,
		fromMeta: map[string]any{"merchant_name": merchant, "subnet_id": sn.id, "type": "CARD",
			"foreign_transaction": auth.Foreign, "network_id": "SYNAPSEFAKE", "is_force_post": forcePost}}
	if auth.PartialApprovalAllowed && !forcePost {
		t.toMeta = map[string]any{"partial_approval_allowed": true}
	}
	return t
}

// declineCode applies the card rules; "" approves. Callers hold mu.
func (st *Store) declineCode(sn *subnetRecord, n *nodeRecord, amount Cents, auth CardAuth, now time.Time) string {
	if code := st.cardStatusCode(sn, n, auth, now); code != "" {
		return code
	}
	return st.cardFundsCode(sn, n, amount, auth.Cash, now)
}

// cardStatusCode applies the rules of the card and its holder, down to
// IR57; "" when the card may be used. Callers hold mu.
func (st *Store) cardStatusCode(sn *subnetRecord, n *nodeRecord, auth CardAuth, now time.Time) string {
	switch {
	case !n.isActive:
		return reference.IRAccountClosed
	case st.userOpen(n) != nil:
		return reference.IRCardRestricted
	case sn.status == SubnetTerminated:
		return reference.IRCardRestricted
	case sn.status == SubnetInactive:
		return reference.IRCardNotActivated
	case sn.expired(now):
		return reference.IRCardExpired
	case auth.Cash && !sn.prefs.allowCash, auth.Foreign && !sn.prefs.allowForeign:
		return reference.IRNotPermittedToCardholder
	}
	return ""
}

// cardFundsCode applies the rules of the available balance and the daily
// limits to a swipe of amount; "" approves. Callers hold mu.
func (st *Store) cardFundsCode(sn *subnetRecord, n *nodeRecord, amount Cents, cash bool, now time.Time) string {
	if amount > n.available() {
		return reference.IRInsufficientFunds
	}
	utc := now.UTC()
	day := time.Date(utc.Year(), utc.Month(), utc.Day(), 0, 0, 0, 0, time.UTC)
	var spent, spentCash Cents
	for _, id := range sn.txIDs {
		t := st.txs[id]
		// Dummy transactions through the card (the legacy dummy-tran form)
		// are not purchases.
		if !t.cardSwipe || t.created.Before(day) || t.status == StatusCanceled || t.status == StatusReturned {
			continue
		}
		spent += t.amount
		if t.cash {
			spentCash += t.amount
		}
	}
	if spent+amount > sn.prefs.dailyTransaction || cash && spentCash+amount > sn.prefs.dailyCash {
		return reference.IRDailyLimitExceeded
	}
	return ""
}

// addDeclined stores a declined swipe: created and at once RETURNED with the
// decline code, moving no money and never processed. Callers hold mu.
func (st *Store) addDeclined(t *txRecord, created statusEntry, code string) {
	st.addTx(t, created) // stored and announced (TRANS|POST) as CREATED, like any swipe
	t.gen++              // voids the processing step addTx scheduled
	st.nodes[t.fromNode].pending -= t.amount
	t.status = StatusReturned
	t.code = code
	t.timeline = append(t.timeline, statusEntry{Date: created.Date, Note: defaultNote(StatusReturned, code), Status: StatusReturned})
	st.emitTx(t.created, "TRAN|PATCH", t)
}

// CardAuthorization is documented at synapsefake.Server.CardAuthorization.
func (s *Bank) CardAuthorization(subnetID string, auth CardAuth) (Transaction, error) {
	if err := ValidCardAmount("AmountCents", auth.AmountCents); err != nil {
		return Transaction{}, err
	}
	if auth.DeclineWith != "" {
		if _, ok := reference.InterchangeMeaning(auth.DeclineWith); !ok {
			return Transaction{}, apierr.Payload("invalid_code", "Unknown IR code %q.", auth.DeclineWith)
		}
	}
	s.Up.RunDue()
	now := s.Now()
	ask, tx, err := s.store.startSwipe(subnetID, auth, now)
	if err != nil || ask == nil {
		return tx, err
	}
	return s.store.finishSwipe(ask, s.Up.AskPlatform(ask), now)
}
