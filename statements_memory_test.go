package synapsefake

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
	st.mu.Lock()
	last := st.statementPublic(st.book.byID[ids[statements-1]])
	st.mu.Unlock()
	if len(last.Movements) != movements+1 || last.EndingBalanceCents != 1_000_000-movements {
		t.Errorf("last statement: %d movements, ending %d; want %d and %d",
			len(last.Movements), last.EndingBalanceCents, movements+1, 1_000_000-movements)
	}
}
