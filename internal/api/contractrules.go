// Contract rules, the wire's side: the Enforcer a request gets (strict mode or not).

package api

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// enforcerFor is the enforcer of r's contract rules: Server.strictRule on a
// server WithStrictRequests, nil (every rule taken, nothing allocated) on
// another.
func (s *Wire) enforcerFor(r *http.Request) bank.Enforcer {
	if !s.Cfg.Strict {
		return nil
	}
	return func(b bank.BrokenRule) error { return s.strictRule(r, b.Rule, b.Err) }
}
