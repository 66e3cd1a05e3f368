// The clock, the console's side: the control routes that read and advance it.

package console

import (
	"math"
	"net/http"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// controlClock serves GET /_fake/clock.
func (s *Console) controlClock(w http.ResponseWriter, r *http.Request) {
	s.ControlOK(w, map[string]any{"now": bank.Ms(s.Now())})
}

// controlAdvanceRequest is the body of POST /_fake/clock/advance: a Go
// duration string or a number of milliseconds, not both.
type controlAdvanceRequest struct {
	Duration *string `json:"duration"`
	MS       *int64  `json:"ms"`
}

func (req controlAdvanceRequest) duration() (time.Duration, error) {
	switch {
	case (req.Duration == nil) == (req.MS == nil):
		return 0, apierr.Payload("invalid_duration", `Supply exactly one of duration (a Go duration such as "24h") and ms.`)
	case req.MS != nil:
		if *req.MS < 0 || *req.MS > math.MaxInt64/int64(time.Millisecond) {
			return 0, apierr.Payload("invalid_duration", "ms must be a non-negative number of milliseconds.")
		}
		return time.Duration(*req.MS) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(*req.Duration)
	if err != nil || d < 0 {
		return 0, apierr.Payload("invalid_duration", `duration must be a non-negative Go duration such as "90m" or "24h", got %q.`, *req.Duration)
	}
	return d, nil
}

// controlAdvanceClock serves POST /_fake/clock/advance.
func (s *Console) controlAdvanceClock(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlAdvanceRequest](r)
	var d time.Duration
	if err == nil {
		d, err = req.duration()
	}
	s.advanceBy(w, d, err)
}

// advanceBy answers err, the request's refusal, or moves the clock by d
// and answers "now": a move past 9999-12-31 (which a saved state cannot
// hold) is 400 / "200" invalid_duration, and a real clock's (but by 0,
// which runs what is due) 409 / "410" clock_not_manual. Every route that
// moves the clock by a duration answers through it.
func (s *Console) advanceBy(w http.ResponseWriter, d time.Duration, err error) {
	if err == nil && s.Now().After(bank.MaxStateTime.Add(-d)) {
		err = apierr.Payload("invalid_duration", "Advancing by %s would take the clock past 9999-12-31.", d)
	}
	if err == nil && d > 0 && !s.ManualClock() {
		err = api.ErrClockNotManual("by " + d.String())
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Advance(d)
	s.ControlOK(w, map[string]any{"now": bank.Ms(s.Now())})
}
