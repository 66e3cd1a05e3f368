package synapsefake

import (
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// routingRequest is the body of POST /v3.1/routing-number-verification.
type routingRequest struct {
	RoutingNum *string `json:"routing_num"`
	Type       *string `json:"type"`
}

// validate refuses a request with no routing number; enf takes or refuses
// the formats the sandbox took: a number of another length is an unknown
// bank (409 / "400"), and any type is answered as sent.
func (q routingRequest) validate(enf enforcer) error {
	switch {
	case q.RoutingNum == nil || *q.RoutingNum == "":
		return apierr.Payload("missing_field", "routing_num is required.")
	case !allDigits(*q.RoutingNum) || len(*q.RoutingNum) != 9:
		return enf.enforce(brokenRule{"routing_num is 9 digits", apierr.Payload("invalid_routing_num", "routing_num must be 9 digits.")})
	case q.Type != nil && *q.Type != reference.NodeACHUS && *q.Type != reference.NodeWireUS:
		return enf.enforce(brokenRule{"type is ACH-US or WIRE-US", apierr.Payload("invalid_type", "type must be ACH-US or WIRE-US.")})
	}
	return nil
}
