// Errors, the bank's side: the envelope a refusal is written in.

package bank

import "github.com/synapsefake/synapsefake/internal/apierr"

// Every refusal the fake gives is an *apierr.Error (internal/apierr holds
// the type and the constructors of docs/fidelity.md's error table),
// written by the wire's Fail (internal/api) in the envelope below.

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
	return ErrorEnvelope{Error: errorBody{En: e.Message, Code: e.Code}, ErrorCode: e.ErrorCode, HTTPCode: e.HTTPCode()}
}
