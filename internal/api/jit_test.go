package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// newJITEnv is a cardEnv whose fake has the given options, the card's node
// holding balanceCents.
func newJITEnv(t testing.TB, balanceCents int64, opts ...synapsefake.Option) cardEnv {
	t.Helper()
	mock := clock.NewMock()
	mock.Set(snMonday)
	fake := synapsefake.NewServer(t, append([]synapsefake.Option{synapsefake.WithClock(mock)}, opts...)...)
	fx := testkit.NewFixture(t, fake, balanceCents)
	card := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	return cardEnv{fake: fake, fx: fx, card: card}
}

const created = "Transaction Created."

func TestJITDecisioning(t *testing.T) {
	t.Parallel()
	const defaultPath = created + " No decision from the platform ("
	for _, tc := range []struct {
		name       string
		decide     func(http.ResponseWriter, *http.Request)
		status     synapsefake.SubnetStatus // of the card; ACTIVE when ""
		auth       synapsefake.CardAuth
		wantAsked  int
		wantStatus synapsefake.Status
		wantCode   string
		wantAmount int64
		wantNote   string // of the CREATED entry; a prefix when it ends with "("
		available  int64  // of the card's node (balance 100_00) after the swipe
	}{
		{name: "PASS approves", decide: testkit.Answer(200, `{"decision":"PASS"}`), auth: synapsefake.CardAuth{AmountCents: 30_00},
			wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantAmount: 30_00, wantNote: created, available: 70_00},
		{name: "FAIL declines with IR180", decide: testkit.Answer(200, `{"decision":"FAIL"}`), auth: synapsefake.CardAuth{AmountCents: 30_00},
			wantAsked: 1, wantStatus: synapsefake.StatusReturned, wantCode: "IR180", wantAmount: 30_00, wantNote: created, available: 100_00},
		{name: "total_amount approves partially with IR10", decide: testkit.Answer(200, `{"decision":"PASS","total_amount":12.5}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00, PartialApprovalAllowed: true}, wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantCode: "IR10",
			wantAmount: 12_50, wantNote: created + " Partially approved for 12.5 of 30.", available: 87_50},
		{name: "total_amount equal to the amount approves it whole", decide: testkit.Answer(200, `{"decision":"PASS","total_amount":30}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00}, wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantAmount: 30_00,
			wantNote: created, available: 70_00},
		{name: "PASS does not lend: over the balance is IR51", decide: testkit.Answer(200, `{"decision":"PASS"}`),
			auth: synapsefake.CardAuth{AmountCents: 150_00}, wantAsked: 1, wantStatus: synapsefake.StatusReturned, wantCode: "IR51",
			wantAmount: 150_00, wantNote: created, available: 100_00},
		{name: "partial approval within the balance", decide: testkit.Answer(200, `{"decision":"PASS","total_amount":100}`),
			auth: synapsefake.CardAuth{AmountCents: 150_00, PartialApprovalAllowed: true}, wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantCode: "IR10",
			wantAmount: 100_00, wantNote: created + " Partially approved for 100 of 150.", available: 0},
		{name: "bad JSON follows the default path", decide: testkit.Answer(200, `{"decision":`), auth: synapsefake.CardAuth{AmountCents: 30_00},
			wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantAmount: 30_00, wantNote: defaultPath, available: 70_00},
		{name: "500 follows the default path", decide: testkit.Answer(500, `{"decision":"FAIL"}`), auth: synapsefake.CardAuth{AmountCents: 30_00},
			wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantAmount: 30_00,
			wantNote: defaultPath + "answer with HTTP status 500): default decisioning.", available: 70_00},
		{name: "default path declines over the balance", decide: testkit.Answer(404, ``), auth: synapsefake.CardAuth{AmountCents: 150_00},
			wantAsked: 1, wantStatus: synapsefake.StatusReturned, wantCode: "IR51", wantAmount: 150_00,
			wantNote: defaultPath + "answer with HTTP status 404): default decisioning.", available: 100_00},
		{name: "unknown decision follows the default path", decide: testkit.Answer(200, `{"decision":"pass"}`), auth: synapsefake.CardAuth{AmountCents: 30_00},
			wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantAmount: 30_00,
			wantNote: defaultPath + `decision "pass" is neither "PASS" nor "FAIL"): default decisioning.`, available: 70_00},
		{name: "total_amount over the amount follows the default path", decide: testkit.Answer(200, `{"decision":"PASS","total_amount":31}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00}, wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantAmount: 30_00,
			wantNote: defaultPath + "total_amount 31 is not from 0.01 to the amount 30): default decisioning.", available: 70_00},
		{name: "total_amount in fractions of a cent follows the default path", decide: testkit.Answer(200, `{"decision":"PASS","total_amount":1.005}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00}, wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantAmount: 30_00,
			wantNote: defaultPath + "total_amount 1.005 is not from 0.01 to the amount 30): default decisioning.", available: 70_00},
		{name: "FAIL with a total_amount declines", decide: testkit.Answer(200, `{"decision":"FAIL","total_amount":10}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00}, wantAsked: 1, wantStatus: synapsefake.StatusReturned, wantCode: "IR180",
			wantAmount: 30_00, wantNote: created, available: 100_00},
		{name: "funding_nodes follow the default path", decide: testkit.Answer(200, `{"decision":"PASS","total_amount":30,"funding_nodes":[{"node_id":"x","amount":30}]}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00}, wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantAmount: 30_00,
			wantNote: defaultPath + "funding_nodes are not supported by synapsefake): default decisioning.", available: 70_00},
		{name: "a TERMINATED card is declined without asking", decide: testkit.Answer(200, `{"decision":"PASS"}`), status: synapsefake.SubnetTerminated,
			auth: synapsefake.CardAuth{AmountCents: 30_00}, wantStatus: synapsefake.StatusReturned, wantCode: "IR62", wantAmount: 30_00,
			wantNote: created, available: 100_00},
		{name: "DeclineWith is declined without asking", decide: testkit.Answer(200, `{"decision":"PASS"}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00, DeclineWith: "IR59"}, wantStatus: synapsefake.StatusReturned, wantCode: "IR59",
			wantAmount: 30_00, wantNote: created, available: 100_00},
		{name: "a held partial approval holds the approved amount", decide: testkit.Answer(200, `{"decision":"PASS","total_amount":20}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00, Hold: true, PartialApprovalAllowed: true}, wantAsked: 1, wantStatus: synapsefake.StatusCreated, wantCode: "IR10",
			wantAmount: 20_00, wantNote: created + " Partially approved for 20 of 30.", available: 80_00},
		{name: "total_amount without partial_approval_allowed declines with IR180", decide: testkit.Answer(200, `{"decision":"PASS","total_amount":12.5}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00}, wantAsked: 1, wantStatus: synapsefake.StatusReturned, wantCode: "IR180",
			wantAmount: 30_00, wantNote: created + " Partial approval for 12.5 of 30 refused: the swipe does not allow partial approval.", available: 100_00},
		{name: "a held swipe without partial_approval_allowed holds nothing on a partial answer", decide: testkit.Answer(200, `{"decision":"PASS","total_amount":20}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00, Hold: true}, wantAsked: 1, wantStatus: synapsefake.StatusReturned, wantCode: "IR180",
			wantAmount: 30_00, wantNote: created + " Partial approval for 20 of 30 refused: the swipe does not allow partial approval.", available: 100_00},
		{name: "partial_approval_allowed leaves a whole approval whole", decide: testkit.Answer(200, `{"decision":"PASS"}`),
			auth: synapsefake.CardAuth{AmountCents: 30_00, PartialApprovalAllowed: true}, wantAsked: 1, wantStatus: synapsefake.StatusCreated,
			wantAmount: 30_00, wantNote: created, available: 70_00},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newJITEnv(t, 100_00)
			p := testkit.NewPlatform(t, tc.decide)
			e.fake.MustAddSubscription(t, p.Url, reference.ScopeTransPostJIT)
			if tc.status != "" {
				e.patch(t, `{"status":"`+string(tc.status)+`"}`)
			}
			got := swipe(t, e.fake, e.card.ID, tc.auth)
			if n := len(p.Questions()); n != tc.wantAsked {
				t.Errorf("the platform was asked %d times, want %d", n, tc.wantAsked)
			}
			if got.Status != tc.wantStatus || got.Code != tc.wantCode || got.AmountCents != tc.wantAmount {
				t.Errorf("swipe: %s %q %d, want %s %q %d", got.Status, got.Code, got.AmountCents, tc.wantStatus, tc.wantCode, tc.wantAmount)
			}
			if note := got.Timeline[0].Note; note != tc.wantNote && !(strings.HasSuffix(tc.wantNote, "(") && strings.HasPrefix(note, tc.wantNote)) {
				t.Errorf("CREATED note %q, want %q", note, tc.wantNote)
			}
			if stored, _ := e.fake.Transaction(got.ID); !cmp.Equal(got, stored) {
				t.Errorf("Transaction(%s) differs from the returned copy:\n%s", got.ID, cmp.Diff(got, stored))
			}
			wantMoney(t, e, 100_00, tc.available)
			if got.Status != synapsefake.StatusCreated {
				return
			}
			if tc.auth.Hold {
				if err := e.fake.ClearAuthorization(got.ID, got.AmountCents); err != nil {
					t.Fatal(err)
				}
			} else if err := e.fake.Settle(got.ID); err != nil {
				t.Fatal(err)
			}
			wantMoney(t, e, tc.available, tc.available)
		})
	}
}

// TestJITTimeout: a platform that does not answer within the deadline is
// not waited for longer, and the swipe follows the default path.
// The deadline is long enough for the question to reach the platform
// under -race on a loaded machine, so that it is asked every time.
func TestJITTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	e := newJITEnv(t, 100_00, synapsefake.WithJITDeadline(200*time.Millisecond))
	p := testkit.NewPlatform(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) }) // runs before the platform closes
	e.fake.MustAddSubscription(t, p.Url, reference.ScopeTransPostJIT)
	for _, tc := range []struct {
		amount     int64
		wantStatus synapsefake.Status
		wantCode   string
		available  int64
	}{
		{30_00, synapsefake.StatusCreated, "", 70_00},
		{80_00, synapsefake.StatusReturned, "IR51", 70_00},
	} {
		got := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: tc.amount})
		if got.Status != tc.wantStatus || got.Code != tc.wantCode {
			t.Errorf("swipe of %d: %s %q, want %s %q", tc.amount, got.Status, got.Code, tc.wantStatus, tc.wantCode)
		}
		if want := created + " No decision from the platform (no answer within 200ms): default decisioning."; got.Timeline[0].Note != want {
			t.Errorf("CREATED note %q, want %q", got.Timeline[0].Note, want)
		}
		wantMoney(t, e, 100_00, tc.available)
	}
	if n := len(p.Questions()); n != 2 {
		t.Errorf("the platform was asked %d times, want 2", n)
	}
}

// TestJITWithoutDelivery: without webhook delivery the platform is not
// asked.
func TestJITWithoutDelivery(t *testing.T) {
	t.Parallel()
	e := newJITEnv(t, 100_00, synapsefake.WithoutWebhookDelivery())
	p := testkit.NewPlatform(t, testkit.Answer(200, `{"decision":"FAIL"}`))
	e.fake.MustAddSubscription(t, p.Url, reference.ScopeTransPostJIT)
	got := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 30_00})
	want := created + " No decision from the platform (WithoutWebhookDelivery: the platform is not asked): default decisioning."
	if got.Status != synapsefake.StatusCreated || got.Timeline[0].Note != want {
		t.Errorf("swipe: %s %q, want CREATED %q", got.Status, got.Timeline[0].Note, want)
	}
	if n := len(p.Questions()); n != 0 {
		t.Errorf("the platform was asked %d times, want 0", n)
	}
	wantMoney(t, e, 100_00, 70_00)
}

// TestJITRequest: the question is the swipe's view as the TRANS|POST
// webhook that follows a PASS shows it, with webhook_meta.function
// TRANS|POST|JIT, signed like every webhook.
func TestJITRequest(t *testing.T) {
	t.Parallel()
	e := newJITEnv(t, 100_00)
	p := testkit.NewPlatform(t, testkit.Answer(200, `{"decision":"PASS"}`))
	e.fake.MustAddSubscription(t, p.Url, reference.ScopeTransPostJIT)
	got := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 30_00, Merchant: "DINER", Hold: true})
	qs := p.Questions()
	if len(qs) != 1 {
		t.Fatalf("the platform was asked %d times, want 1", len(qs))
	}
	q := qs[0]
	if !synapsefake.VerifySignature(q.Header, got.ID, e.fake.ClientID(), e.fake.ClientSecret()) {
		t.Errorf("signature headers %q %q do not verify", q.Header.Get("X-Synapse-Signature"), q.Header.Get("X-Synapse-Signature-Sha256"))
	}
	if ct := q.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var asked map[string]any
	if err := json.Unmarshal(q.Body, &asked); err != nil {
		t.Fatalf("question is not JSON: %v\n%s", err, q.Body)
	}
	meta := asked["webhook_meta"].(map[string]any)
	if meta["function"] != "TRANS|POST|JIT" || meta["updated_by"] != "BACKEND" {
		t.Errorf("webhook_meta %v, want function TRANS|POST|JIT updated_by BACKEND", meta)
	}
	if id := asked["_id"].(map[string]any)["$oid"]; id != got.ID {
		t.Errorf("_id.$oid %v, want %s", id, got.ID)
	}
	posted := e.fake.Webhooks().Wait(t, func(w synapsefake.Webhook) bool { return w.Function == "TRANS|POST" && w.ObjectID == got.ID }).Payload()
	delete(asked, "webhook_meta")
	delete(posted, "webhook_meta")
	if diff := cmp.Diff(posted, asked); diff != "" {
		t.Errorf("question differs from the TRANS|POST webhook (-webhook +question):\n%s", diff)
	}
}

// TestJITPartialApprovalAllowed: the question about a swipe, and the
// swipe on the wire, carry to.meta.partial_approval_allowed true exactly
// when the merchant allows a partial approval (issue 22, point 9; the
// transaction decisioning guide); a swipe that does not allow it has no
// to.meta.
func TestJITPartialApprovalAllowed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		allowed  bool
		wantMeta any // to.meta of the question and of GET .../trans/{id}
	}{
		{"allowed", true, map[string]any{"partial_approval_allowed": true}},
		{"not allowed", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newJITEnv(t, 100_00)
			p := testkit.NewPlatform(t, testkit.Answer(200, `{"decision":"PASS","total_amount":10}`))
			e.fake.MustAddSubscription(t, p.Url, reference.ScopeTransPostJIT)
			got := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 30_00, PartialApprovalAllowed: tc.allowed})
			qs := p.Questions()
			if len(qs) != 1 {
				t.Fatalf("the platform was asked %d times, want 1", len(qs))
			}
			var asked struct {
				To map[string]any `json:"to"`
			}
			if err := json.Unmarshal(qs[0].Body, &asked); err != nil {
				t.Fatalf("question is not JSON: %v\n%s", err, qs[0].Body)
			}
			if diff := cmp.Diff(tc.wantMeta, asked.To["meta"]); diff != "" {
				t.Errorf("question's to.meta (-want +got):\n%s", diff)
			}
			r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users/" + e.fx.User.ID + "/nodes/" + e.fx.Node.ID + "/trans/" + got.ID, Header: e.fx.Headers})
			if r.Status != http.StatusOK {
				t.Fatalf("GET the swipe: %d %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(tc.wantMeta, r.Body["to"].(map[string]any)["meta"]); diff != "" {
				t.Errorf("the swipe's to.meta (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJITCallsBack: the platform may call the fake while it decides; the
// swipe is not stored yet.
func TestJITCallsBack(t *testing.T) {
	t.Parallel()
	e := newJITEnv(t, 100_00)
	var seen []any
	p := testkit.NewPlatform(t, func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequest("GET", e.fake.URL()+"/users/"+e.fx.User.ID+"/nodes/"+e.fx.Node.ID, nil)
		for k, v := range e.fx.Headers {
			req.Header.Set(k, v)
		}
		var node struct {
			Info struct {
				Balance any `json:"balance"`
			} `json:"info"`
		}
		if resp, err := e.fake.Client().Do(req); err == nil {
			_ = json.NewDecoder(resp.Body).Decode(&node)
			resp.Body.Close()
		}
		seen = append(seen, node.Info.Balance)
		n, _ := e.fake.Node(e.fx.Node.ID)
		seen = append(seen, n.AvailableCents)
		tx, _ := e.fake.CardAuthorization(e.card.ID, synapsefake.CardAuth{AmountCents: 1, DeclineWith: "IR05"})
		seen = append(seen, tx.Code)
		testkit.Answer(200, `{"decision":"PASS"}`)(w, r)
	})
	e.fake.MustAddSubscription(t, p.Url, reference.ScopeTransPostJIT)
	got := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 30_00})
	if got.Status != synapsefake.StatusCreated || got.Timeline[0].Note != created {
		t.Errorf("swipe: %s %q, want CREATED %q", got.Status, got.Timeline[0].Note, created)
	}
	want := []any{map[string]any{"amount": 100.0, "currency": "USD"}, int64(100_00), "IR05"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("what the platform saw (-want +got):\n%s", diff)
	}
	wantMoney(t, e, 100_00, 70_00)
}

// TestJITSubscriptions: only an active subscription holding
// TRANS|POST|JIT is asked, the oldest of them alone; the default scopes
// do not hold it.
func TestJITSubscriptions(t *testing.T) {
	t.Parallel()
	e := newJITEnv(t, 100_00)
	events := testkit.NewPlatform(t, testkit.Answer(200, `{"decision":"FAIL"}`))
	if sub := e.fake.MustAddSubscription(t, events.Url); slices.Contains(sub.Scopes, reference.ScopeTransPostJIT) {
		t.Errorf("default scopes %q hold TRANS|POST|JIT", sub.Scopes)
	}
	inactive := testkit.NewPlatform(t, testkit.Answer(200, `{"decision":"FAIL"}`))
	r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: "/subscriptions", Header: testkit.GatewayHeaders(e.fake),
		Body: map[string]any{"scope": []string{"TRANS|POST|JIT"}, "url": inactive.Url}})
	if r.Status != 200 || !cmp.Equal(r.Body["scope"], []any{"TRANS|POST|JIT"}) {
		t.Fatalf("POST /subscriptions TRANS|POST|JIT: %d %s", r.Status, r.Raw)
	}
	if r := testkit.Do(t, e.fake, testkit.Call{Method: "PATCH", Path: "/subscriptions/" + r.Body["_id"].(string), Header: testkit.GatewayHeaders(e.fake),
		Body: map[string]any{"is_active": false}}); r.Status != 200 {
		t.Fatalf("PATCH is_active false: %d %s", r.Status, r.Raw)
	}
	first := testkit.NewPlatform(t, testkit.Answer(200, `{"decision":"PASS","total_amount":10}`))
	second := testkit.NewPlatform(t, testkit.Answer(200, `{"decision":"FAIL"}`))
	e.fake.MustAddSubscription(t, first.Url, reference.ScopeTransPostJIT, reference.ScopeTranPatch)
	e.fake.MustAddSubscription(t, second.Url, reference.ScopeTransPostJIT)
	got := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 30_00, PartialApprovalAllowed: true})
	if got.Status != synapsefake.StatusCreated || got.AmountCents != 10_00 {
		t.Errorf("swipe: %s %d, want CREATED 1000 (the first subscription's answer)", got.Status, got.AmountCents)
	}
	e.fake.Flush()
	for _, tc := range []struct {
		name string
		p    *testkit.Platform
		want int
	}{{"default scopes", events, 0}, {"inactive", inactive, 0}, {"first", first, 1}, {"second", second, 0}} {
		var jit int
		for _, q := range tc.p.Questions() {
			if strings.Contains(string(q.Body), `"function":"TRANS|POST|JIT"`) {
				jit++
			}
		}
		if jit != tc.want {
			t.Errorf("%s subscription asked %d times, want %d", tc.name, jit, tc.want)
		}
	}
	for _, scope := range []string{"TRANS|POST|jit", "TRANS|JIT"} {
		r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: "/subscriptions", Header: testkit.GatewayHeaders(e.fake),
			Body: map[string]any{"scope": []string{scope}, "url": first.Url}})
		testkit.WantError(t, r, 400, "200", "")
	}
}

// TestJITControl: a swipe through the control API is decided by the
// platform too.
func TestJITControl(t *testing.T) {
	t.Parallel()
	e := newJITEnv(t, 100_00)
	p := testkit.NewPlatform(t, testkit.Answer(200, `{"decision":"FAIL"}`))
	testkit.CtlOK(t, e.fake, "POST", "/subscriptions", map[string]any{"url": p.Url, "scopes": []string{"TRANS|POST|JIT"}})
	body := testkit.CtlOK(t, e.fake, "POST", "/subnets/"+e.card.ID+"/authorize", map[string]any{"amount_cents": 20_00})
	tx := body["transaction"].(map[string]any)
	if tx["status"] != "RETURNED" || tx["code"] != "IR180" {
		t.Errorf("control swipe: %v %v, want RETURNED IR180", tx["status"], tx["code"])
	}
	if n := len(p.Questions()); n != 1 {
		t.Errorf("the platform was asked %d times, want 1", n)
	}
	wantMoney(t, e, 100_00, 100_00)
}

// BenchmarkCardAuthorization measures a swipe decided by the card's rules
// (the baseline) beside one a TRANS|POST|JIT platform on loopback decides.
func BenchmarkCardAuthorization(b *testing.B) {
	for _, jit := range []bool{false, true} {
		name := "card rules"
		if jit {
			name = "JIT PASS"
		}
		b.Run(name, func(b *testing.B) {
			e := newJITEnv(b, synapsefake.MaxAmountCents)
			e.patch(b, `{"preferences":{"daily_transaction_limit":1000000000}}`)
			if jit {
				e.fake.MustAddSubscription(b, testkit.NewPlatform(b, testkit.Answer(200, `{"decision":"PASS"}`)).Url, reference.ScopeTransPostJIT)
			}
			for b.Loop() {
				if tx := swipe(b, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 1}); tx.Status != synapsefake.StatusCreated {
					b.Fatalf("swipe %s %s", tx.Status, tx.Code)
				}
			}
		})
	}
}

// TestControlAuthorizePartialApproval: POST /_fake/subnets/{id}/authorize
// takes partial_approval_allowed (CardAuth.PartialApprovalAllowed); a
// platform's partial answer is honoured with it and declines without it.
func TestControlAuthorizePartialApproval(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		body       map[string]any
		wantStatus string
		wantCode   string
		wantCents  float64
	}{
		{"allowed", map[string]any{"amount_cents": 30_00, "partial_approval_allowed": true}, "CREATED", "IR10", 10_00},
		{"not allowed", map[string]any{"amount_cents": 30_00, "partial_approval_allowed": false}, "RETURNED", "IR180", 30_00},
		{"omitted", map[string]any{"amount_cents": 30_00}, "RETURNED", "IR180", 30_00},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newJITEnv(t, 100_00)
			p := testkit.NewPlatform(t, testkit.Answer(200, `{"decision":"PASS","total_amount":10}`))
			e.fake.MustAddSubscription(t, p.Url, reference.ScopeTransPostJIT)
			tx := testkit.CtlOK(t, e.fake, "POST", "/subnets/"+e.card.ID+"/authorize", tc.body)["transaction"].(map[string]any)
			if tx["status"] != tc.wantStatus || tx["code"] != tc.wantCode || tx["amount_cents"] != tc.wantCents {
				t.Errorf("transaction %v %v %v, want %s %s %v", tx["status"], tx["code"], tx["amount_cents"], tc.wantStatus, tc.wantCode, tc.wantCents)
			}
			if n := len(p.Questions()); n != 1 {
				t.Errorf("the platform was asked %d times, want 1", n)
			}
		})
	}
}

// TestJITSwipeAcrossAResetOrRestore: a swipe whose platform is deciding
// when the fake is reset or its state restored is not stored (409 / "410"
// state_replaced): its id was drawn from the replaced id stream, and a
// transfer made meanwhile may hold it now. The transfer stays whole and
// the state restores.
func TestJITSwipeAcrossAResetOrRestore(t *testing.T) {
	t.Parallel()
	for _, replace := range []string{"restore", "reset"} {
		t.Run(replace, func(t *testing.T) {
			t.Parallel()
			e := newJITEnv(t, 100_00)
			peer := testkit.AddTxNode(t, e.fake, e.fx.User.ID, synapsefake.NodeSeed{Nickname: "Peer"})
			var saved strings.Builder
			var transfer string
			p := testkit.NewPlatform(t, func(w http.ResponseWriter, r *http.Request) {
				if replace == "restore" {
					if err := e.fake.Restore(strings.NewReader(saved.String())); err != nil {
						t.Errorf("Restore: %v", err)
					}
					r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: testkit.TransPath(e.fx.User.ID, e.fx.Node.ID), Header: e.fx.Headers, Body: testkit.TxBody(peer, 1)})
					if r.Status != 200 {
						t.Errorf("the transfer during the decision: %d %s", r.Status, r.Raw)
					}
					transfer, _ = r.Body["_id"].(string)
				} else {
					e.fake.Reset()
				}
				testkit.Answer(200, `{"decision":"PASS"}`)(w, r)
			})
			e.fake.MustAddSubscription(t, p.Url, reference.ScopeTransPostJIT)
			if err := e.fake.Snapshot(&saved); err != nil {
				t.Fatal(err)
			}
			_, err := e.fake.CardAuthorization(e.card.ID, synapsefake.CardAuth{AmountCents: 5_00})
			if testkit.ErrCode(err) != "state_replaced" {
				t.Fatalf("CardAuthorization across a %s: %v, want state_replaced", replace, err)
			}
			if replace == "restore" {
				if tx, ok := e.fake.Transaction(transfer); !ok || tx.AmountCents != 1_00 || tx.ToNodeID != peer.ID {
					t.Errorf("the transfer made during the decision: %+v, %v; want 1.00 USD to the peer", tx, ok)
				}
			}
			var doc strings.Builder
			if err := e.fake.Snapshot(&doc); err != nil {
				t.Fatal(err)
			}
			if err := synapsefake.NewServer(t).Restore(strings.NewReader(doc.String())); err != nil {
				t.Errorf("the state after the swipe does not restore: %v", err)
			}
		})
	}
}
