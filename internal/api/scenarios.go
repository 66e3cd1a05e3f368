// Scenarios, the wire's side: Reset, which empties the bank and the hooks together.

package api

// Reset is documented at synapsefake.Server.Reset.
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
