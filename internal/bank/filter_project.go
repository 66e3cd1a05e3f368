package bank

import (
	"reflect"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/synapsefake/synapsefake/internal/filter"
)

// projection is what a filter reads of a value (filter.Paths): the
// members its children name, of an object, and the same of each element
// of an array (with the child an index names, for that element); the
// whole value where a path ends (whole). A document converted through the
// filter's projections matches as the whole document would, at the cost
// of converting what the filter reads only.
type projection struct {
	whole    bool
	children map[string]*projection
	indexed  bool // a child's name is an array index
	// The struct type last projected and its fields: a list reads one
	// type at a projection, item after item.
	lastType   reflect.Type
	lastFields *jsonStruct
	// The same of the type last converted whole (project) and its
	// converter.
	convType reflect.Type
	conv     ptrConverter
}

// projectionsOf are the projections of paths' top-level fields, by name.
func projectionsOf(paths [][]string) map[string]*projection {
	roots := map[string]*projection{}
	for _, path := range paths {
		p := roots[path[0]]
		if p == nil {
			p = &projection{}
			roots[path[0]] = p
		}
		for _, part := range path[1:] {
			c := p.children[part]
			if c == nil {
				if p.children == nil {
					p.children = map[string]*projection{}
				}
				c = &projection{}
				p.children[part] = c
				p.indexed = p.indexed || isIndex(part)
			}
			p = c
		}
		p.whole = true
	}
	return roots
}

// isIndex reports whether a path part indexes an array, as the filter
// reads it: a non-negative integer without leading zeros.
func isIndex(part string) bool {
	i, err := strconv.Atoi(part)
	return err == nil && i >= 0 && part == strconv.Itoa(i)
}

// element is the projection of an array's i-th element: p, and what the
// child named i reads.
func (p *projection) element(i int) *projection {
	if !p.indexed {
		return p
	}
	c := p.children[strconv.Itoa(i)]
	if c == nil {
		return p
	}
	return merged(p, c)
}

// merged reads what a and b read.
func merged(a, b *projection) *projection {
	m := &projection{whole: a.whole || b.whole, indexed: a.indexed || b.indexed,
		children: make(map[string]*projection, len(a.children)+len(b.children))}
	for k, c := range a.children {
		m.children[k] = c
	}
	for k, c := range b.children {
		if o := m.children[k]; o != nil {
			c = merged(o, c)
		}
		m.children[k] = c
	}
	return m
}

// project is jsonValue(reflect.ValueOf(x)) with only what p reads, its
// objects and lists taken from a; x is a view's field or what a reader
// answers for it.
func project(x any, p *projection, a *arena) any {
	switch v := x.(type) {
	case string:
		if utf8.ValidString(v) {
			return x
		}
	case bool:
		return x
	case []string: // its elements are read whole, or not at all
		if v == nil {
			return nil
		}
		list := a.list(len(v))
		for i, s := range v {
			if !utf8.ValidString(s) {
				return jsonValue(reflect.ValueOf(x))
			}
			list[i] = a.str(s)
		}
		return a.boxList(list)
	}
	if c, ok := x.(selfConverter); ok {
		if p.whole {
			return c.filterValue(a)
		}
		return project(c.view(), p, a)
	}
	if p.whole {
		if t := reflect.TypeOf(x); t != nil && t.Size() > unsafe.Sizeof(uintptr(0)) {
			// Bigger than a pointer, x is held through a pointer to a copy
			// nobody writes: converted there, not copied again.
			if t != p.convType {
				p.convType, p.conv = t, ptrConverterOf(t)
			}
			return p.conv((*eface)(unsafe.Pointer(&x)).data, a)
		}
	}
	return projectValue(reflect.ValueOf(x), p, a)
}

// projectValue is project of a reflected value.
func projectValue(v reflect.Value, p *projection, a *arena) any {
	if !v.IsValid() {
		return nil
	}
	t := v.Type()
	if p.whole || t.Implements(marshalerType) || t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && t.Implements(textMarshalerType) {
		return converterOf(t)(v, a)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return projectValue(v.Elem(), p, a)
	case reflect.Struct:
		if t != p.lastType {
			p.lastType, p.lastFields = t, jsonFieldsOf(t)
		}
		fields := p.lastFields
		if fields == nil {
			break
		}
		o := a.object(len(p.children))
		for name, c := range p.children {
			if f := fields.byName[name]; f != nil {
				if fv := v.FieldByIndex(f.index); !f.omitted(fv) {
					o = append(o, filter.Member{Name: name, Value: projectValue(fv, c, a)})
				}
			}
		}
		return a.boxObject(o)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			break
		}
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil
		}
		list := a.list(v.Len())
		for i := range list {
			list[i] = projectValue(v.Index(i), p.element(i), a)
		}
		return a.boxList(list)
	case reflect.Map:
		if t.Key().Kind() != reflect.String || t.Key().Implements(textMarshalerType) {
			break
		}
		if v.IsNil() {
			return nil
		}
		o := a.object(min(v.Len(), len(p.children)))
		for it := v.MapRange(); it.Next(); {
			k := it.Key().String()
			if !utf8.ValidString(k) {
				return jsonValue(v) // its keys are not what JSON shows
			}
			if c := p.children[k]; c != nil {
				o = append(o, filter.Member{Name: k, Value: projectValue(it.Value(), c, a)})
			}
		}
		return a.boxObject(o)
	}
	return converterOf(t)(v, a)
}
