package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// originReq is one request to a fake's listener, with the headers a browser
// (or an attacker's page) would set.
type originReq struct {
	method, path string            // path from the root, e.g. "/_fake/reset"
	host         string            // the Host header; "" for the listener's address
	header       map[string]string // more headers
	body         any               // marshalled unless a string
}

// originSend sends req to fake's listener with client, following no
// redirect. An event stream is left unread.
func originSend(t testing.TB, client *http.Client, root string, req originReq) testkit.Response {
	t.Helper()
	rdr := testkit.BodyReader(t, req.body)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // ends an event stream
	r, err := http.NewRequestWithContext(ctx, req.method, root+req.path, rdr)
	if err != nil {
		t.Fatal(err)
	}
	if req.host != "" {
		r.Host = req.host
	}
	for k, v := range req.header {
		r.Header.Set(k, v)
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(r)
	if err != nil {
		t.Fatalf("%s %s: %v", req.method, req.path, err)
	}
	defer resp.Body.Close()
	out := testkit.Response{Status: resp.StatusCode, Header: resp.Header}
	if resp.Header.Get("Content-Type") == "text/event-stream" {
		return out
	}
	if out.Raw, err = io.ReadAll(resp.Body); err != nil {
		t.Fatalf("%s %s: read: %v", req.method, req.path, err)
	}
	_ = json.Unmarshal(out.Raw, &out.Body)
	return out
}

// wantRefused checks a refusal in the error envelope: status, error_code
// "300", http_code the status, error.code.
func wantRefused(t testing.TB, r testkit.Response, status int, code string) {
	t.Helper()
	want := map[string]any{"error_code": "300", "http_code": fmt.Sprint(status), "success": false,
		"error": map[string]any{"code": code, "en": ctlAny}}
	if r.Status != status || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("status %d %q, want %d application/json; body %s", r.Status, r.Header.Get("Content-Type"), status, r.Raw)
	}
	if diff := cmp.Diff(want, ctlMask(want, r.Body)); diff != "" {
		t.Errorf("envelope mismatch (-want +got):\n%s\nraw: %s", diff, r.Raw)
	}
}

// originState is everything a control request could change: the whole
// state document, the webhook chaos and the return rules.
type originState struct {
	Doc   string
	Chaos synapsefake.WebhookChaos
	Rules []synapsefake.ReturnRule
}

func stateOf(t testing.TB, fake *synapsefake.Server) originState {
	t.Helper()
	fake.Flush()
	var buf bytes.Buffer
	if err := fake.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	return originState{Doc: buf.String(), Chaos: fake.WebhookChaos(), Rules: fake.ReturnRules()}
}

// controlRouteCalls are one call of every method of every /_fake/ route
// (control.go, ui.go and the files they name), each with a body it takes,
// and what it answers when nothing foreign is about it.
var controlRouteCalls = []struct {
	method, path string
	setup        func(t *testing.T, e ctlEnv)
	body         any // a func(ctlEnv) any is called
	want         int
}{
	{method: "POST", path: "/users", body: map[string]any{}, want: 200},
	{method: "POST", path: "/users/{user}/nodes", body: map[string]any{}, want: 200},
	{method: "POST", path: "/users/{user}/nodes/{node}/subnets", body: map[string]any{}, want: 200},
	{method: "POST", path: "/users/{user}/oauth", body: map[string]any{"fingerprint": "fp-new"}, want: 200},
	{method: "POST", path: "/users/{user}/force-mfa", want: 200},
	{method: "GET", path: "/users/{user}/mfa-pin", want: 200},
	{method: "POST", path: "/subscriptions", body: map[string]any{"url": "http://attacker.example/hooks"}, want: 200},
	{method: "GET", path: "/clock", want: 200},
	{method: "POST", path: "/clock/advance", body: map[string]any{"duration": "1m"}, want: 200},
	{method: "GET", path: "/transactions/{tx}", want: 200},
	{method: "POST", path: "/transactions/{tx}/settle", want: 200},
	{method: "POST", path: "/transactions/{tx}/return", body: map[string]any{"code": "R01"}, want: 200},
	{method: "POST", path: "/transactions/{tx}/queue", body: map[string]any{"code": "REVIEW"}, want: 200},
	{method: "POST", path: "/transactions/{tx}/release", setup: func(t *testing.T, e ctlEnv) {
		if err := e.fake.Queue(e.tx, "REVIEW"); err != nil {
			t.Fatal(err)
		}
	}, want: 200},
	{method: "POST", path: "/transactions/{tx}/cancel", want: 200},
	{method: "POST", path: "/transactions/{tx}/advance", body: map[string]any{"status": "PROCESSING-DEBIT"}, want: 200},
	{method: "POST", path: "/transactions/{tx}/dispute", body: map[string]any{"outcome": "won"}, want: 409},
	{method: "POST", path: "/subnets/{card}/authorize", body: map[string]any{"amount_cents": 100}, want: 200},
	{method: "POST", path: "/subnets/{card}/force-post", body: map[string]any{"amount_cents": 100}, want: 200},
	{method: "POST", path: "/subnets/{card}/refund", body: map[string]any{"amount_cents": 100}, want: 200},
	{method: "POST", path: "/transactions/{tx}/increment", body: map[string]any{"amount_cents": 100}, want: 409},
	{method: "POST", path: "/transactions/{tx}/reverse", want: 409},
	{method: "POST", path: "/transactions/{tx}/clear", want: 409},
	{method: "POST", path: "/faults", body: map[string]any{"method": "GET", "route": "/users", "error_code": "503"}, want: 200},
	{method: "POST", path: "/faults/slow", body: map[string]any{"method": "GET", "route": "/users", "delay": "1s"}, want: 200},
	{method: "GET", path: "/webhooks", want: 200},
	{method: "DELETE", path: "/webhooks", want: 200},
	{method: "GET", path: "/requests", want: 200},
	{method: "DELETE", path: "/requests", want: 200},
	{method: "POST", path: "/reset", want: 200},
	{method: "POST", path: "/world", body: map[string]any{"users": []any{map[string]any{"name": "eve"}}}, want: 200},
	{method: "GET", path: "/state", want: 200},
	{method: "PUT", path: "/state", body: func(e ctlEnv) any {
		var buf bytes.Buffer
		if err := synapsefake.New(synapsefake.WithManualProcessing(), synapsefake.WithoutWebhookDelivery()).Snapshot(&buf); err != nil {
			panic(err)
		}
		return buf.Bytes()
	}, want: 200},
	{method: "POST", path: "/clock/next-business-day", want: 200},
	{method: "POST", path: "/clock/cutoff", body: map[string]any{"cutoff": "ach"}, want: 200},
	{method: "POST", path: "/transactions/{tx}/schedule-return", body: map[string]any{"code": "R01", "after": "1h"}, want: 200},
	{method: "POST", path: "/transactions/{tx}/dishonor", body: map[string]any{"code": "R68"}, want: 409},
	{method: "POST", path: "/transactions/{tx}/contest", body: map[string]any{"code": "R73"}, want: 409},
	{method: "GET", path: "/return-rules", want: 200},
	{method: "POST", path: "/return-rules", body: map[string]any{"note": "rent", "code": "R01"}, want: 200},
	{method: "DELETE", path: "/return-rules", setup: func(t *testing.T, e ctlEnv) {
		if _, err := e.fake.AddReturnRule(synapsefake.ReturnRule{Note: "rent", Code: "R01"}); err != nil {
			t.Fatal(err)
		}
	}, want: 200},
	{method: "GET", path: "/ui/", want: 200},
	{method: "GET", path: "/ui/transactions", want: 200},
	{method: "GET", path: "/ui/webhooks", want: 200},
	{method: "POST", path: "/ui/webhooks/1/redeliver", body: map[string]any{"delivery": 0}, want: 404},
	{method: "GET", path: "/ui/requests", want: 200},
	{method: "GET", path: "/ui/oauth", want: 200},
	{method: "GET", path: "/ui/events", want: 200},
	{method: "POST", path: "/ui/clock", body: map[string]any{"step": "1h"}, want: 200},
	{method: "POST", path: "/ui/subnets/{card}/check", body: map[string]any{"amount_cents": 100}, want: 200},
	{method: "GET", path: "/ui/static/app.js", want: 200},
	{method: "GET", path: "/webhooks/chaos", want: 200},
	{method: "PUT", path: "/webhooks/chaos", body: map[string]any{"seed": 7, "default": map[string]any{"duplicate": 1}}, want: 200},
	{method: "DELETE", path: "/webhooks/chaos", setup: func(t *testing.T, e ctlEnv) {
		if err := e.fake.SetWebhookChaos(synapsefake.WebhookChaos{Seed: 7, Default: synapsefake.ChaosSettings{Duplicate: 1}}); err != nil {
			t.Fatal(err)
		}
	}, want: 200},
}

// TestControlOriginEveryRoute sends every /_fake/ route what a page on
// another origin or behind DNS rebinding sends: each is refused before it
// touches anything, and the same call sent as curl or an SDK sends it
// still works.
func TestControlOriginEveryRoute(t *testing.T) {
	t.Parallel()
	for _, rc := range controlRouteCalls {
		for _, v := range []struct {
			name   string
			host   string // "" for the listener's own
			header map[string]string
			code   string // "" for not refused
		}{
			{"foreign Host", "rebind.evil.example", nil, "foreign_host"},
			{"foreign Origin", "", map[string]string{"Origin": "http://evil.example"}, "cross_origin_request"},
			{"Sec-Fetch-Site cross-site", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, "cross_origin_request"},
			{"none of these", "", nil, ""},
		} {
			t.Run(rc.method+" "+rc.path+"/"+v.name, func(t *testing.T) {
				t.Parallel()
				e := newCtlEnv(t)
				if rc.setup != nil {
					rc.setup(t, e)
				}
				body := rc.body
				if f, ok := body.(func(ctlEnv) any); ok {
					body = f(e)
				}
				host := v.host
				if host != "" {
					host += ":" + strings.TrimPrefix(testkit.CtlRoot(e.fake), "http://127.0.0.1:") // the rebinding name, the fake's port
				}
				before := stateOf(t, e.fake)
				r := originSend(t, e.fake.Client(), testkit.CtlRoot(e.fake), originReq{method: rc.method, path: "/_fake" + e.expand(rc.path),
					host: host, header: v.header, body: body})
				if r.Header.Get("X-Frame-Options") != "DENY" {
					t.Errorf("X-Frame-Options %q, want DENY", r.Header.Get("X-Frame-Options"))
				}
				if v.code == "" {
					if r.Status != rc.want {
						t.Errorf("status %d, want %d; body %.300s", r.Status, rc.want, r.Raw)
					}
					return
				}
				wantRefused(t, r, http.StatusForbidden, v.code)
				if diff := cmp.Diff(before, stateOf(t, e.fake)); diff != "" {
					t.Errorf("a refused request changed the state (-before +after):\n%.2000s", diff)
				}
			})
		}
	}
}

// TestControlOriginRules checks which hosts, origins and fetch metadata the
// control API answers, on a state-changing route and on a read.
func TestControlOriginRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		opts   []synapsefake.Option
		method string
		path   string
		host   string // "" for the listener's; {port} is its port
		header map[string]string
		want   int
		code   string // error.code of a refusal
	}{
		// Hosts.
		{name: "localhost", method: "POST", path: "/_fake/reset", host: "localhost:{port}", want: 200},
		{name: "localhost, upper case, final dot", method: "POST", path: "/_fake/reset", host: "LocalHost.:{port}", want: 200},
		{name: "a name under .localhost", method: "POST", path: "/_fake/reset", host: "app.localhost:{port}", want: 200},
		{name: "127.0.0.0/8", method: "POST", path: "/_fake/reset", host: "127.1.2.3:{port}", want: 200},
		{name: "[::1]", method: "POST", path: "/_fake/reset", host: "[::1]:{port}", want: 200},
		{name: "[::1] without a port", method: "POST", path: "/_fake/reset", host: "[::1]", want: 200},
		{name: "the in-process host", method: "POST", path: "/_fake/reset", host: "synapsefake.invalid", want: 200},
		{name: "a name that starts like localhost", method: "GET", path: "/_fake/state", host: "localhost.evil.example:{port}", want: 403, code: "foreign_host"},
		{name: "a name that starts like a loopback address", method: "GET", path: "/_fake/state", host: "127.0.0.1.nip.io:{port}", want: 403, code: "foreign_host"},
		{name: "another address", method: "GET", path: "/_fake/state", host: "10.0.0.7:{port}", want: 403, code: "foreign_host"},
		{name: "the dashboard for a foreign host", method: "GET", path: "/_fake/ui/", host: "rebind.evil.example:{port}", want: 403, code: "foreign_host"},
		{name: "an allowed host", opts: []synapsefake.Option{synapsefake.WithAllowedHosts("fake", "10.0.0.7")}, method: "POST", path: "/_fake/reset", host: "FAKE:{port}", want: 200},
		{name: "an allowed address", opts: []synapsefake.Option{synapsefake.WithAllowedHosts("fake", "10.0.0.7")}, method: "POST", path: "/_fake/reset", host: "10.0.0.7:8080", want: 200},
		{name: "an allowed host given with a port", opts: []synapsefake.Option{synapsefake.WithAllowedHosts("fake:8080")}, method: "POST", path: "/_fake/reset", host: "fake:9090", want: 200},
		{name: "not an allowed host", opts: []synapsefake.Option{synapsefake.WithAllowedHosts("fake")}, method: "POST", path: "/_fake/reset", host: "fake.evil.example", want: 403, code: "foreign_host"},
		{name: "the host of WithBaseURL", opts: []synapsefake.Option{synapsefake.WithBaseURL("http://fake.internal:8080/v3.1")}, method: "POST", path: "/_fake/reset", host: "fake.internal:8080", want: 200},
		{name: "the real API answers any host", method: "GET", path: "/v3.1/loans-limits", host: "rebind.evil.example:{port}", want: 200},

		// Origins.
		{name: "its own origin", method: "POST", path: "/_fake/reset", header: map[string]string{"Origin": "http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}, want: 200},
		{name: "its own origin over https (a TLS proxy)", method: "POST", path: "/_fake/reset", header: map[string]string{"Origin": "https://127.0.0.1:{port}"}, want: 200},
		{name: "its own origin under another loopback name", method: "POST", path: "/_fake/reset", host: "localhost:{port}", header: map[string]string{"Origin": "http://localhost:{port}"}, want: 200},
		{name: "another port of the same host", method: "POST", path: "/_fake/reset", header: map[string]string{"Origin": "http://127.0.0.1:1"}, want: 403, code: "cross_origin_request"},
		{name: "another loopback name", method: "POST", path: "/_fake/reset", header: map[string]string{"Origin": "http://localhost:{port}"}, want: 403, code: "cross_origin_request"},
		{name: "Origin null", method: "POST", path: "/_fake/reset", header: map[string]string{"Origin": "null"}, want: 403, code: "cross_origin_request"},
		{name: "a foreign Origin on a read", method: "GET", path: "/_fake/state", header: map[string]string{"Origin": "http://evil.example"}, want: 403, code: "cross_origin_request"},
		{name: "a no-cors text/plain POST", method: "POST", path: "/_fake/subscriptions",
			header: map[string]string{"Origin": "http://evil.example", "Content-Type": "text/plain;charset=UTF-8", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Site": "cross-site"},
			want:   403, code: "cross_origin_request"},

		// Fetch metadata.
		{name: "typed in the address bar", method: "GET", path: "/_fake/ui/", header: map[string]string{"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, want: 200},
		{name: "a link from another site", method: "GET", path: "/_fake/ui/", header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, want: 200},
		{name: "a frame on another site", method: "GET", path: "/_fake/ui/", header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"}, want: 403, code: "cross_origin_request"},
		{name: "a form posted from another site", method: "POST", path: "/_fake/reset", header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, want: 403, code: "cross_origin_request"},
		{name: "a fetch from another port", method: "POST", path: "/_fake/reset", header: map[string]string{"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors"}, want: 403, code: "cross_origin_request"},
		{name: "a script from another site reading", method: "GET", path: "/_fake/state", header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "script"}, want: 403, code: "cross_origin_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Its own listener, so that WithBaseURL can name another address.
			fake := synapsefake.New(append([]synapsefake.Option{synapsefake.WithoutWebhookDelivery()}, tc.opts...)...)
			ts := httptest.NewServer(fake)
			defer ts.Close()
			defer fake.Close()
			fake.MustAddUser(t, synapsefake.UserSeed{})
			root := ts.URL
			port := root[strings.LastIndex(root, ":")+1:]
			fill := strings.NewReplacer("{port}", port).Replace
			header := map[string]string{}
			for k, v := range tc.header {
				header[k] = fill(v)
			}
			before := stateOf(t, fake)
			r := originSend(t, ts.Client(), root, originReq{method: tc.method, path: tc.path, host: fill(tc.host), header: header})
			if tc.code != "" {
				wantRefused(t, r, tc.want, tc.code)
				if diff := cmp.Diff(before, stateOf(t, fake)); diff != "" {
					t.Errorf("a refused request changed the state (-before +after):\n%.2000s", diff)
				}
				return
			}
			if r.Status != tc.want {
				t.Errorf("status %d, want %d; body %.300s", r.Status, tc.want, r.Raw)
			}
		})
	}
}

// TestControlToken checks WithControlToken: every /_fake/ request carries
// the token, in a header or, for the dashboard, as the cookie a visit with
// ?token= sets.
func TestControlToken(t *testing.T) {
	t.Parallel()
	const token = "s3cret token/with;odd=chars"
	t.Run("requests", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			name   string
			method string
			path   string
			header map[string]string
			want   int
			code   string
		}{
			{"no token", "POST", "/_fake/reset", nil, 401, "missing_control_token"},
			{"no token on a read", "GET", "/_fake/state", nil, 401, "missing_control_token"},
			{"no token on the dashboard", "GET", "/_fake/ui/", nil, 401, "missing_control_token"},
			{"the header", "POST", "/_fake/reset", map[string]string{"X-Fake-Control-Token": token}, 200, ""},
			{"a bearer token", "POST", "/_fake/reset", map[string]string{"Authorization": "Bearer " + token}, 200, ""},
			{"a bearer token, lower case", "GET", "/_fake/state", map[string]string{"Authorization": "bearer " + token}, 200, ""},
			{"a wrong token", "POST", "/_fake/reset", map[string]string{"X-Fake-Control-Token": "s3cret"}, 401, "invalid_control_token"},
			{"a wrong bearer token", "POST", "/_fake/reset", map[string]string{"Authorization": "Bearer " + token + "x"}, 401, "invalid_control_token"},
			{"a wrong header beside a right cookie", "POST", "/_fake/reset", map[string]string{"X-Fake-Control-Token": "x", "Cookie": "synapsefake_control={cookie}"}, 401, "invalid_control_token"},
			{"basic credentials", "POST", "/_fake/reset", map[string]string{"Authorization": "Basic czNjcmV0Og=="}, 401, "missing_control_token"},
			{"the token itself as the cookie", "POST", "/_fake/reset", map[string]string{"Cookie": "synapsefake_control=" + url.QueryEscape(token)}, 401, "missing_control_token"},
			{"the cookie", "POST", "/_fake/reset", map[string]string{"Cookie": "synapsefake_control={cookie}"}, 200, ""},
			{"the token but a foreign origin", "POST", "/_fake/reset", map[string]string{"X-Fake-Control-Token": token, "Origin": "http://evil.example"}, 403, "cross_origin_request"},
			{"a wrong token in the address", "GET", "/_fake/ui/?token=s3cret", nil, 401, "invalid_control_token"},
			{"the token in the address of the API", "POST", "/_fake/reset?token=" + url.QueryEscape(token), nil, 401, "missing_control_token"},
			{"the real API needs no control token", "GET", "/v3.1/loans-limits", nil, 200, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				fake := synapsefake.NewServer(t, synapsefake.WithControlToken(token), synapsefake.WithoutWebhookDelivery())
				fake.MustAddUser(t, synapsefake.UserSeed{})
				cookie := dashboardCookie(t, fake, token)
				header := map[string]string{}
				for k, v := range tc.header {
					header[k] = strings.ReplaceAll(v, "{cookie}", cookie.Value)
				}
				before := stateOf(t, fake)
				r := originSend(t, fake.Client(), testkit.CtlRoot(fake), originReq{method: tc.method, path: tc.path, header: header})
				if tc.code == "" {
					if r.Status != tc.want {
						t.Errorf("status %d, want %d; body %.300s", r.Status, tc.want, r.Raw)
					}
					return
				}
				wantRefused(t, r, tc.want, tc.code)
				if tc.want == 401 && r.Header.Get("WWW-Authenticate") == "" {
					t.Error("a 401 without WWW-Authenticate")
				}
				if c := r.Header.Get("Set-Cookie"); c != "" {
					t.Errorf("a refusal set a cookie: %s", c)
				}
				if diff := cmp.Diff(before, stateOf(t, fake)); diff != "" {
					t.Errorf("a refused request changed the state (-before +after):\n%.2000s", diff)
				}
			})
		}
	})
	t.Run("the dashboard's cookie", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t, synapsefake.WithControlToken(token))
		r := originSend(t, fake.Client(), testkit.CtlRoot(fake), originReq{method: "GET", path: "/_fake/ui/transactions?limit=5&token=" + url.QueryEscape(token)})
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/_fake/ui/transactions?limit=5" {
			t.Errorf("status %d Location %q, want 303 to the page without the token", r.Status, r.Header.Get("Location"))
		}
		cookie := dashboardCookie(t, fake, token)
		if !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != "/_fake/" || strings.Contains(cookie.Value, "s3cret") {
			t.Errorf("cookie %+v, want HttpOnly, SameSite=Lax, Path /_fake/, not the token", cookie)
		}
		// The page, its script, its event stream and its buttons.
		jar := map[string]string{"Cookie": cookie.Name + "=" + cookie.Value}
		same := map[string]string{"Cookie": jar["Cookie"], "Origin": testkit.CtlRoot(fake), "Sec-Fetch-Site": "same-origin"}
		for _, c := range []originReq{
			{method: "GET", path: "/_fake/ui/", header: jar},
			{method: "GET", path: "/_fake/ui/static/app.js", header: jar},
			{method: "GET", path: "/_fake/ui/events", header: jar},
			{method: "POST", path: "/_fake/ui/clock", header: same, body: map[string]any{"step": "1h"}},
			{method: "POST", path: "/_fake/users", header: same, body: map[string]any{}},
		} {
			if r := originSend(t, fake.Client(), testkit.CtlRoot(fake), c); r.Status != http.StatusOK {
				t.Errorf("%s %s with the cookie: status %d, want 200; body %.300s", c.method, c.path, r.Status, r.Raw)
			}
		}
	})
}

// dashboardCookie visits /_fake/ui/?token= and returns the cookie set.
func dashboardCookie(t testing.TB, fake *synapsefake.Server, token string) *http.Cookie {
	t.Helper()
	r := originSend(t, fake.Client(), testkit.CtlRoot(fake), originReq{method: "GET", path: "/_fake/ui/?token=" + url.QueryEscape(token)})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/_fake/ui/" {
		t.Fatalf("GET /_fake/ui/?token=: status %d Location %q, want 303 to /_fake/ui/; body %s", r.Status, r.Header.Get("Location"), r.Raw)
	}
	cookies := (&http.Response{Header: r.Header}).Cookies()
	if len(cookies) != 1 || cookies[0].Name != "synapsefake_control" {
		t.Fatalf("cookies %v, want synapsefake_control", cookies)
	}
	return cookies[0]
}

// TestControlInProcess: Client and Transport serve requests no browser can
// send, for any host; a request handed to the handler itself is checked as
// one from a listener.
func TestControlInProcess(t *testing.T) {
	t.Parallel()
	fake := synapsefake.New()
	defer fake.Close()
	client := &http.Client{Transport: fake.Transport()}
	r := originSend(t, client, "http://fake.test", originReq{method: "GET", path: "/_fake/clock", header: map[string]string{"Origin": "http://evil.example"}})
	if r.Status != http.StatusOK {
		t.Errorf("Transport, any host: status %d, want 200; body %s", r.Status, r.Raw)
	}
	rec := httptest.NewRecorder()
	fake.ServeHTTP(rec, httptest.NewRequest("GET", "/_fake/clock", nil)) // Host example.com
	if rec.Code != http.StatusForbidden {
		t.Errorf("ServeHTTP, Host example.com: status %d, want 403", rec.Code)
	}
	rec = httptest.NewRecorder()
	fake.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/_fake/clock", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("ServeHTTP, Host localhost: status %d, want 200", rec.Code)
	}
}
