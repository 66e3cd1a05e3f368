// List filters, the wire's side: a list's filter read from the query.

package api

import (
	"net/http"
	"net/url"
	"strings"

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
	return decodeQuery(r.URL.RawQuery)
}

// decodeQuery is url.ParseQuery's values of raw, its errors ignored as
// (*url.URL).Query ignores them: the common query (no ';', fewer than
// 1,000 parameters, every escape well formed) decoded in one pass into
// one allocation a value, any other by url.ParseQuery itself.
// TestDecodeQueryIsParseQuery holds the two alike.
func decodeQuery(raw string) url.Values {
	if v, ok := decodeSimpleQuery(raw); ok {
		return v
	}
	v, _ := url.ParseQuery(raw)
	return v
}

// decodeSimpleQuery is decodeQuery's one pass; ok is false for a query
// it leaves to url.ParseQuery.
func decodeSimpleQuery(raw string) (url.Values, bool) {
	if strings.IndexByte(raw, ';') >= 0 || strings.Count(raw, "&") >= 1000 {
		return nil, false
	}
	m := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, ok := unescapeQuery(k)
		if !ok {
			return nil, false
		}
		value, ok := unescapeQuery(v)
		if !ok {
			return nil, false
		}
		m[key] = append(m[key], value)
	}
	return m, true
}

// unescapeQuery is url.QueryUnescape of s; ok is false for a malformed
// escape.
func unescapeQuery(s string) (string, bool) {
	i := strings.IndexAny(s, "%+")
	if i < 0 {
		return s, true
	}
	b := make([]byte, len(s))
	n := copy(b, s[:i])
	for ; i < len(s); i, n = i+1, n+1 {
		switch c := s[i]; c {
		case '%':
			if i+2 >= len(s) {
				return "", false
			}
			hi, lo := unhex(s[i+1]), unhex(s[i+2])
			if hi > 15 || lo > 15 {
				return "", false
			}
			b[n] = hi<<4 | lo
			i += 2
		case '+':
			b[n] = ' '
		default:
			b[n] = c
		}
	}
	return string(b[:n]), true
}

// unhex is a hex digit's value, 16 for another byte.
func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	return 16
}
