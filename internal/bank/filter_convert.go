package bank

import (
	"reflect"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/synapsefake/synapsefake/internal/filter"
)

// The converters of values in place: jsonValue of the value at an
// address, its struct fields read at their offsets, without reflect's
// per-field checks. A filter converts the same few view types for every
// item of a list; converterOf's structs and slices come here.

// ptrConverter is jsonValue of the value of one type at p, its objects
// and lists, strings and numbers taken from a (nil: allocated).
type ptrConverter func(p unsafe.Pointer, a *arena) any

// ptrConverters caches ptrConverterOf.
var ptrConverters sync.Map // reflect.Type -> ptrConverter

// ptrConverterOf is the ptrConverter of t: built in place for strings,
// booleans, numbers, pointers, the structs jsonFieldsOf reads field by
// field, and slices and arrays (not of bytes) of these; converterOf's
// answer for a value reflect makes at p otherwise.
func ptrConverterOf(t reflect.Type) ptrConverter {
	if c, ok := ptrConverters.Load(t); ok {
		return c.(ptrConverter)
	}
	c, _ := ptrConverters.LoadOrStore(t, newPtrConverter(t))
	return c.(ptrConverter)
}

// lazyPtrConverterOf is ptrConverterOf(t), made at its first call: a type
// may hold itself.
func lazyPtrConverterOf(t reflect.Type) ptrConverter {
	c := sync.OnceValue(func() ptrConverter { return ptrConverterOf(t) })
	return func(p unsafe.Pointer, a *arena) any { return c()(p, a) }
}

// inPlace reports whether newPtrConverter builds t's values itself rather
// than through converterOf, whose structs, slices and arrays come back
// to it.
func inPlace(t reflect.Type) bool {
	if t.Implements(selfConverterType) || t.Implements(marshalerType) || t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && t.Implements(textMarshalerType) {
		return false
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Float64, reflect.Pointer,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	case reflect.Struct:
		return jsonFieldsOf(t) != nil
	case reflect.Slice, reflect.Array:
		return t.Elem().Kind() != reflect.Uint8
	}
	return false
}

func newPtrConverter(t reflect.Type) ptrConverter {
	if !inPlace(t) {
		conv := converterOf(t)
		return func(p unsafe.Pointer, a *arena) any { return conv(reflect.NewAt(t, p).Elem(), a) }
	}
	switch t.Kind() {
	case reflect.String:
		return func(p unsafe.Pointer, a *arena) any {
			if s := *(*string)(p); utf8.ValidString(s) {
				return a.str(s)
			}
			return viaJSON(reflect.NewAt(t, p).Elem(), a)
		}
	case reflect.Bool:
		return func(p unsafe.Pointer, _ *arena) any { return *(*bool)(p) }
	case reflect.Float64:
		return func(p unsafe.Pointer, a *arena) any { return a.num(*(*float64)(p)) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch t.Size() {
		case 1:
			return func(p unsafe.Pointer, a *arena) any { return a.num(float64(*(*int8)(p))) }
		case 2:
			return func(p unsafe.Pointer, a *arena) any { return a.num(float64(*(*int16)(p))) }
		case 4:
			return func(p unsafe.Pointer, a *arena) any { return a.num(float64(*(*int32)(p))) }
		}
		return func(p unsafe.Pointer, a *arena) any { return a.num(float64(*(*int64)(p))) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		switch t.Size() {
		case 1:
			return func(p unsafe.Pointer, a *arena) any { return a.num(float64(*(*uint8)(p))) }
		case 2:
			return func(p unsafe.Pointer, a *arena) any { return a.num(float64(*(*uint16)(p))) }
		case 4:
			return func(p unsafe.Pointer, a *arena) any { return a.num(float64(*(*uint32)(p))) }
		}
		return func(p unsafe.Pointer, a *arena) any { return a.num(float64(*(*uint64)(p))) }
	case reflect.Pointer:
		elem := lazyPtrConverterOf(t.Elem())
		return func(p unsafe.Pointer, a *arena) any {
			if q := *(*unsafe.Pointer)(p); q != nil {
				return elem(q, a)
			}
			return nil
		}
	case reflect.Struct:
		return structConverter(jsonFieldsOf(t).list)
	case reflect.Slice:
		elems := elementsConverter(t.Elem())
		return func(p unsafe.Pointer, a *arena) any {
			s := (*sliceHeader)(p)
			if s.data == nil {
				return nil
			}
			return elems(s.data, s.len, a)
		}
	case reflect.Array:
		elems, n := elementsConverter(t.Elem()), t.Len()
		return func(p unsafe.Pointer, a *arena) any { return elems(p, n, a) }
	}
	panic("unreachable: inPlace covers these kinds")
}

// A field's kind, as structConverter converts it: strings, booleans,
// int64s and float64s there, others through their ptrConverter.
const (
	leafOther uint8 = iota
	leafString
	leafBool
	leafInt64
	leafFloat64
)

// leafOf is the kind of a field of type t.
func leafOf(t reflect.Type) uint8 {
	if !inPlace(t) {
		return leafOther
	}
	switch t.Kind() {
	case reflect.String:
		return leafString
	case reflect.Bool:
		return leafBool
	case reflect.Int64, reflect.Int:
		if t.Size() == 8 {
			return leafInt64
		}
	case reflect.Float64:
		return leafFloat64
	}
	return leafOther
}

// structConverter is the ptrConverter of a struct of these fields: the
// fields' own converters are read at its first call, a struct's fields
// may hold it.
func structConverter(fields []*jsonField) ptrConverter {
	type field struct {
		*jsonField
		leaf uint8
		conv ptrConverter
	}
	list := sync.OnceValue(func() []field {
		list := make([]field, len(fields))
		for i, f := range fields {
			list[i] = field{jsonField: f, leaf: leafOf(f.typ), conv: ptrConverterOf(f.typ)}
		}
		return list
	})
	return func(p unsafe.Pointer, a *arena) any {
		fields := list()
		o := a.object(len(fields))
		for i := range fields {
			f := &fields[i]
			q := unsafe.Add(p, f.offset)
			if f.omittedAt != nil && f.omittedAt(q) {
				continue
			}
			var v any
			switch f.leaf {
			case leafString:
				if s := *(*string)(q); utf8.ValidString(s) {
					v = a.str(s)
				} else {
					v = f.conv(q, a)
				}
			case leafBool:
				v = *(*bool)(q)
			case leafInt64:
				v = a.num(float64(*(*int64)(q)))
			case leafFloat64:
				v = a.num(*(*float64)(q))
			default:
				v = f.conv(q, a)
			}
			o = append(o, filter.Member{Name: f.name, Value: v})
		}
		return a.boxObject(o)
	}
}

// sliceHeader is how a slice is laid out.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// elementsConverter converts n values of type t, one after another from
// p on, to a list; t's converter is read at its first call, as
// structConverter's.
func elementsConverter(t reflect.Type) func(p unsafe.Pointer, n int, a *arena) any {
	size := t.Size()
	elem := sync.OnceValue(func() ptrConverter { return ptrConverterOf(t) })
	if leafOf(t) == leafString {
		return func(p unsafe.Pointer, n int, a *arena) any {
			list := a.list(n)
			for i, s := range unsafe.Slice((*string)(p), n) {
				if utf8.ValidString(s) {
					list[i] = a.str(s)
				} else {
					list[i] = elem()(unsafe.Add(p, uintptr(i)*size), a)
				}
			}
			return a.boxList(list)
		}
	}
	return func(p unsafe.Pointer, n int, a *arena) any {
		list, conv := a.list(n), elem()
		for i := range list {
			list[i] = conv(unsafe.Add(p, uintptr(i)*size), a)
		}
		return a.boxList(list)
	}
}

// omittedAtOf is jsonField.omitted of a field of type t at p; nil for a
// field encoding/json always writes.
func omittedAtOf(t reflect.Type, omitEmpty, omitZero bool) func(p unsafe.Pointer) bool {
	if omitZero {
		f := &jsonField{omitEmpty: omitEmpty, omitZero: true}
		return func(p unsafe.Pointer) bool { return f.omitted(reflect.NewAt(t, p).Elem()) }
	}
	if !omitEmpty {
		return nil
	}
	switch t.Kind() {
	case reflect.String:
		return func(p unsafe.Pointer) bool { return len(*(*string)(p)) == 0 }
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*sliceHeader)(p).len == 0 }
	case reflect.Array:
		empty := t.Len() == 0
		return func(unsafe.Pointer) bool { return empty }
	case reflect.Struct:
		return func(unsafe.Pointer) bool { return false }
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if t.Kind() == reflect.Map {
			return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().Len() == 0 }
		}
		// The first word: the pointer, or an interface's type.
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	case reflect.Float32:
		return func(p unsafe.Pointer) bool { return *(*float32)(p) == 0 } // -0 too
	case reflect.Float64:
		return func(p unsafe.Pointer) bool { return *(*float64)(p) == 0 }
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		// Zero: every bit clear.
		switch t.Size() {
		case 1:
			return func(p unsafe.Pointer) bool { return *(*uint8)(p) == 0 }
		case 2:
			return func(p unsafe.Pointer) bool { return *(*uint16)(p) == 0 }
		case 4:
			return func(p unsafe.Pointer) bool { return *(*uint32)(p) == 0 }
		case 8:
			return func(p unsafe.Pointer) bool { return *(*uint64)(p) == 0 }
		}
	}
	f := &jsonField{omitEmpty: true}
	return func(p unsafe.Pointer) bool { return f.omitted(reflect.NewAt(t, p).Elem()) }
}

// eface is how an interface holding a value of a type that is not a
// pointer is laid out: its type, and a pointer to the value.
type eface struct {
	typ, data unsafe.Pointer
}

// typeWord is the type word of x's interface.
func typeWord(x any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&x)).typ }

var (
	stringWord = typeWord("")
	numberWord = typeWord(0.0)
	objectWord = typeWord(filter.Object(nil))
	listWord   = typeWord([]any(nil))
)

// boxAt is the interface of the value at p, of the type whose word typ
// is (one held through a pointer: string, float64, a slice), sharing p's
// memory: what the arena hands out is not written while its document is
// read.
func boxAt(typ, p unsafe.Pointer) any {
	return *(*any)(unsafe.Pointer(&eface{typ: typ, data: p}))
}

// boxSlab is how many strings (numbers, objects, lists) a slab of an
// arena's boxes holds.
const boxSlab = 256

// str is s as an any, its header kept in a's slab.
func (a *arena) str(s string) any {
	if a == nil || len(s) == 0 {
		return s // the empty string boxes without allocating
	}
	if len(a.strs) == cap(a.strs) {
		a.strs = make([]string, 0, boxSlab)
	}
	a.strs = append(a.strs, s)
	return boxAt(stringWord, unsafe.Pointer(&a.strs[len(a.strs)-1]))
}

// num is f as an any, kept in a's slab.
func (a *arena) num(f float64) any {
	if a == nil {
		return f
	}
	if len(a.nums) == cap(a.nums) {
		a.nums = make([]float64, 0, boxSlab)
	}
	a.nums = append(a.nums, f)
	return boxAt(numberWord, unsafe.Pointer(&a.nums[len(a.nums)-1]))
}

// boxObject is o as an any, its header kept in a's slab.
func (a *arena) boxObject(o filter.Object) any {
	if a == nil {
		return o
	}
	if len(a.objects) == cap(a.objects) {
		a.objects = make([]filter.Object, 0, boxSlab)
	}
	a.objects = append(a.objects, o)
	return boxAt(objectWord, unsafe.Pointer(&a.objects[len(a.objects)-1]))
}

// boxList is list as an any, its header kept in a's slab.
func (a *arena) boxList(list []any) any {
	if a == nil {
		return list
	}
	if len(a.lists) == cap(a.lists) {
		a.lists = make([][]any, 0, boxSlab)
	}
	a.lists = append(a.lists, list)
	return boxAt(listWord, unsafe.Pointer(&a.lists[len(a.lists)-1]))
}

// selfConverter is a reader's value (listing.fields) that stands for a
// view's field without building it: filterValue is what jsonValue makes
// of the field, view the field itself, for what a projection reads.
type selfConverter interface {
	filterValue(a *arena) any
	view() any
}

var selfConverterType = reflect.TypeFor[selfConverter]()

// text is s as jsonValue converts a string.
func (a *arena) text(s string) any {
	if utf8.ValidString(s) {
		return a.str(s)
	}
	return decodedJSON(s)
}

// userDocuments is a user's documents as GET /users shows them
// (documentViews(false)), converted from its records (filterValue).
// TestUserDocumentsAreTheirViews compares the two.
type userDocuments struct{ u *userRecord }

func (d userDocuments) view() any { return d.u.documentViews(false) }

func (d userDocuments) filterValue(a *arena) any {
	list := a.list(len(d.u.documents))
	for i, b := range d.u.documents {
		// baseDocView's fields as jsonFieldsOf orders them; the personal
		// ones (baseDocFields) are empty, left out.
		o := a.object(8)
		o = append(o,
			filter.Member{Name: "entity_scope", Value: a.text(Deref(b.fields.EntityScope))},
			filter.Member{Name: "entity_type", Value: a.text(Deref(b.fields.EntityType))},
			filter.Member{Name: "id", Value: a.text(b.id)},
			filter.Member{Name: "name", Value: a.text(Deref(b.fields.Name))},
			filter.Member{Name: "permission_scope", Value: a.text(b.scope())})
		for k, name := range docKinds {
			subs := b.docs.lists[k]
			docs := a.list(len(subs))
			for j, s := range subs {
				sub := a.object(4)
				sub = append(sub,
					filter.Member{Name: "document_type", Value: a.text(s.typ)},
					filter.Member{Name: "id", Value: a.text(s.id)},
					filter.Member{Name: "last_updated", Value: a.num(float64(Ms(s.updated)))},
					filter.Member{Name: "status", Value: a.text(s.status)})
				docs[j] = a.boxObject(sub)
			}
			o = append(o, filter.Member{Name: name, Value: a.boxList(docs)})
		}
		list[i] = a.boxObject(o)
	}
	return a.boxList(list)
}
