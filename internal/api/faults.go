// Faults, the wire's side: the failures and delays queued for the next requests, and serving them.

package api

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// faultMessages are the messages of injected errors, by error_code.
var faultMessages = map[string]string{
	reference.ErrTooManyRequests: "Too many requests hit the API too quickly.",
	reference.ErrServer:          "Internal server error.",
	reference.ErrUnavailable:     "Service unavailable.",
	reference.ErrGatewayTimeout:  "Gateway timeout.",
	reference.ErrRequestFailed:   "Request failed.",
}

// ErrGatewayTimeout is the 504 error of a request whose client gave up
// during its delay (the root's handler answers it).
var ErrGatewayTimeout = apierr.New(reference.ErrGatewayTimeout, "gateway_timeout", "Gateway timeout.")

// Fault is a pending injected failure or delay.
type Fault struct {
	method  string // "" for any
	pattern string // a route of apiRoutes, "" for any
	err     *apierr.Error
	delay   time.Duration
	times   int
}

func (f *Fault) matches(method, pattern string) bool {
	return (f.method == "" || f.method == method) && (f.pattern == "" || f.pattern == pattern)
}

type faults struct {
	Mu   sync.Mutex
	List []*Fault
	// count is len(list), stored under mu and read without it: a request
	// to a server with no fault set up takes no lock for them.
	count atomic.Int32
}

// Set replaces the list.
func (fs *faults) Set(list []*Fault) {
	fs.Mu.Lock()
	defer fs.Mu.Unlock()
	fs.List = list
	fs.count.Store(int32(len(list)))
}

// take returns the first pending fault of a kind that matches a request and
// uses up one of its times.
func (fs *faults) take(method, pattern string, delays bool) *Fault {
	if fs.count.Load() == 0 {
		return nil
	}
	fs.Mu.Lock()
	defer fs.Mu.Unlock()
	for i, f := range fs.List {
		if (f.delay > 0) == delays && f.matches(method, pattern) {
			if f.times--; f.times <= 0 {
				fs.List = append(fs.List[:i:i], fs.List[i+1:]...)
				fs.count.Store(int32(len(fs.List)))
			}
			return f
		}
	}
	return nil
}

func (fs *faults) pending() bool { return fs.count.Load() > 0 }

func (fs *faults) add(f *Fault) {
	fs.Mu.Lock()
	fs.List = append(fs.List, f)
	fs.count.Store(int32(len(fs.List)))
	fs.Mu.Unlock()
}

// checkRoute validates a FailNext or SlowNext route against the API's.
func checkRoute(method, pattern string) error {
	APIMux()
	if pattern == "" || pattern == "*" {
		return nil
	}
	rt, ok := apiRoutes[pattern]
	if !ok {
		return fmt.Errorf("synapsefake: unknown route %q (write it as the spec does, without /v3.1: /users/{user_id}/nodes/{node_id}/trans)", pattern)
	}
	if _, ok := rt[method]; method != "" && method != "*" && !ok {
		return fmt.Errorf("synapsefake: route %s has no method %s", pattern, method)
	}
	return nil
}

func anyStar(s string) string {
	if s == "*" {
		return ""
	}
	return s
}

// injectFault answers a request with a pending injected failure.
func (s *Wire) injectFault(w http.ResponseWriter, method, pattern string) bool {
	f := s.Faults.take(method, pattern, false)
	if f == nil {
		return false
	}
	s.Fail(w, f.err)
	return true
}

// Delay waits the configured latency plus any SlowNext delay for the
// request's route. It reports false when the client gave up meanwhile.
func (s *Wire) Delay(r *http.Request) bool {
	d := s.Cfg.Latency
	if s.Faults.pending() {
		if f := s.Faults.take(r.Method, routeOf(r.URL.Path), true); f != nil {
			d += f.delay
		}
	}
	if d <= 0 {
		return true
	}
	if r.Body != nil && r.Body != http.NoBody {
		// net/http notices a client that hangs up only once the body has
		// been read, so read it before waiting.
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
		r.Body.Close()
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// routeOf finds the route pattern a path falls under, "" for none.
func routeOf(path string) string {
	return APIMux().lookup(path)
}

// FailNext is documented at synapsefake.Server.FailNext.
func (s *Wire) FailNext(method, pattern string, errorCode string, times int) {
	if err := checkRoute(method, pattern); err != nil {
		panic(err)
	}
	status, ok := reference.HTTPStatusFor(errorCode)
	if !ok || errorCode == reference.ErrSuccess {
		panic(fmt.Sprintf("synapsefake: FailNext: %q is not an error code of reference.ErrorCodes", errorCode))
	}
	msg := faultMessages[errorCode]
	if msg == "" {
		msg = "Injected failure."
	}
	err := &apierr.Error{Status: status, ErrorCode: errorCode, Code: "injected_failure", Message: msg,
		Reason: fmt.Sprintf("FailNext(%q, %q, %q, %d) injected this answer", method, pattern, errorCode, times)}
	s.Faults.add(&Fault{method: anyStar(method), pattern: anyStar(pattern), err: err, times: max(times, 1)})
}

// SlowNext is documented at synapsefake.Server.SlowNext.
func (s *Wire) SlowNext(method, pattern string, d time.Duration, times int) {
	if err := checkRoute(method, pattern); err != nil {
		panic(err)
	}
	s.Faults.add(&Fault{method: anyStar(method), pattern: anyStar(pattern), delay: max(d, time.Nanosecond), times: max(times, 1)})
}
