package synapsefake

import (
	"fmt"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// FailNext makes the next times requests that match method and pattern
// answer the real error envelope of errorCode ("429", "500", "503", "504",
// "460", or any code of reference.ErrorCodes) and change nothing. pattern is
// the route as the spec writes it, without the version prefix, with {name}
// wildcards: FailNext("POST", "/users/{user_id}/nodes/{node_id}/trans", "503", 1).
// An empty or "*" method or pattern matches any. An unknown route or code
// panics, as a mistake in the test.
func (s *Server) FailNext(method, pattern string, errorCode string, times int) {
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
	s.faults.add(&fault{method: anyStar(method), pattern: anyStar(pattern), err: err, times: max(times, 1)})
}

// SlowNext makes the next times requests that match method and pattern wait
// d of real time before they are served, for client timeout tests. A client
// that gives up first finds nothing done: the request is dropped with a 504.
func (s *Server) SlowNext(method, pattern string, d time.Duration, times int) {
	if err := checkRoute(method, pattern); err != nil {
		panic(err)
	}
	s.faults.add(&fault{method: anyStar(method), pattern: anyStar(pattern), delay: max(d, time.Nanosecond), times: max(times, 1)})
}
