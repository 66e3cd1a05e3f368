package synapsefake_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// asResponse converts a UserClient's answer for wantError.
func asResponse(r synapsefake.Response) testkit.Response {
	return testkit.Response{Status: r.Status, Header: r.Header, Raw: r.Raw, Body: r.Body}
}

// transfer is the body of POST .../trans sending usd to a DEPOSIT-US node.
func transfer(toID string, usd float64) map[string]any {
	return map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": toID},
		"amount": map[string]any{"amount": usd, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1"},
	}
}

// TestUserClientSendsTheHeaders: each call carries the gateway, a live key
// with the handle's fingerprint, the user's IP and, with a body, its JSON.
func TestUserClientSendsTheHeaders(t *testing.T) {
	for _, tc := range []struct {
		name string
		fake func(t *testing.T) *synapsefake.Server
	}{
		{"listener", func(t *testing.T) *synapsefake.Server { return synapsefake.NewServer(t) }},
		{"in-process", func(*testing.T) *synapsefake.Server { return synapsefake.New() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := tc.fake(t)
			user := fake.MustAddUser(t, synapsefake.UserSeed{})
			from := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{BalanceCents: 100_00})
			to := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{})
			u := fake.As(t, user.ID, "device-1")
			u.IP = "10.1.2.3"
			resp := u.Post("nodes/"+from.ID+"/trans", transfer(to.ID, 25))
			if resp.Status != http.StatusOK {
				t.Fatalf("POST trans: %d %s", resp.Status, resp.Raw)
			}
			reqs := fake.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests journaled, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Path != "/v3.1/users/"+user.ID+"/nodes/"+from.ID+"/trans" {
				t.Errorf("path %q", r.Path)
			}
			key, fp, _ := strings.Cut(r.Header.Get("X-Sp-User"), "|")
			for _, h := range []struct{ name, got, want string }{
				{"X-SP-GATEWAY", r.Header.Get("X-Sp-Gateway"), fake.Gateway()},
				{"X-SP-USER fingerprint", fp, "device-1"},
				{"X-SP-USER-IP", r.Header.Get("X-Sp-User-Ip"), "10.1.2.3"},
				{"Content-Type", r.Header.Get("Content-Type"), "application/json"},
			} {
				if h.got != h.want {
					t.Errorf("%s = %q, want %q", h.name, h.got, h.want)
				}
			}
			if !strings.HasPrefix(key, "oauth_") {
				t.Errorf("X-SP-USER key %q, want an oauth_key", key)
			}
			if got, _ := fake.User(user.ID); !strings.Contains(strings.Join(got.Fingerprints, ","), "device-1") {
				t.Errorf("fingerprints %q, want device-1 registered", got.Fingerprints)
			}
			var tx struct {
				ID     string `json:"_id"`
				Amount struct {
					Amount float64 `json:"amount"`
				} `json:"amount"`
			}
			if err := resp.Decode(&tx); err != nil || tx.Amount.Amount != 25 || tx.ID != resp.Body["_id"] {
				t.Errorf("Decode: %+v, %v; body %s", tx, err, resp.Raw)
			}
			fake.CheckBalance(t, from.ID, 100_00, 75_00)
		})
	}
}

// TestUserClientPaths: a path with "/" is below URL(), one without below
// the user's own path, a full URL (an href of _links) is sent as is.
func TestUserClientPaths(t *testing.T) {
	fake := synapsefake.NewServer(t)
	user := fake.MustAddUser(t, synapsefake.UserSeed{})
	node := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Nickname: "Checking"})
	u := fake.As(t, user.ID, "device-1")
	self := u.Get("")
	links, _ := self.Body["_links"].(map[string]any)
	selfLink, _ := links["self"].(map[string]any)
	href, _ := selfLink["href"].(string)
	for _, tc := range []struct {
		name     string
		path     string
		wantPath string
		wantID   string
	}{
		{"the user itself", "", "/v3.1/users/" + user.ID, user.ID},
		{"below the user", "nodes/" + node.ID, "/v3.1/users/" + user.ID + "/nodes/" + node.ID, node.ID},
		{"below URL()", "/users/" + user.ID + "/nodes/" + node.ID, "/v3.1/users/" + user.ID + "/nodes/" + node.ID, node.ID},
		{"a link", href, "/v3.1/users/" + user.ID, user.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake.ResetRequests()
			resp := u.Get(tc.path)
			if resp.Status != http.StatusOK || resp.Body["_id"] != tc.wantID {
				t.Fatalf("GET %q: %d %s", tc.path, resp.Status, resp.Raw)
			}
			if reqs := fake.Requests(); len(reqs) != 1 || reqs[0].Path != tc.wantPath {
				t.Errorf("journal %v, want one call to %s", reqs, tc.wantPath)
			}
		})
	}
	if resp := u.Patch("nodes/"+node.ID, map[string]any{"nickname": "Bills"}); resp.Status != http.StatusOK || resp.Body["info"].(map[string]any)["nickname"] != "Bills" {
		t.Errorf("PATCH node: %d %s", resp.Status, resp.Raw)
	}
	if resp := u.Delete("nodes/" + node.ID); resp.Status != http.StatusOK {
		t.Errorf("DELETE node: %d %s", resp.Status, resp.Raw)
	}
	if n, _ := fake.Node(node.ID); n.IsActive || n.Nickname != "Bills" {
		t.Errorf("node after PATCH and DELETE: %+v", n)
	}
}

// TestUserClientRenewsItsKey: past the key's lifetime on the fake's clock
// the handle mints a new key, through the store: no POST /oauth, the
// refresh token unspent.
func TestUserClientRenewsItsKey(t *testing.T) {
	fake := synapsefake.New(synapsefake.WithOAuthKeyLifetime(time.Hour))
	user := fake.MustAddUser(t, synapsefake.UserSeed{})
	before, _ := fake.User(user.ID)
	u := fake.As(t, user.ID, "device-1")
	keyOf := func(r synapsefake.Request) string { k, _, _ := strings.Cut(r.Header.Get("X-Sp-User"), "|"); return k }
	steps := []struct {
		advance time.Duration
		newKey  bool
	}{
		{0, true},                 // the first call mints
		{59 * time.Minute, false}, // still live
		{time.Minute, true},       // the hour is up: expired
		{30 * time.Minute, false}, // the new key lives an hour from its minting
		{31 * time.Minute, true},  // and then expires too
		{100 * time.Hour, true},   // long past
	}
	var last string
	for i, step := range steps {
		fake.Advance(step.advance)
		if resp := u.Get("nodes"); resp.Status != http.StatusOK {
			t.Fatalf("step %d: GET nodes: %d %s", i, resp.Status, resp.Raw)
		}
		reqs := fake.Requests()
		key := keyOf(reqs[len(reqs)-1])
		if (key != last) != step.newKey {
			t.Errorf("step %d (after %v more): key changed = %v, want %v", i, step.advance, key != last, step.newKey)
		}
		last = key
	}
	if n := len(fake.RequestsTo("POST", "/oauth/{user_id}")); n != 0 {
		t.Errorf("%d POST /oauth sent, want none", n)
	}
	if after, _ := fake.User(user.ID); after.RefreshToken != before.RefreshToken || after.RefreshUsesLeft != before.RefreshUsesLeft {
		t.Errorf("refresh token %q (%d uses left), want %q (%d) unspent", after.RefreshToken, after.RefreshUsesLeft, before.RefreshToken, before.RefreshUsesLeft)
	}
	// Another device is another key.
	u.Fingerprint = "device-2"
	u.Get("nodes")
	reqs := fake.Requests()
	if r := reqs[len(reqs)-1]; keyOf(r) == last || r.Status != http.StatusOK || !strings.HasSuffix(r.Header.Get("X-Sp-User"), "|device-2") {
		t.Errorf("after changing the fingerprint: %s", r)
	}
}

// TestUserClientRefusals: the handle's calls get the service's answers.
func TestUserClientRefusals(t *testing.T) {
	fake := synapsefake.NewServer(t)
	mine := testkit.NewFixture(t, fake, 100_00)
	theirs := testkit.NewFixture(t, fake, 100_00)
	u := fake.As(t, mine.User.ID, "device-1")
	unknown := fake.As(t, "5f0000000000000000000000", "device-1")
	for _, tc := range []struct {
		name            string
		call            func() synapsefake.Response
		status          int
		errorCode, code string
	}{
		{"unknown user", func() synapsefake.Response { return unknown.Get("") }, 404, "404", "unable_to_locate_user"},
		{"unknown user's nodes: no key", func() synapsefake.Response { return unknown.Get("nodes") }, 401, "300", "missing_oauth_key"},
		{"another user's node", func() synapsefake.Response {
			return u.Get("/users/" + theirs.User.ID + "/nodes/" + theirs.Node.ID)
		}, 401, "300", "unauthorized_user"},
		{"another user's node below mine", func() synapsefake.Response { return u.Get("nodes/" + theirs.Node.ID) }, 401, "300", "unauthorized_node"},
		{"money from another user's node", func() synapsefake.Response {
			return u.Post("/users/"+theirs.User.ID+"/nodes/"+theirs.Node.ID+"/trans", transfer(mine.Node.ID, 10))
		}, 401, "300", "unauthorized_user"},
		{"malformed JSON sent as is", func() synapsefake.Response {
			return u.Post("nodes/"+mine.Node.ID+"/trans", []byte(`{"amount":`))
		}, 400, "200", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.WantError(t, asResponse(tc.call()), tc.status, tc.errorCode, tc.code)
		})
	}
	fake.CheckBalance(t, theirs.Node.ID, 100_00, 100_00)
	fake.CheckBalance(t, mine.Node.ID, 100_00, 100_00)
	fake.CheckNoWebhook(t, synapsefake.ForFunction("TRANS|POST"))

	// A locked user's key opens only the user; the handle's other calls
	// are refused.
	if resp := u.Get("nodes"); resp.Status != http.StatusOK {
		t.Fatalf("GET nodes: %d", resp.Status)
	}
	if err := fake.SetPermission(mine.User.ID, "LOCKED"); err != nil {
		t.Fatal(err)
	}
	testkit.WantError(t, asResponse(u.Get("nodes")), 409, "410", "user_locked")
	if resp := u.Patch("", map[string]any{"permission": "SEND-AND-RECEIVE"}); resp.Status != http.StatusOK {
		t.Errorf("unlock through the handle: %d", resp.Status)
	}
}

// TestUserClientCannotSend: a body that does not encode fails the test (Do
// returns the error) and sends nothing.
func TestUserClientCannotSend(t *testing.T) {
	fake := synapsefake.New()
	user := fake.MustAddUser(t, synapsefake.UserSeed{})
	rec := &testkit.RecordingTB{TB: t}
	u := fake.As(rec, user.ID, "device-1")
	if resp := u.Post("nodes", map[string]any{"bad": make(chan int)}); resp.Status != 0 || resp.Body != nil {
		t.Errorf("Post answered %+v, want nothing", resp)
	}
	if len(rec.Fatals) != 1 || !strings.Contains(rec.Fatals[0], "POST nodes: encode body: json: unsupported type: chan int") {
		t.Errorf("failures %q, want one naming the body", rec.Fatals)
	}
	_, err := u.Do("PATCH", "", func() {})
	var unsupported *json.UnsupportedTypeError
	if !errors.As(err, &unsupported) {
		t.Errorf("Do: %v, want a *json.UnsupportedTypeError", err)
	}
	if reqs := fake.Requests(); len(reqs) != 0 {
		t.Errorf("%d calls sent, want none", len(reqs))
	}
}

// TestUserClientHeader: extra headers go with every call; a used
// idempotency key is refused.
func TestUserClientHeader(t *testing.T) {
	fake := synapsefake.New()
	fx := testkit.NewFixture(t, fake, 100_00)
	to := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{})
	u := fake.As(t, fx.User.ID, "device-1")
	u.Header = http.Header{"X-Sp-Idempotency-Key": {"rent-2026-03"}}
	first := u.Post("nodes/"+fx.Node.ID+"/trans", transfer(to.ID, 25))
	second := u.Post("nodes/"+fx.Node.ID+"/trans", transfer(to.ID, 25))
	if first.Status != http.StatusOK {
		t.Fatalf("first POST: %d %s", first.Status, first.Raw)
	}
	testkit.WantError(t, asResponse(second), 409, "450", "")
	fake.CheckBalance(t, fx.Node.ID, 100_00, 75_00)
}

// refuse is a RoundTripper that answers every request with an error naming
// its host.
type refuse struct{}

func (refuse) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, errors.New("next: " + r.URL.Host)
}

// TestIntercept: requests for the service's hosts reach the fake whatever
// their scheme; others go to next.
func TestIntercept(t *testing.T) {
	fake := synapsefake.NewServer(t)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "other") }))
	defer other.Close()
	get := func(rt http.RoundTripper, url string) (int, string, error) {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("X-SP-GATEWAY", fake.Gateway())
		resp, err := (&http.Client{Transport: rt}).Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}
	for _, tc := range []struct {
		name     string
		rt       http.RoundTripper
		url      string
		wantCode int
		want     string // a part of the body, or of the error
	}{
		{"sandbox host", fake.Intercept(http.DefaultTransport), "https://uat-api.synapsefi.com/v3.1/users", 200, `"users_count":0`},
		{"production host", fake.Intercept(http.DefaultTransport), "https://api.synapsefi.com/v3.1/users", 200, `"users_count":0`},
		{"another host", fake.Intercept(http.DefaultTransport), other.URL, 200, "other"},
		{"hosts given", fake.Intercept(http.DefaultTransport, "api.example.test"), "http://API.example.test/v3.1/users", 200, `"users_count":0`},
		{"hosts given: the service's go to next", fake.Intercept(refuse{}, "api.example.test"), "https://uat-api.synapsefi.com/v3.1/users", 0, "next: uat-api.synapsefi.com"},
		{"no next", fake.Intercept(nil), other.URL, 0, "is not one of the hosts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body, err := get(tc.rt, tc.url)
			got := body
			if err != nil {
				got = err.Error()
			}
			if code != tc.wantCode || !strings.Contains(got, tc.want) {
				t.Errorf("GET %s: %d %q, want %d and %q", tc.url, code, got, tc.wantCode, tc.want)
			}
		})
	}
	if n := len(fake.RequestsTo("GET", "/users")); n != 3 {
		t.Errorf("the fake answered %d GET /users, want 3", n)
	}
}
