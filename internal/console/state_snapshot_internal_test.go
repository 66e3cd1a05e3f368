package console

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// TestSnapshotWhileServing takes snapshots while transactions are made and
// the clock moves: each encodes a copy made under the lock, so under -race
// nothing it reads is written concurrently, and each restores.
func TestSnapshotWhileServing(t *testing.T) {
	w := newTestWorld(t)
	s := w.c
	var docs [][]byte
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 20 {
			b, err := s.snapshot()
			if err != nil {
				t.Error(err)
				return
			}
			docs = append(docs, b)
		}
	})
	for range 200 {
		var v bank.TxView
		if err := s.CreateTxInto(s.Now(), w.user, w.node, testTx(w.peer, 0.01), true, nil, &v); err != nil {
			t.Error(err)
		}
		s.Advance(time.Minute)
	}
	wg.Wait()
	for i, d := range docs {
		other := newTestConsole(t, nil)
		if err := other.Restore(bytes.NewReader(d)); err != nil {
			t.Fatalf("snapshot %d does not restore: %v", i, err)
		}
		other.Hooks.Close()
	}
}

// TestSnapshotEncodesOutsideTheLock: while a snapshot encodes, the store's
// lock is free, so requests go on being served. The store's mutex is the
// bank's: the console asks for it as a request does (Counts takes the lock),
// from another goroutine, so that a lock still held fails the test instead
// of deadlocking it.
func TestSnapshotEncodesOutsideTheLock(t *testing.T) {
	w := newTestWorld(t)
	free := false
	snapshotCopied = func(s *Console) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Counts()
		}()
		select {
		case <-done:
			free = true
		case <-time.After(2 * time.Second):
		}
	}
	defer func() { snapshotCopied = nil }()
	if _, err := w.c.snapshot(); err != nil {
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
	w := newTestWorld(b)
	s := w.c
	for range 20_000 {
		var v bank.TxView
		if err := s.CreateTxInto(s.Now(), w.user, w.node, testTx(w.peer, 0.01), true, nil, &v); err != nil {
			b.Fatal(err)
		}
	}
	s.Advance(time.Hour)
	b.Run("under-lock", func(b *testing.B) {
		for b.Loop() {
			// What snapshot does under the store's lock: the store's copy
			// and the webhook side's.
			_, _, _, _ = s.SnapshotBank(func() { _ = s.Hooks.Snapshot() })
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.snapshot(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
