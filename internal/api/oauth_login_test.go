package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/testkit"
	"github.com/synapsefake/synapsefake/reference"
)

// loginUser makes a user over HTTP, from testkit.TestFingerprint, whose
// logins are logins, and answers its id.
func loginUser(t *testing.T, fake *synapsefake.Server, logins ...map[string]any) string {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(fake), Body: map[string]any{
		"logins": logins, "phone_numbers": []string{"901.111.1111"}, "legal_names": []string{"Login User"}}})
	if r.Status != http.StatusOK {
		t.Fatalf("POST /users: status %d: %s", r.Status, r.Raw)
	}
	if strings.Contains(string(r.Raw), "secret-pw") {
		t.Errorf("POST /users shows the password: %s", r.Raw)
	}
	return r.Body["_id"].(string)
}

// postLogin calls POST /oauth/{userID}/login from the device fingerprint.
func postLogin(t *testing.T, fake *synapsefake.Server, userID, fingerprint string, body any) testkit.Response {
	t.Helper()
	return testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/oauth/" + userID + "/login", Header: oauthHeaders(fake, fingerprint), Body: body})
}

// TestOAuthLogin: the docs' "Generate Refresh Token" route answers the
// user's current refresh token for one of its logins' email and password,
// in the docs' shape, and uses nothing up.
func TestOAuthLogin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		fingerprint string
		usesBefore  int // successful POST /oauth calls before the login
		email       string
		wantFP      bool
	}{
		{"the first login, from the device that made the user", testkit.TestFingerprint, 0, "ann@example.com", true},
		{"the second login, from a new device", "new-device", 0, "ann2@example.com", false},
		{"change_in counts the refresh token's uses left", testkit.TestFingerprint, 2, "ann@example.com", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			id := loginUser(t, fake,
				map[string]any{"email": "ann@example.com", "password": "secret-pw"},
				map[string]any{"email": "ann2@example.com", "password": "secret-pw2", "scope": "READ"})
			for range tc.usesBefore {
				u, _ := fake.User(id)
				if r := postOAuth(t, fake, id, testkit.TestFingerprint, map[string]any{"refresh_token": u.RefreshToken}); r.Status != 200 {
					t.Fatalf("POST /oauth: %d %s", r.Status, r.Raw)
				}
			}
			before, _ := fake.User(id)
			pw := map[string]string{"ann@example.com": "secret-pw", "ann2@example.com": "secret-pw2"}[tc.email]
			r := postLogin(t, fake, id, tc.fingerprint, map[string]any{"email": tc.email, "password": pw})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			recordID, _ := r.Body["_id"].(string)
			if !objectIDPattern.MatchString(recordID) || recordID == id {
				t.Errorf("_id %q: want 24 hex characters, not the user's id", recordID)
			}
			got := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + id, Header: testkit.GatewayHeaders(fake)})
			want := map[string]any{
				"_id":           recordID,
				"_v":            2.0,
				"change_in":     float64(10 - tc.usesBefore),
				"client_id":     fake.ClientID(),
				"client_name":   fake.ClientName(),
				"fp_registered": tc.wantFP,
				"is_active":     true,
				"refresh_token": got.Body["refresh_token"], // the current one, as GET /users/{id} shows it
				"scope":         anySlice(reference.Scopes()),
				"success":       true,
				"user_id":       id,
			}
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("login (-want +got):\n%s", diff)
			}
			// Nothing is used up or changed; the _id is the user's own.
			after, _ := fake.User(id)
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("the login changed the user (-before +after):\n%s", diff)
			}
			again := postLogin(t, fake, id, tc.fingerprint, map[string]any{"email": tc.email, "password": pw})
			if again.Body["_id"] != recordID || again.Body["refresh_token"] != r.Body["refresh_token"] {
				t.Errorf("a second login answered %v, %v; want the same _id and refresh_token", again.Body["_id"], again.Body["refresh_token"])
			}
			if strings.Contains(string(got.Raw), "secret-pw") {
				t.Errorf("GET /users/{id} shows a password: %s", got.Raw)
			}
		})
	}
}

// TestOAuthLoginFollowsUpdates: update.login's password opens the login
// route; remove_login closes it.
func TestOAuthLoginFollowsUpdates(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	id := loginUser(t, fake, map[string]any{"email": "ann@example.com"})
	key := fake.OAuthKey(id, testkit.TestFingerprint)
	patch := func(update map[string]any) {
		t.Helper()
		r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + id, Header: testkit.UserHeaders(fake, key), Body: map[string]any{"update": update}})
		if r.Status != 200 {
			t.Fatalf("PATCH %v: %d %s", update, r.Status, r.Raw)
		}
		if strings.Contains(string(r.Raw), "secret-pw") {
			t.Errorf("PATCH shows the password: %s", r.Raw)
		}
	}
	creds := map[string]any{"email": "new@example.com", "password": "secret-pw"}
	wantErrorStatus(t, postLogin(t, fake, id, testkit.TestFingerprint, creds), 409, "400", "invalid_username_password")
	patch(map[string]any{"login": creds})
	if r := postLogin(t, fake, id, testkit.TestFingerprint, creds); r.Status != 200 {
		t.Errorf("after update.login: %d %s", r.Status, r.Raw)
	}
	patch(map[string]any{"remove_login": map[string]any{"email": "new@example.com"}})
	wantErrorStatus(t, postLogin(t, fake, id, testkit.TestFingerprint, creds), 409, "400", "invalid_username_password")

	// update.login of a login on file gives it a password; a LOCKED user
	// gets no refresh token, as it gets no key from POST /oauth.
	ann := map[string]any{"email": "ann@example.com", "password": "secret-pw-2"}
	patch(map[string]any{"login": ann})
	if r := postLogin(t, fake, id, testkit.TestFingerprint, ann); r.Status != 200 {
		t.Errorf("after update.login of a login on file: %d %s", r.Status, r.Raw)
	}
	if err := fake.SetPermission(id, synapsefake.PermissionLocked); err != nil {
		t.Fatal(err)
	}
	wantErrorStatus(t, postLogin(t, fake, id, testkit.TestFingerprint, ann), 409, "410", "user_locked")
}

// TestOAuthLoginErrors: bad input gets the real error envelope and
// changes nothing.
func TestOAuthLoginErrors(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	id := loginUser(t, fake,
		map[string]any{"email": "ann@example.com", "password": "secret-pw"},
		map[string]any{"email": "nopw@example.com"})
	other := loginUser(t, fake, map[string]any{"email": "bob@example.com", "password": "bob-pw"})
	good := map[string]any{"email": "ann@example.com", "password": "secret-pw"}
	path := "/oauth/" + id + "/login"
	for _, tc := range []struct {
		name     string
		path     string
		header   map[string]string
		body     any
		status   int
		httpCode string
		errCode  string
		code     string
	}{
		{"wrong password", path, nil, map[string]any{"email": "ann@example.com", "password": "nope"}, 409, "409", "400", "invalid_username_password"},
		{"unknown email", path, nil, map[string]any{"email": "who@example.com", "password": "secret-pw"}, 409, "409", "400", "invalid_username_password"},
		{"a login without a password", path, nil, map[string]any{"email": "nopw@example.com", "password": "x"}, 409, "409", "400", "invalid_username_password"},
		{"another user's login", path, nil, map[string]any{"email": "bob@example.com", "password": "bob-pw"}, 409, "409", "400", "invalid_username_password"},
		{"email in another case", path, nil, map[string]any{"email": "ANN@example.com", "password": "secret-pw"}, 409, "409", "400", "invalid_username_password"},
		{"malformed JSON", path, nil, `{"email":`, 400, "400", "200", "invalid_json"},
		{"email a number", path, nil, map[string]any{"email": 5, "password": "secret-pw"}, 400, "400", "200", "invalid_field_type"},
		{"password a number", path, nil, map[string]any{"email": "ann@example.com", "password": 5}, 400, "400", "200", "invalid_field_type"},
		{"missing email", path, nil, map[string]any{"password": "secret-pw"}, 400, "400", "200", "missing_email"},
		{"missing password", path, nil, map[string]any{"email": "ann@example.com"}, 400, "400", "200", "missing_password"},
		{"empty body", path, nil, map[string]any{}, 400, "400", "200", "missing_email"},
		{"unknown user", "/oauth/0123456789abcdef01234567/login", nil, good, 404, "404", "404", "unable_to_locate_user"},
		{"wrong gateway", path, map[string]string{"X-SP-GATEWAY": "client_id_x|client_secret_y", "X-SP-USER": "|fp", "X-SP-USER-IP": "127.0.0.1"},
			good, 401, "401", "100", "invalid_client_credentials"},
		{"no gateway", path, map[string]string{"X-SP-USER": "|fp", "X-SP-USER-IP": "127.0.0.1"}, good, 400, "400", "100", "missing_client_credentials"},
		{"no X-SP-USER", path, map[string]string{"X-SP-GATEWAY": fake.Gateway(), "X-SP-USER-IP": "127.0.0.1"}, good, 400, "400", "200", "missing_user_credentials"},
		{"invalid fingerprint", path, map[string]string{"X-SP-GATEWAY": fake.Gateway(), "X-SP-USER": "|bad fingerprint!", "X-SP-USER-IP": "127.0.0.1"},
			good, 400, "401", "300", "invalid_fingerprint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			header := tc.header
			if header == nil {
				header = oauthHeaders(fake, testkit.TestFingerprint)
			}
			before := map[string]synapsefake.User{}
			for _, u := range []string{id, other} {
				before[u], _ = fake.User(u)
			}
			hooks := len(fake.Webhooks().All())
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: tc.path, Header: header, Body: tc.body})
			wantErrorHTTPCode(t, r, tc.status, tc.httpCode, tc.errCode, tc.code)
			for _, u := range []string{id, other} {
				after, _ := fake.User(u)
				if diff := cmp.Diff(before[u], after); diff != "" {
					t.Errorf("user %s changed (-before +after):\n%s", u, diff)
				}
			}
			if n := len(fake.Webhooks().All()); n != hooks {
				t.Errorf("%d webhooks after the refusal, want %d", n, hooks)
			}
			if strings.Contains(string(r.Raw), "secret-pw") || strings.Contains(string(r.Raw), "bob-pw") {
				t.Errorf("the refusal shows a password: %s", r.Raw)
			}
		})
	}
}
