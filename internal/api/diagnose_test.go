package api_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// diagEnv is a server whose test is a recordingTB, with two users: A (the
// fixture, 50.00 USD on its checking node and a savings node) and B (a
// node, a subnet, and a transaction between B's nodes).
type diagEnv struct {
	fake    *synapsefake.Server
	rec     *testkit.RecordingTB
	a       testkit.Fixture
	savings synapsefake.Node
	b       testkit.Fixture
	bSubnet string
	bTx     string
}

func newDiagEnv(t *testing.T, opts ...synapsefake.Option) diagEnv {
	t.Helper()
	rec := &testkit.RecordingTB{TB: t}
	t.Cleanup(rec.End)
	fake := synapsefake.NewServer(rec, opts...)
	e := diagEnv{fake: fake, rec: rec, a: testkit.NewFixture(t, fake, 50_00)}
	e.savings = fake.MustAddNode(t, e.a.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	e.b = testkit.NewFixture(t, fake, 10_00)
	bSavings := fake.MustAddNode(t, e.b.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	sn, err := fake.AddSubnet(e.b.User.ID, e.b.Node.ID, synapsefake.SubnetSeed{Nickname: "Card"})
	if err != nil {
		t.Fatal(err)
	}
	e.bSubnet = sn.ID
	e.bTx = e.transfer(t, e.b, bSavings, 1)
	if logs := rec.Logged(); len(logs) > 0 {
		t.Fatalf("setup logged %q", logs)
	}
	return e
}

// transfer creates a transaction of amount USD from fx's node to node to.
func (e diagEnv) transfer(t *testing.T, fx testkit.Fixture, to synapsefake.Node, amount float64) string {
	t.Helper()
	r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/trans", Header: fx.Headers,
		Body: testkit.TxBody(to, amount)})
	if r.Status != http.StatusOK {
		t.Fatalf("create transaction: %d %s", r.Status, r.Raw)
	}
	return r.Body["_id"].(string)
}

// withHeader returns h with the header k set to v, or removed when v is nil.
func withHeader(h map[string]string, k string, v *string) map[string]string {
	out := make(map[string]string, len(h))
	for hk, hv := range h {
		if hk != k {
			out[hk] = hv
		}
	}
	if v != nil {
		out[k] = *v
	}
	return out
}

func strp(s string) *string { return &s }

// TestDiagnostics triggers each refusal whose reason the fake knows and
// reads the one line the test's log gets: the route, the answer, the
// reason and, for the usual mistakes, the hint. The journal keeps the same
// reason.
func TestDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		opts      []synapsefake.Option
		call      func(t *testing.T, e diagEnv) testkit.Call
		status    int
		errorCode string
		line      func(e diagEnv) []string // the parts the logged line must hold, in order
	}{
		{"missing gateway", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users", Header: withHeader(testkit.GatewayHeaders(e.fake), "X-SP-GATEWAY", nil), Body: userBody(nil)}
		}, 400, "100", func(diagEnv) []string {
			return []string{`POST /users -> 400 error_code "100" missing_client_credentials: Missing client credentials (X-SP-GATEWAY).`,
				`(hint: send X-SP-GATEWAY: "<client_id>|<client_secret>"; fake.Gateway() is this fake's)`}
		}},
		{"gateway of another client", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users", Header: withHeader(testkit.GatewayHeaders(e.fake), "X-SP-GATEWAY", strp("client_other|"+e.fake.ClientSecret())), Body: userBody(nil)}
		}, 401, "100", func(e diagEnv) []string {
			return []string{`invalid_client_credentials: X-SP-GATEWAY's client_id "client_other" is not this fake's ("` + e.fake.ClientID() + `")`, `(hint: send X-SP-GATEWAY`}
		}},
		{"wrong client secret", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users", Header: withHeader(testkit.GatewayHeaders(e.fake), "X-SP-GATEWAY", strp(e.fake.ClientID()+"|not-the-secret")), Body: userBody(nil)}
		}, 401, "100", func(diagEnv) []string {
			return []string{`X-SP-GATEWAY's client_secret is not this fake's (hint: send X-SP-GATEWAY`}
		}},
		{"gateway without its pipe", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users", Header: withHeader(testkit.GatewayHeaders(e.fake), "X-SP-GATEWAY", strp("just-a-secret")), Body: userBody(nil)}
		}, 401, "100", func(diagEnv) []string {
			return []string{`X-SP-GATEWAY has no "|" between the client_id and the client_secret (hint:`}
		}},
		{"missing X-SP-USER", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes", Header: withHeader(e.a.Headers, "X-SP-USER", nil)}
		}, 400, "200", func(e diagEnv) []string {
			return []string{`GET /users/{user_id}/nodes -> 400 error_code "200" missing_user_credentials: Missing user credentials (X-SP-USER).`,
				`(hint: send X-SP-USER: "<oauth_key>|<fingerprint>" ("|<fingerprint>" alone for POST /users and POST /oauth/{user_id}))`}
		}},
		{"no oauth_key before the pipe", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes", Header: withHeader(e.a.Headers, "X-SP-USER", strp("|"+testkit.TestFingerprint))}
		}, 401, "300", func(diagEnv) []string {
			return []string{`missing_oauth_key: X-SP-USER has nothing before "|" (hint: get a key from POST /oauth/{user_id} with the user's refresh_token, or fake.OAuthKey(userID, fingerprint))`}
		}},
		{"X-SP-USER without its pipe", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes", Header: withHeader(e.a.Headers, "X-SP-USER", strp(e.a.Key))}
		}, 401, "120", func(diagEnv) []string {
			return []string{`unauthorized_fingerprint: X-SP-USER has no "|": it is "<oauth_key>|<fingerprint>" (hint: send X-SP-USER:`}
		}},
		{"missing X-SP-USER-IP", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users/" + e.a.User.ID + "/nodes/" + e.a.Node.ID + "/trans", Header: withHeader(e.a.Headers, "X-SP-USER-IP", nil),
				Body: testkit.TxBody(e.savings, 1)}
		}, 400, "200", func(diagEnv) []string {
			return []string{`missing_user_ip: Missing user IP address (X-SP-USER-IP). (hint: send X-SP-USER-IP with the IP of the user's device, e.g. 127.0.0.1)`}
		}},
		{"another device's fingerprint", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes", Header: withHeader(e.a.Headers, "X-SP-USER", strp(e.a.Key+"|laptop-2"))}
		}, 401, "120", func(diagEnv) []string {
			return []string{`unauthorized_fingerprint: the oauth_key was issued to fingerprint "test-fingerprint"; X-SP-USER sends "laptop-2"`,
				`(hint: a key works only with the fingerprint it was issued to; to use another device, register it: fake.OAuthKey(userID, fingerprint), UserSeed.Fingerprint, or the MFA flow of POST /oauth/{user_id})`}
		}},
		{"fingerprint not registered for the user", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/oauth/" + e.a.User.ID, Header: withHeader(testkit.GatewayHeaders(e.fake), "X-SP-USER", strp("|laptop-2")),
				Body: map[string]any{"refresh_token": e.a.User.RefreshToken}}
		}, 202, "10", func(e diagEnv) []string {
			return []string{`POST /oauth/{user_id} -> 202 error_code "10": the fingerprint "laptop-2" is not registered for user ` + e.a.User.ID,
				`(hint: register the device first (fake.OAuthKey(userID, fingerprint) or UserSeed.Fingerprint), or walk the MFA: phone_number, then validation_pin)`}
		}},
		{"malformed fingerprint", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users", Header: withHeader(testkit.GatewayHeaders(e.fake), "X-SP-USER", strp("|my laptop")), Body: userBody(nil)}
		}, 400, "300", func(diagEnv) []string {
			return []string{`invalid_fingerprint: the fingerprint "my laptop" is not 1 to 256 letters, digits, '-', '_' or '.' (hint: send X-SP-USER:`}
		}},
		{"key expired by Advance", nil, func(t *testing.T, e diagEnv) testkit.Call {
			e.fake.Advance(2*time.Hour + 90*time.Second)
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes", Header: e.a.Headers}
		}, 401, "110", func(diagEnv) []string {
			return []string{`GET /users/{user_id}/nodes -> 401 error_code "110" invalid_oauth_key: the oauth_key expired 1m30s ago by the fake's clock`,
				`(hint: keys live WithOAuthKeyLifetime (7200s by default) of fake time, and Advance moves it; renew the key: get a key from POST /oauth/{user_id}`}
		}},
		{"key expired under WithOAuthKeyLifetime", []synapsefake.Option{synapsefake.WithOAuthKeyLifetime(time.Minute)}, func(t *testing.T, e diagEnv) testkit.Call {
			e.fake.Advance(time.Hour)
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes", Header: e.a.Headers}
		}, 401, "110", func(diagEnv) []string {
			return []string{`invalid_oauth_key: the oauth_key expired 59m0s ago by the fake's clock`, `WithOAuthKeyLifetime`}
		}},
		{"key this fake never issued", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes", Header: testkit.UserHeaders(e.fake, "oauth_0123456789abcdef")}
		}, 401, "110", func(diagEnv) []string {
			return []string{`invalid_oauth_key: this fake never issued the oauth_key oauth_012345… (or it expired long ago) (hint: a key of another fake, or of an earlier test, is unknown here;`}
		}},
		{"key of another user", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.b.User.ID + "/nodes", Header: e.a.Headers}
		}, 401, "300", func(e diagEnv) []string {
			return []string{`unauthorized_user: the oauth_key is user ` + e.a.User.ID + `'s; the path names user ` + e.b.User.ID,
				`(hint: use a key of user ` + e.b.User.ID + `: fake.OAuthKey("` + e.b.User.ID + `", fingerprint) or POST /oauth/` + e.b.User.ID + `)`}
		}},
		{"scope not granted", nil, func(t *testing.T, e diagEnv) testkit.Call {
			key := e.fake.OAuthKey(e.a.User.ID, testkit.TestFingerprint, "USER|GET")
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes", Header: testkit.UserHeaders(e.fake, key)}
		}, 401, "300", func(diagEnv) []string {
			return []string{`scope_not_granted: this route needs the scope NODES|GET; the oauth_key has USER|GET (hint: ask for the scope`}
		}},
		{"node of another user", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes/" + e.b.Node.ID, Header: e.a.Headers}
		}, 401, "300", func(e diagEnv) []string {
			return []string{`GET /users/{user_id}/nodes/{node_id} -> 401 error_code "300" unauthorized_node: node ` + e.b.Node.ID + ` is user ` + e.b.User.ID + `'s, not user ` + e.a.User.ID + `'s`,
				`(hint: a node is reached under its owner: /users/` + e.b.User.ID + `/nodes/` + e.b.Node.ID + `, with that user's key)`}
		}},
		{"transaction of another user", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes/" + e.a.Node.ID + "/trans/" + e.bTx, Header: e.a.Headers}
		}, 401, "300", func(e diagEnv) []string {
			return []string{`unauthorized_transaction: transaction ` + e.bTx + ` is from user ` + e.b.User.ID + `'s node ` + e.b.Node.ID,
				`none of them user ` + e.a.User.ID + `'s (hint: read a transaction under its sender's or its receiver's path)`}
		}},
		{"subnet of another user", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes/" + e.a.Node.ID + "/subnets/" + e.bSubnet, Header: e.a.Headers}
		}, 401, "300", func(e diagEnv) []string {
			return []string{`unauthorized_subnet: subnet ` + e.bSubnet + ` is user ` + e.b.User.ID + `'s, not user ` + e.a.User.ID + `'s`,
				`(hint: a subnet is reached under its owner: /users/` + e.b.User.ID + `/nodes/` + e.b.Node.ID + `/subnets/` + e.bSubnet + `)`}
		}},
		{"unknown node", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID + "/nodes/000000000000000000000000", Header: e.a.Headers}
		}, 404, "404", func(diagEnv) []string {
			return []string{`unable_to_locate_node: no node 000000000000000000000000 in this fake`}
		}},
		{"insufficient funds with pending debits", []synapsefake.Option{synapsefake.WithFundsCheck()}, func(t *testing.T, e diagEnv) testkit.Call {
			e.transfer(t, e.a, e.savings, 30)
			return testkit.Call{Method: "POST", Path: "/users/" + e.a.User.ID + "/nodes/" + e.a.Node.ID + "/trans", Header: e.a.Headers, Body: testkit.TxBody(e.savings, 30)}
		}, 409, "400", func(e diagEnv) []string {
			return []string{`insufficient_funds: node ` + e.a.Node.ID + ` has 20.00 USD available, 10.00 USD short of this 30.00 USD debit: balance 50.00 less 30.00 held by pending debits (`,
				`: 30.00, CREATED) (hint: fund the node (fake.Fund, NodeSeed.BalanceCents), or let the pending debits settle or cancel them)`}
		}},
		{"idempotency key used with another body", nil, func(t *testing.T, e diagEnv) testkit.Call {
			h := withHeader(e.a.Headers, "X-SP-IDEMPOTENCY-KEY", strp("order-7"))
			if r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: "/users/" + e.a.User.ID + "/nodes/" + e.a.Node.ID + "/trans", Header: h, Body: testkit.TxBody(e.savings, 1)}); r.Status != 200 {
				t.Fatalf("first use: %d %s", r.Status, r.Raw)
			}
			e.fake.Advance(time.Minute)
			return testkit.Call{Method: "POST", Path: "/users/" + e.a.User.ID + "/nodes/" + e.a.Node.ID + "/trans", Header: h, Body: testkit.TxBody(e.savings, 2)}
		}, 409, "450", func(diagEnv) []string {
			return []string{`idempotency_key_in_use: X-SP-IDEMPOTENCY-KEY "order-7" was taken by a successful POST to this path 1m0s ago by the fake's clock, with another body: {"amount":{"amount":1,`,
				`(hint: a key stays taken for 24h after its 200 and the service does not replay the first answer: a retry gets 409 too; a new operation needs a new key)`}
		}},
		{"idempotency key used with the same body", nil, func(t *testing.T, e diagEnv) testkit.Call {
			h := withHeader(e.a.Headers, "X-SP-IDEMPOTENCY-KEY", strp("order-8"))
			c := testkit.Call{Method: "POST", Path: "/users/" + e.a.User.ID + "/nodes/" + e.a.Node.ID + "/trans", Header: h, Body: testkit.TxBody(e.savings, 1)}
			if r := testkit.Do(t, e.fake, c); r.Status != 200 {
				t.Fatalf("first use: %d %s", r.Status, r.Raw)
			}
			return c
		}, 409, "450", func(diagEnv) []string {
			return []string{`"order-8" was taken by a successful POST to this path 0s ago by the fake's clock, with the same body (hint: a key stays taken`}
		}},
		{"version prefix doubled", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "/v3.1/users", Header: testkit.GatewayHeaders(e.fake)}
		}, 404, "404", func(diagEnv) []string {
			return []string{"GET /v3.1/v3.1/users -> 404 error_code \"404\" not_found: no route of the API matches GET /v3.1/v3.1/users: did you mean `GET /users`? (hint: the /v3.1 prefix is doubled: fake.URL() already ends with it)"}
		}},
		{"path not clean, refused before the journal", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: "//users", Header: testkit.GatewayHeaders(e.fake)}
		}, 404, "404", func(diagEnv) []string {
			return []string{"GET /v3.1//users -> 404 error_code \"404\" not_found: the path /v3.1//users is not clean (// . or ..): did you mean `GET /users`? (hint: join the path to fake.URL() with one /)"}
		}},
		{"method the route does not serve", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "PUT", Path: "/users", Header: testkit.GatewayHeaders(e.fake), Body: userBody(nil)}
		}, 409, "410", func(diagEnv) []string {
			return []string{"PUT /users -> 409 error_code \"410\" method_not_allowed: the route serves GET, POST, not PUT: did you mean `POST /users` or `GET /users`?"}
		}},
		{"refresh token used up by the 10th OAuth call", nil, func(t *testing.T, e diagEnv) testkit.Call {
			c := testkit.Call{Method: "POST", Path: "/oauth/" + e.a.User.ID, Header: e.a.Headers,
				Body: map[string]any{"refresh_token": e.a.User.RefreshToken}}
			for i := range 10 {
				r := testkit.Do(t, e.fake, c)
				if left := r.Body["refresh_expires_in"]; r.Status != 200 || left != float64(9-i) {
					t.Fatalf("OAuth call %d: %d, refresh_expires_in %v: %s", i+1, r.Status, left, r.Raw)
				}
			}
			return c
		}, 409, "400", func(e diagEnv) []string {
			return []string{`POST /oauth/{user_id} -> 409 error_code "400" invalid_refresh_token: this refresh_token was user ` + e.a.User.ID +
				`'s until its 10th OAuth call used it up; that answer carried the new one (hint: a refresh token is good for 10 OAuth calls and ` +
				`the 10th answer (refresh_expires_in 0) carries its successor: keep refresh_token from each POST /oauth/{user_id} answer, ` +
				`or read the current one from GET /users/{user_id} or fake.User(userID)'s RefreshToken)`}
		}},
		{"refresh token of another user", nil, func(t *testing.T, e diagEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/oauth/" + e.a.User.ID, Header: e.a.Headers,
				Body: map[string]any{"refresh_token": e.b.User.RefreshToken}}
		}, 409, "400", func(e diagEnv) []string {
			return []string{`POST /oauth/{user_id} -> 409 error_code "400" invalid_refresh_token: Invalid refresh_token.`}
		}},
		{"FailNext", nil, func(t *testing.T, e diagEnv) testkit.Call {
			e.fake.FailNext("GET", "/users/{user_id}", "503", 1)
			return testkit.Call{Method: "GET", Path: "/users/" + e.a.User.ID, Header: e.a.Headers}
		}, 503, "503", func(diagEnv) []string {
			return []string{`GET /users/{user_id} -> 503 error_code "503" injected_failure: FailNext("GET", "/users/{user_id}", "503", 1) injected this answer`}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newDiagEnv(t, tc.opts...)
			c := tc.call(t, e)
			r := testkit.Do(t, e.fake, c)
			if r.Status != tc.status || r.Body["error_code"] != tc.errorCode {
				t.Fatalf("answer %d / %v, want %d / %q: %s", r.Status, r.Body["error_code"], tc.status, tc.errorCode, r.Raw)
			}
			logs := e.rec.Logged()
			if len(logs) != 1 {
				t.Fatalf("logged %d lines, want 1: %q", len(logs), logs)
			}
			line := logs[0]
			if !strings.HasPrefix(line, "synapsefake: ") {
				t.Errorf("line %q does not start with synapsefake:", line)
			}
			rest := line
			for _, part := range tc.line(e) {
				i := strings.Index(rest, part)
				if i < 0 {
					t.Errorf("line lacks %q (in order):\n%s", part, line)
					break
				}
				rest = rest[i+len(part):]
			}
			reqs := e.fake.Requests()
			last := reqs[len(reqs)-1]
			switch {
			case strings.Contains(c.Path, "//"): // refused before the journal sees it
				if last.Path == "/v3.1"+c.Path {
					t.Errorf("journaled %v, want it refused before the journal", last)
				}
			case !strings.HasSuffix(line, ": "+last.Reason) || last.Reason == "":
				t.Errorf("journal's reason %q, want the end of the line %q", last.Reason, line)
			}
			if strings.Contains(line, e.fake.ClientSecret()) || strings.Contains(line, "not-the-secret") {
				t.Errorf("the line shows a secret: %s", line)
			}
		})
	}
}

// TestDiagnosticsQuietWhenNothingIsRefused: a test whose calls all succeed
// logs nothing, during the test or at its end.
func TestDiagnosticsQuietWhenNothingIsRefused(t *testing.T) {
	t.Parallel()
	rec := &testkit.RecordingTB{TB: t}
	fake := synapsefake.NewServer(rec)
	fx := testkit.NewFixture(t, fake, 50_00)
	savings := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	for _, c := range []testkit.Call{
		{Method: "POST", Path: "/oauth/" + fx.User.ID, Header: testkit.GatewayHeaders(fake), Body: map[string]any{"refresh_token": fx.User.RefreshToken}},
		{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/trans", Header: fx.Headers, Body: testkit.TxBody(savings, 5)},
		{Method: "GET", Path: "/users/" + fx.User.ID + "/nodes", Header: fx.Headers},
	} {
		if r := testkit.Do(t, fake, c); r.Status != http.StatusOK {
			t.Fatalf("%s %s: %d %s", c.Method, c.Path, r.Status, r.Raw)
		}
	}
	rec.End()
	if logs := rec.Logged(); len(logs) > 0 {
		t.Errorf("logged %q, want nothing", logs)
	}
}

// TestDiagnosticsListTheLastCallsWhenTheTestFails: at the end of a failed
// test, the log gets the last 20 calls, oldest first, with their answers
// and reasons, secrets redacted and bodies cut.
func TestDiagnosticsListTheLastCallsWhenTheTestFails(t *testing.T) {
	t.Parallel()
	rec := &testkit.RecordingTB{TB: t}
	fake := synapsefake.NewServer(rec, synapsefake.WithoutWebhookDelivery())
	fx := testkit.NewFixture(t, fake, 50_00)
	for i := range 24 {
		testkit.Do(t, fake, testkit.Call{Method: "GET", Path: fmt.Sprintf("/users/%s?call=%d", fx.User.ID, i), Header: fx.Headers})
	}
	testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/oauth/" + fx.User.ID, Header: testkit.GatewayHeaders(fake),
		Body: map[string]any{"refresh_token": fx.User.RefreshToken, "note": strings.Repeat("x", 500)}})
	testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID + "/nodes/000000000000000000000000", Header: fx.Headers})
	before := len(rec.Logged())
	rec.End() // not failed: nothing more
	if got := len(rec.Logged()); got != before {
		t.Fatalf("a passing test's end logged %d lines", got-before)
	}

	rec = &testkit.RecordingTB{TB: t}
	fake = synapsefake.NewServer(rec)
	fx = testkit.NewFixture(t, fake, 50_00)
	for i := range 24 {
		testkit.Do(t, fake, testkit.Call{Method: "GET", Path: fmt.Sprintf("/users/%s?call=%d", fx.User.ID, i), Header: fx.Headers})
	}
	testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/oauth/" + fx.User.ID, Header: testkit.GatewayHeaders(fake),
		Body: map[string]any{"refresh_token": fx.User.RefreshToken, "note": strings.Repeat("x", 500)}})
	testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID + "/nodes/000000000000000000000000", Header: fx.Headers})
	fake.Close() // a server closed before the test ends still lists its calls
	rec.Errorf("the test failed")
	before = len(rec.Logged())
	rec.End()
	logs := rec.Logged()
	if len(logs) != before+1 {
		t.Fatalf("the end of a failed test logged %d entries, want 1: %q", len(logs)-before, logs[before:])
	}
	lines := strings.Split(logs[before], "\n")
	if want := "synapsefake: the test failed; the last 20 of the 26 requests in the journal, oldest first:"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if len(lines) != 21 {
		t.Fatalf("%d calls listed, want 20:\n%s", len(lines)-1, logs[before])
	}
	if want := "  GET /v3.1/users/" + fx.User.ID + "?call=6 -> 200/0"; lines[1] != want {
		t.Errorf("oldest listed %q, want %q", lines[1], want)
	}
	oauth := lines[19]
	if !strings.HasPrefix(oauth, "  POST /v3.1/oauth/"+fx.User.ID+` -> 200/0 body={"note":"xxx`) || !strings.HasSuffix(oauth, "…") || strings.Contains(oauth, fx.User.RefreshToken) {
		t.Errorf("the oauth call, its body cut and its refresh token redacted: %q", oauth)
	}
	if want := "  GET /v3.1/users/" + fx.User.ID + "/nodes/000000000000000000000000 -> 404/404: no node 000000000000000000000000 in this fake"; lines[20] != want {
		t.Errorf("newest listed %q, want %q", lines[20], want)
	}
}

// TestWithLog: WithLog takes the lines from the test's log; New logs only
// through WithLog; WithoutDiagnostics silences both the lines and the list
// of a failed test, while the journal keeps the reason.
func TestWithLog(t *testing.T) {
	t.Parallel()
	refuse := func(t *testing.T, fake *synapsefake.Server) {
		t.Helper()
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/000000000000000000000000", Header: testkit.GatewayHeaders(fake)})
		testkit.WantError(t, r, http.StatusNotFound, "404", "unable_to_locate_user")
		if reqs := fake.Requests(); reqs[len(reqs)-1].Reason != "no user 000000000000000000000000 in this fake" {
			t.Errorf("journal's reason %q", reqs[len(reqs)-1].Reason)
		}
	}
	const want = `synapsefake: GET /users/{user_id} -> 404 error_code "404" unable_to_locate_user: no user 000000000000000000000000 in this fake`

	t.Run("NewServer with WithLog", func(t *testing.T) {
		rec := &testkit.RecordingTB{TB: t}
		var b strings.Builder
		fake := synapsefake.NewServer(rec, synapsefake.WithLog(log.New(&b, "", 0).Printf))
		refuse(t, fake)
		if got := strings.TrimSpace(b.String()); got != want {
			t.Errorf("WithLog got %q, want %q", got, want)
		}
		if logs := rec.Logged(); len(logs) > 0 {
			t.Errorf("the test's log got %q, want nothing", logs)
		}
	})
	t.Run("New without WithLog", func(t *testing.T) {
		refuse(t, synapsefake.New()) // nowhere to log: nothing to see but the journal
	})
	t.Run("New with WithLog", func(t *testing.T) {
		var lines []string
		fake := synapsefake.New(synapsefake.WithLog(func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }))
		refuse(t, fake)
		if len(lines) != 1 || lines[0] != want {
			t.Errorf("lines %q, want [%q]", lines, want)
		}
	})
	t.Run("WithoutDiagnostics", func(t *testing.T) {
		rec := &testkit.RecordingTB{TB: t}
		fake := synapsefake.NewServer(rec, synapsefake.WithoutDiagnostics())
		refuse(t, fake)
		rec.Errorf("the test failed")
		rec.End()
		if logs := rec.Logged(); len(logs) > 0 {
			t.Errorf("logged %q, want nothing", logs)
		}
	})
}

// TestRefusalReasonOnTheDashboard: GET /_fake/requests and the dashboard's
// requests page show why a call was refused.
func TestRefusalReasonOnTheDashboard(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithoutDiagnostics())
	testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/000000000000000000000000", Header: testkit.GatewayHeaders(fake)})
	got := testkit.CtlOK(t, fake, "GET", "/requests", nil)
	reqs := got["requests"].([]any)
	if reason := reqs[0].(map[string]any)["reason"]; reason != "no user 000000000000000000000000 in this fake" {
		t.Errorf("GET /_fake/requests reason %v", reason)
	}
	resp, err := fake.Client().Get(testkit.CtlRoot(fake) + "/_fake/ui/requests")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page strings.Builder
	if _, err := io.Copy(&page, resp.Body); err != nil {
		t.Fatal(err)
	}
	if want := `<p class="reason">Answered 404 / error_code 404: no user 000000000000000000000000 in this fake</p>`; !strings.Contains(page.String(), want) {
		t.Errorf("the requests page lacks %q", want)
	}
}
