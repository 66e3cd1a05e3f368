// The banking schedule, the wire's side: advancing the clock to a cutoff or business day.

package api

import (
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// AdvanceToNextBusinessDay is documented at synapsefake.Server.AdvanceToNextBusinessDay.
func (s *Wire) AdvanceToNextBusinessDay() time.Time {
	now := s.Now()
	s.Advance(reference.NextBusinessDay(now).Sub(now))
	return s.Now()
}

// AdvanceToCutoff is documented at synapsefake.Server.AdvanceToCutoff.
func (s *Wire) AdvanceToCutoff(c bank.Cutoff) (time.Time, error) {
	now := s.Now()
	at, err := s.NextCutoff(now, c)
	if err != nil {
		return now, err
	}
	if !s.ManualClock() {
		return now, ErrClockNotManual("to the " + string(c) + " cutoff")
	}
	s.Advance(at.Sub(now))
	return s.Now(), nil
}

// ErrClockNotManual refuses to move a clock that follows real time (one
// given to WithClock that is not a *clock.Mock, the binary's -clock real):
// 409 / "410" clock_not_manual. move says where the clock was to go: "by
// 24h", "to the next business day". Every route that moves the clock
// refuses such a clock with it, rather than answer 200 and move nothing,
// which would tell a script its transfers had been processed.
func ErrClockNotManual(move string) *apierr.Error {
	return apierr.NotAllowed("clock_not_manual", "The clock follows real time; only a manual clock can be advanced.").
		Because("the clock follows real time and cannot be moved %s", move).
		Hinting("start the binary with -clock manual (and -start default for the dates Go tests get), or give WithClock a *clock.Mock; POST /_fake/clock/advance with a duration of 0 runs what is due")
}
