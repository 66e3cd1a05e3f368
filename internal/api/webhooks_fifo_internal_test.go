package api

import (
	"slices"
	"testing"
)

// TestFIFO runs sequences of pushes and pops on a fifo and on a plain slice
// beside it: the two must hold the same items in the same order after every
// step, across the ring's growth and wrap-around.
func TestFIFO(t *testing.T) {
	tests := []struct {
		name string
		ops  []int // n > 0: push n items; n < 0: pop -n items
	}{
		{"empty", nil},
		{"push only", []int{1, 15, 1, 100}},
		{"drain", []int{5, -5, 3, -3}},
		{"wrap before growth", []int{10, -6, 12, -3, 20}},
		{"held at a bound", []int{16, -8, 8, -8, 8, -8, 8, -8, 8}},
		{"grows while wrapped", []int{16, -10, 10, 1, -7, 40}},
		{"refills after a large drain", []int{3000, -3000, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var q fifo[int]
			var want []int
			next := 0
			for step, op := range tt.ops {
				for ; op > 0; op-- {
					q.push(next)
					want = append(want, next)
					next++
				}
				for ; op < 0; op++ {
					if got := q.pop(); got != want[0] {
						t.Fatalf("step %d: pop = %d, want %d", step, got, want[0])
					}
					want = want[1:]
				}
				got := make([]int, q.Len())
				for i := range got {
					got[i] = q.At(i)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("step %d: queue holds %v, want %v", step, got, want)
				}
			}
		})
	}
}

// TestFIFOPopForgets checks that a popped pointer is no longer held, so that
// the capture's bound frees what it forgets.
func TestFIFOPopForgets(t *testing.T) {
	var q fifo[*int]
	for i := range 20 {
		q.push(&i)
	}
	for range 5 {
		q.pop()
	}
	held := 0
	for _, p := range q.ring {
		if p != nil {
			held++
		}
	}
	if held != 15 {
		t.Errorf("the ring holds %d pointers after 20 pushes and 5 pops, want 15", held)
	}
}

// TestFIFODrainLetsGo checks that a large queue, once drained, holds no
// ring, and that a small one keeps its ring for the next pushes.
func TestFIFODrainLetsGo(t *testing.T) {
	for _, tc := range []struct {
		n        int
		wantRing bool
	}{{3000, false}, {10, true}} {
		var q fifo[int]
		for i := range tc.n {
			q.push(i)
		}
		for range tc.n {
			q.pop()
		}
		if got := q.ring != nil; got != tc.wantRing {
			t.Errorf("after %d pushes and pops the queue holds a ring of %d: want a ring %v", tc.n, len(q.ring), tc.wantRing)
		}
	}
}

// BenchmarkFIFOHeld is a capture held at its bound, one push and one pop
// per event, on the ring ("ring") and on the slice that compacted itself
// once half of it was popped, which the ring replaced ("slice").
func BenchmarkFIFOHeld(b *testing.B) {
	held := func(q interface {
		push(*int)
		pop() *int
	}) func(*testing.B) {
		return func(b *testing.B) {
			v := new(int)
			for range 100_000 {
				q.push(v)
			}
			for b.Loop() {
				q.push(v)
				q.pop()
			}
		}
	}
	b.Run("ring", held(&fifo[*int]{}))
	b.Run("slice", held(&sliceFIFO[*int]{}))
}

// sliceFIFO is the queue fifo was before its ring, kept as the benchmark's
// baseline.
type sliceFIFO[T any] struct {
	items []T
	head  int
}

func (q *sliceFIFO[T]) push(v T) { q.items = append(q.items, v) }

func (q *sliceFIFO[T]) pop() (v T) {
	var zero T
	v, q.items[q.head] = q.items[q.head], zero
	q.head++
	if q.head > 1024 && q.head > len(q.items)/2 {
		q.items = append([]T(nil), q.items[q.head:]...)
		q.head = 0
	}
	return v
}
