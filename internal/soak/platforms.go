package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/synapsefake/synapsefake/internal/binary"
)

// platformsDuration is how long the platforms mode runs unless -duration
// says otherwise: about 150,000 requests on 2 cores with the fake built
// with -race (docs/performance.md).
const platformsDuration = 75 * time.Second

// pconfig is the command line of the platforms mode (-platforms).
type pconfig struct {
	binary                                     string
	duration, timeout                          time.Duration
	owners, apis, controls, dashboards, racers int
	maxPlatforms                               int
	hostileEvery                               time.Duration
	noRace                                     bool
}

// The soak tags what it stores in a platform (a user's legal name and
// email, a node's nickname, a transaction's note) with a mark of that
// platform: tagPrefix and 10 hex digits, new for every platform made, so
// that a platform made again with a client id used before has another.
const tagPrefix = "zqx"

var (
	tagRE = regexp.MustCompile(`(?i)` + tagPrefix + `[0-9a-f]{10}`)
	// A client id as API objects ("client": {"id": ...}) and the state
	// document, the OAuth answer and a platform's view ("client_id") show it.
	clientRE   = regexp.MustCompile(`"client":\{"id":"([^"]*)"`)
	clientIDRE = regexp.MustCompile(`"client_id":"([^"]*)"`)
	// One platform of the dashboard's switcher (internal/console/ui/layout.html).
	switcherRE = regexp.MustCompile(`<li><a href="([^"]*)"( aria-current="true")?>[^<]*</a> <code>([^<]*)</code>`)
)

// foreignMarks lists what in an answer for the platform with tag and
// clientID belongs to another: the tags of other platforms and, unless the
// answer is a dashboard page (whose switcher names every platform), client
// ids other than clientID.
func foreignMarks(raw []byte, tag, clientID string, html bool) []string {
	var out []string
	for _, m := range tagRE.FindAll(raw, -1) {
		if t := strings.ToLower(string(m)); t != tag && !slices.Contains(out, "tag "+t) {
			out = append(out, "tag "+t)
		}
	}
	if html {
		return out
	}
	for _, re := range []*regexp.Regexp{clientRE, clientIDRE} {
		for _, m := range re.FindAllSubmatch(raw, -1) {
			if id := string(m[1]); id != clientID && !slices.Contains(out, "client id "+id) {
				out = append(out, "client id "+id)
			}
		}
	}
	return out
}

// resolvePath is the path a URL resolver (curl, Python's requests, Node's
// URL, a browser) sends for p: its dot segments removed.
func resolvePath(p string) string {
	ref, err := url.Parse(p)
	if err != nil {
		return p
	}
	return (&url.URL{Scheme: "http", Host: "h", Path: "/"}).ResolveReference(ref).Path
}

// controlPath is the control root of the platform with client id id, as
// its own routes are served: /_fake/ for the default, else
// /_fake/platforms/{id}/.
func controlPath(id, defaultID string) string {
	if id == defaultID {
		return "/_fake/"
	}
	return "/_fake/platforms/" + id + "/"
}

// controlURLStrays says where a platform's control_url leads a client
// that joins a route to it ("" when it leads to the platform's own routes).
func controlURLStrays(controlURL, id string) string {
	u, err := url.Parse(controlURL)
	if err != nil {
		return "not a URL: " + controlURL
	}
	if got, want := resolvePath(u.Path+"/clock/advance"), "/_fake/platforms/"+id+"/clock/advance"; got != want {
		return fmt.Sprintf("%s/clock/advance resolves to %s, not %s", controlURL, got, want)
	}
	return ""
}

// switcherStrays checks the platform switcher of a dashboard page: it
// lists each link that does not resolve to its own platform's dashboard,
// and says which platform the page marks as current ("" when none: a
// server of one platform has no switcher).
func switcherStrays(page []byte, defaultID string) (strays []string, current string) {
	for _, m := range switcherRE.FindAllSubmatch(page, -1) {
		href, id := strings.ReplaceAll(string(m[1]), "&amp;", "&"), string(m[3])
		if len(m[2]) > 0 {
			current = id
		}
		if got, want := resolvePath(href), controlPath(id, defaultID)+"ui/"; got != want {
			strays = append(strays, fmt.Sprintf("the link to %q, %s, resolves to %s", id, href, got))
		}
	}
	return strays, current
}

// stderrScan reads the fake's standard error: it counts data race reports
// and panics and keeps the first lines for the report.
type stderrScan struct {
	mu      sync.Mutex
	partial []byte
	races   int
	panics  int
	lines   []string
	more    int
}

const stderrKeep = 60

func (e *stderrScan) Write(b []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.partial = append(e.partial, b...)
	for {
		i := bytes.IndexByte(e.partial, '\n')
		if i < 0 {
			break
		}
		e.line(string(e.partial[:i]))
		e.partial = e.partial[i+1:]
	}
	return len(b), nil
}

func (e *stderrScan) line(l string) {
	if strings.Contains(l, "WARNING: DATA RACE") {
		e.races++
	}
	if strings.Contains(strings.ToLower(l), "panic") {
		e.panics++
	}
	if len(e.lines) < stderrKeep {
		e.lines = append(e.lines, l)
	} else {
		e.more++
	}
}

// close reads the last line if it had no newline.
func (e *stderrScan) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.partial) > 0 {
		e.line(string(e.partial))
		e.partial = nil
	}
}

// plat is one platform as made: a made platform lives from its owner's
// POST to its owner's DELETE; the default platform all along.
type plat struct {
	id, gateway, tag string
	ctl              string // control root: /_fake/ or /_fake/platforms/{id}/
	seed             uint64 // 0: drawn by the fake from the client id
	def              bool
	// Users of a published platform hold mu for reading while they use
	// it; its owner takes it for writing, once it is no longer
	// published, to delete it: no one else uses it then.
	mu sync.RWMutex
	// The owner's user, made first in the platform, and its two nodes.
	creds
	from, to string
	now      int64 // the platform's clock, which only its owner moves
}

// creds are a user's id, fingerprint, OAuth key and refresh token.
type creds struct {
	user, fp, key, refresh string
}

// registry is the published platforms.
type registry struct {
	mu   sync.Mutex
	live []*plat
}

func (r *registry) add(p *plat) {
	r.mu.Lock()
	r.live = append(r.live, p)
	r.mu.Unlock()
}

func (r *registry) remove(p *plat) {
	r.mu.Lock()
	r.live = slices.DeleteFunc(r.live, func(o *plat) bool { return o == p })
	r.mu.Unlock()
}

// pick is a published platform for which ok is true, held for reading
// (release it with p.mu.RUnlock), or nil.
func (r *registry) pick(rnd *rand.Rand, ok func(*plat) bool) *plat {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.live)
	if n == 0 {
		return nil
	}
	start := rnd.IntN(n)
	for i := range n {
		p := r.live[(start+i)%n]
		if (ok == nil || ok(p)) && p.mu.TryRLock() {
			return p
		}
	}
	return nil
}

// check is one check of the report: its trials, failures and the first
// failures' descriptions.
type check struct {
	tries, fails int
	examples     []string
}

const examplesKept = 5

// The checks, in the order of the report.
const (
	cTransport = iota
	cRaces
	cPanics
	cShape
	cForeign
	cKeys
	cSuccessor
	cClock
	cVanished
	c404
	c405
	cOther
	cHostile
	cResolve
	cFilter
	cGone
	cStop
	nChecks
)

// checkNames are the checks' lines; %d is the number of failures, %d the
// number of trials.
var checkNames = [nChecks]string{
	cTransport: "every request answered (%d of %d not)",
	cRaces:     "0 data races in the fake's stderr (%d)",
	cPanics:    "0 panics: none in the fake's stderr, no 500 answer (%d of %d)",
	cShape:     "every answer a JSON envelope whose http_code is its status, or a dashboard page (%d of %d not)",
	cForeign:   "0 answers from another platform: every tag and client id read back is the asking platform's (%d of %d answers)",
	cKeys:      "no OAuth key or refresh token of one platform opens another, same seed or not (%d of %d tries opened)",
	cSuccessor: "no key or refresh token of a deleted platform opens the one made again with its client id (%d of %d tries opened)",
	cClock:     "a control call on a platform's route acts on it: its clock moves by the step, the default's does not (%d of %d not)",
	cVanished:  "no platform vanishes before its owner deletes it (%d of %d made did)",
	c404:       "0 unexpected 404s on live platforms (%d of %d requests)",
	c405:       "0 unexpected 405s (%d of %d requests)",
	cOther:     "every other answer as expected (%d of %d not)",
	cHostile:   "client ids '.' and '..' refused (%d of %d tries accepted)",
	cResolve:   "every control_url and dashboard switcher link resolves to its own platform (%d of %d not)",
	cFilter:    "list filters hold, the percent-encoded name (%%66ilter) too (%d of %d lists not)",
	cGone:      "a deleted platform is gone: GET is 404, its gateway 401 (%d of %d not)",
	cStop:      "the fake stops on SIGTERM (%d of %d not)",
}

// psoak is the platforms mode's run.
type psoak struct {
	cfg     pconfig
	base    string
	client  *http.Client
	def     *plat
	defID   string
	reg     registry
	owners  []*owner
	stderr  *stderrScan
	fake    *fakeProc
	defTime sync.RWMutex // held for writing by the probe that may move the default's clock

	mu       sync.Mutex
	checks   [nChecks]check
	requests map[string]int // by kind
	answers  map[int]int    // by HTTP status
	made     map[string]int // platforms made, by kind
	rss      []int64
	cpu      [2]time.Duration // used by the fake, by the soak
	loadavg  [2]string        // the 1-minute load average before and after
}

// fail counts a failure of check c, keeping its description if it is
// among the first.
func (s *psoak) fail(c int, format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failLocked(c, format, args...)
}

func (s *psoak) failLocked(c int, format string, args ...any) {
	k := &s.checks[c]
	k.fails++
	if len(k.examples) < examplesKept {
		k.examples = append(k.examples, fmt.Sprintf(format, args...))
	}
}

// try counts a trial of check c and, when bad, a failure.
func (s *psoak) try(c int, bad bool, format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.checks[c].tries++
	if bad {
		s.failLocked(c, format, args...)
	}
}

// reply is an answer of the fake.
type reply struct {
	status int
	raw    []byte
	m      map[string]any // the decoded JSON object, nil when it is not one
}

// code is the error code of an error answer ("" for none).
func (r reply) code() string {
	if e, ok := r.m["error"].(map[string]any); ok {
		c, _ := e["code"].(string)
		return c
	}
	return ""
}

func (r reply) str(keys ...string) string {
	var v any = r.m
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[k]
	}
	s, _ := v.(string)
	return s
}

// call sends one request of the load about platform p (nil when the
// request may find none) and checks its answer: its shape, marks of other
// platforms in it, and its status, which must be one of want.
func (s *psoak) call(kind string, p *plat, method, path string, hdr map[string]string, body any, want ...int) reply {
	status, ctype, raw, err := sendRequest(s.client, s.base, method, path, hdr, body)
	r := reply{status: status, raw: raw}
	html := status == http.StatusOK && strings.Contains(path, "/ui/")
	state := status == http.StatusOK && method == http.MethodGet && strings.HasSuffix(path, "/state")
	var why string
	switch {
	case err != nil:
	case html:
		if !strings.HasPrefix(ctype, "text/html") || !bytes.Contains(raw, []byte("<html")) {
			why = "a dashboard page that is not HTML (" + ctype + ")"
		}
	case state:
		if json.Unmarshal(raw, &r.m) != nil || r.m["format"] != "synapsefake-state" {
			why = "not a state document"
		}
	default:
		r.m, why = envelope(status, raw)
	}
	var foreign []string
	if err == nil && p != nil {
		foreign = foreignMarks(raw, p.tag, p.id, html)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[kind]++
	s.checks[cTransport].tries++
	if err != nil {
		s.failLocked(cTransport, "%s %s: %v", method, path, err)
		return r
	}
	s.answers[status]++
	for _, c := range []int{cPanics, cShape, c404, c405, cOther} {
		s.checks[c].tries++
	}
	if why != "" {
		s.failLocked(cShape, "%s %s -> %d: %s: %.200s", method, path, status, why, raw)
	}
	if p != nil {
		s.checks[cForeign].tries++
		if len(foreign) > 0 {
			s.failLocked(cForeign, "%s %s for platform %s (tag %s) -> %d holds %s: %.200s", method, path, p.id, p.tag, status, strings.Join(foreign, ", "), excerpt(raw, foreign))
		}
	}
	if slices.Contains(want, status) {
		return r
	}
	c := cOther
	switch status {
	case http.StatusInternalServerError:
		c = cPanics
	case http.StatusNotFound:
		c = c404
	case http.StatusMethodNotAllowed:
		c = c405
	}
	s.failLocked(c, "%s %s -> %d, want %v: %.200s", method, path, status, want, raw)
	return r
}

// excerpt is raw around the first of the marks found in it.
func excerpt(raw []byte, marks []string) []byte {
	for _, m := range marks {
		_, v, _ := strings.Cut(m, " ")
		if i := bytes.Index(bytes.ToLower(raw), []byte(strings.ToLower(v))); i >= 0 {
			return raw[max(0, i-120):min(len(raw), i+80)]
		}
	}
	return raw
}

// sendRequest makes one request to base+path and reads the whole answer.
func sendRequest(client *http.Client, base, method, path string, headers map[string]string, body any) (int, string, []byte, error) {
	var rdr io.Reader = http.NoBody
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, "", nil, err
		}
		rdr = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, base+path, rdr)
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return resp.StatusCode, resp.Header.Get("Content-Type"), raw, err
}

// newTag is a fresh platform tag.
func newTag(rnd *rand.Rand) string {
	return fmt.Sprintf("%s%010x", tagPrefix, rnd.Uint64()&(1<<40-1))
}

// userHeaders are an API request's headers for gateway and a user's key.
func userHeaders(gateway, key, fp string) map[string]string {
	return map[string]string{"X-SP-GATEWAY": gateway, "X-SP-USER": key + "|" + fp, "X-SP-USER-IP": "127.0.0.1"}
}

// runPlatforms is the platforms mode: it returns the number of failed
// checks; an error means the soak could not run.
func runPlatforms(cfg pconfig, out io.Writer) (int, error) {
	bin := cfg.binary
	if bin == "" {
		var flags []string
		if !cfg.noRace {
			flags = []string{"-race"}
		}
		t0 := time.Now()
		built, remove, err := binary.Build("soak", flags...)
		if err != nil {
			return 0, err
		}
		defer remove()
		bin = built
		fmt.Fprintf(out, "soak -platforms: built cmd/synapsefake %s in %s\n", strings.Join(flags, " "), time.Since(t0).Round(100*time.Millisecond))
	}
	addr, err := binary.FreeAddr()
	if err != nil {
		return 0, err
	}
	s := &psoak{cfg: cfg, stderr: &stderrScan{}, requests: map[string]int{}, answers: map[int]int{}, made: map[string]int{}}
	cmd := exec.Command(bin, "-addr", addr, "-clock", "manual", "-quiet", "-webhooks", "capture",
		"-max-platforms", strconv.Itoa(cfg.maxPlatforms))
	cmd.Stderr = s.stderr
	s.fake = &fakeProc{}
	s.fake.Process, err = binary.Start(cmd, addr, "next:", func(line string) { s.fake.output.WriteString(line + "\n") })
	if err != nil {
		return 0, err
	}
	defer s.fake.Kill()
	if s.fake.Gateway == "" {
		return 0, errors.New("the fake printed no X-SP-GATEWAY line")
	}
	s.base = s.fake.Base
	conns := cfg.owners + cfg.apis + cfg.controls + cfg.dashboards + cfg.racers + 4
	s.client = &http.Client{Timeout: cfg.timeout, Transport: &http.Transport{MaxIdleConnsPerHost: conns, DisableCompression: true}}
	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	s.defID, _, _ = strings.Cut(s.fake.Gateway, "|")
	s.def = &plat{id: s.defID, gateway: s.fake.Gateway, tag: newTag(rnd), ctl: "/_fake/", def: true}
	s.reg.add(s.def)

	load0, _ := os.ReadFile("/proc/loadavg")
	self0 := binary.SelfCPU()
	start := time.Now()
	s.load()
	took := time.Since(start)
	s.cpu = [2]time.Duration{binary.ProcessCPU(s.fake.Cmd.Process.Pid), binary.SelfCPU() - self0}
	load1, _ := os.ReadFile("/proc/loadavg")
	s.loadavg = [2]string{firstField(load0), firstField(load1)}
	stopped := s.fake.stop(10 * time.Second)
	s.stderr.close()
	return s.report(out, took, stopped), nil
}

// load runs every goroutine of the load for the duration.
func (s *psoak) load() {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.duration)
	defer cancel()
	var wg sync.WaitGroup
	seed := uint64(time.Now().UnixNano())
	for i := range s.cfg.owners {
		o := &owner{s: s, n: i, rnd: rand.New(rand.NewPCG(seed, uint64(i))), prev: map[string]creds{}}
		for k := range 3 {
			o.pool = append(o.pool, fmt.Sprintf("soak-o%d-%d", i, k))
		}
		s.owners = append(s.owners, o)
	}
	for _, o := range s.owners {
		wg.Go(func() { o.run(ctx) })
	}
	each := func(n int, stream uint64, f func(ctx context.Context, rnd *rand.Rand, i int)) {
		for i := range n {
			rnd := rand.New(rand.NewPCG(seed, stream<<32|uint64(i)))
			wg.Go(func() { f(ctx, rnd, i) })
		}
	}
	each(s.cfg.apis, 1, s.apiClient)
	each(s.cfg.controls, 2, s.controlClient)
	each(s.cfg.dashboards, 3, s.dashboardClient)
	each(s.cfg.racers, 4, s.racer)
	each(1, 5, s.lister)
	each(1, 6, s.hostile)
	wg.Go(func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			if rss, err := s.fake.rss(); err == nil {
				s.mu.Lock()
				s.rss = append(s.rss, rss)
				s.mu.Unlock()
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
	wg.Wait()
}

// owner makes, uses and deletes platforms, one or two at a time, from a
// pool of client ids of its own, so that each id is made again after it
// was deleted; it is the only one to delete them.
type owner struct {
	s       *psoak
	n       int
	rnd     *rand.Rand
	pool    []string
	prev    map[string]creds // the owner's user in the last platform made with each client id
	pending atomic.Pointer[string]
}

// sharedSeeds are the seeds owners give some platforms, so that platforms
// made at the same time by different owners share one.
var sharedSeeds = []uint64{101, 102, 103, 104}

func (o *owner) run(ctx context.Context) {
	for ctx.Err() == nil {
		ids := slices.Clone(o.pool)
		o.rnd.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		var seed uint64
		kind := "default seed"
		switch o.rnd.IntN(3) {
		case 0:
			seed, kind = o.rnd.Uint64()|1, "twins"
		case 1:
			seed, kind = sharedSeeds[o.rnd.IntN(len(sharedSeeds))], "shared seed"
		}
		n := 1
		if kind == "twins" {
			n = 2
		}
		var ps []*plat
		for _, id := range ids[:n] {
			if p := o.make(id, seed, kind); p != nil {
				ps = append(ps, p)
			}
		}
		if len(ps) == 2 {
			// Twins: the same seed and the same set-up, so the same ids.
			o.crossKeys(ps[0], ps[1], cKeys)
			o.crossKeys(ps[1], ps[0], cKeys)
		}
		for _, p := range ps {
			if seed != 0 && kind == "shared seed" {
				if q := o.s.reg.pick(o.rnd, func(q *plat) bool { return q.seed == seed && !q.def }); q != nil {
					o.crossKeys(p, q, cKeys)
					q.mu.RUnlock()
				}
			}
			o.s.reg.add(p)
		}
		rounds := 6 + o.rnd.IntN(16)
		for i := 0; i < rounds && ctx.Err() == nil; i++ {
			for _, p := range ps {
				o.use(p)
			}
		}
		for _, p := range ps {
			o.remove(p)
		}
	}
}

// make makes the platform with client id id and sets it up: the owner's
// user with a key and a funded node, and a subscription, so that webhooks
// are captured. It answers nil when the platform could not be made or
// vanished.
func (o *owner) make(id string, seed uint64, kind string) *plat {
	s := o.s
	body := map[string]any{"client_id": id}
	if seed != 0 {
		body["seed"] = seed
	}
	o.pending.Store(&id)
	r := s.call("platforms", nil, "POST", "/_fake/platforms", nil, body, http.StatusOK)
	o.pending.Store(nil)
	if r.status != http.StatusOK {
		return nil
	}
	s.mu.Lock()
	s.made[kind]++
	s.checks[cVanished].tries++
	s.mu.Unlock()
	p := &plat{id: id, gateway: r.str("platform", "gateway"), tag: newTag(o.rnd), ctl: "/_fake/platforms/" + id + "/", seed: seed}
	if got := r.str("platform", "client_id"); got != id || !strings.HasPrefix(p.gateway, id+"|") {
		s.fail(cOther, "POST /_fake/platforms {client_id: %s} made %s with gateway %s", id, got, p.gateway)
		return nil
	}
	cu := r.str("platform", "control_url")
	s.try(cResolve, controlURLStrays(cu, id) != "", "platform %s: %s", id, controlURLStrays(cu, id))
	p.fp = "soak-owner"
	u := o.own(p, "POST", p.ctl+"users", map[string]any{"fingerprint": p.fp,
		"legal_names": []string{"Soak " + p.tag + " Owner"}, "email": "owner+" + p.tag + "@soak.test"})
	p.user, p.refresh = u.str("user", "_id"), u.str("user", "refresh_token")
	if p.user == "" {
		return o.lost(p, u)
	}
	k := o.own(p, "POST", p.ctl+"users/"+p.user+"/oauth", map[string]any{"fingerprint": p.fp})
	if p.key = k.str("oauth_key"); p.key == "" {
		return o.lost(p, k)
	}
	for _, node := range []*string{&p.from, &p.to} {
		nd := o.own(p, "POST", p.ctl+"users/"+p.user+"/nodes", map[string]any{"type": "DEPOSIT-US",
			"nickname": p.tag + " owner", "balance_cents": 1_000_000_000})
		if *node = nd.str("node", "_id"); *node == "" {
			return o.lost(p, nd)
		}
	}
	if sub := o.own(p, "POST", p.ctl+"subscriptions", map[string]any{"url": "http://127.0.0.1:9/soak-" + p.tag}); sub.status != http.StatusOK {
		return o.lost(p, sub)
	}
	c := o.own(p, "GET", p.ctl+"clock", nil)
	p.now = int64(num(c.m["now"]))
	if old, ok := o.prev[id]; ok {
		o.crossKeys(&plat{id: id, tag: "(deleted)", creds: old}, p, cSuccessor)
	}
	return p
}

// own is a control request of the owner to its own platform, which must
// succeed.
func (o *owner) own(p *plat, method, path string, body any) reply {
	return o.s.call("control", p, method, path, nil, body, http.StatusOK)
}

// lost ends a platform whose set-up failed: when the fake no longer knows
// it, it vanished, and its owner did not delete it.
func (o *owner) lost(p *plat, r reply) *plat {
	if r.code() == "unable_to_locate_platform" {
		o.s.fail(cVanished, "platform %s vanished while its owner set it up: %.200s", p.id, r.raw)
		return nil
	}
	o.remove(p)
	return nil
}

// refusedOrNot are the answers a key or token of another platform may
// get: its refusals (400 or 409 for a refresh token, 401 for an OAuth key,
// 403, 404 for a user id the platform does not hold) and 200, which the
// caller counts as a failure of its own check.
var refusedOrNot = []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusOK}

// crossKeys tries the key and the refresh token of c's user on platform d,
// through d's gateway: each must be refused.
func (o *owner) crossKeys(c, d *plat, check int) {
	s := o.s
	r := s.call("api", d, "GET", "/v3.1/users/"+c.user+"/nodes", userHeaders(d.gateway, c.key, c.fp), nil, refusedOrNot...)
	s.try(check, r.status == http.StatusOK, "the OAuth key of %s's user %s (platform %s) opened GET /v3.1/users/%s/nodes on platform %s (tag %s)",
		c.id, c.user, c.tag, c.user, d.id, d.tag)
	r = s.call("api", d, "POST", "/v3.1/oauth/"+c.user, userHeaders(d.gateway, "", c.fp), map[string]any{"refresh_token": c.refresh}, refusedOrNot...)
	s.try(check, r.status == http.StatusOK, "the refresh token of %s's user %s (platform %s) got a key (%s) on platform %s (tag %s)",
		c.id, c.user, c.tag, r.str("oauth_key"), d.id, d.tag)
}

// use is one round of the owner's own work on its platform: a transaction
// settled, a read, or a step of its clock checked against the default's.
func (o *owner) use(p *plat) {
	s := o.s
	h := userHeaders(p.gateway, p.key, p.fp)
	switch o.rnd.IntN(3) {
	case 0:
		t := s.call("api", p, "POST", "/v3.1/users/"+p.user+"/nodes/"+p.from+"/trans", h, map[string]any{
			"to":     map[string]any{"type": "DEPOSIT-US", "id": p.to},
			"amount": map[string]any{"amount": 1.25, "currency": "USD"},
			"extra":  map[string]any{"ip": "127.0.0.1", "note": p.tag + " owner"}}, http.StatusOK)
		if id, _ := t.m["_id"].(string); id != "" {
			o.own(p, "POST", p.ctl+"transactions/"+id+"/settle", nil)
		}
	case 1:
		s.call("api", p, "GET", "/v3.1/users/"+p.user, h, nil, http.StatusOK)
		s.call("api", p, "GET", "/v3.1/users/"+p.user+"/nodes/"+p.from+"/trans?per_page=10", h, nil, http.StatusOK)
	case 2:
		s.defTime.RLock()
		defer s.defTime.RUnlock()
		before := num(s.call("control", s.def, "GET", "/_fake/clock", nil, nil, http.StatusOK).m["now"])
		moved := num(o.own(p, "POST", p.ctl+"clock/advance", map[string]any{"duration": "1m"}).m["now"])
		now := num(o.own(p, "GET", p.ctl+"clock", nil).m["now"])
		after := num(s.call("control", s.def, "GET", "/_fake/clock", nil, nil, http.StatusOK).m["now"])
		want := float64(p.now + 60_000)
		s.try(cClock, moved != want || now != want || after != before,
			"POST %sclock/advance 1m: its answer %.0f, its clock %.0f, want %.0f; the default's %.0f -> %.0f", p.ctl, moved, now, want, before, after)
		p.now = int64(want)
	}
}

// remove unpublishes p, waits until no one uses it, deletes it and checks
// that it is gone.
func (o *owner) remove(p *plat) {
	s := o.s
	s.reg.remove(p)
	p.mu.Lock()
	defer p.mu.Unlock()
	r := s.call("platforms", nil, "DELETE", "/_fake/platforms/"+p.id, nil, nil, http.StatusOK, http.StatusNotFound)
	if r.status == http.StatusNotFound {
		s.fail(cVanished, "platform %s (tag %s) was gone when its owner deleted it: %.200s", p.id, p.tag, r.raw)
		return
	}
	g := s.call("platforms", nil, "GET", "/_fake/platforms/"+p.id, nil, nil, http.StatusNotFound)
	a := s.call("api", nil, "GET", "/v3.1/users?per_page=1", map[string]string{"X-SP-GATEWAY": p.gateway}, nil, http.StatusUnauthorized)
	s.try(cGone, g.status != http.StatusNotFound || a.status != http.StatusUnauthorized,
		"after DELETE /_fake/platforms/%s: GET it %d, an API request with its gateway %d", p.id, g.status, a.status)
	if p.user != "" {
		o.prev[p.id] = p.creds
	}
}

// num is a JSON number, 0 when v is not one.
func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// apiClient visits published platforms as an app would: it signs a user
// up, gets its key through the refresh token, adds nodes, sends a
// transaction and reads them back, with and without filters.
func (s *psoak) apiClient(ctx context.Context, rnd *rand.Rand, i int) {
	for n := 0; ctx.Err() == nil; n++ {
		p := s.reg.pick(rnd, nil)
		if p == nil {
			runtime.Gosched()
			continue
		}
		s.visit(p, rnd, fmt.Sprintf("a%d-%d", i, n))
		p.mu.RUnlock()
	}
}

func (s *psoak) visit(p *plat, rnd *rand.Rand, n string) {
	fp := "soak-" + n
	name := "Soak " + p.tag + " " + n
	u := s.call("api", p, "POST", "/v3.1/users", userHeaders(p.gateway, "", fp), map[string]any{
		"logins": []any{map[string]any{"email": n + "+" + p.tag + "@soak.test"}}, "phone_numbers": []string{"555-0100"},
		"legal_names": []string{name}}, http.StatusOK)
	uid, _ := u.m["_id"].(string)
	refresh, _ := u.m["refresh_token"].(string)
	if uid == "" {
		return
	}
	k := s.call("api", p, "POST", "/v3.1/oauth/"+uid, userHeaders(p.gateway, "", fp), map[string]any{"refresh_token": refresh}, http.StatusOK)
	key := k.str("oauth_key")
	if key == "" {
		return
	}
	h := userHeaders(p.gateway, key, fp)
	var nodes []string
	for _, side := range []string{"from", "to"} {
		nd := s.call("api", p, "POST", "/v3.1/users/"+uid+"/nodes", h, map[string]any{"type": "DEPOSIT-US",
			"info": map[string]any{"nickname": p.tag + " " + side}}, http.StatusOK)
		if list, _ := nd.m["nodes"].([]any); len(list) > 0 {
			if m, _ := list[0].(map[string]any); m != nil {
				id, _ := m["_id"].(string)
				nodes = append(nodes, id)
			}
		}
	}
	if len(nodes) != 2 {
		return
	}
	trans := "/v3.1/users/" + uid + "/nodes/" + nodes[0] + "/trans"
	t := s.call("api", p, "POST", trans, h, map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": nodes[1]},
		"amount": map[string]any{"amount": float64(1+rnd.IntN(500)) / 100, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1", "note": p.tag + " " + n}}, http.StatusOK)
	tid, _ := t.m["_id"].(string)

	reads := []func(){
		func() { s.call("api", p, "GET", "/v3.1/users/"+uid, h, nil, http.StatusOK) },
		func() { s.call("api", p, "GET", "/v3.1/users?per_page=20", h, nil, http.StatusOK) },
		func() { s.call("api", p, "GET", "/v3.1/users/"+uid+"/nodes", h, nil, http.StatusOK) },
		func() { s.call("api", p, "GET", trans+"?per_page=20", h, nil, http.StatusOK) },
		func() {
			if tid != "" {
				s.call("api", p, "GET", trans+"/"+tid, h, nil, http.StatusOK)
			}
		},
		func() { // a filter that matches the user just made: it must be there
			f := mustJSON(map[string]any{"legal_names": map[string]any{"$in": []string{name}}})
			r := s.call("api", p, "GET", "/v3.1/users?filter="+url.QueryEscape(f), h, nil, http.StatusOK)
			s.try(cFilter, r.status == http.StatusOK && !listHas(r.m, "users", uid), "GET /v3.1/users?filter=%s on %s: the user %s made just before is not in %.200s", f, p.id, uid, r.raw)
		},
		func() { // a filter that matches nothing, its name percent-encoded
			f := mustJSON(map[string]any{"legal_names": map[string]any{"$in": []string{"nobody " + p.tag}}})
			r := s.call("api", p, "GET", "/v3.1/users?%66ilter="+url.QueryEscape(f), h, nil, http.StatusOK)
			s.try(cFilter, r.status == http.StatusOK && listLen(r.m, "users") != 0, "GET /v3.1/users?%%66ilter=%s on %s answered %d users, want 0", f, p.id, listLen(r.m, "users"))
		},
		func() { // transactions of at least the amount: the one made is there
			f := mustJSON(map[string]any{"amount.amount": map[string]any{"$gte": 0.01}})
			r := s.call("api", p, "GET", trans+"?filter="+url.QueryEscape(f), h, nil, http.StatusOK)
			s.try(cFilter, r.status == http.StatusOK && tid != "" && !listHas(r.m, "trans", tid), "GET %s?filter=%s on %s: transaction %s missing", trans, f, p.id, tid)
		},
	}
	for _, j := range rnd.Perm(len(reads))[:4] {
		reads[j]()
	}
	if rnd.IntN(4) == 0 { // this user's key and refresh token on another platform
		if q := s.reg.pick(rnd, func(q *plat) bool { return q != p }); q != nil {
			r := s.call("api", q, "GET", "/v3.1/users/"+uid+"/nodes", userHeaders(q.gateway, key, fp), nil, refusedOrNot...)
			s.try(cKeys, r.status == http.StatusOK, "the OAuth key of user %s of %s opened its nodes on %s", uid, p.id, q.id)
			q.mu.RUnlock()
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// listHas says whether the list under key in an answer holds an object
// with _id id.
func listHas(m map[string]any, key, id string) bool {
	list, _ := m[key].([]any)
	for _, o := range list {
		if o, _ := o.(map[string]any); o != nil && o["_id"] == id {
			return true
		}
	}
	return false
}

func listLen(m map[string]any, key string) int {
	list, _ := m[key].([]any)
	return len(list)
}

// controlClient sends control requests to published platforms: users
// added and listed, the webhook capture read and cleared, the state, the
// request journal and the clock read.
func (s *psoak) controlClient(ctx context.Context, rnd *rand.Rand, i int) {
	for n := 0; ctx.Err() == nil; n++ {
		p := s.reg.pick(rnd, nil)
		if p == nil {
			runtime.Gosched()
			continue
		}
		ctl := func(method, path string, body any) reply {
			return s.call("control", p, method, p.ctl+path, nil, body, http.StatusOK)
		}
		switch rnd.IntN(8) {
		case 0, 1:
			ctl("POST", "users", map[string]any{"legal_names": []string{fmt.Sprintf("Soak %s c%d-%d", p.tag, i, n)},
				"email": fmt.Sprintf("c%d-%d+%s@soak.test", i, n, p.tag), "fingerprint": "soak-control"})
		case 2:
			ctl("GET", "users?limit=20", nil)
		case 3:
			ctl("DELETE", "webhooks", nil)
			if !p.def { // clearing the capture leaves the platform
				s.call("platforms", p, "GET", "/_fake/platforms/"+p.id, nil, nil, http.StatusOK)
			}
		case 4:
			ctl("GET", "webhooks", nil)
		case 5:
			if r := ctl("GET", "state", nil); r.m != nil && r.m["client_id"] != p.id {
				s.fail(cForeign, "GET %sstate of %s holds client_id %v", p.ctl, p.id, r.m["client_id"])
			}
		case 6:
			ctl("GET", "requests", nil)
		case 7:
			ctl("POST", "webhooks/flush", nil)
		}
		p.mu.RUnlock()
	}
}

// dashboardPages are the dashboard's pages, under a control root's ui/.
var dashboardPages = []string{"", "transactions", "webhooks", "requests", "oauth", "subscriptions"}

// dashboardClient opens dashboard pages of published platforms.
func (s *psoak) dashboardClient(ctx context.Context, rnd *rand.Rand, _ int) {
	for ctx.Err() == nil {
		p := s.reg.pick(rnd, nil)
		if p == nil {
			runtime.Gosched()
			continue
		}
		path := p.ctl + "ui/" + dashboardPages[rnd.IntN(len(dashboardPages))]
		r := s.call("dashboard", p, "GET", path, nil, nil, http.StatusOK)
		if r.status == http.StatusOK {
			strays, current := switcherStrays(r.raw, s.defID)
			s.try(cResolve, len(strays) > 0 || current != "" && current != p.id,
				"GET %s: the switcher marks %q as current; %s", path, current, strings.Join(strays, "; "))
		}
		p.mu.RUnlock()
	}
}

// lister reads the list of platforms and one platform: a published one
// must be in it, as it was made.
func (s *psoak) lister(ctx context.Context, rnd *rand.Rand, _ int) {
	for ctx.Err() == nil {
		p := s.reg.pick(rnd, nil)
		if p == nil {
			runtime.Gosched()
			continue
		}
		r := s.call("platforms", nil, "GET", "/_fake/platforms", nil, nil, http.StatusOK)
		list, _ := r.m["platforms"].([]any)
		found := false
		for _, v := range list {
			m, _ := v.(map[string]any)
			id, _ := m["client_id"].(string)
			cu, _ := m["control_url"].(string)
			if !strings.HasPrefix(id, "soak-") {
				continue
			}
			s.try(cResolve, controlURLStrays(cu, id) != "", "GET /_fake/platforms: %s", controlURLStrays(cu, id))
			if id == p.id {
				found = m["gateway"] == p.gateway
			}
		}
		if r.status == http.StatusOK && !found && !p.def {
			s.fail(cOther, "GET /_fake/platforms: platform %s (gateway %s), alive, is not in it", p.id, p.gateway)
		}
		g := s.call("platforms", p, "GET", "/_fake/platforms/"+p.id, nil, nil, http.StatusOK)
		if g.status == http.StatusOK && g.str("platform", "gateway") != p.gateway {
			s.fail(cForeign, "GET /_fake/platforms/%s answered the platform with gateway %s, want %s", p.id, g.str("platform", "gateway"), p.gateway)
		}
		p.mu.RUnlock()
	}
}

// racer sends requests to the sub-routes of the owners' client ids, most
// of them to a platform being made: the platform may exist or not (200 or
// 404), but clearing its webhook capture must never delete it, nor a POST
// be refused 405.
func (s *psoak) racer(ctx context.Context, rnd *rand.Rand, _ int) {
	for ctx.Err() == nil {
		var o *owner
		start := rnd.IntN(len(s.owners))
		for i := range s.owners {
			if c := s.owners[(start+i)%len(s.owners)]; c.pending.Load() != nil {
				o = c
				break
			}
		}
		if o == nil {
			o = s.owners[start]
			s.probe(rnd, o.pool[rnd.IntN(len(o.pool))])
			continue
		}
		// The same id until it is made: one of these requests may be
		// served while the platform appears.
		for id := o.pending.Load(); id != nil && ctx.Err() == nil; id = o.pending.Load() {
			s.probe(rnd, *id)
		}
	}
}

// probe is one request of a racer to a sub-route of platform id.
func (s *psoak) probe(rnd *rand.Rand, id string) {
	if rnd.IntN(2) == 0 {
		s.call("race probe", nil, "DELETE", "/_fake/platforms/"+id+"/webhooks", nil, nil, http.StatusOK, http.StatusNotFound)
	} else {
		s.call("race probe", nil, "POST", "/_fake/platforms/"+id+"/webhooks/flush", nil, nil, http.StatusOK, http.StatusNotFound)
	}
}

// hostile asks now and then for platforms named '.' and '..'. Each must be
// refused; one that is not is checked as a client would use it (its
// control_url joined to a route, the dashboard's switcher) and deleted.
func (s *psoak) hostile(ctx context.Context, rnd *rand.Rand, _ int) {
	tick := time.NewTicker(s.cfg.hostileEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, name := range []string{".", ".."} {
			r := s.call("hostile", nil, "POST", "/_fake/platforms", nil, map[string]any{"client_id": name}, http.StatusBadRequest, http.StatusOK)
			s.try(cHostile, r.status == http.StatusOK, "POST /_fake/platforms {\"client_id\": %q} -> %d: %.200s", name, r.status, r.raw)
			if r.status != http.StatusOK {
				continue
			}
			cu := r.str("platform", "control_url")
			stray := controlURLStrays(cu, name)
			s.try(cResolve, stray != "", "platform %q: %s", name, stray)
			if u, err := url.Parse(cu); err == nil && stray != "" {
				// What a client does with it: join a route, send what its
				// URL resolver makes of it.
				s.defTime.Lock()
				before := num(s.call("hostile", s.def, "GET", "/_fake/clock", nil, nil, http.StatusOK).m["now"])
				path := resolvePath(u.Path + "/clock/advance")
				s.call("hostile", nil, "POST", path, nil, map[string]any{"duration": "1m"}, http.StatusOK, http.StatusNotFound)
				after := num(s.call("hostile", s.def, "GET", "/_fake/clock", nil, nil, http.StatusOK).m["now"])
				s.defTime.Unlock()
				s.try(cClock, after != before, "POST %s/clock/advance of platform %q, sent as %s, moved the default platform's clock by %.0f ms", cu, name, path, after-before)
			}
			if page := s.call("hostile", nil, "GET", controlPath(name, s.defID)+"ui/", nil, nil, http.StatusOK); page.status == http.StatusOK {
				strays, _ := switcherStrays(page.raw, s.defID)
				s.try(cResolve, len(strays) > 0, "the dashboard's switcher with platform %q: %s", name, strings.Join(strays, "; "))
			}
			s.call("hostile", nil, "DELETE", "/_fake/platforms/"+name, nil, nil, http.StatusOK)
		}
	}
}

// report prints the summary and the checks and returns how many failed.
func (s *psoak) report(out io.Writer, took time.Duration, stopped bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	total := 0
	for _, n := range s.requests {
		total += n
	}
	race := "with -race"
	if s.cfg.noRace || s.cfg.binary != "" {
		race = "as given"
	}
	fmt.Fprintf(out, "soak -platforms: %s of load on %d CPUs, the fake built %s; %d owners, %d API, %d control, %d dashboard clients, %d racers\n",
		took.Round(100*time.Millisecond), runtime.NumCPU(), race, s.cfg.owners, s.cfg.apis, s.cfg.controls, s.cfg.dashboards, s.cfg.racers)
	fmt.Fprintf(out, "  requests: %s (%.0f/s); CPU used: the fake %.1f s, the soak %.1f s; load average %s before, %s after\n",
		thousands(total), float64(total)/took.Seconds(), s.cpu[0].Seconds(), s.cpu[1].Seconds(), s.loadavg[0], s.loadavg[1])
	kinds := slices.Sorted(maps.Keys(s.requests))
	for _, k := range kinds {
		fmt.Fprintf(out, "    %-12s %s\n", k, thousands(s.requests[k]))
	}
	var statuses []string
	for _, st := range slices.Sorted(maps.Keys(s.answers)) {
		statuses = append(statuses, fmt.Sprintf("%d: %s", st, thousands(s.answers[st])))
	}
	fmt.Fprintf(out, "  answers by HTTP status: %s\n", strings.Join(statuses, ", "))
	var made []string
	sum := 0
	for _, k := range slices.Sorted(maps.Keys(s.made)) {
		made = append(made, fmt.Sprintf("%s %d", k, s.made[k]))
		sum += s.made[k]
	}
	fmt.Fprintf(out, "  platforms made: %d (%s)\n", sum, strings.Join(made, ", "))
	if len(s.rss) > 0 {
		fmt.Fprintf(out, "  the fake's RSS: start %.1f MiB, peak %.1f MiB, end %.1f MiB\n", mib(s.rss[0]), mib(slices.Max(s.rss)), mib(s.rss[len(s.rss)-1]))
	}

	s.stderr.mu.Lock()
	s.checks[cRaces].fails = s.stderr.races
	s.checks[cPanics].fails += s.stderr.panics
	var errLines []string
	if s.stderr.races+s.stderr.panics > 0 {
		errLines = append(errLines, "the fake's stderr, first lines:")
		for _, l := range s.stderr.lines {
			errLines = append(errLines, "  "+l)
		}
		if s.stderr.more > 0 {
			errLines = append(errLines, fmt.Sprintf("  (%d lines more)", s.stderr.more))
		}
	}
	s.stderr.mu.Unlock()
	s.checks[cStop].tries++
	if !stopped {
		s.checks[cStop].fails++
	}

	passed, failed := 0, 0
	for c := range nChecks {
		k := s.checks[c]
		mark := "ok  "
		if k.fails > 0 {
			mark = "FAIL"
			failed++
		} else {
			passed++
		}
		name := checkNames[c]
		if strings.Count(name, "%d") == 2 {
			name = fmt.Sprintf(name, k.fails, k.tries)
		} else {
			name = fmt.Sprintf(name, k.fails)
		}
		fmt.Fprintf(out, "%s %s\n", mark, name)
		for _, e := range k.examples {
			fmt.Fprintf(out, "       %s\n", e)
		}
		if (c == cRaces || c == cPanics) && k.fails > 0 {
			for _, l := range errLines {
				fmt.Fprintf(out, "       %s\n", l)
			}
			errLines = nil
		}
	}
	fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
	return failed
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func firstField(b []byte) string {
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
