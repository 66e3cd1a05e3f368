package bank

import (
	"runtime"
	"strconv"
	"testing"
	"time"
)

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestAdHocStatementsShareTheLedger: a statement keeps its balances and a
// place in its node's ledger, not a copy of its lines, so statements over a
// long ledger cost the same as over a short one. 200 statements over 2,000
// movements held 45 MiB when each copied its lines.
func TestAdHocStatementsShareTheLedger(t *testing.T) {
	const movements, statements, limit = 2_000, 200, 1 << 20
	f := newLedgerFixture(t, "Checking", 1_000_000)
	at := ledgerT0.Add(time.Minute)
	for i := range movements {
		f.move(movement{date: at, txID: "tx" + strconv.Itoa(i), kind: MovementDebit, desc: "Transfer to Savings", amount: -1})
		at = at.Add(time.Second)
	}
	ids := make([]string, 0, statements)
	before := heapInUse()
	for range statements {
		ids = append(ids, f.statement(StatementOnDemand, ledgerT0, at, at))
	}
	grown := int64(heapInUse()) - int64(before)
	runtime.KeepAlive(ids)
	t.Logf("%d statements over %d movements: heap grew by %d KiB", statements, movements, grown>>10)
	if grown > limit {
		t.Errorf("%d statements over %d movements grew the heap by %d KiB, want at most %d KiB",
			statements, movements, grown>>10, limit>>10)
	}
	st := f.s.store
	st.lock()
	last := st.statementPublic(st.book.byID[ids[statements-1]])
	st.unlock()
	if len(last.Movements) != movements+1 || last.EndingBalanceCents != 1_000_000-movements {
		t.Errorf("last statement: %d movements, ending %d; want %d and %d",
			len(last.Movements), last.EndingBalanceCents, movements+1, 1_000_000-movements)
	}
}

// TestLongAdvanceKeepsStatementsBounded: an Advance over centuries makes
// only each node's newest MaxMonthlyStatements monthly statements, so the
// statements held, and the heap, are what a few years' worth hold. Before
// the bound, 100 nodes over 250 years held 300,000 statements.
func TestLongAdvanceKeepsStatementsBounded(t *testing.T) {
	const nodes = 100
	s := newTestBank(testBankOptions{})
	u := mustAddUser(t, s, UserSeed{})
	var ids []string
	for range nodes {
		n := mustAddNode(t, s, u.ID, NodeSeed{BalanceCents: 100_00})
		ids = append(ids, n.ID)
	}
	count := func() int {
		st := s.store
		st.lock()
		defer st.unlock()
		return len(st.book.byID)
	}
	advance(s, 2*MaxMonthlyStatements*31*24*time.Hour) // ten years: the window is full
	if got, want := count(), nodes*MaxMonthlyStatements; got != want {
		t.Fatalf("after ten years %d statements held, want %d", got, want)
	}
	base := heapInUse()
	advance(s, 250*365*24*time.Hour)
	grown := int64(heapInUse()) - int64(base)
	t.Logf("250 years over %d nodes: heap grew by %d KiB", nodes, grown>>10)
	if got, want := count(), nodes*MaxMonthlyStatements; got != want {
		t.Errorf("after 250 more years %d statements held, want %d", got, want)
	}
	if grown > 1<<20 {
		t.Errorf("250 years over %d nodes grew the heap by %d KiB, want at most 1 MiB", nodes, grown>>10)
	}
	// Each node keeps its newest statements, in order, each opening where
	// the previous one ended, the newest one of last month.
	for _, id := range ids[:3] {
		list := s.StatementsOf(id)
		if len(list) != MaxMonthlyStatements {
			t.Fatalf("node %s: %d statements, want %d", id, len(list), MaxMonthlyStatements)
		}
		now := s.Now()
		wantLast := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		if now.Day() < 15 {
			wantLast = wantLast.AddDate(0, -1, 0)
		}
		for i, st := range list {
			wantStart := wantLast.AddDate(0, i-MaxMonthlyStatements, 0)
			if !st.Start.Equal(wantStart) || st.OpeningBalanceCents != 100_00 || st.EndingBalanceCents != 100_00 {
				t.Errorf("statement %d: %v from %v, balances %d..%d; want from %v, 10000..10000",
					i, st.Type, st.Start, st.OpeningBalanceCents, st.EndingBalanceCents, wantStart)
			}
		}
	}
}
