package synapsefake_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
)

// uiGet fetches a dashboard path (below the root, e.g. "/_fake/ui/") without
// following redirects.
func uiGet(t testing.TB, fake *synapsefake.Server, path string) (*http.Response, string) {
	t.Helper()
	client := *fake.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Get(ctlRoot(fake) + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return resp, string(body)
}

// uiPage fetches a page and fails the test unless it is a 200 HTML page.
func uiPage(t testing.TB, fake *synapsefake.Server, path string) string {
	t.Helper()
	resp, body := uiGet(t, fake, path)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET %s: %d %q, want 200 text/html: %.300s", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	return body
}

func TestDashboardPages(t *testing.T) {
	e := newCtlEnv(t)
	fake := e.fake
	ctlOK(t, fake, "POST", "/subscriptions", map[string]any{"url": "http://127.0.0.1:1/hooks", "scopes": []string{"TRAN|PATCH", "TRANS|POST"}})
	ctlOK(t, fake, "POST", e.expand("/transactions/{tx}/queue"), map[string]any{"code": "REVIEW"})
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
			[]string{testFingerprint, "oauth_", `<code class="pin">123456</code>`, `data-post="/_fake/users/{user}/force-mfa"`}, nil},
		{"requests show the journal", "/_fake/ui/requests?method=POST", "text/html; charset=utf-8",
			[]string{"/users/{user_id}/nodes/{node_id}/trans", "200"}, nil},
		{"subscriptions list url, scopes and state", "/_fake/ui/subscriptions", "text/html; charset=utf-8",
			[]string{"http://127.0.0.1:1/hooks", `<span class="tag">TRAN|PATCH</span>`, `<span class="status s-active">active</span>`}, nil},
		{"stylesheet", "/_fake/ui/static/style.css", "text/css; charset=utf-8", []string{"prefers-color-scheme: dark"}, nil},
		{"script", "/_fake/ui/static/app.js", "text/javascript; charset=utf-8", []string{"EventSource"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expand := func(s string) string { return strings.ReplaceAll(e.expand(s), "{log}", logID) }
			resp, body := uiGet(t, fake, expand(tc.path))
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

// uiButton finds the data-post path of a button or form on a page.
func uiButton(t testing.TB, page, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(`data-(?:post|check)="(` + pattern + `)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no button %s on the page", pattern)
	}
	return strings.TrimPrefix(m[1], "/_fake")
}

func TestDashboardActions(t *testing.T) {
	t.Run("settle button settles", func(t *testing.T) {
		e := newCtlEnv(t)
		path := uiButton(t, uiPage(t, e.fake, "/_fake/ui/transactions"), "/_fake/transactions/"+e.tx+"/settle")
		ctlOK(t, e.fake, "POST", path, nil)
		if tx, _ := e.fake.Transaction(e.tx); tx.Status != synapsefake.StatusSettled {
			t.Errorf("status %s, want SETTLED", tx.Status)
		}
		if n, _ := e.fake.Node(e.payee.node.ID); n.BalanceCents != ctlTxCents {
			t.Errorf("payee balance %d, want %d", n.BalanceCents, ctlTxCents)
		}
	})
	t.Run("return form returns with the chosen code", func(t *testing.T) {
		e := newCtlEnv(t)
		path := uiButton(t, uiPage(t, e.fake, "/_fake/ui/transactions?open="+e.tx), "/_fake/transactions/"+e.tx+"/return")
		ctlOK(t, e.fake, "POST", path, map[string]any{"code": "R02"})
		if tx, _ := e.fake.Transaction(e.tx); tx.Status != synapsefake.StatusReturned || tx.Code != "R02" {
			t.Errorf("status %s code %s, want RETURNED R02", tx.Status, tx.Code)
		}
	})
	t.Run("a disputed transaction offers no return", func(t *testing.T) {
		e := newDisputeEnv(t)
		id := e.settledDebit(t, 20)
		if r := do(t, e.fake, call{method: "PATCH", path: disputePath(e.fx.user.ID, e.fx.node.ID, id), header: e.fx.headers,
			body: map[string]any{"dispute_reason": "CHARGE_BACK"}}); r.status != http.StatusOK {
			t.Fatalf("dispute: %d %s", r.status, r.raw)
		}
		page := uiPage(t, e.fake, "/_fake/ui/transactions?open="+id)
		if !strings.Contains(page, `data-open="`+id+`"`) {
			t.Fatal("the page does not show the disputed transaction's detail")
		}
		if strings.Contains(page, "/_fake/transactions/"+id+"/return") {
			t.Error("the page offers to return a disputed transaction, which the fake refuses")
		}
		if tx, _ := e.fake.Transaction(id); tx.DisputeCreditID == "" || strings.Contains(page, "/_fake/transactions/"+tx.DisputeCreditID+"/return") {
			t.Errorf("the page offers to return the dispute's credit %q, which only its decision moves", tx.DisputeCreditID)
		}
	})
	t.Run("card check tells the decline code and makes nothing", func(t *testing.T) {
		e := newCtlEnv(t)
		path := uiButton(t, uiPage(t, e.fake, "/_fake/ui/?open="+e.card.ID), "/_fake/ui/subnets/"+e.card.ID+"/check")
		for amount, want := range map[int64]string{500: "", 100001: "IR51"} {
			got := ctlOK(t, e.fake, "POST", path, map[string]any{"amount_cents": amount})
			if got["decline_code"] != want {
				t.Errorf("amount %d: decline_code %v, want %q", amount, got["decline_code"], want)
			}
		}
		if n, _ := e.fake.Node(e.fx.node.ID); n.AvailableCents != 100000-ctlTxCents {
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
		path := uiButton(t, uiPage(t, fake, "/_fake/ui/webhooks?open="+uiLogID(t, fake, u.ID)), `/_fake/ui/webhooks/\d+/redeliver`)
		ctlOK(t, fake, "POST", path, map[string]any{"delivery": 0})
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
			got := ctlOK(t, fake, "POST", "/ui/clock", map[string]any{"step": tc.step})
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
				ctlOK(t, e.fake, "POST", e.expand("/transactions/{tx}/settle"), nil)
			}
			before, txBefore, hooksBefore := e.fake.Now(), e.recentStatus(t), len(e.fake.Webhooks().All())
			r := ctl(t, e.fake, tc.method, e.expand(tc.path), tc.body)
			if r.status != tc.status || r.body["error_code"] != tc.errorCode {
				t.Fatalf("%d / %v, want %d / %s: %s", r.status, r.body["error_code"], tc.status, tc.errorCode, r.raw)
			}
			if got := ctlStr(ctlObj(r.body["error"])["code"]); tc.code != "" && got != tc.code {
				t.Errorf("error.code %q, want %q", got, tc.code)
			}
			if !e.fake.Now().Equal(before) || ctlStr(e.recentStatus(t)["status"]) != ctlStr(txBefore["status"]) ||
				len(e.fake.Webhooks().All()) != hooksBefore {
				t.Errorf("the refused call changed something")
			}
		})
	}
	t.Run("a real clock cannot be stepped", func(t *testing.T) {
		fake := synapsefake.NewServer(t, synapsefake.WithClock(clock.New()))
		r := ctl(t, fake, "POST", "/ui/clock", map[string]any{"step": "1d"})
		if r.status != http.StatusConflict || r.body["error_code"] != "410" {
			t.Errorf("%d / %v, want 409 / 410: %s", r.status, r.body["error_code"], r.raw)
		}
	})
}

func TestDashboardEvents(t *testing.T) {
	fake := synapsefake.NewServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ctlRoot(fake)+"/_fake/ui/events", nil)
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
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testFingerprint})
	r := do(t, fake, call{method: "POST", path: "/oauth/" + u.ID, header: gatewayHeaders(fake),
		body: map[string]any{"refresh_token": u.RefreshToken, "validation_pin": "123456"}})
	if r.status != http.StatusOK {
		t.Fatalf("oauth: %d %s", r.status, r.raw)
	}
	page := uiPage(t, fake, "/_fake/ui/requests?route=/oauth")
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
