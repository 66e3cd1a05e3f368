package api_test

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// lockedBuffer is a bytes.Buffer the server's goroutines write while the
// test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// panicEnvelope is the answer to a request whose serving panicked.
var panicEnvelope = map[string]any{
	"error":      map[string]any{"code": "internal_error", "en": "The fake failed to serve this request; its error log says why."},
	"error_code": "500",
	"http_code":  "500",
	"success":    false,
}

// TestRecoverFromPanic makes the WithHook hook panic on requests carrying
// X-Panic and checks the answer, the log, that the fake goes on serving and
// that Close returns.
func TestRecoverFromPanic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		inProcess bool // New and its Client, rather than NewServer
		hook      func(http.ResponseWriter)
		want      map[string]any // the answer; nil when the connection must fail
		wantLog   string         // in the error log; "" for nothing logged
	}{
		{"panic", false, func(http.ResponseWriter) { panic("boom") }, panicEnvelope,
			`synapsefake: panic serving GET "/v3.1/users?page=1": boom`},
		{"panic with an error", false, func(http.ResponseWriter) { panic(io.ErrUnexpectedEOF) }, panicEnvelope,
			`synapsefake: panic serving GET "/v3.1/users?page=1": unexpected EOF`},
		{"panic in process", true, func(http.ResponseWriter) { panic("boom") }, panicEnvelope,
			`synapsefake: panic serving GET "/v3.1/users?page=1": boom`},
		{"panic after the answer started", false, func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"succ`))
			w.(http.Flusher).Flush()
			panic("boom")
		}, nil, `synapsefake: panic serving GET "/v3.1/users?page=1": boom`},
		{"abort", false, func(http.ResponseWriter) { panic(http.ErrAbortHandler) }, nil, ""},
		{"abort in process", true, func(http.ResponseWriter) { panic(http.ErrAbortHandler) }, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var logged lockedBuffer
			opts := []synapsefake.Option{
				synapsefake.WithErrorLog(log.New(&logged, "", 0)),
				synapsefake.WithHook(func(w http.ResponseWriter, r *http.Request) bool {
					if r.Header.Get("X-Panic") != "" {
						tc.hook(w)
					}
					return false
				}),
			}
			var fake *synapsefake.Server
			if tc.inProcess {
				fake = synapsefake.New(opts...)
			} else {
				fake = synapsefake.NewServer(t, opts...)
			}
			ctx, cancel := context.WithTimeout(context.Background(), answerWithin)
			defer cancel()
			h := testkit.GatewayHeaders(fake)
			h["X-Panic"] = "yes"
			panicked := testkit.Call{Method: "GET", Path: "/users?page=1", Header: h, Ctx: ctx}
			if tc.want != nil {
				r := testkit.Do(t, fake, panicked)
				if r.Status != 500 {
					t.Errorf("status %d, want 500", r.Status)
				}
				if diff := cmp.Diff(tc.want, r.Body); diff != "" {
					t.Errorf("answer mismatch (-want +got):\n%s", diff)
				}
			} else {
				req, err := http.NewRequestWithContext(ctx, "GET", fake.URL()+panicked.Path, nil)
				if err != nil {
					t.Fatal(err)
				}
				for k, v := range h {
					req.Header.Set(k, v)
				}
				resp, err := fake.Client().Do(req)
				if err == nil {
					body, rerr := io.ReadAll(resp.Body)
					resp.Body.Close()
					if rerr == nil {
						t.Errorf("the aborted request was answered: %d %s", resp.StatusCode, body)
					}
				}
			}
			if got := logged.String(); tc.wantLog == "" && got != "" || !strings.Contains(got, tc.wantLog) {
				t.Errorf("error log %q, want it to hold %q", got, tc.wantLog)
			}
			for range 2 {
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users", Header: testkit.GatewayHeaders(fake), Ctx: ctx})
				if r.Status != 200 || r.Body["success"] != true {
					t.Errorf("GET /users after the panic: %d %s", r.Status, r.Raw)
				}
			}
			closed := make(chan struct{})
			go func() { fake.Close(); close(closed) }()
			select {
			case <-closed:
			case <-ctx.Done():
				t.Fatal("Close did not return")
			}
		})
	}
}

// panickyClock is a clock whose Now panics while armed.
type panickyClock struct {
	clock.Clock
	armed atomic.Bool
}

func (c *panickyClock) Now() time.Time {
	if c.armed.Load() {
		panic("clock broken")
	}
	return c.Clock.Now()
}

// TestRecoverFromPanicInControlAPI checks that a panic while serving the
// /_fake/ control API answers the envelope and leaves the fake serving.
func TestRecoverFromPanicInControlAPI(t *testing.T) {
	t.Parallel()
	clk := &panickyClock{Clock: clock.NewMock()}
	var logged lockedBuffer
	fake := synapsefake.NewServer(t, synapsefake.WithClock(clk), synapsefake.WithErrorLog(log.New(&logged, "", 0)))
	ctx, cancel := context.WithTimeout(context.Background(), answerWithin)
	defer cancel()
	control := strings.TrimSuffix(fake.URL(), "/v3.1") + "/_fake/clock"
	get := func() (int, []byte) {
		req, err := http.NewRequestWithContext(ctx, "GET", control, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := fake.Client().Do(req)
		if err != nil {
			t.Fatalf("GET /_fake/clock: %v", err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body
	}
	clk.armed.Store(true)
	status, body := get()
	clk.armed.Store(false)
	if status != 500 || !bytes.Equal(body, []byte(`{"error":{"en":"The fake failed to serve this request; its error log says why.","code":"internal_error"},"error_code":"500","http_code":"500","success":false}`)) {
		t.Errorf("GET /_fake/clock with a broken clock: %d %s", status, body)
	}
	if got, want := logged.String(), `synapsefake: panic serving GET "/_fake/clock": clock broken`; !strings.Contains(got, want) {
		t.Errorf("error log %q, want it to hold %q", got, want)
	}
	if status, body := get(); status != 200 {
		t.Errorf("GET /_fake/clock after the panic: %d %s", status, body)
	}
}
