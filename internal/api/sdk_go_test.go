package api_test

// These tests keep what the SynapseGo harness (compat/go: checks.go,
// harness.go, recipe_test.go) checked once that harness is gone: each row of
// TestSDKGoHarnessChecks is one of its checks that no other test of this
// package sent and asserted in full, the request as SynapseGo sends it
// (goSend, goclient_test.go) and the answer as the harness read it. A
// success is exactly 200 with success true when present and the fields the
// harness named; an error is the status, error_code, http_code equal to the
// status and a non-empty error.en that SynapseGo's error types carry.

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

	"github.com/synapsefake/synapsefake"
)

// sdkGoDoc is the document id of SynapseGo's examples.
const sdkGoDoc = "2a4a5957a3a62aaac1a0dd0edcae96ea2cdee688ec6337b20745eed8869e3ac8"

// sdkGoEnv is goMethodEnv with its ACH-US node made as the harness made it
// (CreateNode by account and routing number), and the id a row's setup made.
type sdkGoEnv struct {
	*goMethodEnv
	id string
}

func newSDKGoEnv(t *testing.T, fake *synapsefake.Server) *sdkGoEnv {
	t.Helper()
	e := &sdkGoEnv{goMethodEnv: newGoMethodEnv(t, fake)}
	a := e.user.do(goRequest{method: "POST", path: e.userPath() + "/nodes",
		body: `{"type":"ACH-US","info":{"nickname":"Fake Account","account_num":"1232225674134","routing_num":"051000017","type":"PERSONAL","class":"CHECKING"}}`})
	id, _ := sdkGoLookup(a.Body, "nodes.0._id")
	var ok bool
	if e.ach, ok = fake.Node(fmt.Sprint(id)); a.Status != http.StatusOK || !ok {
		t.Fatalf("create ACH-US: %d %s", a.Status, a.Raw)
	}
	fake.ResetRequests()
	return e
}

// mustDo sends req as the user and fails the test unless the answer is
// status; it returns the answer.
func (e *sdkGoEnv) mustDo(t *testing.T, status int, req goRequest) goAnswer {
	t.Helper()
	a := e.user.do(req)
	if a.Status != status {
		t.Fatalf("setup %s %s: status %d, want %d: %s", req.method, req.path, a.Status, status, a.Raw)
	}
	return a
}

// bankLogin links a node by bank login as the harness did (CreateNode with
// the example's credentials, then SubmitMFA) and returns its id.
func (e *sdkGoEnv) bankLogin(t *testing.T) string {
	t.Helper()
	a := e.mustDo(t, http.StatusAccepted, goRequest{method: "POST", path: e.userPath() + "/nodes",
		body: `{"type":"ACH-US","info":{"bank_id":"synapse_good","bank_pw":"test1234","bank_name":"fake"}}`, panics: true})
	token, _ := sdkGoLookup(a.Body, "mfa.access_token")
	a = e.mustDo(t, http.StatusOK, goRequest{method: "POST", path: e.userPath() + "/nodes",
		body: `{"access_token":"` + fmt.Sprint(token) + `","mfa_answer":"test_answer"}`})
	id, _ := sdkGoLookup(a.Body, "nodes.0._id")
	return fmt.Sprint(id)
}

// oauth is a POST /oauth/{user_id} as RegisterFingerprint, Select2FA and
// VerifyPIN send it from the new device: the refresh token, extra fields
// appended, and no oauth key.
func (e *sdkGoEnv) oauth(extra string) goRequest {
	return goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, fingerprint: goNewFingerprint, body: e.goRefresh(extra)}
}

// register is RegisterFingerprint from the new device; it returns the first
// device the 202 lists.
func (e *sdkGoEnv) register(t *testing.T) string {
	t.Helper()
	a := goSend(t, e.fake(), e.oauth(""))
	phones, _ := a.Body["phone_numbers"].([]any)
	if a.Status != http.StatusAccepted || len(phones) == 0 {
		t.Fatalf("RegisterFingerprint: %d %s", a.Status, a.Raw)
	}
	return fmt.Sprint(phones[0])
}

// sdkGoLookup reads a dotted path ("nodes.0._id") in a decoded JSON value,
// as the harness's lookup did.
func sdkGoLookup(v any, path string) (any, bool) {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				return nil, false
			}
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// sdkGoStrings reads a list of strings at a dotted path.
func sdkGoStrings(v any, path string) []string {
	x, _ := sdkGoLookup(v, path)
	list, _ := x.([]any)
	var out []string
	for _, s := range list {
		if s, ok := s.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// sdkGoAtLeast checks that the number at path is at least min.
func sdkGoAtLeast(t *testing.T, a goAnswer, path string, min float64) {
	t.Helper()
	n, _ := sdkGoLookup(a.Body, path)
	if f, ok := n.(float64); !ok || f < min {
		t.Errorf("%s %v, want at least %v: %s", path, n, min, a.Raw)
	}
}

// sdkGoFaults are the error codes the harness injected on GET /nodes/types,
// each with the status SynapseGo's error type for it reads.
var sdkGoFaults = []struct {
	code   string
	status int
	sdk    string // SynapseGo's error type
}{
	{"10", 202, "ActionPending"}, {"100", 401, "IncorrectClientCredentials"}, {"110", 401, "IncorrectUserCredentials"},
	{"120", 401, "UnauthorizedFingerprint"}, {"200", 400, "PayloadError"}, {"300", 401, "UnauthorizedAction"},
	{"400", 409, "IncorrectValues"}, {"404", 404, "ObjectNotFound"}, {"410", 409, "ActionNotAllowed"},
	{"429", 429, "TooManyRequests"}, {"450", 409, "IdempotencyConflict"}, {"460", 402, "RequestFailed"},
	{"500", 500, "ServerError"}, {"503", 503, "ServiceUnavailable"}, {"504", 504, "ServerTimeout"},
}

// sdkGoRow is one harness check.
type sdkGoRow struct {
	name  string // SynapseGo's method, then what the check sent
	auth  goAuth // goAuthUser: User.do; otherwise goSend as the request is
	setup func(t *testing.T, e *sdkGoEnv)
	req   func(e *sdkGoEnv) goRequest
	// send, when set, sends req instead (a flow of more than one call).
	send func(t *testing.T, e *sdkGoEnv, req goRequest) goAnswer
	// status and errorCode are what the harness required; errorCode "" is a
	// 200.
	status    int
	errorCode string
	fields    []string                         // dotted paths a 200 carries
	want      func(e *sdkGoEnv) map[string]any // dotted path: value
	header    map[string]string                // on the request the fake received last
	query     string                           // the query the fake received last, encoded
	check     func(t *testing.T, e *sdkGoEnv, a goAnswer)
}

func TestSDKGoHarnessChecks(t *testing.T) {
	t.Parallel()
	rows := []sdkGoRow{
		// clientChecks
		{name: "Client.VerifyAddress/the example", auth: goAuthClient, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: "/address-verification", body: `{
  "address_street": "170 St Germain St",
  "address_city": "SF",
  "address_subdivision": "CA",
  "address_country_code": "US",
  "address_postal_code": "94404"
}`}
		}, status: 200, fields: []string{"deliverability", "normalized_address"}},
		{name: "Client.VerifyRoutingNumber/12345", auth: goAuthClient, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: "/routing-number-verification", body: `{"routing_num": "12345", "type": "ACH-US"}`}
		}, status: 409, errorCode: "400"},
		{name: "Client.CreateSubscription/the example with its idempotency key", auth: goAuthClient, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: "/subscriptions", idempotencyKey: "123456789", body: `{
  "scope": ["USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH", "TRANS|POST", "TRAN|PATCH"],
  "url": "https://requestb.in/zp216zzp"
}`}
		}, status: 200, fields: []string{"_id", "scope", "is_active"},
			want:   func(*sdkGoEnv) map[string]any { return map[string]any{"url": "https://requestb.in/zp216zzp"} },
			header: map[string]string{"X-Sp-Idempotency-Key": "123456789"}},
		{name: "Client.CreateSubscription/the same key again", auth: goAuthClient, setup: func(t *testing.T, e *sdkGoEnv) {
			a := goSend(t, e.fake(), goRequest{method: "POST", path: "/subscriptions", idempotencyKey: "123456789", fingerprint: testkit.TestFingerprint,
				body: `{"scope":["USERS|POST","USER|PATCH","NODES|POST","NODE|PATCH","TRANS|POST","TRAN|PATCH"],"url":"https://requestb.in/zp216zzp"}`})
			if a.Status != http.StatusOK {
				t.Fatalf("first CreateSubscription: %d %s", a.Status, a.Raw)
			}
		}, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: "/subscriptions", idempotencyKey: "123456789", body: `{"scope":["USERS|POST"],"url":"https://requestb.in/other"}`}
		}, status: 409, errorCode: "450"},
		{name: "Client.New with a wrong secret/GetUsers", auth: goAuthClient, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: "/users", edit: func(h http.Header) {
				h["X-Sp-Gateway"] = []string{e.fake().ClientID() + "|wrong_secret"}
			}}
		}, status: 401, errorCode: "100"},

		// authChecks
		{name: "Client.CreateUser/the example with an idempotency key", auth: goAuthClient, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: "/users", idempotencyKey: "compat-go-user", body: `{
  "logins": [{"email": "test@synapsefi.com"}],
  "phone_numbers": ["901.111.1111", "test@synapsefi.com"],
  "legal_names": ["Test User"]
}`}
		}, status: 200, fields: []string{"_id", "refresh_token"},
			want: func(*sdkGoEnv) map[string]any {
				return map[string]any{"logins.0.email": "test@synapsefi.com", "legal_names.0": "Test User"}
			},
			header: map[string]string{"X-Sp-Idempotency-Key": "compat-go-user"}},
		{name: "Client.CreateUser/no logins", auth: goAuthClient, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: "/users", body: `{"phone_numbers":["901.111.1111"],"legal_names":["Test User"]}`}
		}, status: 400, errorCode: "200"},
		{name: "Client.GetUser/full_dehydrate=yes", auth: goAuthClient, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath(), query: "full_dehydrate=yes"}
		}, status: 200, fields: []string{"_id", "refresh_token", "documents"},
			want: func(e *sdkGoEnv) map[string]any {
				return map[string]any{"_id": e.Fixture.User.ID, "refresh_token": e.Fixture.User.RefreshToken}
			},
			query: "full_dehydrate=yes"},
		{name: "Client.GetUser/unknown id", auth: goAuthClient, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: "/users/5bec6ebebaabfc00ab168fa0"}
		}, status: 404, errorCode: "404"},
		{name: "Client.GetUsers/per_page=3&page=1", auth: goAuthClient, setup: func(t *testing.T, e *sdkGoEnv) {
			// The harness's fake held its own seeded user and the one
			// CreateUser made.
			a := goSend(t, e.fake(), goRequest{method: "POST", path: "/users", fingerprint: testkit.TestFingerprint,
				body: `{"logins":[{"email":"test@synapsefi.com"}],"phone_numbers":["901.111.1111"],"legal_names":["Test User"]}`})
			if e.id, _ = a.Body["_id"].(string); a.Status != http.StatusOK {
				t.Fatalf("CreateUser: %d %s", a.Status, a.Raw)
			}
		}, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: "/users", query: "per_page=3&page=1"}
		}, status: 200, fields: []string{"users", "users_count", "page", "page_count", "limit"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"limit": 3.0, "users_count": 2.0} },
			check: func(t *testing.T, e *sdkGoEnv, a goAnswer) {
				var ids []string
				for i := range 3 {
					id, _ := sdkGoLookup(a.Body, fmt.Sprintf("users.%d._id", i))
					ids = append(ids, fmt.Sprint(id))
				}
				if !slices.Contains(ids, e.id) {
					t.Errorf("users' ids %q lack the created user %s", ids, e.id)
				}
			}},

		{name: "User.GetNodes/the user from Client.GetUser re-authenticates on its first call's 300", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/nodes"}
		}, send: func(t *testing.T, e *sdkGoEnv, req goRequest) goAnswer {
			u := goGetUser(t, e.fake(), e.Fixture.User.ID, testkit.TestFingerprint)
			e.fake().ResetRequests()
			a := u.do(req)
			want := []string{"GET /users/{user_id}/nodes 401/300", "POST /oauth/{user_id} 200/0", "GET /users/{user_id}/nodes 200/0"}
			if got := goCalls(e.fake()); !slices.Equal(got, want) {
				t.Errorf("requests %q, want %q", got, want)
			}
			if u.authKey == "" {
				t.Errorf("the user holds no oauth key after the re-auth")
			}
			return a
		}, status: 200, fields: []string{"node_count"}},

		// nodeChecks
		{name: "User.CreateNode/the example's DEPOSIT-US with an idempotency key", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: e.userPath() + "/nodes", idempotencyKey: "compat-go-node",
				body: `{"type": "DEPOSIT-US", "info": {"nickname": "My Checking"}}`}
		}, status: 200, fields: []string{"node_count", "nodes.0._id"},
			want: func(*sdkGoEnv) map[string]any {
				return map[string]any{"nodes.0.type": "DEPOSIT-US", "nodes.0.info.nickname": "My Checking"}
			},
			header: map[string]string{"X-Sp-Idempotency-Key": "compat-go-node"}},
		{name: "User.CreateNode/ACH-US by account and routing number", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: e.userPath() + "/nodes",
				body: `{"type":"ACH-US","info":{"nickname":"Fake Account","account_num":"1232225674134","routing_num":"051000017","type":"PERSONAL","class":"CHECKING"}}`}
		}, status: 200, fields: []string{"nodes.0._id"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"nodes.0.type": "ACH-US"} }},
		{name: "User.CreateNode/CARD-US", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: e.userPath() + "/nodes",
				body: `{"type":"CARD-US","info":{"nickname":"My Debit Card","document_id":"` + sdkGoDoc + `","card_type":"PHYSICAL"}}`}
		}, status: 200, fields: []string{"nodes.0._id"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"nodes.0.type": "CARD-US"} }},
		{name: "User.SubmitMFA/the example's answer", setup: func(t *testing.T, e *sdkGoEnv) {
			a := e.mustDo(t, http.StatusAccepted, goRequest{method: "POST", path: e.userPath() + "/nodes",
				body: `{"type": "ACH-US", "info": {"bank_id": "synapse_good", "bank_pw": "test1234", "bank_name": "fake"}}`, panics: true})
			tok, _ := sdkGoLookup(a.Body, "mfa.access_token")
			e.id = fmt.Sprint(tok)
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: e.userPath() + "/nodes", body: `{"access_token": "` + e.id + `", "mfa_answer": "test_answer"}`}
		}, status: 200, fields: []string{"node_count", "nodes.0._id"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"nodes.0.type": "ACH-US"} }},
		{name: "User.GetNodes/no query", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/nodes"}
		}, status: 200, fields: []string{"nodes", "node_count", "page", "limit"},
			check: func(t *testing.T, e *sdkGoEnv, a goAnswer) {
				// node, other, the seeded ACH-US, the card and the ACH-US
				// CreateNode made.
				sdkGoAtLeast(t, a, "node_count", 5)
			}},
		{name: "User.GetNodes/per_page=1&page=2", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/nodes", query: "per_page=1&page=2"}
		}, status: 200, fields: []string{"nodes.0._id"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"page": 2.0, "limit": 1.0} }},
		{name: "User.GetNode/the funded node", setup: func(t *testing.T, e *sdkGoEnv) {
			// As the harness's node was then: 100.00 through the control
			// API, no transaction yet (the env's node has paid a card debit).
			e.id = e.fake().MustAddNode(t, e.Fixture.User.ID, synapsefake.NodeSeed{Nickname: "Funded", BalanceCents: 100_00}).ID
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/nodes/" + e.id}
		}, status: 200, fields: []string{"info.balance"},
			want: func(e *sdkGoEnv) map[string]any {
				return map[string]any{"_id": e.id, "info.balance.amount": 100.0}
			}},
		{name: "Client.GetNodes/page=1&per_page=5", auth: goAuthClient, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes", query: "page=1&per_page=5"}
		}, status: 200, fields: []string{"nodes", "node_count", "page_count"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"limit": 5.0} }},
		{name: "User.UpdateNode/the example's supp_id", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.nodePath(), body: `{"supp_id": "new_supp_id_1234"}`}
		}, status: 200,
			want: func(e *sdkGoEnv) map[string]any {
				return map[string]any{"_id": e.Node.ID, "extra.supp_id": "new_supp_id_1234"}
			}},
		{name: "User.ReinitiateMicroDeposits", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.achPath(), query: "resend_micro=YES", body: `{"resend_micro":"YES"}`}
		}, status: 200, fields: []string{"allowed"},
			want: func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.ach.ID} }},
		{name: "User.VerifyMicroDeposit/the example's amounts", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.achPath(), body: `{"micro": [0.1, 0.1]}`}
		}, status: 200,
			want: func(e *sdkGoEnv) map[string]any {
				return map[string]any{"_id": e.ach.ID, "allowed": "CREDIT-AND-DEBIT"}
			}},
		{name: "User.ResetCardNode/a CARD-US node", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.cardPath(), query: "reset=YES", emptyForm: true}
		}, status: 200, fields: []string{"info"},
			want:   func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.card.ID} },
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}},
		{name: "User.ResetCardNode/a DEPOSIT-US node", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.nodePath(), query: "reset=YES", emptyForm: true}
		}, status: 409, errorCode: "410"},
		{name: "User.ShipCardNode/a fee node, expedited", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.cardPath(), query: "ship=YES", body: `{"fee_node_id":"` + e.Node.ID + `","expedite":true}`}
		}, status: 200, fields: []string{"info"},
			want: func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.card.ID} }},
		{name: "User.ShipCardNode/the example's Python True goes form-encoded", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.cardPath(), query: "ship=YES", body: `{"fee_node_id":"` + e.Node.ID + `","expedite": True}`}
		}, status: 400, errorCode: "200",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}},
		{name: "User.DeleteNode/the node linked by bank login", setup: func(t *testing.T, e *sdkGoEnv) {
			e.id = e.bankLogin(t)
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "DELETE", path: e.userPath() + "/nodes/" + e.id}
		}, status: 200, fields: []string{"is_active"},
			want: func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.id, "is_active": false} }},
		{name: "User.DeleteNode/a deleted node again", setup: func(t *testing.T, e *sdkGoEnv) {
			e.id = e.bankLogin(t)
			e.mustDo(t, http.StatusOK, goRequest{method: "DELETE", path: e.userPath() + "/nodes/" + e.id})
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "DELETE", path: e.userPath() + "/nodes/" + e.id}
		}, status: 409, errorCode: "410"},

		// subnetChecks
		{name: "User.CreateSubnet/the example", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: e.nodePath() + "/subnets", idempotencyKey: "compat-go-subnet", body: `{"nickname":"Test AC/RT"}`}
		}, status: 200, fields: []string{"_id", "account_num", "routing_num"},
			want:   func(*sdkGoEnv) map[string]any { return map[string]any{"nickname": "Test AC/RT"} },
			header: map[string]string{"X-Sp-Idempotency-Key": "compat-go-subnet"}},
		{name: "User.GetSubnets", setup: func(t *testing.T, e *sdkGoEnv) {
			e.mustDo(t, http.StatusOK, goRequest{method: "POST", path: e.nodePath() + "/subnets", body: `{"nickname":"Test AC/RT"}`})
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/subnets"}
		}, status: 200, fields: []string{"subnets"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"subnets_count": 2.0} }},
		{name: "User.GetNodeSubnets/the example's page=4&per_page=10", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.nodePath() + "/subnets", query: "page=4&per_page=10"}
		}, status: 200, fields: []string{"subnets", "subnets_count"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"page": 4.0} }},
		{name: "User.GetSubnet", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.subnetPath()}
		}, status: 200,
			want: func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.subnet.ID, "status": "ACTIVE"} }},
		{name: "User.UpdateSubnet/the example's preferences", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.subnetPath(), body: `{
  "preferences": {"allow_foreign_transactions": true, "daily_atm_withdrawal_limit": 10, "daily_transaction_limit": 1000}
}`}
		}, status: 200, fields: []string{"preferences"},
			// The answer gives limits in cents.
			want: func(*sdkGoEnv) map[string]any {
				return map[string]any{"preferences.allow_foreign_transactions": true, "preferences.daily_transaction_limit": 100000.0}
			}},
		{name: "User.UpdateSubnet/status LOCKED", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.subnetPath(), body: `{"status":"LOCKED"}`}
		}, status: 400, errorCode: "200"},
		{name: "User.GetCardShipment", setup: func(t *testing.T, e *sdkGoEnv) {
			e.mustDo(t, http.StatusOK, goRequest{method: "PATCH", path: e.subnetPath() + "/ship",
				body: `{"fee_node_id":"` + e.Node.ID + `","expedite":false,"card_style_id":"555"}`})
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.subnetPath() + "/ship"}
		}, status: 200, fields: []string{"ships.0"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"ship_count": 1.0} }},
		{name: "User.PushToWallet/the Go example's elided values", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: e.subnetPath() + "/push",
				body: `{"type": "APPLE_PUSH", "nonce": "RH0jOQ==", "nonce_signature": "QNyNZuyDO...EFg/Q", "certificates": ["MIICzD....OPQ7"]}`}
		}, status: 200, fields: []string{"data.authentication.activation_data"}}, // lenient as the sandbox; WithStrictRequests names the rule (TestSubnetRulesLenientByDefault)

		// transactionChecks
		{name: "User.CreateTransaction/10.00 to a DEPOSIT-US node with an idempotency key", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: e.transPath(), idempotencyKey: "compat-go-tx",
				body: `{"to":{"type":"DEPOSIT-US","id":"` + e.other.ID + `"},"amount":{"amount":10,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
		}, status: 200, fields: []string{"_id"},
			want: func(e *sdkGoEnv) map[string]any {
				return map[string]any{"recent_status.status": "CREATED", "amount.amount": 10.0, "to.id": e.other.ID}
			},
			header: map[string]string{"X-Sp-Idempotency-Key": "compat-go-tx"}},
		{name: "User.CreateTransaction/the example's 20.10 to ACH-US", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: e.transPath(), body: `{
  "to": {"type": "ACH-US", "id": "` + e.ach.ID + `"},
  "amount": {"amount": 20.1, "currency": "USD"},
  "extra": {"ip": "192.168.0.1"}
}`}
		}, status: 200, fields: []string{"_id"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"amount.amount": 20.1} }},
		{name: "User.CreateTransaction/more than the balance to ACH-US", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: e.transPath(),
				body: `{"to":{"type":"ACH-US","id":"` + e.ach.ID + `"},"amount":{"amount":100000,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
		}, status: 200, fields: []string{"_id"}, // taken, as the sandbox took it; WithFundsCheck refuses it (TestTransferBeyondTheBalance)
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"recent_status.status": "CREATED"} }},
		{name: "User.GetTransaction", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.txPath()}
		}, status: 200, fields: []string{"recent_status", "timeline"},
			want: func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.txID} }},
		{name: "User.GetTransactions", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/trans"}
		}, status: 200, fields: []string{"trans"},
			check: func(t *testing.T, _ *sdkGoEnv, a goAnswer) { sdkGoAtLeast(t, a, "trans_count", 2) }},
		{name: "User.GetNodeTransactions", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.transPath()}
		}, status: 200, fields: []string{"trans"},
			check: func(t *testing.T, _ *sdkGoEnv, a goAnswer) { sdkGoAtLeast(t, a, "trans_count", 2) }},
		{name: "User.GetNodeTransactions/per_page=1", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.transPath(), query: "per_page=1"}
		}, status: 200, fields: []string{"trans.0._id"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"limit": 1.0} }},
		{name: "Client.GetTransactions/page=1&per_page=5", auth: goAuthClient, req: func(*sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: "/trans", query: "page=1&per_page=5"}
		}, status: 200, fields: []string{"trans", "page_count"},
			check: func(t *testing.T, _ *sdkGoEnv, a goAnswer) { sdkGoAtLeast(t, a, "trans_count", 2) }},
		{name: "User.CommentOnTransactionStatus/the key as the query ?compat-go-comment=", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.txPath(), query: "compat-go-comment", body: `{"comment": "Pending verification..."}`}
		}, status: 200, fields: []string{"timeline"},
			want:  func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.txID} },
			query: "compat-go-comment=",
			check: func(t *testing.T, _ *sdkGoEnv, a goAnswer) {
				tl, _ := a.Body["timeline"].([]any)
				var note any
				if len(tl) > 0 {
					note, _ = sdkGoLookup(tl[len(tl)-1], "note")
				}
				if s, _ := note.(string); !strings.Contains(s, "Pending verification...") {
					t.Errorf("last timeline note %#v, want it to contain the comment: %s", note, a.Raw)
				}
			}},
		{name: "User.CancelTransaction/a canceled one again", setup: func(t *testing.T, e *sdkGoEnv) {
			e.mustDo(t, http.StatusOK, goRequest{method: "DELETE", path: e.txPath()})
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "DELETE", path: e.txPath()}
		}, status: 409, errorCode: "410"},
		{name: "User.CreateDummyTransaction/a card debit of 5.00 on the subnet", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.nodePath() + "/dummy-tran", query: "amount=5&is_credit=NO&type=INTERCHANGE&subnetid=" + e.subnet.ID}
		}, status: 200, fields: []string{"_id"},
			want: func(*sdkGoEnv) map[string]any { return map[string]any{"amount.amount": 5.0} }},
		{name: "User.DisputeTransaction/the settled card debit", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.transPath() + "/" + e.cardDebit + "/dispute", body: `{"dispute_reason": "CHARGE_BACK"}`}
		}, status: 200, fields: []string{"dispute_form", "provisional_credit_tran"},
			check: func(t *testing.T, e *sdkGoEnv, a goAnswer) {
				if form, _ := a.Body["dispute_form"].(string); !strings.Contains(form, e.cardDebit) {
					t.Errorf("dispute_form %q does not name the transaction %s", form, e.cardDebit)
				}
			}},
		{name: "User.DisputeTransaction/an ACH debit", setup: func(t *testing.T, e *sdkGoEnv) {
			a := e.mustDo(t, http.StatusOK, goRequest{method: "POST", path: e.transPath(),
				body: `{"to":{"type":"ACH-US","id":"` + e.ach.ID + `"},"amount":{"amount":20.1,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`})
			e.id, _ = a.Body["_id"].(string)
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.transPath() + "/" + e.id + "/dispute", body: `{"dispute_reason": "CHARGE_BACK"}`}
		}, status: 409, errorCode: "400"},

		// userChecks
		{name: "User.Update/the example's new login and phone number", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.userPath(), body: `{"update":{"login":{"email":"test2@synapsefi.com"},"phone_number":"901-111-2222"}}`}
		}, status: 200, fields: []string{"logins"},
			want: func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.Fixture.User.ID} },
			check: func(t *testing.T, _ *sdkGoEnv, a goAnswer) {
				if phones := sdkGoStrings(a.Body, "phone_numbers"); !slices.Contains(phones, "901-111-2222") {
					t.Errorf("phone_numbers %q lack 901-111-2222", phones)
				}
				if logins, _ := json.Marshal(a.Body["logins"]); !strings.Contains(string(logins), "test2@synapsefi.com") {
					t.Errorf("logins %s lack test2@synapsefi.com", logins)
				}
			}},
		{name: "User.Update/a base document for a business", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.userPath(), body: sdkGoBusinessDoc}
		}, status: 200, fields: []string{"documents.0.id"}},
		{name: "User.CreateUBO/the example in JSON", setup: func(t *testing.T, e *sdkGoEnv) {
			e.mustDo(t, http.StatusOK, goRequest{method: "PATCH", path: e.userPath(), body: sdkGoBusinessDoc})
		}, req: func(e *sdkGoEnv) goRequest {
			person := `{"document_id":"` + sdkGoDoc + `","relationship_to_entity":"CEO"}`
			return goRequest{method: "PATCH", path: e.userPath() + "/ubo",
				body: `{"entity_info":{"cryptocurrency":true,"msb":{"federal":true,"states":["AL"]},"public_company":false,"majority_owned_by_listed":false,"registered_SEC":false,"regulated_financial":false,"gambling":false,"document_id":"` + sdkGoDoc + `"},` +
					`"signer":` + person + `,"compliance_contact":` + person + `,"primary_controlling_contact":` + person + `,"owners":[{"document_id":"` + sdkGoDoc + `","title":"CEO","ownership":95}]}`}
		}, status: 200, fields: []string{"documents"},
			want: func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.Fixture.User.ID} }},
		{name: "User.CreateUBO/the example's Python True goes form-encoded", req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "PATCH", path: e.userPath() + "/ubo", body: `{"entity_info": {"cryptocurrency": True, "document_id": "` + sdkGoDoc + `"}}`}
		}, status: 400, errorCode: "200",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}},

		// mfaChecks: the user as Client.GetUser made it, from a new device.
		{name: "User.RegisterFingerprint/a new device", auth: goAuthOAuth, req: func(e *sdkGoEnv) goRequest {
			return e.oauth("")
		}, status: 202, errorCode: "10",
			header: map[string]string{"X-Sp-User": "|" + goNewFingerprint},
			check: func(t *testing.T, _ *sdkGoEnv, a goAnswer) {
				if phones := sdkGoStrings(a.Body, "phone_numbers"); len(phones) == 0 {
					t.Errorf("no phone_numbers to choose from: %s", a.Raw)
				}
			}},
		{name: "User.Select2FA/the first device", auth: goAuthOAuth, setup: func(t *testing.T, e *sdkGoEnv) {
			e.id = e.register(t)
		}, req: func(e *sdkGoEnv) goRequest {
			r := e.oauth(`, "phone_number": "` + e.id + `"`)
			r.panics = true // SynapseGo's own bug: it reads error.en of a 202
			return r
		}, status: 202, errorCode: "10",
			check: func(t *testing.T, _ *sdkGoEnv, a goAnswer) {
				if _, ok := sdkGoLookup(a.Body, "message.en"); !ok {
					t.Errorf("no message.en: %s", a.Raw)
				}
				if _, ok := a.Body["error"]; ok {
					t.Errorf("the answer has an error key: %s", a.Raw)
				}
			}},
		{name: "User.VerifyPIN/a wrong pin", auth: goAuthOAuth, setup: func(t *testing.T, e *sdkGoEnv) {
			r := e.oauth(`, "phone_number": "` + e.register(t) + `"`)
			r.panics = true
			goSend(t, e.fake(), r)
		}, req: func(e *sdkGoEnv) goRequest {
			return e.oauth(`, "validation_pin": "000000"`)
		}, status: 409, errorCode: "400"},
		{name: "User.GetNode/after MFA the new device authenticates on its own", setup: func(t *testing.T, e *sdkGoEnv) {
			r := e.oauth(`, "phone_number": "` + e.register(t) + `"`)
			r.panics = true
			goSend(t, e.fake(), r)
			if a := goSend(t, e.fake(), e.oauth(`, "validation_pin": "`+e.fake().MFAPin(e.Fixture.User.ID)+`"`)); a.Status != http.StatusOK {
				t.Fatalf("VerifyPIN: %d %s", a.Status, a.Raw)
			}
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.nodePath()}
		}, send: func(t *testing.T, e *sdkGoEnv, req goRequest) goAnswer {
			// VerifyPIN kept no key: the GET is "300", then User.do
			// authenticates from the new device and retries.
			u := &goUser{t: t, fake: e.fake(), id: e.Fixture.User.ID, refreshToken: e.Fixture.User.RefreshToken, fingerprint: goNewFingerprint}
			return u.do(req)
		}, status: 200,
			want:   func(e *sdkGoEnv) map[string]any { return map[string]any{"_id": e.Node.ID} },
			header: map[string]string{"X-Sp-User": "|" + goNewFingerprint}},
		{name: "User.GetNode/an expired key", setup: func(t *testing.T, e *sdkGoEnv) {
			e.fake().Advance(2*time.Hour + time.Minute)
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "GET", path: e.nodePath()}
		}, status: 401, errorCode: "110"},
		{name: "User.Authenticate/after the key expired, calls work again", setup: func(t *testing.T, e *sdkGoEnv) {
			e.fake().Advance(2*time.Hour + time.Minute)
		}, req: func(e *sdkGoEnv) goRequest {
			return goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, body: e.goRefresh("")}
		}, send: func(t *testing.T, e *sdkGoEnv, req goRequest) goAnswer {
			return e.user.authenticate(req.body)
		}, status: 200, fields: []string{"oauth_key"},
			check: func(t *testing.T, e *sdkGoEnv, a goAnswer) {
				b := e.user.do(goRequest{method: "GET", path: e.nodePath()})
				if b.Status != http.StatusOK || b.Body["_id"] != e.Node.ID {
					t.Errorf("GetNode with the new key: %d %s", b.Status, b.Raw)
				}
			}},
	}

	// errorTypeChecks: each error code injected on GET /nodes/types.
	for _, f := range sdkGoFaults {
		rows = append(rows, sdkGoRow{name: "Client.GetNodeTypes/injected " + f.code + " reads as " + f.sdk, auth: goAuthClient,
			setup:  func(t *testing.T, e *sdkGoEnv) { e.fake().FailNext("GET", "/nodes/types", f.code, 1) },
			req:    func(*sdkGoEnv) goRequest { return goRequest{method: "GET", path: "/nodes/types"} },
			status: f.status, errorCode: f.code})
	}

	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			e := newSDKGoEnv(t, fake)
			e.user.t = t
			if r.setup != nil {
				r.setup(t, e)
			}
			req := r.req(e)
			var a goAnswer
			switch {
			case r.send != nil:
				a = r.send(t, e, req)
			case r.auth == goAuthUser:
				a = e.user.do(req)
			default:
				if req.fingerprint == "" {
					req.fingerprint = testkit.TestFingerprint
				}
				a = goSend(t, fake, req)
			}
			if a.Status != r.status || a.errorCode != r.errorCode {
				t.Fatalf("status %d error_code %q, want %d %q: %s", a.Status, a.errorCode, r.status, r.errorCode, a.Raw)
			}
			if r.errorCode != "" && !req.panics {
				// SynapseGo's error types: http_code and error.en.
				if a.httpCode != fmt.Sprint(r.status) || a.message == "" {
					t.Errorf("http_code %q, error.en %q; want %q and a message: %s", a.httpCode, a.message, fmt.Sprint(r.status), a.Raw)
				}
			} else if v, ok := a.Body["success"]; ok && v != true {
				t.Errorf("success %#v in a 200: %s", v, a.Raw)
			}
			for _, f := range r.fields {
				if _, ok := sdkGoLookup(a.Body, f); !ok {
					t.Errorf("no %s in %s", f, a.Raw)
				}
			}
			if r.want != nil {
				for path, want := range r.want(e) {
					if got, _ := sdkGoLookup(a.Body, path); got != want {
						t.Errorf("%s %#v, want %#v", path, got, want)
					}
				}
			}
			if r.header != nil || r.query != "" {
				reqs := fake.Requests()
				last := reqs[len(reqs)-1]
				for k, want := range r.header {
					if got := last.Header.Get(k); !strings.HasSuffix(got, want) || (k != "X-Sp-User" && got != want) {
						t.Errorf("the fake received %s %q, want %q", k, got, want)
					}
				}
				if r.query != "" && last.Query.Encode() != r.query {
					t.Errorf("the fake received the query %q, want %q", last.Query.Encode(), r.query)
				}
			}
			if r.check != nil {
				r.check(t, e, a)
			}
		})
	}
}

// sdkGoBusinessDoc is the harness's base document for a business (User.Update).
const sdkGoBusinessDoc = `{"documents":[{"email":"test@test.com","phone_number":"901.111.1111","ip":"::1","name":"Test User","alias":"Test","entity_type":"LLC","entity_scope":"Arts & Entertainment","day":2,"month":5,"year":1989,"address_street":"1 Market St.","address_city":"SF","address_subdivision":"CA","address_postal_code":"94105","address_country_code":"US"}]}`

// sdkGoBase is the base URL SynapseGo builds every request on.
const sdkGoBase = "https://uat-api.synapsefi.com/v3.1"

// sdkGoRewrite is compat/go's RoundTripper: it sends each request addressed
// below sdkGoBase to the fake's scheme and host instead, unchanged
// otherwise, and refuses any other.
type sdkGoRewrite struct {
	fake  *url.URL
	inner http.RoundTripper
}

func (w sdkGoRewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasPrefix(req.URL.String(), sdkGoBase+"/") {
		return nil, fmt.Errorf("a request to %s, not below %s", req.URL, sdkGoBase)
	}
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host, out.Host = w.fake.Scheme, w.fake.Host, ""
	return w.inner.RoundTrip(out)
}

// TestSDKGoRecipe runs docs/compatibility.md's SynapseGo recipe (GetUser,
// Authenticate, GetNodes, then CheckRequest and CheckBalance) without the
// SDK: its requests, as gorequest sends them to the SDK's hard-coded host,
// go through a transport that takes them to the fake, either compat/go's
// host-rewriting RoundTripper or Intercept.
func TestSDKGoRecipe(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		transport func(t *testing.T, fake *synapsefake.Server) http.RoundTripper
	}{
		{"a RoundTripper rewriting the host to fake.URL()", func(t *testing.T, fake *synapsefake.Server) http.RoundTripper {
			u, err := url.Parse(fake.URL())
			if err != nil || u.Path != "/v3.1" {
				t.Fatalf("fake.URL() %q: %v", fake.URL(), err)
			}
			return sdkGoRewrite{fake: u, inner: fake.Client().Transport}
		}},
		{"Intercept", func(_ *testing.T, fake *synapsefake.Server) http.RoundTripper {
			return fake.Intercept(nil)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			seeded := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "device-1"})
			node := fake.MustAddNode(t, seeded.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_00})
			client := &http.Client{Transport: tc.transport(t, fake)}
			send := func(method, path, key, body string) map[string]any {
				t.Helper()
				var rd io.Reader = http.NoBody
				if body != "" {
					rd = bytes.NewReader([]byte(body))
				}
				req, err := http.NewRequest(method, sdkGoBase+path, rd)
				if err != nil {
					t.Fatal(err)
				}
				req.Header["X-Sp-Gateway"] = []string{fake.Gateway()}
				req.Header["X-Sp-User-Ip"] = []string{"127.0.0.1"}
				req.Header["X-Sp-User"] = []string{key + "|device-1"}
				req.Header["Content-Type"] = []string{"application/json"}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatalf("%s %s: %v", method, path, err)
				}
				defer resp.Body.Close()
				raw, _ := io.ReadAll(resp.Body)
				var m map[string]any
				if err := json.Unmarshal(raw, &m); err != nil || resp.StatusCode != http.StatusOK {
					t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
				}
				return m
			}

			// client.GetUser(userID, "device-1", "127.0.0.1")
			user := send("GET", "/users/"+seeded.ID, "", "")
			if user["_id"] != seeded.ID || user["refresh_token"] != seeded.RefreshToken {
				t.Errorf("GetUser gave user %v with refresh token %v, want %q and %q", user["_id"], user["refresh_token"], seeded.ID, seeded.RefreshToken)
			}
			// user.Authenticate(`{"refresh_token":"..."}`, "device-1", "127.0.0.1")
			auth := send("POST", "/oauth/"+seeded.ID, "", `{"refresh_token":"`+seeded.RefreshToken+`"}`)
			key, _ := auth["oauth_key"].(string)
			if key == "" {
				t.Fatalf("Authenticate gave no oauth_key: %v", auth)
			}
			// user.GetNodes()
			if got := send("GET", "/users/"+seeded.ID+"/nodes", key, "")["node_count"]; got != 1.0 {
				t.Errorf("GetNodes: node_count %v, want 1", got)
			}
			fake.CheckRequest(t, "GET", "/users/{user_id}/nodes")
			fake.CheckBalance(t, node.ID, 100_00, 100_00)
		})
	}
}
