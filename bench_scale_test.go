package synapsefake_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
)

// BenchmarkIdleFake reports the heap one idle fake holds (bytes/fake), over
// 1,000 fakes built with New (no listener) and with NewServer.
func BenchmarkIdleFake(b *testing.B) {
	for _, listener := range []bool{false, true} {
		name := "New"
		if listener {
			name = "NewServer"
		}
		b.Run(name, func(b *testing.B) {
			const n = 1000
			var perFake float64
			for b.Loop() {
				fakes := make([]*synapsefake.Server, n)
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for i := range fakes {
					if listener {
						fakes[i] = synapsefake.NewServer(b)
					} else {
						fakes[i] = synapsefake.New()
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				perFake = float64(after.HeapAlloc-before.HeapAlloc) / n
				for _, f := range fakes {
					f.Close()
				}
				runtime.KeepAlive(fakes)
			}
			b.ReportMetric(perFake, "bytes/fake")
		})
	}
}

// BenchmarkAdvance measures one Advance that settles 10,000 pending internal
// transfers, each moving through three statuses.
func BenchmarkAdvance(b *testing.B) {
	const pending = 10_000
	for b.Loop() {
		b.StopTimer()
		fake := synapsefake.New()
		u := fake.MustAddUser(b, synapsefake.UserSeed{Fingerprint: testFingerprint})
		from := fake.MustAddNode(b, u.ID, synapsefake.NodeSeed{BalanceCents: 100 * pending})
		to := fake.MustAddNode(b, u.ID, synapsefake.NodeSeed{})
		f := fixture{user: u, node: from}
		f.headers = userHeaders(fake, fake.OAuthKey(u.ID, testFingerprint))
		item := map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": to.ID},
			"amount": map[string]any{"amount": 1, "currency": "USD"}, "extra": map[string]any{"ip": "10.0.0.1"}}
		batch := make([]any, 500)
		for i := range batch {
			batch[i] = item
		}
		for range pending / len(batch) {
			r := do(b, fake, call{method: "POST", path: "/users/" + u.ID + "/nodes/" + from.ID + "/batch-trans", header: f.headers,
				body: map[string]any{"transactions": batch}})
			if r.status != 200 {
				b.Fatalf("batch: %d", r.status)
			}
		}
		b.StartTimer()
		fake.Advance(time.Millisecond)
		b.StopTimer()
		if n, _ := fake.Node(to.ID); n.BalanceCents != 100*pending {
			b.Fatalf("settled %d cents, want %d", n.BalanceCents, 100*pending)
		}
		fake.Close()
		b.StartTimer()
	}
}
