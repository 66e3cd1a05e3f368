package synapsefake_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
)

// checkWorld is a user with two DEPOSIT-US nodes, $100.00 in the first,
// and a $25.00 transfer from the first to the second, CREATED.
type checkWorld struct {
	fx   testkit.Fixture
	to   synapsefake.Node
	txID string
}

func newCheckWorld(t *testing.T, fake *synapsefake.Server) checkWorld {
	t.Helper()
	fx := testkit.NewFixture(t, fake, 100_00)
	to := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/trans", Header: fx.Headers,
		Body: map[string]any{
			"to":     map[string]any{"type": "DEPOSIT-US", "id": to.ID},
			"amount": map[string]any{"amount": 25, "currency": "USD"},
			"extra":  map[string]any{"ip": "127.0.0.1", "note": "rent"},
		}})
	if r.Status != http.StatusOK {
		t.Fatalf("create transaction: %d %s", r.Status, r.Raw)
	}
	return checkWorld{fx: fx, to: to, txID: r.Body["_id"].(string)}
}

// runCheck runs one check against a recording TB and returns whether it
// passed, the one failure it reported ("" for none) and that TB.
func runCheck(t *testing.T, check func(tb testing.TB) bool) (bool, string) {
	t.Helper()
	rec := &testkit.RecordingTB{TB: t}
	ok := check(rec)
	if len(rec.Fatals) > 0 {
		t.Fatalf("the check called Fatalf: %q", rec.Fatals)
	}
	if rec.Unhelped > 0 {
		t.Errorf("the check reported a failure before calling tb.Helper: the failure would name the check's line, not the test's")
	}
	switch {
	case len(rec.Errors) > 1:
		t.Fatalf("the check reported %d failures, want at most one: %q", len(rec.Errors), rec.Errors)
	case ok != (len(rec.Errors) == 0):
		t.Fatalf("the check returned %v but reported %q", ok, rec.Errors)
	case len(rec.Errors) == 1:
		return ok, rec.Errors[0]
	}
	return ok, ""
}

// wantCheck checks a check's outcome: pass, or a failure message holding
// each of want.
func wantCheck(t *testing.T, ok bool, msg string, wantOK bool, want ...string) {
	t.Helper()
	if ok != wantOK {
		t.Errorf("check passed = %v, want %v; message:\n%s", ok, wantOK, msg)
	}
	// go-cmp writes some diffs with non-breaking spaces.
	msg = strings.ReplaceAll(msg, "\u00a0", " ")
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("message lacks %q:\n%s", w, msg)
		}
	}
}

func TestCheckStatus(t *testing.T) {
	fake := synapsefake.New()
	w := newCheckWorld(t, fake)
	returned := newCheckWorld(t, fake)
	if err := fake.Return(returned.txID, "R02"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		txID   string
		status synapsefake.Status
		code   []string
		wantOK bool
		want   []string
	}{
		{"status matches", w.txID, synapsefake.StatusCreated, nil, true, nil},
		{"status differs", w.txID, synapsefake.StatusSettled, nil, false,
			[]string{"CheckStatus: transaction " + w.txID + " at 2026-04-14T14:00:00Z (Tue 10:00 EDT) (-want +got)", `- 	Status: "SETTLED"`, `+ 	Status: "CREATED"`,
				"timeline:\n  2026-04-14T14:00:00Z (Tue 10:00 EDT)  CREATED",
				"pending on the clock, soonest first:\n  transaction " + w.txID + " reaches PROCESSING-DEBIT at 2026-04-14T14:00:00.001Z (Tue 10:00 EDT) (call Advance(1ms))",
				"transaction " + w.txID + " reaches SETTLED at 2026-04-14T14:00:00.001Z (Tue 10:00 EDT) (call Advance(1ms))"}},
		{"status and code match", returned.txID, synapsefake.StatusReturned, []string{"R02"}, true, nil},
		{"code differs", returned.txID, synapsefake.StatusReturned, []string{"R01"}, false,
			[]string{`- 	Code:   "R01"`, `+ 	Code:   "R02"`, "RETURNED", "\nnothing is pending on the clock for it"}},
		{"no code wanted where one is set", returned.txID, synapsefake.StatusReturned, nil, true, nil},
		{"empty code wanted where one is set", returned.txID, synapsefake.StatusReturned, []string{""}, false,
			[]string{`- 	Code:   ""`, `+ 	Code:   "R02"`}},
		{"unknown transaction", "5f0000000000000000000000", synapsefake.StatusCreated, nil, false,
			[]string{`no transaction "5f0000000000000000000000"`}},
		{"two codes", w.txID, synapsefake.StatusCreated, []string{"R01", "R02"}, false, []string{"at most one code"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, msg := runCheck(t, func(tb testing.TB) bool { return fake.CheckStatus(tb, tc.txID, tc.status, tc.code...) })
			wantCheck(t, ok, msg, tc.wantOK, tc.want...)
		})
	}
}

// TestCheckStatusRunsDueWork: a test that moves a shared mock clock itself
// checks the store a request would see.
func TestCheckStatusRunsDueWork(t *testing.T) {
	mock := clock.NewMock()
	mock.Set(time.Date(2026, 3, 2, 14, 0, 0, 0, time.UTC)) // a Monday
	fake := synapsefake.New(synapsefake.WithClock(mock))
	w := newCheckWorld(t, fake)
	mock.Add(30 * 24 * time.Hour)
	ok, msg := runCheck(t, func(tb testing.TB) bool { return fake.CheckStatus(tb, w.txID, synapsefake.StatusSettled) })
	wantCheck(t, ok, msg, true)
	fake.CheckBalance(t, w.fx.Node.ID, 75_00, 75_00)
}

func TestCheckBalance(t *testing.T) {
	fake := synapsefake.New()
	w := newCheckWorld(t, fake)
	for _, tc := range []struct {
		name               string
		nodeID             string
		balance, available int64
		wantOK             bool
		want               []string
	}{
		{"both match", w.fx.Node.ID, 100_00, 75_00, true, nil},
		{"available differs", w.fx.Node.ID, 100_00, 100_00, false,
			[]string{"CheckBalance: node " + w.fx.Node.ID + " (Checking) at 2026-04-14T14:00:00Z (Tue 10:00 EDT) (-want +got)", "- 	AvailableCents: 10000", "+ 	AvailableCents: 7500",
				"pending on the clock, soonest first:", "transaction " + w.txID + " reaches SETTLED at 2026-04-14T14:00:00.001Z (Tue 10:00 EDT) (call Advance(1ms))"}},
		{"balance differs", w.fx.Node.ID, 75_00, 75_00, false, []string{"- 	BalanceCents:   7500", "+ 	BalanceCents:   10000"}},
		{"receiver", w.to.ID, 0, 0, true, nil},
		{"unknown node", "5f0000000000000000000000", 0, 0, false, []string{`no node "5f0000000000000000000000"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, msg := runCheck(t, func(tb testing.TB) bool { return fake.CheckBalance(tb, tc.nodeID, tc.balance, tc.available) })
			wantCheck(t, ok, msg, tc.wantOK, tc.want...)
		})
	}
}

func TestCheckWebhook(t *testing.T) {
	fake := synapsefake.New(synapsefake.WithoutWebhookDelivery())
	w := newCheckWorld(t, fake)
	for _, tc := range []struct {
		name    string
		match   []synapsefake.WebhookMatcher
		wantOK  bool
		want    []string
		wantNot []string
	}{
		{"transaction created", []synapsefake.WebhookMatcher{synapsefake.ForTransaction(w.txID, synapsefake.StatusCreated)}, true, nil, nil},
		{"any webhook", nil, true, nil, nil},
		{"two matchers", []synapsefake.WebhookMatcher{synapsefake.ForObject(w.txID), synapsefake.ForFunction("TRANS|POST")}, true, nil, nil},
		{"not settled yet", []synapsefake.WebhookMatcher{synapsefake.ForTransaction(w.txID, synapsefake.StatusSettled)}, false,
			[]string{"CheckWebhook: none of the", "the nearest (-want +got)", `- 	Status:     "SETTLED"`, `+ 	Status:     "CREATED"`,
				"captured:", "TRANS|POST TRAN_" + w.txID + " CREATED"}, nil},
		{"another function", []synapsefake.WebhookMatcher{synapsefake.ForObject(w.txID), synapsefake.ForFunction("TRAN|PATCH")}, false,
			[]string{`- 	Function:   "TRAN|PATCH"`, `+ 	Function:   "TRANS|POST"`}, nil},
		{"unknown object: no nearest", []synapsefake.WebhookMatcher{synapsefake.ForObject("5f0000000000000000000000")}, false,
			[]string{"none of the", "captured:"}, []string{"nearest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, msg := runCheck(t, func(tb testing.TB) bool { return fake.CheckWebhook(tb, tc.match...) })
			wantCheck(t, ok, msg, tc.wantOK, tc.want...)
			for _, n := range tc.wantNot {
				if strings.Contains(msg, n) {
					t.Errorf("message holds %q:\n%s", n, msg)
				}
			}
		})
	}
	t.Run("empty capture", func(t *testing.T) {
		empty := synapsefake.New()
		ok, msg := runCheck(t, func(tb testing.TB) bool { return empty.CheckWebhook(tb) })
		wantCheck(t, ok, msg, false, "none of the 0 captured webhooks matched", "captured: none")
	})
}

// TestCheckWebhookDoesNotWait: a webhook that cannot come fails the check
// at once, not after Wait's bound of real time.
func TestCheckWebhookDoesNotWait(t *testing.T) {
	fake := synapsefake.New()
	w := newCheckWorld(t, fake)
	start := time.Now()
	ok, _ := runCheck(t, func(tb testing.TB) bool {
		return fake.CheckWebhook(tb, synapsefake.ForTransaction(w.txID, synapsefake.StatusSettled))
	})
	if ok {
		t.Fatal("the check passed, want a failure")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("CheckWebhook took %v of real time, want no waiting", d)
	}
}

// TestCheckWebhookFlushes: a delivery in flight is recorded before the
// check reads the capture.
func TestCheckWebhookFlushes(t *testing.T) {
	release := make(chan struct{})
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
	}))
	defer receiver.Close()
	fake := synapsefake.New()
	fake.MustAddSubscription(t, receiver.URL)
	w := newCheckWorld(t, fake)
	delivered := func(wh synapsefake.Webhook) bool {
		return wh.ObjectID == w.txID && len(wh.Deliveries) == 1 && len(wh.Deliveries[0].Attempts) == 1 &&
			wh.Deliveries[0].Attempts[0].Code == http.StatusOK
	}
	time.AfterFunc(50*time.Millisecond, func() { close(release) })
	ok, msg := runCheck(t, func(tb testing.TB) bool { return fake.CheckWebhook(tb, delivered) })
	wantCheck(t, ok, msg, true)
}

func TestCheckNoWebhook(t *testing.T) {
	fake := synapsefake.New(synapsefake.WithoutWebhookDelivery())
	w := newCheckWorld(t, fake)
	ok, msg := runCheck(t, func(tb testing.TB) bool {
		return fake.CheckNoWebhook(tb, synapsefake.ForTransaction(w.txID, synapsefake.StatusReturned))
	})
	wantCheck(t, ok, msg, true)
	if err := fake.Return(w.txID, "R01"); err != nil {
		t.Fatal(err)
	}
	ok, msg = runCheck(t, func(tb testing.TB) bool {
		return fake.CheckNoWebhook(tb, synapsefake.ForTransaction(w.txID, synapsefake.StatusReturned))
	})
	wantCheck(t, ok, msg, false, "CheckNoWebhook: 1 of the", "(-want +got)", `+ 	"TRAN|PATCH TRAN_`+w.txID+` RETURNED (R01)"`)
}

func TestCheckRequest(t *testing.T) {
	fake := synapsefake.New()
	w := newCheckWorld(t, fake)
	testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/entity-types", Header: testkit.GatewayHeaders(fake)})
	const trans = "/users/{user_id}/nodes/{node_id}/trans"
	for _, tc := range []struct {
		name          string
		method, route string
		body          []any
		wantOK        bool
		want          []string
	}{
		{"route as the spec writes it", "POST", trans, nil, true, nil},
		{"an id in the route", "POST", "/users/{user_id}/nodes/" + w.fx.Node.ID + "/trans", nil, true, nil},
		{"the path itself", "POST", "/users/" + w.fx.User.ID + "/nodes/" + w.fx.Node.ID + "/trans", nil, true, nil},
		{"another node", "POST", "/users/{user_id}/nodes/" + w.to.ID + "/trans", nil, false,
			[]string{"CheckRequest: want a call POST /users/{user_id}/nodes/" + w.to.ID + "/trans; the server answered 2, none of them that one:",
				"1. POST " + trans + " -> 200/0", "2. GET /users/entity-types -> 200/0"}},
		{"another method", "GET", trans, nil, false, []string{"want a call GET " + trans}},
		{"a literal route", "GET", "/users/entity-types", nil, true, nil},
		{"a wildcard does not match a literal route", "GET", "/users/{user_id}", nil, false, []string{"want a call GET /users/{user_id};"}},
		{"body subset", "POST", trans, []any{map[string]any{"amount": map[string]any{"amount": 25.0}, "to": map[string]any{"id": w.to.ID}}}, true, nil},
		{"body subset as a struct", "POST", trans, []any{struct {
			Extra struct {
				Note string `json:"note"`
			} `json:"extra"`
		}{Extra: struct {
			Note string `json:"note"`
		}{"rent"}}}, true, nil},
		{"body differs", "POST", trans, []any{map[string]any{"amount": map[string]any{"amount": 30}, "extra": map[string]any{"note": "rent"}}}, false,
			[]string{"1 call POST " + trans + ", none with the wanted body; the newest (-want +got)", "-", "float64(30)", "+", "float64(25)"}},
		{"a field missing", "POST", trans, []any{map[string]any{"memo": "x"}}, false, []string{`- 	"memo": string("x")`}},
		{"two bodies", "POST", trans, []any{1, 2}, false, []string{"at most one body"}},
		{"a body that does not encode", "POST", trans, []any{func() {}}, false, []string{"does not encode"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, msg := runCheck(t, func(tb testing.TB) bool { return fake.CheckRequest(tb, tc.method, tc.route, tc.body...) })
			wantCheck(t, ok, msg, tc.wantOK, tc.want...)
		})
	}
}

// TestTransferToSavings is the test docs/scenarios.md shows, written with
// the handle and the Check helpers; kept compiling and passing.
func TestTransferToSavings(t *testing.T) {
	fake := synapsefake.NewServer(t)
	user := fake.MustAddUser(t, synapsefake.UserSeed{})
	checking := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_00})
	savings := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	u := fake.As(t, user.ID, "device-1") // stands in for the app's own client

	resp := u.Post("nodes/"+checking.ID+"/trans", map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": savings.ID},
		"amount": map[string]any{"amount": 25, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1"},
	})
	txID, _ := resp.Body["_id"].(string)

	fake.CheckRequest(t, "POST", "/users/{user_id}/nodes/"+checking.ID+"/trans",
		map[string]any{"amount": map[string]any{"amount": 25}})
	fake.CheckStatus(t, txID, synapsefake.StatusCreated)
	fake.CheckBalance(t, checking.ID, 100_00, 75_00) // promised, not yet debited
	if err := fake.Settle(txID); err != nil {
		t.Fatal(err)
	}
	fake.CheckStatus(t, txID, synapsefake.StatusSettled)
	fake.CheckBalance(t, checking.ID, 75_00, 75_00)
	fake.CheckBalance(t, savings.ID, 25_00, 25_00)
	fake.CheckWebhook(t, synapsefake.ForTransaction(txID, synapsefake.StatusSettled))
	fake.CheckNoWebhook(t, synapsefake.ForTransaction(txID, synapsefake.StatusReturned))
}
