package api

import (
	"log"
	"net/http"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// isGateway reports whether gw is Gateway(), without building it.
func (s *Wire) isGateway(gw string) bool {
	id, secret := s.Cfg.ClientID, s.Cfg.ClientSecret
	return len(gw) == len(id)+1+len(secret) && gw[:len(id)] == id && gw[len(id)] == '|' && gw[len(id)+1:] == secret
}

// Advance is documented at synapsefake.Server.Advance.
func (s *Wire) Advance(d time.Duration) {
	// Attempts still in flight finish at the old time, so that the order of
	// deliveries does not depend on how fast a receiver answered.
	s.Flush()
	switch {
	case d <= 0:
	case s.Clock == nil:
		s.Frozen.Add(d)
	case s.Mock != nil:
		s.Mock.Add(d)
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
func (s *Wire) RunDue() { s.runAllDue() }

// RunDueFast applies every piece of clock-driven work that is due now. It is
// called at the start of every request, so a test that moves a shared mock
// itself still sees a consistent store.
//
// Before the first work falls due (store.nextDue, hooks.nextRetry) it
// costs two comparisons. Work added to any of the four needs its due time
// in one of those two.
func (s *Wire) RunDueFast() {
	if t := bank.Ms(s.Now()); t < s.DueAt() && t < s.Hooks.nextRetry.Load() {
		return
	}
	s.runAllDue()
}

// runAllDue is runDue without its shortcut: Advance and RunDue, called
// rarely and on purpose, take the locks and look whatever the due times
// say, so that a due time left stale (by code that changed the store
// without its unlock) cannot make them do nothing.
func (s *Wire) runAllDue() {
	now := s.Now()
	s.RunBankDue(now)
	s.Hooks.due(now)
}

// TB is synapsefake.TB, the part of a test the fake reports to: see there.
type TB interface {
	Cleanup(func())
	Errorf(format string, args ...any)
	Failed() bool
	Fatalf(format string, args ...any)
	Helper()
	Logf(format string, args ...any)
}

// Wire is the v3.1 wire's part of a Server: routes, idempotency,
// webhook delivery, the journal, fault injection and diagnostics, over the
// bank it embeds.
type Wire struct {
	bank.Bank
	Cfg           *WireConfig // the options the wire reads; its Config is the bank's
	idemLocks     keyLocks
	Hooks         *hooks
	WebhookClient *http.Client
	Faults        faults
	Journal       journal
	Tb            TB         // NewServer's: diagnostics and strict requests report to it
	End           *EndOfTest // NewServer's cleanup (diagnose.go)
	// Metrics counts what the server answered and delivered (metrics.go),
	// apart from the server so that a scrape may keep it when the server
	// is gone.
	Metrics *Metrics
	// exchanges records the API's exchanges when ExchangesEnv asks it
	// (exchanges.go), nil otherwise; exchangeOrigin is the test that
	// built the wire, for the exchanges of a fake without a testing.TB.
	exchanges      *exchangeRecorder
	exchangeOrigin string
}

// WireConfig is the wire's part of the options, over the bank's, held in
// the console's config (ConsoleConfig); the wire points at it (SetConfig).
type WireConfig struct {
	bank.Config
	ClientID, ClientSecret string
	LoanLimits             map[string]reference.LoanLimit
	FundsCheck             bool
	ImmediateStatements    bool
	JitDeadline            time.Duration
	Latency                time.Duration
	ErrorLog               *log.Logger
	JournalEntries         int
	JournalBytes           int64
	DeliverWebhooks        bool
	WebhookRate            int
	CaptureLimit           int64
	WebhookLogLimit        int64
	Chaos                  *WebhookChaos
	Logf                   func(format string, args ...any)
	Quiet                  bool
	Strict                 bool
	// Hook runs before every API request (WithHook); when it answers true
	// it has answered the request.
	Hook func(http.ResponseWriter, *http.Request) bool
}

// DefaultClientSecret is the default platform's client secret (bank.DefaultClientID's).
const DefaultClientSecret = "client_secret_synapsefake000000000000000000"

// DefaultWireConfig is the wire's part of the default options, over the
// bank's: the default platform's credentials, webhooks delivered, and the
// journal and the webhook capture and log at their default bounds.
func DefaultWireConfig() WireConfig {
	return WireConfig{
		Config:          bank.DefaultConfig(),
		ClientID:        bank.DefaultClientID,
		ClientSecret:    DefaultClientSecret,
		JournalEntries:  DefaultJournalEntries,
		JournalBytes:    DefaultJournalBytes,
		DeliverWebhooks: true,
		CaptureLimit:    DefaultWebhookCaptureLimit,
		WebhookLogLimit: DefaultWebhookLogLimit,
	}
}

// SetConfig points the wire, and the bank below it, at their parts of cfg.
func (s *Wire) SetConfig(cfg *WireConfig) { s.Cfg, s.Bank.Cfg = cfg, &cfg.Config }

// Connect joins the wire to the bank below it, once the store is open: the
// wire is the bank's upper layer and the journal's server, and its webhook
// hooks, made here, are the bank's publisher.
func (s *Wire) Connect() {
	if s.exchanges = processExchanges(); s.exchanges != nil {
		s.exchangeOrigin = testOrigin()
	}
	s.Up = s
	s.Journal.S = s
	s.Metrics = new(Metrics)
	s.Hooks = NewHooks(s)
	s.ConnectPublisher(s.Hooks)
}
