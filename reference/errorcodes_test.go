package reference_test

import (
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

func TestHTTPStatusFor(t *testing.T) {
	for _, tc := range []struct {
		code       string
		wantStatus int
		wantOK     bool
	}{
		{reference.ErrSuccess, 200, true},
		{reference.ErrAccepted, 202, true},
		{reference.ErrClientCredentials, 401, true},
		{reference.ErrUserCredentials, 401, true},
		{reference.ErrFingerprint, 401, true},
		{reference.ErrPayload, 400, true},
		{reference.ErrUnauthorized, 401, true},
		{reference.ErrIncorrectValues, 409, true},
		{reference.ErrNotFound, 404, true},
		{reference.ErrNotAllowed, 409, true},
		{reference.ErrTooManyRequests, 429, true},
		{reference.ErrIdempotencyKey, 409, true},
		{reference.ErrRequestFailed, 402, true},
		{reference.ErrServer, 500, true},
		{reference.ErrUnavailable, 503, true},
		{reference.ErrGatewayTimeout, 504, true},
		{"", 0, false},
		{"1", 0, false},
		{"401", 0, false},
	} {
		status, ok := reference.HTTPStatusFor(tc.code)
		if status != tc.wantStatus || ok != tc.wantOK {
			t.Errorf("HTTPStatusFor(%q) = %d, %v; want %d, %v", tc.code, status, ok, tc.wantStatus, tc.wantOK)
		}
	}
}

func TestErrorCodes(t *testing.T) {
	want := []string{"0", "10", "100", "110", "120", "200", "300", "400", "404", "410", "429", "450", "460", "500", "503", "504"}
	codes := reference.ErrorCodes()
	if len(codes) != len(want) {
		t.Fatalf("len(ErrorCodes()) = %d, want %d", len(codes), len(want))
	}
	for i, e := range codes {
		if e.Code != want[i] || e.Meaning == "" || e.HTTPStatus == 0 {
			t.Errorf("ErrorCodes()[%d] = %+v, want code %s with a meaning and a status", i, e, want[i])
		}
	}
	codes[0].HTTPStatus = 999
	if got, _ := reference.HTTPStatusFor("0"); got != 200 {
		t.Errorf("HTTPStatusFor(\"0\") after mutating a copy = %d, want 200", got)
	}
}
