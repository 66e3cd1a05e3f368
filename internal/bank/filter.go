// List filters, the bank's side: a record's fields as a filter reads them.

package bank

import (
	"context"
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/filter"
	"github.com/synapsefake/synapsefake/reference"
)

// viewFields sets m's names to v's fields of those JSON names, as the list
// answer shows them (decoded JSON), leaving out those the answer omits: of
// each, what its projection (by name) reads, or the whole field when it
// has none. v points to a view.
func viewFields(m map[string]any, v any, names []string, projections map[string]*projection, a *arena) {
	rv := reflect.ValueOf(v).Elem()
	fields := jsonFieldsOf(rv.Type())
	if fields == nil {
		// Not a plain struct: the whole view, decoded.
		whole, _ := decodedJSON(rv.Interface()).(map[string]any)
		for _, name := range names {
			if x, ok := whole[name]; ok {
				m[name] = x
			}
		}
		return
	}
	base := rv.Addr().UnsafePointer()
	for _, name := range names {
		f := fields.byName[name]
		if f == nil {
			continue
		}
		q := unsafe.Add(base, f.offset)
		if f.omittedAt != nil && f.omittedAt(q) {
			continue
		}
		if p := projections[name]; p != nil && !p.whole {
			m[name] = projectValue(rv.FieldByIndex(f.index), p, a)
		} else {
			m[name] = f.ptrConv(q, a)
		}
	}
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// jsonValue is v as encoding/json writes it, decoded again: a string, a
// float64, a bool, nil, a []any, or an object: a filter.Object (a
// map[string]any where encoding/json made it).
func jsonValue(v reflect.Value) any { return converterOf(v.Type())(v, nil) }

// converter turns a value of one type into jsonValue's answer, its
// objects and lists, and the interfaces holding them, its strings and
// numbers, taken from a (nil: allocated).
type converter func(v reflect.Value, a *arena) any

// converters caches converterOf.
var converters sync.Map // reflect.Type -> converter

// converterOf is jsonValue for values of type t, its choices made once:
// strings (of valid UTF-8), booleans, numbers, and the structs, slices and
// string-keyed maps made of them are built directly; anything else (a
// value that marshals itself, a byte slice, a float32...) goes through
// encoding/json.
func converterOf(t reflect.Type) converter {
	if c, ok := converters.Load(t); ok {
		return c.(converter)
	}
	c, _ := converters.LoadOrStore(t, newConverter(t))
	return c.(converter)
}

// lazyConverterOf is converterOf(t), made at its first call: a type may
// hold itself.
func lazyConverterOf(t reflect.Type) converter {
	c := sync.OnceValue(func() converter { return converterOf(t) })
	return func(v reflect.Value, a *arena) any { return c()(v, a) }
}

func newConverter(t reflect.Type) converter {
	if t.Implements(selfConverterType) {
		return func(v reflect.Value, a *arena) any { return v.Interface().(selfConverter).filterValue(a) }
	}
	if t.Implements(marshalerType) {
		return marshaled
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && t.Implements(textMarshalerType) {
		return viaJSON
	}
	switch t.Kind() {
	case reflect.String:
		return func(v reflect.Value, a *arena) any {
			if s := v.String(); utf8.ValidString(s) {
				return a.str(s)
			}
			return viaJSON(v, a)
		}
	case reflect.Bool:
		return func(v reflect.Value, a *arena) any { return v.Bool() }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(v reflect.Value, a *arena) any { return a.num(float64(v.Int())) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return func(v reflect.Value, a *arena) any { return a.num(float64(v.Uint())) }
	case reflect.Float64:
		return func(v reflect.Value, a *arena) any { return a.num(v.Float()) }
	case reflect.Pointer:
		elem := lazyConverterOf(t.Elem())
		return func(v reflect.Value, a *arena) any {
			if v.IsNil() {
				return nil
			}
			return elem(v.Elem(), a)
		}
	case reflect.Interface:
		return func(v reflect.Value, a *arena) any {
			if v.IsNil() {
				return nil
			}
			return converterOf(v.Elem().Type())(v.Elem(), a)
		}
	case reflect.Struct, reflect.Array:
		if inPlace(t) {
			// Read in place, from a copy when v has no address.
			conv := lazyPtrConverterOf(t)
			return func(v reflect.Value, a *arena) any {
				if !v.CanAddr() {
					c := reflect.New(t).Elem()
					c.Set(v)
					v = c
				}
				return conv(v.Addr().UnsafePointer(), a)
			}
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			break // bytes are base64
		}
		// A slice's elements have their address.
		elems := elementsConverter(t.Elem())
		return func(v reflect.Value, a *arena) any {
			if v.IsNil() {
				return nil
			}
			return elems(v.UnsafePointer(), v.Len(), a)
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String || t.Key().Implements(textMarshalerType) {
			break
		}
		elem := lazyConverterOf(t.Elem())
		return func(v reflect.Value, a *arena) any {
			if v.IsNil() {
				return nil
			}
			o := a.object(v.Len())
			for it := v.MapRange(); it.Next(); {
				k := it.Key().String()
				if !utf8.ValidString(k) {
					return viaJSON(v, a)
				}
				o = append(o, filter.Member{Name: k, Value: elem(it.Value(), a)})
			}
			return a.boxObject(o)
		}
	}
	return viaJSON
}

// marshaled converts a value that marshals itself.
func marshaled(v reflect.Value, _ *arena) any {
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

func viaJSON(v reflect.Value, _ *arena) any { return decodedJSON(v.Interface()) }

// arena hands out the objects and lists of one item's filter document
// from slabs that the next item's reuses (reset): a filter keeps nothing
// of a document it matched. A nil arena allocates each.
type arena struct {
	members []filter.Member
	values  []any
	// The values the objects and lists hold, and the objects and lists
	// themselves, as interfaces point to them (arena.str...).
	strs    []string
	nums    []float64
	objects []filter.Object
	lists   [][]any
}

// arenaSlab is how many members (values) an arena's slab holds.
const arenaSlab = 1024

// reset makes the arena's slabs free for the next document.
func (a *arena) reset() {
	a.members, a.values = a.members[:0], a.values[:0]
	a.strs, a.nums, a.objects, a.lists = a.strs[:0], a.nums[:0], a.objects[:0], a.lists[:0]
}

// object is an empty Object with room for n members.
func (a *arena) object(n int) filter.Object {
	if a == nil {
		return make(filter.Object, 0, n)
	}
	if cap(a.members)-len(a.members) < n {
		a.members = make([]filter.Member, 0, max(arenaSlab, n))
	}
	i := len(a.members)
	a.members = a.members[:i+n]
	return a.members[i : i : i+n]
}

// list is a list of n values.
func (a *arena) list(n int) []any {
	if a == nil {
		return make([]any, n)
	}
	if cap(a.values)-len(a.values) < n {
		a.values = make([]any, 0, max(arenaSlab, n))
	}
	i := len(a.values)
	a.values = a.values[:i+n]
	return a.values[i : i+n : i+n] // the caller sets every value
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

// jsonField is a field of a struct that encoding/json writes: its JSON
// name, where it is (through embedded structs, and its offset in the
// struct), when it is left out, and its converters.
type jsonField struct {
	name      string
	index     []int
	typ       reflect.Type
	offset    uintptr
	omitEmpty bool
	omitZero  bool
	conv      converter
	// omittedAt is omitted of the field at its address; nil when the
	// field is never left out.
	omittedAt func(p unsafe.Pointer) bool
	ptrConv   ptrConverter
}

// omitted reports whether encoding/json leaves the field out, holding v.
func (f *jsonField) omitted(v reflect.Value) bool {
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

// jsonStruct is the fields encoding/json writes of a struct type, in
// order and by name.
type jsonStruct struct {
	list   []*jsonField
	byName map[string]*jsonField
}

// jsonFields caches jsonFieldsOf.
var jsonFields sync.Map // reflect.Type -> *jsonStruct

// jsonFieldsOf is the fields encoding/json writes of t, as it chooses them
// (embedded structs' fields promoted, a shallower field hiding a deeper
// one of its name); nil when t is not a struct, marshals itself, embeds a
// pointer or a non-struct, has a ",string" field or two fields whose name
// encoding/json would settle otherwise than by depth: the caller then
// decodes the struct's whole JSON.
func jsonFieldsOf(t reflect.Type) *jsonStruct {
	if s, ok := jsonFields.Load(t); ok {
		return s.(*jsonStruct)
	}
	var s *jsonStruct
	if t.Kind() == reflect.Struct && !t.Implements(marshalerType) && !reflect.PointerTo(t).Implements(marshalerType) {
		if list, ok := structFields(t, nil); ok {
			s = &jsonStruct{byName: map[string]*jsonField{}}
			depth := map[string]int{}
			for _, f := range list {
				switch d, seen := depth[f.name]; {
				case !seen:
					depth[f.name] = len(f.index)
					s.byName[f.name] = f
				case d == len(f.index):
					s = nil // a tie: encoding/json's tag rules decide
				}
				if s == nil {
					break
				}
			}
			if s != nil {
				for _, f := range list {
					if s.byName[f.name] == f {
						s.list = append(s.list, f)
					}
				}
				slices.SortStableFunc(s.list, func(a, b *jsonField) int { return slices.Compare(a.index, b.index) })
				for _, f := range s.list {
					ft := t.FieldByIndex(f.index).Type
					f.typ = ft
					f.conv, f.ptrConv = lazyConverterOf(ft), lazyPtrConverterOf(ft)
					f.omittedAt = omittedAtOf(ft, f.omitEmpty, f.omitZero)
					for i, at := t, 0; at < len(f.index); at++ {
						sf := i.Field(f.index[at])
						f.offset += sf.Offset
						i = sf.Type
					}
				}
			}
		}
	}
	jsonFields.Store(t, s)
	return s
}

// structFields lists t's JSON fields, those of embedded structs after
// t's own (deeper, at index's depth), shallowest first; ok is false for a
// struct jsonFieldsOf leaves to encoding/json.
func structFields(t reflect.Type, index []int) (list []*jsonField, ok bool) {
	var embedded []int
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous {
			if sf.Type.Kind() != reflect.Struct || name != "" {
				return nil, false
			}
			embedded = append(embedded, i)
			continue
		}
		if !sf.IsExported() {
			continue
		}
		opts = "," + opts + ","
		if strings.Contains(opts, ",string,") {
			return nil, false
		}
		if name == "" {
			name = sf.Name
		}
		list = append(list, &jsonField{name: name, index: append(slices.Clip(index), i),
			omitEmpty: strings.Contains(opts, ",omitempty,"), omitZero: strings.Contains(opts, ",omitzero,")})
	}
	for _, i := range embedded {
		inner, ok := structFields(t.Field(i).Type, append(slices.Clip(index), i))
		if !ok {
			return nil, false
		}
		list = append(list, inner...)
	}
	slices.SortStableFunc(list, func(a, b *jsonField) int { return len(a.index) - len(b.index) })
	return list, true
}

// listHold is how long a filtered or searched list holds the store's lock
// at a time, give or take the cost of 64 items (bounded, whatever the
// filter, by internal/filter's limits): the lock is released between
// holds, so that a list that reads every item holds up no other request
// for longer.
const listHold = time.Millisecond

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
	// records, when not nil, answers ids' records, index for index, as
	// the store keeps them; a list of another length than ids' is not
	// read (record looks each item up).
	records func(st *Store) []R
	// skip, when not nil, answers the test of the items to leave out,
	// nil for none; it is asked again for each hold.
	skip func(st *Store) func(R) bool
	view func(st *Store, r R) V
	// fields read the view's top-level fields (by JSON name) as the view
	// holds them (its field's Go value, or a selfConverter standing for
	// it; ok false when the view omits it), at a fraction of the cost of
	// building the view. A filter that names only these builds views for
	// the page alone.
	fields map[string]func(st *Store, r R) (v any, ok bool)
	// typed read what some paths of the view lead to (by dotted path), as
	// a filter.Typed reads them, cheaper still: a filter whose paths are
	// all here, and which compiles to a filter.Typed, reads only these.
	typed map[string]func(st *Store, r R, v *filter.Value, buf *[]string)
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
// once over the list, listHold at a time, building each item's view
// at most once (none when l.fields read what the filter names, nor a
// document when l.typed read its paths: filter.Typed) and
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
	s := listScan[R, V]{q: q, l: l, ctx: ctx, chunk: q.chunk}
	s.lo, _ = q.Page.Window(math.MaxInt)
	if q.Filter != nil {
		if s.typed = typedOf(q.Filter, l.typed); s.typed == nil {
			// The conditions that compile to filter.Typed go first, the
			// others on a document of what they read.
			rest := q.Filter
			if l.typed != nil {
				var t *filter.Typed
				if t, rest = q.Filter.Split(func(p string) bool { return l.typed[p] != nil }); t != nil {
					s.typed = bindReaders(t, l.typed)
				}
			}
			if rest != nil {
				s.doc, s.matcher = newFilterDoc(rest, l), rest.Matcher()
			}
		}
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
	q       ListQuery
	l       listing[R, V]
	ctx     context.Context
	chunk   int // items a hold examines; 0: as many as listHold allows
	lo      int // the page's first item, in the filtered list
	doc     filterDoc[R, V]
	matcher *filter.Matcher
	// typed, when not nil, is filter.Typed bound to the listing's typed
	// readers: the whole filter, or the conditions it compiles
	// (filter.Split), matcher then the others.
	typed func(st *Store, r R) bool

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
			s.chunk = math.MaxInt // the rest in this hold
		}
		s.era, s.items, s.total, s.examined = st.era, nil, 0, 0
		s.begin(list)
	}
	var records []R
	if s.l.records != nil {
		if records = s.l.records(st); len(records) != len(list) {
			records = nil
		}
	}
	// The next item is after at oldest first, before it newest first.
	step := 1
	if s.q.NewestFirst {
		step = -1
	}
	start := time.Now()
	for n, i := 0, s.at+step; ; n, i = n+1, i+step {
		if end := i < 0 || i >= len(list); end ||
			s.chunk > 0 && n == s.chunk || s.chunk == 0 && n&63 == 63 && time.Since(start) >= listHold {
			if n > 0 { // the last item examined, and how many
				s.at = i - step
				s.last, s.examined = list[s.at], s.examined+n
			}
			return end, nil
		}
		var r R
		if records != nil {
			r = records[i]
		} else {
			r = s.l.record(st, list[i])
		}
		if skip != nil && skip(r) {
			continue
		}
		viewed := false
		if s.typed != nil && !s.typed(st, r) {
			continue
		}
		if s.matcher != nil {
			var doc map[string]any
			if doc, viewed = s.doc.of(st, r); !s.matcher.Match(doc) {
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

// typedOf is f compiled to read Values (filter.Typed) and bound to
// readers of its paths, when readers has one for each; nil otherwise.
func typedOf[R any](f *filter.Filter, readers map[string]func(st *Store, r R, v *filter.Value, buf *[]string)) func(st *Store, r R) bool {
	if readers == nil {
		return nil
	}
	t, ok := f.Typed()
	if !ok {
		return nil
	}
	for _, path := range t.Paths() {
		if readers[path] == nil {
			return nil
		}
	}
	return bindReaders(t, readers)
}

// bindReaders is t bound to readers, which has one for each of its paths.
func bindReaders[R any](t *filter.Typed, readers map[string]func(st *Store, r R, v *filter.Value, buf *[]string)) func(st *Store, r R) bool {
	read := make([]func(st *Store, r R, v *filter.Value, buf *[]string), len(t.Paths()))
	for i, path := range t.Paths() {
		read[i] = readers[path]
	}
	return filter.Bind(t, read)
}

// filterDoc is an item as a filter reads it: the fields the filter names,
// read by the listing's readers where it has them, from the item's view
// otherwise. One map serves a whole list: a filter keeps nothing of a
// document it matched.
type filterDoc[R, V any] struct {
	names       []string
	readers     []func(st *Store, r R) (any, bool) // by names; nil: from the view
	projections []*projection                      // by names
	byName      map[string]*projection
	viewed      []string // the names read from the view: all, or none
	view        func(st *Store, r R) V
	doc         map[string]any
	arena       arena
	v           V // the view of the last item read through it, when built
}

// newFilterDoc sets a document up for what a filter reads.
func newFilterDoc[R, V any](f *filter.Filter, l listing[R, V]) filterDoc[R, V] {
	names := f.Fields()
	d := filterDoc[R, V]{names: names, view: l.view, doc: make(map[string]any, len(names)), byName: projectionsOf(f.Paths())}
	d.readers = make([]func(st *Store, r R) (any, bool), len(names))
	d.projections = make([]*projection, len(names))
	for i, name := range names {
		d.projections[i] = d.byName[name]
		if d.readers[i] = l.fields[name]; d.readers[i] == nil {
			d.viewed = names // a view to build: it has every field
		}
	}
	if d.viewed != nil {
		clear(d.readers)
	}
	return d
}

// of fills the document for r; it reports whether it built r's view
// (d.v).
func (d *filterDoc[R, V]) of(st *Store, r R) (doc map[string]any, viewed bool) {
	clear(d.doc)
	d.arena.reset()
	for i, read := range d.readers {
		if read == nil {
			continue
		}
		if x, ok := read(st, r); ok {
			d.doc[d.names[i]] = project(x, d.projections[i], &d.arena)
		}
	}
	if len(d.viewed) > 0 {
		d.v, viewed = d.view(st, r), true
		viewFields(d.doc, &d.v, d.viewed, d.byName, &d.arena)
	}
	return d.doc, viewed
}
