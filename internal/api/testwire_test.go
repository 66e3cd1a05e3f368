package api

import (
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// Values of the root's defaultConfig that newTestWire copies (the api may
// not import the root).
const (
	testClientID       = "client_id_synapsefake0000000000000000000000"
	testClientSecret   = "client_secret_synapsefake000000000000000000"
	testClientName     = "Synapsefake Test Platform"
	testWebhookTimeout = 10 * time.Second
)

// newTestWire builds a Wire the way the root's New wires its wire and bank
// parts, with New's default options: the default config, the bank's clock
// frozen at DefaultStartTime, its store opened, the wire as the bank's Up
// and the journal's server, and the webhook hooks connected as the bank's
// publisher. cfg, when not nil, may change the config first (an option of
// New sets the same field). A test that ends with webhooks in flight calls
// w.Hooks.Close, as the Server's Close does.
func newTestWire(cfg func(*WireConfig)) *Wire {
	w := &Wire{}
	w.Cfg = &WireConfig{
		Config:          bank.Config{Seed: 1, KeyLifetime: 7200 * time.Second},
		ClientID:        testClientID,
		ClientSecret:    testClientSecret,
		JournalEntries:  DefaultJournalEntries,
		JournalBytes:    DefaultJournalBytes,
		DeliverWebhooks: true,
		CaptureLimit:    DefaultWebhookCaptureLimit,
		WebhookLogLimit: DefaultWebhookLogLimit,
	}
	if cfg != nil {
		cfg(w.Cfg)
	}
	w.Bank.Cfg = &w.Cfg.Config
	w.SetFrozenClock(bank.StartTime(time.Time{}))
	w.OpenStore(bank.ClientView{ID: testClientID, Name: testClientName}, false, false, false, bank.SharedDefaultCutoffs)
	w.Up = w
	w.Journal.S = w
	w.Hooks = NewHooks(w)
	w.ConnectPublisher(w.Hooks)
	w.WebhookClient = &http.Client{Timeout: testWebhookTimeout}
	return w
}

// serveTest serves r to rw as the root Server's ServeHTTP serves an API
// request: guarded against panics, then ServeAPI.
func serveTest(w *Wire, rw http.ResponseWriter, r *http.Request) {
	g := &GuardWriter{ResponseWriter: rw}
	defer w.RecoverPanic(g, g, r)
	w.ServeAPI(g, r)
}

// endTestWire gives w the cleanup NewServer gives its server, reporting
// to tb: w.End, run by tb's cleanups, and a Close that does what the
// Server's Close does to the wire.
func endTestWire(tb testing.TB, w *Wire) {
	w.Tb = tb
	w.End = &EndOfTest{S: w, Srv: closeFunc(func() {
		w.Hooks.Close()
		w.End.Closed()
	})}
	tb.Cleanup(w.End.Run)
}

// closeFunc is a Close method of a function.
type closeFunc func()

func (f closeFunc) Close() { f() }
