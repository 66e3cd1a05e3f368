// Command synapsefake serves the fake v3.1 financial-account API on a real
// listener, for offline development and for clients in other languages.
//
//	go run ./cmd/synapsefake            # serves on 127.0.0.1:8080
//	go run ./cmd/synapsefake -addr :9090
//	go run ./cmd/synapsefake -journal-entries 1000 -journal-bytes 1048576
//	go run ./cmd/synapsefake -clock manual -state fake-state.json   # kept across restarts
//	go run ./cmd/synapsefake -addr :8080 -allow-host fake -control-token "$TOKEN"   # beyond loopback
//	go run ./cmd/synapsefake -clock manual -start 2026-04-14T10:00:00-04:00
//	go run ./cmd/synapsefake -version
//	synapsefake healthcheck              # exit 0 when the fake on 127.0.0.1:8080 is ready, 1 otherwise
//
// Install it with
//
//	go install github.com/synapsefake/synapsefake/cmd/synapsefake@latest
//
// or run the container image or a release archive (docs/standalone.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/standalone"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "synapsefake:", err)
		os.Exit(1)
	}
}

// run parses flags, serves until SIGINT or SIGTERM, then shuts down; or
// runs the healthcheck subcommand.
func run(args []string, out io.Writer) error {
	if len(args) > 0 && args[0] == "healthcheck" {
		return healthcheck(args[1:], out, os.Getenv)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, out, nil)
}

// serve runs the server until ctx is done. ready, when not nil, receives the
// base URL once the listener is open.
func serve(ctx context.Context, args []string, out io.Writer, ready chan<- string) error {
	fs := flag.NewFlagSet("synapsefake", flag.ContinueOnError)
	fs.SetOutput(out)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	seed := fs.Uint64("seed", 1, "seed of the id stream: the same seed gives the same ids")
	clockMode := fs.String("clock", "real", "real: wall-clock time; manual: frozen until advanced")
	startAt := fs.String("start", "", "the fake's time at start-up: an RFC 3339 instant (2026-04-14T10:00:00-04:00) from 1970 to 9899, or default (synapsefake.DefaultStartTime, as Go tests get); with -clock real, time runs on from there; default: the wall-clock time")
	clientID := fs.String("client-id", "", "client id (default: a fixed test id)")
	clientSecret := fs.String("client-secret", "", "client secret (default: a fixed test secret)")
	webhooks := fs.String("webhooks", "deliver", "deliver: POST webhooks to subscribers; capture: only record them (GET /_fake/webhooks)")
	quiet := fs.Bool("quiet", false, "do not log one line per request")
	microDeposits := fs.Bool("micro-deposits", false, "ACH-US nodes added by account and routing number stay allowed CREDIT until PATCH {\"micro\":[0.1,0.1]} verifies them")
	immediateCredit := fs.Bool("immediate-provisional-credit", false, "a dispute's provisional credit posts as the dispute is filed, not 3 (or 15) business days later")
	kycReview := fs.String("kyc-review", "0s", "how long a KYC sub-document's review takes on the fake's clock (a duration: 20s, 24h), or manual: only the control API's review routes complete one; 0s completes it before the next request is answered")
	fundsCheck := fs.Bool("funds-check", false, "refuse a single transaction or a dummy withdrawal over the sending deposit node's available balance (409 insufficient_funds); by default it is taken and the balance may go negative, as on the sandbox")
	journalEntries := fs.Int("journal-entries", 10_000, "most API calls the request journal (GET /_fake/requests) keeps; 0: none, negative: no bound")
	journalBytes := fs.Int64("journal-bytes", 8<<20, "most bytes the request journal keeps (bodies cut at 64 KiB); 0: none, negative: no bound")
	captureBytes := fs.Int64("webhook-capture-bytes", synapsefake.DefaultWebhookCaptureLimit, "most bytes the webhook capture (GET /_fake/webhooks) keeps, oldest forgotten first; negative: no bound")
	webhookLogBytes := fs.Int64("webhook-log-bytes", synapsefake.DefaultWebhookLogLimit, "most bytes the webhook log (GET /v3.1/subscriptions/logs) keeps, oldest forgotten first; negative: no bound")
	webhookRate := fs.Int("webhook-rate", synapsefake.DefaultWebhookRate, "most webhook attempts a second made in the background (a backlog drains at this rate; POST /_fake/webhooks/flush and clock advances drain it at once); negative: no bound")
	// Worlds from a file (issue 13).
	world := fs.String("world", "", "load this world file (JSON: users, nodes, subnets, transactions, subscriptions by name) at start; the format is in docs/standalone.md")
	// Saved state (issue 13).
	stateFile := fs.String("state", "", "load the whole state from this file at start if it exists; save it there on shutdown and every -state-interval")
	stateInterval := fs.Duration("state-interval", 30*time.Second, "how often -state is saved while serving; 0: only on shutdown")
	maxStateSize := fs.Int64("max-state-size", synapsefake.DefaultMaxStateSize, "largest state document -state and PUT /_fake/state read, in bytes (a restore allocates about 18 bytes per byte of the document)")
	// Webhook chaos (issue 14).
	webhookChaos := fs.String("webhook-chaos", "", `webhook chaos as JSON, the body of PUT /_fake/webhooks/chaos, e.g. '{"seed":7,"default":{"duplicate":0.2,"reorder":0.2,"delay":0.1,"delay_by":"5m","drop_first":0.1,"bad_signature":0.05}}'; default off`)
	// Transaction decisioning (issue 14).
	jitDeadline := fs.Duration("jit-deadline", synapsefake.DefaultJITDeadline, "how long a card swipe waits for a TRANS|POST|JIT subscription's answer before the card's own rules decide it")
	// Who may use the control API (issue 18).
	var allowHosts []string
	fs.Func("allow-host", "a host `name` clients use to reach the control API and the dashboard (/_fake/), besides localhost, 127.0.0.0/8, [::1] and the -addr address; repeat it or separate names with commas. Other Hosts are refused (403), against DNS rebinding", func(v string) error {
		for _, h := range strings.Split(v, ",") {
			h = strings.TrimSpace(h)
			if h == "" || strings.ContainsAny(h, "/ ") {
				return fmt.Errorf("%q is not a host name (give names such as fake or 10.0.0.7, without a scheme or path)", h)
			}
			allowHosts = append(allowHosts, h)
		}
		return nil
	})
	controlToken := fs.String("control-token", "", "a `token` every /_fake/ request must carry (header X-Fake-Control-Token or Authorization: Bearer); a browser opens /_fake/ui/?token=TOKEN once. For a fake reachable beyond loopback; default none")
	// Platforms (issue 37).
	maxPlatforms := fs.Int("max-platforms", synapsefake.DefaultMaxPlatforms, "most platforms the fake holds, the default among them (POST /_fake/platforms makes one; beyond the bound it is 429)")
	showVersion := fs.Bool("version", false, "print the version and exit")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile (go tool pprof) of the whole run to this `file`, for measuring the fake itself; default none")
	fs.Usage = func() {
		fmt.Fprintf(out, "Usage: synapsefake [flags]\n\nServes the fake v3.1 API, its control API (/_fake/) and its dashboard (/_fake/ui/).\n"+
			"The flags, the world file format, saved state and the container: docs/standalone.md\n"+
			"(https://%s/blob/main/docs/standalone.md). The control API: docs/control-api.md.\n\nFlags:\n", repository)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *showVersion {
		fmt.Fprintln(out, versionLine(version, debug.ReadBuildInfo))
		return nil
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (flags only; see -h)", fs.Args())
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	if *maxPlatforms < 1 {
		return fmt.Errorf("-max-platforms must be at least 1 (the default platform), not %d", *maxPlatforms)
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := "http://" + l.Addr().String() + "/v3.1"
	opts := []synapsefake.Option{synapsefake.WithIDSeed(*seed), synapsefake.WithBaseURL(base),
		synapsefake.WithJournalLimit(*journalEntries, *journalBytes),
		synapsefake.WithWebhookCaptureLimit(*captureBytes), synapsefake.WithWebhookLogLimit(*webhookLogBytes),
		synapsefake.WithWebhookRate(*webhookRate),
		synapsefake.WithJITDeadline(*jitDeadline), synapsefake.WithMaxStateSize(*maxStateSize),
		synapsefake.WithAllowedHosts(allowHosts...), synapsefake.WithMaxPlatforms(*maxPlatforms)}
	if *controlToken != "" {
		opts = append(opts, synapsefake.WithControlToken(*controlToken))
	}
	if *microDeposits {
		opts = append(opts, synapsefake.WithMicroDeposits())
	}
	if *immediateCredit {
		opts = append(opts, synapsefake.WithImmediateProvisionalCredit())
	}
	if *fundsCheck {
		opts = append(opts, synapsefake.WithFundsCheck())
	}
	switch d, err := time.ParseDuration(*kycReview); {
	case *kycReview == "manual":
		opts = append(opts, synapsefake.WithManualKYCReview())
	case err != nil || d < 0:
		l.Close()
		return fmt.Errorf("-kyc-review %q: want a duration of 0s or more (20s, 24h) or manual", *kycReview)
	default:
		opts = append(opts, synapsefake.WithKYCReview(d))
	}
	if *webhookChaos != "" {
		c, err := synapsefake.ParseWebhookChaos([]byte(*webhookChaos))
		if err != nil {
			l.Close()
			return fmt.Errorf("-webhook-chaos: %w", err)
		}
		opts = append(opts, synapsefake.WithWebhookChaos(c))
	}
	clockOpt, err := clockOption(*clockMode, *startAt, time.Now())
	if err != nil {
		l.Close()
		return err
	}
	opts = append(opts, clockOpt)
	switch *webhooks {
	case "deliver":
	case "capture":
		opts = append(opts, synapsefake.WithoutWebhookDelivery())
	default:
		l.Close()
		return fmt.Errorf("-webhooks must be deliver or capture, not %q", *webhooks)
	}
	if *clientID != "" || *clientSecret != "" {
		if *clientID == "" || *clientSecret == "" {
			l.Close()
			return errors.New("-client-id and -client-secret go together")
		}
		opts = append(opts, synapsefake.WithClientCredentials(*clientID, *clientSecret))
	}
	// Every platform is a whole fake; the one the binary starts with is the
	// default, which answers whatever names no other (issue 37).
	platforms := synapsefake.NewPlatforms(opts...)
	fake := platforms.Default()
	// It serves from here on: /_fake/livez at once, /_fake/readyz 503 until
	// the state is loaded, every other request once it is (startup.go).
	gate := newStartup(platforms, *stateFile)
	srv := &http.Server{Handler: gate, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	fail := func(err error) error {
		gate.fail()
		stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(stop) // the requests held get their 503 first
		<-done
		return err
	}
	if startupLoading != nil {
		startupLoading(base)
	}
	restored, err := loadState(fake, *stateFile)
	if err == nil {
		err = loadPlatforms(platforms, *stateFile)
	}
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(out, "synapsefake serving %s\n", base)
	// The first line is read by scripts (compat/fake.sh): keep it first and
	// as it is.
	printAccess(out, l.Addr().String(), fake)
	if restored {
		fmt.Fprintf(out, "  state restored from %s\n", *stateFile)
	} else {
		user, err := fake.AddUser(synapsefake.UserSeed{Email: "demo@example.com", LegalNames: []string{"Demo User"}, Fingerprint: "demo-fingerprint"})
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(out, "  seeded user %s (fingerprint demo-fingerprint, refresh_token %s)\n", user.ID, user.RefreshToken)
		if *world != "" {
			if err := loadWorld(fake, *world, out); err != nil {
				return fail(err)
			}
		}
	}
	fmt.Fprintln(out, "next: point your client at the base URL with the client id and secret above, or try")
	fmt.Fprintf(out, "  curl http://%s/v3.1/loans-limits\n", reachable(l.Addr().String()))
	if *clockMode == "manual" {
		printManualClock(out, reachable(l.Addr().String()))
	} else {
		fmt.Fprintf(out, "  curl http://%s/_fake/users   # control API: docs/control-api.md; the clock follows real time: -clock manual to move it yourself\n", reachable(l.Addr().String()))
	}
	if *controlToken != "" {
		fmt.Fprintf(out, "  the control API needs -control-token: send X-Fake-Control-Token, or open http://%s/_fake/ui/?token=... once\n", l.Addr())
	}
	if host, _, _ := net.SplitHostPort(l.Addr().String()); !net.ParseIP(host).IsLoopback() {
		names := []string{"localhost", "127.0.0.0/8", "[::1]"}
		if !net.ParseIP(host).IsUnspecified() {
			names = append(names, host)
		}
		fmt.Fprintf(out, "  the control API and the dashboard answer only Host %s (-allow-host adds names)\n",
			strings.Join(append(names, allowHosts...), ", "))
	}

	var handler http.Handler = platforms
	var log *requestLog
	if !*quiet {
		log = newRequestLog(out)
		defer log.close()
		handler = log.wrap(platforms)
	}
	gate.ready(handler)
	if *clockMode == "real" {
		// With wall-clock time, processing steps and webhook retries fall due
		// by themselves; run them every second rather than on the next request.
		// RunDue, not Advance: Advance would wait for every queued webhook
		// delivery, at full speed, every second.
		go func() {
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					standalone.RunDue(platforms)
				}
			}
		}()
	}
	var saver sync.WaitGroup
	if *stateFile != "" && *stateInterval > 0 {
		saver.Go(func() {
			t := time.NewTicker(*stateInterval)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					if err := saveState(platforms, *stateFile); err != nil {
						fmt.Fprintln(out, "synapsefake:", err)
					}
				}
			}
		})
	}
	if ready != nil {
		ready <- base
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The final save runs even when requests in flight did not finish in
	// time: what changed since the last interval is kept all the same.
	stopErr := srv.Shutdown(shutdown)
	if stopErr == nil {
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			stopErr = err
		}
	}
	saver.Wait()
	if log != nil {
		log.close() // its lines come before what follows
	}
	if *stateFile != "" {
		if err := saveState(platforms, *stateFile); err != nil {
			return errors.Join(stopErr, err)
		}
		fmt.Fprintf(out, "state saved to %s\n", *stateFile)
	}
	if stopErr != nil {
		return stopErr
	}
	fmt.Fprintln(out, "synapsefake stopped")
	return nil
}

// startupLoading, when set (by tests), runs once the server listens and
// serves, before the state is loaded, with the base URL.
var startupLoading func(base string)

// clockOption is the clock of -clock mode and -start at, read at now:
// manual is frozen at the start (now when it is not given), real runs in
// real time from the start.
func clockOption(mode, at string, now time.Time) (synapsefake.Option, error) {
	start := now
	switch at {
	case "":
	case "default":
		start = synapsefake.DefaultStartTime()
	default:
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			return nil, fmt.Errorf("-start must be an RFC 3339 instant such as 2026-04-14T10:00:00-04:00, or default, not %q", at)
		}
		if err := standalone.ValidateStartTime(t); err != nil {
			return nil, fmt.Errorf("-start %s: %v", at, err)
		}
		start = t
	}
	switch mode {
	case "real":
		if at == "" {
			return synapsefake.WithClock(clock.New()), nil
		}
		return synapsefake.WithClock(standalone.RealClockFrom(start)), nil
	case "manual":
		return synapsefake.WithStartTime(start), nil
	}
	return nil, fmt.Errorf("-clock must be real or manual, not %q", mode)
}

// loadState restores fake from file, if there is one, and reports whether
// it did. A file that cannot be read or restored stops the start, so that
// the next save does not overwrite it.
func loadState(fake *synapsefake.Server, file string) (bool, error) {
	if file == "" {
		return false, nil
	}
	removeStaleTemps(file)
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if err := fake.Restore(f); err != nil {
		return false, fmt.Errorf("-state %s: %w", file, err)
	}
	return true, nil
}

// removeStaleTemps removes the temporary files that saves of file left
// behind when the process was killed mid-save (writeFileAtomic names them
// file.tmp-*). Only a save of this file writes them, and none has started.
func removeStaleTemps(file string) {
	dir, base := filepath.Split(file)
	if dir == "" {
		dir = "."
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && len(name) > len(base)+5 && name[:len(base)+5] == base+".tmp-" {
			_ = os.Remove(filepath.Join(dir, name))
		}
	}
}

// saveState writes the default platform's state to file atomically, and
// the other platforms' (SnapshotMade) to file.platforms when there are some
// or were some at the last save.
func saveState(platforms *synapsefake.Platforms, file string) error {
	if err := writeFileAtomic(file, platforms.Default().Snapshot); err != nil {
		return fmt.Errorf("-state %s: %w", file, err)
	}
	side := file + platformsSuffix
	if _, err := os.Stat(side); err != nil && len(platforms.List()) == 1 {
		return nil // nothing changes for a user who never makes a platform
	}
	if err := writeFileAtomic(side, platforms.SnapshotMade); err != nil {
		return fmt.Errorf("-state %s: %w", side, err)
	}
	return nil
}

// platformsSuffix names the file beside -state's that holds the platforms
// made besides the default (issue 37).
const platformsSuffix = ".platforms"

// loadPlatforms makes again the platforms saved beside file, if any.
func loadPlatforms(platforms *synapsefake.Platforms, file string) error {
	if file == "" {
		return nil
	}
	side := file + platformsSuffix
	removeStaleTemps(side)
	f, err := os.Open(side)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if err := platforms.RestoreMade(f); err != nil {
		return fmt.Errorf("-state %s: %w", side, err)
	}
	return nil
}

// writeFileAtomic replaces file with what write writes, so that a reader
// (or a crash) sees the old file or the new one, never part of one: it
// writes a temporary file in the same directory, syncs it to disk, and
// renames it over file. On failure file is left as it was.
func writeFileAtomic(file string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(file)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, base+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil { // make the rename itself durable
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// loadWorld loads a world file into fake and prints what it made, with the
// ids of the first users.
func loadWorld(fake *synapsefake.Server, file string, out io.Writer) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("-world: %w", err)
	}
	defer f.Close()
	w, err := fake.LoadWorld(f)
	if err != nil {
		return fmt.Errorf("-world %s: %w", file, err)
	}
	fmt.Fprintf(out, "  world %s: %d users, %d nodes, %d subnets, %d named transactions, %d subscriptions\n", file,
		len(w.Users), len(w.Nodes), len(w.Subnets), len(w.Transactions), len(w.Subscriptions))
	names := slices.Sorted(maps.Keys(w.Users))
	for i, name := range names {
		if i == 10 {
			fmt.Fprintf(out, "    ... and %d more users\n", len(names)-i)
			break
		}
		line := "    user " + name + ": " + w.Users[name]
		if key := w.OAuthKeys[name]; key != "" {
			line += " (X-SP-USER: " + key + "|" + w.Fingerprints[name] + ")"
		}
		fmt.Fprintln(out, line)
	}
	return nil
}
