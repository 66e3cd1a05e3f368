// Package pdf writes small PDF documents by hand with the standard
// library: PDF 1.4, the standard Type1 fonts Helvetica and Helvetica-Bold
// (which every reader has, so nothing is embedded), uncompressed content
// streams and a classic cross-reference table. Everything is appended to
// one buffer, and text is measured and cut in one pass that stops at the
// width it has to fit, so the cost is linear in the text and bounded per
// line whatever the length of a name or a description.
//
// It holds the writer (numbered objects, streams, the trailer), the
// Helvetica metrics, and the text operators of a page's content stream.
// What goes where on a page (a statement's layout) is its caller's.
//
// It is a leaf: it imports only the standard library.
package pdf

import (
	"math"
	"strconv"
	"time"
)

// Fonts of the resource dictionary every page shares: a page's resources
// must name Helvetica FontRegular and Helvetica-Bold FontBold.
const (
	FontRegular = "F1" // Helvetica
	FontBold    = "F2" // Helvetica-Bold
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

// String is WinAnsi text, held either way so that it is never copied to
// change its type.
type String interface{ ~string | ~[]byte }

// AppendWinAnsi appends s mapped to WinAnsi bytes: printable ASCII and
// Latin-1 stay, anything else becomes '?'.
func AppendWinAnsi(dst []byte, s string) []byte {
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

// CharWidth is the width of a WinAnsi byte in Helvetica, in thousandths of
// the font size.
func CharWidth(c byte) int {
	if c >= 32 && c <= 126 {
		return helveticaWidths[c-32]
	}
	return 556
}

// Points converts a width in thousandths of the font size to points.
func Points(thousandths int, size float64) float64 { return float64(thousandths) * size / 1000 }

// TextWidth is the width of WinAnsi text s set in Helvetica at size points
// (Helvetica-Bold is a little wider; the bold text here is never measured
// against a tight limit).
func TextWidth[S String](s S, size float64) float64 {
	total := 0
	for i := 0; i < len(s); i++ {
		total += CharWidth(s[i])
	}
	return Points(total, size)
}

// Fit measures s at size against width in one pass, which stops once s is
// known not to fit: s fits whole (cut false), or s[:n] followed by "..." is
// the longest prefix that does.
func Fit[S String](s S, size, width float64) (n int, cut bool) {
	limit := widest(size, width)
	total := 0
	for i := 0; i < len(s); i++ {
		if total+ellipsisWidth <= limit {
			n = i
		}
		total += CharWidth(s[i])
		if total > limit {
			return n, true
		}
	}
	return len(s), false
}

// widest is the largest width in thousandths that fits in width points at
// size: Points(t, size) <= width exactly when t <= widest(size, width),
// since Points grows with t.
func widest(size, width float64) int {
	t := int(math.Floor(width * 1000 / size))
	for Points(t+1, size) <= width {
		t++
	}
	for t >= 0 && Points(t, size) > width {
		t--
	}
	return t
}

// AppendLiteral appends s as the body of a PDF literal string, its
// delimiters escaped.
func AppendLiteral[S String](dst []byte, s S) []byte {
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

// AppendPt appends a coordinate or a size as the shortest decimal that
// reads back as x.
func AppendPt(dst []byte, x float64) []byte {
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

// AppendStamp appends t, in UTC, as time.Format's "2006-01-02 15:04" does,
// digit by digit for the years 1000 to 9999.
func AppendStamp(dst []byte, t time.Time) []byte {
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

// AppendMoney appends an amount in cents as dollars with thousands
// separators: -123456 -> "-$1,234.56".
func AppendMoney(dst []byte, cents int64) []byte {
	c := cents
	if c < 0 {
		dst, c = append(dst, '-'), -c
	}
	dst = append(dst, '$')
	var buf [20]byte
	whole := strconv.AppendInt(buf[:0], c/100, 10)
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, d)
	}
	return append(dst, '.', byte('0'+c%100/10), byte('0'+c%10))
}

// Date is a PDF date string in UTC: D:YYYYMMDDHHmmSSZ.
func Date(t time.Time) string { return "D:" + t.UTC().Format("20060102150405") + "Z" }
