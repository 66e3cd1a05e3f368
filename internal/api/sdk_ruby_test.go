package api_test

// The checks of the Ruby gem's harness (compat/ruby/compat.rb) as Go tests:
// each sends the request synapse_pay_rest sends (rest-client with the
// gem's HTTPClient#headers: Content-Type and Accept application/json,
// X-SP-GATEWAY, X-SP-USER "<oauth_key>|<fingerprint>", X-SP-USER-IP, no
// X-SP-LANG; X-SP-IDEMPOTENCY-KEY only on the POST given one; GET with the
// query string its wrappers interpolate, in their VALID_QUERY_PARAMS order;
// POST and PATCH with payload.to_json) and asserts what the harness
// asserted of the answer. A status >= 400 raises SynapsePayRest::Error,
// whose code is error_code. The calls the harness showed failing under
// Ruby 3 in the gem (its keyword-argument faults) are not here; where such
// a call had already sent its request, the harness's next check read the
// result, and so does the row for that check. SDK_PYRB_COVERAGE.md maps
// every harness check to its test.

import (
	"encoding/base64"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// rbHeaders are the headers synapse_pay_rest sends with oauth key key.
func rbHeaders(fake *synapsefake.Server, key string) map[string]string {
	return map[string]string{
		"Content-Type": "application/json",
		"Accept":       "application/json",
		"X-SP-GATEWAY": fake.Gateway(),
		"X-SP-USER":    key + "|" + testkit.TestFingerprint,
		"X-SP-USER-IP": "127.0.0.1",
	}
}

// rbCall is a request of the gem with the fixture user's key.
func rbCall(e sdkEnv, method, path string, body any) testkit.Call {
	return testkit.Call{Method: method, Path: path, Header: rbHeaders(e.Fake, e.Fx.Key), Body: body}
}

// rbPNG is compat.rb's one-pixel PNG.
const rbPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

// rbEncode64 is Ruby's Base64.encode64: lines of 60 characters, each
// ending in a newline.
func rbEncode64(b []byte) string {
	s := base64.StdEncoding.EncodeToString(b)
	var out strings.Builder
	for len(s) > 60 {
		out.WriteString(s[:60] + "\n")
		s = s[60:]
	}
	out.WriteString(s + "\n")
	return out.String()
}

// rbPNGDataURI is the data URI the gem makes of compat.rb's PNG file
// (encode_attachment, attach_file, PhysicalDocument.create(file_path:)).
func rbPNGDataURI(t *testing.T) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(rbPNG)
	if err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + rbEncode64(b)
}

// rbBaseDoc is compat.rb's base_doc_payload: compat.py's base document
// (pyBaseDocument) with a PNG as its GOVT_ID.
func rbBaseDoc(email, name, ssn string) map[string]any {
	doc := pyBaseDocument(email, name, ssn)
	doc["physical_docs"] = []any{map[string]any{"document_value": "data:image/png;base64," + rbPNG, "document_type": "GOVT_ID"}}
	return doc
}

// rbSend sends c and fails the test unless the answer is a 200.
func rbSend(t *testing.T, e sdkEnv, c testkit.Call) testkit.Response {
	t.Helper()
	r := testkit.Do(t, e.Fake, c)
	wantOK(t, r)
	return r
}

// docTypes are the document_type values of the list at p of r's body.
func docTypes(r testkit.Response, p string) []string {
	var out []string
	list, _ := valueAt(r.Body, p).([]any)
	for _, d := range list {
		ty, _ := d.(map[string]any)["document_type"].(string)
		out = append(out, ty)
	}
	return out
}

// rbFromUser checks what User.from_response and BaseDocument.from_response
// read of a user answer without a default: extra and documents, and the
// three document lists of every base document, whose absence raises.
func rbFromUser(t *testing.T, r testkit.Response) {
	t.Helper()
	if _, ok := r.Body["extra"].(map[string]any); !ok {
		t.Errorf("extra is not an object: %s", r.Raw)
	}
	docs, ok := r.Body["documents"].([]any)
	if !ok {
		t.Fatalf("documents is not a list: %s", r.Raw)
	}
	for i, d := range docs {
		for _, k := range []string{"physical_docs", "social_docs", "virtual_docs"} {
			if _, ok := d.(map[string]any)[k].([]any); !ok {
				t.Errorf("documents[%d].%s is not a list", i, k)
			}
		}
	}
}

// rbAuthenticate is User#authenticate, which User.from_response calls after
// every user answer: POST /oauth/{user_id} with the refresh token.
func rbAuthenticate(t *testing.T, e sdkEnv, userID, refreshToken string) string {
	t.Helper()
	r := rbSend(t, e, rbCall(e, "POST", "/oauth/"+userID, map[string]any{"refresh_token": refreshToken}))
	key, _ := r.Body["oauth_key"].(string)
	if !strings.HasPrefix(key, "oauth_") {
		t.Fatalf("oauth_key %v", r.Body["oauth_key"])
	}
	return key
}

// rbWithBaseDoc files compat.rb's base document for the fixture user and
// returns the answer.
func rbWithBaseDoc(t *testing.T, e sdkEnv) testkit.Response {
	t.Helper()
	return rbSend(t, e, rbCall(e, "PATCH", "/users/"+e.Fx.User.ID, map[string]any{"documents": []any{rbBaseDoc("api@example.com", "Api User", "2222")}}))
}

// rbNode adds a node for the fixture user by client.nodes.add and returns
// its id.
func rbNode(t *testing.T, e sdkEnv, payload map[string]any) string {
	t.Helper()
	r := rbSend(t, e, rbCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), payload))
	return valueAt(r.Body, "nodes.0._id").(string)
}

func TestSDKRubyAPI(t *testing.T) {
	t.Parallel()
	u := func(e sdkEnv) string { return "/users/" + e.Fx.User.ID }
	n := func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) }
	runPyRows(t, []pyRow{
		{method: "client.users.create(payload:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users", Header: rbHeaders(e.Fake, ""), Body: map[string]any{
				"logins": []any{map[string]any{"email": "api@example.com"}}, "phone_numbers": []any{"901.111.1111"},
				"legal_names": []any{"Api User"}, "extra": map[string]any{"supp_id": "api1", "cip_tag": 1}}}
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if id, _ := r.Body["_id"].(string); len(id) != 24 {
				t.Errorf("_id %v, want 24 characters", r.Body["_id"])
			}
			if tok, _ := r.Body["refresh_token"].(string); !strings.HasPrefix(tok, "refresh_") {
				t.Errorf("refresh_token %v", r.Body["refresh_token"])
			}
			wantAt(t, r, "extra.supp_id", "api1")
		}},
		{method: "client.users.get(user_id:, full_dehydrate:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "GET", u(e)+"?full_dehydrate=yes", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "_id", e.Fx.User.ID)
			if _, ok := r.Body["documents"].([]any); !ok {
				t.Errorf("documents is not a list: %s", r.Raw)
			}
		}},
		{method: "client.users.get(query:, page:, per_page:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			// The gem interpolates the query unescaped; on the wire it is the
			// same string, escaped.
			return rbCall(e, "GET", "/users?query=Sam%20Sender&page=1&per_page=20", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if !slices.Contains(ids(r, "users"), e.Fx.User.ID) {
				t.Errorf("user %s not listed: %s", e.Fx.User.ID, r.Raw)
			}
			wantAt(t, r, "page", 1.0)
		}},
		{method: "client.users.refresh(user_id:, payload:) -> key on the client", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "POST", "/oauth/"+e.Fx.User.ID, map[string]any{"refresh_token": e.Fx.User.RefreshToken})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if k, _ := r.Body["oauth_key"].(string); !strings.HasPrefix(k, "oauth_") {
				t.Errorf("oauth_key %v", r.Body["oauth_key"])
			}
		}},
		{method: "client.nodes.get(user_id:, node_id:, full_dehydrate:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "GET", n(e)+"?full_dehydrate=yes", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "_id", e.Fx.Node.ID)
			wantAt(t, r, "info.nickname", "Checking")
		}},
		{method: "client.nodes.get(user_id:, page:, per_page:, type:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "GET", testkit.NodesPath(e.Fx.User.ID)+"?page=1&per_page=20&type=ACH-US", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if diff := cmp.Diff([]string{e.Bank.ID}, ids(r, "nodes")); diff != "" {
				t.Errorf("ACH-US nodes (-want +got):\n%s", diff)
			}
		}},
		{method: "client.nodes.patch(user_id:, node_id:, payload:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "PATCH", n(e), map[string]any{"supp_id": "api_supp"})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "extra.supp_id", "api_supp") }},
		{method: "client.nodes.resend_micro(user_id:, node_id:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, e.Bank.ID)+"?resend_micro=YES", map[string]any{})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "_id", e.Bank.ID) }},
		{method: "client.nodes.verify(user_id:, node_id:, payload:) (micro-deposits, deprecated)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, e.Bank.ID), map[string]any{"micro": []float64{0.1, 0.1}})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "allowed", "CREDIT-AND-DEBIT") }},
		{method: "client.nodes.delete(user_id:, node_id:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "DELETE", testkit.NodePath(e.Fx.User.ID, e.Savings.ID), nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			l := rbSend(t, e, rbCall(e, "GET", testkit.NodesPath(e.Fx.User.ID), nil))
			if slices.Contains(ids(l, "nodes"), e.Savings.ID) {
				t.Errorf("deleted node %s still listed", e.Savings.ID)
			}
		}},
		{method: "client.transactions.update(user_id:, node_id:, trans_id:, payload:) (comment) and client.trans (alias)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "PATCH", n(e)+"/trans/"+e.tx, map[string]any{"comment": "api comment"})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if !slices.ContainsFunc(r.Body["timeline"].([]any), func(s any) bool {
				note, _ := s.(map[string]any)["note"].(string)
				return strings.Contains(note, "api comment")
			}) {
				t.Errorf("no timeline note holds the comment: %v", r.Body["timeline"])
			}
		}},
		{method: "client.transactions.delete(user_id:, node_id:, trans_id:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "DELETE", n(e)+"/trans/"+e.tx, nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "recent_status.status", "CANCELED") }},
		{method: "client.institutions.get", req: func(t *testing.T, e sdkEnv) testkit.Call { return rbCall(e, "GET", "/institutions", nil) },
			status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
				if _, ok := valueAt(r.Body, "banks.0.bank_code").(string); !ok {
					t.Errorf("banks[0].bank_code is not a string: %.300s", r.Raw)
				}
			}},
		{method: "client.client_endpoint.issue_public_key(scope:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "GET", "/client?issue_public_key=YES&scope=OAUTH|POST,USERS|POST,CLIENT|CONTROLS", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			var got []string
			for _, s := range valueAt(r.Body, "public_key_obj.scope").([]any) {
				got = append(got, s.(string))
			}
			slices.Sort(got)
			if diff := cmp.Diff([]string{"CLIENT|CONTROLS", "OAUTH|POST", "USERS|POST"}, got); diff != "" {
				t.Errorf("scope (-want +got):\n%s", diff)
			}
			if _, ok := valueAt(r.Body, "public_key_obj.public_key").(string); !ok {
				t.Errorf("public_key is not a string: %s", r.Raw)
			}
		}},
		{method: "client.atms.locate(zip:, radius:, page:, per_page:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "GET", "/nodes/atms?page=1&per_page=5&radius=5&zip=94114", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if _, ok := valueAt(r.Body, "atms.0.atmLocation.address.city").(string); !ok {
				t.Errorf("atms[0].atmLocation.address.city is not a string: %.300s", r.Raw)
			}
		}},
		{method: "client.crypto_quotes.get", req: func(t *testing.T, e sdkEnv) testkit.Call { return rbCall(e, "GET", "/nodes/crypto-quotes", nil) },
			status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
				for _, k := range []string{"USDBTC", "BTCUSD"} {
					if _, ok := r.Body[k]; !ok {
						t.Errorf("%s missing: %s", k, r.Raw)
					}
				}
			}},
		{method: `an unknown user -> SynapsePayRest::Error::NotFound, code "404"`, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "GET", "/users/"+strings.Repeat("0", 24), nil)
		}, status: 404, errorCode: "404", after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if en, _ := valueAt(r.Body, "error.en").(string); en == "" {
				t.Errorf("error.en, the error's message, is empty: %s", r.Raw)
			}
		}},
	})
	runSDKFlows(t, []sdkFlow{
		{"client.users.update(user_id:, payload:) (documents), add_doc and answer_kba (its aliases)", func(t *testing.T, e sdkEnv) {
			r := rbWithBaseDoc(t, e)
			doc, _ := valueAt(r.Body, "documents.0.id").(string)
			if !hex64.MatchString(doc) {
				t.Fatalf("documents[0].id %q, want 64 hex digits", doc)
			}
			r = rbSend(t, e, rbCall(e, "PATCH", u(e), map[string]any{"documents": []any{map[string]any{"id": doc, "name": "Api Renamed"}}}))
			wantAt(t, r, "documents.0.name", "Api Renamed")
			r = rbSend(t, e, rbCall(e, "PATCH", u(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken, "update": map[string]any{"legal_name": "Api Two"}}))
			wantAt(t, r, "legal_names", []any{"Sam Sender", "Api Two"})
		}},
		// attach_file and attach_file_with_file_type send the older KYC body
		// {"doc": {"attachment": ...}} with the file as Base64.encode64 writes it.
		{"client.users.attach_file(user_id:, file_path:) and attach_file_with_file_type(user_id:, file_path:, file_type:)", func(t *testing.T, e sdkEnv) {
			doc := valueAt(rbWithBaseDoc(t, e).Body, "documents.0.id")
			for range 2 { // attach_file names the type image/png as attach_file_with_file_type is told
				r := rbSend(t, e, rbCall(e, "PATCH", u(e), map[string]any{"doc": map[string]any{"attachment": rbPNGDataURI(t)}}))
				wantAt(t, r, "documents.0.id", doc)
				if diff := cmp.Diff([]string{"GOVT_ID"}, docTypes(r, "documents.0.physical_docs")); diff != "" {
					t.Errorf("physical document types (-want +got):\n%s", diff)
				}
			}
		}},
		{"client.nodes.add(user_id:, payload:) and .post (its alias)", func(t *testing.T, e sdkEnv) {
			r := rbSend(t, e, rbCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Api Checking"}}))
			wantAt(t, r, "node_count", 1.0)
			wantAt(t, r, "nodes.0.type", "DEPOSIT-US")
			r = rbSend(t, e, rbCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "ACH-US", "info": map[string]any{"nickname": "Api Bank",
				"account_num": "2222222222", "routing_num": "051000017", "type": "PERSONAL", "class": "CHECKING"}}))
			wantAt(t, r, "nodes.0.type", "ACH-US")
		}},
		{"client.nodes.add (bank login), then .verify(user_id:, payload:) (MFA answer, deprecated)", func(t *testing.T, e sdkEnv) {
			r := testkit.Do(t, e.Fake, rbCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "ACH-US",
				"info": map[string]any{"bank_id": "synapse_good", "bank_pw": "test1234", "bank_name": "fake"}}))
			if r.Status != http.StatusAccepted || r.Body["error_code"] != "10" || r.Body["http_code"] != "202" {
				t.Fatalf("status %d, want 202 / \"10\": %s", r.Status, r.Raw)
			}
			a := rbSend(t, e, rbCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"access_token": valueAt(r.Body, "mfa.access_token"), "mfa_answer": "test_answer"}))
			for _, nd := range a.Body["nodes"].([]any) {
				if ty := nd.(map[string]any)["type"]; ty != "ACH-US" {
					t.Errorf("node type %v, want ACH-US", ty)
				}
			}
		}},
		{"client.nodes.reissue_card and .reorder_card (user_id:, node_id:) on a CARD-US node", func(t *testing.T, e sdkEnv) {
			doc := valueAt(rbWithBaseDoc(t, e).Body, "documents.0.id")
			card := rbNode(t, e, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "Api Card", "document_id": doc, "card_type": "PHYSICAL"}})
			for _, q := range []string{"?reissue_card=YES", "?reorder_card=YES"} {
				r := rbSend(t, e, rbCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, card)+q, map[string]any{}))
				wantAt(t, r, "_id", card)
				wantAt(t, r, "type", "CARD-US")
			}
		}},
		{"fund: GET .../dummy-tran?is_credit=YES, settled", func(t *testing.T, e sdkEnv) {
			path := testkit.NodePath(e.Fx.User.ID, e.Savings.ID) // a node holding nothing
			r := rbSend(t, e, rbCall(e, "GET", path+"/dummy-tran?is_credit=YES", nil))
			if err := e.Fake.Settle(r.Body["_id"].(string)); err != nil {
				t.Fatal(err)
			}
			wantAt(t, rbSend(t, e, rbCall(e, "GET", path, nil)), "info.balance.amount", 100.0)
		}},
		{"client.transactions.create(user_id:, node_id:, payload:, idempotency_key:)", func(t *testing.T, e sdkEnv) {
			send := func(extra map[string]any) testkit.Response {
				c := rbCall(e, "POST", n(e)+"/trans", map[string]any{"to": map[string]any{"type": "ACH-US", "id": e.Bank.ID},
					"amount": map[string]any{"amount": 5.5, "currency": "USD"}, "extra": extra})
				c.Header["X-SP-IDEMPOTENCY-KEY"] = "api-key-1"
				return testkit.Do(t, e.Fake, c)
			}
			r := send(map[string]any{"ip": "127.0.0.1", "note": "hi"})
			wantOK(t, r)
			wantAt(t, r, "amount.amount", 5.5)
			wantAt(t, r, "recent_status.status", "CREATED")
			again := send(map[string]any{"ip": "127.0.0.1"})
			if again.Status != http.StatusConflict || again.Body["error_code"] != "450" {
				t.Errorf("a reused key with another body: status %d, want 409 / \"450\": %s", again.Status, again.Raw)
			}
		}},
		{"client.transactions.get(user_id:, node_id:, trans_id:) and (page:, per_page:)", func(t *testing.T, e sdkEnv) {
			path := testkit.NodePath(e.Fx.User.ID, e.Savings.ID)
			d := rbSend(t, e, rbCall(e, "GET", path+"/dummy-tran?is_credit=YES", nil)) // compat.rb's funding
			if err := e.Fake.Settle(d.Body["_id"].(string)); err != nil {
				t.Fatal(err)
			}
			tx := rbSend(t, e, rbCall(e, "POST", path+"/trans", map[string]any{"to": map[string]any{"type": "ACH-US", "id": e.Bank.ID},
				"amount": map[string]any{"amount": 5.5, "currency": "USD"}, "extra": map[string]any{"ip": "127.0.0.1", "note": "hi"}})).Body["_id"]
			wantAt(t, rbSend(t, e, rbCall(e, "GET", path+"/trans/"+tx.(string), nil)), "_id", tx)
			l := rbSend(t, e, rbCall(e, "GET", path+"/trans?page=1&per_page=20", nil))
			if !slices.Contains(ids(l, "trans"), tx.(string)) {
				t.Errorf("transaction %v not listed", tx)
			}
			wantAt(t, l, "trans_count", 2.0)
		}},
		{"client.subnets.create, .get (one and page:, per_page:), .update (allowed LOCKED)", func(t *testing.T, e sdkEnv) {
			path := testkit.NodePath(e.Fx.User.ID, e.Savings.ID) // a node without subnets
			r := rbSend(t, e, rbCall(e, "POST", path+"/subnets", map[string]any{"nickname": "Api Subnet"}))
			wantAt(t, r, "user_id", e.Fx.User.ID)
			wantAt(t, r, "node_id", e.Savings.ID)
			sid := r.Body["_id"].(string)
			wantAt(t, rbSend(t, e, rbCall(e, "GET", path+"/subnets/"+sid, nil)), "nickname", "Api Subnet")
			if diff := cmp.Diff([]string{sid}, ids(rbSend(t, e, rbCall(e, "GET", path+"/subnets?page=1&per_page=20", nil)), "subnets")); diff != "" {
				t.Errorf("subnets (-want +got):\n%s", diff)
			}
			wantAt(t, rbSend(t, e, rbCall(e, "PATCH", path+"/subnets/"+sid, map[string]any{"allowed": "LOCKED"})), "status", "INACTIVE")
		}},
		{"client.subscriptions.create, .get (one and page:, per_page:), .update", func(t *testing.T, e sdkEnv) {
			scope := []any{"USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH", "TRANS|POST", "TRAN|PATCH"}
			r := rbSend(t, e, rbCall(e, "POST", "/subscriptions", map[string]any{"url": "https://example.com/hooks", "scope": scope}))
			wantAt(t, r, "url", "https://example.com/hooks")
			wantAt(t, r, "scope", scope)
			wantAt(t, r, "is_active", true)
			id := r.Body["_id"].(string)
			wantAt(t, rbSend(t, e, rbCall(e, "GET", "/subscriptions/"+id, nil)), "_id", id)
			if !slices.Contains(ids(rbSend(t, e, rbCall(e, "GET", "/subscriptions?page=1&per_page=20", nil)), "subscriptions"), id) {
				t.Errorf("subscription %s not listed", id)
			}
			wantAt(t, rbSend(t, e, rbCall(e, "PATCH", "/subscriptions/"+id, map[string]any{"is_active": false})), "is_active", false)
		}},
		{"client.statements.get(user_id:) and (user_id:, node_id:, page:, per_page:)", func(t *testing.T, e sdkEnv) {
			rbSend(t, e, rbCall(e, "POST", n(e)+"/statements", map[string]any{}))
			if got := len(rbSend(t, e, rbCall(e, "GET", u(e)+"/statements", nil)).Body["statements"].([]any)); got != 1 {
				t.Errorf("%d user statements, want 1", got)
			}
			r := rbSend(t, e, rbCall(e, "GET", n(e)+"/statements?page=1&per_page=10", nil))
			if got := len(r.Body["statements"].([]any)); got != 1 {
				t.Fatalf("%d node statements, want 1: %s", got, r.Raw)
			}
			urls, _ := valueAt(r.Body, "statements.0.urls").(map[string]any)
			keys := slices.Sorted(maps.Keys(urls))
			if diff := cmp.Diff([]string{"csv", "json", "pdf"}, keys); diff != "" {
				t.Errorf("urls (-want +got):\n%s", diff)
			}
		}},
	})
}

func TestSDKRubyModels(t *testing.T) {
	t.Parallel()
	u := func(e sdkEnv) string { return "/users/" + e.Fx.User.ID }
	oauth := func(e sdkEnv) string { return "/oauth/" + e.Fx.User.ID }
	// baseDoc is User#create_base_document's PATCH: the base document
	// with its physical, social and virtual documents as Document#to_hash
	// writes them; it answers the base document's id.
	baseDoc := func(t *testing.T, e sdkEnv) testkit.Response {
		t.Helper()
		r := rbSend(t, e, rbCall(e, "PATCH", u(e), map[string]any{"documents": []any{map[string]any{
			"email": "model@example.com", "phone_number": "901.111.1111", "ip": "127.0.0.1", "name": "Model User", "alias": "Model",
			"entity_type": "M", "entity_scope": "Arts & Entertainment", "day": 2, "month": 5, "year": 1989,
			"address_street": "1 Market St", "address_city": "SF", "address_subdivision": "CA", "address_postal_code": "94105",
			"address_country_code": "US",
			"physical_docs":        []any{map[string]any{"document_value": rbPNGDataURI(t), "document_type": "GOVT_ID"}},
			"social_docs":          []any{map[string]any{"document_value": "https://www.facebook.com/model", "document_type": "FACEBOOK"}},
			"virtual_docs":         []any{map[string]any{"document_value": "2222", "document_type": "SSN"}},
		}}}))
		rbFromUser(t, r)
		return r
	}
	// docUpdate is BaseDocument#update's PATCH of base document id.
	docUpdate := func(t *testing.T, e sdkEnv, id any, fields map[string]any) testkit.Response {
		t.Helper()
		d := map[string]any{"id": id}
		for k, v := range fields {
			d[k] = v
		}
		r := rbSend(t, e, rbCall(e, "PATCH", u(e), map[string]any{"documents": []any{d}}))
		rbFromUser(t, r)
		wantAt(t, r, "documents.0.id", id)
		return r
	}
	runPyRows(t, []pyRow{
		{method: "User.find(client:, id:, full_dehydrate:)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "GET", u(e)+"?full_dehydrate=yes", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			rbFromUser(t, r)
			wantAt(t, r, "_id", e.Fx.User.ID)
			wantAt(t, r, "refresh_token", e.Fx.User.RefreshToken)
			rbAuthenticate(t, e, e.Fx.User.ID, r.Body["refresh_token"].(string))
		}},
		{method: "User#authenticate", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if k, _ := r.Body["oauth_key"].(string); !strings.HasPrefix(k, "oauth_") {
				t.Errorf("oauth_key %v", r.Body["oauth_key"])
			}
			if _, ok := r.Body["expires_in"]; !ok {
				t.Errorf("no expires_in, which authenticate reads: %s", r.Raw)
			}
		}},
		{method: "BaseNode#deactivate", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return rbCall(e, "DELETE", testkit.NodePath(e.Fx.User.ID, e.Bank.ID), nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "_id", e.Bank.ID)
			wantAt(t, r, "type", "ACH-US")
			wantAt(t, r, "is_active", false)
		}},
	})
	runSDKFlows(t, []sdkFlow{
		{"User.create(client:, logins:, phone_numbers:, legal_names:, note:, supp_id:, is_business:, cip_tag:) (authenticated)", func(t *testing.T, e sdkEnv) {
			r := rbSend(t, e, testkit.Call{Method: "POST", Path: "/users", Header: rbHeaders(e.Fake, ""), Body: map[string]any{
				"logins": []any{map[string]any{"email": "model@example.com"}}, "phone_numbers": []any{"901.111.1111"},
				"legal_names": []any{"Model User"}, "extra": map[string]any{"note": "compat", "supp_id": "model1", "is_business": true, "cip_tag": 1}}})
			rbFromUser(t, r)
			wantAt(t, r, "extra.supp_id", "model1")
			wantAt(t, r, "extra.is_business", true)
			wantAt(t, r, "extra.cip_tag", 1.0)
			wantAt(t, r, "legal_names", []any{"Model User"})
			c := testkit.Call{Method: "POST", Path: "/oauth/" + r.Body["_id"].(string), Header: rbHeaders(e.Fake, ""),
				Body: map[string]any{"refresh_token": r.Body["refresh_token"]}}
			auth := rbSend(t, e, c)
			if k, _ := auth.Body["oauth_key"].(string); !strings.HasPrefix(k, "oauth_") {
				t.Errorf("oauth_key %v", auth.Body["oauth_key"])
			}
		}},
		{"User.all(client:, page:, per_page:) and User.search(client:, query:)", func(t *testing.T, e sdkEnv) {
			all := rbSend(t, e, rbCall(e, "GET", "/users?page=1&per_page=50", nil))
			if !slices.Contains(ids(all, "users"), e.Fx.User.ID) {
				t.Errorf("user %s not listed", e.Fx.User.ID)
			}
			found := rbSend(t, e, rbCall(e, "GET", "/users?query=Sam%20Sender", nil))
			if diff := cmp.Diff([]string{e.Fx.User.ID}, ids(found, "users")); diff != "" {
				t.Errorf("search (-want +got):\n%s", diff)
			}
		}},
		{"User#register_fingerprint, #select_2fa_device, #confirm_2fa_pin(pin:, device:)", func(t *testing.T, e sdkEnv) {
			phone := e.Fx.User.PhoneNumbers[0]
			newDevice := func(body map[string]any) testkit.Response {
				c := rbCall(e, "POST", oauth(e), body)
				c.Header["X-SP-USER"] = e.Fx.Key + "|compat-fingerprint-2"
				return testkit.Do(t, e.Fake, c)
			}
			tok := e.Fx.User.RefreshToken
			r := newDevice(map[string]any{"refresh_token": tok})
			if r.Status != http.StatusAccepted {
				t.Fatalf("register_fingerprint: status %d, want 202: %s", r.Status, r.Raw)
			}
			wantAt(t, r, "phone_numbers", []any{phone})
			if r = newDevice(map[string]any{"refresh_token": tok, "phone_number": phone}); r.Status != http.StatusAccepted {
				t.Fatalf("select_2fa_device: status %d, want 202: %s", r.Status, r.Raw)
			}
			r = newDevice(map[string]any{"refresh_token": tok, "phone_number": phone, "validation_pin": "000000"})
			if r.Status != http.StatusConflict || r.Body["error_code"] != "400" {
				t.Errorf("a wrong pin: status %d, want 409 / \"400\": %s", r.Status, r.Raw)
			}
			if r = newDevice(map[string]any{"refresh_token": tok, "phone_number": phone, "validation_pin": e.Fake.MFAPin(e.Fx.User.ID)}); r.Status != http.StatusOK {
				t.Fatalf("the right pin: status %d, want 200: %s", r.Status, r.Raw)
			}
			r = newDevice(map[string]any{"refresh_token": tok}) // authenticate from the registered device
			wantOK(t, r)
			if k, _ := r.Body["oauth_key"].(string); !strings.HasPrefix(k, "oauth_") {
				t.Errorf("oauth_key %v", r.Body["oauth_key"])
			}
		}},
		{"PhysicalDocument/SocialDocument/VirtualDocument.create, User#create_base_document", func(t *testing.T, e sdkEnv) {
			r := baseDoc(t, e)
			if id, _ := valueAt(r.Body, "documents.0.id").(string); !hex64.MatchString(id) {
				t.Errorf("documents[0].id %q, want 64 hex digits", id)
			}
			if diff := cmp.Diff([]string{"GOVT_ID"}, docTypes(r, "documents.0.physical_docs")); diff != "" {
				t.Errorf("physical document types (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"SSN"}, docTypes(r, "documents.0.virtual_docs")); diff != "" {
				t.Errorf("virtual document types (-want +got):\n%s", diff)
			}
			if !slices.Contains(docTypes(r, "documents.0.social_docs"), "FACEBOOK") {
				t.Errorf("social document types %v lack FACEBOOK", docTypes(r, "documents.0.social_docs"))
			}
			rbAuthenticate(t, e, e.Fx.User.ID, r.Body["refresh_token"].(string))
		}},
		{"BaseDocument#update, #add_physical_documents, #add_social_documents, #add_virtual_documents", func(t *testing.T, e sdkEnv) {
			id := valueAt(baseDoc(t, e).Body, "documents.0.id")
			wantAt(t, docUpdate(t, e, id, map[string]any{"name": "Model Renamed"}), "documents.0.name", "Model Renamed")
			for _, tc := range []struct{ list, value, ty string }{
				{"physical_docs", "data:image/png;base64," + rbEncode64([]byte("abc")), "SELFIE"},
				{"social_docs", "https://twitter.com/model", "TWITTER"},
				{"virtual_docs", "X1234567", "PASSPORT"},
			} {
				r := docUpdate(t, e, id, map[string]any{tc.list: []any{map[string]any{"document_value": tc.value, "document_type": tc.ty}}})
				if !slices.Contains(docTypes(r, "documents.0."+tc.list), tc.ty) {
					t.Errorf("%s types %v lack %s", tc.list, docTypes(r, "documents.0."+tc.list), tc.ty)
				}
			}
		}},
		{"SocialDocument#verify_2fa(mfa_answer:, value:) on a PHONE_NUMBER_2FA document", func(t *testing.T, e sdkEnv) {
			phone := "901.111.1111"
			id := valueAt(baseDoc(t, e).Body, "documents.0.id")
			r := docUpdate(t, e, id, map[string]any{"social_docs": []any{map[string]any{"document_value": phone, "document_type": "PHONE_NUMBER_2FA"}}})
			var social any
			for _, d := range valueAt(r.Body, "documents.0.social_docs").([]any) {
				if d.(map[string]any)["document_type"] == "PHONE_NUMBER_2FA" {
					social = d.(map[string]any)["id"]
				}
			}
			if social == nil {
				t.Fatalf("no PHONE_NUMBER_2FA in %v", docTypes(r, "documents.0.social_docs"))
			}
			r = docUpdate(t, e, id, map[string]any{"social_docs": []any{map[string]any{"id": social, "document_value": phone,
				"document_type": "PHONE_NUMBER_2FA", "mfa_answer": "123456"}}})
			if !slices.Contains(docTypes(r, "documents.0.social_docs"), "PHONE_NUMBER_2FA") {
				t.Errorf("social document types %v lack PHONE_NUMBER_2FA", docTypes(r, "documents.0.social_docs"))
			}
		}},
		{"VirtualDocument#add_question_set, Question#choice=, #submit_kba (deprecated KBA)", func(t *testing.T, e sdkEnv) {
			b := baseDoc(t, e)
			id := valueAt(b.Body, "documents.0.id")
			ssn := valueAt(b.Body, "documents.0.virtual_docs.0.id")
			r := docUpdate(t, e, id, map[string]any{"virtual_docs": []any{map[string]any{"id": ssn,
				"meta": map[string]any{"question_set": map[string]any{"answers": []any{map[string]any{"question_id": 1, "answer_id": 2}}}}}}})
			if !slices.ContainsFunc(valueAt(r.Body, "documents.0.virtual_docs").([]any), func(d any) bool { return d.(map[string]any)["id"] == ssn }) {
				t.Errorf("virtual document %v gone after submit_kba: %s", ssn, r.Raw)
			}
		}},
		{"User#create_ach_us_nodes_via_bank_login -> UnverifiedNode, #answer_mfa -> [AchUsNode]", func(t *testing.T, e sdkEnv) {
			r := testkit.Do(t, e.Fake, rbCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "ACH-US",
				"info": map[string]any{"bank_id": "synapse_good", "bank_pw": "test1234", "bank_name": "fake"}}))
			if r.Status != http.StatusAccepted {
				t.Fatalf("bank login: status %d, want 202: %s", r.Status, r.Raw)
			}
			if m, _ := valueAt(r.Body, "mfa.message").(string); m == "" {
				t.Errorf("mfa.message empty: %s", r.Raw)
			}
			again := testkit.Do(t, e.Fake, rbCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"access_token": valueAt(r.Body, "mfa.access_token"), "mfa_answer": "again"}))
			if again.Status != http.StatusAccepted || again.Body["error_code"] != "10" {
				t.Fatalf("a follow-up question: status %d, want 202 / \"10\": %s", again.Status, again.Raw)
			}
			if _, ok := valueAt(again.Body, "mfa.access_token").(string); !ok {
				t.Fatalf("mfa.access_token missing: %s", again.Raw)
			}
			done := rbSend(t, e, rbCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"access_token": valueAt(again.Body, "mfa.access_token"), "mfa_answer": "test_answer"}))
			wantAt(t, done, "error_code", "0")
			for _, nd := range done.Body["nodes"].([]any) {
				if ty := nd.(map[string]any)["type"]; ty != "ACH-US" {
					t.Errorf("node type %v, want ACH-US", ty)
				}
			}
		}},
		{"User#nodes, #find_node(id:), Node.by_type(user:, type:)", func(t *testing.T, e sdkEnv) {
			doc := valueAt(rbWithBaseDoc(t, e).Body, "documents.0.id")
			dep := rbNode(t, e, map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Model Checking"}})
			ach := rbNode(t, e, map[string]any{"type": "ACH-US", "info": map[string]any{"nickname": "Model Bank", "account_num": "3333333333",
				"routing_num": "051000017", "type": "PERSONAL", "class": "CHECKING"}})
			card := rbNode(t, e, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "Model Card", "document_id": doc, "card_type": "VIRTUAL"}})
			all := rbSend(t, e, rbCall(e, "GET", testkit.NodesPath(e.Fx.User.ID), nil))
			for _, id := range []string{dep, ach, card} {
				if !slices.Contains(ids(all, "nodes"), id) {
					t.Errorf("node %s not listed", id)
				}
			}
			for _, nd := range all.Body["nodes"].([]any) { // BaseNode.from_response reads extra.other
				if _, ok := nd.(map[string]any)["extra"].(map[string]any); !ok {
					t.Errorf("node %v: extra is not an object", nd.(map[string]any)["_id"])
				}
			}
			found := rbSend(t, e, rbCall(e, "GET", testkit.NodePath(e.Fx.User.ID, dep)+"?full_dehydrate=no", nil))
			wantAt(t, found, "type", "DEPOSIT-US")
			wantAt(t, found, "info.nickname", "Model Checking")
			wantAt(t, found, "info.balance.amount", 0.0)
			wantAt(t, found, "info.balance.currency", "USD")
			byType := rbSend(t, e, rbCall(e, "GET", testkit.NodesPath(e.Fx.User.ID)+"?type=CARD-US", nil))
			if diff := cmp.Diff([]string{card}, ids(byType, "nodes")); diff != "" {
				t.Errorf("by_type CARD-US (-want +got):\n%s", diff)
			}
			wantAt(t, rbSend(t, e, rbCall(e, "GET", testkit.NodePath(e.Fx.User.ID, card)+"?full_dehydrate=no", nil)), "type", "CARD-US")
		}},
		{"AchUsNode#resend_micro, #verify_microdeposits(amount1:, amount2:)", func(t *testing.T, e sdkEnv) {
			path := testkit.NodePath(e.Fx.User.ID, e.Bank.ID)
			r := rbSend(t, e, rbCall(e, "PATCH", path+"?resend_micro=YES", map[string]any{}))
			wantAt(t, r, "_id", e.Bank.ID)
			wantAt(t, r, "type", "ACH-US")
			wantAt(t, r, "allowed", "CREDIT-AND-DEBIT")
			wantAt(t, rbSend(t, e, rbCall(e, "PATCH", path, map[string]any{"micro": []float64{0.1, 0.1}})), "allowed", "CREDIT-AND-DEBIT")
		}},
		{"CardUsNode#reissue_card, #reorder_card, #update_allowed(allowed:)", func(t *testing.T, e sdkEnv) {
			doc := valueAt(rbWithBaseDoc(t, e).Body, "documents.0.id")
			card := rbNode(t, e, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "Model Card", "document_id": doc, "card_type": "VIRTUAL"}})
			path := testkit.NodePath(e.Fx.User.ID, card)
			wantAt(t, rbSend(t, e, rbCall(e, "PATCH", path+"?reissue_card=YES", map[string]any{})), "_id", card)
			wantAt(t, rbSend(t, e, rbCall(e, "PATCH", path+"?reorder_card=YES", map[string]any{})), "_id", card)
			r := rbSend(t, e, rbCall(e, "PATCH", path, map[string]any{"allowed": "INACTIVE"}))
			wantAt(t, r, "type", "CARD-US")
			wantAt(t, r, "allowed", "INACTIVE")
		}},
		{"fund the model user: dummy-tran credit settled", func(t *testing.T, e sdkEnv) {
			path := testkit.NodePath(e.Fx.User.ID, e.Savings.ID)
			r := rbSend(t, e, rbCall(e, "GET", path+"/dummy-tran?is_credit=YES", nil))
			if err := e.Fake.Settle(r.Body["_id"].(string)); err != nil {
				t.Fatal(err)
			}
			wantAt(t, rbSend(t, e, rbCall(e, "GET", path+"?full_dehydrate=no", nil)), "info.balance.amount", 100.0)
		}},
		// BaseNode#create_transaction sent its POST before the gem failed
		// under Ruby 3; the harness read the transaction back.
		{"... and the transaction it sent, read through client.transactions", func(t *testing.T, e sdkEnv) {
			c := rbCall(e, "POST", testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID)+"/trans", map[string]any{
				"to": map[string]any{"type": "ACH-US", "id": e.Bank.ID}, "amount": map[string]any{"amount": 12.5, "currency": "USD"},
				"extra": map[string]any{"ip": "127.0.0.1", "note": "model"},
				"fees":  []any{map[string]any{"fee": 0.5, "note": "fee", "to": map[string]any{"id": e.FeeNode.ID}}}})
			c.Header["X-SP-IDEMPOTENCY-KEY"] = "model-key-1"
			rbSend(t, e, c)
			l := rbSend(t, e, rbCall(e, "GET", testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID)+"/trans?page=1&per_page=20", nil))
			var tx map[string]any
			for _, x := range l.Body["trans"].([]any) {
				if valueAt(x.(map[string]any), "amount.amount") == 12.5 {
					tx = x.(map[string]any)
				}
			}
			if tx == nil {
				t.Fatalf("no 12.50 transaction: %s", l.Raw)
			}
			var fees []any
			for _, f := range tx["fees"].([]any) {
				fees = append(fees, f.(map[string]any)["fee"])
			}
			if diff := cmp.Diff([]any{"model", []any{0.5}}, []any{valueAt(tx, "extra.note"), fees}); diff != "" {
				t.Errorf("note, fees (-want +got):\n%s", diff)
			}
		}},
		// Transaction#add_comment and #cancel sent their PATCH and DELETE
		// before the gem failed under Ruby 3.
		{"... and the comment and cancellation they sent, read through client.transactions", func(t *testing.T, e sdkEnv) {
			path := testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) + "/trans/" + e.tx
			rbSend(t, e, rbCall(e, "PATCH", path, map[string]any{"comment": "model comment"}))
			rbSend(t, e, rbCall(e, "DELETE", path, nil))
			r := rbSend(t, e, rbCall(e, "GET", path, nil))
			wantAt(t, r, "recent_status.status", "CANCELED")
			if !slices.ContainsFunc(r.Body["timeline"].([]any), func(s any) bool {
				note, _ := s.(map[string]any)["note"].(string)
				return strings.Contains(note, "model comment")
			}) {
				t.Errorf("no timeline note holds the comment: %v", r.Body["timeline"])
			}
		}},
		// BaseNode#create_subnet sent its POST before the gem failed under Ruby 3.
		{"... and the subnet it sent, read through client.subnets", func(t *testing.T, e sdkEnv) {
			path := testkit.NodePath(e.Fx.User.ID, e.Savings.ID) + "/subnets"
			rbSend(t, e, rbCall(e, "POST", path, map[string]any{"nickname": "Model Subnet"}))
			var names []any
			for _, s := range rbSend(t, e, rbCall(e, "GET", path, nil)).Body["subnets"].([]any) {
				names = append(names, s.(map[string]any)["nickname"])
			}
			if diff := cmp.Diff([]any{"Model Subnet"}, names); diff != "" {
				t.Errorf("nicknames (-want +got):\n%s", diff)
			}
		}},
		// Subnet#lock sent its PATCH before the gem failed under Ruby 3.
		{"... and the lock it sent, read through client.subnets", func(t *testing.T, e sdkEnv) {
			rbSend(t, e, rbCall(e, "PATCH", e.subnetPath(e.acct), map[string]any{"allowed": "LOCKED"}))
			wantAt(t, rbSend(t, e, rbCall(e, "GET", e.subnetPath(e.acct), nil)), "status", "INACTIVE")
		}},
	})
}
