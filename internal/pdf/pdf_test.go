package pdf_test

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/pdf"
)

func TestCharWidth(t *testing.T) {
	for _, tc := range []struct {
		c    byte
		want int
	}{
		{' ', 278}, {'0', 556}, {'@', 1015}, {'W', 944}, {'i', 222}, {'~', 584},
		{0x1f, 556}, {0x7f, 556}, {0xe9, 556}, // beyond printable ASCII: an average width
	} {
		if got := pdf.CharWidth(tc.c); got != tc.want {
			t.Errorf("CharWidth(%q) = %d, want %d", tc.c, got, tc.want)
		}
	}
}

func TestPointsAndTextWidth(t *testing.T) {
	for _, tc := range []struct {
		thousandths int
		size, want  float64
	}{
		{0, 7, 0}, {1000, 10, 10}, {278, 12, 3.336}, {1612, 10, 16.12},
	} {
		if got := pdf.Points(tc.thousandths, tc.size); got != tc.want {
			t.Errorf("Points(%d, %v) = %v, want %v", tc.thousandths, tc.size, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s          string
		size, want float64
	}{
		{"", 10, 0}, {"abc", 10, 16.12}, {"W", 1000, 944}, {"\xe9", 9, 5.004},
	} {
		if got := pdf.TextWidth(tc.s, tc.size); got != tc.want {
			t.Errorf("TextWidth(%q, %v) = %v, want %v", tc.s, tc.size, got, tc.want)
		}
		if got := pdf.TextWidth([]byte(tc.s), tc.size); got != tc.want {
			t.Errorf("TextWidth([]byte(%q), %v) = %v, want %v", tc.s, tc.size, got, tc.want)
		}
	}
}

func TestAppendMoney(t *testing.T) {
	for _, tc := range []struct {
		cents int64
		want  string
	}{
		{0, "$0.00"}, {5, "$0.05"}, {-5, "-$0.05"}, {99999, "$999.99"}, {100000, "$1,000.00"},
		{-123456, "-$1,234.56"}, {100000000, "$1,000,000.00"}, {123456789012, "$1,234,567,890.12"},
	} {
		if got := string(pdf.AppendMoney([]byte("pre "), tc.cents)); got != "pre "+tc.want {
			t.Errorf("AppendMoney(%d) = %q, want %q", tc.cents, got, "pre "+tc.want)
		}
	}
}

func TestDate(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 11, 29, 4, 5, 6, 7, time.UTC), "D:20261129040506Z"},
		{time.Date(2026, 11, 29, 4, 5, 6, 0, time.FixedZone("east", 5*3600)), "D:20261128230506Z"},
		{time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), "D:19700101000000Z"},
	} {
		if got := pdf.Date(tc.t); got != tc.want {
			t.Errorf("Date(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

// TestPage checks the content stream each operator appends.
func TestPage(t *testing.T) {
	for _, tc := range []struct {
		name string
		draw func(p *pdf.Page)
		want string
	}{
		{"text", func(p *pdf.Page) { pdf.Text(p, pdf.FontRegular, 8, 50, 536, "a(b)") }, "BT /F1 8 Tf 50 536 Td (a\\(b\\)) Tj ET\n"},
		{"text of bytes", func(p *pdf.Page) { pdf.Text(p, pdf.FontBold, 9.5, 0.25, 1000, []byte(`\`)) }, "BT /F2 9.5 Tf 0.25 1000 Td (\\\\) Tj ET\n"},
		{"cut text", func(p *pdf.Page) { pdf.FitText(p, pdf.FontRegular, 7, 1, 2, "ab", true) }, "BT /F1 7 Tf 1 2 Td (ab...) Tj ET\n"},
		{"fits", func(p *pdf.Page) { pdf.Fitted(p, pdf.FontRegular, 10, 0, 0, 16.12, "abc") }, "BT /F1 10 Tf 0 0 Td (abc) Tj ET\n"},
		{"cut to fit", func(p *pdf.Page) { pdf.Fitted(p, pdf.FontRegular, 10, 0, 0, 16.11, "abc") }, "BT /F1 10 Tf 0 0 Td (a...) Tj ET\n"},
		{"right-aligned", func(p *pdf.Page) { pdf.TextRight(p, pdf.FontRegular, 10, 100, 10, "ab") }, "BT /F1 10 Tf 88.88 10 Td (ab) Tj ET\n"},
		{"bold right-aligned, 6% wider", func(p *pdf.Page) { pdf.TextRight(p, pdf.FontBold, 10, 100, 10, "W") },
			"BT /F2 10 Tf " + strconv.FormatFloat(100-9.44*1.06, 'f', -1, 64) + " 10 Td (W) Tj ET\n"},
		{"money", func(p *pdf.Page) { p.MoneyRight(pdf.FontRegular, 10, 200, 5, 5) }, "BT /F1 10 Tf 174.98 5 Td ($0.05) Tj ET\n"},
		{"rule", func(p *pdf.Page) { p.Rule(50, 562, 44, 0.5) }, "0.5 w 50 44 m 562 44 l S\n"},
		{"two", func(p *pdf.Page) {
			p.Rule(0, 1, 2, 3)
			pdf.Text(p, pdf.FontRegular, 1, 2, 3, "x")
		}, "3 w 0 2 m 1 2 l S\nBT /F1 1 Tf 2 3 Td (x) Tj ET\n"},
	} {
		var p pdf.Page
		tc.draw(&p)
		if got := string(p.Content); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestWriter writes a small document and checks it whole, then that its
// cross-reference table points at each object.
func TestWriter(t *testing.T) {
	w := pdf.NewWriter(make([]byte, 3, 64), 4)
	w.Buf = append(w.Buf, "%PDF-1.4\n"...)
	w.Object("<< /Type /Catalog /Pages 2 0 R >>")
	w.Object("<< /Type /Pages /Kids [] ", "/Count 0 >>")
	if n := w.Begin(); n != 3 {
		t.Fatalf("Begin = %d, want 3", n)
	}
	w.Buf = append(w.Buf, "<< /Title (t) >>\nendobj\n"...)
	w.Stream([]byte("BT ET"))
	doc := w.Finish(1, 3)
	const want = "%PDF-1.4\n" +
		"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
		"2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
		"3 0 obj\n<< /Title (t) >>\nendobj\n" +
		"4 0 obj\n<< /Length 5 >>\nstream\nBT ET\nendstream\nendobj\n" +
		"xref\n0 5\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \n0000000110 00000 n \n0000000142 00000 n \n" +
		"trailer\n<< /Size 5 /Root 1 0 R /Info 3 0 R >>\nstartxref\n196\n%%EOF\n"
	if string(doc) != want {
		t.Fatalf("document:\n%s\nwant:\n%s", doc, want)
	}
	offsets := regexp.MustCompile(`(\d{10}) 00000 n `).FindAllSubmatch(doc, -1)
	for i, m := range offsets {
		off, _ := strconv.Atoi(string(m[1]))
		if obj := strconv.Itoa(i+1) + " 0 obj\n"; !bytes.HasPrefix(doc[off:], []byte(obj)) {
			t.Errorf("xref entry %d points at %.10q, not %q", i+1, doc[off:], obj)
		}
	}
	start := bytes.LastIndex(doc, []byte("startxref\n")) + len("startxref\n")
	xref, _ := strconv.Atoi(string(doc[start : start+bytes.IndexByte(doc[start:], '\n')]))
	if !bytes.HasPrefix(doc[xref:], []byte("xref\n")) {
		t.Errorf("startxref %d points at %.10q", xref, doc[xref:])
	}
}
