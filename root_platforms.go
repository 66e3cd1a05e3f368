package synapsefake

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
	def.core.platforms = p
	return p
}
