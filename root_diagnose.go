package synapsefake

// WithLog sends the server's diagnostics to logf instead of the test's log:
// one line for every refused request (the route, the answer and why), and,
// for a server from NewServer whose test failed, the last requests it
// answered. t.Logf, log.Printf and (*log.Logger).Printf all fit. With New,
// which has no test to log to, nothing is logged unless WithLog is given.
func WithLog(logf func(format string, args ...any)) Option {
	return func(cfg *config) { cfg.Logf, cfg.Quiet = logf, false }
}

// WithoutDiagnostics silences the diagnostics: no line for refused requests
// and no list of the last requests when the test fails. The journal still
// records why each request was refused (Request.Reason).
func WithoutDiagnostics() Option {
	return func(cfg *config) { cfg.Logf, cfg.Quiet = nil, true }
}
