package synapsefake

// Transaction returns a copy of a transaction and whether it exists.
func (s *Server) Transaction(id string) (Transaction, bool) {
	st := s.store
	defer st.lock().unlock()
	t := st.txs[id]
	if t == nil {
		return Transaction{}, false
	}
	return t.public(), true
}
