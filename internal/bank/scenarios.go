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

// AdvanceTransaction makes one legal move of a transaction to status. It is
// the state machine's own step, without the rules of the helpers that name
// a reason: a move to RETURNED carries no code and checks no rail or
// return window (Return does both).
func (s *Bank) AdvanceTransaction(id string, status Status) error {
	return s.withTx(id, func(st *Store, t *txRecord) error { return st.move(t, status, s.Now(), "", "") })
}

// Settle moves a transaction through every remaining processing step to
// SETTLED, as the clock would. It must be CREATED or processing.
func (s *Bank) Settle(id string) error {
	return s.withTx(id, func(st *Store, t *txRecord) error { return st.walk(t, StatusSettled, s, "") })
}

// Return returns a transaction with an ACH (R01...), card (IR...) or wire
// (WR...) code: recent_status.code holds the code and the note its meaning,
// and the money goes back. A CREATED or processing transaction is first
// walked to PROCESSING-CREDIT, as the real service's returns were. A code
// of another rail than the transaction's (an IR or WR code on an ACH-US
// transfer, an R code on a card swipe or a wire) is refused (409 / "410"
// return_code_not_for_rail); internal transfers take the codes of every
// rail. A settled transaction is refused (409 / "410"
// return_window_passed) once its ACH code's NACHA window has closed: at
// the opening of business (08:30 ET) on the second banking day after the
// settlement date for most codes, 60 calendar days for unauthorized debits
// and R33, none for R06, R31 and R23 (which runs from the receiver's
// notice, the call itself), and at once for the ACH Operator's R13, R18
// and R19, which return only a transfer not yet settled
// (reference.ACHReturnWindow). ReturnLate returns it anyway. The codes of
// returns of returns (R61, R62, R67-R77) are refused (409 / "410"
// wrong_code_family): DishonorReturn and ContestDishonor take them. A
// transaction whose return was dishonored is refused (return_dishonored).
// A transaction its user disputed is refused (409 /
// "410" transaction_disputed): its dispute's decision (WinDispute,
// LoseDispute) says whether the money comes back; so is a dispute's credit
// (dispute_posting).
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

// Queue puts a CREATED transaction in QUEUED-BY-SYNAPSE with a reason code
// (free text, shown in recent_status.code). Processing stops until Release.
func (s *Bank) Queue(id, code string) error {
	return s.withTx(id, func(st *Store, t *txRecord) error {
		return st.move(t, StatusQueuedBySynapse, s.Now(), "", code)
	})
}

// Release moves a queued transaction back to CREATED; processing starts again
// from the clock's current time.
func (s *Bank) Release(id string) error {
	return s.withTx(id, func(st *Store, t *txRecord) error {
		if !t.status.Queued() {
			return errIllegalMove(t.status, StatusCreated)
		}
		return st.move(t, StatusCreated, s.Now(), "", "")
	})
}

// Cancel cancels a CREATED or queued transaction with a reason code (may be
// empty), as DELETE does.
func (s *Bank) Cancel(id, code string) error {
	return s.withTx(id, func(st *Store, t *txRecord) error { return st.cancel(t, s.Now(), code) })
}

// ForceMFA makes the next OAuth call for the user answer 202 (the MFA path)
// even for a registered fingerprint, until a correct validation_pin is sent.
// It reports false for an unknown user.
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

// MFAPin is the validation pin the fake "sent" to the user's phone: 123456,
// as in the real sandbox. It returns "" for an unknown user.
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
