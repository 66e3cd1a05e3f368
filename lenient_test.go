package synapsefake_test

import (
	"maps"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// sdkEnv is a txEnv with the objects the SDKs' documented calls name: a
// card subnet, an account-number subnet, a subscription and a transaction.
type sdkEnv struct {
	txEnv
	card, acct, sub, tx string
}

func newSDKEnv(t *testing.T, opts ...synapsefake.Option) sdkEnv {
	t.Helper()
	e := sdkEnv{txEnv: newTxEnv(t, 100_00, opts...)}
	subnets := "/users/" + e.fx.user.ID + "/nodes/" + e.fx.node.ID + "/subnets"
	for _, s := range []struct {
		id   *string
		body map[string]any
	}{
		{&e.card, map[string]any{"nickname": "Card", "account_class": "CARD"}},
		{&e.acct, map[string]any{"nickname": "Account"}},
	} {
		r := do(t, e.fake, call{method: "POST", path: subnets, header: e.fx.headers, body: s.body})
		if r.status != http.StatusOK {
			t.Fatalf("create subnet: %d %s", r.status, r.raw)
		}
		*s.id = r.body["_id"].(string)
	}
	r := do(t, e.fake, call{method: "POST", path: "/subscriptions", header: gatewayHeaders(e.fake),
		body: map[string]any{"scope": []string{"USERS|POST"}, "url": "https://example.com/hooks"}})
	if r.status != http.StatusOK {
		t.Fatalf("create subscription: %d %s", r.status, r.raw)
	}
	e.sub = r.body["_id"].(string)
	e.tx = e.create(t, e.bank, 1)
	return e
}

func (e sdkEnv) subnetPath(id string) string {
	return "/users/" + e.fx.user.ID + "/nodes/" + e.fx.node.ID + "/subnets/" + id
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
		call func(e sdkEnv) call
	}{
		{"py create_user", func(e sdkEnv) call {
			return call{method: "POST", path: "/users", header: gatewayHeaders(e.fake), body: map[string]any{
				"logins": []any{map[string]any{"email": "test@synapsefi.com"}}, "phone_numbers": []any{"901.111.1111", "test@synapsefi.com"},
				"legal_names": []any{"Test User"}}}
		}},
		{"py oauth, go Authenticate", func(e sdkEnv) call {
			return call{method: "POST", path: "/oauth/" + e.fx.user.ID, header: userHeaders(e.fake, ""),
				body: map[string]any{"refresh_token": e.fx.user.RefreshToken, "scope": []any{"USER|PATCH", "USER|GET"}}}
		}},
		{"py update_info, go Update", func(e sdkEnv) call {
			u := e.fake.MustAddUser(t, synapsefake.UserSeed{Email: "test@synapsefi.com", PhoneNumbers: []string{"901.111.1111"}, Fingerprint: testFingerprint})
			h := userHeaders(e.fake, e.fake.OAuthKey(u.ID, testFingerprint))
			return call{method: "PATCH", path: "/users/" + u.ID, header: h, body: map[string]any{"update": map[string]any{
				"login": map[string]any{"email": "test2@synapsefi.com"}, "remove_login": map[string]any{"email": "test@synapsefi.com"},
				"phone_number": "901-111-2222", "remove_phone_number": "901.111.1111"}}}
		}},
		{"py create_subscription", func(e sdkEnv) call {
			return call{method: "POST", path: "/subscriptions", header: gatewayHeaders(e.fake),
				body: map[string]any{"scope": scopes, "url": "https://requestb.in/zp216zzp"}}
		}},
		{"go CreateSubscription with an idempotency key", func(e sdkEnv) call {
			return call{method: "POST", path: "/subscriptions", header: withKey(gatewayHeaders(e.fake), "123456789"),
				body: map[string]any{"scope": scopes, "url": "https://requestb.in/zp216zzp"}}
		}},
		{"py update_subscription", func(e sdkEnv) call {
			return call{method: "PATCH", path: "/subscriptions/" + e.sub, header: gatewayHeaders(e.fake),
				body: map[string]any{"url": "https://requestb.in/zp216zzp", "scope": scopes[:3]}}
		}},
		{"go UpdateSubscription", func(e sdkEnv) call {
			return call{method: "PATCH", path: "/subscriptions/" + e.sub, header: gatewayHeaders(e.fake), body: map[string]any{"scope": scopes[:3]}}
		}},
		{"py create_node, go CreateNode", func(e sdkEnv) call {
			return call{method: "POST", path: nodesPath(e.fx.user.ID), header: withKey(e.fx.headers, "123456"),
				body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "My Checking"}}}
		}},
		{"py update_node, go UpdateNode", func(e sdkEnv) call {
			return call{method: "PATCH", path: nodePath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers, body: map[string]any{"supp_id": "new_supp_id_1234"}}
		}},
		{"py reinit_micro: {} and resend_micro=YES", func(e sdkEnv) call {
			return call{method: "PATCH", path: nodePath(e.fx.user.ID, e.bank.ID) + "?resend_micro=YES", header: e.fx.headers, body: map[string]any{}}
		}},
		{"go ReinitiateMicroDeposits", func(e sdkEnv) call {
			return call{method: "PATCH", path: nodePath(e.fx.user.ID, e.bank.ID) + "?resend_micro=YES", header: e.fx.headers, body: `{"resend_micro":"YES"}`}
		}},
		{"an empty form-encoded PATCH, as go ResetCardNode sends", func(e sdkEnv) call {
			card := e.fake.MustAddNode(t, e.fx.user.ID, synapsefake.NodeSeed{Type: "CARD-US", Nickname: "Card"})
			return call{method: "PATCH", path: nodePath(e.fx.user.ID, card.ID) + "?reset=YES", header: formHeaders(e.fx.headers), body: ""}
		}},
		{"py delete_node, go DeleteNode", func(e sdkEnv) call {
			return call{method: "DELETE", path: nodePath(e.fx.user.ID, e.savings.ID), header: e.fx.headers}
		}},
		{"go CreateNodeStatements", func(e sdkEnv) call {
			return call{method: "POST", path: "/users/" + e.fx.user.ID + "/nodes/" + e.fx.node.ID + "/statements", header: e.fx.headers,
				body: map[string]any{"date_start": 1525132800000, "date_end": 1525132800000, "webhook": "https://wh.synapsefi.com/gen_me_statement_001"}}
		}},
		{"py create_subnet, go CreateSubnet", func(e sdkEnv) call {
			return call{method: "POST", path: "/users/" + e.fx.user.ID + "/nodes/" + e.fx.node.ID + "/subnets", header: e.fx.headers,
				body: map[string]any{"nickname": "Test AC/RT"}}
		}},
		{"py update_subnet", func(e sdkEnv) call {
			return call{method: "PATCH", path: e.subnetPath(e.card), header: e.fx.headers,
				body: map[string]any{"status": "ACTIVE", "card_pin": "1234", "preferences": cardPrefs}}
		}},
		{"go UpdateSubnet", func(e sdkEnv) call {
			return call{method: "PATCH", path: e.subnetPath(e.card), header: e.fx.headers, body: map[string]any{"preferences": cardPrefs}}
		}},
		{"py create_trans, go CreateTransaction", func(e sdkEnv) call {
			return call{method: "POST", path: transPath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers, body: map[string]any{
				"to": map[string]any{"type": "ACH-US", "id": e.bank.ID}, "amount": map[string]any{"amount": 20.1, "currency": "USD"},
				"extra": map[string]any{"ip": "192.168.0.1"}}}
		}},
		{"py batch_trans", func(e sdkEnv) call {
			return call{method: "POST", path: e.batchPath(), header: e.fx.headers, body: map[string]any{"transactions": []any{
				map[string]any{"to": map[string]any{"type": "ACH-US", "id": e.bank.ID}, "amount": map[string]any{"amount": 34, "currency": "USD"},
					"extra": map[string]any{"ip": "127.0.0.1", "note": "Banking Fees", "idempotency_key": "testidp1"}}}}}
		}},
		{"py comment_trans, go CommentOnTransactionStatus", func(e sdkEnv) call {
			return call{method: "PATCH", path: tranPath(e.fx.user.ID, e.fx.node.ID, e.tx), header: e.fx.headers,
				body: map[string]any{"comment": "Pending verification..."}}
		}},
		{"py cancel_trans, go CancelTransaction", func(e sdkEnv) call {
			return call{method: "DELETE", path: tranPath(e.fx.user.ID, e.fx.node.ID, e.tx), header: e.fx.headers}
		}},
		{"go VerifyAddress", func(e sdkEnv) call {
			return call{method: "POST", path: "/address-verification", header: gatewayHeaders(e.fake), body: map[string]any{
				"address_street": "170 St Germain St", "address_city": "SF", "address_subdivision": "CA",
				"address_country_code": "US", "address_postal_code": "94404"}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newSDKEnv(t)
			c := tc.call(e)
			if r := do(t, e.fake, c); r.status != http.StatusOK {
				t.Errorf("%s %s: status %d, want 200: %s", c.method, c.path, r.status, r.raw)
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
		call func(e sdkEnv) call
		// field is a path into the answer and want its value after the call.
		field string
		want  any
	}{
		{"PATCH user", func(e sdkEnv) call {
			return call{method: "PATCH", path: "/users/" + e.fx.user.ID, header: e.fx.headers,
				body: map[string]any{"update": map[string]any{"legal_name": "Sam New", "email": "x@example.com"}, "nickname": "x"}}
		}, "legal_names", []any{"Sam Sender", "Sam New"}},
		{"PATCH node", func(e sdkEnv) call {
			return call{method: "PATCH", path: nodePath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers,
				body: map[string]any{"nickname": "New", "color": "red", "type": "ACH-US", "info": map[string]any{"bank_code": "x"}}}
		}, "type", "DEPOSIT-US"},
		{"PATCH node keeps the known field", func(e sdkEnv) call {
			return call{method: "PATCH", path: nodePath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers,
				body: map[string]any{"nickname": "New", "color": "red"}}
		}, "info.nickname", "New"},
		{"PATCH card subnet", func(e sdkEnv) call {
			return call{method: "PATCH", path: e.subnetPath(e.card), header: e.fx.headers,
				body: map[string]any{"status": "INACTIVE", "colour": "red", "preferences": map[string]any{"max_pin_attempts": 3, "allow_ecommerce_transactions": true}}}
		}, "status", "INACTIVE"},
		{"PATCH subscription", func(e sdkEnv) call {
			return call{method: "PATCH", path: "/subscriptions/" + e.sub, header: gatewayHeaders(e.fake),
				body: map[string]any{"is_active": false, "active": true, "client_id": "x"}}
		}, "is_active", false},
		{"PATCH transaction comment", func(e sdkEnv) call {
			return call{method: "PATCH", path: tranPath(e.fx.user.ID, e.fx.node.ID, e.tx), header: e.fx.headers,
				body: map[string]any{"comment": "x", "status": "SETTLED"}}
		}, "recent_status.status", "CREATED"},
		{"POST subnet", func(e sdkEnv) call {
			return call{method: "POST", path: "/users/" + e.fx.user.ID + "/nodes/" + e.fx.node.ID + "/subnets", header: e.fx.headers,
				body: map[string]any{"nickname": "Card 2", "account_class": "CARD", "card_type": "PHYSICAL", "max_pin_attempts": 3}}
		}, "account_class", "CARD"},
		{"POST transaction", func(e sdkEnv) call {
			b := txBody(e.bank, 2)
			b["expedite"] = true
			putPath(b, "extra.unknown", "x")
			return call{method: "POST", path: transPath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers, body: b}
		}, "amount.amount", 2.0},
		{"POST oauth", func(e sdkEnv) call {
			return call{method: "POST", path: "/oauth/" + e.fx.user.ID, header: userHeaders(e.fake, ""),
				body: map[string]any{"refresh_token": e.fx.user.RefreshToken, "device": "x"}}
		}, "user_id", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newSDKEnv(t)
			c := tc.call(e)
			r := do(t, e.fake, c)
			if r.status != http.StatusOK {
				t.Fatalf("%s %s: status %d, want 200: %s", c.method, c.path, r.status, r.raw)
			}
			want := tc.want
			if want == nil {
				want = e.fx.user.ID
			}
			if diff := cmp.Diff(want, getTxPath(r.body, tc.field)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.field, diff)
			}
		})
	}
}

// TestKnownFieldOfWrongType: leniency stops at the fields the fake knows.
func TestKnownFieldOfWrongType(t *testing.T) {
	t.Parallel()
	e := newSDKEnv(t)
	for _, c := range []call{
		{method: "PATCH", path: nodePath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers, body: map[string]any{"nickname": 5, "color": "red"}},
		{method: "PATCH", path: e.subnetPath(e.card), header: e.fx.headers, body: map[string]any{"preferences": map[string]any{"daily_transaction_limit": "10"}}},
		{method: "PATCH", path: "/subscriptions/" + e.sub, header: gatewayHeaders(e.fake), body: map[string]any{"is_active": "no"}},
		{method: "PATCH", path: "/users/" + e.fx.user.ID, header: e.fx.headers, body: map[string]any{"update": map[string]any{"legal_name": 5}}},
		{method: "PATCH", path: tranPath(e.fx.user.ID, e.fx.node.ID, e.tx), header: e.fx.headers, body: map[string]any{"comment": []any{}}},
	} {
		before := inspectNodes(t, e.fake, []string{e.fx.user.ID})
		wantErrorStatus(t, do(t, e.fake, c), 400, "200", "invalid_field_type")
		wantUnchanged(t, e.fake, before)
	}
}

// TestOptionalBodies: where the body is optional, an empty one (whatever
// its Content-Type), null and {} are accepted; where it is required, an
// empty body is still malformed.
// resendMicro is PATCH of the ACH-US node with ?resend_micro=YES, whose
// body is optional.
func resendMicro(e sdkEnv) string { return nodePath(e.fx.user.ID, e.bank.ID) + "?resend_micro=YES" }

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
		{"PATCH node, a list", "PATCH", func(e sdkEnv) string { return nodePath(e.fx.user.ID, e.fx.node.ID) }, false, "[]", 400},
		{"PATCH node, a form field", "PATCH", func(e sdkEnv) string { return nodePath(e.fx.user.ID, e.fx.node.ID) }, true, "nickname=x", 400},
		{"POST statements, empty form", "POST", func(e sdkEnv) string { return "/users/" + e.fx.user.ID + "/nodes/" + e.fx.node.ID + "/statements" }, true, "", 200},
		{"GET node, {}", "GET", func(e sdkEnv) string { return nodePath(e.fx.user.ID, e.fx.node.ID) }, false, "{}", 200},
		{"DELETE node, empty form", "DELETE", func(e sdkEnv) string { return nodePath(e.fx.user.ID, e.savings.ID) }, true, "", 200},
		{"DELETE transaction, {}", "DELETE", func(e sdkEnv) string { return tranPath(e.fx.user.ID, e.fx.node.ID, e.tx) }, false, "{}", 200},
		{"PATCH user, empty", "PATCH", func(e sdkEnv) string { return "/users/" + e.fx.user.ID }, false, "", 400},
		{"PATCH comment, empty form", "PATCH", func(e sdkEnv) string { return tranPath(e.fx.user.ID, e.fx.node.ID, e.tx) }, true, "", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newSDKEnv(t)
			h := e.fx.headers
			if tc.form {
				h = formHeaders(h)
			}
			before := inspectNodes(t, e.fake, []string{e.fx.user.ID})
			r := do(t, e.fake, call{method: tc.method, path: tc.path(e), header: h, body: tc.body})
			if tc.status != http.StatusOK {
				wantErrorStatus(t, r, tc.status, "200", "invalid_json")
				wantUnchanged(t, e.fake, before)
				return
			}
			if r.status != http.StatusOK {
				t.Errorf("status %d, want 200: %s", r.status, r.raw)
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
	h := withKey(e.fx.headers, "py-key")
	oauth := call{method: "POST", path: "/oauth/" + e.fx.user.ID, header: withKey(userHeaders(e.fake, ""), "py-key"),
		body: map[string]any{"refresh_token": e.fx.user.RefreshToken}}
	create := call{method: "POST", path: nodesPath(e.fx.user.ID), header: h,
		body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "My Checking"}}}
	for _, step := range []struct {
		name   string
		c      call
		status int
	}{
		{"the re-authentication", oauth, 200},
		{"the create, with the key the re-authentication used", create, 200},
		{"the create again", create, 409},
		{"the create under another user", call{method: "POST", path: nodesPath(e.payee.user.ID), header: withKey(e.payee.headers, "py-key"), body: create.body}, 200},
		{"a second re-authentication", oauth, 409},
	} {
		before := inspectNodes(t, e.fake, []string{e.fx.user.ID, e.payee.user.ID})
		r := do(t, e.fake, step.c)
		if step.status == 409 {
			wantErrorStatus(t, r, 409, "450", "idempotency_key_in_use")
			wantUnchanged(t, e.fake, before)
			continue
		}
		if r.status != step.status {
			t.Errorf("%s: status %d, want %d: %s", step.name, r.status, step.status, r.raw)
		}
	}
	nodes := do(t, e.fake, call{method: "GET", path: nodesPath(e.fx.user.ID), header: e.fx.headers})
	if nodes.body["node_count"] != 4.0 {
		t.Errorf("node_count %v, want 4 (three seeded, one created)", nodes.body["node_count"])
	}
}

// TestIdempotencyKeyOnTwoRoutesExpires: a key taken on two routes is two
// keys, each free again after 24 hours.
func TestIdempotencyKeyOnTwoRoutesExpires(t *testing.T) {
	t.Parallel()
	e := newSDKEnv(t)
	bodyTx := txBody(e.bank, 1)
	funded := addTxNode(t, e.fake, e.fx.user.ID, synapsefake.NodeSeed{Nickname: "Funded", BalanceCents: 10_00})
	calls := []call{
		{method: "POST", path: transPath(e.fx.user.ID, e.fx.node.ID), header: withKey(e.fx.headers, "k"), body: bodyTx},
		{method: "POST", path: transPath(e.fx.user.ID, funded.ID), header: withKey(e.fx.headers, "k"), body: bodyTx},
	}
	for _, c := range calls {
		if r := do(t, e.fake, c); r.status != 200 {
			t.Fatalf("first use on %s: %d %s", c.path, r.status, r.raw)
		}
	}
	for _, c := range calls {
		wantErrorStatus(t, do(t, e.fake, c), 409, "450", "idempotency_key_in_use")
	}
	e.fake.Advance(24*time.Hour + time.Millisecond)
	for _, c := range calls {
		if r := do(t, e.fake, c); r.status != 200 {
			t.Errorf("after 24 h on %s: %d %s", c.path, r.status, r.raw)
		}
	}
}
