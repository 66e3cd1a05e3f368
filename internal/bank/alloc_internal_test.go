package bank

import (
	"encoding/hex"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestSlabTake: take hands out distinct zero values, a new array every
// eventSlabSize of them, and a value written through one pointer is seen
// through no other.
func TestSlabTake(t *testing.T) {
	var s slab[Event]
	got := make([]*Event, 3*eventSlabSize)
	for i := range got {
		got[i] = s.take()
		if !reflect.ValueOf(got[i]).Elem().IsZero() {
			t.Fatalf("take %d: %+v, want a zero event", i, *got[i])
		}
		got[i].seq = uint64(i + 1)
	}
	for i, ev := range got {
		if ev.seq != uint64(i+1) {
			t.Errorf("event %d holds seq %d, written as %d", i, ev.seq, i+1)
		}
		for j := range i {
			if got[j] == ev {
				t.Errorf("take %d and take %d returned the same pointer", j, i)
			}
		}
	}
	if allocs := testing.AllocsPerRun(100*eventSlabSize, func() { s.take() }); allocs > 1.0/eventSlabSize+0.01 {
		t.Errorf("take allocates %.3f times a call, want 1/%d", allocs, eventSlabSize)
	}
}

// TestRandomHexRoom: randomHex's strings are the id stream's bytes in hex,
// as hex.EncodeToString writes them, whatever their lengths; a string
// keeps its value while later ones are written beside it; and ids cost an
// allocation every hexRoomSize bytes, not one each.
func TestRandomHexRoom(t *testing.T) {
	st := newStore(7)
	want := rand.NewChaCha8(st.ids.seed)
	lengths := []int{12, 4, 20, 12, 12, 16, 12, 32, 1, 12, 12, 12, 12, 12, 12, 12, 33}
	var got, wantHex []string
	for _, n := range lengths {
		got = append(got, st.randomHex(n))
		b := make([]byte, n)
		_, _ = want.Read(b)
		wantHex = append(wantHex, hex.EncodeToString(b))
	}
	for i := range got {
		if got[i] != wantHex[i] {
			t.Errorf("randomHex(%d) #%d = %q, want %q", lengths[i], i, got[i], wantHex[i])
		}
	}
	allocs := testing.AllocsPerRun(1000, func() { st.newID() })
	if per := float64(2*12) / hexRoomSize; allocs > per+0.01 {
		t.Errorf("newID allocates %.3f times a call, want about %.3f", allocs, per)
	}
}

// TestEventsShareSlabs: an event, and an object event with it, cost an
// allocation every eventSlabSize of them, not one each: what a test's
// seeding and a transaction's four events save (BenchmarkReadmeTest).
func TestEventsShareSlabs(t *testing.T) {
	b := newTestBank(testBankOptions{}) // the capture unbounded: keptEvents
	st := b.store
	defer st.lock().unlock()
	now := b.Now()
	if allocs := testing.AllocsPerRun(100*eventSlabSize, func() { st.newEvent(now, "TRAN|PATCH") }); allocs > 1.0/eventSlabSize+0.01 {
		t.Errorf("newEvent allocates %.3f times a call, want 1/%d", allocs, eventSlabSize)
	}
	snap := &nodeSnap{}
	// Two slabs, and the capture's ring doubling now and then.
	if allocs := testing.AllocsPerRun(100*eventSlabSize, func() { st.emitLazy(now, "NODES|POST", "NODE", "id", snap) }); allocs > 2.0/eventSlabSize+0.05 {
		t.Errorf("emitLazy allocates %.3f times a call, want about 2/%d", allocs, eventSlabSize)
	}
}
