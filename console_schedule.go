package synapsefake

import (
	"net/http"
	"time"
)

// controlNextBusinessDay serves POST /_fake/clock/next-business-day.
func (s *consoleCore) controlNextBusinessDay(w http.ResponseWriter, r *http.Request) {
	if _, err := controlBody[struct{}](r); err != nil {
		s.fail(w, err)
		return
	}
	s.controlOK(w, map[string]any{"now": ms(s.AdvanceToNextBusinessDay())})
}

// controlCutoffRequest is the body of POST /_fake/clock/cutoff.
type controlCutoffRequest struct {
	Cutoff Cutoff `json:"cutoff"`
}

// controlAdvanceToCutoff serves POST /_fake/clock/cutoff {"cutoff": "ach"|"same-day"|"wire"}.
func (s *consoleCore) controlAdvanceToCutoff(w http.ResponseWriter, r *http.Request) {
	req, err := controlBody[controlCutoffRequest](r)
	var now time.Time
	if err == nil {
		now, err = s.AdvanceToCutoff(req.Cutoff)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	s.controlOK(w, map[string]any{"now": ms(now)})
}
