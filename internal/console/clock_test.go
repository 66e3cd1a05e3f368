package console_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/testkit"
)

// TestClockRoutesOnARealClock: under a clock that follows real time (the
// binary's -clock real), every route that moves the clock answers as POST
// /_fake/clock/advance does, 409 / "410" clock_not_manual, and changes
// nothing; a bad body is still refused 400 first, and an advance of 0 runs
// what is due.
func TestClockRoutesOnARealClock(t *testing.T) {
	t.Parallel()
	notManual := map[string]any{
		"error":      map[string]any{"code": "clock_not_manual", "en": "The clock follows real time; only a manual clock can be advanced."},
		"error_code": "410", "http_code": "409", "success": false,
	}
	for _, tc := range []struct {
		name      string
		path      string
		body      any
		status    int
		errorCode string
		code      string
	}{
		{"advance by a duration", "/clock/advance", map[string]any{"duration": "24h"}, 409, "410", "clock_not_manual"},
		{"advance by milliseconds", "/clock/advance", map[string]any{"ms": 1}, 409, "410", "clock_not_manual"},
		{"next business day", "/clock/next-business-day", nil, 409, "410", "clock_not_manual"},
		{"next business day, an empty object", "/clock/next-business-day", map[string]any{}, 409, "410", "clock_not_manual"},
		{"ACH cutoff", "/clock/cutoff", map[string]any{"cutoff": "ach"}, 409, "410", "clock_not_manual"},
		{"same-day cutoff", "/clock/cutoff", map[string]any{"cutoff": "same-day"}, 409, "410", "clock_not_manual"},
		{"wire cutoff", "/clock/cutoff", map[string]any{"cutoff": "wire"}, 409, "410", "clock_not_manual"},
		{"dashboard: an hour", "/ui/clock", map[string]any{"step": "1h"}, 409, "410", "clock_not_manual"},
		{"dashboard: the next business day", "/ui/clock", map[string]any{"step": "business-day"}, 409, "410", "clock_not_manual"},
		// A bad body is refused for itself, whatever the clock.
		{"advance: not a duration", "/clock/advance", map[string]any{"duration": "tomorrow"}, 400, "200", "invalid_duration"},
		{"next business day: unknown field", "/clock/next-business-day", map[string]any{"days": 2}, 400, "200", "unknown_field"},
		{"cutoff: unknown", "/clock/cutoff", map[string]any{"cutoff": "lunch"}, 400, "200", "invalid_cutoff"},
		{"cutoff: missing", "/clock/cutoff", nil, 400, "200", "invalid_cutoff"},
		{"dashboard: unknown step", "/ui/clock", map[string]any{"step": "1y"}, 400, "200", "invalid_step"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithClock(clock.New()))
			u := fake.MustAddUser(t, synapsefake.UserSeed{})
			fake.MustAddNode(t, u.ID, synapsefake.NodeSeed{BalanceCents: 100})
			hooks, before := len(fake.Webhooks().All()), fake.Now()
			r := testkit.Ctl(t, fake, "POST", tc.path, tc.body)
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
			if tc.status == http.StatusConflict {
				if diff := cmp.Diff(notManual, r.Body); diff != "" {
					t.Errorf("envelope (-want +got):\n%s", diff)
				}
			}
			// The real clock runs on by itself, by far less than any of
			// the moves above.
			if moved := fake.Now().Sub(before); moved < 0 || moved > time.Minute {
				t.Errorf("the clock moved by %v", moved)
			}
			if got := len(fake.Webhooks().All()); got != hooks {
				t.Errorf("%d webhooks after the refusal, want %d", got, hooks)
			}
		})
	}
	t.Run("an advance of 0 runs what is due", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t, synapsefake.WithClock(clock.New()))
		r := testkit.Ctl(t, fake, "POST", "/clock/advance", map[string]any{"ms": 0})
		if r.Status != http.StatusOK {
			t.Errorf("status %d, want 200: %s", r.Status, r.Raw)
		}
	})
}
