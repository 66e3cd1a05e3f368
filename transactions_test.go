package synapsefake_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// friday is a Friday noon UTC: an ACH transfer created then settles on
// Monday, after the weekend.
var friday = time.Date(2024, time.January, 5, 12, 0, 0, 0, time.UTC)

// txIP is the extra.ip every test transaction carries.
const txIP = "192.168.0.1"

// txEnv is a fake on a mock clock set to friday with the nodes transaction
// tests need.
type txEnv struct {
	fake    *synapsefake.Server
	mock    *clock.Mock
	fx      fixture          // the sender: "Sam Sender", a DEPOSIT-US node "Checking", every scope
	savings synapsefake.Node // a second DEPOSIT-US node of the sender
	bank    synapsefake.Node // an ACH-US node of the sender
	payee   fixture          // "Pat Payee" with a DEPOSIT-US node "Checking"
	feeNode synapsefake.Node // a DEPOSIT-US node of "Platform Inc", credited with fees
}

// newTxEnv builds a txEnv whose sender's DEPOSIT-US node holds balanceCents.
func newTxEnv(t testing.TB, balanceCents int64, opts ...synapsefake.Option) txEnv {
	t.Helper()
	mock := clock.NewMock()
	mock.Set(friday)
	// Keys outlive every clock advance of the tests.
	base := []synapsefake.Option{synapsefake.WithClock(mock), synapsefake.WithOAuthKeyLifetime(365 * 24 * time.Hour)}
	fake := synapsefake.NewServer(t, append(base, opts...)...)
	e := txEnv{fake: fake, mock: mock}
	e.fx = namedFixture(t, fake, "Sam Sender", balanceCents)
	e.savings = addTxNode(t, fake, e.fx.user.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	e.bank = addTxNode(t, fake, e.fx.user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank",
		AccountNum: "123456789", RoutingNum: "051000017"})
	e.payee = namedFixture(t, fake, "Pat Payee", 0)
	platform := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Platform Inc"}})
	e.feeNode = addTxNode(t, fake, platform.ID, synapsefake.NodeSeed{Nickname: "Fees"})
	return e
}

// namedFixture is newFixture for a user with the given legal name.
func namedFixture(t testing.TB, fake *synapsefake.Server, name string, balanceCents int64, scopes ...string) fixture {
	t.Helper()
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testFingerprint, LegalNames: []string{name}})
	n := addTxNode(t, fake, u.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: balanceCents})
	key := fake.OAuthKey(u.ID, testFingerprint, scopes...)
	return fixture{user: u, node: n, key: key, headers: userHeaders(fake, key)}
}

func addTxNode(t testing.TB, fake *synapsefake.Server, userID string, seed synapsefake.NodeSeed) synapsefake.Node {
	t.Helper()
	n := fake.MustAddNode(t, userID, seed)
	return n
}

func transPath(userID, nodeID string) string {
	return "/users/" + userID + "/nodes/" + nodeID + "/trans"
}

func tranPath(userID, nodeID, txID string) string { return transPath(userID, nodeID) + "/" + txID }

// txBody is the smallest valid create body: to, amount in USD and extra.ip.
func txBody(to synapsefake.Node, amount float64) map[string]any {
	return map[string]any{
		"to":     map[string]any{"type": to.Type, "id": to.ID},
		"amount": map[string]any{"amount": amount, "currency": "USD"},
		"extra":  map[string]any{"ip": txIP},
	}
}

// post sends a create body from the sender's DEPOSIT-US node.
func (e txEnv) post(t testing.TB, body any) response {
	t.Helper()
	return do(t, e.fake, call{method: "POST", path: transPath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers, body: body})
}

// create creates a transaction from the sender's DEPOSIT-US node and returns
// its id; anything but a 200 fails the test.
func (e txEnv) create(t testing.TB, to synapsefake.Node, amount float64) string {
	t.Helper()
	return e.createFrom(t, e.fx, e.fx.node, txBody(to, amount))
}

// createFrom posts body from node of fx and returns the new id.
func (e txEnv) createFrom(t testing.TB, fx fixture, from synapsefake.Node, body map[string]any) string {
	t.Helper()
	r := do(t, e.fake, call{method: "POST", path: transPath(fx.user.ID, from.ID), header: fx.headers, body: body})
	if r.status != 200 {
		t.Fatalf("create transaction: status %d: %s", r.status, r.raw)
	}
	id, _ := r.body["_id"].(string)
	return id
}

// get answers GET of one transaction seen from the sender's node.
func (e txEnv) get(t testing.TB, id string) response {
	t.Helper()
	return do(t, e.fake, call{method: "GET", path: tranPath(e.fx.user.ID, e.fx.node.ID, id), header: e.fx.headers})
}

// tx is the inspection copy of a transaction that must exist.
func (e txEnv) tx(t testing.TB, id string) synapsefake.Transaction {
	t.Helper()
	tx, ok := e.fake.Transaction(id)
	if !ok {
		t.Fatalf("Transaction(%s) not found", id)
	}
	return tx
}

// settlesAt moves the clock to just before at, where transaction id must
// still be PROCESSING-CREDIT, then to at, where it must be SETTLED since
// at; it returns the transaction.
func (e txEnv) settlesAt(t testing.TB, id string, at time.Time) synapsefake.Transaction {
	t.Helper()
	e.fake.AdvanceTo(at.Add(-time.Millisecond))
	if got := e.tx(t, id).Status; got != synapsefake.StatusProcessingCredit {
		t.Fatalf("just before %v: %s, want %s", at, got, synapsefake.StatusProcessingCredit)
	}
	e.fake.AdvanceTo(at)
	tx := e.tx(t, id)
	if last := tx.Timeline[len(tx.Timeline)-1]; tx.Status != synapsefake.StatusSettled || !last.Date.Equal(at) {
		t.Fatalf("at %v: %s since %v, want SETTLED then", at, tx.Status, last.Date)
	}
	return tx
}

// balances are the balances of every node of the env, in cents, by nickname.
func (e txEnv) balances(t testing.TB) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for name, id := range map[string]string{
		"sender": e.fx.node.ID, "savings": e.savings.ID, "bank": e.bank.ID, "payee": e.payee.node.ID, "fees": e.feeNode.ID,
	} {
		n, ok := e.fake.Node(id)
		if !ok {
			t.Fatalf("Node(%s) not found", id)
		}
		out[name] = n.BalanceCents
	}
	return out
}

// wantBalances compares the env's balances with want, which lists the nodes
// that differ from their start (sender: start, everything else 0).
func (e txEnv) wantBalances(t testing.TB, start int64, want map[string]int64) {
	t.Helper()
	full := map[string]int64{"sender": start, "savings": 0, "bank": 0, "payee": 0, "fees": 0}
	maps.Copy(full, want)
	if diff := cmp.Diff(full, e.balances(t)); diff != "" {
		t.Errorf("balances (-want +got):\n%s", diff)
	}
}

// txState is what a refused call must leave alone: every node, the given
// transactions and the transaction lists of the sender and the payee.
type txState struct {
	Nodes map[string]synapsefake.Node
	Txs   map[string]synapsefake.Transaction
	Lists map[string]map[string]any
}

func (e txEnv) state(t testing.TB, txIDs ...string) txState {
	t.Helper()
	s := txState{Nodes: map[string]synapsefake.Node{}, Txs: map[string]synapsefake.Transaction{}, Lists: map[string]map[string]any{}}
	for _, id := range []string{e.fx.node.ID, e.savings.ID, e.bank.ID, e.payee.node.ID, e.feeNode.ID} {
		n, ok := e.fake.Node(id)
		if !ok {
			t.Fatalf("Node(%s) not found", id)
		}
		s.Nodes[id] = n
	}
	for _, id := range txIDs {
		s.Txs[id] = e.tx(t, id)
	}
	for _, fx := range []fixture{e.fx, e.payee} {
		r := do(t, e.fake, call{method: "GET", path: "/users/" + fx.user.ID + "/trans", header: fx.headers})
		if r.status != 200 {
			t.Fatalf("list transactions: status %d: %s", r.status, r.raw)
		}
		s.Lists[fx.user.ID] = r.body
	}
	return s
}

// wantTxUnchanged fails when the env's state moved since before.
func (e txEnv) wantTxUnchanged(t testing.TB, before txState) {
	t.Helper()
	after := e.state(t, slices.Collect(maps.Keys(before.Txs))...)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("store changed by a refused call (-before +after):\n%s", diff)
	}
}

// wantTxJSON is the wire form of a transaction just created from node from
// to node to at time at with the smallest body (txBody). Callers adjust it
// with putPath and withEntries.
func wantTxJSON(t testing.TB, fake *synapsefake.Server, id string, from, to synapsefake.Node, amount float64, at time.Time) map[string]any {
	t.Helper()
	created := txEntry(synapsefake.StatusCreated, "Transaction Created.", at)
	return map[string]any{
		"_id":    id,
		"_links": map[string]any{"self": map[string]any{"href": fake.URL() + tranPath(from.UserID, from.ID, id)}},
		"amount": map[string]any{"amount": amount, "currency": "USD"},
		"client": map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
		"extra": map[string]any{
			"asset":          nil,
			"created_on":     msOf(at),
			"encrypted_note": "",
			"group_id":       nil,
			"ip":             txIP,
			"latlon":         "0,0",
			"note":           "",
			"other":          map[string]any{},
			"process_on":     msOf(at),
			"same_day":       false,
			"supp_id":        "",
			"filename":       nil, "location": map[string]any{"address_city": "", "address_country_code": "", "address_postal_code": "", "address_subdivision": "", "lat": 0.0, "lon": 0.0}, "rate": nil, "rate_limit": nil, "settlement_delay": 0.0, "tracking_number": nil, "txp_meta": map[string]any{"amount_types": []any{}, "amounts": []any{}, "payment_code": "", "tax_period_end_date": "", "taxpayer_verification": "", "tin": ""},
		},
		"fees":          []any{map[string]any{"fee": 0.0, "note": "Facilitator Fee", "to": map[string]any{"id": "None"}}},
		"from":          txParty(t, fake, from),
		"recent_status": maps.Clone(created),
		"success":       true,
		"timeline":      []any{created},
		"to":            txParty(t, fake, to),
	}
}

func txParty(t testing.TB, fake *synapsefake.Server, n synapsefake.Node) map[string]any {
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

func msOf(at time.Time) float64 { return float64(at.UnixMilli()) }

// txEntry is one timeline entry on the wire.
func txEntry(status synapsefake.Status, note string, at time.Time) map[string]any {
	return map[string]any{"date": msOf(at), "note": note, "status": string(status), "status_id": status.ID()}
}

// withEntries appends timeline entries to an expected transaction and makes
// the last one its recent_status, with code when code is not "".
func withEntries(want map[string]any, code string, entries ...map[string]any) map[string]any {
	want["timeline"] = append(want["timeline"].([]any), anyOf(entries)...)
	rs := maps.Clone(entries[len(entries)-1])
	if code != "" {
		rs["code"] = code
	}
	want["recent_status"] = rs
	return want
}

func anyOf[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// putPath sets a value at a dotted path of nested objects.
func putPath(m map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		m = m[k].(map[string]any)
	}
	m[keys[len(keys)-1]] = v
}

var hexID = regexp.MustCompile(`^[0-9a-f]{24}$`)

// wantTxBody compares an answered transaction with want as a whole. _id must
// be 24 hex characters (want's "" takes the answer's) and _v an integer.
func wantTxBody(t testing.TB, r response, want map[string]any) {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("status %d, want 200: %s", r.status, r.raw)
	}
	got := maps.Clone(r.body)
	if id, _ := got["_id"].(string); !hexID.MatchString(id) {
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

func TestCreateTransaction(t *testing.T) {
	t.Parallel()
	const start = 100_00
	note80 := strings.Repeat("n", 80)
	noteRunes := strings.Repeat("é", 80)
	for _, tc := range []struct {
		name   string
		to     func(e txEnv) synapsefake.Node
		amount float64
		edit   func(e txEnv, body map[string]any)             // changes the smallest body
		want   func(e txEnv, want map[string]any)             // changes the expected answer
		check  func(t *testing.T, tx synapsefake.Transaction) // the stored record
	}{
		{
			name:   "to an ACH-US node",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 10.5,
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if tx.AmountCents != 1050 || tx.Currency != "USD" {
					t.Errorf("amount %d %s, want 1050 USD", tx.AmountCents, tx.Currency)
				}
			},
		},
		{
			name:   "to another user's DEPOSIT-US node",
			to:     func(e txEnv) synapsefake.Node { return e.payee.node },
			amount: 0.01,
		},
		{
			name:   "the whole balance",
			to:     func(e txEnv) synapsefake.Node { return e.savings },
			amount: 100,
		},
		{
			name:   "a note of 80 characters",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 1,
			edit:   func(e txEnv, b map[string]any) { putPath(b, "extra.note", note80) },
			want:   func(e txEnv, w map[string]any) { putPath(w, "extra.note", note80) },
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if tx.Note != note80 {
					t.Errorf("Note %q, want %q", tx.Note, note80)
				}
			},
		},
		{
			name:   "a note of 80 two-byte characters",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 1,
			edit:   func(e txEnv, b map[string]any) { putPath(b, "extra.note", noteRunes) },
			want:   func(e txEnv, w map[string]any) { putPath(w, "extra.note", noteRunes) },
		},
		{
			name:   "supp_id, group_id and same_day",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 1,
			edit: func(e txEnv, b map[string]any) {
				putPath(b, "extra.supp_id", "supp-1")
				putPath(b, "extra.group_id", "group-1")
				putPath(b, "extra.same_day", true)
			},
			want: func(e txEnv, w map[string]any) {
				putPath(w, "extra.supp_id", "supp-1")
				putPath(w, "extra.group_id", "group-1")
				putPath(w, "extra.same_day", true)
			},
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if tx.SuppID != "supp-1" || !tx.SameDay {
					t.Errorf("SuppID %q SameDay %v, want supp-1 true", tx.SuppID, tx.SameDay)
				}
			},
		},
		{
			name:   "process_on in 3 days",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 1,
			edit:   func(e txEnv, b map[string]any) { putPath(b, "extra.process_on", 3) },
			want: func(e txEnv, w map[string]any) {
				putPath(w, "extra.process_on", msOf(friday)+3*86400000)
			},
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if want := friday.Add(72 * time.Hour); !tx.ProcessOn.Equal(want) || !tx.CreatedOn.Equal(friday) {
					t.Errorf("CreatedOn %v ProcessOn %v, want %v and %v", tx.CreatedOn, tx.ProcessOn, friday, want)
				}
			},
		},
		{
			name:   "process_on 0",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 1,
			edit:   func(e txEnv, b map[string]any) { putPath(b, "extra.process_on", 0) },
		},
		{
			name:   "padded base64 attachments",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 1,
			edit: func(e txEnv, b map[string]any) {
				putPath(b, "extra.other", map[string]any{"attachments": []any{"YWJj", "YQ==", "YWI="}})
			},
			want: func(e txEnv, w map[string]any) {
				putPath(w, "extra.other", map[string]any{"attachments": []any{"YWJj", "YQ==", "YWI="}})
			},
		},
		{
			name:   "one fee to a DEPOSIT-US node",
			to:     func(e txEnv) synapsefake.Node { return e.payee.node },
			amount: 20,
			edit: func(e txEnv, b map[string]any) {
				b["fees"] = []any{map[string]any{"fee": 1.25, "note": "Platform fee", "to": map[string]any{"id": e.feeNode.ID}}}
			},
			want: func(e txEnv, w map[string]any) {
				w["fees"] = []any{map[string]any{"fee": 1.25, "note": "Platform fee", "to": map[string]any{"id": e.feeNode.ID}}}
			},
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if len(tx.Fees) != 1 || tx.Fees[0].AmountCents != 125 {
					t.Errorf("Fees %+v, want one fee of 125 cents", tx.Fees)
				}
			},
		},
		{
			name:   "two fees, one to the sender's own DEPOSIT-US node",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 20,
			edit: func(e txEnv, b map[string]any) {
				b["fees"] = []any{
					map[string]any{"fee": 1, "note": "a", "to": map[string]any{"id": e.feeNode.ID}},
					map[string]any{"fee": 0.5, "to": map[string]any{"id": e.savings.ID}},
				}
			},
			want: func(e txEnv, w map[string]any) {
				w["fees"] = []any{
					map[string]any{"fee": 1.0, "note": "a", "to": map[string]any{"id": e.feeNode.ID}},
					map[string]any{"fee": 0.5, "note": "", "to": map[string]any{"id": e.savings.ID}},
				}
			},
		},
		{
			name:   "fees equal to the amount",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 2,
			edit: func(e txEnv, b map[string]any) {
				b["fees"] = []any{map[string]any{"fee": 2, "note": "all", "to": map[string]any{"id": e.feeNode.ID}}}
			},
			want: func(e txEnv, w map[string]any) {
				w["fees"] = []any{map[string]any{"fee": 2.0, "note": "all", "to": map[string]any{"id": e.feeNode.ID}}}
			},
		},
		{
			name:   "an empty fees list gets the default entry",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 1,
			edit:   func(e txEnv, b map[string]any) { b["fees"] = []any{} },
		},
		{
			name:   "amounts are kept in exact cents",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 0.29,
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if tx.AmountCents != 29 {
					t.Errorf("AmountCents %d, want 29", tx.AmountCents)
				}
			},
		},
		{
			name:   "unknown fields are ignored",
			to:     func(e txEnv) synapsefake.Node { return e.bank },
			amount: 1,
			edit: func(e txEnv, b map[string]any) {
				b["unknown"] = true
				putPath(b, "extra.latlon", "1,1")
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTxEnv(t, start)
			to := tc.to(e)
			body := txBody(to, tc.amount)
			if tc.edit != nil {
				tc.edit(e, body)
			}
			r := e.post(t, body)
			want := wantTxJSON(t, e.fake, "", e.fx.node, to, tc.amount, friday)
			if tc.want != nil {
				tc.want(e, want)
			}
			wantTxBody(t, r, want)

			id, _ := r.body["_id"].(string)
			tx := e.tx(t, id)
			if tx.Status != synapsefake.StatusCreated || tx.UserID != e.fx.user.ID ||
				tx.FromNodeID != e.fx.node.ID || tx.ToNodeID != to.ID || tx.Code != "" {
				t.Errorf("Transaction = %+v, want CREATED from %s to %s", tx, e.fx.node.ID, to.ID)
			}
			wantTimeline := []synapsefake.TimelineEntry{{Status: synapsefake.StatusCreated, Note: "Transaction Created.", Date: friday}}
			if diff := cmp.Diff(wantTimeline, tx.Timeline); diff != "" {
				t.Errorf("Timeline (-want +got):\n%s", diff)
			}
			if tc.check != nil {
				tc.check(t, tx)
			}
			// Creating moves no money.
			e.wantBalances(t, start, nil)
			// GET answers the same object.
			g := e.get(t, id)
			wantTxBody(t, g, withID(want, r.body["_id"]))
		})
	}
}

// withID fills in the _id and _links of an expected transaction made with "".
func withID(want map[string]any, id any) map[string]any {
	w := maps.Clone(want)
	w["_id"] = id
	href := w["_links"].(map[string]any)["self"].(map[string]any)["href"].(string)
	w["_links"] = map[string]any{"self": map[string]any{"href": href + fmt.Sprint(id)}}
	return w
}

// TestCreateTransactionFromExternalNode sends more than any balance from
// nodes of external types, which the fake does not limit, even
// WithFundsCheck.
func TestCreateTransactionFromExternalNode(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"ACH-US", "EXTERNAL-US", "INTERCHANGE-US"} {
		t.Run(typ, func(t *testing.T) {
			t.Parallel()
			e := newTxEnv(t, 0, synapsefake.WithFundsCheck())
			from := addTxNode(t, e.fake, e.fx.user.ID, synapsefake.NodeSeed{Type: typ, Nickname: "Outside"})
			r := do(t, e.fake, call{method: "POST", path: transPath(e.fx.user.ID, from.ID), header: e.fx.headers,
				body: txBody(e.fx.node, 1_000_000)})
			wantTxBody(t, r, wantTxJSON(t, e.fake, "", from, e.fx.node, 1_000_000, friday))
			// And a deposit-type node is limited.
			r = e.post(t, txBody(from, 0.01))
			wantErrorStatus(t, r, 409, "400", "insufficient_funds")
		})
	}
}

func TestCreateTransactionErrors(t *testing.T) {
	t.Parallel()
	const start = 50_00
	valid := func(e txEnv) map[string]any { return txBody(e.bank, 10) }
	edited := func(edit func(e txEnv, b map[string]any)) func(e txEnv) any {
		return func(e txEnv) any {
			b := valid(e)
			edit(e, b)
			return b
		}
	}
	deleteNode := func(t *testing.T, e txEnv, n synapsefake.Node) {
		r := do(t, e.fake, call{method: "DELETE", path: "/users/" + n.UserID + "/nodes/" + n.ID, header: e.fx.headers})
		if r.status != 200 {
			t.Fatalf("delete node: %d %s", r.status, r.raw)
		}
	}
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, e txEnv)
		path    func(e txEnv) string
		header  func(e txEnv) map[string]string
		body    func(e txEnv) any
		status  int
		errCode string
		code    string
	}{
		// Payload: 400 / "200".
		{name: "no to", body: edited(func(e txEnv, b map[string]any) { delete(b, "to") }), status: 400, errCode: "200", code: "missing_to_type"},
		{name: "no to.type", body: edited(func(e txEnv, b map[string]any) { delete(b["to"].(map[string]any), "type") }), status: 400, errCode: "200", code: "missing_to_type"},
		{name: "empty to.type", body: edited(func(e txEnv, b map[string]any) { putPath(b, "to.type", "") }), status: 400, errCode: "200", code: "missing_to_type"},
		{name: "no to.id", body: edited(func(e txEnv, b map[string]any) { delete(b["to"].(map[string]any), "id") }), status: 400, errCode: "200", code: "missing_to_id"},
		{name: "no amount", body: edited(func(e txEnv, b map[string]any) { delete(b, "amount") }), status: 400, errCode: "200", code: "missing_amount"},
		{name: "no amount.amount", body: edited(func(e txEnv, b map[string]any) { delete(b["amount"].(map[string]any), "amount") }), status: 400, errCode: "200", code: "missing_amount"},
		{name: "no amount.currency", body: edited(func(e txEnv, b map[string]any) { delete(b["amount"].(map[string]any), "currency") }), status: 400, errCode: "200", code: "missing_currency"},
		{name: "no extra", body: edited(func(e txEnv, b map[string]any) { delete(b, "extra") }), status: 400, errCode: "200", code: "missing_ip"},
		{name: "no extra.ip", body: edited(func(e txEnv, b map[string]any) { delete(b["extra"].(map[string]any), "ip") }), status: 400, errCode: "200", code: "missing_ip"},
		{name: "zero amount", body: edited(func(e txEnv, b map[string]any) { putPath(b, "amount.amount", 0) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "negative amount", body: edited(func(e txEnv, b map[string]any) { putPath(b, "amount.amount", -5) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "amount below a cent", body: edited(func(e txEnv, b map[string]any) { putPath(b, "amount.amount", 0.004) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "note of 1,001 characters", body: edited(func(e txEnv, b map[string]any) { putPath(b, "extra.note", strings.Repeat("x", 1001)) }), status: 400, errCode: "200", code: "note_too_long"},
		{name: "note of 1,001 two-byte characters", body: edited(func(e txEnv, b map[string]any) { putPath(b, "extra.note", strings.Repeat("é", 1001)) }), status: 400, errCode: "200", code: "note_too_long"},
		{name: "note that is not UTF-8", body: func(e txEnv) any {
			return `{"to":{"type":"ACH-US","id":"` + e.bank.ID + `"},"amount":{"amount":1,"currency":"USD"},"extra":{"ip":"1.1.1.1","note":"caf` + "\xe9" + `"}}`
		}, status: 400, errCode: "200", code: "invalid_utf8"},
		{name: "process_on past a year", body: edited(func(e txEnv, b map[string]any) { putPath(b, "extra.process_on", 366) }), status: 400, errCode: "200", code: "invalid_process_on"},
		{name: "body over 1 MiB", body: func(e txEnv) any { return `{"padding":"` + strings.Repeat("a", 1<<20) + `"}` }, status: 400, errCode: "200", code: "body_too_large"},
		{name: "fractional process_on", body: edited(func(e txEnv, b map[string]any) { putPath(b, "extra.process_on", 1.5) }), status: 400, errCode: "200", code: "invalid_field_type"},
		// A negative process_on, attachments that are not padded base64 and
		// a to.type that names another type are taken: WithStrictRequests
		// refuses them (TestContractRulesTheSandboxTook).
		{name: "fee without amount", body: edited(func(e txEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"note": "x", "to": map[string]any{"id": e.feeNode.ID}}}
		}), status: 400, errCode: "200", code: "invalid_fee"},
		{name: "negative fee", body: edited(func(e txEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": -1, "to": map[string]any{"id": e.feeNode.ID}}}
		}), status: 400, errCode: "200", code: "invalid_fee"},
		{name: "fee below a cent", body: edited(func(e txEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 0.001, "to": map[string]any{"id": e.feeNode.ID}}}
		}), status: 400, errCode: "200", code: "invalid_fee"},
		{name: "amount with three decimals", body: edited(func(e txEnv, b map[string]any) { putPath(b, "amount.amount", 1.004) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "amount over MaxAmountCents", body: edited(func(e txEnv, b map[string]any) { putPath(b, "amount.amount", 1_000_000_000.01) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "the issue's $1e12", body: edited(func(e txEnv, b map[string]any) { putPath(b, "amount.amount", 1e12) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "fee over MaxAmountCents", body: edited(func(e txEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 1_000_000_000.01, "to": map[string]any{"id": e.feeNode.ID}}}
		}), status: 400, errCode: "200", code: "invalid_fee"},
		{name: "fee without node", body: edited(func(e txEnv, b map[string]any) { b["fees"] = []any{map[string]any{"fee": 1}} }), status: 400, errCode: "200", code: "missing_fee_node"},
		{name: "malformed JSON", body: func(e txEnv) any { return `{"to":` }, status: 400, errCode: "200", code: "invalid_json"},
		{name: "array body", body: func(e txEnv) any { return `[]` }, status: 400, errCode: "200", code: "invalid_json"},
		{name: "empty body", body: func(e txEnv) any { return `` }, status: 400, errCode: "200", code: "invalid_json"},
		{name: "amount as a string", body: edited(func(e txEnv, b map[string]any) { putPath(b, "amount.amount", "10") }), status: 400, errCode: "200", code: "invalid_field_type"},
		{name: "to.id as a number", body: edited(func(e txEnv, b map[string]any) { putPath(b, "to.id", 5) }), status: 400, errCode: "200", code: "invalid_field_type"},
		{name: "same_day as a string", body: edited(func(e txEnv, b map[string]any) { putPath(b, "extra.same_day", "yes") }), status: 400, errCode: "200", code: "invalid_field_type"},
		{name: "fees as an object", body: edited(func(e txEnv, b map[string]any) { b["fees"] = map[string]any{} }), status: 400, errCode: "200", code: "invalid_field_type"},

		// Values: 409 / "400".
		{name: "currency other than USD", body: edited(func(e txEnv, b map[string]any) { putPath(b, "amount.currency", "EUR") }), status: 409, errCode: "400", code: "unsupported_currency"},
		{name: "to the sending node", body: func(e txEnv) any { return txBody(e.fx.node, 1) }, status: 409, errCode: "400", code: "same_node"},
		{name: "fee node of type ACH-US", body: edited(func(e txEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 1, "to": map[string]any{"id": e.bank.ID}}}
		}), status: 409, errCode: "400", code: "invalid_fee_node"},
		{name: "unknown fee node", body: edited(func(e txEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 1, "to": map[string]any{"id": "0123456789abcdef01234567"}}}
		}), status: 409, errCode: "400", code: "invalid_fee_node"},
		{name: "deleted fee node", setup: func(t *testing.T, e txEnv) {
			owner := e.fake.OAuthKey(e.feeNode.UserID, testFingerprint)
			r := do(t, e.fake, call{method: "DELETE", path: "/users/" + e.feeNode.UserID + "/nodes/" + e.feeNode.ID, header: userHeaders(e.fake, owner)})
			if r.status != 200 {
				t.Fatalf("delete fee node: %d %s", r.status, r.raw)
			}
		}, body: edited(func(e txEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 1, "to": map[string]any{"id": e.feeNode.ID}}}
		}), status: 409, errCode: "400", code: "invalid_fee_node"},
		{name: "fees over the amount", body: edited(func(e txEnv, b map[string]any) {
			b["fees"] = []any{
				map[string]any{"fee": 6, "to": map[string]any{"id": e.feeNode.ID}},
				map[string]any{"fee": 4.01, "to": map[string]any{"id": e.feeNode.ID}},
			}
		}), status: 409, errCode: "400", code: "fees_exceed_amount"},
		{name: "deleted receiver", setup: func(t *testing.T, e txEnv) { deleteNode(t, e, e.bank) }, body: func(e txEnv) any { return valid(e) }, status: 409, errCode: "400", code: "receiver_inactive"},
		{name: "deleted sender", setup: func(t *testing.T, e txEnv) { deleteNode(t, e, e.fx.node) }, body: func(e txEnv) any { return valid(e) }, status: 409, errCode: "410", code: "node_inactive"},

		// Objects.
		{name: "unknown to.id", body: edited(func(e txEnv, b map[string]any) { putPath(b, "to.id", "0123456789abcdef01234567") }), status: 404, errCode: "404", code: "unable_to_locate_node"},
		{name: "unknown sending node", path: func(e txEnv) string { return transPath(e.fx.user.ID, "0123456789abcdef01234567") }, status: 404, errCode: "404", code: "unable_to_locate_node"},
		{name: "another user's sending node", path: func(e txEnv) string { return transPath(e.fx.user.ID, e.payee.node.ID) }, status: 401, errCode: "300", code: "unauthorized_node"},
		{name: "another user's path", path: func(e txEnv) string { return transPath(e.payee.user.ID, e.payee.node.ID) }, status: 401, errCode: "300", code: "unauthorized_user"},

		// Credentials and scope.
		{name: "key without TRANS|POST", header: func(e txEnv) map[string]string {
			return userHeaders(e.fake, e.fake.OAuthKey(e.fx.user.ID, testFingerprint, "TRANS|GET", "TRAN|GET"))
		}, status: 401, errCode: "300", code: "scope_not_granted"},
		{name: "no X-SP-USER", header: func(e txEnv) map[string]string {
			h := maps.Clone(e.fx.headers)
			delete(h, "X-SP-USER")
			return h
		}, status: 400, errCode: "200", code: "missing_user_credentials"},
		{name: "empty oauth key", header: func(e txEnv) map[string]string { return userHeaders(e.fake, "") }, status: 401, errCode: "300", code: "missing_oauth_key"},
		{name: "unknown oauth key", header: func(e txEnv) map[string]string { return userHeaders(e.fake, "oauth_unknown") }, status: 401, errCode: "110", code: "invalid_oauth_key"},
		{name: "wrong gateway", header: func(e txEnv) map[string]string {
			h := maps.Clone(e.fx.headers)
			h["X-SP-GATEWAY"] = e.fake.ClientID() + "|wrong"
			return h
		}, status: 401, errCode: "100", code: "invalid_client_credentials"},
		{name: "no X-SP-USER-IP", header: func(e txEnv) map[string]string {
			h := maps.Clone(e.fx.headers)
			delete(h, "X-SP-USER-IP")
			return h
		}, status: 400, errCode: "200", code: "missing_user_ip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTxEnv(t, start)
			// An earlier transaction that must stay as it is.
			earlier := e.create(t, e.savings, 1)
			if tc.setup != nil {
				tc.setup(t, e)
			}
			path := transPath(e.fx.user.ID, e.fx.node.ID)
			if tc.path != nil {
				path = tc.path(e)
			}
			header := e.fx.headers
			if tc.header != nil {
				header = tc.header(e)
			}
			var body any = valid(e)
			if tc.body != nil {
				body = tc.body(e)
			}
			before := e.state(t, earlier)
			r := do(t, e.fake, call{method: "POST", path: path, header: header, body: body})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.wantTxUnchanged(t, before)
		})
	}
}

// TestTransactionBalances follows the money through every move: the sender
// at PROCESSING-DEBIT, the receiver (amount less fees) and the fee nodes at
// SETTLED, all of it back on RETURNED.
func TestTransactionBalances(t *testing.T) {
	t.Parallel()
	const start = 500_00
	fee := func(e txEnv) []any {
		return []any{
			map[string]any{"fee": 2.5, "note": "Platform", "to": map[string]any{"id": e.feeNode.ID}},
			map[string]any{"fee": 0.5, "note": "Ops", "to": map[string]any{"id": e.savings.ID}},
		}
	}
	debited := map[string]int64{"sender": start - 100_00}
	settled := map[string]int64{"sender": start - 100_00, "payee": 97_00, "fees": 2_50, "savings": 50}
	for _, tc := range []struct {
		name  string
		steps []func(f *synapsefake.Server, id string) error
		want  []map[string]int64 // balances after each step
	}{
		{
			name: "one move at a time",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusProcessingDebit)
				},
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusProcessingCredit)
				},
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusSettled)
				},
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusReturned)
				},
			},
			want: []map[string]int64{debited, debited, settled, nil},
		},
		{
			name: "returned from PROCESSING-CREDIT refunds the sender",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusProcessingDebit)
				},
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusProcessingCredit)
				},
				func(f *synapsefake.Server, id string) error { return f.Return(id, "R01") },
			},
			want: []map[string]int64{debited, debited, nil},
		},
		{
			name: "Settle then Return with a card code",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error { return f.Settle(id) },
				func(f *synapsefake.Server, id string) error { return f.Return(id, "IR51") },
			},
			want: []map[string]int64{settled, nil},
		},
		{
			name: "the clock settles an internal transfer",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error { f.Advance(time.Millisecond); return nil },
			},
			want: []map[string]int64{settled},
		},
		{
			name: "canceled before processing moves nothing",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error { return f.Cancel(id, "") },
				func(f *synapsefake.Server, id string) error { f.Advance(30 * 24 * time.Hour); return nil },
			},
			want: []map[string]int64{nil, nil},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTxEnv(t, start)
			body := txBody(e.payee.node, 100)
			body["fees"] = fee(e)
			id := e.createFrom(t, e.fx, e.fx.node, body)
			e.wantBalances(t, start, nil)
			for i, step := range tc.steps {
				if err := step(e.fake, id); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				e.wantBalances(t, start, tc.want[i])
			}
		})
	}
}

func TestGetTransaction(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 100_00)
	id := e.create(t, e.payee.node, 12.34)
	want := wantTxJSON(t, e.fake, id, e.fx.node, e.payee.node, 12.34, friday)
	// The sender sees it under the sending node, the payee under the receiving one.
	wantTxBody(t, e.get(t, id), want)
	r := do(t, e.fake, call{method: "GET", path: tranPath(e.payee.user.ID, e.payee.node.ID, id), header: e.payee.headers})
	wantTxBody(t, r, want)
	// A key with TRAN|GET alone is enough.
	key := e.fake.OAuthKey(e.fx.user.ID, testFingerprint, "TRAN|GET")
	r = do(t, e.fake, call{method: "GET", path: tranPath(e.fx.user.ID, e.fx.node.ID, id), header: userHeaders(e.fake, key)})
	wantTxBody(t, r, want)
}

func TestGetTransactionErrors(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 100_00)
	mine := e.create(t, e.bank, 1)
	toPayee := e.create(t, e.payee.node, 1)
	// A transaction between two nodes of the payee's.
	payeeSavings := addTxNode(t, e.fake, e.payee.user.ID, synapsefake.NodeSeed{Nickname: "Payee savings", BalanceCents: 10_00})
	theirs := e.createFrom(t, e.payee, payeeSavings, txBody(e.payee.node, 1))
	const unknown = "0123456789abcdef01234567"
	for _, tc := range []struct {
		name    string
		path    string
		header  map[string]string
		status  int
		errCode string
		code    string
	}{
		{"another user's transaction", tranPath(e.fx.user.ID, e.fx.node.ID, theirs), e.fx.headers, 401, "300", "unauthorized_transaction"},
		{"another user's transaction under their node", tranPath(e.fx.user.ID, e.payee.node.ID, theirs), e.fx.headers, 401, "300", "unauthorized_node"},
		{"another user's path", tranPath(e.payee.user.ID, e.payee.node.ID, theirs), e.fx.headers, 401, "300", "unauthorized_user"},
		{"unknown transaction", tranPath(e.fx.user.ID, e.fx.node.ID, unknown), e.fx.headers, 404, "404", "unable_to_locate_transaction"},
		{"own transaction under a node it does not touch", tranPath(e.fx.user.ID, e.savings.ID, mine), e.fx.headers, 404, "404", "unable_to_locate_transaction"},
		{"the payee's transaction under the payee's other node", tranPath(e.payee.user.ID, payeeSavings.ID, toPayee), e.payee.headers, 404, "404", "unable_to_locate_transaction"},
		{"unknown node", tranPath(e.fx.user.ID, unknown, mine), e.fx.headers, 404, "404", "unable_to_locate_node"},
		{"key without TRAN|GET", tranPath(e.fx.user.ID, e.fx.node.ID, mine),
			userHeaders(e.fake, e.fake.OAuthKey(e.fx.user.ID, testFingerprint, "TRANS|GET")), 401, "300", "scope_not_granted"},
		{"unknown oauth key", tranPath(e.fx.user.ID, e.fx.node.ID, mine), userHeaders(e.fake, "oauth_x"), 401, "110", "invalid_oauth_key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.state(t, mine, toPayee, theirs)
			r := do(t, e.fake, call{method: "GET", path: tc.path, header: tc.header})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.wantTxUnchanged(t, before)
		})
	}
}

// transWrapper is the list wrapper of the transaction lists.
func transWrapper(limit, page, pageCount, count int, trans []any) map[string]any {
	if trans == nil {
		trans = []any{}
	}
	return map[string]any{
		"error_code":  "0",
		"http_code":   "200",
		"limit":       float64(limit),
		"page":        float64(page),
		"page_count":  float64(pageCount),
		"success":     true,
		"trans":       trans,
		"trans_count": float64(count),
	}
}

// listedTx is a transaction as a list shows it: the single object without
// success, as the sender's user sees it.
func listedTx(t testing.TB, e txEnv, id string) any {
	t.Helper()
	tx := e.tx(t, id)
	node := tx.FromNodeID
	if tx.UserID != e.fx.user.ID {
		node = tx.ToNodeID
	}
	r := do(t, e.fake, call{method: "GET", path: tranPath(e.fx.user.ID, node, id), header: e.fx.headers})
	if r.status != 200 {
		t.Fatalf("GET %s: %d %s", id, r.status, r.raw)
	}
	m := maps.Clone(r.body)
	delete(m, "success")
	return m
}

func TestListTransactions(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 1000_00, synapsefake.WithManualProcessing())
	// Oldest first: four to the bank, one to the payee, one received from
	// the payee on the savings node. Manual processing keeps them CREATED.
	var ids []string
	for i := range 4 {
		ids = append(ids, e.create(t, e.bank, float64(i+1)))
		e.fake.Advance(time.Second) // distinct created_on
	}
	ids = append(ids, e.create(t, e.payee.node, 5))
	payeeSavings := addTxNode(t, e.fake, e.payee.user.ID, synapsefake.NodeSeed{Nickname: "Payee savings", BalanceCents: 10_00})
	received := e.createFrom(t, e.payee, payeeSavings, txBody(e.savings, 0.01))
	listed := func(ids ...string) []any {
		out := make([]any, len(ids))
		for i, id := range ids {
			out[i] = listedTx(t, e, id)
		}
		return out
	}
	user := "/users/" + e.fx.user.ID + "/trans"
	for _, tc := range []struct {
		name string
		path string
		want map[string]any
	}{
		{"the user's, newest first", user, transWrapper(20, 1, 1, 6, listed(received, ids[4], ids[3], ids[2], ids[1], ids[0]))},
		{"the sending node's", transPath(e.fx.user.ID, e.fx.node.ID), transWrapper(20, 1, 1, 5, listed(ids[4], ids[3], ids[2], ids[1], ids[0]))},
		{"the bank node's", transPath(e.fx.user.ID, e.bank.ID), transWrapper(20, 1, 1, 4, listed(ids[3], ids[2], ids[1], ids[0]))},
		{"the receiving node's", transPath(e.fx.user.ID, e.savings.ID), transWrapper(20, 1, 1, 1, listed(received))},
		{"a node with none", transPath(e.fx.user.ID, addTxNode(t, e.fake, e.fx.user.ID, synapsefake.NodeSeed{}).ID), transWrapper(20, 1, 0, 0, nil)},
		{"page 2 of 2", user + "?per_page=4&page=2", transWrapper(4, 2, 2, 6, listed(ids[1], ids[0]))},
		{"page 1 of 3", user + "?page=1&per_page=2", transWrapper(2, 1, 3, 6, listed(received, ids[4]))},
		{"a page past the end", user + "?per_page=4&page=3", transWrapper(4, 3, 2, 6, nil)},
		{"per_page above 20 is capped", user + "?per_page=100", transWrapper(20, 1, 1, 6, listed(received, ids[4], ids[3], ids[2], ids[1], ids[0]))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, e.fake, call{method: "GET", path: tc.path, header: e.fx.headers})
			if r.status != 200 {
				t.Fatalf("status %d: %s", r.status, r.raw)
			}
			if diff := cmp.Diff(tc.want, r.body); diff != "" {
				t.Errorf("list (-want +got):\n%s", diff)
			}
		})
	}
}

// TestListTransactionsPaging fills more than a page: the default page is the
// 20 newest, per_page defaults to 20.
func TestListTransactionsPaging(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 2000_00, synapsefake.WithManualProcessing())
	var ids []string
	for i := range 45 {
		ids = append(ids, e.create(t, e.bank, float64(i+1)))
	}
	slices.Reverse(ids)
	for _, tc := range []struct {
		query           string
		page, pageCount int
		want            []string
	}{
		{"", 1, 3, ids[:20]},
		{"?page=2", 2, 3, ids[20:40]},
		{"?page=3", 3, 3, ids[40:]},
		{"?page=4", 4, 3, nil},
	} {
		for _, path := range []string{"/users/" + e.fx.user.ID + "/trans", transPath(e.fx.user.ID, e.fx.node.ID)} {
			r := do(t, e.fake, call{method: "GET", path: path + tc.query, header: e.fx.headers})
			trans, _ := r.body["trans"].([]any)
			got := make([]string, len(trans))
			for i, tx := range trans {
				got[i], _ = tx.(map[string]any)["_id"].(string)
			}
			if !slices.Equal(got, tc.want) || r.body["page"] != float64(tc.page) ||
				r.body["page_count"] != float64(tc.pageCount) || r.body["trans_count"] != 45.0 || r.body["limit"] != 20.0 {
				t.Errorf("GET %s%s: page %v of %v (%v items, limit %v), ids %v; want page %d of %d, ids %v",
					path, tc.query, r.body["page"], r.body["page_count"], r.body["trans_count"], r.body["limit"], got, tc.page, tc.pageCount, tc.want)
			}
		}
	}
}

func TestListTransactionsErrors(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 100_00)
	id := e.create(t, e.bank, 1)
	user := "/users/" + e.fx.user.ID + "/trans"
	for _, tc := range []struct {
		name    string
		path    string
		header  map[string]string
		status  int
		errCode string
		code    string
	}{
		{"page 0", user + "?page=0", e.fx.headers, 400, "200", "invalid_page"},
		{"page not a number", user + "?page=x", e.fx.headers, 400, "200", "invalid_page"},
		{"per_page 0", transPath(e.fx.user.ID, e.fx.node.ID) + "?per_page=0", e.fx.headers, 400, "200", "invalid_per_page"},
		{"another user's list", "/users/" + e.payee.user.ID + "/trans", e.fx.headers, 401, "300", "unauthorized_user"},
		{"another user's node", transPath(e.fx.user.ID, e.payee.node.ID), e.fx.headers, 401, "300", "unauthorized_node"},
		{"unknown node", transPath(e.fx.user.ID, "0123456789abcdef01234567"), e.fx.headers, 404, "404", "unable_to_locate_node"},
		{"key without TRANS|GET", user, userHeaders(e.fake, e.fake.OAuthKey(e.fx.user.ID, testFingerprint, "TRAN|GET")), 401, "300", "scope_not_granted"},
		{"no X-SP-USER-IP", user, map[string]string{"X-SP-GATEWAY": e.fake.Gateway(), "X-SP-USER": e.fx.key + "|" + testFingerprint}, 400, "200", "missing_user_ip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.state(t, id)
			r := do(t, e.fake, call{method: "GET", path: tc.path, header: tc.header})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.wantTxUnchanged(t, before)
		})
	}
}
