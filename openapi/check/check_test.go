package check_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/openapi/check"
)

var update = flag.Bool("update", false, "rewrite ../v3.1.json from ../v3.1.yaml")

// checker is built once for the test binary: building the validator is
// most of what a check of one exchange costs.
var checker = sync.OnceValues(func() (*check.Checker, error) {
	spec, err := os.ReadFile("../v3.1.json")
	if err != nil {
		return nil, err
	}
	return check.New(spec)
})

func mustChecker(t *testing.T) *check.Checker {
	t.Helper()
	c, err := checker()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestJSONIsUpToDate: the JSON the fake serves (and embeds) is the YAML
// source converted; go test -run TestJSONIsUpToDate -update rewrites it.
func TestJSONIsUpToDate(t *testing.T) {
	src, err := os.ReadFile("../v3.1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := check.YAMLToJSON(src)
	if err != nil {
		t.Fatalf("converting v3.1.yaml: %v", err)
	}
	if *update {
		if err := os.WriteFile("../v3.1.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("../v3.1.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("openapi/v3.1.json is not v3.1.yaml converted: run go test -run TestJSONIsUpToDate -update in openapi/check")
	}
}

// TestDocumentLints: libopenapi builds the document's model without an
// error, the document validates against the OpenAPI 3.1 schema, and every
// operation has an id, a summary and a documented success.
func TestDocumentLints(t *testing.T) {
	c := mustChecker(t)
	for _, l := range c.Lint() {
		t.Error(l)
	}
	if c.Model.Version != "3.1.0" {
		t.Errorf("openapi %q, want 3.1.0", c.Model.Version)
	}
}

// TestExamplesValidate: every example the document gives, of a request
// body, a response or a schema, validates against its schema.
func TestExamplesValidate(t *testing.T) {
	c := mustChecker(t)
	n := 0
	for p, item := range c.Model.Paths.PathItems.FromOldest() {
		for m, op := range item.GetOperations().FromOldest() {
			where := strings.ToUpper(m) + " " + p
			if op.RequestBody != nil {
				for ct, mt := range op.RequestBody.Content.FromOldest() {
					if mt.Example != nil && mt.Schema != nil {
						n++
						for _, e := range c.ValidateSchema(mt.Schema.Schema(), nodeJSON(t, mt.Example)) {
							t.Errorf("%s request %s example: %s", where, ct, e)
						}
					}
				}
			}
			for code, r := range op.Responses.Codes.FromOldest() {
				for ct, mt := range r.Content.FromOldest() {
					if mt.Example != nil && mt.Schema != nil {
						n++
						for _, e := range c.ValidateSchema(mt.Schema.Schema(), nodeJSON(t, mt.Example)) {
							t.Errorf("%s %s %s example: %s", where, code, ct, e)
						}
					}
				}
			}
		}
	}
	for name, prm := range c.Model.Components.Parameters.FromOldest() {
		if prm.Example != nil && prm.Schema != nil {
			n++
			for _, e := range c.ValidateSchema(prm.Schema.Schema(), nodeJSON(t, prm.Example)) {
				t.Errorf("parameter %s example: %s", name, e)
			}
		}
	}
	for name, sp := range c.Model.Components.Schemas.FromOldest() {
		s := sp.Schema()
		if s.Example != nil {
			n++
			for _, e := range c.ValidateSchema(s, nodeJSON(t, s.Example)) {
				t.Errorf("schema %s example: %s", name, e)
			}
		}
		for i, ex := range s.Examples {
			n++
			for _, e := range c.ValidateSchema(s, nodeJSON(t, ex)) {
				t.Errorf("schema %s example %d: %s", name, i, e)
			}
		}
	}
	if n < 20 {
		t.Errorf("%d examples checked, want at least 20: were they moved where this test does not look?", n)
	}
}

// TestCheckingCanFail: a good answer passes, and each kind of mismatch is
// caught, naming the operation.
func TestCheckingCanFail(t *testing.T) {
	c := mustChecker(t)
	sub := `{"_id":"609e871383f28c3c54b3c776","_links":{"self":{"href":"http://127.0.0.1:8080/v3.1/subscriptions/609e871383f28c3c54b3c776"}},"_v":1,"client_id":"client_id_x","is_active":true,"scope":["USERS|POST"],"url":"https://example.com/hooks","success":true}`
	get := func(status int, answer string) api.Exchange {
		return api.Exchange{
			Package: "openapi/check", Origin: "TestCheckingCanFail", Method: "GET",
			Path:   "/v3.1/subscriptions/609e871383f28c3c54b3c776",
			Header: http.Header{"X-Sp-Gateway": {"client_id_x|client_secret_x"}},
			Route:  "/subscriptions/{subscription_id}", Status: status,
			AnswerHeader: http.Header{"Content-Type": {"application/json"}}, Answer: answer,
		}
	}
	envelope := `{"error":{"en":"Not found.","code":"unable_to_locate_subscription"},"error_code":"404","http_code":"404","success":false}`
	tests := []struct {
		name string
		x    api.Exchange
		want string // in the complaint; "" for none
	}{
		{"a good answer", get(200, sub), ""},
		{"a good refusal", get(404, envelope), ""},
		{"a wrong type", get(200, strings.Replace(sub, `"_v":1`, `"_v":"1"`, 1)), "_v"},
		{"an undocumented field in a closed object", get(200, strings.Replace(sub, `"success":true`, `"success":true,"secret":"x"`, 1)), "secret"},
		{"a missing required field", get(200, strings.Replace(sub, `"url":"https://example.com/hooks",`, ``, 1)), "url"},
		{"an undocumented status", get(418, envelope), "418"},
		{"a number error_code", get(404, strings.Replace(envelope, `"error_code":"404"`, `"error_code":404`, 1)), "error_code"},
		{"a value outside an enum", get(200, strings.Replace(sub, `"USERS|POST"`, `"USERS|DELETE"`, 1)), "scope"},
		{"an undocumented route", func() api.Exchange {
			x := get(200, sub)
			x.Path, x.Route = "/v3.1/subscriptions/609e871383f28c3c54b3c776/pause", "/subscriptions/{subscription_id}/pause"
			return x
		}(), "does not describe"},
		{"an undocumented method", func() api.Exchange {
			x := get(200, sub)
			x.Method = "PUT"
			return x
		}(), "does not describe"},
		{"a request the fake took that the document refuses", func() api.Exchange {
			x := get(200, sub)
			x.Method, x.Body = "PATCH", `{"is_active":"yes"}`
			x.Header.Set("Content-Type", "application/json")
			return x
		}(), "is_active"},
		{"a wrong method's envelope", func() api.Exchange {
			x := get(409, `{"error":{"en":"Method not allowed.","code":"method_not_allowed"},"error_code":"410","http_code":"409","success":false}`)
			x.Method = "PUT"
			return x
		}(), ""},
		{"an unknown path's envelope", func() api.Exchange {
			x := get(404, `{"error":{"en":"Unable to locate the requested route.","code":"not_found"},"error_code":"404","http_code":"404","success":false}`)
			x.Path, x.Route = "/v3.1/nope", ""
			return x
		}(), ""},
		{"an unknown path answered otherwise", func() api.Exchange {
			x := get(200, sub)
			x.Path, x.Route = "/v3.1/nope", ""
			return x
		}(), "no route"},
		{"a JSON answer with a charset", func() api.Exchange {
			x := get(200, sub)
			x.AnswerHeader = http.Header{"Content-Type": {"application/json; charset=utf-8"}}
			return x
		}(), "exactly application/json"},
		{"a hook's answer is the test's", func() api.Exchange {
			x := get(418, "teapot")
			x.Hooked = true
			return x
		}(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			probs := c.Check(tt.x)
			if tt.want == "" {
				if len(probs) > 0 {
					t.Fatalf("want no problem, got %v", probs)
				}
				return
			}
			if len(probs) == 0 {
				t.Fatalf("want a problem about %q, got none", tt.want)
			}
			for _, p := range probs {
				if strings.Contains(p.String(), tt.want) && strings.Contains(p.Operation, tt.x.Method) {
					return
				}
			}
			t.Fatalf("want a problem naming %q and the operation, got %v", tt.want, probs)
		})
	}
}

// TestExchanges validates every exchange the main module's tests recorded
// in $SYNAPSEFAKE_EXCHANGES (.ci/run sets it for go test ./... and the
// compatibility runs, then runs this), each mismatch reported under the
// test that made the call, and checks that every package whose tests
// serve the API recorded some: checking cannot be switched off by a
// package that stops recording.
func TestExchanges(t *testing.T) {
	dir := os.Getenv(api.ExchangesEnv)
	if dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set: .ci/run records the exchanges of go test ./... there and checks them here", api.ExchangesEnv)
		}
		t.Skipf("%s is not set: record exchanges with %s=$(mktemp -d) go test -count=1 ./... in the main module first", api.ExchangesEnv, api.ExchangesEnv)
	}
	c := mustChecker(t)
	xs, err := check.ReadExchanges(dir)
	if err != nil {
		t.Fatal(err)
	}
	byOrigin := map[string][]check.Problem{}
	packages := map[string]int{}
	for _, x := range xs {
		packages[x.Package]++
		for _, p := range c.Check(x) {
			key := p.Package + ": " + p.Origin
			byOrigin[key] = append(byOrigin[key], p)
		}
	}
	t.Logf("%d exchanges from %d packages or programs checked", len(xs), len(packages))
	want := httpTestPackages(t)
	t.Logf("packages whose tests serve the API: %s", strings.Join(want, " "))
	for _, core := range []string{".", "internal/api", "internal/console"} {
		if !slices.Contains(want, core) {
			t.Errorf("the scan for packages whose tests serve the API missed %s: its markers are out of date", core)
		}
	}
	for _, pkg := range want {
		if packages[pkg] == 0 {
			t.Errorf("package %s has tests that serve the API but recorded no exchange in %s: was it run with go test -count=1 and the variable set?", pkg, dir)
		}
	}
	keys := make([]string, 0, len(byOrigin))
	for k := range byOrigin {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Run(k, func(t *testing.T) {
			probs := byOrigin[k]
			for i, p := range probs {
				if i == 20 {
					t.Errorf("... and %d more", len(probs)-i)
					break
				}
				t.Error(p)
			}
		})
	}
}

// httpTestPackages lists the main module's packages (directories relative
// to its root) whose tests serve the API: their test files build a fake
// (NewServer, New, newTestWire, newTestConsole) or start the binary.
func httpTestPackages(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	markers := []string{"synapsefake.NewServer(", "synapsefake.New(", "newTestWire(", "newTestConsole(", "NewServer(t", "= New("}
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" || name == "clients" || name == "compat") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != root {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range markers {
			if bytes.Contains(src, []byte(m)) {
				rel, _ := filepath.Rel(root, filepath.Dir(p))
				seen[filepath.ToSlash(rel)] = true
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// nodeJSON is an example (a YAML node in libopenapi's model) as JSON.
func nodeJSON(t *testing.T, n interface{ Decode(any) error }) []byte {
	t.Helper()
	var v any
	if err := n.Decode(&v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(fmt.Errorf("example: %w", err))
	}
	return b
}
