package synapsefake

import (
	"net/http"
)

// enforcerFor is the enforcer of r's contract rules: Server.strictRule on a
// server WithStrictRequests, nil (every rule taken, nothing allocated) on
// another.
func (s *wireCore) enforcerFor(r *http.Request) enforcer {
	if !s.cfg.strict {
		return nil
	}
	return func(b brokenRule) error { return s.strictRule(r, b.rule, b.err) }
}
