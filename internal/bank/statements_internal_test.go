package bank

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/statements")

// ledgerT0 is when the ledger fixtures' nodes are opened.
var ledgerT0 = time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)

// ledgerFixture is a bank whose users, nodes and ledger are written
// straight into the store with fixed ids, so its statements depend on the
// statements code alone.
type ledgerFixture struct {
	s *Bank
	n *nodeRecord
}

func newLedgerFixture(tb testing.TB, nickname string, initial Cents) ledgerFixture {
	tb.Helper()
	s := newTestBank(testBankOptions{clientName: `Acme (Payments) \ Ltd`})
	st := s.store
	st.lock()
	defer st.unlock()
	u := &userRecord{id: "5747a7e1d0c0ffee0000aaaa", created: ledgerT0, legalNames: []string{"Sam (the) Sender\\"}}
	st.users[u.id] = u
	st.userOrder = append(st.userOrder, u.id)
	n := &nodeRecord{id: "5747a7e1d0c0ffee0000bbbb", userID: u.id, typ: reference.NodeDepositUS, nickname: nickname,
		allowed: AllowedCreditAndDebit, balance: initial, currency: "USD", isActive: true, created: ledgerT0}
	st.nodes[n.id] = n
	u.nodeIDs = append(u.nodeIDs, n.id)
	return ledgerFixture{s: s, n: n}
}

// move records m on the node's ledger and its balance, as move does.
func (f ledgerFixture) move(m movement) {
	st := f.s.store
	st.lock()
	defer st.unlock()
	st.addMovement(f.n, m)
	f.n.balance += m.amount
}

// statement makes and generates a statement of the node for [start, end].
func (f ledgerFixture) statement(typ string, start, end, now time.Time) string {
	st := f.s.store
	st.lock()
	defer st.unlock()
	rec := st.newStatement(now, f.n, typ, start, end)
	st.generate(rec, now)
	return rec.id
}

// files renders the statement's three files and its public copy, with
// the statement's generated id replaced by a fixed one.
func (f ledgerFixture) files(id string) map[string][]byte {
	st := f.s.store
	st.lock()
	doc := st.statementDoc(st.book.byID[id])
	st.unlock()
	var public Statement
	for _, s := range f.s.StatementsOf(f.n.id) {
		if s.ID == id {
			public = s
		}
	}
	pub, _ := json.MarshalIndent(public, "", "\t")
	served := func(file string) []byte { // as handleStatementFile serves it
		var body []byte
		doc.WithFile(file, func(b []byte, _ string) { body = bytes.Clone(b) })
		return body
	}
	out := map[string][]byte{"csv": served("statement.csv"), "json": served("statement.json"), "pdf": served("statement.pdf"), "public.json": pub}
	for k, b := range out {
		out[k] = bytes.ReplaceAll(b, []byte(id), []byte("5747a7e1d0c0ffee0000cccc"))
	}
	return out
}

// ledgerDescriptions exercise the PDF's escaping, WinAnsi mapping and fitting.
var ledgerDescriptions = []string{
	"Transfer to Savings",
	`Transfer to (Savings) \ back\slash`,
	"Transfer from caf\u00e9 \u2014 \U0001F600 unicode",
	"Line\nbreak and\rreturn",
	"Fee: " + strings.Repeat("W", 200),
	strings.Repeat("(i)", 80),
	"Return R01: reversal of transfer from Pat",
}

// TestStatementFilesGolden holds the statement files to the bytes they had
// when statements copied their ledger lines: the shared ledger and the
// linear PDF writer must not change a byte. go test -run
// TestStatementFilesGolden -update rewrites them.
func TestStatementFilesGolden(t *testing.T) {
	kinds := []string{MovementDebit, MovementCredit, MovementFee, MovementReturn}
	for _, tc := range []struct {
		name  string
		build func(t *testing.T) (ledgerFixture, string)
	}{
		{"multipage", func(t *testing.T) (ledgerFixture, string) {
			f := newLedgerFixture(t, "Checking (main) \\ "+strings.Repeat("long nickname ", 30), 100_000)
			at := ledgerT0.Add(time.Hour)
			for i := range 90 {
				amount := Cents(125 + 37*i)
				if i%3 == 0 {
					amount = -amount
				}
				f.move(movement{date: at, txID: "tx" + strings.Repeat("0", 20) + string(rune('a'+i%26)) + string(rune('a'+i/26)),
					kind: kinds[i%len(kinds)], desc: ledgerDescriptions[i%len(ledgerDescriptions)], amount: amount})
				if i%4 != 1 { // some movements share a date
					at = at.Add(17 * time.Minute)
				}
				if i == 50 { // recorded late, dated earlier
					f.move(movement{date: at.Add(-5 * time.Hour), txID: "late", kind: MovementCredit, desc: "Late credit", amount: 999})
				}
			}
			id := f.statement(StatementOnDemand, ledgerT0.Add(3*time.Hour), at.Add(-2*time.Hour), at)
			// After generation: neither a later movement nor one dated
			// inside the period shows on the statement.
			f.move(movement{date: at.Add(time.Hour), txID: "after", kind: MovementDebit, desc: "After", amount: -5})
			f.move(movement{date: ledgerT0.Add(4 * time.Hour), txID: "backdated", kind: MovementDebit, desc: "Backdated", amount: -7})
			return f, id
		}},
		{"initial balance in period", func(t *testing.T) (ledgerFixture, string) {
			f := newLedgerFixture(t, "Savings", 4_200)
			f.move(movement{date: ledgerT0, txID: "same-instant", kind: MovementCredit, desc: "Credit at opening", amount: 100})
			f.move(movement{date: ledgerT0.Add(time.Minute), txID: "t2", kind: MovementDebit, desc: "Debit", amount: -300})
			return f, f.statement(StatementOnDemand, ledgerT0.Add(-time.Hour), ledgerT0.Add(time.Hour), ledgerT0.Add(time.Hour))
		}},
		{"empty month", func(t *testing.T) (ledgerFixture, string) {
			f := newLedgerFixture(t, "Empty", 0)
			f.move(movement{date: ledgerT0.Add(40 * 24 * time.Hour), txID: "later", kind: MovementCredit, desc: "Later", amount: 100})
			end := time.Date(2026, time.April, 1, 0, 0, 0, 0, time.UTC)
			return f, f.statement(StatementMonthly, end.AddDate(0, -1, 0), end.Add(-time.Millisecond), end.AddDate(0, 0, 14))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, id := tc.build(t)
			for ext, got := range f.files(id) {
				file := filepath.Join("testdata", "statements", strings.ReplaceAll(tc.name, " ", "-")+"."+ext)
				if *updateGolden {
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(file, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from %s (%d bytes, want %d); first difference at byte %d",
						ext, file, len(got), len(want), firstDiff(got, want))
				}
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestStatementPDFLongNickname: a node named before nicknames were bounded
// (made here in the store, as the API now refuses it) still gets a PDF
// that shows its name cut to the line, whose size and allocations do not
// grow with the name.
func TestStatementPDFLongNickname(t *testing.T) {
	render := func(nickname string) statementDoc {
		f := newLedgerFixture(t, nickname, 100)
		id := f.statement(StatementOnDemand, ledgerT0, ledgerT0.Add(time.Hour), ledgerT0.Add(time.Hour))
		st := f.s.store
		st.lock()
		defer st.unlock()
		return st.statementDoc(st.book.byID[id])
	}
	short, long := render("Checking"), render(strings.Repeat("Checking (main) ", 4<<10)) // 64 KiB

	pdf := long.pdf()
	const account = "(Account) Tj ET\nBT /F1 9 Tf 140 681 Td ("
	i := bytes.Index(pdf, []byte(account))
	if i < 0 {
		t.Fatalf("no Account line in the PDF")
	}
	shown, _, _ := strings.Cut(string(pdf[i+len(account):]), ") Tj ET\n")
	if want := strings.Repeat(`Checking \(main\) `, 6) + "..."; shown != want {
		t.Errorf("Account shows %q, want %q", shown, want)
	}
	if max := len(short.pdf()) + 512; len(pdf) > max {
		t.Errorf("PDF is %d bytes, want at most %d", len(pdf), max)
	}
	// Two: the name mapped to WinAnsi, then as a string.
	want := testing.AllocsPerRun(1, func() { short.pdf() }) + 2
	if allocs := testing.AllocsPerRun(1, func() { long.pdf() }); allocs > want {
		t.Errorf("rendering took %v allocations, want at most %v", allocs, want)
	}
}

// TestWithFileRecycles serves a statement's files one after another, so
// that each renders into the buffer the one before used: each is the file
// rendered afresh.
func TestWithFileRecycles(t *testing.T) {
	f := newLedgerFixture(t, "Checking", 1_000)
	at := ledgerT0.Add(time.Hour)
	for i, desc := range ledgerDescriptions {
		f.move(movement{date: at.Add(time.Duration(i) * time.Minute), txID: "69b5a0c2d1e0f0000000000" + strconv.Itoa(i), kind: MovementDebit, desc: desc, amount: -Cents(100 + i)})
	}
	id := f.statement(StatementOnDemand, ledgerT0, at.Add(time.Hour), at.Add(time.Hour))
	st := f.s.store
	st.lock()
	doc := st.statementDoc(st.book.byID[id])
	st.unlock()
	want := map[string][]byte{"statement.csv": doc.csv(), "statement.json": doc.json(), "statement.pdf": doc.pdf()}
	types := map[string]string{"statement.csv": "text/csv; charset=utf-8", "statement.json": "application/json", "statement.pdf": "application/pdf"}
	for i := range 12 {
		file := []string{"statement.pdf", "statement.csv", "statement.json", "statement.pdf", "statement.pdf", "statement.csv"}[i%6]
		doc.WithFile(file, func(body []byte, ctype string) {
			if !bytes.Equal(body, want[file]) || ctype != types[file] {
				t.Errorf("serving %d, %s: %d bytes (%s), want the %d bytes rendered afresh (%s)", i, file, len(body), ctype, len(want[file]), types[file])
			}
		})
	}
}

// TestFirstMonthlyLook: a new server's store has no clock-driven work until a
// node is made, and then none before the first 15th that node's monthly
// statements can fall on, so that its first requests skip the statements
// pass; a store restored without a look made looks at once.
func TestFirstMonthlyLook(t *testing.T) {
	s := newTestBank(testBankOptions{})
	due := func() int64 {
		defer s.store.lock().unlock()
		return s.store.nextDue()
	}
	if got := due(); got != math.MaxInt64 {
		t.Errorf("empty store: due at %d, want never", got)
	}
	u, err := s.AddUser(UserSeed{})
	if err != nil {
		t.Fatal(err)
	}
	if got := due(); got != math.MaxInt64 {
		t.Errorf("a user and no node: due at %d, want never", got)
	}
	if _, err := s.AddNode(u.ID, NodeSeed{Nickname: "Checking"}); err != nil {
		t.Fatal(err)
	}
	// Created 2026-04-14: its first statement (April's) is made on May 15.
	if got, want := due(), time.Date(2026, time.May, 15, 0, 0, 0, 0, time.UTC).UnixMilli(); got != want {
		t.Errorf("a node made now: due at %v, want %v", time.UnixMilli(got).UTC(), time.UnixMilli(want).UTC())
	}
	runDueFast(s)
	if !s.store.book.checked.IsZero() {
		t.Errorf("a request before May 15 looked for monthly statements (checked %v)", s.store.book.checked)
	}
	var doc bytes.Buffer
	if err := snapshot(s, &doc); err != nil {
		t.Fatal(err)
	}
	was := due()
	s = newTestBank(testBankOptions{})
	if err := restore(s, &doc); err != nil {
		t.Fatal(err)
	}
	if got := due(); got != was {
		t.Errorf("restored into a new server: due at %v, want %v as before", time.UnixMilli(got).UTC(), time.UnixMilli(was).UTC())
	}
}

// TestFirstMonthlyLookAfterRestore: a state saved before its first look for
// monthly statements, restored into a server that has made no node, still
// gets its nodes' statements.
func TestFirstMonthlyLookAfterRestore(t *testing.T) {
	saved := newTestBank(testBankOptions{})
	u, err := saved.AddUser(UserSeed{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := saved.AddNode(u.ID, NodeSeed{Nickname: "Checking"})
	if err != nil {
		t.Fatal(err)
	}
	var doc bytes.Buffer
	if err := snapshot(saved, &doc); err != nil {
		t.Fatal(err)
	}
	s := newTestBank(testBankOptions{})
	if err := restore(s, &doc); err != nil {
		t.Fatal(err)
	}
	advance(s, 32*24*time.Hour) // past May 15
	if got := len(s.StatementsOf(n.ID)); got != 1 {
		t.Errorf("restored node: %d monthly statements on May 16, want 1 (April's)", got)
	}
}
