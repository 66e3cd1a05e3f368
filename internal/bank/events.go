// Events, the bank's side: what the store emits, to the publisher.

package bank

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"slices"
	"time"

	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// Event is one webhook the fake emitted, kept as a reference to what it
// describes: a transaction event holds the transaction and its timeline as
// it was (a prefix of an append-only slice), so recording it encodes
// nothing. The JSON body is made only when a delivery, the capture or the
// webhook log is read. Events of other objects (users, nodes, subnets,
// statements) are rare and keep their view's JSON, made once at emit time.
//
// Every field is set before the event is shared and never changed
// afterwards, except deliveries' attempts, which the hooks lock guards.
type Event struct {
	seq        uint64 // emission order; also derives the log id
	at         int64  // ms
	tx         *txRecord
	timeline   []statusEntry // tx's timeline as of this event
	code       *string       // tx's recent_status.code as of this event; nil for none (most events)
	obj        *objectEvent  // nil for transaction events
	deliveries []DeliveryRecord
	fn         uint8 // index into eventFunctions
	backend    bool  // updated_by BACKEND, not SELF
	dropped    bool  // forgotten by the capture; guarded by the hooks lock
}

// eventFunctions are the functions (scopes) an event can have.
var eventFunctions = [...]string{"USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH", "TRANS|POST", "TRAN|PATCH",
	"SUBNETS|POST", "SUBNET|PATCH", "STATEMENTS|POST"}

// newEvent starts an event of function at a time, by the store's current
// actor. Callers hold mu.
func (st *Store) newEvent(at time.Time, function string) *Event {
	i := slices.Index(eventFunctions[:], function)
	if i < 0 {
		panic("synapsefake: event of unknown function " + function)
	}
	ev := st.eventSlab.take()
	*ev = Event{at: Ms(at), fn: uint8(i), backend: st.actor == UpdatedByBackend}
	return ev
}

// eventSlabSize is how many events (or object events) a store allocates
// together: a transaction's life is four events (created, two processing
// steps, settled), a test's seeding three, and one allocation instead of
// one each is what a test's fake and a busy standalone fake save
// (BenchmarkReadmeTest, BenchmarkServeCreate). An event keeps its slab's
// memory until the slab's last event is forgotten: at most
// eventSlabSize-1 events more than the capture's bound.
const eventSlabSize = 4

// slab hands out pointers to values allocated eventSlabSize at a time.
// The zero value is ready. Callers hold the store's lock.
type slab[T any] struct{ free []T }

// take returns a pointer to a zero T that nothing else refers to.
func (s *slab[T]) take() *T { return s.takeOf(eventSlabSize) }

// takeOf is take, allocating n values at a time.
func (s *slab[T]) takeOf(n int) *T {
	if len(s.free) == 0 {
		s.free = make([]T, n)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// Function is the event's function (scope), such as "TRANS|POST".
func (ev *Event) Function() string { return eventFunctions[ev.fn] }

// Actor is who made the change, UpdatedBySelf or UpdatedByBackend: the
// webhook's updated_by.
func (ev *Event) Actor() string {
	if ev.backend {
		return UpdatedByBackend
	}
	return UpdatedBySelf
}

// objectEvent is the part of an event about an object that is not a
// transaction.
type objectEvent struct {
	typ, id, status string
	rest            []byte // the API view's JSON, or nil for lazy
	lazy            lazyView
}

// lazyView is an object's view an event keeps unencoded: a snapshot that
// nothing changes, encoded each time the event is read. Most events are
// never read, and encoding a view costs more than taking its snapshot.
type lazyView interface {
	appendView(b []byte) ([]byte, error)
}

// lazyViewCost is what the capture bound counts for a lazy view: about
// the snapshot of a node's record, or a user's view, that it keeps.
const lazyViewCost = 512

// View is the object's view as JSON, as of the event.
func (o *objectEvent) View() []byte {
	if o.lazy == nil {
		return o.rest
	}
	b, err := o.lazy.appendView(nil)
	if err != nil {
		return []byte("{}")
	}
	return b
}

// ObjectType is the type of the event's object, "TRAN" for a transaction
// event.
func (ev *Event) ObjectType() string {
	if ev.obj != nil {
		return ev.obj.typ
	}
	return "TRAN"
}

// ObjectID is the id of the event's object or transaction.
func (ev *Event) ObjectID() string {
	if ev.obj != nil {
		return ev.obj.id
	}
	return ev.tx.id
}

// TxCode is a transaction event's recent_status.code, "" for none.
func (ev *Event) TxCode() string {
	if ev.code == nil {
		return ""
	}
	return *ev.code
}

// Status is the status the event's object showed: for a transaction, its
// timeline's last status.
func (ev *Event) Status() string {
	if ev.obj != nil {
		return ev.obj.status
	}
	return string(ev.timeline[len(ev.timeline)-1].Status)
}

// Cost is what the capture bound counts for an event: an estimate of
// the memory it holds, without its attempts (counted as they are made).
func (ev *Event) Cost() int64 {
	n := int64(eventOverhead + deliveryOverhead*len(ev.deliveries))
	switch {
	case ev.obj == nil:
	case ev.obj.lazy != nil:
		n += lazyViewCost
	default:
		n += int64(len(ev.obj.rest))
	}
	return n
}

// AttemptsCost is what the capture counts for the attempts made so far.
// Callers hold the hooks lock.
func (ev *Event) AttemptsCost() int64 {
	var n int64
	for i := range ev.deliveries {
		for _, a := range ev.deliveries[i].attempts {
			n += int64(AttemptOverhead + len(a.text))
		}
	}
	return n
}

// Estimated bytes of the capture and the webhook log, for their bounds.
const (
	eventOverhead    = 192
	deliveryOverhead = 96
	AttemptOverhead  = 48
	LogEntryOverhead = 32
)

// emitTx records a change of a transaction. Callers hold mu.
func (st *Store) emitTx(at time.Time, function string, t *txRecord) {
	if st.hooks == nil {
		return
	}
	n := len(t.timeline)
	ev := st.newEvent(at, function)
	ev.tx, ev.timeline = t, t.timeline[:n:n]
	if t.code != "" {
		code := t.code
		ev.code = &code
	}
	st.hooks.Add(st.deliveriesFor(ev, function))
}

// emit records that an object other than a transaction was created or
// changed, with its view as it is now. Callers hold mu.
func (st *Store) emit(at time.Time, function, objType, id string, view any) {
	if st.hooks == nil {
		return
	}
	var rest []byte
	var err error
	if a, ok := view.(jsonx.Appender); ok {
		buf := jsonx.GetBuffer()
		var b []byte
		if b, err = a.AppendJSON(buf.AvailableBuffer()); err == nil {
			buf.Write(b) // so that the pooled buffer grows to fit
			rest = bytes.Clone(buf.Bytes())
		}
		jsonx.PutBuffer(buf)
	} else {
		rest, err = json.Marshal(view)
	}
	if err != nil {
		return
	}
	obj := objectEvent{typ: objType, id: id, rest: rest}
	if v, ok := view.(SubnetView); ok {
		obj.status = string(v.Status)
	}
	st.emitObject(at, function, obj)
}

// emitLazy is emit with the view kept as snap, encoded when the event is
// read. Callers hold mu.
func (st *Store) emitLazy(at time.Time, function, objType, id string, snap lazyView) {
	if st.hooks != nil {
		st.emitObject(at, function, objectEvent{typ: objType, id: id, lazy: snap})
	}
}

// emitObject records the event of obj, kept in the store's object slab.
// Callers hold mu.
func (st *Store) emitObject(at time.Time, function string, obj objectEvent) {
	ev := st.newEvent(at, function)
	ev.obj = st.objectSlab.take()
	*ev.obj = obj
	st.hooks.Add(st.deliveriesFor(ev, function))
}

// deliveriesFor gives ev a delivery for every active subscription whose
// scope holds function. Callers hold mu.
func (st *Store) deliveriesFor(ev *Event, function string) *Event {
	n := 0
	for _, sid := range st.subOrder {
		if sub := st.subs[sid]; sub.active && slices.Contains(sub.scopes, function) {
			n++
		}
	}
	if n == 0 {
		return ev
	}
	ev.deliveries = make([]DeliveryRecord, 0, n)
	for _, sid := range st.subOrder {
		if sub := st.subs[sid]; sub.active && slices.Contains(sub.scopes, function) {
			ev.deliveries = append(ev.deliveries, DeliveryRecord{ev: ev, target: sub.target, due: ev.at})
		}
	}
	return ev
}

// LogID is webhook_meta.log_id of the event with the given sequence
// number: 24 hex characters, like every id, derived from the id seed so
// that it costs nothing to keep.
func (s *Bank) LogID(seq uint64) string {
	x := s.Cfg.Seed ^ 0x6c6f675f69645f76 // "log_id_v"
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], Splitmix(x+seq))
	binary.BigEndian.PutUint64(b[8:], Splitmix(^x+seq))
	return hex.EncodeToString(b[:12])
}

// Splitmix is the SplitMix64 finaliser: a bijection that spreads every
// input bit over the output.
func Splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// publisher takes the events the store emits, with their deliveries, to
// webhook delivery: the wire's hooks (plan §3.4's Publisher), which New
// connects. Callers hold the store's lock.
type publisher interface {
	Add(ev *Event)
}
