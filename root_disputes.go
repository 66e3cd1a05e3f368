package synapsefake

// WinDispute decides a transaction's dispute for the side that filed it:
// the user's disputed debit comes back to its node (unless a provisional
// credit brought it already), a chargeback's amount goes back to the
// platform's node, each as a new settled transaction. The disputed
// transaction gets a timeline note and a TRAN|PATCH webhook.
func (s *Server) WinDispute(txID string) error {
	return s.withTx(txID, func(st *store, t *txRecord) error { return st.resolveDispute(t, true, s.Now()) })
}

// LoseDispute decides a transaction's dispute against the side that filed
// it: a provisional credit is returned, otherwise no money moves. The
// disputed transaction gets a timeline note and a TRAN|PATCH webhook.
func (s *Server) LoseDispute(txID string) error {
	return s.withTx(txID, func(st *store, t *txRecord) error { return st.resolveDispute(t, false, s.Now()) })
}

// WithImmediateProvisionalCredit makes a dispute's provisional credit post
// at once, as the dispute is filed, instead of 3 business days later (15
// for a node younger than 30 days) on the fake's clock.
func WithImmediateProvisionalCredit() Option {
	return func(cfg *config) { cfg.immediateProvisional = true }
}
