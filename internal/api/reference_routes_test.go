package api_test

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// asJSON is v as the fake's JSON decodes into a test's response body.
func asJSON(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// pyQuery encodes params as requests does: in the given order, a list as a
// repeated key.
func pyQuery(params ...[2]string) string {
	v := make([]string, len(params))
	for i, p := range params {
		v[i] = url.QueryEscape(p[0]) + "=" + url.QueryEscape(p[1])
	}
	return "?" + strings.Join(v, "&")
}

// TestReferenceRoutesGoClient sends each reference method of SynapseGo as it
// does (client.go: GetNodeTypes, GetUserDocumentTypes, GetUserEntityScopes,
// GetInstitutions, VerifyRoutingNumber, LocateATMs, GetPublicKey,
// GetCryptoMarketData, GetCryptoQuotes, GetTradeMarketData) and checks the
// fields a caller reads from the map it returns.
func TestReferenceRoutesGoClient(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
	for _, tc := range []struct {
		name  string
		req   goRequest
		check func(t *testing.T, body map[string]any)
	}{
		{"GetNodeTypes", goRequest{method: "GET", path: "/nodes/types"}, func(t *testing.T, b map[string]any) {
			if diff := cmp.Diff(asJSON(t, reference.AllAllowedNodeTypes()), any(b)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"GetUserDocumentTypes", goRequest{method: "GET", path: "/users/document-types"}, func(t *testing.T, b map[string]any) {
			if diff := cmp.Diff(asJSON(t, reference.AllDocumentTypes()), any(b)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"GetUserEntityScopes", goRequest{method: "GET", path: "/users/entity-scopes"}, func(t *testing.T, b map[string]any) {
			if diff := cmp.Diff(asJSON(t, reference.AllEntityScopes()), any(b)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"GetInstitutions", goRequest{method: "GET", path: "/institutions"}, func(t *testing.T, b map[string]any) {
			// error_code and http_code as the provider's integration suite expected.
			want := map[string]any{"success": true, "error_code": "0", "http_code": "200", "banks": asJSON(t, reference.Institutions())}
			if diff := cmp.Diff(want, b); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"VerifyRoutingNumber (the sample's unlisted number)", goRequest{method: "POST", path: "/routing-number-verification",
			body: `{ "routing_num": "084008426", "type": "ACH-US" }`}, func(t *testing.T, b map[string]any) {
			want := map[string]any{"success": true, "routing_num": "084008426", "type": "ACH-US", "bank_code": "",
				"bank_name": reference.UnlistedBankName, "address": "", "ach_enabled": true, "wire_enabled": true}
			if diff := cmp.Diff(want, b); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"VerifyRoutingNumber (a listed bank, wire)", goRequest{method: "POST", path: "/routing-number-verification",
			body: `{"routing_num":"084106768","type":"WIRE-US"}`}, func(t *testing.T, b map[string]any) {
			want := map[string]any{"success": true, "routing_num": "084106768", "type": "WIRE-US", "bank_code": "",
				"bank_name": "EVOLVE BANK & TRUST", "address": "6070 POPLAR AVE, MEMPHIS, TN, US", "ach_enabled": true, "wire_enabled": true}
			if diff := cmp.Diff(want, b); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"LocateATMs with no query", goRequest{method: "GET", path: "/nodes/atms"}, func(t *testing.T, b map[string]any) {
			if diff := cmp.Diff(noATMs(1, 20), b); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"LocateATMs by zip", goRequest{method: "GET", path: "/nodes/atms", query: "zip=94114&radius=5&page=3&per_page=20"}, func(t *testing.T, b map[string]any) {
			all := reference.NearbyATMs(reference.ZipPlace("94114"), 5)
			want := map[string]any{"atms": asJSON(t, all[40:]), "atms_count": 50.0, "error_code": "0", "http_code": "200",
				"limit": 20.0, "page": 3.0, "page_count": 3.0, "success": true}
			if diff := cmp.Diff(want, b); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"GetPublicKey with the default scope", goRequest{method: "GET", path: "/client",
			query: "issue_public_key=YES&scope=OAUTH|POST,USERS|POST,USERS|GET,USER|GET,USER|PATCH,SUBSCRIPTIONS|GET,SUBSCRIPTIONS|POST,SUBSCRIPTION|GET,SUBSCRIPTION|PATCH,CLIENT|REPORTS,CLIENT|CONTROLS"},
			func(t *testing.T, b map[string]any) {
				checkPublicKey(t, fake, b, reference.ClientScopes(), 900*time.Second) // expires_in "900", as synapsenode's sandbox test expects
			}},
		{"GetPublicKey for a user", goRequest{method: "GET", path: "/client",
			query: "issue_public_key=YES&scope=OAUTH|POST,USERS|GET&user_id=" + u.ID},
			func(t *testing.T, b map[string]any) {
				checkPublicKey(t, fake, b, []string{"OAUTH|POST", "USERS|GET"}, 24*time.Hour)
			}},
		{"GetCryptoMarketData", goRequest{method: "GET", path: "/nodes/crypto-market-watch"}, func(t *testing.T, b map[string]any) {
			if diff := cmp.Diff(wantCryptoWatch(t, fake, 7), b); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"GetCryptoQuotes", goRequest{method: "GET", path: "/nodes/crypto-quotes"}, func(t *testing.T, b map[string]any) {
			if diff := cmp.Diff(asJSON(t, reference.CryptoQuotes(fake.Now())), any(b)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"GetTradeMarketData passes the bare symbol", goRequest{method: "GET", path: "/nodes/trade-market-watch", query: "AAPL"}, func(t *testing.T, b map[string]any) {
			q, _ := reference.TradeMarketData("AAPL", fake.Now())
			want := asJSON(t, q).(map[string]any)
			want["success"] = true
			if diff := cmp.Diff(want, b); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.req.fingerprint = testkit.TestFingerprint
			a := goSend(t, fake, tc.req)
			if a.Status != 200 {
				t.Fatalf("status %d, want 200; body %s", a.Status, a.Raw)
			}
			tc.check(t, a.Body)
		})
	}
}

// checkPublicKey checks an issued public key answer.
func checkPublicKey(t *testing.T, fake *synapsefake.Server, b map[string]any, scopes []string, lifetime time.Duration) {
	t.Helper()
	obj, _ := b["public_key_obj"].(map[string]any)
	key, _ := obj["public_key"].(string)
	if b["success"] != true || !strings.HasPrefix(key, "public_key_") || len(key) != len("public_key_")+40 {
		t.Errorf("success %v, public_key %q; body %v", b["success"], key, b)
	}
	want := map[string]any{
		"client_obj_id": fake.ClientID(),
		"expires_at":    strconv.FormatInt(fake.Now().Add(lifetime).Unix(), 10),
		"expires_in":    strconv.FormatInt(int64(lifetime/time.Second), 10),
		"public_key":    key,
		"scope":         asJSON(t, scopes),
	}
	if diff := cmp.Diff(want, obj); diff != "" {
		t.Errorf("public_key_obj (-want +got):\n%s", diff)
	}
}

// TestReferenceRoutesPythonClient sends each reference method of SynapsePy
// (client.py) as requests does, and checks what the method returns or reads.
func TestReferenceRoutesPythonClient(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	for _, tc := range []struct {
		name  string
		c     testkit.Call
		check func(t *testing.T, body map[string]any)
	}{
		{"get_node_types", testkit.Call{Method: "GET", Path: "/nodes/types"}, func(t *testing.T, b map[string]any) {
			if n := len(b["node_types"].([]any)); n != len(reference.AllAllowedNodeTypes().NodeTypes) {
				t.Errorf("%d node types", n)
			}
		}},
		{"get_user_document_types", testkit.Call{Method: "GET", Path: "/users/document-types"}, func(t *testing.T, b map[string]any) {
			for _, k := range []string{"physical_docs", "social_docs", "virtual_docs"} {
				if _, ok := b[k].([]any); !ok {
					t.Errorf("%s missing: %v", k, b)
				}
			}
		}},
		{"get_user_entity_types", testkit.Call{Method: "GET", Path: "/users/entity-types"}, func(t *testing.T, b map[string]any) {
			if _, ok := b["BUSINESS"].([]any); !ok {
				t.Errorf("BUSINESS missing: %v", b)
			}
		}},
		{"get_user_entity_scopes", testkit.Call{Method: "GET", Path: "/users/entity-scopes"}, func(t *testing.T, b map[string]any) {
			if s, _ := b["scopes"].([]any); len(s) == 0 || s[0] != "Not Known" {
				t.Errorf("scopes %v", b["scopes"])
			}
		}},
		{"get_all_inst", testkit.Call{Method: "GET", Path: "/institutions"}, func(t *testing.T, b map[string]any) {
			banks, _ := b["banks"].([]any)
			first, _ := banks[0].(map[string]any)
			if first["bank_code"] != reference.SandboxBankCode {
				t.Errorf("first bank %v", first)
			}
		}},
		{"verify_routing_number", testkit.Call{Method: "POST", Path: "/routing-number-verification",
			Body: `{"type": "ACH-US", "routing_num": "051000017"}`}, func(t *testing.T, b map[string]any) {
			if b["bank_name"] != "BANK OF AMERICA" || b["bank_code"] != "bofa" || b["address"] != "8001 VILLA PARK DRIVE, HENRICO, VA, US" {
				t.Errorf("answer %v", b)
			}
		}},
		{"locate_atms(zip='94114')", testkit.Call{Method: "GET", Path: "/nodes/atms" + pyQuery([2]string{"zip", "94114"})}, func(t *testing.T, b map[string]any) {
			atms, _ := b["atms"].([]any)
			loc := atms[0].(map[string]any)["atmLocation"].(map[string]any)
			if len(atms) != 20 || loc["address"].(map[string]any)["postalCode"] != "94114" {
				t.Errorf("%d atms, first %v", len(atms), loc)
			}
		}},
		{"locate_atms(lat, lon, rad, page, per_page)", testkit.Call{Method: "GET", Path: "/nodes/atms" + pyQuery(
			[2]string{"lat", "40.75"}, [2]string{"lon", "-73.99"}, [2]string{"radius", "2"}, [2]string{"page", "2"}, [2]string{"per_page", "5"})},
			func(t *testing.T, b map[string]any) {
				atms, _ := b["atms"].([]any)
				want := asJSON(t, reference.NearbyATMs(reference.CoordinatesPlace(40.75, -73.99), 2)[5:10])
				if diff := cmp.Diff(want, any(atms)); diff != "" || b["page_count"] != 10.0 {
					t.Errorf("page_count %v; atms (-want +got):\n%s", b["page_count"], diff)
				}
			}},
		{"issue_public_key(scope list)", testkit.Call{Method: "GET", Path: "/client" + pyQuery(
			[2]string{"issue_public_key", "YES"}, [2]string{"scope", "USERS|POST"}, [2]string{"scope", "USER|PATCH"}, [2]string{"scope", "NODES|POST"})},
			func(t *testing.T, b map[string]any) {
				obj, _ := b["public_key_obj"].(map[string]any)
				if diff := cmp.Diff([]any{"USERS|POST", "USER|PATCH", "NODES|POST"}, obj["scope"]); diff != "" {
					t.Errorf("scope (-want +got):\n%s", diff)
				}
			}},
		{"crypto_quotes", testkit.Call{Method: "GET", Path: "/nodes/crypto-quotes"}, func(t *testing.T, b map[string]any) {
			if p, _ := b["BTCUSD"].(float64); p <= 0 {
				t.Errorf("BTCUSD %v", b["BTCUSD"])
			}
		}},
		{"crypto_market_data(limit=5, currency='BTC')", testkit.Call{Method: "GET", Path: "/nodes/crypto-market-watch" + pyQuery([2]string{"limit", "5"}, [2]string{"currency", "BTC"})},
			func(t *testing.T, b map[string]any) {
				if d, _ := b["data"].([]any); len(d) != 5 || b["currency"] != "BTC" {
					t.Errorf("answer %v", b)
				}
			}},
		{"trade_market_data('TSLA')", testkit.Call{Method: "GET", Path: "/nodes/trade-market-watch" + pyQuery([2]string{"ticker", "TSLA"})},
			func(t *testing.T, b map[string]any) {
				if b["ticker"] != "TSLA" || b["close"] == nil {
					t.Errorf("answer %v", b)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.c.Header = testkit.PyHeaders(fake, "")
			r := testkit.Do(t, fake, tc.c)
			if r.Status != 200 {
				t.Fatalf("status %d, want 200; body %s", r.Status, r.Raw)
			}
			tc.check(t, r.Body)
		})
	}
}

// TestReferenceRoutesErrors checks each reference route's refusals: the
// credentials it needs, malformed query values and bodies. None changes
// anything, so they share one server.
func TestReferenceRoutesErrors(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	gw := testkit.GatewayHeaders(fake)
	without := func(name string) map[string]string {
		h := testkit.GatewayHeaders(fake)
		delete(h, name)
		return h
	}
	wrong := testkit.GatewayHeaders(fake)
	wrong["X-SP-GATEWAY"] = "client_id_x|client_secret_x"
	type tcase struct {
		name            string
		c               testkit.Call
		status          int
		errorCode, code string
	}
	var cases []tcase
	for _, p := range []string{"/nodes/types", "/users/document-types", "/users/entity-scopes", "/institutions", "/nodes/atms",
		"/client?issue_public_key=YES", "/nodes/crypto-quotes", "/nodes/crypto-market-watch", "/nodes/trade-market-watch?ticker=AAPL"} {
		cases = append(cases,
			tcase{p + " wrong gateway", testkit.Call{Method: "GET", Path: p, Header: wrong}, 401, "100", "invalid_client_credentials"},
			tcase{p + " wrong method", testkit.Call{Method: "DELETE", Path: p, Header: gw}, 409, "410", "method_not_allowed"},
		)
		if !strings.HasPrefix(p, "/users/") && p != "/nodes/types" { // the tables need none: TestReferenceTablesNeedNoCredentials
			cases = append(cases, tcase{p + " missing gateway", testkit.Call{Method: "GET", Path: p, Header: without("X-SP-GATEWAY")}, 400, "100", "missing_client_credentials"})
		}
	}
	rn := func(body any, h map[string]string) testkit.Call {
		return testkit.Call{Method: "POST", Path: "/routing-number-verification", Header: h, Body: body}
	}
	get := func(path string) testkit.Call { return testkit.Call{Method: "GET", Path: path, Header: gw} }
	cases = append(cases, []tcase{
		{"routing: missing gateway", rn(`{"routing_num":"051000017"}`, without("X-SP-GATEWAY")), 400, "100", "missing_client_credentials"},
		{"routing: wrong gateway", rn(`{"routing_num":"051000017"}`, wrong), 401, "100", "invalid_client_credentials"},
		{"routing: malformed JSON", rn(`{"routing_num":`, gw), 400, "200", "invalid_json"},
		{"routing: not an object", rn(`["051000017"]`, gw), 400, "200", "invalid_json"},
		{"routing: number as a JSON number", rn(`{"routing_num":51000017}`, gw), 400, "200", "invalid_field_type"},
		{"routing: missing routing_num", rn(`{"type":"ACH-US"}`, gw), 400, "200", "missing_field"},
		{"routing: 8 digits", rn(`{"routing_num":"05100001"}`, gw), 409, "400", "unknown_routing_number"},
		{"routing: letters", rn(`{"routing_num":"05100001X"}`, gw), 409, "400", "unknown_routing_number"},
		{"routing: checksum fails", rn(`{"routing_num":"051000018"}`, gw), 409, "400", "unknown_routing_number"},
		// A location, radius, limit or ticker of another form is taken
		// (TestContractRulesTheSandboxTook).
		{"atms: page 0", get("/nodes/atms?zip=94114&page=0"), 400, "200", "invalid_page"},
		{"atms: per_page not a number", get("/nodes/atms?zip=94114&per_page=x"), 400, "200", "invalid_per_page"},
		{"client: no issue_public_key", get("/client"), 400, "200", "invalid_issue_public_key"},
		{"client: issue_public_key=NO", get("/client?issue_public_key=NO"), 400, "200", "invalid_issue_public_key"},
		{"client: unknown scope", get("/client?issue_public_key=YES&scope=USERS|POST,BOGUS|GET"), 400, "200", "invalid_scope"},
		{"client: unknown user", get("/client?issue_public_key=YES&user_id=000000000000000000000000"), 404, "404", "unable_to_locate_user"},
		{"market watch: unknown currency", get("/nodes/crypto-market-watch?currency=DOGE"), 400, "200", "invalid_currency"},
		{"trade: no ticker", get("/nodes/trade-market-watch"), 400, "200", "missing_ticker"},
		{"trade: empty ticker", get("/nodes/trade-market-watch?ticker="), 400, "200", "missing_ticker"},
	}...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, tc.c)
			wantErrorStatus(t, r, tc.status, tc.errorCode, tc.code)
		})
	}
}

// TestReferenceRoutesAreNotUserIDs checks that the two /users/ routes are no
// longer read as GET /users/{user_id} ("Unable to locate user.").
func TestReferenceRoutesAreNotUserIDs(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	for _, p := range []string{"/users/document-types", "/users/entity-scopes"} {
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: p, Header: testkit.GatewayHeaders(fake)})
		if r.Status != 200 || r.Body["error"] != nil {
			t.Errorf("GET %s: status %d, body %s", p, r.Status, r.Raw)
		}
	}
}

// TestPublicKeysDiffer checks that each call issues a new key.
func TestPublicKeysDiffer(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	key := func() any {
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/client?issue_public_key=YES&scope=CLIENT|CONTROLS", Header: testkit.GatewayHeaders(fake)})
		obj, _ := r.Body["public_key_obj"].(map[string]any)
		if r.Status != 200 || obj["public_key"] == nil {
			t.Fatalf("status %d, body %s", r.Status, r.Raw)
		}
		return obj["public_key"]
	}
	if a, b := key(), key(); a == b {
		t.Errorf("two calls issued the same key %v", a)
	}
}

// TestReferenceTablesNeedNoCredentials: a client's suite calls the four
// reference tables with no headers at all and reads the tables, as the
// sandbox answered them (issue 35). With credentials they answer the same;
// a wrong X-SP-GATEWAY is refused, as on every route. WithStrictRequests
// refuses a missing header, naming the headers the contract lists for GET
// /users/entity-types, and still answers a call that sends them.
func TestReferenceTablesNeedNoCredentials(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	for _, tc := range []struct {
		path  string
		table any
	}{
		{"/nodes/types", reference.AllAllowedNodeTypes()},
		{"/users/document-types", reference.AllDocumentTypes()},
		{"/users/entity-types", reference.AllEntityTypes()},
		{"/users/entity-scopes", reference.AllEntityScopes()},
	} {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			for _, h := range []map[string]string{nil, {"X-SP-GATEWAY": fake.Gateway()}, testkit.GatewayHeaders(fake)} {
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.path, Header: h})
				if r.Status != 200 {
					t.Fatalf("headers %v: status %d, want 200: %s", h, r.Status, r.Raw)
				}
				if diff := cmp.Diff(asJSON(t, tc.table), any(r.Body)); diff != "" {
					t.Errorf("headers %v: (-want +got):\n%s", h, diff)
				}
			}
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.path, Header: map[string]string{"X-SP-GATEWAY": "client_id_x|client_secret_x"}})
			wantErrorStatus(t, r, 401, "100", "invalid_client_credentials")

			strict, rec := strictServer(t)
			r = testkit.Do(t, strict, testkit.Call{Method: "GET", Path: tc.path})
			wantRuleRefused(t, rec, r, 400, "100", "missing_client_credentials", "X-SP-GATEWAY, X-SP-USER and X-SP-USER-IP")
			if r := testkit.Do(t, strict, testkit.Call{Method: "GET", Path: tc.path, Header: testkit.GatewayHeaders(strict)}); r.Status != 200 {
				t.Errorf("strict, with the headers: status %d, want 200: %s", r.Status, r.Raw)
			}
		})
	}
}

// wantCryptoWatch is GET /nodes/crypto-market-watch without a currency:
// every quoted currency's days of data and its news (none), keyed by code.
func wantCryptoWatch(t *testing.T, fake *synapsefake.Server, days int) map[string]any {
	t.Helper()
	want := map[string]any{}
	for _, c := range reference.CryptoCurrencies() {
		data, _ := reference.CryptoMarketData(c.Symbol, days, fake.Now())
		want[c.Symbol] = map[string]any{"data": asJSON(t, data), "news": []any{}}
	}
	return want
}

// TestCryptoMarketWatchKeyedByCurrency: without ?currency= the answer is an
// object keyed by currency code (BTC, ETH, LTC, BCH), each with its data
// and news, as clients read it (issue 35); with ?currency= it is today's
// selected form, {currency, limit, data}. limit counts days in both.
func TestCryptoMarketWatchKeyedByCurrency(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	eth, _ := reference.CryptoMarketData("ETH", 3, fake.Now())
	btc, _ := reference.CryptoMarketData("BTC", 7, fake.Now())
	for _, tc := range []struct {
		name, query string
		want        map[string]any
	}{
		{"no query", "", wantCryptoWatch(t, fake, 7)},
		{"limit only", "?limit=2", wantCryptoWatch(t, fake, 2)},
		{"empty currency", "?currency=&limit=2", wantCryptoWatch(t, fake, 2)},
		{"a currency", "?currency=eth&limit=3", map[string]any{"success": true, "currency": "ETH", "limit": 3.0, "data": asJSON(t, eth)}},
		{"a currency, default limit", "?currency=BTC", map[string]any{"success": true, "currency": "BTC", "limit": 7.0, "data": asJSON(t, btc)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/nodes/crypto-market-watch" + tc.query, Header: testkit.GatewayHeaders(fake)})
			if r.Status != 200 {
				t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(tc.want, r.Body); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// noATMs is the answer of an ATM search that finds none.
func noATMs(page, limit float64) map[string]any {
	return map[string]any{"atms": []any{}, "atms_count": 0.0, "error_code": "0", "http_code": "200",
		"limit": limit, "page": page, "page_count": 0.0, "success": true}
}

// TestATMsWithoutALocation: a search that names neither zip nor lat/lon
// finds no ATMs: an empty atms list with the list's fields, page 1 and
// limit 20 by default, as a client expects (issue 35); it used to search
// around San Francisco and answer 20 of 50.
func TestATMsWithoutALocation(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	for _, tc := range []struct {
		query string
		want  map[string]any
	}{
		{"", noATMs(1, 20)},
		{"?radius=10", noATMs(1, 20)},
		{"?page=2&per_page=5", noATMs(2, 5)},
	} {
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/nodes/atms" + tc.query, Header: testkit.GatewayHeaders(fake)})
		if r.Status != 200 {
			t.Fatalf("%q: status %d, want 200: %s", tc.query, r.Status, r.Raw)
		}
		if diff := cmp.Diff(tc.want, r.Body); diff != "" {
			t.Errorf("%q: (-want +got):\n%s", tc.query, diff)
		}
	}
}
