// Returns, the bank's side: the return window, planned returns, the rules.

package bank

import (
	"slices"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// Returns with their real windows. An ACH return code (Rxx) has NACHA's
// window (reference.ACHReturnWindow): Return refuses a settled transfer
// whose window has closed, ReturnLate does not ask. The codes that act on
// a return rather than on an entry (R61, R62, R67-R77) are dishonor.go's. A code belongs to its
// rail (reference.ReturnCodeRail): every return refuses a code of another
// rail than the transaction's. A return may also be
// planned: ScheduleReturn returns a transfer a while after it settles, and
// a return rule (AddReturnRule) does so, or queues it, for every new
// transfer it matches. Planned returns run on the fake's clock, as steps of
// the store's step queue.

// returnPlan is a return waiting for its transaction to settle: at
// settlement, it returns the transaction instead (after 0) or schedules
// the return after later.
type returnPlan struct {
	code  string
	after time.Duration
}

// errReturnWindow is the refusal of a return past its window.
func errReturnWindow(code string, w reference.ReturnWindow, settled, deadline time.Time) *apierr.Error {
	return apierr.NotAllowed("return_window_passed",
		"%s must be returned within %s of settlement: the transaction settled on %s and the window closed at %s ET. Ask for a late return explicitly (ReturnLate, or \"late\": true) to return it anyway.",
		code, w, settled.In(reference.Eastern).Format(time.DateOnly), deadline.In(reference.Eastern).Format(time.DateTime))
}

// settledAt is when t first settled, and whether it did.
func (t *txRecord) settledAt() (time.Time, bool) {
	for _, e := range t.timeline {
		if e.Status == StatusSettled {
			return time.UnixMilli(e.Date), true
		}
	}
	return time.Time{}, false
}

// errOperatorReturn is the refusal of an ACH Operator's return (R13, R18,
// R19) of a transfer that settled: the operator returns an entry as it
// processes it, before settlement.
func errOperatorReturn(code, id string, settled time.Time) *apierr.Error {
	return apierr.NotAllowed("return_window_passed",
		"%s is returned by %s as it processes the entry, before settlement; transaction %s settled at %s ET. Ask for a late return explicitly (ReturnLate, or \"late\": true) to return it anyway.",
		code, reference.ACHOperator, id, settled.In(reference.Eastern).Format(time.DateTime))
}

// checkReturnWindow refuses a return of t with code at now when t settled
// and code's window has closed; an ACH Operator's code closes at
// settlement.
func checkReturnWindow(t *txRecord, code string, now time.Time) error {
	w, ok := reference.ACHReturnWindow(code)
	if !ok || t.status != StatusSettled {
		return nil
	}
	settled, _ := t.settledAt()
	if w.Kind == reference.WindowAtProcessing {
		return errOperatorReturn(code, t.id, settled)
	}
	if deadline, ok := w.Deadline(settled); ok && now.After(deadline) {
		return errReturnWindow(code, w, settled, deadline)
	}
	return nil
}

// rail is the node type of t's rail, as return codes (reference.ReturnCodeRail)
// and the schedule know it: WIRE-US or ACH-US when either node is one, in
// that order, or t is a dummy WIRE or ACH transaction (whose counterparty,
// the hidden network's EXTERNAL-US node, names no rail); INTERCHANGE-US for
// a card swipe or a transaction with the card network's node; "" for the
// others (internal transfers, INTERNAL_TRASFER dummies, checks...), which
// take a code of any rail. Callers hold mu.
func (st *Store) rail(t *txRecord) string {
	from, to := st.nodes[t.fromNode], st.nodes[t.toNode]
	dummy := t.dummyRail()
	for _, rail := range []struct{ node, dummy string }{
		{reference.NodeWireUS, "WIRE"}, {reference.NodeACHUS, "ACH"}, {reference.NodeInterchangeUS, ""},
	} {
		if from.typ == rail.node || to.typ == rail.node || dummy != "" && dummy == rail.dummy {
			return rail.node
		}
	}
	if t.cardSwipe {
		return reference.NodeInterchangeUS
	}
	return ""
}

// checkReturn refuses a return of t with code that its dispute forbids
// (returnRefusal), or with a code of another rail: an IRxx or WRxx code on
// an ACH transfer, an Rxx code on a wire... Callers hold mu.
func (st *Store) checkReturn(t *txRecord, code string) error {
	if err := st.returnRefusal(t); err != nil {
		return err
	}
	if err := dishonorRefusal(t, code); err != nil {
		return err
	}
	rail := st.rail(t)
	if codeRail := reference.ReturnCodeRail(code); rail != "" && codeRail != rail {
		return apierr.NotAllowed("return_code_not_for_rail",
			"%s is a return code of %s; transaction %s is on %s, which takes only its own codes.", code, codeRail, t.id, rail)
	}
	return nil
}

// checkPlannedWindow refuses a return planned after a settlement that
// could fall past code's window: one after more than the window's
// shortest length (reference.ReturnWindow.Shortest).
func checkPlannedWindow(code string, after time.Duration) error {
	w, ok := reference.ACHReturnWindow(code)
	if !ok {
		return nil
	}
	if limit, ok := w.Shortest(); ok && after > limit {
		return apierr.NotAllowed("return_window_passed",
			"%s must be returned within %s of settlement; %v after settlement may be past it. Ask for a late return explicitly to plan it anyway.", code, w, after)
	}
	return nil
}

// validPlan checks a planned return's code and delay.
func validPlan(code string, after time.Duration, late bool) error {
	if err := ValidEntryReturnCode(code); err != nil {
		return err
	}
	if after < 0 {
		return apierr.Payload("invalid_duration", "after must not be negative, got %v.", after)
	}
	if !late {
		return checkPlannedWindow(code, after)
	}
	return nil
}

// planReturn makes t return with code after its settlement: at once if it
// has settled and the time has come, at its settlement if it has not
// settled yet. Callers hold mu.
func (st *Store) planReturn(t *txRecord, code string, after time.Duration, late bool, now time.Time) error {
	if err := st.checkReturn(t, code); err != nil {
		return err
	}
	switch {
	case t.status == StatusSettled:
		settled, _ := t.settledAt()
		at := latest(settled.Add(after), now)
		if !late {
			if err := checkReturnWindow(t, code, at); err != nil {
				return err
			}
		}
		st.pushReturn(t, code, at)
	case slices.Contains(processingPath[:3], t.status) || t.status.Queued():
		if st.returnPlans == nil {
			st.returnPlans = map[string]returnPlan{}
		}
		st.returnPlans[t.id] = returnPlan{code: code, after: after}
	default:
		return errIllegalMove(t.status, StatusReturned)
	}
	return nil
}

// pushReturn schedules the return of t with code at at. Callers hold mu.
func (st *Store) pushReturn(t *txRecord, code string, at time.Time) {
	st.seq++
	st.steps.push(step{at: at, seq: st.seq, txID: t.id, to: StatusReturned, code: code})
}

// settlementPlan is the status and code a transaction moving to SETTLED
// gets under its return plan: RETURNED with the plan's code when the plan
// returns it at settlement. Callers hold mu.
func (st *Store) settlementPlan(t *txRecord) (Status, string, bool) {
	p, ok := st.returnPlans[t.id]
	if !ok || p.after > 0 {
		return "", "", false
	}
	delete(st.returnPlans, t.id)
	return StatusReturned, p.code, true
}

// settledPlan schedules the return a plan makes after t settled at at.
// Callers hold mu.
func (st *Store) settledPlan(t *txRecord, at time.Time) {
	p, ok := st.returnPlans[t.id]
	if !ok {
		return
	}
	delete(st.returnPlans, t.id)
	st.pushReturn(t, p.code, at.Add(p.after))
}

// ReturnRule is documented at synapsefake.ReturnRule.
type ReturnRule struct {
	// What the rule matches: every field that is set must match, and at
	// least one must be set.
	NodeID      string // the sender's or the receiver's node id
	AccountNum  string // the account number of the sender's or the receiver's node
	AmountCents int64  // the amount, exactly
	Note        string // a substring of extra.note
	// Code is the return code (R01, IR..., WR...), or with Queue the queue
	// code shown in recent_status.code (free text).
	Code string
	// Queue puts a matching transaction in QUEUED-BY-SYNAPSE instead of
	// returning it.
	Queue bool
	// After is, for a return, how long after settlement it comes (0:
	// returned instead of settling); for a queue, how long after creation
	// (0: at once; later, only if the transaction is still CREATED).
	After time.Duration
	// Late lets a return's After pass its code's window.
	Late bool
}

func (r ReturnRule) validate() error {
	if r.NodeID == "" && r.AccountNum == "" && r.AmountCents == 0 && r.Note == "" {
		return apierr.Payload("invalid_rule", "A return rule must match on at least one of node_id, account_num, amount_cents and note.")
	}
	if r.AmountCents < 0 {
		return apierr.Payload("invalid_rule", "amount_cents must not be negative.")
	}
	if r.Queue {
		if r.After < 0 {
			return apierr.Payload("invalid_duration", "after must not be negative, got %v.", r.After)
		}
		return nil
	}
	return validPlan(r.Code, r.After, r.Late)
}

// matches reports whether rule r matches t. Callers hold mu.
func (st *Store) matches(r ReturnRule, t *txRecord) bool {
	from, to := st.nodes[t.fromNode], st.nodes[t.toNode]
	switch {
	case r.NodeID != "" && r.NodeID != from.id && r.NodeID != to.id,
		r.AccountNum != "" && r.AccountNum != from.accountNum && r.AccountNum != to.accountNum,
		r.AmountCents != 0 && Cents(r.AmountCents) != t.amount,
		r.Note != "" && !strings.Contains(t.note, r.Note):
		return false
	}
	return true
}

// applyReturnRules applies the first rule that matches a transaction just
// created through the API. Callers hold mu.
func (st *Store) applyReturnRules(t *txRecord) {
	for _, r := range st.returnRules {
		if !st.matches(r, t) {
			continue
		}
		if !r.Queue {
			_ = st.planReturn(t, r.Code, r.After, true, t.created)
			return
		}
		if r.After > 0 {
			st.seq++
			st.steps.push(step{at: t.created.Add(r.After), seq: st.seq, txID: t.id, gen: t.gen, to: StatusQueuedBySynapse, code: r.Code})
			return
		}
		prev := st.actor
		st.actor = UpdatedByBackend
		_ = st.move(t, StatusQueuedBySynapse, t.created, "", r.Code)
		st.actor = prev
		return
	}
}

// ParseAfter reads a control body's "after": a non-negative Go duration
// such as "720h", "" for none.
func ParseAfter(after string) (time.Duration, error) {
	if after == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(after)
	if err != nil || d < 0 {
		return 0, apierr.Payload("invalid_duration", `after must be a non-negative Go duration such as "720h", got %q.`, after)
	}
	return d, nil
}

// ReturnLate is Return without the window's check: Return with
// synapsefake.PastWindow, documented there.
func (s *Bank) ReturnLate(id, code string) error {
	if err := ValidEntryReturnCode(code); err != nil {
		return err
	}
	return s.withTx(id, func(st *Store, t *txRecord) error {
		if err := st.checkReturn(t, code); err != nil {
			return err
		}
		return st.walk(t, StatusReturned, s, code)
	})
}

// ScheduleReturn plans a return after settlement: Return with
// synapsefake.AfterSettlement, documented there.
func (s *Bank) ScheduleReturn(id, code string, after time.Duration) error {
	return s.ScheduleReturnWith(id, code, after, false)
}

// ScheduleLateReturn is ScheduleReturn without the window's check.
func (s *Bank) ScheduleLateReturn(id, code string, after time.Duration) error {
	return s.ScheduleReturnWith(id, code, after, true)
}

// ScheduleReturnWith is ScheduleReturn, or with late ScheduleLateReturn;
// the console's returns handler and synapsefake.Server.Return call it.
func (s *Bank) ScheduleReturnWith(id, code string, after time.Duration, late bool) error {
	if err := validPlan(code, after, late); err != nil {
		return err
	}
	return s.withTx(id, func(st *Store, t *txRecord) error { return st.planReturn(t, code, after, late, s.Now()) })
}

// AddReturnRule is documented at synapsefake.Server.AddReturnRule.
func (s *Bank) AddReturnRule(r ReturnRule) ([]ReturnRule, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	st := s.store
	defer st.lock().unlock()
	st.returnRules = append(st.returnRules, r)
	return append([]ReturnRule(nil), st.returnRules...), nil
}

// ReturnRules is documented at synapsefake.Server.ReturnRules.
func (s *Bank) ReturnRules() []ReturnRule {
	st := s.store
	defer st.lock().unlock()
	return append([]ReturnRule(nil), st.returnRules...)
}

// ClearReturnRules is documented at synapsefake.Server.ClearReturnRules.
func (s *Bank) ClearReturnRules() {
	st := s.store
	defer st.lock().unlock()
	st.returnRules = nil
}
