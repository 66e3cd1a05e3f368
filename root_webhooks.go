package synapsefake

// Webhooks returns the server's webhook capture.
func (s *Server) Webhooks() WebhookCapture { return WebhookCapture{s.hooks} }

// Flush blocks until no webhook delivery is queued or in flight, for at
// most the webhook timeout plus a second of real time (a receiver that
// hangs holds up Flush and Advance no longer than that). Retries
// scheduled on the clock are not waited for: Advance makes them due.
// Do not call it from a webhook receiver's handler.
func (s *Server) Flush() { s.hooks.flush() }
