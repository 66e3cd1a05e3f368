// Statements, the bank's side: the ledger and a statement's periods and figures.

package bank

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"iter"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// Statement types and statuses, spelled as on the wire.
const (
	// StatementMonthly is documented at synapsefake.StatementMonthly.
	StatementMonthly = "MONTHLY_STATEMENT"
	// StatementOnDemand is documented at synapsefake.StatementOnDemand.
	StatementOnDemand = "ONDEMAND_STATEMENT"

	// StatementQueued is documented at synapsefake.StatementQueued.
	StatementQueued = "QUEUED"
	// StatementGenerated is documented at synapsefake.StatementGenerated.
	StatementGenerated = "GENERATED"
)

// Kinds of a statement's movements.
const (
	MovementInitial = "INITIAL" // the balance a node was created with (AddNode)
	MovementDebit   = "DEBIT"   // the sender's debit, at PROCESSING-DEBIT (again at SETTLED when a return is dishonored)
	MovementCredit  = "CREDIT"  // the receiver's credit net of fees, at SETTLED
	MovementFee     = "FEE"     // a fee credited to a fee node, at SETTLED
	MovementReturn  = "RETURN"  // a return's reversal of the above, at RETURNED
	MovementFunds   = "FUNDS"   // money added by Fund, outside any transaction
)

// statementFiles are the file names a generated statement is served under.
var statementFiles = []string{"statement.csv", "statement.json", "statement.pdf"}

// movement is one change of a deposit-type node's balance, recorded by move.
type movement struct {
	date   time.Time
	txID   string
	kind   string
	desc   string
	amount Cents // signed
}

// ledgerEntry is a movement in its node's ledger.
type ledgerEntry struct {
	movement
	seq int // how many movements of the node were recorded before this one
}

// ledgerChunk is how many entries a chunk of a ledger holds: a power of
// two, so that finding an entry is a shift and a mask. 256 entries are
// 22 KiB, an allocation of the runtime's small size classes.
const ledgerChunk = 256

// ledger is a node's movements ordered by date, those of one date in
// recording order, kept in chunks of ledgerChunk entries: every chunk but
// the last is full. A long ledger grows by a new chunk, never by copying
// its entries into a larger array as a slice does (a copy that grows with
// the store, paid by whichever request records the movement), and a
// movement dated before the last ones shifts only the entries after it.
// Only a chunk made short of capacity grows as a slice does, up to a
// chunk: the first, so that a short ledger costs what a slice would, and
// the last of a restored one. The zero value is an empty ledger. The
// saved state holds a ledger as the flat array of its entries
// (encodeLedger).
type ledger struct {
	chunks [][]ledgerEntry
}

// len is how many entries l holds.
func (l ledger) len() int {
	k := len(l.chunks)
	if k == 0 {
		return 0
	}
	return (k-1)*ledgerChunk + len(l.chunks[k-1])
}

// at is the entry at index i, 0 <= i < l.len().
func (l ledger) at(i int) *ledgerEntry {
	return &l.chunks[i/ledgerChunk][i%ledgerChunk]
}

// push appends e, in a new chunk if the last is full.
func (l *ledger) push(e ledgerEntry) {
	k := len(l.chunks)
	if k == 0 || len(l.chunks[k-1]) == ledgerChunk {
		var c []ledgerEntry // the first chunk grows with its ledger
		if k > 0 {
			c = make([]ledgerEntry, 0, ledgerChunk)
		}
		l.chunks = append(l.chunks, c)
		k++
	}
	l.chunks[k-1] = append(l.chunks[k-1], e)
}

// add records m after the entries dated up to m's date and before those
// dated later; its seq is the number of entries recorded before.
func (l *ledger) add(m movement) {
	n := l.len()
	e := ledgerEntry{m, n}
	i := n
	for i > 0 && l.at(i-1).date.After(m.date) {
		i--
	}
	l.push(e)
	if i == n {
		return
	}
	// Shift the entries from i one place up, from the last chunk down:
	// within a chunk they move up, and the last entry of the chunk below
	// moves into its first place.
	for c := n / ledgerChunk; ; c-- {
		ch := l.chunks[c]
		if j := i - c*ledgerChunk; j >= 0 {
			copy(ch[j+1:], ch[j:])
			ch[j] = e
			return
		}
		copy(ch[1:], ch)
		ch[0] = l.chunks[c-1][ledgerChunk-1]
	}
}

// entries yields pointers to the entries from index lo up to hi
// (excluded), in order. They are the ledger's own: callers do not change
// them.
func (l ledger) entries(lo, hi int) iter.Seq[*ledgerEntry] {
	return func(yield func(*ledgerEntry) bool) {
		for lo < hi {
			j := lo % ledgerChunk
			part := l.chunks[lo/ledgerChunk][j:]
			part = part[:min(len(part), hi-lo)]
			for k := range part {
				if !yield(&part[k]) {
					return
				}
			}
			lo += len(part)
		}
	}
}

// period is the index range [lo, hi) of the entries dated from start to
// end, both inclusive.
func (l ledger) period(start, end time.Time) (lo, hi int) {
	n := l.len()
	lo = sort.Search(n, func(i int) bool { return !l.at(i).date.Before(start) })
	hi = lo + sort.Search(n-lo, func(i int) bool { return l.at(lo + i).date.After(end) })
	return lo, hi
}

// ledgerOf is the ledger of the entries of flat, in their order; the
// zero ledger for a nil flat. Its chunks are flat's memory, not a copy.
func ledgerOf(flat []ledgerEntry) ledger {
	if flat == nil {
		return ledger{}
	}
	l := ledger{chunks: make([][]ledgerEntry, 0, (len(flat)+ledgerChunk-1)/ledgerChunk)}
	for len(flat) > 0 {
		k := min(len(flat), ledgerChunk)
		l.chunks = append(l.chunks, flat[:k:k])
		flat = flat[k:]
	}
	return l
}

// ledgerType is the type state.go saves and restores through
// encodeLedger, decodeLedger and clone instead of field by field.
var ledgerType = reflect.TypeFor[ledger]()

// encodeLedger writes l as the saved state has always held a ledger: the
// flat array of its entries, null for a nil one.
func encodeLedger(buf *bytes.Buffer, l ledger) error {
	if l.chunks == nil {
		buf.WriteString("null")
		return nil
	}
	buf.WriteByte('[')
	for i, ch := range l.chunks {
		v := reflect.ValueOf(ch)
		for j := range v.Len() {
			if i > 0 || j > 0 {
				buf.WriteByte(',')
			}
			if err := EncodeValue(buf, v.Index(j)); err != nil {
				return err
			}
		}
	}
	buf.WriteByte(']')
	return nil
}

// decodeLedger reads what encodeLedger wrote into v, a ledger that can
// be set.
func decodeLedger(data []byte, v reflect.Value) error {
	var flat []ledgerEntry
	if err := DecodeValue(data, reflect.ValueOf(&flat).Elem()); err != nil {
		return err
	}
	v.Set(reflect.ValueOf(ledgerOf(flat)))
	return nil
}

// clone is a copy of l that shares no memory with it. Entries hold only
// times, strings and numbers, which cannot change, so copying them is
// copying them deep (TestLedgerEntryIsFlat).
func (l ledger) clone() ledger {
	if l.chunks == nil {
		return ledger{}
	}
	flat := make([]ledgerEntry, 0, l.len())
	for _, ch := range l.chunks {
		flat = append(flat, ch...)
	}
	return ledgerOf(flat)
}

// statementLine is a movement of a statement with the balance after it.
type statementLine struct {
	movement
	balance Cents
}

type statementRecord struct {
	id      string
	nodeID  string
	userID  string
	typ     string
	status  string
	start   time.Time // first millisecond of the period
	end     time.Time // last millisecond of the period, inclusive
	created time.Time
	webhook string // ad hoc statements only; "" for none

	// Set on generation. A statement keeps no lines: they are read from
	// the node's ledger, as it stood at generation, when it is rendered.
	generated time.Time
	opening   Cents
	ending    Cents
	initial   Cents // the node's starting balance, shown dated at its creation; 0 for none
	recorded  int   // movements of the node recorded by generation; later ones are not shown
}

// statementBook holds the balance ledger of deposit-type nodes and every
// statement. Its zero value is ready; it is guarded by the store's mu.
type statementBook struct {
	// ledger holds each node's movements ordered by date, those of one
	// date in recording order. It only grows: statements read their lines
	// from it.
	ledger  map[string]ledger
	byID    map[string]*statementRecord
	byNode  map[string][]string // node id -> statement ids, creation order
	byUser  map[string][]string // user id -> statement ids, creation order
	pending []string            // queued ad hoc statements, creation order
	// checked is the last 15th (00:00 UTC) whose monthly statements were made.
	checked time.Time
}

// nextDue is when, in Unix milliseconds, statementsDue first has work:
// an ad hoc statement made after the instant it was asked for, or the
// monthly statements of the first 15th after checked (before the first
// look, first: see store.firstMonthly). monthly caches the latter for a
// checked. Callers hold mu.
func (b *statementBook) nextDue(monthly *dueMonthly, first int64) int64 {
	var due int64
	switch {
	case !b.checked.IsZero():
		if !monthly.checked.Equal(b.checked) {
			c := b.checked.UTC()
			next := time.Date(c.Year(), c.Month(), 15, 0, 0, 0, 0, time.UTC)
			if !next.After(c) {
				next = time.Date(c.Year(), c.Month()+1, 15, 0, 0, 0, 0, time.UTC)
			}
			*monthly = dueMonthly{b.checked, ceilMs(next)}
		}
		due = monthly.at
	default:
		due = first
	}
	for _, id := range b.pending {
		rec := b.byID[id]
		if rec == nil {
			return math.MinInt64
		}
		due = min(due, ceilMs(rec.created.Add(time.Nanosecond)))
	}
	return due
}

// firstMonthlyOf is store.firstMonthly for nodes, before the first look.
func firstMonthlyOf(nodes map[string]*nodeRecord) int64 {
	first := int64(math.MaxInt64)
	for _, n := range nodes {
		first = min(first, firstMonthlyAfter(n.created))
	}
	return first
}

// firstMonthlyAfter is the first 15th (00:00 UTC, in Unix ms) whose
// monthly statements hold a node created at t: the one after t's month.
func firstMonthlyAfter(t time.Time) int64 {
	u := t.UTC()
	return time.Date(u.Year(), u.Month()+1, 15, 0, 0, 0, 0, time.UTC).UnixMilli()
}

// dueMonthly is when the monthly statements after checked fall due, in
// Unix milliseconds.
type dueMonthly struct {
	checked time.Time
	at      int64
}

// recordMovements writes to the ledger what move's money switch for status
// to is about to do to the deposit-type nodes of t. move calls it just
// before that switch, once the status is final and before the balances and
// t.credited change, so the two must be kept in step. Callers hold mu.
func (st *Store) recordMovements(t *txRecord, to Status, at time.Time, code string) {
	from, recv := st.nodes[t.fromNode], st.nodes[t.toNode]
	switch to {
	case StatusProcessingDebit:
		st.addMovement(from, movement{at, t.id, MovementDebit, "Transfer to " + st.partyName(t, recv) + noteSuffix(t.note), -t.amount})
	case StatusSettled:
		if t.status == StatusReturned { // a dishonored return: the sender pays again
			st.addMovement(from, movement{at, t.id, MovementDebit, "Return dishonored (" + code + "): transfer to " + st.partyName(t, recv) + noteSuffix(t.note), -t.amount})
		}
		st.addMovement(recv, movement{at, t.id, MovementCredit, "Transfer from " + st.partyName(t, from) + noteSuffix(t.note), t.amount - t.feeTotal()})
		for _, f := range t.fees {
			if f.toNode != "" {
				st.addMovement(st.nodes[f.toNode], movement{at, t.id, MovementFee, "Fee: " + feeNote(f), f.fee})
			}
		}
	case StatusReturned:
		ret := "Return"
		if code != "" {
			ret += " " + code
		}
		if t.credited {
			st.addMovement(recv, movement{at, t.id, MovementReturn, ret + ": reversal of transfer from " + st.partyName(t, from), -(t.amount - t.feeTotal())})
			for _, f := range t.fees {
				if f.toNode != "" {
					st.addMovement(st.nodes[f.toNode], movement{at, t.id, MovementReturn, ret + ": reversal of fee " + feeNote(f), -f.fee})
				}
			}
		}
		st.addMovement(from, movement{at, t.id, MovementReturn, ret + ": refund of transfer to " + st.partyName(t, recv), t.amount})
	}
}

// addMovement appends m to n's ledger if n is a deposit-type node and m
// moves money. Callers hold mu.
func (st *Store) addMovement(n *nodeRecord, m movement) {
	if n == nil || m.amount == 0 || !reference.IsDepositType(n.typ) {
		return
	}
	b := &st.book
	if b.ledger == nil {
		b.ledger = make(map[string]ledger)
	}
	m.date = m.date.UTC()
	l := b.ledger[n.id]
	l.add(m)
	b.ledger[n.id] = l
}

// partyName names the other side of t: the company of a dummy transaction
// for the hidden network node, else the node's nickname.
func (st *Store) partyName(t *txRecord, n *nodeRecord) string {
	if st.networkUser != nil && n.userID == st.networkUser.id {
		if name, _ := t.fromMeta["name"].(string); name != "" {
			return name
		}
	}
	return n.nickname
}

func noteSuffix(note string) string {
	if note == "" {
		return ""
	}
	return " - " + note
}

func feeNote(f feeRecord) string {
	if f.note == "" {
		return "Fee"
	}
	return f.note
}

// newStatement stores a statement of node n for the period [start, end],
// both inclusive, and indexes it. Callers hold mu.
func (st *Store) newStatement(now time.Time, n *nodeRecord, typ string, start, end time.Time) *statementRecord {
	b := &st.book
	if b.byID == nil {
		b.byID = make(map[string]*statementRecord)
		b.byNode = make(map[string][]string)
		b.byUser = make(map[string][]string)
	}
	rec := &statementRecord{id: st.newID(), nodeID: n.id, userID: n.userID, typ: typ, status: StatementQueued,
		start: start.UTC(), end: end.UTC(), created: now}
	b.byID[rec.id] = rec
	b.byNode[n.id] = append(b.byNode[n.id], rec.id)
	b.byUser[n.userID] = append(b.byUser[n.userID], rec.id)
	return rec
}

// generate computes a statement from the node's ledger: the balance at the
// start of the period and at its end. The node's starting balance
// (NodeSeed.BalanceCents) is a movement dated at the node's creation, ahead
// of the movements of that instant. Callers hold mu.
func (st *Store) generate(rec *statementRecord, now time.Time) {
	n := st.nodes[rec.nodeID]
	all := st.book.ledger[n.id]
	rec.initial = n.balance
	for e := range all.entries(0, all.len()) {
		rec.initial -= e.amount
	}
	rec.recorded = all.len()
	rec.opening, rec.ending = 0, 0
	for m := range st.movements(rec, false) {
		if m.date.After(rec.end) {
			break
		}
		rec.ending += m.amount
		if m.date.Before(rec.start) {
			rec.opening += m.amount
		}
	}
	rec.status = StatementGenerated
	rec.generated = now
}

// movements yields, in date order, the movements of rec's node recorded
// by rec's generation, the starting balance among them: all of them, or
// with inPeriod only those of rec's period. Callers hold mu.
func (st *Store) movements(rec *statementRecord, inPeriod bool) iter.Seq[movement] {
	return func(yield func(movement) bool) {
		initial := movement{kind: MovementInitial, desc: "Initial balance (account opened)", amount: rec.initial}
		pending := rec.initial != 0 // the starting balance is still to come
		if n := st.nodes[rec.nodeID]; n != nil {
			initial.date = n.created.UTC()
		} else {
			pending = false
		}
		l := st.book.ledger[rec.nodeID]
		lo, hi := 0, l.len()
		if inPeriod {
			lo, hi = st.inPeriod(rec)
			pending = pending && !initial.date.Before(rec.start) && !initial.date.After(rec.end)
		}
		for e := range l.entries(lo, hi) {
			if e.seq >= rec.recorded {
				continue
			}
			if pending && !e.date.Before(initial.date) {
				pending = false
				if !yield(initial) {
					return
				}
			}
			if !yield(e.movement) {
				return
			}
		}
		if pending {
			yield(initial)
		}
	}
}

// inPeriod is the index range [lo, hi) of the entries of the ledger of
// rec's node dated within rec's period. Callers hold mu.
func (st *Store) inPeriod(rec *statementRecord) (lo, hi int) {
	return st.book.ledger[rec.nodeID].period(rec.start, rec.end)
}

// statementLines are the movements of rec's period with the balance after
// each. Callers hold mu.
func (st *Store) statementLines(rec *statementRecord) []statementLine {
	var lines []statementLine
	if rec.status == StatementGenerated {
		lo, hi := st.inPeriod(rec)
		lines = make([]statementLine, 0, hi-lo+1)
	}
	bal := rec.opening
	for m := range st.movements(rec, true) {
		bal += m.amount
		lines = append(lines, statementLine{movement: m, balance: bal})
	}
	if len(lines) == 0 {
		return nil
	}
	return lines
}

// statementsDue generates the statements that fell due by now: the
// monthly statements of every 15th passed since the last run, and the
// queued ad hoc statements made before now. Callers hold mu.
func (st *Store) statementsDue(now time.Time) {
	b := &st.book
	u := now.UTC()
	due := time.Date(u.Year(), u.Month(), 15, 0, 0, 0, 0, time.UTC)
	if u.Before(due) {
		due = due.AddDate(0, -1, 0)
	}
	monthly := due.After(b.checked) &&
		(!b.checked.IsZero() || now.UnixMilli() >= st.firstMonthly)
	if len(b.pending) == 0 && !monthly {
		return
	}
	defer st.asBackend()()
	if monthly {
		st.monthlyStatements(due)
		b.checked = due
	}
	kept := b.pending[:0]
	for _, id := range b.pending {
		rec := b.byID[id]
		if st.nodes[rec.nodeID] == nil {
			continue // forgotten by Reset
		}
		if !rec.created.Before(now) {
			kept = append(kept, id)
			continue
		}
		st.generate(rec, now)
		st.emitStatement(now, rec)
	}
	clear(b.pending[len(kept):])
	b.pending = kept
}

// MaxMonthlyStatements is documented at synapsefake.MaxMonthlyStatements.
const MaxMonthlyStatements = 60

// monthlyStatements makes, for every 15th after b.checked up to due, a
// statement of the previous month for every active deposit-type node created
// before that month's end, dated at the 15th, skipping the 15ths whose
// statements would be forgotten at once (MaxMonthlyStatements). Callers
// hold mu.
func (st *Store) monthlyStatements(due time.Time) {
	b := &st.book
	var nodes []*nodeRecord
	for _, uid := range st.userOrder {
		for _, nid := range st.users[uid].nodeIDs {
			if n := st.nodes[nid]; n.isActive && reference.IsDepositType(n.typ) {
				nodes = append(nodes, n)
			}
		}
	}
	if len(nodes) == 0 {
		return
	}
	var first time.Time // the first 15th to look at
	if b.checked.IsZero() {
		earliest := nodes[0].created
		for _, n := range nodes {
			if n.created.Before(earliest) {
				earliest = n.created
			}
		}
		first = time.UnixMilli(firstMonthlyAfter(earliest)).UTC()
	} else {
		first = b.checked.AddDate(0, 1, 0)
	}
	if oldest := due.AddDate(0, 1-MaxMonthlyStatements, 0); first.Before(oldest) {
		first = oldest
	}
	made := false
	for at := first; !at.After(due); at = at.AddDate(0, 1, 0) {
		end := time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC)
		start := end.AddDate(0, -1, 0)
		for _, n := range nodes {
			if n.created.Before(end) {
				st.generate(st.newStatement(at, n, StatementMonthly, start, end.Add(-time.Millisecond)), at)
				made = true
			}
		}
	}
	if made { // only a new statement puts a node over MaxMonthlyStatements
		st.forgetOldStatements(nodes)
	}
}

// forgetOldStatements forgets the monthly statements of nodes past each
// node's newest MaxMonthlyStatements. Callers hold mu.
func (st *Store) forgetOldStatements(nodes []*nodeRecord) {
	b := &st.book
	forgotten := map[string]bool{}
	users := map[string]bool{}
	for _, n := range nodes {
		ids := b.byNode[n.id]
		excess := -MaxMonthlyStatements
		for _, id := range ids {
			if b.byID[id].typ == StatementMonthly {
				excess++
			}
		}
		if excess <= 0 {
			continue
		}
		users[n.userID] = true
		b.byNode[n.id] = slices.DeleteFunc(ids, func(id string) bool {
			if excess > 0 && b.byID[id].typ == StatementMonthly {
				excess--
				forgotten[id] = true
				return true
			}
			return false
		})
	}
	if len(forgotten) == 0 {
		return
	}
	for uid := range users {
		b.byUser[uid] = slices.DeleteFunc(b.byUser[uid], func(id string) bool { return forgotten[id] })
	}
	for id := range forgotten {
		delete(b.byID, id)
	}
}

// statementURLs are a statement's files; null until it is generated.
type statementURLs struct {
	CSV  *string `json:"csv"`
	JSON *string `json:"json"`
	PDF  *string `json:"pdf"`
}

// StatementView is a statement as the API returns it. ClientID, IsActive
// and the three *URL fields are the older flat shape the provider's
// integration suites read, answered beside client and urls.
type StatementView struct {
	ID             string        `json:"_id"`
	Client         ClientView    `json:"client"`
	ClientID       string        `json:"client_id"`
	CSVURL         *string       `json:"csv_url"`
	DateEnd        int64         `json:"date_end"`
	DateStart      int64         `json:"date_start"`
	EndingBalance  *Cents        `json:"ending_balance"`
	IsActive       bool          `json:"is_active"`
	JSONURL        *string       `json:"json_url"`
	NodeID         string        `json:"node_id"`
	OpeningBalance *Cents        `json:"opening_balance"`
	PDFURL         *string       `json:"pdf_url"`
	Status         string        `json:"status"`
	Type           string        `json:"type"`
	URLs           statementURLs `json:"urls"`
	UserID         string        `json:"user_id"`
}

func (st *Store) statementView(rec *statementRecord) StatementView {
	v := StatementView{ID: rec.id, Client: st.client, ClientID: st.client.ID, DateEnd: Ms(rec.end), DateStart: Ms(rec.start),
		IsActive: true, NodeID: rec.nodeID, Status: rec.status, Type: rec.typ, UserID: rec.userID}
	if rec.status == StatementGenerated {
		opening, ending := rec.opening, rec.ending
		v.OpeningBalance, v.EndingBalance = &opening, &ending
		base := st.base + "/statements/" + rec.id + "/"
		csvURL, jsonURL, pdfURL := base+statementFiles[0], base+statementFiles[1], base+statementFiles[2]
		v.URLs = statementURLs{CSV: &csvURL, JSON: &jsonURL, PDF: &pdfURL}
		v.CSVURL, v.JSONURL, v.PDFURL = &csvURL, &jsonURL, &pdfURL
	}
	return v
}

// emitStatement records the webhook of an ad hoc statement and delivers it
// to the statement's webhook url, if any. The body has the shape emit gives
// every webhook; it goes to that url only, signed like every webhook, and
// to no subscription. Callers hold mu.
func (st *Store) emitStatement(at time.Time, rec *statementRecord) {
	if st.hooks == nil {
		return
	}
	rest, err := json.Marshal(st.statementView(rec))
	if err != nil {
		return
	}
	ev := st.newEvent(at, "STATEMENTS|POST")
	ev.obj = &objectEvent{typ: "STATEMENT", id: rec.id, status: rec.status, rest: rest}
	if rec.webhook != "" {
		ev.deliveries = []DeliveryRecord{{ev: ev, target: &hookTarget{url: rec.webhook}, due: ev.at}}
	}
	st.hooks.Add(ev)
}

// Movement is documented at synapsefake.Movement.
type Movement struct {
	Date time.Time
	// TransactionID is the transaction that moved the money, "" for the
	// initial balance.
	TransactionID string
	// Kind is MovementInitial, MovementDebit, MovementCredit, MovementFee
	// or MovementReturn.
	Kind        string
	Description string
	// AmountCents is signed: negative for money leaving the node.
	AmountCents int64
	// BalanceCents is the node's balance after the movement.
	BalanceCents int64
}

// Statement is documented at synapsefake.Statement.
type Statement struct {
	ID     string
	NodeID string
	UserID string
	Type   string // StatementMonthly or StatementOnDemand
	Status string // StatementQueued or StatementGenerated
	// Start and End bound the period; both are inclusive.
	Start, End          time.Time
	OpeningBalanceCents int64
	EndingBalanceCents  int64
	Movements           []Movement
}

// statementPublic copies rec out of the store. Callers hold mu.
func (st *Store) statementPublic(rec *statementRecord) Statement {
	s := Statement{ID: rec.id, NodeID: rec.nodeID, UserID: rec.userID, Type: rec.typ, Status: rec.status,
		Start: rec.start, End: rec.end, OpeningBalanceCents: int64(rec.opening), EndingBalanceCents: int64(rec.ending)}
	if lines := st.statementLines(rec); lines != nil {
		s.Movements = make([]Movement, len(lines))
		for i, l := range lines {
			s.Movements[i] = Movement{Date: l.date, TransactionID: l.txID, Kind: l.kind, Description: l.desc,
				AmountCents: int64(l.amount), BalanceCents: int64(l.balance)}
		}
	}
	return s
}

// CreateStatementRequest is the body of POST .../statements. Dates are in
// milliseconds; both are optional.
type CreateStatementRequest struct {
	DateStart *int64  `json:"date_start"`
	DateEnd   *int64  `json:"date_end"`
	Webhook   *string `json:"webhook"`
}

// Period resolves the request's period: by default the month so far, from
// 00:00 UTC of the first of now's month to now. It must not be empty and
// must not end after now; a date_end equal to date_start is the day from
// date_start, to the millisecond before the next (up to now), since both
// ends are inclusive.
func (r CreateStatementRequest) Period(now time.Time) (start, end time.Time, err error) {
	u := now.UTC()
	start, end = time.Date(u.Year(), u.Month(), 1, 0, 0, 0, 0, time.UTC), now
	if r.DateStart != nil {
		if *r.DateStart < 0 {
			return start, end, apierr.Payload("invalid_date_start", "date_start must be a time in milliseconds since the epoch.")
		}
		start = time.UnixMilli(*r.DateStart).UTC()
	}
	if r.DateEnd != nil {
		end = time.UnixMilli(*r.DateEnd).UTC()
	}
	if end.Equal(start) {
		// SynapseGo's documented body sends the same instant twice (midnight
		// of a day): the statement of that day, up to now.
		end = start.Add(24*time.Hour - time.Millisecond) // both ends inclusive: the next day is not in it
		if end.After(now) && start.Before(now) {
			end = now
		}
	}
	switch {
	case end.After(now):
		return start, end, apierr.Payload("invalid_date_end", "date_end must not be in the future.")
	case !start.Before(end):
		return start, end, apierr.Payload("invalid_period", "date_start must be before date_end.")
	}
	return start, end, nil
}

// ValidWebhook checks that webhook, when given, is an absolute http or
// https URL.
func (r CreateStatementRequest) ValidWebhook() error {
	if r.Webhook == nil || *r.Webhook == "" {
		return nil
	}
	if !ValidWebhookURL(*r.Webhook) {
		return apierr.Payload("invalid_webhook", "webhook must be an absolute http or https URL.")
	}
	return nil
}

// WithFile renders one file of the statement (statement.csv, .json or
// .pdf) and gives it to use, with its Content-Type; body is only good
// until use returns. The CSV and the PDF are rendered into a recycled buffer: a
// statement's file runs to megabytes, and fresh memory of that size costs
// more to fault in and clear than the rendering itself.
func (d statementDoc) WithFile(file string, use func(body []byte, ctype string)) {
	if file == "statement.json" { // encoding/json makes its own buffer
		use(d.json(), "application/json")
		return
	}
	bp := fileBuffers.Get().(*[]byte)
	var body []byte
	var ctype string
	if file == "statement.csv" {
		body, ctype = d.csvInto(*bp), "text/csv; charset=utf-8"
	} else {
		body, ctype = d.pdfInto(*bp), "application/pdf"
	}
	use(body, ctype)
	if cap(body) <= maxPooledFile {
		*bp = body[:0]
		fileBuffers.Put(bp)
	}
}

// fileBuffers recycles the buffers statement files are rendered into.
var fileBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledFile is the largest buffer fileBuffers keeps: the PDF of about
// 100,000 movements.
const maxPooledFile = 32 << 20

// statementDoc is everything a statement's files show, copied out of the
// store so they are rendered without the lock.
type statementDoc struct {
	view       StatementView
	clientName string
	clientID   string
	nickname   string
	nodeType   string
	holder     string
	rec        statementRecord
	lines      []statementLine
}

// StatementID is the id of the statement the document is of.
func (d *statementDoc) StatementID() string { return d.rec.id }

func (st *Store) statementDoc(rec *statementRecord) statementDoc {
	d := statementDoc{view: st.statementView(rec), clientName: st.client.Name, clientID: st.client.ID, rec: *rec,
		lines: st.statementLines(rec)}
	if n := st.nodes[rec.nodeID]; n != nil {
		d.nickname, d.nodeType = n.nickname, n.typ
	}
	if u := st.users[rec.userID]; u != nil && len(u.legalNames) > 0 {
		d.holder = u.legalNames[0]
	}
	return d
}

// isoMillis is the date format of the CSV file: ISO 8601 in UTC.
const isoMillis = "2006-01-02T15:04:05.000Z07:00"

// csv renders the CSV file: a header row, then one row per movement.
func (d statementDoc) csv() []byte { return d.csvInto(nil) }

// csvInto is csv rendering into buf's memory, from its start.
func (d statementDoc) csvInto(into []byte) []byte {
	buf := bytes.NewBuffer(into[:0])
	cw := csv.NewWriter(buf)
	_ = cw.Write([]string{"date", "transaction_id", "type", "description", "amount", "balance"})
	for _, l := range d.lines {
		_ = cw.Write([]string{l.date.UTC().Format(isoMillis), l.txID, l.kind, l.desc, decimal(l.amount), decimal(l.balance)})
	}
	cw.Flush()
	return buf.Bytes()
}

// statementMovementView is one movement in the JSON file.
type statementMovementView struct {
	Amount        Cents  `json:"amount"`
	Balance       Cents  `json:"balance"`
	Date          int64  `json:"date"`
	Description   string `json:"description"`
	TransactionID string `json:"transaction_id"`
	Type          string `json:"type"`
}

// json renders the JSON file: the statement and its movements, typed.
func (d statementDoc) json() []byte {
	out := struct {
		Movements []statementMovementView `json:"movements"`
		Statement StatementView           `json:"statement"`
	}{Movements: make([]statementMovementView, len(d.lines)), Statement: d.view}
	for i, l := range d.lines {
		out.Movements[i] = statementMovementView{Amount: l.amount, Balance: l.balance, Date: Ms(l.date),
			Description: l.desc, TransactionID: l.txID, Type: l.kind}
	}
	b, _ := json.Marshal(out)
	return b
}

// decimal writes cents as a signed decimal with two places: -1234 -> "-12.34".
func decimal(c Cents) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	frac := strconv.FormatInt(int64(c%100), 10)
	if len(frac) == 1 {
		frac = "0" + frac
	}
	return sign + strconv.FormatInt(int64(c/100), 10) + "." + frac
}
