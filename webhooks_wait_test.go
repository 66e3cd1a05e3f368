package synapsefake_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
)

// fillCapture adds users until the capture holds n webhooks.
func fillCapture(t testing.TB, fake *synapsefake.Server, n int) {
	t.Helper()
	for fake.Webhooks().Len() < n {
		fake.MustAddUser(t, synapsefake.UserSeed{})
	}
}

// produceUsers creates users over HTTP, one after another, as another
// client would, until ctx ends; the returned func stops it and says how
// many it made.
func produceUsers(t *testing.T, ctx context.Context, fake *synapsefake.Server) (stop func() int) {
	ctx, cancel := context.WithCancel(ctx)
	body, _ := json.Marshal(userBody(nil))
	var wg sync.WaitGroup
	made := 0
	wg.Go(func() {
		for ctx.Err() == nil {
			req, _ := http.NewRequestWithContext(ctx, "POST", fake.URL()+"/users", bytes.NewReader(body))
			for k, v := range gatewayHeaders(fake) {
				req.Header.Set(k, v)
			}
			req.Header.Set("Content-Type", "application/json")
			resp, err := fake.Client().Do(req)
			if err != nil {
				continue // ctx ended
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("creating a user answered %d", resp.StatusCode)
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
// its timeout plus one pass over the capture, even while another client
// keeps adding webhooks to a large capture. It used to rescan the whole
// capture whenever it changed during a scan, before it looked at the
// deadline, so it ended only when the producer stopped.
func TestWaitEndsWhileWebhooksArrive(t *testing.T) {
	const captured = 20_000
	// The producer runs at most this long: a wait still running when it
	// stops has ignored its deadline. One pass over 20,000 webhooks takes
	// well under a second, even under -race.
	const producing = 20 * time.Second
	for _, tc := range []struct {
		name string
		wait func(t *testing.T, fake *synapsefake.Server) (failure string)
	}{
		{"WaitWithin", func(t *testing.T, fake *synapsefake.Server) string {
			tb := &recordingTB{TB: t}
			fake.Webhooks().WaitWithin(tb, 100*time.Millisecond, synapsefake.ForObject("000000000000000000000000"))
			if len(tb.fatal) != 1 {
				t.Fatalf("WaitWithin failed %d times, want 1", len(tb.fatal))
			}
			return tb.fatal[0]
		}},
		{"POST /_fake/webhooks/wait", func(t *testing.T, fake *synapsefake.Server) string {
			r := ctl(t, fake, "POST", "/webhooks/wait", map[string]any{"object_id": "000000000000000000000000", "timeout": "200ms"})
			wantError(t, r, http.StatusNotFound, "404", "no_matching_webhook")
			return string(r.raw)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := synapsefake.NewServer(t)
			fillCapture(t, fake, captured)
			ctx, cancel := context.WithTimeout(context.Background(), producing)
			defer cancel()
			stop := produceUsers(t, ctx, fake)
			began := time.Now()
			failure := tc.wait(t, fake)
			waited := time.Since(began)
			producerRan := ctx.Err() == nil
			made := stop()
			t.Logf("waited %v while %d users were made", waited, made)
			if !producerRan {
				t.Errorf("the wait returned after %v, only once the producer had stopped: it ignored its deadline", waited)
			}
			if !strings.Contains(failure, "no webhook matched") {
				t.Errorf("failure %q does not say that no webhook matched", failure)
			}
		})
	}
}
