package synapsefake

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/jsonx"
	"github.com/synapsefake/synapsefake/reference"
)

// Server is one fake service: a store, a clock and the HTTP API in front of
// them. It is an http.Handler; NewServer also gives it a listener.
// All methods are safe for concurrent use.
type Server struct {
	cfg     config
	clock   clock.Clock // the injected clock; nil for the default frozen one
	mock    *clock.Mock // the injected clock when it is a mock
	frozen  frozenClock // the default clock (clock.go)
	store   *store
	ts      *httptest.Server
	base    string
	closeMu sync.Once

	idemLocks     keyLocks
	hooks         *hooks
	webhookClient *http.Client
	faults        faults
	journal       journal
	tb            testing.TB // NewServer's: diagnostics and strict requests report to it
	end           *endOfTest // NewServer's cleanup (diagnose.go)
	restoring     sync.Mutex // held while a state document is restored: one at a time
	// platforms is the Platforms the server is a platform of, nil for one
	// of its own; ctlBase is where its control API is served then
	// (/_fake/platforms/{client_id}/ for a made one), "" for controlPrefix.
	platforms *Platforms
	ctlBase   string
}

// noListenerBase is the URL a Server built by New reports: requests to it go
// through Client or the handler itself, never a socket.
const noListenerBase = "http://synapsefake.invalid"

// New builds a Server with no listener. Serve it yourself, or use Client,
// whose transport calls the handler in-process.
func New(opts ...Option) *Server {
	s := &Server{cfg: defaultConfig()}
	cfg := &s.cfg
	for _, o := range opts {
		o(cfg)
	}
	switch c := cfg.clock.(type) {
	case nil:
		s.frozen.now = startTime(cfg.start)
	case *clock.Mock:
		s.mock, s.clock = c, c
	default:
		s.clock = c
	}
	s.store = newStore(cfg.seed)
	s.store.client = clientView{ID: cfg.clientID, Name: cfg.clientName}
	s.store.microDeposits = cfg.microDeposits
	s.store.manualProcessing = cfg.manualProcessing
	s.store.immediateProvisional = cfg.immediateProvisional
	s.store.cutoffs = cfg.cutoffs
	s.store.defaultCutoffs = cfg.cutoffs.equal(defaultCutoffs)
	s.journal.s = s
	s.hooks = newHooks(s)
	s.store.hooks = s.hooks
	s.webhookClient = cfg.webhookClient
	if s.webhookClient == nil {
		s.webhookClient = &http.Client{Timeout: cfg.webhookTimeout, Transport: webhookTransport()}
	}
	s.setBase(noListenerBase + apiPrefix)
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

// NewServer starts a Server on a loopback listener and closes it when the
// test ends. A listener that cannot be opened fails the test.
func NewServer(tb testing.TB, opts ...Option) *Server {
	s := New(opts...)
	l, err := listenLoopback()
	if err != nil {
		tb.Helper() // here only: Helper costs as much as a tenth of a NewServer
		tb.Fatalf("synapsefake: listen: %v", err)
	}
	s.tb = tb
	s.ts = &httptest.Server{Listener: l, Config: &http.Server{Handler: s, Protocols: http1Only}}
	s.ts.Start()
	s.setBase(s.ts.URL + apiPrefix)
	s.end = &endOfTest{s: s}
	tb.Cleanup(s.end.run) // diagnose.go
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
	s.base = u
	defer s.store.lock().unlock()
	s.store.base = u
}

// URL is the base URL clients configure, version prefix included:
// http://127.0.0.1:PORT/v3.1.
func (s *Server) URL() string { return s.base }

// Client returns an HTTP client for the server: the listener's client for a
// server from NewServer, an in-process transport for one from New.
func (s *Server) Client() *http.Client {
	if s.ts != nil {
		return s.ts.Client()
	}
	return &http.Client{Transport: handlerTransport{s}}
}

// Close stops the listener, if any. It is safe to call more than once.
func (s *Server) Close() {
	s.closeMu.Do(func() {
		s.hooks.close()
		if s.ts != nil {
			s.ts.Close()
		}
		s.end.closed()
	})
}

// ClientID is the platform's client id.
func (s *Server) ClientID() string { return s.cfg.clientID }

// ClientSecret is the platform's client secret.
func (s *Server) ClientSecret() string { return s.cfg.clientSecret }

// ClientName is the platform name shown in every object's client.name.
func (s *Server) ClientName() string { return s.cfg.clientName }

// Gateway is the X-SP-GATEWAY header value: "<client_id>|<client_secret>".
func (s *Server) Gateway() string { return s.cfg.clientID + "|" + s.cfg.clientSecret }

// isGateway reports whether gw is Gateway(), without building it.
func (s *Server) isGateway(gw string) bool {
	id, secret := s.cfg.clientID, s.cfg.clientSecret
	return len(gw) == len(id)+1+len(secret) && gw[:len(id)] == id && gw[len(id)] == '|' && gw[len(id)+1:] == secret
}

// Now is the server's current time, in milliseconds.
func (s *Server) Now() time.Time {
	if s.clock == nil {
		return s.frozen.Now()
	}
	return s.clock.Now().Truncate(time.Millisecond)
}

// Advance moves the server's mock clock forward by d. Before it returns,
// everything that fell due (processing steps, expiries, webhook retries) has
// run, in due order, and every webhook delivery that caused has been
// attempted, within Flush's bound of real time (so do not call Advance from
// a webhook receiver's handler). With a clock that is not a mock, Advance only runs what is
// already due.
func (s *Server) Advance(d time.Duration) {
	// Attempts still in flight finish at the old time, so that the order of
	// deliveries does not depend on how fast a receiver answered.
	s.Flush()
	switch {
	case d <= 0:
	case s.clock == nil:
		s.frozen.add(d)
	case s.mock != nil:
		s.mock.Add(d)
	}
	s.runAllDue()
	s.Flush()
}

// RunDue runs the clock-driven work that is due now (processing steps,
// expiries, statements, webhook retries), as every request does first,
// without moving the clock and without waiting for the webhook deliveries
// it queues, which go out at WithWebhookRate's pace. A server on a real
// clock that may sit idle calls it from time to time (the standalone fake
// does, every second); a test calls Advance, which also waits.
func (s *Server) RunDue() { s.runAllDue() }

// runDue applies every piece of clock-driven work that is due now. It is
// called at the start of every request, so a test that moves a shared mock
// itself still sees a consistent store.
//
// Before the first work falls due (store.nextDue, hooks.nextRetry) it
// costs two comparisons. Work added to any of the four needs its due time
// in one of those two.
func (s *Server) runDue() {
	if t := ms(s.Now()); t < s.store.due.Load() && t < s.hooks.nextRetry.Load() {
		return
	}
	s.runAllDue()
}

// runAllDue is runDue without its shortcut: Advance and RunDue, called
// rarely and on purpose, take the locks and look whatever the due times
// say, so that a due time left stale (by code that changed the store
// without its unlock) cannot make them do nothing.
func (s *Server) runAllDue() {
	now := s.Now()
	s.store.allDue(now)
	s.hooks.due(now)
}

// AddUser creates a user directly in the store, without HTTP, and returns a
// copy of it. Empty fields of seed get defaults: an example.com email, the
// phone number 901.111.1111 and the legal name "Test User". A seed the
// service would refuse (an unknown Permission) is an error, and adds
// nothing.
func (s *Server) AddUser(seed UserSeed) (User, error) { return s.addUser(s.Now(), seed) }

// MustAddUser is AddUser for a test that wants no error handling: an error
// fails tb at once.
func (s *Server) MustAddUser(tb testing.TB, seed UserSeed) User {
	u, err := s.AddUser(seed)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddUser: %v", err)
	}
	return u
}

// errSeedFingerprint refuses to register a fingerprint that POST /oauth and
// POST /users would refuse in X-SP-USER.
func errSeedFingerprint(fp string) *apierr.Error {
	return apierr.Payload("invalid_fingerprint", "The fingerprint %q is not 1 to 256 letters, digits, '-', '_' or '.': POST /oauth would refuse it.", jsonx.Cut(fp, 64))
}

// defaultSeedPhones and defaultSeedNames are a UserSeed's defaults, read
// only.
var (
	defaultSeedPhones = []string{"901.111.1111"}
	defaultSeedNames  = []string{"Test User"}
)

// addUser is AddUser with the user created at at.
func (s *Server) addUser(at time.Time, seed UserSeed) (User, error) {
	err := seed.validate()
	if err == nil {
		err = s.strictRules(nil, seed.broken())
	}
	if err != nil {
		return User{}, err
	}
	st := s.store
	defer st.lock().unlock()
	if seed.Email == "" {
		seed.Email = "user" + st.randomHex(4) + "@example.com"
	}
	if len(seed.PhoneNumbers) == 0 {
		seed.PhoneNumbers = defaultSeedPhones // newUser copies it
	}
	if len(seed.LegalNames) == 0 {
		seed.LegalNames = defaultSeedNames
	}
	defer st.asBackend()()
	u := st.newUser(at, seed, nil, 1, nil)
	st.emitUser(u.created, "USERS|POST", u)
	return u.public(), nil
}

// AddNode creates a node for an existing user directly in the store and
// returns a copy of it. Type defaults to DEPOSIT-US and Nickname to "Node".
// What the service would refuse is an error and adds nothing: an unknown
// user (404 / "404" on the wire) or node type, a Nickname longer than 256
// characters, a BalanceCents outside ±MaxBalanceCents, a RoutingNum that
// is not a routing number, an ACH-US AccountNum that is not 4 to 17 digits.
func (s *Server) AddNode(userID string, seed NodeSeed) (Node, error) {
	return s.addNode(s.Now(), userID, seed)
}

// MustAddNode is AddNode for a test that wants no error handling: an error
// fails tb at once.
func (s *Server) MustAddNode(tb testing.TB, userID string, seed NodeSeed) Node {
	n, err := s.AddNode(userID, seed)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddNode: %v", err)
	}
	return n
}

// addNode is AddNode with the node created at at.
func (s *Server) addNode(at time.Time, userID string, seed NodeSeed) (Node, error) {
	if err := seed.validate(); err != nil {
		return Node{}, err
	}
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil || u == st.networkUser {
		return Node{}, apierr.NotFound("user")
	}
	if seed.Type == "" {
		seed.Type = reference.NodeDepositUS
	}
	if seed.Nickname == "" {
		seed.Nickname = "Node"
	}
	var typ, class string
	if seed.Type == reference.NodeACHUS {
		typ, class = "PERSONAL", "CHECKING"
	}
	defer st.asBackend()()
	n := st.newNode(at, u, seed, typ, class, nil)
	st.emitNodeSnap(n.created, "NODES|POST", n)
	return n.public(), nil
}

// Fund adds cents to a node's balance, as AddNode's BalanceCents does: no
// transaction and no webhook, a line "Funds added" on its statements. It
// is for a node the application created over HTTP, which starts empty. A
// node that does not exist, is not active, or whose balance would leave
// ±MaxBalanceCents, or cents that is not positive, is an error and changes
// nothing.
func (s *Server) Fund(nodeID string, cents int64) error {
	if cents <= 0 || cents > MaxBalanceCents {
		return apierr.Payload("invalid_amount", "Fund takes from 1 to %d cents, not %d.", int64(MaxBalanceCents), cents)
	}
	now := s.Now()
	st := s.store
	defer st.lock().unlock()
	return st.fund(now, nodeID, cents)
}

// MustFund is Fund for a test that wants no error handling: an error fails
// tb at once.
func (s *Server) MustFund(tb testing.TB, nodeID string, cents int64) {
	if err := s.Fund(nodeID, cents); err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: Fund: %v", err)
	}
}

// User returns a copy of a user and whether it exists.
func (s *Server) User(id string) (User, bool) {
	st := s.store
	defer st.lock().unlock()
	u := st.users[id]
	if u == nil {
		return User{}, false
	}
	return u.public(), true
}

// Node returns a copy of a node and whether it exists.
func (s *Server) Node(id string) (Node, bool) {
	st := s.store
	defer st.lock().unlock()
	n := st.nodes[id]
	if n == nil {
		return Node{}, false
	}
	return n.public(), true
}

// OAuthKey registers fingerprint for the user and mints a valid oauth_key
// with the given scopes (every user-level scope when none are given), as if
// the OAuth dance had been walked. Clients send it as
// X-SP-USER: "<key>|<fingerprint>". It returns "" for an unknown user, a
// fingerprint POST /oauth would refuse (not 1 to 256 letters, digits, '-',
// '_' or '.') or an unknown scope. It
// mints a key for a LOCKED, CLOSED or MAKE-IT-GO-AWAY user too, whom
// POST /oauth refuses, so that a test can show what such a user's money
// moves get (409 / "410" user_locked).
func (s *Server) OAuthKey(userID, fingerprint string, scopes ...string) string {
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return ""
	}
	if !validFingerprint(fingerprint) || slices.ContainsFunc(scopes, func(sc string) bool { return !reference.IsScope(sc) }) {
		return ""
	}
	keyScopes := allUserScopes
	if len(scopes) > 0 {
		keyScopes = slices.Clone(scopes)
	}
	u.fingerprints[fingerprint] = true
	return st.newKey(s.Now().Add(s.cfg.keyLifetime), u.id, fingerprint, keyScopes).key
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
	r = r.Clone(context.WithValue(r.Context(), inProcessKey{}, true))
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
