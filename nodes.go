package synapsefake

import (
	"maps"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/reference"
)

// Values of a node's allowed field.
const (
	AllowedCreditAndDebit = "CREDIT-AND-DEBIT"
	AllowedCredit         = "CREDIT"
	AllowedDebit          = "DEBIT"
	AllowedLocked         = "LOCKED"
)

// microDeposits are the amounts the sandbox "sent" to verify an ACH-US node.
var microDeposits = []cents{10, 10}

type nodeRecord struct {
	id           string
	userID       string
	typ          string
	nickname     string
	allowed      string
	balance      cents
	pending      cents // debits promised, not yet made: outgoing transactions CREATED or queued, card holds
	inflight     cents // debits made, not yet settled or returned: may come back to balance
	currency     string
	accountNum   string
	routingNum   string
	accountType  string // PERSONAL or BUSINESS, ACH-US only
	accountClass string // CHECKING or SAVINGS, ACH-US only
	isActive     bool
	suppID       string
	note         *string
	other        map[string]any // extra.other as the client sent it; never changed afterwards
	created      time.Time
	timeline     []nodeEvent
	txIDs        []string // transactions from or to the node, oldest first
	subnetIDs    []string // creation order
}

// available is the balance less the debits promised but not yet made.
func (n *nodeRecord) available() cents { return n.balance - n.pending }

// fits reports whether n can take delta within the balance limits: a credit
// must keep the balance plus the debits in flight (which may come back)
// within MaxBalanceCents, a debit must keep the available balance at or
// above -MaxBalanceCents.
func (n *nodeRecord) fits(delta cents) bool {
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
	Amount   cents  `json:"amount"`
	Currency string `json:"currency"`
}

type nodeInfo struct {
	Agreements    []agreement `json:"agreements"`
	Balance       balanceView `json:"balance"`
	BankCode      string      `json:"bank_code"`
	DocumentID    *string     `json:"document_id"`
	NameOnAccount string      `json:"name_on_account"`
	Nickname      string      `json:"nickname"`
	// ACH-US only.
	AccountNum   string `json:"account_num,omitempty"`
	RoutingNum   string `json:"routing_num,omitempty"`
	Type         string `json:"type,omitempty"`
	Class        string `json:"class,omitempty"`
	BankName     string `json:"bank_name,omitempty"`
	BankLongName string `json:"bank_long_name,omitempty"`
}

type nodeExtra struct {
	Note   *string        `json:"note"`
	Other  map[string]any `json:"other"`
	SuppID string         `json:"supp_id"`
}

// nodeView is a node as the API returns it.
type nodeView struct {
	ID                string      `json:"_id"`
	Links             links       `json:"_links"`
	Allowed           string      `json:"allowed"`
	AllowedStatusCode *string     `json:"allowed_status_code"`
	Client            clientView  `json:"client"`
	Extra             nodeExtra   `json:"extra"`
	Info              nodeInfo    `json:"info"`
	IsActive          bool        `json:"is_active"`
	Timeline          []nodeEvent `json:"timeline"`
	Type              string      `json:"type"`
	UserID            string      `json:"user_id"`
}

func (st *store) nodeView(n *nodeRecord) nodeView {
	info := nodeInfo{
		Agreements: []agreement{},
		Balance:    balanceView{Amount: n.balance, Currency: n.currency},
		BankCode:   "EBT",
		Nickname:   n.nickname,
	}
	if u := st.users[n.userID]; u != nil && len(u.legalNames) > 0 {
		info.NameOnAccount = u.legalNames[0]
	}
	if reference.IsDepositType(n.typ) {
		info.Agreements = []agreement{{Type: "NODE_AGREEMENT", URL: "https://synapsefake.invalid/agreements/NODE_AGREEMENT.pdf"}}
	}
	if n.typ == reference.NodeACHUS {
		info.BankCode = ""
		info.AccountNum = lastFour(n.accountNum)
		info.RoutingNum = lastFour(n.routingNum)
		info.Type = n.accountType
		info.Class = n.accountClass
		info.BankName = "SYNAPSEFAKE TEST BANK"
		info.BankLongName = "SYNAPSEFAKE TEST BANK, N.A."
	}
	return nodeView{
		ID:       n.id,
		Links:    linkTo(st.base + "/users/" + n.userID + "/nodes/" + n.id),
		Allowed:  n.allowed,
		Client:   st.client,
		Extra:    nodeExtra{Note: n.note, Other: otherView(n.other), SuppID: n.suppID},
		Info:     info,
		IsActive: n.isActive,
		Timeline: slices.Clone(n.timeline),
		Type:     n.typ,
		UserID:   n.userID,
	}
}

// otherView is extra.other on the wire: {} when the client sent none. The
// copy is shallow; the record's map is never changed after creation.
func otherView(o map[string]any) map[string]any {
	if o == nil {
		return map[string]any{}
	}
	return maps.Clone(o)
}

func lastFour(s string) string {
	if len(s) <= 4 {
		return s
	}
	return s[len(s)-4:]
}

// Node is a copy of a node's state, for assertions in tests.
type Node struct {
	ID       string
	UserID   string
	Type     string
	Nickname string
	Allowed  string
	// BalanceCents is the node's balance in cents.
	BalanceCents int64
	// AvailableCents is the balance less the debits promised but not yet
	// made: outgoing transactions CREATED or queued, approved card swipes
	// not yet debited. Single transactions, dummy withdrawals and card
	// swipes must fit in it. The wire has no such field.
	AvailableCents int64
	Currency       string
	IsActive       bool
	SuppID         string
}

func (n *nodeRecord) public() Node {
	return Node{ID: n.id, UserID: n.userID, Type: n.typ, Nickname: n.nickname, Allowed: n.allowed,
		BalanceCents: int64(n.balance), AvailableCents: int64(n.available()), Currency: n.currency, IsActive: n.isActive, SuppID: n.suppID}
}

// NodeSeed describes a node for AddNode. Type defaults to DEPOSIT-US.
type NodeSeed struct {
	Type string
	// Nickname defaults to "Node"; like the API, AddNode takes at most 256
	// characters.
	Nickname string
	// BalanceCents is the starting balance in cents, within
	// ±MaxBalanceCents; AddNode panics on any other value.
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
		return errPayload("nickname_too_long", "%s must be at most %d characters.", field, maxNicknameLength)
	}
	return nil
}

// newNode builds and stores a node. Callers hold mu and have validated the input.
func (st *store) newNode(now time.Time, u *userRecord, seed NodeSeed, accountType, accountClass string, note *string) *nodeRecord {
	n := &nodeRecord{
		id:           st.newID(),
		userID:       u.id,
		typ:          seed.Type,
		nickname:     seed.Nickname,
		allowed:      AllowedCreditAndDebit,
		balance:      cents(seed.BalanceCents),
		currency:     "USD",
		accountNum:   seed.AccountNum,
		routingNum:   seed.RoutingNum,
		accountType:  accountType,
		accountClass: accountClass,
		isActive:     true,
		suppID:       seed.SuppID,
		note:         note,
		created:      now,
		timeline:     []nodeEvent{{Date: ms(now), Note: "Node created."}},
	}
	if n.typ == reference.NodeACHUS && st.microDeposits {
		n.allowed = AllowedCredit
		n.timeline = append(n.timeline, nodeEvent{Date: ms(now), Note: "Micro deposits initiated."})
	}
	st.nodes[n.id] = n
	u.nodeIDs = append(u.nodeIDs, n.id)
	if u != st.networkUser {
		st.nodeOrder = append(st.nodeOrder, n.id)
	}
	return n
}

// validRoutingNumber applies the ABA checksum; the fake "knows" every routing
// number whose checksum holds. POST /routing-number-verification answers from
// the same check.
func validRoutingNumber(r string) bool { return reference.ValidRoutingNumber(r) }
