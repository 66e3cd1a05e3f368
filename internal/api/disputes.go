// Disputes, the wire's side: the dispute and chargeback routes.

package api

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// handleDisputeTransaction serves PATCH .../nodes/{node_id}/trans/{trans_id}/dispute.
func (s *Wire) handleDisputeTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTranPatch}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeTextValid[bank.DisputeRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	v, err := s.DisputeTx(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("trans_id"), req)

	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, v)
}

// handleDisputeChargeback serves PATCH /trans/{trans_id}/dispute-chargeback
// (client level: the gateway only) and answers the transaction.
func (s *Wire) handleDisputeChargeback(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeText[bank.ChargebackRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (bank.TxView, error) { return s.ChargebackTx(now, r.PathValue("trans_id"), len(req.Docs)) })

}
