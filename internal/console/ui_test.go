package console_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
)

func TestDashboardPages(t *testing.T) {
	e := newCtlEnv(t)
	fake := e.fake
	testkit.CtlOK(t, fake, "POST", "/subscriptions", map[string]any{"url": "http://127.0.0.1:1/hooks", "scopes": []string{"TRAN|PATCH", "TRANS|POST"}})
	testkit.CtlOK(t, fake, "POST", e.expand("/transactions/{tx}/queue"), map[string]any{"code": "REVIEW"})
	logID := uiLogID(t, fake, e.tx)
	for _, tc := range []struct {
		name, path, ctype string
		want              []string
		not               []string
	}{
		{"overview lists users and nodes with both balances, an external node without one", "/_fake/ui/", "text/html; charset=utf-8",
			[]string{"Test User", `id="node-{node}"`, `<td class="num available" title="available">987.66</td>`,
				`<td class="num balance" title="current">1000.00</td>`, `data-post="/_fake/ui/clock"`, `id="node-{ach}"`,
				`<td class="num external" colspan="2"`},
			[]string{`id="pane"`}},
		{"a node's detail shows its balances, fund form and cards", "/_fake/ui/?open={node}", "text/html; charset=utf-8",
			[]string{`<aside class="pane" id="pane" data-open="{node}"`, `<dd class="available">987.66</dd>`, `<dd class="balance">1000.00</dd>`,
				`data-post="/_fake/nodes/{node}/fund"`, `id="subnet-{card}"`, `data-post="/_fake/subnets/{card}/authorize"`,
				`<tr id="tx-{tx}"`},
			nil},
		{"transactions list the transaction with its status", "/_fake/ui/transactions", "text/html; charset=utf-8",
			[]string{`id="tx-{tx}" data-tx="{tx}" data-status="QUEUED-BY-SYNAPSE"`, "REVIEW"},
			[]string{`data-post="/_fake/transactions/{tx}/settle"`, `id="pane"`}},
		{"a transaction's detail shows its timeline and the legal moves", "/_fake/ui/transactions?open={tx}", "text/html; charset=utf-8",
			[]string{`data-open="{tx}"`, "Transaction Created.", `data-post="/_fake/transactions/{tx}/release"`,
				`data-post="/_fake/transactions/{tx}/cancel"`, `&#34;_id&#34;: &#34;{tx}&#34;`},
			[]string{`data-post="/_fake/transactions/{tx}/settle"`, `data-post="/_fake/transactions/{tx}/return"`}},
		{"a status filter leaves out what does not match", "/_fake/ui/transactions?status=SETTLED&user={user}", "text/html; charset=utf-8",
			[]string{"No transactions match."}, []string{`id="tx-{tx}"`}},
		{"a node filter keeps the node's transactions", "/_fake/ui/transactions?node={payee_node}", "text/html; charset=utf-8",
			[]string{`id="tx-{tx}"`}, nil},
		{"webhooks list each captured webhook", "/_fake/ui/webhooks?object={tx}", "text/html; charset=utf-8",
			[]string{"TRAN|PATCH", "QUEUED-BY-SYNAPSE", `data-object="{tx}"`}, nil},
		{"a webhook's detail shows payload, signature check and redeliver", "/_fake/ui/webhooks?open={log}", "text/html; charset=utf-8",
			[]string{`data-open="{log}"`, "Signature valid", "&#34;$oid&#34;: &#34;{tx}&#34;", "/redeliver"}, nil},
		{"oauth shows fingerprints, keys and the pin", "/_fake/ui/oauth", "text/html; charset=utf-8",
			[]string{testkit.TestFingerprint, "oauth_", `<code class="pin">123456</code>`, `data-post="/_fake/users/{user}/force-mfa"`}, nil},
		{"requests show the journal", "/_fake/ui/requests?method=POST", "text/html; charset=utf-8",
			[]string{"/users/{user_id}/nodes/{node_id}/trans", "200"}, nil},
		{"subscriptions list url, scopes and state", "/_fake/ui/subscriptions", "text/html; charset=utf-8",
			[]string{"http://127.0.0.1:1/hooks", `<span class="tag">TRAN|PATCH</span>`, `<span class="status s-sub-active">active</span>`}, nil},
		{"stylesheet", "/_fake/ui/static/style.css", "text/css; charset=utf-8", []string{"prefers-color-scheme: dark"}, nil},
		{"script", "/_fake/ui/static/app.js", "text/javascript; charset=utf-8", []string{"EventSource"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expand := func(s string) string { return strings.ReplaceAll(e.expand(s), "{log}", logID) }
			resp, body := testkit.UIGet(t, fake, expand(tc.path))
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != tc.ctype {
				t.Fatalf("status %d, Content-Type %q; want 200 %q", resp.StatusCode, resp.Header.Get("Content-Type"), tc.ctype)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, expand(w)) {
					t.Errorf("page lacks %q", expand(w))
				}
			}
			for _, w := range tc.not {
				if strings.Contains(body, expand(w)) {
					t.Errorf("page shows %q", expand(w))
				}
			}
		})
	}
}

func TestDashboardRoot(t *testing.T) {
	for _, tc := range []struct {
		name, method, path string
		opts               []synapsefake.Option
		wantStatus         int
		wantLocation       string
	}{
		{"/ redirects to the dashboard", "GET", "/", nil, http.StatusFound, "/_fake/ui/"},
		{"a POST to / is not found", "POST", "/", nil, http.StatusNotFound, ""},
		{"another path is not found", "GET", "/ui", nil, http.StatusNotFound, ""},
		{"an unknown dashboard path is not found", "GET", "/_fake/ui/nope", nil, http.StatusNotFound, ""},
		{"WithoutControlAPI: no redirect", "GET", "/", []synapsefake.Option{synapsefake.WithoutControlAPI()}, http.StatusNotFound, ""},
		{"WithoutControlAPI: no dashboard", "GET", "/_fake/ui/", []synapsefake.Option{synapsefake.WithoutControlAPI()}, http.StatusNotFound, ""},
		{"WithoutControlAPI: no event stream", "GET", "/_fake/ui/events", []synapsefake.Option{synapsefake.WithoutControlAPI()}, http.StatusNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := synapsefake.New(tc.opts...)
			req := httptest.NewRequest(tc.method, "http://localhost"+tc.path, nil) // the control API answers loopback hosts
			rec := httptest.NewRecorder()
			fake.ServeHTTP(rec, req)
			if rec.Code != tc.wantStatus || rec.Header().Get("Location") != tc.wantLocation {
				t.Fatalf("%d Location %q, want %d %q", rec.Code, rec.Header().Get("Location"), tc.wantStatus, tc.wantLocation)
			}
			if tc.wantStatus == http.StatusNotFound && !strings.Contains(rec.Body.String(), `"error_code":"404"`) {
				t.Errorf("body %s, want the 404 envelope", rec.Body)
			}
		})
	}
}

// uiLogID is webhook_meta.log_id of the newest captured webhook of the
// object with the id.
func uiLogID(t testing.TB, fake *synapsefake.Server, id string) string {
	t.Helper()
	hooks := fake.Webhooks().All()
	for i := len(hooks) - 1; i >= 0; i-- {
		if hooks[i].ObjectID != id {
			continue
		}
		var body struct {
			Meta struct {
				LogID string `json:"log_id"`
			} `json:"webhook_meta"`
		}
		if err := json.Unmarshal(hooks[i].Body, &body); err != nil || body.Meta.LogID == "" {
			t.Fatalf("webhook of %s: no log_id (%v): %s", id, err, hooks[i].Body)
		}
		return body.Meta.LogID
	}
	t.Fatalf("no webhook of %s captured", id)
	return ""
}

func TestDashboardActions(t *testing.T) {
	t.Run("settle button settles", func(t *testing.T) {
		e := newCtlEnv(t)
		path := testkit.UIButton(t, testkit.UIPage(t, e.fake, "/_fake/ui/transactions"), "/_fake/transactions/"+e.tx+"/settle")
		testkit.CtlOK(t, e.fake, "POST", path, nil)
		if tx, _ := e.fake.Transaction(e.tx); tx.Status != synapsefake.StatusSettled {
			t.Errorf("status %s, want SETTLED", tx.Status)
		}
		if n, _ := e.fake.Node(e.payee.Node.ID); n.BalanceCents != ctlTxCents {
			t.Errorf("payee balance %d, want %d", n.BalanceCents, ctlTxCents)
		}
	})
	t.Run("return form returns with the chosen code", func(t *testing.T) {
		e := newCtlEnv(t)
		path := testkit.UIButton(t, testkit.UIPage(t, e.fake, "/_fake/ui/transactions?open="+e.tx), "/_fake/transactions/"+e.tx+"/return")
		testkit.CtlOK(t, e.fake, "POST", path, map[string]any{"code": "R02"})
		if tx, _ := e.fake.Transaction(e.tx); tx.Status != synapsefake.StatusReturned || tx.Code != "R02" {
			t.Errorf("status %s code %s, want RETURNED R02", tx.Status, tx.Code)
		}
	})
	t.Run("a disputed transaction offers no return", func(t *testing.T) {
		e := testkit.NewDisputeEnv(t, synapsefake.WithImmediateProvisionalCredit())
		id := e.SettledDebit(t, 20)
		if r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers,
			Body: map[string]any{"dispute_reason": "CHARGE_BACK"}}); r.Status != http.StatusOK {
			t.Fatalf("dispute: %d %s", r.Status, r.Raw)
		}
		page := testkit.UIPage(t, e.Fake, "/_fake/ui/transactions?open="+id)
		if !strings.Contains(page, `data-open="`+id+`"`) {
			t.Fatal("the page does not show the disputed transaction's detail")
		}
		if strings.Contains(page, "/_fake/transactions/"+id+"/return") {
			t.Error("the page offers to return a disputed transaction, which the fake refuses")
		}
		tx, _ := e.Fake.Transaction(id)
		if tx.DisputeCreditID == "" {
			t.Fatal("the dispute made no credit")
		}
		credit := testkit.UIPage(t, e.Fake, "/_fake/ui/transactions?open="+tx.DisputeCreditID)
		if !strings.Contains(credit, `data-open="`+tx.DisputeCreditID+`"`) || strings.Contains(credit, "/_fake/transactions/"+tx.DisputeCreditID+"/return") {
			t.Errorf("the page offers to return the dispute's credit %q, which only its decision moves", tx.DisputeCreditID)
		}
	})
	t.Run("card check tells the decline code and makes nothing", func(t *testing.T) {
		e := newCtlEnv(t)
		path := testkit.UIButton(t, testkit.UIPage(t, e.fake, "/_fake/ui/?open="+e.card.ID), "/_fake/ui/subnets/"+e.card.ID+"/check")
		for amount, want := range map[int64]string{500: "", 100001: "IR51"} {
			got := testkit.CtlOK(t, e.fake, "POST", path, map[string]any{"amount_cents": amount})
			if got["decline_code"] != want {
				t.Errorf("amount %d: decline_code %v, want %q", amount, got["decline_code"], want)
			}
		}
		if n, _ := e.fake.Node(e.fx.Node.ID); n.AvailableCents != 100000-ctlTxCents {
			t.Errorf("available %d after checks, want %d", n.AvailableCents, 100000-ctlTxCents)
		}
	})
	t.Run("redeliver makes one more attempt", func(t *testing.T) {
		var got atomic.Int32
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got.Add(1) }))
		defer recv.Close()
		fake := synapsefake.NewServer(t)
		fake.MustAddSubscription(t, recv.URL, "USERS|POST")
		u := fake.MustAddUser(t, synapsefake.UserSeed{})
		fake.Flush()
		path := testkit.UIButton(t, testkit.UIPage(t, fake, "/_fake/ui/webhooks?open="+uiLogID(t, fake, u.ID)), `/_fake/ui/webhooks/\d+/redeliver`)
		testkit.CtlOK(t, fake, "POST", path, map[string]any{"delivery": 0})
		hooks := fake.Webhooks().All()
		if n := len(hooks[len(hooks)-1].Deliveries[0].Attempts); n != 2 || got.Load() != 2 {
			t.Errorf("%d attempts recorded, %d received; want 2 and 2", n, got.Load())
		}
	})
}

func TestDashboardClock(t *testing.T) {
	friday := time.Date(2026, 11, 27, 15, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		step string
		from time.Time
		want time.Time
	}{
		{"1h", friday, friday.Add(time.Hour)},
		{"1d", friday, friday.Add(24 * time.Hour)},
		// The next Federal Reserve business day, 00:00 US Eastern time (05:00 UTC in winter).
		{"business-day", friday, time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)},
		{"business-day", time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC)},
		{"business-day", time.Date(2026, 11, 25, 22, 0, 0, 0, time.UTC), time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)}, // over Thanksgiving
		{"statement-date", friday, time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC)},
		{"statement-date", time.Date(2026, 12, 14, 23, 0, 0, 0, time.UTC), time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC)},
		{"statement-date", time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(tc.step+" from "+tc.from.Format(time.DateTime), func(t *testing.T) {
			mock := clock.NewMock()
			mock.Set(tc.from)
			fake := synapsefake.NewServer(t, synapsefake.WithClock(mock))
			got := testkit.CtlOK(t, fake, "POST", "/ui/clock", map[string]any{"step": tc.step})
			if !fake.Now().Equal(tc.want) || got["now"] != float64(tc.want.UnixMilli()) {
				t.Errorf("now %v (answered %v), want %v", fake.Now(), got["now"], tc.want)
			}
		})
	}
}

func TestDashboardBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		errorCode, code    string
	}{
		{"unknown clock step", "POST", "/ui/clock", map[string]any{"step": "2h"}, 400, "200", "invalid_step"},
		{"unknown field", "POST", "/ui/clock", map[string]any{"step": "1h", "by": 2}, 400, "200", "unknown_field"},
		{"malformed body", "POST", "/ui/clock", `{"step":`, 400, "200", ""},
		{"wrong method", "GET", "/ui/clock", nil, 405, "410", "method_not_allowed"},
		{"redeliver of an unknown webhook", "POST", "/ui/webhooks/99999/redeliver", map[string]any{"delivery": 0}, 404, "404", ""},
		{"redeliver of an unknown delivery", "POST", "/ui/webhooks/1/redeliver", map[string]any{"delivery": 7}, 404, "404", ""},
		{"redeliver of a bad number", "POST", "/ui/webhooks/x/redeliver", nil, 404, "404", ""},
		{"check of an unknown card", "POST", "/ui/subnets/nope/check", map[string]any{"amount_cents": 100}, 404, "404", ""},
		{"check of a zero amount", "POST", "/ui/subnets/{card}/check", map[string]any{"amount_cents": 0}, 400, "200", "invalid_amount"},
		{"check of an account number", "POST", "/ui/subnets/{acct}/check", map[string]any{"amount_cents": 100}, 409, "410", "not_a_card"},
		{"settle of a settled transaction", "POST", "/transactions/{tx}/settle", nil, 409, "410", "illegal_status_change"},
		{"unknown status filter", "GET", "/ui/transactions?status=DONE", nil, 400, "200", "invalid_status"},
		{"limit out of range", "GET", "/ui/webhooks?limit=0", nil, 400, "200", "invalid_limit"},
		{"webhooks before a bad number", "GET", "/ui/webhooks?before=x", nil, 400, "200", "invalid_before"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newCtlEnv(t)
			if tc.name == "settle of a settled transaction" {
				testkit.CtlOK(t, e.fake, "POST", e.expand("/transactions/{tx}/settle"), nil)
			}
			before, txBefore, hooksBefore := e.fake.Now(), e.recentStatus(t), len(e.fake.Webhooks().All())
			r := testkit.Ctl(t, e.fake, tc.method, e.expand(tc.path), tc.body)
			if r.Status != tc.status || r.Body["error_code"] != tc.errorCode {
				t.Fatalf("%d / %v, want %d / %s: %s", r.Status, r.Body["error_code"], tc.status, tc.errorCode, r.Raw)
			}
			if got := testkit.CtlStr(testkit.CtlObj(r.Body["error"])["code"]); tc.code != "" && got != tc.code {
				t.Errorf("error.code %q, want %q", got, tc.code)
			}
			if !e.fake.Now().Equal(before) || testkit.CtlStr(e.recentStatus(t)["status"]) != testkit.CtlStr(txBefore["status"]) ||
				len(e.fake.Webhooks().All()) != hooksBefore {
				t.Errorf("the refused call changed something")
			}
		})
	}
	t.Run("a real clock cannot be stepped", func(t *testing.T) {
		fake := synapsefake.NewServer(t, synapsefake.WithClock(clock.New()))
		r := testkit.Ctl(t, fake, "POST", "/ui/clock", map[string]any{"step": "1d"})
		if r.Status != http.StatusConflict || r.Body["error_code"] != "410" {
			t.Errorf("%d / %v, want 409 / 410: %s", r.Status, r.Body["error_code"], r.Raw)
		}
	})
}

func TestDashboardEvents(t *testing.T) {
	fake := synapsefake.NewServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", testkit.CtlRoot(fake)+"/_fake/ui/events", nil)
	resp, err := fake.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %q, want 200 text/event-stream", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := bufio.NewScanner(resp.Body)
	next := func() string {
		if !lines.Scan() {
			t.Fatalf("stream ended: %v", lines.Err())
		}
		return lines.Text()
	}
	if l := next(); l != "retry: 1000" {
		t.Fatalf("first line %q, want the retry hint", l)
	}
	next()
	fake.MustAddUser(t, synapsefake.UserSeed{})
	if l := next(); l != "event: change" {
		t.Fatalf("after a change: %q, want event: change", l)
	}
	if l := next(); l != "data: 1" {
		t.Errorf("data %q, want data: 1", l)
	}
}

func TestDashboardRequestsRedacted(t *testing.T) {
	fake := synapsefake.NewServer(t)
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/oauth/" + u.ID, Header: testkit.GatewayHeaders(fake),
		Body: map[string]any{"refresh_token": u.RefreshToken, "validation_pin": "123456"}})
	if r.Status != http.StatusOK {
		t.Fatalf("oauth: %d %s", r.Status, r.Raw)
	}
	page := testkit.UIPage(t, fake, "/_fake/ui/requests?route=/oauth")
	for _, secret := range []string{u.RefreshToken, fake.ClientSecret(), "123456"} {
		if strings.Contains(page, secret) {
			t.Errorf("the journal view shows the secret %q", secret)
		}
	}
	for _, want := range []string{"/oauth/{user_id}", "&#34;refresh_token&#34;: &#34;***&#34;", fake.ClientID() + "|***"} {
		if !strings.Contains(page, want) {
			t.Errorf("the journal view lacks %q", want)
		}
	}
}

// uiPane is the detail pane of a page, "" when it has none.
func uiPane(page string) string {
	i := strings.Index(page, `<aside class="pane"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</aside>")
	return page[i : i+j]
}

func TestDashboardDetail(t *testing.T) {
	e := newCtlEnv(t)
	fake := e.fake
	sub := fake.MustAddSubscription(t, "http://127.0.0.1:1/hooks", "USERS|POST", "TRAN|PATCH")
	newcomer := fake.MustAddUser(t, synapsefake.UserSeed{}) // its USERS|POST goes to the subscription
	fake.Flush()
	logID := uiLogID(t, fake, newcomer.ID)
	for _, tc := range []struct {
		name, page, id string
		want, not      []string
	}{
		{"a user: its nodes, a form for a new one, its transactions and webhooks, its JSON", "/_fake/ui/", e.fx.User.ID,
			[]string{`<span class="kind">user</span>`, "Test User", `id="node-{node}"`, `data-post="/_fake/users/{user}/nodes"`,
				`<option selected>DEPOSIT-US</option>`, `<tr id="tx-{tx}"`, "USERS|POST", `&#34;_id&#34;: &#34;{user}&#34;`},
			nil},
		{"a node: balances, fund, its card, its owner", "/_fake/ui/transactions", e.fx.Node.ID,
			[]string{`<span class="kind">node</span>`, `<dd class="balance">1000.00</dd>`, `data-post="/_fake/nodes/{node}/fund"`,
				`id="subnet-{card}"`, `data-open-link="{user}">Test User</a>`},
			nil},
		{"an external node: no balance, no fund form", "/_fake/ui/", e.ach.ID,
			[]string{`<span class="kind">node</span>`, `<p class="external-note"><b>external</b>`},
			[]string{`<dd class="balance">`, `/fund"`}},
		{"a card: its swipe form and its node", "/_fake/ui/", e.card.ID,
			[]string{`<span class="kind">subnet</span>`, `data-check="/_fake/ui/subnets/{card}/check"`, `data-open-link="{node}"`},
			nil},
		{"an account number: no swipe form", "/_fake/ui/", e.acct.ID,
			[]string{`<span class="kind">subnet</span>`, "Account number"},
			[]string{"/authorize"}},
		{"a transaction: timeline, moves and JSON", "/_fake/ui/webhooks", e.tx,
			[]string{`<span class="kind">transaction</span>`, `<ol class="timeline">`, `data-post="/_fake/transactions/{tx}/settle"`,
				`&#34;_id&#34;: &#34;{tx}&#34;`},
			nil},
		{"a subscription: url, scopes, state, JSON", "/_fake/ui/subscriptions", sub.ID,
			[]string{`<span class="kind">subscription</span>`, "→ http://127.0.0.1:1/hooks", `<span class="tag">TRAN|PATCH</span>`,
				`<span class="status s-sub-active">active</span>`, `&#34;_id&#34;: &#34;` + sub.ID + `&#34;`},
			nil},
		{"a webhook by its log_id, in any case", "/_fake/ui/webhooks", strings.ToUpper(logID),
			[]string{`<span class="kind">webhook</span>`, "USERS|POST", "Signature valid", "/redeliver"},
			nil},
		{"an id nothing has", "/_fake/ui/", "000000000000000000000000",
			[]string{`<span class="kind">not found</span>`, "No user, node, subnet, transaction, subscription or webhook log_id has the id"},
			[]string{"<pre>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pane := uiPane(testkit.UIPage(t, fake, tc.page+"?open="+tc.id))
			if !strings.Contains(pane, `data-open="`+tc.id+`"`) {
				t.Fatalf("no pane for %s: %.300s", tc.id, pane)
			}
			for _, w := range tc.want {
				if w = e.expand(w); !strings.Contains(pane, w) {
					t.Errorf("pane lacks %q", w)
				}
			}
			for _, w := range tc.not {
				if w = e.expand(w); strings.Contains(pane, w) {
					t.Errorf("pane shows %q", w)
				}
			}
		})
	}
	t.Run("a row's link keeps the page's filters", func(t *testing.T) {
		page := testkit.UIPage(t, fake, "/_fake/ui/transactions?status=CREATED&open="+e.tx)
		if want := `<a href="/_fake/ui/transactions?status=CREATED&amp;open=` + e.tx + `">`; !strings.Contains(page, want) {
			t.Errorf("the page lacks the row link %s", want)
		}
	})
}

func TestDashboardFind(t *testing.T) {
	e := newCtlEnv(t)
	fake := e.fake
	sub := fake.MustAddSubscription(t, "http://127.0.0.1:1/hooks")
	logID := uiLogID(t, fake, e.tx)
	for _, tc := range []struct {
		name, id, wantLocation string
	}{
		{"a user opens on the overview", e.fx.User.ID, "/_fake/ui/?open=" + e.fx.User.ID},
		{"a node opens on the overview", e.payee.Node.ID, "/_fake/ui/?open=" + e.payee.Node.ID},
		{"a subnet opens on the overview", e.card.ID, "/_fake/ui/?open=" + e.card.ID},
		{"a transaction opens on the transactions page", e.tx, "/_fake/ui/transactions?open=" + e.tx},
		{"a subscription opens on the subscriptions page", sub.ID, "/_fake/ui/subscriptions?open=" + sub.ID},
		{"a webhook log_id opens on the webhooks page", logID, "/_fake/ui/webhooks?open=" + logID},
		{"spaces around a pasted id are dropped", "  " + e.tx + "\n", "/_fake/ui/transactions?open=" + e.tx},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, _ := testkit.UIGet(t, fake, "/_fake/ui/find?id="+url.QueryEscape(tc.id))
			if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != tc.wantLocation {
				t.Fatalf("%d Location %q, want 302 %q", resp.StatusCode, resp.Header.Get("Location"), tc.wantLocation)
			}
			if pane := uiPane(testkit.UIPage(t, fake, tc.wantLocation)); !strings.Contains(pane, `data-open="`+strings.TrimSpace(tc.id)+`"`) {
				t.Errorf("the page it opens shows no detail of %s", tc.id)
			}
		})
	}
	for _, id := range []string{"000000000000000000000000", "Test User", ""} {
		t.Run(fmt.Sprintf("%q is not found", id), func(t *testing.T) {
			resp, body := testkit.UIGet(t, fake, "/_fake/ui/find?id="+url.QueryEscape(id))
			if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Fatalf("%d %q, want 404 text/html", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if !strings.Contains(uiPane(body), "No user, node, subnet, transaction, subscription or webhook log_id has the id") ||
				!strings.Contains(body, `id="node-`+e.fx.Node.ID+`"`) {
				t.Errorf("the page does not say that nothing has the id beside the list: %.300s", uiPane(body))
			}
		})
	}
}

func TestDashboardNameFilters(t *testing.T) {
	fake := synapsefake.NewServer(t)
	ada := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Ada Lovelace"}, Email: "ada@example.com", Fingerprint: testkit.TestFingerprint})
	bob := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Bob Builder"}, Email: "bob@example.com", Fingerprint: testkit.TestFingerprint})
	adaNode := fake.MustAddNode(t, ada.ID, synapsefake.NodeSeed{Nickname: "Everyday checking", BalanceCents: 10_000})
	bobNode := fake.MustAddNode(t, bob.ID, synapsefake.NodeSeed{Nickname: "Savings pot"})
	fund := fake.MustAddNode(t, bob.ID, synapsefake.NodeSeed{Nickname: "Rainy day", BalanceCents: 10_000})
	toBob := mustTransfer(t, fake, adaNode.ID, bobNode.ID, 100)
	bobs := mustTransfer(t, fake, fund.ID, bobNode.ID, 200)
	for _, tc := range []struct {
		name, path string
		want, not  []string
	}{
		{"a user's name, in any case", "/_fake/ui/?name=lovelace", []string{`id="user-` + ada.ID + `"`}, []string{`id="user-` + bob.ID + `"`}},
		{"a user's email", "/_fake/ui/?name=bob@", []string{`id="user-` + bob.ID + `"`}, []string{`id="user-` + ada.ID + `"`}},
		{"a node's nickname keeps its user", "/_fake/ui/?name=RAINY", []string{`id="user-` + bob.ID + `"`, `id="node-` + fund.ID + `"`}, []string{`id="user-` + ada.ID + `"`}},
		{"a name nobody has", "/_fake/ui/?name=zed", []string{"No user or node is named “zed”."}, []string{`id="user-`}},
		{"transactions of a user by name, sent or received", "/_fake/ui/transactions?user=bob",
			[]string{`id="tx-` + toBob + `"`, `id="tx-` + bobs + `"`}, nil},
		{"transactions of a user by name, only theirs", "/_fake/ui/transactions?user=ada+love",
			[]string{`id="tx-` + toBob + `"`}, []string{`id="tx-` + bobs + `"`}},
		{"transactions of a node by nickname", "/_fake/ui/transactions?node=rainy",
			[]string{`id="tx-` + bobs + `"`}, []string{`id="tx-` + toBob + `"`}},
		{"a node by id and a user by name together", "/_fake/ui/transactions?node=" + bobNode.ID + "&user=lovelace",
			[]string{`id="tx-` + toBob + `"`}, []string{`id="tx-` + bobs + `"`}},
		{"a node by id and another user's id", "/_fake/ui/transactions?node=" + fund.ID + "&user=" + ada.ID,
			[]string{"No transactions match."}, []string{`id="tx-`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := testkit.UIPage(t, fake, tc.path)
			for _, w := range tc.want {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(page, w) {
					t.Errorf("page shows %q", w)
				}
			}
		})
	}
}

// mustTransfer makes a transaction from one node to another through the
// API, as the sending node's user, and returns its id.
func mustTransfer(t *testing.T, fake *synapsefake.Server, from, to string, cents int64) string {
	t.Helper()
	n, _ := fake.Node(from)
	key := fake.OAuthKey(n.UserID, testkit.TestFingerprint)
	h := testkit.GatewayHeaders(fake)
	h["X-SP-USER"] = key + "|" + testkit.TestFingerprint
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + n.UserID + "/nodes/" + from + "/trans", Header: h, Body: map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": to},
		"amount": map[string]any{"amount": float64(cents) / 100, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1"},
	}})
	if r.Status != http.StatusOK {
		t.Fatalf("transfer: %d %s", r.Status, r.Raw)
	}
	return r.Body["_id"].(string)
}

func TestDashboardDecline(t *testing.T) {
	e := newCtlEnv(t)
	fake := e.fake
	declined, err := fake.CardAuthorization(e.card.ID, synapsefake.CardAuth{AmountCents: 500, DeclineWith: "IR51"})
	if err != nil || declined.Status != synapsefake.StatusReturned {
		t.Fatalf("swipe: %v %v", declined.Status, err)
	}
	if err := fake.Return(e.tx, "R01"); err != nil {
		t.Fatal(err)
	}
	list := testkit.UIPage(t, fake, "/_fake/ui/transactions")
	row := func(id string) string {
		i := strings.Index(list, `<tr id="tx-`+id+`"`)
		if i < 0 {
			t.Fatalf("no row for %s", id)
		}
		return list[i : i+strings.Index(list[i:], "</tr>")]
	}
	if r := row(declined.ID); !strings.Contains(r, `<span class="status s-declined"`) || !strings.Contains(r, "IR51 · insufficient funds") ||
		strings.Contains(r, ">RETURNED<") {
		t.Errorf("the declined swipe's row: %s", r)
	}
	if r := row(e.tx); !strings.Contains(r, `<span class="status s-returned">RETURNED</span>`) || strings.Contains(r, "DECLINED") {
		t.Errorf("the returned transfer's row: %s", r)
	}
	pane := uiPane(testkit.UIPage(t, fake, "/_fake/ui/transactions?open="+declined.ID))
	if !strings.Contains(pane, `<p class="decline"><b>Declined</b> with <b>IR51</b>: insufficient funds.`) {
		t.Errorf("the declined swipe's detail: %.600s", pane)
	}
}

func TestDashboardRequestsShowAnswers(t *testing.T) {
	fake := synapsefake.NewServer(t)
	if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/000000000000000000000000", Header: testkit.GatewayHeaders(fake)}); r.Status != http.StatusNotFound {
		t.Fatalf("GET unknown user: %d %s", r.Status, r.Raw)
	}
	page := testkit.UIPage(t, fake, "/_fake/ui/requests")
	reason := "no user 000000000000000000000000 in this fake"
	for _, want := range []string{`<span class="http h404">404 / 404</span> <span class="reason">` + reason + `</span>`,
		`<p class="reason">Answered 404 / error_code 404: ` + reason + `</p>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the requests page lacks %q", want)
		}
	}
	if reqs := fake.Requests(); len(reqs) != 1 || reqs[0].Reason != reason {
		t.Errorf("journal %+v, want the call with its reason", reqs)
	}
}

func TestDashboardIsNotJournaled(t *testing.T) {
	e := newCtlEnv(t)
	fake := e.fake
	before := len(fake.Requests())
	for _, path := range []string{"/", "/_fake/ui/", "/_fake/ui/?open=" + e.fx.Node.ID, "/_fake/ui/transactions",
		"/_fake/ui/webhooks", "/_fake/ui/subscriptions", "/_fake/ui/requests", "/_fake/ui/oauth",
		"/_fake/ui/find?id=" + e.tx, "/_fake/ui/find?id=nothing", "/_fake/ui/static/style.css", "/_fake/ui/static/app.js",
		"/_fake/ui/static/nope.png", "/favicon.ico"} {
		resp, _ := testkit.UIGet(t, fake, path)
		if path == "/favicon.ico" && resp.StatusCode != http.StatusNoContent {
			t.Errorf("GET /favicon.ico: %d, want 204", resp.StatusCode)
		}
	}
	if got := fake.Requests(); len(got) != before {
		for _, r := range got[before:] {
			t.Errorf("journaled: %s %s", r.Method, r.Path)
		}
	}
	t.Run("without the dashboard, /favicon.ico is an API path like any other", func(t *testing.T) {
		fake := synapsefake.NewServer(t, synapsefake.WithoutControlAPI())
		if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/../favicon.ico"}); r.Status != http.StatusNotFound {
			t.Errorf("%d, want 404", r.Status)
		}
	})
}

func TestDashboardForms(t *testing.T) {
	e := newCtlEnv(t)
	fake := e.fake
	overview := testkit.UIPage(t, fake, "/_fake/ui/")
	t.Run("new user", func(t *testing.T) {
		path := testkit.UIButton(t, overview, "/_fake/users")
		got := testkit.CtlOK(t, fake, "POST", path, map[string]any{"legal_names": []string{"Grace Hopper"}, "email": "grace@example.com"})
		id := testkit.CtlStr(testkit.CtlObj(got["user"])["_id"])
		if u, ok := fake.User(id); !ok || u.LegalNames[0] != "Grace Hopper" {
			t.Errorf("user %+v", u)
		}
	})
	t.Run("new node and fund", func(t *testing.T) {
		user := uiPane(testkit.UIPage(t, fake, "/_fake/ui/?open="+e.payee.User.ID))
		got := testkit.CtlOK(t, fake, "POST", testkit.UIButton(t, user, "/_fake/users/"+e.payee.User.ID+"/nodes"), map[string]any{"nickname": "Travel fund", "type": "DEPOSIT-US"})
		id := testkit.CtlStr(testkit.CtlObj(got["node"])["_id"])
		node := uiPane(testkit.UIPage(t, fake, "/_fake/ui/?open="+id))
		testkit.CtlOK(t, fake, "POST", testkit.UIButton(t, node, "/_fake/nodes/"+id+"/fund"), map[string]any{"amount_cents": 25_000})
		if n, _ := fake.Node(id); n.Nickname != "Travel fund" || n.UserID != e.payee.User.ID || n.BalanceCents != 25_000 {
			t.Errorf("node %+v", n)
		}
	})
	t.Run("load world", func(t *testing.T) {
		path := testkit.UIButton(t, overview, "/_fake/world")
		if !strings.Contains(overview, `data-post="/_fake/world" data-raw="world"`) {
			t.Error("the world form does not send its text as it is")
		}
		testkit.CtlOK(t, fake, "POST", path, map[string]any{"users": []any{map[string]any{"name": "lin", "legal_names": []string{"Lin Pasted"}}}})
		if !strings.Contains(testkit.UIPage(t, fake, "/_fake/ui/?name=pasted"), "Lin Pasted") {
			t.Error("the world's user is not listed")
		}
	})
	t.Run("reset asks first", func(t *testing.T) {
		if !strings.Contains(overview, `data-post="/_fake/reset" data-confirm="Reset the fake:`) {
			t.Fatal("no reset button asking for confirmation")
		}
		testkit.CtlOK(t, fake, "POST", testkit.UIButton(t, overview, "/_fake/reset"), nil)
		if _, ok := fake.User(e.fx.User.ID); ok {
			t.Error("the user survived the reset")
		}
	})
}

// uiRow is the table row of a page whose tag starts with start, "" when
// there is none.
func uiRow(page, start string) string {
	i := strings.Index(page, start)
	if i < 0 {
		return ""
	}
	return page[i : i+strings.Index(page[i:], "</tr>")]
}

// uiContains reports, as errors, the strings of want a part of a page
// lacks and those of not it shows.
func uiContains(t *testing.T, what, part string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(part, w) {
			t.Errorf("%s lacks %q: %.1500s", what, w, part)
		}
	}
	for _, w := range not {
		if strings.Contains(part, w) {
			t.Errorf("%s shows %q: %.1500s", what, w, part)
		}
	}
}

// TestDashboardWebhookFailures: only a 2xx answer to a POST signed right is
// a delivery. A receiver that cannot be reached (recorded as 408), one
// that answers 500 and one that takes a badly signed POST under webhook
// chaos each show as failed, in red with the word, on the webhooks page,
// in the webhook's detail and on the subscription, with its success rate
// over its last deliveries and its last error.
func TestDashboardWebhookFailures(t *testing.T) {
	answering := func(code int) string {
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) }))
		t.Cleanup(recv.Close)
		return recv.URL + "/hooks"
	}
	for _, tc := range []struct {
		name      string
		url       string
		opts      []synapsefake.Option
		delivered bool
		// row: the webhook's row on the webhooks page; attempt: its
		// attempt in the webhook's detail; sub: the subscription's row,
		// its state first, then its rate, which its detail shows too.
		row, attempt, sub, notSub []string
	}{
		{"an unreachable receiver, recorded as 408", "http://127.0.0.1:1/hooks", nil, false,
			[]string{`<span class="bad" title="1 failed">✗1<span class="word"> failed</span></span>`},
			[]string{`<li class="bad"><b>408</b> <span class="verdict">failed: unreachable or timed out (recorded as 408)</span>`, "connection refused"},
			[]string{`<span class="status s-sub-active">active</span> <span class="status s-failing" title="its newest delivery failed">failing</span>`,
				`<span class="bad">0 of 1 (0%)</span>`, `<span class="bad"><b>408</b> failed: unreachable or timed out (recorded as 408)</span>`,
				`<span class="when">2026-04-14T14:00:00Z (Tue 10:00 EDT)</span>`, "connection refused"},
			[]string{"s-active", `class="ok"`}},
		{"a receiver answering 500", answering(http.StatusInternalServerError), nil, false,
			[]string{`✗1<span class="word"> failed</span>`},
			[]string{`<li class="bad"><b>500</b> <span class="verdict">failed</span>`},
			[]string{"failing", `<span class="bad">0 of 1 (0%)</span>`, `<span class="bad"><b>500</b> failed</span>`},
			[]string{"s-active"}},
		{"a badly signed POST under webhook chaos, answered 200", answering(http.StatusOK),
			[]synapsefake.Option{synapsefake.WithWebhookChaos(synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{BadSignature: 1}})}, false,
			[]string{`✗1<span class="word"> failed</span>`},
			[]string{`<li class="bad"><b>200</b> <span class="verdict">failed: bad signature (webhook chaos)</span>`, "chaos: bad_signature"},
			[]string{"failing", `<span class="bad">0 of 1 (0%)</span>`, `failed: bad signature (webhook chaos)`},
			[]string{"s-active"}},
		{"a receiver answering 200", answering(http.StatusOK), nil, true,
			[]string{`<span class="ok" title="1 delivered">✓1</span>`},
			[]string{`<li class="ok"><b>200</b> <span class="verdict">delivered</span>`},
			[]string{`<span class="status s-sub-active">active</span></td>`, `<span class="ok">1 of 1 (100%)</span>`,
				`<td class="last-error"><span class="muted">none</span></td>`},
			[]string{"failing", "✗"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := synapsefake.NewServer(t, tc.opts...)
			sub := fake.MustAddSubscription(t, tc.url, "USERS|POST")
			u := fake.MustAddUser(t, synapsefake.UserSeed{})
			fake.Flush()
			logID := uiLogID(t, fake, u.ID)
			page := testkit.UIPage(t, fake, "/_fake/ui/webhooks?open="+logID)
			notRow := []string{"✓"} // a failure counts as no delivery
			if tc.delivered {
				notRow = []string{"✗"}
			}
			uiContains(t, "the webhook's row", uiRow(page, `<tr id="hook-`), tc.row, notRow)
			uiContains(t, "the webhook's detail", uiPane(page), tc.attempt, nil)
			subs := testkit.UIPage(t, fake, "/_fake/ui/subscriptions?open="+sub.ID)
			uiContains(t, "the subscription's row", uiRow(subs, `<tr id="sub-`+sub.ID+`"`), tc.sub, tc.notSub)
			uiContains(t, "the subscription's detail", uiPane(subs), tc.sub[1:2], nil) // its rate
		})
	}
}

// TestDashboardSubscriptionRate: a subscription's rate counts its newest
// uiSubWindow (20) deliveries, each by its last attempt, and its last
// error is its newest failed attempt, even when later deliveries went
// through.
func TestDashboardSubscriptionRate(t *testing.T) {
	var fail atomic.Bool
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fail.Load() {
			w.WriteHeader(http.StatusNotFound) // ends the delivery: no retry
			_, _ = io.WriteString(w, "no such hook")
		}
	}))
	defer recv.Close()
	fake := synapsefake.NewServer(t)
	sub := fake.MustAddSubscription(t, recv.URL, "USERS|POST")
	users := func(n int) {
		for range n {
			fake.MustAddUser(t, synapsefake.UserSeed{})
		}
		fake.Flush()
	}
	fail.Store(true)
	users(3)
	fake.Advance(time.Hour)
	fail.Store(false)
	users(18)
	row := uiRow(testkit.UIPage(t, fake, "/_fake/ui/subscriptions"), `<tr id="sub-`+sub.ID+`"`)
	uiContains(t, "the subscription's row", row,
		[]string{`<span class="bad">18 of 20 (90%)</span> <span class="muted small">of its last 20 deliveries</span>`,
			`<span class="bad"><b>404</b> failed</span> <span class="when">2026-04-14T14:00:00Z (Tue 10:00 EDT)</span> <span class="text small">no such hook</span>`},
		[]string{"failing"})
}

// TestDashboardEasternTime: every time the pages show has its Eastern
// wall-clock time beside UTC, as Wait's failure message writes it.
func TestDashboardEasternTime(t *testing.T) {
	e := newCtlEnv(t)
	for _, tc := range []struct {
		name, path string
		want       []string
	}{
		{"the clock", "/_fake/ui/", []string{`title="the fake's clock">2026-04-14T14:00:00Z (Tue 10:00 EDT)</span>`}},
		{"a list's times", "/_fake/ui/transactions", []string{`<td class="when" title="2026-04-14T14:00:00Z (Tue 10:00 EDT)">04-14 14:00:00 <span class="et">Tue 10:00 EDT</span></td>`}},
		{"a detail's times", "/_fake/ui/transactions?open={tx}", []string{`<span class="when">2026-04-14T14:00:00Z (Tue 10:00 EDT)</span>`}},
		{"a user joined", "/_fake/ui/?open={user}", []string{"joined 2026-04-14T14:00:00Z (Tue 10:00 EDT)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := testkit.UIPage(t, e.fake, e.expand(tc.path))
			uiContains(t, "the page", page, tc.want, []string{" UTC"})
		})
	}
}

// TestDashboardPendingSteps: a transaction in flight shows its next move
// and when it falls due, in its row, and in its detail every move pending
// on the clock with the Advance that runs it, as Wait's failure message
// names them; a settled one shows none.
func TestDashboardPendingSteps(t *testing.T) {
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 100000)
	bank := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank", AccountNum: "123456789", RoutingNum: "051000017"})
	ach := ctlAPIOK(t, fake, "POST", "/users/"+fx.User.ID+"/nodes/"+fx.Node.ID+"/trans", fx.Headers, map[string]any{
		"to":     map[string]any{"type": "ACH-US", "id": bank.ID},
		"amount": map[string]any{"amount": 10.0, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1"},
	})["_id"].(string)
	list := testkit.UIPage(t, fake, "/_fake/ui/transactions")
	uiContains(t, "the ACH transfer's row", uiRow(list, `<tr id="tx-`+ach+`"`),
		[]string{`<div class="next" title="reaches PROCESSING-DEBIT at 2026-04-14T14:01:00Z (Tue 10:01 EDT) (call Advance(1m))">next PROCESSING-DEBIT · Tue 10:01 EDT</div>`}, nil)
	pane := uiPane(testkit.UIPage(t, fake, "/_fake/ui/transactions?open="+ach))
	uiContains(t, "the ACH transfer's detail", pane, []string{
		`<h3>Pending on the clock</h3>`,
		`<li><b>reaches PROCESSING-DEBIT</b> at <span class="when">2026-04-14T14:01:00Z (Tue 10:01 EDT)</span> <span class="muted">(call Advance(1m))</span> <button type="button" data-post="/_fake/clock/advance" data-body='{"duration":"1m0s"}'`,
		`<b>reaches PROCESSING-CREDIT</b> at <span class="when">2026-04-14T15:00:00Z (Tue 11:00 EDT)</span> <span class="muted">(call Advance(1h))</span>`,
		`<b>reaches SETTLED</b> at <span class="when">2026-04-15T14:00:00Z (Wed 10:00 EDT)</span> <span class="muted">(call Advance(24h))</span>`,
	}, nil)
	testkit.CtlOK(t, fake, "POST", testkit.UIButton(t, pane, "/_fake/clock/advance"), map[string]any{"duration": "1m0s"})
	if tx, _ := fake.Transaction(ach); tx.Status != synapsefake.StatusProcessingDebit {
		t.Errorf("after the detail's Advance: %s, want PROCESSING-DEBIT", tx.Status)
	}
	fake.Advance(24 * time.Hour)
	uiContains(t, "the settled transfer's detail", uiPane(testkit.UIPage(t, fake, "/_fake/ui/transactions?open="+ach)), []string{"SETTLED"},
		[]string{"Pending on the clock", `class="next"`})
}

// TestDashboardRequestAnswer: a request's detail shows the answer's body,
// its secrets redacted as the request's are.
func TestDashboardRequestAnswer(t *testing.T) {
	fake := synapsefake.NewServer(t)
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/oauth/" + u.ID, Header: testkit.GatewayHeaders(fake),
		Body: map[string]any{"refresh_token": u.RefreshToken}})
	if r.Status != http.StatusOK {
		t.Fatalf("oauth: %d %s", r.Status, r.Raw)
	}
	key, _ := r.Body["oauth_key"].(string)
	page := testkit.UIPage(t, fake, "/_fake/ui/requests?route=/oauth")
	uiContains(t, "the requests page", page, []string{`<h3>Answer 200 <span class="muted small">secrets redacted</span></h3><pre class="answer">{`,
		`&#34;oauth_key&#34;: &#34;***&#34;`, `&#34;refresh_token&#34;: &#34;***&#34;`, `&#34;user_id&#34;: &#34;` + u.ID + `&#34;`},
		[]string{key, u.RefreshToken})
}

// TestDashboardExpiredKeys: the OAuth page keeps a key the store forgot
// on expiry, marked expired, beside the live ones.
func TestDashboardExpiredKeys(t *testing.T) {
	fake := synapsefake.NewServer(t)
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
	old := fake.OAuthKey(u.ID, testkit.TestFingerprint)
	fake.Advance(3 * time.Hour) // past its 2 hours: forgotten
	live := fake.OAuthKey(u.ID, testkit.TestFingerprint)
	page := testkit.UIPage(t, fake, "/_fake/ui/oauth")
	uiContains(t, "the expired key's row", uiRow(page, `<tr class="expired" data-key="`+old+`">`),
		[]string{`<span class="status s-expired">expired</span> 2026-04-14T16:00:00Z (Tue 12:00 EDT)`}, nil)
	uiContains(t, "the live key's row", uiRow(page, `<tr class="live" data-key="`+live+`">`),
		[]string{"2026-04-14T19:00:00Z (Tue 15:00 EDT)"}, []string{"expired"})
}
