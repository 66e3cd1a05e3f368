package synapsefake

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/console"
	"github.com/synapsefake/synapsefake/internal/jsonx"
	"github.com/synapsefake/synapsefake/internal/standalone"
	"github.com/synapsefake/synapsefake/reference"
)

// Platforms is many isolated fakes behind one handler (issue 37): each
// platform is a whole Server of its own (users, ids, clock, webhooks,
// journal, faults), and an API request goes to the platform whose client id
// its X-SP-GATEWAY names. The platform it is made with is the default: it
// answers every request that names no other platform (an unknown client id
// or a wrong secret is its 401, a route that needs no credentials its
// answer) and the control API at /_fake/. The control API makes, lists and
// removes platforms at /_fake/platforms, and /_fake/platforms/{client_id}/
// is one platform's whole control API. The standalone binary serves one.
// All methods are safe for concurrent use.
type Platforms struct {
	def  *Server
	opts []Option // every platform's options, before its own
	max  int

	mu    sync.RWMutex
	byID  map[string]*Server
	order []*Server // made platforms, oldest first
	made  uint64    // platforms made, the removed ones included
}

// DefaultMaxPlatforms is how many platforms, the default among them, a
// Platforms holds unless WithMaxPlatforms says otherwise.
const DefaultMaxPlatforms = 1000

// PlatformConfig is what makes one platform differ from the others; every
// field is optional.
type PlatformConfig struct {
	// Name is the platform's name, shown in every object's client.name
	// (default: the client id).
	Name string
	// ClientID and ClientSecret are the halves of its X-SP-GATEWAY
	// (default: random ones). The client id is at most 64 letters, digits,
	// '_', '-' and '.', and not "." or "..": it is one segment of the
	// platform's control URL, which a URL resolver must leave as it is.
	ClientID, ClientSecret string
	// Start is its clock's instant when it is made (default: the default
	// platform's time then).
	Start time.Time
	// Clock is "manual" (frozen until advanced) or "real" (running in real
	// time from Start); default: the default platform's kind.
	Clock string
	// Seed is the seed of its id stream (default: one drawn from the
	// client id, so that platforms do not hand out the same ids). Its
	// oauth keys and refresh tokens are drawn from it too, but hashed
	// with the platform's identity: its client id and its number among
	// the platforms made (1, 2, ... in the order Add made them, the
	// removed ones counted). Two platforms with one seed hand out the same
	// ids, but no key or token of one opens the other, nor one of a
	// removed platform the one made again with its client id and seed.
	Seed uint64
}

// Default is the default platform.
func (p *Platforms) Default() *Server { return p.def }

// Get is the platform with the given client id, the default's included, or
// nil.
func (p *Platforms) Get(clientID string) *Server {
	if clientID == p.def.cfg.ClientID {
		return p.def
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.byID[clientID]
}

// List is every platform, the default first, then the others oldest first.
func (p *Platforms) List() []*Server {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return append([]*Server{p.def}, p.order...)
}

// Add makes a platform. A client id in use, a bad field or one platform
// beyond the bound is an error, and nothing is made.
func (p *Platforms) Add(c PlatformConfig) (*Server, error) {
	if c.ClientID == "" {
		c.ClientID = "client_id_" + randomHex(15)
	}
	if c.ClientSecret == "" {
		c.ClientSecret = "client_secret_" + randomHex(15)
	}
	if err := checkPlatformConfig(c); err != nil {
		return nil, err
	}
	if c.Name == "" {
		c.Name = c.ClientID
	}
	if c.Seed == 0 {
		h := fnv.New64a()
		h.Write([]byte(c.ClientID))
		c.Seed = h.Sum64() | 1
	}
	defClock := p.def.core.Clock
	if c.Clock == "" {
		c.Clock = "manual"
		if defClock != nil && p.def.core.Mock == nil {
			c.Clock = "real"
		}
	}
	opts := append(append([]Option(nil), p.opts...), WithClientCredentials(c.ClientID, c.ClientSecret),
		WithClientName(c.Name), WithIDSeed(c.Seed))
	switch {
	case c.Clock == "manual":
		start := c.Start
		if start.IsZero() {
			start = p.def.core.Now()
		}
		opts = append(opts, WithStartTime(start))
	case c.Start.IsZero() && defClock != nil && p.def.core.Mock == nil:
		opts = append(opts, WithClock(defClock)) // the default's real clock, offset or not
	case c.Start.IsZero():
		opts = append(opts, WithClock(standalone.RealClockFrom(p.def.core.Now())))
	default:
		opts = append(opts, WithClock(standalone.RealClockFrom(c.Start)))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.ClientID == p.def.cfg.ClientID || p.byID[c.ClientID] != nil {
		return nil, apierr.NotAllowed("platform_exists", "A platform with client_id %s exists already.", c.ClientID)
	}
	if 1+len(p.order) >= p.max {
		return nil, apierr.New(reference.ErrTooManyRequests, "too_many_platforms",
			"This fake holds %d platforms, its bound (-max-platforms); delete one (DELETE /_fake/platforms/{client_id}) before making another.", p.max)
	}
	p.made++
	incarnation := p.made
	s := New(append(opts, func(c *config) { c.Incarnation = incarnation })...)
	s.platforms, s.core.CtlBase = p, platformsPrefix+"/"+c.ClientID+"/"
	p.byID[c.ClientID] = s
	p.order = append(p.order, s)
	return s, nil
}

// Remove removes the platform with the given client id and everything in
// it, and closes it. The default platform cannot be removed.
func (p *Platforms) Remove(clientID string) error {
	if clientID == p.def.cfg.ClientID {
		return apierr.NotAllowed("default_platform", "The default platform cannot be deleted.")
	}
	p.mu.RLock()
	s := p.byID[clientID]
	p.mu.RUnlock()
	if s == nil {
		return apierr.NotFound("platform")
	}
	return p.remove(s)
}

// remove removes the platform s, unless it is the default or is no longer
// one of p's (removed meanwhile, its client id perhaps another's now).
func (p *Platforms) remove(s *Server) error {
	if s == p.def {
		return apierr.NotAllowed("default_platform", "The default platform cannot be deleted.")
	}
	p.mu.Lock()
	found := p.byID[s.cfg.ClientID] == s
	if found {
		delete(p.byID, s.cfg.ClientID)
		p.order = slices.DeleteFunc(p.order, func(o *Server) bool { return o == s })
	}
	p.mu.Unlock()
	if !found {
		return apierr.NotFound("platform")
	}
	s.Close()
	return nil
}

// runDue runs what is due on every platform (standalone.RunDue).
func (p *Platforms) runDue() {
	for _, s := range p.List() {
		s.core.RunDue()
	}
}

func init() {
	standalone.RunDue = func(h http.Handler) {
		switch h := h.(type) {
		case *Server:
			h.core.RunDue()
		case *Platforms:
			h.runDue()
		default:
			panic(fmt.Sprintf("synapsefake: standalone.RunDue of a %T", h))
		}
	}
}

// Close closes every platform.
func (p *Platforms) Close() {
	for _, s := range p.List() {
		s.Close()
	}
}

// platformsPrefix is the root of the platforms' control routes.
const platformsPrefix = console.ControlPrefix + "platforms"

// ServeHTTP serves r with the platform it is for: the control routes of
// the platforms, one platform's control API under
// /_fake/platforms/{client_id}/, an API request with the platform its
// X-SP-GATEWAY names, and everything else with the default platform.
func (p *Platforms) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if !p.def.cfg.control || (path != platformsPrefix && !strings.HasPrefix(path, platformsPrefix+"/")) {
		p.route(r).ServeHTTP(w, r)
		return
	}
	d := p.def
	id, rest, sub := strings.Cut(strings.TrimPrefix(path, platformsPrefix+"/"), "/")
	// One lookup serves the whole request: a platform made or removed
	// while it is served does not turn it into another route.
	var s *Server
	if path != platformsPrefix {
		s = p.Get(id)
	}
	if sub && s != nil {
		// The platform's own control API, which makes the origin, Host and
		// token checks itself (with the same options), on its own path.
		r2 := new(http.Request)
		*r2 = *r
		u := *r.URL
		u.Path, u.RawPath = console.ControlPrefix+rest, ""
		r2.URL = &u
		s.ServeHTTP(w, r2)
		return
	}
	if !d.core.GuardControl(w, r) { // the origin, Host and token checks (origin.go)
		return
	}
	if path == platformsPrefix {
		switch r.Method {
		case http.MethodGet:
			p.serveList(w)
		case http.MethodPost:
			p.serveAdd(w, r)
		default:
			p.failMethod(w, r, "GET, POST")
		}
		return
	}
	switch {
	case id == "":
		d.core.Fail(w, apierr.RouteNotFound)
	case s == nil:
		d.core.Fail(w, apierr.NotFound("platform"))
	case r.Method == http.MethodGet:
		d.core.ControlOK(w, map[string]any{"platform": platformView(s)})
	case r.Method == http.MethodDelete:
		if err := p.remove(s); err != nil {
			d.core.Fail(w, err)
			return
		}
		d.core.ControlOK(w, nil)
	default:
		p.failMethod(w, r, "DELETE, GET")
	}
}

// route is the platform an API request is for: the one whose client id its
// X-SP-GATEWAY names, else the default.
func (p *Platforms) route(r *http.Request) *Server {
	gw := r.Header.Get("X-SP-GATEWAY")
	if gw == "" || !strings.HasPrefix(r.URL.Path, api.APIPrefix) {
		return p.def
	}
	id, _, _ := strings.Cut(gw, "|")
	p.mu.RLock()
	s := p.byID[id]
	p.mu.RUnlock()
	if s == nil {
		return p.def
	}
	return s
}

func (p *Platforms) failMethod(w http.ResponseWriter, r *http.Request, allow string) {
	w.Header().Set("Allow", allow)
	p.def.core.Fail(w, &apierr.Error{Status: http.StatusMethodNotAllowed, ErrorCode: reference.ErrNotAllowed,
		Code: "method_not_allowed", Message: "Method " + r.Method + " is not allowed on this route; it takes " + allow + "."})
}

// platformRequest is the body of POST /_fake/platforms.
type platformRequest struct {
	Name         string `json:"name"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Start        string `json:"start"`
	Clock        string `json:"clock"`
	Seed         uint64 `json:"seed"`
}

func (p *Platforms) serveAdd(w http.ResponseWriter, r *http.Request) {
	req, err := console.ControlBody[platformRequest](r)
	if err != nil {
		p.def.core.Fail(w, err)
		return
	}
	c := PlatformConfig{Name: req.Name, ClientID: req.ClientID, ClientSecret: req.ClientSecret, Clock: req.Clock, Seed: req.Seed}
	switch req.Start {
	case "":
	case "default":
		c.Start = DefaultStartTime()
	default:
		t, err := time.Parse(time.RFC3339, req.Start)
		if err == nil {
			err = standalone.ValidateStartTime(t)
		}
		if err != nil {
			p.def.core.Fail(w, apierr.Payload("invalid_start", "start must be an RFC 3339 instant from 1970 to 9899, or default, not %q.", jsonx.Clip(req.Start)))
			return
		}
		c.Start = t
	}
	s, err := p.Add(c)
	if err != nil {
		p.def.core.Fail(w, err)
		return
	}
	p.def.core.ControlOK(w, map[string]any{"platform": platformView(s)})
}

func (p *Platforms) serveList(w http.ResponseWriter) {
	list := p.List()
	views := make([]platformJSON, len(list))
	for i, s := range list {
		views[i] = platformView(s)
	}
	p.def.core.ControlOK(w, map[string]any{"platforms": views, "platforms_count": len(views)})
}

// platformJSON is a platform as the control API shows it.
type platformJSON struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Gateway      string `json:"gateway"`
	Name         string `json:"name"`
	BaseURL      string `json:"base_url"`
	ControlURL   string `json:"control_url"`
	Now          int64  `json:"now"`
}

func platformView(s *Server) platformJSON {
	base := s.URL()
	return platformJSON{ClientID: s.cfg.ClientID, ClientSecret: s.cfg.ClientSecret, Gateway: s.Gateway(),
		Name: s.cfg.ClientName, BaseURL: base,
		ControlURL: strings.TrimSuffix(base, api.APIPrefix) + platformsPrefix + "/" + s.cfg.ClientID,
		Now:        bank.Ms(s.core.Now())}
}

// checkPlatformConfig refuses a client id or secret a gateway cannot carry.
func checkPlatformConfig(c PlatformConfig) error {
	if !standalone.ValidClientID(c.ClientID) {
		return apierr.Payload("invalid_client_id", "client_id must be at most 64 letters, digits, '_', '-' and '.', and not . or .. "+
			"(a URL resolver would take /_fake/platforms/.. for /_fake/), not %q.", jsonx.Clip(c.ClientID))
	}
	if !standalone.ValidClientSecret(c.ClientSecret) {
		return apierr.Payload("invalid_client_secret", "client_secret must be at most 128 printable characters, without spaces or '|'.")
	}
	if len(c.Name) > 256 {
		return apierr.Payload("invalid_name", "name must be at most 256 bytes.")
	}
	switch c.Clock {
	case "", "manual", "real":
	default:
		return apierr.Payload("invalid_clock", "clock must be manual or real, not %q.", jsonx.Clip(c.Clock))
	}
	if err := standalone.ValidateStartTime(c.Start); err != nil {
		return apierr.Payload("invalid_start", "%v", err)
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// savedPlatform is one platform of SnapshotMade's document.
type savedPlatform struct {
	ClientID     string          `json:"client_id"`
	ClientSecret string          `json:"client_secret"`
	Name         string          `json:"name"`
	Clock        string          `json:"clock"`
	Seed         uint64          `json:"seed"`
	State        json.RawMessage `json:"state,omitempty"`
}

// SnapshotMade writes every platform but the default, oldest first, as one
// JSON document that RestoreMade reads: {"platforms": [{client_id,
// client_secret, name, clock, seed, state}]}, state being the platform's
// Snapshot. The default platform's own Snapshot is not in it.
func (p *Platforms) SnapshotMade(w io.Writer) error {
	list := p.List()[1:]
	bw := bufio.NewWriter(w)
	bw.WriteString(`{"platforms":[`)
	for i, s := range list {
		if i > 0 {
			bw.WriteByte(',')
		}
		kind := "manual"
		if s.core.Clock != nil && s.core.Mock == nil {
			kind = "real"
		}
		head, err := json.Marshal(savedPlatform{ClientID: s.cfg.ClientID, ClientSecret: s.cfg.ClientSecret,
			Name: s.cfg.ClientName, Clock: kind, Seed: s.cfg.Seed})
		if err != nil {
			return err
		}
		bw.Write(head[:len(head)-1])
		bw.WriteString(`,"state":`)
		if err := s.core.Snapshot(bw); err != nil {
			return fmt.Errorf("platform %s: %w", s.cfg.ClientID, err)
		}
		bw.WriteByte('}')
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// RestoreMade makes the platforms of a SnapshotMade document, each with
// its credentials, name, clock kind and seed, and restores its state. It
// stops at the first platform it cannot make or restore (one whose client
// id is in use among them), leaving the ones made before it.
func (p *Platforms) RestoreMade(r io.Reader) error {
	var doc struct {
		Platforms []savedPlatform `json:"platforms"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return bank.ErrState("platforms: %v", err)
	}
	for _, sp := range doc.Platforms {
		s, err := p.Add(PlatformConfig{ClientID: sp.ClientID, ClientSecret: sp.ClientSecret, Name: sp.Name, Clock: sp.Clock, Seed: sp.Seed})
		if err != nil {
			return fmt.Errorf("platform %s: %w", sp.ClientID, err)
		}
		if len(sp.State) > 0 {
			if err := s.core.Restore(bytes.NewReader(sp.State)); err != nil {
				return fmt.Errorf("platform %s: %w", sp.ClientID, err)
			}
		}
	}
	return nil
}

// NewPlatforms builds a Platforms whose default platform is New(opts...).
// Every platform made later gets opts too, then its own credentials, name,
// seed and clock.
func NewPlatforms(opts ...Option) *Platforms {
	def := New(opts...)
	max := def.cfg.maxPlatforms
	if max == 0 {
		max = DefaultMaxPlatforms
	}
	p := &Platforms{def: def, opts: opts, max: max, byID: map[string]*Server{}}
	def.platforms = p
	return p
}

// host is a Server as its console sees it (console.ConsoleHost): a type
// of its own, so that the interface's methods do not join Server's.
type host Server

// Scratch is LoadWorld's trial server: the same options, no webhook
// delivery, its clock frozen at now.
func (h *host) Scratch(now time.Time) (*console.Console, func()) {
	sc := New(func(c *config) {
		*c = h.cfg
		c.clock, c.DeliverWebhooks, c.CaptureLimit = nil, false, 0
	})
	sc.core.SetFrozenClock(now)
	return &sc.core, sc.Close
}

// PlatformCores answers the console of each platform of h's Platforms,
// the default first, or nil when h is a server of its own.
func (h *host) PlatformCores() []*console.Console {
	if h.platforms == nil {
		return nil
	}
	all := h.platforms.List()
	cores := make([]*console.Console, len(all))
	for i, o := range all {
		cores[i] = &o.core
	}
	return cores
}
