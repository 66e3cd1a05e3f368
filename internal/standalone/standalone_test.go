package standalone

import (
	"testing"
	"time"
)

// TestRealClockFrom: the clock reads its start at once and runs on with
// the wall clock, in the past and in the future alike.
func TestRealClockFrom(t *testing.T) {
	t.Parallel()
	for _, start := range []time.Time{time.Date(2026, 4, 14, 14, 0, 0, 0, time.UTC), time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)} {
		c := RealClockFrom(start)
		first := c.Now()
		if first.Before(start) || first.Sub(start) > time.Minute {
			t.Errorf("RealClockFrom(%v).Now() = %v, want start or just after", start, first)
		}
		if later := c.Now(); later.Before(first) {
			t.Errorf("RealClockFrom(%v) went back: %v then %v", start, first, later)
		}
		if d := c.Since(start); d < 0 || d > time.Minute {
			t.Errorf("RealClockFrom(%v).Since(start) = %v", start, d)
		}
	}
}
