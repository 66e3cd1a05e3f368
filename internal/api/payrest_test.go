package api_test

// The older official Python client synapse_pay_rest on the wire, one row per
// method of its api layer (Users, Nodes, Trans, Subnets, Subscriptions,
// ClientEndpoint, Atms, Institutions, Statements) as its models call them.
// Its headers are SynapsePy's (pyHeaders); a status >= 300 raises, so a
// 202 is read as an answer. User updates always carry the refresh token
// beside "update". users.attach_file (convert_file_to_base64 lacks self) and
// nodes.verify (arguments swapped) fail in the client before any request.

import (
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
)

func TestSynapsePayRestMethods(t *testing.T) {
	t.Parallel()
	u := func(e sdkEnv) string { return "/users/" + e.Fx.User.ID }
	n := func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) }
	update := func(e sdkEnv, fields map[string]any) testkit.Call {
		return pyCall(e, "PATCH", u(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken, "update": fields})
	}
	userReads := []string{"_id", "refresh_token", "logins", "phone_numbers", "legal_names", "permission",
		"extra", "documents"}
	nodeReads := []string{"nodes.0._id", "nodes.0.type", "nodes.0.is_active", "nodes.0.allowed", "nodes.0.info"}
	txReads := []string{"_id", "amount.amount", "amount.currency", "client.id", "client.name", "extra.created_on", "extra.ip",
		"extra.latlon", "extra.note", "extra.process_on", "extra.supp_id", "fees", "recent_status", "timeline", "from", "to.type", "to.id"}
	subnetReads := []string{"_id", "account_class", "account_num", "client.id", "client.name", "nickname", "node_id",
		"routing_num.ach", "routing_num.wire", "user_id"}
	subsReads := []string{"_id", "client_id", "is_active", "scope", "url"}
	legalNames := func(want ...string) func(t *testing.T, e sdkEnv, r testkit.Response) {
		return func(t *testing.T, e sdkEnv, r testkit.Response) {
			got := testkit.Do(t, e.Fake, pyCall(e, "GET", u(e), nil))
			if diff := cmp.Diff(toAny(want), got.Body["legal_names"]); diff != "" {
				t.Errorf("legal_names after the call (-want +got):\n%s", diff)
			}
		}
	}
	addName := func(t *testing.T, e sdkEnv) {
		if r := testkit.Do(t, e.Fake, update(e, map[string]any{"legal_name": "Sam Iam"})); r.Status != http.StatusOK {
			t.Fatalf("add legal name: %s", r.Raw)
		}
	}
	runPyRows(t, []pyRow{
		{method: "users.create", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "POST", "/users", map[string]any{"logins": []any{map[string]any{"email": "hello@synapsepay.com"}},
				"phone_numbers": []any{"555-555-5555"}, "legal_names": []any{"Hello McHello"},
				"extra": map[string]any{"note": ":)", "supp_id": "123abc", "is_business": true, "cip_tag": 1}})
		}, status: 200, reads: userReads},
		{method: "users.get (list)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", "/users?page=1&per_page=20&query=Sam", nil)
		},
			status: 200, reads: []string{"users.0._id", "users.0.refresh_token", "users.0.documents"}},
		{method: "users.get", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", u(e)+"?full_dehydrate=yes", nil) },
			status: 200, reads: userReads},
		{method: "users.refresh", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", "/oauth/"+e.Fx.User.ID, map[string]any{"refresh_token": e.Fx.User.RefreshToken})
		}, status: 200, reads: []string{"oauth_key", "expires_in"}},
		{method: "users.refresh (register_fingerprint)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			c := pyCall(e, "POST", "/oauth/"+e.Fx.User.ID, map[string]any{"refresh_token": e.Fx.User.RefreshToken})
			c.Header["X-SP-USER"] = "|new-fingerprint"
			return c
		}, status: 202, errorCode: "10", reads: []string{"phone_numbers"}},
		{method: "users.update (add_legal_name)", req: func(t *testing.T, e sdkEnv) testkit.Call { return update(e, map[string]any{"legal_name": "Sam Iam"}) },
			status: 200, reads: userReads, after: legalNames("Sam Sender", "Sam Iam")},
		{method: "users.update (remove_legal_name)", setup: addName,
			req: func(t *testing.T, e sdkEnv) testkit.Call {
				return update(e, map[string]any{"remove_legal_name": "Sam Iam"})
			},
			status: 200, reads: userReads, after: legalNames("Sam Sender")},
		{method: "users.update (remove_legal_name not on file)",
			req: func(t *testing.T, e sdkEnv) testkit.Call {
				return update(e, map[string]any{"remove_legal_name": "Nobody"})
			},
			status: 200, reads: userReads, after: legalNames("Sam Sender")},
		{method: "users.update (remove_legal_name of the wrong type)",
			req:    func(t *testing.T, e sdkEnv) testkit.Call { return update(e, map[string]any{"remove_legal_name": 7}) },
			status: 400, errorCode: "200", after: legalNames("Sam Sender")},
		{method: "users.update (add_login)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return update(e, map[string]any{"login": map[string]any{"email": "sam@iam.com"}})
		}, status: 200, reads: userReads},
		{method: "users.update (add_phone_number)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return update(e, map[string]any{"phone_number": "415-555-5555"})
		},
			status: 200, reads: userReads},
		{method: "users.update (change_cip_tag)", req: func(t *testing.T, e sdkEnv) testkit.Call { return update(e, map[string]any{"cip_tag": 1}) },
			status: 200, reads: userReads},
		{method: "users.update (add_documents)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", u(e), map[string]any{"documents": []any{map[string]any{"email": "test@test.com",
				"phone_number": "901.111.1111", "ip": "::1", "name": "Test User", "alias": "Test", "entity_type": "M",
				"entity_scope": "Arts & Entertainment", "day": 2, "month": 5, "year": 1989, "address_street": "1 Market St.",
				"address_city": "San Francisco", "address_subdivision": "CA", "address_postal_code": "94114", "address_country_code": "US",
				"virtual_docs": []any{map[string]any{"document_value": "2222", "document_type": "SSN"}}}}})
		}, status: 200, reads: userReads},
		{method: "users.update (add_base_document, reads the dehydrated documents)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", u(e), map[string]any{"documents": []any{recordedBaseDoc()}})
		}, status: 200, reads: append(userReads, "documents.0.id", "documents.0.name", "documents.0.permission_scope",
			"documents.0.physical_docs.0.id", "documents.0.physical_docs.0.document_type", "documents.0.physical_docs.0.status",
			"documents.0.physical_docs.0.last_updated", "documents.0.social_docs.0.id", "documents.0.virtual_docs.0.id")},
		{method: "users.update (base_document.update, merged by id)", setup: addBaseDoc,
			req: func(t *testing.T, e sdkEnv) testkit.Call {
				return pyCall(e, "PATCH", u(e), map[string]any{"documents": []any{map[string]any{"id": baseDocID(t, e), "name": "Doctor Boop", "email": "boop@doo.com"}}})
			}, status: 200, reads: append(userReads, "documents.0.id", "documents.0.name"), after: func(t *testing.T, e sdkEnv, r testkit.Response) {
				if docs := r.Body["documents"].([]any); len(docs) != 1 || docs[0].(map[string]any)["name"] != "Doctor Boop" {
					t.Errorf("documents %v, want the one base document renamed", docs)
				}
			}},
		{method: "users.update (add_physical_document)", setup: addBaseDoc,
			req: func(t *testing.T, e sdkEnv) testkit.Call {
				return pyCall(e, "PATCH", u(e), map[string]any{"documents": []any{map[string]any{"id": baseDocID(t, e),
					"physical_docs": []any{map[string]any{"document_value": "data:image/png;base64,SUQs==", "document_type": "GOVT_ID"}}}}})
			}, status: 200, reads: []string{"documents.0.physical_docs.1.id", "documents.0.physical_docs.1.document_type"},
			after: func(t *testing.T, e sdkEnv, r testkit.Response) {
				if docs := r.Body["documents"].([]any); len(docs) != 1 {
					t.Errorf("%d base documents, want 1", len(docs))
				}
			}},
		{method: "users.update (add_social_document)", setup: addBaseDoc,
			req: func(t *testing.T, e sdkEnv) testkit.Call {
				return pyCall(e, "PATCH", u(e), map[string]any{"documents": []any{map[string]any{"id": baseDocID(t, e),
					"social_docs": []any{map[string]any{"document_value": "facebook.com/sankaet", "document_type": "FACEBOOK"}}}}})
			}, status: 200, reads: []string{"documents.0.social_docs.6.id"}},
		{method: "users.update (add_virtual_document)", setup: addBaseDoc,
			req: func(t *testing.T, e sdkEnv) testkit.Call {
				return pyCall(e, "PATCH", u(e), map[string]any{"documents": []any{map[string]any{"id": baseDocID(t, e),
					"virtual_docs": []any{map[string]any{"document_value": "3333", "document_type": "SSN"}}}}})
			}, status: 200, reads: []string{"documents.0.virtual_docs.1.id"}},
		{method: "users.update (unknown base document id)", setup: addBaseDoc,
			req: func(t *testing.T, e sdkEnv) testkit.Call {
				return pyCall(e, "PATCH", u(e), map[string]any{"documents": []any{map[string]any{"id": strings.Repeat("a", 64), "name": "X"}}})
			}, status: 409, errorCode: "400"},
		{method: "nodes.create (AchUsNode)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "ACH-US", "info": map[string]any{
				"nickname": "Primary Joint Checking", "account_num": "2222222222", "routing_num": "051000017", "type": "PERSONAL", "class": "CHECKING"}})
		}, status: 200, reads: append(nodeReads, "nodes.0.info.account_num", "nodes.0.info.routing_num", "nodes.0.info.bank_name")},
		{method: "nodes.create (create_via_bank_login)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "ACH-US", "info": map[string]any{
				"bank_name": "fake", "bank_id": "synapse_good", "bank_pw": "test1234"}})
		}, status: 202, errorCode: "10", reads: []string{"mfa.access_token", "mfa.message", "mfa.type"}},
		{method: "nodes.create (IouNode)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "IOU", "info": map[string]any{
				"nickname": "Owed", "balance": map[string]any{"currency": "BTC"}}})
		}, status: 200, reads: append(nodeReads, "nodes.0.info.balance.currency")},
		{method: "nodes.create (SynapseUsNode, an older name of DEPOSIT-US)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "SYNAPSE-US", "info": map[string]any{"nickname": "S"}})
		}, status: 200, reads: nodeReads},
		{method: "nodes.get (list)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", testkit.NodesPath(e.Fx.User.ID)+"?page=1&per_page=20&type=ACH-US", nil)
		}, status: 200, reads: nodeReads},
		{method: "nodes.get", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"?full_dehydrate=yes&force_refresh=yes", nil)
		},
			status: 200, reads: []string{"_id", "type", "info", "allowed", "is_active"}},
		{method: "nodes.update (resend_microdeposits)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, e.Bank.ID)+"?resend_micro=YES", map[string]any{})
		}, status: 200, reads: []string{"_id", "type", "info"}},
		{method: "nodes.update (verify_microdeposits)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, e.Bank.ID), map[string]any{"micro": []float64{0.1, 0.1}})
		}, status: 200, reads: []string{"_id", "type", "info"}},
		{method: "nodes.update (card_us.update_preferences)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, cardNode(t, e)), map[string]any{"preferences": map[string]any{
				"allow_foreign_transactions": true, "atm_withdrawal_limit": 100, "max_pin_attempts": 3, "pos_withdrawal_limit": 1000, "security_alerts": true}})
		}, status: 200, reads: []string{"_id", "type", "info.preferences.allow_foreign_transactions", "info.preferences.atm_withdrawal_limit",
			"info.preferences.max_pin_attempts", "info.preferences.pos_withdrawal_limit", "info.preferences.security_alerts"}},
		{method: "nodes.update (update_preferences on a deposit node)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", n(e), map[string]any{"preferences": map[string]any{"security_alerts": true}})
		}, status: 409, errorCode: "410"},
		{method: "nodes.delete (deactivate)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "DELETE", testkit.NodePath(e.Fx.User.ID, e.Savings.ID), nil)
		},
			status: 200},
		{method: "trans.create", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", n(e)+"/trans", map[string]any{"to": map[string]any{"type": "ACH-US", "id": e.Bank.ID},
				"amount": map[string]any{"amount": 5.5, "currency": "USD"},
				"extra":  map[string]any{"ip": "127.0.0.1", "supp_id": "ABC123", "note": "hi synapse", "process_on": 0},
				"fees":   []any{map[string]any{"fee": 0.12, "note": "Test Fee 1", "to": map[string]any{"id": e.FeeNode.ID}}}})
		}, status: 200, reads: append(txReads, "fees.0.fee", "fees.0.note", "fees.0.to.id")},
		{method: "trans.get (list)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/trans?page=1&per_page=20", nil)
		},
			status: 200, reads: []string{"trans.0._id"}},
		{method: "trans.get", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "GET", n(e)+"/trans/"+e.tx, nil) }, status: 200, reads: txReads},
		{method: "trans.update (add_comment)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", n(e)+"/trans/"+e.tx, map[string]any{"comment": "this is my best transaction"})
		}, status: 200, reads: []string{"_id"}},
		{method: "trans.delete (cancel)", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "DELETE", n(e)+"/trans/"+e.tx, nil) },
			status: 200, reads: txReads},
		{method: "subnets.create", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", n(e)+"/subnets", map[string]any{"nickname": "Test Subnet"})
		},
			status: 200, reads: subnetReads},
		{method: "subnets.get (list)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/subnets?page=1&per_page=20", nil)
		},
			status: 200, reads: []string{"subnets.0._id"}},
		{method: "subnets.get", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "GET", e.subnetPath(e.acct), nil) }, status: 200, reads: subnetReads},
		{method: "subnets.update (lock)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", e.subnetPath(e.acct), map[string]any{"allowed": "LOCKED"})
		}, status: 200, reads: subnetReads, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if r.Body["status"] != "INACTIVE" {
				t.Errorf("status %v, want INACTIVE", r.Body["status"])
			}
		}},
		{method: "subscriptions.create", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "POST", "/subscriptions", map[string]any{"scope": pyScopes, "url": "https://example.com/h"})
		}, status: 200, reads: subsReads},
		{method: "subscriptions.get (list)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", "/subscriptions?page=1&per_page=20", nil)
		},
			status: 200, reads: []string{"subscriptions.0._id", "subscriptions.0.url"}},
		{method: "subscriptions.get", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/subscriptions/"+e.sub, nil) },
			status: 200, reads: subsReads},
		{method: "subscriptions.update (update_is_active)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "PATCH", "/subscriptions/"+e.sub, map[string]any{"is_active": false})
		}, status: 200, reads: subsReads},
		{method: "client_endpoint.issue_public_key", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", "/client?issue_public_key=YES&scope=OAUTH|POST,USERS|POST,CLIENT|CONTROLS", nil)
		}, status: 200, reads: []string{"public_key_obj.client_obj_id", "public_key_obj.expires_at", "public_key_obj.expires_in",
			"public_key_obj.public_key", "public_key_obj.scope"}},
		{method: "atms.locate", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", "/nodes/atms?&zip=94113&radius=5&page=1&per_page=20", nil)
		}, status: 200, reads: []string{"atms.0.atmLocation.id", "atms.0.atmLocation.address.city", "atms.0.atmLocation.coordinates.latitude",
			"atms.0.atmLocation.isAvailable24Hours", "atms.0.atmLocation.isDepositAvailable"}},
		{method: "institutions.find", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyGateway(e, "GET", "/institutions", nil) },
			status: 200, reads: []string{"banks"}},
		{method: "statements.retrieve (user)", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "GET", u(e)+"/statements", nil) }, status: 200},
		{method: "statements.retrieve (node)", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "GET", n(e)+"/statements", nil) }, status: 200},
	})
}

// addBaseDoc files the recorded base document for the fixture user.
func addBaseDoc(t *testing.T, e sdkEnv) {
	t.Helper()
	r := testkit.Do(t, e.Fake, pyCall(e, "PATCH", "/users/"+e.Fx.User.ID, map[string]any{"documents": []any{recordedBaseDoc()}}))
	if r.Status != http.StatusOK {
		t.Fatalf("add base document: %d %s", r.Status, r.Raw)
	}
}

// baseDocID is the id of the fixture user's first base document.
func baseDocID(t *testing.T, e sdkEnv) string {
	t.Helper()
	r := testkit.Do(t, e.Fake, pyGateway(e, "GET", "/users/"+e.Fx.User.ID, nil))
	id := pathString(r.Body, "documents.0.id")
	if id == "" {
		t.Fatalf("no base document id: %s", r.Raw)
	}
	return id
}

// cardNode creates a CARD-US node for the fixture user and returns its id.
func cardNode(t *testing.T, e sdkEnv) string {
	t.Helper()
	r := testkit.Do(t, e.Fake, pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "CARD-US",
		"info": map[string]any{"nickname": "My Card", "document_id": "doc-1", "card_type": "PHYSICAL"}}))
	if r.Status != http.StatusOK {
		t.Fatalf("create CARD-US node: %d %s", r.Status, r.Raw)
	}
	return r.Body["nodes"].([]any)[0].(map[string]any)["_id"].(string)
}

// toAny converts a []string to the []any a decoded JSON list is.
func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
