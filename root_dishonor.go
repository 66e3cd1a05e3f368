package synapsefake

import "github.com/synapsefake/synapsefake/reference"

// DishonorReturn dishonors the return of a RETURNED ACH transaction, as
// the originating bank does with a dishonored return code (R61 misrouted
// return, R62, R67 duplicate return, R68 untimely return, R69 field
// errors, R70 permissible return entry not accepted) within five banking
// days after the return's settlement (to 24:00 ET of the fifth banking
// day). The return is reversed: the sender pays the amount again, the
// receiver and fee nodes are credited again, and the transaction is
// SETTLED again with recent_status.code the dishonor's code, a timeline
// entry ("R68: untimely return. Return R01 dishonored; the transfer
// stands.") and a TRAN|PATCH webhook. Refused with 409 / "410", changing
// nothing: another code family (wrong_code_family), a transaction that is
// not RETURNED (not_returned), not on ACH (return_code_not_for_rail),
// already dishonored (already_dishonored), a dispute's credit returned by
// its lost dispute (dispute_posting), past the window
// (dishonor_window_passed); an unknown code is 400 / "200".
func (s *Server) DishonorReturn(id, code string) error {
	if err := validCodeOf(code, reference.OfReturn); err != nil {
		return err
	}
	return s.withTx(id, func(st *store, t *txRecord) error { return st.dishonor(t, code, s.Now()) })
}

// ContestDishonor contests the dishonor of a transaction's return, as the
// receiving bank does with a contested dishonored return code (R71
// misrouted dishonored return, R72 untimely dishonored return, R73 timely
// original return, R74 corrected return, R75 return not a duplicate, R76
// no errors found, R77 non-acceptance of R62 dishonored return) within two
// banking days after the dishonor (to 24:00 ET of the second banking day).
// The return stands again: the sender gets the amount back, the receiver
// and fee nodes give back what they were credited, and the transaction is
// RETURNED with recent_status.code the contest's code, a timeline entry and
// a TRAN|PATCH webhook. Refused with 409 / "410", changing nothing:
// another code family (wrong_code_family), a transaction whose return was
// not dishonored (not_dishonored), a dishonor already contested
// (already_contested), past the window (contest_window_passed), a
// transaction its user disputed since (transaction_disputed).
func (s *Server) ContestDishonor(id, code string) error {
	if err := validCodeOf(code, reference.OfDishonor); err != nil {
		return err
	}
	return s.withTx(id, func(st *store, t *txRecord) error { return st.contest(t, code, s.Now()) })
}
