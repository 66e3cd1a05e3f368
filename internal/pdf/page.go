package pdf

import "strconv"

// Page builds the content stream of one page. Content is the stream so
// far; Scratch holds a value while it is measured (MoneyRight uses it, and
// so may the caller).
type Page struct{ Content, Scratch []byte }

// Text sets s (already WinAnsi) in font at size, its baseline starting at
// x, y.
func Text[S String](p *Page, font string, size, x, y float64, s S) {
	FitText(p, font, size, x, y, s, false)
}

// FitText sets s at x, y, followed by "..." when cut is true (s is then
// the prefix Fit measured).
// It appends to a local copy of the page's buffer: appends to p.Content
// itself would pay a GC write barrier each.
func FitText[S String](p *Page, font string, size, x, y float64, s S, cut bool) {
	b := append(p.Content, "BT /"...)
	b = append(b, font...)
	b = append(b, ' ')
	b = AppendPt(b, size)
	b = append(b, " Tf "...)
	b = AppendPt(b, x)
	b = append(b, ' ')
	b = AppendPt(b, y)
	b = append(b, " Td ("...)
	b = AppendLiteral(b, s)
	if cut {
		b = append(b, ellipsis...)
	}
	p.Content = append(b, ") Tj ET\n"...)
}

// Fitted sets s at x, y, cut with "..." to at most width points.
func Fitted[S String](p *Page, font string, size, x, y, width float64, s S) {
	n, cut := Fit(s, size, width)
	FitText(p, font, size, x, y, s[:n], cut)
}

// TextRight sets s so that it ends at x. Bold text is taken as 6% wider
// than Helvetica's metrics say.
func TextRight[S String](p *Page, font string, size, x, y float64, s S) {
	w := TextWidth(s, size)
	if font == FontBold {
		w *= 1.06
	}
	Text(p, font, size, x-w, y, s)
}

// MoneyRight sets an amount in cents, as AppendMoney writes it, so that it
// ends at x.
func (p *Page) MoneyRight(font string, size, x, y float64, cents int64) {
	p.Scratch = AppendMoney(p.Scratch[:0], cents)
	TextRight(p, font, size, x, y, p.Scratch)
}

// Rule draws a horizontal line from x1 to x2 at y, width points thick.
func (p *Page) Rule(x1, x2, y, width float64) {
	b := AppendPt(p.Content, width)
	b = append(b, " w "...)
	b = AppendPt(b, x1)
	b = append(b, ' ')
	b = AppendPt(b, y)
	b = append(b, " m "...)
	b = AppendPt(b, x2)
	b = append(b, ' ')
	b = AppendPt(b, y)
	p.Content = append(b, " l S\n"...)
}

// Writer writes numbered objects and remembers where each one starts, for
// the cross-reference table. Buf is the document so far: an object's body
// may be appended to it directly between Begin and "endobj".
type Writer struct {
	Buf     []byte
	offsets []int // byte offset of object i+1
}

// NewWriter starts a document in buf's memory, from its start, with room
// for objects objects' offsets. Buf starts empty: the caller writes the
// header.
func NewWriter(buf []byte, objects int) Writer {
	return Writer{Buf: buf[:0], offsets: make([]int, 0, objects)}
}

// Begin starts the next object and returns its number, from 1.
func (w *Writer) Begin() int {
	w.offsets = append(w.offsets, len(w.Buf))
	w.Buf = strconv.AppendInt(w.Buf, int64(len(w.offsets)), 10)
	w.Buf = append(w.Buf, " 0 obj\n"...)
	return len(w.offsets)
}

// Object writes an object whose body is the concatenation of parts.
func (w *Writer) Object(parts ...string) {
	w.Begin()
	for _, s := range parts {
		w.Buf = append(w.Buf, s...)
	}
	w.Buf = append(w.Buf, "\nendobj\n"...)
}

// Stream writes a stream object holding data.
func (w *Writer) Stream(data []byte) {
	w.Begin()
	w.Buf = append(w.Buf, "<< /Length "...)
	w.Buf = strconv.AppendInt(w.Buf, int64(len(data)), 10)
	w.Buf = append(w.Buf, " >>\nstream\n"...)
	w.Buf = append(w.Buf, data...)
	w.Buf = append(w.Buf, "\nendstream\nendobj\n"...)
}

// Finish writes the cross-reference table and the trailer, naming objects
// root (the catalog) and info, and returns the document.
func (w *Writer) Finish(root, info int) []byte {
	xref := len(w.Buf)
	size := strconv.Itoa(len(w.offsets) + 1)
	w.Buf = append(w.Buf, "xref\n0 "+size+"\n0000000000 65535 f \n"...)
	for _, off := range w.offsets {
		var digits [20]byte
		d := strconv.AppendInt(digits[:0], int64(off), 10)
		for range 10 - len(d) {
			w.Buf = append(w.Buf, '0')
		}
		w.Buf = append(w.Buf, d...)
		w.Buf = append(w.Buf, " 00000 n \n"...)
	}
	w.Buf = append(w.Buf, "trailer\n<< /Size "+size+" /Root "+strconv.Itoa(root)+" 0 R /Info "+strconv.Itoa(info)+
		" 0 R >>\nstartxref\n"+strconv.Itoa(xref)+"\n%%EOF\n"...)
	return w.Buf
}
