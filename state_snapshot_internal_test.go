package synapsefake

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

// TestSnapshotWhileServing takes snapshots while transactions are made and
// the clock moves: each encodes a copy made under the lock, so under -race
// nothing it reads is written concurrently, and each restores.
func TestSnapshotWhileServing(t *testing.T) {
	w := newFuzzWorld(t)
	s := w.s
	var docs [][]byte
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 20 {
			b, err := s.core.snapshot()
			if err != nil {
				t.Error(err)
				return
			}
			docs = append(docs, b)
		}
	})
	for range 200 {
		func() {
			s.core.store.lock()
			defer s.core.store.unlock()
			if _, err := s.core.store.createTx(s.core.Now(), w.user, w.node, fuzzTx(w.peer, 0.01), true, nil); err != nil {
				t.Error(err)
			}
		}()
		s.core.Advance(time.Minute)
	}
	wg.Wait()
	for i, d := range docs {
		other := New(WithoutWebhookDelivery())
		if err := other.core.Restore(bytes.NewReader(d)); err != nil {
			t.Fatalf("snapshot %d does not restore: %v", i, err)
		}
		other.Close()
	}
}

// TestCloneStoreSharesNothing: changing every record of the store leaves a
// copy's encoding as it was.
func TestCloneStoreSharesNothing(t *testing.T) {
	w := newFuzzWorld(t)
	st := w.s.core.store
	encode := func(s *store) string {
		var b bytes.Buffer
		if err := encodeStore(&b, s); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	st.lock()
	defer st.unlock()
	c := cloneStore(st)
	want := encode(c)
	if got := encode(st); got != want {
		t.Fatal("the copy encodes otherwise than the store")
	}
	for _, u := range st.users {
		u.legalNames[0] = "Changed"
		u.fingerprints["new"] = true
	}
	for _, n := range st.nodes {
		n.balance++
		n.timeline[0].Note = "changed"
	}
	for _, tx := range st.txs {
		tx.timeline[0].Note = "changed"
		tx.fees = append(tx.fees, feeRecord{fee: 1})
	}
	for _, sn := range st.subnets {
		sn.prefs.dailyCash++
	}
	if got := encode(c); got != want {
		t.Error("changing the store changed its copy")
	}
}

// TestSnapshotEncodesOutsideTheLock: while a snapshot encodes, the store's
// lock is free, so requests go on being served.
func TestSnapshotEncodesOutsideTheLock(t *testing.T) {
	w := newFuzzWorld(t)
	free := false
	snapshotCopied = func(s *consoleCore) {
		if s.store.mu.TryLock() {
			free = true
			s.store.unlock()
		}
	}
	defer func() { snapshotCopied = nil }()
	if _, err := w.s.core.snapshot(); err != nil {
		t.Fatal(err)
	}
	if !free {
		t.Error("the store's lock is held while the snapshot encodes")
	}
}

// BenchmarkSnapshotLock pairs what a snapshot does under the store's lock
// (the copy) with the whole snapshot (copy and encoding), on a store of
// 20,000 transactions: their ratio is the share of a save that stops the
// API.
func BenchmarkSnapshotLock(b *testing.B) {
	w := newFuzzWorld(b)
	s, st := w.s, w.s.core.store
	st.lock()
	for range 20_000 {
		if _, err := st.createTx(s.core.Now(), w.user, w.node, fuzzTx(w.peer, 0.01), true, nil); err != nil {
			b.Fatal(err)
		}
	}
	st.unlock()
	s.core.Advance(time.Hour)
	b.Run("under-lock", func(b *testing.B) {
		for b.Loop() {
			st.lock()
			_ = cloneStore(st)
			_ = s.core.hooks.snapshot()
			st.unlock()
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.core.snapshot(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
