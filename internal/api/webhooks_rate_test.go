package api_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/standalone"
)

// rateReceiver is a webhook receiver that sends the arrival time of each
// delivery on a channel.
func rateReceiver(t *testing.T, n int) (url string, arrivals <-chan time.Time) {
	t.Helper()
	ch := make(chan time.Time, n)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ch <- time.Now()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(recv.Close)
	return recv.URL, ch
}

// addHookUsers adds n users, each emitting a USERS|POST webhook, and returns
// the last one's id.
func addHookUsers(t *testing.T, fake *synapsefake.Server, n int) string {
	t.Helper()
	id := ""
	for range n {
		id = fake.MustAddUser(t, synapsefake.UserSeed{}).ID
	}
	return id
}

func TestWebhookRateLiftedByFlushAndWait(t *testing.T) {
	t.Parallel()
	const n = 20
	for _, tc := range []struct {
		name string
		wait func(t *testing.T, fake *synapsefake.Server, last string)
	}{
		{"Flush", func(t *testing.T, fake *synapsefake.Server, last string) { fake.Flush() }},
		{"Wait", func(t *testing.T, fake *synapsefake.Server, last string) {
			fake.Webhooks().Wait(t, func(w synapsefake.Webhook) bool {
				return w.ObjectID == last && len(w.Deliveries) == 1 && len(w.Deliveries[0].Attempts) == 1
			})
		}},
		{"Advance", func(t *testing.T, fake *synapsefake.Server, last string) { fake.Advance(0) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url, arrivals := rateReceiver(t, n)
			// One attempt a second: paced, the 20 would take 19 s.
			fake := synapsefake.NewServer(t, synapsefake.WithWebhookRate(1))
			fake.MustAddSubscription(t, url, "USERS|POST")
			last := addHookUsers(t, fake, n)
			start := time.Now()
			tc.wait(t, fake, last)
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("%s took %s to see %d deliveries paced at 1 a second; it should lift the pace", tc.name, took, n)
			}
			if got := len(arrivals); got != n {
				t.Errorf("%s returned with %d deliveries made, want %d", tc.name, got, n)
			}
			for _, w := range fake.Webhooks().All() {
				if len(w.Deliveries) != 1 || len(w.Deliveries[0].Attempts) != 1 || w.Deliveries[0].Attempts[0].Code != http.StatusOK {
					t.Errorf("webhook %s: deliveries %+v, want one attempt answered 200", w, w.Deliveries)
				}
			}
		})
	}
}

func TestWebhookRatePacesTheBackground(t *testing.T) {
	t.Parallel()
	const n, rate = 6, 20 // a burst of 2, then one every 50 ms
	url, arrivals := rateReceiver(t, n)
	fake := synapsefake.NewServer(t, synapsefake.WithWebhookRate(rate))
	fake.MustAddSubscription(t, url, "USERS|POST")
	addHookUsers(t, fake, n)
	var times []time.Time
	timeout := time.After(10 * time.Second)
	for len(times) < n {
		select {
		case at := <-arrivals:
			times = append(times, at)
		case <-timeout:
			t.Fatalf("%d of %d deliveries within 10 s at %d a second", len(times), n, rate)
		}
	}
	// After the burst of 2, 4 more at 20 a second take at least 200 ms
	// (150 ms allows for the clock's granularity); a slow machine only
	// makes it longer.
	if spread := times[n-1].Sub(times[0]); spread < 150*time.Millisecond {
		t.Errorf("%d deliveries at %d a second arrived within %s, want at least 150 ms", n, rate, spread)
	}
	fake.Flush()
	var want []string
	for _, w := range fake.Webhooks().All() {
		want = append(want, w.ObjectID)
		if len(w.Deliveries) != 1 || len(w.Deliveries[0].Attempts) != 1 {
			t.Errorf("webhook %s: deliveries %+v, want one attempt", w, w.Deliveries)
		}
	}
	if len(want) != n {
		t.Errorf("%d webhooks captured, want %d", len(want), n)
	}
}

func TestWebhookRateUnbounded(t *testing.T) {
	t.Parallel()
	const n = 50
	url, arrivals := rateReceiver(t, n)
	fake := synapsefake.NewServer(t, synapsefake.WithWebhookRate(-1))
	fake.MustAddSubscription(t, url, "USERS|POST")
	addHookUsers(t, fake, n)
	timeout := time.After(10 * time.Second)
	for i := range n {
		select {
		case <-arrivals:
		case <-timeout:
			t.Fatalf("%d of %d deliveries within 10 s with no bound", i, n)
		}
	}
}

func TestRunDue(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	release := make(chan struct{})
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			w.WriteHeader(http.StatusInternalServerError) // retried a minute later
		case 2:
			<-release // the retry hangs until the test has seen RunDue return
			w.WriteHeader(http.StatusOK)
		default:
			w.WriteHeader(http.StatusOK)
		}
	}))
	t.Cleanup(recv.Close)
	mock := clock.NewMock()
	mock.Set(synapsefake.DefaultStartTime())
	fake := synapsefake.NewServer(t, synapsefake.WithClock(mock))
	fake.MustAddSubscription(t, recv.URL, "USERS|POST")
	user := fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.Flush()
	mock.Add(time.Minute) // the test moves the clock itself: nothing runs yet
	fake.Flush()
	if got := calls.Load(); got != 1 {
		t.Fatalf("%d attempts before RunDue, want 1", got)
	}
	start := time.Now()
	standalone.RunDue(fake)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("RunDue took %s: it waited for the retry it queued", took)
	}
	close(release)
	fake.Flush()
	w := fake.Webhooks().Wait(t, synapsefake.ForObject(user.ID))
	var codes []int
	for _, a := range w.Deliveries[0].Attempts {
		codes = append(codes, a.Code)
	}
	if !slices.Equal(codes, []int{500, 200}) {
		t.Errorf("attempts %v, want [500 200]: RunDue runs the retry that fell due", codes)
	}
}
