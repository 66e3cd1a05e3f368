package console_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/testkit"
)

// TestHealthRoutes: /_fake/livez and /_fake/readyz answer a probe from any
// Host or origin without the control token; /_fake/metrics answers any
// Host but keeps the token; a wrong method is 405 with Allow; the routes
// are served under a platform's path too, and none is journaled.
func TestHealthRoutes(t *testing.T) {
	t.Parallel()
	const token = "tok-health"
	p, root := testkit.NewPlatforms(t, synapsefake.WithControlToken(token))
	if _, err := p.Add(synapsefake.PlatformConfig{ClientID: "client_h"}); err != nil {
		t.Fatal(err)
	}
	const (
		live  = `{"live":true,"success":true}`
		ready = `{"ready":true,"success":true}`
	)
	foreign := map[string]string{"Host": "10.1.2.3:8080", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}
	for _, tc := range []struct {
		name, method, path string
		header             map[string]string
		status             int
		body               string // exact, or a part with a leading "~"
		allow              string
	}{
		{"livez", "GET", "/_fake/livez", nil, 200, live, ""},
		{"readyz", "GET", "/_fake/readyz", nil, 200, ready, ""},
		{"livez from a foreign host and origin", "GET", "/_fake/livez", foreign, 200, live, ""},
		{"readyz from a foreign host and origin", "GET", "/_fake/readyz", foreign, 200, ready, ""},
		{"readyz, HEAD", "HEAD", "/_fake/readyz", nil, 200, "", ""},
		{"readyz, POST", "POST", "/_fake/readyz", nil, 405, `{"error":{"en":"Method POST is not allowed on this route; it takes GET, HEAD.","code":"method_not_allowed"},"error_code":"410","http_code":"405","success":false}`, "GET, HEAD"},
		{"a platform's livez", "GET", "/_fake/platforms/client_h/livez", foreign, 200, live, ""},
		{"a platform's readyz", "GET", "/_fake/platforms/client_h/readyz", nil, 200, ready, ""},
		{"metrics without the token", "GET", "/_fake/metrics", nil, 401, "~missing_control_token", ""},
		{"metrics with the token as Bearer, from a foreign host", "GET", "/_fake/metrics", map[string]string{"Host": "10.1.2.3:8080", "Authorization": "Bearer " + token}, 200, "~# TYPE synapsefake_requests_total counter\n", ""},
		{"metrics with the token's header", "GET", "/_fake/metrics", map[string]string{"X-Fake-Control-Token": token}, 200, "~synapsefake_platforms 2\n", ""},
		{"metrics with a wrong token", "GET", "/_fake/metrics", map[string]string{"X-Fake-Control-Token": "nope"}, 401, "~invalid_control_token", ""},
		{"livez/ is not livez", "GET", "/_fake/livez/", foreign, 403, "~foreign_host", ""},
		{"the rest keeps its guard", "GET", "/_fake/clock", foreign, 403, "~foreign_host", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, root+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.header {
				if k == "Host" {
					req.Host = v
					continue
				}
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			body := string(b)
			part, isPart := strings.CutPrefix(tc.body, "~")
			if resp.StatusCode != tc.status || isPart && !strings.Contains(body, part) || !isPart && body != tc.body {
				t.Errorf("%s %s: %d %.300s, want %d %s", tc.method, tc.path, resp.StatusCode, body, tc.status, tc.body)
			}
			if got := resp.Header.Get("Allow"); got != tc.allow {
				t.Errorf("Allow %q, want %q", got, tc.allow)
			}
		})
	}
	for _, s := range p.List() {
		if reqs := s.Requests(); len(reqs) != 0 {
			t.Errorf("platform %s journaled %d requests, want none", s.ClientID(), len(reqs))
		}
	}
}
