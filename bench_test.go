package synapsefake_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/benchpair"
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

// benchPaired is benchpair.Run: op and its baseline once each per
// iteration, alternating, reporting x, the ratio of their medians.
func benchPaired(b *testing.B, op, baseline func()) { benchpair.Run(b, op, baseline) }
