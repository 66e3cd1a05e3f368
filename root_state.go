package synapsefake

// WithMaxStateSize sets the largest state document, in bytes, that Restore
// and PUT /_fake/state read; a larger one is refused (400 / "200"
// body_too_large) and changes nothing. n <= 0 keeps
// DefaultMaxStateSize.
func WithMaxStateSize(n int64) Option {
	return func(cfg *config) { cfg.MaxState = n }
}
