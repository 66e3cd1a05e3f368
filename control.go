package synapsefake

import "net/http"

// controlPrefix is the root of the control API; it never shares a path with
// the real API, which lives under /v3.1.
const controlPrefix = "/_fake/"

// serveControl serves the /_fake/ control API.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	s.fail(w, errRouteNotFound)
}
