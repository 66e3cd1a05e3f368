package api_test

// The official Python client SynapsePy (synapsepy, HttpClient over a
// requests.Session) on the wire, one row per method that sends a request:
//
//   - Every request carries Content-Type application/json, X-SP-LANG en,
//     X-SP-GATEWAY, X-SP-USER "<oauth_key>|<fingerprint>" and X-SP-USER-IP
//     (pyHeaders); once a call passed idempotency_key, X-SP-IDEMPOTENCY-KEY
//     stays on every later request of the client.
//   - GET sends only the query parameters it knows (page, per_page, type,
//     full_dehydrate, ...), a list as repeated parameters; POST and PATCH send
//     json.dumps(payload), PATCH with resend_micro, ship or reset in the query.
//   - parse_response raises on a status >= 400 and on a 2xx body with an
//     error key and error_code 10; the wrappers then read the fields listed
//     in reads (Users: page, page_count, limit, users_count; Nodes:
//     page_count, limit, node_count; ...).
//
// batch_trans is left out: it sends POST .../nodes/<id>batch-trans (no
// slash), a path no server has.

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"
)

// pyRow is one SDK method as it goes on the wire.
type pyRow struct {
	method    string
	setup     func(t *testing.T, e sdkEnv) // optional, before the request
	req       func(t *testing.T, e sdkEnv) testkit.Call
	status    int
	errorCode string   // "" when the answer carries none to check
	reads     []string // dot paths the SDK reads from the answer; a number indexes a list
	after     func(t *testing.T, e sdkEnv, r testkit.Response)
}

// hasPath reports whether the dot path p names a value in m (null counts).
func hasPath(m map[string]any, p string) bool {
	var cur any = m
	for _, k := range strings.Split(p, ".") {
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[k]
			if !ok {
				return false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(v) {
				return false
			}
			cur = v[i]
		default:
			return false
		}
	}
	return true
}

func runPyRows(t *testing.T, rows []pyRow) {
	t.Helper()
	for _, tc := range rows {
		t.Run(tc.method, func(t *testing.T) {
			t.Parallel()
			e := newSDKEnv(t)
			if tc.setup != nil {
				tc.setup(t, e)
			}
			r := testkit.Do(t, e.Fake, tc.req(t, e))
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Raw)
			}
			if tc.errorCode != "" && r.Body["error_code"] != tc.errorCode {
				t.Errorf("error_code %v, want %q", r.Body["error_code"], tc.errorCode)
			}
			for _, p := range tc.reads {
				if !hasPath(r.Body, p) {
					t.Errorf("answer lacks %s, which the SDK reads: %s", p, r.Raw)
				}
			}
			if tc.after != nil {
				tc.after(t, e, r)
			}
		})
	}
}

// pyCall is a request with SynapsePy's headers and the fixture user's key.
func pyCall(e sdkEnv, method, path string, body any) testkit.Call {
	return testkit.Call{Method: method, Path: path, Header: testkit.PyHeaders(e.Fake, e.Fx.Key), Body: body}
}

// pyGateway is a client-level request of SynapsePy: no oauth key yet.
func pyGateway(e sdkEnv, method, path string, body any) testkit.Call {
	return testkit.Call{Method: method, Path: path, Header: testkit.PyHeaders(e.Fake, ""), Body: body}
}

var (
	// Nodes reads page with a default of 1; the create answer has none.
	pyNodesList = []string{"page_count", "limit", "node_count", "nodes.0._id", "nodes.0.type"}
	pyTransList = []string{"page", "page_count", "limit", "trans_count", "trans.0._id"}
	pyTrans     = []string{"_id", "amount.amount", "to.id", "from.id", "recent_status.status", "timeline"}
	pyScopes    = []string{"USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH", "TRANS|POST", "TRAN|PATCH"}
)

func TestSynapsePyMethods(t *testing.T) {
	t.Parallel()
	u := func(e sdkEnv) string { return "/users/" + e.Fx.User.ID }
	n := func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) }
	card := func(t *testing.T, e sdkEnv, nickname string) string {
		t.Helper()
		r := testkit.Do(t, e.Fake, pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "CARD-US",
			"info": map[string]any{"nickname": nickname, "document_id": "doc-1", "card_type": "PHYSICAL"}}))
		id, _ := getPath(r.Body, "nodes").([]any)
		if r.Status != http.StatusOK || len(id) != 1 {
			t.Fatalf("create CARD-US: %d %s", r.Status, r.Raw)
		}
		return id[0].(map[string]any)["_id"].(string)
	}
	runPyRows(t, []pyRow{
		// Client.
		{method: "create_user", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "POST", "/users", map[string]any{"logins": []any{map[string]any{"email": "test@synapsefi.com"}},
				"phone_numbers": []any{"901.111.1111", "test@synapsefi.com"}, "legal_names": []any{"Test User"}})
		}, status: 200, reads: []string{"_id", "refresh_token"}},
		{method: "get_user", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", u(e)+"?full_dehydrate=yes", nil) },
			status: 200, reads: []string{"_id", "refresh_token"}},
		{method: "get_all_users", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", "/users?show_refresh_tokens=True", nil)
		},
			status: 200, errorCode: "0", reads: []string{"page", "page_count", "limit", "users_count", "users.0._id", "users.0.refresh_token"}},
		{method: "create_subscription", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "POST", "/subscriptions", map[string]any{"scope": pyScopes, "url": "https://example.com/h"})
		}, status: 200, reads: []string{"_id", "url"}},
		{method: "get_subscription", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/subscriptions/"+e.sub, nil) },
			status: 200, reads: []string{"_id", "url"}},
		{method: "update_subscription", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "PATCH", "/subscriptions/"+e.sub, map[string]any{"url": "https://example.com/2", "scope": pyScopes[:3]})
		}, status: 200, reads: []string{"_id", "url"}},
		{method: "get_all_subs", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/subscriptions", nil) },
			status: 200, reads: []string{"page", "page_count", "limit", "subscriptions_count", "subscriptions.0._id", "subscriptions.0.url"}},
		{method: "webhook_logs", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/subscriptions/logs", nil) }, status: 200},
		{method: "crypto_quotes", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/nodes/crypto-quotes", nil) }, status: 200},
		{method: "crypto_market_data", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", "/nodes/crypto-market-watch?limit=5&currency=BTC", nil)
		}, status: 200},
		{method: "trade_market_data", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", "/nodes/trade-market-watch?ticker=AAPL", nil)
		}, status: 200},
		{method: "locate_atms", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/nodes/atms?zip=94114", nil) },
			status: 200, reads: []string{"atms"}},
		{method: "issue_public_key", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", "/client?issue_public_key=YES&scope=USERS%7CPOST&scope=USER%7CPATCH&user_id="+e.Fx.User.ID, nil)
		}, status: 200, reads: []string{"public_key_obj.public_key", "public_key_obj.scope"}},
		{method: "get_all_trans", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/trans", nil) }, status: 200, reads: pyTransList},
		{method: "get_all_nodes", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/nodes", nil) }, status: 200, reads: pyNodesList},
		{method: "get_all_inst", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/institutions", nil) }, status: 200, reads: []string{"banks"}},
		{method: "verify_address", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "POST", "/address-verification", map[string]any{"address_street": "1 Market St",
				"address_city": "San Francisco", "address_subdivision": "CA", "address_country_code": "US", "address_postal_code": "94105"})
		}, status: 200},
		{method: "verify_routing_number", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "POST", "/routing-number-verification", map[string]any{"routing_num": "084008426", "type": "ACH-US"})
		}, status: 200},
		{method: "get_node_types", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/nodes/types", nil) }, status: 200},
		{method: "get_user_document_types", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/users/document-types", nil) }, status: 200},
		{method: "get_user_entity_types", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/users/entity-types", nil) }, status: 200},
		{method: "get_user_entity_scopes", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/users/entity-scopes", nil) }, status: 200},
		// User: OAuth.
		{method: "refresh", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "GET", u(e), nil) }, status: 200, reads: []string{"refresh_token"}},
		{method: "oauth", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", "/oauth/"+e.Fx.User.ID, map[string]any{"refresh_token": e.Fx.User.RefreshToken, "scope": []string{"USER|PATCH", "USER|GET"}})
		}, status: 200, reads: []string{"oauth_key"}},
		{method: "oauth with a spent refresh token", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", "/oauth/"+e.Fx.User.ID, map[string]any{"refresh_token": "refresh_spent"})
		}, status: 409, errorCode: "400"},
		{method: "select_2fa_device", req: func(t *testing.T, e sdkEnv) testkit.Call {
			c := pyCall(e, "POST", "/oauth/"+e.Fx.User.ID, map[string]any{"refresh_token": e.Fx.User.RefreshToken, "phone_number": e.Fx.User.PhoneNumbers[0]})
			c.Header["X-SP-USER"] = "|new-fingerprint"
			return c
		}, status: 202, errorCode: "10", reads: []string{"message.en"}, after: func(t *testing.T, _ sdkEnv, r testkit.Response) {
			if _, ok := r.Body["error"]; ok {
				t.Errorf("202 carries an error key, on which SynapsePy raises: %s", r.Raw)
			}
		}},
		// User.
		{method: "update_info", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", u(e), map[string]any{"update": map[string]any{"login": map[string]any{"email": "test2@synapsefi.com"},
				"phone_number": "901-111-2222"}})
		}, status: 200, reads: []string{"_id", "logins", "phone_numbers"}},
		{method: "get_duplicate_users", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "GET", u(e)+"/get-duplicates", nil) }, status: 200},
		{method: "get_statements", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", u(e)+"/statements?page=1&per_page=10", nil)
		}, status: 200},
		{method: "get_all_trans (user)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", u(e)+"/trans?page=1&per_page=10", nil)
		},
			status: 200, reads: pyTransList},
		// Nodes.
		{method: "create_node", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "My Checking"}})
		}, status: 200, reads: pyNodesList},
		{method: "create_node (bank login)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "ACH-US",
				"info": map[string]any{"bank_id": "synapse_good", "bank_pw": "test1234", "bank_name": "fake"}})
		}, status: 202, errorCode: "10", reads: []string{"mfa.access_token", "mfa.message", "mfa.type"}},
		{method: "get_node", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"?full_dehydrate=yes&force_refresh=yes", nil)
		},
			status: 200, reads: []string{"_id", "type"}},
		{method: "get_all_nodes (user)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", testkit.NodesPath(e.Fx.User.ID)+"?page=1&per_page=5&type=DEPOSIT-US", nil)
		}, status: 200, reads: pyNodesList},
		{method: "update_node", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", n(e), map[string]any{"supp_id": "new_supp_id_1234"})
		},
			status: 200, reads: []string{"_id", "type"}},
		{method: "reinit_micro", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, e.Bank.ID)+"?resend_micro=YES", map[string]any{})
		},
			status: 200, reads: []string{"_id"}},
		{method: "verify_micro", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, e.Bank.ID), map[string]any{"micro": []float64{0.1, 0.1}})
		}, status: 200, reads: []string{"_id", "type"}},
		{method: "ship_card_node", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, card(t, e, "ship"))+"?ship=YES", map[string]any{"fee_node_id": e.Fx.Node.ID, "expedite": true})
		}, status: 200, reads: []string{"_id"}},
		{method: "reset_card_node", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, card(t, e, "reset"))+"?reset=YES", map[string]any{})
		}, status: 200, reads: []string{"_id"}},
		{method: "generate_apple_pay", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, card(t, e, "pay"))+"/applepay", map[string]any{"certificate": "your applepay cert",
				"nonce": "9c02xxx2", "nonce_signature": "4082f883ae62d0700c283e225ee9d286713ef74"})
		}, status: 200},
		{method: "generate_ecash_barcode", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", n(e)+"/barcode", map[string]any{"amount": map[string]any{"amount": 20, "currency": "USD"}, "retailer_id": 2481})
		}, status: 200},
		{method: "get_node_statements", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/statements?page=1&per_page=10", nil)
		}, status: 200},
		{method: "delete_node", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "DELETE", testkit.NodePath(e.Fx.User.ID, e.Savings.ID), nil)
		}, status: 200},
		// Subnets.
		{method: "create_subnet", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", n(e)+"/subnets", map[string]any{"nickname": "Test AC/RT"})
		},
			status: 200, reads: []string{"_id", "user_id", "node_id"}},
		{method: "get_subnet", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "GET", e.subnetPath(e.acct), nil) },
			status: 200, reads: []string{"_id", "user_id", "node_id"}},
		{method: "get_all_subnets", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/subnets?page=1&per_page=10", nil)
		},
			status: 200, reads: []string{"page", "page_count", "limit", "subnets_count", "subnets.0._id", "subnets.0.user_id", "subnets.0.node_id"}},
		{method: "update_subnet", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", e.subnetPath(e.card), map[string]any{"status": "ACTIVE", "card_pin": "1234",
				"preferences": map[string]any{"allow_foreign_transactions": true, "daily_atm_withdrawal_limit": 10, "daily_transaction_limit": 1000}})
		}, status: 200, reads: []string{"_id", "user_id", "node_id"}},
		{method: "ship_card", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", e.subnetPath(e.card)+"/ship", map[string]any{"fee_node_id": e.Fx.Node.ID, "expedite": false, "card_style_id": "555"})
		}, status: 200},
		{method: "view_all_card_shipments", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", e.subnetPath(e.card)+"/ship?per_page=10&page=1", nil)
		},
			status: 200, reads: []string{"ships"}},
		{method: "push_to_mobile_wallet", setup: func(t *testing.T, e sdkEnv) {
			if r := testkit.Do(t, e.Fake, pyCall(e, "PATCH", e.subnetPath(e.card), map[string]any{"status": "ACTIVE"})); r.Status != 200 {
				t.Fatalf("activate: %s", r.Raw)
			}
		}, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", e.subnetPath(e.card)+"/push", map[string]any{"type": "APPLE_PUSH", "nonce": "OWMwMnh4eDI=",
				"nonce_signature": "NDA4MmY4ODNhZTYy", "certificates": []string{"Y2VydDE=", "Y2VydDI="}})
		}, status: 200, reads: []string{"data.authentication"}},
		// Transactions.
		{method: "create_trans", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", n(e)+"/trans", map[string]any{"to": map[string]any{"type": "ACH-US", "id": e.Bank.ID},
				"amount": map[string]any{"amount": 20.1, "currency": "USD"}, "extra": map[string]any{"ip": "192.168.0.1"}})
		}, status: 200, reads: pyTrans},
		{method: "get_trans", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "GET", n(e)+"/trans/"+e.tx, nil) }, status: 200, reads: pyTrans},
		{method: "comment_trans", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", n(e)+"/trans/"+e.tx, map[string]any{"comment": "Pending verification..."})
		}, status: 200},
		{method: "get_all_node_trans", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/trans?page=1&per_page=10", nil)
		},
			status: 200, reads: pyTransList},
		{method: "cancel_trans", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "DELETE", n(e)+"/trans/"+e.tx, nil) }, status: 200},
		{method: "dummy_tran", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/dummy-tran?subnetid="+e.card+"&type=INTERCHANGE&is_credit=YES&foreign_transaction=NO", nil)
		}, status: 200},
		// Refusals the SDK maps to its errors.
		{method: "get_node of another user", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", testkit.NodePath(e.Payee.User.ID, e.Payee.Node.ID), nil)
		}, status: 401, errorCode: "300"},
		{method: "get_node with an invalid oauth key", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: n(e), Header: testkit.PyHeaders(e.Fake, "oauth_invalid")}
		}, status: 401, errorCode: "110"},
	})
}
