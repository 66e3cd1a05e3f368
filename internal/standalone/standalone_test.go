package standalone

import (
	"strings"
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

// TestValidClientCredentials: the client ids and secrets a platform
// takes, and the ones a URL resolver or the gateway header would mangle.
func TestValidClientCredentials(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]bool{"my-id": true, "a.b_C-9": true, "": true, strings.Repeat("a", 64): true,
		".": false, "..": false, "a|b": false, "a/b": false, "a b": false, "é": false, strings.Repeat("a", 65): false} {
		if got := ValidClientID(id); got != want {
			t.Errorf("ValidClientID(%q) = %v, want %v", id, got, want)
		}
	}
	for secret, want := range map[string]bool{"s3cr3t!": true, strings.Repeat("x", 128): true,
		"a b": false, "a|b": false, "a\x7f": false, strings.Repeat("x", 129): false} {
		if got := ValidClientSecret(secret); got != want {
			t.Errorf("ValidClientSecret(%q) = %v, want %v", secret, got, want)
		}
	}
}
