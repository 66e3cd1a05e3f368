package bank

import (
	"encoding/json"
	"testing"
	"time"
)

// pendingTransfers makes a server holding n CREATED transfers between two
// deposit nodes and no subscription, made through the store as
// POST .../trans makes them.
func pendingTransfers(n int) (*Bank, []*txRecord) {
	s := newTestBank(testBankOptions{keyLifetime: 365 * 24 * time.Hour})
	u, _ := s.AddUser(UserSeed{})
	from, _ := s.AddNode(u.ID, NodeSeed{BalanceCents: 1 << 40})
	to, _ := s.AddNode(u.ID, NodeSeed{})
	st := s.store
	st.lock()
	defer st.unlock()
	txs := make([]*txRecord, n)
	now := s.Now()
	for i := range txs {
		t := &txRecord{id: st.newID(), userID: u.ID, fromNode: from.ID, toNode: to.ID, amount: 100, currency: "USD",
			fees: []feeRecord{{note: "Facilitator Fee"}}, ip: "127.0.0.1", created: now, processOn: now, start: now,
			status: StatusCreated}
		st.addTx(t, statusEntry{Date: Ms(now), Note: "Transaction Created.", Status: StatusCreated})
		txs[i] = t
	}
	return s, txs
}

// BenchmarkAdvancePending is Advance over 5,000 pending transfers with no
// subscription: three moves each to SETTLED. Compare with
// BenchmarkEncodePendingOnce, the cost of encoding each transaction's JSON
// once: events are references, so moving costs less than encoding.
func BenchmarkAdvancePending(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s, txs := pendingTransfers(5000)
		b.StartTimer()
		advance(s, time.Hour)
		b.StopTimer()
		if last := txs[len(txs)-1]; last.status != StatusSettled {
			b.Fatalf("after Advance the last transfer is %s, want SETTLED", last.status)
		}
		b.StartTimer()
	}
}

// BenchmarkEncodePendingOnce is the baseline of BenchmarkAdvancePending.
func BenchmarkEncodePendingOnce(b *testing.B) {
	s, txs := pendingTransfers(5000)
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range txs {
			s.store.lock()
			v := s.store.txView(t)
			s.store.unlock()
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	}
}
