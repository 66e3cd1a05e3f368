package synapsefake

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The statement PDF is written by hand with the standard library: PDF 1.4,
// US Letter pages, the standard Type1 fonts Helvetica and Helvetica-Bold
// (which every reader has, so nothing is embedded), uncompressed content
// streams and a classic cross-reference table.

// Page geometry, in points.
const (
	pdfPageWidth  = 612
	pdfPageHeight = 792
	pdfLeft       = 50
	pdfRight      = pdfPageWidth - 50
	pdfRowHeight  = 12
	pdfBottom     = 60 // no table row below this
)

// Fonts of the resource dictionary every page shares.
const (
	fontRegular = "F1" // Helvetica
	fontBold    = "F2" // Helvetica-Bold
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

// helveticaWidths are the advance widths of Helvetica for the printable ASCII
// characters 32..126, in thousandths of the font size (from its AFM).
var helveticaWidths = [95]int{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space ... /
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0-9
	278, 278, 584, 584, 584, 556, 1015, // : ; < = > ? @
	667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, // A-M
	722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, // N-Z
	278, 278, 278, 469, 556, 333, // [ \ ] ^ _ `
	556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, // a-m
	556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, // n-z
	334, 260, 334, 584, // { | } ~
}

// pdfString maps s to WinAnsi bytes: printable ASCII and Latin-1 stay,
// anything else becomes '?'.
func pdfString(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 32 && r <= 126, r >= 0xA0 && r <= 0xFF:
			b.WriteByte(byte(r))
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

// textWidth is the width of WinAnsi text s set in Helvetica at size points
// (Helvetica-Bold is a little wider; the bold text here is never measured
// against a tight limit).
func textWidth(s string, size float64) float64 {
	total := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 32 && c <= 126 {
			total += helveticaWidths[c-32]
		} else {
			total += 556
		}
	}
	return float64(total) * size / 1000
}

// fit shortens s with "..." until it is at most width points wide.
func fit(s string, size, width float64) string {
	if textWidth(s, size) <= width {
		return s
	}
	for len(s) > 0 && textWidth(s+"...", size) > width {
		s = s[:len(s)-1]
	}
	return s + "..."
}

// escapePDF escapes a literal string's delimiters.
func escapePDF(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`, "\r", `\r`, "\n", `\n`).Replace(s)
}

func pt(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// pdfPage is the content stream of one page.
type pdfPage struct{ b bytes.Buffer }

// text sets s (already WinAnsi) with its baseline starting at x, y.
func (p *pdfPage) text(font string, size, x, y float64, s string) {
	fmt.Fprintf(&p.b, "BT /%s %s Tf %s %s Td (%s) Tj ET\n", font, pt(size), pt(x), pt(y), escapePDF(s))
}

// textRight sets s so that it ends at x.
func (p *pdfPage) textRight(font string, size, x, y float64, s string) {
	w := textWidth(s, size)
	if font == fontBold {
		w *= 1.06
	}
	p.text(font, size, x-w, y, s)
}

// rule draws a horizontal line.
func (p *pdfPage) rule(x1, x2, y, width float64) {
	fmt.Fprintf(&p.b, "%s w %s %s m %s %s l S\n", pt(width), pt(x1), pt(y), pt(x2), pt(y))
}

// pdfWriter writes numbered objects and remembers where each one starts.
type pdfWriter struct {
	buf     bytes.Buffer
	offsets []int // byte offset of object i+1
}

func (w *pdfWriter) object(body string) {
	w.offsets = append(w.offsets, w.buf.Len())
	fmt.Fprintf(&w.buf, "%d 0 obj\n%s\nendobj\n", len(w.offsets), body)
}

func (w *pdfWriter) stream(data []byte) {
	w.offsets = append(w.offsets, w.buf.Len())
	fmt.Fprintf(&w.buf, "%d 0 obj\n<< /Length %d >>\nstream\n", len(w.offsets), len(data))
	w.buf.Write(data)
	w.buf.WriteString("\nendstream\nendobj\n")
}

// finish writes the cross-reference table and the trailer.
func (w *pdfWriter) finish(root, info int) []byte {
	xref := w.buf.Len()
	fmt.Fprintf(&w.buf, "xref\n0 %d\n0000000000 65535 f \n", len(w.offsets)+1)
	for _, off := range w.offsets {
		fmt.Fprintf(&w.buf, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&w.buf, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n",
		len(w.offsets)+1, root, info, xref)
	return w.buf.Bytes()
}

// money formats cents as dollars with thousands separators: -123456 -> "-$1,234.56".
func money(c cents) string {
	d := decimal(c)
	sign := ""
	if strings.HasPrefix(d, "-") {
		sign, d = "-", d[1:]
	}
	whole, frac, _ := strings.Cut(d, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + "$" + b.String() + "." + frac
}

// pdfRow is one line of the movements table.
type pdfRow struct {
	date, tx, desc, amount, balance string
	bold                            bool
}

// pdf renders the statement as a PDF document: the platform, the account,
// the period, both balances and the movements table over as many pages as
// it needs, each page with a footer.
func (d statementDoc) pdf() []byte {
	const stamp = "2006-01-02 15:04"
	rows := []pdfRow{{desc: "Opening balance", balance: money(d.rec.opening), bold: true}}
	var in, out cents
	for _, l := range d.lines {
		if l.amount > 0 {
			in += l.amount
		} else {
			out -= l.amount
		}
		rows = append(rows, pdfRow{date: l.date.UTC().Format(stamp), tx: l.txID, desc: pdfString(l.desc),
			amount: money(l.amount), balance: money(l.balance)})
	}
	if len(d.lines) == 0 {
		rows = append(rows, pdfRow{desc: "No transactions in this period."})
	}
	rows = append(rows, pdfRow{desc: "Ending balance", balance: money(d.rec.ending), bold: true})

	// Paginate: the first page holds the heading, the others only the table.
	firstTop, otherTop := 536.0, 716.0
	var pages [][]pdfRow
	for rest, top := rows, firstTop; len(rest) > 0; top = otherTop {
		n := min(int((top-pdfBottom)/pdfRowHeight)+1, len(rest))
		pages = append(pages, rest[:n])
		rest = rest[n:]
	}

	client := pdfString(d.clientName)
	kind := "Monthly statement"
	if d.rec.typ == StatementOnDemand {
		kind = "On-demand statement"
	}
	contents := make([][]byte, len(pages))
	for i, pageRows := range pages {
		var p pdfPage
		top := otherTop
		if i == 0 {
			top = firstTop
			p.text(fontBold, 18, pdfLeft, 740, fit(client, 18, pdfRight-pdfLeft))
			p.text(fontRegular, 12, pdfLeft, 720, kind)
			p.textRight(fontRegular, 8, pdfRight, 720, "Statement "+d.rec.id)
			p.rule(pdfLeft, pdfRight, 712, 1)
			y := 694.0
			for _, kv := range [][2]string{
				{"Account holder", pdfString(d.holder)},
				{"Account", pdfString(d.nickname) + " (" + d.nodeType + " " + d.rec.nodeID + ")"},
				{"Period", d.rec.start.UTC().Format(stamp) + " to " + d.rec.end.UTC().Format(stamp) + " UTC"},
				{"Generated", d.rec.generated.UTC().Format(stamp) + " UTC"},
				{"Platform", client + " (client " + d.clientID + ")"},
			} {
				p.text(fontBold, 9, pdfLeft, y, kv[0])
				p.text(fontRegular, 9, pdfLeft+90, y, fit(kv[1], 9, pdfRight-pdfLeft-90))
				y -= 13
			}
			y -= 8
			for _, kv := range [][2]string{
				{"Opening balance", money(d.rec.opening)},
				{"Money in", money(in)},
				{"Money out", money(-out)},
				{"Ending balance", money(d.rec.ending)},
			} {
				p.text(fontBold, 10, pdfLeft, y, kv[0])
				p.textRight(fontRegular, 10, pdfLeft+240, y, kv[1])
				y -= 14
			}
		}
		// Table heading.
		p.text(fontBold, 8, colDate, top+16, "Date (UTC)")
		p.text(fontBold, 8, colTransaction, top+16, "Transaction")
		p.text(fontBold, 8, colDescription, top+16, "Description")
		p.textRight(fontBold, 8, colAmountRight, top+16, "Amount")
		p.textRight(fontBold, 8, colBalanceEdge, top+16, "Balance")
		p.rule(pdfLeft, pdfRight, top+11, 0.5)
		y := top
		for _, r := range pageRows {
			font := fontRegular
			if r.bold {
				font = fontBold
			}
			p.text(fontRegular, 8, colDate, y, r.date)
			p.text(fontRegular, 7, colTransaction, y, r.tx)
			p.text(font, 8, colDescription, y, fit(r.desc, 8, descWidth))
			if r.amount != "" {
				p.textRight(fontRegular, 8, colAmountRight, y, r.amount)
			}
			if r.balance != "" {
				p.textRight(font, 8, colBalanceEdge, y, r.balance)
			}
			y -= pdfRowHeight
		}
		p.rule(pdfLeft, pdfRight, 44, 0.5)
		p.text(fontRegular, 7, pdfLeft, 32, fit(client+" - account statement "+d.rec.id, 7, 400))
		p.textRight(fontRegular, 7, pdfRight, 32, fmt.Sprintf("Page %d of %d", i+1, len(pages)))
		contents[i] = p.b.Bytes()
	}

	// Objects: 1 catalog, 2 page tree, 3-4 fonts, 5 info, then each page
	// and its content stream.
	var w pdfWriter
	w.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	kids := make([]string, len(pages))
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 6+2*i)
	}
	w.object("<< /Type /Catalog /Pages 2 0 R >>")
	w.object(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)))
	w.object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	w.object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	w.object(fmt.Sprintf("<< /Title (%s) /Author (%s) /Creator (synapsefake) /Producer (synapsefake) /CreationDate (%s) >>",
		escapePDF("Statement "+d.rec.id), escapePDF(client), pdfDate(d.rec.generated)))
	for i, c := range contents {
		w.object(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] "+
			"/Resources << /Font << /%s 3 0 R /%s 4 0 R >> >> /Contents %d 0 R >>",
			pdfPageWidth, pdfPageHeight, fontRegular, fontBold, 7+2*i))
		w.stream(c)
	}
	return w.finish(1, 5)
}

// pdfDate is a PDF date string in UTC: D:YYYYMMDDHHmmSSZ.
func pdfDate(t time.Time) string { return "D:" + t.UTC().Format("20060102150405") + "Z" }
