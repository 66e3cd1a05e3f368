package bank

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/benchpair"
)

// benchStatement is a generated statement of 10,000 movements, the
// fixture BenchmarkStatementPDF and BenchmarkStatementCSV share.
func benchStatement(b *testing.B, nickname string) (ledgerFixture, string) {
	b.Helper()
	f := newLedgerFixture(b, nickname, 1_000_000)
	at := ledgerT0.Add(time.Hour)
	for i := range 10_000 {
		amount := Cents(100 + i%5000)
		if i%2 == 0 {
			amount = -amount
		}
		f.move(movement{date: at, txID: "69b5a0c2d1e0f00000" + strconv.Itoa(100000+i), kind: MovementDebit,
			desc: "Transfer to Savings - invoice " + strconv.Itoa(i), amount: amount})
		at = at.Add(time.Minute)
	}
	return f, f.statement(StatementOnDemand, ledgerT0, at, at)
}

// benchRender measures serving one file of the statement as the handler
// does: copying it out under the lock, then rendering it.
func benchRender(b *testing.B, f ledgerFixture, id, file string) {
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		size = renderOnce(f, id, file)
	}
	b.ReportMetric(float64(size), "bytes/file")
}

// BenchmarkStatementPDF renders the PDF of a 10,000-movement statement;
// compare with BenchmarkStatementCSV over the same statement.
func BenchmarkStatementPDF(b *testing.B) {
	f, id := benchStatement(b, "Checking")
	benchRender(b, f, id, "statement.pdf")
}

// BenchmarkStatementCSV renders the CSV of the statement
// BenchmarkStatementPDF renders: the baseline of the PDF.
func BenchmarkStatementCSV(b *testing.B) {
	f, id := benchStatement(b, "Checking")
	benchRender(b, f, id, "statement.csv")
}

// BenchmarkStatement serves the files of one 10,000-movement statement:
// "pdf" and "csv" each alone, and "paired", one of each per iteration in
// alternating order so that both share the machine's load, which reports
// x, the ratio of the PDF's median time to the CSV's.
func BenchmarkStatement(b *testing.B) {
	f, id := benchStatement(b, "Checking")
	pdf := func() { renderOnce(f, id, "statement.pdf") }
	csv := func() { renderOnce(f, id, "statement.csv") }
	b.Run("pdf", func(b *testing.B) { benchRender(b, f, id, "statement.pdf") })
	b.Run("csv", func(b *testing.B) { benchRender(b, f, id, "statement.csv") })
	b.Run("paired", func(b *testing.B) { benchpair.Run(b, pdf, csv) })
}

// renderOnce serves one file of the statement, as handleStatementFile
// does without the HTTP, and says its size.
func renderOnce(f ledgerFixture, id, file string) int {
	st := f.s.store
	st.lock()
	doc := st.statementDoc(st.book.byID[id])
	st.unlock()
	size := 0
	doc.WithFile(file, func(body []byte, _ string) { size = len(body) })
	return size
}

// BenchmarkPDFNicknameLength renders a one-movement statement of nodes
// named from 16 bytes to 64 KiB (made in the store: the API takes 256
// characters): the cost grows with the name's length at most linearly.
func BenchmarkPDFNicknameLength(b *testing.B) {
	for _, size := range []int{16, 1 << 10, 8 << 10, 64 << 10} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			f := newLedgerFixture(b, strings.Repeat("Checking (main) ", size/16), 100)
			id := f.statement(StatementOnDemand, ledgerT0, ledgerT0.Add(time.Hour), ledgerT0.Add(time.Hour))
			benchRender(b, f, id, "statement.pdf")
		})
	}
}
