package console

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// TestGuardCoversEveryControlRoute sends every method of every route the
// control mux registers, as a page on another origin or behind DNS
// rebinding would: each is refused with 403 before it changes anything. It
// reads the routes from the mux's own table, so a route added later is
// covered too.
func TestGuardCoversEveryControlRoute(t *testing.T) {
	controlMux()
	if len(controlRoutes) < 45 {
		t.Fatalf("%d control routes registered, want every one", len(controlRoutes))
	}
	wildcard := regexp.MustCompile(`\{[a-z_]+\}`)
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range controlRoutes {
			if !yield(p) {
				return
			}
		}
	}) {
		path := ControlPrefix + strings.ReplaceAll(wildcard.ReplaceAllString(p, "1"), "{$}", "")
		for method := range controlRoutes[p] {
			for _, v := range []struct {
				name, host, header, value, code string
			}{
				{"foreign Host", "rebind.evil.example:8080", "", "", "foreign_host"},
				{"foreign Origin", "127.0.0.1:8080", "Origin", "http://evil.example", "cross_origin_request"},
				{"same-site", "127.0.0.1:8080", "Sec-Fetch-Site", "same-site", "cross_origin_request"},
			} {
				t.Run(method+" "+path+"/"+v.name, func(t *testing.T) {
					s := newTestConsole(t, nil)
					u, err := s.AddUser(bank.UserSeed{})
					if err != nil {
						t.Fatal(err)
					}
					if _, err := s.AddSubscription("http://127.0.0.1:1/hooks"); err != nil {
						t.Fatal(err)
					}
					var before bytes.Buffer
					if err := s.Snapshot(&before); err != nil {
						t.Fatal(err)
					}
					// Already canceled: an event stream that wrongly opened ends at once.
					ctx, cancel := context.WithCancel(context.Background())
					cancel()
					req := httptest.NewRequestWithContext(ctx, method, "http://"+v.host+path, strings.NewReader(`{}`))
					if v.header != "" {
						req.Header.Set(v.header, v.value)
					}
					rec := httptest.NewRecorder()
					s.ServeControl(rec, req) // what the Server's ServeHTTP does with a path below ControlPrefix
					var got bank.ErrorEnvelope
					if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != http.StatusForbidden ||
						got.ErrorCode != "300" || got.HTTPCode != "403" || got.Error.Code != v.code {
						t.Errorf("%d %s, want 403 with error_code 300 and %s", rec.Code, rec.Body, v.code)
					}
					var after bytes.Buffer
					if err := s.Snapshot(&after); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(before.Bytes(), after.Bytes()) {
						t.Error("a refused request changed the state")
					}
					if _, ok := s.User(u.ID); !ok {
						t.Error("the user is gone")
					}
				})
			}
		}
	}
}

// TestHostOnly checks the host a Host header names.
func TestHostOnly(t *testing.T) {
	for in, want := range map[string]string{
		"localhost:8080":      "localhost",
		"LOCALHOST.":          "localhost",
		"[::1]:8080":          "::1",
		"[::1]":               "::1",
		"::1":                 "::1",
		"127.0.0.1":           "127.0.0.1",
		"Fake.Internal:80":    "fake.internal",
		"rebind.evil.example": "rebind.evil.example",
	} {
		if got := HostOnly(in); got != want {
			t.Errorf("hostOnly(%q) = %q, want %q", in, got, want)
		}
	}
}
