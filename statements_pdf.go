package synapsefake

import (
	"math"
	"slices"
	"strconv"
	"time"
)

// The statement PDF is written by hand with the standard library: PDF 1.4,
// US Letter pages, the standard Type1 fonts Helvetica and Helvetica-Bold
// (which every reader has, so nothing is embedded), uncompressed content
// streams and a classic cross-reference table. Everything is appended to
// one buffer, and text is measured and cut in one pass that stops at the
// width it has to fit, so the cost is linear in the movements and bounded
// per line whatever the length of a name or a description.

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

// Tops of the movements table, below the heading on the first page and
// near the top edge on the others, and the rows each page holds.
const (
	pdfFirstTop  = 536
	pdfOtherTop  = 716
	pdfFirstRows = (pdfFirstTop-pdfBottom)/pdfRowHeight + 1
	pdfOtherRows = (pdfOtherTop-pdfBottom)/pdfRowHeight + 1
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

// ellipsis ends text cut to fit; ellipsisWidth is its width in thousandths.
const (
	ellipsis      = "..."
	ellipsisWidth = 3 * 278
)

// pdfText is WinAnsi text, held either way so that it is never copied to
// change its type.
type pdfText interface{ ~string | ~[]byte }

// appendWinAnsi appends s mapped to WinAnsi bytes: printable ASCII and
// Latin-1 stay, anything else becomes '?'.
func appendWinAnsi(dst []byte, s string) []byte {
	plain := true // printable ASCII, the usual text: copied whole
	for i := 0; i < len(s) && plain; i++ {
		plain = s[i] >= 32 && s[i] <= 126
	}
	if plain {
		return append(dst, s...)
	}
	for _, r := range s {
		switch {
		case r >= 32 && r <= 126, r >= 0xA0 && r <= 0xFF:
			dst = append(dst, byte(r))
		default:
			dst = append(dst, '?')
		}
	}
	return dst
}

// charWidth is the width of a WinAnsi byte in Helvetica, in thousandths.
func charWidth(c byte) int {
	if c >= 32 && c <= 126 {
		return helveticaWidths[c-32]
	}
	return 556
}

// points converts a width in thousandths of the font size to points.
func points(thousandths int, size float64) float64 { return float64(thousandths) * size / 1000 }

// textWidth is the width of WinAnsi text s set in Helvetica at size points
// (Helvetica-Bold is a little wider; the bold text here is never measured
// against a tight limit).
func textWidth[S pdfText](s S, size float64) float64 {
	total := 0
	for i := 0; i < len(s); i++ {
		total += charWidth(s[i])
	}
	return points(total, size)
}

// fit measures s at size against width in one pass, which stops once s is
// known not to fit: s fits whole (cut false), or s[:n] followed by "..." is
// the longest prefix that does.
func fit[S pdfText](s S, size, width float64) (n int, cut bool) {
	limit := widest(size, width)
	total := 0
	for i := 0; i < len(s); i++ {
		if total+ellipsisWidth <= limit {
			n = i
		}
		total += charWidth(s[i])
		if total > limit {
			return n, true
		}
	}
	return len(s), false
}

// widest is the largest width in thousandths that fits in width points at
// size: points(t, size) <= width exactly when t <= widest(size, width),
// since points grows with t.
func widest(size, width float64) int {
	t := int(math.Floor(width * 1000 / size))
	for points(t+1, size) <= width {
		t++
	}
	for t >= 0 && points(t, size) > width {
		t--
	}
	return t
}

// appendLiteral appends s as the body of a PDF literal string, its
// delimiters escaped.
func appendLiteral[S pdfText](dst []byte, s S) []byte {
	start := 0 // s[start:i] is still to copy, whole
	for i := 0; i < len(s); i++ {
		var esc byte
		switch c := s[i]; c {
		case '\\', '(', ')':
			esc = c
		case '\r':
			esc = 'r'
		case '\n':
			esc = 'n'
		default:
			continue
		}
		dst = append(append(dst, s[start:i]...), '\\', esc)
		start = i + 1
	}
	return append(dst, s[start:]...)
}

// appendPt appends a coordinate or a size as the shortest decimal that
// reads back as x.
func appendPt(dst []byte, x float64) []byte {
	if x > 0 && x < 1000 && x == math.Trunc(x) { // most sizes and coordinates
		n := int(x)
		if n >= 100 {
			dst = append(dst, byte('0'+n/100))
		}
		if n >= 10 {
			dst = append(dst, byte('0'+n/10%10))
		}
		return append(dst, byte('0'+n%10))
	}
	if x > 0 && x < 1<<53 && x == math.Trunc(x) {
		return strconv.AppendInt(dst, int64(x), 10)
	}
	// Most coordinates are thousandths of a point (text widths are): when
	// k/1000 is x, it is the shortest decimal that reads back as x, since
	// any other decimal of at most three places is at least 0.001 away.
	// This is strconv's answer without its general algorithm.
	if x > 0 && x < 1e9 {
		if k := math.Round(x * 1000); k/1000 == x {
			n := int64(k)
			dst = strconv.AppendInt(dst, n/1000, 10)
			frac := n % 1000
			dst = append(dst, '.', byte('0'+frac/100))
			if frac%100 != 0 {
				dst = append(dst, byte('0'+frac/10%10))
				if frac%10 != 0 {
					dst = append(dst, byte('0'+frac%10))
				}
			}
			return dst
		}
	}
	return strconv.AppendFloat(dst, x, 'f', -1, 64)
}

// appendStamp appends t, in UTC, as time.Format's "2006-01-02 15:04" does,
// digit by digit for the years 1000 to 9999.
func appendStamp(dst []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 1000 || year > 9999 {
		return t.AppendFormat(dst, "2006-01-02 15:04")
	}
	hour, minute, _ := t.Clock()
	two := func(dst []byte, v int) []byte { return append(dst, byte('0'+v/10), byte('0'+v%10)) }
	dst = two(two(dst, year/100), year%100)
	dst = two(append(dst, '-'), int(month))
	dst = two(append(dst, '-'), day)
	dst = two(append(dst, ' '), hour)
	return two(append(dst, ':'), minute)
}

// appendMoney appends cents as dollars with thousands separators: -123456
// -> "-$1,234.56".
func appendMoney(dst []byte, c cents) []byte {
	if c < 0 {
		dst, c = append(dst, '-'), -c
	}
	dst = append(dst, '$')
	var buf [20]byte
	whole := strconv.AppendInt(buf[:0], int64(c/100), 10)
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, d)
	}
	return append(dst, '.', byte('0'+c%100/10), byte('0'+c%10))
}

// pdfPage builds the content stream of one page; scratch holds a value
// while it is measured.
type pdfPage struct{ b, scratch []byte }

// text sets s (already WinAnsi) with its baseline starting at x, y.
func text[S pdfText](p *pdfPage, font string, size, x, y float64, s S) {
	fitText(p, font, size, x, y, s, false)
}

// fitText sets s at x, y, cut with "..." to width points when cut is true.
// It appends to a local copy of the page's buffer: appends to p.b itself
// would pay a GC write barrier each.
func fitText[S pdfText](p *pdfPage, font string, size, x, y float64, s S, cut bool) {
	b := append(p.b, "BT /"...)
	b = append(b, font...)
	b = append(b, ' ')
	b = appendPt(b, size)
	b = append(b, " Tf "...)
	b = appendPt(b, x)
	b = append(b, ' ')
	b = appendPt(b, y)
	b = append(b, " Td ("...)
	b = appendLiteral(b, s)
	if cut {
		b = append(b, ellipsis...)
	}
	p.b = append(b, ") Tj ET\n"...)
}

// fitted sets s at x, y, cut with "..." to at most width points.
func fitted[S pdfText](p *pdfPage, font string, size, x, y, width float64, s S) {
	n, cut := fit(s, size, width)
	fitText(p, font, size, x, y, s[:n], cut)
}

// textRight sets s so that it ends at x.
func textRight[S pdfText](p *pdfPage, font string, size, x, y float64, s S) {
	w := textWidth(s, size)
	if font == fontBold {
		w *= 1.06
	}
	text(p, font, size, x-w, y, s)
}

// moneyRight sets an amount so that it ends at x.
func (p *pdfPage) moneyRight(font string, size, x, y float64, c cents) {
	p.scratch = appendMoney(p.scratch[:0], c)
	textRight(p, font, size, x, y, p.scratch)
}

// rule draws a horizontal line.
func (p *pdfPage) rule(x1, x2, y, width float64) {
	b := appendPt(p.b, width)
	b = append(b, " w "...)
	b = appendPt(b, x1)
	b = append(b, ' ')
	b = appendPt(b, y)
	b = append(b, " m "...)
	b = appendPt(b, x2)
	b = append(b, ' ')
	b = appendPt(b, y)
	p.b = append(b, " l S\n"...)
}

// pdfWriter writes numbered objects and remembers where each one starts.
type pdfWriter struct {
	buf     []byte
	offsets []int // byte offset of object i+1
}

// begin starts the next object and returns its number.
func (w *pdfWriter) begin() int {
	w.offsets = append(w.offsets, len(w.buf))
	w.buf = strconv.AppendInt(w.buf, int64(len(w.offsets)), 10)
	w.buf = append(w.buf, " 0 obj\n"...)
	return len(w.offsets)
}

// object writes an object whose body is the concatenation of parts.
func (w *pdfWriter) object(parts ...string) {
	w.begin()
	for _, s := range parts {
		w.buf = append(w.buf, s...)
	}
	w.buf = append(w.buf, "\nendobj\n"...)
}

func (w *pdfWriter) stream(data []byte) {
	w.begin()
	w.buf = append(w.buf, "<< /Length "...)
	w.buf = strconv.AppendInt(w.buf, int64(len(data)), 10)
	w.buf = append(w.buf, " >>\nstream\n"...)
	w.buf = append(w.buf, data...)
	w.buf = append(w.buf, "\nendstream\nendobj\n"...)
}

// finish writes the cross-reference table and the trailer.
func (w *pdfWriter) finish(root, info int) []byte {
	xref := len(w.buf)
	size := strconv.Itoa(len(w.offsets) + 1)
	w.buf = append(w.buf, "xref\n0 "+size+"\n0000000000 65535 f \n"...)
	for _, off := range w.offsets {
		var digits [20]byte
		d := strconv.AppendInt(digits[:0], int64(off), 10)
		for range 10 - len(d) {
			w.buf = append(w.buf, '0')
		}
		w.buf = append(w.buf, d...)
		w.buf = append(w.buf, " 00000 n \n"...)
	}
	w.buf = append(w.buf, "trailer\n<< /Size "+size+" /Root "+strconv.Itoa(root)+" 0 R /Info "+strconv.Itoa(info)+
		" 0 R >>\nstartxref\n"+strconv.Itoa(xref)+"\n%%EOF\n"...)
	return w.buf
}

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
	var in, out cents
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

	client := string(appendWinAnsi(nil, d.clientName))
	kind := "Monthly statement"
	if d.rec.typ == StatementOnDemand {
		kind = "On-demand statement"
	}
	// Objects: 1 catalog, 2 page tree, 3-4 fonts, 5 info, then each page
	// and its content stream.
	w := pdfWriter{buf: slices.Grow(buf[:0], 4096+300*(body+2)), offsets: make([]int, 0, 5+2*pages)}
	w.buf = append(w.buf, "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"...)
	w.object("<< /Type /Catalog /Pages 2 0 R >>")
	w.begin()
	w.buf = append(w.buf, "<< /Type /Pages /Kids ["...)
	for i := range pages {
		if i > 0 {
			w.buf = append(w.buf, ' ')
		}
		w.buf = strconv.AppendInt(w.buf, int64(6+2*i), 10)
		w.buf = append(w.buf, " 0 R"...)
	}
	w.buf = append(w.buf, "] /Count "...)
	w.buf = strconv.AppendInt(w.buf, int64(pages), 10)
	w.buf = append(w.buf, " >>\nendobj\n"...)
	w.object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	w.object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	w.begin()
	w.buf = append(w.buf, "<< /Title ("...)
	w.buf = appendLiteral(w.buf, "Statement "+d.rec.id)
	w.buf = append(w.buf, ") /Author ("...)
	w.buf = appendLiteral(w.buf, client)
	w.buf = append(w.buf, ") /Creator (synapsefake) /Producer (synapsefake) /CreationDate ("+pdfDate(d.rec.generated)+") >>\nendobj\n"...)

	var p pdfPage
	row := 0 // the next row of the table
	for i := range pages {
		p.b = p.b[:0]
		top, rows := float64(pdfOtherTop), pdfOtherRows
		if i == 0 {
			top, rows = pdfFirstTop, pdfFirstRows
			d.pdfHeading(&p, client, kind, in, out)
		}
		// Table heading.
		text(&p, fontBold, 8, colDate, top+16, "Date (UTC)")
		text(&p, fontBold, 8, colTransaction, top+16, "Transaction")
		text(&p, fontBold, 8, colDescription, top+16, "Description")
		textRight(&p, fontBold, 8, colAmountRight, top+16, "Amount")
		textRight(&p, fontBold, 8, colBalanceEdge, top+16, "Balance")
		p.rule(pdfLeft, pdfRight, top+11, 0.5)
		y := top
		for end := min(row+rows, body+2); row < end; row++ {
			d.pdfRow(&p, row, body, y)
			y -= pdfRowHeight
		}
		p.rule(pdfLeft, pdfRight, 44, 0.5)
		fitted(&p, fontRegular, 7, pdfLeft, 32, 400, client+" - account statement "+d.rec.id)
		textRight(&p, fontRegular, 7, pdfRight, 32, "Page "+strconv.Itoa(i+1)+" of "+strconv.Itoa(pages))

		w.begin()
		w.buf = append(w.buf, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 "+strconv.Itoa(pdfPageWidth)+" "+strconv.Itoa(pdfPageHeight)+"] "+
			"/Resources << /Font << /"+fontRegular+" 3 0 R /"+fontBold+" 4 0 R >> >> /Contents "...)
		w.buf = strconv.AppendInt(w.buf, int64(7+2*i), 10)
		w.buf = append(w.buf, " 0 R >>\nendobj\n"...)
		w.stream(p.b)
	}
	return w.finish(1, 5)
}

// pdfHeading sets the first page's heading: the platform, the account, the
// period and the balances.
func (d statementDoc) pdfHeading(p *pdfPage, client, kind string, in, out cents) {
	fitted(p, fontBold, 18, pdfLeft, 740, pdfRight-pdfLeft, client)
	text(p, fontRegular, 12, pdfLeft, 720, kind)
	textRight(p, fontRegular, 8, pdfRight, 720, "Statement "+d.rec.id)
	p.rule(pdfLeft, pdfRight, 712, 1)
	account := appendWinAnsi(make([]byte, 0, len(d.nickname)+len(d.nodeType)+len(d.rec.nodeID)+4), d.nickname)
	account = append(account, " ("+d.nodeType+" "+d.rec.nodeID+")"...)
	y := 694.0
	for _, kv := range [][2]string{
		{"Account holder", string(appendWinAnsi(nil, d.holder))},
		{"Account", string(account)},
		{"Period", string(appendStamp(nil, d.rec.start)) + " to " + string(appendStamp(nil, d.rec.end)) + " UTC"},
		{"Generated", string(appendStamp(nil, d.rec.generated)) + " UTC"},
		{"Platform", client + " (client " + d.clientID + ")"},
	} {
		text(p, fontBold, 9, pdfLeft, y, kv[0])
		fitted(p, fontRegular, 9, pdfLeft+90, y, pdfRight-pdfLeft-90, kv[1])
		y -= 13
	}
	y -= 8
	for _, kv := range []struct {
		label string
		c     cents
	}{
		{"Opening balance", d.rec.opening},
		{"Money in", in},
		{"Money out", -out},
		{"Ending balance", d.rec.ending},
	} {
		text(p, fontBold, 10, pdfLeft, y, kv.label)
		p.moneyRight(fontRegular, 10, pdfLeft+240, y, kv.c)
		y -= 14
	}
}

// pdfRow sets row i of the movements table, whose body (the rows between
// the two balances) is body rows long, with its baseline at y.
func (d statementDoc) pdfRow(p *pdfPage, i, body int, y float64) {
	switch {
	case i == 0 || i == body+1:
		desc, c := "Opening balance", d.rec.opening
		if i > 0 {
			desc, c = "Ending balance", d.rec.ending
		}
		text(p, fontRegular, 8, colDate, y, "")
		text(p, fontRegular, 7, colTransaction, y, "")
		fitted(p, fontBold, 8, colDescription, y, descWidth, desc)
		p.moneyRight(fontBold, 8, colBalanceEdge, y, c)
	case len(d.lines) == 0:
		text(p, fontRegular, 8, colDate, y, "")
		text(p, fontRegular, 7, colTransaction, y, "")
		fitted(p, fontRegular, 8, colDescription, y, descWidth, "No transactions in this period.")
	default:
		l := d.lines[i-1]
		p.scratch = appendStamp(p.scratch[:0], l.date)
		text(p, fontRegular, 8, colDate, y, p.scratch)
		text(p, fontRegular, 7, colTransaction, y, l.txID)
		p.scratch = appendWinAnsi(p.scratch[:0], l.desc)
		fitted(p, fontRegular, 8, colDescription, y, descWidth, p.scratch)
		p.moneyRight(fontRegular, 8, colAmountRight, y, l.amount)
		p.moneyRight(fontRegular, 8, colBalanceEdge, y, l.balance)
	}
}

// pdfDate is a PDF date string in UTC: D:YYYYMMDDHHmmSSZ.
func pdfDate(t time.Time) string { return "D:" + t.UTC().Format("20060102150405") + "Z" }
