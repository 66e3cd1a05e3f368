package bank

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"
)

// flatAdd is how a node's ledger was kept before it had chunks: one
// slice, each movement inserted at its date's place.
func flatAdd(l []ledgerEntry, m movement) []ledgerEntry {
	i := len(l)
	for i > 0 && l[i-1].date.After(m.date) {
		i--
	}
	return slices.Insert(l, i, ledgerEntry{m, len(l)})
}

// flatPeriod is the index range of the entries of all dated from start
// to end, both inclusive, found as inPeriod found it before the ledger
// had chunks.
func flatPeriod(all []ledgerEntry, start, end time.Time) (lo, hi int) {
	lo, _ = slices.BinarySearchFunc(all, start, func(e ledgerEntry, t time.Time) int { return e.date.Compare(t) })
	hi, _ = slices.BinarySearchFunc(all[lo:], end, func(e ledgerEntry, t time.Time) int {
		if e.date.After(t) {
			return 1
		}
		return -1
	})
	return lo, lo + hi
}

// flatten is the entries of l in order, nil for a nil ledger.
func flatten(l ledger) []ledgerEntry {
	if l.chunks == nil {
		return nil
	}
	out := []ledgerEntry{}
	for e := range l.entries(0, l.len()) {
		out = append(out, *e)
	}
	return out
}

// checkChunks fails t unless every chunk of l but the last is full and
// the last is not empty.
func checkChunks(t *testing.T, l ledger) {
	t.Helper()
	for i, ch := range l.chunks {
		if last := i == len(l.chunks)-1; (!last && len(ch) != ledgerChunk) || (last && len(ch) == 0) {
			t.Fatalf("chunk %d of %d holds %d entries", i, len(l.chunks), len(ch))
		}
	}
}

// movementsAt are movements dated the given minutes after ledgerT0, in
// recording order, each with its own transaction id.
func movementsAt(minutes []int) []movement {
	out := make([]movement, len(minutes))
	for i, m := range minutes {
		out[i] = movement{date: ledgerT0.Add(time.Duration(m) * time.Minute), txID: "tx" + strconv.Itoa(i),
			kind: MovementCredit, desc: "Movement " + strconv.Itoa(i), amount: Cents(i + 1)}
	}
	return out
}

// rising are n dates 10 minutes apart, from 0: a date 10*k-5 goes at
// index k, a date 10*k right after index k.
func rising(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 10 * i
	}
	return out
}

func TestLedgerAdd(t *testing.T) {
	const c = ledgerChunk
	random := func(n int) []int { // mostly rising, one in eight a little earlier, some equal
		r := rand.New(rand.NewPCG(1, 2))
		out := make([]int, n)
		for i := range out {
			out[i] = i / 2
			if r.IntN(8) == 0 {
				out[i] -= r.IntN(40)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		minutes []int
		lastAt  int // where the last movement goes; -1 for anywhere
	}{
		{"one", []int{0}, 0},
		{"appends across chunk boundaries", rising(3*c + 5), 3*c + 4},
		{"fills a chunk exactly", rising(2 * c), 2*c - 1},
		{"equal dates across chunk boundaries", make([]int, 2*c+3), 2*c + 2},
		{"earlier date near the end", append(rising(c/2), 10*(c/2-3)-5), c/2 - 3},
		{"earlier date in the chunk before the last", append(rising(c+2), 10*(c-3)-5), c - 3},
		{"earlier date into a full last chunk", append(rising(2*c), 10*(2*c-1)-5), 2*c - 1},
		{"earlier date at a chunk's first place", append(rising(2*c+4), 10*c-5), c},
		{"before every entry of three chunks", append(rising(2*c+1), -5), 0},
		{"equal to an earlier date: after it", append(rising(c+1), 10*(c-1)), c},
		{"several earlier dates in a row", append(rising(c+3), 10*(c-1)-5, 10*(c-1)-5, 10*(c-2)-5), c - 2},
		{"mostly rising, some earlier", random(5*c + 17), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l ledger
			var flat []ledgerEntry
			for _, m := range movementsAt(tc.minutes) {
				l.add(m)
				flat = flatAdd(flat, m)
			}
			checkChunks(t, l)
			got := flatten(l)
			if l.len() != len(got) || !slices.Equal(got, flat) {
				t.Fatalf("the ledger holds %d entries (len %d), not the %d the flat slice holds in its order", len(got), l.len(), len(flat))
			}
			for i := 1; i < len(got); i++ {
				if p, e := got[i-1], got[i]; p.date.After(e.date) || (p.date.Equal(e.date) && p.seq > e.seq) {
					t.Fatalf("entry %d (%s, seq %d) is before entry %d (%s, seq %d)", i-1, p.date, p.seq, i, e.date, e.seq)
				}
			}
			n := len(tc.minutes)
			if at := slices.IndexFunc(got, func(e ledgerEntry) bool { return e.seq == n-1 }); tc.lastAt >= 0 && at != tc.lastAt {
				t.Errorf("the last movement is at %d, want %d", at, tc.lastAt)
			}
			for i, e := range got {
				if want := "tx" + strconv.Itoa(e.seq); e.txID != want {
					t.Fatalf("entry %d has seq %d but is movement %s", i, e.seq, e.txID)
				}
			}
		})
	}
}

func TestLedgerPeriod(t *testing.T) {
	// Four movements a minute, those of minute 64 across the first chunk
	// boundary (indexes 254 to 257), and some recorded late.
	minutes := make([]int, 3*ledgerChunk+7)
	for i := range minutes {
		minutes[i] = (i + 2) / 4
		if i%50 == 49 {
			minutes[i] -= 3
		}
	}
	var l ledger
	var flat []ledgerEntry
	for _, m := range movementsAt(minutes) {
		l.add(m)
		flat = flatAdd(flat, m)
	}
	at := func(m float64) time.Time { return ledgerT0.Add(time.Duration(m * float64(time.Minute))) }
	for _, tc := range []struct {
		name       string
		start, end time.Time
	}{
		{"every entry", at(-60), at(1e6)},
		{"before every entry", at(-60), at(-1)},
		{"after every entry", at(1e5), at(1e6)},
		{"one minute across a chunk boundary", at(64), at(64)},
		{"from the first entry", at(0), at(10)},
		{"to the last entry", at(150), at(float64(minutes[len(minutes)-1]))},
		{"across two chunk boundaries", at(63), at(129)},
		{"between dates", at(63.5), at(128.5)},
		{"within one date's gap", at(63.2), at(63.7)},
		{"ending before it starts", at(100), at(90)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := l.period(tc.start, tc.end)
			wantLo, wantHi := flatPeriod(flat, tc.start, tc.end)
			if lo != wantLo || hi != wantHi {
				t.Fatalf("period is [%d, %d), the flat slice's [%d, %d)", lo, hi, wantLo, wantHi)
			}
			var got []ledgerEntry
			for e := range l.entries(lo, hi) {
				got = append(got, *e)
			}
			if want := flat[wantLo:wantHi]; !slices.Equal(got, want) {
				t.Errorf("the period's %d entries are not the flat slice's %d", len(got), len(want))
			}
		})
	}
	t.Run("stopping early", func(t *testing.T) {
		var n int
		for range l.entries(ledgerChunk-2, l.len()) {
			if n++; n == 3 {
				break
			}
		}
		if n != 3 {
			t.Errorf("yielded %d entries before the stop, want 3", n)
		}
	})
}

// TestLedgerEntryIsFlat: a ledger entry holds only times, strings and
// numbers, so that ledger.clone's plain copy of the entries is a deep
// copy.
func TestLedgerEntryIsFlat(t *testing.T) {
	var check func(path string, t reflect.Type) string
	check = func(path string, typ reflect.Type) string {
		switch {
		case typ == timeType || typ.Kind() == reflect.String || (typ.Kind() >= reflect.Bool && typ.Kind() <= reflect.Complex128):
			return ""
		case typ.Kind() == reflect.Struct:
			for i := range typ.NumField() {
				if bad := check(path+"."+typ.Field(i).Name, typ.Field(i).Type); bad != "" {
					return bad
				}
			}
			return ""
		}
		return path + " is a " + typ.String()
	}
	if bad := check("ledgerEntry", reflect.TypeFor[ledgerEntry]()); bad != "" {
		t.Errorf("%s: ledger.clone must copy it deep", bad)
	}
}

// TestLedgerState: a ledger is saved as the flat array a slice of its
// entries was saved as, reads back from it (as the documents saved before
// it had chunks), and its saved copy shares nothing with it.
func TestLedgerState(t *testing.T) {
	encode := func(t *testing.T, v any) string {
		t.Helper()
		var buf bytes.Buffer
		if err := EncodeValue(&buf, reflect.ValueOf(v).Elem()); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for _, tc := range []struct {
		name    string
		minutes []int // nil for a nil ledger
	}{
		{"nil", nil},
		{"empty", []int{}},
		{"one", []int{5}},
		{"a chunk and a half, with earlier dates", append(rising(ledgerChunk*3/2), 10*(ledgerChunk-1)-5, 7)},
		{"three chunks exactly", rising(3 * ledgerChunk)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var flat []ledgerEntry
			if tc.minutes != nil {
				flat = []ledgerEntry{}
			}
			l := ledgerOf(flat)
			for _, m := range movementsAt(tc.minutes) {
				l.add(m)
				flat = flatAdd(flat, m)
			}
			want := encode(t, &flat)
			if got := encode(t, &l); got != want {
				t.Fatalf("saved as\n%.300s\nwant the flat slice's\n%.300s", got, want)
			}
			if tc.minutes != nil {
				var items []json.RawMessage
				if err := json.Unmarshal([]byte(want), &items); err != nil || len(items) != len(tc.minutes) {
					t.Fatalf("the flat slice's document is not an array of %d: %v", len(tc.minutes), err)
				}
			}

			var back ledger
			if err := DecodeValue([]byte(want), reflect.ValueOf(&back).Elem()); err != nil {
				t.Fatal(err)
			}
			checkChunks(t, back)
			if !slices.Equal(flatten(back), flat) || (back.chunks == nil) != (flat == nil) {
				t.Fatalf("read back %d entries (nil %v), want the %d saved (nil %v)", back.len(), back.chunks == nil, len(flat), flat == nil)
			}
			if got := encode(t, &back); got != want {
				t.Fatal("read back, the ledger saves otherwise")
			}

			c := deepCopy(reflect.ValueOf(&l).Elem()).Interface().(ledger)
			if got := encode(t, &c); got != want {
				t.Fatal("the copy saves otherwise than the ledger")
			}
			if l.len() > 0 {
				l.at(0).desc = "changed"
				l.at(l.len()-1).amount++
			}
			// Movements added to the ledger and to what was read back,
			// one dated before the last chunk's start.
			for _, m := range movementsAt([]int{10 * ledgerChunk, 10*(ledgerChunk-2) - 5, 1}) {
				l.add(m)
				back.add(m)
				flat = flatAdd(flat, m)
			}
			if got := encode(t, &c); got != want {
				t.Error("changing the ledger changed its copy")
			}
			checkChunks(t, back)
			if !slices.Equal(flatten(back), flat) {
				t.Error("a ledger read back records movements otherwise than the flat slice")
			}
		})
	}
}

// TestLedgerSnapshot saves a bank whose node's ledger spans chunks: the
// document holds the ledger as the flat array the flat slice was saved
// as, and another bank restores it into the same state and statements.
func TestLedgerSnapshot(t *testing.T) {
	newServer := func() *Bank { return newTestBank(testBankOptions{}) }
	s := newServer()
	u := mustAddUser(t, s, UserSeed{})
	nodeID := mustAddNode(t, s, u.ID, NodeSeed{BalanceCents: 1_000_000}).ID
	var flat []ledgerEntry
	func() {
		st := s.store
		st.lock()
		defer st.unlock()
		n := st.nodes[nodeID]
		at := n.created.In(time.FixedZone("EST", -5*3600)).Add(time.Minute) // stored in UTC
		for i := range 2*ledgerChunk + 10 {
			d := at.Add(time.Duration(i) * time.Minute)
			if i%100 == 99 {
				d = d.Add(-150 * time.Minute) // recorded late, dated 150 entries back
			}
			m := movement{date: d, kind: MovementFunds, desc: "Funds " + strconv.Itoa(i), amount: Cents(i%7 - 3)}
			st.addMovement(n, m)
			n.balance += m.amount
			if m.amount != 0 {
				m.date = m.date.UTC()
				flat = flatAdd(flat, m)
			}
		}
		rec := st.newStatement(at.Add(20*time.Hour), n, StatementOnDemand, at.Add(time.Hour), at.Add(5*time.Hour))
		st.generate(rec, at.Add(20*time.Hour))
	}()

	var doc bytes.Buffer
	if err := snapshot(s, &doc); err != nil {
		t.Fatal(err)
	}
	var saved struct {
		Store struct {
			Book struct{ Ledger map[string]json.RawMessage }
		}
	}
	if err := json.Unmarshal(doc.Bytes(), &saved); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := EncodeValue(&want, reflect.ValueOf(&flat).Elem()); err != nil {
		t.Fatal(err)
	}
	if got := saved.Store.Book.Ledger[nodeID]; !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("the document's ledger is\n%.300s\nwant the flat slice's\n%.300s", got, want.Bytes())
	}

	other := newServer()
	if err := restore(other, bytes.NewBuffer(doc.Bytes())); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := snapshot(other, &again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), doc.Bytes()) {
		t.Errorf("the restored server saves otherwise, from byte %d", firstDiff(again.Bytes(), doc.Bytes()))
	}
	got, wantStatements := other.StatementsOf(nodeID), s.StatementsOf(nodeID)
	if len(wantStatements) != 1 || len(wantStatements[0].Movements) < 200 {
		t.Fatalf("the statement shows %d movements, want some 240", len(wantStatements[0].Movements))
	}
	if !reflect.DeepEqual(got, wantStatements) {
		t.Errorf("the restored server's statements differ")
	}
}

// BenchmarkLedgerAppend records 1,000,000 movements on one node's ledger,
// one in a hundred dated a little before the last ones: "flat" in one
// slice, as before the ledger had chunks, "chunked" in a ledger.
func BenchmarkLedgerAppend(b *testing.B) {
	const n = 1_000_000
	moves := make([]movement, n)
	for i := range moves {
		d := ledgerT0.Add(time.Duration(i) * time.Millisecond)
		if i%100 == 99 {
			d = d.Add(-3 * time.Millisecond)
		}
		moves[i] = movement{date: d, txID: "69b5a0c2d1e0f00000000000", kind: MovementDebit, desc: "Transfer to Savings", amount: -1}
	}
	b.Run("flat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var l []ledgerEntry
			for _, m := range moves {
				l = flatAdd(l, m)
			}
		}
	})
	b.Run("chunked", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var l ledger
			for _, m := range moves {
				l.add(m)
			}
		}
	})
}
