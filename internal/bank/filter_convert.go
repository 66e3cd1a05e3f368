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
	if t.Implements(marshalerType) || t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && t.Implements(textMarshalerType) {
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
		fields := jsonFieldsOf(t).list
		return func(p unsafe.Pointer, a *arena) any {
			o := a.object(len(fields))
			for _, f := range fields {
				if q := unsafe.Add(p, f.offset); f.omittedAt == nil || !f.omittedAt(q) {
					o = append(o, filter.Member{Name: f.name, Value: f.ptrConv(q, a)})
				}
			}
			return a.boxObject(o)
		}
	case reflect.Slice:
		elem, size := lazyPtrConverterOf(t.Elem()), t.Elem().Size()
		return func(p unsafe.Pointer, a *arena) any {
			s := (*sliceHeader)(p)
			if s.data == nil {
				return nil
			}
			return elements(s.data, s.len, size, elem, a)
		}
	case reflect.Array:
		elem, size, n := lazyPtrConverterOf(t.Elem()), t.Elem().Size(), t.Len()
		return func(p unsafe.Pointer, a *arena) any { return elements(p, n, size, elem, a) }
	}
	panic("unreachable: inPlace covers these kinds")
}

// sliceHeader is how a slice is laid out.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// elements is the list of n values of size bytes each from p on.
func elements(p unsafe.Pointer, n int, size uintptr, elem ptrConverter, a *arena) any {
	list := a.list(n)
	for i := range list {
		list[i] = elem(unsafe.Add(p, uintptr(i)*size), a)
	}
	return a.boxList(list)
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
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		// Zero as reflect.Value.IsZero has it: every bit clear (-0 is not).
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

// str is s as an any, its header kept in a's slab.
func (a *arena) str(s string) any {
	if a == nil || len(s) == 0 {
		return s // the empty string boxes without allocating
	}
	if len(a.strs) == cap(a.strs) {
		a.strs = make([]string, 0, arenaSlab)
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
		a.nums = make([]float64, 0, arenaSlab)
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
		a.objects = make([]filter.Object, 0, arenaSlab)
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
		a.lists = make([][]any, 0, arenaSlab)
	}
	a.lists = append(a.lists, list)
	return boxAt(listWord, unsafe.Pointer(&a.lists[len(a.lists)-1]))
}
