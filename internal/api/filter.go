// List filters, the wire's side: a list's filter read from the query.

package api

import (
	"net/http"
	"net/url"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/filter"
)

// readList reads a filtered list's query once, decoded (so that a
// percent-encoded name, ?%66ilter=, is the filter too): its page and
// per_page (readPage), and its filter query parameter, a Mongo-style
// document (internal/filter), into a ListQuery carrying the request's
// context. It answers the query too, for the list's own parameters
// (queryOf: not to be changed).
func readList(w http.ResponseWriter, r *http.Request, newestFirst bool) (bank.ListQuery, url.Values, error) {
	q := queryOf(w, r)
	lq := bank.ListQuery{NewestFirst: newestFirst, Ctx: r.Context()}
	var err error
	if lq.Page, err = pageIn(q); err != nil {
		return lq, q, err
	}
	lq.Filter, err = filterIn(q)
	return lq, q, err
}

// filterIn is the filter of a list's query: nil when absent or empty, or
// when it names no field (it matches every item: the list reads its page
// alone), 400 / "200" invalid_filter with the reason when malformed or
// past one of internal/filter's limits.
func filterIn(q url.Values) (*filter.Filter, error) {
	text := q.Get("filter")
	if text == "" {
		return nil, nil
	}
	f, err := filter.Parse(text)
	if err != nil {
		return nil, apierr.Payload("invalid_filter", "filter: %v.", err)
	}
	if len(f.Fields()) == 0 {
		return nil, nil
	}
	return f, nil
}

// queryOf is r's query, decoded, nil when it has none (Get answers ""):
// the journal's, when w records r (Journal.Start decoded it), so that a
// long query (a filter of MaxBytes) is decoded once. The caller does not
// change it.
func queryOf(w http.ResponseWriter, r *http.Request) url.Values {
	if rec, ok := w.(*recorder); ok && rec.req.Query != nil {
		return rec.req.Query
	}
	if r.URL.RawQuery == "" {
		return nil
	}
	return r.URL.Query()
}
