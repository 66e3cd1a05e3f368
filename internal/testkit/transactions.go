package testkit

// Transactions: a fake on a mock clock with the nodes a transaction test needs, and the wire form a transaction is checked against.

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// AllStatuses are the eight statuses of the spec's table, by status_id: a
// new slice each call.
func AllStatuses() []synapsefake.Status {
	return []synapsefake.Status{
		synapsefake.StatusQueuedBySynapse,
		synapsefake.StatusQueuedByReceiver,
		synapsefake.StatusCreated,
		synapsefake.StatusProcessingDebit,
		synapsefake.StatusProcessingCredit,
		synapsefake.StatusSettled,
		synapsefake.StatusCanceled,
		synapsefake.StatusReturned,
	}
}

// Reach brings a CREATED transaction to status with the helpers, one legal
// move at a time where it can.
func Reach(f *synapsefake.Server, id string, status synapsefake.Status) error {
	var path []synapsefake.Status
	switch status {
	case synapsefake.StatusCreated:
	case synapsefake.StatusQueuedBySynapse, synapsefake.StatusQueuedByReceiver, synapsefake.StatusProcessingDebit, synapsefake.StatusCanceled:
		path = []synapsefake.Status{status}
	case synapsefake.StatusProcessingCredit:
		path = []synapsefake.Status{synapsefake.StatusProcessingDebit, status}
	case synapsefake.StatusSettled, synapsefake.StatusReturned:
		path = []synapsefake.Status{synapsefake.StatusProcessingDebit, synapsefake.StatusProcessingCredit, status}
	default:
		return fmt.Errorf("no way to %s", status)
	}
	for _, s := range path {
		if err := f.AdvanceTransaction(id, s); err != nil {
			return fmt.Errorf("AdvanceTransaction(%s): %w", s, err)
		}
	}
	return nil
}

// BatchPath is POST .../batch-trans of the sender's DEPOSIT-US node.
func (e TxEnv) BatchPath() string {
	return "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/batch-trans"
}

// Friday is a Friday noon UTC: an ACH transfer created then settles on
// Monday, after the weekend.
func Friday() time.Time { return time.Date(2024, time.January, 5, 12, 0, 0, 0, time.UTC) }

// TxIP is the extra.ip every test transaction carries.
const TxIP = "192.168.0.1"

// TxEnv is a fake on a mock clock set to friday with the nodes transaction
// tests need.
type TxEnv struct {
	Fake    *synapsefake.Server
	Mock    *clock.Mock
	Fx      Fixture          // the sender: "Sam Sender", a DEPOSIT-US node "Checking", every scope
	Savings synapsefake.Node // a second DEPOSIT-US node of the sender
	Bank    synapsefake.Node // an ACH-US node of the sender
	Payee   Fixture          // "Pat Payee" with a DEPOSIT-US node "Checking"
	FeeNode synapsefake.Node // a DEPOSIT-US node of "Platform Inc", credited with fees
}

// NewTxEnv builds a TxEnv whose sender's DEPOSIT-US node holds balanceCents.
func NewTxEnv(t testing.TB, balanceCents int64, opts ...synapsefake.Option) TxEnv {
	t.Helper()
	mock := clock.NewMock()
	mock.Set(Friday())
	// Keys outlive every clock advance of the tests.
	base := []synapsefake.Option{synapsefake.WithClock(mock), synapsefake.WithOAuthKeyLifetime(365 * 24 * time.Hour)}
	fake := synapsefake.NewServer(t, append(base, opts...)...)
	e := TxEnv{Fake: fake, Mock: mock}
	e.Fx = NamedFixture(t, fake, "Sam Sender", balanceCents)
	e.Savings = AddTxNode(t, fake, e.Fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	e.Bank = AddTxNode(t, fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank",
		AccountNum: "123456789", RoutingNum: "051000017"})
	e.Payee = NamedFixture(t, fake, "Pat Payee", 0)
	platform := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Platform Inc"}})
	e.FeeNode = AddTxNode(t, fake, platform.ID, synapsefake.NodeSeed{Nickname: "Fees"})
	return e
}

// AddTxNode seeds a node for userID; it fails the test on an error.
func AddTxNode(t testing.TB, fake *synapsefake.Server, userID string, seed synapsefake.NodeSeed) synapsefake.Node {
	t.Helper()
	n := fake.MustAddNode(t, userID, seed)
	return n
}

// TransPath is the path of a node's transactions.
func TransPath(userID, nodeID string) string {
	return "/users/" + userID + "/nodes/" + nodeID + "/trans"
}

// TranPath is the path of a node's transaction.
func TranPath(userID, nodeID, txID string) string { return TransPath(userID, nodeID) + "/" + txID }

// TxBody is the smallest valid create body: to, amount in USD and extra.ip.
func TxBody(to synapsefake.Node, amount float64) map[string]any {
	return map[string]any{
		"to":     map[string]any{"type": to.Type, "id": to.ID},
		"amount": map[string]any{"amount": amount, "currency": "USD"},
		"extra":  map[string]any{"ip": TxIP},
	}
}

// Post sends a create body from the sender's DEPOSIT-US node.
func (e TxEnv) Post(t testing.TB, body any) Response {
	t.Helper()
	return Do(t, e.Fake, Call{Method: "POST", Path: TransPath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers, Body: body})
}

// Create creates a transaction from the sender's DEPOSIT-US node and returns
// its id; anything but a 200 fails the test.
func (e TxEnv) Create(t testing.TB, to synapsefake.Node, amount float64) string {
	t.Helper()
	return e.CreateFrom(t, e.Fx, e.Fx.Node, TxBody(to, amount))
}

// CreateFrom posts body from node of fx and returns the new id.
func (e TxEnv) CreateFrom(t testing.TB, fx Fixture, from synapsefake.Node, body map[string]any) string {
	t.Helper()
	r := Do(t, e.Fake, Call{Method: "POST", Path: TransPath(fx.User.ID, from.ID), Header: fx.Headers, Body: body})
	if r.Status != 200 {
		t.Fatalf("create transaction: status %d: %s", r.Status, r.Raw)
	}
	id, _ := r.Body["_id"].(string)
	return id
}

// Get answers GET of one transaction seen from the sender's node.
func (e TxEnv) Get(t testing.TB, id string) Response {
	t.Helper()
	return Do(t, e.Fake, Call{Method: "GET", Path: TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers})
}

// Tx is the inspection copy of a transaction that must exist.
func (e TxEnv) Tx(t testing.TB, id string) synapsefake.Transaction {
	t.Helper()
	tx, ok := e.Fake.Transaction(id)
	if !ok {
		t.Fatalf("Transaction(%s) not found", id)
	}
	return tx
}

// SettlesAt moves the clock to just before at, where transaction id must
// still be PROCESSING-CREDIT, then to at, where it must be SETTLED since
// at; it returns the transaction.
func (e TxEnv) SettlesAt(t testing.TB, id string, at time.Time) synapsefake.Transaction {
	t.Helper()
	e.Fake.AdvanceTo(at.Add(-time.Millisecond))
	if got := e.Tx(t, id).Status; got != synapsefake.StatusProcessingCredit {
		t.Fatalf("just before %v: %s, want %s", at, got, synapsefake.StatusProcessingCredit)
	}
	e.Fake.AdvanceTo(at)
	tx := e.Tx(t, id)
	if last := tx.Timeline[len(tx.Timeline)-1]; tx.Status != synapsefake.StatusSettled || !last.Date.Equal(at) {
		t.Fatalf("at %v: %s since %v, want SETTLED then", at, tx.Status, last.Date)
	}
	return tx
}

// Balances are the balances of every node of the env, in cents, by nickname.
func (e TxEnv) Balances(t testing.TB) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for name, id := range map[string]string{
		"sender": e.Fx.Node.ID, "savings": e.Savings.ID, "bank": e.Bank.ID, "payee": e.Payee.Node.ID, "fees": e.FeeNode.ID,
	} {
		n, ok := e.Fake.Node(id)
		if !ok {
			t.Fatalf("Node(%s) not found", id)
		}
		out[name] = n.BalanceCents
	}
	return out
}

// WantBalances compares the env's balances with want, which lists the nodes
// that differ from their start (sender: start, everything else 0).
func (e TxEnv) WantBalances(t testing.TB, start int64, want map[string]int64) {
	t.Helper()
	full := map[string]int64{"sender": start, "savings": 0, "bank": 0, "payee": 0, "fees": 0}
	maps.Copy(full, want)
	if diff := cmp.Diff(full, e.Balances(t)); diff != "" {
		t.Errorf("balances (-want +got):\n%s", diff)
	}
}

// TxState is what a refused call must leave alone: every node, the given
// transactions and the transaction lists of the sender and the payee.
type TxState struct {
	Nodes map[string]synapsefake.Node
	Txs   map[string]synapsefake.Transaction
	Lists map[string]map[string]any
}

// State reads the env's nodes, the transactions txIDs and the lists of the
// sender and the payee, to compare before and after a refused call.
func (e TxEnv) State(t testing.TB, txIDs ...string) TxState {
	t.Helper()
	s := TxState{Nodes: map[string]synapsefake.Node{}, Txs: map[string]synapsefake.Transaction{}, Lists: map[string]map[string]any{}}
	for _, id := range []string{e.Fx.Node.ID, e.Savings.ID, e.Bank.ID, e.Payee.Node.ID, e.FeeNode.ID} {
		n, ok := e.Fake.Node(id)
		if !ok {
			t.Fatalf("Node(%s) not found", id)
		}
		s.Nodes[id] = n
	}
	for _, id := range txIDs {
		s.Txs[id] = e.Tx(t, id)
	}
	for _, fx := range []Fixture{e.Fx, e.Payee} {
		r := Do(t, e.Fake, Call{Method: "GET", Path: "/users/" + fx.User.ID + "/trans", Header: fx.Headers})
		if r.Status != 200 {
			t.Fatalf("list transactions: status %d: %s", r.Status, r.Raw)
		}
		s.Lists[fx.User.ID] = r.Body
	}
	return s
}

// WantTxUnchanged fails when the env's state moved since before.
func (e TxEnv) WantTxUnchanged(t testing.TB, before TxState) {
	t.Helper()
	after := e.State(t, slices.Collect(maps.Keys(before.Txs))...)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("store changed by a refused call (-before +after):\n%s", diff)
	}
}

// WantTxJSON is the wire form of a transaction just created from node from
// to node to at time at with the smallest body (txBody). Callers adjust it
// with PutPath and WithEntries.
func WantTxJSON(t testing.TB, fake *synapsefake.Server, id string, from, to synapsefake.Node, amount float64, at time.Time) map[string]any {
	t.Helper()
	created := TxEntry(synapsefake.StatusCreated, "Transaction Created.", at)
	return map[string]any{
		"_id":    id,
		"_links": map[string]any{"self": map[string]any{"href": fake.URL() + TranPath(from.UserID, from.ID, id)}},
		"amount": map[string]any{"amount": amount, "currency": "USD"},
		"client": map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
		"extra": map[string]any{
			"asset":          nil,
			"created_on":     MsOf(at),
			"encrypted_note": "",
			"group_id":       nil,
			"ip":             TxIP,
			"latlon":         "0,0",
			"note":           "",
			"other":          map[string]any{},
			"process_on":     MsOf(at),
			"same_day":       false,
			"supp_id":        "",
			"filename":       nil, "location": map[string]any{"address_city": "", "address_country_code": "", "address_postal_code": "", "address_subdivision": "", "lat": 0.0, "lon": 0.0}, "rate": nil, "rate_limit": nil, "settlement_delay": 0.0, "tracking_number": nil, "txp_meta": map[string]any{"amount_types": []any{}, "amounts": []any{}, "payment_code": "", "tax_period_end_date": "", "taxpayer_verification": "", "tin": ""},
		},
		"fees":          []any{map[string]any{"fee": 0.0, "note": "Facilitator Fee", "to": map[string]any{"id": "None"}}},
		"from":          TxParty(t, fake, from),
		"recent_status": maps.Clone(created),
		"success":       true,
		"timeline":      []any{created},
		"to":            TxParty(t, fake, to),
	}
}

// TxParty is the wire form of node n as a transaction's from or to.
func TxParty(t testing.TB, fake *synapsefake.Server, n synapsefake.Node) map[string]any {
	t.Helper()
	u, ok := fake.User(n.UserID)
	if !ok {
		t.Fatalf("User(%s) not found", n.UserID)
	}
	names := make([]any, len(u.LegalNames))
	for i, name := range u.LegalNames {
		names[i] = name
	}
	return map[string]any{
		"id":       n.ID,
		"nickname": n.Nickname,
		"type":     n.Type,
		"user":     map[string]any{"_id": u.ID, "legal_names": names},
	}
}

// MsOf is at in milliseconds, as the wire's dates are.
func MsOf(at time.Time) float64 { return float64(at.UnixMilli()) }

// TxEntry is one timeline entry on the wire.
func TxEntry(status synapsefake.Status, note string, at time.Time) map[string]any {
	return map[string]any{"date": MsOf(at), "note": note, "status": string(status), "status_id": status.ID()}
}

// WithEntries appends timeline entries to an expected transaction and makes
// the last one its recent_status, with code when code is not "".
func WithEntries(want map[string]any, code string, entries ...map[string]any) map[string]any {
	want["timeline"] = append(want["timeline"].([]any), AnyOf(entries)...)
	rs := maps.Clone(entries[len(entries)-1])
	if code != "" {
		rs["code"] = code
	}
	want["recent_status"] = rs
	return want
}

// hexID matches a 24-character hex object id.
const hexID = `^[0-9a-f]{24}$`

// WantTxBody compares an answered transaction with want as a whole. _id must
// be 24 hex characters (want's "" takes the answer's) and _v an integer.
func WantTxBody(t testing.TB, r Response, want map[string]any) {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
	}
	got := maps.Clone(r.Body)
	if id, _ := got["_id"].(string); !regexp.MustCompile(hexID).MatchString(id) {
		t.Errorf("_id %v is not 24 hex characters", got["_id"])
	}
	if want["_id"] == "" {
		want = maps.Clone(want)
		want["_id"] = got["_id"]
		href := want["_links"].(map[string]any)["self"].(map[string]any)["href"].(string)
		want["_links"] = map[string]any{"self": map[string]any{"href": href + fmt.Sprint(got["_id"])}}
	}
	if v, ok := got["_v"].(float64); !ok || v != float64(int64(v)) || v < 0 {
		t.Errorf("_v %v is not a non-negative integer", got["_v"])
	}
	delete(got, "_v")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transaction (-want +got):\n%s", diff)
	}
}
