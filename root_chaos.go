package synapsefake

import "github.com/synapsefake/synapsefake/internal/api"

// WithWebhookChaos turns on webhook chaos from the start (see
// WebhookChaos). It is off by default. New panics if a probability is
// outside 0..1 or a delay is negative.
func WithWebhookChaos(c WebhookChaos) Option {
	c = api.CloneChaos(c)
	return func(cfg *config) { cfg.Chaos = &c }
}
