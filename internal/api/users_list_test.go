package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// TestDeletedUserLeavesTheUserList: a user PATCHed to MAKE-IT-GO-AWAY leaves
// GET /users and its counts (with query, filter and paging too), while
// GET /users/{id} still answers it, and so does the control API's list; a
// LOCKED or CLOSED user stays listed.
// The platform's SetPermission brings it back in its place, and a saved
// state restored elsewhere leaves it out as well.
func TestDeletedUserLeavesTheUserList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		permission string
		listed     bool
	}{
		{"MAKE-IT-GO-AWAY", false},
		{"LOCKED", true},
		{"CLOSED", true},
	} {
		t.Run(tc.permission, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			first := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Ann First"}})
			fx := testkit.NewFixture(t, fake, 0)
			last := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Lee Last"}})
			subject, _ := fake.User(fx.User.ID)
			gw := testkit.GatewayHeaders(fake)
			if r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + fx.User.ID, Header: fx.Headers,
				Body: map[string]any{"permission": tc.permission}}); r.Status != http.StatusOK {
				t.Fatalf("PATCH permission: status %d: %s", r.Status, r.Raw)
			}

			all := []string{first.ID, fx.User.ID, last.ID}
			others := []string{first.ID, last.ID}
			want, mine := others, []string{}
			if tc.listed {
				want, mine = all, []string{fx.User.ID}
			}
			list := func(fake *synapsefake.Server, query string, want []string, wantCount, wantPages int) {
				t.Helper()
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users" + query, Header: gw})
				if r.Status != http.StatusOK {
					t.Fatalf("GET /users%s: status %d: %s", query, r.Status, r.Raw)
				}
				if diff := cmp.Diff(want, testkit.ListIDs(r.Body, "users")); diff != "" {
					t.Errorf("GET /users%s (-want +got):\n%s", query, diff)
				}
				if r.Body["users_count"] != float64(wantCount) || r.Body["page_count"] != float64(wantPages) {
					t.Errorf("GET /users%s: users_count %v, page_count %v; want %d and %d", query, r.Body["users_count"], r.Body["page_count"], wantCount, wantPages)
				}
			}
			list(fake, "", want, len(want), 1)
			list(fake, "?per_page=1&page=2", want[1:2], len(want), len(want))
			list(fake, "?query="+url.QueryEscape(subject.LegalNames[0]), mine, len(mine), len(mine))
			list(fake, "?filter="+url.QueryEscape(fmt.Sprintf(`{"_id":%q}`, fx.User.ID)), mine, len(mine), len(mine))

			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID, Header: gw})
			if r.Status != http.StatusOK || r.Body["_id"] != fx.User.ID || r.Body["permission"] != tc.permission {
				t.Errorf("GET /users/{id}: status %d: %s", r.Status, r.Raw)
			}
			// The platform's own view (the control API, the dashboard) lists every user.
			if body := testkit.CtlOK(t, fake, "GET", "/users", nil); body["users_count"] != float64(len(all)) {
				t.Errorf("GET /_fake/users: users_count %v, want %d", body["users_count"], len(all))
			}

			var saved bytes.Buffer
			if err := fake.Snapshot(&saved); err != nil {
				t.Fatal(err)
			}
			restored := synapsefake.NewServer(t)
			if err := restored.Restore(&saved); err != nil {
				t.Fatal(err)
			}
			list(restored, "", want, len(want), 1)

			if err := fake.SetPermission(fx.User.ID, "SEND-AND-RECEIVE"); err != nil {
				t.Fatal(err)
			}
			list(fake, "", all, len(all), 1)
		})
	}
}
