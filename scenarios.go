package synapsefake

import (
	"math"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// The scenario helpers move a transaction as the real service would, through
// the same store operation the HTTP handlers and the clock use: timeline
// entries are dated by the fake's clock and the same events are emitted.
// Each returns an error when the move is not legal, and then changes nothing.

// withTx runs fn on a transaction under the store lock.
func (s *Server) withTx(id string, fn func(st *store, t *txRecord) error) error {
	s.runDue()
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
func (s *Server) AdvanceTransaction(id string, status Status) error {
	return s.withTx(id, func(st *store, t *txRecord) error { return st.move(t, status, s.Now(), "", "") })
}

// Settle moves a transaction through every remaining processing step to
// SETTLED, as the clock would. It must be CREATED or processing.
func (s *Server) Settle(id string) error {
	return s.withTx(id, func(st *store, t *txRecord) error { return st.walk(t, StatusSettled, s, "") })
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
func (s *Server) Return(id, code string) error {
	if err := validEntryReturnCode(code); err != nil {
		return err
	}
	return s.withTx(id, func(st *store, t *txRecord) error {
		if err := st.checkReturn(t, code); err != nil {
			return err
		}
		if err := checkReturnWindow(t, code, s.Now()); err != nil {
			return err
		}
		return st.walk(t, StatusReturned, s, code)
	})
}

// validReturnCode refuses a code that is not an R, IR or WR return code.
func validReturnCode(code string) error {
	if !reference.IsReturnCode(code) {
		return apierr.Payload("invalid_return_code", "Unknown return code %q.", code)
	}
	return nil
}

// Queue puts a CREATED transaction in QUEUED-BY-SYNAPSE with a reason code
// (free text, shown in recent_status.code). Processing stops until Release.
func (s *Server) Queue(id, code string) error {
	return s.withTx(id, func(st *store, t *txRecord) error {
		return st.move(t, StatusQueuedBySynapse, s.Now(), "", code)
	})
}

// Release moves a queued transaction back to CREATED; processing starts again
// from the clock's current time.
func (s *Server) Release(id string) error {
	return s.withTx(id, func(st *store, t *txRecord) error {
		if !t.status.Queued() {
			return errIllegalMove(t.status, StatusCreated)
		}
		return st.move(t, StatusCreated, s.Now(), "", "")
	})
}

// Cancel cancels a CREATED or queued transaction with a reason code (may be
// empty), as DELETE does.
func (s *Server) Cancel(id, code string) error {
	return s.withTx(id, func(st *store, t *txRecord) error { return st.cancel(t, s.Now(), code) })
}

// ForceMFA makes the next OAuth call for the user answer 202 (the MFA path)
// even for a registered fingerprint, until a correct validation_pin is sent.
// It reports false for an unknown user.
func (s *Server) ForceMFA(userID string) bool {
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
func (s *Server) MFAPin(userID string) string {
	st := s.store
	defer st.lock().unlock()
	if u := st.users[userID]; u != nil {
		return u.pin
	}
	return ""
}

// Reset empties the whole store (users, nodes, transactions, subnets,
// subscriptions, keys, idempotency keys, bank-login questions, statements
// and their ledger), the webhook capture, the webhook log, queued
// deliveries and retries, the request journal and pending faults, as if
// the server had just started.
// The clock and the id stream go on.
func (s *Server) Reset() {
	s.resetStore()
	s.faults.set(nil)
	s.ResetRequests()
}

// resetStore empties the store and the webhook side together, under the
// store's lock, so that no event slips in between.
func (s *Server) resetStore() {
	st := s.store
	defer st.lock().unlock()
	st.era++
	s.hooks.reset()
	st.users, st.userOrder, st.goneUsers = map[string]*userRecord{}, nil, 0
	st.nodeOrder, st.txOrder = nil, nil
	st.nodes, st.keys, st.txs = map[string]*nodeRecord{}, map[string]*keyRecord{}, map[string]*txRecord{}
	st.subnets, st.subs, st.subOrder = map[string]*subnetRecord{}, map[string]*subscriptionRecord{}, nil
	st.steps, st.idem = nil, map[string]time.Time{}
	st.returnPlans, st.returnRules = nil, nil
	st.idemExpiry, st.keyExpiry = expiryQueue{}, expiryQueue{}
	st.bankLogins, st.bankLoginExpiry = nil, expiryQueue{}
	st.networkUser, st.network = nil, nil
	st.book = statementBook{}
	st.firstMonthly = math.MaxInt64
	st.bankLogins = nil
}
