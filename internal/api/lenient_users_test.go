package api_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"

	"github.com/synapsefake/synapsefake"
)

// ruleCase is a request that breaks a rule of the contract the sandbox did
// not enforce: the default server takes it, a server WithStrictRequests
// refuses it naming the rule.
type ruleCase struct {
	name string
	call func(t *testing.T, e strictEnv) testkit.Call
	// check reads the default server's answer, and its state after it.
	check     func(t *testing.T, e strictEnv, r testkit.Response)
	rule      string // the rule the strict server's test failure names
	errorCode string // of the strict refusal, always HTTP 400 or 409
	code      string
}

// runRuleCases runs each case on a default server and on a strict one.
func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lenient := newStrictEnv(t, t)
			c := tc.call(t, lenient)
			r := testkit.Do(t, lenient.fake, c)
			if r.Status != http.StatusOK {
				t.Fatalf("default server: %d, want 200: %s", r.Status, r.Raw)
			}
			tc.check(t, lenient, r)

			rec := &testkit.RecordingTB{TB: t}
			e := newStrictEnv(t, rec, synapsefake.WithStrictRequests())
			c = tc.call(t, e)
			testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users/" + e.fx.User.ID, Header: e.fx.Headers}) // the clock's work of this instant done
			before := stateDoc(t, e.fake)
			r = testkit.Do(t, e.fake, c)
			status := http.StatusBadRequest
			if tc.errorCode != "200" {
				status = http.StatusConflict
			}
			testkit.WantError(t, r, status, tc.errorCode, tc.code)
			if len(rec.Errors) != 1 || !strings.Contains(rec.Errors[0], tc.rule) {
				t.Errorf("the test's failures %q, want one naming %q", rec.Errors, tc.rule)
			}
			if after := stateDoc(t, e.fake); !bytes.Equal(before, after) {
				t.Errorf("the refused request changed the state")
			}
		})
	}
}

// userCall is a call on the env's own user, a minute after it was made:
// PATCH /users/{id} with body.
func userCall(body map[string]any) func(*testing.T, strictEnv) testkit.Call {
	return func(_ *testing.T, e strictEnv) testkit.Call {
		e.fake.Advance(time.Minute)
		return testkit.Call{Method: "PATCH", Path: "/users/" + e.fx.User.ID, Header: e.fx.Headers, Body: body}
	}
}

// wantLogins checks the emails of a user answer's logins.
func wantLogins(emails ...string) func(*testing.T, strictEnv, testkit.Response) {
	return func(t *testing.T, _ strictEnv, r testkit.Response) {
		var got []string
		logins, _ := r.Body["logins"].([]any)
		for _, l := range logins {
			got = append(got, testkit.CtlObj(l)["email"].(string))
		}
		if diff := cmp.Diff(emails, got); diff != "" {
			t.Errorf("logins' emails (-want +got):\n%s", diff)
		}
	}
}

// TestUserRulesLenientByDefault: the users' and KYC documents' rules of
// the contract that the sandbox did not enforce are taken by default and
// named by WithStrictRequests.
func TestUserRulesLenientByDefault(t *testing.T) {
	t.Parallel()
	runRuleCases(t, []ruleCase{
		{
			name: "POST /users: a login email without @",
			call: func(_ *testing.T, e strictEnv) testkit.Call {
				return testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(e.fake),
					Body: userBody(map[string]any{"logins": []any{map[string]any{"email": "email.com"}}})}
			},
			check: wantLogins("email.com"),
			rule:  "logins[].email is an email address", errorCode: "200", code: "invalid_email",
		},
		{
			name: "POST /users: the second login's email without @",
			call: func(_ *testing.T, e strictEnv) testkit.Call {
				return testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(e.fake),
					Body: userBody(map[string]any{"logins": []any{map[string]any{"email": "a@example.com"}, map[string]any{"email": "ann"}}})}
			},
			check: wantLogins("a@example.com", "ann"),
			rule:  "logins[].email is an email address", errorCode: "200", code: "invalid_email",
		},
		{
			name: "PATCH /users: update.login.email without @",
			call: userCall(map[string]any{"update": map[string]any{"login": map[string]any{"email": "email.com"}}}),
			check: func(t *testing.T, e strictEnv, r testkit.Response) {
				wantLogins(e.fx.User.Emails[0], "email.com")(t, e, r)
			},
			rule: "update.login.email is an email address", errorCode: "200", code: "invalid_email",
		},
		{
			name: "POST /users: extra.cip_tag below 1",
			call: func(_ *testing.T, e strictEnv) testkit.Call {
				return testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(e.fake),
					Body: userBody(map[string]any{"extra": map[string]any{"cip_tag": -2}})}
			},
			check: wantField("extra", "cip_tag", -2.0),
			rule:  "extra.cip_tag is a positive integer", errorCode: "200", code: "invalid_cip_tag",
		},
		{
			name:  "PATCH /users: update.cip_tag 0",
			call:  userCall(map[string]any{"update": map[string]any{"cip_tag": 0}}),
			check: wantField("extra", "cip_tag", 0.0),
			rule:  "update.cip_tag is a positive integer", errorCode: "200", code: "invalid_cip_tag",
		},
		{
			name:  "PATCH /users: an empty body object",
			call:  userCall(map[string]any{}),
			check: wantUnchangedUser,
			rule:  "a PATCH names something to change", errorCode: "200", code: "nothing_to_update",
		},
		{
			name:  "PATCH /users: refresh_token alone",
			call:  userCall(map[string]any{"refresh_token": "refresh_x"}),
			check: wantUnchangedUser,
			rule:  "a PATCH names something to change", errorCode: "200", code: "nothing_to_update",
		},
		{
			name:  "PATCH /users: an empty update and no documents",
			call:  userCall(map[string]any{"update": map[string]any{}, "documents": []any{}}),
			check: wantUnchangedUser,
			rule:  "a PATCH names something to change", errorCode: "200", code: "nothing_to_update",
		},
		{
			name:  "PATCH /users: update.remove_legal_name not on file",
			call:  userCall(map[string]any{"update": map[string]any{"remove_legal_name": "Nobody", "phone_number": "901.999.9999"}}),
			check: wantField("", "phone_numbers", []any{"901.111.1111", "901.999.9999"}),
			rule:  "update.remove_legal_name is a legal name on file", errorCode: "400", code: "unknown_legal_name",
		},
		{
			name: "PATCH /users/{id}/ubo: an owner's ownership above 100",
			call: func(t *testing.T, e strictEnv) testkit.Call {
				r := testkit.Do(t, e.fake, testkit.Call{Method: "PATCH", Path: "/users/" + e.fx.User.ID, Header: e.fx.Headers,
					Body: map[string]any{"documents": []any{map[string]any{"name": "Acme LLC", "entity_type": "LLC"}}}})
				if r.Status != http.StatusOK {
					t.Fatalf("file a base document: %d %s", r.Status, r.Raw)
				}
				return testkit.Call{Method: "PATCH", Path: "/users/" + e.fx.User.ID + "/ubo", Header: e.fx.Headers,
					Body: with(uboBody(), "owners", []any{map[string]any{"document_id": "d", "title": "CEO", "ownership": 150}})}
			},
			check: func(t *testing.T, _ strictEnv, r testkit.Response) {
				physical := r.Body["documents"].([]any)[0].(map[string]any)["physical_docs"].([]any)
				if len(physical) != 1 || physical[0].(map[string]any)["document_type"] != "REG_GG" {
					t.Errorf("physical documents %v, want the REG_GG form", physical)
				}
			},
			rule: "owners[].ownership is a percentage from 0 to 100", errorCode: "200", code: "invalid_ownership",
		},
	})
}

// wantField checks a field of the answer (under obj, "" for the top).
func wantField(obj, field string, want any) func(*testing.T, strictEnv, testkit.Response) {
	return func(t *testing.T, _ strictEnv, r testkit.Response) {
		m := r.Body
		if obj != "" {
			m = testkit.CtlObj(m[obj])
		}
		if diff := cmp.Diff(want, m[field]); diff != "" {
			t.Errorf("%s.%s (-want +got):\n%s", obj, field, diff)
		}
	}
}

// wantUnchangedUser checks that a PATCH answered the env's user as it is,
// as GET /users/{id} shows it, last_updated still its creation's.
func wantUnchangedUser(t *testing.T, e strictEnv, r testkit.Response) {
	if diff := cmp.Diff(getUserBody(t, e.fake, e.fx.User.ID), r.Body); diff != "" {
		t.Errorf("answer differs from the user (-GET +PATCH):\n%s", diff)
	}
	if x := testkit.CtlObj(r.Body["extra"]); x["last_updated"] != x["date_joined"] {
		t.Errorf("last_updated %v, want the creation's %v", x["last_updated"], x["date_joined"])
	}
}

// TestSeedEmailLenientByDefault: AddUser, and the control route and world
// files that go through it, take an Email without @ as POST /users does;
// WithStrictRequests refuses it and names the rule (a world file, tried on
// a scratch server first, is refused as invalid_world naming it).
func TestSeedEmailLenientByDefault(t *testing.T) {
	t.Parallel()
	const rule = "is an email address"
	for _, tc := range []struct {
		name     string
		failures int // of the strict server's test
		add      func(t *testing.T, fake *synapsefake.Server) (emails []string, err error)
	}{
		{"AddUser", 1, func(_ *testing.T, fake *synapsefake.Server) ([]string, error) {
			u, err := fake.AddUser(synapsefake.UserSeed{Email: "sam.example.com"})
			return u.Emails, err
		}},
		{"POST /_fake/users", 1, func(t *testing.T, fake *synapsefake.Server) ([]string, error) {
			r := testkit.Ctl(t, fake, "POST", "/users", map[string]any{"email": "sam.example.com"})
			if r.Status != http.StatusOK {
				return nil, &ctlError{r}
			}
			var emails []string
			for _, e := range testkit.CtlObj(r.Body["user"])["emails"].([]any) {
				emails = append(emails, e.(string))
			}
			return emails, nil
		}},
		{"LoadWorld", 0, func(_ *testing.T, fake *synapsefake.Server) ([]string, error) {
			w, err := fake.LoadWorld(strings.NewReader(`{"users": [{"name": "sam", "email": "sam.example.com"}]}`))
			if err != nil {
				return nil, err
			}
			u, _ := fake.User(w.Users["sam"])
			return u.Emails, nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emails, err := tc.add(t, synapsefake.NewServer(t))
			if err != nil || len(emails) != 1 || emails[0] != "sam.example.com" {
				t.Errorf("default server: emails %q, error %v; want [sam.example.com]", emails, err)
			}

			rec := &testkit.RecordingTB{TB: t}
			strict := synapsefake.NewServer(rec, synapsefake.WithStrictRequests())
			if _, err := tc.add(t, strict); err == nil || !strings.Contains(err.Error(), "must be an email address") {
				t.Errorf("strict server: error %v, want the refusal naming the rule", err)
			}
			if n := usersSnapshot(t, strict)["users_count"]; n != 0.0 {
				t.Errorf("strict server holds %v users after the refusal, want none", n)
			}
			if len(rec.Errors) != tc.failures || tc.failures > 0 && !strings.Contains(rec.Errors[0], rule) {
				t.Errorf("the test's failures %q, want %d naming %q", rec.Errors, tc.failures, rule)
			}
		})
	}
}

// ctlError is a control API refusal as an error.
type ctlError struct{ r testkit.Response }

func (e *ctlError) Error() string { return string(e.r.Raw) }

// subnetCall seeds a subnet on the env's checking node and calls path
// below it (e.g. "" or "/push") with body.
func subnetCall(method string, seed synapsefake.SubnetSeed, suffix string, body any) func(*testing.T, strictEnv) testkit.Call {
	return func(t *testing.T, e strictEnv) testkit.Call {
		sn := e.fake.MustAddSubnet(t, e.fx.User.ID, e.fx.Node.ID, seed)
		return testkit.Call{Method: method, Path: e.nodePath("/subnets/" + sn.ID + suffix), Header: e.fx.Headers, Body: body}
	}
}

var (
	cardSeed    = synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD"}
	activeCard  = synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive}
	accountSeed = synapsefake.SubnetSeed{Nickname: "Account"}
)

// wantSubnetFields checks fields of a subnet answer.
func wantSubnetFields(want map[string]any) func(*testing.T, strictEnv, testkit.Response) {
	return func(t *testing.T, _ strictEnv, r testkit.Response) {
		got := map[string]any{}
		for k := range want {
			got[k] = r.Body[k]
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("subnet fields (-want +got):\n%s\n%s", diff, r.Raw)
		}
	}
}

// wantUnchangedSubnet checks that a PATCH answered the subnet as GET shows
// it, updated_on still its creation's.
func wantUnchangedSubnet(t *testing.T, e strictEnv, r testkit.Response) {
	id, _ := r.Body["_id"].(string)
	get := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: e.nodePath("/subnets/" + id), Header: e.fx.Headers})
	if diff := cmp.Diff(get.Body, r.Body); diff != "" {
		t.Errorf("answer differs from the subnet (-GET +PATCH):\n%s", diff)
	}
	if r.Body["updated_on"] != r.Body["created_on"] {
		t.Errorf("updated_on %v, want the creation's %v", r.Body["updated_on"], r.Body["created_on"])
	}
}

// TestSubnetRulesLenientByDefault: the subnets' rules of the contract (and
// the fake's) that the sandbox did not enforce are taken by default and
// named by WithStrictRequests.
func TestSubnetRulesLenientByDefault(t *testing.T) {
	t.Parallel()
	patch := func(seed synapsefake.SubnetSeed, body string) func(*testing.T, strictEnv) testkit.Call {
		return func(t *testing.T, e strictEnv) testkit.Call {
			c := subnetCall("PATCH", seed, "", body)(t, e)
			e.fake.Advance(time.Minute)
			return c
		}
	}
	push := func(changes map[string]any) func(*testing.T, strictEnv) testkit.Call {
		b := applePush()
		for k, v := range changes {
			b[k] = v
		}
		return subnetCall("POST", activeCard, "/push", b)
	}
	pushed := func(t *testing.T, _ strictEnv, r testkit.Response) {
		if a := testkit.CtlObj(testkit.CtlObj(r.Body["data"])["authentication"]); a["activation_data"] == nil || r.Body["success"] != true {
			t.Errorf("answer %s, want the provisioning data", r.Raw)
		}
	}
	runRuleCases(t, []ruleCase{
		{
			name: "GET: full_dehydrate neither YES nor NO reads NO",
			call: subnetCall("GET", cardSeed, "?full_dehydrate=MAYBE", nil),
			check: func(t *testing.T, _ strictEnv, r testkit.Response) {
				if n, _ := r.Body["card_number"].(string); len(n) != 4 || r.Body["cvc"] != "***" {
					t.Errorf("card_number %v, cvc %v: want them masked", r.Body["card_number"], r.Body["cvc"])
				}
			},
			rule: "full_dehydrate is YES or NO", errorCode: "200", code: "invalid_full_dehydrate",
		},
		{
			name: "POST: a nickname of spaces",
			call: func(_ *testing.T, e strictEnv) testkit.Call {
				return testkit.Call{Method: "POST", Path: e.nodePath("/subnets"), Header: e.fx.Headers, Body: map[string]any{"nickname": "  "}}
			},
			check: wantSubnetFields(map[string]any{"nickname": "  ", "status": "ACTIVE"}),
			rule:  "nickname is not blank", errorCode: "200", code: "invalid_nickname",
		},
		{
			name: "PATCH: an empty object", call: patch(cardSeed, `{}`), check: wantUnchangedSubnet,
			rule: "a PATCH names something to change", errorCode: "200", code: "nothing_to_update",
		},
		{
			name: "PATCH: only nulls", call: patch(cardSeed, `{"status":null,"pin":null}`), check: wantUnchangedSubnet,
			rule: "a PATCH names something to change", errorCode: "200", code: "nothing_to_update",
		},
		{
			name: "PATCH: pin and card_pin differ, pin wins", call: patch(cardSeed, `{"pin":"a","card_pin":"b"}`),
			check: func(t *testing.T, e strictEnv, r testkit.Response) {
				if sn, _ := e.fake.Subnet(r.Body["_id"].(string)); sn.Pin != "a" {
					t.Errorf("pin %q, want a", sn.Pin)
				}
			},
			rule: "pin and card_pin agree", errorCode: "200", code: "conflicting_pin",
		},
		{
			name: "PATCH: status and allowed differ, status wins", call: patch(accountSeed, `{"allowed":"CREDIT","status":"INACTIVE"}`),
			check: wantSubnetFields(map[string]any{"status": "INACTIVE", "allowed": "LOCKED"}),
			rule:  "status and allowed agree", errorCode: "200", code: "conflicting_status",
		},
		{
			name: "PATCH: a nickname of spaces", call: patch(cardSeed, `{"nickname":" "}`),
			check: wantSubnetFields(map[string]any{"nickname": " "}),
			rule:  "nickname is not blank", errorCode: "200", code: "invalid_nickname",
		},
		{
			name: "PATCH: a status_code beyond the four", call: patch(cardSeed, `{"status_code":"STOLEN"}`),
			check: wantSubnetFields(map[string]any{"status_code": "STOLEN"}),
			rule:  "status_code is one of", errorCode: "200", code: "invalid_status_code",
		},
		{
			name: "PATCH: a negative limit", call: patch(cardSeed, `{"preferences":{"daily_cash_limit":-1}}`),
			check: func(t *testing.T, _ strictEnv, r testkit.Response) {
				if got := testkit.CtlObj(r.Body["preferences"])["daily_cash_limit"]; got != -100.0 {
					t.Errorf("daily_cash_limit %v, want -100", got)
				}
			},
			rule: "limits are USD from 0, in whole cents", errorCode: "200", code: "invalid_limit",
		},
		{
			name: "PATCH: a sub-cent limit, rounded to the cent", call: patch(cardSeed, `{"status":"ACTIVE","preferences":{"daily_transaction_limit":12.346}}`),
			check: func(t *testing.T, _ strictEnv, r testkit.Response) {
				if got := testkit.CtlObj(r.Body["preferences"])["daily_transaction_limit"]; got != 1235.0 || r.Body["status"] != "ACTIVE" {
					t.Errorf("daily_transaction_limit %v, status %v: want 1235, ACTIVE", got, r.Body["status"])
				}
			},
			rule: "limits are USD from 0, in whole cents", errorCode: "200", code: "invalid_limit",
		},
		{
			name: "PATCH: preferences on an account number, ignored", call: patch(accountSeed, `{"status":"INACTIVE","preferences":{"allow_foreign_transactions":true}}`),
			check: func(t *testing.T, _ strictEnv, r testkit.Response) {
				if _, ok := r.Body["preferences"]; ok || r.Body["status"] != "INACTIVE" {
					t.Errorf("answer %s: want INACTIVE without preferences", r.Raw)
				}
			},
			rule: "preferences apply to cards", errorCode: "410", code: "not_a_card",
		},
		{
			name: "push: a nonce not base64", call: push(map[string]any{"nonce": "not base64!"}), check: pushed,
			rule: "nonce is base64", errorCode: "200", code: "invalid_nonce",
		},
		{
			name: "push: a nonce_signature not base64", call: push(map[string]any{"nonce_signature": "QNyNZuyDO...EFg/Q"}), check: pushed,
			rule: "nonce_signature is base64", errorCode: "200", code: "invalid_nonce_signature",
		},
		{
			name: "push: one certificate", call: push(map[string]any{"certificates": []any{"MIICzD....OPQ7"}}), check: pushed,
			rule: "certificates are 2 strings", errorCode: "200", code: "invalid_certificates",
		},
		{
			name: "push: an empty certificate", call: push(map[string]any{"certificates": []any{"a", ""}}), check: pushed,
			rule: "certificates are 2 strings", errorCode: "200", code: "invalid_certificates",
		},
	})
}
