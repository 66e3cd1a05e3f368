package synapsefake

// WithWebhookChaos turns on webhook chaos from the start (see
// WebhookChaos). It is off by default. New panics if a probability is
// outside 0..1 or a delay is negative.
func WithWebhookChaos(c WebhookChaos) Option {
	c = c.clone()
	return func(cfg *config) { cfg.chaos = &c }
}

// SetWebhookChaos replaces the webhook chaos settings; the zero
// WebhookChaos turns chaos off. It applies to attempts queued from now on
// (call Flush first for a clean cut); deliveries already held back or
// delayed keep their schedule. Reset keeps the settings. Invalid settings
// are refused and change nothing.
func (s *Server) SetWebhookChaos(c WebhookChaos) error {
	if err := c.validate(); err != nil {
		return err
	}
	h := s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	h.setChaos(c)
	return nil
}

// WebhookChaos returns the webhook chaos settings in force.
func (s *Server) WebhookChaos() WebhookChaos {
	h := s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.chaos == nil {
		return WebhookChaos{}
	}
	return h.chaos.cfg.clone()
}
