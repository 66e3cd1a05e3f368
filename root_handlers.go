package synapsefake

import (
	"context"
	"net/http"
	"path"
	"strings"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
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
	if p := r.URL.Path; p != "/" && !api.PlainPath(p) && p != path.Clean(p) {
		// ServeMux would redirect to the clean path; the real API answers 404.
		s.core.FailUnjournaled(w, r, apierr.RouteNotFound.Because("the path %s is not clean (// . or ..)", p).Hinting("join the path to fake.URL() with one /"))
		return
	}
	if api.HeaderBytes(r.Header) > api.MaxHeaderBytes {
		s.core.FailUnjournaled(w, r, apierr.Payload("headers_too_large", "Request headers are larger than %d bytes.", api.MaxHeaderBytes))
		return
	}
	s.core.RunDueFast()
	if s.cfg.hook != nil && s.cfg.hook(w, r) {
		return
	}
	if !s.core.Delay(r) {
		s.core.Fail(w, api.ErrGatewayTimeout)
		return
	}
	if s.cfg.Strict {
		r = r.WithContext(context.WithValue(r.Context(), api.ServerKey{}, &s.core.Wire)) // for checkStrict
	}
	rec := s.core.Journal.Start(w, r)
	defer s.core.Journal.Finish(rec, r)
	defer s.core.RecoverPanic(w, rec, r) // before finish, so that the journal records the 500
	s.core.WithIdempotency(rec, r, api.APIMux())
}
