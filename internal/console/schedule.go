package console

import (
	"net/http"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// controlNextBusinessDay serves POST /_fake/clock/next-business-day.
func (s *Console) controlNextBusinessDay(w http.ResponseWriter, r *http.Request) {
	if _, err := ControlBody[struct{}](r); err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"now": bank.Ms(s.AdvanceToNextBusinessDay())})
}

// controlCutoffRequest is the body of POST /_fake/clock/cutoff.
type controlCutoffRequest struct {
	Cutoff bank.Cutoff `json:"cutoff"`
}

// controlAdvanceToCutoff serves POST /_fake/clock/cutoff {"cutoff": "ach"|"same-day"|"wire"}.
func (s *Console) controlAdvanceToCutoff(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlCutoffRequest](r)
	var now time.Time
	if err == nil {
		now, err = s.AdvanceToCutoff(req.Cutoff)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"now": bank.Ms(now)})
}
