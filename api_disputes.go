package synapsefake

import (
	"net/http"

	"github.com/synapsefake/synapsefake/reference"
)

// handleDisputeTransaction serves PATCH .../nodes/{node_id}/trans/{trans_id}/dispute.
func (s *wireCore) handleDisputeTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTranPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeTextValid[disputeRequest](r)
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	v, err := s.disputeTx(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("trans_id"), req)

	if err != nil {
		s.fail(w, err)
		return
	}
	s.ok(w, v)
}

// handleDisputeChargeback serves PATCH /trans/{trans_id}/dispute-chargeback
// (client level: the gateway only) and answers the transaction.
func (s *wireCore) handleDisputeChargeback(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeText[chargebackRequest](r)
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (txView, error) { return s.chargebackTx(now, r.PathValue("trans_id"), len(req.Docs)) })

}
