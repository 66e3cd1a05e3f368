package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/standalone"
)

// config is what the flags ask for, checked. parseConfig makes it from the
// arguments alone; options turns it into the fake's options.
type config struct {
	addr            string
	seed            uint64
	manualClock     bool      // -clock manual; else real
	start           time.Time // -start; zero: the wall-clock time at start-up
	clientID        string    // with clientSecret, or neither
	clientSecret    string
	captureWebhooks bool // -webhooks capture; else deliver
	quiet           bool
	microDeposits   bool
	immediateCredit bool
	kycReview       time.Duration
	manualKYCReview bool // -kyc-review manual
	fundsCheck      bool
	journalEntries  int
	journalBytes    int64
	captureBytes    int64
	webhookLogBytes int64
	webhookRate     int
	world           string
	stateFile       string
	stateInterval   time.Duration
	maxStateSize    int64
	chaos           *synapsefake.WebhookChaos // nil: none
	jitDeadline     time.Duration
	allowHosts      []string
	controlToken    string
	maxPlatforms    int
	version         bool // -version: print it and exit; nothing else is checked
	cpuProfile      string
}

// parseConfig parses and checks the binary's flags in args, with no I/O
// but -h's usage and the flag package's complaints, written to usage.
func parseConfig(args []string, usage io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("synapsefake", flag.ContinueOnError)
	fs.SetOutput(usage)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the id stream: the same seed gives the same ids")
	clockMode := fs.String("clock", "real", "real: wall-clock time; manual: frozen until advanced")
	startAt := fs.String("start", "", "the fake's time at start-up: an RFC 3339 instant (2026-04-14T10:00:00-04:00) from 1970 to 9899, or default (synapsefake.DefaultStartTime, as Go tests get); with -clock real, time runs on from there; default: the wall-clock time")
	fs.StringVar(&c.clientID, "client-id", "", "client id (default: a fixed test id)")
	fs.StringVar(&c.clientSecret, "client-secret", "", "client secret (default: a fixed test secret)")
	webhooks := fs.String("webhooks", "deliver", "deliver: POST webhooks to subscribers; capture: only record them (GET /_fake/webhooks)")
	fs.BoolVar(&c.quiet, "quiet", false, "do not log one line per request")
	fs.BoolVar(&c.microDeposits, "micro-deposits", false, "ACH-US nodes added by account and routing number stay allowed CREDIT until PATCH {\"micro\":[0.1,0.1]} verifies them")
	fs.BoolVar(&c.immediateCredit, "immediate-provisional-credit", false, "a dispute's provisional credit posts as the dispute is filed, not 3 (or 15) business days later")
	kycReview := fs.String("kyc-review", "0s", "how long a KYC sub-document's review takes on the fake's clock (a duration: 20s, 24h), or manual: only the control API's review routes complete one; 0s completes it before the next request is answered")
	fs.BoolVar(&c.fundsCheck, "funds-check", false, "refuse a single transaction or a dummy withdrawal over the sending deposit node's available balance (409 insufficient_funds); by default it is taken and the balance may go negative, as on the sandbox")
	fs.IntVar(&c.journalEntries, "journal-entries", 10_000, "most API calls the request journal (GET /_fake/requests) keeps; 0: none, negative: no bound")
	fs.Int64Var(&c.journalBytes, "journal-bytes", 8<<20, "most bytes the request journal keeps (bodies cut at 64 KiB); 0: none, negative: no bound")
	fs.Int64Var(&c.captureBytes, "webhook-capture-bytes", synapsefake.DefaultWebhookCaptureLimit, "most bytes the webhook capture (GET /_fake/webhooks) keeps, oldest forgotten first; negative: no bound")
	fs.Int64Var(&c.webhookLogBytes, "webhook-log-bytes", synapsefake.DefaultWebhookLogLimit, "most bytes the webhook log (GET /v3.1/subscriptions/logs) keeps, oldest forgotten first; negative: no bound")
	fs.IntVar(&c.webhookRate, "webhook-rate", synapsefake.DefaultWebhookRate, "most webhook attempts a second made in the background (a backlog drains at this rate; POST /_fake/webhooks/flush and clock advances drain it at once); negative: no bound")
	// Worlds from a file (issue 13).
	fs.StringVar(&c.world, "world", "", "load this world file (JSON: users, nodes, subnets, transactions, subscriptions by name) at start; the format is in docs/standalone.md")
	// Saved state (issue 13).
	fs.StringVar(&c.stateFile, "state", "", "load the whole state from this file at start if it exists; save it there on shutdown and every -state-interval")
	fs.DurationVar(&c.stateInterval, "state-interval", 30*time.Second, "how often -state is saved while serving; 0: only on shutdown")
	fs.Int64Var(&c.maxStateSize, "max-state-size", synapsefake.DefaultMaxStateSize, "largest state document -state and PUT /_fake/state read, in bytes (a restore allocates about 18 bytes per byte of the document)")
	// Webhook chaos (issue 14).
	webhookChaos := fs.String("webhook-chaos", "", `webhook chaos as JSON, the body of PUT /_fake/webhooks/chaos, e.g. '{"seed":7,"default":{"duplicate":0.2,"reorder":0.2,"delay":0.1,"delay_by":"5m","drop_first":0.1,"bad_signature":0.05}}'; default off`)
	// Transaction decisioning (issue 14).
	fs.DurationVar(&c.jitDeadline, "jit-deadline", synapsefake.DefaultJITDeadline, "how long a card swipe waits for a TRANS|POST|JIT subscription's answer before the card's own rules decide it")
	// Who may use the control API (issue 18).
	fs.Func("allow-host", "a host `name` clients use to reach the control API and the dashboard (/_fake/), besides localhost, 127.0.0.0/8, [::1] and the -addr address; repeat it or separate names with commas. Other Hosts are refused (403), against DNS rebinding", func(v string) error {
		for _, h := range strings.Split(v, ",") {
			h = strings.TrimSpace(h)
			if h == "" || strings.ContainsAny(h, "/ ") {
				return fmt.Errorf("%q is not a host name (give names such as fake or 10.0.0.7, without a scheme or path)", h)
			}
			c.allowHosts = append(c.allowHosts, h)
		}
		return nil
	})
	fs.StringVar(&c.controlToken, "control-token", "", "a `token` every /_fake/ request must carry (header X-Fake-Control-Token or Authorization: Bearer); a browser opens /_fake/ui/?token=TOKEN once. For a fake reachable beyond loopback; default none")
	// Platforms (issue 37).
	fs.IntVar(&c.maxPlatforms, "max-platforms", synapsefake.DefaultMaxPlatforms, "most platforms the fake holds, the default among them (POST /_fake/platforms makes one; beyond the bound it is 429)")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile (go tool pprof) of the whole run to this `file`, for measuring the fake itself; default none")
	fs.Usage = func() {
		fmt.Fprintf(usage, "Usage: synapsefake [flags]\n\nServes the fake v3.1 API, its control API (/_fake/) and its dashboard (/_fake/ui/).\n"+
			"The flags, the world file format, saved state and the container: docs/standalone.md\n"+
			"(https://%s/blob/main/docs/standalone.md). The control API: docs/control-api.md.\n\nFlags:\n", repository)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if c.version {
		return c, nil
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q (flags only; see -h)", fs.Args())
	}
	if c.maxPlatforms < 1 {
		return config{}, fmt.Errorf("-max-platforms must be at least 1 (the default platform), not %d", c.maxPlatforms)
	}
	switch d, err := time.ParseDuration(*kycReview); {
	case *kycReview == "manual":
		c.manualKYCReview = true
	case err != nil || d < 0:
		return config{}, fmt.Errorf("-kyc-review %q: want a duration of 0s or more (20s, 24h) or manual", *kycReview)
	default:
		c.kycReview = d
	}
	if *webhookChaos != "" {
		chaos, err := synapsefake.ParseWebhookChaos([]byte(*webhookChaos))
		if err != nil {
			return config{}, fmt.Errorf("-webhook-chaos: %w", err)
		}
		c.chaos = &chaos
	}
	start, err := parseStart(*startAt)
	if err != nil {
		return config{}, err
	}
	c.start = start
	switch *clockMode {
	case "real":
	case "manual":
		c.manualClock = true
	default:
		return config{}, fmt.Errorf("-clock must be real or manual, not %q", *clockMode)
	}
	switch *webhooks {
	case "deliver":
	case "capture":
		c.captureWebhooks = true
	default:
		return config{}, fmt.Errorf("-webhooks must be deliver or capture, not %q", *webhooks)
	}
	if (c.clientID == "") != (c.clientSecret == "") {
		return config{}, errors.New("-client-id and -client-secret go together")
	}
	if c.clientID != "" && !standalone.ValidClientID(c.clientID) {
		return config{}, fmt.Errorf("-client-id must be at most 64 letters, digits, '_', '-' and '.', and not . or .., not %q", c.clientID)
	}
	if c.clientSecret != "" && !standalone.ValidClientSecret(c.clientSecret) {
		return config{}, errors.New("-client-secret must be at most 128 printable characters, without spaces or '|'")
	}
	return c, nil
}

// parseStart reads -start: "" (the zero time: the wall-clock time at
// start-up), default, or an RFC 3339 instant a fake's clock can start at.
func parseStart(at string) (time.Time, error) {
	switch at {
	case "":
		return time.Time{}, nil
	case "default":
		return synapsefake.DefaultStartTime(), nil
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return time.Time{}, fmt.Errorf("-start must be an RFC 3339 instant such as 2026-04-14T10:00:00-04:00, or default, not %q", at)
	}
	if err := standalone.ValidateStartTime(t); err != nil {
		return time.Time{}, fmt.Errorf("-start %s: %v", at, err)
	}
	return t, nil
}

// options are the fake's options for c, its API served at base (the
// listener's address and /v3.1), started at now.
func options(c config, base string, now time.Time) []synapsefake.Option {
	opts := []synapsefake.Option{synapsefake.WithIDSeed(c.seed), synapsefake.WithBaseURL(base),
		synapsefake.WithJournalLimit(c.journalEntries, c.journalBytes),
		synapsefake.WithWebhookCaptureLimit(c.captureBytes), synapsefake.WithWebhookLogLimit(c.webhookLogBytes),
		synapsefake.WithWebhookRate(c.webhookRate),
		synapsefake.WithJITDeadline(c.jitDeadline), synapsefake.WithMaxStateSize(c.maxStateSize),
		synapsefake.WithAllowedHosts(c.allowHosts...), synapsefake.WithMaxPlatforms(c.maxPlatforms)}
	if c.controlToken != "" {
		opts = append(opts, synapsefake.WithControlToken(c.controlToken))
	}
	if c.microDeposits {
		opts = append(opts, synapsefake.WithMicroDeposits())
	}
	if c.immediateCredit {
		opts = append(opts, synapsefake.WithImmediateProvisionalCredit())
	}
	if c.fundsCheck {
		opts = append(opts, synapsefake.WithFundsCheck())
	}
	if c.manualKYCReview {
		opts = append(opts, synapsefake.WithManualKYCReview())
	} else {
		opts = append(opts, synapsefake.WithKYCReview(c.kycReview))
	}
	if c.chaos != nil {
		opts = append(opts, synapsefake.WithWebhookChaos(*c.chaos))
	}
	opts = append(opts, clockOption(c.manualClock, c.start, now))
	if c.captureWebhooks {
		opts = append(opts, synapsefake.WithoutWebhookDelivery())
	}
	if c.clientID != "" {
		opts = append(opts, synapsefake.WithClientCredentials(c.clientID, c.clientSecret))
	}
	return opts
}

// clockOption is the fake's clock: a manual one frozen at start (now when
// start is zero), or a real one running from start (the wall clock when
// start is zero).
func clockOption(manual bool, start, now time.Time) synapsefake.Option {
	switch {
	case manual && start.IsZero():
		return synapsefake.WithStartTime(now)
	case manual:
		return synapsefake.WithStartTime(start)
	case start.IsZero():
		return synapsefake.WithClock(clock.New())
	default:
		return synapsefake.WithClock(standalone.RealClockFrom(start))
	}
}
