package synapsefake

import "log"

// WithErrorLog sets where the server logs a panic it recovered from while
// serving a request, with the request and the stack. The default is the
// standard logger (log.Default()).
func WithErrorLog(l *log.Logger) Option {
	return func(cfg *config) { cfg.ErrorLog = l }
}
