package api

// Reset empties the whole store (users, nodes, transactions, subnets,
// subscriptions, keys, idempotency keys, bank-login questions, statements
// and their ledger), the webhook capture, the webhook log, queued
// deliveries and retries, the request journal and pending faults, as if
// the server had just started.
// The clock and the id stream go on.
func (s *Wire) Reset() {
	s.resetStore()
	s.Faults.Set(nil)
	s.ResetRequests()
}

// resetStore empties the store and the webhook side together, under the
// store's lock, so that no event slips in between.
func (s *Wire) resetStore() {
	s.ResetBank(s.Hooks.reset)
}
