package api

import (
	"testing"
	"time"
)

func TestBudgetTake(t *testing.T) {
	t0 := time.Date(2026, 4, 14, 10, 0, 0, 0, time.UTC)
	type step struct {
		after time.Duration // since t0
		want  time.Duration // what take says
	}
	for _, tc := range []struct {
		name      string
		perSecond int
		steps     []step
	}{
		{"burst then paced", 20, []step{{0, 0}, {0, 0}, {0, 50 * time.Millisecond}, {50 * time.Millisecond, 0},
			{50 * time.Millisecond, 50 * time.Millisecond}, {75 * time.Millisecond, 25 * time.Millisecond}}},
		{"saves at most a burst", 20, []step{{0, 0}, {0, 0}, {time.Hour, 0}, {time.Hour, 0}, {time.Hour, 50 * time.Millisecond}}},
		{"default", 0, []step{{0, 0}}},
		{"one a second", 1, []step{{0, 0}, {0, time.Second}, {500 * time.Millisecond, 500 * time.Millisecond}, {time.Second, 0}}},
		{"no bound", -1, []step{{0, 0}, {0, 0}, {0, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBudget(tc.perSecond)
			for i, s := range tc.steps {
				if got := b.take(t0.Add(s.after)); got != s.want {
					t.Errorf("take %d at +%s = %s, want %s", i, s.after, got, s.want)
				}
			}
		})
	}
	if b := newBudget(0); b.rate != DefaultWebhookRate || b.burst != DefaultWebhookRate/10 {
		t.Errorf("newBudget(0) = %+v, want the default rate %d in bursts of %d", b, DefaultWebhookRate, DefaultWebhookRate/10)
	}
}
