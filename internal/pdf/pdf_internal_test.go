package pdf

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAppendPtIsStrconv checks AppendPt's fast paths against strconv's
// shortest decimal over the coordinates the PDF sets (right-aligned text:
// an edge minus a width in thousandths of a size) and over random values.
func TestAppendPtIsStrconv(t *testing.T) {
	t.Parallel()
	want := func(x float64) string {
		if x > 0 && x < 1<<53 && x == math.Trunc(x) {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	check := func(x float64) {
		t.Helper()
		if got := string(AppendPt(nil, x)); got != want(x) {
			t.Fatalf("AppendPt(%v) = %q, want %q", x, got, want(x))
		}
	}
	for _, x := range []float64{0, 1, 7, 8, 10, 99, 100, 612, 999, 1000, 1e6, 1 << 53, 0.5, 0.001, 0.1 + 0.2, 1e-7, 123.4565, 1e9, 1e9 + 0.5, 1e21, -3, -0.25} {
		check(x)
	}
	for _, size := range []float64{7, 8, 9, 10, 12, 18} {
		for _, edge := range []float64{492, 562, 290} { // a statement's right edges: the amounts, the balances (and the page), the heading's amounts
			for w := 0; w < 40000; w += 7 {
				check(edge - Points(w, size))
				check(edge - Points(w, size)*1.06)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		check(r.Float64() * 1000)
		check(float64(r.IntN(1_000_000)) / 1000)
	}
}

func TestAppendStampIsFormat(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	east := time.FixedZone("east", 5*3600+1800)
	times := []time.Time{time.Time{}, time.Date(999, 12, 31, 23, 59, 0, 0, time.UTC), time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, east), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-5, 3, 1, 4, 5, 0, 0, time.UTC)}
	for range 20000 {
		times = append(times, time.Unix(r.Int64N(400*365*86400)-100*365*86400, r.Int64N(1e9)).In(east))
	}
	for _, at := range times {
		if got, want := string(AppendStamp(nil, at)), at.UTC().Format("2006-01-02 15:04"); got != want {
			t.Fatalf("AppendStamp(%v) = %q, want %q", at, got, want)
		}
	}
}

// TestFitIsPerCharacter checks Fit against measuring in points character
// by character, as it did before it compared integers.
func TestFitIsPerCharacter(t *testing.T) {
	t.Parallel()
	reference := func(s string, size, width float64) (n int, cut bool) {
		total := 0
		for i := 0; i < len(s); i++ {
			if Points(total+ellipsisWidth, size) <= width {
				n = i
			}
			total += CharWidth(s[i])
			if Points(total, size) > width {
				return n, true
			}
		}
		return len(s), false
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(120) {
			b.WriteByte(byte(32 + r.IntN(224)))
		}
		s := b.String()
		size := []float64{7, 8, 9, 18, 0.5, 11.3}[r.IntN(6)]
		width := []float64{0, 1, 180, 400, 512, 422, r.Float64() * 600}[r.IntN(7)] // a statement's widths, and any
		gotN, gotCut := Fit(s, size, width)
		wantN, wantCut := reference(s, size, width)
		if gotN != wantN || gotCut != wantCut {
			t.Fatalf("Fit(%q, %v, %v) = %d, %v; measured per character: %d, %v", s, size, width, gotN, gotCut, wantN, wantCut)
		}
	}
}

func TestAppendLiteral(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"Transfer to Savings", "Transfer to Savings"},
		{"(a)", `\(a\)`},
		{`back\slash`, `back\\slash`},
		{"line\nbreak\r", `line\nbreak\r`},
		{"))", `\)\)`},
		{"x(", `x\(`},
	} {
		pre := []byte("pre ")
		if got := string(AppendLiteral(pre, tc.in)); got != "pre "+tc.want {
			t.Errorf("AppendLiteral(%q) = %q, want %q", tc.in, got, "pre "+tc.want)
		}
		if got := string(AppendLiteral(nil, []byte(tc.in))); got != tc.want {
			t.Errorf("AppendLiteral([]byte(%q)) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestAppendWinAnsi(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain ASCII ~", "plain ASCII ~"},
		{"café", "caf\xe9"},
		{"tab\there", "tab?here"},
		{"snow ☃ man", "snow ? man"},
		{"\x7f", "?"},
	} {
		if got := string(AppendWinAnsi([]byte("pre "), tc.in)); got != "pre "+tc.want {
			t.Errorf("AppendWinAnsi(%q) = %q, want %q", tc.in, got, "pre "+tc.want)
		}
	}
}

func TestFit(t *testing.T) {
	for _, tc := range []struct {
		name        string
		s           string
		size, width float64
		want        string
	}{
		{"empty", "", 10, 10, ""},
		{"exactly as wide", "abc", 10, 16.12, "abc"},
		{"a hair too wide", "abc", 10, 16.11, "a..."},
		{"not even the ellipsis fits", "abc", 10, 5, "..."},
		{"only the ellipsis fits", "abc", 10, 8.34, "..."},
		{"bytes beyond ASCII are 556 wide", "\xe9\xe9", 10, 11.12, "\xe9\xe9"},
		{"64 KiB", strings.Repeat("W", 64<<10), 9, 472, strings.Repeat("W", 54) + "..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, cut := Fit(tc.s, tc.size, tc.width)
			got := tc.s[:n]
			if cut {
				got += ellipsis
			}
			if got != tc.want {
				t.Errorf("Fit(%.20q, %v, %v) = %q, want %q", tc.s, tc.size, tc.width, got, tc.want)
			}
		})
	}
}
