package bank

import (
	"math"
	"reflect"
	"testing"
	"time"
)

// TestCutoffsEqual: equal tells every field of Cutoffs apart, so that a
// server whose calendar differs in any of them never takes another's
// answer (sharedACH).
func TestCutoffsEqual(t *testing.T) {
	if !DefaultCutoffs().equal(SharedDefaultCutoffs) {
		t.Fatal("DefaultCutoffs() is not equal to itself")
	}
	typ := reflect.TypeFor[Cutoffs]()
	for i := range typ.NumField() {
		c := DefaultCutoffs()
		f := reflect.ValueOf(&c).Elem().Field(i)
		switch f.Kind() {
		case reflect.Int64:
			f.SetInt(f.Int() + 1)
		case reflect.Slice:
			// A copy of the field's own slice with its first element's
			// first int64 field (a time of day) moved, whichever slice
			// field this is.
			if f.Len() == 0 {
				t.Fatalf("field %s is empty in the default: teach the test to change it", typ.Field(i).Name)
			}
			cp := reflect.MakeSlice(f.Type(), f.Len(), f.Len())
			reflect.Copy(cp, f)
			changed := false
			for el, j := cp.Index(0), 0; j < el.NumField() && !changed; j++ {
				if el.Field(j).Kind() == reflect.Int64 {
					el.Field(j).SetInt(el.Field(j).Int() + int64(time.Minute))
					changed = true
				}
			}
			if !changed {
				t.Fatalf("field %s: its elements have no int64 field: teach the test to change it", typ.Field(i).Name)
			}
			f.Set(cp)
		default:
			t.Fatalf("field %s: kind %s: teach the test to change it", typ.Field(i).Name, f.Kind())
		}
		if c.equal(SharedDefaultCutoffs) {
			t.Errorf("a calendar that differs in %s is equal to the default", typ.Field(i).Name)
		}
	}
}

// TestSharedACH: a new server with the default cutoffs starts from the
// answer another such server worked out for the same start; a server with
// its own cutoffs works its own out. Not parallel: sharedACH is the
// process's.
func TestSharedACH(t *testing.T) {
	start := time.Date(2031, time.March, 4, 15, 0, 0, 0, time.UTC) // no other test's
	sentinel := time.Date(2031, time.March, 9, 0, 0, 0, 0, time.UTC)
	sharedACH.Store(&achMemo{ok: true, start: start, begin: sentinel, settle: sentinel})
	times := func(s *Bank) time.Time {
		defer s.store.lock().unlock()
		begin, _ := s.store.achTimes(start, false)
		return begin
	}
	if got := times(newTestBank(testBankOptions{})); !got.Equal(sentinel) {
		t.Errorf("default cutoffs: began at %v, want the shared answer %v", got, sentinel)
	}
	own := DefaultCutoffs()
	own.ACH -= time.Hour
	s := newTestBank(testBankOptions{cutoffs: &own})
	want, _ := own.ach(start, false)
	if got := times(s); !got.Equal(want) {
		t.Errorf("own cutoffs: began at %v, want %v (its own calendar's)", got, want)
	}
	if p := sharedACH.Load(); !p.begin.Equal(sentinel) {
		t.Errorf("a server with its own cutoffs replaced the shared answer with %v", p.begin)
	}
	// A default server's first answer is shared.
	later := start.Add(time.Hour)
	s = newTestBank(testBankOptions{})
	func() {
		defer s.store.lock().unlock()
		s.store.achTimes(later, false)
	}()
	if p := sharedACH.Load(); !p.answers(later, false) {
		t.Errorf("the shared answer is for %v, want %v", p.start, later)
	}
}

// TestExplicitRunsIgnoreAStaleDueTime: RunBankDue, which the wire's Advance
// and RunDue call without looking at the store's due time (runAllDue), runs
// what is due even when that due time says nothing is, as it did when code
// changed the store without its unlock (BenchmarkAdvancePending's set-up
// once did, and its Advance settled nothing). Only RunDueFast, each
// request's, trusts the due time.
func TestExplicitRunsIgnoreAStaleDueTime(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(s *Bank)
	}{
		{"Advance", func(s *Bank) { advance(s, time.Hour) }},
		{"RunDue", func(s *Bank) { s.Frozen.Add(time.Hour); s.Up.RunDue() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, txs := pendingTransfers(3)
			s.store.due.Store(math.MaxInt64) // stale: nothing due, it says
			tc.run(s)
			defer s.store.lock().unlock()
			for _, tx := range txs {
				if tx.status != StatusSettled {
					t.Errorf("transfer %s is %s after %s, want SETTLED", tx.id, tx.status, tc.name)
				}
			}
		})
	}
}
