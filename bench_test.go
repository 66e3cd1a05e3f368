package synapsefake_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
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
// reports the median time of each and x, the ratio of the medians: a
// median ignores the iterations a GC or another process happened to stall.
func benchPaired(b *testing.B, op, baseline func()) {
	var tOp, tBase []time.Duration
	timed := func(f func(), into *[]time.Duration) {
		start := time.Now()
		f()
		*into = append(*into, time.Since(start))
	}
	for b.Loop() {
		if len(tOp)%2 == 0 {
			timed(op, &tOp)
			timed(baseline, &tBase)
		} else {
			timed(baseline, &tBase)
			timed(op, &tOp)
		}
	}
	mOp, mBase := median(tOp), median(tBase)
	b.ReportMetric(float64(mOp.Nanoseconds()), "op-median-ns")
	b.ReportMetric(float64(mBase.Nanoseconds()), "baseline-median-ns")
	b.ReportMetric(float64(mOp)/float64(mBase), "x")
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}
