package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// Health and metrics for operators: GET /_fake/livez, /_fake/readyz and
// /_fake/metrics, for a container's HEALTHCHECK, Compose's
// service_healthy, Kubernetes' probes, Testcontainers' wait strategies and
// a Prometheus scrape.
//
// They skip GuardControl's origin and Host checks: a probe or a scraper
// reaches the fake under whatever name it was given (a pod's address, the
// Docker host's), and what they show (one bit; counts by route) is
// neither the state nor a way to change it. livez and readyz skip the
// control token too, as a kubelet's and a healthcheck's requests carry
// none; metrics keeps it (WithControlToken): a scraper sends it as
// Authorization: Bearer. Due work does not run for them. They are never
// in the journal.

// openRoutes are the control routes GuardControl does not check, below
// ControlPrefix, with the methods each serves.
var openRoutes = map[string]controlRoute{
	"livez":   {http.MethodGet: (*Console).serveLivez, http.MethodHead: (*Console).serveLivez},
	"readyz":  {http.MethodGet: (*Console).serveReadyz, http.MethodHead: (*Console).serveReadyz},
	"metrics": {http.MethodGet: (*Console).serveMetrics, http.MethodHead: (*Console).serveMetrics},
}

// serveOpen serves r when its path is one of openRoutes, and reports
// whether it was.
func (s *Console) serveOpen(w http.ResponseWriter, r *http.Request) bool {
	rt, ok := openRoutes[strings.TrimPrefix(r.URL.Path, ControlPrefix)]
	if !ok || !strings.HasPrefix(r.URL.Path, ControlPrefix) {
		return false
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	serve, ok := rt[r.Method]
	if !ok {
		allow := allowHeader(rt)
		h.Set("Allow", allow)
		s.Fail(w, &apierr.Error{Status: http.StatusMethodNotAllowed, ErrorCode: reference.ErrNotAllowed,
			Code: "method_not_allowed", Message: fmt.Sprintf("Method %s is not allowed on this route; it takes %s.", r.Method, allow)})
		return true
	}
	serve(s, w, r)
	return true
}

// serveLivez serves GET /_fake/livez: the process answers.
func (s *Console) serveLivez(w http.ResponseWriter, r *http.Request) {
	s.ControlOK(w, map[string]any{"live": true})
}

// serveReadyz serves GET /_fake/readyz. A Server is ready once made; the
// standalone binary answers ServeNotReady itself while it loads its state
// file.
func (s *Console) serveReadyz(w http.ResponseWriter, r *http.Request) {
	s.ControlOK(w, map[string]any{"ready": true})
}

// ServeNotReady answers a readiness probe of a fake that is not ready yet:
// 503 / "503" not_ready, why saying what it waits for. The standalone
// binary answers it to GET /_fake/readyz while it loads its state.
func ServeNotReady(w http.ResponseWriter, why string) {
	e := apierr.New(reference.ErrUnavailable, "not_ready", "%s", why)
	body, _ := json.Marshal(bank.EnvelopeOf(e))
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Retry-After", "1")
	w.WriteHeader(e.Status)
	_, _ = w.Write(body)
}
