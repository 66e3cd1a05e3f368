package synapsefake

import (
	"log"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/console"
	"github.com/synapsefake/synapsefake/internal/standalone"
	"github.com/synapsefake/synapsefake/reference"
)

// Option configures a Server built by NewServer or New.
type Option func(*config)

// config is every option. The layers read their part of it in place: the
// embedded ConsoleConfig holds the wire's, which holds the bank's (the
// diagnostics, strict requests, statements and webhook options among
// them), and New points each layer at its part.
type config struct {
	console.ConsoleConfig
	clock                clock.Clock // WithClock; nil for the frozen clock at start
	start                time.Time   // WithStartTime; zero is DefaultStartTime
	maxPlatforms         int         // WithMaxPlatforms; 0 is DefaultMaxPlatforms
	baseURL              string      // WithBaseURL
	microDeposits        bool        // WithMicroDeposits
	manualProcessing     bool        // WithManualProcessing
	immediateProvisional bool        // WithImmediateProvisionalCredit
	webhookClient        *http.Client
	webhookTimeout       time.Duration
	control              bool // the control API; WithoutControlAPI clears it
	cutoffs              Cutoffs
}

func defaultConfig() config {
	return config{
		ConsoleConfig:  console.DefaultConsoleConfig(),
		webhookTimeout: 10 * time.Second,
		control:        true,
		cutoffs:        bank.SharedDefaultCutoffs,
	}
}

// WithClock makes the server read time from c instead of its own clock
// frozen at DefaultStartTime. Pass clock.New() for wall-clock time, or a
// *clock.Mock you also control. Advance still moves a mock it was given.
// WithClock and WithStartTime both choose the clock: the last one wins.
func WithClock(c clock.Clock) Option {
	return func(cfg *config) { cfg.clock = c }
}

// WithStartTime starts the server's own frozen clock at t (in UTC, cut to
// the millisecond) instead of DefaultStartTime; the zero time keeps
// DefaultStartTime. The clock then moves only with Advance, AdvanceTo and
// the other Advance helpers. WithClock and WithStartTime both choose the
// clock: the last one wins. A t before 1970 or from the year 9900 on is a
// mistake in the caller (a saved state holds the years 1970 to 9999, and a
// card expires years after it is issued): WithStartTime panics.
func WithStartTime(t time.Time) Option {
	if err := standalone.ValidateStartTime(t); err != nil {
		panic(err.Error())
	}
	return func(cfg *config) { cfg.clock, cfg.start = nil, t }
}

// WithClientCredentials sets the platform's client id and secret, the two
// halves of the X-SP-GATEWAY header.
func WithClientCredentials(id, secret string) Option {
	return func(cfg *config) { cfg.ClientID, cfg.ClientSecret = id, secret }
}

// WithClientName sets the platform name shown in every object's client.name.
func WithClientName(name string) Option {
	return func(cfg *config) { cfg.ClientName = name }
}

// WithIDSeed sets the seed of the identifier stream. Two servers with the same
// seed that see the same calls hand out the same ids, and with the same
// client id the same keys and tokens: oauth keys and refresh tokens hold
// the platform's identity too (see PlatformConfig.Seed). The default seed
// is 1.
func WithIDSeed(seed uint64) Option {
	return func(cfg *config) { cfg.Seed = seed }
}

// WithLoanLimits replaces the table GET /loans-limits answers with.
func WithLoanLimits(limits map[string]reference.LoanLimit) Option {
	return func(cfg *config) {
		cfg.LoanLimits = make(map[string]reference.LoanLimit, len(limits))
		for k, v := range maps.All(limits) {
			v.LoanTypes = append([]string(nil), v.LoanTypes...)
			cfg.LoanLimits[k] = v
		}
	}
}

// WithBaseURL sets the URL the server puts in _links, for a server that
// callers reach under another address than the one it listens on. It
// includes the version prefix: "http://localhost:8080/v3.1".
func WithBaseURL(u string) Option {
	return func(cfg *config) { cfg.baseURL = u }
}

// WithOAuthKeyLifetime changes how long an oauth_key lives (default 7200 s,
// as the real service).
func WithOAuthKeyLifetime(d time.Duration) Option {
	return func(cfg *config) { cfg.KeyLifetime = d }
}

// WithMicroDeposits models the real service's rule for ACH-US nodes: a new one
// is allowed CREDIT only until PATCH with {"micro":[0.1,0.1]} verifies it.
// By default the fake makes ACH-US nodes CREDIT-AND-DEBIT at once.
func WithMicroDeposits() Option {
	return func(cfg *config) { cfg.microDeposits = true }
}

// WithFundsCheck refuses a single transaction (POST .../trans) or a dummy
// withdrawal whose amount is over the sending deposit-type node's available
// balance: 409 / "400" insufficient_funds, nothing created. By default the
// fake takes it, as the sandbox did, and the node's balance goes negative
// when it is debited, as the spec says of a batch (docs/fidelity.md).
// Batch items are never refused for the balance, and card swipes are
// declined IR51 either way.
func WithFundsCheck() Option {
	return func(cfg *config) { cfg.FundsCheck = true }
}

// WithKYCReview sets how long the review of a KYC sub-document takes on
// the fake's clock: a document sent in POST or PATCH /users answers
// SUBMITTED|REVIEWING, and d later the review gives it the sandbox's
// outcome (its documented test values: an SSN ending 1111 is refused,
// 2222 and other values pass; docs/fidelity.md), sends USER|PATCH and
// raises the user's permission to what its documents allow. By default
// (d 0) the review completes before the next request is answered, as the
// sandbox's did within a client's flow. A negative d is taken as 0.
// WithManualKYCReview turns the reviews off.
func WithKYCReview(d time.Duration) Option {
	return func(cfg *config) { cfg.KYCReview, cfg.KYCManual = max(d, 0), false }
}

// WithManualKYCReview leaves every KYC sub-document SUBMITTED|REVIEWING
// until the test reviews it (ReviewDocument, ReviewDocuments, or the
// control API's review routes).
func WithManualKYCReview() Option {
	return func(cfg *config) { cfg.KYCManual = true }
}

// WithManualProcessing turns off automatic processing: transactions stay
// where they are until a scenario helper (Settle, Return, AdvanceTransaction)
// or an HTTP call moves them.
func WithManualProcessing() Option {
	return func(cfg *config) { cfg.manualProcessing = true }
}

// WithWebhookClient sets the HTTP client that delivers webhooks (for a
// custom transport or TLS setup). Its Timeout bounds each attempt.
func WithWebhookClient(c *http.Client) Option {
	return func(cfg *config) { cfg.webhookClient = c }
}

// WithWebhookTimeout bounds each delivery attempt of the default webhook
// client (10 s by default). A receiver that does not answer in time is
// logged as 408.
func WithWebhookTimeout(d time.Duration) Option {
	return func(cfg *config) { cfg.webhookTimeout = d }
}

// WithWebhookRate bounds the webhook deliveries a server makes in the
// background to perSecond attempts per second (DefaultWebhookRate by
// default), in bursts of up to a tenth of that, whatever the number of
// subscriptions; 0 is the default and a negative rate is no bound. A
// backlog then drains at that rate and the delivery workers leave the CPU
// and the store to the API. Flush, Advance and Wait lift the bound while
// they wait: a test that waits for its webhooks gets them at once.
func WithWebhookRate(perSecond int) Option {
	return func(cfg *config) { cfg.WebhookRate = perSecond }
}

// WithoutWebhookDelivery captures webhooks in memory (Webhooks) without any
// network delivery: every attempt is recorded as a 200.
func WithoutWebhookDelivery() Option {
	return func(cfg *config) { cfg.DeliverWebhooks = false }
}

// WithLatency delays every API request by d of real time, for tests of
// client timeouts. SlowNext delays single routes.
func WithLatency(d time.Duration) Option {
	return func(cfg *config) { cfg.Latency = d }
}

// WithHook runs hook before every API request; when it returns true it has
// answered the request itself and the fake does nothing more. It is the
// escape hatch for faults FailNext and SlowNext do not cover.
func WithHook(hook func(w http.ResponseWriter, r *http.Request) bool) Option {
	return func(cfg *config) { cfg.Hook = hook }
}

// WithoutControlAPI switches off the /_fake/ control API, so that those paths
// answer 404 like any unknown route.
func WithoutControlAPI() Option {
	return func(cfg *config) { cfg.control = false }
}

// WithWebhookCaptureLimit bounds the webhook capture (Webhooks, GET
// /_fake/webhooks) to about n bytes of memory (default
// DefaultWebhookCaptureLimit, 64 MiB): past it the oldest webhooks are
// forgotten. An event costs about 200 bytes (a user's or a node's about
// 700, with the snapshot it keeps), a delivery about 100 and an attempt
// about 50 plus the receiver's answer. A body encoded only when read (a
// transaction's, a node's, most users') is not counted; one encoded at
// once (a subnet's) counts its length. The newest webhook is always kept;
// a negative n means no bound.
func WithWebhookCaptureLimit(n int64) Option {
	return func(cfg *config) { cfg.CaptureLimit = n }
}

// WithWebhookLogLimit bounds the webhook log (GET /subscriptions/logs) to
// about n bytes of memory (default DefaultWebhookLogLimit, 16 MiB): past it
// the oldest attempts are forgotten. An attempt costs about 80 bytes plus
// the receiver's answer (at most 4 KiB of it is kept). The newest attempt
// is always kept; a negative n means no bound.
func WithWebhookLogLimit(n int64) Option {
	return func(cfg *config) { cfg.WebhookLogLimit = n }
}

// WithJournalLimit bounds the request journal (Requests) to its newest
// entries calls and bytes bytes, estimated as the memory the calls take:
// their bodies, headers, query, the JSON answers the dashboard shows and
// about 640 bytes each. The oldest calls
// go first; the newest call is always kept. By default the journal keeps
// 10,000 calls and 8 MiB. A bound of 0 turns the journal off; a negative
// bound means no bound of that kind. Whatever the bounds, each call keeps at
// most the first 64 KiB of its body (Request.BodyTruncated).
func WithJournalLimit(entries int, bytes int64) Option {
	return func(cfg *config) { cfg.JournalEntries, cfg.JournalBytes = entries, bytes }
}

// WithCutoffs replaces the banking calendar's times of day (default
// DefaultCutoffs: the service's published cutoffs in front of the Federal
// Reserve's deadlines). The fake keeps its own copy. Times outside a day,
// same-day windows out of order, or a WireClose before Wire or Open, are a
// mistake in the caller: WithCutoffs panics.
func WithCutoffs(c Cutoffs) Option {
	if err := bank.ValidateCutoffs(c); err != nil {
		panic(err.Error())
	}
	c.SameDay = slices.Clone(c.SameDay)
	return func(cfg *config) { cfg.cutoffs = c }
}

// WithJITDeadline sets how long, in real time, a card swipe waits for the
// answer of a TRANS|POST|JIT subscription before it follows the default
// path of decisioning (the card's own rules). The default is
// DefaultJITDeadline, the service's 1.00 s; d <= 0 keeps it. A test of a
// platform that answers too late can give a short one.
func WithJITDeadline(d time.Duration) Option {
	return func(cfg *config) { cfg.JitDeadline = d }
}

// WithAllowedHosts adds hosts the control API and the dashboard (/_fake/)
// answer requests for, besides loopback names (localhost, 127.0.0.0/8,
// [::1]), the in-process host of New and the host of the server's own URL.
// A request with another Host is refused with 403 / "300", so that a page
// reached through DNS rebinding cannot drive or read the fake. Give the
// names clients use to reach a fake served beyond loopback
// ("fake", "ci-runner.internal", "10.0.0.7"); case and a port are ignored:
// every port of a host is allowed. It adds to earlier calls.
func WithAllowedHosts(hosts ...string) Option {
	return func(cfg *config) {
		for _, h := range hosts {
			if h = console.HostOnly(strings.TrimSpace(h)); h != "" {
				cfg.AllowedHosts = append(cfg.AllowedHosts, h)
			}
		}
	}
}

// WithControlToken makes every request to the control API and the
// dashboard (/_fake/) carry token, in the X-Fake-Control-Token header or
// as "Authorization: Bearer <token>"; without it they are refused with
// 401 / "300". A browser opens the dashboard once at
// /_fake/ui/?token=<token>, which sets a cookie for /_fake/ and redirects
// to the page without the token. Use it for a fake reachable beyond
// loopback; "" means no token, the default.
func WithControlToken(token string) Option {
	return func(cfg *config) { cfg.ControlToken = token }
}

// WithWebhookChaos turns on webhook chaos from the start (see
// WebhookChaos). It is off by default. New panics if a probability is
// outside 0..1 or a delay is negative.
func WithWebhookChaos(c WebhookChaos) Option {
	c = api.CloneChaos(c)
	return func(cfg *config) { cfg.Chaos = &c }
}

// WithLog sends the server's diagnostics to logf instead of the test's log:
// one line for every refused request (the route, the answer and why), and,
// for a server from NewServer whose test failed, the last requests it
// answered. t.Logf, log.Printf and (*log.Logger).Printf all fit. With New,
// which has no test to log to, nothing is logged unless WithLog is given.
func WithLog(logf func(format string, args ...any)) Option {
	return func(cfg *config) { cfg.Logf, cfg.Quiet = logf, false }
}

// WithoutDiagnostics silences the diagnostics: no line for refused requests
// and no list of the last requests when the test fails. The journal still
// records why each request was refused (Request.Reason).
func WithoutDiagnostics() Option {
	return func(cfg *config) { cfg.Logf, cfg.Quiet = nil, true }
}

// WithImmediateProvisionalCredit makes a dispute's provisional credit post
// at once, as the dispute is filed, instead of 3 business days later (15
// for a node younger than 30 days) on the fake's clock.
func WithImmediateProvisionalCredit() Option {
	return func(cfg *config) { cfg.immediateProvisional = true }
}

// WithErrorLog sets where the server logs a panic it recovered from while
// serving a request, with the request and the stack. The default is the
// standard logger (log.Default()).
func WithErrorLog(l *log.Logger) Option {
	return func(cfg *config) { cfg.ErrorLog = l }
}

// WithMaxStateSize sets the largest state document, in bytes, that Restore
// and PUT /_fake/state read; a larger one is refused (400 / "200"
// body_too_large) and changes nothing. n <= 0 keeps
// DefaultMaxStateSize.
func WithMaxStateSize(n int64) Option {
	return func(cfg *config) { cfg.MaxState = n }
}

// WithImmediateStatements makes POST .../statements generate the statement
// at once: the answer carries its balances and urls. By default an ad hoc
// statement stays QUEUED until the clock moves (Advance, or any later
// instant with a running clock). Both webhooks are sent either way.
func WithImmediateStatements() Option {
	return func(cfg *config) { cfg.ImmediateStatements = true }
}

// WithStrictRequests makes the server refuse request bodies with fields
// the service would ignore without a word: unknown keys, misspelt ones
// ("ammount"), and known ones in the wrong place ("currency" at the top of
// a transaction instead of under amount). Such a request is answered
// 400 / "200" unknown_field, naming the field's path and the nearest known
// field, and with NewServer it also fails the test (tb.Errorf). The default
// stays lenient, as the service is. Names match as the service matches
// them, without regard to letter case; a field that takes any object
// (extra.other) takes any keys.
//
// It also enforces the rules of the contract that the sandbox did not
// (a login email without @, a to.type that is not the node's, an ACH-US
// account number of the wrong length...: docs/fidelity.md lists them):
// each is taken by default and, under WithStrictRequests, refused as the
// contract says, the test failing with the rule's name.
func WithStrictRequests() Option {
	return func(cfg *config) { cfg.Strict = true }
}

// WithMaxPlatforms bounds how many platforms, the default among them,
// NewPlatforms's handler holds (DefaultMaxPlatforms by default); making one
// more is refused (429). A Server made by New or NewServer ignores it.
func WithMaxPlatforms(n int) Option {
	return func(cfg *config) { cfg.maxPlatforms = n }
}
