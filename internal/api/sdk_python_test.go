package api_test

// The checks of the SynapsePy harness (compat/python/compat.py) as Go tests:
// each sends the request the SDK method sends (pyHeaders; GET with the query
// parameters requests builds, in the order of HttpClient.get's valid_params;
// POST and PATCH with json.dumps of the payload) and asserts what the harness
// asserted of the answer. Where the harness compared an answer with the
// SDK's recorded fixture (its like), the answer is compared with the
// fixture's shape: every key of the recorded answer present, each value of
// the same JSON type (null matches anything; lists compare their first
// elements). SDK_PYRB_COVERAGE.md maps every harness check to its test.

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// valueAt is the value at dot path p of m, where a number indexes a list;
// nil when there is none.
func valueAt(m map[string]any, p string) any {
	var cur any = m
	for _, k := range strings.Split(p, ".") {
		switch v := cur.(type) {
		case map[string]any:
			cur = v[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	return cur
}

// wantAt checks that the value at dot path p of r's body is want.
func wantAt(t *testing.T, r testkit.Response, p string, want any) {
	t.Helper()
	if diff := cmp.Diff(want, valueAt(r.Body, p)); diff != "" {
		t.Errorf("%s (-want +got):\n%s\nbody %s", p, diff, r.Raw)
	}
}

// wantOK fails the test unless r is a 200.
func wantOK(t *testing.T, r testkit.Response) {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
	}
}

// unlike lists where got lacks a key of the recorded shape or holds a value
// of another JSON type: the harnesses' shape check.
func unlike(recorded, got any, path string) []string {
	kind := func(v any) string {
		switch v.(type) {
		case bool:
			return "bool"
		case float64:
			return "number"
		case string:
			return "string"
		case []any:
			return "list"
		case map[string]any:
			return "object"
		}
		return "null"
	}
	var out []string
	switch rec := recorded.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{path + " is " + kind(got) + ", want an object"}
		}
		for _, k := range slices.Sorted(maps.Keys(rec)) {
			v, ok := g[k]
			if !ok {
				out = append(out, path+"."+k+" missing")
				continue
			}
			out = append(out, unlike(rec[k], v, path+"."+k)...)
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return []string{path + " is " + kind(got) + ", want a list"}
		}
		if len(rec) > 0 && len(g) > 0 {
			out = append(out, unlike(rec[0], g[0], path+"[0]")...)
		}
	default:
		if recorded != nil && got != nil && kind(recorded) != kind(got) {
			out = append(out, path+" is "+kind(got)+", want "+kind(recorded))
		}
	}
	return out
}

// wantLike checks got against the shape of an SDK's recorded answer.
func wantLike(t *testing.T, recorded map[string]any, got any) {
	t.Helper()
	if diffs := unlike(recorded, got, "answer"); len(diffs) > 0 {
		t.Errorf("unlike the SDK's recorded answer: %s", strings.Join(diffs, "; "))
	}
}

// The shapes of SynapsePy's recorded answers (synapsepy/tests/fixtures):
// "" a string, 0.0 a number, false a bool, nil null, a list its first
// element's shape.
var (
	linksShape  = map[string]any{"self": map[string]any{"href": ""}}
	clientShape = map[string]any{"id": "", "name": ""}
	// user_fixtures.simple_response and users_resp.users[0].
	pyRecordedUser = map[string]any{
		"_id": "", "_links": linksShape, "client": clientShape,
		"doc_status": map[string]any{"physical_doc": "", "virtual_doc": ""},
		"documents":  []any{}, "emails": []any{},
		"extra": map[string]any{"cip_tag": 0.0, "date_joined": 0.0, "extra_security": false, "is_business": false,
			"last_updated": 0.0, "public_note": nil, "supp_id": ""},
		"is_hidden": false, "legal_names": []any{""}, "logins": []any{map[string]any{"email": "", "scope": ""}},
		"permission": "", "phone_numbers": []any{""}, "photos": []any{}, "refresh_token": "",
	}
	nodeTimelineShape = []any{map[string]any{"date": 0.0, "note": ""}}
	// node_fixtures.debit_us_get_response.
	pyRecordedDepositNode = map[string]any{
		"_id": "", "_links": linksShape, "allowed": "", "client": clientShape,
		"extra": map[string]any{"note": nil, "other": map[string]any{}, "supp_id": ""},
		"info": map[string]any{"balance": map[string]any{"amount": 0.0, "currency": ""}, "document_id": nil,
			"name_on_account": "", "nickname": ""},
		"is_active": false, "timeline": nodeTimelineShape, "type": "", "user_id": "",
	}
	// node_fixtures.ach_us_get_response (its balance amount is a string).
	pyRecordedACHNode = map[string]any{
		"_id": "", "_links": linksShape, "allowed": "", "client": clientShape,
		"extra": map[string]any{"note": nil, "other": map[string]any{"access_token": nil, "updated_on": nil}, "supp_id": ""},
		"info": map[string]any{"account_num": "", "address": "", "balance": map[string]any{"amount": "", "currency": ""},
			"bank_logo": "", "bank_long_name": "", "bank_name": "", "class": "",
			"match_info":      map[string]any{"email_match": "", "name_match": "", "phonenumber_match": ""},
			"name_on_account": "", "nickname": "", "routing_num": "", "type": ""},
		"is_active": false, "timeline": nodeTimelineShape, "type": "", "user_id": "",
	}
	// node_fixtures.ach_mfa_resp.
	pyRecordedBankLoginMFA = map[string]any{
		"error_code": "", "http_code": "", "mfa": map[string]any{"access_token": "", "message": "", "type": ""}, "success": false,
	}
	// node_fixtures.card_us_get_response.
	pyRecordedCardNode = map[string]any{
		"_id": "", "_links": linksShape, "allowed": "", "client": clientShape,
		"extra": map[string]any{"note": nil, "other": map[string]any{"access_token": ""}, "supp_id": ""},
		"info": map[string]any{"balance": map[string]any{"amount": 0.0, "currency": ""}, "card_hash": "", "card_number": "",
			"card_style_id": nil, "document_id": "", "name_on_account": "", "nickname": "",
			"preferences": map[string]any{"allow_foreign_transactions": false, "atm_withdrawal_limit": 0.0, "pos_withdrawal_limit": 0.0}},
		"is_active": false, "timeline": nodeTimelineShape, "type": "", "user_id": "",
	}
	txSideShape = map[string]any{"id": "", "nickname": "", "type": "", "user": map[string]any{"_id": "", "legal_names": []any{""}}}
	txStatus    = map[string]any{"date": 0.0, "note": "", "status": "", "status_id": ""}
	// trans_fixtures.trans_get_response and get_all_trans_resp.trans[0].
	pyRecordedTrans = map[string]any{
		"_id": "", "_links": linksShape, "_v": 0.0, "amount": map[string]any{"amount": 0.0, "currency": ""}, "client": clientShape,
		"extra": map[string]any{"asset": nil, "created_on": 0.0, "encrypted_note": "", "group_id": nil, "ip": "", "latlon": "",
			"note": "", "process_on": 0.0, "same_day": false, "supp_id": ""},
		"fees": []any{map[string]any{"fee": 0.0, "note": "", "to": map[string]any{"id": ""}}},
		"from": txSideShape, "recent_status": txStatus, "timeline": []any{txStatus}, "to": txSideShape,
	}
	// subnet_fixtures.subnet_get_resp.
	pyRecordedSubnet = map[string]any{
		"_id": "", "_links": linksShape, "account_class": "", "account_num": "", "client": clientShape, "nickname": "",
		"node_id": "", "routing_num": map[string]any{"ach": "", "wire": ""}, "user_id": "",
	}
	// subscription_fixtures.subs_resp and subss_resp.subscriptions[0].
	pyRecordedSubscription = map[string]any{
		"_id": "", "_links": linksShape, "_v": 0.0, "client_id": "", "is_active": false, "scope": []any{""}, "url": "",
	}
)

// pyBaseDocument is compat.py's base_document: the body of one base
// document with an SSN, a GOVT_ID and a FACEBOOK document.
func pyBaseDocument(email, name, ssn string) map[string]any {
	return map[string]any{
		"email": email, "phone_number": "901.111.1111", "ip": "127.0.0.1", "name": name, "alias": "Compat",
		"entity_type": "M", "entity_scope": "Arts & Entertainment", "day": 2, "month": 5, "year": 1989,
		"address_street": "1 Market St", "address_city": "SF", "address_subdivision": "CA",
		"address_postal_code": "94105", "address_country_code": "US",
		"virtual_docs":  []any{map[string]any{"document_value": ssn, "document_type": "SSN"}},
		"physical_docs": []any{map[string]any{"document_value": "data:image/gif;base64,SUQs==", "document_type": "GOVT_ID"}},
		"social_docs":   []any{map[string]any{"document_value": "https://www.facebook.com/compat", "document_type": "FACEBOOK"}},
	}
}

// pyNewDevice is pyCall from a fingerprint the user has not registered, as
// after Client.update_headers(fingerprint=...).
func pyNewDevice(e sdkEnv, method, path string, body any) testkit.Call {
	c := pyCall(e, method, path, body)
	c.Header["X-SP-USER"] = e.Fx.Key + "|compat-fingerprint-2"
	return c
}

// sdkFlow is one harness check that takes several requests; run sends
// them and checks each answer.
type sdkFlow struct {
	name string
	run  func(t *testing.T, e sdkEnv)
}

func runSDKFlows(t *testing.T, flows []sdkFlow) {
	t.Helper()
	for _, f := range flows {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			f.run(t, newSDKEnv(t))
		})
	}
}

// ids are the _id of each element of the list at key of r's body.
func ids(r testkit.Response, key string) []string {
	var out []string
	for _, v := range valueAt(r.Body, key).([]any) {
		out = append(out, v.(map[string]any)["_id"].(string))
	}
	return out
}

// activateCard sets the card subnet ACTIVE, as compat.py's update_subnet
// did before the checks that use the card.
func activateCard(t *testing.T, e sdkEnv) {
	t.Helper()
	wantOK(t, testkit.Do(t, e.Fake, pyCall(e, "PATCH", e.subnetPath(e.card), map[string]any{"status": "ACTIVE"})))
}

// cardSwipe makes a settled card purchase of cents on the card subnet, as
// compat.py's ctl.card_authorization and ctl.settle.
func cardSwipe(t *testing.T, e sdkEnv, cents int64) string {
	t.Helper()
	activateCard(t, e)
	tx, err := e.Fake.CardAuthorization(e.card, synapsefake.CardAuth{AmountCents: cents, Merchant: "Compat Shop"})
	if err != nil {
		t.Fatalf("CardAuthorization: %v", err)
	}
	if err := e.Fake.Settle(tx.ID); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	return tx.ID
}

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

func TestSDKPythonClient(t *testing.T) {
	t.Parallel()
	u := func(e sdkEnv) string { return "/users/" + e.Fx.User.ID }
	runPyRows(t, []pyRow{
		{method: "Client.create_user (answer as the SDK's recorded user)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "POST", "/users", map[string]any{"logins": []any{map[string]any{"email": "test@synapsepay.com"}},
				"phone_numbers": []any{"901.111.1111"}, "legal_names": []any{"Test User"},
				"extra": map[string]any{"supp_id": "my_user_id", "cip_tag": 1, "is_business": false}})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if id, _ := r.Body["_id"].(string); len(id) != 24 {
				t.Errorf("_id %v, want 24 characters", r.Body["_id"])
			}
			if tok, _ := r.Body["refresh_token"].(string); !strings.HasPrefix(tok, "refresh_") {
				t.Errorf("refresh_token %v", r.Body["refresh_token"])
			}
			wantAt(t, r, "legal_names", []any{"Test User"})
			wantAt(t, r, "extra.supp_id", "my_user_id")
			wantLike(t, pyRecordedUser, r.Body)
		}},
		{method: "Client.get_user(full_dehydrate=True)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", u(e)+"?full_dehydrate=yes", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "_id", e.Fx.User.ID)
			wantAt(t, r, "refresh_token", e.Fx.User.RefreshToken)
			if _, ok := r.Body["documents"].([]any); !ok {
				t.Errorf("documents %v, want a list", r.Body["documents"])
			}
		}},
		{method: "Client.get_all_users(query, page, per_page, show_refresh_tokens) -> Users", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyGateway(e, "GET", "/users?query=Sam+Sender&page=1&per_page=20&show_refresh_tokens=yes", nil)
		}, status: 200, reads: []string{"page_count", "limit"}, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "page", 1.0)
			if n, _ := r.Body["users_count"].(float64); n < 1 {
				t.Errorf("users_count %v, want at least 1", r.Body["users_count"])
			}
			i := slices.Index(ids(r, "users"), e.Fx.User.ID)
			if i < 0 {
				t.Fatalf("%s not listed: %s", e.Fx.User.ID, r.Raw)
			}
			wantAt(t, r, "users."+strconv.Itoa(i)+".refresh_token", e.Fx.User.RefreshToken)
			wantLike(t, pyRecordedUser, valueAt(r.Body, "users."+strconv.Itoa(i)))
		}},
		{method: "Client.get_all_trans(page, per_page)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", "/trans?page=1&per_page=50", nil)
		}, status: 200, reads: pyTransList, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if !slices.Contains(ids(r, "trans"), e.tx) {
				t.Errorf("transaction %s not listed: %s", e.tx, r.Raw)
			}
		}},
		{method: "Client.get_all_nodes(page, per_page)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", "/nodes?page=1&per_page=50", nil)
		}, status: 200, reads: pyNodesList, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if !slices.Contains(ids(r, "nodes"), e.Fx.Node.ID) {
				t.Errorf("node %s not listed: %s", e.Fx.Node.ID, r.Raw)
			}
		}},
		{method: "Client.crypto_quotes", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", "/nodes/crypto-quotes", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			_, usdbtc := r.Body["USDBTC"]
			_, btcusd := r.Body["BTCUSD"]
			if !usdbtc && !btcusd {
				t.Errorf("neither USDBTC nor BTCUSD: %s", r.Raw)
			}
		}},
		{method: "Client.crypto_market_data(limit, currency)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", "/nodes/crypto-market-watch?limit=5&currency=BTC", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "success", true) }},
		{method: "Client.trade_market_data(ticker)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", "/nodes/trade-market-watch?ticker=AAPL", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "success", true) }},
		{method: "Client.locate_atms(zip, rad, page, per_page)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", "/nodes/atms?page=1&per_page=5&radius=5&zip=94114", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if _, ok := valueAt(r.Body, "atms.0.atmLocation.address.city").(string); !ok {
				t.Errorf("atms[0].atmLocation.address.city is not a string: %s", r.Raw)
			}
		}},
		{method: "Client.issue_public_key(scope, user_id)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", "/client?issue_public_key=YES&scope=USERS%7CPOST&scope=USER%7CPATCH&user_id="+e.Fx.User.ID, nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if k, _ := valueAt(r.Body, "public_key_obj.public_key").(string); k == "" {
				t.Errorf("public_key_obj.public_key empty: %s", r.Raw)
			}
			scope, _ := valueAt(r.Body, "public_key_obj.scope").([]any)
			got := make([]string, 0, len(scope))
			for _, s := range scope {
				got = append(got, s.(string))
			}
			slices.Sort(got)
			want := []string{"USERS|POST", "USER|PATCH"}
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("scope (-want +got):\n%s", diff)
			}
		}},
		{method: "Client.issue_public_key(scope) without a user", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", "/client?issue_public_key=YES&scope=USERS%7CPOST", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "public_key_obj.scope", []any{"USERS|POST"})
		}},
		{method: "Client.get_all_inst()", req: func(t *testing.T, e sdkEnv) testkit.Call { return pyCall(e, "GET", "/institutions", nil) },
			status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
				if code, _ := valueAt(r.Body, "banks.0.bank_code").(string); code == "" {
					t.Errorf("banks[0].bank_code empty: %.300s", r.Raw)
				}
			}},
		{method: "Client.verify_address(body)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", "/address-verification", map[string]any{"address_street": "1 Market St",
				"address_city": "San Francisco", "address_subdivision": "CA", "address_country_code": "US", "address_postal_code": "94105"})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "deliverability", "usps_deliverable")
			wantAt(t, r, "normalized_address.address_street", "1 MARKET ST")
		}},
		{method: "Client.verify_routing_number(body)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", "/routing-number-verification", map[string]any{"routing_num": "084008426", "type": "ACH-US"})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if name, _ := r.Body["bank_name"].(string); name == "" {
				t.Errorf("bank_name empty: %s", r.Raw)
			}
		}},
	})
	for _, tc := range []struct{ method, path, holds string }{
		{"Client.get_node_types", "/nodes/types", `"DEPOSIT-US"`},
		{"Client.get_user_document_types", "/users/document-types", `"SSN"`},
		{"Client.get_user_entity_types", "/users/entity-types", `"M"`},
		{"Client.get_user_entity_scopes", "/users/entity-scopes", `"Arts & Entertainment"`},
	} {
		t.Run(tc.method, func(t *testing.T) {
			t.Parallel()
			e := newSDKEnv(t)
			r := testkit.Do(t, e.Fake, pyCall(e, "GET", tc.path, nil))
			wantOK(t, r)
			// compat.py looked for the value in json.dumps of the answer,
			// which writes & as it is.
			if !strings.Contains(strings.ReplaceAll(string(r.Raw), `\u0026`, "&"), tc.holds) {
				t.Errorf("%s not in the answer: %.300s", tc.holds, r.Raw)
			}
		})
	}
}

func TestSDKPythonOAuth(t *testing.T) {
	t.Parallel()
	oauth := func(e sdkEnv) string { return "/oauth/" + e.Fx.User.ID }
	phone := func(e sdkEnv) string { return e.Fx.User.PhoneNumbers[0] }
	askDevice := func(t *testing.T, e sdkEnv) {
		r := testkit.Do(t, e.Fake, pyNewDevice(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken}))
		if r.Status != http.StatusAccepted {
			t.Fatalf("oauth from a new device: %d %s", r.Status, r.Raw)
		}
		r = testkit.Do(t, e.Fake, pyNewDevice(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken, "phone_number": phone(e)}))
		if r.Status != http.StatusAccepted {
			t.Fatalf("select_2fa_device: %d %s", r.Status, r.Raw)
		}
	}
	runPyRows(t, []pyRow{
		{method: "User.oauth() -> key set on the client", req: func(t *testing.T, e sdkEnv) testkit.Call {
			c := pyCall(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken})
			c.Header["X-SP-USER"] = "|" + testkit.TestFingerprint // no key yet
			return c
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if k, _ := r.Body["oauth_key"].(string); !strings.HasPrefix(k, "oauth_") {
				t.Errorf("oauth_key %v", r.Body["oauth_key"])
			}
			wantAt(t, r, "user_id", e.Fx.User.ID)
		}},
		{method: "User.oauth(payload with scope)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken,
				"scope": []string{"USER|PATCH", "USER|GET", "NODES|POST", "NODES|GET"}})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			var got []string
			for _, s := range r.Body["scope"].([]any) {
				got = append(got, s.(string))
			}
			slices.Sort(got)
			if diff := cmp.Diff([]string{"NODES|GET", "NODES|POST", "USER|GET", "USER|PATCH"}, got); diff != "" {
				t.Errorf("scope (-want +got):\n%s", diff)
			}
		}},
		{method: "User.refresh() -> refresh_token", req: func(t *testing.T, e sdkEnv) testkit.Call {
			// A User made by create_user keeps full_dehydrate=False, which
			// requests sends as it is.
			return pyCall(e, "GET", "/users/"+e.Fx.User.ID+"?full_dehydrate=False", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "refresh_token", e.Fx.User.RefreshToken)
			if !strings.HasPrefix(e.Fx.User.RefreshToken, "refresh_") {
				t.Errorf("refresh_token %q", e.Fx.User.RefreshToken)
			}
		}},
		{method: `User.oauth() with a spent refresh token recovers (409 / "400", refresh, retry)`, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", oauth(e), map[string]any{"refresh_token": "refresh_" + strings.Repeat("0", 40)})
		}, status: 409, errorCode: "400", after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			got := testkit.Do(t, e.Fake, pyCall(e, "GET", "/users/"+e.Fx.User.ID+"?full_dehydrate=False", nil))
			wantOK(t, got)
			wantAt(t, got, "refresh_token", e.Fx.User.RefreshToken)
			retry := testkit.Do(t, e.Fake, pyCall(e, "POST", oauth(e), map[string]any{"refresh_token": got.Body["refresh_token"]}))
			wantOK(t, retry)
			if k, _ := retry.Body["oauth_key"].(string); !strings.HasPrefix(k, "oauth_") {
				t.Errorf("oauth_key after the retry %v", retry.Body["oauth_key"])
			}
		}},
		{method: "Client.update_headers(fingerprint) then User.oauth() -> ActionPending with the devices", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyNewDevice(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken})
		}, status: 202, errorCode: "10", after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "http_code", "202")
			// SynapsePy raises ActionPending on a 2xx with an error key and error_code 10.
			if _, ok := r.Body["error"]; !ok {
				t.Errorf("no error key, so SynapsePy would not raise ActionPending: %s", r.Raw)
			}
			if !slices.Contains(valueAt(r.Body, "phone_numbers").([]any), any(phone(e))) {
				t.Errorf("phone_numbers %v lack %s", r.Body["phone_numbers"], phone(e))
			}
		}},
		{method: "User.select_2fa_device(phone)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyNewDevice(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken, "phone_number": phone(e)})
		}, status: 202, errorCode: "10", after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "http_code", "202")
			if _, ok := r.Body["error"]; ok {
				t.Errorf("an error key, on which SynapsePy raises: %s", r.Raw)
			}
			if en, _ := valueAt(r.Body, "message.en").(string); !strings.Contains(en, phone(e)) {
				t.Errorf("message.en %q lacks %s", en, phone(e))
			}
		}},
		{method: "User.confirm_2fa_pin(wrong, then right pin) -> key for the new fingerprint", setup: askDevice, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyNewDevice(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken, "validation_pin": "000000"})
		}, status: 409, errorCode: "400", after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			right := testkit.Do(t, e.Fake, pyNewDevice(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken,
				"validation_pin": e.Fake.MFAPin(e.Fx.User.ID)}))
			wantOK(t, right)
			key, _ := right.Body["oauth_key"].(string)
			if !strings.HasPrefix(key, "oauth_") {
				t.Fatalf("oauth_key %v", right.Body["oauth_key"])
			}
			// refresh() with the new key and fingerprint.
			c := pyCall(e, "GET", "/users/"+e.Fx.User.ID+"?full_dehydrate=False", nil)
			c.Header["X-SP-USER"] = key + "|compat-fingerprint-2"
			wantOK(t, testkit.Do(t, e.Fake, c))
		}},
		// An expired key: 401 / "110", then oauth() and the same request again.
		{method: `an expired oauth key (401 / "110"): the SDK re-authenticates and retries`, setup: func(t *testing.T, e sdkEnv) {
			e.Fake.Advance(366 * 24 * time.Hour) // past the keys' lifetime in this environment
		}, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID)+"?full_dehydrate=no&force_refresh=no", nil)
		}, status: 401, errorCode: "110", after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			auth := testkit.Do(t, e.Fake, pyCall(e, "POST", oauth(e), map[string]any{"refresh_token": e.Fx.User.RefreshToken}))
			wantOK(t, auth)
			key, _ := auth.Body["oauth_key"].(string)
			if key == "" || key == e.Fx.Key {
				t.Fatalf("oauth_key %q, want a new key", key)
			}
			c := pyCall(e, "GET", testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID)+"?full_dehydrate=no&force_refresh=no", nil)
			c.Header["X-SP-USER"] = key + "|" + testkit.TestFingerprint
			retry := testkit.Do(t, e.Fake, c)
			wantOK(t, retry)
			wantAt(t, retry, "_id", e.Fx.Node.ID)
		}},
	})
}

func TestSDKPythonUser(t *testing.T) {
	t.Parallel()
	u := func(e sdkEnv) string { return "/users/" + e.Fx.User.ID }
	runPyRows(t, []pyRow{
		{method: "User.update_info(documents)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", u(e), map[string]any{"documents": []any{pyBaseDocument("compat@example.com", "Test User", "2222")}})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if id, _ := valueAt(r.Body, "documents.0.id").(string); !hex64.MatchString(id) {
				t.Errorf("documents[0].id %q, want 64 hex digits", id)
			}
			var types []any
			for _, d := range valueAt(r.Body, "documents.0.virtual_docs").([]any) {
				types = append(types, d.(map[string]any)["document_type"])
			}
			if diff := cmp.Diff([]any{"SSN"}, types); diff != "" {
				t.Errorf("virtual document types (-want +got):\n%s", diff)
			}
		}},
		{method: "User.update_info(update: login, phone_number)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", u(e), map[string]any{"update": map[string]any{"login": map[string]any{"email": "compat2@example.com"},
				"phone_number": "901-111-2222"}})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if !slices.ContainsFunc(r.Body["logins"].([]any), func(l any) bool {
				return cmp.Equal(l, map[string]any{"email": "compat2@example.com", "scope": "READ_AND_WRITE"})
			}) {
				t.Errorf("logins %v lack compat2@example.com READ_AND_WRITE", r.Body["logins"])
			}
			if !slices.Contains(r.Body["phone_numbers"].([]any), any("901-111-2222")) {
				t.Errorf("phone_numbers %v lack 901-111-2222", r.Body["phone_numbers"])
			}
		}},
		{method: "User.get_statements(page, per_page)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", u(e)+"/statements?page=1&per_page=10", nil)
		}, status: 200, errorCode: "0", after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if _, ok := r.Body["statements"].([]any); !ok {
				t.Errorf("statements is not a list: %s", r.Raw)
			}
		}},
	})
}

func TestSDKPythonNodes(t *testing.T) {
	t.Parallel()
	n := func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) }
	bank := func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Bank.ID) }
	card := func(t *testing.T, e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, cardNode(t, e)) }
	runPyRows(t, []pyRow{
		{method: "User.create_node(DEPOSIT-US) -> Nodes (node as the SDK's recorded one)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "My Checking"}})
		}, status: 200, reads: pyNodesList, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if p, ok := r.Body["page"]; ok && p != 1.0 { // Nodes reads page with a default of 1
				t.Errorf("page %v, want 1 or none", p)
			}
			wantAt(t, r, "node_count", 1.0)
			if l := len(r.Body["nodes"].([]any)); l != 1 {
				t.Errorf("%d nodes, want 1", l)
			}
			wantAt(t, r, "nodes.0.type", "DEPOSIT-US")
			wantLike(t, pyRecordedDepositNode, valueAt(r.Body, "nodes.0"))
		}},
		{method: "User.create_node(ACH-US by account and routing number)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "ACH-US", "info": map[string]any{
				"nickname": "Fake Account", "account_num": "1232225674134", "routing_num": "051000017", "type": "PERSONAL", "class": "CHECKING"}})
		}, status: 200, reads: pyNodesList, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "nodes.0.type", "ACH-US")
			wantLike(t, pyRecordedACHNode, valueAt(r.Body, "nodes.0"))
		}},
		{method: "User.reinit_micro(node)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", bank(e)+"?resend_micro=YES", map[string]any{})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "_id", e.Bank.ID) }},
		{method: "User.verify_micro(node, micro) -> Node", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", bank(e), map[string]any{"micro": []float64{0.1, 0.1}})
		}, status: 200, reads: []string{"type"}, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "_id", e.Bank.ID)
			wantAt(t, r, "allowed", "CREDIT-AND-DEBIT")
		}},
		{method: "User.create_node(bank login) -> MFA, User.ach_mfa(answer) -> Nodes", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "ACH-US",
				"info": map[string]any{"bank_id": "synapse_good", "bank_pw": "test1234", "bank_name": "fake"}})
		}, status: 202, errorCode: "10", after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if _, ok := r.Body["error"]; ok {
				t.Errorf("an error key, on which SynapsePy raises: %s", r.Raw)
			}
			wantLike(t, pyRecordedBankLoginMFA, r.Body)
			a := testkit.Do(t, e.Fake, pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"access_token": valueAt(r.Body, "mfa.access_token"),
				"mfa_answer": "test_answer"}))
			wantOK(t, a)
			for _, p := range pyNodesList {
				if !hasPath(a.Body, p) {
					t.Errorf("answer lacks %s, which Nodes reads: %s", p, a.Raw)
				}
			}
			if c, _ := a.Body["node_count"].(float64); c < 1 {
				t.Errorf("node_count %v", a.Body["node_count"])
			}
			for _, nd := range a.Body["nodes"].([]any) {
				if ty := nd.(map[string]any)["type"]; ty != "ACH-US" {
					t.Errorf("node type %v, want ACH-US", ty)
				}
			}
			wantLike(t, pyRecordedACHNode, valueAt(a.Body, "nodes.0"))
		}},
		{method: "User.get_node(full_dehydrate, force_refresh) -> Node", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"?full_dehydrate=yes&force_refresh=yes", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "_id", e.Fx.Node.ID)
			wantAt(t, r, "type", "DEPOSIT-US")
			wantAt(t, r, "info.nickname", "Checking")
		}},
		{method: "User.get_all_nodes(page, per_page, type) -> Nodes", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", testkit.NodesPath(e.Fx.User.ID)+"?page=1&per_page=10&type=DEPOSIT-US", nil)
		}, status: 200, reads: pyNodesList, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			got := ids(r, "nodes")
			slices.Sort(got)
			want := []string{e.Fx.Node.ID, e.Savings.ID}
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("DEPOSIT-US nodes (-want +got):\n%s", diff)
			}
			wantAt(t, r, "node_count", 2.0)
			every := testkit.Do(t, e.Fake, pyCall(e, "GET", testkit.NodesPath(e.Fx.User.ID), nil))
			wantOK(t, every)
			for _, id := range []string{e.Fx.Node.ID, e.Savings.ID, e.Bank.ID} {
				if !slices.Contains(ids(every, "nodes"), id) {
					t.Errorf("node %s not listed without a type", id)
				}
			}
		}},
		{method: "User.update_node(node, body) -> Node", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", n(e), map[string]any{"supp_id": "new_supp_id_1234"})
		}, status: 200, reads: []string{"_id", "type"}, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "extra.supp_id", "new_supp_id_1234")
		}},
		{method: "User.create_node(CARD-US) (node as the SDK's recorded one)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", testkit.NodesPath(e.Fx.User.ID), map[string]any{"type": "CARD-US", "info": map[string]any{
				"nickname": "My Debit Card", "document_id": "2a4a5957a3a62aaac1a0dd0edcae96ea2cdee688ec6337b20745eed8869e3ac8"}})
		}, status: 200, reads: pyNodesList, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "nodes.0.type", "CARD-US")
			wantLike(t, pyRecordedCardNode, valueAt(r.Body, "nodes.0"))
		}},
		{method: "User.generate_apple_pay(node, body)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", card(t, e)+"/applepay", map[string]any{"certificate": "your applepay cert",
				"nonce": "9c02xxx2", "nonce_signature": "4082f883ae62d0700c283e225ee9d286713ef74"})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "success", true) }},
		{method: "User.generate_ecash_barcode(node, body)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", n(e)+"/barcode", map[string]any{"amount": map[string]any{"amount": 20, "currency": "USD"}, "retailer_id": 2481})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "success", true) }},
		{method: "User.get_node_statements(node, page, per_page)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/statements?page=1&per_page=10", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if _, ok := r.Body["statements"].([]any); !ok {
				t.Errorf("statements is not a list: %s", r.Raw)
			}
		}},
		{method: "User.delete_node(node)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "DELETE", testkit.NodePath(e.Fx.User.ID, e.Savings.ID), nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "success", true)
			l := testkit.Do(t, e.Fake, pyCall(e, "GET", testkit.NodesPath(e.Fx.User.ID), nil))
			wantOK(t, l)
			if slices.Contains(ids(l, "nodes"), e.Savings.ID) {
				t.Errorf("deleted node %s still listed", e.Savings.ID)
			}
		}},
		{method: `User.get_node(unknown id) -> ObjectNotFound (404 / "404")`, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", testkit.NodePath(e.Fx.User.ID, strings.Repeat("0", 24))+"?full_dehydrate=no&force_refresh=no", nil)
		}, status: 404, errorCode: "404", after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "http_code", "404") }},
	})
	runSDKFlows(t, []sdkFlow{
		{"User.reset_card_node(node)", func(t *testing.T, e sdkEnv) {
			path := card(t, e)
			before := testkit.Do(t, e.Fake, pyCall(e, "GET", path+"?full_dehydrate=no&force_refresh=no", nil))
			wantOK(t, before)
			r := testkit.Do(t, e.Fake, pyCall(e, "PATCH", path+"?reset=YES", map[string]any{}))
			wantOK(t, r)
			wantAt(t, r, "_id", before.Body["_id"])
			if h := valueAt(r.Body, "info.card_hash"); h == nil || h == valueAt(before.Body, "info.card_hash") {
				t.Errorf("info.card_hash %v unchanged: no new card", h)
			}
		}},
		{"User.ship_card_node(node, body)", func(t *testing.T, e sdkEnv) {
			id := cardNode(t, e)
			r := testkit.Do(t, e.Fake, pyCall(e, "PATCH", testkit.NodePath(e.Fx.User.ID, id)+"?ship=YES", map[string]any{"fee_node_id": e.Fx.Node.ID, "expedite": true}))
			wantOK(t, r)
			wantAt(t, r, "_id", id)
		}},
	})
}

func TestSDKPythonTransactions(t *testing.T) {
	t.Parallel()
	n := func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) }
	payment := func(e sdkEnv, amount float64) map[string]any {
		return map[string]any{"to": map[string]any{"type": "ACH-US", "id": e.Bank.ID},
			"amount": map[string]any{"amount": amount, "currency": "USD"}, "extra": map[string]any{"ip": "127.0.0.1"}}
	}
	runPyRows(t, []pyRow{
		{method: "User.create_trans(node, body) -> Trans (as the SDK's recorded one)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", n(e)+"/trans", payment(e, 20.1))
		}, status: 200, reads: pyTrans, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "amount.amount", 20.1)
			wantAt(t, r, "recent_status.status", "CREATED")
			wantAt(t, r, "from.id", e.Fx.Node.ID)
			wantAt(t, r, "to.id", e.Bank.ID)
			wantLike(t, pyRecordedTrans, r.Body)
		}},
		{method: "User.get_trans(node, trans) -> Trans", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/trans/"+e.tx, nil)
		}, status: 200, reads: pyTrans, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "_id", e.tx)
			wantAt(t, r, "amount.amount", 1.0)
		}},
		{method: "User.comment_trans(node, trans, comment)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", n(e)+"/trans/"+e.tx, map[string]any{"comment": "Pending verification..."})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "_id", e.tx)
			if !slices.ContainsFunc(r.Body["timeline"].([]any), func(s any) bool {
				note, _ := s.(map[string]any)["note"].(string)
				return strings.Contains(note, "Pending verification...")
			}) {
				t.Errorf("no timeline note holds the comment: %v", r.Body["timeline"])
			}
		}},
		{method: "User.get_all_node_trans(node, page, per_page) -> Transactions", setup: func(t *testing.T, e sdkEnv) {
			for range 2 { // two dummy credits, settled, beside the payment
				r := testkit.Do(t, e.Fake, pyCall(e, "GET", n(e)+"/dummy-tran?is_credit=YES&foreign_transaction=NO", nil))
				wantOK(t, r)
				if err := e.Fake.Settle(r.Body["_id"].(string)); err != nil {
					t.Fatal(err)
				}
			}
		}, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/trans?page=1&per_page=10", nil)
		}, status: 200, reads: pyTransList, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if !slices.Contains(ids(r, "trans"), e.tx) {
				t.Errorf("transaction %s not listed", e.tx)
			}
			wantAt(t, r, "trans_count", 3.0)
			wantLike(t, pyRecordedTrans, valueAt(r.Body, "trans.0"))
		}},
		{method: "User.get_all_trans(page, per_page) -> Transactions", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", "/users/"+e.Fx.User.ID+"/trans?page=1&per_page=10", nil)
		}, status: 200, reads: pyTransList, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if !slices.Contains(ids(r, "trans"), e.tx) {
				t.Errorf("transaction %s not listed", e.tx)
			}
			wantAt(t, r, "page", 1.0)
		}},
		{method: "User.cancel_trans(node, trans)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "DELETE", n(e)+"/trans/"+e.tx, nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "recent_status.status", "CANCELED")
			got := testkit.Do(t, e.Fake, pyCall(e, "GET", n(e)+"?full_dehydrate=no&force_refresh=no", nil))
			wantOK(t, got)
			wantAt(t, got, "info.balance.amount", 100.0)
		}},
		{method: `User.cancel_trans of a settled transaction -> ActionNotAllowed (409 / "410")`, setup: func(t *testing.T, e sdkEnv) {
			if err := e.Fake.Settle(e.tx); err != nil {
				t.Fatal(err)
			}
		}, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "DELETE", n(e)+"/trans/"+e.tx, nil)
		}, status: 409, errorCode: "410"},
		{method: "User.dummy_tran(node, subnet_id, type, is_credit=False, foreign_transaction)", setup: func(t *testing.T, e sdkEnv) {
			activateCard(t, e)
			e.Fake.MustFund(t, e.Fx.Node.ID, 100_00) // compat.py's node held 200.00
		}, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/dummy-tran?type=INTERCHANGE&is_credit=NO&subnetid="+e.card+"&foreign_transaction=NO", nil)
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "from.id", e.Fx.Node.ID)
			wantAt(t, r, "recent_status.status", "CREATED")
		}},
		{method: "User.create_trans(node, body, idempotency_key)", req: func(t *testing.T, e sdkEnv) testkit.Call {
			c := pyCall(e, "POST", n(e)+"/trans", payment(e, 1))
			c.Header["X-SP-IDEMPOTENCY-KEY"] = "compat-key-1"
			return c
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) { wantAt(t, r, "amount.amount", 1.0) }},
	})
	runSDKFlows(t, []sdkFlow{
		{"User.dummy_tran(node, is_credit=True) twice, settled -> balance 200.00", func(t *testing.T, e sdkEnv) {
			path := testkit.NodePath(e.Fx.User.ID, e.Savings.ID) // a node holding nothing
			for range 2 {
				r := testkit.Do(t, e.Fake, pyCall(e, "GET", path+"/dummy-tran?is_credit=YES&foreign_transaction=NO", nil))
				wantOK(t, r)
				wantAt(t, r, "recent_status.status", "CREATED")
				wantAt(t, r, "to.id", e.Savings.ID)
				wantAt(t, r, "amount.amount", 100.0)
				if err := e.Fake.Settle(r.Body["_id"].(string)); err != nil {
					t.Fatal(err)
				}
			}
			got := testkit.Do(t, e.Fake, pyCall(e, "GET", path+"?full_dehydrate=no&force_refresh=no", nil))
			wantOK(t, got)
			wantAt(t, got, "info.balance.amount", 200.0)
		}},
		{"User.dispute_trans(node, card swipe, reason, meta, date, attachments)", func(t *testing.T, e sdkEnv) {
			tx := cardSwipe(t, e, 12_00)
			r := testkit.Do(t, e.Fake, pyCall(e, "PATCH", n(e)+"/trans/"+tx+"/dispute", map[string]any{
				"dispute_reason": "CHARGE_BACK|UNAUTHORIZED_TRANSACTION", "dispute_meta": map[string]any{"type_of_merchandise_or_service": "groceries"},
				"certification_date": 1579656483, "dispute_attachments": []string{"data:image/gif;base64,SUQs=="}}))
			wantOK(t, r)
			wantAt(t, r, "success", true)
			if _, ok := r.Body["dispute_form"].(string); !ok {
				t.Errorf("dispute_form is not a string: %s", r.Raw)
			}
			// $25.00 or less gets a provisional credit, not yet due for a node this young.
			if v, ok := r.Body["provisional_credit_tran"]; !ok || v != nil {
				t.Errorf("provisional_credit_tran %v (present %v), want null", v, ok)
			}
			got := testkit.Do(t, e.Fake, pyCall(e, "GET", n(e)+"/trans/"+tx, nil))
			wantOK(t, got)
			wantAt(t, got, "extra.other.disputed", true)
			if v, ok := valueAt(got.Body, "extra.other").(map[string]any)["provisional_credit_transaction_id"]; !ok || v != nil {
				t.Errorf("extra.other.provisional_credit_transaction_id %v (present %v), want null", v, ok)
			}
		}},
		{"Client.dispute_chargeback(trans, docs) of a swipe returned IR999", func(t *testing.T, e sdkEnv) {
			tx := cardSwipe(t, e, 5_00)
			if err := e.Fake.Return(tx, "IR999"); err != nil {
				t.Fatal(err)
			}
			r := testkit.Do(t, e.Fake, pyCall(e, "PATCH", "/trans/"+tx+"/dispute-chargeback", map[string]any{"docs": []string{"data:application/pdf;base64,SUQs=="}}))
			wantOK(t, r)
			wantAt(t, r, "_id", tx)
			wantAt(t, r, "extra.other.dispute_status", "PENDING")
		}},
		{"the funding trap: a transfer counting on a CREATED dummy credit is taken by default, as the sandbox took it", func(t *testing.T, e sdkEnv) {
			trap := e.Fake.MustAddNode(t, e.Fx.User.ID, synapsefake.NodeSeed{Nickname: "Trap"})
			path := testkit.NodePath(e.Fx.User.ID, trap.ID)
			wantOK(t, testkit.Do(t, e.Fake, pyCall(e, "GET", path+"/dummy-tran?is_credit=YES&foreign_transaction=NO", nil)))
			body := map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": e.Fx.Node.ID},
				"amount": map[string]any{"amount": 50, "currency": "USD"}, "extra": map[string]any{"ip": "127.0.0.1"}}
			r := testkit.Do(t, e.Fake, pyCall(e, "POST", path+"/trans", body))
			wantOK(t, r)
			wantAt(t, r, "recent_status.status", "CREATED")
		}},
		{"the funding trap WithFundsCheck: the transfer -> IncorrectValues naming the CREATED dummy credit; settled, it goes", func(t *testing.T, _ sdkEnv) {
			e := newSDKEnv(t, synapsefake.WithFundsCheck())
			trap := e.Fake.MustAddNode(t, e.Fx.User.ID, synapsefake.NodeSeed{Nickname: "Trap"})
			path := testkit.NodePath(e.Fx.User.ID, trap.ID)
			d := testkit.Do(t, e.Fake, pyCall(e, "GET", path+"/dummy-tran?is_credit=YES&foreign_transaction=NO", nil))
			wantOK(t, d)
			dummy := d.Body["_id"].(string)
			body := map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": e.Fx.Node.ID},
				"amount": map[string]any{"amount": 50, "currency": "USD"}, "extra": map[string]any{"ip": "127.0.0.1"}}
			r := testkit.Do(t, e.Fake, pyCall(e, "POST", path+"/trans", body))
			if r.Status != http.StatusConflict || r.Body["error_code"] != "400" || r.Body["http_code"] != "409" {
				t.Fatalf("status %d, want 409 / \"400\": %s", r.Status, r.Raw)
			}
			en, _ := valueAt(r.Body, "error.en").(string)
			for _, part := range []string{"dummy transaction " + dummy, "is still CREATED", "advance the clock or settle it", "/_fake/nodes/" + trap.ID + "/fund"} {
				if !strings.Contains(en, part) {
					t.Errorf("%q not in the message %q", part, en)
				}
			}
			if err := e.Fake.Settle(dummy); err != nil {
				t.Fatal(err)
			}
			if got, _ := e.Fake.Node(trap.ID); got.BalanceCents != 100_00 {
				t.Errorf("balance_cents %d after settling, want 10000", got.BalanceCents)
			}
			again := testkit.Do(t, e.Fake, pyCall(e, "POST", path+"/trans", body))
			wantOK(t, again)
			wantAt(t, again, "recent_status.status", "CREATED")
		}},
		{"Control.fund: the SDK reads the balance and can spend it", func(t *testing.T, e sdkEnv) {
			funded := e.Fake.MustAddNode(t, e.Fx.User.ID, synapsefake.NodeSeed{Nickname: "Funded by control"})
			e.Fake.MustFund(t, funded.ID, 75_00)
			path := testkit.NodePath(e.Fx.User.ID, funded.ID)
			got := testkit.Do(t, e.Fake, pyCall(e, "GET", path+"?full_dehydrate=no&force_refresh=no", nil))
			wantOK(t, got)
			wantAt(t, got, "info.balance.amount", 75.0)
			r := testkit.Do(t, e.Fake, pyCall(e, "POST", path+"/trans", map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": e.Fx.Node.ID},
				"amount": map[string]any{"amount": 75, "currency": "USD"}, "extra": map[string]any{"ip": "127.0.0.1"}}))
			wantOK(t, r)
			wantAt(t, r, "recent_status.status", "CREATED")
			if n, _ := e.Fake.Node(funded.ID); n.AvailableCents != 0 {
				t.Errorf("available_cents %d with it promised, want 0", n.AvailableCents)
			}
		}},
	})
}

func TestSDKPythonSubnets(t *testing.T) {
	t.Parallel()
	n := func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) }
	// shipped activates the card, ships it and returns the shipment's id.
	shipped := func(t *testing.T, e sdkEnv) string {
		t.Helper()
		activateCard(t, e)
		r := testkit.Do(t, e.Fake, pyCall(e, "PATCH", e.subnetPath(e.card)+"/ship", map[string]any{"fee_node_id": e.Fx.Node.ID, "expedite": false, "card_style_id": "555"}))
		wantOK(t, r)
		wantAt(t, r, "success", true)
		l := testkit.Do(t, e.Fake, pyCall(e, "GET", e.subnetPath(e.card)+"/ship?page=1&per_page=10", nil))
		wantOK(t, l)
		if got := len(l.Body["ships"].([]any)); got != 1 {
			t.Fatalf("%d shipments, want 1: %s", got, l.Raw)
		}
		return valueAt(l.Body, "ships.0._id").(string)
	}
	runPyRows(t, []pyRow{
		{method: "User.get_subnet(node, subnet) -> Subnet", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", e.subnetPath(e.acct), nil)
		}, status: 200, reads: []string{"user_id", "node_id"}, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "_id", e.acct)
			wantAt(t, r, "nickname", "Account")
		}},
		{method: "User.get_all_subnets(node, page, per_page) -> Subnets", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "GET", n(e)+"/subnets?page=1&per_page=10", nil)
		}, status: 200, reads: []string{"page", "page_count", "limit"}, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			got := ids(r, "subnets")
			slices.Sort(got)
			want := []string{e.acct, e.card}
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("subnets (-want +got):\n%s", diff)
			}
			wantAt(t, r, "subnets_count", 2.0)
		}},
		{method: "User.update_subnet(node, subnet, body) -> Subnet", req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "PATCH", e.subnetPath(e.card), map[string]any{"status": "ACTIVE", "card_pin": "1234",
				"preferences": map[string]any{"allow_foreign_transactions": true, "daily_atm_withdrawal_limit": 10, "daily_transaction_limit": 1000}})
		}, status: 200, reads: []string{"_id", "user_id", "node_id"}, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			wantAt(t, r, "status", "ACTIVE")
			wantAt(t, r, "preferences.daily_transaction_limit", 100000.0) // USD in, cents out
		}},
		{method: "User.push_to_mobile_wallet(node, subnet, body)", setup: activateCard, req: func(t *testing.T, e sdkEnv) testkit.Call {
			return pyCall(e, "POST", e.subnetPath(e.card)+"/push", map[string]any{"type": "APPLE_PUSH", "nonce": "OWMwMnh4eDI=",
				"nonce_signature": "NDA4MmY4ODNhZTYy", "certificates": []string{"Y2VydDE=", "Y2VydDI="}})
		}, status: 200, after: func(t *testing.T, e sdkEnv, r testkit.Response) {
			if a := valueAt(r.Body, "data.authentication"); a == nil || a == "" || a == false {
				t.Errorf("data.authentication %v, want a value", a)
			}
		}},
	})
	runSDKFlows(t, []sdkFlow{
		{"User.create_subnet(node, body) -> Subnet (as the SDK's recorded one)", func(t *testing.T, e sdkEnv) {
			r := testkit.Do(t, e.Fake, pyCall(e, "POST", n(e)+"/subnets", map[string]any{"nickname": "Test AC/RT"}))
			wantOK(t, r)
			wantAt(t, r, "user_id", e.Fx.User.ID)
			wantAt(t, r, "node_id", e.Fx.Node.ID)
			wantLike(t, pyRecordedSubnet, r.Body)
			c := testkit.Do(t, e.Fake, pyCall(e, "POST", n(e)+"/subnets", map[string]any{"nickname": "Test Card", "account_class": "CARD"}))
			wantOK(t, c)
			wantAt(t, c, "account_class", "CARD")
		}},
		{"User.ship_card(node, subnet, body), view_all_card_shipments(per_page, page)", func(t *testing.T, e sdkEnv) {
			shipped(t, e)
		}},
		{"User.view_card_shipment(node, subnet, shipment)", func(t *testing.T, e sdkEnv) {
			id := shipped(t, e)
			r := testkit.Do(t, e.Fake, pyCall(e, "GET", e.subnetPath(e.card)+"/ship/"+id, nil))
			wantOK(t, r)
			wantAt(t, r, "_id", id)
			wantAt(t, r, "status", "CREATED")
		}},
		{"User.cancel_card_shipment(node, subnet, shipment)", func(t *testing.T, e sdkEnv) {
			id := shipped(t, e)
			r := testkit.Do(t, e.Fake, pyCall(e, "DELETE", e.subnetPath(e.card)+"/ship/"+id, nil))
			wantOK(t, r)
			wantAt(t, r, "status", "CANCELED")
		}},
	})
}

func TestSDKPythonPlatform(t *testing.T) {
	t.Parallel()
	scope := []any{"USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH", "TRANS|POST", "TRAN|PATCH"}
	runSDKFlows(t, []sdkFlow{
		{"Client.create_subscription, get_subscription, update_subscription, get_all_subs", func(t *testing.T, e sdkEnv) {
			r := testkit.Do(t, e.Fake, pyCall(e, "POST", "/subscriptions", map[string]any{"scope": scope, "url": "https://example.com/hooks"}))
			wantOK(t, r)
			wantAt(t, r, "url", "https://example.com/hooks")
			wantLike(t, pyRecordedSubscription, r.Body)
			id := r.Body["_id"].(string)
			got := testkit.Do(t, e.Fake, pyCall(e, "GET", "/subscriptions/"+id, nil))
			wantOK(t, got)
			wantAt(t, got, "_id", id)
			wantAt(t, got, "scope", scope)
			up := testkit.Do(t, e.Fake, pyCall(e, "PATCH", "/subscriptions/"+id, map[string]any{"url": "https://example.com/2", "scope": scope[:3]}))
			wantOK(t, up)
			wantAt(t, up, "url", "https://example.com/2")
			wantAt(t, up, "scope", scope[:3])
			l := testkit.Do(t, e.Fake, pyCall(e, "GET", "/subscriptions?page=1&per_page=20", nil))
			wantOK(t, l)
			for _, p := range []string{"page", "page_count", "limit"} {
				if !hasPath(l.Body, p) {
					t.Errorf("answer lacks %s, which Subscriptions reads", p)
				}
			}
			if !slices.Contains(ids(l, "subscriptions"), id) {
				t.Errorf("subscription %s not listed", id)
			}
			wantLike(t, pyRecordedSubscription, valueAt(l.Body, "subscriptions.0"))
			wantAt(t, l, "subscriptions_count", float64(len(l.Body["subscriptions"].([]any))))
		}},
		{"Client.webhook_logs()", func(t *testing.T, e sdkEnv) {
			// webhook_logs takes Content-Type off the session for this one request.
			req, err := http.NewRequest("GET", e.Fake.URL()+"/subscriptions/logs", nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range testkit.PyHeaders(e.Fake, e.Fx.Key) {
				if k != "Content-Type" {
					req.Header.Set(k, v)
				}
			}
			resp, err := e.Fake.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			var body map[string]any
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatalf("not a JSON object: %v: %s", err, raw)
			}
			if resp.StatusCode != http.StatusOK || body["success"] != true {
				t.Errorf("status %d, success %v, want 200 and true: %s", resp.StatusCode, body["success"], raw)
			}
		}},
	})
}
