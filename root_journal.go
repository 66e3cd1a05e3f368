package synapsefake

import "bytes"

// Requests returns the API calls the server answered, oldest first: the
// newest calls that fit in the journal's bounds (WithJournalLimit; by
// default 10,000 calls and 8 MiB). The /_fake/ control API is not recorded.
func (s *Server) Requests() []Request {
	s.journal.mu.Lock()
	defer s.journal.mu.Unlock()
	live := s.journal.entries[s.journal.head:]
	out := make([]Request, len(live))
	for i, e := range live {
		r := e.req
		r.Header = r.Header.Clone()
		r.Query = cloneValues(r.Query)
		r.Body = bytes.Clone(r.Body)
		out[i] = r
	}
	return out
}

// RequestsTo returns the calls to one route, as FailNext names routes:
// RequestsTo("POST", "/users/{user_id}/nodes/{node_id}/trans"). An empty
// method matches any.
func (s *Server) RequestsTo(method, route string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if (method == "" || r.Method == method) && r.Route == route {
			out = append(out, r)
		}
	}
	return out
}

// ResetRequests empties the journal.
func (s *Server) ResetRequests() {
	s.journal.mu.Lock()
	s.journal.entries, s.journal.head, s.journal.bytes = nil, 0, 0
	s.journal.mu.Unlock()
}
