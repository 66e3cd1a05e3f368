package synapsefake_test

import (
	"net/http"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

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
		{"dead subscription", testkit.DeadURL},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fake := synapsefake.NewServer(b)
			if bc.url != nil {
				fake.MustAddSubscription(b, bc.url(b), "USER|PATCH")
			}
			fx := testkit.NewFixture(b, fake, 0)
			c := testkit.Call{Method: "PATCH", Path: "/users/" + fx.User.ID, Header: fx.Headers,
				Body: map[string]any{"update": map[string]any{"public_note": "benchmark"}}}
			for b.Loop() {
				if r := testkit.Do(b, fake, c); r.Status != http.StatusOK {
					b.Fatalf("PATCH /users: status %d: %s", r.Status, r.Raw)
				}
			}
			b.StopTimer()
			fake.Flush()
		})
	}
}

// BenchmarkWaitFails measures a wait that finds nothing over a small and a
// large capture, in Go (Wait, which encodes each body for its matcher) and
// over HTTP (POST /_fake/webhooks/wait, whose matcher reads no body). On
// the frozen clock each fails after one pass: its cost grows with the
// capture, its answer does not.
func BenchmarkWaitFails(b *testing.B) {
	for _, bc := range []struct {
		name     string
		captured int
		wait     func(b *testing.B, fake *synapsefake.Server) (failure string)
	}{
		{"Wait/100 captured", 100, benchWait},
		{"Wait/20000 captured", 20_000, benchWait},
		{"HTTP/100 captured", 100, benchWaitHTTP},
		{"HTTP/20000 captured", 20_000, benchWaitHTTP},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fake := synapsefake.NewServer(b)
			fillCapture(b, fake, bc.captured)
			var failure string
			for b.Loop() {
				failure = bc.wait(b, fake)
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(bc.captured), "ns/webhook")
			b.ReportMetric(float64(len(failure)), "answer-bytes")
		})
	}
}

func benchWait(b *testing.B, fake *synapsefake.Server) string {
	tb := &testkit.RecordingTB{TB: b}
	fake.Webhooks().Wait(tb, synapsefake.ForObject("000000000000000000000000"))
	if len(tb.Fatals) != 1 {
		b.Fatalf("Wait failed %d times, want 1", len(tb.Fatals))
	}
	return tb.Fatals[0]
}

func benchWaitHTTP(b *testing.B, fake *synapsefake.Server) string {
	r := testkit.Ctl(b, fake, "POST", "/webhooks/wait", map[string]any{"object_id": "000000000000000000000000", "timeout": "0s"})
	if r.Status != http.StatusNotFound {
		b.Fatalf("wait answered %d, want 404", r.Status)
	}
	return string(r.Raw)
}
