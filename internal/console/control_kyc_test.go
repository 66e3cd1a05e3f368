package console_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/testkit"
)

// TestControlReviews: a user seeded with documents in review over the
// control API is reviewed one document at a time, then all at once; each
// answer is the user with its documents, permission and history, and each
// review that changes something sends USER|PATCH.
func TestControlReviews(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery())
	at := float64(fake.Now().UnixMilli())
	user := testkit.CtlObj(testkit.CtlOK(t, fake, "POST", "/users", map[string]any{"legal_names": []any{"Ann Lee"}, "documents": []any{
		map[string]any{"kind": "virtual", "type": "SSN", "value": "2222", "status": "REVIEWING"},
		map[string]any{"kind": "physical", "type": "GOVT_ID", "value": "data:image/png;base64,SUQ=", "status": "REVIEWING"},
	}})["user"])
	userID := testkit.CtlStr(user["_id"])
	docs := user["documents"].([]any)
	base := testkit.CtlObj(docs[0])
	subs := base["sub_documents"].([]any)
	govtID, ssnID := testkit.CtlStr(testkit.CtlObj(subs[0])["id"]), testkit.CtlStr(testkit.CtlObj(subs[1])["id"])
	sub := func(id, kind, typ, status string) map[string]any {
		return map[string]any{"id": id, "kind": kind, "document_type": typ, "status": status, "review_at": nil}
	}
	doc := func(scope string, govt, ssn string) []any {
		return []any{map[string]any{"id": base["id"], "name": "Ann Lee", "permission_scope": scope, "sub_documents": []any{
			sub(govtID, "physical", "GOVT_ID", govt), sub(ssnID, "virtual", "SSN", ssn)}}}
	}
	step := func(p, by string) map[string]any { return map[string]any{"at": at, "permission": p, "by": by} }
	if diff := cmp.Diff(doc("UNVERIFIED", "SUBMITTED|REVIEWING", "SUBMITTED|REVIEWING"), docs); diff != "" || user["permission"] != "UNVERIFIED" {
		t.Fatalf("seeded: permission %v, documents (-want +got):\n%s", user["permission"], diff)
	}
	hooks := len(fake.Webhooks().All())
	for _, tc := range []struct {
		name, path, status string
		permission         string
		docs               []any
		history            []any
	}{
		{"the SSN valid", "/users/" + userID + "/documents/" + ssnID + "/review", "VALID", "RECEIVE",
			doc("RECEIVE|1000|DAILY", "SUBMITTED|REVIEWING", "SUBMITTED|VALID"),
			[]any{step("UNVERIFIED", "created"), step("RECEIVE", "documents")}},
		{"the rest valid", "/users/" + userID + "/documents/review", "SUBMITTED|VALID", "SEND-AND-RECEIVE",
			doc("SEND|RECEIVE|1000|DAILY", "SUBMITTED|VALID", "SUBMITTED|VALID"),
			[]any{step("UNVERIFIED", "created"), step("RECEIVE", "documents"), step("SEND-AND-RECEIVE", "documents")}},
		{"the ID refused: the permission stays", "/users/" + userID + "/documents/" + govtID + "/review", "INVALID", "SEND-AND-RECEIVE",
			doc("RECEIVE|1000|DAILY", "SUBMITTED|INVALID", "SUBMITTED|VALID"),
			[]any{step("UNVERIFIED", "created"), step("RECEIVE", "documents"), step("SEND-AND-RECEIVE", "documents")}},
	} {
		got := testkit.CtlObj(testkit.CtlOK(t, fake, "POST", tc.path, map[string]any{"status": tc.status})["user"])
		if got["permission"] != tc.permission {
			t.Errorf("%s: permission %v, want %s", tc.name, got["permission"], tc.permission)
		}
		if diff := cmp.Diff(tc.docs, got["documents"]); diff != "" {
			t.Errorf("%s: documents (-want +got):\n%s", tc.name, diff)
		}
		if diff := cmp.Diff(tc.history, got["permission_history"]); diff != "" {
			t.Errorf("%s: permission_history (-want +got):\n%s", tc.name, diff)
		}
		all := fake.Webhooks().All()
		if len(all) != hooks+1 || all[hooks].Function != "USER|PATCH" || all[hooks].ObjectID != userID {
			t.Errorf("%s: %d webhooks, want one USER|PATCH", tc.name, len(all)-hooks)
		}
		hooks = len(all)
	}
	// Nothing to change: no webhook.
	testkit.CtlOK(t, fake, "POST", "/users/"+userID+"/documents/review", map[string]any{"status": "VALID"})
	if n := len(fake.Webhooks().All()); n != hooks {
		t.Errorf("a review with nothing in review sent %d webhooks", n-hooks)
	}
}
