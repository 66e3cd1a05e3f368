package api

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// Near misses: a request no route takes (404 not_found, or 409 / "410"
// method_not_allowed on a route it does not serve) is answered as the
// service answers it, and the fake names the routes nearest to it, as
// WireMock names the stubs nearest to a request it cannot match. The
// distance between a request and a route's method is the cost of editing
// the path's segments into the route's (an alignment of the two lists of
// segments: a segment left out or added costs 1, a literal segment spelt
// otherwise its edit distance over its length, or 1 when that is over
// 0.35 (another word: /nope is not /nodes), a wildcard nothing for any segment that is not a word of the
// route table) plus the cost of the method
// (none for the same, 0.1 from HEAD to GET, 0.25 between POST, PUT and
// PATCH, 0.4 otherwise: a path one segment off is farther than the right
// path with the wrong method). A missing or doubled version prefix and an
// empty segment (a trailing or doubled slash) cost less than a segment:
// they are the usual slips. Routes more than half their segments (or 2)
// away are not named, nor those nearMissSpread or more farther than the
// nearest; at most maxNearMisses are, nearest first.

// maxNearMisses is how many routes a near miss names, as WireMock's three.
const maxNearMisses = 3

// maxNearMissDistance is the farthest a named route may be.
const maxNearMissDistance = 2.0

// Gap costs: a segment the request has and the route has not, or the
// other way round.
const (
	gapCost       = 1.0
	gapEmptyCost  = 0.25 // an empty or "." segment: a doubled or trailing slash
	gapPrefixCost = 0.5  // the version prefix, left out or doubled
	// gapWordCost is the cost of a word of the route left out: less than
	// an id too many, so that /users/U/nodes/N/T is nearer
	// /users/{user_id}/nodes/{node_id}/trans/{trans_id} than
	// /users/{user_id}/nodes/{node_id}.
	gapWordCost = 0.75
	// wildcardWordCost is the cost of a word of the route table (nodes,
	// trans...) where the route takes an id: a segment out of place.
	wildcardWordCost = 0.5
	// caseCost is the cost of a literal segment spelt in another case,
	// prefixWordCost at most that of one that starts the other
	// (transactions for trans). A literal segment further than
	// unrelatedWordCost from the route's (its edit distance over its
	// length) is another word: it costs 1.
	caseCost          = 0.1
	prefixWordCost    = 0.3
	unrelatedWordCost = 0.35
	// nearMissSpread is how much farther than the nearest a named route
	// may be.
	nearMissSpread = 0.2
)

// nearRoute is one route as the ranking reads it: its segments with the
// version prefix, and the methods it serves.
type nearRoute struct {
	route   string   // as the spec writes it, without the prefix
	segs    []string // the prefix's segment first
	methods []string // sorted
}

// nearTable is every route of the API and the words its literal segments
// use, built once from apiRoutes.
var nearTable = sync.OnceValues(func() ([]nearRoute, map[string]bool) {
	builtMux() // fills apiRoutes
	words := map[string]bool{}
	var routes []nearRoute
	for route, rt := range apiRoutes {
		segs := strings.Split(strings.TrimPrefix(APIPrefix+route, "/"), "/")
		for _, s := range segs {
			if !isWildcard(s) {
				words[s] = true
			}
		}
		methods := make([]string, 0, len(rt))
		for m := range rt {
			methods = append(methods, m)
		}
		slices.Sort(methods)
		routes = append(routes, nearRoute{route: route, segs: segs, methods: methods})
	}
	slices.SortFunc(routes, func(a, b nearRoute) int { return strings.Compare(a.route, b.route) })
	return routes, words
})

// builtMux is APIMux, which the route handlers' near misses reach: called
// through a variable set by init, it makes no initialization cycle.
var builtMux func() *apiRouter

func init() { builtMux = APIMux }

func isWildcard(seg string) bool { return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") }

// NearestRoutes names the routes nearest to a request of method for path
// (escaped, as sent), nearest first, each as "METHOD /route" (the spec's
// route, without the version prefix, as FailNext and RequestsTo name
// routes): nil when a route serves the request, or none is near.
func NearestRoutes(method, path string) []string {
	var vals [maxWildcards]string
	if n := APIMux().match(path, &vals); n != nil {
		if _, ok := apiRoutes[n.route()][method]; ok {
			return nil
		}
	}
	return nearestRoutes(method, path)
}

// nearestRoutes is NearestRoutes for a request known to be a miss.
func nearestRoutes(method, path string) []string {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, s := range segs {
		if strings.IndexByte(s, '%') >= 0 {
			if u, err := url.PathUnescape(s); err == nil {
				segs[i] = u
			}
		}
	}
	routes, words := nearTable()
	type scored struct {
		name       string
		total, way float64
	}
	var near []scored
	for _, rt := range routes {
		if !sharesWord(segs, rt.segs, words) {
			continue
		}
		way := segmentDistance(segs, rt.segs, words)
		if way > maxNearMissDistance {
			continue
		}
		for _, m := range rt.methods {
			total := way + methodDistance(method, m)
			if total <= maxNearMissDistance && total < float64(len(rt.segs))/2 {
				near = append(near, scored{m + " " + rt.route, total, way})
			}
		}
	}
	slices.SortFunc(near, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.total, b.total), cmp.Compare(a.way, b.way), strings.Compare(a.name, b.name))
	})
	var out []string
	for _, s := range near[:min(len(near), maxNearMisses)] {
		if s.total >= near[0].total+nearMissSpread {
			break
		}
		out = append(out, s.name)
	}
	return out
}

// sharesWord reports whether one of the request's segments is one of the
// route's words (its literal segments but the version prefix), or a
// misspelling of one: a route that shares none is not near, however few
// its segments.
func sharesWord(req, route []string, words map[string]bool) bool {
	for _, pat := range route[1:] {
		if isWildcard(pat) {
			continue
		}
		for _, seg := range req {
			if segmentCost(seg, pat, words) < 1 {
				return true
			}
		}
	}
	return false
}

// segmentDistance is the cost of editing the request's segments into the
// route's.
func segmentDistance(req, route []string, words map[string]bool) float64 {
	// d[i][j]: req[:i] into route[:j], one row at a time.
	prev := make([]float64, len(route)+1)
	cur := make([]float64, len(route)+1)
	for j := 1; j <= len(route); j++ {
		prev[j] = prev[j-1] + insertCost(route[j-1])
	}
	for i := 1; i <= len(req); i++ {
		del := deleteCost(req[i-1])
		cur[0] = prev[0] + del
		for j := 1; j <= len(route); j++ {
			cur[j] = min(prev[j]+del, cur[j-1]+insertCost(route[j-1]), prev[j-1]+segmentCost(req[i-1], route[j-1], words))
		}
		prev, cur = cur, prev
	}
	return prev[len(route)]
}

// deleteCost is the cost of a segment the request has and the route not.
func deleteCost(seg string) float64 {
	switch seg {
	case "", ".":
		return gapEmptyCost
	case APIPrefix[1:]:
		return gapPrefixCost
	}
	return gapCost
}

// insertCost is the cost of a segment of the route the request lacks.
func insertCost(seg string) float64 {
	switch {
	case seg == APIPrefix[1:]:
		return gapPrefixCost
	case !isWildcard(seg):
		return gapWordCost
	}
	return gapCost
}

// segmentCost is the cost of the request's segment seg where the route has
// pat.
func segmentCost(seg, pat string, words map[string]bool) float64 {
	switch {
	case isWildcard(pat):
		switch {
		case seg == "" || seg == "." || seg == "..":
			return gapCost // a wildcard takes no empty segment
		case words[seg]:
			return wildcardWordCost
		}
		return 0
	case seg == pat:
		return 0
	case seg == "" || seg == "." || seg == "..":
		return gapCost
	case strings.EqualFold(seg, pat):
		return caseCost
	}
	a, b := strings.ToLower(seg), strings.ToLower(pat)
	cost := float64(editDistance(a, b)) / float64(max(utf8.RuneCountInString(a), utf8.RuneCountInString(b)))
	if strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
		cost = min(cost, prefixWordCost) // transactions for trans
	}
	if cost > unrelatedWordCost {
		return 1 // another word, not a misspelling
	}
	return cost
}

// methodDistance is the cost of calling with method a route's method m.
func methodDistance(method, m string) float64 {
	writes := func(x string) bool { return x == http.MethodPost || x == http.MethodPut || x == http.MethodPatch }
	switch {
	case method == m:
		return 0
	case method == http.MethodHead && m == http.MethodGet:
		return 0.1
	case writes(method) && writes(m):
		return 0.25
	}
	return 0.4
}

// DidYouMean is the question a near miss asks, "did you mean `A`, `B` or
// `C`?", or "" for none.
func DidYouMean(routes []string) string {
	if len(routes) == 0 {
		return ""
	}
	q := make([]string, len(routes))
	for i, r := range routes {
		q[i] = "`" + r + "`"
	}
	list := q[0]
	if len(q) > 1 {
		list = strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
	}
	return "did you mean " + list + "?"
}

// NearMissNote is what the standalone binary's request log adds to the
// line of a request of method for path (escaped) that no route took: the
// question DidYouMean asks, and where the version prefix is missing or
// doubled, that too; "" when a route took it or none is near.
func NearMissNote(method, path string) string {
	note := DidYouMean(NearestRoutes(method, path))
	if note == "" {
		return ""
	}
	switch {
	case strings.HasPrefix(path, APIPrefix+APIPrefix+"/"):
		note += " (" + APIPrefix + " is doubled)"
	case !strings.HasPrefix(path, APIPrefix+"/"):
		note += " (routes are under " + APIPrefix + ")"
	}
	return note
}

// nearMissRefusal is err, a refusal of a request no route takes, with the
// routes nearest to it in its reason, which it notes in the request's
// journal entry under w, if any. On a server WithStrictRequests it fails
// the test with them.
func (s *Wire) nearMissRefusal(w http.ResponseWriter, r *http.Request, err *apierr.Error) *apierr.Error {
	near := nearestRoutes(r.Method, r.URL.EscapedPath())
	if q := DidYouMean(near); q != "" {
		err = err.Because("%s: %s", err.Reason, q)
	}
	if rec := recorderOf(w); rec != nil {
		rec.req.NearMisses = near
	}
	if s.Cfg.Strict && s.Tb != nil {
		where := strings.TrimPrefix(r.Pattern, APIPrefix)
		if where == "" || where == "/" {
			where = r.URL.Path
		}
		s.Tb.Errorf("synapsefake: strict requests: %s %s -> %d error_code %q %s: %s", r.Method, where, err.Status, err.ErrorCode, err.Code, err.Explanation())
		apierr.MarkReported(err)
	}
	return err
}

// recorderOf is the journal's recorder under w, or nil.
func recorderOf(w http.ResponseWriter) *recorder {
	for {
		switch x := w.(type) {
		case *recorder:
			return x
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}
