package synapsefake

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"time"
	"unsafe"

	"github.com/synapsefake/synapsefake/reference"
)

// Saved state: Snapshot writes the whole state of a Server as one JSON
// document and Restore replaces the state with one, so that the restored
// server answers every later request, and moves with the clock, exactly as
// the saved one would have.
//
// The document's top-level keys are fixed (stateKeys). "store" holds every
// field of the store (users, keys, nodes, transactions, subnets,
// subscriptions, the processing steps, idempotency keys, statements and
// the ledger, bank logins...) but those named in storeFieldsApart, encoded
// field by field from the records themselves: a field added to a record is
// saved without anyone remembering to. Records keep their Go field names
// as keys, times are RFC 3339 strings, byte slices base64, and a nil slice
// or map (null) stays distinct from an empty one ([] or {}), since views
// show the difference.

// StateVersion is the version of the document Snapshot writes; Restore
// refuses any other. Version 2 added transactions' comment counts and
// dispute credits, verified phones and the expiry of bank logins; version 3
// disputes' provisional credits due later and the steps that post them;
// version 4 the dishonors of returns and their contests.
const StateVersion = 4

// stateFormat is the document's "format": it tells a state file from any
// other JSON.
const stateFormat = "synapsefake-state"

// DefaultMaxStateSize is the largest state document Restore and
// PUT /_fake/state read unless WithMaxStateSize says otherwise. Restoring
// allocates about 18 bytes per byte of the document (BenchmarkRestore).
const DefaultMaxStateSize = 64 << 20

// WithMaxStateSize sets the largest state document, in bytes, that Restore
// and PUT /_fake/state read; a larger one is refused (400 / "200"
// body_too_large) and changes nothing. n <= 0 keeps
// DefaultMaxStateSize.
func WithMaxStateSize(n int64) Option {
	return func(cfg *config) { cfg.maxState = n }
}

func (s *Server) maxStateSize() int64 {
	if s.cfg.maxState > 0 {
		return s.cfg.maxState
	}
	return DefaultMaxStateSize
}

// errRestoreBusy refuses a restore while another one runs: each takes
// several times its document's size in memory.
var errRestoreBusy = newError(reference.ErrTooManyRequests, "restore_in_progress",
	"Another state document is being restored; send this one when it is done.")

// readState reads a document of at most maxStateSize bytes.
func (s *Server) readState(r io.Reader) ([]byte, error) {
	limit := s.maxStateSize()
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, errState("cannot read it: %v", err)
	}
	if int64(len(data)) > limit {
		return nil, errStateTooLarge(limit)
	}
	return data, nil
}

func errStateTooLarge(limit int64) *apiError {
	return errPayload("body_too_large", "State document refused: it is larger than %d bytes (WithMaxStateSize, -max-state-size).", limit)
}

// stateKeys are the document's top-level keys, every one required.
var stateKeys = []string{"format", "version", "seed", "client_id", "clock", "ids", "store", "network_user",
	"webhooks", "journal", "faults"}

// storeFieldsApart are the store's fields the "store" object does not
// hold, and where each is instead. Every other field is saved as it is.
var storeFieldsApart = map[string]string{
	"mu":                   "a lock",
	"era":                  "not saved: the server's own count of resets and restores",
	"ids":                  `"ids": the id stream's seed and ChaCha8 position`,
	"hooks":                `"webhooks": events, deliveries, retries and the log`,
	"networkUser":          `"network_user": the id of a user held in users`,
	"base":                 "an option of the server restored into (its URL)",
	"client":               "an option of the server restored into (WithClientCredentials, WithClientName)",
	"microDeposits":        "an option of the server restored into (WithMicroDeposits)",
	"manualProcessing":     "an option of the server restored into (WithManualProcessing)",
	"cutoffs":              "an option of the server restored into (WithCutoffs)",
	"defaultCutoffs":       "an option of the server restored into (WithCutoffs)",
	"immediateProvisional": "an option of the server restored into (WithImmediateProvisionalCredit)",
	"expiredKeys":          "not saved: the last expired oauth_keys, for the test's log (diagnose.go)",
	"due":                  "not saved: when the first clock-driven work falls due, worked out on every unlock",
	"dueMonthly":           "not saved: a cache of due's",
	"firstMonthly":         "not saved: worked out from the restored nodes",
	"goneUsers":            "not saved: worked out from the restored users",
	"achMemo":              "not saved: a cache of the ACH calendar's last answer",
	"hexRoom":              "not saved: room for the next random strings, allocated together",
	"eventSlab":            "not saved: room for the next events, allocated together",
	"objectSlab":           "not saved: room for the next object events, allocated together",
}

// stateIDs is the id stream: its seed, and the ChaCha8 generator's state
// (position and buffered bytes), null before the first id was drawn.
type stateIDs struct {
	Seed    string `json:"seed"`    // hex, 32 bytes
	ChaCha8 []byte `json:"chacha8"` // MarshalBinary; base64
}

// stateHooks is the webhook side of the state. Events holds every event
// that the capture, the log, a retry or a queued delivery refers to,
// oldest first; the others refer to events by seq and to deliveries by
// their index in the event.
type stateHooks struct {
	Seq     uint64             `json:"seq"` // the last event's sequence number: log ids derive from it
	Events  []stateEvent       `json:"events"`
	Log     []stateLogEntry    `json:"log"`
	Retries []stateRetry       `json:"retries"`
	Queued  []stateDeliveryRef `json:"queued"` // deliveries waiting for, or in the middle of, an attempt
}

type stateEvent struct {
	Seq      uint64 `json:"seq"`
	At       int64  `json:"at"` // ms
	Function string `json:"function"`
	Backend  bool   `json:"backend"`
	Captured bool   `json:"captured"` // in the capture (Webhooks().All())
	// A transaction event holds its transaction's id, the length of the
	// timeline it showed and the recent_status.code it showed (null for
	// none); any other event, Object.
	TxID       string          `json:"tx_id,omitempty"`
	Timeline   int             `json:"timeline,omitempty"`
	Code       *string         `json:"code,omitempty"`
	Object     *stateObject    `json:"object,omitempty"`
	Deliveries []stateDelivery `json:"deliveries"`
}

type stateObject struct {
	Type   string `json:"type"`
	ID     string `json:"id"`
	Status string `json:"status"`
	View   string `json:"view"` // the view's JSON as it was sent, as a string
}

type stateDelivery struct {
	SubscriptionID string         `json:"subscription_id"` // "" for an ad hoc statement's webhook
	URL            string         `json:"url"`
	Due            int64          `json:"due"` // ms
	Attempts       []stateAttempt `json:"attempts"`
}

type stateAttempt struct {
	At    int64  `json:"at"` // ms
	Code  int32  `json:"code"`
	Text  string `json:"text"`
	Chaos string `json:"chaos,omitempty"` // Attempt.Chaos (chaos.go)
}

type stateLogEntry struct {
	Seq      uint64 `json:"seq"`
	Delivery int    `json:"delivery"`
	Attempt  int    `json:"attempt"`
}

type stateRetry struct {
	At       int64  `json:"at"` // ms
	Seq      uint64 `json:"seq"`
	Delivery int    `json:"delivery"`
}

type stateDeliveryRef struct {
	Seq      uint64 `json:"seq"`
	Delivery int    `json:"delivery"`
}

// errState is the refusal of a document Restore cannot use.
func errState(format string, args ...any) *apiError {
	return errPayload("invalid_state", "State document refused: "+format, args...)
}

// Snapshot writes the server's whole state as one JSON document (format
// "synapsefake-state", version StateVersion): the store, the clock, the id
// stream, the webhook capture, log, queued deliveries and retries, the
// request journal and pending faults. Restore reads it back. Deliveries in
// the middle of an attempt are saved as queued: a restored server makes
// that attempt again.
func (s *Server) Snapshot(w io.Writer) error {
	b, err := s.snapshot()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func (s *Server) snapshot() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"format":"` + stateFormat + `","version":` + strconv.Itoa(StateVersion))
	field := func(key string, v any) error {
		b, err := json.Marshal(v)
		buf.WriteString(`,"` + key + `":`)
		buf.Write(b)
		return err
	}
	_ = field("seed", s.cfg.seed)
	_ = field("client_id", s.cfg.clientID)

	// Under the lock, the state is copied; it is encoded after the lock is
	// released, so that a large state does not stop the API while it is
	// written out.
	st := s.store
	var (
		now   time.Time
		ids   stateIDs
		saved *store
		nu    string
		hooks stateHooks
	)
	func() {
		defer st.lock().unlock()
		now = s.Now()
		ids = stateIDs{Seed: hex.EncodeToString(st.ids.seed[:])}
		if st.ids.r != nil {
			ids.ChaCha8, _ = st.ids.r.MarshalBinary()
		}
		saved = cloneStore(st)
		if st.networkUser != nil {
			nu = st.networkUser.id
		}
		hooks = s.hooks.snapshot()
	}()
	if snapshotCopied != nil {
		snapshotCopied(s)
	}
	err := func() error {
		if err := field("clock", now.Format(time.RFC3339Nano)); err != nil {
			return err
		}
		if err := field("ids", ids); err != nil {
			return err
		}
		buf.WriteString(`,"store":`)
		if err := encodeStore(&buf, saved); err != nil {
			return err
		}
		if err := field("network_user", nu); err != nil {
			return err
		}
		return field("webhooks", hooks)
	}()
	if err != nil {
		return nil, fmt.Errorf("synapsefake: snapshot: %w", err)
	}
	if err := field("journal", s.Requests()); err != nil {
		return nil, fmt.Errorf("synapsefake: snapshot: %w", err)
	}
	buf.WriteString(`,"faults":`)
	s.faults.mu.Lock()
	err = encodeValue(&buf, exported(reflect.ValueOf(&s.faults.list).Elem()))
	s.faults.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("synapsefake: snapshot: %w", err)
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// snapshotCopied, when set (by tests), runs between a snapshot's copy and
// its encoding.
var snapshotCopied func(*Server)

// cloneStore returns a deep copy of the fields of st that encodeStore
// writes; the others are left zero. Callers hold mu.
func cloneStore(st *store) *store {
	c := new(store)
	src, dst := reflect.ValueOf(st).Elem(), reflect.ValueOf(c).Elem()
	for i := range src.NumField() {
		if _, apart := storeFieldsApart[src.Type().Field(i).Name]; !apart {
			exported(dst.Field(i)).Set(deepCopy(exported(src.Field(i))))
		}
	}
	return c
}

// deepCopy returns a copy of v that shares no memory that can change with
// it: pointers, maps, slices and the values of interfaces are copied
// through. Times and strings cannot change and are shared.
func deepCopy(v reflect.Value) reflect.Value {
	t := v.Type()
	if t == timeType {
		return v
	}
	if t == ledgerType {
		return reflect.ValueOf(v.Interface().(ledger).clone())
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.Zero(t)
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(deepCopy(v.Elem()))
		return p
	case reflect.Map:
		if v.IsNil() {
			return reflect.Zero(t)
		}
		m := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), deepCopy(it.Value()))
		}
		return m
	case reflect.Slice:
		if v.IsNil() {
			return reflect.Zero(t)
		}
		c := reflect.MakeSlice(t, v.Len(), v.Len())
		if k := t.Elem().Kind(); k <= reflect.Complex128 || k == reflect.String {
			reflect.Copy(c, v)
			return c
		}
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	case reflect.Array:
		c := reflect.New(t).Elem()
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	case reflect.Struct:
		if !v.CanAddr() {
			a := reflect.New(t).Elem()
			a.Set(v)
			v = a
		}
		c := reflect.New(t).Elem()
		for i := range v.NumField() {
			exported(c.Field(i)).Set(deepCopy(exported(v.Field(i))))
		}
		return c
	case reflect.Interface:
		if v.IsNil() {
			return reflect.Zero(t)
		}
		c := reflect.New(t).Elem()
		c.Set(deepCopy(v.Elem()))
		return c
	}
	return v
}

// encodeStore writes the store's fields but storeFieldsApart as one
// object. Callers hold mu, or own st (a copy).
func encodeStore(buf *bytes.Buffer, st *store) error {
	v := reflect.ValueOf(st).Elem()
	buf.WriteByte('{')
	first := true
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if _, apart := storeFieldsApart[name]; apart {
			continue
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		writeKey(buf, name)
		if err := encodeValue(buf, exported(v.Field(i))); err != nil {
			return fmt.Errorf("store.%s: %w", name, err)
		}
	}
	buf.WriteByte('}')
	return nil
}

// snapshot describes the webhook side, in values that share nothing with
// the hooks. The store's lock is held; it takes the hooks lock.
func (h *hooks) snapshot() stateHooks {
	h.mu.Lock()
	defer h.mu.Unlock()
	events := map[uint64]*event{}
	captured := map[uint64]bool{}
	for i := range h.events.len() {
		ev := h.events.at(i)
		events[ev.seq], captured[ev.seq] = ev, true
	}
	for i := range h.log.len() {
		events[h.log.at(i).d.ev.seq] = h.log.at(i).d.ev
	}
	retrying := map[*delivery]bool{}
	for _, r := range h.retries {
		events[r.d.ev.seq] = r.d.ev
		retrying[r.d] = true
	}
	for _, b := range h.boxes {
		for _, d := range b.queue {
			events[d.ev.seq] = d.ev
		}
	}
	out := stateHooks{Seq: h.seq, Events: []stateEvent{}, Log: []stateLogEntry{}, Retries: []stateRetry{}, Queued: []stateDeliveryRef{}}
	seqs := make([]uint64, 0, len(events))
	for seq := range events {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	var queued []*delivery
	for _, seq := range seqs {
		ev := events[seq]
		se := stateEvent{Seq: seq, At: ev.at, Function: ev.function(), Backend: ev.backend, Captured: captured[seq],
			Deliveries: make([]stateDelivery, len(ev.deliveries))}
		if ev.obj != nil {
			se.Object = &stateObject{Type: ev.obj.typ, ID: ev.obj.id, Status: ev.obj.status, View: string(ev.obj.view())}
		} else {
			se.TxID, se.Timeline, se.Code = ev.tx.id, len(ev.timeline), ev.code
		}
		for i := range ev.deliveries {
			d := &ev.deliveries[i]
			sd := stateDelivery{SubscriptionID: d.target.subID, URL: d.target.url, Due: d.due, Attempts: make([]stateAttempt, len(d.attempts))}
			for j, a := range d.attempts {
				sd.Attempts[j] = stateAttempt{At: a.at, Code: a.code, Text: a.text, Chaos: chaosString(a.chaos)}
			}
			se.Deliveries[i] = sd
			if !d.finished() && !retrying[d] {
				queued = append(queued, d)
			}
		}
		out.Events = append(out.Events, se)
	}
	sort.SliceStable(queued, func(i, j int) bool { return queued[i].due < queued[j].due })
	for _, d := range queued {
		out.Queued = append(out.Queued, stateDeliveryRef{Seq: d.ev.seq, Delivery: d.index()})
	}
	for i := range h.log.len() {
		e := h.log.at(i)
		out.Log = append(out.Log, stateLogEntry{Seq: e.d.ev.seq, Delivery: e.d.index(), Attempt: int(e.attempt)})
	}
	for _, r := range h.retries {
		out.Retries = append(out.Retries, stateRetry{At: r.at, Seq: r.d.ev.seq, Delivery: r.d.index()})
	}
	return out
}

// finished reports whether d needs no further attempt: its last attempt
// succeeded, or it made every retry. Callers hold the hooks lock.
func (d *delivery) finished() bool {
	n := len(d.attempts)
	return n > 0 && (slices.Contains(webhookSuccess, int(d.attempts[n-1].code)) || n > len(webhookRetryDelays))
}

// index is d's position among its event's deliveries.
func (d *delivery) index() int {
	for i := range d.ev.deliveries {
		if &d.ev.deliveries[i] == d {
			return i
		}
	}
	panic("synapsefake: a delivery outside its event")
}

// Restore replaces the server's whole state with a document Snapshot
// wrote. A document that is not valid JSON, is of another format or
// version, was saved by a server with another id seed or client id, or
// does not hold together (a transaction event of an unknown transaction,
// a log entry of a missing attempt...) is refused with an error, and the
// state is left as it was. The server keeps its options (URL, client
// credentials, webhook and journal limits). A mock or the default clock is
// set to the saved time; a real clock cannot be set, so what fell due
// between the save and now runs at the next request.
func (s *Server) Restore(r io.Reader) error { return s.restoreFrom(r, false) }

// RestoreCopy is Restore of a document another server saved, one with
// another client id or id seed: another platform of a Platforms, say, to
// start each test's platform from one prepared state. Its users, nodes,
// transactions, keys, subscriptions, clock, id stream, webhooks and
// journal become this server's; the server keeps its own credentials,
// name and options, so objects show this server's client and webhooks
// are signed with its secret from now on. What was recorded before the
// copy (the captured webhooks' bodies, the journal) stays as it was sent,
// and the webhook log's ids are this server's. Every other check of
// Restore holds.
func (s *Server) RestoreCopy(r io.Reader) error { return s.restoreFrom(r, true) }

// restoreFrom reads a document and restores it, one restore at a time;
// copied takes one of another client id or seed.
func (s *Server) restoreFrom(r io.Reader, copied bool) error {
	if !s.restoring.TryLock() {
		return errRestoreBusy
	}
	defer s.restoring.Unlock()
	data, err := s.readState(r)
	if err != nil {
		return err
	}
	return s.restore(data, copied)
}

// restoredState is a decoded document, ready to be swapped in.
type restoredState struct {
	clock    time.Time
	store    *store
	hooks    stateHooks
	events   map[uint64]*event
	captured []*event // oldest first
	journal  []Request
	faults   []*fault
}

func (s *Server) restore(data []byte, copied bool) error {
	rs, err := s.decodeState(data, copied)
	if err != nil {
		return err
	}
	s.swapIn(rs)
	s.faults.set(rs.faults)
	s.ResetRequests()
	for _, r := range rs.journal {
		s.journal.add(r, 0) // latency is not saved: restored calls show none
	}
	return nil
}

// swapIn replaces the store, the clock and the webhook side with rs's,
// under the store's lock.
func (s *Server) swapIn(rs *restoredState) {
	st := s.store
	defer st.lock().unlock()
	st.era++
	st.ids = rs.store.ids
	src := reflect.ValueOf(rs.store).Elem()
	dst := reflect.ValueOf(st).Elem()
	for i := range dst.NumField() {
		if _, apart := storeFieldsApart[dst.Type().Field(i).Name]; !apart {
			exported(dst.Field(i)).Set(exported(src.Field(i)))
		}
	}
	st.networkUser = rs.store.networkUser
	st.firstMonthly = firstMonthlyOf(st.nodes)
	st.goneUsers = goneUsersOf(st.users)
	switch {
	case s.mock != nil:
		s.mock.Set(rs.clock)
	case s.clock == nil:
		s.frozen.mu.Lock()
		s.frozen.now = rs.clock
		s.frozen.mu.Unlock()
	}
	s.hooks.restore(rs)
}

// restore swaps in the webhook side of rs. The store's lock is held.
func (h *hooks) restore(rs *restoredState) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stop()
	h.seq = rs.hooks.Seq
	h.version++
	h.epoch++
	h.events, h.eventBytes = fifo[*event]{}, 0
	for _, ev := range rs.captured {
		h.events.push(ev)
		h.eventBytes += ev.cost() + ev.attemptsCost()
	}
	h.trimEvents()
	h.log, h.logBytes = fifo[logEntry]{}, 0
	for _, e := range rs.hooks.Log {
		d := &rs.events[e.Seq].deliveries[e.Delivery]
		h.pushLog(logEntry{d: d, attempt: int32(e.Attempt)})
		h.logBytes += int64(attemptOverhead + logEntryOverhead + len(d.attempts[e.Attempt].text))
	}
	for _, r := range rs.hooks.Retries {
		h.retries = append(h.retries, retry{at: r.At, d: &rs.events[r.Seq].deliveries[r.Delivery]})
	}
	h.nextRetry.Store(math.MinInt64) // the next due finds the first
	if !h.closed {
		for _, q := range rs.hooks.Queued {
			d := &rs.events[q.Seq].deliveries[q.Delivery]
			if h.s.cfg.deliverWebhooks {
				h.enqueue(d)
			} else {
				h.record(d, attemptRecord{at: d.due, code: http.StatusOK, text: notDelivered})
			}
		}
	}
	h.cond.Broadcast()
}

// decodeState decodes and checks a whole document without touching the
// server.
func (s *Server) decodeState(data []byte, copied bool) (*restoredState, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, errState("not a JSON object: %v", err)
	}
	var format string
	var version int
	if json.Unmarshal(top["format"], &format) != nil || format != stateFormat {
		return nil, errState(`"format" must be %q.`, stateFormat)
	}
	if err := json.Unmarshal(top["version"], &version); err != nil || version != StateVersion {
		return nil, errState(`version %s is not supported; this fake reads version %d.`, top["version"], StateVersion)
	}
	for _, k := range stateKeys {
		if _, ok := top[k]; !ok {
			return nil, errState("%q is missing.", k)
		}
	}
	for k := range top {
		if !slices.Contains(stateKeys, k) {
			return nil, errState("unknown key %q.", k)
		}
	}
	var seed uint64
	var clientID, clock, networkUser string
	var ids stateIDs
	rs := &restoredState{}
	for _, f := range []struct {
		key string
		v   any
	}{{"seed", &seed}, {"client_id", &clientID}, {"clock", &clock}, {"ids", &ids}, {"network_user", &networkUser},
		{"webhooks", &rs.hooks}, {"journal", &rs.journal}} {
		if err := strictUnmarshal(top[f.key], f.v); err != nil {
			return nil, errState("%q: %v", f.key, err)
		}
	}
	if seed != s.cfg.seed && !copied {
		return nil, errState("it was saved by a server with id seed %d; this one has %d (PUT /_fake/state?copy=true, RestoreCopy, takes another platform's document).", seed, s.cfg.seed)
	}
	if clientID != s.cfg.clientID && !copied {
		return nil, errState("it was saved by a server with client id %q; this one has %q (PUT /_fake/state?copy=true, RestoreCopy, takes another platform's document).", clientID, s.cfg.clientID)
	}
	var err error
	if rs.clock, err = time.Parse(time.RFC3339Nano, clock); err != nil {
		return nil, errState(`"clock": %v`, err)
	}

	st := newStore(s.cfg.seed)
	if err := decodeStore(top["store"], st); err != nil {
		return nil, errState(`"store": %v`, err)
	}
	idSeed, err := hex.DecodeString(ids.Seed)
	if err != nil || len(idSeed) != len(st.ids.seed) {
		return nil, errState(`"ids": "seed" must be %d bytes in hex.`, len(st.ids.seed))
	}
	copy(st.ids.seed[:], idSeed)
	if ids.ChaCha8 != nil {
		st.ids.r = &rand.ChaCha8{}
		if err := st.ids.r.UnmarshalBinary(ids.ChaCha8); err != nil {
			return nil, errState(`"ids": "chacha8": %v`, err)
		}
	}
	if networkUser != "" {
		if st.networkUser = st.users[networkUser]; st.networkUser == nil {
			return nil, errState(`"network_user" %q is not in users.`, networkUser)
		}
	}
	if err := decodeValue(top["faults"], exported(reflect.ValueOf(&rs.faults).Elem())); err != nil {
		return nil, errState(`"faults": %v`, err)
	}
	if err := checkStore(st); err != nil {
		return nil, errState(`%v`, err)
	}
	if err := rs.linkEvents(st); err != nil {
		return nil, errState(`"webhooks": %v`, err)
	}
	rs.store = st
	return rs, nil
}

// linkEvents builds the events of rs.hooks on the decoded store st and
// checks every reference to them.
func (rs *restoredState) linkEvents(st *store) error {
	rs.events = make(map[uint64]*event, len(rs.hooks.Events))
	for _, se := range rs.hooks.Events {
		fn := slices.Index(eventFunctions[:], se.Function)
		switch {
		case fn < 0:
			return fmt.Errorf("event %d: unknown function %q", se.Seq, se.Function)
		case rs.events[se.Seq] != nil:
			return fmt.Errorf("event %d appears twice", se.Seq)
		case se.Seq == 0 || se.Seq > rs.hooks.Seq:
			return fmt.Errorf("event %d: seq outside 1..%d", se.Seq, rs.hooks.Seq)
		}
		ev := &event{seq: se.Seq, at: se.At, fn: uint8(fn), backend: se.Backend, dropped: !se.Captured}
		if se.Object != nil {
			o := se.Object
			if !checkView(o.View) {
				return fmt.Errorf("event %d: the object's view is not a JSON object", se.Seq)
			}
			ev.obj = &objectEvent{typ: o.Type, id: o.ID, status: o.Status, rest: []byte(o.View)}
		} else {
			t := st.txs[se.TxID]
			if t == nil {
				return fmt.Errorf("event %d: transaction %q is not in the store", se.Seq, se.TxID)
			}
			if se.Timeline < 1 || se.Timeline > len(t.timeline) {
				return fmt.Errorf("event %d: timeline length %d outside 1..%d", se.Seq, se.Timeline, len(t.timeline))
			}
			ev.tx, ev.timeline, ev.code = t, t.timeline[:se.Timeline:se.Timeline], se.Code
		}
		if len(se.Deliveries) > 0 {
			ev.deliveries = make([]delivery, len(se.Deliveries))
		}
		for i, sd := range se.Deliveries {
			d := delivery{ev: ev, target: &hookTarget{subID: sd.SubscriptionID, url: sd.URL}, due: sd.Due}
			for _, a := range sd.Attempts {
				flags, ok := chaosFlags(a.Chaos)
				if !ok {
					return fmt.Errorf("event %d: unknown chaos %q", se.Seq, a.Chaos)
				}
				d.attempts = append(d.attempts, attemptRecord{at: a.At, code: a.Code, chaos: flags, text: a.Text})
			}
			ev.deliveries[i] = d
		}
		rs.events[se.Seq] = ev
		if se.Captured {
			rs.captured = append(rs.captured, ev)
		}
	}
	slices.SortFunc(rs.captured, func(a, b *event) int { return cmp.Compare(a.seq, b.seq) })
	delivery := func(what string, seq uint64, i int) (*delivery, error) {
		ev := rs.events[seq]
		if ev == nil || i < 0 || i >= len(ev.deliveries) {
			return nil, fmt.Errorf("%s names delivery %d of event %d, which the document does not hold", what, i, seq)
		}
		return &ev.deliveries[i], nil
	}
	for _, e := range rs.hooks.Log {
		d, err := delivery("a log entry", e.Seq, e.Delivery)
		if err != nil {
			return err
		}
		if e.Attempt < 0 || e.Attempt >= len(d.attempts) {
			return fmt.Errorf("a log entry names attempt %d of a delivery of event %d, which made %d", e.Attempt, e.Seq, len(d.attempts))
		}
	}
	for _, r := range rs.hooks.Retries {
		if _, err := delivery("a retry", r.Seq, r.Delivery); err != nil {
			return err
		}
	}
	if !slices.IsSortedFunc(rs.hooks.Retries, func(a, b stateRetry) int { return cmp.Compare(a.At, b.At) }) {
		return fmt.Errorf("retries are not in due order")
	}
	for _, q := range rs.hooks.Queued {
		if _, err := delivery("a queued delivery", q.Seq, q.Delivery); err != nil {
			return err
		}
	}
	return nil
}

// decodeStore fills the fields of st but storeFieldsApart from the
// "store" object, which must hold each of them and nothing else.
func decodeStore(data []byte, st *store) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil || fields == nil {
		return fmt.Errorf("not an object")
	}
	v := reflect.ValueOf(st).Elem()
	n := 0
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if _, apart := storeFieldsApart[name]; apart {
			continue
		}
		n++
		raw, ok := fields[name]
		if !ok {
			return fmt.Errorf("%q is missing", name)
		}
		if err := decodeValue(raw, exported(v.Field(i))); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if len(fields) != n {
		for k := range fields {
			if f, ok := v.Type().FieldByName(k); !ok || storeFieldsApart[f.Name] != "" {
				return fmt.Errorf("unknown field %q", k)
			}
		}
	}
	return nil
}

// strictUnmarshal decodes data into v, refusing unknown fields.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// exported returns v, a field of an addressable struct, as a value that
// may be read whole and set: reflect refuses both for unexported fields,
// and the records are all unexported.
func exported(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

var (
	timeType  = reflect.TypeFor[time.Time]()
	bytesType = reflect.TypeFor[[]byte]()
)

// encodeValue writes v as JSON: structs as objects keyed by field name,
// maps with their keys sorted, nil slices, maps and pointers as null.
func encodeValue(buf *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	switch {
	case t == timeType:
		appendJSON(buf, v.Interface().(time.Time).Format(time.RFC3339Nano))
		return nil
	case t == ledgerType:
		return encodeLedger(buf, v.Interface().(ledger))
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		if v.IsNil() {
			buf.WriteString("null")
		} else {
			appendJSON(buf, v.Bytes())
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Bool:
		buf.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		buf.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		buf.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b, err := json.Marshal(v.Float())
		if err != nil {
			return err
		}
		buf.Write(b)
	case reflect.String:
		appendJSON(buf, v.String())
	case reflect.Interface:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		b, err := json.Marshal(v.Interface())
		if err != nil {
			return err
		}
		buf.Write(b)
	case reflect.Pointer:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		return encodeValue(buf, v.Elem())
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		buf.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := encodeValue(buf, v.Index(i)); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return fmt.Errorf("cannot save a map keyed by %s", t.Key())
		}
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return bytes.Compare([]byte(a.String()), []byte(b.String()))
		})
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeKey(buf, k.String())
			if err := encodeValue(buf, v.MapIndex(k)); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case reflect.Struct:
		if !v.CanAddr() { // a map's value: copy it so that its fields can be read
			c := reflect.New(t).Elem()
			c.Set(v)
			v = c
		}
		buf.WriteByte('{')
		for i := range v.NumField() {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeKey(buf, t.Field(i).Name)
			if err := encodeValue(buf, exported(v.Field(i))); err != nil {
				return fmt.Errorf("%s: %w", t.Field(i).Name, err)
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("cannot save a %s", t)
	}
	return nil
}

func appendJSON(buf *bytes.Buffer, v any) {
	b, _ := json.Marshal(v)
	buf.Write(b)
}

func writeKey(buf *bytes.Buffer, k string) {
	appendJSON(buf, k)
	buf.WriteByte(':')
}

var jsonNull = []byte("null")

// decodeValue reads what encodeValue wrote into v, which can be set. An
// object must hold every field of its struct and no other.
func decodeValue(data []byte, v reflect.Value) error {
	t := v.Type()
	data = bytes.TrimSpace(data)
	null := bytes.Equal(data, jsonNull)
	switch {
	case t == timeType:
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(tm))
		return nil
	case t == ledgerType:
		return decodeLedger(data, v)
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		var b []byte
		if err := json.Unmarshal(data, &b); err != nil {
			return err
		}
		v.SetBytes(b)
		return nil
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		if null {
			return fmt.Errorf("null where a %s goes", t)
		}
		p := reflect.New(t)
		if err := json.Unmarshal(data, p.Interface()); err != nil {
			return err
		}
		v.Set(p.Elem())
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return fmt.Errorf("cannot restore a %s", t)
		}
		// A free-form value (extra.other, dispute_meta) came in a request
		// body, which nests at most maxJSONDepth levels.
		if deeperThan(data, maxJSONDepth) {
			return fmt.Errorf("arrays and objects nest deeper than %d levels, which no request can store", maxJSONDepth)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber() // numbers encode back as they were written
		var x any
		if err := dec.Decode(&x); err != nil {
			return err
		}
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
	case reflect.Pointer:
		if null {
			return nil
		}
		p := reflect.New(t.Elem())
		if err := decodeValue(data, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
	case reflect.Slice, reflect.Array:
		if null && t.Kind() == reflect.Slice {
			return nil
		}
		var items []json.RawMessage
		if err := json.Unmarshal(data, &items); err != nil || items == nil {
			return fmt.Errorf("want an array for %s", t)
		}
		if t.Kind() == reflect.Array {
			if len(items) != t.Len() {
				return fmt.Errorf("want %d items for %s, not %d", t.Len(), t, len(items))
			}
		} else {
			v.Set(reflect.MakeSlice(t, len(items), len(items)))
		}
		for i, raw := range items {
			if err := decodeValue(raw, v.Index(i)); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return fmt.Errorf("cannot restore a map keyed by %s", t.Key())
		}
		if null {
			v.SetZero()
			return nil
		}
		var items map[string]json.RawMessage
		if err := json.Unmarshal(data, &items); err != nil || items == nil {
			return fmt.Errorf("want an object for %s", t)
		}
		m := reflect.MakeMapWithSize(t, len(items))
		for k, raw := range items {
			e := reflect.New(t.Elem()).Elem()
			if err := decodeValue(raw, e); err != nil {
				return fmt.Errorf("[%q]: %w", k, err)
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), e)
		}
		v.Set(m)
	case reflect.Struct:
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(data, &fields); err != nil || fields == nil {
			return fmt.Errorf("want an object for %s", t)
		}
		if len(fields) != t.NumField() {
			return fmt.Errorf("want the %d fields of %s, not %d", t.NumField(), t, len(fields))
		}
		for i := range t.NumField() {
			name := t.Field(i).Name
			raw, ok := fields[name]
			if !ok {
				return fmt.Errorf("%s: %q is missing", t, name)
			}
			if err := decodeValue(raw, exported(v.Field(i))); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	default:
		return fmt.Errorf("cannot restore a %s", t)
	}
	return nil
}

// savable reports why values of t cannot be saved by encodeValue and
// restored by decodeValue, or nil if they can.
func savable(t reflect.Type, seen map[reflect.Type]bool) error {
	if seen[t] || t == timeType || t == bytesType {
		return nil
	}
	seen[t] = true
	if t == ledgerType { // saved as a flat array of entries
		return savable(reflect.TypeFor[ledgerEntry](), seen)
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return nil
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return fmt.Errorf("%s is an interface with methods", t)
		}
		return nil
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return savable(t.Elem(), seen)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return fmt.Errorf("%s is keyed by %s", t, t.Key())
		}
		return savable(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if err := savable(t.Field(i).Type, seen); err != nil {
				return fmt.Errorf("%s.%s: %w", t, t.Field(i).Name, err)
			}
		}
		return nil
	}
	return fmt.Errorf("%s cannot be saved", t)
}
