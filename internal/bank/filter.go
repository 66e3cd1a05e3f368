package bank

import (
	"cmp"
	"context"
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// viewFields sets m's names to v's fields of those JSON names, as the list
// answer shows them (decoded JSON), leaving out those the answer omits; v
// points to a view.
func viewFields(m map[string]any, v any, names []string) {
	rv := reflect.ValueOf(v).Elem()
	fields := jsonFieldsOf(rv.Type())
	if fields == nil {
		// Not a plain struct: the whole view, decoded.
		var whole map[string]any
		if b, err := json.Marshal(v); err == nil && json.Unmarshal(b, &whole) == nil {
			for _, name := range names {
				if x, ok := whole[name]; ok {
					m[name] = x
				}
			}
		}
		return
	}
	for _, name := range names {
		jf, ok := fields[name]
		if !ok {
			continue
		}
		fv := rv.Field(jf.index)
		if jf.omitted(fv) {
			continue
		}
		m[name] = jsonValue(fv)
	}
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// jsonValue is v as encoding/json writes it, decoded again. Strings (of
// valid UTF-8), booleans, numbers, and the objects, arrays and string-keyed
// maps made of them are built directly; anything else (a value that
// marshals itself, a byte slice...) goes through encoding/json.
func jsonValue(v reflect.Value) any {
	t := v.Type()
	if t.Implements(marshalerType) {
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return nil
		}
		b, err := v.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return nil
		}
		if len(b) > 0 && (b[0] == '-' || '0' <= b[0] && b[0] <= '9') {
			if f, err := strconv.ParseFloat(string(b), 64); err == nil {
				return f // an amount in dollars (cents)
			}
		}
		var out any
		if json.Unmarshal(b, &out) != nil {
			return nil
		}
		return out
	}
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); utf8.ValidString(s) {
			return s
		}
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint())
	case reflect.Float64:
		return v.Float()
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return jsonValue(v.Elem())
	case reflect.Struct:
		if fields := jsonFieldsOf(t); fields != nil {
			m := make(map[string]any, len(fields))
			for name, jf := range fields {
				if fv := v.Field(jf.index); !jf.omitted(fv) {
					m[name] = jsonValue(fv)
				}
			}
			return m
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil
		}
		if t.Elem().Kind() != reflect.Uint8 { // bytes are base64
			list := make([]any, v.Len())
			for i := range list {
				list[i] = jsonValue(v.Index(i))
			}
			return list
		}
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		if t.Key().Kind() == reflect.String && !t.Key().Implements(textMarshalerType) {
			m := make(map[string]any, v.Len())
			for it := v.MapRange(); it.Next(); {
				k := it.Key().String()
				if !utf8.ValidString(k) {
					return decodedJSON(v.Interface())
				}
				m[k] = jsonValue(it.Value())
			}
			return m
		}
	}
	return decodedJSON(v.Interface())
}

// decodedJSON is v's JSON decoded again; nil if v does not encode.
func decodedJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// jsonField is where a JSON name is in a view struct.
type jsonField struct {
	index     int
	omitEmpty bool
	omitZero  bool
}

// omitted reports whether encoding/json leaves the field out, holding v.
func (f jsonField) omitted(v reflect.Value) bool {
	if f.omitZero {
		if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
			if z.IsZero() {
				return true
			}
		} else if v.IsZero() {
			return true
		}
	}
	if !f.omitEmpty {
		return false
	}
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Struct:
		return false
	}
	return v.IsZero()
}

// jsonFields caches jsonFieldsOf.
var jsonFields sync.Map // reflect.Type -> map[string]jsonField

// jsonFieldsOf maps t's JSON names to its fields, as encoding/json names
// them; nil when t is not a struct, has an embedded field or marshals
// itself, whose JSON the caller then decodes whole.
func jsonFieldsOf(t reflect.Type) map[string]jsonField {
	if m, ok := jsonFields.Load(t); ok {
		return m.(map[string]jsonField)
	}
	var m map[string]jsonField
	if t.Kind() == reflect.Struct && !t.Implements(marshalerType) && !reflect.PointerTo(t).Implements(marshalerType) {
		m = map[string]jsonField{}
		for i := range t.NumField() {
			sf := t.Field(i)
			if sf.Anonymous {
				m = nil
				break
			}
			tag := sf.Tag.Get("json")
			if !sf.IsExported() || tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			opts = "," + opts + ","
			if strings.Contains(opts, ",string,") {
				m = nil
				break
			}
			if name == "" {
				name = sf.Name
			}
			m[name] = jsonField{index: i, omitEmpty: strings.Contains(opts, ",omitempty,"), omitZero: strings.Contains(opts, ",omitzero,")}
		}
	}
	jsonFields.Store(t, m)
	return m
}

// listChunk is how many items a filtered or searched list examines in
// one hold of the store's lock: the lock is released between holds, so
// that a list that reads every item holds up no other request for longer
// than a chunk's work, whatever the filter (its cost per item is bounded:
// internal/filter's limits).
const listChunk = 256

// listRestarts is how many times a list starts over after the list it
// reads changed under it in a way it cannot follow (its last item
// removed, a Reset or Restore) before it reads the rest in one hold.
const listRestarts = 2

// listing is a list as pageOf reads it: its ids, each id's record, the
// items it leaves out, each item's view, and readers of some of the
// view's fields straight from the record.
type listing[R, V any] struct {
	// ids resolves the list under the lock, again for each hold: a list of
	// the store in order, which grows at its end and loses items in place
	// (slices.DeleteFunc), never reordered.
	ids    func(st *Store) ([]string, error)
	record func(st *Store, id string) R
	// skip, when not nil, answers the test of the items to leave out,
	// nil for none; it is asked again for each hold.
	skip func(st *Store) func(R) bool
	view func(st *Store, r R) V
	// fields read the view's top-level fields (by JSON name) as the view
	// shows them (jsonValue of the view's field; ok false when the view
	// omits it), at a fraction of the cost of building the view. A filter
	// that names only these builds views for the page alone.
	fields map[string]func(st *Store, r R) (v any, ok bool)
}

// errListCanceled answers a filtered or searched list whose request
// ended before the list had been read: nobody reads it but the journal.
func errListCanceled(err error) error {
	return apierr.New(reference.ErrUnavailable, "request_canceled", "The request ended before its list was read (%v).", err)
}

// pageOf is page q.Page of l, newest first when asked: the views of the
// items that l.skip leaves and q.Filter (nil: every one) matches, and how
// many there are. It takes the store's lock itself. Without skip and
// filter it builds the page's views only, in one hold. Otherwise it goes
// once over the list, listChunk items a hold, building each item's view
// at most once (none when l.fields read what the filter names) and
// keeping the page's; between holds it gives up when q.Ctx has ended.
//
// Each item is examined, and its view built, in one hold; the list may
// change between holds. Items added meanwhile are read (oldest first) or
// not (newest first), items removed are read or not depending on whether
// they had been reached, so the answer is the list as it was while it
// was read: every item shown matches, and the count is of the items that
// matched when examined.
func pageOf[R, V any](st *Store, q ListQuery, l listing[R, V]) ([]V, int, error) {
	ctx := q.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	s := listScan[R, V]{q: q, l: l, ctx: ctx, chunk: cmp.Or(q.chunk, listChunk)}
	s.lo, _ = q.Page.Window(math.MaxInt)
	if q.Filter != nil {
		s.doc = newFilterDoc(q.Filter.Fields(), l)
	}
	for {
		done, err := s.hold(st)
		if err != nil {
			return nil, 0, err
		}
		if done {
			if s.items == nil {
				s.items = []V{}
			}
			return s.items, s.total, nil
		}
		if q.between != nil {
			q.between(s.examined)
		}
		runtime.Gosched() // a request waiting for the lock takes it now
		if err := ctx.Err(); err != nil {
			return nil, 0, errListCanceled(err)
		}
	}
}

// listScan is pageOf's pass over a list: where it is, what it has kept.
type listScan[R, V any] struct {
	q     ListQuery
	l     listing[R, V]
	ctx   context.Context
	chunk int
	lo    int // the page's first item, in the filtered list
	doc   filterDoc[R, V]

	started  bool
	era      uint64
	restarts int
	// last is the id last examined and at its index in the list as it was
	// then; examined counts the items examined.
	last     string
	at       int
	examined int

	items []V
	total int
}

// hold examines the next chunk of the list in one hold of the lock (the
// whole page without skip and filter); done reports that the list has
// been read.
func (s *listScan[R, V]) hold(st *Store) (done bool, err error) {
	defer st.lock().unlock()
	list, err := s.l.ids(st)
	if err != nil {
		return true, err
	}
	var skip func(R) bool
	if s.l.skip != nil {
		skip = s.l.skip(st)
	}
	if !s.started {
		s.started, s.era = true, st.era
		if skip == nil && s.q.Filter == nil {
			lo, hi := s.q.Page.Window(len(list))
			s.items = make([]V, 0, hi-lo)
			for i := lo; i < hi; i++ {
				s.items = append(s.items, s.l.view(st, s.l.record(st, s.id(list, i))))
			}
			s.total = len(list)
			return true, nil
		}
		if err := s.ctx.Err(); err != nil {
			return true, errListCanceled(err)
		}
		s.begin(list)
	} else if st.era != s.era || !s.follow(list) {
		if s.restarts++; s.restarts > listRestarts {
			s.chunk = math.MaxInt
		}
		s.era, s.items, s.total, s.examined = st.era, nil, 0, 0
		s.begin(list)
	}
	// next is the index of the next item: after at oldest first, before
	// it newest first.
	step := 1
	if s.q.NewestFirst {
		step = -1
	}
	for n, i := 0, s.at+step; n < s.chunk; n, i = n+1, i+step {
		if i < 0 || i >= len(list) {
			return true, nil
		}
		id := list[i]
		s.last, s.at = id, i
		s.examined++
		r := s.l.record(st, id)
		if skip != nil && skip(r) {
			continue
		}
		viewed := false
		if s.q.Filter != nil {
			var doc map[string]any
			if doc, viewed = s.doc.of(st, r); !s.q.Filter.Match(doc) {
				continue
			}
		}
		if s.total >= s.lo && len(s.items) < s.q.Page.PerPage {
			if viewed {
				s.items = append(s.items, s.doc.v)
			} else {
				s.items = append(s.items, s.l.view(st, r))
			}
		}
		s.total++
	}
	i := s.at + step
	return i < 0 || i >= len(list), nil
}

// begin places the scan before the list's first item (its last, newest
// first).
func (s *listScan[R, V]) begin(list []string) {
	s.last = ""
	s.at = -1
	if s.q.NewestFirst {
		s.at = len(list)
	}
}

// follow finds, in the list as it is now, the item last examined: where
// it was, or at a lower index, items before it having been removed
// (items are only appended). It reports false when the item is gone.
func (s *listScan[R, V]) follow(list []string) bool {
	for i := min(s.at, len(list)-1); i >= 0; i-- {
		if list[i] == s.last {
			s.at = i
			return true
		}
	}
	return false
}

// id is the list's i-th id in the scan's order.
func (s *listScan[R, V]) id(list []string, i int) string {
	if s.q.NewestFirst {
		return list[len(list)-1-i]
	}
	return list[i]
}

// filterDoc is an item as a filter reads it: the fields the filter names,
// read by the listing's readers where it has them, from the item's view
// otherwise. One map serves a whole list: a filter keeps nothing of a
// document it matched.
type filterDoc[R, V any] struct {
	names   []string
	readers []func(st *Store, r R) (any, bool) // by names; nil: from the view
	viewed  []string                           // the names read from the view
	view    func(st *Store, r R) V
	doc     map[string]any
	v       V // the view of the last item read through it, when built
}

// newFilterDoc sets a document up for the fields a filter names.
func newFilterDoc[R, V any](names []string, l listing[R, V]) filterDoc[R, V] {
	d := filterDoc[R, V]{names: names, view: l.view, doc: make(map[string]any, len(names))}
	d.readers = make([]func(st *Store, r R) (any, bool), len(names))
	for i, name := range names {
		if d.readers[i] = l.fields[name]; d.readers[i] == nil {
			d.viewed = append(d.viewed, name)
		}
	}
	return d
}

// of fills the document for r; it reports whether it built r's view
// (d.v).
func (d *filterDoc[R, V]) of(st *Store, r R) (doc map[string]any, viewed bool) {
	clear(d.doc)
	for i, read := range d.readers {
		if read == nil {
			continue
		}
		if x, ok := read(st, r); ok {
			d.doc[d.names[i]] = x
		}
	}
	if len(d.viewed) > 0 {
		d.v, viewed = d.view(st, r), true
		viewFields(d.doc, &d.v, d.viewed)
	}
	return d.doc, viewed
}
