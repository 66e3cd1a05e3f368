// Faults, the console's side: the control routes that inject a failure or a delay into the next
// requests.

package console

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// controlFaultRequest is the body of POST /_fake/faults and /_fake/faults/slow.
type controlFaultRequest struct {
	Method    string  `json:"method"`
	Route     string  `json:"route"`
	ErrorCode *string `json:"error_code"`
	Delay     *string `json:"delay"`
	Times     int     `json:"times"`
}

// controlFault decodes a fault request, checks that it holds the one field
// of its kind, and runs add, turning its panic at a mistake into a 400.
func (s *Console) controlFault(w http.ResponseWriter, r *http.Request, slow bool, add func(req controlFaultRequest) error) {
	req, err := ControlBody[controlFaultRequest](r)
	switch {
	case err != nil:
	case slow && req.ErrorCode != nil:
		err = apierr.Payload("unknown_field", `Unknown field "error_code".`)
	case !slow && req.Delay != nil:
		err = apierr.Payload("unknown_field", `Unknown field "delay".`)
	case req.Times < 0:
		err = apierr.Payload("invalid_times", "times must not be negative (0 means 1).")
	}
	if err == nil {
		req.Method = strings.ToUpper(req.Method)
		err = recoverMistake(func() error { return add(req) })
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, nil)
}

// recoverMistake runs fn and turns a panic, the Go helpers' answer to a
// mistake in the test, into a 400.
func recoverMistake(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = apierr.Payload("invalid_fault", "%s", strings.TrimPrefix(fmt.Sprint(p), "synapsefake: "))
		}
	}()
	return fn()
}

// controlFailNext serves POST /_fake/faults.
func (s *Console) controlFailNext(w http.ResponseWriter, r *http.Request) {
	s.controlFault(w, r, false, func(req controlFaultRequest) error {
		if req.ErrorCode == nil {
			return apierr.Payload("missing_error_code", `error_code is required, e.g. "503".`)
		}
		s.FailNext(req.Method, req.Route, *req.ErrorCode, req.Times)
		return nil
	})
}

// controlSlowNext serves POST /_fake/faults/slow.
func (s *Console) controlSlowNext(w http.ResponseWriter, r *http.Request) {
	s.controlFault(w, r, true, func(req controlFaultRequest) error {
		var d time.Duration
		var err error
		if req.Delay != nil {
			d, err = time.ParseDuration(*req.Delay)
		}
		if req.Delay == nil || err != nil || d <= 0 {
			return apierr.Payload("invalid_delay", `delay must be a positive Go duration such as "2s".`)
		}
		s.SlowNext(req.Method, req.Route, d, req.Times)
		return nil
	})
}
