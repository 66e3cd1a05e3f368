package bank

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/filter"
)

// viewDoc is a view as a filter reads it: the decoded JSON of the fields
// the filter names, as the list answer shows them. One map serves a whole
// list: a filter keeps nothing of a document it matched.
type viewDoc struct {
	m map[string]any
}

// of fills the document with v's fields named in names; v points to a
// view.
func (d *viewDoc) of(v any, names []string) map[string]any {
	if d.m == nil {
		d.m = make(map[string]any, len(names))
	}
	clear(d.m)
	rv := reflect.ValueOf(v).Elem()
	fields := jsonFieldsOf(rv.Type())
	if fields == nil {
		// Not a plain struct: the whole view, decoded.
		b, err := json.Marshal(v)
		if err == nil {
			err = json.Unmarshal(b, &d.m)
		}
		if err != nil {
			clear(d.m)
		}
		return d.m
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
		d.m[name] = jsonValue(fv)
	}
	return d.m
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

// pageOf is page p of list, newest first when asked: the views of the ids
// that skip (nil: none) leaves and f (nil: every one) matches, and how many
// there are. Without skip and f it builds the page's views only; otherwise
// it goes once over list, building each view f reads once and keeping the
// page's.
func pageOf[V any](list []string, p Page, newestFirst bool, skip func(id string) bool, f *filter.Filter, view func(id string) V) (items []V, total int) {
	at := func(i int) string {
		if newestFirst {
			return list[len(list)-1-i]
		}
		return list[i]
	}
	// The kept items are at most list's, so this window bounds theirs.
	lo, hi := p.Window(len(list))
	items = make([]V, 0, hi-lo)
	if skip == nil && f == nil {
		for i := lo; i < hi; i++ {
			items = append(items, view(at(i)))
		}
		return items, len(list)
	}
	var (
		doc    viewDoc
		v      V // one for the pass: of takes its address
		fields []string
	)
	if f != nil {
		fields = f.Fields()
	}
	for i := range list {
		id := at(i)
		if skip != nil && skip(id) {
			continue
		}
		if f != nil {
			v = view(id)
			if !f.Match(doc.of(&v, fields)) {
				continue
			}
			if total >= lo && len(items) < p.PerPage {
				items = append(items, v)
			}
		} else if total >= lo && len(items) < p.PerPage {
			items = append(items, view(id))
		}
		total++
	}
	return items, total
}
