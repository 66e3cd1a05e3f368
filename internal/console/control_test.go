package console_test

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// ctlAny in a wanted body matches any value that is present and not null:
// the place of a fresh id, key or card number.
const ctlAny = "<any>"

// ctlAPIOK calls the real API and fails the test unless it answers 200.
func ctlAPIOK(t testing.TB, fake *synapsefake.Server, method, path string, header map[string]string, body any) map[string]any {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: method, Path: path, Header: header, Body: body})
	if r.Status != http.StatusOK {
		t.Fatalf("%s %s: status %d, want 200: %s", method, path, r.Status, r.Raw)
	}
	return r.Body
}

// ctlNormalize turns v into what decoding its JSON gives: numbers become
// float64 and named string types strings.
func ctlNormalize(t testing.TB, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return out
}

// ctlMask returns got with every value that want holds as ctlAny, and got
// holds as a non-null value, replaced by ctlAny.
func ctlMask(want, got any) any {
	if want == ctlAny && got != nil {
		return ctlAny
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		out := make(map[string]any, len(g))
		for k, v := range g {
			out[k] = ctlMask(w[k], v)
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return got
		}
		out := make([]any, len(g))
		for i := range g {
			out[i] = ctlMask(w[i], g[i])
		}
		return out
	}
	return got
}

// ctlWantBody compares a whole decoded body with want, where ctlAny matches
// any present value.
func ctlWantBody(t testing.TB, r testkit.Response, want map[string]any) {
	t.Helper()
	w := ctlNormalize(t, want)
	if diff := cmp.Diff(w, ctlMask(w, any(r.Body))); diff != "" {
		t.Errorf("body mismatch (-want +got):\n%s\nraw: %s", diff, r.Raw)
	}
}

// ctlEnv is a fake with manual processing and captured (not delivered)
// webhooks, and the objects the control API tests act on.
type ctlEnv struct {
	fake  *synapsefake.Server
	fx    testkit.Fixture    // "sender": every scope, a DEPOSIT-US node holding $1,000
	payee testkit.Fixture    // a second user with an empty DEPOSIT-US node
	ach   synapsefake.Node   // an ACH-US node of the sender
	card  synapsefake.Subnet // an ACTIVE card on the sender's node
	acct  synapsefake.Subnet // an account-number subnet on the sender's node
	tx    string             // a CREATED $12.34 transaction from the sender's node to the payee's
	// root, for a platform made in a Platforms (issue 37), is the
	// Platforms' listener; the control API is then reached at
	// root/_fake/platforms/{client_id}. Empty for a fake of its own.
	root string
}

// ctlEnvKinds are the fakes the control API's tests run against: a fake of
// its own (NewServer) and a platform made in a Platforms, reached through
// its /_fake/platforms/{client_id}/ prefix.
var ctlEnvKinds = []string{"default", "made"}

// newCtlEnvOf is newCtlEnv on a fake of the given kind (ctlEnvKinds).
func newCtlEnvOf(t *testing.T, kind string) ctlEnv {
	t.Helper()
	if kind == "default" {
		return newCtlEnv(t)
	}
	p, root := testkit.NewPlatforms(t, synapsefake.WithManualProcessing(), synapsefake.WithoutWebhookDelivery())
	fake, err := p.Add(synapsefake.PlatformConfig{ClientID: "made_platform", ClientSecret: "made_secret"})
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	e := newCtlEnvOn(t, fake)
	e.root = root
	return e
}

// ctl calls the env's control API: path is below /_fake, e.g. "/users".
func (e ctlEnv) ctl(t testing.TB, method, path string, body any) testkit.Response {
	t.Helper()
	if e.root == "" {
		return testkit.Ctl(t, e.fake, method, path, body)
	}
	return testkit.CtlSend(t, http.DefaultClient, method, e.root+"/_fake/platforms/"+e.fake.ClientID()+path, nil, body)
}

const ctlTxCents = 1234

func newCtlEnv(t testing.TB) ctlEnv {
	t.Helper()
	return newCtlEnvOn(t, synapsefake.NewServer(t, synapsefake.WithManualProcessing(), synapsefake.WithoutWebhookDelivery()))
}

// newCtlEnvOn seeds the env in fake.
func newCtlEnvOn(t testing.TB, fake *synapsefake.Server) ctlEnv {
	t.Helper()
	e := ctlEnv{fake: fake, fx: testkit.NewFixture(t, fake, 100000), payee: testkit.NewFixture(t, fake, 0)}
	e.ach = fake.MustAddNode(t, e.fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank",
		AccountNum: "123456789", RoutingNum: "051000017"})
	var err error
	if e.card, err = fake.AddSubnet(e.fx.User.ID, e.fx.Node.ID, synapsefake.SubnetSeed{AccountClass: "CARD", Status: "ACTIVE"}); err != nil {
		t.Fatalf("AddSubnet card: %v", err)
	}
	if e.acct, err = fake.AddSubnet(e.fx.User.ID, e.fx.Node.ID, synapsefake.SubnetSeed{}); err != nil {
		t.Fatalf("AddSubnet account: %v", err)
	}
	body := ctlAPIOK(t, fake, "POST", "/users/"+e.fx.User.ID+"/nodes/"+e.fx.Node.ID+"/trans", e.fx.Headers, map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": e.payee.Node.ID},
		"amount": map[string]any{"amount": ctlTxCents / 100.0, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1"},
	})
	e.tx, _ = body["_id"].(string)
	return e
}

// expand replaces the placeholders of a path by the env's ids.
func (e ctlEnv) expand(s string) string {
	return strings.NewReplacer("{user}", e.fx.User.ID, "{node}", e.fx.Node.ID, "{payee}", e.payee.User.ID,
		"{payee_node}", e.payee.Node.ID, "{ach}", e.ach.ID, "{card}", e.card.ID, "{acct}", e.acct.ID,
		"{tx}", e.tx).Replace(s)
}

// now is the fake's frozen clock in wire milliseconds.
func (e ctlEnv) now() int64 { return e.fake.Now().UnixMilli() }

// tranPath is the real API path of the env's transaction.
func (e ctlEnv) tranPath() string {
	return "/users/" + e.fx.User.ID + "/nodes/" + e.fx.Node.ID + "/trans/" + e.tx
}

// ctlTimeline builds a wanted control timeline from status, note pairs, all
// dated at.
func ctlTimeline(at int64, pairs ...string) []any {
	out := make([]any, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, map[string]any{"status": pairs[i], "note": pairs[i+1], "date": at})
	}
	return out
}

// ctlCodeNote is the timeline note of a move with a code: the code and its
// meaning, or the code alone when it has none.
func ctlCodeNote(code string) string {
	if m, ok := reference.CodeMeaning(code); ok {
		return code + ": " + m + "."
	}
	return code
}

// ctlRecent is a wanted recent_status; code "" is none.
func ctlRecent(status string, note any, date any, code string) map[string]any {
	recent := map[string]any{"status": status, "status_id": bank.Status(status).ID(), "note": note, "date": date}
	if code != "" {
		recent["code"] = code
	}
	return recent
}

// wantTx is a wanted control answer holding the env's transaction; its
// recent_status is the timeline's last entry (none is a comment) with code.
func (e ctlEnv) wantTx(status, code string, tl []any) map[string]any {
	last, _ := tl[len(tl)-1].(map[string]any)
	recent := ctlRecent(status, last["note"], last["date"], code)
	return map[string]any{"success": true, "transaction": map[string]any{
		"_id": e.tx, "status": status, "code": code, "amount_cents": ctlTxCents,
		"from_node_id": e.fx.Node.ID, "to_node_id": e.payee.Node.ID, "timeline": tl, "recent_status": recent}}
}

// TestControlTransactionCarriesTheWiresRecentStatus: every control answer
// that shows a transaction (GET, a move, the lists) carries recent_status
// exactly as the API's GET .../trans/{id} shows it, beside the control
// view's own status, after each move: a comment's note appended, a return's
// or a cancel's code.
func TestControlTransactionCarriesTheWiresRecentStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		moves func(t *testing.T, e ctlEnv) // before the control call
		call  [2]string                    // the control call that answers the transaction
	}{
		{"created", nil, [2]string{"GET", "/transactions/{tx}"}},
		{"settled", nil, [2]string{"POST", "/transactions/{tx}/settle"}},
		{"a comment after creation", func(t *testing.T, e ctlEnv) {
			ctlAPIOK(t, e.fake, "PATCH", e.tranPath(), e.fx.Headers, map[string]any{"comment": "Customer called."})
		}, [2]string{"GET", "/transactions/{tx}"}},
		{"returned R01, then a comment", func(t *testing.T, e ctlEnv) {
			e.ctl(t, "POST", e.expand("/transactions/{tx}/settle"), nil)
			e.ctl(t, "POST", e.expand("/transactions/{tx}/return"), map[string]any{"code": "R01"})
			ctlAPIOK(t, e.fake, "PATCH", e.tranPath(), e.fx.Headers, map[string]any{"comment": "Asked again."})
		}, [2]string{"GET", "/transactions/{tx}"}},
		{"canceled", nil, [2]string{"POST", "/transactions/{tx}/cancel"}},
		{"the user's list", func(t *testing.T, e ctlEnv) {
			ctlAPIOK(t, e.fake, "PATCH", e.tranPath(), e.fx.Headers, map[string]any{"comment": "Listed."})
		}, [2]string{"GET", "/users/{user}/transactions"}},
		{"the node's list", nil, [2]string{"GET", "/nodes/{node}/transactions"}},
	} {
		for _, kind := range ctlEnvKinds {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				e := newCtlEnvOf(t, kind)
				if tc.moves != nil {
					tc.moves(t, e)
				}
				r := e.ctl(t, tc.call[0], e.expand(tc.call[1]), nil)
				if r.Status != http.StatusOK {
					t.Fatalf("%s %s: status %d: %s", tc.call[0], tc.call[1], r.Status, r.Raw)
				}
				tx := testkit.CtlObj(r.Body["transaction"])
				if list, ok := r.Body["transactions"].([]any); ok {
					tx = testkit.CtlObj(list[0])
				}
				wire := e.recentStatus(t)
				if diff := cmp.Diff(wire, tx["recent_status"]); diff != "" {
					t.Errorf("recent_status (-the API's +the control view's):\n%s", diff)
				}
				if tx["status"] != wire["status"] {
					t.Errorf("status %v beside recent_status.status %v", tx["status"], wire["status"])
				}
			})
		}
	}
}

// recentStatus reads the env's transaction through the real API.
func (e ctlEnv) recentStatus(t testing.TB) map[string]any {
	t.Helper()
	rs, _ := ctlAPIOK(t, e.fake, "GET", e.tranPath(), e.fx.Headers, nil)["recent_status"].(map[string]any)
	return rs
}

func (e ctlEnv) balance(t testing.TB, id string) int64 {
	t.Helper()
	n, ok := e.fake.Node(id)
	if !ok {
		t.Fatalf("node %s not found", id)
	}
	return n.BalanceCents
}

func TestControlEndpoints(t *testing.T) {
	t.Parallel()
	const captured = "captured; not delivered (WithoutWebhookDelivery)"
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T, e ctlEnv)
		method string
		path   string // below /_fake, with the placeholders of ctlEnv.expand
		body   any
		want   func(e ctlEnv) map[string]any
		check  func(t *testing.T, e ctlEnv, body map[string]any)
	}{
		{
			name: "create user", method: "POST", path: "/users",
			body: map[string]any{"email": "ann@example.com", "phone_numbers": []string{"901.222.3333"},
				"legal_names": []string{"Ann Example"}, "fingerprint": "fp-ann", "supp_id": "supp-ann",
				"is_business": true, "permission": "SEND-AND-RECEIVE"},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "user": map[string]any{"_id": ctlAny,
					"emails": []string{"ann@example.com"}, "phone_numbers": []string{"901.222.3333"},
					"legal_names": []string{"Ann Example"}, "permission": "SEND-AND-RECEIVE",
					"refresh_token": ctlAny, "fingerprints": []string{"fp-ann"}, "node_ids": []string{},
					"documents": []any{}, "permission_history": ctlAny}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				uv := testkit.CtlObj(body["user"])
				id := testkit.CtlStr(uv["_id"])
				u, ok := e.fake.User(id)
				if !ok || u.SuppID != "supp-ann" || !u.IsBusiness || u.RefreshToken != testkit.CtlStr(uv["refresh_token"]) {
					t.Errorf("User(%s) = %+v, %v; want supp-ann, business, the answered refresh token", id, u, ok)
				}
				got := ctlAPIOK(t, e.fake, "GET", "/users/"+id, testkit.GatewayHeaders(e.fake), nil)
				if testkit.CtlStr(testkit.CtlObj(got["extra"])["supp_id"]) != "supp-ann" || testkit.CtlStr(got["permission"]) != "SEND-AND-RECEIVE" {
					t.Errorf("GET /users/%s: %v", id, got)
				}
				// The fingerprint is registered: OAuth answers 200, not the MFA 202.
				h := testkit.GatewayHeaders(e.fake)
				h["X-SP-USER"] = "|fp-ann"
				ctlAPIOK(t, e.fake, "POST", "/oauth/"+id, h, map[string]any{"refresh_token": u.RefreshToken})
			},
		},
		{
			name: "create user with defaults", method: "POST", path: "/users", body: map[string]any{},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "user": map[string]any{"_id": ctlAny,
					"emails": []any{ctlAny}, "phone_numbers": []string{"901.111.1111"},
					"legal_names": []string{"Test User"}, "permission": "UNVERIFIED",
					"refresh_token": ctlAny, "fingerprints": []string{}, "node_ids": []string{},
					"documents": []any{}, "permission_history": ctlAny}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				if _, ok := e.fake.User(testkit.CtlStr(testkit.CtlObj(body["user"])["_id"])); !ok {
					t.Error("the user is not in the store")
				}
			},
		},
		{
			name: "create node", method: "POST", path: "/users/{user}/nodes",
			body: map[string]any{"type": "DEPOSIT-US", "nickname": "Savings", "balance_cents": 12345, "supp_id": "supp-node"},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "node": map[string]any{"_id": ctlAny, "user_id": e.fx.User.ID,
					"type": "DEPOSIT-US", "nickname": "Savings", "allowed": "CREDIT-AND-DEBIT",
					"balance_cents": 12345, "available_cents": 12345, "is_active": true}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				id := testkit.CtlStr(testkit.CtlObj(body["node"])["_id"])
				if n, ok := e.fake.Node(id); !ok || n.SuppID != "supp-node" || n.BalanceCents != 12345 {
					t.Errorf("Node(%s) = %+v, %v", id, n, ok)
				}
				if u, _ := e.fake.User(e.fx.User.ID); !slices.Contains(u.NodeIDs, id) {
					t.Errorf("user's NodeIDs %v lack %s", u.NodeIDs, id)
				}
				got := ctlAPIOK(t, e.fake, "GET", "/users/"+e.fx.User.ID+"/nodes/"+id, e.fx.Headers, nil)
				if amt := testkit.CtlObj(testkit.CtlObj(got["info"])["balance"])["amount"]; amt != 123.45 {
					t.Errorf("GET node: info.balance.amount %v, want 123.45", amt)
				}
			},
		},
		{
			name: "create ACH-US node", method: "POST", path: "/users/{payee}/nodes",
			body: map[string]any{"type": "ACH-US", "nickname": "Bank", "account_num": "987654321", "routing_num": "051000017"},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "node": map[string]any{"_id": ctlAny, "user_id": e.payee.User.ID,
					"type": "ACH-US", "nickname": "Bank", "allowed": "CREDIT-AND-DEBIT", "balance_cents": 0, "available_cents": 0, "is_active": true}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				id := testkit.CtlStr(testkit.CtlObj(body["node"])["_id"])
				got := ctlAPIOK(t, e.fake, "GET", "/users/"+e.payee.User.ID+"/nodes/"+id, e.payee.Headers, nil)
				if tp := got["type"]; tp != "ACH-US" {
					t.Errorf("GET node: type %v, want ACH-US", tp)
				}
			},
		},
		{
			name: "create card subnet", method: "POST", path: "/users/{user}/nodes/{node}/subnets",
			body: map[string]any{"nickname": "Card", "account_class": "CARD", "status": "ACTIVE"},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "subnet": map[string]any{"_id": ctlAny, "node_id": e.fx.Node.ID,
					"user_id": e.fx.User.ID, "account_class": "CARD", "status": "ACTIVE", "status_code": "USER_REQUESTED",
					"card_number": ctlAny, "account_num": ""}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				sv := testkit.CtlObj(body["subnet"])
				id, num := testkit.CtlStr(sv["_id"]), testkit.CtlStr(sv["card_number"])
				sn, ok := e.fake.Subnet(id)
				if !ok || sn.CardNumber != num || len(num) != 16 || sn.Status != synapsefake.SubnetActive {
					t.Errorf("Subnet(%s) = %+v, %v; answered card_number %q", id, sn, ok, num)
				}
				got := ctlAPIOK(t, e.fake, "GET", "/users/"+e.fx.User.ID+"/nodes/"+e.fx.Node.ID+"/subnets/"+id, e.fx.Headers, nil)
				if got["status"] != "ACTIVE" || got["account_class"] != "CARD" || !strings.HasSuffix(num, testkit.CtlStr(got["card_number"])) {
					t.Errorf("GET subnet: %v", got)
				}
			},
		},
		{
			name: "create account-number subnet", method: "POST", path: "/users/{user}/nodes/{node}/subnets",
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "subnet": map[string]any{"_id": ctlAny, "node_id": e.fx.Node.ID,
					"user_id": e.fx.User.ID, "account_class": "CHECKING", "status": "ACTIVE", "status_code": "USER_REQUESTED",
					"card_number": "", "account_num": ctlAny}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				sv := testkit.CtlObj(body["subnet"])
				if sn, ok := e.fake.Subnet(testkit.CtlStr(sv["_id"])); !ok || sn.AccountNum != testkit.CtlStr(sv["account_num"]) || len(sn.AccountNum) != 10 {
					t.Errorf("Subnet = %+v, %v; answered account_num %v", sn, ok, sv["account_num"])
				}
			},
		},
		{
			name: "oauth key with scopes", method: "POST", path: "/users/{user}/oauth",
			body: map[string]any{"fingerprint": "fp-new", "scopes": []string{"NODE|GET"}},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "oauth_key": ctlAny, "fingerprint": "fp-new"}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				if u, _ := e.fake.User(e.fx.User.ID); !slices.Contains(u.Fingerprints, "fp-new") {
					t.Errorf("fingerprints %v lack fp-new", u.Fingerprints)
				}
				h := testkit.UserHeaders(e.fake, testkit.CtlStr(body["oauth_key"]))
				h["X-SP-USER"] = testkit.CtlStr(body["oauth_key"]) + "|fp-new"
				ctlAPIOK(t, e.fake, "GET", "/users/"+e.fx.User.ID+"/nodes/"+e.fx.Node.ID, h, nil)
				r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users/" + e.fx.User.ID + "/nodes", Header: h})
				testkit.WantError(t, r, 401, "300", "scope_not_granted")
			},
		},
		{
			name: "force MFA", method: "POST", path: "/users/{user}/force-mfa",
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true} },
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				// The registered fingerprint now gets the MFA path.
				r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: "/oauth/" + e.fx.User.ID, Header: testkit.GatewayHeaders(e.fake),
					Body: map[string]any{"refresh_token": e.fx.User.RefreshToken}})
				if r.Status != http.StatusAccepted || r.Body["error_code"] != "10" {
					t.Errorf("OAuth after force-mfa: status %d, want 202 / \"10\": %s", r.Status, r.Raw)
				}
			},
		},
		{
			name: "MFA pin", method: "GET", path: "/users/{user}/mfa-pin",
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true, "pin": "123456"} },
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				if pin := e.fake.MFAPin(e.fx.User.ID); body["pin"] != pin {
					t.Errorf("pin %v, MFAPin %q", body["pin"], pin)
				}
			},
		},
		{
			name: "create subscription", method: "POST", path: "/subscriptions",
			body: map[string]any{"url": "https://hooks.example.com/in", "scopes": []string{"TRAN|PATCH"}},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "subscription": map[string]any{"_id": ctlAny,
					"url": "https://hooks.example.com/in", "scope": []string{"TRAN|PATCH"}, "is_active": true}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				id := testkit.CtlStr(testkit.CtlObj(body["subscription"])["_id"])
				got := ctlAPIOK(t, e.fake, "GET", "/subscriptions/"+id, testkit.GatewayHeaders(e.fake), nil)
				if got["url"] != "https://hooks.example.com/in" || got["is_active"] != true {
					t.Errorf("GET subscription: %v", got)
				}
			},
		},
		{
			name: "create subscription to every scope", method: "POST", path: "/subscriptions",
			body: map[string]any{"url": "http://localhost:9/hooks"},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "subscription": map[string]any{"_id": ctlAny,
					"url": "http://localhost:9/hooks", "scope": reference.SubscriptionScopes(), "is_active": true}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				got := ctlAPIOK(t, e.fake, "GET", "/subscriptions", testkit.GatewayHeaders(e.fake), nil)
				if got["subscriptions_count"] != 1.0 {
					t.Errorf("subscriptions_count %v, want 1", got["subscriptions_count"])
				}
			},
		},
		{
			name: "read the clock", method: "GET", path: "/clock",
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true, "now": e.now()} },
		},
		{
			name: "advance the clock by a duration", method: "POST", path: "/clock/advance",
			body: map[string]any{"duration": "24h"},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "now": e.now() + (24 * time.Hour).Milliseconds()}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				if body["now"] != float64(e.now()) {
					t.Errorf("now %v, fake.Now() %d", body["now"], e.now())
				}
			},
		},
		{
			name: "advance the clock by milliseconds", method: "POST", path: "/clock/advance",
			body: map[string]any{"ms": 90000},
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true, "now": e.now() + 90000} },
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				if body["now"] != float64(e.now()) {
					t.Errorf("now %v, fake.Now() %d", body["now"], e.now())
				}
			},
		},
		{
			name: "read a transaction", method: "GET", path: "/transactions/{tx}",
			want: func(e ctlEnv) map[string]any {
				return e.wantTx("CREATED", "", ctlTimeline(e.now(), "CREATED", "Transaction Created."))
			},
		},
		{
			name: "settle", method: "POST", path: "/transactions/{tx}/settle",
			want: func(e ctlEnv) map[string]any {
				return e.wantTx("SETTLED", "", ctlTimeline(e.now(), "CREATED", "Transaction Created.",
					"PROCESSING-DEBIT", "Processing debit.", "PROCESSING-CREDIT", "Processing credit.",
					"SETTLED", "Transaction settled."))
			},
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				if rs := e.recentStatus(t); rs["status"] != "SETTLED" {
					t.Errorf("GET transaction: recent_status %v", rs)
				}
				if got := e.balance(t, e.payee.Node.ID); got != ctlTxCents {
					t.Errorf("payee balance %d, want %d", got, ctlTxCents)
				}
			},
		},
		{
			name: "settle with an empty object", method: "POST", path: "/transactions/{tx}/settle", body: map[string]any{},
			want: func(e ctlEnv) map[string]any {
				return e.wantTx("SETTLED", "", ctlTimeline(e.now(), "CREATED", "Transaction Created.",
					"PROCESSING-DEBIT", "Processing debit.", "PROCESSING-CREDIT", "Processing credit.",
					"SETTLED", "Transaction settled."))
			},
		},
		{
			name: "return", method: "POST", path: "/transactions/{tx}/return", body: map[string]any{"code": "R01"},
			want: func(e ctlEnv) map[string]any {
				return e.wantTx("RETURNED", "R01", ctlTimeline(e.now(), "CREATED", "Transaction Created.",
					"PROCESSING-DEBIT", "Processing debit.", "PROCESSING-CREDIT", "Processing credit.",
					"RETURNED", ctlCodeNote("R01")))
			},
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				if rs := e.recentStatus(t); rs["status"] != "RETURNED" || rs["code"] != "R01" {
					t.Errorf("GET transaction: recent_status %v", rs)
				}
				if got := e.balance(t, e.fx.Node.ID); got != 100000 {
					t.Errorf("sender balance %d, want 100000 (the money came back)", got)
				}
			},
		},
		{
			name: "queue", method: "POST", path: "/transactions/{tx}/queue", body: map[string]any{"code": "MANUAL-REVIEW"},
			want: func(e ctlEnv) map[string]any {
				return e.wantTx("QUEUED-BY-SYNAPSE", "MANUAL-REVIEW", ctlTimeline(e.now(), "CREATED", "Transaction Created.",
					"QUEUED-BY-SYNAPSE", ctlCodeNote("MANUAL-REVIEW")))
			},
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				if rs := e.recentStatus(t); rs["status"] != "QUEUED-BY-SYNAPSE" || rs["code"] != "MANUAL-REVIEW" {
					t.Errorf("GET transaction: recent_status %v", rs)
				}
			},
		},
		{
			name: "release",
			setup: func(t *testing.T, e ctlEnv) {
				if err := e.fake.Queue(e.tx, "MANUAL-REVIEW"); err != nil {
					t.Fatal(err)
				}
			},
			method: "POST", path: "/transactions/{tx}/release",
			want: func(e ctlEnv) map[string]any {
				return e.wantTx("CREATED", "", ctlTimeline(e.now(), "CREATED", "Transaction Created.",
					"QUEUED-BY-SYNAPSE", ctlCodeNote("MANUAL-REVIEW"), "CREATED", "Transaction released from queue."))
			},
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				if rs := e.recentStatus(t); rs["status"] != "CREATED" {
					t.Errorf("GET transaction: recent_status %v", rs)
				}
			},
		},
		{
			name: "cancel", method: "POST", path: "/transactions/{tx}/cancel", body: map[string]any{"code": "DUPLICATE"},
			want: func(e ctlEnv) map[string]any {
				return e.wantTx("CANCELED", "DUPLICATE", ctlTimeline(e.now(), "CREATED", "Transaction Created.",
					"CANCELED", ctlCodeNote("DUPLICATE")))
			},
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				if rs := e.recentStatus(t); rs["status"] != "CANCELED" {
					t.Errorf("GET transaction: recent_status %v", rs)
				}
			},
		},
		{
			name: "cancel without a code", method: "POST", path: "/transactions/{tx}/cancel",
			want: func(e ctlEnv) map[string]any {
				return e.wantTx("CANCELED", "", ctlTimeline(e.now(), "CREATED", "Transaction Created.",
					"CANCELED", "Transaction canceled."))
			},
		},
		{
			name: "advance one step", method: "POST", path: "/transactions/{tx}/advance",
			body: map[string]any{"status": "PROCESSING-DEBIT"},
			want: func(e ctlEnv) map[string]any {
				return e.wantTx("PROCESSING-DEBIT", "", ctlTimeline(e.now(), "CREATED", "Transaction Created.",
					"PROCESSING-DEBIT", "Processing debit."))
			},
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				if got := e.balance(t, e.fx.Node.ID); got != 100000-ctlTxCents {
					t.Errorf("sender balance %d, want %d", got, 100000-ctlTxCents)
				}
			},
		},
		{
			name: "card swipe approved", method: "POST", path: "/subnets/{card}/authorize",
			body: map[string]any{"amount_cents": 500, "merchant": "COFFEE SHOP"},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "transaction": map[string]any{"_id": ctlAny, "status": "CREATED",
					"code": "", "amount_cents": 500, "from_node_id": e.fx.Node.ID, "to_node_id": ctlAny,
					"timeline":      ctlTimeline(e.now(), "CREATED", "Transaction Created."),
					"recent_status": ctlRecent("CREATED", "Transaction Created.", e.now(), "")}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				id := testkit.CtlStr(testkit.CtlObj(body["transaction"])["_id"])
				if tx, ok := e.fake.Transaction(id); !ok || tx.Note != "COFFEE SHOP" || tx.Status != synapsefake.StatusCreated {
					t.Errorf("Transaction(%s) = %+v, %v", id, tx, ok)
				}
			},
		},
		{
			name: "card swipe declined", method: "POST", path: "/subnets/{card}/authorize",
			body: map[string]any{"amount_cents": 500, "foreign": true, "cash": false, "decline_with": "IR51"},
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "transaction": map[string]any{"_id": ctlAny, "status": "RETURNED",
					"code": "IR51", "amount_cents": 500, "from_node_id": e.fx.Node.ID, "to_node_id": ctlAny,
					"timeline":      ctlTimeline(e.now(), "CREATED", "Transaction Created.", "RETURNED", ctlCodeNote("IR51")),
					"recent_status": ctlRecent("RETURNED", ctlCodeNote("IR51"), e.now(), "IR51")}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				id := testkit.CtlStr(testkit.CtlObj(body["transaction"])["_id"])
				if tx, ok := e.fake.Transaction(id); !ok || tx.Code != "IR51" {
					t.Errorf("Transaction(%s) = %+v, %v", id, tx, ok)
				}
				if got := e.balance(t, e.fx.Node.ID); got != 100000 {
					t.Errorf("balance %d after a decline, want 100000", got)
				}
			},
		},
		{
			name: "inject a failure", method: "POST", path: "/faults",
			body: map[string]any{"method": "GET", "route": "/users", "error_code": "503", "times": 2},
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true} },
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				for range 2 {
					r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users", Header: testkit.GatewayHeaders(e.fake)})
					testkit.WantError(t, r, 503, "503", "injected_failure")
				}
				ctlAPIOK(t, e.fake, "GET", "/users", testkit.GatewayHeaders(e.fake), nil)
			},
		},
		{
			name: "inject a failure on any method, written in lower case", method: "POST", path: "/faults",
			body: map[string]any{"method": "post", "route": "/users/{user_id}/nodes/{node_id}/trans", "error_code": "429"},
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true} },
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: "/users/" + e.fx.User.ID + "/nodes/" + e.fx.Node.ID + "/trans",
					Header: e.fx.Headers, Body: map[string]any{}})
				testkit.WantError(t, r, 429, "429", "injected_failure")
			},
		},
		{
			name: "slow down a route", method: "POST", path: "/faults/slow",
			body: map[string]any{"method": "GET", "route": "/users", "delay": "30ms", "times": 1},
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true} },
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				start := time.Now()
				ctlAPIOK(t, e.fake, "GET", "/users", testkit.GatewayHeaders(e.fake), nil)
				if d := time.Since(start); d < 30*time.Millisecond {
					t.Errorf("GET /users took %v, want at least 30ms", d)
				}
			},
		},
		{
			name: "read captured webhooks",
			setup: func(t *testing.T, e ctlEnv) {
				e.fake.MustAddSubscription(t, "https://hooks.example.com/in", "TRAN|PATCH")
				e.fake.Webhooks().Reset()
				if err := e.fake.Settle(e.tx); err != nil {
					t.Fatal(err)
				}
				e.fake.Flush()
			},
			method: "GET", path: "/webhooks",
			want: func(e ctlEnv) map[string]any {
				var hooks []any
				for _, st := range []string{"PROCESSING-DEBIT", "PROCESSING-CREDIT", "SETTLED"} {
					hooks = append(hooks, map[string]any{"function": "TRAN|PATCH", "object_type": "TRAN",
						"object_id": e.tx, "status": st, "code": "", "updated_by": "BACKEND", "date": e.now(),
						"payload": ctlAny, "deliveries": []any{map[string]any{"subscription_id": ctlAny,
							"url": "https://hooks.example.com/in", "log_id": ctlAny,
							"attempts": []any{map[string]any{"code": 200, "text": captured, "date": e.now()}}}}})
				}
				return map[string]any{"success": true, "webhooks": hooks}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				hooks, _ := body["webhooks"].([]any)
				for i, h := range hooks {
					p := testkit.CtlObj(testkit.CtlObj(h)["payload"])
					d := testkit.CtlObj(testkit.CtlObj(h)["deliveries"].([]any)[0])
					if testkit.CtlStr(testkit.CtlObj(p["_id"])["$oid"]) != e.tx || testkit.CtlStr(testkit.CtlObj(p["webhook_meta"])["log_id"]) != testkit.CtlStr(d["log_id"]) ||
						testkit.CtlObj(p["recent_status"])["status"] != testkit.CtlObj(h)["status"] {
						t.Errorf("webhook %d: payload %v does not match %v", i, p, h)
					}
				}
			},
		},
		{
			name: "forget captured webhooks", method: "DELETE", path: "/webhooks",
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true} },
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				if all := e.fake.Webhooks().All(); len(all) != 0 {
					t.Errorf("%d webhooks still captured", len(all))
				}
				if _, ok := e.fake.User(e.fx.User.ID); !ok {
					t.Error("forgetting webhooks removed a user")
				}
			},
		},
		{
			name: "read the journal",
			setup: func(t *testing.T, e ctlEnv) {
				e.fake.ResetRequests()
				ctlAPIOK(t, e.fake, "GET", "/users/"+e.fx.User.ID+"/nodes/"+e.fx.Node.ID+"?full_dehydrate=no", e.fx.Headers, nil)
				ctlAPIOK(t, e.fake, "POST", "/oauth/"+e.fx.User.ID, testkit.GatewayHeaders(e.fake), map[string]any{"refresh_token": e.fx.User.RefreshToken})
				r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users/000000000000000000000000", Header: testkit.GatewayHeaders(e.fake)})
				testkit.WantError(t, r, 404, "404", "unable_to_locate_user")
			},
			method: "GET", path: "/requests",
			want: func(e ctlEnv) map[string]any {
				return map[string]any{"success": true, "requests": []any{
					map[string]any{"method": "GET", "path": "/v3.1/users/" + e.fx.User.ID + "/nodes/" + e.fx.Node.ID,
						"route": "/users/{user_id}/nodes/{node_id}", "query": map[string]any{"full_dehydrate": []string{"no"}},
						"status": 200, "error_code": "0", "summary": ctlAny},
					map[string]any{"method": "POST", "path": "/v3.1/oauth/" + e.fx.User.ID, "route": "/oauth/{user_id}",
						"query": map[string]any{}, "status": 200, "error_code": "0", "summary": ctlAny},
					map[string]any{"method": "GET", "path": "/v3.1/users/000000000000000000000000", "route": "/users/{user_id}",
						"query": map[string]any{}, "status": 404, "error_code": "404", "summary": ctlAny,
						"reason": "no user 000000000000000000000000 in this fake"},
				}}
			},
			check: func(t *testing.T, e ctlEnv, body map[string]any) {
				reqs, _ := body["requests"].([]any)
				journal := e.fake.Requests()
				for i, r := range reqs {
					if i < len(journal) && testkit.CtlStr(testkit.CtlObj(r)["summary"]) != journal[i].String() {
						t.Errorf("request %d: summary %q, want Request.String() %q", i, testkit.CtlObj(r)["summary"], journal[i].String())
					}
				}
				if s := testkit.CtlStr(testkit.CtlObj(reqs[0])["summary"]); !strings.Contains(s, "gateway="+e.fake.ClientID()+"|***") || !strings.Contains(s, "user=***|"+testkit.TestFingerprint) {
					t.Errorf("summary %q does not show the redacted credentials", s)
				}
			},
		},
		{
			name: "forget the journal",
			setup: func(t *testing.T, e ctlEnv) {
				if len(e.fake.Requests()) == 0 {
					t.Fatal("the journal is empty before the call")
				}
			},
			method: "DELETE", path: "/requests",
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true} },
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				if got := e.fake.Requests(); len(got) != 0 {
					t.Errorf("%d requests still journaled", len(got))
				}
			},
		},
		{
			name: "reset", method: "POST", path: "/reset",
			want: func(e ctlEnv) map[string]any { return map[string]any{"success": true} },
			check: func(t *testing.T, e ctlEnv, _ map[string]any) {
				if _, ok := e.fake.User(e.fx.User.ID); ok {
					t.Error("the user survived the reset")
				}
				if _, ok := e.fake.Transaction(e.tx); ok {
					t.Error("the transaction survived the reset")
				}
				if n := len(e.fake.Webhooks().All()); n != 0 {
					t.Errorf("%d webhooks survived the reset", n)
				}
				if n := len(e.fake.Requests()); n != 0 {
					t.Errorf("%d journaled requests survived the reset", n)
				}
				got := ctlAPIOK(t, e.fake, "GET", "/users", testkit.GatewayHeaders(e.fake), nil)
				if got["users_count"] != 0.0 {
					t.Errorf("users_count %v after reset, want 0", got["users_count"])
				}
			},
		},
	} {
		for _, kind := range ctlEnvKinds {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				e := newCtlEnvOf(t, kind)
				if tc.setup != nil {
					tc.setup(t, e)
				}
				want := tc.want(e)
				r := e.ctl(t, tc.method, e.expand(tc.path), tc.body)
				if r.Status != http.StatusOK {
					t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
				}
				ctlWantBody(t, r, want)
				if tc.check != nil {
					tc.check(t, e, r.Body)
				}
			})
		}
	}
}

// ctlSnapshot is what the control API may change, read through the Go
// inspection API and the real API.
type ctlSnapshot struct {
	Now                time.Time
	Users              []synapsefake.User
	Nodes              []synapsefake.Node
	Subnets            []synapsefake.Subnet
	Tx                 synapsefake.Transaction
	Webhooks           []synapsefake.Webhook
	ListUsers          int // status of GET /users: 200 unless a fault was left on it
	UsersCount         any
	SubscriptionsCount any
}

func (e ctlEnv) snapshot(t testing.TB) ctlSnapshot {
	t.Helper()
	e.fake.Flush()
	s := ctlSnapshot{Now: e.fake.Now(), Webhooks: e.fake.Webhooks().All()}
	for _, id := range []string{e.fx.User.ID, e.payee.User.ID} {
		u, _ := e.fake.User(id)
		s.Users = append(s.Users, u)
	}
	for _, id := range []string{e.fx.Node.ID, e.payee.Node.ID, e.ach.ID} {
		n, _ := e.fake.Node(id)
		s.Nodes = append(s.Nodes, n)
	}
	for _, id := range []string{e.card.ID, e.acct.ID} {
		sn, _ := e.fake.Subnet(id)
		s.Subnets = append(s.Subnets, sn)
	}
	s.Tx, _ = e.fake.Transaction(e.tx)
	r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users", Header: testkit.GatewayHeaders(e.fake)})
	s.ListUsers, s.UsersCount = r.Status, r.Body["users_count"]
	s.SubscriptionsCount = ctlAPIOK(t, e.fake, "GET", "/subscriptions", testkit.GatewayHeaders(e.fake), nil)["subscriptions_count"]
	return s
}

func TestControlRefusals(t *testing.T) {
	t.Parallel()
	cancel := func(t *testing.T, e ctlEnv) {
		if err := e.fake.Cancel(e.tx, ""); err != nil {
			t.Fatal(err)
		}
	}
	settle := func(t *testing.T, e ctlEnv) {
		if err := e.fake.Settle(e.tx); err != nil {
			t.Fatal(err)
		}
	}
	const unknown = "000000000000000000000000"
	for _, tc := range []struct {
		name         string
		setup        func(t *testing.T, e ctlEnv)
		method, path string
		body         any
		status       int
		errorCode    string
		code         string
	}{
		// Routing.
		{name: "unknown path", method: "GET", path: "/nope", status: 404, errorCode: "404", code: "not_found"},
		{name: "the root", method: "GET", path: "/", status: 404, errorCode: "404", code: "not_found"},
		{name: "trailing slash", method: "POST", path: "/users/", status: 404, errorCode: "404", code: "not_found"},
		{name: "doubled slash", method: "POST", path: "//users", status: 404, errorCode: "404", code: "not_found"},
		{name: "dot segments", method: "POST", path: "/users/../reset", status: 404, errorCode: "404", code: "not_found"},
		{name: "unknown transaction action", method: "POST", path: "/transactions/{tx}/refund", status: 404, errorCode: "404", code: "not_found"},
		{name: "PATCH on a GET and POST route", method: "PATCH", path: "/users", status: 405, errorCode: "410", code: "method_not_allowed"},
		{name: "GET reset", method: "GET", path: "/reset", status: 405, errorCode: "410", code: "method_not_allowed"},
		{name: "DELETE the clock", method: "DELETE", path: "/clock", status: 405, errorCode: "410", code: "method_not_allowed"},
		{name: "PUT settle", method: "PUT", path: "/transactions/{tx}/settle", status: 405, errorCode: "410", code: "method_not_allowed"},
		{name: "POST webhooks", method: "POST", path: "/webhooks", body: map[string]any{}, status: 405, errorCode: "410", code: "method_not_allowed"},
		{name: "DELETE a transaction", method: "DELETE", path: "/transactions/{tx}", status: 405, errorCode: "410", code: "method_not_allowed"},

		// Users.
		{name: "user: malformed JSON", method: "POST", path: "/users", body: `{"email":`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "user: body not an object", method: "POST", path: "/users", body: `["a"]`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "user: null body", method: "POST", path: "/users", body: `null`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "user: trailing data", method: "POST", path: "/users", body: `{} {}`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "user: wrong type", method: "POST", path: "/users", body: map[string]any{"is_business": "yes"}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "user: names not a list", method: "POST", path: "/users", body: map[string]any{"legal_names": "Ann"}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "user: unknown field", method: "POST", path: "/users", body: map[string]any{"emial": "a@example.com"}, status: 400, errorCode: "200", code: "unknown_field"},
		{name: "user: unknown permission", method: "POST", path: "/users", body: map[string]any{"permission": "ROOT"}, status: 400, errorCode: "200", code: "invalid_permission"},

		{name: "user: document of an unknown kind", method: "POST", path: "/users", body: map[string]any{"documents": []any{map[string]any{"kind": "bank", "type": "SSN"}}}, status: 400, errorCode: "200", code: "invalid_document_kind"},
		{name: "user: document without a type", method: "POST", path: "/users", body: map[string]any{"documents": []any{map[string]any{"kind": "virtual"}}}, status: 400, errorCode: "200", code: "missing_document_type"},
		{name: "user: document of an unknown status", method: "POST", path: "/users", body: map[string]any{"documents": []any{map[string]any{"kind": "virtual", "type": "SSN", "status": "OK"}}}, status: 400, errorCode: "200", code: "invalid_status"},
		{name: "user: documents not a list", method: "POST", path: "/users", body: map[string]any{"documents": "SSN"}, status: 400, errorCode: "200", code: "invalid_field_type"},

		// KYC reviews.
		{name: "review: malformed JSON", method: "POST", path: "/users/{user}/documents/review", body: `{"status":`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "review: no status", method: "POST", path: "/users/{user}/documents/review", body: map[string]any{}, status: 400, errorCode: "200", code: "missing_status"},
		{name: "review: status as a number", method: "POST", path: "/users/{user}/documents/review", body: map[string]any{"status": 1}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "review: unknown status", method: "POST", path: "/users/{user}/documents/review", body: map[string]any{"status": "APPROVED"}, status: 400, errorCode: "200", code: "invalid_status"},
		{name: "review: unknown field", method: "POST", path: "/users/{user}/documents/review", body: map[string]any{"status": "VALID", "why": "x"}, status: 400, errorCode: "200", code: "unknown_field"},
		{name: "review: unknown user", method: "POST", path: "/users/" + unknown + "/documents/review", body: map[string]any{"status": "VALID"}, status: 404, errorCode: "404", code: "unable_to_locate_user"},
		{name: "review one: unknown user", method: "POST", path: "/users/" + unknown + "/documents/" + unknown + "/review", body: map[string]any{"status": "VALID"}, status: 404, errorCode: "404", code: "unable_to_locate_user"},
		{name: "review one: unknown document", method: "POST", path: "/users/{user}/documents/" + unknown + "/review", body: map[string]any{"status": "VALID"}, status: 404, errorCode: "404", code: "unable_to_locate_document"},
		{name: "review one: unknown status", method: "POST", path: "/users/{user}/documents/" + unknown + "/review", body: map[string]any{"status": "MAYBE"}, status: 400, errorCode: "200", code: "invalid_status"},
		{name: "review: GET", method: "GET", path: "/users/{user}/documents/review", status: 405, errorCode: "410", code: "method_not_allowed"},

		// Nodes.
		{name: "node: unknown user", method: "POST", path: "/users/" + unknown + "/nodes", status: 404, errorCode: "404", code: "unable_to_locate_user"},
		{name: "node: unknown type", method: "POST", path: "/users/{user}/nodes", body: map[string]any{"type": "MOON-US"}, status: 400, errorCode: "200", code: "invalid_node_type"},
		{name: "node: negative balance", method: "POST", path: "/users/{user}/nodes", body: map[string]any{"balance_cents": -1}, status: 400, errorCode: "200", code: "invalid_balance"},
		{name: "node: balance over MaxBalanceCents", method: "POST", path: "/users/{user}/nodes", body: map[string]any{"balance_cents": synapsefake.MaxBalanceCents + 1}, status: 400, errorCode: "200", code: "invalid_balance"},
		{name: "node: balance math.MaxInt64", method: "POST", path: "/users/{user}/nodes", body: map[string]any{"balance_cents": int64(math.MaxInt64)}, status: 400, errorCode: "200", code: "invalid_balance"},
		{name: "node: balance as a string", method: "POST", path: "/users/{user}/nodes", body: map[string]any{"balance_cents": "100"}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "node: fractional balance", method: "POST", path: "/users/{user}/nodes", body: map[string]any{"balance_cents": 1.5}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "node: bad routing number", method: "POST", path: "/users/{user}/nodes", body: map[string]any{"type": "ACH-US", "routing_num": "123456789"}, status: 400, errorCode: "200", code: "invalid_routing_num"},

		// Subnets.
		{name: "subnet: unknown user", method: "POST", path: "/users/" + unknown + "/nodes/{node}/subnets", status: 404, errorCode: "404", code: "unable_to_locate_user"},
		{name: "subnet: unknown node", method: "POST", path: "/users/{user}/nodes/" + unknown + "/subnets", status: 404, errorCode: "404", code: "unable_to_locate_node"},
		{name: "subnet: another user's node", method: "POST", path: "/users/{payee}/nodes/{node}/subnets", status: 401, errorCode: "300", code: "unauthorized_node"},
		{name: "subnet: on an ACH-US node", method: "POST", path: "/users/{user}/nodes/{ach}/subnets", status: 409, errorCode: "400", code: "invalid_node_type"},
		{name: "subnet: unknown class", method: "POST", path: "/users/{user}/nodes/{node}/subnets", body: map[string]any{"account_class": "GOLD"}, status: 400, errorCode: "200", code: "invalid_account_class"},
		{name: "subnet: unknown status", method: "POST", path: "/users/{user}/nodes/{node}/subnets", body: map[string]any{"status": "LOST"}, status: 400, errorCode: "200", code: "invalid_status"},
		{name: "subnet: malformed JSON", method: "POST", path: "/users/{user}/nodes/{node}/subnets", body: `{`, status: 400, errorCode: "200", code: "invalid_json"},

		// OAuth and MFA.
		{name: "oauth: unknown user", method: "POST", path: "/users/" + unknown + "/oauth", body: map[string]any{"fingerprint": "fp"}, status: 404, errorCode: "404", code: "unable_to_locate_user"},
		{name: "oauth: no fingerprint", method: "POST", path: "/users/{user}/oauth", status: 400, errorCode: "200", code: "missing_fingerprint"},
		{name: "oauth: unknown scope", method: "POST", path: "/users/{user}/oauth", body: map[string]any{"fingerprint": "fp", "scopes": []string{"USERS|POST"}}, status: 400, errorCode: "200", code: "invalid_scope"},
		{name: "oauth: scopes not a list", method: "POST", path: "/users/{user}/oauth", body: map[string]any{"fingerprint": "fp", "scopes": "NODE|GET"}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "force-mfa: unknown user", method: "POST", path: "/users/" + unknown + "/force-mfa", status: 404, errorCode: "404", code: "unable_to_locate_user"},
		{name: "force-mfa: unknown field", method: "POST", path: "/users/{user}/force-mfa", body: map[string]any{"on": true}, status: 400, errorCode: "200", code: "unknown_field"},
		{name: "mfa-pin: unknown user", method: "GET", path: "/users/" + unknown + "/mfa-pin", status: 404, errorCode: "404", code: "unable_to_locate_user"},

		// Subscriptions.
		{name: "subscription: no url", method: "POST", path: "/subscriptions", status: 400, errorCode: "200", code: "invalid_url"},
		{name: "subscription: not http", method: "POST", path: "/subscriptions", body: map[string]any{"url": "ftp://example.com/x"}, status: 400, errorCode: "200", code: "invalid_url"},
		{name: "subscription: an empty scope list", method: "POST", path: "/subscriptions", body: map[string]any{"url": "https://example.com/x", "scopes": []string{}}, status: 400, errorCode: "200", code: "missing_scope"},
		{name: "subscription: unknown scope", method: "POST", path: "/subscriptions", body: map[string]any{"url": "https://example.com/x", "scopes": []string{"TRAN|GET"}}, status: 400, errorCode: "200", code: "invalid_scope"},

		// The clock.
		{name: "advance: not a duration", method: "POST", path: "/clock/advance", body: map[string]any{"duration": "tomorrow"}, status: 400, errorCode: "200", code: "invalid_duration"},
		{name: "advance: negative duration", method: "POST", path: "/clock/advance", body: map[string]any{"duration": "-1h"}, status: 400, errorCode: "200", code: "invalid_duration"},
		{name: "advance: neither", method: "POST", path: "/clock/advance", status: 400, errorCode: "200", code: "invalid_duration"},
		{name: "advance: both", method: "POST", path: "/clock/advance", body: map[string]any{"duration": "1h", "ms": 1000}, status: 400, errorCode: "200", code: "invalid_duration"},
		{name: "advance: ms as a string", method: "POST", path: "/clock/advance", body: map[string]any{"ms": "1000"}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "advance: fractional ms", method: "POST", path: "/clock/advance", body: map[string]any{"ms": 1.5}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "advance: negative ms", method: "POST", path: "/clock/advance", body: map[string]any{"ms": -1}, status: 400, errorCode: "200", code: "invalid_duration"},
		{name: "advance: ms overflowing a duration", method: "POST", path: "/clock/advance", body: `{"ms": 9000000000000000000}`, status: 400, errorCode: "200", code: "invalid_duration"},
		{name: "advance: duration as a number", method: "POST", path: "/clock/advance", body: map[string]any{"duration": 3600}, status: 400, errorCode: "200", code: "invalid_field_type"},

		// Transactions.
		{name: "read: unknown transaction", method: "GET", path: "/transactions/" + unknown, status: 404, errorCode: "404", code: "unable_to_locate_transaction"},
		{name: "settle: unknown transaction", method: "POST", path: "/transactions/" + unknown + "/settle", status: 404, errorCode: "404", code: "unable_to_locate_transaction"},
		{name: "settle: canceled", setup: cancel, method: "POST", path: "/transactions/{tx}/settle", status: 409, errorCode: "410", code: "illegal_status_change"},
		{name: "settle: a code", method: "POST", path: "/transactions/{tx}/settle", body: map[string]any{"code": "R01"}, status: 400, errorCode: "200", code: "unknown_field"},
		{name: "settle: malformed JSON", method: "POST", path: "/transactions/{tx}/settle", body: `{"`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "return: unknown code", method: "POST", path: "/transactions/{tx}/return", body: map[string]any{"code": "R99"}, status: 400, errorCode: "200", code: "invalid_return_code"},
		{name: "return: no code", method: "POST", path: "/transactions/{tx}/return", status: 400, errorCode: "200", code: "invalid_return_code"},
		{name: "return: code as a number", method: "POST", path: "/transactions/{tx}/return", body: map[string]any{"code": 1}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "return: canceled", setup: cancel, method: "POST", path: "/transactions/{tx}/return", body: map[string]any{"code": "R01"}, status: 409, errorCode: "410", code: "illegal_status_change"},
		{name: "return: unknown transaction", method: "POST", path: "/transactions/" + unknown + "/return", body: map[string]any{"code": "R01"}, status: 404, errorCode: "404", code: "unable_to_locate_transaction"},
		{name: "queue: settled", setup: settle, method: "POST", path: "/transactions/{tx}/queue", body: map[string]any{"code": "X"}, status: 409, errorCode: "410", code: "illegal_status_change"},
		{name: "queue: a status", method: "POST", path: "/transactions/{tx}/queue", body: map[string]any{"status": "QUEUED-BY-RECEIVER"}, status: 400, errorCode: "200", code: "unknown_field"},
		{name: "release: not queued", method: "POST", path: "/transactions/{tx}/release", status: 409, errorCode: "410", code: "illegal_status_change"},
		{name: "cancel: settled", setup: settle, method: "POST", path: "/transactions/{tx}/cancel", status: 409, errorCode: "410", code: "cannot_cancel_transaction"},
		{name: "cancel: unknown transaction", method: "POST", path: "/transactions/" + unknown + "/cancel", status: 404, errorCode: "404", code: "unable_to_locate_transaction"},
		{name: "advance: unknown status", method: "POST", path: "/transactions/{tx}/advance", body: map[string]any{"status": "DONE"}, status: 400, errorCode: "200", code: "invalid_status"},
		{name: "advance: no status", method: "POST", path: "/transactions/{tx}/advance", status: 400, errorCode: "200", code: "invalid_status"},
		{name: "advance: illegal move", method: "POST", path: "/transactions/{tx}/advance", body: map[string]any{"status": "SETTLED"}, status: 409, errorCode: "410", code: "illegal_status_change"},
		{name: "advance: out of CANCELED", setup: cancel, method: "POST", path: "/transactions/{tx}/advance", body: map[string]any{"status": "CREATED"}, status: 409, errorCode: "410", code: "illegal_status_change"},
		{name: "advance: a code", method: "POST", path: "/transactions/{tx}/advance", body: map[string]any{"status": "PROCESSING-DEBIT", "code": "X"}, status: 400, errorCode: "200", code: "unknown_field"},

		// Card swipes.
		{name: "swipe: unknown subnet", method: "POST", path: "/subnets/" + unknown + "/authorize", body: map[string]any{"amount_cents": 100}, status: 404, errorCode: "404", code: "unable_to_locate_subnet"},
		{name: "swipe: not a card", method: "POST", path: "/subnets/{acct}/authorize", body: map[string]any{"amount_cents": 100}, status: 409, errorCode: "410", code: "not_a_card"},
		{name: "swipe: no amount", method: "POST", path: "/subnets/{card}/authorize", status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "swipe: amount as a string", method: "POST", path: "/subnets/{card}/authorize", body: map[string]any{"amount_cents": "100"}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "swipe: unknown decline code", method: "POST", path: "/subnets/{card}/authorize", body: map[string]any{"amount_cents": 100, "decline_with": "IR999"}, status: 400, errorCode: "200", code: "invalid_code"},
		{name: "swipe: unknown field", method: "POST", path: "/subnets/{card}/authorize", body: map[string]any{"amount": 1}, status: 400, errorCode: "200", code: "unknown_field"},
		{name: "swipe: partial_approval_allowed as a string", method: "POST", path: "/subnets/{card}/authorize",
			body: map[string]any{"amount_cents": 100, "partial_approval_allowed": "yes"}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "force post: partial_approval_allowed as a number", method: "POST", path: "/subnets/{card}/force-post",
			body: map[string]any{"amount_cents": 100, "partial_approval_allowed": 1}, status: 400, errorCode: "200", code: "invalid_field_type"},

		// Faults: each names GET /users, which the snapshot calls, so a
		// fault registered despite the refusal shows.
		{name: "fault: unknown route", method: "POST", path: "/faults", body: map[string]any{"method": "GET", "route": "/v3.1/users", "error_code": "503"}, status: 400, errorCode: "200", code: "invalid_fault"},
		{name: "fault: method the route lacks", method: "POST", path: "/faults", body: map[string]any{"method": "PUT", "route": "/users", "error_code": "503"}, status: 400, errorCode: "200", code: "invalid_fault"},
		{name: "fault: unknown error code", method: "POST", path: "/faults", body: map[string]any{"method": "GET", "route": "/users", "error_code": "999"}, status: 400, errorCode: "200", code: "invalid_fault"},
		{name: "fault: the success code", method: "POST", path: "/faults", body: map[string]any{"method": "GET", "route": "/users", "error_code": "0"}, status: 400, errorCode: "200", code: "invalid_fault"},
		{name: "fault: no error code", method: "POST", path: "/faults", body: map[string]any{"method": "GET", "route": "/users"}, status: 400, errorCode: "200", code: "missing_error_code"},
		{name: "fault: error code as a number", method: "POST", path: "/faults", body: map[string]any{"method": "GET", "route": "/users", "error_code": 503}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "fault: negative times", method: "POST", path: "/faults", body: map[string]any{"method": "GET", "route": "/users", "error_code": "503", "times": -1}, status: 400, errorCode: "200", code: "invalid_times"},
		{name: "fault: a delay", method: "POST", path: "/faults", body: map[string]any{"method": "GET", "route": "/users", "error_code": "503", "delay": "1s"}, status: 400, errorCode: "200", code: "unknown_field"},
		{name: "slow: not a duration", method: "POST", path: "/faults/slow", body: map[string]any{"method": "GET", "route": "/users", "delay": "soon"}, status: 400, errorCode: "200", code: "invalid_delay"},
		{name: "slow: no delay", method: "POST", path: "/faults/slow", body: map[string]any{"method": "GET", "route": "/users"}, status: 400, errorCode: "200", code: "invalid_delay"},
		{name: "slow: zero delay", method: "POST", path: "/faults/slow", body: map[string]any{"method": "GET", "route": "/users", "delay": "0s"}, status: 400, errorCode: "200", code: "invalid_delay"},
		{name: "slow: unknown route", method: "POST", path: "/faults/slow", body: map[string]any{"method": "GET", "route": "/nope", "delay": "1s"}, status: 400, errorCode: "200", code: "invalid_fault"},
		{name: "slow: an error code", method: "POST", path: "/faults/slow", body: map[string]any{"method": "GET", "route": "/users", "delay": "1s", "error_code": "503"}, status: 400, errorCode: "200", code: "unknown_field"},

		// Reset.
		{name: "reset: body not an object", method: "POST", path: "/reset", body: `[1]`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "reset: unknown field", method: "POST", path: "/reset", body: map[string]any{"keep_users": true}, status: 400, errorCode: "200", code: "unknown_field"},
	} {
		for _, kind := range ctlEnvKinds {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				e := newCtlEnvOf(t, kind)
				if tc.setup != nil {
					tc.setup(t, e)
				}
				before := e.snapshot(t)
				r := e.ctl(t, tc.method, e.expand(tc.path), tc.body)
				testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
				if hc := testkit.CtlStr(r.Body["http_code"]); hc != strconv.Itoa(tc.status) {
					t.Errorf("http_code %q, want %d", hc, tc.status)
				}
				// DeepEqual first: cmp.Diff walks every webhook's body byte by
				// byte, seconds over the table; it only explains a difference.
				if after := e.snapshot(t); !reflect.DeepEqual(before, after) {
					if diff := cmp.Diff(before, after); diff != "" {
						t.Errorf("state changed (-before +after):\n%s", diff)
					}
				}
			})
		}
	}
}

// TestControlNotJournaled checks that control calls, answered or refused,
// stay out of the request journal.
func TestControlNotJournaled(t *testing.T) {
	t.Parallel()
	e := newCtlEnv(t)
	e.fake.ResetRequests()
	testkit.CtlOK(t, e.fake, "GET", "/clock", nil)
	testkit.CtlOK(t, e.fake, "POST", "/users", map[string]any{})
	testkit.Ctl(t, e.fake, "GET", "/nope", nil)
	testkit.Ctl(t, e.fake, "GET", "/users", nil)
	testkit.CtlOK(t, e.fake, "GET", "/requests", nil)
	if got := e.fake.Requests(); len(got) != 0 {
		t.Errorf("journal holds %d control calls: %v", len(got), got)
	}
}

// TestControlRequestsHideSecrets checks that the journal's control view
// carries no header or body: the client secret, the oauth key and the
// refresh token never appear in it.
func TestControlRequestsHideSecrets(t *testing.T) {
	t.Parallel()
	e := newCtlEnv(t)
	ctlAPIOK(t, e.fake, "POST", "/oauth/"+e.fx.User.ID, testkit.GatewayHeaders(e.fake), map[string]any{"refresh_token": e.fx.User.RefreshToken})
	ctlAPIOK(t, e.fake, "GET", "/users/"+e.fx.User.ID+"/nodes", e.fx.Headers, nil)
	r := testkit.Ctl(t, e.fake, "GET", "/requests", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Raw)
	}
	for name, secret := range map[string]string{"client secret": e.fake.ClientSecret(), "oauth key": e.fx.Key,
		"refresh token": e.fx.User.RefreshToken} {
		if bytes.Contains(r.Raw, []byte(secret)) {
			t.Errorf("GET /_fake/requests shows the %s", name)
		}
	}
	for _, req := range r.Body["requests"].([]any) {
		for _, k := range []string{"header", "headers", "body"} {
			if _, ok := testkit.CtlObj(req)[k]; ok {
				t.Errorf("a request carries %q: %v", k, req)
			}
		}
	}
}

// TestControlClockAdvanceRunsDueWork checks that advancing the clock over
// the control API runs automatic processing, as fake.Advance does.
func TestControlClockAdvanceRunsDueWork(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx, payee := testkit.NewFixture(t, fake, 10000), testkit.NewFixture(t, fake, 0)
	tx := ctlAPIOK(t, fake, "POST", "/users/"+fx.User.ID+"/nodes/"+fx.Node.ID+"/trans", fx.Headers, map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": payee.Node.ID},
		"amount": map[string]any{"amount": 10, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1"},
	})
	id := testkit.CtlStr(tx["_id"])
	testkit.CtlOK(t, fake, "POST", "/clock/advance", map[string]any{"duration": "1s"})
	if got, _ := fake.Transaction(id); got.Status != synapsefake.StatusSettled {
		t.Errorf("status %s after advancing 1s, want SETTLED", got.Status)
	}
	if n, _ := fake.Node(payee.Node.ID); n.BalanceCents != 1000 {
		t.Errorf("payee balance %d, want 1000", n.BalanceCents)
	}
}

// TestWithoutControlAPI checks that the option turns /_fake/ into an
// unknown route of the real API: 404, nothing done, and journaled.
func TestWithoutControlAPI(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/users", map[string]any{}},
		{"POST", "/reset", nil},
		{"GET", "/clock", nil},
		{"POST", "/clock/advance", map[string]any{"duration": "1h"}},
		{"GET", "/requests", nil},
		{"DELETE", "/requests", nil},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithoutControlAPI())
			fx := testkit.NewFixture(t, fake, 100)
			now := fake.Now()
			r := testkit.Ctl(t, fake, tc.method, tc.path, tc.body)
			testkit.WantError(t, r, 404, "404", "not_found")
			if _, ok := fake.User(fx.User.ID); !ok {
				t.Error("the user is gone")
			}
			if !fake.Now().Equal(now) {
				t.Errorf("the clock moved from %v to %v", now, fake.Now())
			}
			reqs := fake.Requests()
			if len(reqs) != 1 || reqs[0].Path != "/_fake"+tc.path || reqs[0].Status != 404 {
				t.Errorf("journal %v, want the one call to /_fake%s", reqs, tc.path)
			}
			got := ctlAPIOK(t, fake, "GET", "/users", testkit.GatewayHeaders(fake), nil)
			if got["users_count"] != 1.0 {
				t.Errorf("users_count %v, want 1", got["users_count"])
			}
		})
	}
}

// ctlFlow drives one app-style flow through client against root (the
// server's URL without /v3.1): seed a user and two nodes over the control
// API, mint an OAuth key, create a transaction over the real API, settle it
// over the control API, and read it and the payee's balance over the real
// API.
func ctlFlow(t *testing.T, client *http.Client, root, gateway string) {
	t.Helper()
	send := func(method, path string, header map[string]string, body any, want int) map[string]any {
		t.Helper()
		r := testkit.CtlSend(t, client, method, root+path, header, body)
		if r.Status != want {
			t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Raw)
		}
		return r.Body
	}
	user := testkit.CtlObj(send("POST", "/_fake/users", nil, map[string]any{"legal_names": []string{"Flo Flow"}, "fingerprint": "fp-flow"}, 200)["user"])
	uid := testkit.CtlStr(user["_id"])
	from := testkit.CtlStr(testkit.CtlObj(send("POST", "/_fake/users/"+uid+"/nodes", nil, map[string]any{"nickname": "Spend", "balance_cents": 10000}, 200)["node"])["_id"])
	to := testkit.CtlStr(testkit.CtlObj(send("POST", "/_fake/users/"+uid+"/nodes", nil, map[string]any{"nickname": "Save"}, 200)["node"])["_id"])
	key := testkit.CtlStr(send("POST", "/_fake/users/"+uid+"/oauth", nil, map[string]any{"fingerprint": "fp-flow"}, 200)["oauth_key"])
	h := map[string]string{"X-SP-GATEWAY": gateway, "X-SP-USER": key + "|fp-flow", "X-SP-USER-IP": "127.0.0.1"}

	tx := send("POST", "/v3.1/users/"+uid+"/nodes/"+from+"/trans", h, map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": to},
		"amount": map[string]any{"amount": 25, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1"},
	}, 200)
	id := testkit.CtlStr(tx["_id"])
	if s := testkit.CtlObj(tx["recent_status"])["status"]; s != "CREATED" {
		t.Fatalf("new transaction: status %v, want CREATED", s)
	}
	settled := testkit.CtlObj(send("POST", "/_fake/transactions/"+id+"/settle", nil, nil, 200)["transaction"])
	if settled["status"] != "SETTLED" || settled["amount_cents"] != 2500.0 {
		t.Errorf("settle answered %v", settled)
	}
	got := send("GET", "/v3.1/users/"+uid+"/nodes/"+from+"/trans/"+id, h, nil, 200)
	if s := testkit.CtlObj(got["recent_status"])["status"]; s != "SETTLED" {
		t.Errorf("GET transaction: status %v, want SETTLED", s)
	}
	node := send("GET", "/v3.1/users/"+uid+"/nodes/"+to, h, nil, 200)
	if amt := testkit.CtlObj(testkit.CtlObj(node["info"])["balance"])["amount"]; amt != 25.0 {
		t.Errorf("payee node balance %v, want 25", amt)
	}
	reqs := send("GET", "/_fake/requests", nil, nil, 200)["requests"].([]any)
	if len(reqs) != 3 {
		t.Errorf("journal holds %d requests, want the 3 real API calls: %v", len(reqs), reqs)
	}
}

// TestControlFlow runs the same flow over a listener and in-process, with no
// socket, as issue 6 asks.
func TestControlFlow(t *testing.T) {
	t.Parallel()
	t.Run("listener", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		ctlFlow(t, &http.Client{}, testkit.CtlRoot(fake), fake.Gateway())
	})
	t.Run("Transport, any host", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.New()
		defer fake.Close()
		ctlFlow(t, &http.Client{Transport: fake.Transport()}, "http://fake.test", fake.Gateway())
	})
	t.Run("Client", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.New()
		defer fake.Close()
		ctlFlow(t, fake.Client(), testkit.CtlRoot(fake), fake.Gateway())
	})
	t.Run("Transport in a synctest bubble", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			fake := synapsefake.New()
			defer fake.Close()
			ctlFlow(t, &http.Client{Transport: fake.Transport()}, testkit.CtlRoot(fake), fake.Gateway())
		})
	})
}

// TestControlWebhooksLimit: ?limit=N answers the N newest captured
// webhooks, oldest first; a bad limit is refused.
func TestControlWebhooksLimit(t *testing.T) {
	fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery())
	var ids []string
	for range 5 {
		ids = append(ids, fake.MustAddUser(t, synapsefake.UserSeed{}).ID)
	}
	for _, tc := range []struct {
		query string
		want  []string // object ids, oldest first; nil for a refusal
	}{
		{"", ids},
		{"?limit=2", ids[3:]},
		{"?limit=5", ids},
		{"?limit=100", ids},
		{"?limit=0", nil},
		{"?limit=-1", nil},
		{"?limit=x", nil},
		{"?limit=100001", nil},
	} {
		t.Run(tc.query, func(t *testing.T) {
			r := testkit.Ctl(t, fake, "GET", "/webhooks"+tc.query, nil)
			if tc.want == nil {
				testkit.WantError(t, r, 400, "200", "invalid_limit")
				return
			}
			hooks, _ := r.Body["webhooks"].([]any)
			var got []string
			for _, h := range hooks {
				got = append(got, h.(map[string]any)["object_id"].(string))
			}
			if r.Status != 200 || !slices.Equal(got, tc.want) {
				t.Errorf("status %d, object ids %v, want %v", r.Status, got, tc.want)
			}
		})
	}
}

// TestControlAdvanceStopsAtTheYear9999: POST /_fake/clock/advance refuses a
// duration that would take the clock past 9999-12-31, which a saved state
// cannot hold (400 / "200" invalid_duration, the clock unmoved); a shorter
// one moves it, and the state still restores; the dashboard's clock step
// is refused the same way.
func TestControlAdvanceStopsAtTheYear9999(t *testing.T) {
	t.Parallel()
	start := time.Date(9899, 6, 1, 12, 0, 0, 0, time.UTC)
	fake := synapsefake.NewServer(t, synapsefake.WithStartTime(start))
	testkit.WantError(t, testkit.Ctl(t, fake, "POST", "/clock/advance", map[string]any{"duration": "2562047h"}), 400, "200", "invalid_duration")
	if now := fake.Now(); !now.Equal(start) {
		t.Errorf("the clock moved to %v on a refused advance", now)
	}
	if r := testkit.Ctl(t, fake, "POST", "/clock/advance", map[string]any{"duration": "8760h"}); r.Status != 200 {
		t.Fatalf("a year's advance: %d %s", r.Status, r.Raw)
	}
	var doc strings.Builder
	if err := fake.Snapshot(&doc); err != nil {
		t.Fatal(err)
	}
	if err := synapsefake.NewServer(t).Restore(strings.NewReader(doc.String())); err != nil {
		t.Errorf("Restore: %v", err)
	}
	// The dashboard's clock steps stop there too.
	last, err := fake.AdvanceTo(time.Date(9999, 12, 31, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	testkit.WantError(t, testkit.Ctl(t, fake, "POST", "/ui/clock", map[string]any{"step": "1d"}), 400, "200", "invalid_duration")
	if now := fake.Now(); !now.Equal(last) {
		t.Errorf("the dashboard's step moved the clock to %v", now)
	}
}
