package jsonx_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// strings that need escaping, or not: quotes, control characters, HTML,
// U+2028, invalid UTF-8.
var jsonStrings = []string{"", "a", "USD", "Rent", `say "hi"`, `back\slash`, "tab\tnew\nline\r", "\x00\x01\x1f",
	"<b>&amp;</b>", "a<b", "a>b", "é ü 漢字", "line\u2028sep\u2029", "bad \xff utf8", "emoji 😀", "\x7f", "~ }{"}

var jsonFloats = []float64{0, math.Copysign(0, -1), 1, -1.5, 12.34, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, math.MaxFloat64,
	math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()}

// marshal is what encoding/json writes for v, or its error.
func marshal(t *testing.T, v any) (string, error) {
	t.Helper()
	b, err := json.Marshal(v)
	return string(b), err
}

// TestAppendIsEncodingJSON checks each helper against encoding/json, after
// a prefix that must stay as it is.
func TestAppendIsEncodingJSON(t *testing.T) {
	const prefix = "prefix "
	check := func(name string, v any, got []byte, gotErr error) {
		t.Helper()
		want, err := marshal(t, v)
		if (err != nil) != (gotErr != nil) {
			t.Fatalf("%s(%#v): error %v, encoding/json's %v", name, v, gotErr, err)
		}
		if err == nil && string(got) != prefix+want {
			t.Errorf("%s(%#v) = %q, want %q", name, v, got, prefix+want)
		}
	}
	pre := func() []byte { return []byte(prefix) }
	for _, s := range jsonStrings {
		check("AppendString", s, jsonx.AppendString(pre(), s), nil)
		check("AppendStringPtr", &s, jsonx.AppendStringPtr(pre(), &s), nil)
	}
	check("AppendStringPtr", (*string)(nil), jsonx.AppendStringPtr(pre(), nil), nil)
	for _, ss := range [][]string{nil, {}, {"a"}, jsonStrings} {
		check("AppendStrings", ss, jsonx.AppendStrings(pre(), ss), nil)
	}
	for _, f := range jsonFloats {
		got, err := jsonx.AppendFloat(pre(), f)
		check("AppendFloat", f, got, err)
		got, err = jsonx.AppendFloatPtr(pre(), &f)
		check("AppendFloatPtr", &f, got, err)
	}
	got, err := jsonx.AppendFloatPtr(pre(), nil)
	check("AppendFloatPtr", (*float64)(nil), got, err)
	for _, fs := range [][]float64{nil, {}, {0}, {1, -2.5, 1e21}, {1, math.NaN()}, {math.Inf(1)}} {
		got, err := jsonx.AppendFloats(pre(), fs)
		check("AppendFloats", fs, got, err)
	}
	for _, m := range []map[string]any{nil, {}, {"b": 1, "a": "x<y"}, {"n": nil, "l": []any{true, 2.5, "s"}, "m": map[string]any{}},
		{"bad": math.NaN()}} {
		got, err := jsonx.AppendObject(pre(), m)
		check("AppendObject", m, got, err)
	}
	for _, v := range []any{nil, 1, "s", []int{1, 2}, struct {
		A int `json:"a"`
	}{3}, math.Inf(1), make(chan int)} {
		got, err := jsonx.AppendAny(pre(), v)
		check("AppendAny", v, got, err)
	}
	for _, v := range []bool{false, true} {
		check("AppendBool", v, jsonx.AppendBool(pre(), v), nil)
	}
}

func TestAppendAnyKeepsBOnError(t *testing.T) {
	b, err := jsonx.AppendAny([]byte("kept"), math.NaN())
	if err == nil || string(b) != "kept" {
		t.Errorf("AppendAny(NaN) = %q, %v; want kept and an error", b, err)
	}
}

func TestAppendList(t *testing.T) {
	type pair struct{ k, v string }
	each := func(b []byte, p *pair) []byte {
		b = append(b, '{')
		b = jsonx.AppendString(b, p.k)
		b = append(b, ':')
		b = jsonx.AppendString(b, p.v)
		return append(b, '}')
	}
	for _, tc := range []struct {
		list []pair
		want string
	}{
		{nil, "null"},
		{[]pair{}, "[]"},
		{[]pair{{"a", "b"}}, `[{"a":"b"}]`},
		{[]pair{{"a", "b"}, {"c", `"`}}, `[{"a":"b"},{"c":"\""}]`},
	} {
		if got := string(jsonx.AppendList([]byte("x"), tc.list, each)); got != "x"+tc.want {
			t.Errorf("AppendList(%v) = %q, want %q", tc.list, got, "x"+tc.want)
		}
	}
}

// point appends its own JSON, as an Appender does.
type point struct{ X, Y float64 }

func (p point) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"X":`...)
	b, err := jsonx.AppendFloat(b, p.X)
	if err != nil {
		return b, err
	}
	b = append(b, `,"Y":`...)
	if b, err = jsonx.AppendFloat(b, p.Y); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

var _ jsonx.Appender = point{}

func TestAppender(t *testing.T) {
	for _, p := range []point{{}, {1.5, -2}, {1e21, 1e-7}} {
		want, _ := json.Marshal(p)
		if got, err := p.AppendJSON(nil); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: %s, %v; want %s", p, got, err, want)
		}
	}
}

func TestBuffers(t *testing.T) {
	b := jsonx.GetBuffer()
	if b.Len() != 0 {
		t.Fatalf("a new buffer holds %q", b.String())
	}
	b.WriteString("used")
	jsonx.PutBuffer(b)
	for range 10 { // whichever buffer the pool gives, it is empty
		b := jsonx.GetBuffer()
		if b.Len() != 0 {
			t.Fatalf("a pooled buffer holds %q", b.String())
		}
		defer jsonx.PutBuffer(b)
	}
	big := jsonx.GetBuffer()
	big.Grow(128 << 10)
	big.WriteString("big")
	jsonx.PutBuffer(big) // let go, not emptied
	if big.String() != "big" {
		t.Errorf("a buffer past 64 KiB was emptied: %q", big.String())
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 0, ""},
		{"short", 10, "short"},
		{"exact", 5, "exact"},
		{"longer text", 6, "longer…"},
		{"abc", 0, "…"},
		{"héllo", 2, "h…"}, // é is two bytes: not cut in two
		{"héllo", 3, "hé…"},
		{"漢字", 4, "漢…"},
		{"漢字", 2, "…"},
	} {
		if got := jsonx.Cut(tc.s, tc.n); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestClip(t *testing.T) {
	hundred := strings.Repeat("x", 100)
	for _, tc := range []struct{ s, want string }{
		{"", ""},
		{"short", "short"},
		{hundred, hundred},
		{hundred + "y", hundred + "..."},
		{strings.Repeat("z", 5000), strings.Repeat("z", 100) + "..."},
	} {
		if got := jsonx.Clip(tc.s); got != tc.want {
			t.Errorf("Clip(%.20q…) = %.20q… (%d bytes), want %d bytes", tc.s, got, len(got), len(tc.want))
		}
	}
}
