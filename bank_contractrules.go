package synapsefake

import "github.com/synapsefake/synapsefake/internal/apierr"

// brokenRule is a rule of the contract that a request breaks and that the
// sandbox did not enforce: what the contract says (as strictRule names it)
// and the refusal strict mode answers. The zero value is no broken rule.
type brokenRule struct {
	rule string
	err  *apierr.Error
}

// enforcer refuses a broken rule on a server WithStrictRequests and takes
// it on a lenient one (nil). A store operation gets one for the request it
// serves; nil takes every rule, as the sandbox did.
type enforcer func(brokenRule) error

// enforce is enforcer's answer to b, nil for no enforcer.
func (e enforcer) enforce(b brokenRule) error {
	if e == nil || b.err == nil {
		return nil
	}
	return e(b)
}
