// Command soak runs the standalone fake (cmd/synapsefake) under bounded
// mixed load from a few workers on loopback and checks that it holds up:
// every answer is a JSON envelope, latency does not drift, and memory grows
// with the transactions stored, not with requests or webhook deliveries.
//
//	go run ./internal/soak -duration 60s
//	go run ./internal/soak -binary /path/to/synapsefake -duration 20s
//
// Without -binary it builds cmd/synapsefake into a temporary directory
// first. The fake runs with -clock manual -quiet on a free 127.0.0.1 port,
// with its bounded stores (request journal 2 MiB, webhook capture 4 MiB,
// webhook log 2 MiB) set small enough to fill within the first seconds, so
// that what grows afterwards is what the fake stores per transaction;
// a webhook receiver listens on another and is subscribed through the API.
// Each worker seeds its own user, two DEPOSIT-US nodes and an OAuth key
// through the control API, then loops: create a transaction between its
// nodes, list them, comment on one, settle one through the control API.
// One more loop advances the fake's clock every two seconds, which moves
// pending transactions and delivers their webhooks. The RSS of the fake
// (VmRSS in /proc/PID/status) is sampled every second.
//
// It prints a summary and ends with the line "N passed, M failed"; the exit
// status is 0 only when no check failed.
//
// # Platforms
//
// With -platforms it soaks the fake's many platforms instead (issue 45):
//
//	go run ./internal/soak -platforms                  # 75 s
//	go run ./internal/soak -platforms -duration 25s    # as .ci/run does
//
// It builds cmd/synapsefake with -race (-no-race: without; -binary: one
// built already) and runs it with -clock manual -quiet -webhooks capture.
// Each of 40 owners (-owners) loops: it makes a platform (POST
// /_fake/platforms) with a client id from a pool of three of its own, so
// that ids are made again after they were deleted; a third of the time
// with a seed shared with other owners' platforms, a third of the time two
// twin platforms with a fresh seed of their own. It sets each up through
// the platform's control API (a user with a key, two funded nodes, a
// subscription), publishes it, uses it (transactions, reads, a step of its
// clock), unpublishes it, waits until no one uses it and deletes it. Only
// an owner deletes its platforms, and every other client uses only
// published platforms, each held while in use, so every answer has one
// right status. The default platform is always published. Meanwhile API
// clients (-api-clients) sign users up with a platform's gateway, get keys
// through their refresh tokens, add nodes, send transactions and list them
// with filters; control clients (-control-clients) add and list users,
// read and clear the webhook capture, read the state, the request journal
// and the clock; dashboard clients (-dashboard-clients) open its pages; a
// lister reads GET /_fake/platforms; racers (-racers) send requests to the
// sub-routes of platforms being made; and a hostile client asks for
// platforms named '.' and '..' twice a second.
//
// Everything the soak stores in a platform carries a tag of that platform
// (zqx and 10 hex digits, new for each platform made), and the checks are:
// no data race and no panic in the fake's standard error and no 500
// answer; every answer an envelope whose http_code is its status (a
// dashboard page: HTML); no answer from another platform (every tag and
// client id in an answer is the asking platform's); no OAuth key or
// refresh token of one platform opening another (twins, a shared seed, or
// the platform made again with a deleted one's client id); a control
// call's clock step moving its platform's clock and not the default's; no
// platform gone before its owner deleted it, no unexpected 404 or 405;
// '.' and '..' refused; every control_url and dashboard switcher link
// resolving to its own platform; list filters, their percent-encoded name
// too, holding what they match; a deleted platform gone. Each check prints
// how many of its trials failed and the first five failures.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/synapsefake/synapsefake/internal/binary"
)

// config is the command line.
type config struct {
	binary       string
	duration     time.Duration
	workers      int
	pace         time.Duration
	timeout      time.Duration
	rssAllowance int64
	rssPerTx     int64
	window       time.Duration
	maxP99Ratio  float64
}

func main() {
	var cfg config
	fs := flag.NewFlagSet("soak", flag.ExitOnError)
	fs.StringVar(&cfg.binary, "binary", "", "path of a built cmd/synapsefake (default: go build it into a temporary directory)")
	fs.DurationVar(&cfg.duration, "duration", 60*time.Second, "how long the load runs (with -platforms: default 75s)")
	fs.IntVar(&cfg.workers, "workers", 3, "concurrent workers, each with its own user")
	fs.DurationVar(&cfg.pace, "pace", 3*time.Millisecond, "pause of a worker between two requests")
	fs.DurationVar(&cfg.timeout, "timeout", 10*time.Second, "timeout of every request")
	fs.Int64Var(&cfg.rssAllowance, "rss-allowance", 32<<20, "RSS growth allowed whatever is stored (runtime warm-up), in bytes")
	fs.Int64Var(&cfg.rssPerTx, "rss-per-tx", 2<<10, "RSS growth allowed per stored transaction, in bytes")
	fs.DurationVar(&cfg.window, "window", 10*time.Second, "length of the first and last windows whose p99 latencies are compared")
	fs.Float64Var(&cfg.maxP99Ratio, "max-p99-ratio", 3, "largest allowed p99 of the last window over the first")
	platforms := fs.Bool("platforms", false, "the platforms mode: many clients making, using and deleting platforms (see the package comment)")
	pc := pconfig{hostileEvery: 500 * time.Millisecond}
	fs.IntVar(&pc.owners, "owners", 40, "with -platforms: clients that make, use and delete platforms")
	fs.IntVar(&pc.apis, "api-clients", 8, "with -platforms: clients sending API requests to live platforms")
	fs.IntVar(&pc.controls, "control-clients", 4, "with -platforms: clients sending control requests to live platforms")
	fs.IntVar(&pc.dashboards, "dashboard-clients", 2, "with -platforms: clients opening live platforms' dashboard pages")
	fs.IntVar(&pc.racers, "racers", 12, "with -platforms: clients sending requests to the sub-routes of platforms being made")
	fs.IntVar(&pc.maxPlatforms, "max-platforms", 1000, "with -platforms: the fake's -max-platforms")
	fs.BoolVar(&pc.noRace, "no-race", false, "with -platforms: build the fake without -race")
	_ = fs.Parse(os.Args[1:])
	if *platforms {
		pc.binary, pc.duration, pc.timeout = cfg.binary, platformsDuration, cfg.timeout
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "duration" {
				pc.duration = cfg.duration
			}
		})
		if fs.NArg() > 0 || pc.owners < 1 || pc.apis < 0 || pc.controls < 0 || pc.dashboards < 0 || pc.racers < 0 {
			fmt.Fprintln(os.Stderr, "soak: flags only; -owners at least 1, the other clients at least 0")
			os.Exit(2)
		}
		failed, err := runPlatforms(pc, os.Stdout)
		if err != nil {
			fmt.Fprintln(os.Stderr, "soak:", err)
			fmt.Println("0 passed, 1 failed")
			os.Exit(1)
		}
		if failed > 0 {
			os.Exit(1)
		}
		return
	}
	if fs.NArg() > 0 || cfg.workers < 1 || cfg.duration < 2*cfg.window {
		fmt.Fprintln(os.Stderr, "soak: flags only; -workers at least 1; -duration at least twice -window")
		os.Exit(2)
	}
	failed, err := run(cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		fmt.Println("0 passed, 1 failed")
		os.Exit(1)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// run sets everything up, runs the load, checks and reports. It returns
// the number of failed checks; an error means the soak could not run.
func run(cfg config, out io.Writer) (int, error) {
	bin := cfg.binary
	if bin == "" {
		built, remove, err := binary.Build("soak")
		if err != nil {
			return 0, err
		}
		defer remove()
		bin = built
	}

	recv, err := startReceiver()
	if err != nil {
		return 0, err
	}
	defer recv.srv.Close()

	fake, err := startFake(bin)
	if err != nil {
		return 0, err
	}
	defer fake.Kill()

	s := &soak{cfg: cfg, fake: fake, recv: recv,
		client: &http.Client{Timeout: cfg.timeout, Transport: &http.Transport{
			MaxIdleConnsPerHost: cfg.workers + 2, DisableCompression: true}}}
	if err := s.setUp(); err != nil {
		return 0, err
	}
	s.load()
	s.countStored()
	stopped := fake.stop(10 * time.Second)
	return s.report(out, stopped), nil
}

// fakeProc is the running standalone fake.
type fakeProc struct {
	*binary.Process
	output strings.Builder // what it printed after start-up; read it once Exited is closed
}

// startFake starts the binary on a free loopback port and reads the gateway
// it prints.
func startFake(bin string) (*fakeProc, error) {
	addr, err := binary.FreeAddr()
	if err != nil {
		return nil, err
	}
	f := &fakeProc{}
	cmd := exec.Command(bin, "-addr", addr, "-clock", "manual", "-quiet",
		"-journal-bytes", "2097152", "-webhook-capture-bytes", "4194304", "-webhook-log-bytes", "2097152")
	f.Process, err = binary.Start(cmd, addr, "next:", func(line string) { f.output.WriteString(line + "\n") })
	if err != nil {
		return nil, err
	}
	if f.Gateway == "" {
		f.Kill()
		return nil, errors.New("the fake printed no X-SP-GATEWAY line")
	}
	return f, nil
}

// stop sends SIGTERM and reports whether the fake exited, having printed
// "synapsefake stopped", within d.
func (f *fakeProc) stop(d time.Duration) bool {
	_ = f.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-f.Exited():
	case <-time.After(d):
		f.Kill()
		return false
	}
	return strings.Contains(f.output.String(), "synapsefake stopped")
}

// rss reads VmRSS of the fake, in bytes.
func (f *fakeProc) rss() (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", f.Cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmRSS line")
}

// receiver is the local webhook receiver.
type receiver struct {
	srv       *http.Server
	url       string
	delivered atomic.Int64
	malformed atomic.Int64
}

func startReceiver() (*receiver, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + l.Addr().String() + "/hook"}
	r.srv = &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(io.LimitReader(req.Body, 8<<20)).Decode(&body); err != nil || body["_id"] == nil {
			r.malformed.Add(1)
		}
		r.delivered.Add(1)
		w.WriteHeader(http.StatusOK)
	})}
	go func() { _ = r.srv.Serve(l) }()
	return r, nil
}

// worker is one user of the fake with its nodes and key.
type worker struct {
	userID, from, to string
	headers          map[string]string
	recent           []string // transactions not yet commented or settled
}

// sample is one API request's latency, at an offset from the start of the load.
type sample struct {
	at, took time.Duration
}

// soak holds the run's state and tallies.
type soak struct {
	cfg     config
	fake    *fakeProc
	recv    *receiver
	client  *http.Client
	workers []*worker

	mu         sync.Mutex
	samples    []sample
	requests   map[string]int // by kind
	answers    map[int]int    // by HTTP status
	notEnvs    []string       // the first answers that were not envelopes
	notEnvN    int
	transport  []string // the first requests that got no answer
	transportN int
	created    int64
	rss        []int64 // one a second, the first before the load
	rssErr     error
	stored     int64
	storedErr  error
	advances   int
}

func (s *soak) setUp() error {
	s.requests, s.answers = map[string]int{}, map[int]int{}
	var sub map[string]any
	if err := s.setup("POST", "/v3.1/subscriptions", s.gatewayOnly(),
		map[string]any{"scope": []string{"TRANS|POST", "TRAN|PATCH"}, "url": s.recv.url}, &sub); err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	for i := range s.cfg.workers {
		w, err := s.newWorker(i)
		if err != nil {
			return err
		}
		s.workers = append(s.workers, w)
	}
	return nil
}

func (s *soak) gatewayOnly() map[string]string {
	return map[string]string{"X-SP-GATEWAY": s.fake.Gateway}
}

// newWorker seeds a user with two funded nodes and an OAuth key.
func (s *soak) newWorker(i int) (*worker, error) {
	var u struct {
		User struct {
			ID string `json:"_id"`
		} `json:"user"`
	}
	if err := s.setup("POST", "/_fake/users", nil, map[string]any{"fingerprint": soakFingerprint,
		"legal_names": []string{fmt.Sprintf("Soak Worker %d", i)}}, &u); err != nil {
		return nil, fmt.Errorf("seed user: %w", err)
	}
	w := &worker{userID: u.User.ID}
	for _, id := range []*string{&w.from, &w.to} {
		var n struct {
			Node struct {
				ID string `json:"_id"`
			} `json:"node"`
		}
		if err := s.setup("POST", "/_fake/users/"+w.userID+"/nodes", nil,
			map[string]any{"type": "DEPOSIT-US", "balance_cents": 1_000_000_000}, &n); err != nil {
			return nil, fmt.Errorf("seed node: %w", err)
		}
		*id = n.Node.ID
	}
	if err := s.rekey(w); err != nil {
		return nil, err
	}
	return w, nil
}

// soakFingerprint is the fingerprint of every worker's user.
const soakFingerprint = "soak-fingerprint"

// rekey gets the worker a new OAuth key, as a client does when its key
// expires (keys live two hours of the fake's clock, which the load moves).
func (s *soak) rekey(w *worker) error {
	var k struct {
		Key string `json:"oauth_key"`
	}
	if err := s.setup("POST", "/_fake/users/"+w.userID+"/oauth", nil, map[string]any{"fingerprint": soakFingerprint}, &k); err != nil {
		return fmt.Errorf("oauth key: %w", err)
	}
	w.headers = map[string]string{"X-SP-GATEWAY": s.fake.Gateway, "X-SP-USER": k.Key + "|" + soakFingerprint, "X-SP-USER-IP": "127.0.0.1"}
	return nil
}

// setup sends a set-up request, which must succeed, and decodes its answer.
func (s *soak) setup(method, path string, headers map[string]string, body any, out any) error {
	status, raw, err := s.send(method, path, headers, body)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("%s %s: %d %.300s", method, path, status, raw)
	}
	return json.Unmarshal(raw, out)
}

// send makes one request to the fake and reads the whole answer.
func (s *soak) send(method, path string, headers map[string]string, body any) (int, []byte, error) {
	status, _, raw, err := sendRequest(s.client, s.fake.Base, method, path, headers, body)
	return status, raw, err
}

// call is send for the load: it times API requests, checks that the answer
// is an envelope and tallies it. It returns the decoded answer, nil when
// there was none.
func (s *soak) call(start time.Time, kind, method, path string, headers map[string]string, body any) (int, map[string]any) {
	t0 := time.Now()
	status, raw, err := s.send(method, path, headers, body)
	took := time.Since(t0)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[kind]++
	if err != nil {
		if s.transportN++; len(s.transport) < 5 {
			s.transport = append(s.transport, fmt.Sprintf("%s %s: %v", method, path, err))
		}
		return 0, nil
	}
	s.answers[status]++
	if strings.HasPrefix(path, "/v3.1/") {
		s.samples = append(s.samples, sample{at: t0.Sub(start), took: took})
	}
	m, why := envelope(status, raw)
	if why != "" {
		if s.notEnvN++; len(s.notEnvs) < 5 {
			s.notEnvs = append(s.notEnvs, fmt.Sprintf("%s %s -> %d: %s: %.200s", method, path, status, why, raw))
		}
		return status, nil
	}
	return status, m
}

// envelope decodes an answer and says why it is not an envelope of the API
// ("" when it is): a JSON object that, on success, says success true (and
// http_code "200" if it has one) and, otherwise, carries string error_code
// and http_code, the status, and an error object.
func envelope(status int, raw []byte) (map[string]any, string) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, "not a JSON object"
	}
	if status == http.StatusOK {
		if m["success"] != true {
			return nil, "a 200 without success: true"
		}
		if hc, ok := m["http_code"]; ok && hc != "200" {
			return nil, "a 200 whose http_code is not \"200\""
		}
		return m, ""
	}
	code, ok1 := m["error_code"].(string)
	httpCode, ok2 := m["http_code"].(string)
	_, ok3 := m["error"].(map[string]any)
	if !ok1 || !ok2 || !ok3 || code == "" || httpCode != strconv.Itoa(status) {
		return nil, "not the error envelope"
	}
	return m, ""
}

// load runs the workers, the clock and the RSS sampler for the duration.
func (s *soak) load() {
	start := time.Now()
	ctx, cancel := context.WithDeadline(context.Background(), start.Add(s.cfg.duration))
	defer cancel()
	if rss, err := s.fake.rss(); err == nil {
		s.rss = append(s.rss, rss)
	} else {
		s.rssErr = err
	}
	var wg sync.WaitGroup
	for _, w := range s.workers {
		wg.Go(func() { s.work(ctx, start, w) })
	}
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				s.call(start, "advance clock", "POST", "/_fake/clock/advance", nil, map[string]any{"duration": "2h"})
				s.mu.Lock()
				s.advances++
				s.mu.Unlock()
			}
		}
	})
	wg.Go(func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				rss, err := s.fake.rss()
				s.mu.Lock()
				if err != nil {
					s.rssErr = err
				} else {
					s.rss = append(s.rss, rss)
				}
				s.mu.Unlock()
			}
		}
	})
	wg.Wait()
	// One last sample once the load has stopped and its deliveries are done.
	if rss, err := s.fake.rss(); err == nil {
		s.rss = append(s.rss, rss)
	}
}

// work is one worker's loop: a fixed cycle of operations, with a pause
// between requests, until ctx is done.
func (s *soak) work(ctx context.Context, start time.Time, w *worker) {
	transPath := "/v3.1/users/" + w.userID + "/nodes/" + w.from + "/trans"
	for i := 0; ctx.Err() == nil; i++ {
		status := 0
		switch i % 6 {
		case 0, 2, 4:
			body := map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": w.to},
				"amount": map[string]any{"amount": float64(1+i%100) / 100, "currency": "USD"},
				"extra":  map[string]any{"ip": "127.0.0.1", "note": "soak"}}
			var m map[string]any
			if status, m = s.call(start, "create transaction", "POST", transPath, w.headers, body); status == http.StatusOK && m != nil {
				s.mu.Lock()
				s.created++
				s.mu.Unlock()
				if id, ok := m["_id"].(string); ok && len(w.recent) < 100 {
					w.recent = append(w.recent, id)
				}
			}
		case 1:
			status, _ = s.call(start, "list transactions", "GET", transPath+"?page=1&per_page=20", w.headers, nil)
		case 3:
			if id, ok := w.take(); ok {
				status, _ = s.call(start, "comment", "PATCH", transPath+"/"+id, w.headers, map[string]any{"comment": fmt.Sprintf("soak comment %d", i)})
			}
		case 5:
			if id, ok := w.take(); ok {
				s.call(start, "settle", "POST", "/_fake/transactions/"+id+"/settle", nil, nil)
			}
		}
		if status == http.StatusUnauthorized {
			if err := s.rekey(w); err != nil {
				s.mu.Lock()
				if s.transportN++; len(s.transport) < 5 {
					s.transport = append(s.transport, err.Error())
				}
				s.mu.Unlock()
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(s.cfg.pace):
		}
	}
}

// take removes the oldest recent transaction.
func (w *worker) take() (string, bool) {
	if len(w.recent) == 0 {
		return "", false
	}
	id := w.recent[0]
	w.recent = w.recent[1:]
	return id, true
}

// countStored asks the fake how many transactions its workers' users hold.
func (s *soak) countStored() {
	for _, w := range s.workers {
		if err := s.rekey(w); err != nil {
			s.storedErr = err
			return
		}
		var list struct {
			Count int64 `json:"trans_count"`
		}
		if err := s.setup("GET", "/v3.1/users/"+w.userID+"/trans?per_page=1", w.headers, nil, &list); err != nil {
			s.storedErr = err
			return
		}
		s.stored += list.Count
	}
}

// p99 is the 99th percentile of the latencies sampled in [from, to).
func p99(samples []sample, from, to time.Duration) (time.Duration, int) {
	var d []time.Duration
	for _, x := range samples {
		if x.at >= from && x.at < to {
			d = append(d, x.took)
		}
	}
	if len(d) == 0 {
		return 0, 0
	}
	slices.Sort(d)
	return d[(len(d)*99+99)/100-1], len(d)
}

// report prints the summary and the checks, and returns how many failed.
func (s *soak) report(out io.Writer, stopped bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	total := 0
	for _, n := range s.requests {
		total += n
	}
	fmt.Fprintf(out, "soak: %s of load, %d workers, %d requests (%.0f/s)\n", s.cfg.duration, s.cfg.workers, total, float64(total)/s.cfg.duration.Seconds())
	kinds := make([]string, 0, len(s.requests))
	for k := range s.requests {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		fmt.Fprintf(out, "  %-20s %d\n", k, s.requests[k])
	}
	statuses := make([]int, 0, len(s.answers))
	for st := range s.answers {
		statuses = append(statuses, st)
	}
	slices.Sort(statuses)
	for _, st := range statuses {
		fmt.Fprintf(out, "  HTTP %d: %d\n", st, s.answers[st])
	}
	fmt.Fprintf(out, "  clock advances: %d; webhooks received: %d\n", s.advances, s.recv.delivered.Load())

	first, nFirst := p99(s.samples, 0, s.cfg.window)
	last, nLast := p99(s.samples, s.cfg.duration-s.cfg.window, s.cfg.duration)
	fmt.Fprintf(out, "  p99 latency: first %s %s (%d requests), last %s %s (%d requests)\n",
		s.cfg.window, first.Round(time.Microsecond), nFirst, s.cfg.window, last.Round(time.Microsecond), nLast)

	var base, peak, final int64
	if len(s.rss) > 0 {
		base, peak, final = s.rss[0], slices.Max(s.rss), s.rss[len(s.rss)-1]
	}
	growth := peak - base
	allowed := s.cfg.rssAllowance + s.cfg.rssPerTx*s.stored
	perTx := 0.0
	if s.stored > 0 {
		perTx = float64(growth) / float64(s.stored)
	}
	fmt.Fprintf(out, "  RSS: %d samples, start %.1f MiB, peak %.1f MiB, end %.1f MiB; growth %.1f MiB for %d stored transactions = %.0f B/transaction (allowed %.1f MiB)\n",
		len(s.rss), mib(base), mib(peak), mib(final), mib(growth), s.stored, perTx, mib(allowed))

	passed, failed := 0, 0
	check := func(ok bool, name string, detail ...string) {
		mark := "ok  "
		if ok {
			passed++
		} else {
			failed++
			mark = "FAIL"
		}
		fmt.Fprintf(out, "%s %s\n", mark, name)
		for _, d := range detail {
			if d != "" {
				fmt.Fprintf(out, "       %s\n", d)
			}
		}
	}
	check(s.transportN == 0, fmt.Sprintf("every request answered within %s (%d not)", s.cfg.timeout, s.transportN), s.transport...)
	check(s.notEnvN == 0, fmt.Sprintf("every answer is an envelope (%d not)", s.notEnvN), s.notEnvs...)
	check(s.created > 0 && s.storedErr == nil && s.stored == s.created,
		fmt.Sprintf("the fake stores the %d transactions created (trans_count %d)", s.created, s.stored), errString(s.storedErr))
	check(s.recv.delivered.Load() > 0 && s.recv.malformed.Load() == 0,
		fmt.Sprintf("webhooks reach the receiver as JSON objects (%d, %d malformed)", s.recv.delivered.Load(), s.recv.malformed.Load()))
	check(nFirst > 0 && nLast > 0 && float64(last) <= s.cfg.maxP99Ratio*float64(first),
		fmt.Sprintf("p99 of the last %s within %.1fx of the first (%.2fx)", s.cfg.window, s.cfg.maxP99Ratio, ratio(last, first)))
	check(s.rssErr == nil && len(s.rss) >= 2 && growth <= allowed,
		fmt.Sprintf("RSS grows at most %d MiB + %d B per stored transaction (%.1f MiB for %d)", s.cfg.rssAllowance>>20, s.cfg.rssPerTx, mib(growth), s.stored),
		errString(s.rssErr))
	check(stopped, "the fake stops on SIGTERM")
	fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
	return failed
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
