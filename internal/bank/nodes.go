// Nodes, the bank's side: the record, its balance, permission and info.

package bank

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// Allowed is a node's allowed field: see synapsefake.Allowed. The
// constants below are untyped, for the store's own string fields.
type Allowed string

// Values of a node's allowed field.
const (
	AllowedCreditAndDebit = "CREDIT-AND-DEBIT"
	AllowedCredit         = "CREDIT"
	AllowedDebit          = "DEBIT"
	AllowedLocked         = "LOCKED"
	AllowedInactive       = "INACTIVE"
	// AllowedPending is documented at synapsefake.AllowedPending.
	AllowedPending = "PENDING"
	// AllowedRejected is documented at synapsefake.AllowedRejected.
	AllowedRejected = "REJECTED"
)

// allowsDebit reports whether a node whose allowed is a may send money.
func allowsDebit(a string) bool { return a == AllowedCreditAndDebit || a == AllowedDebit }

// microDeposits are the amounts the sandbox "sent" to verify an ACH-US node.
var microDeposits = []Cents{10, 10}

type nodeRecord struct {
	id           string
	userID       string
	typ          string
	nickname     string
	allowed      string
	balance      Cents
	pending      Cents // debits promised, not yet made: outgoing transactions CREATED or queued, card holds
	inflight     Cents // debits made, not yet settled or returned: may come back to balance
	currency     string
	accountNum   string
	routingNum   string
	accountType  string // PERSONAL or BUSINESS, ACH-US only
	accountClass string // CHECKING or SAVINGS, ACH-US only
	isActive     bool
	suppID       string
	note         *string
	other        map[string]any // extra.other as the client sent it; never changed afterwards
	sysOther     map[string]any // extra.other keys the service sets, shown over other; replaced, never changed
	documentID   *string
	info         map[string]any // the type's own info fields, as shown; replaced, never changed
	bank         reference.Bank // ACH-US only
	nameOnAcct   string         // info.name_on_account when the request gave one
	microPending bool           // ACH-US by account and routing number: deposits sent, not yet verified
	created      time.Time
	timeline     []nodeEvent
	txIDs        []string // transactions from or to the node, oldest first
	subnetIDs    []string // creation order
}

// available is the balance less the debits promised but not yet made.
func (n *nodeRecord) available() Cents { return n.balance - n.pending }

// fits reports whether n can take delta within the balance limits: a credit
// must keep the balance plus the debits in flight (which may come back)
// within MaxBalanceCents, a debit must keep the available balance at or
// above -MaxBalanceCents.
func (n *nodeRecord) fits(delta Cents) bool {
	if delta < 0 {
		_, ok := n.available().plus(delta)
		return ok
	}
	ceiling, ok := n.balance.plus(n.inflight)
	if ok {
		_, ok = ceiling.plus(delta)
	}
	return ok
}

type nodeEvent struct {
	Date int64  `json:"date"`
	Note string `json:"note"`
}

type agreement struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

type balanceView struct {
	Amount   Cents  `json:"amount"`
	Currency string `json:"currency"`
}

type nodeInfo struct {
	Agreements    []agreement `json:"agreements"`
	Balance       balanceView `json:"balance"`
	BankCode      string      `json:"bank_code"`
	DocumentID    *string     `json:"document_id"`
	NameOnAccount string      `json:"name_on_account"`
	Nickname      string      `json:"nickname"`
	// MonthlyWithdrawalsRemaining: IB-DEPOSIT-US and IB-SUBACCOUNT-US only.
	MonthlyWithdrawalsRemaining *int `json:"monthly_withdrawals_remaining,omitempty"`
}

// monthlyWithdrawals is what an interest-bearing node's
// info.monthly_withdrawals_remaining shows: the six withdrawals a month a
// savings account allows. The fake does not count them down.
const monthlyWithdrawals = 6

// achNodeInfo is the info of an ACH-US node, field for field as the
// recorded sandbox answers show it: the balance is a string there.
type achNodeInfo struct {
	AccountNum    string     `json:"account_num"`
	Address       string     `json:"address"`
	Balance       achBalance `json:"balance"`
	BankLogo      string     `json:"bank_logo"`
	BankLongName  string     `json:"bank_long_name"`
	BankName      string     `json:"bank_name"`
	Class         string     `json:"class"`
	MatchInfo     matchInfo  `json:"match_info"`
	NameOnAccount string     `json:"name_on_account"`
	Nickname      string     `json:"nickname"`
	RoutingNum    string     `json:"routing_num"`
	Type          string     `json:"type"`
}

type achBalance struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

type matchInfo struct {
	EmailMatch       string `json:"email_match"`
	NameMatch        string `json:"name_match"`
	PhonenumberMatch string `json:"phonenumber_match"`
}

type nodeExtra struct {
	Note   *string        `json:"note"`
	Other  map[string]any `json:"other"`
	SuppID string         `json:"supp_id"`
}

// NodeView is a node as the API returns it.
type NodeView struct {
	ID                string      `json:"_id"`
	Links             links       `json:"_links"`
	Allowed           string      `json:"allowed"`
	AllowedStatusCode *string     `json:"allowed_status_code"`
	Client            ClientView  `json:"client"`
	Extra             nodeExtra   `json:"extra"`
	Info              any         `json:"info"` // nodeInfo, achNodeInfo or, for the other types, a map
	IsActive          bool        `json:"is_active"`
	Timeline          []nodeEvent `json:"timeline"`
	Type              string      `json:"type"`
	UserID            string      `json:"user_id"`
}

func (st *Store) nodeView(n *nodeRecord) NodeView {
	snap := st.nodeSnap(n)
	return snap.view()
}

// nodeSnap is what a node's view shows, taken at one moment: a copy of the
// node's record and of what the view reads beside it. A node event keeps
// one and encodes it only when it is read. The copy shares the record's
// maps and pointers, which are replaced, never written in place, once the
// node is made; its timeline is its own.
type nodeSnap struct {
	n      nodeRecord
	name   string // info.name_on_account
	base   string
	client ClientView
}

// nodeSnap takes n's snapshot. Callers hold mu.
func (st *Store) nodeSnap(n *nodeRecord) nodeSnap {
	name := n.nameOnAcct
	if u := st.users[n.userID]; name == "" && u != nil && len(u.legalNames) > 0 {
		name = u.legalNames[0]
	}
	snap := nodeSnap{n: *n, name: name, base: st.base, client: st.client}
	// A node's timeline only grows by append (its entries are never
	// written), so the snapshot shares what it shows.
	snap.n.timeline = n.timeline[:len(n.timeline):len(n.timeline)]
	snap.n.txIDs, snap.n.subnetIDs = nil, nil // not shown, and they grow
	return snap
}

// appendView appends the snapshot's view as JSON: what the node event's
// webhook carries.
func (snap *nodeSnap) appendView(b []byte) ([]byte, error) { return snap.view().AppendJSON(b) }

// view is the node's API view as of the snapshot. The view's timeline is
// the snapshot's own slice.
func (snap *nodeSnap) view() NodeView {
	n, name := &snap.n, snap.name
	other := otherView(n.other)
	for k, v := range n.sysOther {
		other[k] = v
	}
	v := NodeView{
		ID:       n.id,
		Links:    linkTo(snap.base + "/users/" + n.userID + "/nodes/" + n.id),
		Allowed:  n.allowed,
		Client:   snap.client,
		Extra:    nodeExtra{Note: n.note, Other: other, SuppID: n.suppID},
		IsActive: n.isActive,
		Timeline: n.timeline,
		Type:     n.typ,
		UserID:   n.userID,
	}
	switch {
	case n.typ == reference.NodeACHUS:
		v.Info = achNodeInfo{
			AccountNum: LastFour(n.accountNum), Address: n.bank.Address,
			Balance:  achBalance{Amount: Fixed2(n.balance), Currency: n.currency},
			BankLogo: n.bank.Logo, BankLongName: n.bank.LongName, BankName: n.bank.Name,
			Class:         n.accountClass,
			MatchInfo:     matchInfo{EmailMatch: "not_found", NameMatch: "not_found", PhonenumberMatch: "not_found"},
			NameOnAccount: name, Nickname: n.nickname, RoutingNum: LastFour(n.routingNum), Type: n.accountType,
		}
	case n.info != nil:
		info := maps.Clone(n.info)
		info["balance"] = balanceView{Amount: n.balance, Currency: n.currency}
		info["document_id"] = n.documentID
		info["name_on_account"] = name
		info["nickname"] = n.nickname
		v.Info = info
	default:
		info := nodeInfo{
			Agreements:    []agreement{},
			Balance:       balanceView{Amount: n.balance, Currency: n.currency},
			BankCode:      "EBT",
			DocumentID:    n.documentID,
			NameOnAccount: name,
			Nickname:      n.nickname,
		}
		switch reference.BaseNodeType(n.typ) {
		case reference.NodeIBDepositUS, reference.NodeIBSubaccountUS:
			m := monthlyWithdrawals
			info.MonthlyWithdrawalsRemaining = &m
		}
		if reference.IsDepositType(n.typ) {
			info.Agreements = []agreement{{Type: "NODE_AGREEMENT", URL: "https://synapsefake.invalid/agreements/NODE_AGREEMENT.pdf"}}
		}
		v.Info = info
	}
	return v
}

// otherView is extra.other on the wire: {} when the client sent none. The
// copy is shallow; the record's map is never changed after creation.
func otherView(o map[string]any) map[string]any {
	if o == nil {
		return map[string]any{}
	}
	return maps.Clone(o)
}

// Fixed2 writes c in USD with two decimals, as an ACH-US node's balance
// shows it: 0 -> "0.00", -150 -> "-1.50".
func Fixed2(c Cents) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// LastFour returns the last four characters of s, or s when it is shorter:
// the masked form of an account or routing number.
func LastFour(s string) string {
	if len(s) <= 4 {
		return s
	}
	return s[len(s)-4:]
}

// Node is documented at synapsefake.Node.
type Node struct {
	ID       string
	UserID   string
	Type     string
	Nickname string
	Allowed  Allowed
	// BalanceCents is the node's balance in cents.
	BalanceCents int64
	// AvailableCents is the balance less the debits promised but not yet
	// made: outgoing transactions CREATED or queued, approved card swipes
	// not yet debited. Card swipes must fit in it, and with WithFundsCheck
	// single transactions and dummy withdrawals too. The wire has no such
	// field.
	AvailableCents int64
	Currency       string
	IsActive       bool
	SuppID         string
}

func (n *nodeRecord) public() Node {
	return Node{ID: n.id, UserID: n.userID, Type: n.typ, Nickname: n.nickname, Allowed: Allowed(n.allowed),
		BalanceCents: int64(n.balance), AvailableCents: int64(n.available()), Currency: n.currency, IsActive: n.isActive, SuppID: n.suppID}
}

// NodeSeed is documented at synapsefake.NodeSeed.
type NodeSeed struct {
	Type string
	// Nickname defaults to "Node"; like the API, AddNode takes at most 256
	// characters.
	Nickname string
	// BalanceCents is the starting balance in cents, within
	// ±MaxBalanceCents; AddNode refuses any other value.
	BalanceCents int64
	// AccountNum and RoutingNum describe an ACH-US node's external account.
	AccountNum string
	RoutingNum string
	SuppID     string
}

// maxNicknameLength is the longest node nickname, in characters. The spec
// states no limit; this one is generous for a name shown on screens and
// statements, and keeps every node's size bounded.
const maxNicknameLength = 256

// validNickname refuses a nickname longer than maxNicknameLength; field is
// its name in the request.
func validNickname(field, nickname string) error {
	if utf8.RuneCountInString(nickname) > maxNicknameLength {
		return apierr.Payload("nickname_too_long", "%s must be at most %d characters.", field, maxNicknameLength)
	}
	return nil
}

// achUSOther is the extra.other of an ACH-US node not made by bank login,
// shared by every such node: sysOther is replaced, never changed.
var achUSOther = map[string]any{"access_token": nil, "updated_on": nil}

// newNode builds and stores a node. Callers hold mu and have validated the input.
func (st *Store) newNode(now time.Time, u *userRecord, seed NodeSeed, accountType, accountClass string, note *string) *nodeRecord {
	n := &nodeRecord{
		id:           st.newID(),
		userID:       u.id,
		typ:          seed.Type,
		nickname:     seed.Nickname,
		allowed:      AllowedCreditAndDebit,
		balance:      Cents(seed.BalanceCents),
		currency:     "USD",
		accountNum:   seed.AccountNum,
		routingNum:   seed.RoutingNum,
		accountType:  accountType,
		accountClass: accountClass,
		isActive:     true,
		suppID:       seed.SuppID,
		note:         note,
		created:      now,
		timeline:     []nodeEvent{{Date: Ms(now), Note: "Node created."}},
	}
	switch reference.BaseNodeType(n.typ) {
	case reference.NodeACHUS:
		n.bank = reference.ACHBank(n.routingNum)
		n.sysOther = achUSOther
		n.microPending = true
		if st.microDeposits {
			n.allowed = AllowedCredit
			n.timeline = append(n.timeline, nodeEvent{Date: Ms(now), Note: "Micro deposits initiated."})
		}
	case reference.NodeCardUS:
		// As recorded: a new card node is INACTIVE until PATCH allowed.
		n.allowed = AllowedInactive
		n.sysOther = map[string]any{"access_token": st.newID()}
		n.info = st.newCardInfo(nil)
		n.timeline = append(n.timeline, nodeEvent{Date: Ms(now), Note: "Card Created."})
	}
	st.nodes[n.id] = n
	if st.book.checked.IsZero() {
		st.firstMonthly = min(st.firstMonthly, firstMonthlyAfter(now))
	}
	u.nodeIDs = append(u.nodeIDs, n.id)
	if u != st.networkUser {
		st.nodeOrder = append(st.nodeOrder, n.id)
	}
	return n
}

// defaultMaxPinAttempts is a new card's preferences.max_pin_attempts.
const defaultMaxPinAttempts = 3

// newCardInfo is the card part of a CARD-US node's info: a new card number
// and hash, and the preferences of old (the defaults when nil). Callers hold mu.
func (st *Store) newCardInfo(old map[string]any) map[string]any {
	hash := st.randomHex(32)
	number := fmt.Sprintf("%04d", (int(hash[0])<<8|int(hash[1]))%10000)
	prefs := map[string]any{"allow_foreign_transactions": false, "atm_withdrawal_limit": 100, "max_pin_attempts": defaultMaxPinAttempts,
		"pos_withdrawal_limit": 1000, "security_alerts": true}
	info := map[string]any{"card_hash": hash, "card_number": number, "card_style_id": nil, "preferences": prefs}
	if old != nil {
		info["preferences"] = old["preferences"]
		if t, ok := old["card_type"]; ok {
			info["card_type"] = t
		}
	}
	return info
}

// interchangeInfo is the card part of an INTERCHANGE-US node's info, from
// the card number as sent: digits, or (as the SDKs send it) the number
// encrypted and base64-encoded. card_number shows the card's last four
// digits; of an encrypted number, which the fake cannot read, four digits
// drawn from its hash. The network follows a plain number's first digit.
func interchangeInfo(sent string) map[string]any {
	sum := sha256.Sum256([]byte(sent))
	last4 := fmt.Sprintf("%04d", binary.BigEndian.Uint32(sum[:4])%10000)
	network := "VISA"
	if AllDigits(sent) && len(sent) >= 4 {
		last4 = LastFour(sent)
		network = map[byte]string{'2': "MASTERCARD", '3': "AMEX", '5': "MASTERCARD", '6': "DISCOVER"}[sent[0]]
		if network == "" {
			network = "VISA"
		}
	}
	return map[string]any{"card_hash": hex.EncodeToString(sum[:]), "card_number": last4,
		"is_international": false, "network": network, "type": "DEBIT"}
}

// sameNodeType reports whether node types a and b name one type: today's name and
// its older ones (SYNAPSE-US is DEPOSIT-US) compare equal, wherever a type is compared.
func sameNodeType(a, b string) bool { return reference.BaseNodeType(a) == reference.BaseNodeType(b) }

// knownNodeType reports whether t is a node type the fake takes: one of
// reference.NodeTypes or an older name of one.
func knownNodeType(t string) bool { return reference.IsNodeType(t) }

// validRoutingNumber applies the ABA checksum; the fake "knows" every routing
// number whose checksum holds. POST /routing-number-verification answers from
// the same check.
func validRoutingNumber(r string) bool { return reference.ValidRoutingNumber(r) }

func (st *Store) createNode(now time.Time, userID string, req CreateNodeRequest) (NodeView, error) {
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return NodeView{}, apierr.NotFound("user")
	}
	in := req.Info
	seed := NodeSeed{Type: *req.Type, Nickname: *in.Nickname, AccountNum: in.AccountNum,
		RoutingNum: in.RoutingNum, SuppID: req.Extra.SuppID}
	var typ, class string
	if seed.Type == reference.NodeACHUS {
		typ, class = in.Type, in.Class
		if typ == "" {
			typ = "PERSONAL"
		}
		if class == "" {
			class = "CHECKING"
		}
	}
	n := st.newNode(now, u, seed, typ, class, req.Extra.Note)
	n.other = req.Extra.Other
	n.documentID = in.DocumentID
	if in.NameOnAccount != nil {
		n.nameOnAcct = *in.NameOnAccount
	}
	switch reference.BaseNodeType(seed.Type) {
	case reference.NodeWireUS, reference.NodeWireInt:
		bank := reference.ACHBank(in.RoutingNum).Name
		if in.BankName != nil {
			bank = *in.BankName
		}
		address := ""
		if in.Address != nil {
			address = *in.Address
		}
		n.info = map[string]any{"account_num": LastFour(in.AccountNum), "bank_name": bank}
		if c := in.CorrespondentInfo; c != nil {
			corr := map[string]any{}
			for k, v := range map[string]*string{"address": c.Address, "bank_name": c.BankName, "swift": c.Swift} {
				if v != nil {
					corr[k] = *v
				}
			}
			if c.RoutingNum != nil {
				corr["routing_num"] = LastFour(*c.RoutingNum)
			}
			if address == "" && c.Address != nil {
				address = *c.Address
			}
			n.info["correspondent_info"] = corr
		}
		n.info["address"] = address
		if in.RoutingNum != "" {
			n.info["routing_num"] = LastFour(in.RoutingNum)
		}
		if in.Swift != nil {
			n.info["swift"] = *in.Swift
		}
	case reference.NodeCheckUS:
		a := in.PayeeAddress
		n.info = map[string]any{"payee_name": *in.PayeeName, "payee_address": map[string]any{
			"address_street": *a.Street, "address_city": *a.City, "address_subdivision": *a.Subdivision,
			"address_country_code": *a.CountryCode, "address_postal_code": *a.PostalCode}}
	case reference.NodeInterchangeUS:
		n.info = interchangeInfo(*in.CardNumber)
	case reference.NodeIOU:
		n.currency = *in.Balance.Currency
		n.info = map[string]any{}
	case reference.NodeCryptoUS:
		n.info = map[string]any{"portfolio": map[string]any{"BTC": 0, "ETH": 0}}
		n.sysOther = map[string]any{"access_token": st.newID()}
	case reference.NodeCardUS:
		if in.CardType != nil {
			n.info["card_type"] = *in.CardType
		}
	}
	return st.emitNode(now, "NODES|POST", n), nil
}

// listNodes answers a page of a user's active nodes, of the type typ
// (under any of its names) when it is not "".
func (st *Store) listNodes(userID string, q ListQuery, typ string) (NodesList, error) {
	nodes, total, err := pageOf(st, q, listing[*nodeRecord, NodeView]{
		ids: func(st *Store) ([]string, error) {
			u := st.users[userID]
			if u == nil {
				return nil, apierr.NotFound("user")
			}
			return u.nodeIDs, nil
		},
		record: nodeByID,
		skip:   skipNodeType(typ),
		view:   (*Store).nodeView,
		fields: nodeFields,
		typed:  typedNodeFields,
	})
	if err != nil {
		return NodesList{}, err
	}
	p := q.Page
	return NodesList{ErrorCode: "0", HTTPCode: "200", Limit: p.PerPage, NodeCount: total, Nodes: nodes,
		Page: &p.Number, PageCount: p.PageCount(total), Success: true}, nil
}

func nodeByID(st *Store, id string) *nodeRecord { return st.nodes[id] }

// skipNodeType leaves out the nodes not of the type typ (under any of its
// names); nothing when typ is "".
func skipNodeType(typ string) func(*Store) func(*nodeRecord) bool {
	if typ == "" {
		return nil
	}
	return func(*Store) func(*nodeRecord) bool {
		return func(n *nodeRecord) bool { return !sameNodeType(n.typ, typ) }
	}
}

// userNode finds a node under a user: unknown ids are 404, another user's
// node is 401 / "300". Callers hold mu.
func (st *Store) userNode(userID, nodeID string) (*nodeRecord, error) {
	if st.users[userID] == nil {
		return nil, errNoUser(userID)
	}
	n := st.nodes[nodeID]
	if n == nil {
		return nil, apierr.NotFound("node").Because("no node %s in this fake", nodeID)
	}
	if n.userID != userID {
		return nil, apierr.Unauthorized("unauthorized_node", "Node %s does not belong to user %s.", nodeID, userID).
			Because("node %s is user %s's, not user %s's", nodeID, n.userID, userID).
			Hinting("a node is reached under its owner: /users/%s/nodes/%s, with that user's key", n.userID, nodeID)
	}
	return n, nil
}

func (st *Store) getNode(userID, nodeID string) (NodeView, error) {
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return NodeView{}, err
	}
	return st.nodeView(n), nil
}

// The timeline notes of a card's shipment and of a node's deletion, as clients
// read them (issue 35).
const (
	noteCardShipped = "Card sent for printing."
	noteNodeDeleted = "Node's 'is_active' toggled to False."
)

func (st *Store) patchNode(now time.Time, userID, nodeID string, req PatchNodeRequest) (NodeView, error) {
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return NodeView{}, err
	}
	if !n.isActive {
		return NodeView{}, apierr.NotAllowed("node_inactive", "Node %s is deleted.", nodeID)
	}
	if req.Micro != nil || req.ResendMicro != nil {
		if n.typ != reference.NodeACHUS || !n.microPending {
			return NodeView{}, apierr.NotAllowed("micro_not_pending", "Node %s has no micro deposits to verify.", nodeID)
		}
	}
	if req.Micro != nil && (ToCents(req.Micro[0]) != microDeposits[0] || ToCents(req.Micro[1]) != microDeposits[1]) {
		return NodeView{}, apierr.Incorrect("incorrect_micro", "Micro deposit amounts do not match.")
	}
	if (req.Ship || req.Reset || req.Allowed != nil || req.Preferences != nil) && reference.BaseNodeType(n.typ) != reference.NodeCardUS {
		return NodeView{}, apierr.NotAllowed("not_a_card_node", "Node %s is not a CARD-US node.", nodeID)
	}
	if req.changesNothing() {
		return st.nodeView(n), nil
	}
	if req.Nickname != nil {
		n.nickname = *req.Nickname
	}
	if req.Info != nil && req.Info.Nickname != nil {
		n.nickname = *req.Info.Nickname
	}
	if req.SuppID != nil {
		n.suppID = *req.SuppID
	}
	if req.Extra != nil {
		if req.Extra.SuppID != nil {
			n.suppID = *req.Extra.SuppID
		}
		if req.Extra.Note != nil {
			n.note = req.Extra.Note
		}
	}
	if req.Allowed != nil {
		n.allowed = *req.Allowed
	}
	if req.Preferences != nil {
		prefs, _ := n.info["preferences"].(map[string]any)
		n.info = maps.Clone(n.info)
		n.info["preferences"] = req.Preferences.applied(prefs)
	}
	if req.Ship {
		n.timeline = append(n.timeline, nodeEvent{Date: Ms(now), Note: noteCardShipped})
	}
	if req.Reset {
		if req.Reissue {
			// The new card waits for activation, as a new card node does.
			n.allowed = AllowedInactive
		}
		n.info = st.newCardInfo(n.info)
		n.timeline = append(n.timeline, nodeEvent{Date: Ms(now), Note: "Card reset."})
	}
	if req.Micro != nil {
		n.microPending = false
		n.allowed = AllowedCreditAndDebit
		n.timeline = append(n.timeline, nodeEvent{Date: Ms(now), Note: "Micro deposits verified."})
	} else if req.ResendMicro != nil {
		n.timeline = append(n.timeline, nodeEvent{Date: Ms(now), Note: "Micro deposits initiated."})
	}
	return st.emitNode(now, "NODE|PATCH", n), nil
}

func (st *Store) deleteNode(now time.Time, userID, nodeID string) (NodeView, error) {
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return NodeView{}, err
	}
	if !n.isActive {
		return NodeView{}, apierr.NotAllowed("node_inactive", "Node %s is already deleted.", nodeID)
	}
	n.isActive = false
	n.timeline = append(n.timeline, nodeEvent{Date: Ms(now), Note: noteNodeDeleted})
	u := st.users[userID]
	u.nodeIDs = slices.DeleteFunc(u.nodeIDs, func(id string) bool { return id == nodeID })
	st.nodeOrder = slices.DeleteFunc(st.nodeOrder, func(id string) bool { return id == nodeID })
	return st.emitNode(now, "NODE|PATCH", n), nil
}

// emitNode records a node event and returns the node's view. The event
// keeps the node's snapshot, encoded only when the event is read. Callers
// hold mu.
func (st *Store) emitNode(now time.Time, function string, n *nodeRecord) NodeView {
	return st.emitNodeSnap(now, function, n).view()
}

// emitNodeSnap records a node event and returns the snapshot it keeps.
// Callers hold mu.
func (st *Store) emitNodeSnap(now time.Time, function string, n *nodeRecord) *nodeSnap {
	snap := st.nodeSnap(n)
	st.emitLazy(now, function, "NODE", n.id, &snap)
	return &snap
}

// fund adds c to a node's balance, with a line on its statements, unless
// the node is deleted or its user locked (accountOpen). Callers hold mu.
func (st *Store) fund(now time.Time, nodeID string, c int64) error {
	n := st.nodes[nodeID]
	if n == nil || st.networkUser != nil && n.userID == st.networkUser.id {
		return apierr.NotFound("node")
	}
	if err := st.accountOpen(n); err != nil {
		return err
	}
	if !n.fits(Cents(c)) {
		return errBalanceLimit(n.id)
	}
	n.balance += Cents(c)
	st.addMovement(n, movement{date: now, kind: MovementFunds, desc: "Funds added", amount: Cents(c)})
	return nil
}
