package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
)

// sdkBase is the base URL SynapseGo builds every request on (developer mode,
// its default; url.go hard-codes it).
const sdkBase = "https://uat-api.synapsefi.com/v3.1"

// callBudget bounds the requests of one check: SynapseGo re-authenticates
// on every "300" and retries without limit, so a check that loops is cut
// off here instead of running forever.
const callBudget = 20

// errBudget is what the transport answers once a check has used its budget.
var errBudget = errors.New("more than 20 requests in one check: the SDK is looping")

// call is one request the SDK sent, as the fake answered it.
type call struct {
	method string
	path   string // below the base URL, with the query
	header http.Header
	body   []byte // the request body as sent
	status int
	answer []byte
}

// wire is the http.RoundTripper that stands in for http.DefaultTransport:
// it sends each request the SDK addresses to sdkBase to the fake's base URL
// instead, unchanged otherwise, and records it.
type wire struct {
	fake  *url.URL // the fake's base URL, http://127.0.0.1:PORT/v3.1
	inner http.RoundTripper

	mu    sync.Mutex
	calls []call
}

func (w *wire) RoundTrip(req *http.Request) (*http.Response, error) {
	u := req.URL.String()
	if !strings.HasPrefix(u, sdkBase+"/") {
		return nil, fmt.Errorf("the SDK sent a request to %s, not below %s", u, sdkBase)
	}
	w.mu.Lock()
	n := len(w.calls)
	w.mu.Unlock()
	if n >= callBudget {
		return nil, errBudget
	}
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	out := req.Clone(req.Context())
	out.URL.Scheme = w.fake.Scheme
	out.URL.Host = w.fake.Host
	out.Host = ""
	out.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := w.inner.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(answer))
	w.mu.Lock()
	w.calls = append(w.calls, call{method: req.Method, path: strings.TrimPrefix(u, sdkBase),
		header: req.Header.Clone(), body: body, status: resp.StatusCode, answer: answer})
	w.mu.Unlock()
	return resp, nil
}

// take returns the calls recorded since the last take and forgets them.
func (w *wire) take() []call {
	w.mu.Lock()
	defer w.mu.Unlock()
	c := w.calls
	w.calls = nil
	return c
}

// count returns how many calls were recorded since the last take.
func (w *wire) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.calls)
}

// first returns the first call recorded since the last take, or a zero call.
func (w *wire) first() call {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.calls) == 0 {
		return call{}
	}
	return w.calls[0]
}

// last returns the last call recorded, or a zero call.
func (w *wire) last() call {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.calls) == 0 {
		return call{}
	}
	return w.calls[len(w.calls)-1]
}

// harness counts and prints the checks.
type harness struct {
	wire                    *wire
	control                 string // the fake's origin, for /_fake/
	passed, failed, skipped int
	// driven holds "Type.Method" for each method a check or known bug
	// called (from its name) and each error type whose Error() a check read.
	driven map[string]bool
}

// drive notes the method a check's name begins with ("User.GetNode: ...").
func (h *harness) drive(name string) {
	if h.driven == nil {
		h.driven = map[string]bool{}
	}
	m, _, _ := strings.Cut(name, ":")
	if strings.Contains(m, ".") && !strings.Contains(m, " ") {
		h.driven[m] = true
	}
}

// panicError is a panic inside the SDK, recovered.
type panicError struct {
	value any
	stack string
}

func (p *panicError) Error() string { return fmt.Sprintf("the SDK panicked: %v", p.value) }

// guard runs f and turns a panic into a *panicError.
func guard(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{value: v, stack: string(debug.Stack())}
		}
	}()
	return f()
}

// check runs one named check; a failure is reported and counted, and the run
// goes on (a later check that needs the missing state fails too).
func (h *harness) check(name string, f func() error) {
	h.drive(name)
	h.wire.take()
	err := guard(f)
	calls := h.wire.take()
	if err == nil {
		h.passed++
		fmt.Printf("ok   - %s\n", name)
		return
	}
	h.failed++
	fmt.Printf("FAIL - %s: %v\n", name, err)
	for _, c := range calls {
		fmt.Printf("       %s %s -> %d %s\n", c.method, c.path, c.status, clip(c.answer))
	}
	if p, ok := err.(*panicError); ok && os.Getenv("COMPAT_GO_STACKS") != "" {
		fmt.Println(p.stack)
	}
}

// knownBug runs a call that meets one of the SDK's own bugs. f returns nil
// when the bug showed as described (the call then counts as skipped and is
// listed with the reason), or an error when it did not, which fails the
// check: the fake then answers something other than the service did.
func (h *harness) knownBug(name, reason string, f func() error) {
	h.drive(name)
	h.wire.take()
	err := guard(f)
	calls := h.wire.take()
	if err == nil {
		h.skipped++
		fmt.Printf("skip - %s: SDK bug: %s\n", name, reason)
		return
	}
	h.failed++
	fmt.Printf("FAIL - %s: the SDK bug (%s) did not show: %v\n", name, reason, err)
	for _, c := range calls {
		fmt.Printf("       %s %s -> %d %s\n", c.method, c.path, c.status, clip(c.answer))
	}
}

// finish prints the closing line and returns the exit status.
func (h *harness) finish() int {
	line := fmt.Sprintf("%d passed, %d failed", h.passed, h.failed)
	if h.skipped > 0 {
		line += fmt.Sprintf(", %d skipped", h.skipped)
	}
	fmt.Println(line)
	if h.failed > 0 {
		return 1
	}
	return 0
}

func clip(b []byte) string {
	s := string(b)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// expectOK asserts a success as SynapseGo reports it: no error, the one
// request answered exactly 200 (anything else is an error to the SDK), the
// map it returned not marked success false, and each named field present.
func (h *harness) expectOK(res map[string]interface{}, err error, fields ...string) error {
	if err != nil {
		return fmt.Errorf("error %T: %v", err, err)
	}
	if c := h.wire.last(); c.status != http.StatusOK {
		return fmt.Errorf("HTTP %d, want 200", c.status)
	}
	if res == nil {
		return errors.New("the SDK returned a nil map")
	}
	if v, ok := res["success"]; ok && v != true {
		return fmt.Errorf("success %v in a 200", v)
	}
	for _, f := range fields {
		if _, ok := lookup(res, f); !ok {
			return fmt.Errorf("no %s in %s", f, clip(mustJSON(res)))
		}
	}
	return nil
}

// expectErr asserts that err is of type T with the given error_code and
// http_code, that the wire status was status, and that Error() reads as
// SynapseGo formats it.
func expectErr[T error](h *harness, err error, status int, code string) error {
	e, ok := err.(T)
	if !ok {
		var zero T
		return fmt.Errorf("error %T (%v), want %T", err, err, zero)
	}
	if c := h.wire.last(); c.status != status {
		return fmt.Errorf("HTTP %d, want %d", c.status, status)
	}
	fields := reflectFields(e)
	if fields.code != code || fields.http != fmt.Sprint(status) || fields.msg == "" {
		return fmt.Errorf("%T{ErrorCode %q, HTTPCode %q, Message %q}, want error_code %q, http_code %q and a message", e, fields.code, fields.http, fields.msg, code, fmt.Sprint(status))
	}
	h.drive(strings.TrimPrefix(fmt.Sprintf("%T", e), "*synapse.") + ".Error")
	if want := "http_code " + fields.http + " error_code " + fields.code + " " + fields.msg; e.Error() != want {
		return fmt.Errorf("Error() %q, want %q", e.Error(), want)
	}
	return nil
}

// errFields are the three fields every SynapseGo error type has.
type errFields struct{ code, http, msg string }

func reflectFields(e error) errFields {
	v := reflect.ValueOf(e)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	get := func(name string) string {
		if f := v.FieldByName(name); f.IsValid() && f.Kind() == reflect.String {
			return f.String()
		}
		return ""
	}
	return errFields{get("ErrorCode"), get("HTTPCode"), get("Message")}
}

// lookup reads a dotted path ("nodes.0._id") in a decoded JSON value.
func lookup(v interface{}, path string) (interface{}, bool) {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]interface{}:
			var ok bool
			if v, ok = x[k]; !ok {
				return nil, false
			}
		case []interface{}:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// str reads a string at a dotted path, "" when absent.
func str(v interface{}, path string) string {
	x, _ := lookup(v, path)
	s, _ := x.(string)
	return s
}

// num reads a number at a dotted path, -1 when absent.
func num(v interface{}, path string) float64 {
	x, ok := lookup(v, path)
	if !ok {
		return -1
	}
	f, ok := x.(float64)
	if !ok {
		return -1
	}
	return f
}

func mustJSON(v interface{}) []byte {
	b, _ := json.Marshal(v)
	return b
}

// want returns an error when got != want.
func want[T comparable](what string, got, want T) error {
	if got != want {
		return fmt.Errorf("%s %v, want %v", what, got, want)
	}
	return nil
}

// first returns the first non-nil error.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// controlCall calls the fake's control API (JSON in, JSON out, 200 only).
func (h *harness) controlCall(method, path string, body interface{}) (map[string]interface{}, error) {
	var rd io.Reader = http.NoBody
	if body != nil {
		rd = bytes.NewReader(mustJSON(body))
	}
	req, err := http.NewRequest(method, h.control+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := controlClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var out map[string]interface{}
	if err := json.Unmarshal(raw, &out); err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: HTTP %d %s", method, path, resp.StatusCode, clip(raw))
	}
	return out, nil
}

// controlClient has its own transport: http.DefaultTransport is the SDK's.
var controlClient = &http.Client{Transport: &http.Transport{}}
