package testkit

// Calls of the control API (/_fake/...).

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// CtlSend sends one request with client to url and decodes the JSON object
// it answers; it fails the test if the answer is not one, or not
// application/json.
func CtlSend(t testing.TB, client *http.Client, method, url string, header map[string]string, body any) Response {
	t.Helper()
	req, err := http.NewRequest(method, url, BodyReader(t, body))
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", method, url, ct)
	}
	out := Response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if err := json.Unmarshal(raw, &out.Body); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %v\n%s", method, url, err, raw)
	}
	return out
}

// CtlRoot is the server's root URL, without the API's version prefix.
func CtlRoot(fake *synapsefake.Server) string { return strings.TrimSuffix(fake.URL(), "/v3.1") }

// Ctl calls the control API: path is below /_fake, e.g. "/users".
func Ctl(t testing.TB, fake *synapsefake.Server, method, path string, body any) Response {
	t.Helper()
	return CtlSend(t, fake.Client(), method, CtlRoot(fake)+"/_fake"+path, nil, body)
}

// CtlOK calls the control API and fails the test unless it answers 200.
func CtlOK(t testing.TB, fake *synapsefake.Server, method, path string, body any) map[string]any {
	t.Helper()
	r := Ctl(t, fake, method, path, body)
	if r.Status != http.StatusOK || r.Body["success"] != true {
		t.Fatalf("%s /_fake%s: status %d, want 200 with success true: %s", method, path, r.Status, r.Raw)
	}
	return r.Body
}

// CtlStr returns v as a string, "" when it is not one.
func CtlStr(v any) string { s, _ := v.(string); return s }

// CtlObj returns v as a JSON object, nil when it is not one.
func CtlObj(v any) map[string]any { m, _ := v.(map[string]any); return m }
