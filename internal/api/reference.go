package api

import (
	"net/http"
	"sync"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// The reference endpoints answer the exact shapes of the spec (an object
// keyed by state code, an object with BUSINESS and PERSONAL, the
// verification result) without an added success field, since the spec
// gives these shapes in full.

// defaultLoanLimits is the reference table, built once and shared read-only.
var defaultLoanLimits = sync.OnceValue(reference.LoanLimits)

// handleLoanLimits serves GET /v3.1/loans-limits. No credentials are needed,
// but a wrong X-SP-GATEWAY is refused, as on every route.
func (s *Wire) handleLoanLimits(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{}); err != nil {
		s.Fail(w, err)
		return
	}
	if s.Cfg.LoanLimits != nil {
		s.Ok(w, s.Cfg.LoanLimits)
		return
	}
	s.Ok(w, defaultLoanLimits())
}

// handleEntityTypes serves GET /v3.1/users/entity-types, with no credentials
// needed as the other reference tables (serveTable).
func (s *Wire) handleEntityTypes(w http.ResponseWriter, r *http.Request) {
	serveTable(s, w, r, reference.AllEntityTypes)
}

// handleAddressVerification serves POST /v3.1/address-verification. No
// credentials are needed, but a wrong X-SP-GATEWAY is refused, as on every
// route. The spec lists the Content-Type and the five fields without saying
// either is required: a body of another Content-Type is read as JSON, and a
// missing field is verified as empty (a street without a number is
// primary_number_missing), unless WithStrictRequests refuses them.
func (s *Wire) handleAddressVerification(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{}); err != nil {
		s.Fail(w, err)
		return
	}
	enf := s.enforcerFor(r)
	if err := requireJSON(r); err != nil {
		if err := enf.Enforce(bank.BrokenRule{Rule: "Content-Type is application/json (the spec's header of POST /address-verification)", Err: err.(*apierr.Error)}); err != nil {
			s.Fail(w, err)
			return
		}
	}
	a, err := decode[reference.Address](r)
	if err == nil {
		if verr := a.Validate(); verr != nil {
			err = enf.Enforce(bank.BrokenRule{Rule: "address verification gets all five fields", Err: apierr.Payload("missing_field", "%s", verr.Error())})
		}
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, reference.VerifyAddress(a))
}
