// Dishonored returns, the console's side: the control routes that dishonor and contest.

package console

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// controlCodeRequest is the body of POST /_fake/transactions/{trans_id}/dishonor
// and /contest.
type controlCodeRequest struct {
	Code *string `json:"code"`
}

// controlCodeMove serves a control route whose body is {"code": "..."},
// applying move to the transaction and answering it.
func (s *Console) controlCodeMove(w http.ResponseWriter, r *http.Request, move func(id, code string) error) {
	req, err := ControlBody[controlCodeRequest](r)
	if err == nil && (req.Code == nil || *req.Code == "") {
		err = apierr.Payload("missing_code", "code is required.")
	}
	if err == nil {
		err = move(r.PathValue("trans_id"), *req.Code)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.controlAnswerTx(w, r.PathValue("trans_id"))
}

// controlDishonor serves POST /_fake/transactions/{trans_id}/dishonor {"code": "R68"}.
func (s *Console) controlDishonor(w http.ResponseWriter, r *http.Request) {
	s.controlCodeMove(w, r, s.DishonorReturn)
}

// controlContest serves POST /_fake/transactions/{trans_id}/contest {"code": "R73"}.
func (s *Console) controlContest(w http.ResponseWriter, r *http.Request) {
	s.controlCodeMove(w, r, s.ContestDishonor)
}
