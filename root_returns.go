package synapsefake

import "time"

// ReturnLate returns a transaction as Return does, whatever its code's
// window: the return of a settled transfer after NACHA allows it, for a
// test of what an app does with a return it did not expect any more.
func (s *Server) ReturnLate(id, code string) error {
	if err := validEntryReturnCode(code); err != nil {
		return err
	}
	return s.withTx(id, func(st *store, t *txRecord) error {
		if err := st.checkReturn(t, code); err != nil {
			return err
		}
		return st.walk(t, StatusReturned, s, code)
	})
}

// ScheduleReturn returns a transaction with code after a delay counted from
// its settlement: "return this transfer with R10 thirty days after it
// settles" is ScheduleReturn(id, reference.ReturnNotAuthorized, 30*24*time.Hour).
// A transfer that has not settled yet is returned when it settles (after 0:
// returned instead of settling, PROCESSING-CREDIT to RETURNED) or after
// later; a settled one after its settlement, or at once when that time has
// passed. The return happens on the fake's clock (Advance). An ACH code's
// delay must fit its window: at most 32h30m for a two-banking-day code (a
// settlement at the end of a day to 08:30 ET two banking days later), 60
// days for an unauthorized-debit code, any for R06, R31 and R23, only 0
// for the ACH Operator's R13, R18 and R19 (returned instead of settling);
// a code of
// another rail than the transfer's is refused (return_code_not_for_rail);
// ScheduleLateReturn does not ask about the window.
// A canceled, returned or disputed transaction is refused, and a return
// that falls due after the transaction was disputed is not made (a
// timeline note says so). A later plan for the same unsettled transaction
// replaces the earlier one.
func (s *Server) ScheduleReturn(id, code string, after time.Duration) error {
	return s.scheduleReturn(id, code, after, false)
}

// ScheduleLateReturn is ScheduleReturn without the window's check.
func (s *Server) ScheduleLateReturn(id, code string, after time.Duration) error {
	return s.scheduleReturn(id, code, after, true)
}

func (s *Server) scheduleReturn(id, code string, after time.Duration, late bool) error {
	if err := validPlan(code, after, late); err != nil {
		return err
	}
	return s.withTx(id, func(st *store, t *txRecord) error { return st.planReturn(t, code, after, late, s.Now()) })
}

// AddReturnRule adds a rule after the others and returns the rules now in
// force. A rule that matches nothing, a return code that is not one or an
// After past the code's window without Late is refused.
func (s *Server) AddReturnRule(r ReturnRule) ([]ReturnRule, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	st := s.store
	defer st.lock().unlock()
	st.returnRules = append(st.returnRules, r)
	return append([]ReturnRule(nil), st.returnRules...), nil
}

// ReturnRules returns the rules in force, in the order they are tried.
func (s *Server) ReturnRules() []ReturnRule {
	st := s.store
	defer st.lock().unlock()
	return append([]ReturnRule(nil), st.returnRules...)
}

// ClearReturnRules removes every return rule. Returns the rules already
// planned still happen.
func (s *Server) ClearReturnRules() {
	st := s.store
	defer st.lock().unlock()
	st.returnRules = nil
}
