// Package benchpair runs an operation and its baseline side by side in one
// benchmark, so that both share whatever load the machine has, and reports
// the ratio of their median times. The package's benchmarks, internal and
// external, share it.
package benchpair

import (
	"slices"
	"testing"
	"time"
)

// Run runs op and baseline once each per iteration, in alternating order.
// It reports the median time of each (op-median-ns, baseline-median-ns)
// and x, the ratio of the medians: a median ignores the iterations a GC or
// another process happened to stall.
func Run(b *testing.B, op, baseline func()) {
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
	mOp, mBase := Median(tOp), Median(tBase)
	b.ReportMetric(float64(mOp.Nanoseconds()), "op-median-ns")
	b.ReportMetric(float64(mBase.Nanoseconds()), "baseline-median-ns")
	b.ReportMetric(float64(mOp)/float64(mBase), "x")
}

// Median is the middle of d (the upper one of an even count), sorting d in
// place; d must not be empty.
func Median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// MedianOf is the middle of x (the mean of the two middle values of an
// even count), x itself left as it was; 0 for an empty x. The load
// generator's rounds and perftable's rows are read with it.
func MedianOf(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(x))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
