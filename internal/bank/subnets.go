// Subnets, the bank's side: the record, its preferences and views.

package bank

import (
	"encoding/json"
	"math"
	"slices"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// AccountClass is a subnet's account class: see synapsefake.AccountClass.
// The constants below are untyped, for the store's own string fields.
type AccountClass string

// Account classes of a subnet.
const (
	ClassChecking = "CHECKING"
	ClassSavings  = "SAVINGS"
	ClassCard     = "CARD"
)

// fakeRoutingNumber is the routing number of every account-number subnet.
const fakeRoutingNumber = "084106768"

// cardLifetimeYears is how long a new card is valid: its exp is the day of
// issue (UTC) this many years ahead.
const cardLifetimeYears = 3

// Default card preferences: cash allowed, foreign refused, $500 of cash and
// $1,000 of purchases a day.
var defaultPreferences = preferences{allowCash: true, allowForeign: false, dailyCash: 50000, dailyTransaction: 100000}

type preferences struct {
	allowCash        bool
	allowForeign     bool
	dailyCash        Cents
	dailyTransaction Cents
}

type subnetRecord struct {
	id          string
	userID      string
	nodeID      string
	nickname    string
	class       string
	status      SubnetStatus
	statusCode  string
	created     time.Time
	updated     time.Time
	suppID      *string
	cardStyleID *string
	pin         string
	prefs       preferences
	cardNumber  string // cards: 16 digits
	cvc         string // cards: 3 digits
	exp         time.Time
	accountNum  string // account numbers: 10 digits
	txIDs       []string
	ships       []*shipRecord // card shipments, oldest first
}

// expired reports whether a card is past its exp date (valid through the
// whole exp day, UTC).
func (sn *subnetRecord) expired(now time.Time) bool {
	return !now.Before(sn.exp.AddDate(0, 0, 1))
}

type preferencesView struct {
	AllowCashTransactions    bool  `json:"allow_cash_transactions"`
	AllowForeignTransactions bool  `json:"allow_foreign_transactions"`
	DailyCashLimit           int64 `json:"daily_cash_limit"`        // cents
	DailyTransactionLimit    int64 `json:"daily_transaction_limit"` // cents
}

type routingView struct {
	ACH  string `json:"ach"`
	Wire string `json:"wire"`
}

// SubnetView is a subnet as the API returns it. Card fields and account
// fields are left out of the other class.
type SubnetView struct {
	ID           string           `json:"_id"`
	Links        links            `json:"_links"`
	AbuToken     *string          `json:"abu_token,omitempty"`
	AccountClass string           `json:"account_class"`
	AccountNum   string           `json:"account_num,omitempty"`
	Agreements   []agreement      `json:"agreements"`
	Allowed      string           `json:"allowed"` // the v3.1.0 reading of the status, beside it
	CardNumber   string           `json:"card_number,omitempty"`
	CardStyleID  any              `json:"card_style_id,omitempty"` // cards only: a string or null
	Client       ClientView       `json:"client"`
	CreatedOn    int64            `json:"created_on"`
	Cvc          string           `json:"cvc,omitempty"`
	Exp          string           `json:"exp,omitempty"`
	Nickname     string           `json:"nickname"`
	NodeID       string           `json:"node_id"`
	Preferences  *preferencesView `json:"preferences,omitempty"`
	RoutingNum   *routingView     `json:"routing_num,omitempty"`
	Status       SubnetStatus     `json:"status"`
	StatusCode   string           `json:"status_code"`
	SuppID       *string          `json:"supp_id"`
	UpdatedOn    int64            `json:"updated_on"`
	UserID       string           `json:"user_id"`
}

// allowed is the subnet's status as the v3.1.0 field allowed read it: an
// active account-number subnet receives (CREDIT; synapse_pay_rest's
// Subnet.lock is documented as moving it "from 'CREDIT' to 'LOCKED'"), an
// active card also spends (CREDIT-AND-DEBIT), and a subnet that is not
// active is LOCKED.
func (sn *subnetRecord) allowed() string {
	switch {
	case sn.status != SubnetActive:
		return AllowedLocked
	case sn.class == ClassCard:
		return AllowedCreditAndDebit
	}
	return AllowedCredit
}

// subnetView builds the wire shape; full shows the personal data (full card
// number, cvc, account number) that is otherwise masked.
func (st *Store) subnetView(sn *subnetRecord, full bool) SubnetView {
	v := SubnetView{
		ID:           sn.id,
		Links:        linkTo(st.base + "/users/" + sn.userID + "/nodes/" + sn.nodeID + "/subnets/" + sn.id),
		AccountClass: sn.class,
		Agreements:   []agreement{{Type: "SUBNET_AGREEMENT", URL: "https://synapsefake.invalid/agreements/SUBNET_AGREEMENT.pdf"}},
		Allowed:      sn.allowed(),
		Client:       st.client,
		CreatedOn:    Ms(sn.created),
		Nickname:     sn.nickname,
		NodeID:       sn.nodeID,
		Status:       sn.status,
		StatusCode:   sn.statusCode,
		SuppID:       sn.suppID,
		UpdatedOn:    Ms(sn.updated),
		UserID:       sn.userID,
	}
	if sn.class == ClassCard {
		abu := "abu_" + sn.id
		v.AbuToken = &abu
		v.CardNumber, v.Cvc = LastFour(sn.cardNumber), "***"
		if full {
			v.CardNumber, v.Cvc = sn.cardNumber, sn.cvc
		}
		v.CardStyleID = json.RawMessage("null")
		if sn.cardStyleID != nil {
			v.CardStyleID = *sn.cardStyleID
		}
		v.Exp = sn.exp.Format(time.DateOnly)
		v.Preferences = &preferencesView{AllowCashTransactions: sn.prefs.allowCash, AllowForeignTransactions: sn.prefs.allowForeign,
			DailyCashLimit: int64(sn.prefs.dailyCash), DailyTransactionLimit: int64(sn.prefs.dailyTransaction)}
		return v
	}
	v.AccountNum = "******" + LastFour(sn.accountNum)
	if full {
		v.AccountNum = sn.accountNum
	}
	v.RoutingNum = &routingView{ACH: fakeRoutingNumber, Wire: fakeRoutingNumber}
	return v
}

// Subnet is documented at synapsefake.Subnet.
type Subnet struct {
	ID           string
	UserID       string
	NodeID       string
	Nickname     string
	AccountClass AccountClass
	Status       SubnetStatus
	StatusCode   string
	// CardNumber, Cvc and Exp are set for cards; AccountNum for account numbers.
	CardNumber string
	Cvc        string
	Exp        time.Time
	AccountNum string
	// Pin is the last pin set by PATCH, never shown by the API.
	Pin                      string
	AllowCashTransactions    bool
	AllowForeignTransactions bool
	// DailyCashLimitCents and DailyTransactionLimitCents are the card's limits.
	DailyCashLimitCents        int64
	DailyTransactionLimitCents int64
}

func (sn *subnetRecord) public() Subnet {
	return Subnet{ID: sn.id, UserID: sn.userID, NodeID: sn.nodeID, Nickname: sn.nickname, AccountClass: AccountClass(sn.class),
		Status: sn.status, StatusCode: sn.statusCode, CardNumber: sn.cardNumber, Cvc: sn.cvc, Exp: sn.exp,
		AccountNum: sn.accountNum, Pin: sn.pin, AllowCashTransactions: sn.prefs.allowCash,
		AllowForeignTransactions: sn.prefs.allowForeign, DailyCashLimitCents: int64(sn.prefs.dailyCash),
		DailyTransactionLimitCents: int64(sn.prefs.dailyTransaction)}
}

// SubnetSeed is documented at synapsefake.SubnetSeed.
type SubnetSeed struct {
	Nickname     string
	AccountClass AccountClass
	Status       SubnetStatus
}

// digits returns n random decimal digits. Callers hold mu.
func (st *Store) digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0' + byte(st.ids.Uint64()%10)
	}
	if b[0] == '0' {
		b[0] = '4'
	}
	return string(b)
}

// newSubnet builds and stores a subnet on a node. Callers hold mu and have
// checked the node's type.
func (st *Store) newSubnet(now time.Time, n *nodeRecord, nickname, class string, suppID, cardStyleID *string) *subnetRecord {
	sn := &subnetRecord{id: st.newID(), userID: n.userID, nodeID: n.id, nickname: nickname, class: class,
		status: SubnetActive, statusCode: "USER_REQUESTED", created: now, updated: now, suppID: suppID, cardStyleID: cardStyleID}
	if class == ClassCard {
		sn.status = SubnetInactive
		sn.cardNumber = luhnComplete("4" + st.digits(14))
		sn.cvc = st.digits(3)
		day := now.UTC()
		sn.exp = time.Date(day.Year()+cardLifetimeYears, day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
		sn.prefs = defaultPreferences
	} else {
		sn.accountNum = st.digits(10)
	}
	st.subnets[sn.id] = sn
	n.subnetIDs = append(n.subnetIDs, sn.id)
	st.users[n.userID].subnetIDs = append(st.users[n.userID].subnetIDs, sn.id)
	return sn
}

// luhnComplete appends the Luhn check digit to a card number prefix.
func luhnComplete(prefix string) string {
	sum := 0
	for i := range len(prefix) {
		d := int(prefix[len(prefix)-1-i] - '0')
		if i%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return prefix + string(rune('0'+(10-sum%10)%10))
}

// subnetNode checks that a node can hold subnets.
func subnetNode(n *nodeRecord) error {
	if t := reference.BaseNodeType(n.typ); t != reference.NodeDepositUS && t != reference.NodeSubaccountUS {
		return apierr.Incorrect("invalid_node_type", "Subnets can only be issued on DEPOSIT-US and SUBACCOUNT-US nodes, not %s.", n.typ)
	}
	if !n.isActive {
		return apierr.NotAllowed("node_inactive", "Node %s is deleted.", n.id)
	}
	return nil
}

// usdToCents converts a preference given in USD (fractions allowed) to the
// cents a GET returns, to the nearest cent: 12.34 -> 1234. It refuses
// non-finite amounts and those beyond ±1e12 USD, which the fake's limits
// do not hold (PatchSubnetRequest.Broken names the contract's rules).
func usdToCents(usd float64) (Cents, error) {
	if math.IsNaN(usd) || math.IsInf(usd, 0) || math.Abs(usd) > 1e12 {
		return 0, apierr.Payload("invalid_limit", "Limits must be amounts from -1e12 to 1e12 USD.")
	}
	return ToCents(usd), nil
}

// nodeSubnet finds a subnet on a node of a user. Callers hold mu.
func (st *Store) nodeSubnet(userID, nodeID, subnetID string) (*subnetRecord, error) {
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return nil, err
	}
	sn := st.subnets[subnetID]
	if sn == nil {
		return nil, apierr.NotFound("subnet").Because("no subnet %s in this fake", subnetID)
	}
	if sn.userID != userID {
		return nil, apierr.Unauthorized("unauthorized_subnet", "Subnet %s does not belong to user %s.", subnetID, userID).
			Because("subnet %s is user %s's, not user %s's", subnetID, sn.userID, userID).
			Hinting("a subnet is reached under its owner: /users/%s/nodes/%s/subnets/%s", sn.userID, sn.nodeID, subnetID)
	}
	if sn.nodeID != n.id {
		return nil, apierr.NotFound("subnet").Because("subnet %s is on node %s, not on node %s", subnetID, sn.nodeID, n.id)
	}
	return sn, nil
}

// patchSubnet applies a validated PATCH; one that changes nothing leaves
// the subnet as it is, with no event. strict is the server's strictRules
// for the request, for the contract's rules only the subnet shows broken.
// Callers hold mu.
func (st *Store) patchSubnet(sn *subnetRecord, now time.Time, req PatchSubnetRequest, strict func(...BrokenRule) error) error {
	if req.changesNothing() {
		return nil
	}
	if to := req.status(); to != nil && !canMoveSubnet(sn.status, *to) {
		return apierr.NotAllowed("illegal_status_change", "Subnet cannot move from %s to %s.", sn.status, *to)
	}
	if sn.status == SubnetTerminated {
		return apierr.NotAllowed("subnet_terminated", "Subnet %s is TERMINATED; it cannot be changed.", sn.id)
	}
	if req.Preferences != nil && sn.class != ClassCard {
		// Taken and ignored: an account number has no preferences to show.
		if err := strict(BrokenRule{"preferences apply to cards", apierr.NotAllowed("not_a_card", "Preferences apply to cards only.")}); err != nil {
			return err
		}
		req.Preferences = nil
	}
	if to := req.status(); to != nil {
		sn.status = *to
	}
	if req.StatusCode != nil {
		sn.statusCode = *req.StatusCode
	}
	if p := req.pin(); p != nil {
		sn.pin = *p
	}
	if req.Nickname != nil {
		sn.nickname = *req.Nickname
	}
	if req.SuppID != nil {
		sn.suppID = req.SuppID
	}
	if p := req.Preferences; p != nil {
		if p.AllowCashTransactions != nil {
			sn.prefs.allowCash = *p.AllowCashTransactions
		}
		if p.AllowForeignTransactions != nil {
			sn.prefs.allowForeign = *p.AllowForeignTransactions
		}
		if p.DailyCashLimit != nil {
			sn.prefs.dailyCash, _ = usdToCents(*p.DailyCashLimit)
		}
		if p.DailyTransactionLimit != nil {
			sn.prefs.dailyTransaction, _ = usdToCents(*p.DailyTransactionLimit)
		}
	}
	sn.updated = now
	st.emit(now, "SUBNET|PATCH", "SUBNET", sn.id, st.subnetView(sn, false))
	return nil
}

// AddSubnet is documented at synapsefake.Server.AddSubnet.
func (s *Bank) AddSubnet(userID, nodeID string, seed SubnetSeed) (Subnet, error) {
	return s.AddSubnetAt(s.Now(), userID, nodeID, seed)
}

// AddSubnetAt is AddSubnet with the subnet created at at.
func (s *Bank) AddSubnetAt(at time.Time, userID, nodeID string, seed SubnetSeed) (Subnet, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err == nil {
		err = subnetNode(n)
	}
	if err != nil {
		return Subnet{}, err
	}
	class := CreateSubnetRequest{AccountClass: string(seed.AccountClass)}.class() // as the API reads it
	if !slices.Contains([]string{ClassChecking, ClassSavings, ClassCard}, class) {
		return Subnet{}, apierr.Payload("invalid_account_class", "Unknown account_class %q.", class)
	}
	if seed.Status != "" && !slices.Contains([]SubnetStatus{SubnetActive, SubnetInactive, SubnetTerminated}, seed.Status) {
		return Subnet{}, apierr.Payload("invalid_status", "Unknown subnet status %q.", seed.Status)
	}
	if seed.Nickname == "" {
		seed.Nickname = "Subnet"
	}
	defer st.asBackend()()
	sn := st.newSubnet(at, n, seed.Nickname, class, nil, nil)
	if seed.Status != "" {
		sn.status = seed.Status
	}
	st.emit(sn.created, "SUBNETS|POST", "SUBNET", sn.id, st.subnetView(sn, false))
	return sn.public(), nil
}

// Subnet is documented at synapsefake.Server.Subnet.
func (s *Bank) Subnet(id string) (Subnet, bool) {
	st := s.store
	defer st.lock().unlock()
	sn := st.subnets[id]
	if sn == nil {
		return Subnet{}, false
	}
	return sn.public(), true
}
