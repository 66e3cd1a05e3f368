// Disputes, the bank's side: the record, the filing window, provisional credit.

package bank

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// DisputeStatus is documented at synapsefake.DisputeStatus.
type DisputeStatus string

// Dispute statuses. A transaction nobody disputed has DisputeNone.
const (
	DisputeNone    DisputeStatus = ""
	DisputePending DisputeStatus = "PENDING"
	DisputeWon     DisputeStatus = "WON"
	DisputeLost    DisputeStatus = "LOST"
)

// MaxDisputeReasonLength is documented at synapsefake.MaxDisputeReasonLength.
const MaxDisputeReasonLength = 1000

// disputeRecord is the dispute of one transaction: the user's dispute of a
// debit, or the platform's dispute of a chargeback.
type disputeRecord struct {
	chargeback  bool
	reason      string
	meta        any // dispute_meta as sent: an object or a string
	certified   *int64
	attachments int // how many files were sent; their content is not kept
	filed       time.Time
	status      DisputeStatus
	creditID    string    // the credit that gave the money back, "" until there is one
	provisional bool      // creditID was made before the decision, as a provisional credit
	creditDue   time.Time // when a provisional credit not yet made falls due; zero for none
}

// DisputeRequest is the body of PATCH .../trans/{trans_id}/dispute.
type DisputeRequest struct {
	DisputeReason      *string         `json:"dispute_reason"`
	DisputeMeta        json.RawMessage `json:"dispute_meta"`
	CertificationDate  *int64          `json:"certification_date"`
	DisputeAttachments []string        `json:"dispute_attachments"`
}

// Validate checks the body's payload rules: a dispute_reason of at most
// MaxDisputeReasonLength characters and a dispute_meta object or string.
func (r DisputeRequest) Validate() error {
	switch {
	case r.DisputeReason == nil || strings.TrimSpace(*r.DisputeReason) == "":
		return apierr.Payload("missing_dispute_reason", "dispute_reason is required.")
	case utf8.RuneCountInString(*r.DisputeReason) > MaxDisputeReasonLength:
		return apierr.Payload("dispute_reason_too_long", "dispute_reason must be at most %d characters.", MaxDisputeReasonLength)
	}
	if _, err := r.meta(); err != nil {
		return err
	}
	for _, a := range r.DisputeAttachments {
		if a == "" {
			return apierr.Payload("invalid_attachment", "dispute_attachments must hold base64 files, not empty strings.")
		}
	}
	return nil
}

// meta is dispute_meta decoded: an object (as the SDKs send it) or a string
// (as the docs type it); nil when absent.
func (r DisputeRequest) meta() (any, error) {
	raw := bytes.TrimSpace(r.DisputeMeta)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var v any
	if (raw[0] != '{' && raw[0] != '"') || json.Unmarshal(raw, &v) != nil {
		return nil, apierr.Payload("invalid_field_type", "dispute_meta must be of type object or string.")
	}
	return v, nil
}

// disputeAnswer is the answer to a dispute, as the docs show it.
type disputeAnswer struct {
	DisputeForm           string  `json:"dispute_form"`
	ProvisionalCreditTran *string `json:"provisional_credit_tran"`
	Success               bool    `json:"success"`
}

// errNotDisputable refuses a dispute of a transaction that cannot have one.
func errNotDisputable(format string, args ...any) *apierr.Error {
	return apierr.Incorrect("not_disputable", format, args...)
}

// dispute files the user's dispute of t, a debit of node nodeID, within
// its filing window (disputeWindowEnd). A debit of $25.00 or less, or one
// disputed as returned or defective merchandise, gets its money back as a
// provisional credit: after 3 business days, or 15 for a node younger than
// 30 days (provisionalCreditDue), or at once under
// WithImmediateProvisionalCredit. Callers hold mu.
func (st *Store) dispute(t *txRecord, nodeID string, at time.Time, req DisputeRequest) (disputeAnswer, error) {
	recv := st.nodes[t.toNode]
	switch {
	case t.dispute != nil:
		return disputeAnswer{}, apierr.Incorrect("already_disputed", "Transaction %s is already disputed.", t.id)
	case t.disputeOf != "":
		return disputeAnswer{}, errNotDisputable("Transaction %s is the credit of the dispute of transaction %s; decide that dispute instead.", t.id, t.disputeOf)
	case t.fromNode != nodeID:
		return disputeAnswer{}, errNotDisputable("Only a debit can be disputed; transaction %s credited node %s.", t.id, nodeID)
	case t.status != StatusSettled:
		return disputeAnswer{}, errNotDisputable("Transaction %s is %s; only a SETTLED debit can be disputed.", t.id, t.status)
	case !reference.IsExternalType(recv.typ) || recv.userID == t.userID:
		return disputeAnswer{}, errNotDisputable("Transaction %s went to a %s node of the platform; only card and external debits can be disputed.", t.id, recv.typ)
	}
	if end, days := st.disputeWindowEnd(t); !at.Before(end) {
		return disputeAnswer{}, apierr.Incorrect("dispute_window_closed",
			"Transaction %s settled more than %d days ago; its dispute window closed at %s.", t.id, days, end.UTC().Format(time.RFC3339))
	}
	meta, _ := req.meta()
	reason := *req.DisputeReason
	d := &disputeRecord{reason: reason, meta: meta, certified: req.CertificationDate,
		attachments: len(req.DisputeAttachments), filed: at, status: DisputePending}
	eligible := t.amount <= reference.ProvisionalCreditLimitCents ||
		strings.HasSuffix(reason, reference.DisputeReturnedMerchandise) || strings.HasSuffix(reason, reference.DisputeDefectOrNotAsDesc)
	switch {
	case eligible && st.immediateProvisional:
		c, err := st.disputeCredit(t, at, true)
		if err != nil {
			return disputeAnswer{}, err
		}
		d.creditID, d.provisional = c.id, true
	case eligible:
		d.creditDue = st.provisionalCreditDue(t, at)
		st.seq++
		st.steps.push(step{at: d.creditDue, seq: st.seq, txID: t.id, gen: t.gen, to: StatusSettled, credit: true})
	}
	t.dispute = d
	st.comment(t, at, "Transaction disputed: "+reason+".")
	a := disputeAnswer{DisputeForm: st.disputeForm(t), Success: true}
	if d.creditID != "" {
		a.ProvisionalCreditTran = &d.creditID
	}
	return a, nil
}

// disputeWindowEnd is when the filing window of a user's dispute of t
// closes: the end (24:00 Eastern time) of the last calendar day of
// reference.DisputeWindowDays after the day t settled. Callers hold mu.
func (st *Store) disputeWindowEnd(t *txRecord) (time.Time, int) {
	settled, ok := t.settledAt()
	if !ok {
		settled = t.created
	}
	days := reference.DisputeWindowDays(st.nodes[t.toNode].typ, t.cardSwipe)
	return reference.StartOfDay(settled).AddDate(0, 0, days+1), days
}

// provisionalCreditDue is when the provisional credit of a dispute of t
// filed at at posts: reference.ProvisionalCreditDays business days later
// for a debited node older than reference.NewAccountDays,
// reference.NewAccountProvisionalCreditDays otherwise. Callers hold mu.
func (st *Store) provisionalCreditDue(t *txRecord, at time.Time) time.Time {
	n := reference.ProvisionalCreditDays
	if from := st.nodes[t.fromNode]; from == nil || at.Sub(from.created) <= reference.NewAccountDays*24*time.Hour {
		n = reference.NewAccountProvisionalCreditDays
	}
	return reference.AddBusinessDays(at, n)
}

// postProvisionalCredit makes the provisional credit of t's dispute when it
// falls due, unless the dispute was decided first (won, its credit is made;
// lost, none is owed). Callers hold mu.
func (st *Store) postProvisionalCredit(t *txRecord, at time.Time) {
	d := t.dispute
	if d == nil || d.status != DisputePending || d.creditID != "" || d.creditDue.IsZero() {
		return
	}
	d.creditDue = time.Time{}
	c, err := st.disputeCredit(t, at, true)
	if err != nil {
		st.comment(t, at, "Provisional credit not made: "+err.Error()+".")
		return
	}
	d.creditID, d.provisional = c.id, true
	st.comment(t, at, "Provisional credit posted: "+c.id+".")
}

// disputeForm is the URL of the dispute form of t. The fake does not serve it.
func (st *Store) disputeForm(t *txRecord) string {
	return st.base + "/trans/" + t.id + "/dispute_form.pdf"
}

// disputeCredit gives the disputed money back: a new transaction from the
// disputed transaction's receiver to its sender for a user's dispute (its
// amount), from its sender to its receiver for a won chargeback (what the
// receiver had netted), settled at once through the same moves as any
// transaction. Callers hold mu.
func (st *Store) disputeCredit(t *txRecord, at time.Time, provisional bool) (*txRecord, error) {
	c := &txRecord{id: st.newID(), userID: t.userID, fromNode: t.toNode, toNode: t.fromNode, amount: t.amount,
		currency: t.currency, fees: []feeRecord{{note: "Facilitator Fee"}}, ip: t.ip, note: "Dispute of " + t.id,
		created: at, processOn: at, start: at, status: StatusCreated, disputeOf: t.id,
		fromMeta: map[string]any{"dispute_transaction_id": t.id, "is_dispute_posting": true},
		other:    map[string]any{"is_provisional_credit": provisional}}
	if t.dispute != nil && t.dispute.chargeback {
		c.fromNode, c.toNode, c.amount = t.fromNode, t.toNode, t.amount-t.feeTotal()
		c.note = "Chargeback dispute won: " + t.id
	}
	if err := st.checkPromise(c, false); err != nil {
		return nil, err
	}
	st.addTx(c, statusEntry{Date: Ms(at), Note: "Transaction Created.", Status: StatusCreated})
	for _, to := range processingPath[1:] {
		if err := st.move(c, to, at, "", ""); err != nil || c.status != to {
			break // the processing rules redirected it (a CREDIT-only sender cancels)
		}
	}
	return c, nil
}

// ChargebackRequest is the body of PATCH /trans/{trans_id}/dispute-chargeback:
// the supporting documents, base64 encoded.
type ChargebackRequest struct {
	Docs []string `json:"docs"`
}

// disputeChargeback files the platform's dispute of a chargeback: an
// INTERCHANGE-US transaction RETURNED with IR999 in the last 14 days, not
// yet disputed. Callers hold mu.
func (st *Store) disputeChargeback(t *txRecord, at time.Time, docs int) error {
	from, to := st.nodes[t.fromNode], st.nodes[t.toNode]
	var returned time.Time
	for _, e := range t.timeline {
		if e.Status == StatusReturned {
			returned = time.UnixMilli(e.Date)
		}
	}
	switch {
	case t.dispute != nil && t.dispute.chargeback:
		return apierr.Incorrect("already_disputed", "The chargeback of transaction %s is already disputed.", t.id)
	case t.dispute != nil:
		return errNotDisputable("Transaction %s is disputed by its user.", t.id)
	case from.typ != reference.NodeInterchangeUS && to.typ != reference.NodeInterchangeUS:
		return errNotDisputable("Only INTERCHANGE-US transactions have chargebacks; transaction %s is not one.", t.id)
	case t.status != StatusReturned || t.code != reference.IRChargeback:
		return errNotDisputable("Transaction %s is not a chargeback (RETURNED with %s).", t.id, reference.IRChargeback)
	case at.Sub(returned) > reference.ChargebackDisputeDays*24*time.Hour:
		return errNotDisputable("The chargeback of transaction %s is older than %d days.", t.id, reference.ChargebackDisputeDays)
	}
	t.dispute = &disputeRecord{chargeback: true, attachments: docs, filed: at, status: DisputePending}
	st.comment(t, at, "Chargeback disputed.")
	return nil
}

// resolveDispute decides t's dispute. Won, the money comes back (unless a
// provisional credit already brought it); lost, a provisional credit is
// reversed and otherwise nothing moves. Callers hold mu.
func (st *Store) resolveDispute(t *txRecord, won bool, at time.Time) error {
	d := t.dispute
	switch {
	case d == nil:
		return apierr.Incorrect("not_disputed", "Transaction %s is not disputed.", t.id)
	case d.status != DisputePending:
		return apierr.Incorrect("dispute_decided", "The dispute of transaction %s is already %s.", t.id, d.status)
	}
	note := "Dispute lost."
	if won {
		note = "Dispute won."
		if d.creditID == "" {
			c, err := st.disputeCredit(t, at, false)
			if err != nil {
				return err
			}
			d.creditID, d.creditDue = c.id, time.Time{}
		}
		d.status = DisputeWon
	} else {
		d.status = DisputeLost // returnRefusal lets a lost dispute's provisional credit go back
		d.creditDue = time.Time{}
		if c := st.txs[d.creditID]; c != nil && c.status == StatusSettled {
			if err := st.move(c, StatusReturned, at, "Provisional credit reversed: dispute lost.", ""); err != nil {
				d.status = DisputePending
				return err
			}
		}
	}
	st.comment(t, at, note)
	return nil
}

// returnRefusal is why t may not be returned, or nil. A transaction its
// user disputed is not also returned, whatever the dispute's state: the
// dispute's decision gives the money back or keeps it, and a return on top
// would pay the user twice. A dispute's credit moves only by that
// decision: a lost dispute returns its provisional credit, nothing else
// returns a dispute's credit. A chargeback (disputed by the platform) is
// RETURNED already. Callers hold mu.
func (st *Store) returnRefusal(t *txRecord) *apierr.Error {
	if d := t.dispute; d != nil && !d.chargeback {
		return apierr.NotAllowed("transaction_disputed",
			"Transaction %s is disputed (dispute %s); a disputed transaction is not also returned.", t.id, d.status)
	}
	if t.disputeOf == "" {
		return nil
	}
	if o := st.txs[t.disputeOf]; o != nil && o.dispute != nil {
		if d := o.dispute; d.status == DisputeLost && d.provisional && d.creditID == t.id {
			return nil
		}
	}
	return apierr.NotAllowed("dispute_posting",
		"Transaction %s is the credit of the dispute of transaction %s; only that dispute's decision moves it.", t.id, t.disputeOf)
}

// show writes the dispute into a view's extra.other.
func (d *disputeRecord) show(st *Store, t *txRecord, other map[string]any) {
	other["dispute_status"] = string(d.status)
	if d.chargeback {
		other["chargeback_disputed"] = true
		attachments := []string{}
		if d.attachments > 0 {
			attachments = append(attachments, st.base+"/trans/"+t.id+"/chargeback_docs.pdf")
		}
		other["attachments"] = attachments
		if d.creditID != "" {
			other["dispute_credit_transaction_id"] = d.creditID
		}
		return
	}
	meta := d.meta
	if meta == nil {
		meta = map[string]any{}
	}
	other["disputed"] = true
	other["dispute_reason"] = d.reason
	other["dispute_meta"] = meta
	other["dispute_form"] = st.disputeForm(t)
	other["dispute_created_on"] = Ms(d.filed)
	var provisional any
	if d.provisional {
		provisional = d.creditID
	}
	other["provisional_credit_transaction_id"] = provisional
	if d.creditID != "" && !d.provisional {
		other["dispute_credit_transaction_id"] = d.creditID
	}
}

// WinDispute is documented at synapsefake.Server.WinDispute.
func (s *Bank) WinDispute(txID string) error {
	return s.withTx(txID, func(st *Store, t *txRecord) error { return st.resolveDispute(t, true, s.Now()) })
}

// LoseDispute is documented at synapsefake.Server.LoseDispute.
func (s *Bank) LoseDispute(txID string) error {
	return s.withTx(txID, func(st *Store, t *txRecord) error { return st.resolveDispute(t, false, s.Now()) })
}
