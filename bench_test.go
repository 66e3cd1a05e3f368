package synapsefake_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
)

// BenchmarkNewServer is a server per test, started on a loopback listener
// and closed: "fake" is NewServer then Close; "httptest" is a bare
// httptest.NewServer with a trivial handler, then Close; "paired" runs one
// of each per iteration and reports their ratio.
func BenchmarkNewServer(b *testing.B) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	fake := func() { synapsefake.NewServer(b).Close() }
	bare := func() { httptest.NewServer(h).Close() }
	b.Run("fake", func(b *testing.B) { benchLoop(b, fake) })
	b.Run("httptest", func(b *testing.B) { benchLoop(b, bare) })
	b.Run("paired", func(b *testing.B) { benchPaired(b, fake, bare) })
}

// benchLoop runs op once per iteration, reporting allocations.
func benchLoop(b *testing.B, op func()) {
	b.ReportAllocs()
	for b.Loop() {
		op()
	}
}

// benchPaired runs op and its baseline once each per iteration, in
// alternating order, so that both share whatever load the machine has. It
// reports the mean time of each and x, op's time over the baseline's.
func benchPaired(b *testing.B, op, baseline func()) {
	var tOp, tBase time.Duration
	timed := func(f func(), sum *time.Duration) {
		start := time.Now()
		f()
		*sum += time.Since(start)
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			timed(op, &tOp)
			timed(baseline, &tBase)
		} else {
			timed(baseline, &tBase)
			timed(op, &tOp)
		}
		n++
	}
	b.ReportMetric(float64(tOp.Nanoseconds())/float64(n), "op-ns/op")
	b.ReportMetric(float64(tBase.Nanoseconds())/float64(n), "baseline-ns/op")
	b.ReportMetric(float64(tOp)/float64(tBase), "x")
}
