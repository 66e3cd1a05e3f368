// Transactions, the bank's side: the record, its steps, dates and fees.

package bank

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

type feeRecord struct {
	fee    Cents
	note   string
	toNode string // "" for the default entry, shown as "None"
}

type txRecord struct {
	id        string
	userID    string // the sender
	fromNode  string
	toNode    string
	amount    Cents
	currency  string
	fees      []feeRecord
	ip        string
	note      string
	suppID    string
	groupID   *string
	processOn time.Time
	created   time.Time
	start     time.Time // when automatic processing starts; reset on release
	other     map[string]any
	fromMeta  map[string]any // dummy transactions and card swipes only
	toMeta    map[string]any // a card swipe that allows partial approval only
	status    Status
	code      string // recent_status.code
	timeline  []statusEntry
	comments  int // comments taken by PATCH (MaxComments)
	gen       int // bumped on every move; stale scheduled steps are skipped
	sameDay   bool
	credited  bool            // SETTLED credited the receiver and fee nodes
	cardSwipe bool            // made by CardAuthorization
	cash      bool            // a cash card swipe
	dispute   *disputeRecord  // disputes.go; nil until disputed
	dishonor  *dishonorRecord // dishonor.go; nil until its return is dishonored
	disputeOf string          // disputes.go: the disputed transaction, for a dispute's credit
	card      *cardLife       // cardlife.go; nil for a swipe whose amount never changed and that holds nothing
}

// TxID is t's id.
func (t *txRecord) TxID() string { return t.id }

// statusEntry is one entry of a transaction's timeline, as stored.
type statusEntry struct {
	Date   int64 // ms
	Note   string
	Status Status
	// Comment marks a client's comment (PATCH {"comment"}): the timeline
	// shows it as an entry, and recent_status appends it to the note of
	// the status it was made in.
	Comment bool
}

// statusView is a timeline entry on the wire.
type statusView struct {
	Date     int64  `json:"date"`
	Note     string `json:"note"`
	Status   Status `json:"status"`
	StatusID string `json:"status_id"`
}

func (t *txRecord) feeTotal() Cents {
	var sum Cents
	for _, f := range t.fees {
		sum += f.fee
	}
	return sum
}

// Processing schedule, measured from the transaction's start (its
// creation, its process_on day, or its release from a queue). ACH and wire
// transfers follow the banking calendar (Cutoffs, schedule.go); the others:
var (
	// Internal transfers between deposit-type nodes: every step on the next
	// clock movement.
	internalSchedule = [3]time.Duration{time.Millisecond, time.Millisecond, time.Millisecond}
	// Other external rails (card swipes, push-to-card, checks...): debit
	// after a minute, credit after an hour, settled one day later, moved
	// past weekends and Federal Reserve holidays (US Eastern), the calendar
	// every rail keeps.
	achSchedule = [3]time.Duration{time.Minute, time.Hour, 24 * time.Hour}
	// Same-day transfers on those rails: settled four hours after the start.
	sameDaySchedule = [3]time.Duration{time.Minute, time.Hour, 4 * time.Hour}
)

// dueAt is when the automatic step into status next falls due. ACH and wire
// transfers, dummy ones included, follow the banking calendar (Cutoffs):
// an ACH is debited a minute and credited an hour after the moment it
// enters processing and settled when its rail settles (a same-day ACH over
// Cutoffs.SameDayLimit as next-day); a wire takes its three steps within
// minutes, before the wire rail closes.
func (st *Store) dueAt(t *txRecord, next Status) time.Time {
	from, to := st.nodes[t.fromNode], st.nodes[t.toNode]
	rail := st.rail(t)
	var begin, settle time.Time
	switch {
	case !reference.IsExternalType(from.typ) && !reference.IsExternalType(to.typ):
		return t.start.Add(internalSchedule[0])
	case rail == reference.NodeWireUS:
		steps := st.cutoffs.wire(t.start)
		switch next {
		case StatusProcessingDebit:
			return steps[0]
		case StatusProcessingCredit:
			return steps[1]
		default:
			return steps[2]
		}
	case rail == reference.NodeACHUS || t.dummyRail() != "": // an INTERNAL_TRASFER dummy too
		begin, settle = st.achTimes(t.start, t.sameDay && st.cutoffs.sameDayEligible(t.amount))
	default:
		sched := achSchedule
		if t.sameDay {
			sched = sameDaySchedule
		}
		begin, settle = t.start, t.start.Add(sched[2])
		for !t.sameDay && !reference.IsBusinessDay(settle) {
			settle = settle.Add(24 * time.Hour)
		}
	}
	switch next {
	case StatusProcessingDebit:
		return begin.Add(time.Minute)
	case StatusProcessingCredit:
		return begin.Add(time.Hour)
	default:
		return latest(settle, begin.Add(time.Hour))
	}
}

// achTimes is st.cutoffs.ach, remembering its last answer: on a frozen
// clock the transfers of a test start at the same instant. A store with
// the default cutoffs starts from the last answer any such store computed
// (sharedACH), so that the tests of a process, each on a new server at the
// same start time, work the calendar out once. Callers hold mu.
func (st *Store) achTimes(start time.Time, sameDay bool) (begin, settle time.Time) {
	m := &st.achMemo
	if m.answers(start, sameDay) {
		return m.begin, m.settle
	}
	first := !m.ok
	if p := sharedACH.Load(); first && st.defaultCutoffs && p != nil && p.answers(start, sameDay) {
		*m = *p
		return m.begin, m.settle
	}
	*m = achMemo{ok: true, start: start, sameDay: sameDay}
	m.begin, m.settle = st.cutoffs.ach(start, sameDay)
	if first && st.defaultCutoffs { // once per store: a running clock misses every time
		shared := *m
		sharedACH.Store(&shared)
	}
	return m.begin, m.settle
}

// sharedACH is the last answer achTimes computed for a store's first
// transfer with the default cutoffs. It is read-only once stored.
var sharedACH atomic.Pointer[achMemo]

// achMemo is achTimes's last answer.
type achMemo struct {
	ok            bool
	start         time.Time
	sameDay       bool
	begin, settle time.Time
}

// answers reports that m holds the answer for start and sameDay.
func (m *achMemo) answers(start time.Time, sameDay bool) bool {
	return m.ok && m.sameDay == sameDay && m.start.Equal(start) && m.start.Location() == start.Location()
}

// dummyRail is the rail a dummy transaction stands for (its type: ACH,
// WIRE or INTERNAL_TRASFER), "" for every other transaction. A dummy's
// counterparty is the hidden network's EXTERNAL-US node, whose type names
// no rail, so the dummy's type picks the calendar: WIRE the wire's, the
// others the ACH's.
func (t *txRecord) dummyRail() string {
	if kind, _ := t.fromMeta["type"].(string); slices.Contains(dummyTypes, kind) {
		return kind
	}
	return ""
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// step is one scheduled automatic move.
type step struct {
	at   time.Time
	seq  uint64
	txID string
	gen  int
	to   Status
	code string // recent_status.code of the move: a card hold's expiry, or a planned return's or queue's code
	// credit: the step makes the provisional credit of txID's dispute
	// (disputes.go) rather than moving txID; to is SETTLED.
	credit bool
}

// stepQueue is a min-heap of steps by time, then by scheduling order.
type stepQueue []step

func (q stepQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q stepQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }

// push adds s, sifting it up; typed, so the step is not boxed as
// container/heap would box it.
func (q *stepQueue) push(s step) {
	if n := len(*q); n == cap(*q) && n >= 256 {
		// Double, where append grows a slice this large by about a
		// quarter and so allocates and copies about five steps for each
		// one pushed. A queue that empties lets its array go (runDue).
		*q = slices.Grow(*q, n)
	}
	*q = append(*q, s)
	h := *q
	for j := len(h) - 1; j > 0; {
		i := (j - 1) / 2
		if !h.Less(j, i) {
			break
		}
		h.Swap(i, j)
		j = i
	}
}

// pop removes and returns the first step, sifting the last one down.
func (q *stepQueue) pop() step {
	h := *q
	n := len(h) - 1
	h.Swap(0, n)
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j2 := j + 1; j2 < n && h.Less(j2, j) {
			j = j2
		}
		if !h.Less(j, i) {
			break
		}
		h.Swap(i, j)
		i = j
	}
	s := h[n]
	h[n] = step{}
	*q = h[:n]
	return s
}

// schedule queues the next automatic step of t, if processing is automatic
// and t is on the processing path. Callers hold mu.
func (st *Store) schedule(t *txRecord) {
	if st.manualProcessing {
		return
	}
	if t.card.holding(t.status) {
		st.scheduleExpiry(t) // a card hold waits for its clearing, not for the clock
		return
	}
	i := slices.Index(processingPath, t.status)
	if i < 0 || i == len(processingPath)-1 {
		return
	}
	next := processingPath[i+1]
	st.seq++
	st.steps.push(step{at: st.dueAt(t, next), seq: st.seq, txID: t.id, gen: t.gen, to: next})
}

// runDue applies every scheduled step due at or before now, in due order,
// each dated at its due time.
func (st *Store) runDue(now time.Time) {
	defer st.lock().unlock()
	st.runSteps(now)
}

// runSteps is runDue for callers that hold mu.
func (st *Store) runSteps(now time.Time) {
	if len(st.steps) == 0 || st.steps[0].at.After(now) {
		return
	}
	defer st.asBackend()()
	for len(st.steps) > 0 && !st.steps[0].at.After(now) {
		s := st.steps.pop()
		t := st.txs[s.txID]
		switch {
		case t == nil:
			continue
		case s.credit:
			st.postProvisionalCredit(t, s.at)
			continue
		case s.to == StatusReturned: // a planned return: whatever happened since, if still legal
			if !canMove(t.status, StatusReturned) {
				continue
			}
			if st.returnRefusal(t) != nil {
				st.comment(t, s.at, "Planned return "+s.code+" not made: transaction disputed.")
				continue
			}
			if t.dishonor != nil {
				st.comment(t, s.at, "Planned return "+s.code+" not made: an earlier return was dishonored.")
				continue
			}
		case t.gen != s.gen:
			continue
		}
		_ = st.move(t, s.to, s.at, "", s.code)
	}
	if len(st.steps) == 0 {
		st.steps = nil // let a burst's backing array go
	}
}

// move is the one place a transaction changes status: it checks the state
// machine, moves the money, appends the timeline entry and schedules what
// follows. Callers hold mu.
func (st *Store) move(t *txRecord, to Status, at time.Time, note, code string) error {
	// A dishonored return takes a RETURNED transaction back to SETTLED
	// (dishonor.go); no other move leaves RETURNED.
	dishonor := t.status == StatusReturned && to == StatusSettled && reference.ReturnSubjectOf(code) == reference.OfReturn
	if !canMove(t.status, to) && !dishonor {
		return errIllegalMove(t.status, to)
	}
	if to == StatusReturned {
		if err := st.returnRefusal(t); err != nil {
			return err
		}
		if err := dishonorRefusal(t, code); err != nil {
			return err
		}
	}
	from := st.nodes[t.fromNode]
	switch {
	case dishonor:
		if n := st.dishonorMisfit(t); n != nil {
			return errBalanceLimit(n.id)
		}
	case to == StatusProcessingDebit && !allowsDebit(from.allowed):
		to = StatusCanceled
		note = "Unable to settle transaction from " + from.id + ", since the node 'allowed' is " + from.allowed + "."
	case to == StatusSettled && st.settlementMisfit(t, 1) != nil:
		// A credit that would take a node past MaxBalanceCents is refused
		// by the receiver and the money goes back.
		to, code, note = StatusReturned, reference.ReturnCreditRefused, ""
	case to == StatusSettled && st.returnPlans[t.id] != (returnPlan{}):
		if s, c, ok := st.settlementPlan(t); ok {
			to, code, note = s, c, ""
		}
	case to == StatusReturned && t.credited:
		if n := st.settlementMisfit(t, -1); n != nil {
			return errBalanceLimit(n.id)
		}
	}
	st.recordMovements(t, to, at, code)
	if pendingDebit(t.status) && !pendingDebit(to) {
		from.pending -= t.amount
	}
	switch to {
	case StatusProcessingDebit:
		from.balance -= t.amount
		from.inflight += t.amount
	case StatusSettled:
		if dishonor {
			from.balance -= t.amount // the sender pays again
		} else {
			from.inflight -= t.amount
		}
		st.settle(t, 1)
		t.credited = true
	case StatusReturned:
		if t.credited {
			st.settle(t, -1)
			t.credited = false
		} else {
			from.inflight -= t.amount
		}
		from.balance += t.amount
	}
	if note == "" {
		note = defaultNote(to, code)
	}
	t.status = to
	t.code = code
	t.gen++
	t.timeline = append(t.timeline, statusEntry{Date: Ms(at), Note: note, Status: to})
	if to == StatusCreated {
		t.start = at
		if t.processOn.After(at) {
			t.start = t.processOn
		}
	}
	st.schedule(t)
	st.emitTx(at, "TRAN|PATCH", t)
	switch to {
	case StatusSettled:
		st.settledPlan(t, at)
	case StatusCanceled, StatusReturned:
		delete(st.returnPlans, t.id)
	}
	return nil
}

// pendingDebit reports whether a transaction in status s has promised its
// amount without the sender's debit: the amount is held on the sender's
// available balance.
func pendingDebit(s Status) bool { return s == StatusCreated || s.Queued() }

// settle credits (sign 1) or reverses (sign -1) the receiver's and the fee
// nodes' share of t. Callers hold mu.
func (st *Store) settle(t *txRecord, sign Cents) {
	st.nodes[t.toNode].balance += sign * (t.amount - t.feeTotal())
	for _, f := range t.fees {
		if f.toNode != "" {
			st.nodes[f.toNode].balance += sign * f.fee
		}
	}
}

// settlementMisfit returns the node that settle(t, sign), with the sender's
// side of the move, would take past the balance limits, or nil. Settling ends the
// sender's debit in flight, which lowers its ceiling by more than any fee it
// gets back; reversing a settled transaction refunds the sender. Callers
// hold mu.
func (st *Store) settlementMisfit(t *txRecord, sign Cents) *nodeRecord {
	from, recv := st.nodes[t.fromNode], st.nodes[t.toNode]
	net := sign * (t.amount - t.feeTotal())
	if !slices.ContainsFunc(t.fees, func(f feeRecord) bool { return f.toNode != "" }) {
		switch {
		case !recv.fits(net):
			return recv
		case sign < 0 && !from.fits(t.amount):
			return from
		}
		return nil
	}
	deltas := map[*nodeRecord]Cents{recv: net}
	if sign < 0 {
		deltas[from] = t.amount
	}
	for _, f := range t.fees {
		if f.toNode != "" {
			deltas[st.nodes[f.toNode]] += sign * f.fee
		}
	}
	for n, d := range deltas {
		if n == from && sign > 0 {
			continue
		}
		if !n.fits(d) {
			return n
		}
	}
	return nil
}

// defaultNote is the timeline note of a move: the code and its meaning when
// there is a code.
func defaultNote(to Status, code string) string {
	if code != "" {
		if m, ok := reference.CodeMeaning(code); ok {
			return code + ": " + m + "."
		}
		return code
	}
	switch to {
	case StatusCreated:
		// Creation writes its own entry; a later move into CREATED is a
		// release from a queue, by Release or AdvanceTransaction alike.
		return "Transaction released from queue."
	case StatusProcessingDebit:
		return "Processing debit."
	case StatusProcessingCredit:
		return "Processing credit."
	case StatusSettled:
		return "Transaction settled."
	case StatusCanceled:
		return "Transaction canceled."
	case StatusReturned:
		return "Transaction returned."
	default:
		return "Transaction queued."
	}
}

type amountView struct {
	Amount   Cents  `json:"amount"`
	Currency string `json:"currency"`
}

type feeView struct {
	Fee  Cents  `json:"fee"`
	Note string `json:"note"`
	To   struct {
		ID string `json:"id"`
	} `json:"to"`
}

type partyUser struct {
	ID         string   `json:"_id"`
	LegalNames []string `json:"legal_names"`
}

type partyView struct {
	ID       string         `json:"id"`
	Meta     map[string]any `json:"meta,omitempty"`
	Nickname string         `json:"nickname"`
	Type     string         `json:"type"`
	User     partyUser      `json:"user"`
}

type recentStatus struct {
	Code     *string `json:"code,omitempty"`
	Date     int64   `json:"date"`
	Note     string  `json:"note"`
	Status   Status  `json:"status"`
	StatusID string  `json:"status_id"`
}

type txExtraView struct {
	Asset           *string        `json:"asset"`
	CreatedOn       int64          `json:"created_on"`
	EncryptedNote   string         `json:"encrypted_note"`
	Filename        *string        `json:"filename"`
	GroupID         *string        `json:"group_id"`
	IP              string         `json:"ip"`
	Latlon          string         `json:"latlon"`
	Location        txLocation     `json:"location"`
	Note            string         `json:"note"`
	Other           map[string]any `json:"other"`
	ProcessOn       int64          `json:"process_on"`
	Rate            *float64       `json:"rate"`
	RateLimit       *float64       `json:"rate_limit"`
	SameDay         bool           `json:"same_day"`
	SettlementDelay int            `json:"settlement_delay"`
	SuppID          string         `json:"supp_id"`
	TrackingNumber  *string        `json:"tracking_number"`
	TxpMeta         txpMeta        `json:"txp_meta"`
}

// txLocation is extra.location: where the transaction was made. The fake
// has no such data and answers empty values.
type txLocation struct {
	AddressCity        string  `json:"address_city"`
	AddressCountryCode string  `json:"address_country_code"`
	AddressPostalCode  string  `json:"address_postal_code"`
	AddressSubdivision string  `json:"address_subdivision"`
	Lat                float64 `json:"lat"`
	Lon                float64 `json:"lon"`
}

// txpMeta is extra.txp_meta, tax payment data, empty in the fake.
type txpMeta struct {
	AmountTypes          []string  `json:"amount_types"`
	Amounts              []float64 `json:"amounts"`
	PaymentCode          string    `json:"payment_code"`
	TaxPeriodEndDate     string    `json:"tax_period_end_date"`
	TaxpayerVerification string    `json:"taxpayer_verification"`
	Tin                  string    `json:"tin"`
}

// TxView is a transaction as the API returns it.
type TxView struct {
	ID           string       `json:"_id"`
	Links        links        `json:"_links"`
	V            int          `json:"_v"`
	Amount       amountView   `json:"amount"`
	Client       ClientView   `json:"client"`
	Extra        txExtraView  `json:"extra"`
	Fees         []feeView    `json:"fees"`
	From         partyView    `json:"from"`
	RecentStatus recentStatus `json:"recent_status"`
	Timeline     []statusView `json:"timeline"`
	To           partyView    `json:"to"`
}

// party is one side of a transaction. A node or user that is gone (a
// webhook of a transaction from before Reset, read after it) shows its id.
func (st *Store) party(nodeID string, meta map[string]any) partyView {
	p := partyView{ID: nodeID, Meta: maps.Clone(meta), User: partyUser{LegalNames: []string{}}}
	n := st.nodes[nodeID]
	if n == nil {
		return p
	}
	p.Nickname, p.Type, p.User.ID = n.nickname, n.typ, n.userID
	if u := st.users[n.userID]; u != nil {
		p.User.LegalNames = shareList(u.legalNames) // never written in place
	}
	return p
}

// txView is a transaction as it is now.
func (st *Store) txView(t *txRecord) TxView { return st.txViewAt(t, t.timeline, t.code) }

// txViewAt is a transaction as it was when its timeline was timeline and
// its recent_status.code was code: what a webhook of that moment shows.
// Every other field of a transaction is fixed at creation.
func (st *Store) txViewAt(t *txRecord, timeline []statusEntry, code string) TxView {
	var v TxView
	st.fillTxView(&v, t, timeline, code)
	return v
}

// fillTxView sets v to txViewAt(t, timeline, code) in place: a view is
// large, and a request that answers one from a pool copies none.
func (st *Store) fillTxView(v *TxView, t *txRecord, timeline []statusEntry, code string) {
	fees := make([]feeView, len(t.fees))
	for i, f := range t.fees {
		fees[i] = feeView{Fee: f.fee, Note: f.note}
		fees[i].To.ID = f.toNode
		if f.toNode == "" {
			fees[i].To.ID = "None"
		}
	}
	rs := recentOf(timeline)
	if code != "" {
		rs.Code = &code
	}
	// t.other is never written in place: the view shows it as is unless
	// the dispute or the card adds keys to a copy.
	other := t.other
	if t.dispute != nil || t.card != nil {
		if other = maps.Clone(t.other); other == nil {
			other = map[string]any{}
		}
	} else if other == nil {
		other = noOther
	}
	if t.dispute != nil {
		t.dispute.show(st, t, other)
	}
	amount := t.amount
	if t.card != nil {
		amount = t.card.show(len(timeline), other)
	}
	linkNode := t.fromNode
	if n := st.nodes[linkNode]; n != nil && n.userID != t.userID {
		linkNode = t.toNode
	}
	// Field by field, so that no whole view is built aside and copied.
	v.ID = t.id
	v.Links = linkTo(st.base + "/users/" + t.userID + "/nodes/" + linkNode + "/trans/" + t.id)
	v.V = len(timeline) + 1
	v.Amount = amountView{Amount: amount, Currency: t.currency}
	v.Client = st.client
	v.Extra = txExtraView{CreatedOn: Ms(t.created), GroupID: t.groupID, IP: t.ip, Latlon: "0,0", Note: t.note,
		TxpMeta: txpMeta{AmountTypes: []string{}, Amounts: []float64{}},
		Other:   other, ProcessOn: Ms(t.processOn), SameDay: t.sameDay, SuppID: t.suppID}
	v.Fees = fees
	v.From = st.party(t.fromNode, t.fromMeta)
	v.RecentStatus = rs
	v.Timeline = timelineView(timeline)
	v.To = st.party(t.toNode, t.toMeta)
}

// recentOf is the recent_status of timeline: its last entry that is not a
// client's comment, its note followed by the comments made since, each
// after a space ("Transaction Created. first comment second comment"), as
// the provider's js wrapper's PATCH_COMMENT_ON_STATUS test read it.
func recentOf(timeline []statusEntry) recentStatus {
	i := len(timeline) - 1
	for i > 0 && timeline[i].Comment {
		i--
	}
	e := timeline[i]
	rs := recentStatus{Date: e.Date, Note: e.Note, Status: e.Status, StatusID: e.Status.ID()}
	if i < len(timeline)-1 {
		var b strings.Builder
		b.WriteString(e.Note)
		for _, c := range timeline[i+1:] {
			b.WriteByte(' ')
			b.WriteString(c.Note)
		}
		rs.Note = b.String()
	}
	return rs
}

func timelineView(timeline []statusEntry) []statusView {
	out := make([]statusView, len(timeline))
	for i, e := range timeline {
		out[i] = statusView{Date: e.Date, Note: e.Note, Status: e.Status, StatusID: e.Status.ID()}
	}
	return out
}

// Fee is documented at synapsefake.Fee.
type Fee struct {
	AmountCents int64
	Note        string
	// NodeID is the node credited with the fee on settlement, "" for none.
	NodeID string
}

// TimelineEntry is documented at synapsefake.TimelineEntry.
type TimelineEntry struct {
	Status Status
	Note   string
	Date   time.Time
}

// Transaction is documented at synapsefake.Transaction.
type Transaction struct {
	ID          string
	UserID      string // the sender
	FromNodeID  string
	ToNodeID    string
	AmountCents int64
	Currency    string
	Fees        []Fee
	Status      Status
	// Code is recent_status.code: the return, decline, queue or cancel code.
	Code      string
	Timeline  []TimelineEntry
	Note      string
	SuppID    string
	SameDay   bool
	CreatedOn time.Time
	ProcessOn time.Time
	// Dispute is the state of the transaction's dispute, DisputeNone when
	// nobody disputed it.
	Dispute DisputeStatus
	// DisputeCreditID is the transaction that gave the disputed money back
	// (a provisional credit or a won dispute's credit), "" when none did.
	DisputeCreditID string
	// AuthorizedCents is, for a card authorization that was held
	// (CardAuth.Hold), incremented, reversed or cleared, the amount
	// authorized: the swipe's, plus increments, less partial reversals;
	// AmountCents differs from it once it is cleared for another amount.
	// 0 for other transactions, force posts included.
	AuthorizedCents int64
	// HoldExpires is when a held card authorization (CardAuth.Hold) lapses
	// if it is neither cleared nor reversed; zero for other transactions.
	HoldExpires time.Time
}

func (t *txRecord) public() Transaction {
	fees := make([]Fee, len(t.fees))
	for i, f := range t.fees {
		fees[i] = Fee{AmountCents: int64(f.fee), Note: f.note, NodeID: f.toNode}
	}
	tl := make([]TimelineEntry, len(t.timeline))
	for i, e := range t.timeline {
		tl[i] = TimelineEntry{Status: e.Status, Note: e.Note, Date: time.UnixMilli(e.Date).UTC()}
	}
	pub := Transaction{ID: t.id, UserID: t.userID, FromNodeID: t.fromNode, ToNodeID: t.toNode,
		AmountCents: int64(t.amount), Currency: t.currency, Fees: fees, Status: t.status, Code: t.code,
		Timeline: tl, Note: t.note, SuppID: t.suppID, SameDay: t.sameDay, CreatedOn: t.created, ProcessOn: t.processOn}
	if d := t.dispute; d != nil {
		pub.Dispute, pub.DisputeCreditID = d.status, d.creditID
	}
	if c := t.card; c != nil {
		pub.AuthorizedCents, pub.HoldExpires = int64(c.authorized), c.expires
	}
	return pub
}

// createTx creates a transaction from node nodeID of user userID. With
// checkBalance (WithFundsCheck, and a world's transactions), a deposit-type
// sender's available balance must cover the amount; without, the sender's
// balance may go negative when it is debited. The API's callers apply the
// return rules afterwards; a world's transactions take none. enf takes or
// refuses the contract's rules the sandbox took (nil takes them). Callers
// hold mu.
func (st *Store) createTx(now time.Time, userID, nodeID string, req CreateTxRequest, checkBalance bool, enf Enforcer) (*txRecord, error) {
	from, err := st.userNode(userID, nodeID)
	if err != nil {
		return nil, err
	}
	if !from.isActive {
		return nil, apierr.NotAllowed("node_inactive", "Node %s is deleted.", nodeID)
	}
	to := st.nodes[*req.To.ID]
	if to == nil {
		return nil, apierr.NotFound("node").Because("no node %s (to.id) in this fake", *req.To.ID)
	}
	if !to.isActive {
		return nil, apierr.Incorrect("receiver_inactive", "Node %s is deleted.", to.id)
	}
	if !sameNodeType(to.typ, *req.To.Type) {
		err := apierr.Incorrect("node_type_mismatch", "Node %s is of type %s, not %s.", to.id, to.typ, *req.To.Type)
		if err := enf.Enforce(BrokenRule{ruleToType, err}); err != nil {
			return nil, err
		}
	}
	if !reference.CanTransfer(from.typ, to.typ) && !bankToBank(from, to) {
		return nil, apierr.Incorrect("transaction_not_allowed", "Transactions from a %s node to a %s node are not allowed.", from.typ, to.typ)
	}
	if to.id == from.id {
		return nil, apierr.Incorrect("same_node", "A transaction needs two different nodes.")
	}
	if *req.Amount.Currency != "USD" {
		return nil, apierr.Incorrect("unsupported_currency", "Currency %s is not supported; use USD.", *req.Amount.Currency)
	}
	for _, n := range []*nodeRecord{from, to} {
		if err := st.userOpen(n); err != nil {
			return nil, err
		}
	}
	amount := ToCents(*req.Amount.Amount)
	fees := defaultFees[:1:1] // shared: no transaction's fees are written in place
	if len(req.Fees) > 0 {
		fees = make([]feeRecord, 0, len(req.Fees))
		for _, f := range req.Fees {
			fn := st.nodes[*f.To.ID]
			if fn == nil || reference.BaseNodeType(fn.typ) != reference.NodeDepositUS || !fn.isActive {
				return nil, apierr.Incorrect("invalid_fee_node", "Fee node %s must be an active DEPOSIT-US node.", *f.To.ID)
			}
			if err := st.userOpen(fn); err != nil { // a fee reaches its node as to does
				return nil, err
			}
			fees = append(fees, feeRecord{fee: ToCents(*f.Fee), note: f.Note, toNode: fn.id})
		}
	}
	// The request's strings may be cut from one copy of its whole body
	// (the wire's decodeFast): the record keeps copies, so that it does
	// not keep the body.
	groupID := req.Extra.GroupID
	if groupID != nil {
		g := strings.Clone(*groupID)
		groupID = &g
	}
	t := &txRecord{userID: from.userID, fromNode: from.id, toNode: to.id, amount: amount,
		currency: "USD", fees: fees, ip: strings.Clone(*req.Extra.IP), note: strings.Clone(req.Extra.Note),
		suppID: strings.Clone(req.Extra.SuppID), groupID: groupID, sameDay: req.Extra.SameDay,
		created: now, processOn: now, status: StatusCreated}
	if t.feeTotal() > amount {
		return nil, apierr.Incorrect("fees_exceed_amount", "Fees exceed the transaction amount.")
	}
	if err := st.checkPromise(t, checkBalance); err != nil {
		return nil, err
	}
	t.id = st.newID() // after the checks: a refused create draws no id
	if p := req.Extra.ProcessOn; p != nil && *p > 0 {
		t.processOn = now.Add(time.Duration(*p) * 24 * time.Hour)
	}
	if o := req.Extra.Other; o != nil && o.Attachments != nil {
		t.other = map[string]any{"attachments": o.Attachments}
	}
	t.start = t.processOn
	st.addTx(t, statusEntry{Date: Ms(now), Note: "Transaction Created.", Status: StatusCreated})
	return t, nil
}

// noOther is the extra.other of a view of a transaction with none: {}.
// Shared, so never written.
var noOther = map[string]any{}

// defaultFees is the fees of a transaction sent without any: the
// facilitator's fee of 0.
var defaultFees = []feeRecord{{note: "Facilitator Fee"}}

// bankToBank reports whether from may send to to as one bank account to
// another, the pair the provider's integration suites moved money on: both
// ACH-US, the sender verified (linked by bank login or its micro deposits
// confirmed) and allowed to debit. An unverified sender is refused.
func bankToBank(from, to *nodeRecord) bool {
	return from.typ == reference.NodeACHUS && to.typ == reference.NodeACHUS &&
		!from.microPending && allowsDebit(from.allowed)
}

// checkPromise checks that a new transaction t fits the money rules: with
// checkFunds, a deposit-type sender's available balance covers the amount
// (insufficient_funds); in any case the sender's available balance stays at
// or above -MaxBalanceCents and the receiver and fee nodes can take their
// credit (balance_limit). Callers hold mu.
func (st *Store) checkPromise(t *txRecord, checkFunds bool) error {
	from := st.nodes[t.fromNode]
	if checkFunds && reference.IsDepositType(from.typ) && t.amount > from.available() {
		return st.insufficientFunds(from, t.amount)
	}
	if !from.fits(-t.amount) {
		return errBalanceLimit(from.id)
	}
	if n := st.settlementMisfit(t, 1); n != nil {
		return errBalanceLimit(n.id)
	}
	return nil
}

// maxFundingHintScan bounds how many of a node's newest transactions
// insufficientFunds reads for an unsettled dummy credit.
const maxFundingHintScan = 100

// insufficientFunds refuses a debit over from's available balance. When one
// of from's newest transactions is a dummy credit still on its way (under a
// manual clock it waits for Advance or Settle: the trap of funding a node
// from another language), the message says so. Callers hold mu.
func (st *Store) insufficientFunds(from *nodeRecord, amount Cents) *apierr.Error {
	err := errInsufficientFunds(from.id).Because("%s", st.shortfall(from, amount)).Hinting(hintFunds)
	for i := len(from.txIDs) - 1; i >= max(0, len(from.txIDs)-maxFundingHintScan); i-- {
		t := st.txs[from.txIDs[i]]
		kind, _ := t.fromMeta["type"].(string)
		if t.toNode != from.id || !slices.Contains(dummyTypes, kind) ||
			t.status == StatusSettled || t.status == StatusCanceled || t.status == StatusReturned {
			continue
		}
		err.Message += fmt.Sprintf(" The incoming dummy transaction %s (%s USD) is still %s: advance the clock or settle it "+
			"(POST /_fake/clock/advance or /_fake/transactions/%s/settle; Advance or Settle in Go), "+
			"or fund the node (POST /_fake/nodes/%s/fund).", t.id, Fixed2(t.amount), t.status, t.id, from.id)
		break
	}
	return err
}

// addTx stores a new transaction with its first timeline entry, indexes it,
// holds its amount on the sender's available balance and schedules its
// processing. Callers hold mu.
func (st *Store) addTx(t *txRecord, first statusEntry) {
	// Room for the processing path's four entries, so that the events of
	// a transaction share one backing array.
	t.timeline = append(make([]statusEntry, 0, len(processingPath)), first)
	st.txs[t.id] = t
	st.txOrder = append(st.txOrder, t.id)
	from, to := st.nodes[t.fromNode], st.nodes[t.toNode]
	from.pending += t.amount
	from.txIDs = append(from.txIDs, t.id)
	to.txIDs = append(to.txIDs, t.id)
	st.users[from.userID].txIDs = append(st.users[from.userID].txIDs, t.id)
	if to.userID != from.userID {
		st.users[to.userID].txIDs = append(st.users[to.userID].txIDs, t.id)
	}
	st.schedule(t)
	st.emitTx(t.created, "TRANS|POST", t)
}

// batch creates each valid item; a refused item is reported by its index
// and does not stop the others. enf takes or refuses the contract's rules
// the sandbox took, item by item.
func (st *Store) batch(now time.Time, clientID, scope, userID, nodeID string, items []CreateTxRequest, enf Enforcer) (batchResponse, error) {
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return batchResponse{}, err
	}
	if err := st.userOpen(n); err != nil {
		return batchResponse{}, err
	}
	out := batchResponse{ErrorCode: "0", HTTPCode: "200", Limit: MaxBatch, Page: 1, PageCount: 1, Success: true,
		Errors: []batchItemError{}, Trans: []TxView{}}
	for i, item := range items {
		err := item.Validate()
		if err == nil {
			err = enf.Enforce(item.BrokenRule())
		}
		key := ""
		if err == nil && item.Extra.IdempotencyKey != "" {
			key = IdemKey(clientID, scope, item.Extra.IdempotencyKey)
			if st.idemUsed(key, now) {
				err = ErrIdempotency
			}
		}
		var t *txRecord
		if err == nil {
			t, err = st.createTx(now, userID, nodeID, item, false, enf)
		}
		if err != nil {
			env := EnvelopeOf(err.(*apierr.Error))
			out.Errors = append(out.Errors, batchItemError{Index: i, Error: env.Error, ErrorCode: env.ErrorCode, HTTPCode: env.HTTPCode})
			continue
		}
		st.applyReturnRules(t) // returns.go: API transfers only
		st.holdForKYC(t, now)
		if key != "" {
			st.useIdem(key, now)
		}
		out.Trans = append(out.Trans, st.txView(t))
	}
	out.TransCount = len(out.Trans)
	return out, nil
}

// nodeTx finds a transaction on a node of a user: 404 when unknown or not
// on the node, 401 / "300" when it is another user's. Callers hold mu.
func (st *Store) nodeTx(userID, nodeID, txID string) (*txRecord, error) {
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return nil, err
	}
	t := st.txs[txID]
	if t == nil {
		return nil, apierr.NotFound("transaction").Because("no transaction %s in this fake", txID)
	}
	if t.fromNode != n.id && t.toNode != n.id {
		from, to := st.nodes[t.fromNode], st.nodes[t.toNode]
		if from.userID != userID && to.userID != userID {
			return nil, apierr.Unauthorized("unauthorized_transaction", "Transaction %s does not belong to user %s.", txID, userID).
				Because("transaction %s is from user %s's node %s to user %s's node %s, none of them user %s's", txID, from.userID, from.id, to.userID, to.id, userID).
				Hinting("read a transaction under its sender's or its receiver's path")
		}
		return nil, apierr.NotFound("transaction").Because("transaction %s is from node %s to node %s, not on node %s", txID, from.id, to.id, n.id).
			Hinting("read a transaction under its sender's or its receiver's node")
	}
	return t, nil
}

// comment appends a note under the current status. Callers hold mu.
func (st *Store) comment(t *txRecord, at time.Time, note string) {
	t.timeline = append(t.timeline, statusEntry{Date: Ms(at), Note: note, Status: t.status})
	st.emitTx(at, "TRAN|PATCH", t)
}

// addComment takes a client's comment, up to MaxComments of them. Callers
// hold mu.
func (st *Store) addComment(t *txRecord, at time.Time, note string) error {
	if t.comments >= MaxComments {
		return apierr.NotAllowed("too_many_comments", "Transaction %s already has %d comments, the most it takes.", t.id, MaxComments)
	}
	t.comments++
	t.timeline = append(t.timeline, statusEntry{Date: Ms(at), Note: note, Status: t.status, Comment: true})
	st.emitTx(at, "TRAN|PATCH", t)
	return nil
}

// cancel cancels a CREATED or queued transaction. Callers hold mu.
func (st *Store) cancel(t *txRecord, at time.Time, code string) error {
	if !canMove(t.status, StatusCanceled) {
		return apierr.NotAllowed("cannot_cancel_transaction", "Transaction in status %s cannot be canceled.", t.status)
	}
	return st.move(t, StatusCanceled, at, "", code)
}

// RecentStatus is a transaction's recent_status as the API shows it: its
// newest status that is not a client's comment, with that status's date, its
// note followed by the comments made since, and the return, decline, queue
// or cancel code.
type RecentStatus = recentStatus

// TransactionRecent returns a copy of a transaction, its recent_status as
// the API shows it, read together, and whether the transaction exists.
func (s *Bank) TransactionRecent(id string) (Transaction, RecentStatus, bool) {
	st := s.store
	defer st.lock().unlock()
	t := st.txs[id]
	if t == nil {
		return Transaction{}, RecentStatus{}, false
	}
	return t.public(), st.txViewRecent(t), true
}

// txViewRecent is t's recent_status as txView shows it. Callers hold mu.
func (st *Store) txViewRecent(t *txRecord) RecentStatus {
	rs := recentOf(t.timeline)
	if t.code != "" {
		code := t.code
		rs.Code = &code
	}
	return rs
}

// Transaction is documented at synapsefake.Server.Transaction.
func (s *Bank) Transaction(id string) (Transaction, bool) {
	st := s.store
	defer st.lock().unlock()
	t := st.txs[id]
	if t == nil {
		return Transaction{}, false
	}
	return t.public(), true
}
