package bank

import (
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// RoutingRequest is the body of POST /v3.1/routing-number-verification.
type RoutingRequest struct {
	RoutingNum *string `json:"routing_num"`
	Type       *string `json:"type"`
}

// Validate refuses a request with no routing number; enf takes or refuses
// the formats the sandbox took: a number of another length is an unknown
// bank (409 / "400"), and any type is answered as sent.
func (q RoutingRequest) Validate(enf Enforcer) error {
	switch {
	case q.RoutingNum == nil || *q.RoutingNum == "":
		return apierr.Payload("missing_field", "routing_num is required.")
	case !AllDigits(*q.RoutingNum) || len(*q.RoutingNum) != 9:
		return enf.Enforce(BrokenRule{"routing_num is 9 digits", apierr.Payload("invalid_routing_num", "routing_num must be 9 digits.")})
	case q.Type != nil && *q.Type != reference.NodeACHUS && *q.Type != reference.NodeWireUS:
		return enf.Enforce(BrokenRule{"type is ACH-US or WIRE-US", apierr.Payload("invalid_type", "type must be ACH-US or WIRE-US.")})
	}
	return nil
}
