package benchpair

import (
	"flag"
	"slices"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{[]time.Duration{5}, 5},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{4, 1, 3, 2}, 3},
	} {
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestMedianOf(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0}, {[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5},
	} {
		in := slices.Clone(tc.in)
		if got := MedianOf(in); got != tc.want {
			t.Errorf("MedianOf(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("MedianOf(%v) changed its argument to %v", tc.in, in)
		}
	}
}

func TestRunReportsTheRatio(t *testing.T) {
	slow := func() { // 2 ms of work
		for start := time.Now(); time.Since(start) < 2*time.Millisecond; {
		}
	}
	fast := func() {}
	if err := flag.Set("test.benchtime", "50x"); err != nil { // 50 pairs, not a second of them
		t.Fatal(err)
	}
	r := testing.Benchmark(func(b *testing.B) { Run(b, slow, fast) })
	if x := r.Extra["x"]; x < 10 {
		t.Errorf("x = %v for a 2 ms op against an empty baseline, want far above 1", x)
	}
	if r.Extra["op-median-ns"] < float64(2*time.Millisecond) {
		t.Errorf("op-median-ns = %v, want at least 2 ms", r.Extra["op-median-ns"])
	}
}
