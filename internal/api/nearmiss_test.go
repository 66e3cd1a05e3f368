package api_test

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/testkit"
)

// The envelopes of a request no route takes, as the service answers them:
// a near miss changes neither.
const (
	routeNotFoundBody = `{"error":{"en":"Unable to locate the requested route.","code":"not_found"},"error_code":"404","http_code":"404","success":false}`
	methodPutBody     = `{"error":{"en":"Method PUT is not allowed on this route.","code":"method_not_allowed"},"error_code":"410","http_code":"409","success":false}`
)

// TestNearMisses sends requests no route takes, each a usual slip: the
// answer is the service's, byte for byte, and the test's log line, the
// journal's entry (Request.NearMisses, "near_misses" in GET
// /_fake/requests) and its reason name the nearest routes, nearest first;
// on a server WithStrictRequests the test fails with them instead.
func TestNearMisses(t *testing.T) {
	t.Parallel()
	const u, n, tx = "5f0a0a0a0a0a0a0a0a0a0a01", "5f0a0a0a0a0a0a0a0a0a0a02", "5f0a0a0a0a0a0a0a0a0a0a03"
	for _, tc := range []struct {
		name         string
		method, path string // the path as sent, prefix included
		status       int
		body         string
		near         []string
		unjournaled  bool // refused before the journal sees it (an unclean path)
	}{
		{"a segment misspelt", "POST", "/v3.1/users/" + u + "/nodes/" + n + "/tran", 404, routeNotFoundBody,
			[]string{"POST /users/{user_id}/nodes/{node_id}/trans"}, false},
		{"a word for another", "GET", "/v3.1/users/" + u + "/nodes/" + n + "/transactions", 404, routeNotFoundBody,
			[]string{"GET /users/{user_id}/nodes/{node_id}/trans"}, false},
		{"underscore for hyphen", "POST", "/v3.1/users/" + u + "/nodes/" + n + "/batch_trans", 404, routeNotFoundBody,
			[]string{"POST /users/{user_id}/nodes/{node_id}/batch-trans"}, false},
		{"singular for plural", "GET", "/v3.1/users/" + u + "/node/" + n, 404, routeNotFoundBody,
			[]string{"GET /users/{user_id}/nodes/{node_id}"}, false},
		{"letter case", "GET", "/v3.1/Users", 404, routeNotFoundBody, []string{"GET /users"}, false},
		{"a wrong method", "PUT", "/v3.1/users/" + u, 409, methodPutBody,
			[]string{"PATCH /users/{user_id}", "GET /users/{user_id}"}, false},
		{"a wrong method and a typo", "PUT", "/v3.1/users/" + u + "/nodes/" + n + "/tran", 404, routeNotFoundBody,
			[]string{"POST /users/{user_id}/nodes/{node_id}/trans", "GET /users/{user_id}/nodes/{node_id}/trans"}, false},
		{"HEAD for GET", "HEAD", "/v3.1/users", 409, strings.ReplaceAll(methodPutBody, "PUT", "HEAD"), []string{"GET /users"}, false},
		{"the version prefix missing", "GET", "/users/" + u + "/nodes", 404, routeNotFoundBody,
			[]string{"GET /users/{user_id}/nodes"}, false},
		{"the version prefix doubled", "GET", "/v3.1/v3.1/users", 404, routeNotFoundBody, []string{"GET /users"}, false},
		{"a trailing slash", "GET", "/v3.1/users/" + u + "/nodes/", 404, routeNotFoundBody,
			[]string{"GET /users/{user_id}/nodes"}, true},
		{"a doubled slash", "GET", "/v3.1//users", 404, routeNotFoundBody, []string{"GET /users"}, true},
		{"ids in the wrong place", "GET", "/v3.1/users/nodes/" + u + "/" + n, 404, routeNotFoundBody,
			[]string{"GET /users/{user_id}/nodes/{node_id}"}, false},
		{"objects in the wrong order", "GET", "/v3.1/nodes/" + n + "/users/" + u, 404, routeNotFoundBody,
			[]string{"GET /users/{user_id}/nodes/{node_id}"}, false},
		{"an object's word left out", "GET", "/v3.1/users/" + u + "/nodes/" + n + "/" + tx, 404, routeNotFoundBody,
			[]string{"GET /users/{user_id}/nodes/{node_id}/statements/{statement_id}",
				"GET /users/{user_id}/nodes/{node_id}/subnets/{subnet_id}", "GET /users/{user_id}/nodes/{node_id}/trans/{trans_id}"}, false},
		{"nothing near", "GET", "/v3.1/foo", 404, routeNotFoundBody, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			question := api.DidYouMean(tc.near)
			serve := func(fake *synapsefake.Server) *httptest.ResponseRecorder {
				req := httptest.NewRequest(tc.method, testkit.CtlRoot(fake)+tc.path, nil)
				req.Header.Set("X-SP-GATEWAY", fake.Gateway())
				w := httptest.NewRecorder()
				fake.ServeHTTP(w, req)
				if w.Code != tc.status || w.Body.String() != tc.body {
					t.Errorf("%s %s: %d %s, want %d %s", tc.method, tc.path, w.Code, w.Body, tc.status, tc.body)
				}
				return w
			}

			rec := &testkit.RecordingTB{TB: t}
			t.Cleanup(rec.End)
			fake := synapsefake.NewServer(rec)
			serve(fake)
			logs := rec.Logged()
			if len(logs) != 1 || question != "" && !strings.Contains(logs[0], ": "+question) || question == "" && strings.Contains(logs[0], "did you mean") {
				t.Errorf("logged %q, want one line asking %q", logs, question)
			}
			if len(rec.Errors) != 0 {
				t.Errorf("a lenient server failed the test: %q", rec.Errors)
			}
			reqs := fake.Requests()
			if tc.unjournaled {
				if len(reqs) != 0 {
					t.Errorf("journaled %+v, want it refused before the journal", reqs)
				}
			} else {
				if len(reqs) != 1 {
					t.Fatalf("journal holds %d calls, want 1", len(reqs))
				}
				if diff := cmp.Diff(tc.near, reqs[0].NearMisses); diff != "" {
					t.Errorf("Request.NearMisses (-want +got):\n%s", diff)
				}
				if question != "" && !strings.Contains(reqs[0].Reason, ": "+question) {
					t.Errorf("Request.Reason %q, want it to ask %q", reqs[0].Reason, question)
				}
				ctl := testkit.Ctl(t, fake, "GET", "/requests", nil)
				var got struct {
					Requests []struct {
						NearMisses *[]string `json:"near_misses"`
					} `json:"requests"`
				}
				if err := json.Unmarshal(ctl.Raw, &got); err != nil || len(got.Requests) != 1 {
					t.Fatalf("GET /_fake/requests: %v %s", err, ctl.Raw)
				}
				switch nm := got.Requests[0].NearMisses; {
				case tc.near == nil && nm != nil:
					t.Errorf(`GET /_fake/requests shows "near_misses": %q, want none`, *nm)
				case tc.near != nil && (nm == nil || !slices.Equal(*nm, tc.near)):
					t.Errorf(`GET /_fake/requests: %s, want "near_misses": %q`, ctl.Raw, tc.near)
				}
				page := dashboardPage(t, fake, "/requests")
				want := "Nearest routes: <code>" + strings.Join(tc.near, "</code>, <code>") + "</code>"
				if got := strings.Contains(page, want); got != (tc.near != nil) || tc.near == nil && strings.Contains(page, "Nearest routes") {
					t.Errorf("the dashboard's requests page shows %q: %v, want %v", want, got, tc.near != nil)
				}
			}

			strict := &testkit.RecordingTB{TB: t}
			t.Cleanup(strict.End)
			serve(synapsefake.NewServer(strict, synapsefake.WithStrictRequests()))
			if len(strict.Errors) != 1 || !strings.Contains(strict.Errors[0], "strict requests") || !strings.Contains(strict.Errors[0], question) {
				t.Errorf("strict server's failures %q, want one asking %q", strict.Errors, question)
			}
			if logs := strict.Logged(); len(logs) != 0 {
				t.Errorf("the strict refusal also logged %q: its failure line is the one line it gets", logs)
			}
		})
	}
}

// TestNearestRoutes: a request a route serves has no near miss, whatever
// its ids; nor has a path outside the API.
func TestNearestRoutes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ method, path string }{
		{"GET", "/v3.1/users"},
		{"POST", "/v3.1/users/anything/nodes/at-all/trans"},
		{"GET", "/v3.1/users/a%2Fb"},
		{"GET", "/_fake/users"},
		{"GET", "/"},
	} {
		if got := api.NearestRoutes(tc.method, tc.path); got != nil {
			t.Errorf("NearestRoutes(%q, %q) = %q, want nil", tc.method, tc.path, got)
		}
	}
	for routes, want := range map[string]string{
		"":                             "",
		"GET /users":                   "did you mean `GET /users`?",
		"GET /users\x00POST /users":    "did you mean `GET /users` or `POST /users`?",
		"GET /a\x00GET /b\x00PATCH /c": "did you mean `GET /a`, `GET /b` or `PATCH /c`?",
	} {
		var list []string
		if routes != "" {
			list = strings.Split(routes, "\x00")
		}
		if got := api.DidYouMean(list); got != want {
			t.Errorf("DidYouMean(%q) = %q, want %q", list, got, want)
		}
	}
}

// dashboardPage reads a page of the dashboard, path below /_fake/ui.
func dashboardPage(t *testing.T, fake *synapsefake.Server, path string) string {
	t.Helper()
	resp, err := fake.Client().Get(testkit.CtlRoot(fake) + "/_fake/ui" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /_fake/ui%s: %d %v", path, resp.StatusCode, err)
	}
	return string(b)
}
