package console_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/testkit"
)

// TestOpenAPIDocumentServed: GET /_fake/openapi.json answers the OpenAPI
// document as JSON, its server this fake's URL; the dashboard links the
// page that renders it, and that page and its script and style load
// nothing from another host.
func TestOpenAPIDocumentServed(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	tests := []struct {
		name, path, ctype string
		check             func(t *testing.T, body string)
	}{
		{"the document", "/_fake/openapi.json", "application/json", func(t *testing.T, body string) {
			var doc struct {
				OpenAPI string `json:"openapi"`
				Servers []struct {
					URL string `json:"url"`
				} `json:"servers"`
				Paths map[string]map[string]any `json:"paths"`
			}
			if err := json.Unmarshal([]byte(body), &doc); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if doc.OpenAPI != "3.1.0" {
				t.Errorf("openapi %q, want 3.1.0", doc.OpenAPI)
			}
			if len(doc.Servers) != 1 || doc.Servers[0].URL != fake.URL() {
				t.Errorf("servers %+v, want the fake's URL %s", doc.Servers, fake.URL())
			}
			if _, ok := doc.Paths["/users/{user_id}/nodes/{node_id}/trans"]["post"]; !ok {
				t.Errorf("no POST /users/{user_id}/nodes/{node_id}/trans among %d paths", len(doc.Paths))
			}
		}},
		{"the dashboard links the rendered view", "/_fake/ui/", "text/html; charset=utf-8", func(t *testing.T, body string) {
			if !strings.Contains(body, `href="/_fake/ui/static/api.html"`) {
				t.Error("the dashboard has no link to ui/static/api.html")
			}
		}},
		{"the rendered view", "/_fake/ui/static/api.html", "text/html; charset=utf-8", func(t *testing.T, body string) {
			for _, w := range []string{`src="api.js"`, `href="../../openapi.json"`} {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
		}},
		{"its script", "/_fake/ui/static/api.js", "text/javascript; charset=utf-8", func(t *testing.T, body string) {
			if !strings.Contains(body, "fetch('../../openapi.json'") {
				t.Error("the script does not fetch ../../openapi.json")
			}
		}},
		{"its style", "/_fake/ui/static/api.css", "text/css; charset=utf-8", nil},
	}
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := testkit.UIGet(t, fake, tt.path)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != tt.ctype {
				t.Fatalf("status %d, Content-Type %q; want 200 %q", resp.StatusCode, resp.Header.Get("Content-Type"), tt.ctype)
			}
			if tt.check != nil {
				tt.check(t, body)
			}
			if strings.Contains(tt.path, "/static/api.") {
				if m := external.FindString(body); m != "" {
					t.Errorf("the page names another host (%s): it must fetch nothing from the internet", m)
				}
			}
		})
	}
}
