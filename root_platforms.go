package synapsefake

import (
	"time"

	"github.com/synapsefake/synapsefake/internal/console"
)

// WithMaxPlatforms bounds how many platforms, the default among them,
// NewPlatforms's handler holds (DefaultMaxPlatforms by default); making one
// more is refused (429). A Server made by New or NewServer ignores it.
func WithMaxPlatforms(n int) Option {
	return func(cfg *config) { cfg.maxPlatforms = n }
}

// NewPlatforms builds a Platforms whose default platform is New(opts...).
// Every platform made later gets opts too, then its own credentials, name,
// seed and clock.
func NewPlatforms(opts ...Option) *Platforms {
	def := New(opts...)
	max := def.cfg.maxPlatforms
	if max == 0 {
		max = DefaultMaxPlatforms
	}
	p := &Platforms{def: def, opts: opts, max: max, byID: map[string]*Server{}}
	def.platforms = p
	return p
}

// host is a Server as its console sees it (console.ConsoleHost): a type
// of its own, so that the interface's methods do not join Server's.
type host Server

// Scratch is LoadWorld's trial server: the same options, no webhook
// delivery, its clock frozen at now.
func (h *host) Scratch(now time.Time) (*console.Console, func()) {
	sc := New(func(c *config) {
		*c = h.cfg
		c.clock, c.DeliverWebhooks, c.CaptureLimit = nil, false, 0
	})
	sc.core.SetFrozenClock(now)
	return &sc.core, sc.Close
}

// PlatformCores answers the console of each platform of h's Platforms,
// the default first, or nil when h is a server of its own.
func (h *host) PlatformCores() []*console.Console {
	if h.platforms == nil {
		return nil
	}
	all := h.platforms.List()
	cores := make([]*console.Console, len(all))
	for i, o := range all {
		cores[i] = &o.core
	}
	return cores
}
