// Disputes, the console's side: the control route that decides one.

package console

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// controlDisputeRequest is the body of POST /_fake/transactions/{trans_id}/dispute.
type controlDisputeRequest struct {
	Outcome *string `json:"outcome"`
}

// controlDispute serves POST /_fake/transactions/{trans_id}/dispute
// {"outcome": "won" | "lost"} and answers the transaction with
// dispute_status and dispute_credit_transaction_id ("" for none).
func (s *Console) controlDispute(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlDisputeRequest](r)
	if err == nil {
		id := r.PathValue("trans_id")
		switch {
		case req.Outcome == nil || *req.Outcome != "won" && *req.Outcome != "lost":
			err = apierr.Payload("invalid_outcome", `outcome must be "won" or "lost".`)
		case *req.Outcome == "won":
			err = s.WinDispute(id)
		default:
			err = s.LoseDispute(id)
		}
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	t, rs, _ := s.TransactionRecent(r.PathValue("trans_id"))
	s.ControlOK(w, map[string]any{"transaction": controlTx(t, rs), "dispute_status": t.Dispute,
		"dispute_credit_transaction_id": t.DisputeCreditID})
}
