package api

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
