package api_test

import (
	"bytes"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// strictServer is a server WithStrictRequests (and opts) whose failures of
// the test are recorded in rec, not reported; it closes with t.
func strictServer(t *testing.T, opts ...synapsefake.Option) (*synapsefake.Server, *testkit.RecordingTB) {
	t.Helper()
	rec := &testkit.RecordingTB{TB: t}
	t.Cleanup(rec.End)
	return synapsefake.NewServer(rec, append(opts, synapsefake.WithStrictRequests())...), rec
}

// wantRuleRefused checks that r is the refusal status / errorCode / code
// and that the strict server failed its test once, naming rule.
func wantRuleRefused(t *testing.T, rec *testkit.RecordingTB, r testkit.Response, status int, errorCode, code, rule string) {
	t.Helper()
	wantErrorStatus(t, r, status, errorCode, code)
	rec.Mu.Lock()
	defer rec.Mu.Unlock()
	if len(rec.Errors) != 1 || !strings.Contains(rec.Errors[0], rule) {
		t.Errorf("the test's failures %q, want one naming %q", rec.Errors, rule)
	}
}

// dig reads the value at a dotted path of objects and arrays ("nodes.0.info").
func dig(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch c := v.(type) {
		case map[string]any:
			v = c[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

// wantSameState checks that the state of fake is before's (stateDoc).
func wantSameState(t *testing.T, fake *synapsefake.Server, before []byte) {
	t.Helper()
	if after := stateDoc(t, fake); !bytes.Equal(before, after) {
		t.Errorf("the refused request changed the state")
	}
}

// rulesEnv is what TestContractRulesTheSandboxTook calls: a user with a
// funded DEPOSIT-US node, a savings node, a CARD-US node, a card subnet to
// ship and a transaction to comment on.
type rulesEnv struct {
	fake              *synapsefake.Server
	fx                testkit.Fixture
	savings, cardNode synapsefake.Node
	card              synapsefake.Subnet
	tx                string
}

func newRulesEnv(t *testing.T, fake *synapsefake.Server) rulesEnv {
	t.Helper()
	e := rulesEnv{fake: fake, fx: testkit.NewFixture(t, fake, 100_00)}
	e.savings = fake.MustAddNode(t, e.fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	e.cardNode = fake.MustAddNode(t, e.fx.User.ID, synapsefake.NodeSeed{Type: "CARD-US", Nickname: "Card node"})
	e.card = testkit.AddSubnet(t, fake, e.fx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD"})
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(e.fx.User.ID, e.fx.Node.ID), Header: e.fx.Headers, Body: testkit.TxBody(e.savings, 1)})
	if r.Status != http.StatusOK {
		t.Fatalf("setup transfer: %d %s", r.Status, r.Raw)
	}
	e.tx = r.Body["_id"].(string)
	return e
}

func (e rulesEnv) transfer(edit func(b map[string]any)) testkit.Call {
	b := testkit.TxBody(e.savings, 1)
	edit(b)
	return testkit.Call{Method: "POST", Path: testkit.TransPath(e.fx.User.ID, e.fx.Node.ID), Header: e.fx.Headers, Body: b}
}

func (e rulesEnv) achNode(info map[string]any) testkit.Call {
	in := map[string]any{"nickname": "Bank", "account_num": "123456789", "routing_num": "051000017"}
	maps.Copy(in, info)
	return testkit.Call{Method: "POST", Path: testkit.NodesPath(e.fx.User.ID), Header: e.fx.Headers, Body: map[string]any{"type": "ACH-US", "info": in}}
}

func (e rulesEnv) patchNode(id, query string, body any) testkit.Call {
	return testkit.Call{Method: "PATCH", Path: testkit.NodePath(e.fx.User.ID, id) + query, Header: e.fx.Headers, Body: body}
}

func (e rulesEnv) get(path string) testkit.Call {
	return testkit.Call{Method: "GET", Path: path, Header: testkit.GatewayHeaders(e.fake)}
}

func (e rulesEnv) ship(body map[string]any) testkit.Call {
	body["fee_node_id"] = e.fx.Node.ID
	return testkit.Call{Method: "PATCH", Path: testkit.SubnetPath(e.fx.User.ID, e.fx.Node.ID, e.card.ID) + "/ship", Header: e.fx.Headers, Body: body}
}

func (e rulesEnv) address(edit func(b map[string]any), contentType string) testkit.Call {
	b := addressBody("123 Main St")
	if edit != nil {
		edit(b)
	}
	c := testkit.Call{Method: "POST", Path: "/address-verification", Body: b}
	if contentType != "" {
		c.Header = map[string]string{"Content-Type": contentType}
	}
	return c
}

// TestContractRulesTheSandboxTook: each request breaks a rule the fake
// used to refuse that no source shows the service refusing (a format, a
// length, an enumeration, a combination). The default server takes it, as
// the sandbox did, and answers as the row checks; a server
// WithStrictRequests refuses it as before, names the rule in the test's
// failure, and changes nothing.
func TestContractRulesTheSandboxTook(t *testing.T) {
	t.Parallel()
	ok := func(check func(t *testing.T, e rulesEnv, b map[string]any)) func(t *testing.T, e rulesEnv, r testkit.Response) {
		return func(t *testing.T, e rulesEnv, r testkit.Response) {
			t.Helper()
			if r.Status != http.StatusOK {
				t.Fatalf("default server: %d %s, want 200", r.Status, r.Raw)
			}
			if check != nil {
				check(t, e, r.Body)
			}
		}
	}
	want := func(path string, v any) func(t *testing.T, e rulesEnv, b map[string]any) {
		return func(t *testing.T, _ rulesEnv, b map[string]any) {
			t.Helper()
			if got := dig(b, path); !cmp.Equal(got, v) {
				t.Errorf("%s = %#v, want %#v", path, got, v)
			}
		}
	}
	count := func(path string, n int) func(t *testing.T, e rulesEnv, b map[string]any) {
		return func(t *testing.T, _ rulesEnv, b map[string]any) {
			t.Helper()
			if got, _ := dig(b, path).([]any); len(got) != n {
				t.Errorf("%s holds %d, want %d", path, len(got), n)
			}
		}
	}
	unknownBank := func(t *testing.T, _ rulesEnv, r testkit.Response) {
		t.Helper()
		wantErrorStatus(t, r, 409, "400", "unknown_routing_number")
	}
	for _, tc := range []struct {
		name    string
		call    func(e rulesEnv) testkit.Call
		lenient func(t *testing.T, e rulesEnv, r testkit.Response)
		status  int
		errCode string
		code    string
		rule    string
	}{
		{"transfer: to.type names another type", func(e rulesEnv) testkit.Call {
			return e.transfer(func(b map[string]any) { testkit.PutPath(b, "to.type", "ACH-US") })
		}, ok(want("to.type", "DEPOSIT-US")), 409, "400", "node_type_mismatch", "to.type is the receiving node's type"},
		{"transfer: negative process_on", func(e rulesEnv) testkit.Call {
			return e.transfer(func(b map[string]any) { testkit.PutPath(b, "extra.process_on", -1) })
		}, ok(func(t *testing.T, _ rulesEnv, b map[string]any) {
			if getPath(b, "extra.process_on") != getPath(b, "extra.created_on") {
				t.Errorf("process_on %v, want today's, %v", getPath(b, "extra.process_on"), getPath(b, "extra.created_on"))
			}
		}), 400, "200", "invalid_process_on", "extra.process_on is a delta in days, 0 (today) or more"},
		{"transfer: attachment not base64", func(e rulesEnv) testkit.Call {
			return e.transfer(func(b map[string]any) {
				testkit.PutPath(b, "extra.other", map[string]any{"attachments": []any{"not base64!"}})
			})
		}, ok(want("extra.other.attachments", []any{"not base64!"})), 400, "200", "invalid_attachment", "extra.other.attachments[] are padded base64"},
		{"comment: none", func(e rulesEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.TransPath(e.fx.User.ID, e.fx.Node.ID) + "/" + e.tx, Header: e.fx.Headers, Body: map[string]any{}}
		}, ok(count("timeline", 1)), 400, "200", "missing_comment", "a PATCH of a transaction carries a comment"},
		{"ACH-US: account_num of letters", func(e rulesEnv) testkit.Call { return e.achNode(map[string]any{"account_num": "ACCT-0042"}) },
			ok(count("nodes", 1)), 400, "200", "invalid_account_num", "info.account_num is 4 to 17 digits"},
		{"ACH-US: routing_num of 8 digits", func(e rulesEnv) testkit.Call { return e.achNode(map[string]any{"routing_num": "05100001"}) },
			unknownBank, 400, "200", "invalid_routing_num", "info.routing_num is 9 digits"},
		{"ACH-US: info.type JOINT", func(e rulesEnv) testkit.Call { return e.achNode(map[string]any{"type": "JOINT"}) },
			ok(want("nodes.0.info.type", "JOINT")), 400, "200", "invalid_account_type", "info.type is PERSONAL or BUSINESS"},
		{"ACH-US: info.class MONEY_MARKET", func(e rulesEnv) testkit.Call { return e.achNode(map[string]any{"class": "MONEY_MARKET"}) },
			ok(want("nodes.0.info.class", "MONEY_MARKET")), 400, "200", "invalid_account_class", "info.class is CHECKING or SAVINGS"},
		{"PATCH node: nothing", func(e rulesEnv) testkit.Call { return e.patchNode(e.fx.Node.ID, "", map[string]any{}) },
			ok(want("info.nickname", "Checking")), 400, "200", "nothing_to_update", "a PATCH of a node names something to change"},
		{"PATCH node: empty nickname", func(e rulesEnv) testkit.Call { return e.patchNode(e.fx.Node.ID, "", map[string]any{"nickname": ""}) },
			ok(want("info.nickname", "")), 400, "200", "invalid_nickname", "nickname is not empty"},
		{"PATCH node: ship=maybe", func(e rulesEnv) testkit.Call { return e.patchNode(e.cardNode.ID, "?ship=maybe", map[string]any{}) },
			ok(count("timeline", 2)), 400, "200", "invalid_query", "ship is YES or NO"},
		{"PATCH card: empty preferences", func(e rulesEnv) testkit.Call {
			return e.patchNode(e.cardNode.ID, "", map[string]any{"preferences": map[string]any{}})
		}, ok(want("info.preferences.max_pin_attempts", 3.0)), 400, "200", "nothing_to_update", "preferences names a preference"},
		{"PATCH card: negative ATM limit", func(e rulesEnv) testkit.Call {
			return e.patchNode(e.cardNode.ID, "", map[string]any{"preferences": map[string]any{"atm_withdrawal_limit": -5}})
		}, ok(want("info.preferences.atm_withdrawal_limit", -5.0)), 400, "200", "invalid_preferences", "preferences.atm_withdrawal_limit is not negative"},
		{"PATCH card: no PIN attempts", func(e rulesEnv) testkit.Call {
			return e.patchNode(e.cardNode.ID, "", map[string]any{"preferences": map[string]any{"max_pin_attempts": 0}})
		}, ok(want("info.preferences.max_pin_attempts", 0.0)), 400, "200", "invalid_preferences", "preferences.max_pin_attempts is at least 1"},
		{"ship: delivery DRONE", func(e rulesEnv) testkit.Call { return e.ship(map[string]any{"delivery": "DRONE"}) },
			ok(nil), 400, "200", "invalid_delivery", "delivery is one of STANDARD"},
		{"ship: empty card_style_id", func(e rulesEnv) testkit.Call { return e.ship(map[string]any{"card_style_id": ""}) },
			ok(nil), 400, "200", "invalid_card_style_id", "card_style_id is not empty"},
		{"ship: secondary_label of 27 characters", func(e rulesEnv) testkit.Call {
			return e.ship(map[string]any{"secondary_label": "123456789012345678901234567"})
		}, ok(nil), 400, "200", "invalid_secondary_label", "secondary_label is at most 26 characters"},
		{"address verification: Content-Type text/plain", func(e rulesEnv) testkit.Call { return e.address(nil, "text/plain") },
			ok(want("deliverability", "usps_deliverable")), 400, "200", "invalid_content_type", "Content-Type is application/json"},
		{"address verification: no city", func(e rulesEnv) testkit.Call {
			return e.address(func(b map[string]any) { delete(b, "address_city") }, "")
		}, ok(want("normalized_address.address_city", "")), 400, "200", "missing_field", "address verification gets all five fields"},
		{"routing verification: 8 digits", func(e rulesEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/routing-number-verification", Header: testkit.GatewayHeaders(e.fake), Body: map[string]any{"routing_num": "05100001"}}
		}, unknownBank, 400, "200", "invalid_routing_num", "routing_num is 9 digits"},
		{"routing verification: type CARD-US", func(e rulesEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/routing-number-verification", Header: testkit.GatewayHeaders(e.fake), Body: map[string]any{"routing_num": "051000017", "type": "CARD-US"}}
		}, ok(want("type", "CARD-US")), 400, "200", "invalid_type", "type is ACH-US or WIRE-US"},
		{"ATMs: radius 0", func(e rulesEnv) testkit.Call { return e.get("/nodes/atms?zip=94114&radius=0") },
			ok(want("atms_count", 50.0)), 400, "200", "invalid_radius", "radius is a number of miles above 0"},
		{"ATMs: radius 101", func(e rulesEnv) testkit.Call { return e.get("/nodes/atms?zip=94114&radius=101&per_page=1") },
			ok(func(t *testing.T, _ rulesEnv, b map[string]any) {
				if d, _ := dig(b, "atms.0.distance").(float64); d > 100 {
					t.Errorf("distance %v, want within 100 miles", d)
				}
			}), 400, "200", "invalid_radius", "at most 100"},
		{"ATMs: zip of 4 digits", func(e rulesEnv) testkit.Call { return e.get("/nodes/atms?zip=9411") },
			ok(count("atms", 0)), 400, "200", "invalid_zip", "zip is 5 digits"},
		{"ATMs: lat without lon", func(e rulesEnv) testkit.Call { return e.get("/nodes/atms?lat=37.7") },
			ok(count("atms", 0)), 400, "200", "invalid_coordinates", "lat and lon are given together"},
		{"market watch: limit 0", func(e rulesEnv) testkit.Call { return e.get("/nodes/crypto-market-watch?currency=BTC&limit=0") },
			ok(want("limit", 7.0)), 400, "200", "invalid_limit", "limit is a number of days from 1 to 365"},
		{"market watch: limit 366", func(e rulesEnv) testkit.Call { return e.get("/nodes/crypto-market-watch?currency=BTC&limit=366") },
			ok(count("data", 365)), 400, "200", "invalid_limit", "limit is a number of days from 1 to 365"},
		{"trade: ticker of digits", func(e rulesEnv) testkit.Call { return e.get("/nodes/trade-market-watch?ticker=1234") },
			ok(want("ticker", "1234")), 400, "200", "invalid_ticker", "ticker is 1 to 5 letters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lenient := newRulesEnv(t, synapsefake.NewServer(t))
			tc.lenient(t, lenient, testkit.Do(t, lenient.fake, tc.call(lenient)))

			strict, rec := strictServer(t)
			e := newRulesEnv(t, strict)
			before := stateDoc(t, strict)
			wantRuleRefused(t, rec, testkit.Do(t, strict, tc.call(e)), tc.status, tc.errCode, tc.code, tc.rule)
			wantSameState(t, strict, before)
		})
	}
}

// TestContractRulesTheSandboxTookInABatch: a batch item that breaks such a
// rule is created on the default server and refused by its index on a
// server WithStrictRequests, the other items created.
func TestContractRulesTheSandboxTookInABatch(t *testing.T) {
	t.Parallel()
	for _, strict := range []bool{false, true} {
		fake, rec := synapsefake.NewServer(t), (*testkit.RecordingTB)(nil)
		if strict {
			fake, rec = strictServer(t)
		}
		e := newRulesEnv(t, fake)
		item := testkit.TxBody(e.savings, 1)
		testkit.PutPath(item, "to.type", "SUBACCOUNT-US")
		r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(e.fx.User.ID, e.fx.Node.ID)[:len(testkit.TransPath(e.fx.User.ID, e.fx.Node.ID))-len("/trans")] + "/batch-trans",
			Header: e.fx.Headers, Body: map[string]any{"transactions": []any{testkit.TxBody(e.savings, 1), item}}})
		wantCount, wantErrors := 2.0, 0
		if strict {
			wantCount, wantErrors = 1.0, 1
		}
		if errs, _ := r.Body["errors"].([]any); r.Status != http.StatusOK || r.Body["trans_count"] != wantCount || len(errs) != wantErrors {
			t.Errorf("strict=%v: %d trans_count %v errors %v, want 200, %v and %d errors", strict, r.Status, r.Body["trans_count"], r.Body["errors"], wantCount, wantErrors)
		}
		if strict && (dig(r.Body, "errors.0.error.code") != "node_type_mismatch" || len(rec.Errors) != 1) {
			t.Errorf("strict: errors %v, the test's failures %q; want node_type_mismatch at index 1 and one failure", r.Body["errors"], rec.Errors)
		}
	}
}

// TestPatchNodeChangingNothing: a PATCH of a node that names nothing to
// change (an empty body or object, a type, which cannot change, a query
// flag NO or of another value) answers the node as it is and sends no
// webhook; it was 400 nothing_to_update (WithStrictRequests still refuses
// it, TestContractRulesTheSandboxTook).
func TestPatchNodeChangingNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		query string
		body  any
	}{
		{"empty body", "", ""},
		{"empty object", "", map[string]any{}},
		{"a type", "", map[string]any{"type": "ACH-US"}},
		{"reorder_card=NO", "?reorder_card=NO", map[string]any{}},
		{"reissue_card=maybe", "?reissue_card=maybe", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			card := createdNode(t, fake, fx, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "Card", "document_id": "doc"}})
			path := testkit.NodePath(fx.User.ID, card["_id"].(string))
			hooks := len(fake.Webhooks().All())
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + tc.query, Header: fx.Headers, Body: tc.body})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
			}
			got := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path, Header: fx.Headers})
			if diff := cmp.Diff(got.Body, r.Body); diff != "" {
				t.Errorf("the answer against a GET (-get +patch):\n%s", diff)
			}
			if n := len(fake.Webhooks().All()); n != hooks {
				t.Errorf("%d webhooks after the PATCH, want %d", n, hooks)
			}
		})
	}
}

// TestCardNodeTakesEveryAllowedValue: PATCH {"allowed": ...} of a card node
// takes every value the spec's FIDELITY.md lists for a node's allowed (CREDIT, DEBIT
// and REJECTED were 400 invalid_allowed, in strict mode too, though no
// source shows a refusal); one it does not list is still refused. Only
// CREDIT-AND-DEBIT and DEBIT send.
func TestCardNodeTakesEveryAllowedValue(t *testing.T) {
	t.Parallel()
	fake, rec := strictServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	card := createdNode(t, fake, fx, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "Card", "document_id": "doc"}})
	path := testkit.NodePath(fx.User.ID, card["_id"].(string))
	for _, v := range []string{"CREDIT", "DEBIT", "REJECTED", "CREDIT-AND-DEBIT", "PENDING", "INACTIVE", "LOCKED"} {
		r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"allowed": v}})
		if r.Status != http.StatusOK || r.Body["allowed"] != v {
			t.Errorf("allowed %s: %d %s, want 200 and it read back", v, r.Status, r.Raw)
		}
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"allowed": "OPEN"}})
	wantErrorStatus(t, r, 400, "200", "invalid_allowed")
	if rec.Failed() {
		t.Errorf("strict mode failed the test: %q", rec.Errors)
	}
}
