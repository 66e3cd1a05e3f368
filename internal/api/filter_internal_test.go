package api

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/benchpair"
	"github.com/synapsefake/synapsefake/internal/filter"
)

// BenchmarkReadList is what a list reads of its query: readList (the
// query decoded once: page, per_page and filter) against the two reads
// it replaced, readPage and the old readFilter, which looked for the text
// "filter" in the raw query before decoding it again (and so missed
// ?%66ilter=). "paired-none" is a list without a query, "paired-page" one
// with page and per_page, "paired-filter" one with a filter: x is their
// ratio, at most about 1x when the unfiltered list pays nothing for the
// fix.
func BenchmarkReadList(b *testing.B) {
	oldRead := func(r *http.Request) (bank.Page, *filter.Filter) {
		p, err := readPage(r)
		if err != nil {
			b.Fatal(err)
		}
		if !strings.Contains(r.URL.RawQuery, "filter") {
			return p, nil
		}
		f, err := filter.Parse(r.URL.Query().Get("filter"))
		if err != nil {
			b.Fatal(err)
		}
		return p, f
	}
	for _, tc := range []struct{ name, target string }{
		{"paired-none", "/v3.1/users"},
		{"paired-page", "/v3.1/users?page=2&per_page=10"},
		{"paired-filter", "/v3.1/users?page=2&filter=%7B%22legal_names%22%3A%22User%201%22%7D"},
	} {
		r := httptest.NewRequest("GET", tc.target, nil)
		b.Run(tc.name, func(b *testing.B) {
			benchpair.Run(b, func() {
				if _, _, err := readList(nil, r, false); err != nil {
					b.Fatal(err)
				}
			}, func() { oldRead(r) })
		})
	}
}

// queryCases are queries decodeSimpleQuery decodes (simple: true) or
// leaves to url.ParseQuery.
var queryCases = []struct {
	raw    string
	simple bool
}{
	{"", true},
	{"a=1", true},
	{"a=1&a=2&b=", true},
	{"a", true},
	{"&&a=1&", true},
	{"filter=%7B%22legal_names%22%3A%22User+1%22%7D&page=2", true},
	{"%66ilter=x", true},
	{"a=%e2%9c%93&b=%E2%9C%93", true},
	{"a=b=c", true},
	{"a=%ff", true},
	{"a=%zz", false},
	{"a=%4", false},
	{"a=%", false},
	{"a=1;b=2", false},
	{"a=1%3Bb", true},
	{strings.Repeat("a=1&", 1000), false},
}

// TestDecodeQueryIsParseQuery: what decodeSimpleQuery decodes,
// url.ParseQuery decodes to the same values without an error, and
// decodeQuery answers url.ParseQuery's values for every query.
func TestDecodeQueryIsParseQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range queryCases {
		if _, ok := decodeSimpleQuery(tc.raw); ok != tc.simple {
			t.Errorf("decodeSimpleQuery(%q): ok %v, want %v", tc.raw, ok, tc.simple)
		}
		checkDecodeQuery(t, tc.raw)
	}
}

// checkDecodeQuery fails when decodeQuery's answer to raw is not
// url.ParseQuery's, or decodeSimpleQuery takes a query ParseQuery
// refuses.
func checkDecodeQuery(t *testing.T, raw string) {
	t.Helper()
	want, err := url.ParseQuery(raw)
	if _, ok := decodeSimpleQuery(raw); ok && err != nil {
		t.Fatalf("decodeSimpleQuery(%q) decodes what url.ParseQuery refuses: %v", raw, err)
	}
	if got := decodeQuery(raw); !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeQuery(%q) = %v, url.ParseQuery %v", raw, got, want)
	}
}

// FuzzDecodeQuery holds decodeQuery to url.ParseQuery on any query.
func FuzzDecodeQuery(f *testing.F) {
	for _, tc := range queryCases {
		f.Add(tc.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) { checkDecodeQuery(t, raw) })
}
