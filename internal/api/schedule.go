package api

import (
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// AdvanceToNextBusinessDay moves the clock, as Advance does, to 00:00 US
// Eastern time of the next Federal Reserve business day, and returns the
// new time.
func (s *Wire) AdvanceToNextBusinessDay() time.Time {
	now := s.Now()
	s.Advance(reference.NextBusinessDay(now).Sub(now))
	return s.Now()
}

// AdvanceToCutoff moves the clock, as Advance does, to the next moment
// after now that the named deadline falls on a business day (for
// CutoffSameDay, the next same-day window's deadline), and returns the new
// time. A transfer created at that moment still makes the deadline. It
// returns an error for an unknown Cutoff, and then does not move the clock.
func (s *Wire) AdvanceToCutoff(c bank.Cutoff) (time.Time, error) {
	now := s.Now()
	at, err := s.NextCutoff(now, c)
	if err != nil {
		return now, err
	}
	s.Advance(at.Sub(now))
	return s.Now(), nil
}
