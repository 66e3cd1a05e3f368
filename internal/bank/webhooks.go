// Webhooks, the bank's side: a delivery's record and its attempts.

package bank

import (
	"bytes"
	"encoding/json"
	"time"
)

// DeliveryRecord is an event's delivery to one subscription, or to an ad hoc
// statement's webhook url. Its attempts and due are guarded by the hooks lock.
type DeliveryRecord struct {
	ev       *Event
	target   *hookTarget
	attempts []AttemptRecord
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

// AttemptRecord is the stored form of an Attempt.
type AttemptRecord struct {
	at    int64 // ms
	code  int32
	chaos uint8 // what webhook chaos did (chaos.go)
	text  string
}

// WebhookBody builds a webhook's body from the API view rest of the object
// id: the view with _id as {"$oid"}, plus _rest (the view itself) and
// webhook_meta. Views put _id first, so the body is spliced from rest
// rather than decoded and encoded again.
func WebhookBody(id, function, logID, actor string, at time.Time, rest []byte) []byte {
	meta, _ := json.Marshal(struct {
		Date      map[string]int64 `json:"date"`
		Function  string           `json:"function"`
		LogID     string           `json:"log_id"`
		UpdatedBy string           `json:"updated_by"`
	}{map[string]int64{"$date": Ms(at)}, function, logID, actor})
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

// Attempt is documented at synapsefake.Attempt.
type Attempt struct {
	Code int
	Text string
	Date time.Time
	// Chaos lists what webhook chaos did to the attempt, comma-separated
	// (ChaosDelayed, ChaosReordered, ChaosDropped, ChaosDuplicate,
	// ChaosBadSignature); "" for none.
	Chaos string
}

// Sequence is ev's sequence number: its emission order, from which its
// log id derives.
func (ev *Event) Sequence() uint64 { return ev.seq }

// DeliveryList is ev's deliveries, one per target. Callers hold the hooks
// lock.
func (ev *Event) DeliveryList() []DeliveryRecord { return ev.deliveries }

// SubscriptionID is the subscription d goes to ("" for an ad hoc
// statement's webhook).
func (d *DeliveryRecord) SubscriptionID() string { return d.target.subID }

// TargetURL is the url d goes to.
func (d *DeliveryRecord) TargetURL() string { return d.target.url }

// AttemptList is the attempts d made, oldest first. Callers hold the
// hooks lock.
func (d *DeliveryRecord) AttemptList() []AttemptRecord { return d.attempts }

// AddAttempt stores an attempt d made. Callers hold the hooks lock.
func (d *DeliveryRecord) AddAttempt(a AttemptRecord) { d.attempts = append(d.attempts, a) }

// DueMS is when d's next attempt is due, in ms.
func (d *DeliveryRecord) DueMS() int64 { return d.due }

// SetDue moves d's next attempt to ms. Callers hold the hooks lock.
func (d *DeliveryRecord) SetDue(ms int64) { d.due = ms }

// Event is the event d delivers.
func (d *DeliveryRecord) Event() *Event { return d.ev }

// SetSequence numbers ev, as the hooks publish it.
func (ev *Event) SetSequence(seq uint64) { ev.seq = seq }

// IsDropped reports whether the capture forgot ev. Callers hold the hooks
// lock.
func (ev *Event) IsDropped() bool { return ev.dropped }

// Drop marks ev as forgotten by the capture. Callers hold the hooks lock.
func (ev *Event) Drop() { ev.dropped = true }

// Object is ev's object, nil for a transaction event.
func (ev *Event) Object() *objectEvent { return ev.obj }

// NewAttempt is the stored form of an attempt made at (ms), answered with
// code and text, and what webhook chaos did to it.
func NewAttempt(at int64, code int32, text string, chaos uint8) AttemptRecord {
	return AttemptRecord{at: at, code: code, chaos: chaos, text: text}
}

// AtMS is when a was made, in ms.
func (a AttemptRecord) AtMS() int64 { return a.at }

// StatusCode is the receiver's answer's status code (408 for none).
func (a AttemptRecord) StatusCode() int32 { return a.code }

// Answer is the receiver's answer's text, at most maxAttemptText bytes.
func (a AttemptRecord) Answer() string { return a.text }

// ChaosFlags is what webhook chaos did to a.
func (a AttemptRecord) ChaosFlags() uint8 { return a.chaos }

// WithChaos is a with what webhook chaos did to it set to flags.
func (a AttemptRecord) WithChaos(flags uint8) AttemptRecord { a.chaos = flags; return a }

// AtMS is when ev happened, in ms.
func (ev *Event) AtMS() int64 { return ev.at }

// ByBackend reports whether ev was made by the backend (updated_by
// BACKEND), not by the user (SELF).
func (ev *Event) ByBackend() bool { return ev.backend }

// Transaction is the transaction ev describes, nil for an object event.
func (ev *Event) Transaction() *txRecord { return ev.tx }

// TxTimeline is the transaction's timeline as of ev.
func (ev *Event) TxTimeline() []statusEntry { return ev.timeline }

// RecentCode is the transaction's recent_status.code as of ev, nil for
// none.
func (ev *Event) RecentCode() *string { return ev.code }

// OutboxKey is the outbox of d: its subscription's, or else its url's.
func (d *DeliveryRecord) OutboxKey() string {
	if d.SubscriptionID() != "" {
		return d.SubscriptionID()
	}
	return d.TargetURL()
}

// Index is d's position among its event's deliveries.
func (d *DeliveryRecord) Index() int {
	for i := range d.Event().DeliveryList() {
		if &d.Event().DeliveryList()[i] == d {
			return i
		}
	}
	panic("synapsefake: a delivery outside its event")
}
