package synapsefake

// WithImmediateProvisionalCredit makes a dispute's provisional credit post
// at once, as the dispute is filed, instead of 3 business days later (15
// for a node younger than 30 days) on the fake's clock.
func WithImmediateProvisionalCredit() Option {
	return func(cfg *config) { cfg.immediateProvisional = true }
}
