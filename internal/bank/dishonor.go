// Dishonored returns, the bank's side: the rule, the record, dishonor and contest.

package bank

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// Returns of returns (NACHA Operating Rules, Appendix Four). The
// originating bank may refuse a return of an ACH entry: a dishonored return
// (R61, R62, R67-R70), within five banking days after the return's
// settlement, moves the money back as the entry had it and the transaction
// back to SETTLED. The receiving bank may contest that dishonor: a
// contested dishonored return (R71-R77), within two banking days after the
// dishonor, makes the return stand again, RETURNED with the money back with
// the sender. Each is a move of the state machine (move), with its
// timeline entry and TRAN|PATCH webhook. The windows and who sends each
// code are reference.ACHReturnWindow's data.

// dishonorRecord is the dishonor of a transaction's return and its
// contest.
type dishonorRecord struct {
	returnCode string    // the code of the return dishonored; "" for a return without one
	code       string    // the dishonor's code: R61, R62, R67-R70
	at         time.Time // when the return was dishonored
	contest    string    // the contest's code, R71-R77; "" until contested
	contested  time.Time // when it was contested; zero until then
}

// ValidEntryReturnCode refuses a code that is not a return code, or that
// acts on a return rather than on an entry (a dishonored or contested
// dishonored return): what Return, ReturnLate, ScheduleReturn, return
// rules and world files take.
func ValidEntryReturnCode(code string) error {
	return validCodeOf(code, reference.OfEntry)
}

// validCodeOf refuses code unless it is a return code (validReturnCode)
// that acts on want: a dishonored return code is not a return, a return
// code not a dishonor... The message names the helper that takes code.
func validCodeOf(code string, want reference.ReturnSubject) error {
	if err := validReturnCode(code); err != nil {
		return err
	}
	got := reference.ReturnSubjectOf(code)
	if got == want {
		return nil
	}
	var is, use string
	switch got {
	case reference.OfReturn:
		is = "a dishonored return, sent by the originating bank to refuse a return"
		use = "dishonor the return of a RETURNED ACH transaction with DishonorReturn (POST /_fake/transactions/{trans_id}/dishonor)"
	case reference.OfDishonor:
		is = "a contested dishonored return, sent by the receiving bank to contest a dishonor"
		use = "contest a dishonored return with ContestDishonor (POST /_fake/transactions/{trans_id}/contest)"
	default:
		is = "a return of an entry"
		use = "return a transaction with Return (POST /_fake/transactions/{trans_id}/return)"
	}
	var takes string
	switch want {
	case reference.OfReturn:
		takes = "a dishonor takes " + strings.Join(codesOf(want), ", ")
	case reference.OfDishonor:
		takes = "a contest takes " + strings.Join(codesOf(want), ", ")
	default:
		takes = "a return takes the code of a return of an entry"
	}
	return apierr.NotAllowed("wrong_code_family", "%s (%s) is %s; %s. To use it, %s.", code, meaningOf(code), is, takes, use)
}

// codesOf lists the ACH codes that act on subject, in order.
func codesOf(subject reference.ReturnSubject) []string {
	var out []string
	for _, c := range CodesActingOn(subject) {
		out = append(out, c.Code)
	}
	return out
}

// dishonorRefusal is why t may not move to RETURNED with code because its
// return was dishonored, or nil: after a dishonor, only the contest of the
// dishonor (R71-R77) returns it, and only once. Callers hold mu.
func dishonorRefusal(t *txRecord, code string) *apierr.Error {
	d := t.dishonor
	if d == nil || d.contest == "" && reference.ReturnSubjectOf(code) == reference.OfDishonor {
		return nil
	}
	return apierr.NotAllowed("return_dishonored",
		"The return of transaction %s was dishonored (%s); it is not returned again. The receiving bank contests a dishonor once, with ContestDishonor (R71-R77).", t.id, d.code)
}

// returnedAt is when t last became RETURNED, and whether it did.
func (t *txRecord) returnedAt() (time.Time, bool) {
	for i := len(t.timeline) - 1; i >= 0; i-- {
		if t.timeline[i].Status == StatusReturned {
			return time.UnixMilli(t.timeline[i].Date), true
		}
	}
	return time.Time{}, false
}

// achTransfer reports whether t is on the ACH rail: a transfer touching an
// ACH-US node (and no WIRE-US one), or a dummy ACH. Callers hold mu.
func (st *Store) achTransfer(t *txRecord) bool {
	return st.rail(t) == reference.NodeACHUS
}

// dishonorMisfit returns the node that the dishonor of t's return would
// take past the balance limits, or nil: the sender pays the amount again,
// the receiver and the fee nodes are credited again. Callers hold mu.
func (st *Store) dishonorMisfit(t *txRecord) *nodeRecord {
	if from := st.nodes[t.fromNode]; !from.fits(-t.amount) {
		return from
	}
	return st.settlementMisfit(t, 1)
}

// errWindow is the refusal of a dishonor or contest past its window.
func errWindow(errCode, code, of string, w reference.ReturnWindow, from, deadline time.Time) *apierr.Error {
	return apierr.NotAllowed(errCode,
		"%s must be sent by %s within %s after %s: that was at %s ET and the window closed at %s ET.",
		code, w.By, w, of, from.In(reference.Eastern).Format(time.DateTime), deadline.In(reference.Eastern).Format(time.DateTime))
}

// dishonor dishonors t's return with code at now: t must be a RETURNED ACH
// transfer whose return is not a dispute's and was not dishonored before,
// within code's window after the return. Callers hold mu.
func (st *Store) dishonor(t *txRecord, code string, now time.Time) error {
	switch {
	case t.dishonor != nil:
		return apierr.NotAllowed("already_dishonored", "The return of transaction %s was already dishonored (%s); a return is dishonored once.", t.id, t.dishonor.code)
	case t.status != StatusReturned:
		return apierr.NotAllowed("not_returned", "Transaction %s is %s; only the return of a RETURNED ACH transaction can be dishonored.", t.id, t.status)
	case t.disputeOf != "":
		return apierr.NotAllowed("dispute_posting",
			"Transaction %s is the credit of the dispute of transaction %s; its return is the dispute's, not a bank's, and cannot be dishonored.", t.id, t.disputeOf)
	case t.dispute != nil:
		return apierr.NotAllowed("transaction_disputed", "Transaction %s is disputed; its return cannot be dishonored.", t.id)
	case !st.achTransfer(t):
		rail := cmp.Or(st.rail(t), "an internal transfer")
		return apierr.NotAllowed("return_code_not_for_rail",
			"%s is a return code of %s; transaction %s is on %s, whose returns are not dishonored.", code, reference.NodeACHUS, t.id, rail)
	}
	w, _ := reference.ACHReturnWindow(code)
	returned, _ := t.returnedAt()
	if deadline, ok := w.Deadline(returned); ok && now.After(deadline) {
		return errWindow("dishonor_window_passed", code, "the return's settlement", w, returned, deadline)
	}
	d := &dishonorRecord{returnCode: t.code, code: code, at: now}
	note := code + ": " + meaningOf(code) + ". The return was dishonored; the transfer stands."
	if d.returnCode != "" {
		note = code + ": " + meaningOf(code) + ". Return " + d.returnCode + " dishonored; the transfer stands."
	}
	if err := st.move(t, StatusSettled, now, note, code); err != nil {
		return err
	}
	t.dishonor = d
	return nil
}

// contest contests the dishonor of t's return with code at now, within
// code's window after the dishonor: the return stands again. Callers hold
// mu.
func (st *Store) contest(t *txRecord, code string, now time.Time) error {
	d := t.dishonor
	switch {
	case d == nil:
		return apierr.NotAllowed("not_dishonored", "The return of transaction %s was not dishonored; only a dishonored return can be contested.", t.id)
	case d.contest != "":
		return apierr.NotAllowed("already_contested", "The dishonor of transaction %s's return was already contested (%s); a dishonor is contested once.", t.id, d.contest)
	}
	w, _ := reference.ACHReturnWindow(code)
	if deadline, ok := w.Deadline(d.at); ok && now.After(deadline) {
		return errWindow("contest_window_passed", code, "the dishonor's settlement", w, d.at, deadline)
	}
	note := code + ": " + meaningOf(code) + ". Dishonor " + d.code + " contested; the return stands."
	if d.returnCode != "" {
		note = code + ": " + meaningOf(code) + ". Dishonor " + d.code + " contested; return " + d.returnCode + " stands."
	}
	if err := st.move(t, StatusReturned, now, note, code); err != nil {
		return err
	}
	d.contest, d.contested = code, now
	return nil
}

// meaningOf is a known code's meaning.
func meaningOf(code string) string {
	m, _ := reference.CodeMeaning(code)
	return m
}

// CodesActingOn are the ACH return codes that act on subject, in order,
// for the dashboard's lists.
func CodesActingOn(subject reference.ReturnSubject) []reference.Code {
	return slices.DeleteFunc(reference.ReturnCodes(), func(c reference.Code) bool { return reference.ReturnSubjectOf(c.Code) != subject })
}

// DishonorReturn is documented at synapsefake.Server.DishonorReturn.
func (s *Bank) DishonorReturn(id, code string) error {
	if err := validCodeOf(code, reference.OfReturn); err != nil {
		return err
	}
	return s.withTx(id, func(st *Store, t *txRecord) error { return st.dishonor(t, code, s.Now()) })
}

// ContestDishonor is documented at synapsefake.Server.ContestDishonor.
func (s *Bank) ContestDishonor(id, code string) error {
	if err := validCodeOf(code, reference.OfDishonor); err != nil {
		return err
	}
	return s.withTx(id, func(st *Store, t *txRecord) error { return st.contest(t, code, s.Now()) })
}
