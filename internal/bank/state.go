// Saved state, the bank's side: the store's document, encoded and decoded.

package bank

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"time"
	"unsafe"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// ErrState is the refusal of a document Restore cannot use.
func ErrState(format string, args ...any) *apierr.Error {
	return apierr.Payload("invalid_state", "State document refused: "+format, args...)
}

// StateIDs is the id stream: its seed, and the ChaCha8 generator's state
// (position and buffered bytes), null before the first id was drawn.
type StateIDs struct {
	Seed    string `json:"seed"`    // hex, 32 bytes
	ChaCha8 []byte `json:"chacha8"` // MarshalBinary; base64
}

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
	"kycDelay":             "an option of the server restored into (WithKYCReview)",
	"kycManual":            "an option of the server restored into (WithKYCReview)",
	"expiredKeys":          "not saved: the last expired oauth_keys, for the test's log (diagnose.go)",
	"rotatedTokens":        "not saved: the last used-up refresh tokens, for the refusal's hint (diagnose.go)",
	"due":                  "not saved: when the first clock-driven work falls due, worked out on every unlock",
	"dueMonthly":           "not saved: a cache of due's",
	"firstMonthly":         "not saved: worked out from the restored nodes",
	"goneUsers":            "not saved: worked out from the restored users",
	"userRecs":             "not saved: worked out from the restored users and userOrder",
	"achMemo":              "not saved: a cache of the ACH calendar's last answer",
	"hexRoom":              "not saved: room for the next random strings, allocated together",
	"userSlab":             "not saved: room for the next user records, allocated together",
	"nameRoom":             "not saved: room for the next lists of legal names, allocated together",
	"textRoom":             "not saved: room for the next legal names, allocated together",
	"secrets":              "not saved: the identity of the server restored into (its client id and incarnation)",
	"eventSlab":            "not saved: room for the next events, allocated together",
	"objectSlab":           "not saved: room for the next object events, allocated together",
}

// cloneStore returns a deep copy of the fields of st that EncodeStore
// writes; the others are left zero. Callers hold mu.
func cloneStore(st *Store) *Store {
	c := new(Store)
	src, dst := reflect.ValueOf(st).Elem(), reflect.ValueOf(c).Elem()
	for i := range src.NumField() {
		if _, apart := storeFieldsApart[src.Type().Field(i).Name]; !apart {
			Exported(dst.Field(i)).Set(deepCopy(Exported(src.Field(i))))
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
			Exported(c.Field(i)).Set(deepCopy(Exported(v.Field(i))))
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

// EncodeStore writes the store's fields but storeFieldsApart as one
// object. Callers hold mu, or own st (a copy).
func EncodeStore(buf *bytes.Buffer, st *Store) error {
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
		if err := EncodeValue(buf, Exported(v.Field(i))); err != nil {
			return fmt.Errorf("store.%s: %w", name, err)
		}
	}
	buf.WriteByte('}')
	return nil
}

// decodeStore fills the fields of st but storeFieldsApart from the
// "store" object, which must hold each of them and nothing else.
func decodeStore(data []byte, st *Store) error {
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
		if err := DecodeValue(raw, Exported(v.Field(i))); err != nil {
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

// StrictUnmarshal decodes data into v, refusing unknown fields.
func StrictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Exported returns v, a field of an addressable struct, as a value that
// may be read whole and set: reflect refuses both for unexported fields,
// and the records are all unexported.
func Exported(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// EncodeValue writes v as JSON: structs as objects keyed by field name,
// maps with their keys sorted, nil slices, maps and pointers as null.
func EncodeValue(buf *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	switch {
	case t == timeType:
		appendJSON(buf, v.Interface().(time.Time).Format(time.RFC3339Nano))
		return nil
	case t == ledgerType:
		return encodeLedger(buf, v.Interface().(ledger))
	case t == subDocsType:
		return encodeSubDocs(buf, v.Interface().(subDocs))
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
		return EncodeValue(buf, v.Elem())
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
			if err := EncodeValue(buf, v.Index(i)); err != nil {
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
			if err := EncodeValue(buf, v.MapIndex(k)); err != nil {
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
			name := savedName(t, i)
			writeKey(buf, name)
			if err := EncodeValue(buf, Exported(v.Field(i))); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("cannot save a %s", t)
	}
	return nil
}

// DecodeValue reads what EncodeValue wrote into v, which can be set. An
// object must hold every field of its struct and no other.
func DecodeValue(data []byte, v reflect.Value) error {
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
	case t == subDocsType:
		return decodeSubDocs(data, v)
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
		// body, which nests at most jsonx.MaxDepth levels.
		if jsonx.DeeperThan(data, jsonx.MaxDepth) {
			return fmt.Errorf("arrays and objects nest deeper than %d levels, which no request can store", jsonx.MaxDepth)
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
		if err := DecodeValue(data, p.Elem()); err != nil {
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
			if err := DecodeValue(raw, v.Index(i)); err != nil {
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
			if err := DecodeValue(raw, e); err != nil {
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
			name := savedName(t, i)
			raw, ok := fields[name]
			if !ok {
				return fmt.Errorf("%s: %q is missing", t, name)
			}
			if err := DecodeValue(raw, Exported(v.Field(i))); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	default:
		return fmt.Errorf("cannot restore a %s", t)
	}
	return nil
}

// savable reports why values of t cannot be saved by EncodeValue and
// restored by DecodeValue, or nil if they can.
func savable(t reflect.Type, seen map[reflect.Type]bool) error {
	if seen[t] || t == timeType || t == bytesType {
		return nil
	}
	seen[t] = true
	if t == ledgerType { // saved as a flat array of entries
		return savable(reflect.TypeFor[ledgerEntry](), seen)
	}
	if t == subDocsType { // saved as an object of kinds
		return savable(reflect.TypeFor[map[string][]*subDocRecord](), seen)
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

var (
	timeType  = reflect.TypeFor[time.Time]()
	bytesType = reflect.TypeFor[[]byte]()
)

func appendJSON(buf *bytes.Buffer, v any) {
	b, _ := json.Marshal(v)
	buf.Write(b)
}

func writeKey(buf *bytes.Buffer, k string) {
	appendJSON(buf, k)
	buf.WriteByte(':')
}

var jsonNull = []byte("null")

// StateEvent is one event of the state document's webhook side: the wire's
// Hooks.Snapshot writes them, LinkStateEvents reads them back.
type StateEvent struct {
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
	Object     *StateObject    `json:"object,omitempty"`
	Deliveries []StateDelivery `json:"deliveries"`
}

// StateObject is the object of a StateEvent that is not a transaction's.
type StateObject struct {
	Type   string `json:"type"`
	ID     string `json:"id"`
	Status string `json:"status"`
	View   string `json:"view"` // the view's JSON as it was sent, as a string
}

// StateDelivery is one delivery of a StateEvent, to a subscription's URL
// or an ad hoc statement's webhook.
type StateDelivery struct {
	SubscriptionID string         `json:"subscription_id"` // "" for an ad hoc statement's webhook
	URL            string         `json:"url"`
	Due            int64          `json:"due"` // ms
	Attempts       []StateAttempt `json:"attempts"`
}

// StateAttempt is one attempt of a StateDelivery.
type StateAttempt struct {
	At    int64  `json:"at"` // ms
	Code  int32  `json:"code"`
	Text  string `json:"text"`
	Chaos string `json:"chaos,omitempty"` // Attempt.Chaos (chaos.go)
}

// LinkStateEvents builds the events es describe on the decoded store st,
// whose transaction events point into it, and answers them by seq and the
// captured ones, oldest first. lastSeq is the document's last sequence
// number; chaos parses an attempt's chaos (the wire's ChaosFlags).
func LinkStateEvents(st *Store, lastSeq uint64, es []StateEvent, chaos func(string) (uint8, bool)) (map[uint64]*Event, []*Event, error) {
	events := make(map[uint64]*Event, len(es))
	var captured []*Event
	for _, se := range es {
		fn := slices.Index(eventFunctions[:], se.Function)
		switch {
		case fn < 0:
			return nil, nil, fmt.Errorf("event %d: unknown function %q", se.Seq, se.Function)
		case events[se.Seq] != nil:
			return nil, nil, fmt.Errorf("event %d appears twice", se.Seq)
		case se.Seq == 0 || se.Seq > lastSeq:
			return nil, nil, fmt.Errorf("event %d: seq outside 1..%d", se.Seq, lastSeq)
		}
		ev := &Event{seq: se.Seq, at: se.At, fn: uint8(fn), backend: se.Backend, dropped: !se.Captured}
		if se.Object != nil {
			o := se.Object
			if !checkView(o.View) {
				return nil, nil, fmt.Errorf("event %d: the object's view is not a JSON object", se.Seq)
			}
			ev.obj = &objectEvent{typ: o.Type, id: o.ID, status: o.Status, rest: []byte(o.View)}
		} else {
			t := st.txs[se.TxID]
			if t == nil {
				return nil, nil, fmt.Errorf("event %d: transaction %q is not in the store", se.Seq, se.TxID)
			}
			if se.Timeline < 1 || se.Timeline > len(t.timeline) {
				return nil, nil, fmt.Errorf("event %d: timeline length %d outside 1..%d", se.Seq, se.Timeline, len(t.timeline))
			}
			ev.tx, ev.timeline, ev.code = t, t.timeline[:se.Timeline:se.Timeline], se.Code
		}
		if len(se.Deliveries) > 0 {
			ev.deliveries = make([]DeliveryRecord, len(se.Deliveries))
		}
		for i, sd := range se.Deliveries {
			d := DeliveryRecord{ev: ev, target: &hookTarget{subID: sd.SubscriptionID, url: sd.URL}, due: sd.Due}
			for _, a := range sd.Attempts {
				flags, ok := chaos(a.Chaos)
				if !ok {
					return nil, nil, fmt.Errorf("event %d: unknown chaos %q", se.Seq, a.Chaos)
				}
				d.attempts = append(d.attempts, AttemptRecord{at: a.At, code: a.Code, chaos: flags, text: a.Text})
			}
			ev.deliveries[i] = d
		}
		events[se.Seq] = ev
		if se.Captured {
			captured = append(captured, ev)
		}
	}
	slices.SortFunc(captured, func(a, b *Event) int { return cmp.Compare(a.seq, b.seq) })
	return events, captured, nil
}

// DeliveryAttempts answers how many attempts delivery i of event seq
// made, or an error if events does not hold it; what names the reference.
func DeliveryAttempts(events map[uint64]*Event, what string, seq uint64, i int) (int, error) {
	ev := events[seq]
	if ev == nil || i < 0 || i >= len(ev.deliveries) {
		return 0, fmt.Errorf("%s names delivery %d of event %d, which the document does not hold", what, i, seq)
	}
	return len(ev.deliveries[i].attempts), nil
}

// savedNames are the keys the document gives the fields of a type whose
// field names changed since it was first saved: an *apierr.Error, held by a
// fault and a bank login, was the root package's apiError, with unexported
// fields. The document keeps that version's keys.
var savedNames = map[reflect.Type][]string{
	reflect.TypeFor[apierr.Error](): {"status", "errorCode", "httpCode", "code", "msg", "reason", "hint", "reported"},
}

// savedName is the document's key for t's field i: its Go name, but for
// the types of savedNames.
func savedName(t reflect.Type, i int) string {
	if names, ok := savedNames[t]; ok {
		return names[i]
	}
	return t.Field(i).Name
}
