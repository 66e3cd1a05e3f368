package bank

import (
	"testing"
	"time"
)

// newStateTestBank builds a Bank the way the root's New does for its bank
// part, with the default options: its clock frozen at DefaultStartTime, an
// open store, and above it a layer that does nothing (no due work to run,
// no platform to ask, no strict mode) and a publisher that drops every
// event.
func newStateTestBank(tb testing.TB) *Bank {
	tb.Helper()
	b := &Bank{}
	b.Cfg = Config{Seed: 1, KeyLifetime: 7200 * time.Second}
	b.SetFrozenClock(StartTime(time.Time{}))
	b.OpenStore(ClientView{ID: "client_id_synapsefake0000000000000000000000", Name: "Synapsefake Test Platform"}, false, false, false, SharedDefaultCutoffs)
	b.Up = quietUp{}
	b.ConnectPublisher(quietUp{})
	b.SetStoreBase("http://synapsefake.invalid/v3.1")
	return b
}

// quietUp is the layer above a test bank: it runs nothing, approves every
// swipe it is asked about with the zero outcome, breaks no rule, and drops
// every event.
type quietUp struct{}

func (quietUp) RunDue()                        {}
func (quietUp) AskPlatform(*JitAsk) JitOutcome { return JitOutcome{} }
func (quietUp) SeedRules([]BrokenRule) error   { return nil }
func (quietUp) Add(*Event)                     {}
