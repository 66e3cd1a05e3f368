package api

import (
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/openapi"
)

// openAPIOperations are the document's paths (without the version prefix,
// as the router writes them) and the methods each documents.
func openAPIOperations(t *testing.T) map[string][]string {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openapi.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for p, item := range doc.Paths {
		for m := range item {
			switch m {
			case "get", "put", "post", "delete", "patch", "head", "options", "trace":
				out[p] = append(out[p], strings.ToUpper(m))
			}
		}
		slices.Sort(out[p])
	}
	return out
}

// TestOpenAPIDescribesEveryRoute: the document describes exactly the
// routes and methods the router serves, both ways.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	APIMux()
	doc := openAPIOperations(t)
	served := map[string][]string{}
	for p, rt := range apiRoutes {
		served[p] = slices.Sorted(maps.Keys(rt))
	}
	for _, p := range slices.Sorted(maps.Keys(served)) {
		if got := doc[p]; !slices.Equal(got, served[p]) {
			t.Errorf("%s: the fake serves %v, the document describes %v", p, served[p], got)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(doc)) {
		if _, ok := served[p]; !ok {
			t.Errorf("the document describes %s %v, which the fake does not serve", p, doc[p])
		}
	}
}

// TestOpenAPIDescribesDocsRoutes: every route docs/api.md's table lists is
// in the document, and every operation of the document is in the table.
func TestOpenAPIDescribesDocsRoutes(t *testing.T) {
	src, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := openAPIOperations(t)
	listed := map[string]bool{} // "METHOD /path" of the document
	rows := docsRouteRows(string(src))
	if len(rows) < 30 {
		t.Fatalf("found %d rows in docs/api.md's route table, want it whole", len(rows))
	}
	for _, row := range rows {
		for _, r := range docsRoutes(row) {
			p, err := resolveDocsPath(doc, r.path)
			if err != nil {
				t.Errorf("docs/api.md %q: %v", row, err)
				continue
			}
			for _, m := range r.methods {
				if !slices.Contains(doc[p], m) {
					t.Errorf("docs/api.md lists %s %s; the document has %s %v", m, r.path, p, doc[p])
				}
				listed[m+" "+p] = true
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(doc)) {
		for _, m := range doc[p] {
			if !listed[m+" "+p] {
				t.Errorf("the document describes %s %s, which docs/api.md's table does not list", m, p)
			}
		}
	}
}

// docsRouteRows are the first cells of the table of routes in docs/api.md.
func docsRouteRows(src string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(src, "\n") {
		switch {
		case strings.HasPrefix(line, "| Method and path |"):
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "| "):
			cell := strings.TrimPrefix(line, "| ")
			if i := strings.Index(cell, " | "); i >= 0 {
				cell = cell[:i]
			}
			out = append(out, cell)
		case in:
			return out
		}
	}
	return out
}

// docsRoute is a path docs/api.md writes and the methods it names for it.
type docsRoute struct {
	methods []string
	path    string
}

var (
	backticked = regexp.MustCompile("`([^`]*)`")
	methodRE   = regexp.MustCompile(`^(GET|POST|PATCH|DELETE|PUT)$`)
	methodPath = regexp.MustCompile(`^(GET|POST|PATCH|DELETE|PUT) ((/|\.\.\.)\S*)$`)
)

// docsRoutes reads a table cell: methods in backticks of their own
// (`GET`, `PATCH`) name the next path; "`METHOD /path`" is one more.
func docsRoutes(cell string) []docsRoute {
	var out []docsRoute
	var pending []string
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		tok := m[1]
		switch {
		case methodRE.MatchString(tok):
			pending = append(pending, tok)
		case methodPath.MatchString(tok):
			mp := methodPath.FindStringSubmatch(tok)
			out = append(out, docsRoute{append(pending, mp[1]), mp[2]})
			pending = nil
		case (strings.HasPrefix(tok, "/") || strings.HasPrefix(tok, "...")) && len(pending) > 0:
			out = append(out, docsRoute{pending, tok})
			pending = nil
		}
	}
	return out
}

// resolveDocsPath finds the document's path docs/api.md means by p: its
// query dropped, "..." standing for a prefix that makes a path of the
// document, and a literal segment taking the place of a wildcard
// (statement.{csv,json,pdf} for {file}); as the router does, a literal
// match wins over a wildcard's, so the path with the fewest wildcards
// standing for literals is the one meant.
func resolveDocsPath(doc map[string][]string, p string) (string, error) {
	p, _, _ = strings.Cut(p, "?")
	suffix := strings.HasPrefix(p, "...")
	want := strings.Split(strings.Trim(strings.TrimPrefix(p, "..."), "/"), "/")
	var found []string
	best := -1
	for dp := range doc {
		segs := strings.Split(strings.Trim(dp, "/"), "/")
		if suffix && len(segs) > len(want) {
			segs = segs[len(segs)-len(want):]
		}
		if len(segs) != len(want) {
			continue
		}
		ok, wild := true, 0
		for i, s := range segs {
			switch {
			case s == want[i]:
			case strings.HasPrefix(s, "{") && !strings.HasPrefix(want[i], "{"):
				wild++
			default:
				ok = false
			}
		}
		switch {
		case !ok:
		case best < 0 || wild < best:
			found, best = []string{dp}, wild
		case wild == best:
			found = append(found, dp)
		}
	}
	if len(found) != 1 {
		return "", &resolveError{p, found}
	}
	return found[0], nil
}

type resolveError struct {
	path  string
	found []string
}

func (e *resolveError) Error() string {
	if len(e.found) == 0 {
		return e.path + " names no path of the document"
	}
	slices.Sort(e.found)
	return e.path + " is ambiguous: " + strings.Join(e.found, ", ")
}
