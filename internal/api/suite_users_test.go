package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// These tests hold the fake to what the provider's own integration suites
// (shipped with its older Python and Ruby clients) expected of the sandbox
// for users: issue 21, point 7.

// TestLoginReadOnly checks that a login sent with the older read_only flag
// gets scope READ, on POST /users and on PATCH's update.login; scope, when
// sent, wins.
func TestLoginReadOnly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		login map[string]any
		want  string
	}{
		{"read_only true", map[string]any{"email": "ro@example.com", "password": "pw", "read_only": true}, "READ"},
		{"read_only false", map[string]any{"email": "ro@example.com", "read_only": false}, "READ_AND_WRITE"},
		{"neither", map[string]any{"email": "ro@example.com"}, "READ_AND_WRITE"},
		{"scope wins over read_only", map[string]any{"email": "ro@example.com", "scope": "READ_AND_WRITE", "read_only": true}, "READ_AND_WRITE"},
		{"scope READ", map[string]any{"email": "ro@example.com", "scope": "READ", "read_only": false}, "READ"},
	} {
		t.Run("PATCH "+tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			u := fake.MustAddUser(t, synapsefake.UserSeed{Email: "ann@example.com", Fingerprint: testkit.TestFingerprint})
			key := fake.OAuthKey(u.ID, testkit.TestFingerprint, reference.ScopeUserPatch)
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + u.ID, Header: testkit.UserHeaders(fake, key),
				Body: map[string]any{"update": map[string]any{"login": tc.login}}})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			want := []any{map[string]any{"email": "ann@example.com", "scope": "READ_AND_WRITE"}, map[string]any{"email": "ro@example.com", "scope": tc.want}}
			if diff := cmp.Diff(want, getUserBody(t, fake, u.ID)["logins"]); diff != "" {
				t.Errorf("logins (-want +got):\n%s", diff)
			}
		})
		t.Run("POST "+tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(fake), Body: map[string]any{
				"logins":        []any{tc.login, map[string]any{"email": "two@example.com", "read_only": true}},
				"phone_numbers": []any{"901.111.1111"}, "legal_names": []any{"Ro User"},
			}})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			want := []any{map[string]any{"email": "ro@example.com", "scope": tc.want}, map[string]any{"email": "two@example.com", "scope": "READ"}}
			if diff := cmp.Diff(want, r.Body["logins"]); diff != "" {
				t.Errorf("logins (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRemoveAbsentValue checks that removing a login or a phone number the
// user does not have answers the user, 200, with its logins and phones as
// they were, alone or beside other changes.
func TestRemoveAbsentValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		update map[string]any
		change func(m map[string]any)
	}{
		{"absent login", map[string]any{"remove_login": map[string]any{"email": "no@example.com"}}, func(map[string]any) {}},
		{"absent phone", map[string]any{"remove_phone_number": "000"}, func(map[string]any) {}},
		{"absent phone beside an added one", map[string]any{"phone_number": "901.999.9999", "remove_phone_number": "000"},
			func(m map[string]any) { m["phone_numbers"] = []any{"901.111.1111", "901.999.9999"} }},
		{"absent login beside an added one", map[string]any{"login": map[string]any{"email": "n@example.com"}, "remove_login": map[string]any{"email": "no@example.com"}},
			func(m map[string]any) {
				m["logins"] = []any{map[string]any{"email": "ann@example.com", "scope": "READ_AND_WRITE"}, map[string]any{"email": "n@example.com", "scope": "READ_AND_WRITE"}}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			u := fake.MustAddUser(t, synapsefake.UserSeed{Email: "ann@example.com", PhoneNumbers: []string{"901.111.1111"}, Fingerprint: testkit.TestFingerprint})
			key := fake.OAuthKey(u.ID, testkit.TestFingerprint, reference.ScopeUserPatch)
			want := getUserBody(t, fake, u.ID)
			fake.Advance(time.Minute)
			tc.change(want)
			extraOf(want)["last_updated"] = float64(fake.Now().UnixMilli())
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + u.ID, Header: testkit.UserHeaders(fake, key), Body: map[string]any{"update": tc.update}})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, getUserBody(t, fake, u.ID)); diff != "" {
				t.Errorf("GET after (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPatchUserOlderKYCForm checks the older KYC form, PATCH /users/{id}
// {"doc": {...}}: the user is answered, and the doc is filed as today's
// documents form would file it (a base document with the personal fields,
// the SSN a virtual document), merged into the first base document when
// there is one; its SSN makes duplicates with today's form. Reviews are
// manual here, so the documents stay in review until the test's own
// review at the end: the SSN alone gives RECEIVE, with the attachment
// SEND-AND-RECEIVE.
func TestPatchUserOlderKYCForm(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithManualKYCReview())
	// The body of the Ruby gem's samples.md "Add Document" (add_doc).
	oldDoc := map[string]any{"doc": map[string]any{
		"birth_day": 4, "birth_month": 2, "birth_year": 1940, "name_first": "John", "name_last": "doe",
		"address_street1": "1 Infinite Loop", "address_postal_code": "95014", "address_country_code": "US",
		"document_value": "333-33-3333", "document_type": "SSN",
	}}
	patch := func(u synapsefake.User, body map[string]any) testkit.Response {
		t.Helper()
		key := fake.OAuthKey(u.ID, testkit.TestFingerprint, reference.ScopeUserPatch)
		return testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + u.ID, Header: testkit.UserHeaders(fake, key), Body: body})
	}
	full := func(u synapsefake.User) map[string]any {
		t.Helper()
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + u.ID + "?full_dehydrate=yes", Header: testkit.GatewayHeaders(fake)})
		if r.Status != http.StatusOK {
			t.Fatalf("GET: status %d: %s", r.Status, r.Raw)
		}
		return maskDocIDs(t, r.Body)
	}

	older := fake.MustAddUser(t, synapsefake.UserSeed{Email: "john@example.com", Fingerprint: testkit.TestFingerprint})
	fake.Advance(time.Minute)
	at := float64(fake.Now().UnixMilli())
	r := patch(older, oldDoc)
	if r.Status != http.StatusOK {
		t.Fatalf("older form: status %d, want 200: %s", r.Status, r.Raw)
	}
	if r.Body["_id"] != older.ID || r.Body["permission"] != "UNVERIFIED" {
		t.Errorf("answer: _id %v permission %v, want the user %s, UNVERIFIED while its documents are in review", r.Body["_id"], r.Body["permission"], older.ID)
	}
	sub := func(typ, value string) map[string]any {
		m := map[string]any{"document_type": typ, "id": "<id>", "last_updated": at, "status": "SUBMITTED|REVIEWING"}
		if value != "" {
			m["document_value"] = value
		}
		return m
	}
	wantDoc := map[string]any{
		"entity_scope": "", "entity_type": "", "id": "<id>", "name": "John doe", "permission_scope": "UNVERIFIED",
		"day": float64(4), "month": float64(2), "year": float64(1940),
		"address_street": "1 Infinite Loop", "address_postal_code": "95014", "address_country_code": "US",
		"physical_docs": []any{}, "social_docs": []any{sub("DATE", ""), sub("ADDRESS", "")},
		"virtual_docs": []any{sub("SSN", "333-33-3333")},
	}
	if diff := cmp.Diff([]any{wantDoc}, full(older)["documents"]); diff != "" {
		t.Errorf("documents (-want +got):\n%s", diff)
	}

	// Again, with another SSN and an attachment (attach_file's form):
	// merged into the same base document, the SSN replaced.
	fake.Advance(time.Minute)
	at = float64(fake.Now().UnixMilli())
	if r := patch(older, map[string]any{"doc": map[string]any{"document_type": "ssn", "document_value": "444-44-4444"}}); r.Status != http.StatusOK {
		t.Fatalf("second older form: status %d: %s", r.Status, r.Raw)
	}
	if r := patch(older, map[string]any{"doc": map[string]any{"attachment": "data:image/png;base64,SUQ="}}); r.Status != http.StatusOK {
		t.Fatalf("attachment: status %d: %s", r.Status, r.Raw)
	}
	ssn := sub("ssn", "444-44-4444") // the type as sent, as today's form keeps it
	wantDoc["virtual_docs"] = []any{ssn}
	wantDoc["physical_docs"] = []any{sub("GOVT_ID", "data:image/png;base64,SUQ=")}
	if diff := cmp.Diff([]any{wantDoc}, full(older)["documents"]); diff != "" {
		t.Errorf("documents after the second call (-want +got):\n%s", diff)
	}

	// A user with today's form and the same SSN is a duplicate.
	today := fake.MustAddUser(t, synapsefake.UserSeed{Email: "j@example.com", Fingerprint: testkit.TestFingerprint})
	if r := patch(today, map[string]any{"documents": []any{map[string]any{"name": "J", "virtual_docs": []any{
		map[string]any{"document_type": "SSN", "document_value": "444444444"}}}}}); r.Status != http.StatusOK {
		t.Fatalf("today's form: status %d: %s", r.Status, r.Raw)
	}
	key := fake.OAuthKey(today.ID, testkit.TestFingerprint, reference.ScopeUserGet)
	r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + today.ID + "/get-duplicates", Header: testkit.UserHeaders(fake, key)})
	if r.Status != http.StatusOK {
		t.Fatalf("get-duplicates: status %d: %s", r.Status, r.Raw)
	}
	if diff := cmp.Diff([]any{older.ID}, r.Body["open_users_id"]); diff != "" || r.Body["reason"] != "duplicate_document" {
		t.Errorf("get-duplicates: reason %v, open_users_id (-want +got):\n%s", r.Body["reason"], diff)
	}

	// Reviewed, the SSN alone gives RECEIVE (the 2015 recording of this
	// form), the SSN and the attachment SEND-AND-RECEIVE.
	u, _ := fake.User(today.ID)
	if err := fake.ReviewDocument(today.ID, u.Documents[0].SubDocuments[0].ID, "VALID"); err != nil {
		t.Fatal(err)
	}
	fake.CheckPermission(t, today.ID, synapsefake.PermissionReceive)
	if err := fake.ReviewDocuments(older.ID, "VALID"); err != nil {
		t.Fatal(err)
	}
	fake.CheckPermission(t, older.ID, synapsefake.PermissionSendAndReceive)
}
