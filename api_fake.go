package synapsefake

import (
	"log"
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

// isGateway reports whether gw is Gateway(), without building it.
func (s *wireCore) isGateway(gw string) bool {
	id, secret := s.cfg.clientID, s.cfg.clientSecret
	return len(gw) == len(id)+1+len(secret) && gw[:len(id)] == id && gw[len(id)] == '|' && gw[len(id)+1:] == secret
}

// Advance moves the server's mock clock forward by d. Before it returns,
// everything that fell due (processing steps, expiries, webhook retries) has
// run, in due order, and every webhook delivery that caused has been
// attempted, within Flush's bound of real time (so do not call Advance from
// a webhook receiver's handler). With a clock that is not a mock, Advance only runs what is
// already due.
func (s *wireCore) Advance(d time.Duration) {
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
func (s *wireCore) RunDue() { s.runAllDue() }

// runDue applies every piece of clock-driven work that is due now. It is
// called at the start of every request, so a test that moves a shared mock
// itself still sees a consistent store.
//
// Before the first work falls due (store.nextDue, hooks.nextRetry) it
// costs two comparisons. Work added to any of the four needs its due time
// in one of those two.
func (s *wireCore) runDue() {
	if t := ms(s.Now()); t < s.dueAt() && t < s.hooks.nextRetry.Load() {
		return
	}
	s.runAllDue()
}

// runAllDue is runDue without its shortcut: Advance and RunDue, called
// rarely and on purpose, take the locks and look whatever the due times
// say, so that a due time left stale (by code that changed the store
// without its unlock) cannot make them do nothing.
func (s *wireCore) runAllDue() {
	now := s.Now()
	s.runBankDue(now)
	s.hooks.due(now)
}

// wireCore is the v3.1 wire's part of a Server: routes, idempotency,
// webhook delivery, the journal, fault injection and diagnostics, over the
// bank it embeds.
type wireCore struct {
	bankCore
	cfg           wireConfig // the options the wire reads; its bankConfig is the bank's
	idemLocks     keyLocks
	hooks         *hooks
	webhookClient *http.Client
	faults        faults
	journal       journal
	tb            testing.TB // NewServer's: diagnostics and strict requests report to it
	end           *endOfTest // NewServer's cleanup (diagnose.go)
}

// wireConfig is the wire's part of the options, over the bank's: New
// copies it from the root's config, and the console's config holds a copy
// of it.
type wireConfig struct {
	bankConfig
	clientID, clientSecret string
	loanLimits             map[string]reference.LoanLimit
	fundsCheck             bool
	immediateStatements    bool
	jitDeadline            time.Duration
	latency                time.Duration
	errorLog               *log.Logger
	journalEntries         int
	journalBytes           int64
	deliverWebhooks        bool
	webhookRate            int
	captureLimit           int64
	webhookLogLimit        int64
	chaos                  *WebhookChaos
	logf                   func(format string, args ...any)
	quiet                  bool
	strict                 bool
}
