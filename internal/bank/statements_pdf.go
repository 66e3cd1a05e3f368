package bank

import (
	"slices"
	"strconv"

	"github.com/synapsefake/synapsefake/internal/pdf"
)

// The statement PDF is written by hand with internal/pdf: PDF 1.4, US
// Letter pages, Helvetica and Helvetica-Bold. This file is its layout: the
// heading, the movements table over as many pages as it needs, and the
// footer. The cost is linear in the movements and bounded per line
// whatever the length of a name or a description.

// Page geometry, in points.
const (
	pdfPageWidth  = 612
	pdfPageHeight = 792
	pdfLeft       = 50
	pdfRight      = pdfPageWidth - 50
	pdfRowHeight  = 12
	pdfBottom     = 60 // no table row below this
)

// Table columns: x of the left-aligned ones, right edge of the amounts.
const (
	colDate        = pdfLeft
	colTransaction = 128
	colDescription = 232
	colAmountRight = 492
	colBalanceEdge = pdfRight
	descWidth      = 412 - colDescription // description text may not run past the amount column
)

// Tops of the movements table, below the heading on the first page and
// near the top edge on the others, and the rows each page holds.
const (
	pdfFirstTop  = 536
	pdfOtherTop  = 716
	pdfFirstRows = (pdfFirstTop-pdfBottom)/pdfRowHeight + 1
	pdfOtherRows = (pdfOtherTop-pdfBottom)/pdfRowHeight + 1
)

// pdfPages is how many pages a table of rows takes.
func pdfPages(rows int) int {
	if rows <= pdfFirstRows {
		return 1
	}
	return 1 + (rows-pdfFirstRows+pdfOtherRows-1)/pdfOtherRows
}

// pdf renders the statement as a PDF document: the platform, the account,
// the period, both balances and the movements table over as many pages as
// it needs, each page with a footer.
func (d statementDoc) pdf() []byte { return d.pdfInto(nil) }

// pdfInto is pdf rendering into buf's memory, from its start.
func (d statementDoc) pdfInto(buf []byte) []byte {
	var in, out Cents
	for _, l := range d.lines {
		if l.amount > 0 {
			in += l.amount
		} else {
			out -= l.amount
		}
	}
	// The table: the opening balance, a row per movement (or one saying
	// there is none), the ending balance.
	body := max(len(d.lines), 1)
	pages := pdfPages(body + 2)

	client := string(pdf.AppendWinAnsi(nil, d.clientName))
	kind := "Monthly statement"
	if d.rec.typ == StatementOnDemand {
		kind = "On-demand statement"
	}
	// Objects: 1 catalog, 2 page tree, 3-4 fonts, 5 info, then each page
	// and its content stream.
	w := pdf.NewWriter(slices.Grow(buf[:0], 4096+300*(body+2)), 5+2*pages)
	w.Buf = append(w.Buf, "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"...)
	w.Object("<< /Type /Catalog /Pages 2 0 R >>")
	w.Begin()
	w.Buf = append(w.Buf, "<< /Type /Pages /Kids ["...)
	for i := range pages {
		if i > 0 {
			w.Buf = append(w.Buf, ' ')
		}
		w.Buf = strconv.AppendInt(w.Buf, int64(6+2*i), 10)
		w.Buf = append(w.Buf, " 0 R"...)
	}
	w.Buf = append(w.Buf, "] /Count "...)
	w.Buf = strconv.AppendInt(w.Buf, int64(pages), 10)
	w.Buf = append(w.Buf, " >>\nendobj\n"...)
	w.Object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	w.Object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	w.Begin()
	w.Buf = append(w.Buf, "<< /Title ("...)
	w.Buf = pdf.AppendLiteral(w.Buf, "Statement "+d.rec.id)
	w.Buf = append(w.Buf, ") /Author ("...)
	w.Buf = pdf.AppendLiteral(w.Buf, client)
	w.Buf = append(w.Buf, ") /Creator (synapsefake) /Producer (synapsefake) /CreationDate ("+pdf.Date(d.rec.generated)+") >>\nendobj\n"...)

	var p pdf.Page
	row := 0 // the next row of the table
	for i := range pages {
		p.Content = p.Content[:0]
		top, rows := float64(pdfOtherTop), pdfOtherRows
		if i == 0 {
			top, rows = pdfFirstTop, pdfFirstRows
			d.pdfHeading(&p, client, kind, in, out)
		}
		// Table heading.
		pdf.Text(&p, pdf.FontBold, 8, colDate, top+16, "Date (UTC)")
		pdf.Text(&p, pdf.FontBold, 8, colTransaction, top+16, "Transaction")
		pdf.Text(&p, pdf.FontBold, 8, colDescription, top+16, "Description")
		pdf.TextRight(&p, pdf.FontBold, 8, colAmountRight, top+16, "Amount")
		pdf.TextRight(&p, pdf.FontBold, 8, colBalanceEdge, top+16, "Balance")
		p.Rule(pdfLeft, pdfRight, top+11, 0.5)
		y := top
		for end := min(row+rows, body+2); row < end; row++ {
			d.pdfRow(&p, row, body, y)
			y -= pdfRowHeight
		}
		p.Rule(pdfLeft, pdfRight, 44, 0.5)
		pdf.Fitted(&p, pdf.FontRegular, 7, pdfLeft, 32, 400, client+" - account statement "+d.rec.id)
		pdf.TextRight(&p, pdf.FontRegular, 7, pdfRight, 32, "Page "+strconv.Itoa(i+1)+" of "+strconv.Itoa(pages))

		w.Begin()
		w.Buf = append(w.Buf, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 "+strconv.Itoa(pdfPageWidth)+" "+strconv.Itoa(pdfPageHeight)+"] "+
			"/Resources << /Font << /"+pdf.FontRegular+" 3 0 R /"+pdf.FontBold+" 4 0 R >> >> /Contents "...)
		w.Buf = strconv.AppendInt(w.Buf, int64(7+2*i), 10)
		w.Buf = append(w.Buf, " 0 R >>\nendobj\n"...)
		w.Stream(p.Content)
	}
	return w.Finish(1, 5)
}

// pdfHeading sets the first page's heading: the platform, the account, the
// period and the balances.
func (d statementDoc) pdfHeading(p *pdf.Page, client, kind string, in, out Cents) {
	pdf.Fitted(p, pdf.FontBold, 18, pdfLeft, 740, pdfRight-pdfLeft, client)
	pdf.Text(p, pdf.FontRegular, 12, pdfLeft, 720, kind)
	pdf.TextRight(p, pdf.FontRegular, 8, pdfRight, 720, "Statement "+d.rec.id)
	p.Rule(pdfLeft, pdfRight, 712, 1)
	account := pdf.AppendWinAnsi(make([]byte, 0, len(d.nickname)+len(d.nodeType)+len(d.rec.nodeID)+4), d.nickname)
	account = append(account, " ("+d.nodeType+" "+d.rec.nodeID+")"...)
	y := 694.0
	for _, kv := range [][2]string{
		{"Account holder", string(pdf.AppendWinAnsi(nil, d.holder))},
		{"Account", string(account)},
		{"Period", string(pdf.AppendStamp(nil, d.rec.start)) + " to " + string(pdf.AppendStamp(nil, d.rec.end)) + " UTC"},
		{"Generated", string(pdf.AppendStamp(nil, d.rec.generated)) + " UTC"},
		{"Platform", client + " (client " + d.clientID + ")"},
	} {
		pdf.Text(p, pdf.FontBold, 9, pdfLeft, y, kv[0])
		pdf.Fitted(p, pdf.FontRegular, 9, pdfLeft+90, y, pdfRight-pdfLeft-90, kv[1])
		y -= 13
	}
	y -= 8
	for _, kv := range []struct {
		label string
		c     Cents
	}{
		{"Opening balance", d.rec.opening},
		{"Money in", in},
		{"Money out", -out},
		{"Ending balance", d.rec.ending},
	} {
		pdf.Text(p, pdf.FontBold, 10, pdfLeft, y, kv.label)
		p.MoneyRight(pdf.FontRegular, 10, pdfLeft+240, y, int64(kv.c))
		y -= 14
	}
}

// pdfRow sets row i of the movements table, whose body (the rows between
// the two balances) is body rows long, with its baseline at y.
func (d statementDoc) pdfRow(p *pdf.Page, i, body int, y float64) {
	switch {
	case i == 0 || i == body+1:
		desc, c := "Opening balance", d.rec.opening
		if i > 0 {
			desc, c = "Ending balance", d.rec.ending
		}
		pdf.Text(p, pdf.FontRegular, 8, colDate, y, "")
		pdf.Text(p, pdf.FontRegular, 7, colTransaction, y, "")
		pdf.Fitted(p, pdf.FontBold, 8, colDescription, y, descWidth, desc)
		p.MoneyRight(pdf.FontBold, 8, colBalanceEdge, y, int64(c))
	case len(d.lines) == 0:
		pdf.Text(p, pdf.FontRegular, 8, colDate, y, "")
		pdf.Text(p, pdf.FontRegular, 7, colTransaction, y, "")
		pdf.Fitted(p, pdf.FontRegular, 8, colDescription, y, descWidth, "No transactions in this period.")
	default:
		l := d.lines[i-1]
		p.Scratch = pdf.AppendStamp(p.Scratch[:0], l.date)
		pdf.Text(p, pdf.FontRegular, 8, colDate, y, p.Scratch)
		pdf.Text(p, pdf.FontRegular, 7, colTransaction, y, l.txID)
		p.Scratch = pdf.AppendWinAnsi(p.Scratch[:0], l.desc)
		pdf.Fitted(p, pdf.FontRegular, 8, colDescription, y, descWidth, p.Scratch)
		p.MoneyRight(pdf.FontRegular, 8, colAmountRight, y, int64(l.amount))
		p.MoneyRight(pdf.FontRegular, 8, colBalanceEdge, y, int64(l.balance))
	}
}
