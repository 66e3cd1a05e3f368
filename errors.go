package synapsefake

import (
	"fmt"
	"net/http"

	"github.com/synapsefake/synapsefake/reference"
)

// apiError is the one wire error type: every refusal the fake gives is one
// of these, written by writeError in the envelope of FIDELITY.md.
type apiError struct {
	status    int    // HTTP status of the answer
	errorCode string // body error_code
	httpCode  string // body http_code; empty means strconv of status
	code      string // body error.code, omitted when empty
	msg       string // body error.en
	// reason says why, in the fake's words, and hint the usual mistake
	// behind it: never on the wire, they go to the test's log and the
	// journal (diagnose.go). Set where the error is made, with because.
	reason, hint string
	// reported means the refusal already failed the test with its own
	// line (strict mode), so the diagnosis is not logged a second time.
	reported bool
}

// because returns a copy of e that says why it was given; the answer on
// the wire stays e's.
func (e *apiError) because(format string, args ...any) *apiError {
	c := *e
	c.reason = fmt.Sprintf(format, args...)
	return &c
}

// hinting returns a copy of e with a hint: the usual mistake behind this
// refusal and how to fix it.
func (e *apiError) hinting(format string, args ...any) *apiError {
	c := *e
	c.hint = fmt.Sprintf(format, args...)
	return &c
}

// explanation is the reason (the wire's message when the maker gave none)
// and the hint, if any, on one line.
func (e *apiError) explanation() string {
	r := e.reason
	if r == "" {
		r = e.msg
	}
	if e.hint != "" {
		r += " (hint: " + e.hint + ")"
	}
	return r
}

func (e *apiError) Error() string {
	return fmt.Sprintf("synapsefake: %s (error_code %s, http %d): %s", e.code, e.errorCode, e.status, e.msg)
}

// errorEnvelope is the body of every refusal.
type errorEnvelope struct {
	Error     errorBody `json:"error"`
	ErrorCode string    `json:"error_code"`
	HTTPCode  string    `json:"http_code"`
	Success   bool      `json:"success"`
}

type errorBody struct {
	En   string `json:"en"`
	Code string `json:"code,omitempty"`
}

func (e *apiError) envelope() errorEnvelope {
	hc := e.httpCode
	if hc == "" {
		hc = fmt.Sprint(e.status)
	}
	return errorEnvelope{Error: errorBody{En: e.msg, Code: e.code}, ErrorCode: e.errorCode, HTTPCode: hc}
}

func newError(errorCode, code, format string, args ...any) *apiError {
	status, ok := reference.HTTPStatusFor(errorCode)
	if !ok {
		status = http.StatusInternalServerError
	}
	return &apiError{status: status, errorCode: errorCode, code: code, msg: fmt.Sprintf(format, args...)}
}

// The constructors below name the situations of FIDELITY.md's error table.

func errPayload(code, format string, args ...any) *apiError {
	return newError(reference.ErrPayload, code, format, args...)
}

func errIncorrect(code, format string, args ...any) *apiError {
	return newError(reference.ErrIncorrectValues, code, format, args...)
}

func errUnauthorized(code, format string, args ...any) *apiError {
	return newError(reference.ErrUnauthorized, code, format, args...)
}

func errNotFound(object string) *apiError {
	return newError(reference.ErrNotFound, "unable_to_locate_"+object, "Unable to locate %s.", object)
}

func errNotAllowed(code, format string, args ...any) *apiError {
	return newError(reference.ErrNotAllowed, code, format, args...)
}

var (
	errMissingGateway = &apiError{status: http.StatusBadRequest, errorCode: reference.ErrClientCredentials,
		code: "missing_client_credentials", msg: "Missing client credentials (X-SP-GATEWAY)."}
	errBadGateway = &apiError{status: http.StatusUnauthorized, errorCode: reference.ErrClientCredentials,
		code: "invalid_client_credentials", msg: "Invalid client_id or client_secret."}
	errMissingUser   = errPayload("missing_user_credentials", "Missing user credentials (X-SP-USER).")
	errMissingUserIP = errPayload("missing_user_ip", "Missing user IP address (X-SP-USER-IP).")
	errNoOAuthKey    = errUnauthorized("missing_oauth_key", "Missing oauth_key in X-SP-USER.")
	errBadOAuthKey   = newError(reference.ErrUserCredentials, "invalid_oauth_key", "Invalid/expired oauth_key.")
	errFingerprint   = newError(reference.ErrFingerprint, "unauthorized_fingerprint", "Fingerprint does not match the oauth_key.")
	// errInvalidFingerprint is the one documented case where the HTTP status
	// (400) differs from the body's http_code ("401").
	errInvalidFingerprint = &apiError{status: http.StatusBadRequest, errorCode: reference.ErrUnauthorized,
		httpCode: "401", code: "invalid_fingerprint", msg: "Invalid fingerprint supplied."}
	errRouteNotFound = newError(reference.ErrNotFound, "not_found", "Unable to locate the requested route.")
)

// errMethodNotAllowed answers a known path called with a method it does not
// serve: error_code "410", action not allowed, with the 409 FIDELITY gives it.
func errMethodNotAllowed(method string) *apiError {
	return &apiError{status: http.StatusConflict, errorCode: reference.ErrNotAllowed,
		code: "method_not_allowed", msg: fmt.Sprintf("Method %s is not allowed on this route.", method)}
}
