// The request journal, the console's side: the control routes that list and clear it.

package console

import (
	"net/http"
	"net/url"

	"github.com/synapsefake/synapsefake/internal/api"
)

type controlRequestView struct {
	Method    string     `json:"method"`
	Path      string     `json:"path"`
	Route     string     `json:"route"`
	Query     url.Values `json:"query"`
	Status    int        `json:"status"`
	ErrorCode string     `json:"error_code"`
	Summary   string     `json:"summary"`
	Reason    string     `json:"reason,omitempty"` // why the fake refused it
	// NearMisses are the routes nearest to a call no route took.
	NearMisses []string `json:"near_misses,omitempty"`
}

// controlRequests serves GET /_fake/requests: the journal, oldest first,
// with its query redacted and no headers or bodies but their redacted
// summary, the reasons' hints in the caller's calls.
func (s *Console) controlRequests(w http.ResponseWriter, r *http.Request) {
	reqs := s.Requests()
	out := make([]controlRequestView, len(reqs))
	caller := callerOf(r)
	for i, q := range reqs {
		out[i] = controlRequestView{Method: q.Method, Path: q.Path, Route: q.Route, Query: api.RedactQuery(q.Query),
			Status: q.Status, ErrorCode: q.ErrorCode, Summary: q.String(), Reason: caller.Phrase(q.Reason), NearMisses: q.NearMisses}
	}
	s.ControlOK(w, map[string]any{"requests": out})
}

// controlResetRequests serves DELETE /_fake/requests.
func (s *Console) controlResetRequests(w http.ResponseWriter, r *http.Request) {
	s.ResetRequests()
	s.ControlOK(w, nil)
}
