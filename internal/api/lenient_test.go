package api_test

import (
	"maps"
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// sdkEnv is a txEnv with the objects the SDKs' documented calls name: a
// card subnet, an account-number subnet, a subscription and a transaction.
type sdkEnv struct {
	testkit.TxEnv
	card, acct, sub, tx string
}

func newSDKEnv(t *testing.T, opts ...synapsefake.Option) sdkEnv {
	t.Helper()
	e := sdkEnv{TxEnv: testkit.NewTxEnv(t, 100_00, opts...)}
	subnets := "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/subnets"
	for _, s := range []struct {
		id   *string
		body map[string]any
	}{
		{&e.card, map[string]any{"nickname": "Card", "account_class": "CARD"}},
		{&e.acct, map[string]any{"nickname": "Account"}},
	} {
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: subnets, Header: e.Fx.Headers, Body: s.body})
		if r.Status != http.StatusOK {
			t.Fatalf("create subnet: %d %s", r.Status, r.Raw)
		}
		*s.id = r.Body["_id"].(string)
	}
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: "/subscriptions", Header: testkit.GatewayHeaders(e.Fake),
		Body: map[string]any{"scope": []string{"USERS|POST"}, "url": "https://example.com/hooks"}})
	if r.Status != http.StatusOK {
		t.Fatalf("create subscription: %d %s", r.Status, r.Raw)
	}
	e.sub = r.Body["_id"].(string)
	e.tx = e.Create(t, e.Bank, 1)
	return e
}

func (e sdkEnv) subnetPath(id string) string {
	return "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/subnets/" + id
}

// formHeaders are headers with an empty form-encoded body's Content-Type,
// as gorequest sends for SynapseGo's ResetCardNode.
func formHeaders(h map[string]string) map[string]string {
	h = maps.Clone(h)
	h["Content-Type"] = "application/x-www-form-urlencoded"
	return h
}

// TestSDKDocumentedBodies sends each body that SynapsePy's samples.md and
// SynapseGo's examples.md document, to its route as the SDK sends it: every
// one is accepted.
func TestSDKDocumentedBodies(t *testing.T) {
	t.Parallel()
	scopes := []string{"USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH", "TRANS|POST", "TRAN|PATCH"}
	cardPrefs := map[string]any{"allow_foreign_transactions": true, "daily_atm_withdrawal_limit": 10, "daily_transaction_limit": 1000}
	for _, tc := range []struct {
		name string
		call func(e sdkEnv) testkit.Call
	}{
		{"py create_user", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(e.Fake), Body: map[string]any{
				"logins": []any{map[string]any{"email": "test@synapsefi.com"}}, "phone_numbers": []any{"901.111.1111", "test@synapsefi.com"},
				"legal_names": []any{"Test User"}}}
		}},
		{"py oauth, go Authenticate", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/oauth/" + e.Fx.User.ID, Header: testkit.UserHeaders(e.Fake, ""),
				Body: map[string]any{"refresh_token": e.Fx.User.RefreshToken, "scope": []any{"USER|PATCH", "USER|GET"}}}
		}},
		{"py update_info, go Update", func(e sdkEnv) testkit.Call {
			u := e.Fake.MustAddUser(t, synapsefake.UserSeed{Email: "test@synapsefi.com", PhoneNumbers: []string{"901.111.1111"}, Fingerprint: testkit.TestFingerprint})
			h := testkit.UserHeaders(e.Fake, e.Fake.OAuthKey(u.ID, testkit.TestFingerprint))
			return testkit.Call{Method: "PATCH", Path: "/users/" + u.ID, Header: h, Body: map[string]any{"update": map[string]any{
				"login": map[string]any{"email": "test2@synapsefi.com"}, "remove_login": map[string]any{"email": "test@synapsefi.com"},
				"phone_number": "901-111-2222", "remove_phone_number": "901.111.1111"}}}
		}},
		{"py create_subscription", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/subscriptions", Header: testkit.GatewayHeaders(e.Fake),
				Body: map[string]any{"scope": scopes, "url": "https://requestb.in/zp216zzp"}}
		}},
		{"go CreateSubscription with an idempotency key", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/subscriptions", Header: withKey(testkit.GatewayHeaders(e.Fake), "123456789"),
				Body: map[string]any{"scope": scopes, "url": "https://requestb.in/zp216zzp"}}
		}},
		{"py update_subscription", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: "/subscriptions/" + e.sub, Header: testkit.GatewayHeaders(e.Fake),
				Body: map[string]any{"url": "https://requestb.in/zp216zzp", "scope": scopes[:3]}}
		}},
		{"go UpdateSubscription", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: "/subscriptions/" + e.sub, Header: testkit.GatewayHeaders(e.Fake), Body: map[string]any{"scope": scopes[:3]}}
		}},
		{"py create_node, go CreateNode", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: testkit.NodesPath(e.Fx.User.ID), Header: withKey(e.Fx.Headers, "123456"),
				Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "My Checking"}}}
		}},
		{"py update_node, go UpdateNode", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers, Body: map[string]any{"supp_id": "new_supp_id_1234"}}
		}},
		{"py reinit_micro: {} and resend_micro=YES", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.NodePath(e.Fx.User.ID, e.Bank.ID) + "?resend_micro=YES", Header: e.Fx.Headers, Body: map[string]any{}}
		}},
		{"go ReinitiateMicroDeposits", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.NodePath(e.Fx.User.ID, e.Bank.ID) + "?resend_micro=YES", Header: e.Fx.Headers, Body: `{"resend_micro":"YES"}`}
		}},
		{"an empty form-encoded PATCH, as go ResetCardNode sends", func(e sdkEnv) testkit.Call {
			card := e.Fake.MustAddNode(t, e.Fx.User.ID, synapsefake.NodeSeed{Type: "CARD-US", Nickname: "Card"})
			return testkit.Call{Method: "PATCH", Path: testkit.NodePath(e.Fx.User.ID, card.ID) + "?reset=YES", Header: formHeaders(e.Fx.Headers), Body: ""}
		}},
		{"py delete_node, go DeleteNode", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "DELETE", Path: testkit.NodePath(e.Fx.User.ID, e.Savings.ID), Header: e.Fx.Headers}
		}},
		{"go CreateNodeStatements", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/statements", Header: e.Fx.Headers,
				Body: map[string]any{"date_start": 1525132800000, "date_end": 1525132800000, "webhook": "https://wh.synapsefi.com/gen_me_statement_001"}}
		}},
		{"py create_subnet, go CreateSubnet", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/subnets", Header: e.Fx.Headers,
				Body: map[string]any{"nickname": "Test AC/RT"}}
		}},
		{"py update_subnet", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: e.subnetPath(e.card), Header: e.Fx.Headers,
				Body: map[string]any{"status": "ACTIVE", "card_pin": "1234", "preferences": cardPrefs}}
		}},
		{"go UpdateSubnet", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: e.subnetPath(e.card), Header: e.Fx.Headers, Body: map[string]any{"preferences": cardPrefs}}
		}},
		{"py create_trans, go CreateTransaction", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers, Body: map[string]any{
				"to": map[string]any{"type": "ACH-US", "id": e.Bank.ID}, "amount": map[string]any{"amount": 20.1, "currency": "USD"},
				"extra": map[string]any{"ip": "192.168.0.1"}}}
		}},
		{"py batch_trans", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: e.BatchPath(), Header: e.Fx.Headers, Body: map[string]any{"transactions": []any{
				map[string]any{"to": map[string]any{"type": "ACH-US", "id": e.Bank.ID}, "amount": map[string]any{"amount": 34, "currency": "USD"},
					"extra": map[string]any{"ip": "127.0.0.1", "note": "Banking Fees", "idempotency_key": "testidp1"}}}}}
		}},
		{"py comment_trans, go CommentOnTransactionStatus", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, e.tx), Header: e.Fx.Headers,
				Body: map[string]any{"comment": "Pending verification..."}}
		}},
		{"py cancel_trans, go CancelTransaction", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "DELETE", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, e.tx), Header: e.Fx.Headers}
		}},
		{"go VerifyAddress", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/address-verification", Header: testkit.GatewayHeaders(e.Fake), Body: map[string]any{
				"address_street": "170 St Germain St", "address_city": "SF", "address_subdivision": "CA",
				"address_country_code": "US", "address_postal_code": "94404"}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newSDKEnv(t)
			c := tc.call(e)
			if r := testkit.Do(t, e.Fake, c); r.Status != http.StatusOK {
				t.Errorf("%s %s: status %d, want 200: %s", c.Method, c.Path, r.Status, r.Raw)
			}
		})
	}
}

// TestUnknownFieldsIgnored: a field the fake does not know is accepted and
// ignored; the known fields beside it take effect.
func TestUnknownFieldsIgnored(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		call func(e sdkEnv) testkit.Call
		// field is a path into the answer and want its value after the call.
		field string
		want  any
	}{
		{"PATCH user", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: "/users/" + e.Fx.User.ID, Header: e.Fx.Headers,
				Body: map[string]any{"update": map[string]any{"legal_name": "Sam New", "email": "x@example.com"}, "nickname": "x"}}
		}, "legal_names", []any{"Sam Sender", "Sam New"}},
		{"PATCH node", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers,
				Body: map[string]any{"nickname": "New", "color": "red", "type": "ACH-US", "info": map[string]any{"bank_code": "x"}}}
		}, "type", "DEPOSIT-US"},
		{"PATCH node keeps the known field", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers,
				Body: map[string]any{"nickname": "New", "color": "red"}}
		}, "info.nickname", "New"},
		{"PATCH card subnet", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: e.subnetPath(e.card), Header: e.Fx.Headers,
				Body: map[string]any{"status": "INACTIVE", "colour": "red", "preferences": map[string]any{"max_pin_attempts": 3, "allow_ecommerce_transactions": true}}}
		}, "status", "INACTIVE"},
		{"PATCH subscription", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: "/subscriptions/" + e.sub, Header: testkit.GatewayHeaders(e.Fake),
				Body: map[string]any{"is_active": false, "active": true, "client_id": "x"}}
		}, "is_active", false},
		{"PATCH transaction comment", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, e.tx), Header: e.Fx.Headers,
				Body: map[string]any{"comment": "x", "status": "SETTLED"}}
		}, "recent_status.status", "CREATED"},
		{"POST subnet", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/subnets", Header: e.Fx.Headers,
				Body: map[string]any{"nickname": "Card 2", "account_class": "CARD", "card_type": "PHYSICAL", "max_pin_attempts": 3}}
		}, "account_class", "CARD"},
		{"POST transaction", func(e sdkEnv) testkit.Call {
			b := testkit.TxBody(e.Bank, 2)
			b["expedite"] = true
			testkit.PutPath(b, "extra.unknown", "x")
			return testkit.Call{Method: "POST", Path: testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers, Body: b}
		}, "amount.amount", 2.0},
		{"POST oauth", func(e sdkEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: "/oauth/" + e.Fx.User.ID, Header: testkit.UserHeaders(e.Fake, ""),
				Body: map[string]any{"refresh_token": e.Fx.User.RefreshToken, "device": "x"}}
		}, "user_id", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newSDKEnv(t)
			c := tc.call(e)
			r := testkit.Do(t, e.Fake, c)
			if r.Status != http.StatusOK {
				t.Fatalf("%s %s: status %d, want 200: %s", c.Method, c.Path, r.Status, r.Raw)
			}
			want := tc.want
			if want == nil {
				want = e.Fx.User.ID
			}
			if diff := cmp.Diff(want, getTxPath(r.Body, tc.field)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.field, diff)
			}
		})
	}
}

// TestKnownFieldOfWrongType: leniency stops at the fields the fake knows.
func TestKnownFieldOfWrongType(t *testing.T) {
	t.Parallel()
	e := newSDKEnv(t)
	for _, c := range []testkit.Call{
		{Method: "PATCH", Path: testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers, Body: map[string]any{"nickname": 5, "color": "red"}},
		{Method: "PATCH", Path: e.subnetPath(e.card), Header: e.Fx.Headers, Body: map[string]any{"preferences": map[string]any{"daily_transaction_limit": "10"}}},
		{Method: "PATCH", Path: "/subscriptions/" + e.sub, Header: testkit.GatewayHeaders(e.Fake), Body: map[string]any{"is_active": "no"}},
		{Method: "PATCH", Path: "/users/" + e.Fx.User.ID, Header: e.Fx.Headers, Body: map[string]any{"update": map[string]any{"legal_name": 5}}},
		{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, e.tx), Header: e.Fx.Headers, Body: map[string]any{"comment": []any{}}},
	} {
		before := inspectNodes(t, e.Fake, []string{e.Fx.User.ID})
		wantErrorStatus(t, testkit.Do(t, e.Fake, c), 400, "200", "invalid_field_type")
		wantUnchanged(t, e.Fake, before)
	}
}

// TestOptionalBodies: where the body is optional, an empty one (whatever
// its Content-Type), null and {} are accepted; where it is required, an
// empty body is still malformed.
// resendMicro is PATCH of the ACH-US node with ?resend_micro=YES, whose
// body is optional.
func resendMicro(e sdkEnv) string {
	return testkit.NodePath(e.Fx.User.ID, e.Bank.ID) + "?resend_micro=YES"
}

func TestOptionalBodies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		method string
		path   func(e sdkEnv) string
		form   bool // Content-Type application/x-www-form-urlencoded
		body   string
		status int
	}{
		{"PATCH node, empty form", "PATCH", resendMicro, true, "", 200},
		{"PATCH node, empty JSON", "PATCH", resendMicro, false, "", 200},
		{"PATCH node, null", "PATCH", resendMicro, false, "null", 200},
		{"PATCH node, {}", "PATCH", resendMicro, false, "{}", 200},
		{"PATCH node, a list", "PATCH", func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) }, false, "[]", 400},
		{"PATCH node, a form field", "PATCH", func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) }, true, "nickname=x", 400},
		{"POST statements, empty form", "POST", func(e sdkEnv) string { return "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/statements" }, true, "", 200},
		{"GET node, {}", "GET", func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) }, false, "{}", 200},
		{"DELETE node, empty form", "DELETE", func(e sdkEnv) string { return testkit.NodePath(e.Fx.User.ID, e.Savings.ID) }, true, "", 200},
		{"DELETE transaction, {}", "DELETE", func(e sdkEnv) string { return testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, e.tx) }, false, "{}", 200},
		{"PATCH user, empty", "PATCH", func(e sdkEnv) string { return "/users/" + e.Fx.User.ID }, false, "", 400},
		{"PATCH comment, empty form", "PATCH", func(e sdkEnv) string { return testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, e.tx) }, true, "", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newSDKEnv(t)
			h := e.Fx.Headers
			if tc.form {
				h = formHeaders(h)
			}
			before := inspectNodes(t, e.Fake, []string{e.Fx.User.ID})
			r := testkit.Do(t, e.Fake, testkit.Call{Method: tc.method, Path: tc.path(e), Header: h, Body: tc.body})
			if tc.status != http.StatusOK {
				wantErrorStatus(t, r, tc.status, "200", "invalid_json")
				wantUnchanged(t, e.Fake, before)
				return
			}
			if r.Status != http.StatusOK {
				t.Errorf("status %d, want 200: %s", r.Status, r.Raw)
			}
		})
	}
}

// TestIdempotencyKeyAcrossReauthentication is SynapsePy's flow: the key of
// an idempotent create stays on the client, which re-authenticates (POST
// /oauth) with it; the create then goes through once.
func TestIdempotencyKeyAcrossReauthentication(t *testing.T) {
	t.Parallel()
	e := newSDKEnv(t)
	h := withKey(e.Fx.Headers, "py-key")
	oauth := testkit.Call{Method: "POST", Path: "/oauth/" + e.Fx.User.ID, Header: withKey(testkit.UserHeaders(e.Fake, ""), "py-key"),
		Body: map[string]any{"refresh_token": e.Fx.User.RefreshToken}}
	create := testkit.Call{Method: "POST", Path: testkit.NodesPath(e.Fx.User.ID), Header: h,
		Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "My Checking"}}}
	for _, step := range []struct {
		name   string
		c      testkit.Call
		status int
	}{
		{"the re-authentication", oauth, 200},
		{"the create, with the key the re-authentication used", create, 200},
		{"the create again", create, 409},
		{"the create under another user", testkit.Call{Method: "POST", Path: testkit.NodesPath(e.Payee.User.ID), Header: withKey(e.Payee.Headers, "py-key"), Body: create.Body}, 200},
		{"a second re-authentication", oauth, 409},
	} {
		before := inspectNodes(t, e.Fake, []string{e.Fx.User.ID, e.Payee.User.ID})
		r := testkit.Do(t, e.Fake, step.c)
		if step.status == 409 {
			wantErrorStatus(t, r, 409, "450", "idempotency_key_in_use")
			wantUnchanged(t, e.Fake, before)
			continue
		}
		if r.Status != step.status {
			t.Errorf("%s: status %d, want %d: %s", step.name, r.Status, step.status, r.Raw)
		}
	}
	nodes := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: testkit.NodesPath(e.Fx.User.ID), Header: e.Fx.Headers})
	if nodes.Body["node_count"] != 4.0 {
		t.Errorf("node_count %v, want 4 (three seeded, one created)", nodes.Body["node_count"])
	}
}

// TestIdempotencyKeyOnTwoRoutesExpires: a key taken on two routes is two
// keys, each free again after 24 hours.
func TestIdempotencyKeyOnTwoRoutesExpires(t *testing.T) {
	t.Parallel()
	e := newSDKEnv(t)
	bodyTx := testkit.TxBody(e.Bank, 1)
	funded := testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Nickname: "Funded", BalanceCents: 10_00})
	calls := []testkit.Call{
		{Method: "POST", Path: testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID), Header: withKey(e.Fx.Headers, "k"), Body: bodyTx},
		{Method: "POST", Path: testkit.TransPath(e.Fx.User.ID, funded.ID), Header: withKey(e.Fx.Headers, "k"), Body: bodyTx},
	}
	for _, c := range calls {
		if r := testkit.Do(t, e.Fake, c); r.Status != 200 {
			t.Fatalf("first use on %s: %d %s", c.Path, r.Status, r.Raw)
		}
	}
	for _, c := range calls {
		wantErrorStatus(t, testkit.Do(t, e.Fake, c), 409, "450", "idempotency_key_in_use")
	}
	e.Fake.Advance(24*time.Hour + time.Millisecond)
	for _, c := range calls {
		if r := testkit.Do(t, e.Fake, c); r.Status != 200 {
			t.Errorf("after 24 h on %s: %d %s", c.Path, r.Status, r.Raw)
		}
	}
}
