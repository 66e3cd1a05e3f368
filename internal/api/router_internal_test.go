package api

import (
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestAPIRouterIsServeMux: for every route of the API, filled in with ids,
// with the literals of other routes, with escaped segments, cut short
// and made longer, with and without a trailing slash, and for 20,000 random clean paths
// of the routes' segments, the router picks the route (or the catch-all)
// and the wildcard values an http.ServeMux with the same patterns picks.
func TestAPIRouterIsServeMux(t *testing.T) {
	router := APIMux()
	type match struct {
		route  string
		values []string
	}
	var got match
	mux := http.NewServeMux()
	for route := range apiRoutes {
		names := wildcardNames(route)
		mux.HandleFunc(APIPrefix+route, func(w http.ResponseWriter, r *http.Request) {
			got = match{route: route}
			for _, n := range names {
				got.values = append(got.values, r.PathValue(n))
			}
		})
	}
	mux.HandleFunc("/", func(http.ResponseWriter, *http.Request) { got = match{} })

	literals := map[string]bool{}
	for route := range apiRoutes {
		for _, seg := range strings.Split(route[1:], "/") {
			if !strings.HasPrefix(seg, "{") {
				literals[seg] = true
			}
		}
	}
	fills := append(slices.Sorted(maps.Keys(literals)), "5f1e0c2a9b3d4e5f6a7b8c9d", "a%2Fb", "a%20b", "%25zz", "x.y", "%7Bid%7D")
	var paths []string
	for _, route := range slices.Sorted(maps.Keys(apiRoutes)) {
		segs := strings.Split(route[1:], "/")
		for _, fill := range fills {
			filled := make([]string, len(segs))
			for i, s := range segs {
				filled[i] = s
				if strings.HasPrefix(s, "{") {
					filled[i] = fill
				}
			}
			p := APIPrefix + "/" + strings.Join(filled, "/")
			cut := p[:strings.LastIndexByte(p, '/')]
			paths = append(paths, p, p+"/", p+"/extra", cut, cut+"/")
		}
	}
	paths = append(paths, "/", "/v3.1", "/v3.1/", "/v3", "/v3.10/users", "/V3.1/users", "/users", "/v3.1/users/entity-types", "/v3.1/nodes/types",
		"/v3%2E1/users", "/v3.1/us%65rs", "/%76%33%2E%31/users/u1/nodes", "/v3.1/users/u1/nodes/n1/tr%61ns")
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20_000 {
		p := APIPrefix
		for range 1 + rng.IntN(7) {
			p += "/" + fills[rng.IntN(len(fills))]
		}
		paths = append(paths, p)
	}

	for _, p := range paths {
		u, err := url.Parse("http://fake" + p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got = match{route: "(the mux called no handler)"}
		mux.ServeHTTP(httptest.NewRecorder(), &http.Request{Method: http.MethodGet, URL: u, Host: "fake"})
		want := got
		var vals [maxWildcards]string
		var have match
		if n := router.match(u.EscapedPath(), &vals); n != nil {
			have = match{route: n.route(), values: slices.Clone(vals[:len(n.names)])}
		}
		if have.route != want.route || !slices.Equal(have.values, want.values) {
			t.Errorf("%s: the router matched %q %q, the ServeMux %q %q", p, have.route, have.values, want.route, want.values)
		}
		if r := router.lookup(u.Path); r != want.route && !strings.Contains(p, "%") {
			t.Errorf("lookup(%s) = %q, want %q", u.Path, r, want.route)
		}
	}
}

// wildcardNames are the names of route's wildcards, in order.
func wildcardNames(route string) []string {
	var names []string
	for _, seg := range strings.Split(route, "/") {
		if strings.HasPrefix(seg, "{") {
			names = append(names, strings.Trim(seg, "{}"))
		}
	}
	return names
}

// TestAPIRouterServes: a matched request gets its route's handler with
// r.Pattern and its path values set, under the names its own route gives
// them, an unmatched one the catch-all with Pattern "/", and matching
// allocates nothing.
func TestAPIRouterServes(t *testing.T) {
	var served string
	rt := &apiRouter{notFound: func(w http.ResponseWriter, r *http.Request) { served = "not found " + r.Pattern }}
	rt.add("/users/{user_id}/nodes/{node_id}", func(w http.ResponseWriter, r *http.Request) {
		served = r.Pattern + " " + r.PathValue("user_id") + " " + r.PathValue("node_id")
	})
	rt.add("/users/entity-types", func(w http.ResponseWriter, r *http.Request) { served = r.Pattern })
	rt.add("/users/{id}/ubo", func(w http.ResponseWriter, r *http.Request) { served = r.Pattern + " " + r.PathValue("id") })
	for _, tc := range []struct{ path, want string }{
		{"/v3.1/users/u1/nodes/n1", "/v3.1/users/{user_id}/nodes/{node_id} u1 n1"},
		{"/v3.1/users/entity-types", "/v3.1/users/entity-types"},
		{"/v3.1/users/u2/ubo", "/v3.1/users/{id}/ubo u2"},
		{"/v3.1/users/entity-types/nodes/n1", "/v3.1/users/{user_id}/nodes/{node_id} entity-types n1"},
		{"/v3.1/users/a%2Fb/nodes/n1", "/v3.1/users/{user_id}/nodes/{node_id} a/b n1"},
		{"/v3.1/users/u1/nodes", "not found /"},
		{"/v3.1/users/u1/nodes/n1/", "not found /"},
		{"/v3.1/users/u1/nodes/", "not found /"},
		{"/v3.2/users/entity-types", "not found /"},
	} {
		u, _ := url.Parse("http://fake" + tc.path)
		served = ""
		rt.ServeHTTP(httptest.NewRecorder(), &http.Request{Method: http.MethodGet, URL: u})
		if served != tc.want {
			t.Errorf("%s: served %q, want %q", tc.path, served, tc.want)
		}
	}
	var vals [maxWildcards]string
	if allocs := testing.AllocsPerRun(100, func() { rt.match("/v3.1/users/u1/nodes/n1", &vals) }); allocs != 0 {
		t.Errorf("match allocates %v times, want 0", allocs)
	}
}
