// Command loadgen measures the standalone fake (cmd/synapsefake) against a
// bare net/http server doing the same JSON work, in the same run, with the
// same client, and prints the req/s of each and their ratio.
//
//	go run ./internal/loadgen                 # every row, 6 rounds of 2 s each side
//	go run ./internal/loadgen -rounds 8 -round 3s
//	go run ./internal/loadgen -quick          # a smoke test of a few seconds
//	go run ./internal/loadgen -cpuprofile /tmp/fake.pprof -rows create-c32
//	go run ./internal/loadgen -rows create-c4,create-c32 -bare-keeps
//	go run ./internal/loadgen -keeper-vs-bare   # what keeping state costs at all
//	go run ./internal/loadgen -rows create-c4,create-c32 -versus same -fake-env GOGC=off
//
// Without -binary it builds cmd/synapsefake into a temporary directory.
// The fake runs on a free 127.0.0.1 port with its default flags (it logs
// one line per request, which loadgen reads and discards). The bare server
// is loadgen itself, started again as its own process (-bare), so that the
// fake and its baseline are each a process of their own, as the client is:
// its POST handler decodes the request body into the shape the fake decodes
// and answers the fake's own create-transaction answer, captured at start;
// its GET handler answers the fake's own GET of one node.
//
// Rows:
//
//   - create-c4, create-c32: POST .../trans (create a transaction) from 4
//     and 32 concurrent clients, fake vs bare (target at least 0.85x);
//   - get-node-c4: GET .../nodes/{id} with a user's oauth_key, 4 clients,
//     fake vs bare (target at least 0.9x);
//   - webhooks-c3: 3 clients creating transactions on a fake with three
//     subscriptions (TRANS|POST, TRAN|PATCH) to a local receiver, whose
//     webhook backlog grows and drains while it serves, vs the same load on
//     a fake with no subscription (target at least 0.8x). The fake not
//     measured in a round is stopped (SIGSTOP), so that its deliveries do
//     not run in the other's rounds.
//
// A round runs one side for -round, then the other (the order alternates
// from round to round), so both share whatever load the machine has. Each
// row prints the median req/s of each side over -rounds rounds, the median
// of the rounds' ratios with their range, and the CPU time per request of
// each server process and of loadgen itself (the client) while it drove
// each side. -versus BINARY puts another build of the fake in the bare
// server's place (-versus same: the fake's own build), run with
// -versus-flags and -versus-env only, so that -fake-flags or -fake-env is
// measured against the build without it. With -bare-keeps the bare server
// also keeps what each POST created (benchpair.Keeper), a diagnostic of how
// much of the create gap is keeping state at all. With -keeper-vs-bare
// (create rows only) the measured side is not the fake but a second bare
// server that keeps what each POST created, against the plain bare server:
// what keeping state at all costs on this machine, the ceiling of any
// server that keeps what it creates (the fake only seeds the run and
// gives the answer). The exit status is 1 when
// a request failed (any answer but 200), 0 otherwise: targets are
// reported, not enforced.
package main

import (
	"bytes"
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
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/synapsefake/synapsefake/internal/benchpair"
	"github.com/synapsefake/synapsefake/internal/binary"
)

// config is the command line.
type config struct {
	binary     string
	rounds     int
	round      time.Duration
	rows       string
	cpuprofile string
	fakeFlags  string
	fakeEnv    string
	// The -versus build's flags and environment: the measured fake's own
	// are not passed to it, so that a flag or a variable can be measured
	// against the build without it (-versus same).
	versusFlags string
	versusEnv   string
	quick       bool
	jsonOut     bool
	subs        int
	versus      string
	bareKeeps   bool
	// The measured side is a benchpair.Keeper, not the fake (create rows).
	keeperVsBare bool
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-bare" {
		if err := serveBare(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen -bare:", err)
			os.Exit(1)
		}
		return
	}
	var cfg config
	fs := flag.NewFlagSet("loadgen", flag.ExitOnError)
	fs.StringVar(&cfg.binary, "binary", "", "path of a built cmd/synapsefake (default: go build it into a temporary directory)")
	fs.IntVar(&cfg.rounds, "rounds", 6, "rounds per row; each side runs once per round")
	fs.DurationVar(&cfg.round, "round", 2*time.Second, "how long each side runs in a round")
	fs.StringVar(&cfg.rows, "rows", "", "comma-separated rows to run (create-c4, create-c32, get-node-c4, webhooks-c3); default all")
	fs.StringVar(&cfg.cpuprofile, "cpuprofile", "", "write the fakes' CPU profiles to this file (a row's fake: FILE.ROW)")
	fs.StringVar(&cfg.fakeFlags, "fake-flags", "", "more flags for the fake, space-separated (e.g. -quiet); the webhooks row's fake without subscriptions gets them too, a -versus build does not")
	fs.StringVar(&cfg.fakeEnv, "fake-env", "", "environment variables for the fake, space-separated NAME=VALUE (e.g. GOGC=off); like -fake-flags, not passed to a -versus build")
	fs.StringVar(&cfg.versusFlags, "versus-flags", "", "flags for the -versus build, space-separated")
	fs.StringVar(&cfg.versusEnv, "versus-env", "", "environment variables for the -versus build, space-separated NAME=VALUE")
	fs.IntVar(&cfg.subs, "subscriptions", 3, "subscriptions of the webhooks row's fake (0: compare two fakes without any)")
	fs.StringVar(&cfg.versus, "versus", "", "path of another build of cmd/synapsefake to compare the fake with, in place of the bare server (create and GET rows), e.g. the build before a change; \"same\": the fake's own build, to measure -fake-flags or -fake-env against it")
	fs.BoolVar(&cfg.bareKeeps, "bare-keeps", false, "the bare server keeps each created transaction (its decoded body and a copy of the answer, under a random id), as the fake keeps state: tells how much of the gap is keeping state at all")
	fs.BoolVar(&cfg.keeperVsBare, "keeper-vs-bare", false, "measure, in the fake's place, a bare server that keeps each created transaction (as -bare-keeps) against the plain bare server: what keeping state at all costs, the ceiling of any server that keeps what it creates; create rows only (the default rows become create-c4,create-c32)")
	fs.BoolVar(&cfg.quick, "quick", false, "a smoke test: 2 rounds of 150 ms per row")
	fs.BoolVar(&cfg.jsonOut, "json", false, "print the rows as JSON lines, for internal/perftable")
	_ = fs.Parse(os.Args[1:])
	if fs.NArg() > 0 || cfg.rounds < 1 || cfg.round <= 0 {
		fmt.Fprintln(os.Stderr, "loadgen: flags only; -rounds at least 1; -round positive")
		os.Exit(2)
	}
	for _, err := range []error{checkEnv(cfg.fakeEnv), checkEnv(cfg.versusEnv), checkModes(cfg)} {
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(2)
		}
	}
	if cfg.quick {
		cfg.rounds, cfg.round = 2, 150*time.Millisecond
	}
	results, err := run(cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
	for _, r := range results {
		if r.failed > 0 {
			os.Exit(1)
		}
	}
}

// row is one line of the table: a load run against the fake and against
// its baseline.
type row struct {
	name     string
	figure   string // what it measures, for the table
	target   string
	clients  int
	webhooks bool // baseline is a fake without subscriptions, not the bare server
	get      bool // GET one node, not create a transaction
}

var allRows = []row{
	{name: "create-c4", figure: "binary create-transaction req/s vs a bare server, c=4", target: ">= 0.85x", clients: 4},
	{name: "create-c32", figure: "binary create-transaction req/s vs a bare server, c=32", target: ">= 0.85x", clients: 32},
	{name: "get-node-c4", figure: "binary GET one node (user auth) vs bare GET, c=4", target: ">= 0.9x", clients: 4, get: true},
	{name: "webhooks-c3", figure: "API req/s while a webhook backlog drains vs no subscriptions, c=3", target: ">= 0.8x", clients: 3, webhooks: true},
}

// result is what a row measured.
type result struct {
	Row      string    `json:"row"`
	Figure   string    `json:"figure"`
	Target   string    `json:"target"`
	Fake     []float64 `json:"fake_rps"`     // req/s of each round
	Baseline []float64 `json:"baseline_rps"` // req/s of each round
	Ratios   []float64 `json:"ratios"`       // fake over baseline, each round
	// CPU time each server process used per request answered, in µs, each
	// round: steadier than req/s on a machine others load.
	FakeCPU     []float64 `json:"fake_cpu_us"`
	BaselineCPU []float64 `json:"baseline_cpu_us"`
	// CPU time loadgen's own process (the client) used per request
	// answered, in µs, each round, while it drove the fake and the baseline:
	// the client spends more per request on a server that answers later,
	// as its goroutines wait, sleep and are woken more.
	FakeClientCPU     []float64 `json:"fake_client_cpu_us"`
	BaselineClientCPU []float64 `json:"baseline_client_cpu_us"`
	failed            int
	failure           string
}

// run builds the binary if needed and runs the rows.
func run(cfg config, out io.Writer) ([]result, error) {
	rows, err := pickRows(cfg)
	if err != nil {
		return nil, err
	}
	bin := cfg.binary
	if bin == "" {
		built, remove, err := binary.Build("loadgen")
		if err != nil {
			return nil, err
		}
		defer remove()
		bin = built
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if cfg.keeperVsBare && !cfg.jsonOut {
		fmt.Fprintln(out, "loadgen: -keeper-vs-bare: the fake columns are a bare server that keeps each POST (benchpair.Keeper), not the fake")
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConns: 256, MaxIdleConnsPerHost: 128, DisableCompression: true}}
	if !cfg.jsonOut {
		fmt.Fprintf(out, "loadgen: %d rounds of %s each side per row\n", cfg.rounds, cfg.round)
		fmt.Fprintf(out, "%-12s %12s %12s %8s %-28s %-32s %s\n", "row", "fake req/s", "base req/s", "ratio", "range (target)", "server CPU µs/req: fake, base", "client CPU µs/req: fake, base")
	}
	var results []result
	for _, r := range rows {
		res, err := runRow(cfg, bin, self, client, r)
		if err != nil {
			return results, fmt.Errorf("%s: %w", r.name, err)
		}
		results = append(results, res)
		if cfg.jsonOut {
			line, _ := json.Marshal(res)
			fmt.Fprintf(out, "%s\n", line)
		} else {
			lo, hi := slices.Min(res.Ratios), slices.Max(res.Ratios)
			fmt.Fprintf(out, "%-12s %12.0f %12.0f %7.2fx %-28s %-32s %.0f, %.0f\n", r.name, benchpair.MedianOf(res.Fake), benchpair.MedianOf(res.Baseline),
				benchpair.MedianOf(res.Ratios), fmt.Sprintf("%.2fx-%.2fx (%s)", lo, hi, r.target),
				fmt.Sprintf("%.0f, %.0f", benchpair.MedianOf(res.FakeCPU), benchpair.MedianOf(res.BaselineCPU)),
				benchpair.MedianOf(res.FakeClientCPU), benchpair.MedianOf(res.BaselineClientCPU))
		}
		if res.failed > 0 {
			fmt.Fprintf(os.Stderr, "loadgen: %s: %d requests failed; the first: %s\n", r.name, res.failed, res.failure)
		}
	}
	return results, nil
}

// pickRows is the rows -rows names, in its order; all of them when it is
// empty, or with -keeper-vs-bare the create rows, the only ones it can
// measure.
func pickRows(cfg config) ([]row, error) {
	if cfg.rows == "" {
		if cfg.keeperVsBare {
			return slices.DeleteFunc(slices.Clone(allRows), func(r row) bool { return r.get || r.webhooks }), nil
		}
		return allRows, nil
	}
	var rows []row
	for name := range strings.SplitSeq(cfg.rows, ",") {
		i := slices.IndexFunc(allRows, func(r row) bool { return r.name == strings.TrimSpace(name) })
		if i < 0 {
			return nil, fmt.Errorf("unknown row %q", name)
		}
		if r := allRows[i]; cfg.keeperVsBare && (r.get || r.webhooks) {
			return nil, fmt.Errorf("-keeper-vs-bare measures the create rows only, not %s", r.name)
		}
		rows = append(rows, allRows[i])
	}
	return rows, nil
}

// checkModes refuses flags that each choose what the rows compare, given
// together: -keeper-vs-bare replaces the fake by a Keeper against the plain
// bare server, which -versus and -bare-keeps would replace.
func checkModes(cfg config) error {
	if cfg.keeperVsBare && (cfg.versus != "" || cfg.bareKeeps) {
		return errors.New("-keeper-vs-bare compares a keeping bare server with the plain one: it takes neither -versus nor -bare-keeps")
	}
	return nil
}

// target is a server under load: its base URL, the requests to send, and
// how to stop and resume its process between rounds.
type target struct {
	proc *process
	send func(ctx context.Context, client *http.Client) error
}

// runRow starts the row's fake and baseline, then runs the rounds.
func runRow(cfg config, bin, self string, client *http.Client, r row) (result, error) {
	res := result{Row: r.name, Figure: r.figure, Target: r.target}
	profile := ""
	if cfg.cpuprofile != "" {
		profile = cfg.cpuprofile + "." + r.name
	}
	fake, err := startFake(bin, profile, cfg.fakeFlags, cfg.fakeEnv)
	if err != nil {
		return res, err
	}
	defer fake.stop()
	w, err := seed(client, fake)
	if err != nil {
		return res, err
	}
	var base *process
	var baseW *world
	measured, measuredW := fake, w // the fake, unless -keeper-vs-bare
	if r.webhooks {
		recv, err := startReceiver()
		if err != nil {
			return res, err
		}
		defer recv.Close()
		for range cfg.subs {
			if err := w.post(client, "/v3.1/subscriptions", w.gatewayHeaders(),
				map[string]any{"scope": []string{"TRANS|POST", "TRAN|PATCH"}, "url": recv.url}, nil); err != nil {
				return res, fmt.Errorf("subscribe: %w", err)
			}
		}
	}
	if r.webhooks || cfg.versus != "" {
		// The baseline is a fake too: the same build without subscriptions,
		// or the other build.
		other, flags, env := baselineFake(cfg, bin, r.webhooks)
		if base, err = startFake(other, "", flags, env); err != nil {
			return res, err
		}
		if baseW, err = seed(client, base); err != nil {
			base.stop()
			return res, err
		}
	} else {
		dir, err := os.MkdirTemp("", "loadgen-bare")
		if err != nil {
			return res, err
		}
		defer os.RemoveAll(dir)
		var answer []byte
		if r.get {
			answer, err = w.fetch(client, "GET", w.nodePath(), w.userHeaders, nil)
		} else {
			answer, err = w.fetch(client, "POST", w.transPath(), w.userHeaders, w.txBody())
		}
		if err != nil {
			return res, err
		}
		file := filepath.Join(dir, "answer.json")
		if err := os.WriteFile(file, answer, 0o600); err != nil {
			return res, err
		}
		if base, err = startBare(self, file, cfg.bareKeeps); err != nil {
			return res, err
		}
		bare := *w
		bare.base = base.Base
		baseW = &bare
		got, err := baseW.fetch(client, "POST", w.transPath(), w.userHeaders, w.txBody())
		if err != nil || len(got) != len(answer) {
			base.stop()
			return res, fmt.Errorf("the bare server answers %d bytes (%v), the fake %d", len(got), err, len(answer))
		}
		if cfg.keeperVsBare {
			keeper, err := startBare(self, file, true)
			if err != nil {
				base.stop()
				return res, err
			}
			defer keeper.stop()
			kept := *w
			kept.base = keeper.Base
			measured, measuredW = keeper, &kept
		}
	}
	defer base.stop()
	// Runs first: the fakes' shutdown does not wait for connections the
	// client keeps.
	defer client.CloseIdleConnections()
	op := func(wd *world) func(ctx context.Context, client *http.Client) error {
		if r.get {
			return func(ctx context.Context, client *http.Client) error {
				_, err := wd.do(ctx, client, "GET", wd.nodePath(), wd.userHeaders, nil)
				return err
			}
		}
		body := wd.txBody()
		return func(ctx context.Context, client *http.Client) error {
			_, err := wd.do(ctx, client, "POST", wd.transPath(), wd.userHeaders, body)
			return err
		}
	}
	sides := [2]target{{measured, op(measuredW)}, {base, op(baseW)}}
	if r.webhooks {
		// Only the measured fake runs: the other is stopped, its deliveries too.
		_ = base.signal(syscall.SIGSTOP)
	}
	var failed atomic.Int64
	var firstErr atomic.Value
	for i := range cfg.rounds {
		var rps, cpu, clientCPU [2]float64
		order := []int{0, 1}
		if i%2 == 1 {
			order = []int{1, 0}
		}
		for _, side := range order {
			other := sides[1-side].proc
			if r.webhooks {
				_ = other.signal(syscall.SIGSTOP)
				_ = sides[side].proc.signal(syscall.SIGCONT)
			}
			before, clientBefore := sides[side].proc.cpu(), binary.SelfCPU()
			n, nFailed, err := drive(client, sides[side].send, r.clients, cfg.round)
			rps[side] = float64(n) / cfg.round.Seconds()
			if n > 0 {
				cpu[side] = float64((sides[side].proc.cpu() - before).Microseconds()) / float64(n)
				clientCPU[side] = float64((binary.SelfCPU() - clientBefore).Microseconds()) / float64(n)
			}
			if nFailed > 0 {
				failed.Add(nFailed)
				firstErr.CompareAndSwap(nil, err.Error())
			}
		}
		res.FakeCPU = append(res.FakeCPU, cpu[0])
		res.BaselineCPU = append(res.BaselineCPU, cpu[1])
		res.FakeClientCPU = append(res.FakeClientCPU, clientCPU[0])
		res.BaselineClientCPU = append(res.BaselineClientCPU, clientCPU[1])
		res.Fake = append(res.Fake, rps[0])
		res.Baseline = append(res.Baseline, rps[1])
		if rps[1] > 0 {
			res.Ratios = append(res.Ratios, rps[0]/rps[1])
		} else {
			res.Ratios = append(res.Ratios, 0)
		}
	}
	if r.webhooks {
		_ = fake.signal(syscall.SIGCONT)
		_ = base.signal(syscall.SIGCONT)
	}
	res.failed = int(failed.Load())
	if s, ok := firstErr.Load().(string); ok {
		res.failure = s
	}
	return res, nil
}

// drive runs send from clients goroutines for d and counts the requests
// answered 200 and the others, with the first failure.
func drive(client *http.Client, send func(context.Context, *http.Client) error, clients int, d time.Duration) (ok, failed int64, first error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var nOK, nFailed atomic.Int64
	var once sync.Once
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for ctx.Err() == nil {
				err := send(ctx, client)
				switch {
				case err == nil:
					nOK.Add(1)
				case ctx.Err() != nil: // cut off by the end of the round
				default:
					nFailed.Add(1)
					once.Do(func() { first = err })
				}
			}
		})
	}
	wg.Wait()
	return nOK.Load(), nFailed.Load(), first
}

// process is a server loadgen started: the fake or the bare server.
type process struct{ *binary.Process }

// cpu is the CPU time the process used so far (binary.ProcessCPU).
func (p *process) cpu() time.Duration { return binary.ProcessCPU(p.Cmd.Process.Pid) }

func (p *process) signal(sig syscall.Signal) error { return p.Cmd.Process.Signal(sig) }

// stop ends the process with SIGTERM (which makes the fake write its CPU
// profile) and waits for it, killing it after 10 s.
func (p *process) stop() {
	_ = p.Cmd.Process.Signal(syscall.SIGCONT)
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.Exited():
	case <-time.After(10 * time.Second):
		_ = p.Cmd.Process.Kill()
		<-p.Exited()
	}
}

// start starts cmd, which listens on addr, once it printed ready; the rest
// of its output is read and discarded.
func start(cmd *exec.Cmd, addr, ready string) (*process, error) {
	p, err := binary.Start(cmd, addr, ready, nil)
	if err != nil {
		return nil, err
	}
	return &process{p}, nil
}

// baselineFake is the build, flags and environment of a row's baseline
// when it is a fake: for the webhooks row the measured fake's own (it
// differs by its subscriptions alone), otherwise the -versus build's.
func baselineFake(cfg config, bin string, webhooks bool) (other, flags, env string) {
	if webhooks {
		return bin, cfg.fakeFlags, cfg.fakeEnv
	}
	if cfg.versus == "same" {
		return bin, cfg.versusFlags, cfg.versusEnv
	}
	return cfg.versus, cfg.versusFlags, cfg.versusEnv
}

// startFake starts the fake on a free loopback port, with more flags and
// environment variables (space-separated NAME=VALUE, checked by checkEnv)
// beside loadgen's own.
func startFake(bin, profile, flags, env string) (*process, error) {
	addr, err := binary.FreeAddr()
	if err != nil {
		return nil, err
	}
	args := []string{"-addr", addr}
	if profile != "" {
		args = append(args, "-cpuprofile", profile)
	}
	args = append(args, strings.Fields(flags)...)
	cmd := exec.Command(bin, args...)
	if vars := strings.Fields(env); len(vars) > 0 {
		cmd.Env = append(os.Environ(), vars...)
	}
	return start(cmd, addr, "next:")
}

// checkEnv refuses a -fake-env or -versus-env value with a word that is not
// NAME=VALUE, before anything is built or started.
func checkEnv(env string) error {
	for _, v := range strings.Fields(env) {
		if name, _, ok := strings.Cut(v, "="); !ok || name == "" {
			return fmt.Errorf("environment variable %q is not NAME=VALUE", v)
		}
	}
	return nil
}

// startBare starts loadgen -bare answering the bytes of answerFile; with
// keep, a bare server that keeps what each POST created.
func startBare(self, answerFile string, keep bool) (*process, error) {
	addr, err := binary.FreeAddr()
	if err != nil {
		return nil, err
	}
	args := []string{"-bare", "-addr", addr, "-answer", answerFile}
	if keep {
		args = append(args, "-keep")
	}
	return start(exec.Command(self, args...), addr, "bare serving")
}

// serveBare is loadgen -bare -addr ADDR -answer FILE [-keep]: the bare
// server (benchpair.Baseline, or with -keep benchpair.Keeper), until SIGTERM.
func serveBare(args []string) error {
	fs := flag.NewFlagSet("loadgen -bare", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	file := fs.String("answer", "", "file of the answer's bytes")
	keep := fs.Bool("keep", false, "keep what each POST created (benchpair.Keeper)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	answer, err := os.ReadFile(*file)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: bareHandler(answer, *keep), ReadHeaderTimeout: 10 * time.Second}
	fmt.Println("bare serving", l.Addr())
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
		<-sig
		_ = srv.Close()
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// bareHandler is the bare server's handler: benchpair.Baseline, or with
// keep a benchpair.Keeper.
func bareHandler(answer []byte, keep bool) http.Handler {
	if keep {
		return benchpair.NewKeeper(answer)
	}
	return benchpair.Baseline(answer)
}

// world is what loadgen seeded in a fake: a user with an oauth_key and two
// nodes.
type world struct {
	base             string
	gateway          string
	userID, from, to string
	userHeaders      map[string]string
}

const fingerprint = "loadgen-fingerprint"

// seed makes a user, two DEPOSIT-US nodes and an oauth_key through the
// control API; the gateway is the one the fake printed.
func seed(client *http.Client, fake *process) (*world, error) {
	if fake.Gateway == "" {
		return nil, errors.New("the fake printed no X-SP-GATEWAY line")
	}
	w := &world{base: fake.Base, gateway: fake.Gateway}
	var u struct {
		User struct {
			ID string `json:"_id"`
		} `json:"user"`
	}
	if err := w.post(client, "/_fake/users", nil, map[string]any{"fingerprint": fingerprint, "legal_names": []string{"Load Generator"}}, &u); err != nil {
		return nil, fmt.Errorf("seed user: %w", err)
	}
	w.userID = u.User.ID
	for _, id := range []*string{&w.from, &w.to} {
		var n struct {
			Node struct {
				ID string `json:"_id"`
			} `json:"node"`
		}
		if err := w.post(client, "/_fake/users/"+w.userID+"/nodes", nil,
			map[string]any{"type": "DEPOSIT-US", "nickname": "Checking", "balance_cents": int64(1) << 50}, &n); err != nil {
			return nil, fmt.Errorf("seed node: %w", err)
		}
		*id = n.Node.ID
	}
	var k struct {
		Key string `json:"oauth_key"`
	}
	if err := w.post(client, "/_fake/users/"+w.userID+"/oauth", nil, map[string]any{"fingerprint": fingerprint}, &k); err != nil {
		return nil, fmt.Errorf("oauth key: %w", err)
	}
	w.userHeaders = map[string]string{"X-SP-GATEWAY": w.gateway, "X-SP-USER": k.Key + "|" + fingerprint, "X-SP-USER-IP": "127.0.0.1"}
	return w, nil
}

func (w *world) gatewayHeaders() map[string]string {
	return map[string]string{"X-SP-GATEWAY": w.gateway}
}
func (w *world) transPath() string { return "/v3.1/users/" + w.userID + "/nodes/" + w.from + "/trans" }
func (w *world) nodePath() string  { return "/v3.1/users/" + w.userID + "/nodes/" + w.from }

// txBody is the create-transaction body a client sends.
func (w *world) txBody() []byte {
	b, _ := json.Marshal(map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": w.to},
		"amount": map[string]any{"amount": 0.01, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1", "note": "loadgen"}})
	return b
}

// post sends a set-up request, which must be answered 200, and decodes the
// answer into out (when not nil).
func (w *world) post(client *http.Client, path string, headers map[string]string, body any, out any) error {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return err
		}
	}
	method := "POST"
	if body == nil {
		method = "GET"
	}
	got, err := w.fetch(client, method, path, headers, raw)
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(got, out)
}

func (w *world) fetch(client *http.Client, method, path string, headers map[string]string, body []byte) ([]byte, error) {
	return w.do(context.Background(), client, method, path, headers, body)
}

// do sends one request and reads the whole answer; any status but 200 is an
// error.
func (w *world) do(ctx context.Context, client *http.Client, method, path string, headers map[string]string, body []byte) ([]byte, error) {
	var rdr io.Reader = http.NoBody
	if body != nil {
		rdr = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, w.base+path, rdr)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %d %.300s", method, path, resp.StatusCode, raw)
	}
	return raw, nil
}

// receiver is the local webhook receiver of the webhooks row.
type receiver struct {
	srv *http.Server
	url string
}

func startReceiver() (*receiver, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + l.Addr().String() + "/hook"}
	r.srv = &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		w.WriteHeader(http.StatusOK)
	})}
	go func() { _ = r.srv.Serve(l) }()
	return r, nil
}

func (r *receiver) Close() { _ = r.srv.Close() }
