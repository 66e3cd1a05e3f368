package api

import (
	"context"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// apiRouter routes the API's requests by path, as an http.ServeMux with
// the same method-less patterns and a catch-all "/" would, and sets the
// request's Pattern and path values as the mux does. It walks a tree of
// the patterns' segments that it built once, where the mux walks its own
// routing tree and allocates the values it matched: the mux took about
// 1.2 µs of the 15 µs a create spent in the standalone fake's ServeHTTP
// (a CPU profile of go run ./internal/loadgen -rows create-c4), and
// BenchmarkServeCreate/paired went from 1.435x to 1.39x without it.
//
// As the mux does, a literal segment is tried before a wildcard at the
// same place, and the wildcard's value is the segment unescaped (the raw
// segment when it does not unescape).
type apiRouter struct {
	root     routeNode
	notFound http.HandlerFunc
}

// routeNode is a segment of a pattern: a literal, or a wildcard.
type routeNode struct {
	literal  map[string]*routeNode
	wildcard *routeNode

	// On the last segment of a pattern: its Pattern (APIPrefix and the
	// route), and the names of its wildcards in order.
	pattern string
	names   []string
	serve   http.HandlerFunc
}

// route is n's route as the spec writes it, without APIPrefix.
func (n *routeNode) route() string { return strings.TrimPrefix(n.pattern, APIPrefix) }

// maxWildcards is the most wildcards an API pattern has.
const maxWildcards = 4

// APIPrefix is every API path's version prefix.
const APIPrefix = "/v3.1"

// add registers route (a pattern without /v3.1) to serve.
func (rt *apiRouter) add(route string, serve http.HandlerFunc) {
	n := &rt.root
	var names []string
	for _, seg := range strings.Split(strings.TrimPrefix(APIPrefix+route, "/"), "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			// Routes may name the wildcard at one place differently: a
			// value is found by its place, and each route keeps its names.
			if n.wildcard == nil {
				n.wildcard = &routeNode{}
			}
			n, names = n.wildcard, append(names, seg[1:len(seg)-1])
			continue
		}
		if n.literal == nil {
			n.literal = map[string]*routeNode{}
		}
		c := n.literal[seg]
		if c == nil {
			c = &routeNode{}
			n.literal[seg] = c
		}
		n = c
	}
	if n.serve != nil || len(names) > maxWildcards {
		panic("synapsefake: route " + route + " registered twice, or with too many wildcards")
	}
	n.pattern, n.names, n.serve = APIPrefix+route, names, serve
}

// match finds the node of the pattern path (an escaped path) falls under
// and the values of its wildcards, written into vals; nil for none. The
// version prefix is a segment like any other: /v3%2E1/users is /v3.1/users,
// as for the mux.
func (rt *apiRouter) match(path string, vals *[maxWildcards]string) *routeNode {
	return rt.root.match(path, vals, 0)
}

// match matches path, the rest of the path after n's segment ("" or
// "/segment..."), with the k wildcards before n already in vals.
func (n *routeNode) match(path string, vals *[maxWildcards]string, k int) *routeNode {
	if path == "" {
		if n.serve == nil {
			return nil
		}
		return n
	}
	seg, rest := path[1:], ""
	if i := strings.IndexByte(seg, '/'); i >= 0 {
		seg, rest = seg[:i], seg[i:]
	}
	if strings.IndexByte(seg, '%') >= 0 {
		if u, err := url.PathUnescape(seg); err == nil {
			seg = u
		}
	}
	if c := n.literal[seg]; c != nil {
		if m := c.match(rest, vals, k); m != nil {
			return m
		}
	}
	// k stays below maxWildcards: add refuses a route with more.
	if n.wildcard != nil && path != "/" { // a wildcard matches no trailing slash
		vals[k] = seg
		return n.wildcard.match(rest, vals, k+1)
	}
	return nil
}

// ServeHTTP serves r with the handler of the route its path falls under,
// or the catch-all's, with r.Pattern and r's path values set.
func (rt *apiRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var vals [maxWildcards]string
	n := rt.match(r.URL.EscapedPath(), &vals)
	if n == nil {
		r.Pattern = "/"
		rt.notFound(w, r)
		return
	}
	r.Pattern = n.pattern
	for i, name := range n.names {
		r.SetPathValue(name, vals[i])
	}
	n.serve(w, r)
}

// lookup is the route (without /v3.1) path falls under, "" for none.
func (rt *apiRouter) lookup(path string) string {
	var vals [maxWildcards]string
	if n := rt.match((&url.URL{Path: path}).EscapedPath(), &vals); n != nil {
		return n.route()
	}
	return ""
}

// ServeAPI serves a v3.1 request on w, which the root's ServeHTTP has
// guarded against panics (GuardWriter, RecoverPanic): the path and header
// checks, the clock-driven work that fell due, the WithHook hook, the
// injected latency, then the journal, panic recovery and idempotency
// around the route table.
func (s *Wire) ServeAPI(w *GuardWriter, r *http.Request) {
	hooked := false
	if done := s.startExchange(w, r); done != nil {
		defer func() { done(hooked) }()
	}
	if p := r.URL.Path; p != "/" && !PlainPath(p) && p != path.Clean(p) {
		// ServeMux would redirect to the clean path; the real API answers 404.
		s.FailUnjournaled(w, r, s.nearMissRefusal(w, r, apierr.RouteNotFound.Because("the path %s is not clean (// . or ..)", p).Hinting("join the path to fake.URL() with one /")))
		return
	}
	if HeaderBytes(r.Header) > MaxHeaderBytes {
		s.FailUnjournaled(w, r, apierr.Payload("headers_too_large", "Request headers are larger than %d bytes.", MaxHeaderBytes))
		return
	}
	s.RunDueFast()
	if s.Cfg.Hook != nil {
		hooked = true // until it returns: a hook that panics answered the call too
		if s.Cfg.Hook(w, r) {
			return
		}
		hooked = false
	}
	if !s.Delay(r) {
		s.Fail(w, ErrGatewayTimeout)
		return
	}
	if s.Cfg.Strict {
		r = r.WithContext(context.WithValue(r.Context(), ServerKey{}, s)) // for checkStrict
	}
	rec := s.Journal.Start(w, r)
	defer s.Journal.Finish(rec, r)
	defer s.RecoverPanic(w, rec, r) // before finish, so that the journal records the 500
	s.WithIdempotency(rec, r, APIMux())
}
