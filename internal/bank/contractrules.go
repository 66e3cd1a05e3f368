// Contract rules, the bank's side: a broken rule and the Enforcer that takes or refuses it.

package bank

import "github.com/synapsefake/synapsefake/internal/apierr"

// BrokenRule is a rule of the contract that a request breaks and that the
// sandbox did not enforce: what the contract says (as strictRule names it)
// and the refusal strict mode answers. The zero value is no broken rule.
type BrokenRule struct {
	Rule string
	Err  *apierr.Error
}

// Enforcer refuses a broken rule on a server WithStrictRequests and takes
// it on a lenient one (nil). A store operation gets one for the request it
// serves; nil takes every rule, as the sandbox did.
type Enforcer func(BrokenRule) error

// Enforce is enforcer's answer to b, nil for no enforcer.
func (e Enforcer) Enforce(b BrokenRule) error {
	if e == nil || b.Err == nil {
		return nil
	}
	return e(b)
}
