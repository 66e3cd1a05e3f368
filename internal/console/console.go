package console

import (
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// Console is the console's part of a Server: the control API, the
// dashboard, saved state, worlds and platforms, over the wire it embeds.
type Console struct {
	api.Wire
	Cfg       *ConsoleConfig // the options the console reads; its WireConfig is the wire's
	restoring sync.Mutex     // held while a state document is restored: one at a time
	// Host is the Server the console is part of; CtlBase is where its
	// control API is served (/_fake/platforms/{client_id}/ for a made
	// platform), "" for ControlPrefix.
	Host    consoleHost
	CtlBase string
	Base    string // URL(): the origin check accepts its host
	// scrapes keeps the platforms' counts between scrapes of
	// /_fake/metrics (metrics.go).
	scrapes metricsScrapes
}

// ConsoleConfig is the console's part of the options, over the wire's,
// held in the root's config; the console points at it (SetConfig).
type ConsoleConfig struct {
	api.WireConfig
	ClientName   string
	MaxState     int64
	ControlToken string
	AllowedHosts []string
}

// consoleHost is what the console asks of the Server it is part of, which
// the root implements: the console builds no Server.
type consoleHost interface {
	// Scratch answers a fresh server with the same options, no webhook
	// delivery and a frozen clock at now, where LoadWorld tries a world
	// first, and the func that closes it.
	Scratch(now time.Time) (sc *Console, close func())
	// PlatformCores answers the platforms of the Platforms the server is
	// one of, the default first, or nil for a server of its own.
	PlatformCores() []*Console
}

// DefaultConsoleConfig is the console's part of the default options, over
// the wire's.
func DefaultConsoleConfig() ConsoleConfig {
	return ConsoleConfig{WireConfig: api.DefaultWireConfig(), ClientName: bank.DefaultClientName}
}

// SetConfig points the console, and the wire and the bank below it, at
// their parts of cfg.
func (s *Console) SetConfig(cfg *ConsoleConfig) {
	s.Cfg = cfg
	s.Wire.SetConfig(&cfg.WireConfig)
}
