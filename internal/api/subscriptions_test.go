package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// allSubscriptionScopes are the eight subscription scopes in the spec's order.
var allSubscriptionScopes = []any{"USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH",
	"TRANS|POST", "TRAN|PATCH", "SUBNETS|POST", "SUBNET|PATCH"}

// wantSubscription is a subscription as the API answers it, without success.
func wantSubscription(fake *synapsefake.Server, id, url string, v int, active bool, scope ...any) map[string]any {
	if scope == nil {
		scope = []any{}
	}
	return map[string]any{
		"_id":       id,
		"_links":    map[string]any{"self": map[string]any{"href": fake.URL() + "/subscriptions/" + id}},
		"_v":        float64(v),
		"client_id": fake.ClientID(),
		"is_active": active,
		"scope":     scope,
		"url":       url,
	}
}

// withSuccessTrue is a copy of m with "success": true, as single objects are answered.
func withSuccessTrue(m map[string]any) map[string]any {
	out := map[string]any{"success": true}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// subscriptionsSnapshot is every page of GET /subscriptions: what a client
// can see of the store's subscriptions.
func subscriptionsSnapshot(t testing.TB, fake *synapsefake.Server) []map[string]any {
	t.Helper()
	var pages []map[string]any
	for page := 1; ; page++ {
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: fmt.Sprintf("/subscriptions?page=%d", page), Header: hookGateway(fake)})
		if r.Status != http.StatusOK {
			t.Fatalf("GET /subscriptions: status %d: %s", r.Status, r.Raw)
		}
		pages = append(pages, r.Body)
		if pc, _ := r.Body["page_count"].(float64); float64(page) >= pc {
			return pages
		}
	}
}

// getSubscription is GET /subscriptions/{id}, which must succeed.
func getSubscription(t testing.TB, fake *synapsefake.Server, id string) map[string]any {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions/" + id, Header: hookGateway(fake)})
	if r.Status != http.StatusOK {
		t.Fatalf("GET /subscriptions/%s: status %d: %s", id, r.Status, r.Raw)
	}
	return r.Body
}

func TestCreateSubscription(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		header func(*synapsefake.Server) map[string]string
		body   any
		url    string
		scope  []any
	}{
		{"one scope, gateway only", hookGateway,
			map[string]any{"scope": []string{"TRAN|PATCH"}, "url": "https://consumer.example.com/hooks"},
			"https://consumer.example.com/hooks", []any{"TRAN|PATCH"}},
		{"every scope, http with port and query", hookGateway,
			map[string]any{"scope": allSubscriptionScopes, "url": "http://127.0.0.1:8080/hooks?src=synapse"},
			"http://127.0.0.1:8080/hooks?src=synapse", allSubscriptionScopes},
		{"with user headers too", testkit.GatewayHeaders,
			map[string]any{"url": "https://consumer.example.com/a", "scope": []string{"USERS|POST", "SUBNET|PATCH"}},
			"https://consumer.example.com/a", []any{"USERS|POST", "SUBNET|PATCH"}},
		{"unknown fields are ignored on create", hookGateway,
			map[string]any{"url": "https://consumer.example.com/b", "scope": []string{"NODES|POST"}, "is_active": false, "extra": 1},
			"https://consumer.example.com/b", []any{"NODES|POST"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/subscriptions", Header: tc.header(fake), Body: tc.body})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			id, _ := r.Body["_id"].(string)
			if !hookIDPattern.MatchString(id) {
				t.Errorf("_id %q is not 24 hex characters", id)
			}
			want := wantSubscription(fake, id, tc.url, 1, true, tc.scope...)
			if diff := cmp.Diff(withSuccessTrue(want), r.Body); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(withSuccessTrue(want), getSubscription(t, fake, id)); diff != "" {
				t.Errorf("GET afterwards (-want +got):\n%s", diff)
			}
			list := subscriptionsSnapshot(t, fake)[0]
			if diff := cmp.Diff([]any{want}, list["subscriptions"]); diff != "" {
				t.Errorf("listed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCreateSubscriptionErrors(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fake.MustAddSubscription(t, "https://existing.example.com/hooks", "USERS|POST")
	good := map[string]any{"scope": []string{"USERS|POST"}, "url": "https://consumer.example.com/hooks"}
	for _, tc := range []struct {
		name      string
		header    map[string]string
		body      any
		status    int
		errorCode string
		code      string
	}{
		{"missing gateway", map[string]string{}, good, 400, "100", "missing_client_credentials"},
		{"wrong gateway", map[string]string{"X-SP-GATEWAY": fake.ClientID() + "|wrong"}, good, 401, "100", "invalid_client_credentials"},
		{"malformed JSON", hookGateway(fake), `{"scope":`, 400, "200", "invalid_json"},
		{"array body", hookGateway(fake), `[]`, 400, "200", "invalid_json"},
		{"empty body", hookGateway(fake), ``, 400, "200", "invalid_json"},
		{"scope not an array", hookGateway(fake), map[string]any{"scope": "USERS|POST", "url": "https://a.example.com/"}, 400, "200", "invalid_field_type"},
		{"scope of numbers", hookGateway(fake), map[string]any{"scope": []int{1}, "url": "https://a.example.com/"}, 400, "200", "invalid_field_type"},
		{"url not a string", hookGateway(fake), map[string]any{"scope": []string{"USERS|POST"}, "url": 5}, 400, "200", "invalid_field_type"},
		{"url missing", hookGateway(fake), map[string]any{"scope": []string{"USERS|POST"}}, 400, "200", "invalid_url"},
		{"url empty", hookGateway(fake), map[string]any{"scope": []string{"USERS|POST"}, "url": ""}, 400, "200", "invalid_url"},
		{"url relative", hookGateway(fake), map[string]any{"scope": []string{"USERS|POST"}, "url": "/hooks"}, 400, "200", "invalid_url"},
		{"url without host", hookGateway(fake), map[string]any{"scope": []string{"USERS|POST"}, "url": "https://"}, 400, "200", "invalid_url"},
		{"url ftp", hookGateway(fake), map[string]any{"scope": []string{"USERS|POST"}, "url": "ftp://a.example.com/hooks"}, 400, "200", "invalid_url"},
		{"url not a URL", hookGateway(fake), map[string]any{"scope": []string{"USERS|POST"}, "url": "http://a b.example.com/%zz"}, 400, "200", "invalid_url"},
		{"scope missing", hookGateway(fake), map[string]any{"url": "https://a.example.com/"}, 400, "200", "missing_scope"},
		{"scope null", hookGateway(fake), map[string]any{"scope": nil, "url": "https://a.example.com/"}, 400, "200", "missing_scope"},
		{"scope empty", hookGateway(fake), map[string]any{"scope": []string{}, "url": "https://a.example.com/"}, 400, "200", "missing_scope"},
		{"scope unknown", hookGateway(fake), map[string]any{"scope": []string{"USERS|GET"}, "url": "https://a.example.com/"}, 400, "200", "invalid_scope"},
		{"scope lower case", hookGateway(fake), map[string]any{"scope": []string{"users|post"}, "url": "https://a.example.com/"}, 400, "200", "invalid_scope"},
		{"scope a user-level scope only", hookGateway(fake), map[string]any{"scope": []string{reference.ScopeNodeDelete}, "url": "https://a.example.com/"}, 400, "200", "invalid_scope"},
		{"one unknown among known", hookGateway(fake), map[string]any{"scope": []string{"USERS|POST", "TRANS|GET"}, "url": "https://a.example.com/"}, 400, "200", "invalid_scope"},
		{"scope with an empty string", hookGateway(fake), map[string]any{"scope": []string{""}, "url": "https://a.example.com/"}, 400, "200", "invalid_scope"},
		{"PUT", hookGateway(fake), good, 409, "410", "method_not_allowed"},
		{"DELETE", hookGateway(fake), nil, 409, "410", "method_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := subscriptionsSnapshot(t, fake)
			method := "POST"
			if tc.name == "PUT" || tc.name == "DELETE" {
				method = tc.name
			}
			r := testkit.Do(t, fake, testkit.Call{Method: method, Path: "/subscriptions", Header: tc.header, Body: tc.body})
			wantErrorHTTPCode(t, r, tc.status, fmt.Sprint(tc.status), tc.errorCode, tc.code)
			if diff := cmp.Diff(before, subscriptionsSnapshot(t, fake)); diff != "" {
				t.Errorf("subscriptions changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestListSubscriptions(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	var want []any
	for i := range 23 {
		url := fmt.Sprintf("https://consumer.example.com/hooks/%d", i)
		var sub synapsefake.Subscription
		if i%2 == 0 {
			sub = fake.MustAddSubscription(t, url)
			want = append(want, wantSubscription(fake, sub.ID, url, 1, true, allSubscriptionScopes...))
		} else {
			sub = fake.MustAddSubscription(t, url, "TRAN|PATCH")
			want = append(want, wantSubscription(fake, sub.ID, url, 1, true, "TRAN|PATCH"))
		}
	}
	for _, tc := range []struct {
		query            string
		limit, page, pgs float64
		items            []any
	}{
		{"", 20, 1, 2, want[:20]},
		{"?page=2", 20, 2, 2, want[20:]},
		{"?page=3", 20, 3, 2, []any{}},
		{"?per_page=5&page=3", 5, 3, 5, want[10:15]},
		{"?per_page=500", 20, 1, 2, want[:20]},
		{"?per_page=23", 20, 1, 2, want[:20]},
	} {
		t.Run(tc.query, func(t *testing.T) {
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions" + tc.query, Header: hookGateway(fake)})
			wantBody := map[string]any{"error_code": "0", "http_code": "200", "limit": tc.limit, "page": tc.page,
				"page_count": tc.pgs, "subscriptions": tc.items, "subscriptions_count": float64(23), "success": true}
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(wantBody, r.Body); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("empty", func(t *testing.T) {
		empty := synapsefake.NewServer(t)
		r := testkit.Do(t, empty, testkit.Call{Method: "GET", Path: "/subscriptions", Header: hookGateway(empty)})
		wantBody := map[string]any{"error_code": "0", "http_code": "200", "limit": float64(20), "page": float64(1),
			"page_count": float64(0), "subscriptions": []any{}, "subscriptions_count": float64(0), "success": true}
		if diff := cmp.Diff(wantBody, r.Body); diff != "" {
			t.Errorf("answer (-want +got):\n%s", diff)
		}
	})
}

func TestListSubscriptionsErrors(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fake.MustAddSubscription(t, "https://consumer.example.com/hooks")
	for _, tc := range []struct {
		name      string
		header    map[string]string
		query     string
		status    int
		errorCode string
		code      string
	}{
		{"missing gateway", map[string]string{"X-SP-USER-IP": "127.0.0.1"}, "", 400, "100", "missing_client_credentials"},
		{"wrong gateway", map[string]string{"X-SP-GATEWAY": "nobody|nothing"}, "", 401, "100", "invalid_client_credentials"},
		{"page 0", hookGateway(fake), "?page=0", 400, "200", ""},
		{"negative page", hookGateway(fake), "?page=-1", 400, "200", ""},
		{"page not a number", hookGateway(fake), "?page=1.5", 400, "200", ""},
		{"per_page 0", hookGateway(fake), "?per_page=0", 400, "200", ""},
		{"per_page not a number", hookGateway(fake), "?per_page=many", 400, "200", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := subscriptionsSnapshot(t, fake)
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions" + tc.query, Header: tc.header})
			wantErrorHTTPCode(t, r, tc.status, fmt.Sprint(tc.status), tc.errorCode, tc.code)
			if diff := cmp.Diff(before, subscriptionsSnapshot(t, fake)); diff != "" {
				t.Errorf("subscriptions changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestGetSubscriptionErrors(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	sub := fake.MustAddSubscription(t, "https://consumer.example.com/hooks", "USERS|POST")
	for _, tc := range []struct {
		name      string
		method    string
		id        string
		header    map[string]string
		status    int
		errorCode string
		code      string
	}{
		{"unknown id", "GET", "5bd9e16314c7f70098c16e88", hookGateway(fake), 404, "404", "unable_to_locate_subscription"},
		{"id of another kind", "GET", "not-an-id", hookGateway(fake), 404, "404", "unable_to_locate_subscription"},
		{"missing gateway", "GET", sub.ID, map[string]string{}, 400, "100", "missing_client_credentials"},
		{"wrong gateway", "GET", sub.ID, map[string]string{"X-SP-GATEWAY": fake.ClientID() + "|x"}, 401, "100", "invalid_client_credentials"},
		{"DELETE", "DELETE", sub.ID, hookGateway(fake), 409, "410", "method_not_allowed"},
		{"PUT", "PUT", sub.ID, hookGateway(fake), 409, "410", "method_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := subscriptionsSnapshot(t, fake)
			r := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: "/subscriptions/" + tc.id, Header: tc.header})
			wantErrorHTTPCode(t, r, tc.status, fmt.Sprint(tc.status), tc.errorCode, tc.code)
			if diff := cmp.Diff(before, subscriptionsSnapshot(t, fake)); diff != "" {
				t.Errorf("subscriptions changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestPatchSubscription(t *testing.T) {
	t.Parallel()
	const url = "https://consumer.example.com/hooks"
	for _, tc := range []struct {
		name   string
		method string
		body   any
		want   func(fake *synapsefake.Server, id string) map[string]any
	}{
		{"deactivate", "PATCH", map[string]any{"is_active": false}, func(f *synapsefake.Server, id string) map[string]any {
			return wantSubscription(f, id, url, 2, false, "USERS|POST", "TRAN|PATCH")
		}},
		{"reactivate is allowed and idempotent", "PATCH", map[string]any{"is_active": true}, func(f *synapsefake.Server, id string) map[string]any {
			return wantSubscription(f, id, url, 2, true, "USERS|POST", "TRAN|PATCH")
		}},
		{"new url", "PATCH", map[string]any{"url": "http://localhost:9000/new"}, func(f *synapsefake.Server, id string) map[string]any {
			return wantSubscription(f, id, "http://localhost:9000/new", 2, true, "USERS|POST", "TRAN|PATCH")
		}},
		{"new scope replaces the old", "PATCH", map[string]any{"scope": []string{"SUBNET|PATCH"}}, func(f *synapsefake.Server, id string) map[string]any {
			return wantSubscription(f, id, url, 2, true, "SUBNET|PATCH")
		}},
		{"all three", "PATCH", map[string]any{"is_active": false, "url": "https://b.example.com/", "scope": allSubscriptionScopes},
			func(f *synapsefake.Server, id string) map[string]any {
				return wantSubscription(f, id, "https://b.example.com/", 2, false, allSubscriptionScopes...)
			}},
		{"POST updates too (synapsenode 2.0)", "POST", map[string]any{"is_active": false}, func(f *synapsefake.Server, id string) map[string]any {
			return wantSubscription(f, id, url, 2, false, "USERS|POST", "TRAN|PATCH")
		}},
		// As the provider's integration suite expected: stored as sent.
		{"url without a scheme", "PATCH", map[string]any{"url": "test.com"}, func(f *synapsefake.Server, id string) map[string]any {
			return wantSubscription(f, id, "test.com", 2, true, "USERS|POST", "TRAN|PATCH")
		}},
		{"url without a scheme, with port and path", "POST", map[string]any{"url": "hooks.example.com:8080/in?x=1"}, func(f *synapsefake.Server, id string) map[string]any {
			return wantSubscription(f, id, "hooks.example.com:8080/in?x=1", 2, true, "USERS|POST", "TRAN|PATCH")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			other := fake.MustAddSubscription(t, "https://other.example.com/hooks", "NODES|POST")
			sub := fake.MustAddSubscription(t, url, "USERS|POST", "TRAN|PATCH")
			otherBefore := getSubscription(t, fake, other.ID)
			r := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: "/subscriptions/" + sub.ID, Header: hookGateway(fake), Body: tc.body})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			want := withSuccessTrue(tc.want(fake, sub.ID))
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, getSubscription(t, fake, sub.ID)); diff != "" {
				t.Errorf("GET afterwards (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(otherBefore, getSubscription(t, fake, other.ID)); diff != "" {
				t.Errorf("another subscription changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestPatchSubscriptionErrors(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	sub := fake.MustAddSubscription(t, "https://consumer.example.com/hooks", "USERS|POST")
	fake.MustAddSubscription(t, "https://second.example.com/hooks")
	for _, tc := range []struct {
		name      string
		id        string
		header    map[string]string
		body      any
		status    int
		errorCode string
		code      string
	}{
		{"unknown id", "5bd9e16314c7f70098c16e88", hookGateway(fake), map[string]any{"is_active": false}, 404, "404", "unable_to_locate_subscription"},
		{"missing gateway", sub.ID, map[string]string{}, map[string]any{"is_active": false}, 400, "100", "missing_client_credentials"},
		{"wrong gateway", sub.ID, map[string]string{"X-SP-GATEWAY": "a|b"}, map[string]any{"is_active": false}, 401, "100", "invalid_client_credentials"},
		{"malformed JSON", sub.ID, hookGateway(fake), `{"is_active":fals}`, 400, "200", "invalid_json"},
		{"array body", sub.ID, hookGateway(fake), `[{"is_active":false}]`, 400, "200", "invalid_json"},
		{"trailing data", sub.ID, hookGateway(fake), `{"is_active":false} {}`, 400, "200", "invalid_json"},
		{"nothing to update", sub.ID, hookGateway(fake), map[string]any{}, 400, "200", "nothing_to_update"},
		{"only nulls", sub.ID, hookGateway(fake), map[string]any{"is_active": nil, "url": nil, "scope": nil}, 400, "200", "nothing_to_update"},
		{"client_id is not updatable", sub.ID, hookGateway(fake), map[string]any{"client_id": "x"}, 400, "200", "nothing_to_update"},
		{"is_active a string", sub.ID, hookGateway(fake), map[string]any{"is_active": "false"}, 400, "200", "invalid_field_type"},
		{"url a number", sub.ID, hookGateway(fake), map[string]any{"url": 1}, 400, "200", "invalid_field_type"},
		{"scope a string", sub.ID, hookGateway(fake), map[string]any{"scope": "USERS|POST"}, 400, "200", "invalid_field_type"},
		{"url relative", sub.ID, hookGateway(fake), map[string]any{"url": "hooks"}, 400, "200", "invalid_url"},
		{"url mailto", sub.ID, hookGateway(fake), map[string]any{"url": "mailto:ops@example.com"}, 400, "200", "invalid_url"},
		{"url a host with user info", sub.ID, hookGateway(fake), map[string]any{"url": "ops@example.com"}, 400, "200", "invalid_url"},
		{"url a host ending in a dot", sub.ID, hookGateway(fake), map[string]any{"url": "example."}, 400, "200", "invalid_url"},
		{"url a host with a space", sub.ID, hookGateway(fake), map[string]any{"url": "a b.example.com"}, 400, "200", "invalid_url"},
		{"url empty", sub.ID, hookGateway(fake), map[string]any{"url": ""}, 400, "200", "invalid_url"},
		{"scope empty", sub.ID, hookGateway(fake), map[string]any{"scope": []string{}}, 400, "200", "missing_scope"},
		{"scope unknown", sub.ID, hookGateway(fake), map[string]any{"scope": []string{"STATEMENTS|GET"}}, 400, "200", "invalid_scope"},
		{"valid is_active with bad scope", sub.ID, hookGateway(fake), map[string]any{"is_active": false, "scope": []string{"X"}}, 400, "200", "invalid_scope"},
		{"valid scope with bad url", sub.ID, hookGateway(fake), map[string]any{"scope": []string{"NODES|POST"}, "url": "ftp://x"}, 400, "200", "invalid_url"},
	} {
		for _, method := range []string{"PATCH", "POST"} {
			t.Run(method+" "+tc.name, func(t *testing.T) {
				before := subscriptionsSnapshot(t, fake)
				r := testkit.Do(t, fake, testkit.Call{Method: method, Path: "/subscriptions/" + tc.id, Header: tc.header, Body: tc.body})
				wantErrorHTTPCode(t, r, tc.status, fmt.Sprint(tc.status), tc.errorCode, tc.code)
				if diff := cmp.Diff(before, subscriptionsSnapshot(t, fake)); diff != "" {
					t.Errorf("subscriptions changed (-before +after):\n%s", diff)
				}
			})
		}
	}
}

// TestAddSubscription checks the Go seeding helper: all eight scopes by
// default, and the copy it returns matches the API's view.
func TestAddSubscription(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	all := fake.MustAddSubscription(t, "https://a.example.com/hooks")
	two := fake.MustAddSubscription(t, "https://b.example.com/hooks", "NODE|PATCH", "USERS|POST")
	want := []synapsefake.Subscription{
		{ID: all.ID, URL: "https://a.example.com/hooks", Scopes: reference.SubscriptionScopes(), IsActive: true},
		{ID: two.ID, URL: "https://b.example.com/hooks", Scopes: []string{"NODE|PATCH", "USERS|POST"}, IsActive: true},
	}
	if diff := cmp.Diff(want, []synapsefake.Subscription{all, two}); diff != "" {
		t.Errorf("AddSubscription copies (-want +got):\n%s", diff)
	}
	if all.ID == two.ID || !hookIDPattern.MatchString(all.ID) || !hookIDPattern.MatchString(two.ID) {
		t.Errorf("ids %q and %q: want two distinct 24-hex ids", all.ID, two.ID)
	}
	list := subscriptionsSnapshot(t, fake)[0]["subscriptions"]
	wantList := []any{
		wantSubscription(fake, all.ID, "https://a.example.com/hooks", 1, true, allSubscriptionScopes...),
		wantSubscription(fake, two.ID, "https://b.example.com/hooks", 1, true, "NODE|PATCH", "USERS|POST"),
	}
	if diff := cmp.Diff(wantList, list); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
	// The copy is the caller's: changing it changes nothing.
	all.Scopes[0] = "changed"
	if got := getSubscription(t, fake, all.ID)["scope"]; !cmp.Equal(got, allSubscriptionScopes) {
		t.Errorf("scope after changing the copy: %v", got)
	}
}

// TestSchemelessSubscriptionDelivery checks what becomes of the events of a
// subscription whose url PATCH stored without a scheme: each delivery is
// logged as an unreachable receiver (408, once), and nothing is sent.
func TestSchemelessSubscriptionDelivery(t *testing.T) {
	t.Parallel()
	var sent atomic.Int32
	fake := synapsefake.NewServer(t, synapsefake.WithWebhookClient(&http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
		sent.Add(1)
		return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
	})}))
	sub := fake.MustAddSubscription(t, "https://consumer.example.com/hooks", "USERS|POST")
	r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/subscriptions/" + sub.ID, Header: hookGateway(fake), Body: map[string]any{"url": "test.com"}})
	if r.Status != http.StatusOK {
		t.Fatalf("PATCH: status %d: %s", r.Status, r.Raw)
	}
	fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.Advance(24 * time.Hour)
	w := fake.Webhooks().Wait(t, synapsefake.ForFunction("USERS|POST"))
	if diff := cmp.Diff([][]int{{408}}, attemptCodes(w)); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
	if len(w.Deliveries) == 1 && (w.Deliveries[0].URL != "test.com" || !strings.Contains(w.Deliveries[0].Attempts[0].Text, "unreachable")) {
		t.Errorf("delivery to %q, text %q; want test.com, unreachable", w.Deliveries[0].URL, w.Deliveries[0].Attempts[0].Text)
	}
	fake.Flush()
	if n := sent.Load(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
