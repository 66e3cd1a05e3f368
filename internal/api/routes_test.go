package api_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// send sends req with the fake's client, as is (no headers added), and
// decodes the JSON object it answers.
func send(t testing.TB, fake *synapsefake.Server, req *http.Request) testkit.Response {
	t.Helper()
	resp, err := fake.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	return readResponse(t, resp)
}

func readResponse(t testing.TB, resp *http.Response) testkit.Response {
	t.Helper()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	out := testkit.Response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if err := json.Unmarshal(raw, &out.Body); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, raw)
	}
	return out
}

// sendRaw writes an HTTP/1.1 request by hand on a new connection to the
// fake's listener, so that header names reach the server exactly as written.
func sendRaw(t testing.TB, fake *synapsefake.Server, method, path string, header [][2]string) testkit.Response {
	t.Helper()
	u, err := url.Parse(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s%s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, u.Path, path, u.Host)
	for _, h := range header {
		fmt.Fprintf(&b, "%s: %s\r\n", h[0], h[1])
	}
	b.WriteString("\r\n")
	if _, err := io.WriteString(conn, b.String()); err != nil {
		t.Fatalf("write: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	defer resp.Body.Close()
	return readResponse(t, resp)
}

func TestUnknownRoute(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	for _, tc := range []struct {
		method string
		url    string
	}{
		{"GET", fake.URL() + "/nope"},
		{"POST", fake.URL() + "/nope"},
		{"GET", fake.URL()},
		{"GET", fake.URL() + "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/unknown"},
		{"POST", fake.URL() + "/users/" + fx.User.ID + "/accounts"},
		{"GET", strings.TrimSuffix(fake.URL(), "/v3.1") + "/v3.0/users"},
		{"POST", strings.TrimSuffix(fake.URL(), "/v3.1") + "/"}, // GET / redirects to the dashboard (TestDashboardRoot)
	} {
		t.Run(tc.method+" "+tc.url, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequest(tc.method, tc.url, http.NoBody)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range fx.Headers {
				req.Header.Set(k, v)
			}
			r := send(t, fake, req)
			wantErrorStatus(t, r, 404, "404", "not_found")
		})
	}
}

func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method string
		path   func(fx testkit.Fixture) string
	}{
		{"DELETE", func(testkit.Fixture) string { return "/users" }},
		{"PUT", func(testkit.Fixture) string { return "/users" }},
		{"PUT", func(testkit.Fixture) string { return "/loans-limits" }},
		{"POST", func(testkit.Fixture) string { return "/loans-limits" }},
		{"POST", func(testkit.Fixture) string { return "/users/entity-types" }},
		{"GET", func(testkit.Fixture) string { return "/address-verification" }},
		{"DELETE", func(fx testkit.Fixture) string { return "/users/" + fx.User.ID }},
		{"GET", func(fx testkit.Fixture) string { return "/oauth/" + fx.User.ID }},
		{"PUT", func(fx testkit.Fixture) string { return testkit.NodesPath(fx.User.ID) }},
		{"DELETE", func(fx testkit.Fixture) string { return testkit.NodesPath(fx.User.ID) }},
		{"POST", func(fx testkit.Fixture) string { return testkit.NodePath(fx.User.ID, fx.Node.ID) }},
		{"PUT", func(fx testkit.Fixture) string { return testkit.NodePath(fx.User.ID, fx.Node.ID) }},
	} {
		t.Run(tc.method+" "+tc.path(testkit.Fixture{}), func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			before := inspectNodes(t, fake, []string{fx.User.ID})
			r := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: tc.path(fx), Header: fx.Headers, Body: map[string]any{"nickname": "x"}})
			wantErrorStatus(t, r, 409, "410", "method_not_allowed")
			if r.Body["http_code"] != "409" {
				t.Errorf("http_code %v, want \"409\"", r.Body["http_code"])
			}
			wantUnchanged(t, fake, before)
		})
	}
}

func TestHeaderNamesAreCaseInsensitive(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	path := testkit.NodePath(fx.User.ID, fx.Node.ID)
	for _, tc := range []struct {
		name      string
		header    [][2]string
		status    int
		errorCode string // when refused
		code      string // error.code when refused
	}{
		{"lower case", [][2]string{
			{"x-sp-gateway", fake.Gateway()}, {"x-sp-user", fx.Key + "|" + testkit.TestFingerprint}, {"x-sp-user-ip", "127.0.0.1"},
		}, 200, "", ""},
		{"as Go canonicalises them", [][2]string{
			{"X-Sp-Gateway", fake.Gateway()}, {"X-Sp-User", fx.Key + "|" + testkit.TestFingerprint}, {"X-Sp-User-Ip", "127.0.0.1"},
		}, 200, "", ""},
		{"upper case with content type", [][2]string{
			{"X-SP-GATEWAY", fake.Gateway()}, {"X-SP-USER", fx.Key + "|" + testkit.TestFingerprint}, {"X-SP-USER-IP", "127.0.0.1"},
			{"content-type", "application/json"},
		}, 200, "", ""},
		// The lower-case names are read, not ignored: a wrong value is refused.
		{"lower-case wrong gateway", [][2]string{
			{"x-sp-gateway", "wrong|secret"}, {"x-sp-user", fx.Key + "|" + testkit.TestFingerprint}, {"x-sp-user-ip", "127.0.0.1"},
		}, 401, "100", "invalid_client_credentials"},
		{"lower-case unknown key", [][2]string{
			{"x-sp-user", "oauth_unknown|" + testkit.TestFingerprint}, {"x-sp-user-ip", "127.0.0.1"},
		}, 401, "110", "invalid_oauth_key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := sendRaw(t, fake, "GET", path, tc.header)
			if tc.status != 200 {
				wantErrorStatus(t, r, tc.status, tc.errorCode, tc.code)
				return
			}
			if r.Status != 200 || r.Body["_id"] != fx.Node.ID {
				t.Errorf("status %d, _id %v; want 200 and %s; body %s", r.Status, r.Body["_id"], fx.Node.ID, r.Raw)
			}
		})
	}

	t.Run("through the client", func(t *testing.T) {
		t.Parallel()
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path, Header: map[string]string{
			"x-sp-gateway": fake.Gateway(), "X-Sp-User": fx.Key + "|" + testkit.TestFingerprint, "x-Sp-User-IP": "127.0.0.1",
		}})
		if r.Status != 200 || r.Body["_id"] != fx.Node.ID {
			t.Errorf("status %d, _id %v; want 200 and %s; body %s", r.Status, r.Body["_id"], fx.Node.ID, r.Raw)
		}
	})
}

func TestContentTypeOnBodilessRequests(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		method      string
		contentType string
	}{
		{"GET with application/json", "GET", "application/json"},
		{"GET without Content-Type", "GET", ""},
		{"GET with charset", "GET", "application/json; charset=utf-8"},
		{"DELETE with application/json", "DELETE", "application/json"},
		{"DELETE without Content-Type", "DELETE", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			req, err := http.NewRequest(tc.method, fake.URL()+testkit.NodePath(fx.User.ID, fx.Node.ID), http.NoBody)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range fx.Headers {
				req.Header.Set(k, v)
			}
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			r := send(t, fake, req)
			if r.Status != 200 || r.Body["_id"] != fx.Node.ID || r.Body["success"] != true {
				t.Errorf("status %d; want 200 with the node; body %s", r.Status, r.Raw)
			}
			wantActive := tc.method == "GET"
			if n, _ := fake.Node(fx.Node.ID); n.IsActive != wantActive {
				t.Errorf("stored IsActive %v, want %v", n.IsActive, wantActive)
			}
		})
	}
}

func TestWrongGatewayIsRefusedEverywhere(t *testing.T) {
	t.Parallel()
	addr := map[string]any{"address_street": "123 Main St", "address_city": "SF", "address_subdivision": "CA",
		"address_postal_code": "94105", "address_country_code": "US"}
	for _, tc := range []struct {
		name   string
		method string
		path   func(fx testkit.Fixture) string
		body   any
	}{
		// Routes that need no gateway at all.
		{"loans-limits", "GET", func(testkit.Fixture) string { return "/loans-limits" }, nil},
		{"address-verification", "POST", func(testkit.Fixture) string { return "/address-verification" }, addr},
		{"list nodes", "GET", func(fx testkit.Fixture) string { return testkit.NodesPath(fx.User.ID) }, nil},
		{"create node", "POST", func(fx testkit.Fixture) string { return testkit.NodesPath(fx.User.ID) },
			map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "x"}}},
		{"get node", "GET", func(fx testkit.Fixture) string { return testkit.NodePath(fx.User.ID, fx.Node.ID) }, nil},
		{"patch node", "PATCH", func(fx testkit.Fixture) string { return testkit.NodePath(fx.User.ID, fx.Node.ID) }, map[string]any{"nickname": "x"}},
		{"delete node", "DELETE", func(fx testkit.Fixture) string { return testkit.NodePath(fx.User.ID, fx.Node.ID) }, nil},
		// Routes that need it.
		{"entity-types", "GET", func(testkit.Fixture) string { return "/users/entity-types" }, nil},
		{"list users", "GET", func(testkit.Fixture) string { return "/users" }, nil},
		{"get user", "GET", func(fx testkit.Fixture) string { return "/users/" + fx.User.ID }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			before := inspectNodes(t, fake, []string{fx.User.ID})
			h := maps.Clone(fx.Headers)
			h["X-SP-GATEWAY"] = fake.ClientID() + "|not-the-secret"
			r := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: tc.path(fx), Header: h, Body: tc.body})
			wantErrorStatus(t, r, 401, "100", "invalid_client_credentials")
			wantUnchanged(t, fake, before)
		})
	}
}

// TestAuthErrors walks the credential checks on the node routes, and the one
// documented case where the HTTP status differs from the body's http_code.
func TestAuthErrors(t *testing.T) {
	t.Parallel()
	validUser := map[string]any{"logins": []any{map[string]any{"email": "a@example.com"}},
		"phone_numbers": []any{"901.111.1111"}, "legal_names": []any{"A B"}}
	for _, tc := range []struct {
		name      string
		method    string
		path      func(fx testkit.Fixture) string
		body      any
		header    func(fake *synapsefake.Server, fx testkit.Fixture) map[string]string
		status    int
		httpCode  string // body http_code; strconv of status when ""
		errorCode string
		code      string
	}{
		{name: "missing gateway where required", method: "POST", path: func(testkit.Fixture) string { return "/users" }, body: validUser,
			header: func(_ *synapsefake.Server, fx testkit.Fixture) map[string]string {
				h := maps.Clone(fx.Headers)
				delete(h, "X-SP-GATEWAY")
				h["X-SP-USER"] = "|" + testkit.TestFingerprint
				return h
			},
			status: 400, errorCode: "100", code: "missing_client_credentials"},
		{name: "missing X-SP-USER", method: "GET", path: func(fx testkit.Fixture) string { return testkit.NodesPath(fx.User.ID) },
			header: func(_ *synapsefake.Server, fx testkit.Fixture) map[string]string {
				h := maps.Clone(fx.Headers)
				delete(h, "X-SP-USER")
				return h
			},
			status: 400, errorCode: "200", code: "missing_user_credentials"},
		{name: "empty oauth key", method: "GET", path: func(fx testkit.Fixture) string { return testkit.NodesPath(fx.User.ID) },
			header: func(fake *synapsefake.Server, _ testkit.Fixture) map[string]string {
				return testkit.GatewayHeaders(fake)
			},
			status: 401, errorCode: "300", code: "missing_oauth_key"},
		{name: "unknown oauth key", method: "GET", path: func(fx testkit.Fixture) string { return testkit.NodePath(fx.User.ID, fx.Node.ID) },
			header: func(fake *synapsefake.Server, _ testkit.Fixture) map[string]string {
				return testkit.UserHeaders(fake, "oauth_nope")
			},
			status: 401, errorCode: "110", code: "invalid_oauth_key"},
		{name: "fingerprint differs", method: "GET", path: func(fx testkit.Fixture) string { return testkit.NodePath(fx.User.ID, fx.Node.ID) },
			header: func(_ *synapsefake.Server, fx testkit.Fixture) map[string]string {
				h := maps.Clone(fx.Headers)
				h["X-SP-USER"] = fx.Key + "|other-device"
				return h
			},
			status: 401, errorCode: "120", code: "unauthorized_fingerprint"},
		{name: "key of another user", method: "GET", path: func(testkit.Fixture) string { return testkit.NodesPath("0123456789abcdef01234567") },
			status: 401, errorCode: "300", code: "unauthorized_user"},
		{name: "scope not granted", method: "DELETE", path: func(fx testkit.Fixture) string { return testkit.NodePath(fx.User.ID, fx.Node.ID) },
			header: func(fake *synapsefake.Server, fx testkit.Fixture) map[string]string {
				return testkit.UserHeaders(fake, fake.OAuthKey(fx.User.ID, testkit.TestFingerprint, "NODE|GET"))
			},
			status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "missing X-SP-USER-IP", method: "GET", path: func(fx testkit.Fixture) string { return testkit.NodesPath(fx.User.ID) },
			header: func(_ *synapsefake.Server, fx testkit.Fixture) map[string]string {
				h := maps.Clone(fx.Headers)
				delete(h, "X-SP-USER-IP")
				return h
			},
			status: 400, errorCode: "200", code: "missing_user_ip"},
		{name: "invalid fingerprint on create user", method: "POST", path: func(testkit.Fixture) string { return "/users" }, body: validUser,
			header: func(fake *synapsefake.Server, _ testkit.Fixture) map[string]string {
				h := testkit.GatewayHeaders(fake)
				h["X-SP-USER"] = "|not a fingerprint!"
				return h
			},
			status: 400, httpCode: "401", errorCode: "300", code: "invalid_fingerprint"},
		{name: "invalid fingerprint on oauth", method: "POST", path: func(fx testkit.Fixture) string { return "/oauth/" + fx.User.ID },
			body: map[string]any{"refresh_token": "refresh_x"},
			header: func(fake *synapsefake.Server, _ testkit.Fixture) map[string]string {
				h := testkit.GatewayHeaders(fake)
				h["X-SP-USER"] = "|not a fingerprint!"
				return h
			},
			status: 400, httpCode: "401", errorCode: "300", code: "invalid_fingerprint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			h := fx.Headers
			if tc.header != nil {
				h = tc.header(fake, fx)
			}
			before := inspectNodes(t, fake, []string{fx.User.ID})
			r := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: tc.path(fx), Header: h, Body: tc.body})
			if tc.httpCode == "" {
				wantErrorStatus(t, r, tc.status, tc.errorCode, tc.code)
			} else {
				testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
				if r.Body["http_code"] != tc.httpCode {
					t.Errorf("http_code %v, want %q", r.Body["http_code"], tc.httpCode)
				}
			}
			wantUnchanged(t, fake, before)
		})
	}
}

// TestInProcessClientMatchesListener runs the same calls on a server from New
// (served through Client's in-process transport) and one from NewServer
// (served on a socket) and wants the same answers, base URL aside.
func TestInProcessClientMatchesListener(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	newFake := func(listener bool) *synapsefake.Server {
		mock := clock.NewMock()
		mock.Set(start)
		if listener {
			return synapsefake.NewServer(t, synapsefake.WithClock(mock))
		}
		fake := synapsefake.New(synapsefake.WithClock(mock))
		t.Cleanup(fake.Close)
		return fake
	}
	type answer struct {
		Status      int
		ContentType string
		Body        map[string]any
	}
	run := func(fake *synapsefake.Server) []answer {
		fx := testkit.NewFixture(t, fake, 1234)
		noGateway := maps.Clone(testkit.GatewayHeaders(fake))
		delete(noGateway, "X-SP-GATEWAY")
		calls := []testkit.Call{
			{Method: "GET", Path: "/loans-limits"},
			{Method: "GET", Path: "/users/entity-types", Header: testkit.GatewayHeaders(fake)},
			{Method: "GET", Path: "/users/entity-types", Header: noGateway},
			{Method: "POST", Path: "/address-verification", Body: map[string]any{"address_street": "2500 Mission St Apt 901",
				"address_city": "San Francisco", "address_subdivision": "ca", "address_postal_code": "94110", "address_country_code": "us"}},
			{Method: "GET", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers},
			{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers,
				Body: map[string]any{"type": "ACH-US", "info": map[string]any{"nickname": "Bank", "account_num": "123456789", "routing_num": validRouting}}},
			{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: `{"type":`},
			{Method: "GET", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers},
			{Method: "PATCH", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: map[string]any{"nickname": "Renamed"}},
			{Method: "DELETE", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers},
			{Method: "DELETE", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers},
			{Method: "GET", Path: "/users/" + fx.User.ID, Header: testkit.GatewayHeaders(fake)},
			{Method: "GET", Path: "/nope"},
			{Method: "DELETE", Path: "/users", Header: testkit.GatewayHeaders(fake)},
		}
		var out []answer
		for _, c := range calls {
			r := testkit.Do(t, fake, c)
			var body map[string]any
			if err := json.Unmarshal([]byte(strings.ReplaceAll(string(r.Raw), fake.URL(), "BASE")), &body); err != nil {
				t.Fatal(err)
			}
			out = append(out, answer{Status: r.Status, ContentType: r.Header.Get("Content-Type"), Body: body})
		}
		return out
	}
	inProcess, listener := newFake(false), newFake(true)
	if inProcess.URL() == listener.URL() {
		t.Fatalf("both servers report URL %s", inProcess.URL())
	}
	got, want := run(inProcess), run(listener)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("in-process answers differ from the listener's (-listener +in-process):\n%s", diff)
	}
	// The table must see successes and refusals alike, or it proves little.
	statuses := map[int]bool{}
	for _, a := range want {
		statuses[a.Status] = true
	}
	for _, s := range []int{200, 400, 404, 409} {
		if !statuses[s] {
			t.Errorf("no call answered %d; statuses seen %v", s, statuses)
		}
	}
}

// TestContentTypeRequired: where the spec says the Content-Type must be
// application/json, another one is refused with 400 / "200" and changes
// nothing.
func TestContentTypeRequired(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	f := testkit.NewFixture(t, fake, 0)
	acct, err := fake.AddSubnet(f.User.ID, f.Node.ID, synapsefake.SubnetSeed{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		body string
	}{
		{"dummy transaction", "/users/" + f.User.ID + "/nodes/" + f.Node.ID + "/subnets/" + acct.ID + "/dummy-tran",
			`{"currency":"USD","amount":5,"type":"ACH","direction":"DEPOSIT"}`},
	} {
		for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-8"} {
			h := map[string]string{"Content-Type": ct}
			for k, v := range f.Headers {
				h[k] = v
			}
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: tc.path, Header: h, Body: tc.body})
			if strings.HasPrefix(ct, "application/json") {
				if r.Status != 200 {
					t.Errorf("%s with %q: %d %s", tc.name, ct, r.Status, r.Raw)
				}
				continue
			}
			testkit.WantError(t, r, 400, "200", "invalid_content_type")
		}
	}
	if n, _ := fake.Node(f.Node.ID); n.BalanceCents != 0 {
		t.Errorf("balance %d", n.BalanceCents)
	}
	if got := len(fake.Webhooks().All()); got != 4 { // user, node, subnet, and the one accepted dummy transaction
		t.Errorf("%d webhooks, want 4: a refused call emitted one", got)
	}
}
