package synapsefake_test

import (
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// Fixes found by running the official Node clients (compat/node): base
// documents with ids (here) and the older clients' subnet lock
// (subnet_allowed_test.go).

var documentIDPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// anyDocumentID lets any two document ids (64 hex characters) under an "id"
// key match, as the fake draws them from its id stream.
var anyDocumentID = cmp.FilterPath(func(p cmp.Path) bool {
	for i := len(p) - 1; i >= 0; i-- {
		if mi, ok := p[i].(cmp.MapIndex); ok {
			return mi.Key().Kind() == reflect.String && mi.Key().String() == "id"
		}
	}
	return false
}, cmp.FilterValues(func(a, b any) bool {
	x, _ := a.(string)
	y, _ := b.(string)
	return documentIDPattern.MatchString(x) && documentIDPattern.MatchString(y)
}, cmp.Comparer(func(a, b any) bool { return true })))

// withDocumentID is doc with an id, any id under anyDocumentID.
func withDocumentID(doc map[string]any) map[string]any {
	out := maps.Clone(doc)
	out["id"] = strings.Repeat("0", 64)
	return out
}

// documentsOf are the documents of a user object.
func documentsOf(t testing.TB, body map[string]any) []any {
	t.Helper()
	docs, ok := body["documents"].([]any)
	if !ok {
		t.Fatalf("documents is %T, want an array", body["documents"])
	}
	return docs
}

// TestDocumentsAsTheNodeClientsSend files, updates and deletes base documents
// with the bodies synapsenode's addUserKyc, updateUser and
// deleteExistingDocument and synapsepay's User.addDocuments and User.update
// send (samples.md), and checks the documents a later GET shows.
func TestDocumentsAsTheNodeClientsSend(t *testing.T) {
	t.Parallel()
	first := map[string]any{"name": "First Doc", "entity_scope": "Arts & Entertainment", "address_street": "1 Market St"}
	govtID := map[string]any{"document_value": "data:image/gif;base64,SUQs==", "document_type": "GOVT_ID"}
	// filed is doc as filed at now (ms): with an id, its physical documents
	// with ids, SUBMITTED|REVIEWING.
	filed := func(now float64, doc map[string]any) map[string]any {
		out := withDocumentID(doc)
		if phys, ok := doc["physical_docs"].([]any); ok {
			var docs []any
			for _, p := range phys {
				d := withDocumentID(p.(map[string]any))
				d["status"] = "SUBMITTED|REVIEWING"
				d["last_updated"] = now
				docs = append(docs, d)
			}
			out["physical_docs"] = docs
		}
		return out
	}
	for _, tc := range []struct {
		name string
		// body is the PATCH body; id is the first document's id.
		body func(id string) map[string]any
		want func(now float64) []any
	}{
		{
			name: "addUserKyc: a second base document, its physical document filed",
			body: func(string) map[string]any {
				return map[string]any{"documents": []any{map[string]any{"name": "Second Doc", "physical_docs": []any{govtID}}}}
			},
			want: func(now float64) []any {
				return []any{withDocumentID(first), filed(now, map[string]any{"name": "Second Doc", "physical_docs": []any{govtID}})}
			},
		},
		{
			name: "updateUser by id: the fields change in place",
			body: func(id string) map[string]any {
				return map[string]any{"documents": []any{map[string]any{"id": id, "entity_scope": "Lawyer", "birth_day": 22}}}
			},
			want: func(float64) []any {
				return []any{withDocumentID(map[string]any{"name": "First Doc", "entity_scope": "Lawyer", "address_street": "1 Market St", "birth_day": float64(22)})}
			},
		},
		{
			name: "update by id with a physical document: added to the document's",
			body: func(id string) map[string]any {
				return map[string]any{"documents": []any{map[string]any{"id": id, "physical_docs": []any{govtID}}}}
			},
			want: func(now float64) []any {
				return []any{filed(now, map[string]any{"name": "First Doc", "entity_scope": "Arts & Entertainment", "address_street": "1 Market St", "physical_docs": []any{govtID}})}
			},
		},
		{
			name: "deleteExistingDocument: permission_scope DELETE_DOCUMENT removes it",
			body: func(id string) map[string]any {
				return map[string]any{"documents": []any{map[string]any{"id": id, "permission_scope": "DELETE_DOCUMENT"}}}
			},
			want: func(float64) []any { return []any{} },
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			u := fake.AddUser(synapsefake.UserSeed{Fingerprint: testFingerprint})
			h := userHeaders(fake, fake.OAuthKey(u.ID, testFingerprint, reference.ScopeUserPatch))
			r := do(t, fake, call{method: "PATCH", path: "/users/" + u.ID, header: h, body: map[string]any{"documents": []any{first}}})
			if r.status != http.StatusOK {
				t.Fatalf("filing the first document: status %d: %s", r.status, r.raw)
			}
			id, _ := documentsOf(t, r.body)[0].(map[string]any)["id"].(string)
			if !documentIDPattern.MatchString(id) {
				t.Fatalf("the first document's id %q is not 64 hex characters", id)
			}

			r = do(t, fake, call{method: "PATCH", path: "/users/" + u.ID, header: h, body: tc.body(id)})
			if r.status != http.StatusOK {
				t.Fatalf("status %d, want 200: %s", r.status, r.raw)
			}
			want := tc.want(float64(fake.Now().UnixMilli()))
			if diff := cmp.Diff(want, documentsOf(t, r.body), anyDocumentID); diff != "" {
				t.Errorf("PATCH answer's documents (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, documentsOf(t, getUserBody(t, fake, u.ID)), anyDocumentID); diff != "" {
				t.Errorf("GET's documents (-want +got):\n%s", diff)
			}
			if docs := documentsOf(t, r.body); len(docs) > 0 && docs[0].(map[string]any)["id"] != id {
				t.Errorf("the first document's id changed from %s to %v", id, docs[0].(map[string]any)["id"])
			}
		})
	}
}

// TestDocumentErrors: a document id that is not on file, or of the wrong
// type, is refused and changes nothing; so is another user's call.
func TestDocumentErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		body      func(id string) any
		otherKey  bool
		status    int
		errorCode string
		code      string
	}{
		{"unknown id", func(string) any {
			return map[string]any{"documents": []any{map[string]any{"id": strings.Repeat("a", 64), "entity_scope": "Lawyer"}}}
		}, false, 404, "404", "unable_to_locate_document"},
		{"delete an unknown id", func(string) any {
			return map[string]any{"documents": []any{map[string]any{"id": "nope", "permission_scope": "DELETE_DOCUMENT"}}}
		}, false, 404, "404", "unable_to_locate_document"},
		{"id a number", func(string) any {
			return map[string]any{"documents": []any{map[string]any{"id": 7, "entity_scope": "Lawyer"}}}
		}, false, 400, "200", "invalid_field_type"},
		{"permission_scope a number", func(id string) any {
			return map[string]any{"documents": []any{map[string]any{"id": id, "permission_scope": 1}}}
		}, false, 400, "200", "invalid_field_type"},
		{"a good update after an unknown id: nothing applied", func(id string) any {
			return map[string]any{"documents": []any{
				map[string]any{"id": id, "entity_scope": "Lawyer"},
				map[string]any{"id": "nope", "entity_scope": "Lawyer"},
			}}
		}, false, 404, "404", "unable_to_locate_document"},
		{"malformed JSON", func(string) any { return `{"documents":[{"id":` }, false, 400, "200", "invalid_json"},
		{"another user's key", func(id string) any {
			return map[string]any{"documents": []any{map[string]any{"id": id, "permission_scope": "DELETE_DOCUMENT"}}}
		}, true, 401, "300", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			u := fake.AddUser(synapsefake.UserSeed{Fingerprint: testFingerprint})
			h := userHeaders(fake, fake.OAuthKey(u.ID, testFingerprint, reference.ScopeUserPatch))
			r := do(t, fake, call{method: "PATCH", path: "/users/" + u.ID, header: h, body: map[string]any{"documents": []any{map[string]any{"name": "Doc"}}}})
			if r.status != http.StatusOK {
				t.Fatalf("filing the document: status %d: %s", r.status, r.raw)
			}
			id, _ := documentsOf(t, r.body)[0].(map[string]any)["id"].(string)
			before := getUserBody(t, fake, u.ID)
			if tc.otherKey {
				other := fake.AddUser(synapsefake.UserSeed{Email: "other@example.com", Fingerprint: testFingerprint})
				h = userHeaders(fake, fake.OAuthKey(other.ID, testFingerprint, reference.ScopeUserPatch))
			}
			r = do(t, fake, call{method: "PATCH", path: "/users/" + u.ID, header: h, body: tc.body(id)})
			wantError(t, r, tc.status, tc.errorCode, tc.code)
			if diff := cmp.Diff(before, getUserBody(t, fake, u.ID)); diff != "" {
				t.Errorf("user changed by a refused PATCH (-before +after):\n%s", diff)
			}
		})
	}
}
