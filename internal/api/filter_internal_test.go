package api

import (
	"net/http"
	"net/http/httptest"
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
