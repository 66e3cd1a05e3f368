package synapsefake

import (
	"net/http"
	"strings"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/console"
)

// ServeHTTP serves the API. A panic in serving a request (in the fake, or
// in the WithHook hook) answers 500 / "500" and is logged (WithErrorLog);
// the server goes on serving.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	api.GrowStack(len(r.URL.Path))
	w := &api.GuardWriter{ResponseWriter: rw}
	defer s.core.RecoverPanic(w, w, r)
	r = api.KeepQuerySemicolons(r)
	if s.cfg.control && r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		http.Redirect(w, r, console.UIPrefix, http.StatusFound) // the dashboard
		return
	}
	if s.cfg.control && r.URL.Path == "/favicon.ico" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		console.UIFavicon(w) // what a browser asks of any page it opens: not an API call
		return
	}
	if s.cfg.control && strings.HasPrefix(r.URL.Path, console.ControlPrefix) {
		s.core.ServeControl(w, r)
		return
	}
	s.core.ServeAPI(w, r)
}
