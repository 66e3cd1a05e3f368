package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// These tests hold the fake to what the provider's own integration suites
// expected of the sandbox's envelopes and parsing: issue 21, point 8
// (GET /institutions's envelope is in TestReferenceRoutesGoClient, the
// subscription url without a scheme in TestPatchSubscription and
// TestSchemelessSubscriptionDelivery).

// TestListQueryKeepsSemicolons checks that an unencoded ';' in a query is
// part of its value, as the service read it, where Go's url.ParseQuery
// would drop the whole pair: GET /users?query=asdfkl;fja matches no user
// instead of listing every one.
func TestListQueryKeepsSemicolons(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fake.MustAddUser(t, synapsefake.UserSeed{Email: "ann@example.com", LegalNames: []string{"Ann Lee"}})
	semi := fake.MustAddUser(t, synapsefake.UserSeed{Email: "semi@example.com", LegalNames: []string{"Semi;Colon"}})
	fake.MustAddSubscription(t, "https://consumer.example.com/hooks")
	for _, tc := range []struct {
		name, path string
		status     int
		count      float64 // users_count, for a 200 on /users
		ids        []string
		code       string // for a refusal
	}{
		{"the suite's query", "/users?query=asdfkl;fja", 200, 0, nil, ""},
		{"a name holding a ';'", "/users?query=semi;colon", 200, 1, []string{semi.ID}, ""},
		{"the same, encoded", "/users?query=semi%3Bcolon", 200, 1, []string{semi.ID}, ""},
		{"a ';' after the query's pair", "/users?query=ann&x=1;y", 200, 1, nil, ""},
		{"a page with a ';'", "/users?page=1;2", 400, 0, nil, "invalid_page"},
		{"per_page with a ';' on another list", "/subscriptions?per_page=5;x", 400, 0, nil, "invalid_per_page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.path, Header: testkit.GatewayHeaders(fake)})
			if tc.status != http.StatusOK {
				wantErrorHTTPCode(t, r, tc.status, "400", "200", tc.code)
				return
			}
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			if r.Body["users_count"] != tc.count {
				t.Errorf("users_count %v, want %v", r.Body["users_count"], tc.count)
			}
			users, _ := r.Body["users"].([]any)
			for i, id := range tc.ids {
				if i >= len(users) || users[i].(map[string]any)["_id"] != id {
					t.Errorf("users %v, want ids %v", users, tc.ids)
				}
			}
		})
	}
}

// TestTransactionNoteLongerThan80 checks that a note longer than the
// spec's 80 characters (the bank statement addendum), as the Ruby suite's
// generated notes often are, is taken and kept as sent, up to 1,000
// characters.
func TestTransactionNoteLongerThan80(t *testing.T) {
	t.Parallel()
	for _, note := range []string{strings.Repeat("x", 81), strings.Repeat("é", 1000),
		"Voluptas quia et dolorum. Omnis repellendus rerum sapiente. Ut qui ullam dolores ea explicabo quibusdam."} {
		t.Run(note[:4], func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 10_000)
			body := testkit.TxBody(e.Payee.Node, 1)
			body["extra"].(map[string]any)["note"] = note
			id := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
			r := e.Get(t, id)
			if got, _ := r.Body["extra"].(map[string]any)["note"].(string); got != note {
				t.Errorf("extra.note %q, want %q", got, note)
			}
		})
	}
}
