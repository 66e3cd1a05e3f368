package api_test

import (
	"encoding/base64"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// patchSubnet sends PATCH body to a subnet of fx's node.
func patchSubnet(t testing.TB, fake *synapsefake.Server, fx testkit.Fixture, subnetID string, body any) testkit.Response {
	t.Helper()
	return testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: testkit.SubnetPath(fx.User.ID, fx.Node.ID, subnetID), Header: fx.Headers, Body: body})
}

func TestPatchSubnetStatus(t *testing.T) {
	t.Parallel()
	const (
		inactive   = synapsefake.SubnetInactive
		active     = synapsefake.SubnetActive
		terminated = synapsefake.SubnetTerminated
	)
	for _, tc := range []struct {
		class    string
		from, to synapsefake.SubnetStatus
		legal    bool
	}{
		{"CARD", inactive, active, true},
		{"CARD", inactive, inactive, true},
		{"CARD", inactive, terminated, true},
		{"CARD", active, inactive, true},
		{"CARD", active, active, true},
		{"CARD", active, terminated, true},
		{"CARD", terminated, active, false},
		{"CARD", terminated, inactive, false},
		{"CARD", terminated, terminated, false},
		{"CHECKING", active, inactive, true},
		{"CHECKING", inactive, active, true},
		{"CHECKING", active, terminated, true},
		{"CHECKING", terminated, active, false},
	} {
		t.Run(fmt.Sprintf("%s %s to %s", tc.class, tc.from, tc.to), func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			created := fake.Now()
			sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "S", AccountClass: synapsefake.AccountClass(tc.class), Status: tc.from})
			fake.Advance(time.Hour)
			before := snapshot(t, fake, []string{fx.User.ID})
			r := patchSubnet(t, fake, fx, sub.ID, map[string]any{"status": tc.to})
			if !tc.legal {
				wantSnError(t, r, 409, "410", "illegal_status_change")
				wantUnchangedSince(t, fake, before)
				return
			}
			want := sub
			want.Status = tc.to
			if diff := cmp.Diff(want, mustSubnet(t, fake, sub.ID)); diff != "" {
				t.Errorf("stored subnet (-want +got):\n%s", diff)
			}
			wantSubnetBody(t, r, subnetJSON(fake, want, created, created.Add(time.Hour), false))
			g := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.SubnetPath(fx.User.ID, fx.Node.ID, sub.ID), Header: fx.Headers})
			wantSubnetBody(t, g, subnetJSON(fake, want, created, created.Add(time.Hour), false))
		})
	}
}

// TestPatchSubnetAllowed sends the v3.1.0 allowed, as synapse_pay_rest's
// Subnet.lock does ({"allowed": "LOCKED"}): LOCKED is INACTIVE and
// CREDIT-AND-DEBIT is ACTIVE, under the status PATCH's rules; the answer is
// the subnet.
func TestPatchSubnetAllowed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		class   string
		from    synapsefake.SubnetStatus
		allowed string
		body    string // "" for {"allowed": allowed}
		want    synapsefake.SubnetStatus
	}{
		{"CHECKING", synapsefake.SubnetActive, "LOCKED", "", synapsefake.SubnetInactive},
		{"CHECKING", synapsefake.SubnetInactive, "LOCKED", "", synapsefake.SubnetInactive},
		{"CHECKING", synapsefake.SubnetInactive, "CREDIT-AND-DEBIT", "", synapsefake.SubnetActive},
		{"CARD", synapsefake.SubnetActive, "LOCKED", "", synapsefake.SubnetInactive},
		{"CARD", synapsefake.SubnetInactive, "CREDIT-AND-DEBIT", "", synapsefake.SubnetActive},
		{"CHECKING", synapsefake.SubnetActive, "LOCKED", `{"allowed":"LOCKED","status":"INACTIVE"}`, synapsefake.SubnetInactive},
	} {
		t.Run(fmt.Sprintf("%s %s allowed %s", tc.class, tc.from, tc.allowed), func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			created := fake.Now()
			sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "S", AccountClass: synapsefake.AccountClass(tc.class), Status: tc.from})
			fake.Advance(time.Hour)
			var body any = map[string]any{"allowed": tc.allowed}
			if tc.body != "" {
				body = tc.body
			}
			r := patchSubnet(t, fake, fx, sub.ID, body)
			want := sub
			want.Status = tc.want
			if diff := cmp.Diff(want, mustSubnet(t, fake, sub.ID)); diff != "" {
				t.Errorf("stored subnet (-want +got):\n%s", diff)
			}
			wantSubnetBody(t, r, subnetJSON(fake, want, created, created.Add(time.Hour), false))
			g := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.SubnetPath(fx.User.ID, fx.Node.ID, sub.ID), Header: fx.Headers})
			wantSubnetBody(t, g, subnetJSON(fake, want, created, created.Add(time.Hour), false))
		})
	}
}

// TestSubnetAllowed reads the v3.1.0 field allowed beside status: the
// provider's Ruby integration suite locked an account-number subnet with
// {"allowed": "LOCKED"} and read allowed back; synapse_pay_rest documents
// the lock as moving it "from 'CREDIT' to 'LOCKED'".
func TestSubnetAllowed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		class       string
		patches     []string // in order; none reads the new subnet
		wantStatus  string
		wantAllowed string
	}{
		{"new account number", "CHECKING", nil, "ACTIVE", "CREDIT"},
		{"new card", "CARD", nil, "INACTIVE", "LOCKED"},
		{"account number locked", "CHECKING", []string{`{"allowed":"LOCKED"}`}, "INACTIVE", "LOCKED"},
		{"account number locked, then CREDIT", "CHECKING", []string{`{"allowed":"LOCKED"}`, `{"allowed":"CREDIT"}`}, "ACTIVE", "CREDIT"},
		{"card activated", "CARD", []string{`{"status":"ACTIVE"}`}, "ACTIVE", "CREDIT-AND-DEBIT"},
		{"card activated by allowed", "CARD", []string{`{"allowed":"CREDIT-AND-DEBIT"}`}, "ACTIVE", "CREDIT-AND-DEBIT"},
		{"account number terminated", "CHECKING", []string{`{"status":"TERMINATED"}`}, "TERMINATED", "LOCKED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			body := map[string]any{"nickname": "S"}
			if tc.class == "CARD" {
				body["account_class"] = "CARD"
			}
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.SubnetsPath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: body})
			if r.Status != 200 {
				t.Fatalf("create: %d %s", r.Status, r.Raw)
			}
			id := r.Body["_id"].(string)
			for _, p := range tc.patches {
				if r = patchSubnet(t, fake, fx, id, p); r.Status != 200 {
					t.Fatalf("PATCH %s: %d %s", p, r.Status, r.Raw)
				}
			}
			for _, got := range []testkit.Response{r, testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.SubnetPath(fx.User.ID, fx.Node.ID, id), Header: fx.Headers})} {
				if got.Status != 200 || got.Body["status"] != tc.wantStatus || got.Body["allowed"] != tc.wantAllowed {
					t.Errorf("%d status %v allowed %v, want 200 %s %s; body %s", got.Status, got.Body["status"], got.Body["allowed"], tc.wantStatus, tc.wantAllowed, got.Raw)
				}
			}
		})
	}
}

func TestPatchSubnet(t *testing.T) {
	t.Parallel()
	// defaults are a new card's preferences, in cents.
	defaults := map[string]any{"allow_cash_transactions": true, "allow_foreign_transactions": false,
		"daily_cash_limit": 50000.0, "daily_transaction_limit": 100000.0}
	prefs := func(changes map[string]any) map[string]any {
		out := maps.Clone(defaults)
		maps.Copy(out, changes)
		return out
	}
	for _, tc := range []struct {
		name  string
		class string
		body  string
		edit  func(want map[string]any)                  // the answer beyond updated_on
		check func(t *testing.T, got synapsefake.Subnet) // the stored subnet
	}{
		{
			name: "daily_transaction_limit in USD reads back in cents", class: "CARD",
			body: `{"preferences":{"daily_transaction_limit":12.34}}`,
			edit: func(w map[string]any) { w["preferences"] = prefs(map[string]any{"daily_transaction_limit": 1234.0}) },
			check: func(t *testing.T, got synapsefake.Subnet) {
				if got.DailyTransactionLimitCents != 1234 {
					t.Errorf("DailyTransactionLimitCents %d, want 1234", got.DailyTransactionLimitCents)
				}
			},
		},
		{
			name: "daily_cash_limit with a fraction", class: "CARD",
			body: `{"preferences":{"daily_cash_limit":0.5}}`,
			edit: func(w map[string]any) { w["preferences"] = prefs(map[string]any{"daily_cash_limit": 50.0}) },
		},
		{
			name: "whole dollars", class: "CARD",
			body: `{"preferences":{"daily_cash_limit":250,"daily_transaction_limit":19.99}}`,
			edit: func(w map[string]any) {
				w["preferences"] = prefs(map[string]any{"daily_cash_limit": 25000.0, "daily_transaction_limit": 1999.0})
			},
		},
		{
			name: "zero limits", class: "CARD",
			body: `{"preferences":{"daily_cash_limit":0,"daily_transaction_limit":0.0}}`,
			edit: func(w map[string]any) {
				w["preferences"] = prefs(map[string]any{"daily_cash_limit": 0.0, "daily_transaction_limit": 0.0})
			},
		},
		{
			name: "large limits keep every cent", class: "CARD",
			body: `{"preferences":{"daily_cash_limit":2205297254.49,"daily_transaction_limit":1e12}}`,
			edit: func(w map[string]any) {
				w["preferences"] = prefs(map[string]any{"daily_cash_limit": 220529725449.0, "daily_transaction_limit": 1e14})
			},
		},
		{
			name: "flags alone leave the limits", class: "CARD",
			body: `{"preferences":{"allow_cash_transactions":false,"allow_foreign_transactions":true}}`,
			edit: func(w map[string]any) {
				w["preferences"] = prefs(map[string]any{"allow_cash_transactions": false, "allow_foreign_transactions": true})
			},
		},
		{
			name: "status and preferences together", class: "CARD",
			body: `{"status":"ACTIVE","preferences":{"allow_foreign_transactions":true,"daily_transaction_limit":12.34}}`,
			edit: func(w map[string]any) {
				w["status"], w["allowed"] = "ACTIVE", "CREDIT-AND-DEBIT"
				w["preferences"] = prefs(map[string]any{"allow_foreign_transactions": true, "daily_transaction_limit": 1234.0})
			},
		},
		{
			name: "status_code USER_REQUESTED", class: "CARD",
			body: `{"status_code":"USER_REQUESTED"}`,
		},
		{
			name: "status_code ACCOUNT_CLOSED with TERMINATED", class: "CARD",
			body: `{"status":"TERMINATED","status_code":"ACCOUNT_CLOSED"}`,
			edit: func(w map[string]any) { w["status"], w["status_code"] = "TERMINATED", "ACCOUNT_CLOSED" },
		},
		{
			name: "status_code ACCOUNT_LOCKED", class: "CHECKING",
			body: `{"status":"INACTIVE","status_code":"ACCOUNT_LOCKED"}`,
			edit: func(w map[string]any) {
				w["status"], w["status_code"], w["allowed"] = "INACTIVE", "ACCOUNT_LOCKED", "LOCKED"
			},
		},
		{
			name: "status_code FRAUD_ALERT", class: "CARD",
			body: `{"status_code":"FRAUD_ALERT"}`,
			edit: func(w map[string]any) { w["status_code"] = "FRAUD_ALERT" },
		},
		{
			name: "nickname and supp_id", class: "CHECKING",
			body: `{"nickname":"Bills","supp_id":"s-9"}`,
			edit: func(w map[string]any) { w["nickname"], w["supp_id"] = "Bills", "s-9" },
		},
		{
			name: "pin is stored and never shown", class: "CARD",
			body: `{"pin":"ZW5jcnlwdGVkLXBpbi0xMjM0"}`,
			check: func(t *testing.T, got synapsefake.Subnet) {
				if got.Pin != "ZW5jcnlwdGVkLXBpbi0xMjM0" {
					t.Errorf("Pin %q, want the one sent", got.Pin)
				}
			},
		},
		{
			name: "card_pin is another name for pin", class: "CARD",
			body: `{"card_pin":"ZW5jcnlwdGVkLXBpbi01Njc4"}`,
			check: func(t *testing.T, got synapsefake.Subnet) {
				if got.Pin != "ZW5jcnlwdGVkLXBpbi01Njc4" {
					t.Errorf("Pin %q, want the one sent", got.Pin)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			created := fake.Now()
			sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "S", AccountClass: synapsefake.AccountClass(tc.class)})
			fake.Advance(time.Minute)
			r := patchSubnet(t, fake, fx, sub.ID, tc.body)
			got := mustSubnet(t, fake, sub.ID)
			want := subnetJSON(fake, sub, created, created.Add(time.Minute), false)
			if tc.edit != nil {
				tc.edit(want)
			}
			wantSubnetBody(t, r, want)
			// GET and both lists show the same, in cents.
			g := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.SubnetPath(fx.User.ID, fx.Node.ID, sub.ID), Header: fx.Headers})
			wantSubnetBody(t, g, want)
			if tc.check != nil {
				tc.check(t, got)
			}
			// No answer shows the pin, whatever it is called.
			full := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.SubnetPath(fx.User.ID, fx.Node.ID, sub.ID) + "?full_dehydrate=YES", Header: fx.Headers})
			list := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: userSubnetsPath(fx.User.ID), Header: fx.Headers})
			for _, a := range []testkit.Response{r, g, full, list} {
				if got.Pin != "" && strings.Contains(string(a.Raw), got.Pin) {
					t.Errorf("an answer shows the pin: %s", a.Raw)
				}
				if strings.Contains(string(a.Raw), `"pin"`) || strings.Contains(string(a.Raw), `"card_pin"`) {
					t.Errorf("an answer has a pin field: %s", a.Raw)
				}
			}
		})
	}
}

func TestUSDLimitsReadBackInCents(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	for _, tc := range []struct {
		usd   string // as written in the JSON body
		cents int64
	}{
		{"12.34", 1234}, {"0.01", 1}, {"0.1", 10}, {"0.29", 29}, {"1.005e2", 10050}, {"19.99", 1999},
		{"4.35", 435}, {"1234567.89", 123456789}, {"0", 0}, {"1e3", 100000},
		// usd*100 misses these by more than a millionth of a cent.
		{"17350898073.56", 1735089807356}, {"698762059256.68", 69876205925668},
	} {
		t.Run(tc.usd, func(t *testing.T) {
			t.Parallel()
			sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: tc.usd, AccountClass: "CARD"})
			r := patchSubnet(t, fake, fx, sub.ID, `{"preferences":{"daily_transaction_limit":`+tc.usd+`,"daily_cash_limit":`+tc.usd+`}}`)
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			g := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.SubnetPath(fx.User.ID, fx.Node.ID, sub.ID), Header: fx.Headers})
			want := map[string]any{"allow_cash_transactions": true, "allow_foreign_transactions": false,
				"daily_cash_limit": float64(tc.cents), "daily_transaction_limit": float64(tc.cents)}
			if diff := cmp.Diff(want, g.Body["preferences"]); diff != "" {
				t.Errorf("preferences (-want +got):\n%s", diff)
			}
			if got := mustSubnet(t, fake, sub.ID); got.DailyTransactionLimitCents != tc.cents || got.DailyCashLimitCents != tc.cents {
				t.Errorf("stored limits %d and %d, want %d", got.DailyTransactionLimitCents, got.DailyCashLimitCents, tc.cents)
			}
		})
	}
}

func TestPatchSubnetErrors(t *testing.T) {
	t.Parallel()
	patch := func(sub func(e snEnv) synapsefake.Subnet, body any) func(e snEnv) testkit.Call {
		return func(e snEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: e.path(sub(e)), Header: e.fx.Headers, Body: body}
		}
	}
	card := func(e snEnv) synapsefake.Subnet { return e.card }
	ended := func(e snEnv) synapsefake.Subnet { return e.ended }
	acct := func(e snEnv) synapsefake.Subnet { return e.acct }
	cases := []snErrorCase{
		{name: "malformed JSON", call: patch(card, `{"status":"ACTIVE"`), status: 400, errorCode: "200", code: "invalid_json"},
		{name: "array body", call: patch(card, `["ACTIVE"]`), status: 400, errorCode: "200", code: "invalid_json"},
		{name: "trailing data", call: patch(card, `{"status":"ACTIVE"} {}`), status: 400, errorCode: "200", code: "invalid_json"},
		{name: "status a number", call: patch(card, `{"status":1}`), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "pin a number", call: patch(card, `{"pin":1234}`), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "preferences a string", call: patch(card, `{"preferences":"none"}`), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "limit a string", call: patch(card, `{"preferences":{"daily_cash_limit":"10"}}`), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "flag a string", call: patch(card, `{"preferences":{"allow_cash_transactions":"yes"}}`), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "unknown status", call: patch(card, `{"status":"LOST"}`), status: 400, errorCode: "200", code: "invalid_status"},
		{name: "lower-case status", call: patch(card, `{"status":"active"}`), status: 400, errorCode: "200", code: "invalid_status"},
		{name: "empty pin", call: patch(card, `{"pin":""}`), status: 400, errorCode: "200", code: "invalid_pin"},
		{name: "limit too large", call: patch(card, `{"preferences":{"daily_transaction_limit":1e13}}`), status: 400, errorCode: "200", code: "invalid_limit"},
		{name: "out of TERMINATED", call: patch(ended, `{"status":"ACTIVE"}`), status: 409, errorCode: "410", code: "illegal_status_change"},
		{name: "unknown allowed", call: patch(acct, `{"allowed":"DEBIT"}`), status: 400, errorCode: "200", code: "invalid_allowed"},
		{name: "allowed a number", call: patch(acct, `{"allowed":1}`), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "allowed LOCKED out of TERMINATED", call: patch(ended, `{"allowed":"LOCKED"}`), status: 409, errorCode: "410", code: "illegal_status_change"},
		{name: "an illegal move refuses the whole body", call: patch(ended, `{"status":"INACTIVE","pin":"p","status_code":"FRAUD_ALERT","preferences":{"daily_cash_limit":1}}`),
			status: 409, errorCode: "410", code: "illegal_status_change"},
		{name: "pin on a TERMINATED card", call: patch(ended, `{"pin":"p"}`), status: 409, errorCode: "410", code: "subnet_terminated"},
		{name: "preferences on a TERMINATED card", call: patch(ended, `{"preferences":{"daily_cash_limit":1}}`), status: 409, errorCode: "410", code: "subnet_terminated"},
		{name: "status_code on a TERMINATED card", call: patch(ended, `{"status_code":"FRAUD_ALERT"}`), status: 409, errorCode: "410", code: "subnet_terminated"},
		{name: "scope SUBNET|PATCH not granted", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: e.path(e.card), Header: keyWithout(e.fake, e.fx, "SUBNET|PATCH"), Body: `{"status":"ACTIVE"}`}
		}, status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "missing X-SP-USER-IP", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: e.path(e.card), Header: testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-USER-IP": ""}), Body: `{"status":"ACTIVE"}`}
		}, status: 400, errorCode: "200", code: "missing_user_ip"},
		{name: "fingerprint of another device", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: e.path(e.card), Header: testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-USER": e.fx.Key + "|other-device"}), Body: `{"status":"ACTIVE"}`}
		}, status: 401, errorCode: "120", code: ""},
		{name: "another user's subnet", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.SubnetPath(e.fx.User.ID, e.fx.Node.ID, e.otherCard.ID), Header: e.fx.Headers, Body: `{"status":"INACTIVE"}`}
		}, status: 401, errorCode: "300", code: "unauthorized_subnet"},
		{name: "unknown subnet", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.SubnetPath(e.fx.User.ID, e.fx.Node.ID, "0123456789abcdef01234567"), Header: e.fx.Headers, Body: `{"status":"ACTIVE"}`}
		}, status: 404, errorCode: "404", code: "unable_to_locate_subnet"},
	}
	runSnErrorCases(t, cases)
}

// applePush is a valid body for the first provider.
func applePush() map[string]any {
	return map[string]any{
		"type":            "APPLE_PUSH",
		"nonce":           base64.StdEncoding.EncodeToString([]byte("nonce-1234")),
		"nonce_signature": base64.StdEncoding.EncodeToString([]byte("signature-5678")),
		"certificates":    []any{"MIIBleaf", "MIIBsubCA"},
	}
}

func pushPath(e snEnv, sub synapsefake.Subnet) string { return e.path(sub) + "/push" }

func TestPushSubnet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		body map[string]any
	}{
		{"first provider", applePush()},
		{"second provider", map[string]any{"type": "GOOGLE_PUSH"}},
		{"third provider", map[string]any{"type": "SAMSUNG_PUSH"}},
		{"second provider ignores the first provider's fields", map[string]any{"type": "GOOGLE_PUSH", "nonce": "bm9uY2U=", "certificates": []any{"x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newSnEnv(t)
			before := e.snapshot(t)
			r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: pushPath(e, e.active), Header: e.fx.Headers, Body: tc.body})
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			auth, _ := getPath(r.Body, "data.authentication").(map[string]any)
			for _, k := range []string{"activation_data", "encrypted_data", "public_key"} {
				v, _ := auth[k].(string)
				if b, err := base64.StdEncoding.DecodeString(v); err != nil || len(b) == 0 {
					t.Errorf("%s %q is not non-empty base64: %v", k, v, err)
				}
			}
			want := map[string]any{
				"data":    map[string]any{"authentication": map[string]any{"activation_data": auth["activation_data"], "encrypted_data": auth["encrypted_data"], "public_key": auth["public_key"]}},
				"error":   map[string]any{},
				"success": true,
			}
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			// A push changes nothing in the store.
			wantUnchangedSince(t, e.fake, before)
		})
	}
}

func TestPushSubnetTokensDifferByCardAndProvider(t *testing.T) {
	t.Parallel()
	e := newSnEnv(t)
	second := testkit.AddSubnet(t, e.fake, e.fx, synapsefake.SubnetSeed{Nickname: "Second", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	seen := map[string]string{}
	for _, tc := range []struct {
		name string
		sub  synapsefake.Subnet
		typ  string
	}{
		{"card 1 GOOGLE_PUSH", e.active, "GOOGLE_PUSH"},
		{"card 1 SAMSUNG_PUSH", e.active, "SAMSUNG_PUSH"},
		{"card 2 GOOGLE_PUSH", second, "GOOGLE_PUSH"},
	} {
		r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: pushPath(e, tc.sub), Header: e.fx.Headers, Body: map[string]any{"type": tc.typ}})
		tok, _ := getPath(r.Body, "data.authentication.activation_data").(string)
		if prev, dup := seen[tok]; dup {
			t.Errorf("%s answers the same activation_data as %s", tc.name, prev)
		}
		seen[tok] = tc.name
	}
}

func TestPushSubnetErrors(t *testing.T) {
	t.Parallel()
	push := func(sub func(e snEnv) synapsefake.Subnet, body func() map[string]any) func(e snEnv) testkit.Call {
		return func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: pushPath(e, sub(e)), Header: e.fx.Headers, Body: body()}
		}
	}
	active := func(e snEnv) synapsefake.Subnet { return e.active }
	apple := func(changes map[string]any) func() map[string]any {
		return func() map[string]any {
			b := applePush()
			for k, v := range changes {
				if v == nil {
					delete(b, k)
					continue
				}
				b[k] = v
			}
			return b
		}
	}
	typ := func(v any) func() map[string]any { return func() map[string]any { return map[string]any{"type": v} } }
	cases := []snErrorCase{
		{name: "missing type", call: push(active, func() map[string]any { return map[string]any{} }), status: 400, errorCode: "200", code: "invalid_push_type"},
		{name: "unknown type", call: push(active, typ("PAYPAL_PUSH")), status: 400, errorCode: "200", code: "invalid_push_type"},
		{name: "lower-case type", call: push(active, typ("google_push")), status: 400, errorCode: "200", code: "invalid_push_type"},
		{name: "type a number", call: push(active, typ(1)), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "first provider without nonce", call: push(active, apple(map[string]any{"nonce": nil})), status: 400, errorCode: "200", code: "missing_nonce"},
		{name: "first provider with an empty nonce", call: push(active, apple(map[string]any{"nonce": ""})), status: 400, errorCode: "200", code: "missing_nonce"},
		{name: "without nonce_signature", call: push(active, apple(map[string]any{"nonce_signature": nil})), status: 400, errorCode: "200", code: "missing_nonce_signature"},
		{name: "without nonce or signature names the nonce", call: push(active, apple(map[string]any{"nonce": nil, "nonce_signature": nil})), status: 400, errorCode: "200", code: "missing_nonce"},
		{name: "certificates a string", call: push(active, apple(map[string]any{"certificates": "a,b"})), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "malformed JSON", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: pushPath(e, e.active), Header: e.fx.Headers, Body: `{"type":`}
		}, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "INACTIVE card", call: push(func(e snEnv) synapsefake.Subnet { return e.card }, typ("GOOGLE_PUSH")), status: 409, errorCode: "410", code: "card_not_active"},
		{name: "TERMINATED card", call: push(func(e snEnv) synapsefake.Subnet { return e.ended }, typ("GOOGLE_PUSH")), status: 409, errorCode: "410", code: "card_not_active"},
		{name: "account number", call: push(func(e snEnv) synapsefake.Subnet { return e.acct }, typ("GOOGLE_PUSH")), status: 409, errorCode: "410", code: "not_a_card"},
		{name: "missing gateway", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: pushPath(e, e.active), Header: testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-GATEWAY": ""}), Body: map[string]any{"type": "GOOGLE_PUSH"}}
		}, status: 400, errorCode: "100", code: "missing_client_credentials"},
		{name: "scope SUBNET|PATCH not granted", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: pushPath(e, e.active), Header: keyWithout(e.fake, e.fx, "SUBNET|PATCH"), Body: map[string]any{"type": "GOOGLE_PUSH"}}
		}, status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "another user's card", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: testkit.SubnetPath(e.fx.User.ID, e.fx.Node.ID, e.otherCard.ID) + "/push", Header: e.fx.Headers, Body: map[string]any{"type": "GOOGLE_PUSH"}}
		}, status: 401, errorCode: "300", code: "unauthorized_subnet"},
		{name: "unknown subnet", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: testkit.SubnetPath(e.fx.User.ID, e.fx.Node.ID, "0123456789abcdef01234567") + "/push", Header: e.fx.Headers, Body: map[string]any{"type": "GOOGLE_PUSH"}}
		}, status: 404, errorCode: "404", code: "unable_to_locate_subnet"},
		{name: "GET is not served", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: pushPath(e, e.active), Header: e.fx.Headers}
		}, status: 409, errorCode: "410", code: "method_not_allowed"},
	}
	runSnErrorCases(t, cases)
}
