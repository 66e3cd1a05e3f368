// Package apierr is the fake's one error type, Error, and the
// constructors of the refusals docs/fidelity.md's error table names. Every
// refusal the fake gives is an *Error: the wire writes it in the error
// envelope, and the Go API returns it (as synapsefake.Error, an alias).
//
// It is a leaf: it imports the standard library (not net/http, so that the
// bank, which makes most refusals, never depends on it) and the reference
// tables, for the HTTP status of each error_code.
package apierr

import (
	"fmt"
	"strconv"

	"github.com/synapsefake/synapsefake/reference"
)

// Error is a refusal; synapsefake.Error documents it for the Go API's
// callers. Make one with a constructor below, then Because and Hinting.
type Error struct {
	Status    int    // HTTP status of the answer
	ErrorCode string // body error_code
	// httpCode is the body's http_code when it is not Status's (HTTPCode).
	httpCode string
	Code     string // body error.code, omitted when empty
	Message  string // body error.en
	// Reason says why, in the fake's words, and Hint the usual mistake
	// behind it: never on the wire, they go to the test's log and the
	// journal (internal/api's diagnose.go). Set where the error is made,
	// with Because and Hinting.
	Reason, Hint string
	// reported means the refusal already failed the test with its own
	// line (strict mode), so the diagnosis is not logged a second time
	// (MarkReported, Reported).
	reported bool
	// The state document saves the fields in this order, by the names
	// internal/bank's savedNames gives them.
}

// HTTPCode is the body's http_code: Status as a string, but for the one
// documented refusal whose status and http_code differ
// (InvalidFingerprint: 400, "401").
func (e *Error) HTTPCode() string {
	if e.httpCode != "" {
		return e.httpCode
	}
	return strconv.Itoa(e.Status)
}

// MarkReported notes that e already failed the test with a line of its
// own, so that its diagnosis is not logged again.
func MarkReported(e *Error) { e.reported = true }

// Reported reports whether MarkReported noted e.
func Reported(e *Error) bool { return e.reported }

// Because returns a copy of e that says why it was given; the answer on
// the wire stays e's.
func (e *Error) Because(format string, args ...any) *Error {
	c := *e
	c.Reason = fmt.Sprintf(format, args...)
	return &c
}

// Hinting returns a copy of e with a hint: the usual mistake behind this
// refusal and how to fix it.
func (e *Error) Hinting(format string, args ...any) *Error {
	c := *e
	c.Hint = fmt.Sprintf(format, args...)
	return &c
}

// Explanation is the reason (the wire's message when the maker gave none)
// and the hint, if any, on one line.
func (e *Error) Explanation() string {
	r := e.Reason
	if r == "" {
		r = e.Message
	}
	if e.Hint != "" {
		r += " (hint: " + e.Hint + ")"
	}
	return r
}

// Error says the refusal as a Go error: its code, error_code, status and
// message.
func (e *Error) Error() string {
	return fmt.Sprintf("synapsefake: %s (error_code %s, http %d): %s", e.Code, e.ErrorCode, e.Status, e.Message)
}

// statusInternalServerError is http.StatusInternalServerError, spelled
// here so that this package does not import net/http.
const statusInternalServerError = 500

// New is a refusal with errorCode's HTTP status (500 for an error_code
// the reference does not know), code and a message made by fmt.Sprintf.
func New(errorCode, code, format string, args ...any) *Error {
	status, ok := reference.HTTPStatusFor(errorCode)
	if !ok {
		status = statusInternalServerError
	}
	return &Error{Status: status, ErrorCode: errorCode, Code: code, Message: fmt.Sprintf(format, args...)}
}

// The constructors below name the situations of docs/fidelity.md's error
// table.

// Payload refuses a request body or query that is malformed or misses a
// field: error_code 200, HTTP 400.
func Payload(code, format string, args ...any) *Error {
	return New(reference.ErrPayload, code, format, args...)
}

// Incorrect refuses values that are well formed but wrong: error_code 400,
// HTTP 409.
func Incorrect(code, format string, args ...any) *Error {
	return New(reference.ErrIncorrectValues, code, format, args...)
}

// Unauthorized refuses an action the caller is not allowed: error_code 300,
// HTTP 401.
func Unauthorized(code, format string, args ...any) *Error {
	return New(reference.ErrUnauthorized, code, format, args...)
}

// NotFound refuses a request for an object that does not exist: error_code
// 404, HTTP 404, code unable_to_locate_<object>.
func NotFound(object string) *Error {
	return New(reference.ErrNotFound, "unable_to_locate_"+object, "Unable to locate %s.", object)
}

// NotAllowed refuses an action the object's state does not allow:
// error_code 410, HTTP 409.
func NotAllowed(code, format string, args ...any) *Error {
	return New(reference.ErrNotAllowed, code, format, args...)
}

// The refusals of a request's credentials, and of a path no route
// matches.
var (
	MissingGateway = &Error{Status: 400, ErrorCode: reference.ErrClientCredentials,
		Code: "missing_client_credentials", Message: "Missing client credentials (X-SP-GATEWAY)."}
	BadGateway = &Error{Status: 401, ErrorCode: reference.ErrClientCredentials,
		Code: "invalid_client_credentials", Message: "Invalid client_id or client_secret."}
	MissingUser   = Payload("missing_user_credentials", "Missing user credentials (X-SP-USER).")
	MissingUserIP = Payload("missing_user_ip", "Missing user IP address (X-SP-USER-IP).")
	NoOAuthKey    = Unauthorized("missing_oauth_key", "Missing oauth_key in X-SP-USER.")
	BadOAuthKey   = New(reference.ErrUserCredentials, "invalid_oauth_key", "Invalid/expired oauth_key.")
	Fingerprint   = New(reference.ErrFingerprint, "unauthorized_fingerprint", "Fingerprint does not match the oauth_key.")
	// InvalidFingerprint is the one documented case where the HTTP status
	// (400) differs from the body's http_code ("401").
	InvalidFingerprint = &Error{Status: 400, ErrorCode: reference.ErrUnauthorized,
		httpCode: "401", Code: "invalid_fingerprint", Message: "Invalid fingerprint supplied."}
	RouteNotFound = New(reference.ErrNotFound, "not_found", "Unable to locate the requested route.")
)

// MethodNotAllowed answers a known path called with a method it does not
// serve: error_code "410", action not allowed, with the 409 docs/fidelity.md
// gives it.
func MethodNotAllowed(method string) *Error {
	return &Error{Status: 409, ErrorCode: reference.ErrNotAllowed,
		Code: "method_not_allowed", Message: fmt.Sprintf("Method %s is not allowed on this route.", method)}
}
