package synapsefake

import (
	"bytes"
	"encoding/json"
	"time"
)

// delivery is an event's delivery to one subscription, or to an ad hoc
// statement's webhook url. Its attempts and due are guarded by the hooks lock.
type delivery struct {
	ev       *event
	target   *hookTarget
	attempts []attemptRecord
	// due is when the next attempt falls due (ms): the event's date, then
	// each retry's. An attempt is dated at its due time, as processing steps
	// are, so a long Advance runs and dates every retry that fell due.
	due int64
}

// hookTarget is where a delivery goes: a subscription's url, or an ad hoc
// statement's webhook url (subID "").
type hookTarget struct {
	subID, url string
}

// attemptRecord is the stored form of an Attempt.
type attemptRecord struct {
	at    int64 // ms
	code  int32
	chaos uint8 // what webhook chaos did (chaos.go)
	text  string
}

// webhookBody builds a webhook's body from the API view rest of the object
// id: the view with _id as {"$oid"}, plus _rest (the view itself) and
// webhook_meta. Views put _id first, so the body is spliced from rest
// rather than decoded and encoded again.
func webhookBody(id, function, logID, actor string, at time.Time, rest []byte) []byte {
	meta, _ := json.Marshal(struct {
		Date      map[string]int64 `json:"date"`
		Function  string           `json:"function"`
		LogID     string           `json:"log_id"`
		UpdatedBy string           `json:"updated_by"`
	}{map[string]int64{"$date": ms(at)}, function, logID, actor})
	oidJSON, _ := json.Marshal(map[string]string{"$oid": id})
	idJSON, _ := json.Marshal(id)
	prefix := append(append([]byte(`{"_id":`), idJSON...), ',')
	var b bytes.Buffer
	b.Grow(2*len(rest) + len(meta) + 64)
	if bytes.HasPrefix(rest, prefix) && len(rest) > len(prefix) {
		b.WriteString(`{"_id":`)
		b.Write(oidJSON)
		b.WriteByte(',')
		b.Write(rest[len(prefix) : len(rest)-1])
	} else {
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(rest, &fields)
		fields["_id"] = oidJSON
		obj, _ := json.Marshal(fields)
		b.Write(obj[:len(obj)-1])
	}
	b.WriteString(`,"_rest":`)
	b.Write(rest)
	b.WriteString(`,"webhook_meta":`)
	b.Write(meta)
	b.WriteByte('}')
	return b.Bytes()
}

// Attempt is one POST of a delivery and the receiver's answer; a receiver
// that could not be reached is recorded as 408.
type Attempt struct {
	Code int
	Text string
	Date time.Time
	// Chaos lists what webhook chaos did to the attempt, comma-separated
	// (ChaosDelayed, ChaosReordered, ChaosDropped, ChaosDuplicate,
	// ChaosBadSignature); "" for none.
	Chaos string
}

// sequence is ev's sequence number: its emission order, from which its
// log id derives.
func (ev *event) sequence() uint64 { return ev.seq }

// deliveryList is ev's deliveries, one per target. Callers hold the hooks
// lock.
func (ev *event) deliveryList() []delivery { return ev.deliveries }

// subscriptionID is the subscription d goes to ("" for an ad hoc
// statement's webhook).
func (d *delivery) subscriptionID() string { return d.target.subID }

// targetURL is the url d goes to.
func (d *delivery) targetURL() string { return d.target.url }

// attemptList is the attempts d made, oldest first. Callers hold the
// hooks lock.
func (d *delivery) attemptList() []attemptRecord { return d.attempts }

// addAttempt stores an attempt d made. Callers hold the hooks lock.
func (d *delivery) addAttempt(a attemptRecord) { d.attempts = append(d.attempts, a) }

// dueMS is when d's next attempt is due, in ms.
func (d *delivery) dueMS() int64 { return d.due }

// setDue moves d's next attempt to ms. Callers hold the hooks lock.
func (d *delivery) setDue(ms int64) { d.due = ms }

// event is the event d delivers.
func (d *delivery) event() *event { return d.ev }

// setSequence numbers ev, as the hooks publish it.
func (ev *event) setSequence(seq uint64) { ev.seq = seq }

// isDropped reports whether the capture forgot ev. Callers hold the hooks
// lock.
func (ev *event) isDropped() bool { return ev.dropped }

// drop marks ev as forgotten by the capture. Callers hold the hooks lock.
func (ev *event) drop() { ev.dropped = true }

// object is ev's object, nil for a transaction event.
func (ev *event) object() *objectEvent { return ev.obj }

// newAttempt is the stored form of an attempt made at (ms), answered with
// code and text, and what webhook chaos did to it.
func newAttempt(at int64, code int32, text string, chaos uint8) attemptRecord {
	return attemptRecord{at: at, code: code, chaos: chaos, text: text}
}

// atMS is when a was made, in ms.
func (a attemptRecord) atMS() int64 { return a.at }

// statusCode is the receiver's answer's status code (408 for none).
func (a attemptRecord) statusCode() int32 { return a.code }

// answer is the receiver's answer's text, at most maxAttemptText bytes.
func (a attemptRecord) answer() string { return a.text }

// chaosFlags is what webhook chaos did to a.
func (a attemptRecord) chaosFlags() uint8 { return a.chaos }

// withChaos is a with what webhook chaos did to it set to flags.
func (a attemptRecord) withChaos(flags uint8) attemptRecord { a.chaos = flags; return a }

// atMS is when ev happened, in ms.
func (ev *event) atMS() int64 { return ev.at }

// byBackend reports whether ev was made by the backend (updated_by
// BACKEND), not by the user (SELF).
func (ev *event) byBackend() bool { return ev.backend }

// transaction is the transaction ev describes, nil for an object event.
func (ev *event) transaction() *txRecord { return ev.tx }

// txTimeline is the transaction's timeline as of ev.
func (ev *event) txTimeline() []statusEntry { return ev.timeline }

// recentCode is the transaction's recent_status.code as of ev, nil for
// none.
func (ev *event) recentCode() *string { return ev.code }

// outboxKey is the outbox of d: its subscription's, or else its url's.
func (d *delivery) outboxKey() string {
	if d.subscriptionID() != "" {
		return d.subscriptionID()
	}
	return d.targetURL()
}

// index is d's position among its event's deliveries.
func (d *delivery) index() int {
	for i := range d.event().deliveryList() {
		if &d.event().deliveryList()[i] == d {
			return i
		}
	}
	panic("synapsefake: a delivery outside its event")
}
