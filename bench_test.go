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
// and closed when its test ends: "fake" is NewServer then Close; "httptest"
// is httptest.NewServer with a trivial handler and t.Cleanup(ts.Close), as a
// test writes it; "paired" runs one of each per iteration and reports their
// ratio. Each iteration is one test: its cleanups run when it ends, as the
// testing package runs a test's, rather than piling up on the benchmark's B
// for tens of thousands of servers, which no test suite does and which
// charged the fake for the testing package's growing cleanup list.
func BenchmarkNewServer(b *testing.B) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	t := &oneTest{TB: b}
	fake := func() { synapsefake.NewServer(t).Close(); t.end() }
	bare := func() { ts := httptest.NewServer(h); t.Cleanup(ts.Close); t.end() }
	b.Run("fake", func(b *testing.B) { benchLoop(b, fake) })
	b.Run("httptest", func(b *testing.B) { benchLoop(b, bare) })
	b.Run("paired", func(b *testing.B) { benchPaired(b, fake, bare) })
}

// oneTest is the testing.TB of one test inside a benchmark: Cleanup keeps
// the function and end runs them, last first, as the test's end would.
type oneTest struct {
	testing.TB
	cleanups []func()
}

func (t *oneTest) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }

func (t *oneTest) end() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
	t.cleanups = t.cleanups[:0]
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
