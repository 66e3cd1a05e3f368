package bank

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// testBankOptions are the root options the bank's tests set, as the
// arguments and config fields they become: the zero value is root New's
// defaults.
type testBankOptions struct {
	start       time.Time     // WithStartTime; zero for DefaultStartTime
	clientName  string        // WithClientName; "" for the default
	manual      bool          // WithManualProcessing
	cutoffs     *Cutoffs      // WithCutoffs; nil for the default
	keyLifetime time.Duration // WithOAuthKeyLifetime; 0 for the default
}

// newTestBank builds a Bank the way root New builds its bank part: its
// config (the default id seed and key lifetime), the frozen clock at
// StartTime, the store, and in place of the wire above it testUp, which
// runs the bank's due work when the bank asks, asks no platform and
// refuses no seed, and a publisher that keeps every event, as the wire's
// webhook capture does.
func newTestBank(o testBankOptions) *Bank {
	cfg := DefaultConfig()
	b := &Bank{Cfg: &cfg}
	if o.keyLifetime != 0 {
		b.Cfg.KeyLifetime = o.keyLifetime
	}
	client := ClientView{ID: DefaultClientID, Name: DefaultClientName}
	if o.clientName != "" {
		client.Name = o.clientName
	}
	cutoffs := SharedDefaultCutoffs
	if o.cutoffs != nil {
		cutoffs = *o.cutoffs
	}
	b.SetFrozenClock(StartTime(o.start))
	b.OpenStore(client, false, o.manual, false, cutoffs)
	b.Up = testUp{b}
	b.ConnectPublisher(&keptEvents{})
	b.SetStoreBase("http://synapsefake.invalid/v3.1")
	return b
}

// testUp is what the test bank asks of the layers above it.
type testUp struct{ b *Bank }

func (u testUp) RunDue()                            { u.b.RunBankDue(u.b.Now()) }
func (u testUp) AskPlatform(*JITAsk) JITOutcome     { return JITOutcome{} }
func (u testUp) SeedRules(rules []BrokenRule) error { return nil }

// keptEvents is the test bank's publisher: it keeps every event it is
// handed, as the wire's capture does (unbounded).
type keptEvents struct{ events []*Event }

func (k *keptEvents) Add(ev *Event) { k.events = append(k.events, ev) }

// published is how many events the bank has handed its publisher.
func published(b *Bank) int { return len(b.store.hooks.(*keptEvents).events) }

// advance moves the frozen clock forward by d and runs what fell due, as
// the wire's Advance does for the bank (runAllDue: whatever the store's
// due time says).
func advance(b *Bank, d time.Duration) {
	if d > 0 {
		b.Frozen.Add(d)
	}
	b.RunBankDue(b.Now())
}

// runDueFast is the wire's RunDueFast for the bank: nothing before the
// store's first work falls due, then whatever is due.
func runDueFast(b *Bank) {
	if Ms(b.Now()) < b.DueAt() {
		return
	}
	b.RunBankDue(b.Now())
}

// mustAddUser is AddUser failing tb on an error.
func mustAddUser(tb testing.TB, b *Bank, seed UserSeed) User {
	tb.Helper()
	u, err := b.AddUser(seed)
	if err != nil {
		tb.Fatalf("AddUser: %v", err)
	}
	return u
}

// mustAddNode is AddNode failing tb on an error.
func mustAddNode(tb testing.TB, b *Bank, userID string, seed NodeSeed) Node {
	tb.Helper()
	n, err := b.AddNode(userID, seed)
	if err != nil {
		tb.Fatalf("AddNode: %v", err)
	}
	return n
}

// bankState is the bank's part of a state document, as the console's
// Snapshot writes it: the clock, the id stream, the store and the network
// user.
type bankState struct {
	Clock       time.Time       `json:"clock"`
	IDs         StateIDs        `json:"ids"`
	Store       json.RawMessage `json:"store"`
	NetworkUser string          `json:"network_user,omitempty"`
}

// snapshot writes the bank's part of a state document, as the console's
// Snapshot does.
func snapshot(b *Bank, w *bytes.Buffer) error {
	now, ids, saved, nu := b.SnapshotBank(func() {})
	var buf bytes.Buffer
	if err := EncodeStore(&buf, saved); err != nil {
		return err
	}
	data, err := json.Marshal(bankState{Clock: now, IDs: ids, Store: buf.Bytes(), NetworkUser: nu})
	if err != nil {
		return err
	}
	w.Write(data)
	return nil
}

// restore reads back what snapshot wrote, as the console's Restore does
// for the bank.
func restore(b *Bank, r *bytes.Buffer) error {
	var doc bankState
	if err := json.Unmarshal(r.Bytes(), &doc); err != nil {
		return err
	}
	st, err := b.DecodeBankStore(doc.Store, doc.IDs, doc.NetworkUser)
	if err != nil {
		return err
	}
	b.SwapInBank(st, doc.Clock, func() {})
	return nil
}
