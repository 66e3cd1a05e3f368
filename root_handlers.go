package synapsefake

import (
	"context"
	"net/http"
	"path"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// ServeHTTP serves the API. A panic in serving a request (in the fake, or
// in the WithHook hook) answers 500 / "500" and is logged (WithErrorLog);
// the server goes on serving.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	growStack(len(r.URL.Path))
	w := &guardWriter{ResponseWriter: rw}
	defer s.core.recoverPanic(w, w, r)
	r = keepQuerySemicolons(r)
	if s.cfg.control && r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		http.Redirect(w, r, uiPrefix, http.StatusFound) // the dashboard
		return
	}
	if s.cfg.control && r.URL.Path == "/favicon.ico" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		uiFavicon(w) // what a browser asks of any page it opens: not an API call
		return
	}
	if s.cfg.control && strings.HasPrefix(r.URL.Path, controlPrefix) {
		s.core.serveControl(w, r)
		return
	}
	if p := r.URL.Path; p != "/" && !plainPath(p) && p != path.Clean(p) {
		// ServeMux would redirect to the clean path; the real API answers 404.
		s.core.failUnjournaled(w, r, apierr.RouteNotFound.Because("the path %s is not clean (// . or ..)", p).Hinting("join the path to fake.URL() with one /"))
		return
	}
	if headerBytes(r.Header) > maxHeaderBytes {
		s.core.failUnjournaled(w, r, apierr.Payload("headers_too_large", "Request headers are larger than %d bytes.", maxHeaderBytes))
		return
	}
	s.core.runDue()
	if s.cfg.hook != nil && s.cfg.hook(w, r) {
		return
	}
	if !s.core.delay(r) {
		s.core.fail(w, errGatewayTimeout)
		return
	}
	if s.cfg.strict {
		r = r.WithContext(context.WithValue(r.Context(), serverKey{}, &s.core.wireCore)) // for checkStrict
	}
	rec := s.core.journal.start(w, r)
	defer s.core.journal.finish(rec, r)
	defer s.core.recoverPanic(w, rec, r) // before finish, so that the journal records the 500
	s.core.withIdempotency(rec, r, apiMux())
}
