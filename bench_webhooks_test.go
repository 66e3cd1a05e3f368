package synapsefake_test

import (
	"net/http"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// BenchmarkWebhookDeadSubscription measures an API call that emits an event
// (PATCH /users/{id}, USER|PATCH) with no subscription and with a
// subscription to an address nobody listens on. Delivery runs off the
// request path, so the two should cost about the same per call.
func BenchmarkWebhookDeadSubscription(b *testing.B) {
	for _, bc := range []struct {
		name string
		url  func(testing.TB) string // "" for no subscription
	}{
		{"no subscription", nil},
		{"dead subscription", deadURL},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fake := synapsefake.NewServer(b)
			if bc.url != nil {
				fake.MustAddSubscription(b, bc.url(b), "USER|PATCH")
			}
			fx := newFixture(b, fake, 0)
			c := call{method: "PATCH", path: "/users/" + fx.user.ID, header: fx.headers,
				body: map[string]any{"update": map[string]any{"public_note": "benchmark"}}}
			for b.Loop() {
				if r := do(b, fake, c); r.status != http.StatusOK {
					b.Fatalf("PATCH /users: status %d: %s", r.status, r.raw)
				}
			}
			b.StopTimer()
			fake.Flush()
		})
	}
}

// BenchmarkWaitFails measures a Wait that finds nothing (on the frozen
// clock it fails after one pass over the capture) over a small and a large
// capture: it costs in proportion to the capture, and its message does not.
func BenchmarkWaitFails(b *testing.B) {
	for _, bc := range []struct {
		name     string
		captured int
	}{
		{"100 captured", 100},
		{"20000 captured", 20_000},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fake := synapsefake.NewServer(b)
			fillCapture(b, fake, bc.captured)
			tb := &recordingTB{TB: b}
			for b.Loop() {
				fake.Webhooks().Wait(tb, synapsefake.ForObject("000000000000000000000000"))
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(bc.captured), "ns/webhook")
			b.ReportMetric(float64(len(tb.fatal[len(tb.fatal)-1])), "message-bytes")
		})
	}
}
