package synapsefake

// WithImmediateStatements makes POST .../statements generate the statement
// at once: the answer carries its balances and urls. By default an ad hoc
// statement stays QUEUED until the clock moves (Advance, or any later
// instant with a running clock). Both webhooks are sent either way.
func WithImmediateStatements() Option {
	return func(cfg *config) { cfg.ImmediateStatements = true }
}

// Statements returns copies of a node's statements, oldest first.
func (s *Server) Statements(nodeID string) []Statement {
	return s.core.StatementsOf(nodeID)
}
