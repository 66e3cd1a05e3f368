package synapsefake_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synapsefake/synapsefake"
)

// ruleCase is a request that breaks a rule of the contract the sandbox did
// not enforce: the default server takes it, a server WithStrictRequests
// refuses it naming the rule.
type ruleCase struct {
	name string
	call func(t *testing.T, e strictEnv) call
	// check reads the default server's answer, and its state after it.
	check     func(t *testing.T, e strictEnv, r response)
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
			r := do(t, lenient.fake, c)
			if r.status != http.StatusOK {
				t.Fatalf("default server: %d, want 200: %s", r.status, r.raw)
			}
			tc.check(t, lenient, r)

			rec := &recordingTB{TB: t}
			e := newStrictEnv(t, rec, synapsefake.WithStrictRequests())
			c = tc.call(t, e)
			do(t, e.fake, call{method: "GET", path: "/users/" + e.fx.user.ID, header: e.fx.headers}) // the clock's work of this instant done
			before := stateDoc(t, e.fake)
			r = do(t, e.fake, c)
			status := http.StatusBadRequest
			if tc.errorCode != "200" {
				status = http.StatusConflict
			}
			wantError(t, r, status, tc.errorCode, tc.code)
			if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], tc.rule) {
				t.Errorf("the test's failures %q, want one naming %q", rec.errors, tc.rule)
			}
			if after := stateDoc(t, e.fake); !bytes.Equal(before, after) {
				t.Errorf("the refused request changed the state")
			}
		})
	}
}

// userCall is a call on the env's own user, a minute after it was made:
// PATCH /users/{id} with body.
func userCall(body map[string]any) func(*testing.T, strictEnv) call {
	return func(_ *testing.T, e strictEnv) call {
		e.fake.Advance(time.Minute)
		return call{method: "PATCH", path: "/users/" + e.fx.user.ID, header: e.fx.headers, body: body}
	}
}

// wantLogins checks the emails of a user answer's logins.
func wantLogins(emails ...string) func(*testing.T, strictEnv, response) {
	return func(t *testing.T, _ strictEnv, r response) {
		var got []string
		logins, _ := r.body["logins"].([]any)
		for _, l := range logins {
			got = append(got, ctlObj(l)["email"].(string))
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
			call: func(_ *testing.T, e strictEnv) call {
				return call{method: "POST", path: "/users", header: gatewayHeaders(e.fake),
					body: userBody(map[string]any{"logins": []any{map[string]any{"email": "email.com"}}})}
			},
			check: wantLogins("email.com"),
			rule:  "logins[].email is an email address", errorCode: "200", code: "invalid_email",
		},
		{
			name: "POST /users: the second login's email without @",
			call: func(_ *testing.T, e strictEnv) call {
				return call{method: "POST", path: "/users", header: gatewayHeaders(e.fake),
					body: userBody(map[string]any{"logins": []any{map[string]any{"email": "a@example.com"}, map[string]any{"email": "ann"}}})}
			},
			check: wantLogins("a@example.com", "ann"),
			rule:  "logins[].email is an email address", errorCode: "200", code: "invalid_email",
		},
		{
			name:  "PATCH /users: update.login.email without @",
			call:  userCall(map[string]any{"update": map[string]any{"login": map[string]any{"email": "email.com"}}}),
			check: func(t *testing.T, e strictEnv, r response) { wantLogins(e.fx.user.Emails[0], "email.com")(t, e, r) },
			rule:  "update.login.email is an email address", errorCode: "200", code: "invalid_email",
		},
		{
			name: "POST /users: extra.cip_tag below 1",
			call: func(_ *testing.T, e strictEnv) call {
				return call{method: "POST", path: "/users", header: gatewayHeaders(e.fake),
					body: userBody(map[string]any{"extra": map[string]any{"cip_tag": -2}})}
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
			call: func(t *testing.T, e strictEnv) call {
				r := do(t, e.fake, call{method: "PATCH", path: "/users/" + e.fx.user.ID, header: e.fx.headers,
					body: map[string]any{"documents": []any{map[string]any{"name": "Acme LLC", "entity_type": "LLC"}}}})
				if r.status != http.StatusOK {
					t.Fatalf("file a base document: %d %s", r.status, r.raw)
				}
				return call{method: "PATCH", path: "/users/" + e.fx.user.ID + "/ubo", header: e.fx.headers,
					body: with(uboBody(), "owners", []any{map[string]any{"document_id": "d", "title": "CEO", "ownership": 150}})}
			},
			check: func(t *testing.T, _ strictEnv, r response) {
				physical := r.body["documents"].([]any)[0].(map[string]any)["physical_docs"].([]any)
				if len(physical) != 1 || physical[0].(map[string]any)["document_type"] != "REG_GG" {
					t.Errorf("physical documents %v, want the REG_GG form", physical)
				}
			},
			rule: "owners[].ownership is a percentage from 0 to 100", errorCode: "200", code: "invalid_ownership",
		},
	})
}

// wantField checks a field of the answer (under obj, "" for the top).
func wantField(obj, field string, want any) func(*testing.T, strictEnv, response) {
	return func(t *testing.T, _ strictEnv, r response) {
		m := r.body
		if obj != "" {
			m = ctlObj(m[obj])
		}
		if diff := cmp.Diff(want, m[field]); diff != "" {
			t.Errorf("%s.%s (-want +got):\n%s", obj, field, diff)
		}
	}
}

// wantUnchangedUser checks that a PATCH answered the env's user as it is,
// as GET /users/{id} shows it, last_updated still its creation's.
func wantUnchangedUser(t *testing.T, e strictEnv, r response) {
	if diff := cmp.Diff(getUserBody(t, e.fake, e.fx.user.ID), r.body); diff != "" {
		t.Errorf("answer differs from the user (-GET +PATCH):\n%s", diff)
	}
	if x := ctlObj(r.body["extra"]); x["last_updated"] != x["date_joined"] {
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
			r := ctl(t, fake, "POST", "/users", map[string]any{"email": "sam.example.com"})
			if r.status != http.StatusOK {
				return nil, &ctlError{r}
			}
			var emails []string
			for _, e := range ctlObj(r.body["user"])["emails"].([]any) {
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

			rec := &recordingTB{TB: t}
			strict := synapsefake.NewServer(rec, synapsefake.WithStrictRequests())
			if _, err := tc.add(t, strict); err == nil || !strings.Contains(err.Error(), "must be an email address") {
				t.Errorf("strict server: error %v, want the refusal naming the rule", err)
			}
			if n := usersSnapshot(t, strict)["users_count"]; n != 0.0 {
				t.Errorf("strict server holds %v users after the refusal, want none", n)
			}
			if len(rec.errors) != tc.failures || tc.failures > 0 && !strings.Contains(rec.errors[0], rule) {
				t.Errorf("the test's failures %q, want %d naming %q", rec.errors, tc.failures, rule)
			}
		})
	}
}

// ctlError is a control API refusal as an error.
type ctlError struct{ r response }

func (e *ctlError) Error() string { return string(e.r.raw) }
