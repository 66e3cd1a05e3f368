package api_test

// These tests reproduce, on the wire, what the official Go client SynapseGo
// (package synapse, last commit 2023-01-09; not on the module proxy, so the
// main module cannot depend on it) sends and how it reads the answers, and
// check that the fake serves it. goclient_methods_test.go has one row for
// each of its methods.
//
//   - Requests go through gorequest: header names canonicalised (X-Sp-Gateway,
//     X-Sp-User, X-Sp-User-Ip, X-Sp-Idempotency-Key), Content-Type
//     application/json on every method (GET and DELETE too, with no body),
//     the caller's JSON body re-marshalled with sorted keys (or sent
//     form-encoded when it is not JSON), the caller's query string
//     re-encoded with sorted keys. CommentOnTransactionStatus passes its
//     idempotency key as the query string, so the PATCH carries "?<key>=".
//   - Only HTTP 200 is a success. Any other status goes to handleHTTPError,
//     which asserts error_code and http_code are strings and error.en exists,
//     and panics otherwise; readStream panics on a body that is not a JSON
//     object. goSend reports each of those as a test error.
//   - User.do re-authenticates on error_code "300" (POST /oauth/{id} with the
//     stored refresh token) and calls itself again, with no limit; "110" is
//     returned to the caller as is.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// goClientIP is the IP address the Go client was built with.
const goClientIP = "127.0.0.1"

// goRequest is one call as a SynapseGo method makes it.
type goRequest struct {
	method string
	path   string // below the base URL
	// query is the query string as the caller passes it; gorequest parses
	// it and re-encodes it with sorted keys.
	query string
	// body is the JSON text the method builds; gorequest re-marshals it
	// (sorted keys, no spaces) or, when it is not JSON, sends it
	// form-encoded.
	body           string
	authKey        string // the oauth part of X-Sp-User
	fingerprint    string
	idempotencyKey string // X-Sp-Idempotency-Key, POST only
	// edit, when set, changes the headers after they are built, for the
	// error cases.
	edit func(http.Header)
	// emptyForm sends no body as application/x-www-form-urlencoded, as
	// gorequest's Send("") does (ResetCardNode).
	emptyForm bool
	// panics marks an answer on which the Go client itself panics in
	// handleHTTPError, as it does against the real service (a 202 without
	// error.en); goSend then requires that panic instead of failing on it.
	panics bool
}

// goAnswer is an answer as the Go client reads it.
type goAnswer struct {
	testkit.Response
	// errorCode, httpCode and message are what handleHTTPError read from a
	// non-200 answer; errorCode is "" for a 200.
	errorCode, httpCode, message string
}

// goSend sends req as gorequest would and reads the answer as SynapseGo
// does. Where the Go client would panic, it fails the test instead.
func goSend(t testing.TB, fake *synapsefake.Server, req goRequest) goAnswer {
	t.Helper()
	u := fake.URL() + req.path
	if req.query != "" {
		q, err := url.ParseQuery(req.query)
		if err != nil {
			t.Fatalf("query %q: %v", req.query, err)
		}
		u += "?" + q.Encode()
	}
	var body io.Reader = http.NoBody
	contentType := "application/json"
	if req.body != "" && (req.method == http.MethodPost || req.method == http.MethodPatch) {
		var m map[string]any
		if err := json.Unmarshal([]byte(req.body), &m); err == nil {
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatalf("marshal body: %v", err)
			}
			body = bytes.NewReader(b)
		} else {
			form, err := url.ParseQuery(req.body)
			if err != nil {
				t.Fatalf("body %q is neither JSON nor a query string: %v", req.body, err)
			}
			contentType = "application/x-www-form-urlencoded"
			body = strings.NewReader(form.Encode())
		}
	}
	if req.emptyForm {
		contentType = "application/x-www-form-urlencoded"
	}
	hr, err := http.NewRequest(req.method, u, body)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	// Assigned as the map keys the Go client puts on the wire.
	hr.Header["X-Sp-Gateway"] = []string{fake.Gateway()}
	hr.Header["X-Sp-User-Ip"] = []string{goClientIP}
	hr.Header["X-Sp-User"] = []string{req.authKey + "|" + req.fingerprint}
	if req.idempotencyKey != "" && req.method == http.MethodPost {
		hr.Header["X-Sp-Idempotency-Key"] = []string{req.idempotencyKey}
	}
	hr.Header["Content-Type"] = []string{contentType}
	hr.Header["User-Agent"] = []string{"Go-http-client/1.1"}
	if req.edit != nil {
		req.edit(hr.Header)
	}
	resp, err := fake.Client().Do(hr)
	if err != nil {
		t.Fatalf("%s %s: %v", req.method, req.path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	a := goAnswer{Response: testkit.Response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", req.method, req.path, ct)
	}
	// readStream
	if err := json.Unmarshal(raw, &a.Body); err != nil || a.Body == nil {
		t.Errorf("%s %s: the Go client panics in readStream: body is not a JSON object (%v): %s", req.method, req.path, err, raw)
		return a
	}
	if resp.StatusCode == http.StatusOK {
		return a
	}
	// handleHTTPError
	var ok bool
	if a.errorCode, ok = a.Body["error_code"].(string); !ok {
		t.Errorf("%s %s (%d): the Go client panics in handleHTTPError: error_code %#v is not a string: %s", req.method, req.path, resp.StatusCode, a.Body["error_code"], raw)
	}
	if a.httpCode, ok = a.Body["http_code"].(string); !ok {
		t.Errorf("%s %s (%d): the Go client panics in handleHTTPError: http_code %#v is not a string: %s", req.method, req.path, resp.StatusCode, a.Body["http_code"], raw)
	}
	e, ok := a.Body["error"].(map[string]any)
	if ok {
		a.message, ok = e["en"].(string)
	}
	switch {
	case !ok && !req.panics:
		t.Errorf("%s %s (%d): the Go client panics in handleHTTPError: no string error.en: %s", req.method, req.path, resp.StatusCode, raw)
	case ok && req.panics:
		t.Errorf("%s %s (%d): error.en %q, want none (the real answer has none): %s", req.method, req.path, resp.StatusCode, a.message, raw)
	}
	return a
}

// goUser is SynapseGo's User: its id, refresh token and oauth key, and the
// fingerprint its requests carry.
type goUser struct {
	t            testing.TB
	fake         *synapsefake.Server
	id           string
	refreshToken string
	authKey      string
	fingerprint  string
	// reauths counts the re-authentications of the last call; do gives up
	// after goMaxReauths of them, where the real client recurses without
	// end, and sets looped.
	reauths int
	looped  bool
	depth   int // nesting of do: Authenticate calls do from inside do
}

// goMaxReauths bounds the re-authentications of goUser.do.
const goMaxReauths = 3

// goGetUser is Client.GetUser: GET /users/{id}, decoding _id and
// refresh_token. No OAuth happens, so the user's first call carries an empty
// oauth key.
func goGetUser(t testing.TB, fake *synapsefake.Server, userID, fingerprint string) *goUser {
	t.Helper()
	a := goSend(t, fake, goRequest{method: "GET", path: "/users/" + userID, fingerprint: fingerprint})
	if a.Status != http.StatusOK {
		t.Fatalf("GetUser: status %d: %s", a.Status, a.Raw)
	}
	u := &goUser{t: t, fake: fake, fingerprint: fingerprint}
	u.id, _ = a.Body["_id"].(string)
	u.refreshToken, _ = a.Body["refresh_token"].(string)
	if u.id != userID || u.refreshToken == "" {
		t.Fatalf("GetUser: _id %q and refresh_token %q: %s", u.id, u.refreshToken, a.Raw)
	}
	return u
}

// do is User.do: it sends req with the user's credentials and, on error_code
// "300", re-authenticates with the stored refresh token and calls itself
// again.
func (u *goUser) do(req goRequest) goAnswer {
	u.t.Helper()
	if u.depth == 0 {
		u.reauths, u.looped = 0, false
	}
	u.depth++
	defer func() { u.depth-- }()
	req.authKey, req.fingerprint = u.authKey, u.fingerprint
	a := goSend(u.t, u.fake, req)
	if a.errorCode != "300" {
		return a
	}
	if u.reauths == goMaxReauths {
		u.looped = true
		return a
	}
	u.reauths++
	if res := u.authenticate(`{ "refresh_token": "` + u.refreshToken + `" }`); res.errorCode != "" || u.looped {
		return res
	}
	return u.do(req)
}

// authenticate is User.Authenticate: POST /oauth/{id} with data through do,
// then it keeps refresh_token and oauth_key from the answer, whatever its
// status.
func (u *goUser) authenticate(data string) goAnswer {
	u.t.Helper()
	a := u.do(goRequest{method: "POST", path: "/oauth/" + u.id, body: data})
	for field, dst := range map[string]*string{"refresh_token": &u.refreshToken, "oauth_key": &u.authKey} {
		if v, present := a.Body[field]; present && v != nil {
			s, ok := v.(string)
			if !ok {
				u.t.Errorf("Authenticate: the Go client panics: %s %#v is not a string", field, v)
			}
			*dst = s
		}
	}
	return a
}

// goCalls lists the journal, each entry as "METHOD route status/error_code".
func goCalls(fake *synapsefake.Server) []string {
	var out []string
	for _, r := range fake.Requests() {
		out = append(out, fmt.Sprintf("%s %s %d/%s", r.Method, r.Route, r.Status, r.ErrorCode))
	}
	return out
}

// goFixture is newFixture's user and funded node, a second node, a CREATED
// transaction between them made by the Go client, and the user as the Go
// client holds it after Authenticate.
type goFixture struct {
	testkit.Fixture
	other synapsefake.Node
	txID  string
	user  *goUser
}

func newGoFixture(t testing.TB, fake *synapsefake.Server) goFixture {
	t.Helper()
	fx := goFixture{Fixture: testkit.NewFixture(t, fake, 100_00)}
	other := fake.MustAddNode(t, fx.Fixture.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	fx.other = other
	fx.user = &goUser{t: t, fake: fake, id: fx.Fixture.User.ID, refreshToken: fx.Fixture.User.RefreshToken,
		authKey: fx.Key, fingerprint: testkit.TestFingerprint}
	a := fx.user.do(goRequest{method: "POST", path: fx.transPath(), idempotencyKey: "setup-tx",
		body: `{"to":{"type":"DEPOSIT-US","id":"` + other.ID + `"},"amount":{"amount":10,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`})
	if a.Status != http.StatusOK {
		t.Fatalf("setup transaction: status %d: %s", a.Status, a.Raw)
	}
	fx.txID, _ = a.Body["_id"].(string)
	fake.ResetRequests()
	return fx
}

func (fx goFixture) userPath() string  { return "/users/" + fx.Fixture.User.ID }
func (fx goFixture) nodePath() string  { return fx.userPath() + "/nodes/" + fx.Node.ID }
func (fx goFixture) transPath() string { return fx.nodePath() + "/trans" }
func (fx goFixture) txPath() string    { return fx.transPath() + "/" + fx.txID }

// goState is what an error must leave unchanged.
type goState struct {
	User  synapsefake.User
	Nodes []synapsefake.Node
	Tx    synapsefake.Transaction
}

func goSnapshot(t testing.TB, fake *synapsefake.Server, fx goFixture) goState {
	t.Helper()
	u, ok := fake.User(fx.Fixture.User.ID)
	if !ok {
		t.Fatalf("user %s is gone", fx.Fixture.User.ID)
	}
	s := goState{User: u}
	for _, id := range u.NodeIDs {
		n, _ := fake.Node(id)
		s.Nodes = append(s.Nodes, n)
	}
	s.Tx, _ = fake.Transaction(fx.txID)
	return s
}

// wantGoSuccess checks what the Go client needs of a success: exactly HTTP
// 200 (goSend already failed the test on a body it cannot read), success
// true, no error key, and string codes where a list wrapper carries them.
func wantGoSuccess(t testing.TB, a goAnswer) {
	t.Helper()
	if a.Status != http.StatusOK {
		t.Fatalf("status %d, want exactly 200 (the Go client treats any other status as an error): %s", a.Status, a.Raw)
	}
	if a.Body["success"] != true {
		t.Errorf("success %#v, want true: %s", a.Body["success"], a.Raw)
	}
	if _, ok := a.Body["error"]; ok {
		t.Errorf("a success carries an error key: %s", a.Raw)
	}
	for field, want := range map[string]string{"error_code": "0", "http_code": "200"} {
		if v, ok := a.Body[field]; ok && v != want {
			t.Errorf("%s %#v, want the string %q", field, v, want)
		}
	}
}

func TestGoClientWireFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		client bool // a Client method (gateway and |fp), not a User one
		req    func(fx goFixture) goRequest
		// check checks a success; nil means the replay case, 409 / "450".
		check func(t *testing.T, fake *synapsefake.Server, fx goFixture, a goAnswer)
	}{
		{
			name: "canonical header names and Content-Type on a GET with no body",
			req:  func(fx goFixture) goRequest { return goRequest{method: "GET", path: fx.nodePath()} },
			check: func(t *testing.T, _ *synapsefake.Server, fx goFixture, a goAnswer) {
				if a.Body["_id"] != fx.Node.ID {
					t.Errorf("_id %v, want %s", a.Body["_id"], fx.Node.ID)
				}
			},
		},
		{
			name:   "client call with an empty oauth key and a caller query",
			client: true,
			req: func(fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath(), query: "full_dehydrate=yes"}
			},
			check: func(t *testing.T, _ *synapsefake.Server, fx goFixture, a goAnswer) {
				if a.Body["_id"] != fx.Fixture.User.ID || a.Body["refresh_token"] != fx.Fixture.User.RefreshToken {
					t.Errorf("_id %v, refresh_token %v; want %s, %s", a.Body["_id"], a.Body["refresh_token"], fx.Fixture.User.ID, fx.Fixture.User.RefreshToken)
				}
			},
		},
		{
			name: "query keys re-encoded in sorted order",
			req: func(fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath() + "/nodes", query: "per_page=1&page=2"}
			},
			check: func(t *testing.T, _ *synapsefake.Server, fx goFixture, a goAnswer) {
				want := map[string]any{"page": 2.0, "limit": 1.0, "page_count": 2.0, "node_count": 2.0}
				got := map[string]any{"page": a.Body["page"], "limit": a.Body["limit"], "page_count": a.Body["page_count"], "node_count": a.Body["node_count"]}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("paging (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "JSON body re-marshalled with sorted keys",
			req: func(fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.transPath(), idempotencyKey: "go-tx-1",
					body: `{ "to": { "type": "DEPOSIT-US", "id": "` + fx.other.ID + `" }, "amount": { "amount": 20.1, "currency": "USD" }, "extra": { "ip": "192.168.0.1", "note": "from Go" } }`}
			},
			check: func(t *testing.T, fake *synapsefake.Server, fx goFixture, a goAnswer) {
				reqs := fake.Requests()
				got := string(reqs[len(reqs)-1].Body)
				want := `{"amount":{"amount":20.1,"currency":"USD"},"extra":{"ip":"192.168.0.1","note":"from Go"},"to":{"id":"` + fx.other.ID + `","type":"DEPOSIT-US"}}`
				if got != want {
					t.Errorf("the fake received %s, want %s", got, want)
				}
				id, _ := a.Body["_id"].(string)
				tx, ok := fake.Transaction(id)
				if !ok || tx.AmountCents != 2010 || tx.Note != "from Go" || tx.ToNodeID != fx.other.ID {
					t.Errorf("stored transaction %+v (found %v), want 2010 cents with note %q to %s", tx, ok, "from Go", fx.other.ID)
				}
			},
		},
		{
			name: "X-Sp-Idempotency-Key is honoured: a replay is 409 / 450",
			req: func(fx goFixture) goRequest {
				// newGoFixture created its transaction with this key.
				return goRequest{method: "POST", path: fx.transPath(), idempotencyKey: "setup-tx",
					body: `{"to":{"type":"DEPOSIT-US","id":"` + fx.other.ID + `"},"amount":{"amount":10,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
			},
		},
		{
			name: "stray ?<idempotency key>= query key on the comment PATCH",
			req: func(fx goFixture) goRequest {
				return goRequest{method: "PATCH", path: fx.txPath(), query: "go-comment-key", body: `{"comment":"checked from Go"}`}
			},
			check: func(t *testing.T, fake *synapsefake.Server, fx goFixture, a goAnswer) {
				reqs := fake.Requests()
				if q := reqs[len(reqs)-1].Query; !q.Has("go-comment-key") {
					t.Errorf("query %v lacks the stray key", q)
				}
				tx, _ := fake.Transaction(fx.txID)
				if n := len(tx.Timeline); n == 0 || tx.Timeline[n-1].Note != "checked from Go" {
					t.Errorf("timeline %+v does not end with the comment", tx.Timeline)
				}
			},
		},
		{
			name: "Content-Type application/json on a DELETE with no body",
			req:  func(fx goFixture) goRequest { return goRequest{method: "DELETE", path: fx.txPath()} },
			check: func(t *testing.T, fake *synapsefake.Server, fx goFixture, a goAnswer) {
				if tx, _ := fake.Transaction(fx.txID); tx.Status != synapsefake.StatusCanceled {
					t.Errorf("status %s, want %s", tx.Status, synapsefake.StatusCanceled)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := newGoFixture(t, fake)
			req := tc.req(fx)
			before := goSnapshot(t, fake, fx)
			var a goAnswer
			if tc.client {
				// Client.do: the gateway and |fp, no re-auth.
				req.fingerprint = testkit.TestFingerprint
				a = goSend(t, fake, req)
			} else {
				a = fx.user.do(req)
			}
			if tc.check == nil {
				if a.Status != http.StatusConflict || a.errorCode != "450" {
					t.Fatalf("status %d error_code %q, want 409 / 450: %s", a.Status, a.errorCode, a.Raw)
				}
				if diff := cmp.Diff(before, goSnapshot(t, fake, fx)); diff != "" {
					t.Errorf("the store changed (-before +after):\n%s", diff)
				}
				if n := len(fake.RequestsTo("POST", "/users/{user_id}/nodes/{node_id}/trans")); n != 1 {
					t.Errorf("%d create calls, want 1", n)
				}
				return
			}
			wantGoSuccess(t, a)
			tc.check(t, fake, fx, a)
		})
	}
}

func TestGoClientSuccessIsExactly200(t *testing.T) {
	t.Parallel()
	const hookURL = "https://hooks.example.com/synapse"
	for _, tc := range []struct {
		name   string
		client bool // a Client method (gateway and |fp), not a User one
		req    func(t *testing.T, fake *synapsefake.Server, fx goFixture) goRequest
		check  func(t *testing.T, fake *synapsefake.Server, fx goFixture, a goAnswer)
	}{
		{
			name:   "create user",
			client: true,
			req: func(*testing.T, *synapsefake.Server, goFixture) goRequest {
				return goRequest{method: "POST", path: "/users", idempotencyKey: "go-user-1",
					body: `{"logins":[{"email":"go@example.com"}],"phone_numbers":["901.111.1111"],"legal_names":["Go User"],"extra":{"supp_id":"go-1","cip_tag":1,"is_business":false}}`}
			},
			check: func(t *testing.T, fake *synapsefake.Server, _ goFixture, a goAnswer) {
				id, _ := a.Body["_id"].(string)
				u, ok := fake.User(id)
				if !ok || !slices.Equal(u.Fingerprints, []string{testkit.TestFingerprint}) {
					t.Errorf("created user %+v (found %v): want the creating fingerprint registered", u, ok)
				}
				if rt, _ := a.Body["refresh_token"].(string); rt == "" || rt != u.RefreshToken {
					t.Errorf("refresh_token %q, want %q", rt, u.RefreshToken)
				}
			},
		},
		{
			name: "oauth with only refresh_token",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: "/oauth/" + fx.Fixture.User.ID, body: `{ "refresh_token": "` + fx.Fixture.User.RefreshToken + `" }`}
			},
			check: func(t *testing.T, _ *synapsefake.Server, fx goFixture, a goAnswer) {
				for _, f := range []string{"oauth_key", "refresh_token", "expires_in", "expires_at", "user_id", "client_id"} {
					if _, ok := a.Body[f].(string); !ok {
						t.Errorf("%s %#v is not a string", f, a.Body[f])
					}
				}
			},
		},
		{
			name: "create node",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.userPath() + "/nodes", idempotencyKey: "go-node-1",
					body: `{"type":"DEPOSIT-US","info":{"nickname":"Go Node"}}`}
			},
			check: func(t *testing.T, fake *synapsefake.Server, fx goFixture, a goAnswer) {
				if a.Body["node_count"] != 1.0 {
					t.Errorf("node_count %#v, want 1", a.Body["node_count"])
				}
				if u, _ := fake.User(fx.Fixture.User.ID); len(u.NodeIDs) != 3 {
					t.Errorf("user has nodes %v, want 3", u.NodeIDs)
				}
			},
		},
		{
			name: "list nodes",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath() + "/nodes"}
			},
			check: func(t *testing.T, _ *synapsefake.Server, _ goFixture, a goAnswer) {
				if a.Body["node_count"] != 2.0 {
					t.Errorf("node_count %#v, want 2", a.Body["node_count"])
				}
			},
		},
		{
			name: "create transaction",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.transPath(), idempotencyKey: "go-tx-2",
					body: `{"to":{"type":"DEPOSIT-US","id":"` + fx.other.ID + `"},"amount":{"amount":1.5,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
			},
			check: func(t *testing.T, fake *synapsefake.Server, _ goFixture, a goAnswer) {
				id, _ := a.Body["_id"].(string)
				if tx, ok := fake.Transaction(id); !ok || tx.Status != synapsefake.StatusCreated || tx.AmountCents != 150 {
					t.Errorf("stored %+v (found %v), want CREATED for 150 cents", tx, ok)
				}
			},
		},
		{
			name: "cancel transaction",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "DELETE", path: fx.txPath()}
			},
			check: func(t *testing.T, fake *synapsefake.Server, fx goFixture, a goAnswer) {
				rs, _ := a.Body["recent_status"].(map[string]any)
				if rs["status"] != "CANCELED" || rs["status_id"] != "5" {
					t.Errorf("recent_status %v, want CANCELED / \"5\"", rs)
				}
				if tx, _ := fake.Transaction(fx.txID); tx.Status != synapsefake.StatusCanceled {
					t.Errorf("stored status %s", tx.Status)
				}
			},
		},
		{
			name: "comment on transaction",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "PATCH", path: fx.txPath(), body: `{"comment":"hello"}`}
			},
			check: func(t *testing.T, fake *synapsefake.Server, fx goFixture, a goAnswer) {
				tx, _ := fake.Transaction(fx.txID)
				if n := len(tx.Timeline); n == 0 || tx.Timeline[n-1].Note != "hello" {
					t.Errorf("timeline %+v does not end with the comment", tx.Timeline)
				}
			},
		},
		{
			name: "create subnet (DEBIT_CARD, as the Go client names a card)",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.nodePath() + "/subnets", idempotencyKey: "go-subnet-1",
					body: `{"nickname":"Go Card","account_class":"DEBIT_CARD"}`}
			},
			check: func(t *testing.T, fake *synapsefake.Server, _ goFixture, a goAnswer) {
				id, _ := a.Body["_id"].(string)
				if s, ok := fake.Subnet(id); !ok || s.Status != synapsefake.SubnetInactive {
					t.Errorf("stored %+v (found %v), want an INACTIVE card", s, ok)
				}
			},
		},
		{
			name: "patch subnet",
			req: func(t *testing.T, fake *synapsefake.Server, fx goFixture) goRequest {
				s, err := fake.AddSubnet(fx.Fixture.User.ID, fx.Node.ID, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: synapsefake.ClassCard})
				if err != nil {
					t.Fatalf("AddSubnet: %v", err)
				}
				return goRequest{method: "PATCH", path: fx.nodePath() + "/subnets/" + s.ID, body: `{"status":"ACTIVE"}`}
			},
			check: func(t *testing.T, fake *synapsefake.Server, _ goFixture, a goAnswer) {
				id, _ := a.Body["_id"].(string)
				if s, _ := fake.Subnet(id); s.Status != synapsefake.SubnetActive {
					t.Errorf("stored status %s, want ACTIVE", s.Status)
				}
			},
		},
		{
			name:   "create subscription",
			client: true,
			req: func(*testing.T, *synapsefake.Server, goFixture) goRequest {
				return goRequest{method: "POST", path: "/subscriptions", idempotencyKey: "go-sub-1",
					body: `{"scope":["USERS|POST","TRANS|POST"],"url":"` + hookURL + `"}`}
			},
			check: func(t *testing.T, _ *synapsefake.Server, _ goFixture, a goAnswer) {
				if a.Body["url"] != hookURL {
					t.Errorf("url %v", a.Body["url"])
				}
			},
		},
		{
			name:   "update subscription",
			client: true,
			req: func(t *testing.T, fake *synapsefake.Server, _ goFixture) goRequest {
				sub := fake.MustAddSubscription(t, hookURL, "USERS|POST")
				return goRequest{method: "PATCH", path: "/subscriptions/" + sub.ID, body: `{"is_active":false}`}
			},
			check: func(t *testing.T, _ *synapsefake.Server, _ goFixture, a goAnswer) {
				if a.Body["is_active"] != false {
					t.Errorf("is_active %#v, want false", a.Body["is_active"])
				}
			},
		},
		{
			name:   "list subscriptions",
			client: true,
			req: func(t *testing.T, fake *synapsefake.Server, _ goFixture) goRequest {
				fake.MustAddSubscription(t, hookURL, "USERS|POST")
				return goRequest{method: "GET", path: "/subscriptions", query: "per_page=5&page=1"}
			},
			check: func(t *testing.T, _ *synapsefake.Server, _ goFixture, a goAnswer) {
				if a.Body["subscriptions_count"] != 1.0 {
					t.Errorf("subscriptions_count %#v, want 1", a.Body["subscriptions_count"])
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery())
			fx := newGoFixture(t, fake)
			req := tc.req(t, fake, fx)
			var a goAnswer
			if tc.client {
				req.fingerprint = testkit.TestFingerprint
				a = goSend(t, fake, req)
			} else {
				a = fx.user.do(req)
			}
			wantGoSuccess(t, a)
			if fx.user.reauths != 0 {
				t.Errorf("the client re-authenticated %d times: %v", fx.user.reauths, goCalls(fake))
			}
			tc.check(t, fake, fx, a)
		})
	}
}

func TestGoClientErrorBodies(t *testing.T) {
	t.Parallel()
	strangerNode := func(fake *synapsefake.Server) string {
		u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "stranger"})
		n := fake.MustAddNode(t, u.ID, synapsefake.NodeSeed{})
		return n.ID
	}
	for _, tc := range []struct {
		name string
		// req builds the request; the oauth key and fingerprint are the
		// fixture's unless it sets them.
		req        func(t *testing.T, fake *synapsefake.Server, fx goFixture) goRequest
		status     int
		errorCode  string
		httpCode   string // "" when equal to status
		errCode    string // error.code, "" to skip
		wantInBody string // a substring of error.en, "" to skip
	}{
		{
			name: "missing X-Sp-Gateway on a client call",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath(), authKey: "-", edit: func(h http.Header) { delete(h, "X-Sp-Gateway") }}
			},
			status: 400, errorCode: "100", errCode: "missing_client_credentials",
		},
		{
			name: "wrong X-Sp-Gateway",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.nodePath(), edit: func(h http.Header) { h["X-Sp-Gateway"] = []string{"id|wrong"} }}
			},
			status: 401, errorCode: "100", errCode: "invalid_client_credentials",
		},
		{
			name: "missing X-Sp-User",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.nodePath(), edit: func(h http.Header) { delete(h, "X-Sp-User") }}
			},
			status: 400, errorCode: "200", errCode: "missing_user_credentials",
		},
		{
			name: "missing X-Sp-User-Ip",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.nodePath(), edit: func(h http.Header) { delete(h, "X-Sp-User-Ip") }}
			},
			status: 400, errorCode: "200", errCode: "missing_user_ip",
		},
		{
			name: "empty oauth key, as right after GetUser",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.nodePath(), authKey: "-"}
			},
			status: 401, errorCode: "300", errCode: "missing_oauth_key",
		},
		{
			name: "unknown oauth key",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.nodePath(), authKey: "oauth_unknown"}
			},
			status: 401, errorCode: "110", errCode: "invalid_oauth_key", wantInBody: "Invalid/expired oauth_key.",
		},
		{
			name: "key of another fingerprint",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.nodePath(), fingerprint: "other-device"}
			},
			status: 401, errorCode: "120", errCode: "unauthorized_fingerprint",
		},
		{
			name: "another user's node",
			req: func(_ *testing.T, fake *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath() + "/nodes/" + strangerNode(fake)}
			},
			status: 401, errorCode: "300", errCode: "unauthorized_node",
		},
		{
			name: "Python-style True in the body goes form-encoded",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.userPath() + "/nodes", body: `{"type":"DEPOSIT-US","info":{"nickname":"N"},"is_active":True}`}
			},
			status: 400, errorCode: "200",
		},
		{
			name: "wrong field type",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.userPath() + "/nodes", body: `{"type":"DEPOSIT-US","info":{"nickname":5}}`}
			},
			status: 400, errorCode: "200", errCode: "invalid_field_type",
		},
		{
			name: "unknown node",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath() + "/nodes/5f0000000000000000000000"}
			},
			status: 404, errorCode: "404", errCode: "unable_to_locate_node",
		},
		{
			name: "unknown route",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath() + "/nowhere"}
			},
			status: 404, errorCode: "404", errCode: "not_found",
		},
		{
			name: "a transfer to its own node",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.transPath(),
					body: `{"to":{"type":"DEPOSIT-US","id":"` + fx.Fixture.Node.ID + `"},"amount":{"amount":1,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
			},
			status: 409, errorCode: "400", errCode: "same_node",
		},
		{
			name: "idempotency key in use",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.transPath(), idempotencyKey: "setup-tx",
					body: `{"to":{"type":"DEPOSIT-US","id":"` + fx.other.ID + `"},"amount":{"amount":10,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
			},
			status: 409, errorCode: "450",
		},
		{
			name: "cancel a settled transaction",
			req: func(t *testing.T, fake *synapsefake.Server, fx goFixture) goRequest {
				if err := fake.Settle(fx.txID); err != nil {
					t.Fatalf("Settle: %v", err)
				}
				return goRequest{method: "DELETE", path: fx.txPath()}
			},
			status: 409, errorCode: "410", errCode: "cannot_cancel_transaction",
		},
		{
			name: "oauth with an invalid fingerprint: 400, http_code 401",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: "/oauth/" + fx.Fixture.User.ID, authKey: "-", fingerprint: "bad fingerprint!",
					body: `{"refresh_token":"` + fx.Fixture.User.RefreshToken + `"}`}
			},
			status: 400, errorCode: "300", httpCode: "401", errCode: "invalid_fingerprint",
		},
		{
			name: "oauth with a wrong refresh token",
			req: func(_ *testing.T, _ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: "/oauth/" + fx.Fixture.User.ID, authKey: "-", body: `{"refresh_token":"refresh_wrong"}`}
			},
			status: 409, errorCode: "400", errCode: "invalid_refresh_token",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := newGoFixture(t, fake)
			req := tc.req(t, fake, fx)
			if req.fingerprint == "" {
				req.fingerprint = testkit.TestFingerprint
			}
			switch req.authKey {
			case "":
				req.authKey = fx.Key
			case "-":
				req.authKey = ""
			}
			before := goSnapshot(t, fake, fx)
			a := goSend(t, fake, req)
			testkit.WantError(t, a.Response, tc.status, tc.errorCode, tc.errCode)
			wantHTTP := tc.httpCode
			if wantHTTP == "" {
				wantHTTP = fmt.Sprint(tc.status)
			}
			if a.httpCode != wantHTTP {
				t.Errorf("http_code %q, want %q", a.httpCode, wantHTTP)
			}
			if tc.wantInBody != "" && !strings.Contains(a.message, tc.wantInBody) {
				t.Errorf("error.en %q, want it to contain %q", a.message, tc.wantInBody)
			}
			if diff := cmp.Diff(before, goSnapshot(t, fake, fx)); diff != "" {
				t.Errorf("the store changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestGoClientInjectedFaults(t *testing.T) {
	t.Parallel()
	for _, code := range []string{"429", "460", "500", "503", "504"} {
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := newGoFixture(t, fake)
			fake.FailNext("POST", "/users/{user_id}/nodes/{node_id}/trans", code, 1)
			before := goSnapshot(t, fake, fx)
			req := goRequest{method: "POST", path: fx.transPath(), idempotencyKey: "go-retry",
				body: `{"to":{"type":"DEPOSIT-US","id":"` + fx.other.ID + `"},"amount":{"amount":3,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
			a := fx.user.do(req)
			if a.errorCode != code || a.httpCode != fmt.Sprint(a.Status) {
				t.Errorf("status %d, error_code %q, http_code %q; want error_code %q and http_code equal to the status", a.Status, a.errorCode, a.httpCode, code)
			}
			if diff := cmp.Diff(before, goSnapshot(t, fake, fx)); diff != "" {
				t.Errorf("the store changed (-before +after):\n%s", diff)
			}
			// The caller retries with the same idempotency key: one transaction.
			wantGoSuccess(t, fx.user.do(req))
			var created int
			for _, r := range fake.Requests() {
				if r.Method == "POST" && r.Status == http.StatusOK {
					created++
				}
			}
			if created != 1 {
				t.Errorf("%d successful creates, want 1: %v", created, goCalls(fake))
			}
		})
	}
}

func TestGoClientReauthenticates(t *testing.T) {
	t.Parallel()
	const nodes = "/users/{user_id}/nodes"
	const oauth = "/oauth/{user_id}"
	for _, tc := range []struct {
		name string
		// user makes the Go client's user; the fixture's user is registered
		// with testFingerprint.
		user func(t *testing.T, fake *synapsefake.Server, fx goFixture) *goUser
		req  func(fake *synapsefake.Server, fx goFixture) goRequest
		// wantCalls is the journal after the call; wantCode the error_code
		// the caller gets ("" for success).
		wantCalls  []string
		wantCode   string
		wantLooped bool
		// wantNodes is how many nodes the user has afterwards.
		wantNodes int
	}{
		{
			name: "empty key after GetUser: 300, re-auth, the retry succeeds",
			user: func(t *testing.T, fake *synapsefake.Server, fx goFixture) *goUser {
				return goGetUser(t, fake, fx.Fixture.User.ID, testkit.TestFingerprint)
			},
			req: func(_ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath() + "/nodes"}
			},
			wantCalls: []string{"GET " + nodes + " 401/300", "POST " + oauth + " 200/0", "GET " + nodes + " 200/0"},
			wantNodes: 2,
		},
		{
			name: "create node after GetUser: the failed POST changed nothing, the retry with the same key creates one",
			user: func(t *testing.T, fake *synapsefake.Server, fx goFixture) *goUser {
				return goGetUser(t, fake, fx.Fixture.User.ID, testkit.TestFingerprint)
			},
			req: func(_ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.userPath() + "/nodes", idempotencyKey: "go-node-reauth",
					body: `{"type":"DEPOSIT-US","info":{"nickname":"After re-auth"}}`}
			},
			wantCalls: []string{"POST " + nodes + " 401/300", "POST " + oauth + " 200/0", "POST " + nodes + " 200/0"},
			wantNodes: 3,
		},
		{
			name: "scope not granted: the re-auth without scope grants every scope",
			user: func(t *testing.T, fake *synapsefake.Server, fx goFixture) *goUser {
				u := goGetUser(t, fake, fx.Fixture.User.ID, testkit.TestFingerprint)
				if a := u.authenticate(`{"refresh_token":"` + u.refreshToken + `","scope":["NODES|GET"]}`); a.Status != http.StatusOK {
					t.Fatalf("Authenticate: %d %s", a.Status, a.Raw)
				}
				return u
			},
			req: func(_ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "POST", path: fx.userPath() + "/nodes", body: `{"type":"DEPOSIT-US","info":{"nickname":"Scoped"}}`}
			},
			wantCalls: []string{"POST " + nodes + " 401/300", "POST " + oauth + " 200/0", "POST " + nodes + " 200/0"},
			wantNodes: 3,
		},
		{
			name: "expired key: 110 comes back to the caller, no re-auth",
			user: func(t *testing.T, fake *synapsefake.Server, fx goFixture) *goUser {
				u := goGetUser(t, fake, fx.Fixture.User.ID, testkit.TestFingerprint)
				if a := u.authenticate(`{"refresh_token":"` + u.refreshToken + `"}`); a.Status != http.StatusOK {
					t.Fatalf("Authenticate: %d %s", a.Status, a.Raw)
				}
				fake.Advance(2 * time.Hour)
				return u
			},
			req: func(_ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath() + "/nodes"}
			},
			wantCalls: []string{"GET " + nodes + " 401/110"},
			wantCode:  "110",
			wantNodes: 2,
		},
		{
			// The real client recurses without end here: a 300 that a new
			// key cannot cure makes it re-authenticate forever.
			name: "another user's node: 300 again after every re-auth",
			user: func(t *testing.T, fake *synapsefake.Server, fx goFixture) *goUser {
				return fx.user
			},
			req: func(fake *synapsefake.Server, fx goFixture) goRequest {
				u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "stranger"})
				n := fake.MustAddNode(t, u.ID, synapsefake.NodeSeed{})
				fake.ResetRequests()
				return goRequest{method: "GET", path: fx.userPath() + "/nodes/" + n.ID}
			},
			wantCalls: []string{
				"GET " + nodes + "/{node_id} 401/300", "POST " + oauth + " 200/0",
				"GET " + nodes + "/{node_id} 401/300", "POST " + oauth + " 200/0",
				"GET " + nodes + "/{node_id} 401/300", "POST " + oauth + " 200/0",
				"GET " + nodes + "/{node_id} 401/300",
			},
			wantCode:   "300",
			wantLooped: true,
			wantNodes:  2,
		},
		{
			// /oauth answers an invalid fingerprint with error_code "300"
			// (as the spec gives it), which sends the real client's
			// Authenticate into itself without end.
			name: "invalid fingerprint: /oauth answers 300 and the re-auth recurses",
			user: func(t *testing.T, fake *synapsefake.Server, fx goFixture) *goUser {
				u := goGetUser(t, fake, fx.Fixture.User.ID, "bad fingerprint!")
				fake.ResetRequests()
				return u
			},
			req: func(_ *synapsefake.Server, fx goFixture) goRequest {
				return goRequest{method: "GET", path: fx.userPath() + "/nodes"}
			},
			wantCalls: []string{
				"GET " + nodes + " 401/300",
				"POST " + oauth + " 400/300", "POST " + oauth + " 400/300", "POST " + oauth + " 400/300",
			},
			wantCode:   "300",
			wantLooped: true,
			wantNodes:  2,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := newGoFixture(t, fake)
			u := tc.user(t, fake, fx)
			req := tc.req(fake, fx)
			fake.ResetRequests()
			a := u.do(req)
			if a.errorCode != tc.wantCode {
				t.Errorf("error_code %q, want %q: %s", a.errorCode, tc.wantCode, a.Raw)
			}
			if tc.wantCode == "" {
				wantGoSuccess(t, a)
				if !strings.HasPrefix(u.authKey, "oauth_") {
					t.Errorf("the client holds oauth key %q after the re-auth", u.authKey)
				}
			}
			if u.looped != tc.wantLooped {
				t.Errorf("looped %v, want %v", u.looped, tc.wantLooped)
			}
			if diff := cmp.Diff(tc.wantCalls, goCalls(fake)); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if got, _ := fake.User(fx.Fixture.User.ID); len(got.NodeIDs) != tc.wantNodes {
				t.Errorf("user has %d nodes, want %d", len(got.NodeIDs), tc.wantNodes)
			}
		})
	}
}

// TestGoClientReauthKeepsTheRefreshToken walks a refresh token to its last
// use through the Go client's automatic re-auth: the answer that spends it
// carries the new token, which the client stores, so the next re-auth works.
func TestGoClientReauthKeepsTheRefreshToken(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := newGoFixture(t, fake)
	u := goGetUser(t, fake, fx.Fixture.User.ID, testkit.TestFingerprint)
	before, _ := fake.User(u.id)
	for i := range before.RefreshUsesLeft + 2 {
		u.authKey = "" // as after GetUser: every call re-authenticates
		a := u.do(goRequest{method: "GET", path: fx.userPath() + "/nodes"})
		if a.Status != http.StatusOK {
			t.Fatalf("call %d: status %d: %s", i+1, a.Status, a.Raw)
		}
	}
	after, _ := fake.User(u.id)
	if u.refreshToken != after.RefreshToken || u.refreshToken == before.RefreshToken {
		t.Errorf("client holds %q; store has %q (was %q)", u.refreshToken, after.RefreshToken, before.RefreshToken)
	}
}

func TestGoClientMFA(t *testing.T) {
	t.Parallel()
	const phone = "901.111.1111"
	fake := synapsefake.NewServer(t)
	seeded := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "old-device", PhoneNumbers: []string{phone}})
	// Client.GetUser from the new device.
	u := goGetUser(t, fake, seeded.ID, "new-device")

	for _, step := range []struct {
		name string
		body string
		// status and errorCode of the answer; the 202s must carry error.en,
		// or the Go client panics in handleHTTPError (goSend fails the test),
		// except where panics says the real service's answer has none.
		status    int
		errorCode string
		panics    bool
		check     func(t *testing.T, a goAnswer)
	}{
		{
			name:   "RegisterFingerprint: 202 with phone_numbers",
			body:   `{ "refresh_token": "` + u.refreshToken + `" }`,
			status: http.StatusAccepted, errorCode: "10",
			check: func(t *testing.T, a goAnswer) {
				if diff := cmp.Diff([]any{phone}, a.Body["phone_numbers"]); diff != "" {
					t.Errorf("phone_numbers (-want +got):\n%s", diff)
				}
				if a.httpCode != "202" {
					t.Errorf("http_code %q", a.httpCode)
				}
			},
		},
		{
			// No error key, as recorded (SynapsePy raises on one): Select2FA
			// panics in handleHTTPError, a bug of the Go client.
			name:   "Select2FA: 202, the code is sent",
			body:   `{ "refresh_token": "` + u.refreshToken + `", "phone_number": "` + phone + `" }`,
			status: http.StatusAccepted, errorCode: "10", panics: true,
			check: func(t *testing.T, a goAnswer) {
				if a.Body["success"] != true || a.httpCode != "202" {
					t.Errorf("success %v, http_code %q; want true, 202", a.Body["success"], a.httpCode)
				}
			},
		},
		{
			name:   "VerifyPIN: 200 with an oauth_key, the fingerprint is registered",
			body:   `{ "refresh_token": "` + u.refreshToken + `", "validation_pin": "123456" }`,
			status: http.StatusOK,
			check: func(t *testing.T, a goAnswer) {
				if k, _ := a.Body["oauth_key"].(string); !strings.HasPrefix(k, "oauth_") {
					t.Errorf("oauth_key %q", k)
				}
				got, _ := fake.User(seeded.ID)
				if !slices.Contains(got.Fingerprints, "new-device") {
					t.Errorf("fingerprints %v lack new-device", got.Fingerprints)
				}
			},
		},
	} {
		if !t.Run(step.name, func(t *testing.T) {
			u.t = t
			// RegisterFingerprint, Select2FA and VerifyPIN call do directly;
			// none of them stores the oauth_key.
			a := u.do(goRequest{method: "POST", path: "/oauth/" + u.id, body: step.body, panics: step.panics})
			if a.Status != step.status || a.errorCode != step.errorCode {
				t.Fatalf("status %d error_code %q, want %d %q: %s", a.Status, a.errorCode, step.status, step.errorCode, a.Raw)
			}
			step.check(t, a)
		}) {
			return
		}
	}

	t.Run("the next user call re-authenticates from the new device", func(t *testing.T) {
		u.t = t
		fake.ResetRequests()
		a := u.do(goRequest{method: "GET", path: "/users/" + u.id + "/nodes"})
		wantGoSuccess(t, a)
		want := []string{"GET /users/{user_id}/nodes 401/300", "POST /oauth/{user_id} 200/0", "GET /users/{user_id}/nodes 200/0"}
		if diff := cmp.Diff(want, goCalls(fake)); diff != "" {
			t.Errorf("calls (-want +got):\n%s", diff)
		}
	})
}
