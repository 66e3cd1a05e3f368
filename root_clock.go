package synapsefake

import (
	"errors"
	"fmt"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// AdvanceTo moves the clock forward to t, as Advance(t.Sub(Now())) does:
// everything that fell due on the way runs, in due order, before it
// returns. A t at or before Now does not move the clock back; like
// Advance(0), it only runs what is already due. It returns the new time.
func (s *Server) AdvanceTo(t time.Time) time.Time {
	s.core.Advance(t.Sub(s.core.Now()))
	return s.core.Now()
}

// SetTime sets the clock to t, as AdvanceTo(t) does, for tests written in
// the style of miniredis's SetTime. The fake's clock only moves forward:
// every record, step and expiry is dated, and time running back would date
// what a request does before what already happened. So a t before Now is
// an error and leaves the clock as it was; to start earlier, build the
// server WithStartTime(t), or Restore a Snapshot. A clock given to
// WithClock that is not a *clock.Mock cannot be set: that is an error too.
func (s *Server) SetTime(t time.Time) error {
	now := s.core.Now()
	switch {
	case !s.core.ManualClock():
		return errors.New("synapsefake: SetTime: the server's clock (WithClock) is not a *clock.Mock and cannot be set")
	case t.Truncate(time.Millisecond).Before(now):
		return fmt.Errorf("synapsefake: SetTime(%s): the clock is at %s and only moves forward", bank.FmtInstant(t), bank.FmtInstant(now))
	}
	s.AdvanceTo(t)
	return nil
}
