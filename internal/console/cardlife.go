// A card authorization's life, the console's side: the control routes that move it.

package console

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// controlAmountRequest is the body of the card lifecycle's control routes.
type controlAmountRequest struct {
	AmountCents *int64 `json:"amount_cents"`
	Merchant    string `json:"merchant"`
}

// controlHeldAmount runs a move of a held authorization by amount_cents,
// the held amount when omitted (and required).
func (s *Console) controlHeldAmount(w http.ResponseWriter, r *http.Request, required bool, move func(id string, amount int64) error) {
	req, err := controlAmount(r, false)
	id := r.PathValue("trans_id")
	if err == nil {
		switch t, ok := s.Transaction(id); {
		case req.AmountCents != nil:
			err = move(id, *req.AmountCents)
		case required:
			err = apierr.Payload("missing_amount", "amount_cents is required.")
		case !ok:
			err = apierr.NotFound("transaction")
		default:
			err = move(id, t.AmountCents)
		}
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.controlAnswerTx(w, id)
}

// controlIncrementAuthorization serves POST
// /_fake/transactions/{trans_id}/increment {amount_cents}.
func (s *Console) controlIncrementAuthorization(w http.ResponseWriter, r *http.Request) {
	s.controlHeldAmount(w, r, true, s.IncrementAuthorization)
}

// controlReverseAuthorization serves POST
// /_fake/transactions/{trans_id}/reverse {amount_cents}: the whole hold
// when amount_cents is omitted.
func (s *Console) controlReverseAuthorization(w http.ResponseWriter, r *http.Request) {
	s.controlHeldAmount(w, r, false, s.ReverseAuthorization)
}

// controlClearAuthorization serves POST
// /_fake/transactions/{trans_id}/clear {amount_cents}: the held amount when
// amount_cents is omitted.
func (s *Console) controlClearAuthorization(w http.ResponseWriter, r *http.Request) {
	s.controlHeldAmount(w, r, false, s.ClearAuthorization)
}

// controlForcePost serves POST /_fake/subnets/{subnet_id}/force-post, with
// the body of .../authorize.
func (s *Console) controlForcePost(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlCardRequest](r)
	var t bank.Transaction
	if err == nil {
		t, err = s.ForcePost(r.PathValue("subnet_id"), bank.CardAuth(req))
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"transaction": s.controlTxOf(t)})
}

// controlRefundCard serves POST /_fake/subnets/{subnet_id}/refund
// {amount_cents, merchant}.
func (s *Console) controlRefundCard(w http.ResponseWriter, r *http.Request) {
	req, err := controlAmount(r, true)
	var t bank.Transaction
	if err == nil {
		if req.AmountCents == nil {
			err = apierr.Payload("missing_amount", "amount_cents is required.")
		} else {
			t, err = s.RefundCard(r.PathValue("subnet_id"), *req.AmountCents, req.Merchant)
		}
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"transaction": s.controlTxOf(t)})
}

// controlAmount decodes a lifecycle body; a route without a merchant
// refuses one.
func controlAmount(r *http.Request, merchant bool) (controlAmountRequest, error) {
	req, err := ControlBody[controlAmountRequest](r)
	if err == nil && req.Merchant != "" && !merchant {
		err = apierr.Payload("unknown_field", `Unknown field "merchant".`)
	}
	return req, err
}
