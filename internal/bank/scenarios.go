// Scenarios, the bank's side: the moves a test or the control API forces on a transaction.

package bank

import (
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// walk moves t step by step along the legal path to target. The path is
// checked first, so a refused walk changes nothing.
func (st *Store) walk(t *txRecord, target Status, s *Bank, code string) error {
	return st.walkAt(t, target, s.Now(), code)
}

// walkAt is walk with every step dated now (world.go dates a world's history).
func (st *Store) walkAt(t *txRecord, target Status, now time.Time, code string) error {
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

// withTx runs fn on a transaction under the store lock.
func (s *Bank) withTx(id string, fn func(st *Store, t *txRecord) error) error {
	s.Up.RunDue()
	st := s.store
	defer st.lock().unlock()
	defer st.asBackend()()
	t := st.txs[id]
	if t == nil {
		return apierr.NotFound("transaction")
	}
	return fn(st, t)
}

// AdvanceTransaction is documented at synapsefake.Server.AdvanceTransaction.
func (s *Bank) AdvanceTransaction(id string, status Status) error {
	return s.withTx(id, func(st *Store, t *txRecord) error { return st.move(t, status, s.Now(), "", "") })
}

// Settle is documented at synapsefake.Server.Settle.
func (s *Bank) Settle(id string) error {
	return s.withTx(id, func(st *Store, t *txRecord) error { return st.walk(t, StatusSettled, s, "") })
}

// Return is documented at synapsefake.Server.Return.
func (s *Bank) Return(id, code string) error {
	if err := ValidEntryReturnCode(code); err != nil {
		return err
	}
	return s.withTx(id, func(st *Store, t *txRecord) error {
		if err := st.checkReturn(t, code); err != nil {
			return err
		}
		if err := checkReturnWindow(t, code, s.Now()); err != nil {
			return err
		}
		return st.walk(t, StatusReturned, s, code)
	})
}

// Queue is documented at synapsefake.Server.Queue.
func (s *Bank) Queue(id, code string) error {
	return s.withTx(id, func(st *Store, t *txRecord) error {
		return st.move(t, StatusQueuedBySynapse, s.Now(), "", code)
	})
}

// Release is documented at synapsefake.Server.Release.
func (s *Bank) Release(id string) error {
	return s.withTx(id, func(st *Store, t *txRecord) error {
		if !t.status.Queued() {
			return errIllegalMove(t.status, StatusCreated)
		}
		return st.move(t, StatusCreated, s.Now(), "", "")
	})
}

// Cancel is documented at synapsefake.Server.Cancel.
func (s *Bank) Cancel(id, code string) error {
	return s.withTx(id, func(st *Store, t *txRecord) error { return st.cancel(t, s.Now(), code) })
}

// ForceMFA is documented at synapsefake.Server.ForceMFA.
func (s *Bank) ForceMFA(userID string) bool {
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return false
	}
	u.forceMFA = true
	return true
}

// MFAPin is documented at synapsefake.Server.MFAPin.
func (s *Bank) MFAPin(userID string) string {
	st := s.store
	defer st.lock().unlock()
	if u := st.users[userID]; u != nil {
		return u.pin
	}
	return ""
}

// validReturnCode refuses a code that is not an R, IR or WR return code.
func validReturnCode(code string) error {
	if !reference.IsReturnCode(code) {
		return apierr.Payload("invalid_return_code", "Unknown return code %q.", code)
	}
	return nil
}
