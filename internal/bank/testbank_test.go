package bank

import "time"

// newTestBank builds a Bank the way the root's New builds its bank part,
// with New's default options (the root's defaultConfig: seed 1, keys that
// live 7200 s, the default client and cutoffs): the clock frozen at
// DefaultStartTime, the store opened, and an Up that runs nothing, asks
// no platform and enforces no rule (a lenient server's). No publisher is
// connected: the bank then queues no webhook.
func newTestBank() *Bank {
	b := &Bank{Cfg: Config{Seed: 1, KeyLifetime: 7200 * time.Second}}
	b.SetFrozenClock(StartTime(time.Time{}))
	b.OpenStore(ClientView{ID: "client_id_synapsefake0000000000000000000000", Name: "Synapsefake Test Platform"}, false, false, false, SharedDefaultCutoffs)
	b.Up = noUp{}
	return b
}

// noUp is newTestBank's Up: the layers above a bank tested alone.
type noUp struct{}

func (noUp) RunDue()                        {}
func (noUp) AskPlatform(*JitAsk) JitOutcome { return JitOutcome{} }
func (noUp) SeedRules([]BrokenRule) error   { return nil }
