package bank

import (
	"fmt"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// Every refusal the fake gives is an *apierr.Error (internal/apierr holds
// the type and the constructors of FIDELITY.md's error table), written by
// Server.fail (handlers.go) in the envelope below.

// ErrorEnvelope is the body of every refusal.
type ErrorEnvelope struct {
	Error     errorBody `json:"error"`
	ErrorCode string    `json:"error_code"`
	HTTPCode  string    `json:"http_code"`
	Success   bool      `json:"success"`
}

type errorBody struct {
	En   string `json:"en"`
	Code string `json:"code,omitempty"`
}

// EnvelopeOf is e's body on the wire.
func EnvelopeOf(e *apierr.Error) ErrorEnvelope {
	hc := e.HTTPCode
	if hc == "" {
		hc = fmt.Sprint(e.Status)
	}
	return ErrorEnvelope{Error: errorBody{En: e.Message, Code: e.Code}, ErrorCode: e.ErrorCode, HTTPCode: hc}
}
