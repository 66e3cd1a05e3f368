package synapsefake

import "time"

// walk moves t step by step along the legal path to target. The path is
// checked first, so a refused walk changes nothing.
func (st *store) walk(t *txRecord, target Status, s *Server, code string) error {
	return st.walkAt(t, target, s.Now(), code)
}

// walkAt is walk with every step dated now (world.go dates a world's history).
func (st *store) walkAt(t *txRecord, target Status, now time.Time, code string) error {
	steps, err := pathTo(t.status, target)
	if err != nil {
		return err
	}
	if target == StatusReturned {
		if err := st.returnRefusal(t); err != nil {
			return err
		}
	}
	for i, to := range steps {
		c := ""
		if i == len(steps)-1 {
			c = code
		}
		if err := st.move(t, to, now, "", c); err != nil {
			return err
		}
		if t.status != to { // the processing rules redirected it (a CREDIT-only sender cancels)
			return nil
		}
	}
	return nil
}
