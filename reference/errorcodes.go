package reference

// Wire error codes: the body's error_code, a JSON string.
const (
	ErrSuccess           = "0"   // success
	ErrAccepted          = "10"  // accepted, action pending (MFA)
	ErrClientCredentials = "100" // incorrect client credentials
	ErrUserCredentials   = "110" // incorrect user credentials (invalid or expired oauth key)
	ErrFingerprint       = "120" // unauthorized fingerprint
	ErrPayload           = "200" // error in payload
	ErrUnauthorized      = "300" // unauthorized action
	ErrIncorrectValues   = "400" // incorrect values
	ErrNotFound          = "404" // object not found
	ErrNotAllowed        = "410" // action not allowed on the object
	ErrTooManyRequests   = "429" // too many requests
	ErrIdempotencyKey    = "450" // idempotency key already in use
	ErrRequestFailed     = "460" // request failed, not a server error
	ErrServer            = "500" // server error
	ErrUnavailable       = "503" // service unavailable
	ErrGatewayTimeout    = "504" // gateway timeout
)

// ErrorCode is one row of the error code table: the body's error_code, its meaning and
// the HTTP status the fake answers with (the body's http_code is the same number, except
// for the invalid-fingerprint case the spec records).
type ErrorCode struct {
	Code       string `json:"code"`
	Meaning    string `json:"meaning"`
	HTTPStatus int    `json:"http_status"`
}

var errorCodes = []ErrorCode{
	{ErrSuccess, "success", 200},
	{ErrAccepted, "accepted, action pending (MFA)", 202},
	{ErrClientCredentials, "incorrect client credentials", 401},
	{ErrUserCredentials, "incorrect user credentials", 401},
	{ErrFingerprint, "unauthorized fingerprint", 401},
	{ErrPayload, "error in payload", 400},
	{ErrUnauthorized, "unauthorized action", 401},
	{ErrIncorrectValues, "incorrect values", 409},
	{ErrNotFound, "object not found", 404},
	{ErrNotAllowed, "action not allowed on the object", 409},
	{ErrTooManyRequests, "too many requests", 429},
	{ErrIdempotencyKey, "idempotency key already in use", 409},
	{ErrRequestFailed, "request failed, not a server error", 402},
	{ErrServer, "server error", 500},
	{ErrUnavailable, "service unavailable", 503},
	{ErrGatewayTimeout, "gateway timeout", 504},
}

// ErrorCodes returns the error code table of the spec's FIDELITY.md in order of code. The fake
// answers 100 with 401 and 410 with 409; the real service sometimes answered 400 to
// either. The slice is fresh on every call.
func ErrorCodes() []ErrorCode {
	return append([]ErrorCode(nil), errorCodes...)
}

// HTTPStatusFor returns the HTTP status the fake answers with for an error_code.
// The second result is false for an unknown code.
func HTTPStatusFor(errorCode string) (int, bool) {
	for _, e := range errorCodes {
		if e.Code == errorCode {
			return e.HTTPStatus, true
		}
	}
	return 0, false
}
