package synapsefake_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
)

// fillCapture adds users until the capture holds n webhooks (one
// USERS|POST each), and returns the ids of the users, oldest first.
func fillCapture(t testing.TB, fake *synapsefake.Server, n int) []string {
	t.Helper()
	var ids []string
	for fake.Webhooks().Len() < n {
		ids = append(ids, fake.MustAddUser(t, synapsefake.UserSeed{}).ID)
	}
	return ids
}

// produceUsers adds a user every 2 ms, as a busy application would, until
// ctx ends; the returned func stops it and says how many it made.
func produceUsers(t *testing.T, ctx context.Context, fake *synapsefake.Server) (stop func() int) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	made := 0
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if _, err := fake.AddUser(synapsefake.UserSeed{}); err != nil {
				t.Errorf("AddUser: %v", err)
				return
			}
			made++
		}
	})
	return func() int {
		cancel()
		wg.Wait()
		return made
	}
}

// TestWaitEndsWhileWebhooksArrive: a wait that finds nothing ends within
// its timeout plus one pass over the capture, even while webhooks keep
// arriving in a large capture. It used to read the whole capture again
// whenever it changed during a pass, before it looked at the deadline, so
// it ended only when the webhooks stopped. The clock is real, as the
// binary's is by default, so nothing ends the wait but its bound.
func TestWaitEndsWhileWebhooksArrive(t *testing.T) {
	const captured = 20_000
	// The producer runs at most this long: a wait still running when it
	// stops has ignored its deadline.
	const producing = 60 * time.Second
	fake := synapsefake.NewServer(t, synapsefake.WithClock(clock.New()))
	fillCapture(t, fake, captured)
	// What one pass over the capture costs here, with every body encoded
	// (WaitWithin's matcher may read it): a wait of 0 makes exactly one.
	began := time.Now()
	fake.Webhooks().WaitWithin(&testkit.RecordingTB{TB: t}, 0, synapsefake.ForObject("000000000000000000000000"))
	onePass := time.Since(began)
	t.Logf("one pass over %d webhooks: %v", captured, onePass)
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		wait    func(t *testing.T, fake *synapsefake.Server) (failure string)
	}{
		{"WaitWithin", 100 * time.Millisecond, func(t *testing.T, fake *synapsefake.Server) string {
			tb := &testkit.RecordingTB{TB: t}
			fake.Webhooks().WaitWithin(tb, 100*time.Millisecond, synapsefake.ForObject("000000000000000000000000"))
			if len(tb.Fatals) != 1 {
				t.Fatalf("WaitWithin failed %d times, want 1", len(tb.Fatals))
			}
			return tb.Fatals[0]
		}},
		{"POST /_fake/webhooks/wait", 200 * time.Millisecond, func(t *testing.T, fake *synapsefake.Server) string {
			r := testkit.Ctl(t, fake, "POST", "/webhooks/wait", map[string]any{"object_id": "000000000000000000000000", "timeout": "200ms"})
			testkit.WantError(t, r, http.StatusNotFound, "404", "no_matching_webhook")
			return string(r.Raw)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), producing)
			defer cancel()
			stop := produceUsers(t, ctx, fake)
			began := time.Now()
			failure := tc.wait(t, fake)
			waited := time.Since(began)
			producerRan := ctx.Err() == nil
			made := stop()
			t.Logf("waited %v while %d users were made", waited, made)
			// Generous: the producer competes for the CPU, and each pass
			// after the first reads only what arrived since.
			if bound := tc.timeout + 3*onePass + 2*time.Second; !producerRan || waited > bound {
				t.Errorf("a wait of %v returned after %v (one pass costs %v), want within %v", tc.timeout, waited, onePass, bound)
			}
			if !strings.Contains(failure, "no webhook matched within "+tc.timeout.String()) {
				t.Errorf("failure %q does not say that no webhook matched within %v", failure, tc.timeout)
			}
		})
	}
}

// TestFailedWaitHoldsNoCopyOfTheCapture: a failed wait lists the newest
// 20 captured webhooks and counts the rest, over HTTP and in Go, and
// concurrent waiters hold no copy of what they have read. Each used to
// keep every body it had encoded and list every webhook: with 30,000
// captured, a 404 answer of 1.5 MB, and hundreds of MiB for 8 waiters.
func TestFailedWaitHoldsNoCopyOfTheCapture(t *testing.T) {
	const captured = 30_000
	const maxMessage = 8 << 10
	fake := synapsefake.NewServer(t)
	users := fillCapture(t, fake, captured)
	wantListed := []string{
		fmt.Sprintf("\ncaptured: %d webhooks, the newest 20 listed (%d earlier not listed):\n  %d. USERS|POST USER_%s\n",
			captured, captured-20, captured-19, users[captured-20]),
		fmt.Sprintf("\n  %d. USERS|POST USER_%s", captured, users[captured-1]),
	}
	for _, tc := range []struct {
		name string
		wait func(t *testing.T) (failure string)
	}{
		{"POST /_fake/webhooks/wait", func(t *testing.T) string {
			r := testkit.Ctl(t, fake, "POST", "/webhooks/wait", map[string]any{"object_id": "000000000000000000000000", "timeout": "0s"})
			testkit.WantError(t, r, http.StatusNotFound, "404", "no_matching_webhook")
			if len(r.Raw) > maxMessage {
				t.Errorf("the 404 answer is %d bytes, want at most %d", len(r.Raw), maxMessage)
			}
			msg, _ := r.Body["error"].(map[string]any)["en"].(string)
			return msg
		}},
		{"Wait", func(t *testing.T) string {
			tb := &testkit.RecordingTB{TB: t}
			fake.Webhooks().Wait(tb, synapsefake.ForObject("000000000000000000000000"))
			if len(tb.Fatals) != 1 {
				t.Fatalf("Wait failed %d times, want 1", len(tb.Fatals))
			}
			return tb.Fatals[0]
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := tc.wait(t)
			if len(msg) > maxMessage {
				t.Errorf("the message is %d bytes, want at most %d", len(msg), maxMessage)
			}
			for _, want := range wantListed {
				if !strings.Contains(msg, want) {
					t.Errorf("the message does not hold %q; it begins:\n%s", want, msg[:min(len(msg), 1000)])
				}
			}
		})
	}

	// Waiters that have read the oldest 5,000 webhooks hold on there while
	// the heap is measured. Each used to hold the 5,000 bodies it had
	// encoded and a copy of each webhook: about 8 MiB a waiter.
	const waiters, read = 8, 5000
	t.Run("concurrent Waits", func(t *testing.T) {
		before := testkit.HeapAfterGC()
		var arrived, done sync.WaitGroup
		release := make(chan struct{})
		for range waiters {
			arrived.Add(1)
			done.Go(func() {
				fake.Webhooks().Wait(t, func(w synapsefake.Webhook) bool {
					if w.ObjectID != users[read-1] {
						return false
					}
					arrived.Done()
					<-release
					return true
				})
			})
		}
		arrived.Wait()
		held := int64(testkit.HeapAfterGC()) - int64(before)
		close(release)
		done.Wait()
		t.Logf("%d waiters that have read %d webhooks hold %d KiB", waiters, read, held>>10)
		if held > 4<<20 {
			t.Errorf("%d waiters that have read %d webhooks hold %d KiB, want at most 4 MiB", waiters, read, held>>10)
		}
	})
}
