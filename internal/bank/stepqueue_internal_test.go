package bank

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestStepQueuePushPop: push and pop keep the queue a heap: steps come out
// by time, then by scheduling order.
func TestStepQueuePushPop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var q stepQueue
	var seq uint64
	base := time.Date(2026, 4, 14, 14, 0, 0, 0, time.UTC)
	var last step
	popped := 0
	for range 5000 {
		if rng.IntN(3) > 0 || len(q) == 0 {
			seq++
			s := step{at: base.Add(time.Duration(rng.IntN(50)) * time.Minute), seq: seq}
			q.push(s)
			if !q.heapOrdered() {
				t.Fatalf("after pushing step %d the queue is not a heap", seq)
			}
			continue
		}
		s := q.pop()
		if !q.heapOrdered() {
			t.Fatalf("after popping step %d the queue is not a heap", s.seq)
		}
		for _, r := range q {
			if r.at.Before(s.at) || r.at.Equal(s.at) && r.seq < s.seq {
				t.Fatalf("popped step %d at %v while step %d at %v waits", s.seq, s.at, r.seq, r.at)
			}
		}
		last = s
		popped++
	}
	if popped == 0 || last.seq == 0 {
		t.Fatal("nothing was popped")
	}
}
