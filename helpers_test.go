package synapsefake_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// testFingerprint is the device fingerprint the helpers register.
const testFingerprint = "test-fingerprint"

// call is one HTTP request to a fake, built by the helpers below.
type call struct {
	method string
	path   string // below the base URL, e.g. "/users"
	header map[string]string
	body   any             // marshalled unless it is a string or []byte, which go as is
	ctx    context.Context // nil for no deadline
}

// response is a decoded answer.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

// bodyReader is a request body: none for nil, a string or []byte as it is,
// anything else as JSON.
func bodyReader(t testing.TB, body any) io.Reader {
	t.Helper()
	switch b := body.(type) {
	case nil:
		return http.NoBody
	case string:
		return strings.NewReader(b)
	case []byte:
		return bytes.NewReader(b)
	}
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatalf("marshal body: %v", err)
	}
	return bytes.NewReader(data)
}

// do sends c to the fake and decodes the JSON object it answers. It fails the
// test if the answer is not a JSON object with Content-Type application/json.
func do(t testing.TB, fake *synapsefake.Server, c call) response {
	t.Helper()
	rdr := bodyReader(t, c.body)
	ctx := c.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	req, err := http.NewRequestWithContext(ctx, c.method, fake.URL()+c.path, rdr)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	resp, err := fake.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", c.method, c.path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", c.method, c.path, ct)
	}
	out := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	if err := json.Unmarshal(raw, &out.body); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %v\n%s", c.method, c.path, err, raw)
	}
	return out
}

// gatewayHeaders are the headers of a client-level call.
func gatewayHeaders(fake *synapsefake.Server) map[string]string {
	return map[string]string{
		"X-SP-GATEWAY": fake.Gateway(),
		"X-SP-USER":    "|" + testFingerprint,
		"X-SP-USER-IP": "127.0.0.1",
	}
}

// userHeaders are the headers of a user-level call with oauth key key.
func userHeaders(fake *synapsefake.Server, key string) map[string]string {
	return map[string]string{
		"X-SP-GATEWAY": fake.Gateway(),
		"X-SP-USER":    key + "|" + testFingerprint,
		"X-SP-USER-IP": "127.0.0.1",
	}
}

// fixture is a user with a deposit node and an oauth key holding every scope.
type fixture struct {
	user    synapsefake.User
	node    synapsefake.Node
	key     string
	headers map[string]string
}

// newFixture seeds a user with testFingerprint registered, a DEPOSIT-US node
// holding balanceCents and a key with the given scopes (all when none).
func newFixture(t testing.TB, fake *synapsefake.Server, balanceCents int64, scopes ...string) fixture {
	t.Helper()
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testFingerprint})
	n := fake.MustAddNode(t, u.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: balanceCents})
	key := fake.OAuthKey(u.ID, testFingerprint, scopes...)
	return fixture{user: u, node: n, key: key, headers: userHeaders(fake, key)}
}

// wantError checks that r is the error envelope with the given HTTP status,
// error_code and error.code (code "" skips the error.code check).
func wantError(t testing.TB, r response, status int, errorCode, code string) {
	t.Helper()
	if r.status != status {
		t.Errorf("status %d, want %d; body %s", r.status, status, r.raw)
	}
	if got, _ := r.body["error_code"].(string); got != errorCode {
		t.Errorf("error_code %v, want %q; body %s", r.body["error_code"], errorCode, r.raw)
	}
	if _, ok := r.body["http_code"].(string); !ok {
		t.Errorf("http_code %v is not a string", r.body["http_code"])
	}
	if r.body["success"] != false {
		t.Errorf("success %v, want false", r.body["success"])
	}
	e, _ := r.body["error"].(map[string]any)
	if en, _ := e["en"].(string); en == "" {
		t.Errorf("error.en missing: %s", r.raw)
	}
	if code != "" && e["code"] != code {
		t.Errorf("error.code %v, want %q", e["code"], code)
	}
}

// pyHeaders are the headers SynapsePy sends with oauth key key ("" for
// none: "|<fingerprint>").
func pyHeaders(fake *synapsefake.Server, key string) map[string]string {
	return map[string]string{
		"Content-Type": "application/json",
		"X-SP-LANG":    "en",
		"X-SP-GATEWAY": fake.Gateway(),
		"X-SP-USER":    key + "|" + testFingerprint,
		"X-SP-USER-IP": "127.0.0.1",
	}
}

// recordingTB is a testing.TB that records what a helper reports instead
// of reporting it: Fatalf and Errorf record a failure (Fatalf does not stop
// the goroutine), Logf a line, Cleanup a function that end runs.
type recordingTB struct {
	testing.TB
	mu       sync.Mutex
	fatal    []string
	errors   []string
	logs     []string
	cleanups []func()
	helped   bool // Helper was called
	unhelped int  // failures reported before any call of Helper
}

func (r *recordingTB) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

// end runs the recorded cleanups, last first, as a test's end does.
func (r *recordingTB) end() {
	r.mu.Lock()
	fs := r.cleanups
	r.cleanups = nil
	r.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// logged returns a copy of the lines Logf recorded.
func (r *recordingTB) logged() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.logs...)
}

func (r *recordingTB) Helper() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.helped = true
}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fatal = append(r.fatal, fmt.Sprintf(format, args...))
	r.noteHelped()
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
	r.noteHelped()
}

// noteHelped counts a failure reported before Helper: its line would be
// the helper's, not the test's. Callers hold mu.
func (r *recordingTB) noteHelped() {
	if !r.helped {
		r.unhelped++
	}
}

func (r *recordingTB) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// Failed reports whether a failure was recorded.
func (r *recordingTB) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.fatal)+len(r.errors) > 0
}
