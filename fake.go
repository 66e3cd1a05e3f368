package synapsefake

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/console"
)

// Server is one fake service: a store, a clock and the HTTP API in front of
// them. It is an http.Handler; NewServer also gives it a listener.
// All methods are safe for concurrent use.
type Server struct {
	core console.Console
	cfg  config // every option; New copies each layer's part into its own config
	// platforms is the Platforms the server is a platform of, nil for one
	// of its own.
	platforms *Platforms
	ts        *httptest.Server
	closeMu   sync.Once
}

// noListenerBase is the URL a Server built by New reports: requests to it go
// through Client or the handler itself, never a socket.
const noListenerBase = "http://synapsefake.invalid"

// New builds a Server with no listener. Serve it yourself, or use Client,
// whose transport calls the handler in-process.
func New(opts ...Option) *Server {
	s := &Server{}
	s.cfg = defaultConfig()
	cfg := &s.cfg
	for _, o := range opts {
		o(cfg)
	}
	s.core.SetConfig(&cfg.ConsoleConfig) // each layer reads its part of the options in place
	s.core.Host = (*host)(s)
	switch c := cfg.clock.(type) {
	case nil:
		s.core.SetFrozenClock(bank.StartTime(cfg.start))
	case *clock.Mock:
		s.core.Mock, s.core.Clock = c, c
	default:
		s.core.Clock = c
	}
	s.core.OpenStore(bank.ClientView{ID: cfg.ClientID, Name: cfg.ClientName}, cfg.microDeposits, cfg.manualProcessing, cfg.immediateProvisional, cfg.cutoffs)
	s.core.Connect()
	s.core.WebhookClient = cfg.webhookClient
	if s.core.WebhookClient == nil {
		s.core.WebhookClient = &http.Client{Timeout: cfg.webhookTimeout, Transport: webhookTransport()}
	}
	s.setBase(noListenerBase + api.APIPrefix)
	return s
}

// webhookTransport is the transport of every fake's default webhook client:
// one of its own, not http.DefaultTransport, whose idle connections any
// httptest.Server's Close closes, failing a delivery that was about to
// reuse one (408, "CloseIdleConnections called") in a test running beside
// it.
// A DefaultTransport a program replaced with its own is used as it is.
var webhookTransport = sync.OnceValue(func() http.RoundTripper {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		return t.Clone()
	}
	return http.DefaultTransport
})

// TB is what the fake asks of a test: the methods of testing.TB that
// NewServer, the Must and Check methods, As and WebhookCapture's Wait call.
// A *testing.T, *testing.B or *testing.F is one; so is a stand-in of a
// few lines where there is no test, as in the package's examples.
type TB interface {
	Cleanup(func())
	Errorf(format string, args ...any)
	Failed() bool
	Fatalf(format string, args ...any)
	Helper()
	Logf(format string, args ...any)
}

// The wire's TB, which Wait takes, has the same methods as TB.
var (
	_ api.TB = TB(nil)
	_ TB     = api.TB(nil)
)

// NewServer starts a Server on a loopback listener and closes it when the
// test ends. A listener that cannot be opened fails the test.
func NewServer(tb TB, opts ...Option) *Server {
	s := New(opts...)
	l, err := listenLoopback()
	if err != nil {
		tb.Helper() // here only: Helper costs as much as a tenth of a NewServer
		tb.Fatalf("synapsefake: listen: %v", err)
	}
	s.core.Tb = tb
	s.ts = &httptest.Server{Listener: l, Config: &http.Server{Handler: s, Protocols: http1Only}}
	s.ts.Start()
	s.setBase(s.ts.URL + api.APIPrefix)
	s.core.End = &api.EndOfTest{S: &s.core.Wire, Srv: s}
	tb.Cleanup(s.core.End.Run) // diagnose.go
	return s
}

// http1Only is the protocols of NewServer's http.Server: HTTP/1.1 only, all
// that a plain listener serves anyway (unencrypted HTTP/2 is off by
// default). Without it, Serve sets up HTTP/2 for a TLS listener it might
// be handed, which cost each test about 2% (BenchmarkReadmeTest).
var http1Only = func() *http.Protocols {
	var p http.Protocols
	p.SetHTTP1(true)
	return &p
}()

func (s *Server) setBase(u string) {
	if s.cfg.baseURL != "" {
		u = s.cfg.baseURL
	}
	s.core.Base = u
	s.core.SetStoreBase(u)
}

// URL is the base URL clients configure, version prefix included:
// http://127.0.0.1:PORT/v3.1.
func (s *Server) URL() string { return s.core.Base }

// Client returns an HTTP client for the server: the listener's client for a
// server from NewServer, an in-process transport for one from New.
func (s *Server) Client() *http.Client {
	if s.ts != nil {
		return s.ts.Client()
	}
	return &http.Client{Transport: handlerTransport{s}}
}

// Close stops the listener, if any, and the webhook deliveries: those
// in flight are cancelled and waited for, so that none runs once Close
// returns. It is safe to call more than once.
func (s *Server) Close() {
	s.closeMu.Do(func() {
		s.core.Hooks.Close()
		if s.ts != nil {
			s.ts.Close()
		}
		s.core.End.Closed()
	})
}

// ClientID is the platform's client id.
func (s *Server) ClientID() string { return s.cfg.ClientID }

// ClientSecret is the platform's client secret.
func (s *Server) ClientSecret() string { return s.cfg.ClientSecret }

// ClientName is the platform name shown in every object's client.name.
func (s *Server) ClientName() string { return s.cfg.ClientName }

// Gateway is the X-SP-GATEWAY header value: "<client_id>|<client_secret>".
func (s *Server) Gateway() string { return s.cfg.ClientID + "|" + s.cfg.ClientSecret }

// MustAddUser is AddUser for a test that wants no error handling: an error
// fails tb at once.
func (s *Server) MustAddUser(tb TB, seed UserSeed) User {
	u, err := s.core.AddUser(seed)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddUser: %v", err)
	}
	return u
}

// MustAddNode is AddNode for a test that wants no error handling: an error
// fails tb at once.
func (s *Server) MustAddNode(tb TB, userID string, seed NodeSeed) Node {
	n, err := s.core.AddNode(userID, seed)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddNode: %v", err)
	}
	return n
}

// MustFund is Fund for a test that wants no error handling: an error fails
// tb at once.
func (s *Server) MustFund(tb TB, nodeID string, cents int64) {
	if err := s.core.Fund(nodeID, cents); err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: Fund: %v", err)
	}
}

// Transport returns a RoundTripper that serves requests in-process, with no
// socket: requests to any host reach this server, the control API's too
// (no browser can send them; see WithAllowedHosts). It works where a
// listener cannot, as inside testing/synctest bubbles.
func (s *Server) Transport() http.RoundTripper { return handlerTransport{s} }

// handlerTransport serves requests by calling the handler in-process.
type handlerTransport struct{ h http.Handler }

// RoundTrip serves r. A handler that aborts (panics with
// http.ErrAbortHandler) fails the round trip, as a dropped connection would.
func (t handlerTransport) RoundTrip(r *http.Request) (resp *http.Response, err error) {
	defer func() {
		if v := recover(); v != nil {
			if e, ok := v.(error); !ok || !errors.Is(e, http.ErrAbortHandler) {
				panic(v)
			}
			resp, err = nil, fmt.Errorf("synapsefake: %s %s: the handler aborted the answer", r.Method, r.URL)
		}
	}()
	rec := httptest.NewRecorder()
	if r.Body == nil {
		r.Body = http.NoBody
	}
	r = r.Clone(context.WithValue(r.Context(), console.InProcessKey{}, true))
	// A client sends header names as written; a server receives them
	// canonicalised by net/http, so do the same.
	h := make(http.Header, len(r.Header))
	for k, v := range r.Header {
		h[http.CanonicalHeaderKey(k)] = append(h[http.CanonicalHeaderKey(k)], v...)
	}
	r.Header = h
	t.h.ServeHTTP(rec, r)
	resp = rec.Result()
	resp.Request = r
	return resp, nil
}

// Statements returns copies of a node's statements, oldest first.
func (s *Server) Statements(nodeID string) []Statement {
	return s.core.StatementsOf(nodeID)
}

// AdvanceTo moves the clock forward to t, as Advance(t.Sub(Now())) does:
// everything that fell due on the way runs, in due order, before it
// returns the new time; a t equal to Now only runs what is already due.
// The fake's clock only moves forward: every record, step and expiry is
// dated, and time running back would date what a request does before what
// already happened. So a t before Now (to the millisecond) is refused
// (400 / "200" invalid_time); to start earlier, build the server
// WithStartTime(t), or Restore a Snapshot. A clock given to WithClock that
// is not a *clock.Mock cannot be moved: that is refused too (409 / "410"
// clock_not_manual). A refusal moves and runs nothing, and returns Now.
func (s *Server) AdvanceTo(t time.Time) (time.Time, error) {
	now := s.core.Now()
	switch {
	case !s.core.ManualClock():
		return now, api.ErrClockNotManual("to " + bank.FmtInstant(t))
	case t.Truncate(time.Millisecond).Before(now):
		return now, apierr.Payload("invalid_time", "The clock is at %s and only moves forward, not back to %s.", bank.FmtInstant(now), bank.FmtInstant(t))
	}
	s.core.Advance(t.Sub(now))
	return s.core.Now(), nil
}

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

// MustAddSubnet is AddSubnet for a test that wants no error handling: an
// error fails tb at once.
func (s *Server) MustAddSubnet(tb TB, userID, nodeID string, seed SubnetSeed) Subnet {
	sn, err := s.core.AddSubnet(userID, nodeID, seed)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddSubnet: %v", err)
	}
	return sn
}

// MustAddSubscription is AddSubscription for a test that wants no error
// handling: an error fails tb at once.
func (s *Server) MustAddSubscription(tb TB, url string, scopes ...string) Subscription {
	sub, err := s.core.AddSubscription(url, scopes...)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddSubscription: %v", err)
	}
	return sub
}
