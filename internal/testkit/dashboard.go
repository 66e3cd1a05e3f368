package testkit

// The dashboard: its pages and buttons, fetched as a browser would.

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// UIGet fetches a dashboard path (below the root, e.g. "/_fake/ui/") without
// following redirects.
func UIGet(t testing.TB, fake *synapsefake.Server, path string) (*http.Response, string) {
	t.Helper()
	return GetNoRedirect(t, fake.Client(), CtlRoot(fake)+path, nil)
}

// GetNoRedirect GETs url with client and the header, answering a redirect
// as it is rather than following it.
func GetNoRedirect(t testing.TB, client *http.Client, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s: %v", url, err)
	}
	return resp, string(body)
}

// UIPage fetches a page and fails the test unless it is a 200 HTML page.
func UIPage(t testing.TB, fake *synapsefake.Server, path string) string {
	t.Helper()
	resp, body := UIGet(t, fake, path)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET %s: %d %q, want 200 text/html: %.300s", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	return body
}

// UIButton finds the data-post path of a button or form on a page.
func UIButton(t testing.TB, page, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(`data-(?:post|check)="(` + pattern + `)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no button %s on the page", pattern)
	}
	return strings.TrimPrefix(m[1], "/_fake")
}
