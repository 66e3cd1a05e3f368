package synapsefake

import "time"

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

// scratch is LoadWorld's trial server (consoleHost): the same options, no
// webhook delivery, its clock frozen at now.
func (s *Server) scratch(now time.Time) (*consoleCore, func()) {
	sc := New(func(c *config) {
		*c = s.cfg
		c.clock, c.deliverWebhooks, c.captureLimit = nil, false, 0
	})
	sc.core.setFrozenClock(now)
	return &sc.core, sc.Close
}

// platformCores answers the console of each platform of s's Platforms,
// the default first, or nil when s is a server of its own (consoleHost).
func (s *Server) platformCores() []*consoleCore {
	if s.platforms == nil {
		return nil
	}
	all := s.platforms.List()
	cores := make([]*consoleCore, len(all))
	for i, o := range all {
		cores[i] = &o.core
	}
	return cores
}
