package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// createDocUser creates a user over the API with one base document, as the
// SDKs' samples do, and returns it with a key holding every scope.
func createDocUser(t testing.TB, fake *synapsefake.Server, name, email string) testkit.Fixture {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(fake), Body: map[string]any{
		"logins": []any{map[string]any{"email": email}}, "phone_numbers": []any{"901.111.1111"}, "legal_names": []any{name},
		"documents": []any{map[string]any{"email": email, "phone_number": "901.111.1111", "ip": "::1", "name": name,
			"entity_type": "LLC", "entity_scope": "Arts & Entertainment", "day": 2, "month": 5, "year": 1989,
			"address_street": "1 Market St.", "address_city": "SF", "address_subdivision": "CA",
			"address_postal_code": "94105", "address_country_code": "US",
			"physical_docs": []any{map[string]any{"document_value": "data:image/gif;base64,SUQs==", "document_type": "GOVT_ID"}}}},
		"extra": map[string]any{"is_business": true},
	}})
	if r.Status != http.StatusOK {
		t.Fatalf("POST /users: status %d: %s", r.Status, r.Raw)
	}
	u, _ := fake.User(r.Body["_id"].(string))
	key := fake.OAuthKey(u.ID, testkit.TestFingerprint)
	return testkit.Fixture{User: u, Key: key, Headers: testkit.UserHeaders(fake, key)}
}

// uboBody is the body of the SDKs' Generate UBO sample, completed with the
// people the docs require.
func uboBody() map[string]any {
	person := map[string]any{"document_id": "2a4a5957a3a62aaac1a0dd0edcae96ea2cdee688ec6337b20745eed8869e3ac8", "relationship_to_entity": "CEO"}
	return map[string]any{
		"entity_info": map[string]any{
			"cryptocurrency": true, "msb": map[string]any{"federal": true, "states": []any{"AL"}},
			"public_company": false, "majority_owned_by_listed": false, "registered_SEC": false,
			"regulated_financial": false, "gambling": false,
			"document_id": "2a4a5957a3a62aaac1a0dd0edcae96ea2cdee688ec6337b20745eed8869e3ac8",
		},
		"signer": person, "compliance_contact": person, "primary_controlling_contact": person,
		"owners":   []any{map[string]any{"document_id": "2a4a5957a3a62aaac1a0dd0edcae96ea2cdee688ec6337b20745eed8869e3ac8", "title": "CEO", "ownership": 95}},
		"attested": true,
	}
}

func with(m map[string]any, key string, v any) map[string]any {
	m[key] = v
	return m
}

// TestUBO checks PATCH /users/{user_id}/ubo as SynapseGo (User.CreateUBO)
// and SynapsePy (User.create_ubo) send it: the answer is the user, whose
// base document now holds a REG_GG physical document; a second form
// replaces the first. Refusals change nothing.
func TestUBO(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithManualKYCReview()) // the answer and a later GET alike show REG_GG in review
	fx := createDocUser(t, fake, "Acme LLC", "acme@example.com")
	other := createDocUser(t, fake, "Other LLC", "other@example.com")
	bare := testkit.NewFixture(t, fake, 0)
	path := "/users/" + fx.User.ID + "/ubo"
	before := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID, Header: testkit.GatewayHeaders(fake)})
	seeded := len(fake.Webhooks().All())

	for _, tc := range []struct {
		name      string
		c         testkit.Call
		status    int
		errorCode string
	}{
		{"malformed JSON", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: `{"entity_info":`}, 400, "200"},
		{"not an object", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: `[]`}, 400, "200"},
		{"empty body", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: ``}, 400, "200"},
		{"entity_info not an object", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: with(uboBody(), "entity_info", "x")}, 400, "200"},
		{"attested not a boolean", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: with(uboBody(), "attested", "yes")}, 400, "200"},
		{"owners not a list", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: with(uboBody(), "owners", map[string]any{})}, 400, "200"},
		{"ownership not a number", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: with(uboBody(), "owners", []any{map[string]any{"document_id": "d", "title": "CEO", "ownership": true}})}, 400, "200"},
		{"no entity_info", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: with(uboBody(), "entity_info", nil)}, 400, "200"},
		{"no entity_info.document_id", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: with(uboBody(), "entity_info", map[string]any{"gambling": false})}, 400, "200"},
		{"no signer", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: with(uboBody(), "signer", nil)}, 400, "200"},
		{"signer without relationship", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: with(uboBody(), "signer", map[string]any{"document_id": "d"})}, 400, "200"},
		{"owner without title", testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: with(uboBody(), "owners", []any{map[string]any{"document_id": "d"}})}, 400, "200"},
		{"no oauth key", testkit.Call{Method: "PATCH", Path: path, Header: testkit.GatewayHeaders(fake), Body: uboBody()}, 401, "300"},
		{"invalid oauth key", testkit.Call{Method: "PATCH", Path: path, Header: testkit.UserHeaders(fake, "oauth_nope"), Body: uboBody()}, 401, "110"},
		{"no X-SP-USER-IP", testkit.Call{Method: "PATCH", Path: path, Header: testkit.EditHeaders(fx.Headers, map[string]string{"X-SP-USER-IP": ""}), Body: uboBody()}, 400, "200"},
		{"wrong gateway", testkit.Call{Method: "PATCH", Path: path, Header: testkit.EditHeaders(fx.Headers, map[string]string{"X-SP-GATEWAY": "a|b"}), Body: uboBody()}, 401, "100"},
		{"scope USER|PATCH not granted", testkit.Call{Method: "PATCH", Path: path, Header: keyWithout(fake, fx, "USER|PATCH"), Body: uboBody()}, 401, "300"},
		{"another user's key", testkit.Call{Method: "PATCH", Path: path, Header: other.Headers, Body: uboBody()}, 401, "300"},
		{"unknown user", testkit.Call{Method: "PATCH", Path: "/users/0123456789abcdef01234567/ubo", Header: fx.Headers, Body: uboBody()}, 401, "300"},
		{"user without a base document", testkit.Call{Method: "PATCH", Path: "/users/" + bare.User.ID + "/ubo", Header: bare.Headers, Body: uboBody()}, 409, "400"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.WantError(t, testkit.Do(t, fake, tc.c), tc.status, tc.errorCode, "")
		})
	}
	after := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID, Header: testkit.GatewayHeaders(fake)})
	if diff := cmp.Diff(before.Body, after.Body); diff != "" {
		t.Fatalf("refusals changed the user (-before +after):\n%s", diff)
	}
	if n := len(fake.Webhooks().All()); n != seeded {
		t.Fatalf("%d events after the refusals, want %d", n, seeded)
	}

	// SynapseGo, then SynapsePy: the same form twice leaves one REG_GG.
	goAns := goSend(t, fake, goRequest{method: "PATCH", path: path, body: mustJSON(t, uboBody()), authKey: fx.Key, fingerprint: testkit.TestFingerprint})
	pyAns := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: testkit.PyHeaders(fake, fx.Key), Body: uboBody()})
	for _, r := range []testkit.Response{goAns.Response, pyAns} {
		if r.Status != http.StatusOK {
			t.Fatalf("status %d: %s", r.Status, r.Raw)
		}
	}
	got := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID, Header: testkit.GatewayHeaders(fake)})
	docs, _ := got.Body["documents"].([]any)
	physical, _ := docs[0].(map[string]any)["physical_docs"].([]any)
	if len(physical) != 2 {
		t.Fatalf("physical_docs %v, want GOVT_ID and one REG_GG", physical)
	}
	reg, _ := physical[1].(map[string]any)
	if reg["document_type"] != "REG_GG" || reg["status"] != "SUBMITTED|REVIEWING" || reg["last_updated"] != float64(fake.Now().UnixMilli()) {
		t.Errorf("REG_GG document %v", reg)
	}
	if id, _ := reg["id"].(string); len(id) != 64 {
		t.Errorf("REG_GG id %q, want 64 hex characters", id)
	}
	delete(pyAns.Body, "success")
	delete(got.Body, "success")
	if diff := cmp.Diff(got.Body, pyAns.Body); diff != "" {
		t.Errorf("the answer differs from GET /users/{id} (-get +answer):\n%s", diff)
	}
	var events []string
	for _, w := range fake.Webhooks().All()[seeded:] {
		events = append(events, w.Function+" "+w.ObjectID)
	}
	if diff := cmp.Diff([]string{"USER|PATCH " + fx.User.ID, "USER|PATCH " + fx.User.ID}, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// identity is what a test user shows of itself for duplicates: the SSN it
// files as a virtual document and the phone number it verifies by MFA pin
// ("" for none), then the permission the platform gives it.
type identity struct {
	name, email, phone string
	ssn, tin           string
	verify             bool // verify phone by MFA pin
	permission         synapsefake.Permission
}

// seedIdentity makes a user as id says, over the API where the rule needs
// it, and returns it.
func seedIdentity(t testing.TB, fake *synapsefake.Server, id identity) synapsefake.User {
	t.Helper()
	u := fake.MustAddUser(t, synapsefake.UserSeed{Email: id.email, LegalNames: []string{id.name}, PhoneNumbers: []string{id.phone}, Fingerprint: testkit.TestFingerprint})
	var virtual []any
	for typ, v := range map[string]string{"SSN": id.ssn, "TIN": id.tin} {
		if v != "" {
			virtual = append(virtual, map[string]any{"document_type": typ, "document_value": v})
		}
	}
	if virtual != nil {
		r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + u.ID, Header: testkit.UserHeaders(fake, fake.OAuthKey(u.ID, testkit.TestFingerprint)),
			Body: map[string]any{"documents": []any{map[string]any{"name": id.name, "virtual_docs": virtual}}}})
		if r.Status != http.StatusOK {
			t.Fatalf("PATCH documents: status %d: %s", r.Status, r.Raw)
		}
	}
	if id.verify {
		const fp = "new-device"
		if r := postOAuth(t, fake, u.ID, fp, map[string]any{"refresh_token": u.RefreshToken, "phone_number": id.phone}); r.Status != http.StatusAccepted {
			t.Fatalf("POST /oauth with phone_number: status %d: %s", r.Status, r.Raw)
		}
		if r := postOAuth(t, fake, u.ID, fp, map[string]any{"refresh_token": u.RefreshToken, "validation_pin": fake.MFAPin(u.ID)}); r.Status != http.StatusOK {
			t.Fatalf("POST /oauth with validation_pin: status %d: %s", r.Status, r.Raw)
		}
	}
	if id.permission != "" {
		if err := fake.SetPermission(u.ID, id.permission); err != nil {
			t.Fatalf("SetPermission: %v", err)
		}
	}
	u, _ = fake.User(u.ID)
	return u
}

// TestGetDuplicates checks GET /users/{user_id}/get-duplicates as SynapsePy
// (User.get_duplicate_users) sends it: the other users sharing a virtual
// document's value (same type) or a verified phone number, grouped by
// permission; a name, an email or an unverified phone anyone can type
// makes no duplicate.
func TestGetDuplicates(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	seed := func(id identity) synapsefake.User { return seedIdentity(t, fake, id) }
	ann := seed(identity{name: "Ann Lee", email: "ann@example.com", phone: "901.555.0100", ssn: "123-45-6789", verify: true})
	closed := seed(identity{name: "A. Lee", email: "a@example.com", phone: "901.555.0199", ssn: "123456789", permission: synapsefake.PermissionClosed})
	locked := seed(identity{name: "Annie", email: "annie@example.com", phone: "(901) 555-0100", verify: true, permission: synapsefake.PermissionLocked})
	open := seed(identity{name: "Ann", email: "ann2@example.com", phone: "9015550100", ssn: "123 45 6789", verify: true})
	seed(identity{name: "Ann Lee", email: "ann@example.com", phone: "901.555.0100"})                                // copied name, email and phone, nothing verified
	seed(identity{name: "Ann Lee", email: "ann@example.com", phone: "901.555.0100", tin: "123-45-6789"})            // the number as a TIN
	seed(identity{name: "Bob", email: "bob@example.com", phone: "901.555.0100", ssn: "987-65-4321", verify: false}) // another SSN
	alone := seed(identity{name: "Carl", email: "carl@example.com", phone: "901.555.0300", verify: true})
	get := func(u synapsefake.User, headers map[string]string) testkit.Response {
		return testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + u.ID + "/get-duplicates", Header: headers})
	}
	key := func(u synapsefake.User) map[string]string {
		return testkit.PyHeaders(fake, fake.OAuthKey(u.ID, testkit.TestFingerprint))
	}
	for _, tc := range []struct {
		name string
		user synapsefake.User
		want map[string]any
	}{
		{"by SSN and by verified phone", ann, map[string]any{"closed_users_id": []any{closed.ID}, "locked_users_id": []any{locked.ID},
			"open_users_id": []any{open.ID}, "reason": "duplicate_document", "status": "RECEIVE", "user_id": ann.ID, "success": true}},
		{"by SSN only", closed, map[string]any{"closed_users_id": []any{}, "locked_users_id": []any{},
			"open_users_id": []any{ann.ID, open.ID}, "reason": "duplicate_document", "status": "CLOSED", "user_id": closed.ID, "success": true}},
		{"by verified phone only", locked, map[string]any{"closed_users_id": []any{}, "locked_users_id": []any{},
			"open_users_id": []any{ann.ID, open.ID}, "reason": "duplicate_verified_phone_number", "status": "LOCKED", "user_id": locked.ID, "success": true}},
		{"none", alone, map[string]any{"closed_users_id": []any{}, "locked_users_id": []any{}, "open_users_id": []any{},
			"reason": nil, "status": "UNVERIFIED", "user_id": alone.ID, "success": true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := get(tc.user, key(tc.user))
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(tc.want, r.Body); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
	for _, tc := range []struct {
		name      string
		user      synapsefake.User
		headers   map[string]string
		status    int
		errorCode string
	}{
		{"no oauth key", ann, testkit.GatewayHeaders(fake), 401, "300"},
		{"another user's key", ann, key(alone), 401, "300"},
		{"scope USER|GET not granted", ann, testkit.UserHeaders(fake, fake.OAuthKey(ann.ID, testkit.TestFingerprint, "USER|PATCH")), 401, "300"},
		{"no X-SP-USER-IP", ann, testkit.EditHeaders(key(ann), map[string]string{"X-SP-USER-IP": ""}), 400, "200"},
		{"wrong gateway", ann, testkit.EditHeaders(key(ann), map[string]string{"X-SP-GATEWAY": "a|b"}), 401, "100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.WantError(t, get(tc.user, tc.headers), tc.status, tc.errorCode, "")
		})
	}
}

// TestSwapDuplicates checks PATCH /users/{user_id}/swap-duplicate-users as
// SynapsePy (User.swap_duplicate_user) sends it: the closed user and its
// open duplicate exchange permissions, and the one closed by the swap loses
// its keys; refusals change nothing.
func TestSwapDuplicates(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	seed := func(email, ssn string, permission synapsefake.Permission) synapsefake.User {
		return seedIdentity(t, fake, identity{name: "Ann Lee", email: email, phone: "901.555.0100", ssn: ssn, permission: permission})
	}
	closed := seed("ann@example.com", "123-45-6789", synapsefake.PermissionClosed)
	open := seed("ann2@example.com", "123-45-6789", synapsefake.PermissionSendAndReceive)
	closed2 := seed("ann3@example.com", "123-45-6789", synapsefake.PermissionClosed)
	stranger := seed("zed@example.com", "987-65-4321", synapsefake.PermissionSendAndReceive)
	copycat := seed("ann@example.com", "", synapsefake.PermissionSendAndReceive) // the closed one's name, email and phone
	headers := testkit.PyHeaders(fake, fake.OAuthKey(closed.ID, testkit.TestFingerprint))
	openKey := testkit.PyHeaders(fake, fake.OAuthKey(open.ID, testkit.TestFingerprint))
	path := "/users/" + closed.ID + "/swap-duplicate-users"
	permissions := func() []string {
		var out []string
		for _, u := range []synapsefake.User{closed, open, closed2, stranger, copycat} {
			got, _ := fake.User(u.ID)
			out = append(out, string(got.Permission))
		}
		return out
	}
	before := permissions()
	for _, tc := range []struct {
		name      string
		path      string
		headers   map[string]string
		body      any
		status    int
		errorCode string
		code      string
	}{
		{"malformed JSON", path, headers, `{"swap_to_user_id"`, 400, "200", ""},
		{"wrong type", path, headers, map[string]any{"swap_to_user_id": 7}, 400, "200", ""},
		{"missing swap_to_user_id", path, headers, map[string]any{}, 400, "200", "missing_swap_to_user_id"},
		{"unknown user", path, headers, map[string]any{"swap_to_user_id": "0123456789abcdef01234567"}, 409, "400", "not_a_duplicate"},
		{"not a duplicate", path, headers, map[string]any{"swap_to_user_id": stranger.ID}, 409, "400", "not_a_duplicate"},
		{"same name, email and phone", path, headers, map[string]any{"swap_to_user_id": copycat.ID}, 409, "400", "not_a_duplicate"},
		{"itself", path, headers, map[string]any{"swap_to_user_id": closed.ID}, 409, "400", "not_a_duplicate"},
		{"duplicate not open", path, headers, map[string]any{"swap_to_user_id": closed2.ID}, 409, "410", "duplicate_not_open"},
		{"user not closed", "/users/" + open.ID + "/swap-duplicate-users", openKey, map[string]any{"swap_to_user_id": closed.ID}, 409, "410", "user_not_closed"},
		{"another user's key", path, openKey, map[string]any{"swap_to_user_id": open.ID}, 401, "300", "unauthorized_user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: tc.path, Header: tc.headers, Body: tc.body}), tc.status, tc.errorCode, tc.code)
		})
	}
	if diff := cmp.Diff(before, permissions()); diff != "" {
		t.Fatalf("refusals changed permissions (-before +after):\n%s", diff)
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: headers, Body: map[string]any{"swap_to_user_id": open.ID}})
	if r.Status != http.StatusOK || r.Body["_id"] != closed.ID || r.Body["permission"] != "SEND-AND-RECEIVE" {
		t.Fatalf("status %d: %s", r.Status, r.Raw)
	}
	if diff := cmp.Diff([]string{"SEND-AND-RECEIVE", "CLOSED", "CLOSED", "SEND-AND-RECEIVE", "SEND-AND-RECEIVE"}, permissions()); diff != "" {
		t.Errorf("permissions after the swap (-want +got):\n%s", diff)
	}
	// The user the swap closed keeps its key, which opens only the user.
	if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + open.ID + "/get-duplicates", Header: openKey}); r.Status != http.StatusOK || r.Body["status"] != "CLOSED" {
		t.Errorf("get-duplicates of the closed user with its key: status %d: %s", r.Status, r.Raw)
	}
	testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + open.ID + "/nodes", Header: openKey}), 409, "410", "user_locked")
}

// TestDuplicatesOfACopiedIdentity is the attack of issue 18: user A copies
// B's legal name and email, locks itself and asks for its duplicates and a
// swap with B. B is none of A's duplicates, so nothing is revealed and the
// swap is refused with nothing changed.
func TestDuplicatesOfACopiedIdentity(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	b := seedIdentity(t, fake, identity{name: "Bea Victim", email: "bea@example.com", phone: "901.555.0142", ssn: "123-45-6789", verify: true})
	a := seedIdentity(t, fake, identity{name: "Bea Victim", email: "bea@example.com", phone: "901.555.0142"})
	aKey := fake.OAuthKey(a.ID, testkit.TestFingerprint)
	if r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + a.ID, Header: testkit.UserHeaders(fake, aKey), Body: map[string]any{"permission": "LOCKED"}}); r.Status != http.StatusOK {
		t.Fatalf("A locks itself: status %d: %s", r.Status, r.Raw)
	}
	headers := testkit.PyHeaders(fake, fake.OAuthKey(a.ID, testkit.TestFingerprint)) // any key A could hold
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + a.ID + "/get-duplicates", Header: headers})
	want := map[string]any{"closed_users_id": []any{}, "locked_users_id": []any{}, "open_users_id": []any{},
		"reason": nil, "status": "LOCKED", "user_id": a.ID, "success": true}
	if diff := cmp.Diff(want, r.Body); r.Status != http.StatusOK || diff != "" {
		t.Errorf("A's duplicates: status %d (-want +got):\n%s", r.Status, diff)
	}
	testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + a.ID + "/swap-duplicate-users", Header: headers,
		Body: map[string]any{"swap_to_user_id": b.ID}}), 409, "400", "not_a_duplicate")
	for _, tc := range []struct {
		u    synapsefake.User
		want synapsefake.Permission
	}{{a, "LOCKED"}, {b, "RECEIVE"}} { // b's SSN alone, reviewed, gives RECEIVE
		if got, _ := fake.User(tc.u.ID); got.Permission != tc.want {
			t.Errorf("user %s: permission %s, want %s", tc.u.ID, got.Permission, tc.want)
		}
	}
}

// mustJSON is the JSON text of v, as an SDK builds a body.
func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}
