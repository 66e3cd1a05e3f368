package api

import (
	"testing"
	"time"
)

// TestBudget: the token bucket behind WithWebhookRate. 0 is
// DefaultWebhookRate, a negative rate never makes an attempt wait, and a
// rate of n allows a burst of n/10 (at least 1), then one every 1/n s.
func TestBudget(t *testing.T) {
	t0 := time.Date(2026, 1, 6, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		perSecond int
		at        []time.Duration // offsets from t0 of successive takes
		want      []time.Duration // what each take answers
	}{
		{"no bound", -1, make([]time.Duration, 1000), make([]time.Duration, 1000)},
		{"20 a second", 20, []time.Duration{0, 0, 0, 25 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond},
			[]time.Duration{0, 0, 50 * time.Millisecond, 25 * time.Millisecond, 0, 50 * time.Millisecond}},
		{"1 a second, burst 1", 1, []time.Duration{0, 0, time.Second}, []time.Duration{0, time.Second, 0}},
		{"default", 0, make([]time.Duration, 51), append(make([]time.Duration, 50), 2*time.Millisecond)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBudget(tc.perSecond)
			for i, at := range tc.at {
				if got := b.take(t0.Add(at)); got != tc.want[i] {
					t.Errorf("take %d at +%s = %s, want %s", i, at, got, tc.want[i])
				}
			}
		})
	}
}
