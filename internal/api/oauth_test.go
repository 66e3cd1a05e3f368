package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// oauthHeaders are the headers of POST /oauth/{user_id} from a device.
func oauthHeaders(fake *synapsefake.Server, fingerprint string) map[string]string {
	return map[string]string{
		"X-SP-GATEWAY": fake.Gateway(),
		"X-SP-USER":    "|" + fingerprint,
		"X-SP-USER-IP": "127.0.0.1",
	}
}

// postOAuth calls POST /oauth/{userID} from the device fingerprint.
func postOAuth(t testing.TB, fake *synapsefake.Server, userID, fingerprint string, body any) testkit.Response {
	t.Helper()
	return testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/oauth/" + userID, Header: oauthHeaders(fake, fingerprint), Body: body})
}

// wantOAuthKey checks that r is the 200 OAuth answer of the spec's FIDELITY.md for the
// user, issued now, with the given scopes, refresh token and uses left, and
// returns its oauth_key.
func wantOAuthKey(t testing.TB, fake *synapsefake.Server, r testkit.Response, userID, refreshToken string, usesLeft int, scopes []string) string {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
	}
	key, _ := r.Body["oauth_key"].(string)
	if !strings.HasPrefix(key, "oauth_") || len(key) <= len("oauth_") {
		t.Errorf("oauth_key %q lacks the oauth_ prefix", key)
	}
	want := map[string]any{
		"client_id":          fake.ClientID(),
		"client_name":        fake.ClientName(),
		"expires_at":         strconv.FormatInt(fake.Now().Add(7200*time.Second).Unix(), 10),
		"expires_in":         "7200",
		"oauth_key":          key,
		"refresh_expires_in": float64(usesLeft),
		"refresh_token":      refreshToken,
		"scope":              anySlice(scopes),
		"user_id":            userID,
		"success":            true,
	}
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("OAuth answer (-want +got):\n%s", diff)
	}
	return key
}

// oauthDefaultScopes is every user-level scope, the default grant.
var oauthDefaultScopes = reference.Scopes()

func TestOAuthKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		scope   any          // the body's scope; nil leaves it out
		want    []string     // granted scopes
		allowed testkit.Call // a call the key must open (path below /users/{id})
		refused testkit.Call // a call the key must not open, 401 / "300"
	}{
		{
			name:    "refresh token only grants every user scope",
			want:    oauthDefaultScopes,
			allowed: testkit.Call{Method: "POST", Path: "/nodes", Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "N"}}},
		},
		{
			name:    "null scope grants every user scope",
			scope:   []string(nil),
			want:    oauthDefaultScopes,
			allowed: testkit.Call{Method: "PATCH", Body: map[string]any{"permission": "LOCKED"}},
		},
		{
			name:    "every scope",
			scope:   oauthDefaultScopes,
			want:    oauthDefaultScopes,
			allowed: testkit.Call{Method: "GET", Path: "/nodes"},
		},
		{
			name:    "a subset is granted exactly",
			scope:   []string{reference.ScopeNodesGet, reference.ScopeUserGet},
			want:    []string{reference.ScopeNodesGet, reference.ScopeUserGet},
			allowed: testkit.Call{Method: "GET", Path: "/nodes"},
			refused: testkit.Call{Method: "POST", Path: "/nodes", Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "N"}}},
		},
		{
			name:    "USER|PATCH alone",
			scope:   []string{reference.ScopeUserPatch},
			want:    []string{reference.ScopeUserPatch},
			allowed: testkit.Call{Method: "PATCH", Body: map[string]any{"update": map[string]any{"public_note": "x"}}},
			refused: testkit.Call{Method: "GET", Path: "/nodes"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
			body := map[string]any{"refresh_token": u.RefreshToken}
			if tc.scope != nil {
				body["scope"] = tc.scope
			}
			r := postOAuth(t, fake, u.ID, testkit.TestFingerprint, body)
			key := wantOAuthKey(t, fake, r, u.ID, u.RefreshToken, 9, tc.want)

			after := mustUser(t, fake, u.ID)
			if after.RefreshToken != u.RefreshToken || after.RefreshUsesLeft != 9 {
				t.Errorf("after one use: token %q with %d uses, want %q with 9", after.RefreshToken, after.RefreshUsesLeft, u.RefreshToken)
			}

			c := tc.allowed
			c.Path, c.Header = "/users/"+u.ID+c.Path, testkit.UserHeaders(fake, key)
			if r := testkit.Do(t, fake, c); r.Status != http.StatusOK {
				t.Errorf("%s %s with the new key: status %d: %s", c.Method, c.Path, r.Status, r.Raw)
			}
			if tc.refused.Method != "" {
				c := tc.refused
				c.Path, c.Header = "/users/"+u.ID+c.Path, testkit.UserHeaders(fake, key)
				wantErrorHTTPCode(t, testkit.Do(t, fake, c), 401, "401", "300", "scope_not_granted")
			}
		})
	}
}

func TestOAuthKeyErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		path      string            // "" is the user's own /oauth path
		headers   map[string]string // changes to oauthHeaders; "" deletes
		body      func(refreshToken string) any
		status    int
		httpCode  string
		errorCode string
		code      string
	}{
		{
			name: "unknown scope",
			body: func(rt string) any {
				return map[string]any{"refresh_token": rt, "scope": []string{"USER|GET", "NODES|WRITE"}}
			},
			status: 400, httpCode: "400", errorCode: "200", code: "invalid_scope",
		},
		{
			name: "subscription-only scope",
			body: func(rt string) any {
				return map[string]any{"refresh_token": rt, "scope": []string{reference.ScopeUsersPost}}
			},
			status: 400, httpCode: "400", errorCode: "200", code: "invalid_scope",
		},
		{
			name:   "scope as a string",
			body:   func(rt string) any { return map[string]any{"refresh_token": rt, "scope": "USER|GET"} },
			status: 400, httpCode: "400", errorCode: "200", code: "invalid_field_type",
		},
		{
			name:   "scope of numbers",
			body:   func(rt string) any { return map[string]any{"refresh_token": rt, "scope": []any{1}} },
			status: 400, httpCode: "400", errorCode: "200", code: "invalid_field_type",
		},
		{
			name:   "missing refresh_token",
			body:   func(string) any { return map[string]any{"scope": []string{"USER|GET"}} },
			status: 400, httpCode: "400", errorCode: "200", code: "missing_refresh_token",
		},
		{
			name:   "empty body object",
			body:   func(string) any { return map[string]any{} },
			status: 400, httpCode: "400", errorCode: "200", code: "missing_refresh_token",
		},
		{
			name:   "empty refresh_token",
			body:   func(string) any { return map[string]any{"refresh_token": ""} },
			status: 400, httpCode: "400", errorCode: "200", code: "missing_refresh_token",
		},
		{
			name:   "refresh_token as a number",
			body:   func(string) any { return map[string]any{"refresh_token": 5} },
			status: 400, httpCode: "400", errorCode: "200", code: "invalid_field_type",
		},
		{
			name:   "validation_pin as a number",
			body:   func(rt string) any { return map[string]any{"refresh_token": rt, "validation_pin": 123456} },
			status: 400, httpCode: "400", errorCode: "200", code: "invalid_field_type",
		},
		{
			name:   "malformed JSON",
			body:   func(string) any { return `{"refresh_token":` },
			status: 400, httpCode: "400", errorCode: "200", code: "invalid_json",
		},
		{
			name:   "no body",
			body:   func(string) any { return "" },
			status: 400, httpCode: "400", errorCode: "200", code: "invalid_json",
		},
		{
			name:   "wrong refresh token",
			body:   func(string) any { return map[string]any{"refresh_token": "refresh_0000"} },
			status: 409, httpCode: "409", errorCode: "400", code: "invalid_refresh_token",
		},
		{
			name:    "wrong refresh token from a new device",
			body:    func(string) any { return map[string]any{"refresh_token": "refresh_0000"} },
			headers: map[string]string{"X-SP-USER": "|new-device"},
			status:  409, httpCode: "409", errorCode: "400", code: "invalid_refresh_token",
		},
		{
			name:   "unknown user",
			path:   "/oauth/0123456789abcdef01234567",
			body:   func(rt string) any { return map[string]any{"refresh_token": rt} },
			status: 404, httpCode: "404", errorCode: "404", code: "unable_to_locate_user",
		},
		{
			name:    "invalid fingerprint",
			headers: map[string]string{"X-SP-USER": "|bad fingerprint!"},
			body:    func(rt string) any { return map[string]any{"refresh_token": rt} },
			status:  400, httpCode: "401", errorCode: "300", code: "invalid_fingerprint",
		},
		{
			name:    "empty fingerprint",
			headers: map[string]string{"X-SP-USER": "|"},
			body:    func(rt string) any { return map[string]any{"refresh_token": rt} },
			status:  400, httpCode: "401", errorCode: "300", code: "invalid_fingerprint",
		},
		{
			name:    "missing X-SP-USER",
			headers: map[string]string{"X-SP-USER": ""},
			body:    func(rt string) any { return map[string]any{"refresh_token": rt} },
			status:  400, httpCode: "400", errorCode: "200", code: "missing_user_credentials",
		},
		{
			name:    "missing IP",
			headers: map[string]string{"X-SP-USER-IP": ""},
			body:    func(rt string) any { return map[string]any{"refresh_token": rt} },
			status:  400, httpCode: "400", errorCode: "200", code: "missing_user_ip",
		},
		{
			name:    "missing gateway",
			headers: map[string]string{"X-SP-GATEWAY": ""},
			body:    func(rt string) any { return map[string]any{"refresh_token": rt} },
			status:  400, httpCode: "400", errorCode: "100", code: "missing_client_credentials",
		},
		{
			name:    "wrong gateway",
			headers: map[string]string{"X-SP-GATEWAY": "a|b"},
			body:    func(rt string) any { return map[string]any{"refresh_token": rt} },
			status:  401, httpCode: "401", errorCode: "100", code: "invalid_client_credentials",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
			path := tc.path
			if path == "" {
				path = "/oauth/" + u.ID
			}
			headers := withHeaders(oauthHeaders(fake, testkit.TestFingerprint), tc.headers)
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: path, Header: headers, Body: tc.body(u.RefreshToken)})
			wantErrorHTTPCode(t, r, tc.status, tc.httpCode, tc.errorCode, tc.code)
			if diff := cmp.Diff(u, mustUser(t, fake, u.ID)); diff != "" {
				t.Errorf("user changed by a refused OAuth call (-before +after):\n%s", diff)
			}
		})
	}
}

// TestOAuthMFA walks the multi-factor flow that registers a new device.
func TestOAuthMFA(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	phones := []string{"901.111.1111", "901.222.2222"}
	u := fake.MustAddUser(t, synapsefake.UserSeed{PhoneNumbers: phones, Fingerprint: testkit.TestFingerprint})
	const device = "new-device"
	rt := u.RefreshToken
	unchanged := func(step string) {
		t.Helper()
		if diff := cmp.Diff(u, mustUser(t, fake, u.ID)); diff != "" {
			t.Errorf("%s changed the user (-before +after):\n%s", step, diff)
		}
	}

	// 1. A new device gets the challenge and the phones to choose from.
	r := postOAuth(t, fake, u.ID, device, map[string]any{"refresh_token": rt})
	if r.Status != http.StatusAccepted {
		t.Errorf("challenge: status %d, want 202", r.Status)
	}
	want := map[string]any{
		"error":         map[string]any{"en": "Fingerprint not registered. Please perform the MFA flow."},
		"error_code":    "10",
		"http_code":     "202",
		"phone_numbers": anySlice(phones),
		"success":       false,
	}
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("challenge (-want +got):\n%s", diff)
	}
	unchanged("the challenge")

	// 2. A phone that is not the user's is refused.
	r = postOAuth(t, fake, u.ID, device, map[string]any{"refresh_token": rt, "phone_number": "555.555.5555"})
	wantErrorHTTPCode(t, r, 409, "409", "400", "unknown_phone_number")
	unchanged("an unknown phone")

	// 3. Choosing a phone "sends" the pin.
	r = postOAuth(t, fake, u.ID, device, map[string]any{"refresh_token": rt, "phone_number": phones[1]})
	if r.Status != http.StatusAccepted {
		t.Errorf("phone chosen: status %d, want 202", r.Status)
	}
	// No error key: SynapsePy raises on a 2xx body with one and error_code 10.
	if diff := cmp.Diff(map[string]any{"error_code": "10", "http_code": "202", "success": true,
		"message": map[string]any{"en": "MFA sent to " + phones[1] + "."}}, r.Body); diff != "" {
		t.Errorf("phone chosen (-want +got):\n%s", diff)
	}
	unchanged("choosing a phone")

	// 4. A wrong pin is refused and the device stays unregistered.
	r = postOAuth(t, fake, u.ID, device, map[string]any{"refresh_token": rt, "validation_pin": "000000"})
	wantErrorHTTPCode(t, r, 409, "409", "400", "incorrect_validation_pin")
	unchanged("a wrong pin")
	r = postOAuth(t, fake, u.ID, device, map[string]any{"refresh_token": rt})
	if r.Status != http.StatusAccepted || r.Body["error_code"] != "10" {
		t.Errorf("after a wrong pin: status %d error_code %v, want the 202 challenge again", r.Status, r.Body["error_code"])
	}

	// 5. The right pin registers the device and answers a key at once.
	r = postOAuth(t, fake, u.ID, device, map[string]any{"refresh_token": rt, "validation_pin": "123456"})
	key := wantOAuthKey(t, fake, r, u.ID, rt, 9, oauthDefaultScopes)
	if got := mustUser(t, fake, u.ID).Fingerprints; !cmp.Equal(got, []string{device, testkit.TestFingerprint}) {
		t.Errorf("Fingerprints %v, want both devices", got)
	}
	nodes := testkit.Call{Method: "GET", Path: "/users/" + u.ID + "/nodes", Header: map[string]string{
		"X-SP-GATEWAY": fake.Gateway(), "X-SP-USER": key + "|" + device, "X-SP-USER-IP": "127.0.0.1",
	}}
	if r := testkit.Do(t, fake, nodes); r.Status != http.StatusOK {
		t.Errorf("GET nodes with the new device's key: status %d: %s", r.Status, r.Raw)
	}
	// The key is bound to the device that asked for it.
	nodes.Header = testkit.UserHeaders(fake, key)
	wantErrorHTTPCode(t, testkit.Do(t, fake, nodes), 401, "401", "120", "unauthorized_fingerprint")

	// 6. The registered device now gets keys without the flow.
	r = postOAuth(t, fake, u.ID, device, map[string]any{"refresh_token": rt})
	wantOAuthKey(t, fake, r, u.ID, rt, 8, oauthDefaultScopes)
}

func TestOAuthKeyExpiry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		advance time.Duration
		works   bool
	}{
		{"fresh", 0, true},
		{"one millisecond before expiry", 7200*time.Second - time.Millisecond, true},
		{"at expiry", 7200 * time.Second, false},
		{"a day later", 24 * time.Hour, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
			key := wantOAuthKey(t, fake, postOAuth(t, fake, u.ID, testkit.TestFingerprint, map[string]any{"refresh_token": u.RefreshToken}),
				u.ID, u.RefreshToken, 9, oauthDefaultScopes)
			seeded := fake.OAuthKey(u.ID, testkit.TestFingerprint)
			fake.Advance(tc.advance)
			for _, k := range []string{key, seeded} {
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + u.ID + "/nodes", Header: testkit.UserHeaders(fake, k)})
				if tc.works {
					if r.Status != http.StatusOK {
						t.Errorf("key %s after %v: status %d, want 200: %s", k, tc.advance, r.Status, r.Raw)
					}
					continue
				}
				wantErrorHTTPCode(t, r, 401, "401", "110", "invalid_oauth_key")
				if en := r.Body["error"].(map[string]any)["en"]; en != "Invalid/expired oauth_key." {
					t.Errorf("error.en %q, want the real service's message", en)
				}
			}
			if !tc.works {
				// A fresh key is one OAuth call away.
				r := postOAuth(t, fake, u.ID, testkit.TestFingerprint, map[string]any{"refresh_token": u.RefreshToken})
				fresh := wantOAuthKey(t, fake, r, u.ID, u.RefreshToken, 8, oauthDefaultScopes)
				if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + u.ID + "/nodes", Header: testkit.UserHeaders(fake, fresh)}); r.Status != http.StatusOK {
					t.Errorf("fresh key: status %d: %s", r.Status, r.Raw)
				}
			}
		})
	}
}

func TestOAuthRefreshToken(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
	old := u.RefreshToken
	body := map[string]any{"refresh_token": old}

	var keys []string
	for use := 1; use < 10; use++ {
		r := postOAuth(t, fake, u.ID, testkit.TestFingerprint, body)
		keys = append(keys, wantOAuthKey(t, fake, r, u.ID, old, 10-use, oauthDefaultScopes))
		if got := mustUser(t, fake, u.ID); got.RefreshToken != old || got.RefreshUsesLeft != 10-use {
			t.Fatalf("after use %d: token %q with %d uses, want %q with %d", use, got.RefreshToken, got.RefreshUsesLeft, old, 10-use)
		}
	}

	// The tenth use spends the token; the answer already carries its successor.
	r := postOAuth(t, fake, u.ID, testkit.TestFingerprint, body)
	next := mustUser(t, fake, u.ID).RefreshToken
	if next == old || !strings.HasPrefix(next, "refresh_") {
		t.Fatalf("refresh token after ten uses %q, want a new refresh_ token", next)
	}
	keys = append(keys, wantOAuthKey(t, fake, r, u.ID, next, 0, oauthDefaultScopes))
	if got := getUserBody(t, fake, u.ID)["refresh_token"]; got != next {
		t.Errorf("GET /users/%s refresh_token %v, want %q", u.ID, got, next)
	}
	if got := mustUser(t, fake, u.ID).RefreshUsesLeft; got != 10 {
		t.Errorf("RefreshUsesLeft of the new token %d, want 10", got)
	}

	// The old token is dead; the keys it minted still work.
	before := mustUser(t, fake, u.ID)
	r = postOAuth(t, fake, u.ID, testkit.TestFingerprint, body)
	wantErrorHTTPCode(t, r, 409, "409", "400", "invalid_refresh_token")
	if diff := cmp.Diff(before, mustUser(t, fake, u.ID)); diff != "" {
		t.Errorf("a dead token changed the user (-before +after):\n%s", diff)
	}
	for _, k := range keys {
		if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + u.ID + "/nodes", Header: testkit.UserHeaders(fake, k)}); r.Status != http.StatusOK {
			t.Errorf("key %s: status %d: %s", k, r.Status, r.Raw)
		}
	}

	// The new token works and counts from 9 again.
	r = postOAuth(t, fake, u.ID, testkit.TestFingerprint, map[string]any{"refresh_token": next})
	wantOAuthKey(t, fake, r, u.ID, next, 9, oauthDefaultScopes)
}

// TestSeededFingerprintsFollowTheAPIRule: a fingerprint POST /oauth would
// refuse (not 1 to 256 letters, digits, '-', '_' or '.') is refused by every
// door that registers one without the OAuth dance, so a test never holds a
// key its client cannot renew: AddUser's Fingerprint, the control routes
// and a world's oauth (400 / "200" invalid_fingerprint, nothing made), and
// OAuthKey, which returns "" for it as for an unknown scope.
func TestSeededFingerprintsFollowTheAPIRule(t *testing.T) {
	t.Parallel()
	for _, fp := range []string{"my phone", "fp|2", strings.Repeat("f", 257), "fp-\xff"} {
		t.Run(fmt.Sprintf("%.12q", fp), func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			u := fake.MustAddUser(t, synapsefake.UserSeed{})
			before := u
			if _, err := fake.AddUser(synapsefake.UserSeed{Fingerprint: fp}); testkit.ErrCode(err) != "invalid_fingerprint" {
				t.Errorf("AddUser: %v, want invalid_fingerprint", err)
			}
			testkit.WantError(t, testkit.Ctl(t, fake, "POST", "/users", map[string]any{"fingerprint": fp}), 400, "200", "invalid_fingerprint")
			testkit.WantError(t, testkit.Ctl(t, fake, "POST", "/users/"+u.ID+"/oauth", map[string]any{"fingerprint": fp}), 400, "200", "invalid_fingerprint")
			world, _ := json.Marshal(map[string]any{"users": []any{map[string]any{"name": "ann", "oauth": map[string]any{"fingerprint": fp}}}})
			if _, err := fake.LoadWorld(bytes.NewReader(world)); testkit.ErrCode(err) != "invalid_world" || !strings.Contains(err.Error(), "oauth: The fingerprint") {
				t.Errorf("LoadWorld: %v, want invalid_world naming the fingerprint", err)
			}
			if key := fake.OAuthKey(u.ID, fp); key != "" {
				t.Errorf("OAuthKey(%q) = %q, want \"\"", fp, key)
			}
			if got, _ := fake.User(u.ID); !cmp.Equal(got.Fingerprints, before.Fingerprints) {
				t.Errorf("fingerprints %v after the refusals, want %v", got.Fingerprints, before.Fingerprints)
			}
			if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users", Header: testkit.GatewayHeaders(fake)}); r.Body["users_count"] != float64(1) {
				t.Errorf("after the refusals GET /users counts %v users, want 1", r.Body["users_count"])
			}
		})
	}
	fake := synapsefake.NewServer(t)
	u := fake.MustAddUser(t, synapsefake.UserSeed{})
	if key := fake.OAuthKey(u.ID, "fp-ok", "NODES|GET", "BOGUS|SCOPE"); key != "" {
		t.Errorf("OAuthKey with an unknown scope = %q, want \"\"", key)
	}
	if key := fake.OAuthKey(u.ID, "fp-ok", "NODES|GET"); key == "" {
		t.Error(`OAuthKey(fp-ok, NODES|GET) = "", want a key`)
	}
}
