package synapsefake

import (
	"net/http"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/filter"
)

// readFilter reads a list's filter query parameter, a Mongo-style document
// (internal/filter): nil when absent or empty, 400 / "200" invalid_filter
// with the reason when malformed.
func readFilter(r *http.Request) (*filter.Filter, error) {
	if !strings.Contains(r.URL.RawQuery, "filter") {
		return nil, nil // the list's ordinary path parses no query again
	}
	text := r.URL.Query().Get("filter")
	if text == "" {
		return nil, nil
	}
	f, err := filter.Parse(text)
	if err != nil {
		return nil, apierr.Payload("invalid_filter", "filter: %v.", err)
	}
	return f, nil
}

// pageOf is page p of list, newest first when asked: the views of the ids
// that skip (nil: none) leaves and f (nil: every one) matches, and how many
// there are. Without skip and f it builds the page's views only; otherwise
// it goes once over list, building each view f reads once and keeping the
// page's.
func pageOf[V any](list []string, p page, newestFirst bool, skip func(id string) bool, f *filter.Filter, view func(id string) V) (items []V, total int) {
	at := func(i int) string {
		if newestFirst {
			return list[len(list)-1-i]
		}
		return list[i]
	}
	// The kept items are at most list's, so this window bounds theirs.
	lo, hi := p.window(len(list))
	items = make([]V, 0, hi-lo)
	if skip == nil && f == nil {
		for i := lo; i < hi; i++ {
			items = append(items, view(at(i)))
		}
		return items, len(list)
	}
	var (
		doc    viewDoc
		v      V // one for the pass: of takes its address
		fields []string
	)
	if f != nil {
		fields = f.Fields()
	}
	for i := range list {
		id := at(i)
		if skip != nil && skip(id) {
			continue
		}
		if f != nil {
			v = view(id)
			if !f.Match(doc.of(&v, fields)) {
				continue
			}
			if total >= lo && len(items) < p.perPage {
				items = append(items, v)
			}
		} else if total >= lo && len(items) < p.perPage {
			items = append(items, view(id))
		}
		total++
	}
	return items, total
}
