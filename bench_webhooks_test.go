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
