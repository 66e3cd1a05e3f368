package api

import (
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
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
	c := DefaultWireConfig()
	if cfg != nil {
		cfg(&c)
	}
	w.SetConfig(&c)
	w.SetFrozenClock(bank.StartTime(time.Time{}))
	w.OpenStore(bank.ClientView{ID: bank.DefaultClientID, Name: bank.DefaultClientName}, false, false, false, bank.SharedDefaultCutoffs)
	w.Connect()
	w.WebhookClient = &http.Client{Timeout: 10 * time.Second} // the root's default WithWebhookTimeout
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
