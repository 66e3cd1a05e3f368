package api_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// answerWithin is how long a request after a refused one may take before the
// fake counts as wedged.
const answerWithin = 2 * time.Second

// pagedLists are the paths of every paged list of the API, for a user with
// a node holding a card subnet.
func pagedLists(fx testkit.Fixture) []struct{ name, path string } {
	u := "/users/" + fx.User.ID
	n := u + "/nodes/" + fx.Node.ID
	return []struct{ name, path string }{
		{"users", "/users"},
		{"nodes", u + "/nodes"},
		{"user transactions", u + "/trans"},
		{"node transactions", n + "/trans"},
		{"user subnets", u + "/subnets"},
		{"node subnets", n + "/subnets"},
		{"user statements", u + "/statements"},
		{"node statements", n + "/statements"},
		{"subscriptions", "/subscriptions"},
		{"webhook logs", "/subscriptions/logs"},
	}
}

// TestPageOverflowDoesNotWedge sends each list a page whose window
// overflows an int, then an ordinary request, which must be answered.
func TestPageOverflowDoesNotWedge(t *testing.T) {
	t.Parallel()
	for _, query := range []string{"?page=461168601842738792", "?per_page=2&page=4611686018427387906"} {
		fake := synapsefake.NewServer(t)
		fx := testkit.NewFixture(t, fake, 10000)
		if _, err := fake.AddSubnet(fx.User.ID, fx.Node.ID, synapsefake.SubnetSeed{}); err != nil {
			t.Fatal(err)
		}
		fake.MustAddSubscription(t, "https://example.com/hook")
		for _, l := range pagedLists(fx) {
			t.Run(l.name+query, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), answerWithin)
				defer cancel()
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: l.path + query, Header: fx.Headers, Ctx: ctx})
				testkit.WantError(t, r, 400, "200", "invalid_page")
				r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: l.path, Header: fx.Headers, Ctx: ctx})
				if r.Status != 200 || r.Body["success"] != true || r.Body["page"] != 1.0 {
					t.Errorf("GET %s after the overflowing page: status %d, body %s", l.path, r.Status, r.Raw)
				}
			})
		}
	}
}

// TestPageBounds checks how page and per_page are read, on GET
// /subscriptions with one subscription.
func TestPageBounds(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	sub := fake.MustAddSubscription(t, "https://example.com/hook")
	first := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions", Header: testkit.GatewayHeaders(fake)})
	items, _ := first.Body["subscriptions"].([]any)
	if len(items) != 1 {
		t.Fatalf("GET /subscriptions: %s, want subscription %s", first.Raw, sub.ID)
	}
	page := func(limit, number, pageCount int, items []any) map[string]any {
		return map[string]any{"error_code": "0", "http_code": "200", "limit": float64(limit), "page": float64(number),
			"page_count": float64(pageCount), "subscriptions": items, "subscriptions_count": 1.0, "success": true}
	}
	const maxPage = 10_000_000
	for _, tc := range []struct {
		query string
		want  map[string]any // nil for a refusal
		code  string         // error.code of the refusal
	}{
		{"", page(20, 1, 1, items), ""},
		{"?page=1", page(20, 1, 1, items), ""},
		{"?page=2", page(20, 2, 1, []any{}), ""},
		{"?page=" + strconv.Itoa(maxPage), page(20, maxPage, 1, []any{}), ""},
		{"?page=" + strconv.Itoa(maxPage+1), nil, "invalid_page"},
		{"?page=9223372036854775807", nil, "invalid_page"},
		{"?page=9223372036854775808", nil, "invalid_page"},
		{"?page=0", nil, "invalid_page"},
		{"?page=-1", nil, "invalid_page"},
		{"?page=x", nil, "invalid_page"},
		{"?page=1.5", nil, "invalid_page"},
		{"?per_page=1", page(1, 1, 1, items), ""},
		{"?per_page=20", page(20, 1, 1, items), ""},
		{"?per_page=21", page(20, 1, 1, items), ""},
		{"?per_page=9223372036854775807&page=" + strconv.Itoa(maxPage), page(20, maxPage, 1, []any{}), ""},
		{"?per_page=1&page=" + strconv.Itoa(maxPage), page(1, maxPage, 1, []any{}), ""},
		{"?per_page=99999999999999999999", nil, "invalid_per_page"},
		{"?per_page=0", nil, "invalid_per_page"},
		{"?per_page=-1", nil, "invalid_per_page"},
		{"?per_page=x", nil, "invalid_per_page"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions" + tc.query, Header: testkit.GatewayHeaders(fake)})
			if tc.want == nil {
				testkit.WantError(t, r, 400, "200", tc.code)
				return
			}
			if r.Status != 200 {
				t.Errorf("status %d, want 200", r.Status)
			}
			if diff := cmp.Diff(tc.want, r.Body); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
