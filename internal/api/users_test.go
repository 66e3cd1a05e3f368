package api_test

import (
	"fmt"
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
	"github.com/synapsefake/synapsefake/reference"
)

// objectIDPattern is the form of every object id the fake hands out.
var objectIDPattern = regexp.MustCompile(`^[0-9a-f]{24}$`)

// wantErrorHTTPCode is wantError that also checks the body's http_code,
// which equals the status except where the contract says otherwise.
func wantErrorHTTPCode(t testing.TB, r testkit.Response, status int, httpCode, errorCode, code string) {
	t.Helper()
	testkit.WantError(t, r, status, errorCode, code)
	if r.Body["http_code"] != httpCode {
		t.Errorf("http_code %v, want %q", r.Body["http_code"], httpCode)
	}
}

// withHeaders returns a copy of h with the given changes; a value of "" deletes the header.
func withHeaders(h map[string]string, changes map[string]string) map[string]string {
	out := maps.Clone(h)
	for k, v := range changes {
		if v == "" {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

// usersSnapshot is the first page of GET /users with refresh tokens: what a
// client can see of the store's users.
func usersSnapshot(t testing.TB, fake *synapsefake.Server) map[string]any {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users?show_refresh_tokens=yes", Header: testkit.GatewayHeaders(fake)})
	if r.Status != http.StatusOK {
		t.Fatalf("GET /users: status %d: %s", r.Status, r.Raw)
	}
	return r.Body
}

// getUserBody is GET /users/{id} with gateway credentials, which must succeed.
func getUserBody(t testing.TB, fake *synapsefake.Server, id string) map[string]any {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + id, Header: testkit.GatewayHeaders(fake)})
	if r.Status != http.StatusOK {
		t.Fatalf("GET /users/%s: status %d: %s", id, r.Status, r.Raw)
	}
	return r.Body
}

// mustUser returns the fake's copy of a user, which must exist.
func mustUser(t testing.TB, fake *synapsefake.Server, id string) synapsefake.User {
	t.Helper()
	u, ok := fake.User(id)
	if !ok {
		t.Fatalf("fake.User(%s): not found", id)
	}
	return u
}

// wantUserObject is the user object of the spec's FIDELITY.md as the fake answers it,
// with "success": true. Tests change the fields they expect to differ.
func wantUserObject(fake *synapsefake.Server, id, email, refreshToken string, phones, names []string) map[string]any {
	now := float64(fake.Now().UnixMilli())
	return map[string]any{
		"_id":    id,
		"_links": map[string]any{"self": map[string]any{"href": fake.URL() + "/users/" + id}},
		"client": map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
		"doc_status": map[string]any{
			"physical_doc": "MISSING|INVALID",
			"virtual_doc":  "MISSING|INVALID",
		},
		"documents": []any{},
		"emails":    []any{},
		"extra": map[string]any{
			"cip_tag":        float64(1),
			"date_joined":    now,
			"extra_security": false,
			"is_business":    false,
			"last_updated":   now,
			"public_note":    nil,
			"supp_id":        "",
		},
		"is_hidden":     false,
		"legal_names":   anySlice(names),
		"logins":        []any{map[string]any{"email": email, "scope": "READ_AND_WRITE"}},
		"permission":    "UNVERIFIED",
		"phone_numbers": anySlice(phones),
		"photos":        []any{},
		"refresh_token": refreshToken,
		"success":       true,
	}
}

var docIDPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// maskDocIDs checks that every base and sub-document id of a user body is
// 64 hex characters and replaces it with "<id>", so that whole bodies can
// be compared.
func maskDocIDs(t testing.TB, body map[string]any) map[string]any {
	t.Helper()
	mask := func(m map[string]any) {
		if id, _ := m["id"].(string); !docIDPattern.MatchString(id) {
			t.Errorf("document id %q is not 64 hex characters", id)
		}
		m["id"] = "<id>"
	}
	docs, _ := body["documents"].([]any)
	for _, d := range docs {
		base, _ := d.(map[string]any)
		mask(base)
		for _, kind := range []string{"physical_docs", "social_docs", "virtual_docs"} {
			subs, _ := base[kind].([]any)
			for _, s := range subs {
				mask(s.(map[string]any))
			}
		}
	}
	return body
}

// dehydrated is a base document as a user body shows it (ids masked), with
// no entity fields, filed at the given time with the given social documents.
func dehydrated(name string, at time.Time, social ...string) map[string]any {
	subs := []any{}
	for _, typ := range social {
		subs = append(subs, map[string]any{"document_type": typ, "id": "<id>", "last_updated": float64(at.UnixMilli()), "status": "SUBMITTED|REVIEWING"})
	}
	return map[string]any{"entity_scope": "", "entity_type": "", "id": "<id>", "name": name, "permission_scope": "UNVERIFIED",
		"physical_docs": []any{}, "social_docs": subs, "virtual_docs": []any{}}
}

func anySlice[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// extraOf returns the extra object of a user body, for tests to change.
func extraOf(m map[string]any) map[string]any { return m["extra"].(map[string]any) }

func TestCreateUser(t *testing.T) {
	t.Parallel()
	doc := map[string]any{"email": "doc@example.com", "phone_number": "901.111.1111", "name": "Doc User"}
	for _, tc := range []struct {
		name string
		body map[string]any
		want func(fake *synapsefake.Server, m map[string]any) // changes from the minimal object
	}{
		{
			name: "required fields only",
			body: map[string]any{
				"logins":        []any{map[string]any{"email": "ann@example.com"}},
				"phone_numbers": []string{"901.111.1111"},
				"legal_names":   []string{"Ann Example"},
			},
			want: func(*synapsefake.Server, map[string]any) {},
		},
		{
			name: "extra fields",
			body: map[string]any{
				"logins":        []any{map[string]any{"email": "ann@example.com", "password": "secret"}},
				"phone_numbers": []string{"901.111.1111", "ann@example.com"},
				"legal_names":   []string{"Ann Example"},
				"extra":         map[string]any{"supp_id": "my-123", "cip_tag": 2, "is_business": true, "note": "VIP"},
			},
			want: func(_ *synapsefake.Server, m map[string]any) {
				m["phone_numbers"] = []any{"901.111.1111", "ann@example.com"}
				e := extraOf(m)
				e["supp_id"] = "my-123"
				e["cip_tag"] = float64(2)
				e["is_business"] = true
				e["public_note"] = "VIP"
			},
		},
		{
			// The provider's js wrapper's POST_CREATE_USER test expected it back.
			name: "extra.public_note",
			body: map[string]any{
				"logins":        []any{map[string]any{"email": "ann@example.com"}},
				"phone_numbers": []string{"901.111.1111"},
				"legal_names":   []string{"Ann Example"},
				"extra":         map[string]any{"public_note": "yeah i am a public note"},
			},
			want: func(_ *synapsefake.Server, m map[string]any) { extraOf(m)["public_note"] = "yeah i am a public note" },
		},
		{
			name: "extra.public_note wins over extra.note",
			body: map[string]any{
				"logins":        []any{map[string]any{"email": "ann@example.com"}},
				"phone_numbers": []string{"901.111.1111"},
				"legal_names":   []string{"Ann Example"},
				"extra":         map[string]any{"note": "older", "public_note": "public"},
			},
			want: func(_ *synapsefake.Server, m map[string]any) { extraOf(m)["public_note"] = "public" },
		},
		{
			name: "several logins with scopes",
			body: map[string]any{
				"logins": []any{
					map[string]any{"email": "ann@example.com", "scope": "READ"},
					map[string]any{"email": "ann2@example.com"},
				},
				"phone_numbers": []string{"901.111.1111"},
				"legal_names":   []string{"Ann Example", "Ann E."},
			},
			want: func(_ *synapsefake.Server, m map[string]any) {
				m["logins"] = []any{
					map[string]any{"email": "ann@example.com", "scope": "READ"},
					map[string]any{"email": "ann2@example.com", "scope": "READ_AND_WRITE"},
				}
				m["legal_names"] = []any{"Ann Example", "Ann E."}
			},
		},
		{
			name: "documents go under review: the answer shows them SUBMITTED|REVIEWING, the user UNVERIFIED",
			body: map[string]any{
				"logins":        []any{map[string]any{"email": "ann@example.com"}},
				"phone_numbers": []string{"901.111.1111"},
				"legal_names":   []string{"Ann Example"},
				"documents":     []any{doc},
			},
			want: func(fake *synapsefake.Server, m map[string]any) {
				m["documents"] = []any{dehydrated("Doc User", fake.Now(), "EMAIL", "PHONE_NUMBER")}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithManualKYCReview()) // answers and later GETs alike show the documents in review
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(fake), Body: tc.body})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
			}
			id, _ := r.Body["_id"].(string)
			if !objectIDPattern.MatchString(id) {
				t.Fatalf("_id %q is not 24 hex characters", id)
			}
			rt, _ := r.Body["refresh_token"].(string)
			if !strings.HasPrefix(rt, "refresh_") {
				t.Errorf("refresh_token %q lacks the refresh_ prefix", rt)
			}
			want := wantUserObject(fake, id, "ann@example.com", rt, []string{"901.111.1111"}, []string{"Ann Example"})
			tc.want(fake, want)
			if diff := cmp.Diff(want, maskDocIDs(t, r.Body)); diff != "" {
				t.Errorf("POST /users answer (-want +got):\n%s", diff)
			}

			// The user is stored as answered, with the creating fingerprint.
			if diff := cmp.Diff(want, maskDocIDs(t, getUserBody(t, fake, id))); diff != "" {
				t.Errorf("GET /users/%s after create (-want +got):\n%s", id, diff)
			}
			u := mustUser(t, fake, id)
			if diff := cmp.Diff([]string{testkit.TestFingerprint}, u.Fingerprints); diff != "" {
				t.Errorf("Fingerprints (-want +got):\n%s", diff)
			}
			if u.RefreshToken != rt || u.RefreshUsesLeft != 10 {
				t.Errorf("refresh token %q with %d uses, want %q with 10", u.RefreshToken, u.RefreshUsesLeft, rt)
			}
			if got := usersSnapshot(t, fake)["users_count"]; got != float64(1) {
				t.Errorf("users_count %v, want 1", got)
			}
		})
	}
}

func TestCreateUserErrors(t *testing.T) {
	t.Parallel()
	valid := func() map[string]any {
		return map[string]any{
			"logins":        []any{map[string]any{"email": "ann@example.com"}},
			"phone_numbers": []any{"901.111.1111"},
			"legal_names":   []any{"Ann Example"},
			"documents":     []any{map[string]any{"name": "Ann Example"}},
			"extra":         map[string]any{"supp_id": "x", "cip_tag": 1, "is_business": false, "note": "n"},
		}
	}
	with := func(key string, v any) map[string]any {
		b := valid()
		if v == nil {
			delete(b, key)
		} else {
			b[key] = v
		}
		return b
	}
	withExtra := func(key string, v any) map[string]any {
		b := valid()
		b["extra"].(map[string]any)[key] = v
		return b
	}
	for _, tc := range []struct {
		name      string
		headers   map[string]string // changes to gatewayHeaders; "" deletes
		body      any
		status    int
		httpCode  string
		errorCode string
		code      string
	}{
		{"missing gateway", map[string]string{"X-SP-GATEWAY": ""}, valid(), 400, "400", "100", "missing_client_credentials"},
		{"wrong gateway", map[string]string{"X-SP-GATEWAY": "client_id|wrong"}, valid(), 401, "401", "100", "invalid_client_credentials"},
		{"missing X-SP-USER", map[string]string{"X-SP-USER": ""}, valid(), 400, "400", "200", "missing_user_credentials"},
		{"empty fingerprint", map[string]string{"X-SP-USER": "|"}, valid(), 400, "401", "300", "invalid_fingerprint"},
		{"fingerprint with spaces", map[string]string{"X-SP-USER": "|not a fingerprint"}, valid(), 400, "401", "300", "invalid_fingerprint"},
		{"fingerprint without pipe", map[string]string{"X-SP-USER": "justtext"}, valid(), 400, "401", "300", "invalid_fingerprint"},
		{"too long fingerprint", map[string]string{"X-SP-USER": "|" + strings.Repeat("f", 257)}, valid(), 400, "401", "300", "invalid_fingerprint"},
		{"missing IP", map[string]string{"X-SP-USER-IP": ""}, valid(), 400, "400", "200", "missing_user_ip"},
		{"malformed JSON", nil, `{"logins":`, 400, "400", "200", "invalid_json"},
		{"empty body", nil, "", 400, "400", "200", "invalid_json"},
		{"array body", nil, `[]`, 400, "400", "200", "invalid_json"},
		{"trailing data", nil, `{"logins":[{"email":"a@example.com"}],"phone_numbers":["1"],"legal_names":["A"]} {}`, 400, "400", "200", "invalid_json"},
		{"phone_numbers as a string", nil, with("phone_numbers", "901.111.1111"), 400, "400", "200", "invalid_field_type"},
		{"phone_numbers of numbers", nil, with("phone_numbers", []any{9011111111}), 400, "400", "200", "invalid_field_type"},
		{"legal_names as a string", nil, with("legal_names", "Ann"), 400, "400", "200", "invalid_field_type"},
		{"logins as an object", nil, with("logins", map[string]any{"email": "a@example.com"}), 400, "400", "200", "invalid_field_type"},
		{"login email as a number", nil, with("logins", []any{map[string]any{"email": 5}}), 400, "400", "200", "invalid_field_type"},
		{"documents as an object", nil, with("documents", map[string]any{"name": "x"}), 400, "400", "200", "invalid_field_type"},
		{"extra as a string", nil, with("extra", "x"), 400, "400", "200", "invalid_field_type"},
		{"extra.supp_id as a number", nil, withExtra("supp_id", 5), 400, "400", "200", "invalid_field_type"},
		{"extra.cip_tag as a string", nil, withExtra("cip_tag", "1"), 400, "400", "200", "invalid_field_type"},
		{"extra.is_business as a string", nil, withExtra("is_business", "yes"), 400, "400", "200", "invalid_field_type"},
		{"extra.public_note as a number", nil, withExtra("public_note", 5), 400, "400", "200", "invalid_field_type"},
		{"extra.note as a number", nil, withExtra("note", 5), 400, "400", "200", "invalid_field_type"},
		{"missing logins", nil, with("logins", nil), 400, "400", "200", "missing_logins"},
		{"empty logins", nil, with("logins", []any{}), 400, "400", "200", "missing_logins"},
		{"login without email", nil, with("logins", []any{map[string]any{"password": "x"}}), 400, "400", "200", "invalid_email"},
		{"login with an empty email", nil, with("logins", []any{map[string]any{"email": ""}}), 400, "400", "200", "invalid_email"},
		{"second login without email", nil, with("logins", []any{map[string]any{"email": "a@example.com"}, map[string]any{}}), 400, "400", "200", "invalid_email"},
		{"missing phone_numbers", nil, with("phone_numbers", nil), 400, "400", "200", "missing_phone_numbers"},
		{"empty phone_numbers", nil, with("phone_numbers", []any{}), 400, "400", "200", "missing_phone_numbers"},
		{"blank phone number", nil, with("phone_numbers", []any{""}), 400, "400", "200", "missing_phone_numbers"},
		{"missing legal_names", nil, with("legal_names", nil), 400, "400", "200", "missing_legal_names"},
		{"empty legal_names", nil, with("legal_names", []any{}), 400, "400", "200", "missing_legal_names"},
		{"blank legal name", nil, with("legal_names", []any{""}), 400, "400", "200", "missing_legal_names"},
		{"document as a string", nil, with("documents", []any{"passport"}), 400, "400", "200", "invalid_documents"},
		{"document as a number", nil, with("documents", []any{1}), 400, "400", "200", "invalid_documents"},
		{"document null", nil, with("documents", []any{nil}), 400, "400", "200", "invalid_documents"},
		{"document array", nil, with("documents", []any{[]any{}}), 400, "400", "200", "invalid_documents"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			existing := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
			before := usersSnapshot(t, fake)
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users", Header: withHeaders(testkit.GatewayHeaders(fake), tc.headers), Body: tc.body})
			wantErrorHTTPCode(t, r, tc.status, tc.httpCode, tc.errorCode, tc.code)
			if diff := cmp.Diff(before, usersSnapshot(t, fake)); diff != "" {
				t.Errorf("users changed by a refused create (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(existing, mustUser(t, fake, existing.ID)); diff != "" {
				t.Errorf("existing user changed (-before +after):\n%s", diff)
			}
		})
	}
}

// addUsers seeds n users named "User <i>" with emails user<i>@example.com
// and returns their ids in creation order.
func addUsers(t testing.TB, fake *synapsefake.Server, n int) []string {
	ids := make([]string, n)
	for i := range n {
		ids[i] = fake.MustAddUser(t, synapsefake.UserSeed{
			Email:      fmt.Sprintf("user%d@example.com", i),
			LegalNames: []string{fmt.Sprintf("User %d", i)},
		}).ID
	}
	return ids
}

// listedIDs returns the _id of each user of a GET /users answer.
func listedIDs(t testing.TB, body map[string]any) []string {
	t.Helper()
	users, ok := body["users"].([]any)
	if !ok {
		t.Fatalf("users is %T, want an array", body["users"])
	}
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i], _ = u.(map[string]any)["_id"].(string)
	}
	return ids
}

func TestListUsers(t *testing.T) {
	t.Parallel()

	t.Run("wrapper shape", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		ids := addUsers(t, fake, 2)
		var wantUsers, wantUsersWithTokens []any
		for _, id := range ids {
			u := getUserBody(t, fake, id)
			delete(u, "success")
			wantUsersWithTokens = append(wantUsersWithTokens, maps.Clone(u))
			if u["refresh_token"] != mustUser(t, fake, id).RefreshToken {
				t.Errorf("GET /users/%s refresh_token %v, want the current one", id, u["refresh_token"])
			}
			delete(u, "refresh_token")
			wantUsers = append(wantUsers, u)
		}
		want := map[string]any{
			"error_code":  "0",
			"http_code":   "200",
			"limit":       float64(20),
			"page":        float64(1),
			"page_count":  float64(1),
			"success":     true,
			"users":       wantUsers,
			"users_count": float64(2),
		}
		for _, tc := range []struct {
			query string
			users []any
		}{
			{"", wantUsersWithTokens},
			{"?show_refresh_tokens=no", wantUsers},
			{"?show_refresh_tokens=NO", wantUsers},
			{"?show_refresh_tokens=True", wantUsersWithTokens},
			{"?show_refresh_tokens=yes", wantUsersWithTokens},
			{"?show_refresh_tokens=YES", wantUsersWithTokens},
		} {
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users" + tc.query, Header: testkit.GatewayHeaders(fake)})
			want["users"] = tc.users
			if r.Status != http.StatusOK {
				t.Errorf("GET /users%s: status %d", tc.query, r.Status)
			}
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("GET /users%s (-want +got):\n%s", tc.query, diff)
			}
		}
	})

	t.Run("empty store", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users", Header: testkit.GatewayHeaders(fake)})
		want := map[string]any{
			"error_code": "0", "http_code": "200", "limit": float64(20), "page": float64(1),
			"page_count": float64(0), "success": true, "users": []any{}, "users_count": float64(0),
		}
		if diff := cmp.Diff(want, r.Body); diff != "" {
			t.Errorf("GET /users (-want +got):\n%s", diff)
		}
	})

	t.Run("paging", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		ids := addUsers(t, fake, 45)
		for _, tc := range []struct {
			query     string
			page      int
			limit     int
			pageCount int
			want      []string
		}{
			{"", 1, 20, 3, ids[:20]},
			{"?page=1", 1, 20, 3, ids[:20]},
			{"?page=2", 2, 20, 3, ids[20:40]},
			{"?page=3", 3, 20, 3, ids[40:]},
			{"?page=4", 4, 20, 3, []string{}},
			{"?per_page=100", 1, 20, 3, ids[:20]},
			{"?page=2&per_page=100", 2, 20, 3, ids[20:40]},
			{"?per_page=10&page=5", 5, 10, 5, ids[40:]},
			{"?page=3&per_page=7", 3, 7, 7, ids[14:21]},
			{"?per_page=1&page=45", 45, 1, 45, ids[44:]},
		} {
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users" + tc.query, Header: testkit.GatewayHeaders(fake)})
			if r.Status != http.StatusOK {
				t.Fatalf("GET /users%s: status %d: %s", tc.query, r.Status, r.Raw)
			}
			got := map[string]any{"page": r.Body["page"], "limit": r.Body["limit"], "page_count": r.Body["page_count"], "users_count": r.Body["users_count"]}
			want := map[string]any{"page": float64(tc.page), "limit": float64(tc.limit), "page_count": float64(tc.pageCount), "users_count": float64(45)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("GET /users%s paging fields (-want +got):\n%s", tc.query, diff)
			}
			if diff := cmp.Diff(tc.want, listedIDs(t, r.Body)); diff != "" {
				t.Errorf("GET /users%s ids (-want +got):\n%s", tc.query, diff)
			}
		}
	})

	t.Run("query", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		alice := fake.MustAddUser(t, synapsefake.UserSeed{Email: "alice@example.com", LegalNames: []string{"Alice Smith"}}).ID
		bob := fake.MustAddUser(t, synapsefake.UserSeed{Email: "bob@example.com", LegalNames: []string{"Bob Jones"}}).ID
		carol := fake.MustAddUser(t, synapsefake.UserSeed{Email: "carol@smith.example", LegalNames: []string{"Carol"}}).ID
		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"smith", []string{alice, carol}},
			{"SMITH", []string{alice, carol}},
			{"bob", []string{bob}},
			{"Bob%20Jones", []string{bob}},
			{"carol%40smith.example", []string{carol}},
			{"example", []string{alice, bob, carol}},
			{"nobody", []string{}},
		} {
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users?query=" + tc.query, Header: testkit.GatewayHeaders(fake)})
			if r.Status != http.StatusOK {
				t.Fatalf("query %s: status %d: %s", tc.query, r.Status, r.Raw)
			}
			if diff := cmp.Diff(tc.want, listedIDs(t, r.Body)); diff != "" {
				t.Errorf("query %s ids (-want +got):\n%s", tc.query, diff)
			}
			if r.Body["users_count"] != float64(len(tc.want)) {
				t.Errorf("query %s: users_count %v, want %d", tc.query, r.Body["users_count"], len(tc.want))
			}
			wantPages := 0
			if len(tc.want) > 0 {
				wantPages = 1
			}
			if r.Body["page_count"] != float64(wantPages) {
				t.Errorf("query %s: page_count %v, want %d", tc.query, r.Body["page_count"], wantPages)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		addUsers(t, fake, 3)
		before := usersSnapshot(t, fake)
		for _, tc := range []struct {
			query     string
			headers   map[string]string
			status    int
			errorCode string
			code      string
		}{
			{"?page=0", nil, 400, "200", "invalid_page"},
			{"?page=x", nil, 400, "200", "invalid_page"},
			{"?page=-1", nil, 400, "200", "invalid_page"},
			{"?page=1.5", nil, 400, "200", "invalid_page"},
			{"?per_page=0", nil, 400, "200", "invalid_per_page"},
			{"?per_page=x", nil, 400, "200", "invalid_per_page"},
			{"", map[string]string{"X-SP-GATEWAY": ""}, 400, "100", "missing_client_credentials"},
			{"", map[string]string{"X-SP-GATEWAY": "a|b"}, 401, "100", "invalid_client_credentials"},
		} {
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users" + tc.query, Header: withHeaders(testkit.GatewayHeaders(fake), tc.headers)})
			wantErrorHTTPCode(t, r, tc.status, fmt.Sprint(tc.status), tc.errorCode, tc.code)
		}
		if diff := cmp.Diff(before, usersSnapshot(t, fake)); diff != "" {
			t.Errorf("users changed (-before +after):\n%s", diff)
		}
	})
}

func TestGetUser(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	u := fake.MustAddUser(t, synapsefake.UserSeed{Email: "ann@example.com", PhoneNumbers: []string{"901.222.3333"}, LegalNames: []string{"Ann"}, SuppID: "s1"})
	want := wantUserObject(fake, u.ID, "ann@example.com", u.RefreshToken, []string{"901.222.3333"}, []string{"Ann"})
	extraOf(want)["supp_id"] = "s1"

	for _, tc := range []struct {
		name    string
		headers map[string]string
	}{
		{"gateway only", map[string]string{"X-SP-GATEWAY": fake.Gateway()}},
		{"gateway and fingerprint", testkit.GatewayHeaders(fake)},
	} {
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + u.ID, Header: tc.headers})
		if r.Status != http.StatusOK {
			t.Errorf("%s: status %d: %s", tc.name, r.Status, r.Raw)
		}
		if diff := cmp.Diff(want, r.Body); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}

	for _, tc := range []struct {
		name      string
		path      string
		headers   map[string]string
		status    int
		errorCode string
		code      string
	}{
		{"unknown id", "/users/0123456789abcdef01234567", testkit.GatewayHeaders(fake), 404, "404", "unable_to_locate_user"},
		{"missing gateway", "/users/" + u.ID, map[string]string{"X-SP-USER": "|" + testkit.TestFingerprint}, 400, "100", "missing_client_credentials"},
		{"wrong gateway", "/users/" + u.ID, map[string]string{"X-SP-GATEWAY": fake.ClientID() + "|nope"}, 401, "100", "invalid_client_credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.path, Header: tc.headers})
			wantErrorHTTPCode(t, r, tc.status, fmt.Sprint(tc.status), tc.errorCode, tc.code)
		})
	}
}

func TestPatchUser(t *testing.T) {
	t.Parallel()
	doc := map[string]any{"email": "doc@example.com", "name": "Doc"}
	for _, tc := range []struct {
		name string
		body map[string]any
		// want changes the user object as it was before the call; email is
		// the user's only login, now the time of the call.
		want func(m map[string]any, email string, now time.Time)
	}{
		{
			name: "add login",
			body: map[string]any{"update": map[string]any{"login": map[string]any{"email": "new@example.com", "password": "pw"}}},
			want: func(m map[string]any, email string, _ time.Time) {
				m["logins"] = []any{
					map[string]any{"email": email, "scope": "READ_AND_WRITE"},
					map[string]any{"email": "new@example.com", "scope": "READ_AND_WRITE"},
				}
			},
		},
		{
			name: "add read-only login",
			body: map[string]any{"update": map[string]any{"login": map[string]any{"email": "new@example.com", "scope": "READ"}}},
			want: func(m map[string]any, email string, _ time.Time) {
				m["logins"] = []any{
					map[string]any{"email": email, "scope": "READ_AND_WRITE"},
					map[string]any{"email": "new@example.com", "scope": "READ"},
				}
			},
		},
		{
			name: "add a login already on file",
			body: map[string]any{"update": map[string]any{"login": map[string]any{"email": "ann@example.com"}}},
			want: func(map[string]any, string, time.Time) {},
		},
		{
			name: "remove login",
			body: map[string]any{"update": map[string]any{"remove_login": map[string]any{"email": "ann@example.com"}}},
			want: func(m map[string]any, _ string, _ time.Time) { m["logins"] = []any{} },
		},
		{
			name: "add legal name",
			body: map[string]any{"update": map[string]any{"legal_name": "Test U. User"}},
			want: func(m map[string]any, _ string, _ time.Time) { m["legal_names"] = []any{"Test User", "Test U. User"} },
		},
		{
			name: "add legal name already on file",
			body: map[string]any{"update": map[string]any{"legal_name": "Test User"}},
			want: func(map[string]any, string, time.Time) {},
		},
		{
			name: "add phone number",
			body: map[string]any{"update": map[string]any{"phone_number": "901.222.2222"}},
			want: func(m map[string]any, _ string, _ time.Time) {
				m["phone_numbers"] = []any{"901.111.1111", "901.222.2222"}
			},
		},
		{
			name: "remove phone number",
			body: map[string]any{"update": map[string]any{"remove_phone_number": "901.111.1111"}},
			want: func(m map[string]any, _ string, _ time.Time) { m["phone_numbers"] = []any{} },
		},
		{
			name: "cip_tag",
			body: map[string]any{"update": map[string]any{"cip_tag": 3}},
			want: func(m map[string]any, _ string, _ time.Time) { extraOf(m)["cip_tag"] = float64(3) },
		},
		{
			name: "public_note",
			body: map[string]any{"update": map[string]any{"public_note": "hello"}},
			want: func(m map[string]any, _ string, _ time.Time) { extraOf(m)["public_note"] = "hello" },
		},
		{
			name: "documents go under review; the user stays UNVERIFIED in the answer",
			body: map[string]any{"documents": []any{doc}},
			want: func(m map[string]any, _ string, now time.Time) {
				m["documents"] = []any{dehydrated("Doc", now, "EMAIL")}
			},
		},
		{
			name: "permission",
			body: map[string]any{"permission": "LOCKED"},
			want: func(m map[string]any, _ string, _ time.Time) { m["permission"] = "LOCKED" },
		},
		{
			name: "documents and permission together",
			body: map[string]any{"documents": []any{doc}, "permission": "CLOSED"},
			want: func(m map[string]any, _ string, now time.Time) {
				m["documents"] = []any{dehydrated("Doc", now, "EMAIL")}
				m["permission"] = "CLOSED"
			},
		},
		{
			name: "several updates with the refresh token",
			body: map[string]any{"refresh_token": "ignored", "update": map[string]any{
				"phone_number": "901.333.3333", "remove_phone_number": "901.111.1111", "legal_name": "T. User", "public_note": "n",
			}},
			want: func(m map[string]any, _ string, _ time.Time) {
				m["phone_numbers"] = []any{"901.333.3333"}
				m["legal_names"] = []any{"Test User", "T. User"}
				extraOf(m)["public_note"] = "n"
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithManualKYCReview()) // answers and later GETs alike show the documents in review
			const email = "ann@example.com"
			u := fake.MustAddUser(t, synapsefake.UserSeed{Email: email, Fingerprint: testkit.TestFingerprint})
			key := fake.OAuthKey(u.ID, testkit.TestFingerprint, reference.ScopeUserPatch)
			want := getUserBody(t, fake, u.ID)
			fake.Advance(time.Minute)
			tc.want(want, email, fake.Now())
			extraOf(want)["last_updated"] = float64(fake.Now().UnixMilli())

			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + u.ID, Header: testkit.UserHeaders(fake, key), Body: tc.body})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(want, maskDocIDs(t, r.Body)); diff != "" {
				t.Errorf("PATCH answer (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, maskDocIDs(t, getUserBody(t, fake, u.ID))); diff != "" {
				t.Errorf("GET after PATCH (-want +got):\n%s", diff)
			}
			u = mustUser(t, fake, u.ID)
			if string(u.Permission) != want["permission"] {
				t.Errorf("fake.User Permission %q, want %v", u.Permission, want["permission"])
			}
			if diff := cmp.Diff(want["phone_numbers"], anySlice(u.PhoneNumbers)); diff != "" {
				t.Errorf("fake.User PhoneNumbers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPatchUserErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		scopes    []string          // of the caller's key; all when empty
		headers   map[string]string // changes to the fixture's headers; "" deletes
		otherKey  bool              // call with another user's key
		body      any
		status    int
		errorCode string
		code      string
	}{
		{name: "no body", body: "", status: 400, errorCode: "200", code: "invalid_json"},
		{name: "malformed JSON", body: `{"update":`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "update as a string", body: map[string]any{"update": "x"}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "cip_tag as a string", body: map[string]any{"update": map[string]any{"cip_tag": "2"}}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "login without email", body: map[string]any{"update": map[string]any{"login": map[string]any{}}}, status: 400, errorCode: "200", code: "invalid_email"},
		{name: "login with an empty email", body: map[string]any{"update": map[string]any{"login": map[string]any{"email": ""}}}, status: 400, errorCode: "200", code: "invalid_email"},
		{name: "remove_login without email", body: map[string]any{"update": map[string]any{"remove_login": map[string]any{}}}, status: 400, errorCode: "200", code: "invalid_email"},
		{name: "empty legal name", body: map[string]any{"update": map[string]any{"legal_name": ""}}, status: 400, errorCode: "200", code: "invalid_legal_name"},
		{name: "empty phone number", body: map[string]any{"update": map[string]any{"phone_number": ""}}, status: 400, errorCode: "200", code: "invalid_phone_number"},
		{name: "unknown permission", body: map[string]any{"permission": "ADMIN"}, status: 400, errorCode: "200", code: "invalid_permission"},
		{name: "permission as a number", body: map[string]any{"permission": 1}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "document not an object", body: map[string]any{"documents": []any{"x"}}, status: 400, errorCode: "200", code: "invalid_documents"},
		{name: "documents not an array", body: map[string]any{"documents": map[string]any{}}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "older doc form, value without type", body: map[string]any{"doc": map[string]any{"document_value": "3333"}}, status: 400, errorCode: "200", code: "missing_document_type"},
		{name: "older doc form, type without value", body: map[string]any{"doc": map[string]any{"document_type": "SSN"}}, status: 400, errorCode: "200", code: "missing_document_value"},
		{name: "older doc form, no document", body: map[string]any{"doc": map[string]any{"birth_day": 4, "name_first": "John"}}, status: 400, errorCode: "200", code: "missing_document_value"},
		{name: "older doc form, birth_day a string", body: map[string]any{"doc": map[string]any{"birth_day": "4", "document_type": "SSN", "document_value": "3333"}}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "key without USER|PATCH", scopes: []string{reference.ScopeUserGet, reference.ScopeNodesGet}, body: map[string]any{"permission": "LOCKED"}, status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "another user's key", otherKey: true, body: map[string]any{"permission": "LOCKED"}, status: 401, errorCode: "300", code: "unauthorized_user"},
		{name: "missing X-SP-USER", headers: map[string]string{"X-SP-USER": ""}, body: map[string]any{"permission": "LOCKED"}, status: 400, errorCode: "200", code: "missing_user_credentials"},
		{name: "empty oauth key", headers: map[string]string{"X-SP-USER": "|" + testkit.TestFingerprint}, body: map[string]any{"permission": "LOCKED"}, status: 401, errorCode: "300", code: "missing_oauth_key"},
		{name: "unknown oauth key", headers: map[string]string{"X-SP-USER": "oauth_nope|" + testkit.TestFingerprint}, body: map[string]any{"permission": "LOCKED"}, status: 401, errorCode: "110", code: "invalid_oauth_key"},
		{name: "wrong fingerprint", headers: map[string]string{"X-SP-USER-FP": ""}, body: map[string]any{"permission": "LOCKED"}, status: 401, errorCode: "120", code: "unauthorized_fingerprint"},
		{name: "missing IP", headers: map[string]string{"X-SP-USER-IP": ""}, body: map[string]any{"permission": "LOCKED"}, status: 400, errorCode: "200", code: "missing_user_ip"},
		{name: "wrong gateway", headers: map[string]string{"X-SP-GATEWAY": "a|b"}, body: map[string]any{"permission": "LOCKED"}, status: 401, errorCode: "100", code: "invalid_client_credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			f := testkit.NewFixture(t, fake, 0, tc.scopes...)
			other := testkit.NewFixture(t, fake, 0)
			headers := f.Headers
			if tc.otherKey {
				headers = other.Headers
			}
			changes := tc.headers
			if _, ok := changes["X-SP-USER-FP"]; ok {
				// The key is valid but was minted for another fingerprint.
				changes = map[string]string{"X-SP-USER": f.Key + "|other-device"}
			}
			headers = withHeaders(headers, changes)

			users := []string{f.User.ID, other.User.ID}
			before := map[string]any{}
			for _, id := range users {
				before[id] = getUserBody(t, fake, id)
				before[id+" store"] = mustUser(t, fake, id)
			}
			fake.Advance(time.Minute) // a refused call must not touch last_updated either
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + f.User.ID, Header: headers, Body: tc.body})
			wantErrorHTTPCode(t, r, tc.status, fmt.Sprint(tc.status), tc.errorCode, tc.code)
			after := map[string]any{}
			for _, id := range users {
				after[id] = getUserBody(t, fake, id)
				after[id+" store"] = mustUser(t, fake, id)
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("users changed by a refused PATCH (-before +after):\n%s", diff)
			}
		})
	}
}

// TestUserIsolation checks that a key opens only its own user's objects and
// only with the scopes it was granted.
func TestUserIsolation(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	a := testkit.NewFixture(t, fake, 1000)
	b := testkit.NewFixture(t, fake, 2000)
	nodesGetOnly := fake.OAuthKey(a.User.ID, testkit.TestFingerprint, reference.ScopeNodesGet, reference.ScopeNodeGet)
	newNode := map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Stolen"}}

	snapshot := func() map[string]any {
		out := map[string]any{}
		for _, f := range []testkit.Fixture{a, b} {
			out["user "+f.User.ID] = mustUser(t, fake, f.User.ID)
			out["body "+f.User.ID] = getUserBody(t, fake, f.User.ID)
			n, ok := fake.Node(f.Node.ID)
			if !ok {
				t.Fatalf("node %s vanished", f.Node.ID)
			}
			out["node "+f.Node.ID] = n
		}
		return out
	}
	before := snapshot()

	for _, tc := range []struct {
		name    string
		headers map[string]string
		method  string
		path    string
		body    any
		code    string
	}{
		{"list B's nodes", a.Headers, "GET", "/users/" + b.User.ID + "/nodes", nil, "unauthorized_user"},
		{"read B's node", a.Headers, "GET", "/users/" + b.User.ID + "/nodes/" + b.Node.ID, nil, "unauthorized_user"},
		{"read B's node under A's path", a.Headers, "GET", "/users/" + a.User.ID + "/nodes/" + b.Node.ID, nil, "unauthorized_node"},
		{"patch B", a.Headers, "PATCH", "/users/" + b.User.ID, map[string]any{"update": map[string]any{"legal_name": "Mallory"}}, "unauthorized_user"},
		{"create a node for B", a.Headers, "POST", "/users/" + b.User.ID + "/nodes", newNode, "unauthorized_user"},
		{"patch B's node", a.Headers, "PATCH", "/users/" + b.User.ID + "/nodes/" + b.Node.ID, map[string]any{"nickname": "Mine"}, "unauthorized_user"},
		{"patch B's node under A's path", a.Headers, "PATCH", "/users/" + a.User.ID + "/nodes/" + b.Node.ID, map[string]any{"nickname": "Mine"}, "unauthorized_node"},
		{"delete B's node", a.Headers, "DELETE", "/users/" + b.User.ID + "/nodes/" + b.Node.ID, nil, "unauthorized_user"},
		{"delete B's node under A's path", a.Headers, "DELETE", "/users/" + a.User.ID + "/nodes/" + b.Node.ID, nil, "unauthorized_node"},
		{"create a node without NODES|POST", testkit.UserHeaders(fake, nodesGetOnly), "POST", "/users/" + a.User.ID + "/nodes", newNode, "scope_not_granted"},
		{"patch own user without USER|PATCH", testkit.UserHeaders(fake, nodesGetOnly), "PATCH", "/users/" + a.User.ID, map[string]any{"permission": "LOCKED"}, "scope_not_granted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: tc.path, Header: tc.headers, Body: tc.body})
			wantErrorHTTPCode(t, r, 401, "401", "300", tc.code)
		})
	}
	if diff := cmp.Diff(before, snapshot()); diff != "" {
		t.Errorf("store changed by refused calls (-before +after):\n%s", diff)
	}

	// The same keys do open their own objects, so the refusals above are
	// about ownership and scope, not broken keys.
	for _, c := range []testkit.Call{
		{Method: "GET", Path: "/users/" + a.User.ID + "/nodes", Header: a.Headers},
		{Method: "GET", Path: "/users/" + b.User.ID + "/nodes/" + b.Node.ID, Header: b.Headers},
		{Method: "GET", Path: "/users/" + a.User.ID + "/nodes", Header: testkit.UserHeaders(fake, nodesGetOnly)},
	} {
		if r := testkit.Do(t, fake, c); r.Status != http.StatusOK {
			t.Errorf("%s %s: status %d: %s", c.Method, c.Path, r.Status, r.Raw)
		}
	}
}

// recordedBaseDoc is the base document of synapse_pay_rest's test_docs
// fixture (also SynapsePy's basedocs_user), whose recorded answer is
// docs_response.
func recordedBaseDoc() map[string]any {
	return map[string]any{
		"email": "test@test.com", "phone_number": "901.111.1111", "ip": "::1", "name": "Test User", "alias": "Test",
		"entity_type": "M", "entity_scope": "Arts & Entertainment", "day": 2, "month": 5, "year": 1989,
		"address_street": "1 Market St.", "address_city": "San Francisco", "address_subdivision": "CA",
		"address_postal_code": "94114", "address_country_code": "US",
		"virtual_docs":  []any{map[string]any{"document_value": "2222", "document_type": "SSN"}},
		"physical_docs": []any{map[string]any{"document_value": "data:image/gif;base64,SUQs==", "document_type": "GOVT_ID"}},
		"social_docs":   []any{map[string]any{"document_value": "https://www.facebook.com/valid", "document_type": "FACEBOOK"}},
	}
}

// pathString is the string at dot path p of m, where a number indexes a
// list; "" when there is none.
func pathString(m map[string]any, p string) string {
	var cur any = m
	for _, k := range strings.Split(p, ".") {
		switch v := cur.(type) {
		case map[string]any:
			cur = v[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(v) {
				return ""
			}
			cur = v[i]
		default:
			return ""
		}
	}
	s, _ := cur.(string)
	return s
}

// subDoc is a dehydrated sub-document with its id masked.
func subDoc(typ string, at time.Time) map[string]any {
	return map[string]any{"document_type": typ, "id": "<id>", "last_updated": float64(at.UnixMilli()), "status": "SUBMITTED|REVIEWING"}
}

// TestUserDocuments checks documents as the recorded answers show them:
// each base document dehydrated to its id, name, entity fields, permission
// scope and sub-documents {document_type, id, last_updated, status}, with
// the social documents the service derives from the base fields; a PATCH
// naming a base document's id merges into it; full_dehydrate=yes shows the
// values; bad input changes nothing. The reviews are manual, so every
// sub-document stays SUBMITTED|REVIEWING (TestKYCLifecycle plays them).
func TestUserDocuments(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithManualKYCReview())
	created := fake.Now()
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(fake), Body: map[string]any{
		"logins": []any{map[string]any{"email": "test@synapsepay.com"}}, "phone_numbers": []any{"901.111.1111"},
		"legal_names": []any{"Test User"}, "documents": []any{recordedBaseDoc()}}})
	if r.Status != http.StatusOK {
		t.Fatalf("POST /users: status %d: %s", r.Status, r.Raw)
	}
	userID := r.Body["_id"].(string)
	baseID := pathString(r.Body, "documents.0.id")
	emailID := pathString(r.Body, "documents.0.social_docs.0.id")
	facebookID := pathString(r.Body, "documents.0.social_docs.1.id")
	if baseID == "" || emailID == "" || facebookID == "" {
		t.Fatalf("POST /users documents lack their ids: %s", r.Raw)
	}
	want := map[string]any{"entity_scope": "Arts & Entertainment", "entity_type": "M", "id": "<id>", "name": "Test User",
		"permission_scope": "UNVERIFIED", "physical_docs": []any{subDoc("GOVT_ID", created)},
		"social_docs": []any{subDoc("EMAIL", created), subDoc("FACEBOOK", created), subDoc("PHONE_NUMBER", created),
			subDoc("DATE", created), subDoc("ADDRESS", created), subDoc("IP", created)},
		"virtual_docs": []any{subDoc("SSN", created)}}
	if diff := cmp.Diff([]any{want}, maskDocIDs(t, r.Body)["documents"]); diff != "" {
		t.Fatalf("POST /users documents (-want +got):\n%s", diff)
	}
	if r.Body["permission"] != "UNVERIFIED" {
		t.Errorf("permission %v, want UNVERIFIED while the documents are in review", r.Body["permission"])
	}
	key := fake.OAuthKey(userID, testkit.TestFingerprint)
	headers := testkit.UserHeaders(fake, key)
	other := testkit.NewFixture(t, fake, 0)
	patch := func(docs ...any) testkit.Call {
		return testkit.Call{Method: "PATCH", Path: "/users/" + userID, Header: headers, Body: map[string]any{"documents": docs}}
	}

	// Refusals first: each leaves the user and the events as they were.
	before := getUserBody(t, fake, userID)
	events := len(fake.Webhooks().All())
	for _, tc := range []struct {
		name      string
		c         testkit.Call
		status    int
		errorCode string
		code      string
	}{
		{"unknown base document", patch(map[string]any{"id": strings.Repeat("0", 64), "name": "X"}), 409, "400", "unknown_document"},
		{"unknown sub-document", patch(map[string]any{"id": baseID, "physical_docs": []any{map[string]any{"id": strings.Repeat("0", 64), "document_value": "x"}}}), 409, "400", "unknown_document"},
		{"sub-document of another kind", patch(map[string]any{"id": baseID, "virtual_docs": []any{map[string]any{"id": facebookID, "document_value": "x"}}}), 409, "400", "unknown_document"},
		{"empty base id", patch(map[string]any{"id": "", "name": "X"}), 400, "200", "invalid_document_id"},
		{"base id as a number", patch(map[string]any{"id": 7}), 400, "200", "invalid_field_type"},
		{"name as a number", patch(map[string]any{"id": baseID, "name": 7}), 400, "200", "invalid_field_type"},
		{"day as a string", patch(map[string]any{"id": baseID, "day": "2"}), 400, "200", "invalid_field_type"},
		{"physical_docs as an object", patch(map[string]any{"id": baseID, "physical_docs": map[string]any{}}), 400, "200", "invalid_field_type"},
		{"sub-document as a string", patch(map[string]any{"id": baseID, "social_docs": []any{"x"}}), 400, "200", "invalid_field_type"},
		{"sub-document without document_type", patch(map[string]any{"id": baseID, "physical_docs": []any{map[string]any{"document_value": "x"}}}), 400, "200", "missing_document_type"},
		{"sub-document without document_value", patch(map[string]any{"id": baseID, "physical_docs": []any{map[string]any{"document_type": "GOVT_ID"}}}), 400, "200", "missing_document_value"},
		{"document_value as a number", patch(map[string]any{"id": baseID, "virtual_docs": []any{map[string]any{"document_type": "SSN", "document_value": 2222}}}), 400, "200", "invalid_field_type"},
		{"malformed JSON", testkit.Call{Method: "PATCH", Path: "/users/" + userID, Header: headers, Body: `{"documents":[{"id":`}, 400, "200", "invalid_json"},
		{"no oauth key", testkit.Call{Method: "PATCH", Path: "/users/" + userID, Header: testkit.GatewayHeaders(fake), Body: map[string]any{"documents": []any{map[string]any{"id": baseID, "name": "X"}}}}, 401, "300", ""},
		{"wrong gateway", testkit.Call{Method: "PATCH", Path: "/users/" + userID, Header: testkit.EditHeaders(headers, map[string]string{"X-SP-GATEWAY": "a|b"}), Body: map[string]any{"documents": []any{map[string]any{"id": baseID, "name": "X"}}}}, 401, "100", ""},
		{"another user's key", testkit.Call{Method: "PATCH", Path: "/users/" + userID, Header: other.Headers, Body: map[string]any{"documents": []any{map[string]any{"id": baseID, "name": "X"}}}}, 401, "300", ""},
		{"another user's base document", testkit.Call{Method: "PATCH", Path: "/users/" + other.User.ID, Header: other.Headers, Body: map[string]any{"documents": []any{map[string]any{"id": baseID, "name": "X"}}}}, 409, "400", "unknown_document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.WantError(t, testkit.Do(t, fake, tc.c), tc.status, tc.errorCode, tc.code)
		})
	}
	if diff := cmp.Diff(before, getUserBody(t, fake, userID)); diff != "" {
		t.Fatalf("refusals changed the user (-before +after):\n%s", diff)
	}
	if n := len(fake.Webhooks().All()); n != events {
		t.Fatalf("%d events after the refusals, want %d", n, events)
	}

	// Merges, each seen in the answer and in a later GET.
	for _, tc := range []struct {
		name  string
		docs  []any
		want  func(at time.Time) // changes want, the base document
		newID bool               // the base document takes a new id
	}{
		{"a sub-document is added to the base document of the id",
			[]any{map[string]any{"id": baseID, "physical_docs": []any{map[string]any{"document_type": "SELFIE", "document_value": "data:image/png;base64,SUQs=="}}}},
			func(at time.Time) {
				want["physical_docs"] = append(want["physical_docs"].([]any), subDoc("SELFIE", at))
			}, false},
		{"fields are replaced and their derived documents refiled in place",
			[]any{map[string]any{"id": baseID, "name": "Doctor Boop", "email": "boop@doo.com", "entity_type": "F"}},
			func(at time.Time) {
				want["name"], want["entity_type"] = "Doctor Boop", "F"
				want["social_docs"].([]any)[0] = subDoc("EMAIL", at)
			}, true},
		{"fields other than the email and phone number keep the base document's id",
			[]any{map[string]any{"id": "<new>", "entity_scope": "Lawyer"}},
			func(time.Time) { want["entity_scope"] = "Lawyer" }, false},
		{"a sub-document named by id is replaced in place",
			[]any{map[string]any{"id": "<new>", "social_docs": []any{map[string]any{"id": facebookID, "document_type": "FACEBOOK", "document_value": "https://www.facebook.com/other"}}}},
			func(at time.Time) { want["social_docs"].([]any)[1] = subDoc("FACEBOOK", at) }, false},
	} {
		fake.Advance(time.Minute)
		tc.want(fake.Now())
		if d := tc.docs[0].(map[string]any); d["id"] == "<new>" {
			d["id"] = baseID
		}
		r := testkit.Do(t, fake, patch(tc.docs...))
		if r.Status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tc.name, r.Status, r.Raw)
		}
		if tc.newID {
			old := baseID
			if baseID = pathString(r.Body, "documents.0.id"); baseID == old || len(baseID) != 64 {
				t.Fatalf("%s: base document id %q, want a new one (was %s)", tc.name, baseID, old)
			}
			testkit.WantError(t, testkit.Do(t, fake, patch(map[string]any{"id": old, "name": "X"})), 409, "400", "unknown_document")
		}
		for _, body := range []map[string]any{r.Body, getUserBody(t, fake, userID)} {
			if docs := body["documents"].([]any); docs[0].(map[string]any)["id"] != baseID {
				t.Errorf("%s: base document id %v, want %s", tc.name, docs[0].(map[string]any)["id"], baseID)
			}
			if diff := cmp.Diff([]any{want}, maskDocIDs(t, body)["documents"]); diff != "" {
				t.Errorf("%s: documents (-want +got):\n%s", tc.name, diff)
			}
		}
	}
	got := getUserBody(t, fake, userID)["documents"].([]any)[0].(map[string]any)
	if id := got["social_docs"].([]any)[0].(map[string]any)["id"]; id != emailID {
		t.Errorf("refiled EMAIL id %v, want %s", id, emailID)
	}
	if id := got["social_docs"].([]any)[1].(map[string]any)["id"]; id != facebookID {
		t.Errorf("replaced FACEBOOK id %v, want %s", id, facebookID)
	}

	// Without an id, a second base document is added.
	fake.Advance(time.Minute)
	r = testkit.Do(t, fake, patch(map[string]any{"name": "Second Doc", "ip": "127.0.0.2"}))
	second := map[string]any{"entity_scope": "", "entity_type": "", "id": "<id>", "name": "Second Doc", "permission_scope": "UNVERIFIED",
		"physical_docs": []any{}, "social_docs": []any{subDoc("IP", fake.Now())}, "virtual_docs": []any{}}
	if diff := cmp.Diff([]any{want, second}, maskDocIDs(t, r.Body)["documents"]); diff != "" {
		t.Errorf("documents after a base document without id (-want +got):\n%s", diff)
	}

	// full_dehydrate=yes shows the fields and the values sent.
	full := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + userID + "?full_dehydrate=yes", Header: testkit.GatewayHeaders(fake)})
	doc := full.Body["documents"].([]any)[0].(map[string]any)
	for k, v := range map[string]any{"alias": "Test", "email": "boop@doo.com", "day": float64(2), "address_city": "San Francisco", "ip": "::1"} {
		if doc[k] != v {
			t.Errorf("full_dehydrate %s = %v, want %v", k, doc[k], v)
		}
	}
	if v := doc["virtual_docs"].([]any)[0].(map[string]any)["document_value"]; v != "2222" {
		t.Errorf("full_dehydrate SSN document_value %v, want 2222", v)
	}
	if _, ok := getUserBody(t, fake, userID)["documents"].([]any)[0].(map[string]any)["alias"]; ok {
		t.Errorf("alias shown without full_dehydrate")
	}
}

// TestDeleteDocument: permission_scope DELETE_DOCUMENT with a base
// document's id removes it, as synapsenode's deleteExistingDocument sends.
func TestDeleteDocument(t *testing.T) {
	for _, tc := range []struct {
		name      string
		doc       func(id string) map[string]any
		status    int
		code      string // error.code; "" for success
		wantCount int    // base documents after the call
	}{
		{"removes the base document", func(id string) map[string]any {
			return map[string]any{"id": id, "permission_scope": "DELETE_DOCUMENT"}
		}, 200, "", 0},
		{"unknown id", func(string) map[string]any {
			return map[string]any{"id": strings.Repeat("ab", 32), "permission_scope": "DELETE_DOCUMENT"}
		}, 409, "unknown_document", 1},
		{"no id", func(string) map[string]any { return map[string]any{"permission_scope": "DELETE_DOCUMENT"} }, 400, "missing_document_id", 1},
		{"wrong type", func(id string) map[string]any { return map[string]any{"id": id, "permission_scope": 7} }, 400, "invalid_field_type", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			path := "/users/" + fx.User.ID
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"documents": []any{
				map[string]any{"email": "a@example.com", "name": "Ann", "entity_type": "F", "entity_scope": "Arts & Entertainment"}}}})
			docs, _ := r.Body["documents"].([]any)
			if r.Status != 200 || len(docs) != 1 {
				t.Fatalf("file a document: %d %s", r.Status, r.Raw)
			}
			id, _ := docs[0].(map[string]any)["id"].(string)
			r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"documents": []any{tc.doc(id)}}})
			if tc.code != "" {
				testkit.WantError(t, r, tc.status, map[int]string{400: "200", 409: "400"}[tc.status], tc.code)
			} else if r.Status != 200 {
				t.Errorf("status %d: %s", r.Status, r.Raw)
			}
			got := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path, Header: testkit.GatewayHeaders(fake)})
			if docs, _ := got.Body["documents"].([]any); len(docs) != tc.wantCount {
				t.Errorf("%d base documents after the call, want %d", len(docs), tc.wantCount)
			}
		})
	}
}

// TestDeletedDocumentCannotBeNamedAgain: a PATCH that deletes a base
// document and then names it again (to add a sub-document under it) is
// 409 / "400" unknown_document and changes nothing, as naming a document
// not on file is; it used to file a new base document, its sub-document
// without a type.
func TestDeletedDocumentCannotBeNamedAgain(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	path := "/users/" + fx.User.ID
	r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"documents": []any{
		map[string]any{"email": "a@example.com", "name": "Ann", "entity_type": "F", "entity_scope": "Arts & Entertainment",
			"physical_docs": []any{map[string]any{"document_type": "GOVT_ID", "document_value": "data:image/png;base64,SUQs=="}}}}}})
	docs, _ := r.Body["documents"].([]any)
	if r.Status != 200 || len(docs) != 1 {
		t.Fatalf("file a document: %d %s", r.Status, r.Raw)
	}
	doc := docs[0].(map[string]any)
	id, _ := doc["id"].(string)
	physical, _ := doc["physical_docs"].([]any)
	if len(physical) != 1 {
		t.Fatalf("the document holds %d physical docs: %s", len(physical), r.Raw)
	}
	sub, _ := physical[0].(map[string]any)["id"].(string)
	before := testkit.StateBeyondJournal(t, testkit.SnapshotBytes(t, fake))
	r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"documents": []any{
		map[string]any{"id": id, "permission_scope": "DELETE_DOCUMENT"},
		map[string]any{"id": id, "physical_docs": []any{map[string]any{"id": sub, "document_value": "data:image/png;base64,SUQs=="}}}}}})
	testkit.WantError(t, r, 409, "400", "unknown_document")
	if after := testkit.StateBeyondJournal(t, testkit.SnapshotBytes(t, fake)); after != before {
		t.Errorf("the refused PATCH changed the state: %s", testkit.FirstDiff(after, before))
	}
}

// TestLockedUserKeepsItsKey: a user PATCHed to LOCKED, CLOSED or
// MAKE-IT-GO-AWAY keeps its oauth_keys, so that the platform can unlock
// (or delete) the user it locked with the user's key, as the provider's js
// wrapper's PATCH_USER_PERMISSION test does (lock, then MAKE-IT-GO-AWAY
// with the same key). The key opens only the user itself; every other
// route, money moves and node creation among them, answers 409 / "410"
// user_locked, and POST /oauth still gives no new key. It used to answer
// 401 / "110": locking revoked the keys. The platform's
// POST /_fake/users/{id}/permission works as before.
func TestLockedUserKeepsItsKey(t *testing.T) {
	t.Parallel()
	for _, perm := range []string{"LOCKED", "CLOSED", "MAKE-IT-GO-AWAY"} {
		t.Run(perm, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 100_00)
			peer := testkit.NewFixture(t, fake, 0)
			other := fake.OAuthKey(fx.User.ID, "second-device")
			otherHeaders := testkit.EditHeaders(testkit.UserHeaders(fake, other), map[string]string{"X-SP-USER": other + "|second-device"})
			permission := func() string {
				u, _ := fake.User(fx.User.ID)
				return string(u.Permission)
			}
			patch := func(headers map[string]string, body map[string]any) testkit.Response {
				return testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + fx.User.ID, Header: headers, Body: body})
			}
			pay := func(headers map[string]string) testkit.Response {
				return testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, fx.Node.ID), Header: headers, Body: testkit.TxBody(peer.Node, 1)})
			}
			if r := patch(fx.Headers, map[string]any{"permission": perm}); r.Status != http.StatusOK || r.Body["permission"] != perm {
				t.Fatalf("PATCH permission %s: status %d: %s", perm, r.Status, r.Raw)
			}

			// The key opens the user itself.
			if r := patch(fx.Headers, map[string]any{"update": map[string]any{"legal_name": "Ann Locked"}}); r.Status != http.StatusOK || r.Body["permission"] != perm {
				t.Errorf("PATCH legal_name with the key: status %d: %s", r.Status, r.Raw)
			}
			for _, c := range []testkit.Call{
				{Method: "GET", Path: "/users/" + fx.User.ID},
				{Method: "GET", Path: "/users/" + fx.User.ID + "/get-duplicates"},
			} {
				c.Header = fx.Headers
				if r := testkit.Do(t, fake, c); r.Status != http.StatusOK {
					t.Errorf("%s %s with the key: status %d: %s", c.Method, c.Path, r.Status, r.Raw)
				}
			}
			// And nothing else.
			for _, c := range []testkit.Call{
				{Method: "POST", Path: testkit.TransPath(fx.User.ID, fx.Node.ID), Body: testkit.TxBody(peer.Node, 1)},
				{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes", Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "More"}}},
				{Method: "GET", Path: "/users/" + fx.User.ID + "/nodes"},
			} {
				c.Header = fx.Headers
				testkit.WantError(t, testkit.Do(t, fake, c), 409, "410", "user_locked")
			}
			testkit.WantError(t, pay(otherHeaders), 409, "410", "user_locked")
			u, _ := fake.User(fx.User.ID)
			testkit.WantError(t, postOAuth(t, fake, u.ID, testkit.TestFingerprint, map[string]any{"refresh_token": u.RefreshToken}), 409, "410", "user_locked")
			if n := len(mustUser(t, fake, fx.User.ID).NodeIDs); n != 1 {
				t.Errorf("the locked user holds %d nodes, want 1", n)
			}
			fake.CheckBalance(t, fx.Node.ID, 100_00, 100_00)

			for _, tc := range []struct {
				name, path string
				body       any
				status     int
				code       string
			}{
				{"unknown permission", "/users/" + fx.User.ID + "/permission", map[string]any{"permission": "OPEN"}, 400, "invalid_permission"},
				{"missing permission", "/users/" + fx.User.ID + "/permission", map[string]any{}, 400, "missing_permission"},
				{"unknown field", "/users/" + fx.User.ID + "/permission", map[string]any{"permision": "SEND-AND-RECEIVE"}, 400, ""},
				{"unknown user", "/users/0123456789abcdef01234567/permission", map[string]any{"permission": "SEND-AND-RECEIVE"}, 404, "unable_to_locate_user"},
			} {
				r := testkit.Ctl(t, fake, "POST", tc.path, tc.body)
				if r.Status != tc.status || tc.code != "" && testkit.CtlObj(r.Body["error"])["code"] != tc.code {
					t.Errorf("%s: status %d, want %d %s: %s", tc.name, r.Status, tc.status, tc.code, r.Raw)
				}
			}
			if got := permission(); got != perm {
				t.Fatalf("permission %s after the refusals, want %s", got, perm)
			}

			// The platform deletes the user it locked, then unlocks it, with
			// the user's own keys.
			if r := patch(otherHeaders, map[string]any{"permission": "MAKE-IT-GO-AWAY"}); r.Status != http.StatusOK || permission() != "MAKE-IT-GO-AWAY" {
				t.Fatalf("PATCH MAKE-IT-GO-AWAY with the other device's key: status %d, permission %s: %s", r.Status, permission(), r.Raw)
			}
			if r := patch(fx.Headers, map[string]any{"permission": "SEND-AND-RECEIVE"}); r.Status != http.StatusOK || permission() != "SEND-AND-RECEIVE" {
				t.Fatalf("unlock with the user's key: status %d, permission %s: %s", r.Status, permission(), r.Raw)
			}
			if r := pay(fx.Headers); r.Status != http.StatusOK {
				t.Errorf("pay after the unlock: status %d: %s", r.Status, r.Raw)
			}
			got := testkit.CtlOK(t, fake, "POST", "/users/"+fx.User.ID+"/permission", map[string]any{"permission": perm})
			if p := testkit.CtlObj(got["user"])["permission"]; p != perm || permission() != perm {
				t.Fatalf("platform lock: answered %v, user %s, want %s", p, permission(), perm)
			}
			got = testkit.CtlOK(t, fake, "POST", "/users/"+fx.User.ID+"/permission", map[string]any{"permission": "SEND-AND-RECEIVE"})
			if p := testkit.CtlObj(got["user"])["permission"]; p != "SEND-AND-RECEIVE" || permission() != "SEND-AND-RECEIVE" {
				t.Fatalf("platform unlock: answered %v, user %s, want SEND-AND-RECEIVE", p, permission())
			}
		})
	}
}

// TestDeleteSubDocument: a sub-document sent with its id and document_type
// DELETE_DOCUMENT is removed from its base document, as synapsenode's
// deleteExistingDocument and the js wrapper's PATCH_DELETE_SUB_DOCS send
// it (that suite deleted every social document, the ones filed from the
// base fields too, and expected none left); it used to become a
// sub-document of type DELETE_DOCUMENT. An id not on file under that kind,
// or deleted earlier in the request, is 409 / "400" unknown_document, and
// DELETE_DOCUMENT without an id 400 / "200" missing_document_id; neither
// changes anything.
func TestDeleteSubDocument(t *testing.T) {
	t.Parallel()
	const png = "data:image/png;base64,SUQs=="
	del := func(id string) map[string]any {
		return map[string]any{"id": id, "document_type": "DELETE_DOCUMENT", "document_value": png}
	}
	for _, tc := range []struct {
		name string
		// subs are the sub-documents sent, by kind, given the ids of the
		// filed ones by type.
		subs      func(ids map[string]string) map[string][]any
		status    int
		code      string              // error.code; "" for success
		wantTypes map[string][]string // the base document's sub-documents' types after the call, by kind
	}{
		{
			name: "a social document",
			subs: func(ids map[string]string) map[string][]any {
				return map[string][]any{"social_docs": {del(ids["FACEBOOK"])}}
			},
			status: 200,
			wantTypes: map[string][]string{"physical_docs": {"GOVT_ID"}, "social_docs": {"EMAIL", "PHONE_NUMBER"},
				"virtual_docs": {"SSN"}},
		},
		{
			name: "a virtual document",
			subs: func(ids map[string]string) map[string][]any {
				return map[string][]any{"virtual_docs": {del(ids["SSN"])}}
			},
			status: 200,
			wantTypes: map[string][]string{"physical_docs": {"GOVT_ID"}, "social_docs": {"EMAIL", "FACEBOOK", "PHONE_NUMBER"},
				"virtual_docs": {}},
		},
		{
			name: "a physical document, without a document_value",
			subs: func(ids map[string]string) map[string][]any {
				return map[string][]any{"physical_docs": {map[string]any{"id": ids["GOVT_ID"], "document_type": "DELETE_DOCUMENT"}}}
			},
			status: 200,
			wantTypes: map[string][]string{"physical_docs": {}, "social_docs": {"EMAIL", "FACEBOOK", "PHONE_NUMBER"},
				"virtual_docs": {"SSN"}},
		},
		{
			name: "every social document, those filed from the base fields too",
			subs: func(ids map[string]string) map[string][]any {
				return map[string][]any{"social_docs": {del(ids["EMAIL"]), del(ids["FACEBOOK"]), del(ids["PHONE_NUMBER"])}}
			},
			status:    200,
			wantTypes: map[string][]string{"physical_docs": {"GOVT_ID"}, "social_docs": {}, "virtual_docs": {"SSN"}},
		},
		{
			name: "an unknown id",
			subs: func(map[string]string) map[string][]any {
				return map[string][]any{"social_docs": {del(strings.Repeat("ab", 32))}}
			},
			status: 409, code: "unknown_document",
		},
		{
			name: "another kind's id",
			subs: func(ids map[string]string) map[string][]any {
				return map[string][]any{"virtual_docs": {del(ids["FACEBOOK"])}}
			},
			status: 409, code: "unknown_document",
		},
		{
			name: "deleted twice",
			subs: func(ids map[string]string) map[string][]any {
				return map[string][]any{"social_docs": {del(ids["FACEBOOK"]), del(ids["FACEBOOK"])}}
			},
			status: 409, code: "unknown_document",
		},
		{
			name: "deleted, then changed",
			subs: func(ids map[string]string) map[string][]any {
				return map[string][]any{"social_docs": {del(ids["FACEBOOK"]), map[string]any{"id": ids["FACEBOOK"], "document_value": "https://facebook.com/b"}}}
			},
			status: 409, code: "unknown_document",
		},
		{
			name: "no id",
			subs: func(map[string]string) map[string][]any {
				return map[string][]any{"social_docs": {map[string]any{"document_type": "DELETE_DOCUMENT", "document_value": png}}}
			},
			status: 400, code: "missing_document_id",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			path := "/users/" + fx.User.ID
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"documents": []any{map[string]any{
				"email": "a@example.com", "phone_number": "901.111.1111", "name": "Ann", "entity_type": "F", "entity_scope": "Arts & Entertainment",
				"physical_docs": []any{map[string]any{"document_type": "GOVT_ID", "document_value": png}},
				"social_docs":   []any{map[string]any{"document_type": "FACEBOOK", "document_value": "https://facebook.com/a"}},
				"virtual_docs":  []any{map[string]any{"document_type": "SSN", "document_value": "2222"}}}}}})
			docs, _ := r.Body["documents"].([]any)
			if r.Status != 200 || len(docs) != 1 {
				t.Fatalf("file a document: %d %s", r.Status, r.Raw)
			}
			doc := docs[0].(map[string]any)
			ids := map[string]string{}
			for _, kind := range []string{"physical_docs", "social_docs", "virtual_docs"} {
				for _, d := range doc[kind].([]any) {
					d := d.(map[string]any)
					ids[d["document_type"].(string)] = d["id"].(string)
				}
			}
			before := testkit.StateBeyondJournal(t, testkit.SnapshotBytes(t, fake))
			base := map[string]any{"id": doc["id"]}
			for kind, subs := range tc.subs(ids) {
				base[kind] = subs
			}
			r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"documents": []any{base}}})
			if tc.code != "" {
				testkit.WantError(t, r, tc.status, map[int]string{400: "200", 409: "400"}[tc.status], tc.code)
				if after := testkit.StateBeyondJournal(t, testkit.SnapshotBytes(t, fake)); after != before {
					t.Errorf("the refused PATCH changed the state: %s", testkit.FirstDiff(after, before))
				}
				return
			}
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			for name, body := range map[string]map[string]any{"answer": r.Body, "GET": getUserBody(t, fake, fx.User.ID)} {
				doc := body["documents"].([]any)[0].(map[string]any)
				got := map[string][]string{}
				for _, kind := range []string{"physical_docs", "social_docs", "virtual_docs"} {
					got[kind] = []string{}
					for _, d := range doc[kind].([]any) {
						got[kind] = append(got[kind], d.(map[string]any)["document_type"].(string))
					}
					slices.Sort(got[kind])
				}
				if diff := cmp.Diff(tc.wantTypes, got); diff != "" {
					t.Errorf("%s: sub-documents' types (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

// TestPatchUserFullDehydrate: PATCH /users/{id}?full_dehydrate=yes answers
// the user as GET /users/{id}?full_dehydrate=yes shows it (the base
// documents' fields and each document_value); without the flag, or with
// another value, the documents stay dehydrated. The flag used to be
// ignored.
func TestPatchUserFullDehydrate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query string
		full  bool
	}{
		{"?full_dehydrate=yes", true},
		{"?full_dehydrate=YES", true},
		{"", false},
		{"?full_dehydrate=no", false},
	} {
		t.Run(tc.query, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithManualKYCReview()) // the answer and a later GET alike show the documents in review
			fx := testkit.NewFixture(t, fake, 0)
			path := "/users/" + fx.User.ID
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + tc.query, Header: fx.Headers, Body: map[string]any{"documents": []any{map[string]any{
				"email": "a@example.com", "name": "Ann", "entity_type": "F", "entity_scope": "Arts & Entertainment", "day": 2,
				"virtual_docs": []any{map[string]any{"document_type": "SSN", "document_value": "2222"}}}}}})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			getQuery := ""
			if tc.full {
				getQuery = "?full_dehydrate=yes"
			}
			get := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path + getQuery, Header: testkit.GatewayHeaders(fake)})
			if diff := cmp.Diff(get.Body, r.Body); diff != "" {
				t.Errorf("PATCH answer differs from GET %s (-GET +PATCH):\n%s", getQuery, diff)
			}
			doc := r.Body["documents"].([]any)[0].(map[string]any)
			ssn := doc["virtual_docs"].([]any)[0].(map[string]any)
			if _, shown := ssn["document_value"]; shown != tc.full {
				t.Errorf("document_value shown %v, want %v: %s", shown, tc.full, r.Raw)
			}
			if _, shown := doc["email"]; shown != tc.full {
				t.Errorf("the base document's email shown %v, want %v: %s", shown, tc.full, r.Raw)
			}
		})
	}
}
