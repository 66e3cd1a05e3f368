// The banking schedule, the console's side: the control routes that advance the clock to it.

package console

import (
	"net/http"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// controlNextBusinessDay serves POST /_fake/clock/next-business-day. A
// clock that is not manual is refused, as POST /_fake/clock/advance
// refuses it.
func (s *Console) controlNextBusinessDay(w http.ResponseWriter, r *http.Request) {
	_, err := ControlBody[struct{}](r)
	if err == nil && !s.ManualClock() {
		err = api.ErrClockNotManual("to the next business day")
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"now": bank.Ms(s.AdvanceToNextBusinessDay())})
}

// controlCutoffRequest is the body of POST /_fake/clock/cutoff.
type controlCutoffRequest struct {
	Cutoff bank.Cutoff `json:"cutoff"`
}

// controlAdvanceToCutoff serves POST /_fake/clock/cutoff {"cutoff":
// "ach"|"same-day"|"wire"}; AdvanceToCutoff refuses a clock that is not
// manual.
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
