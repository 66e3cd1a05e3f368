package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/testkit"
)

// kycView is what the KYC lifecycle shows of a user: its permission,
// doc_status, and each base document's scope and sub-documents' statuses
// by type.
type kycView struct {
	Permission string
	DocStatus  map[string]any
	Scopes     []string
	Statuses   map[string]string
}

func kycOf(t *testing.T, body map[string]any) kycView {
	t.Helper()
	v := kycView{Permission: testkit.CtlStr(body["permission"]), DocStatus: testkit.CtlObj(body["doc_status"]), Statuses: map[string]string{}}
	for _, d := range body["documents"].([]any) {
		base := d.(map[string]any)
		v.Scopes = append(v.Scopes, testkit.CtlStr(base["permission_scope"]))
		for _, kind := range []string{"physical_docs", "social_docs", "virtual_docs"} {
			for _, s := range base[kind].([]any) {
				sd := s.(map[string]any)
				v.Statuses[testkit.CtlStr(sd["document_type"])] = testkit.CtlStr(sd["status"])
			}
		}
	}
	return v
}

func docStatusOf(physical, virtual string) map[string]any {
	return map[string]any{"physical_doc": physical, "virtual_doc": virtual}
}

// TestKYCLifecycle plays onboarding over HTTP as the sandbox answered it:
// documents answer SUBMITTED|REVIEWING, the review gives each the
// sandbox's outcome (its test values), USER|PATCH announces the user as it
// is after the review, and the permission follows the documents.
func TestKYCLifecycle(t *testing.T) {
	t.Parallel()
	signUp := func(t *testing.T, fake *synapsefake.Server, doc map[string]any) string {
		t.Helper()
		r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(fake), Body: map[string]any{
			"logins": []any{map[string]any{"email": "ann@example.com"}}, "phone_numbers": []any{"901.111.1111"},
			"legal_names": []any{"Ann Lee"}, "documents": []any{doc}}})
		if r.Status != http.StatusOK {
			t.Fatalf("POST /users: %d %s", r.Status, r.Raw)
		}
		got := kycOf(t, r.Body)
		if got.Permission != "UNVERIFIED" {
			t.Errorf("answer: permission %s, want UNVERIFIED while in review", got.Permission)
		}
		if len(got.Statuses) == 0 {
			t.Errorf("answer: no sub-documents: %s", r.Raw)
		}
		for typ, st := range got.Statuses {
			if st != "SUBMITTED|REVIEWING" {
				t.Errorf("answer: %s %s, want SUBMITTED|REVIEWING", typ, st)
			}
		}
		return r.Body["_id"].(string)
	}
	get := func(t *testing.T, fake *synapsefake.Server, id string) kycView {
		t.Helper()
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + id, Header: testkit.GatewayHeaders(fake)})
		return kycOf(t, r.Body)
	}
	full := map[string]any{"email": "ann@example.com", "phone_number": "901.111.1111", "ip": "::1", "name": "Ann Lee",
		"entity_type": "F", "entity_scope": "Arts & Entertainment", "day": 2, "month": 5, "year": 1989,
		"address_street": "1 Market St.", "address_city": "SF", "address_subdivision": "CA", "address_postal_code": "94105", "address_country_code": "US",
		"virtual_docs":  []any{map[string]any{"document_type": "SSN", "document_value": "111-11-2222"}},
		"physical_docs": []any{map[string]any{"document_type": "GOVT_ID", "document_value": "data:image/gif;base64,SUQs=="}}}
	with := func(edit func(m map[string]any)) map[string]any {
		data, _ := json.Marshal(full)
		var m map[string]any
		_ = json.Unmarshal(data, &m)
		edit(m)
		return m
	}
	valid := map[string]string{"EMAIL": "SUBMITTED|VALID", "PHONE_NUMBER": "SUBMITTED|VALID", "IP": "SUBMITTED|VALID", "DATE": "SUBMITTED|VALID",
		"ADDRESS": "SUBMITTED|VALID", "SSN": "SUBMITTED|VALID", "GOVT_ID": "SUBMITTED|VALID"}

	t.Run("verified at sign-up, a transfer at once", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery())
		id := signUp(t, fake, full)
		want := kycView{"SEND-AND-RECEIVE", docStatusOf("SUBMITTED|VALID", "SUBMITTED|VALID"), []string{"SEND|RECEIVE|1000|DAILY"}, valid}
		if diff := cmp.Diff(want, get(t, fake, id)); diff != "" {
			t.Errorf("GET (-want +got):\n%s", diff)
		}
		var events []string
		for _, w := range fake.Webhooks().All() {
			var u map[string]any
			_ = json.Unmarshal(w.Body, &u)
			events = append(events, w.Function+" "+testkit.CtlStr(u["permission"])+" "+kycOf(t, u).Statuses["SSN"])
		}
		if diff := cmp.Diff([]string{"USERS|POST UNVERIFIED SUBMITTED|REVIEWING", "USER|PATCH SEND-AND-RECEIVE SUBMITTED|VALID"}, events); diff != "" {
			t.Errorf("webhooks (-want +got):\n%s", diff)
		}
		key := fake.OAuthKey(id, testkit.TestFingerprint)
		from := fake.MustAddNode(t, id, synapsefake.NodeSeed{BalanceCents: 10000})
		to := fake.MustAddNode(t, fake.MustAddUser(t, synapsefake.UserSeed{}).ID, synapsefake.NodeSeed{})
		r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + id + "/nodes/" + from.ID + "/trans", Header: testkit.UserHeaders(fake, key),
			Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": to.ID}, "amount": map[string]any{"amount": 25, "currency": "USD"}, "extra": map[string]any{"ip": "::1"}}})
		if r.Status != http.StatusOK || pathString(r.Body, "recent_status.status") != "CREATED" {
			t.Errorf("transfer right after sign-up: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("the 2017 cassette: email, phone and IP only", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		id := signUp(t, fake, map[string]any{"email": "ann@example.com", "phone_number": "901.111.1111", "ip": "::1", "name": "Ann Lee"})
		want := kycView{"UNVERIFIED", docStatusOf("MISSING|INVALID", "MISSING|INVALID"), []string{"UNVERIFIED"},
			map[string]string{"EMAIL": "SUBMITTED|VALID", "PHONE_NUMBER": "SUBMITTED|VALID", "IP": "SUBMITTED|VALID"}}
		if diff := cmp.Diff(want, get(t, fake, id)); diff != "" {
			t.Errorf("GET (-want +got):\n%s", diff)
		}
	})
	t.Run("the SSN refused (1111)", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		id := signUp(t, fake, with(func(m map[string]any) {
			m["virtual_docs"] = []any{map[string]any{"document_type": "SSN", "document_value": "111-11-1111"}}
		}))
		statuses := map[string]string{}
		for k, v := range valid {
			statuses[k] = v
		}
		statuses["SSN"] = "SUBMITTED|INVALID"
		want := kycView{"UNVERIFIED", docStatusOf("SUBMITTED|VALID", "SUBMITTED|INVALID"), []string{"UNVERIFIED"}, statuses}
		if diff := cmp.Diff(want, get(t, fake, id)); diff != "" {
			t.Errorf("GET (-want +got):\n%s", diff)
		}
		fake.CheckPermission(t, id, synapsefake.PermissionUnverified)
	})
	t.Run("the ID in review for a day", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t, synapsefake.WithKYCReview(24*time.Hour))
		id := signUp(t, fake, full)
		fake.Advance(23 * time.Hour)
		if got := get(t, fake, id); got.Permission != "UNVERIFIED" || got.Statuses["GOVT_ID"] != "SUBMITTED|REVIEWING" {
			t.Errorf("23 h later: %+v, want UNVERIFIED and in review", got)
		}
		fake.Advance(time.Hour)
		want := kycView{"SEND-AND-RECEIVE", docStatusOf("SUBMITTED|VALID", "SUBMITTED|VALID"), []string{"SEND|RECEIVE|1000|DAILY"}, valid}
		if diff := cmp.Diff(want, get(t, fake, id)); diff != "" {
			t.Errorf("a day later (-want +got):\n%s", diff)
		}
		fake.CheckPermission(t, id, synapsefake.PermissionSendAndReceive)
	})
	t.Run("manual: reviewed by the test", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t, synapsefake.WithManualKYCReview())
		id := signUp(t, fake, full)
		fake.Advance(30 * 24 * time.Hour)
		fake.CheckPermission(t, id, synapsefake.PermissionUnverified)
		if err := fake.ReviewDocuments(id, "VALID"); err != nil {
			t.Fatal(err)
		}
		fake.CheckPermission(t, id, synapsefake.PermissionSendAndReceive)
	})
}
