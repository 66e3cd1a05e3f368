// Errors, the root's side: the one error type the Go API returns.

package synapsefake

import "github.com/synapsefake/synapsefake/internal/apierr"

// Error is a refusal: what the fake answers when the service would refuse
// a request, and what a method returns when it refuses a call. Every error
// the package's functions and methods return is an *Error or wraps one
// (read it with errors.As), but for the errors of an io.Writer or
// transport you hand them; the package documentation says which calls
// return errors.
//
// Its fields are the error envelope's, and the fake's explanation:
//
//	Status     the HTTP status the API answers it with: 409
//	ErrorCode  the body's error_code: "410"
//	Code       the body's error.code: "user_locked" ("" for none)
//	Message    the body's error.en
//	Reason     why, in the fake's words; never on the wire ("" for none)
//	Hint       the usual mistake behind it; never on the wire ("" for none)
//
// HTTPCode is the body's http_code ("409"), Explanation the reason (the
// message when there is none) and the hint on one line, and Error the
// whole as one line. Because and Hinting, with which the fake makes its
// refusals, return a copy that says why.
type Error = apierr.Error
