package bank

import (
	"math"
	"testing"
)

func TestPageWindow(t *testing.T) {
	for _, tc := range []struct {
		number, perPage, n int
		lo, hi, pageCount  int
	}{
		{1, 20, 0, 0, 0, 0},
		{1, 20, 45, 0, 20, 3},
		{3, 20, 45, 40, 45, 3},
		{4, 20, 45, 45, 45, 3},
		{2, 7, 14, 7, 14, 2},
		{3, 7, 14, 14, 14, 2},
		{461168601842738792, 20, 45, 45, 45, 3},
		{4611686018427387906, 2, 45, 45, 45, 23},
		{math.MaxInt, 20, 45, 45, 45, 3},
		{math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt, 1},
		{2, math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt, 1},
		{1, 1, math.MaxInt, 0, 1, math.MaxInt},
		{0, 20, 45, 45, 45, 3},
		{math.MinInt, 20, 45, 45, 45, 3},
		{1, 0, 45, 45, 45, 0},
	} {
		p := Page{Number: tc.number, PerPage: tc.perPage}
		lo, hi := p.Window(tc.n)
		if lo != tc.lo || hi != tc.hi {
			t.Errorf("page %d of %d in %d: window [%d, %d), want [%d, %d)", tc.number, tc.perPage, tc.n, lo, hi, tc.lo, tc.hi)
		}
		if got := p.PageCount(tc.n); got != tc.pageCount {
			t.Errorf("%d items by %d: %d pages, want %d", tc.n, tc.perPage, got, tc.pageCount)
		}
	}
}
