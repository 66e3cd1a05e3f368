package console_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/standalone"
	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// newStateFake is a server with no listener (so that two of them show the
// same URLs) on its own mock clock, set to friday.
func newStateFake(t testing.TB) *synapsefake.Server {
	mock := clock.NewMock()
	mock.Set(testkit.Friday())
	fake := synapsefake.New(synapsefake.WithClock(mock), synapsefake.WithOAuthKeyLifetime(365*24*time.Hour))
	t.Cleanup(fake.Close)
	return fake
}

// stateReceiver answers webhooks: 500 to those of new users, 200 to the
// others. (One subscription only: the log's order of the attempts to two
// would depend on which receiver answers first.)
func stateReceiver(t testing.TB) *httptest.Server {
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"function":"USERS|POST"`)) {
			http.Error(w, "receiver down", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, "ok")
	}))
	t.Cleanup(recv.Close)
	return recv
}

// richWorld is what buildRichState made, for the requests that follow.
type richWorld struct {
	sender, payee testkit.Fixture
	ach, card     synapsefake.Node
	cardSubnet    synapsefake.Subnet
	txs           map[string]string // by the status it was left in
	mfaToken      string            // a bank login waiting for its answer
	idemKey       string
}

// buildRichState gives fake one of everything the store holds: every node
// type, a card with a shipment and a swipe, transactions in every status, a
// dispute, idempotency keys, OAuth keys, a user with MFA forced, a bank
// login waiting for its answer, queued and monthly statements, and
// webhooks to a receiver that fails, in the middle of their retries.
func buildRichState(t *testing.T, fake *synapsefake.Server, recvURL string) richWorld {
	t.Helper()
	fake.MustAddSubscription(t, recvURL)
	w := richWorld{txs: map[string]string{}, idemKey: "idem-1"}
	w.sender = testkit.NamedFixture(t, fake, "Sam Sender", 5000_00)
	w.payee = testkit.NamedFixture(t, fake, "Pat Payee", 0)
	for _, typ := range reference.NodeTypes() {
		seed := synapsefake.NodeSeed{Type: typ, Nickname: typ}
		if typ == reference.NodeACHUS {
			seed.AccountNum, seed.RoutingNum = "123456789", "051000017"
		}
		n := testkit.AddTxNode(t, fake, w.sender.User.ID, seed)
		switch typ {
		case reference.NodeACHUS:
			w.ach = n
		case reference.NodeCardUS:
			w.card = n
		}
	}
	merchant := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Merchant"}})
	external := testkit.AddTxNode(t, fake, merchant.ID, synapsefake.NodeSeed{Type: reference.NodeExternalUS, Nickname: "Merchant"})
	createTo := func(to synapsefake.Node, status string, idem string) string {
		h := w.sender.Headers
		if idem != "" {
			h = testkit.EditHeaders(h, map[string]string{"X-SP-IDEMPOTENCY-KEY": idem})
		}
		r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(w.sender.User.ID, w.sender.Node.ID), Header: h, Body: testkit.TxBody(to, 12.5)})
		if r.Status != http.StatusOK {
			t.Fatalf("create transaction: %d %s", r.Status, r.Raw)
		}
		id := r.Body["_id"].(string)
		w.txs[status] = id
		return id
	}
	create := func(status string, idem string) string { return createTo(w.payee.Node, status, idem) }
	must := func(what string, err error) {
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	create("CREATED", w.idemKey)
	must("settle", fake.Settle(create("SETTLED", "")))
	must("return", fake.Return(create("RETURNED", ""), "R01"))
	must("queue", fake.Queue(create("QUEUED-BY-SYNAPSE", ""), ""))
	must("cancel", fake.Cancel(create("CANCELED", ""), ""))
	must("advance", fake.AdvanceTransaction(create("PROCESSING-DEBIT", ""), synapsefake.StatusProcessingDebit))
	disputed := createTo(external, "DISPUTED", "")
	must("settle", fake.Settle(disputed))
	if r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(w.sender.User.ID, w.sender.Node.ID, disputed), Header: w.sender.Headers,
		Body: map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST", "dispute_meta": map[string]any{"n": 1e21, "s": "x"}}}); r.Status != http.StatusOK {
		t.Fatalf("dispute: %d %s", r.Status, r.Raw)
	}

	sub, err := fake.AddSubnet(w.sender.User.ID, w.sender.Node.ID, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	must("subnet", err)
	w.cardSubnet = sub
	if r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: testkit.SubnetPath(w.sender.User.ID, w.sender.Node.ID, sub.ID) + "/ship", Header: w.sender.Headers,
		Body: map[string]any{"fee_node_id": w.sender.Node.ID, "secondary_label": "ACME"}}); r.Status != http.StatusOK {
		t.Fatalf("ship: %d %s", r.Status, r.Raw)
	}
	swiped, err := fake.CardAuthorization(sub.ID, synapsefake.CardAuth{AmountCents: 7_00, Merchant: "CAFE"})
	must("swipe", err)
	w.txs["SWIPE"] = swiped.ID

	if r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(w.sender.User.ID), Header: w.sender.Headers,
		Body: testkit.BankLoginBody("synapse_good", "test1234")}); r.Status != http.StatusAccepted {
		t.Fatalf("bank login: %d %s", r.Status, r.Raw)
	} else {
		w.mfaToken = r.Body["mfa"].(map[string]any)["access_token"].(string)
	}
	fake.ForceMFA(w.payee.User.ID)
	if r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + w.sender.Node.UserID + "/nodes/" + w.sender.Node.ID + "/statements",
		Header: w.sender.Headers, Body: map[string]any{}}); r.Status != http.StatusOK {
		t.Fatalf("statement: %d %s", r.Status, r.Raw)
	}
	fake.Advance(2 * time.Minute) // the failing receiver's first retry is made, the second waits
	return w
}

// stateStep is one request, or a clock move, of the sequence both servers
// get.
type stateStep struct {
	method, path string // path below the base URL; "/_fake/..." for the control API
	header       map[string]string
	body         any
	advance      time.Duration
}

// run makes the step against fake and returns its answer as bytes.
func (s stateStep) run(t *testing.T, fake *synapsefake.Server) string {
	t.Helper()
	if s.advance > 0 {
		fake.Advance(s.advance)
		return "advanced to " + fake.Now().String()
	}
	if p, ok := strings.CutPrefix(s.path, "/_fake"); ok {
		r := testkit.Ctl(t, fake, s.method, p, s.body)
		fake.Flush()
		return fmt.Sprintf("%d %s", r.Status, r.Raw)
	}
	r := testkit.Do(t, fake, testkit.Call{Method: s.method, Path: s.path, Header: s.header, Body: s.body})
	fake.Flush() // the webhooks it caused are delivered before the next step
	return fmt.Sprintf("%d %s", r.Status, r.Raw)
}

// TestRestoreAnswersAsTheSnapshot builds a rich state, restores its
// snapshot into a fresh server, and then gives both the same requests and
// clock moves: every answer must be byte-identical (ids, balances,
// timelines, webhooks and their retries, statements), and so must both
// servers' states at the end.
func TestRestoreAnswersAsTheSnapshot(t *testing.T) {
	recv := stateReceiver(t)
	orig := newStateFake(t)
	w := buildRichState(t, orig, recv.URL)
	doc := testkit.SnapshotBytes(t, orig)
	var parsed struct {
		Webhooks struct {
			Retries []any `json:"retries"`
		} `json:"webhooks"`
	}
	if err := json.Unmarshal(doc, &parsed); err != nil || len(parsed.Webhooks.Retries) == 0 {
		t.Fatalf("the state holds no webhook retry (%v): the failing receiver should be mid-retry", err)
	}

	restored := newStateFake(t)
	restored.MustAddUser(t, synapsefake.UserSeed{}) // replaced by Restore
	if err := restored.Restore(bytes.NewReader(doc)); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if again := testkit.SnapshotBytes(t, restored); !bytes.Equal(again, doc) {
		t.Fatalf("the restored server's snapshot differs from the one it was restored from: %s", testkit.FirstDiff(string(again), string(doc)))
	}

	s, p := w.sender, w.payee
	trans := testkit.TransPath(s.User.ID, s.Node.ID)
	steps := []stateStep{
		{method: "GET", path: "/users/" + s.User.ID, header: s.Headers},
		{method: "GET", path: testkit.NodesPath(s.User.ID), header: s.Headers},
		{method: "GET", path: trans, header: s.Headers},
		{method: "GET", path: testkit.TranPath(s.User.ID, s.Node.ID, w.txs["DISPUTED"]), header: s.Headers},
		{method: "GET", path: testkit.SubnetPath(s.User.ID, s.Node.ID, w.cardSubnet.ID) + "/ship", header: s.Headers},
		{method: "POST", path: trans, header: s.Headers, body: testkit.TxBody(p.Node, 3)},
		{method: "POST", path: trans, header: testkit.EditHeaders(s.Headers, map[string]string{"X-SP-IDEMPOTENCY-KEY": w.idemKey}), body: testkit.TxBody(p.Node, 3)},
		{method: "POST", path: "/users", header: testkit.GatewayHeaders(orig), body: map[string]any{"logins": []any{map[string]any{"email": "new@example.com"}},
			"phone_numbers": []string{"901.111.1111"}, "legal_names": []string{"New User"}}},
		{method: "POST", path: testkit.NodesPath(s.User.ID), header: s.Headers, body: map[string]any{"access_token": w.mfaToken, "mfa_answer": "test_answer"}},
		{method: "POST", path: "/oauth/" + p.User.ID, header: testkit.GatewayHeaders(orig), body: map[string]any{"refresh_token": p.User.RefreshToken}},
		{method: "GET", path: "/_fake/webhooks"},
		{advance: time.Hour},
		{method: "GET", path: trans, header: s.Headers},
		{method: "GET", path: "/subscriptions/logs", header: testkit.GatewayHeaders(orig)},
		{advance: 24 * time.Hour},
		{method: "GET", path: trans + "?per_page=50", header: s.Headers},
		{method: "GET", path: testkit.NodePath(s.User.ID, s.Node.ID), header: s.Headers},
		{method: "PATCH", path: testkit.TranPath(s.User.ID, s.Node.ID, w.txs["CREATED"]), header: s.Headers, body: map[string]any{"comment": "hello"}},
		{advance: 40 * 24 * time.Hour},
		{method: "GET", path: "/users/" + s.User.ID + "/statements", header: s.Headers},
		{method: "GET", path: "/_fake/webhooks"},
		{method: "GET", path: "/subscriptions/logs", header: testkit.GatewayHeaders(orig)},
		{method: "GET", path: "/_fake/requests"},
		{method: "GET", path: "/_fake/clock"},
		{method: "GET", path: "/_fake/state"},
	}
	for i, st := range steps {
		want, got := st.run(t, orig), st.run(t, restored)
		if got != want {
			t.Errorf("step %d (%s %s%v): the restored server answered otherwise: %s", i, st.method, st.path, st.advance, testkit.FirstDiff(got, want))
		}
	}
}

// TestRestoreTakesEveryPermission: a user may be given each permission the
// API and SetPermission take, and a snapshot of that user restores, giving
// the same document back: the state check knows the same permissions.
func TestRestoreTakesEveryPermission(t *testing.T) {
	t.Parallel()
	for _, perm := range []synapsefake.Permission{"UNVERIFIED", "RECEIVE", "SEND", "SEND-AND-RECEIVE", "LOCKED", "CLOSED", "MAKE-IT-GO-AWAY"} {
		t.Run(string(perm), func(t *testing.T) {
			t.Parallel()
			orig := newStateFake(t)
			u := orig.MustAddUser(t, synapsefake.UserSeed{})
			if err := orig.SetPermission(u.ID, perm); err != nil {
				t.Fatalf("SetPermission(%s): %v", perm, err)
			}
			doc := testkit.SnapshotBytes(t, orig)
			restored := newStateFake(t)
			if err := restored.Restore(bytes.NewReader(doc)); err != nil {
				t.Fatalf("Restore of a %s user: %v", perm, err)
			}
			if got, ok := restored.User(u.ID); !ok || got.Permission != perm {
				t.Errorf("the restored user: %+v, %v; want permission %s", got, ok, perm)
			}
			if again := testkit.SnapshotBytes(t, restored); !bytes.Equal(again, doc) {
				t.Errorf("the restored server's snapshot differs: %s", testkit.FirstDiff(string(again), string(doc)))
			}
		})
	}
}

// TestRestoreTakesALedgerPastTheBalanceLimit: a node seeded at
// -MaxBalanceCents and funded by MaxBalanceCents and then by a cent has a
// ledger whose entries add up past MaxBalanceCents, while every balance it
// went through was within the limits; its snapshot restores.
func TestRestoreTakesALedgerPastTheBalanceLimit(t *testing.T) {
	t.Parallel()
	orig := newStateFake(t)
	u := orig.MustAddUser(t, synapsefake.UserSeed{})
	n := orig.MustAddNode(t, u.ID, synapsefake.NodeSeed{BalanceCents: -synapsefake.MaxBalanceCents})
	for _, c := range []int64{synapsefake.MaxBalanceCents, 1} {
		if err := orig.Fund(n.ID, c); err != nil {
			t.Fatalf("Fund(%d): %v", c, err)
		}
	}
	doc := testkit.SnapshotBytes(t, orig)
	restored := newStateFake(t)
	if err := restored.Restore(bytes.NewReader(doc)); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if got, _ := restored.Node(n.ID); got.BalanceCents != 1 {
		t.Errorf("the restored node's balance: %d, want 1", got.BalanceCents)
	}
	if again := testkit.SnapshotBytes(t, restored); !bytes.Equal(again, doc) {
		t.Errorf("the restored server's snapshot differs: %s", testkit.FirstDiff(string(again), string(doc)))
	}
}

// TestStartTimesASnapshotHolds: WithStartTime takes the start times whose
// server's state restores, with a card issued (its expiry three years on),
// and panics for the others, with the error ValidateStartTime gives.
func TestStartTimesASnapshotHolds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		at time.Time
		ok bool
	}{
		{time.Time{}, true},
		{time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{time.Date(9899, 12, 31, 23, 59, 59, 0, time.UTC), true},
		{time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), false},
		{time.Date(1965, 3, 1, 12, 0, 0, 0, time.UTC), false},
		{time.Date(9900, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{time.Date(9998, 3, 1, 12, 0, 0, 0, time.UTC), false},
	} {
		t.Run(tc.at.Format(time.RFC3339), func(t *testing.T) {
			t.Parallel()
			err := standalone.ValidateStartTime(tc.at)
			if (err == nil) != tc.ok {
				t.Fatalf("ValidateStartTime = %v, want ok %v", err, tc.ok)
			}
			if !tc.ok {
				defer func() {
					if got := recover(); got != err.Error() {
						t.Errorf("WithStartTime panicked with %v, want %q", got, err)
					}
				}()
				synapsefake.WithStartTime(tc.at)
				return
			}
			orig := synapsefake.NewServer(t, synapsefake.WithStartTime(tc.at))
			fx := testkit.NewFixture(t, orig, 100)
			if _, err := orig.AddSubnet(fx.User.ID, fx.Node.ID, synapsefake.SubnetSeed{AccountClass: "CARD"}); err != nil {
				t.Fatal(err)
			}
			doc := testkit.SnapshotBytes(t, orig)
			restored := synapsefake.NewServer(t, synapsefake.WithStartTime(tc.at))
			if err := restored.Restore(bytes.NewReader(doc)); err != nil {
				t.Fatalf("Restore: %v", err)
			}
		})
	}
}

// TestRestoreRefusesBadDocuments checks that a document Restore cannot use
// is refused, over HTTP with 400 / "200", and changes nothing.
func TestRestoreRefusesBadDocuments(t *testing.T) {
	recv := stateReceiver(t)
	src := newStateFake(t)
	buildRichState(t, src, recv.URL)
	doc := testkit.SnapshotBytes(t, src)
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(doc, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, tc := range []struct {
		name string
		body string
	}{
		{"empty", ""},
		{"not JSON", "state"},
		{"truncated", string(doc[:len(doc)/2])},
		{"an array", "[]"},
		{"another format", edit(func(m map[string]any) { m["format"] = "something-else" })},
		{"a later version", edit(func(m map[string]any) { m["version"] = synapsefake.StateVersion + 1 })},
		{"the earlier version", edit(func(m map[string]any) { m["version"] = 1 })},
		{"no version", edit(func(m map[string]any) { delete(m, "version") })},
		{"another seed", edit(func(m map[string]any) { m["seed"] = 7 })},
		{"another client", edit(func(m map[string]any) { m["client_id"] = "someone-else" })},
		{"no store", edit(func(m map[string]any) { delete(m, "store") })},
		{"unknown key", edit(func(m map[string]any) { m["extra"] = 1 })},
		{"store field missing", edit(func(m map[string]any) { delete(m["store"].(map[string]any), "txs") })},
		{"unknown store field", edit(func(m map[string]any) { m["store"].(map[string]any)["colour"] = "blue" })},
		{"a record field of the wrong type", edit(func(m map[string]any) {
			for _, u := range m["store"].(map[string]any)["users"].(map[string]any) {
				u.(map[string]any)["cipTag"] = "one"
			}
		})},
		{"a ledger that does not lead to its node's balance", edit(func(m map[string]any) {
			for _, entries := range m["store"].(map[string]any)["book"].(map[string]any)["ledger"].(map[string]any) {
				for _, e := range entries.([]any) {
					e.(map[string]any)["movement"].(map[string]any)["amount"] = synapsefake.MaxBalanceCents
				}
			}
		})},
		{"a bad clock", edit(func(m map[string]any) { m["clock"] = "yesterday" })},
		{"a bad id stream", edit(func(m map[string]any) { m["ids"].(map[string]any)["chacha8"] = "AAAA" })},
		{"an unknown network user", edit(func(m map[string]any) { m["network_user"] = "0123456789abcdef01234567" })},
		{"an event of an unknown transaction", edit(func(m map[string]any) {
			for _, ev := range m["webhooks"].(map[string]any)["events"].([]any) {
				if e := ev.(map[string]any); e["tx_id"] != nil {
					e["tx_id"] = "0123456789abcdef01234567"
				}
			}
		})},
		{"a retry of an unknown event", edit(func(m map[string]any) {
			m["webhooks"].(map[string]any)["retries"] = []any{map[string]any{"at": 1, "seq": 99999, "delivery": 0}}
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := newStateFake(t)
			testkit.NewFixture(t, fake, 100)
			fake.Advance(0) // what falls due at the next request has run
			before := testkit.SnapshotBytes(t, fake)
			if err := fake.Restore(strings.NewReader(tc.body)); err == nil {
				t.Fatal("Restore: no error")
			}
			testkit.WantError(t, testkit.Ctl(t, fake, "PUT", "/state", tc.body), http.StatusBadRequest, "200", "invalid_state")
			if after := testkit.SnapshotBytes(t, fake); !bytes.Equal(after, before) {
				t.Errorf("the refused document changed the state: %s", testkit.FirstDiff(string(after), string(before)))
			}
		})
	}
}

// TestStateOverHTTP saves with GET /_fake/state and restores with PUT
// /_fake/state.
func TestStateOverHTTP(t *testing.T) {
	src := newStateFake(t)
	fx := testkit.NewFixture(t, src, 12_34)
	r := testkit.Ctl(t, src, "GET", "/state", nil)
	if r.Status != http.StatusOK || r.Body["format"] != "synapsefake-state" || r.Body["version"] != float64(synapsefake.StateVersion) {
		t.Fatalf("GET /_fake/state: %d %.200s", r.Status, r.Raw)
	}
	dst := newStateFake(t)
	testkit.CtlOK(t, dst, "PUT", "/state", string(r.Raw))
	n, ok := dst.Node(fx.Node.ID)
	if !ok || n.BalanceCents != 12_34 {
		t.Errorf("restored node %+v, %v; want a balance of 1234 cents", n, ok)
	}
	if got := testkit.SnapshotBytes(t, dst); !bytes.Equal(got, testkit.SnapshotBytes(t, src)) {
		t.Errorf("states differ after PUT")
	}
}

// TestRestoreRequeuesDeliveriesInFlight: a delivery whose attempt was under
// way when the state was saved is made again by the restored server.
func TestRestoreRequeuesDeliveriesInFlight(t *testing.T) {
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
			<-release // the first attempt hangs until the state is saved
		default:
		}
		fmt.Fprint(w, "ok")
	}))
	t.Cleanup(recv.Close)
	src := newStateFake(t)
	src.MustAddSubscription(t, recv.URL, "USERS|POST")
	u := src.MustAddUser(t, synapsefake.UserSeed{})
	<-arrived
	doc := testkit.SnapshotBytes(t, src)
	close(release)
	var parsed struct {
		Webhooks struct {
			Queued []struct{ Seq, Delivery int } `json:"queued"`
		} `json:"webhooks"`
	}
	if err := json.Unmarshal(doc, &parsed); err != nil || len(parsed.Webhooks.Queued) != 1 {
		t.Fatalf("queued deliveries %+v (%v), want the one in flight", parsed.Webhooks.Queued, err)
	}

	dst := newStateFake(t)
	if err := dst.Restore(bytes.NewReader(doc)); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	dst.Flush()
	all := dst.Webhooks().All()
	if len(all) != 1 || all[0].ObjectID != u.ID || len(all[0].Deliveries) != 1 {
		t.Fatalf("restored capture %v, want the user's webhook with one delivery", all)
	}
	if a := all[0].Deliveries[0].Attempts; len(a) != 1 || a[0].Code != http.StatusOK {
		t.Errorf("attempts %+v, want one 200", a)
	}
}

// benchStateFake is a server with 1,000 users, each with a node, and
// 2,000 settled transactions between them.
func benchStateFake(b *testing.B) *synapsefake.Server {
	fake := newStateFake(b)
	fxs := make([]testkit.Fixture, 1000)
	for i := range fxs {
		fxs[i] = testkit.NewFixture(b, fake, 1000_00)
	}
	for i := range 2000 {
		from, to := fxs[i%len(fxs)], fxs[(i+1)%len(fxs)]
		r := testkit.Do(b, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(from.User.ID, from.Node.ID), Header: from.Headers, Body: testkit.TxBody(to.Node, 1)})
		if err := fake.Settle(r.Body["_id"].(string)); err != nil {
			b.Fatal(err)
		}
	}
	return fake
}

// BenchmarkSnapshot saves the state of benchStateFake; BenchmarkRestore
// restores it.
func BenchmarkSnapshot(b *testing.B) {
	fake := benchStateFake(b)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := fake.Snapshot(&buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "doc-bytes")
}

// BenchmarkRestore restores a 1,000-user document; alloc-per-doc-byte is
// how many bytes a restore allocates per byte of the document, the figure
// behind WithMaxStateSize's advice.
func BenchmarkRestore(b *testing.B) {
	doc := testkit.SnapshotBytes(b, benchStateFake(b))
	fake := newStateFake(b)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		if err := fake.Restore(bytes.NewReader(doc)); err != nil {
			b.Fatal(err)
		}
		n++
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/float64(len(doc)), "alloc-per-doc-byte")
}

// TestDeepJSONIsRefusedBeforeItIsStored: a body whose arrays and objects
// nest 100 deep is taken, stored as sent in a node's extra.other, and the
// state holding it restores; one level deeper is 400 / "200" invalid_json
// and changes nothing, on the API and the control API alike (encoding/json
// reads a saved state back only to a depth of 10,000, so a body near that
// depth was taken and its state then refused by Restore).
func TestDeepJSONIsRefusedBeforeItIsStored(t *testing.T) {
	t.Parallel()
	// nested is a body nesting depth levels: {"extra":{"other":{"x":[[...[1]...]]}}} and more.
	nested := func(depth int) string {
		inner := depth - 3 // the body, extra and other
		return `{"type":"DEPOSIT-US","info":{"nickname":"Deep"},"extra":{"other":{"x":` +
			strings.Repeat("[", inner) + "1" + strings.Repeat("]", inner) + `}}}`
	}
	fake := newStateFake(t)
	fx := testkit.NewFixture(t, fake, 100)
	before := testkit.SnapshotBytes(t, fake)
	deep := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: nested(101)})
	testkit.WantError(t, deep, 400, "200", "invalid_json")
	if !strings.Contains(string(deep.Raw), "deeper than 100 levels") {
		t.Errorf("the refusal does not say why: %s", deep.Raw)
	}
	// A create-transaction body, which a fast decoder reads when it has its
	// usual shallow shape, is checked as deep once it has not.
	deepTx := `{"to":{"type":"DEPOSIT-US","id":"` + fx.Node.ID + `"},"amount":{"amount":1,"currency":"USD"},"extra":{"ip":"127.0.0.1","other":{"x":` +
		strings.Repeat("[", 98) + strings.Repeat("]", 98) + `}}}`
	testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: deepTx}), 400, "200", "invalid_json")
	world := `{"users": [{"name": "ann", "nodes": [{"name": "a", "other": ` + strings.Repeat("[", 101) + strings.Repeat("]", 101) + `}]}]}`
	w := testkit.Ctl(t, fake, "POST", "/world", world)
	testkit.WantError(t, w, 400, "200", "invalid_world")
	if !strings.Contains(string(w.Raw), "deeper than 100 levels") {
		t.Errorf("the world's refusal does not say why: %s", w.Raw)
	}
	// The journal records the refused calls; the rest is as it was.
	if after := testkit.SnapshotBytes(t, fake); testkit.StateBeyondJournal(t, after) != testkit.StateBeyondJournal(t, before) {
		t.Fatalf("a refused body changed the state: %s", testkit.FirstDiff(testkit.StateBeyondJournal(t, after), testkit.StateBeyondJournal(t, before)))
	}
	if r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: nested(100)}); r.Status != 200 {
		t.Fatalf("a body 100 deep: status %d: %s", r.Status, r.Raw)
	}
	doc := testkit.SnapshotBytes(t, fake)
	restored := newStateFake(t)
	if err := restored.Restore(bytes.NewReader(doc)); err != nil {
		t.Fatalf("Restore of a state holding a body 100 deep: %v", err)
	}
}
