// Package filter evaluates the Mongo-style query documents that clients of
// the financial-account API send in a list's filter query parameter, over
// JSON values as encoding/json decodes them into any (objects as
// map[string]any, arrays as []any, numbers as float64), an object being an
// Object as well, wherever one is read.
//
// A document holds conditions that must all hold: a field, or a dotted path
// into nested objects ("info.nickname"), equal to a value or meeting an
// operator document, and the logical operators $and and $or over further
// documents. The field operators are $eq, $ne, $in, $nin, $gt, $gte, $lt,
// $lte and $exists. Where Mongo is subtle, the package reads it so:
//
//   - A path through an array reaches into each element (objects only); a
//     numeric part indexes the array ("documents.0.id").
//   - Equality against an array matches the whole array or any element of
//     it; objects are equal when their fields are, in any order.
//   - null matches a field that is null or missing.
//   - $ne and $nin are the negations of $eq and $in, so they match a missing
//     field; $exists false is the negation of $exists true.
//   - $gt, $gte, $lt and $lte compare numbers with numbers and strings with
//     strings (byte order); a value of another type never matches.
//   - Types are never converted: 1 and "1" are not equal.
//
// $in and $nin hold their values as a set: an item's value costs one
// lookup (and one for each element of an array), however many values the
// filter lists; arrays and objects are hashed, once for a document
// however many conditions compare them. A document is bounded (MaxBytes, MaxValues, MaxConditions,
// MaxPathParts, MaxDepth), so that the cost of matching one item is
// bounded too: Parse refuses a larger one, naming the limit.
package filter

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The limits of a filter document. Each bounds a factor of what matching
// one item costs; Parse refuses a document past one, naming it.
const (
	// MaxDepth bounds how deep $and and $or may nest.
	MaxDepth = 32
	// MaxBytes bounds the document's text.
	MaxBytes = 16 << 10
	// MaxValues bounds the values of all the document's $in and $nin
	// lists together.
	MaxValues = 1000
	// MaxConditions bounds the conditions matched against each item: the
	// operators on fields (a value to equal is one $eq) and the documents
	// of $and and $or.
	MaxConditions = 32
	// MaxPathParts bounds the parts of a field's dotted path.
	MaxPathParts = 16
)

// Filter is a parsed filter document. It is immutable and safe for
// concurrent use.
type Filter struct {
	root   allOf
	fields []string
	paths  [][]string
	// values and conditions count the document's $in and $nin values and
	// its conditions while it is parsed, against MaxValues and
	// MaxConditions.
	values, conditions int
}

// Parse reads a filter document. It returns an error saying why when the
// text is not JSON, not an object, names an unknown operator, gives an
// operator a value of the wrong type, has an empty field name, or passes
// one of the limits (MaxBytes, MaxValues, MaxConditions, MaxPathParts,
// MaxDepth).
func Parse(text string) (*Filter, error) {
	if len(text) > MaxBytes {
		return nil, fmt.Errorf("the document is %d bytes; at most %d are taken", len(text), MaxBytes)
	}
	doc, ok := decodeSimple(text)
	if !ok {
		if err := json.Unmarshal([]byte(text), &doc); err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	f := &Filter{}
	root, err := f.document(m, 0)
	if err != nil {
		return nil, err
	}
	f.root = root
	slices.Sort(f.fields)
	f.fields = slices.Compact(f.fields)
	return f, nil
}

// Fields are the top-level fields the filter reads, sorted: a document
// that holds only these matches as the whole one would. A filter that
// reads none ({}, or $and and $or of such) matches every document.
func (f *Filter) Fields() []string { return slices.Clip(f.fields) }

// Paths are the fields' paths the filter reads, split at their dots (a
// path may be listed more than once): a document that holds only what
// they reach matches as the whole one would, where what a path reaches
// is each object's member its next part names, every element of an array
// on its way, and the whole value at its end.
func (f *Filter) Paths() [][]string { return slices.Clip(f.paths) }

// Match reports whether doc meets every condition of the filter.
func (f *Filter) Match(doc map[string]any) bool { return f.root.match(doc, &memo{}) }

// Matcher matches documents one after another with a filter, reusing its
// memory between them. It is not safe for concurrent use.
type Matcher struct {
	f    *Filter
	memo memo
}

// Matcher returns a Matcher of f.
func (f *Filter) Matcher() *Matcher { return &Matcher{f: f} }

// Match is the filter's Match of doc.
func (m *Matcher) Match(doc map[string]any) bool {
	m.memo.reset()
	return m.f.root.match(doc, &m.memo)
}

// Object is a JSON object as the list of its members, each name once, in
// any order: a document's object may be one instead of a map (cheaper to
// build for a few members), and it matches as the map of the same members
// would.
type Object []Member

// Member is a member of an Object.
type Member struct {
	Name  string
	Value any
}

// get is the value of the member named name.
func (o Object) get(name string) (any, bool) {
	for i := range o {
		if o[i].Name == name {
			return o[i].Value, true
		}
	}
	return nil, false
}

type expr interface {
	match(doc map[string]any, m *memo) bool
}

// allOf holds when each of its conditions does ($and, and a document's
// conditions); anyOf when one does ($or).
type (
	allOf []expr
	anyOf []expr
)

func (a allOf) match(doc map[string]any, m *memo) bool {
	for _, e := range a {
		if !e.match(doc, m) {
			return false
		}
	}
	return true
}

func (a anyOf) match(doc map[string]any, m *memo) bool {
	for _, e := range a {
		if e.match(doc, m) {
			return true
		}
	}
	return false
}

// document parses one filter document, at depth levels of $and and $or.
func (f *Filter) document(m map[string]any, depth int) (allOf, error) {
	out := make(allOf, 0, len(m))
	for _, key := range slices.Sorted(maps.Keys(m)) {
		v := m[key]
		if strings.HasPrefix(key, "$") {
			if key != "$and" && key != "$or" {
				return nil, fmt.Errorf("unknown top-level operator %q (known: $and, $or)", key)
			}
			if depth >= MaxDepth {
				return nil, fmt.Errorf("$and and $or nest deeper than %d", MaxDepth)
			}
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return nil, fmt.Errorf("%s takes a non-empty array of objects", key)
			}
			if f.conditions += len(list); f.conditions > MaxConditions {
				return nil, errTooManyConditions
			}
			subs := make([]expr, len(list))
			for i, item := range list {
				sub, ok := item.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s takes a non-empty array of objects; element %d is not an object", key, i)
				}
				d, err := f.document(sub, depth+1)
				if err != nil {
					return nil, err
				}
				subs[i] = d
			}
			if key == "$and" {
				out = append(out, allOf(subs))
			} else {
				out = append(out, anyOf(subs))
			}
			continue
		}
		e, err := f.field(key, v)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// opKind is a field operator.
type opKind uint8

const (
	opEq opKind = iota
	opNe
	opIn
	opNin
	opGt
	opGte
	opLt
	opLte
	opExists
)

var opKinds = map[string]opKind{
	"$eq": opEq, "$ne": opNe, "$in": opIn, "$nin": opNin,
	"$gt": opGt, "$gte": opGte, "$lt": opLt, "$lte": opLte, "$exists": opExists,
}

// fieldExpr is the conditions on one path; all must hold.
type fieldExpr struct {
	path []part
	ops  []op
}

type op struct {
	kind opKind
	arg  any       // $eq, $ne, the comparisons; $exists's bool
	set  *valueSet // $in, $nin
	// hash is the hash of $eq's and $ne's array or object (memo.hash):
	// an item's arrays and objects of another hash are not compared.
	hash      uint64
	composite bool
	shape     shape // of $eq's and $ne's array or object
}

var errTooManyConditions = fmt.Errorf("more than %d conditions (operators on fields, a value to equal counting as one, and documents of $and and $or); at most %d are taken", MaxConditions, MaxConditions)

// field parses the condition on key: an operator document, or a value the
// field must equal.
func (f *Filter) field(key string, v any) (expr, error) {
	if n := strings.Count(key, ".") + 1; n > MaxPathParts {
		return nil, fmt.Errorf("field %q has %d path parts; at most %d are taken", shorten(key), n, MaxPathParts)
	}
	path := strings.Split(key, ".")
	if slices.Contains(path, "") {
		return nil, fmt.Errorf("field %q has an empty name or path part", key)
	}
	f.fields = append(f.fields, path[0])
	f.paths = append(f.paths, path)
	e := fieldExpr{path: make([]part, len(path))}
	for i, name := range path {
		e.path[i] = part{name: name, index: -1}
		if n, err := strconv.Atoi(name); err == nil && n >= 0 && name == strconv.Itoa(n) {
			e.path[i].index = n
		}
	}
	m, isObject := v.(map[string]any)
	if !isObject || !hasOperator(m) {
		if f.conditions++; f.conditions > MaxConditions {
			return nil, errTooManyConditions
		}
		e.ops = []op{equality(opEq, v)}
		return e, nil
	}
	if f.conditions += len(m); f.conditions > MaxConditions {
		return nil, errTooManyConditions
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		kind, known := opKinds[name]
		switch {
		case !strings.HasPrefix(name, "$"):
			return nil, fmt.Errorf("field %q mixes operators and fields (%q)", key, name)
		case !known:
			return nil, fmt.Errorf("unknown operator %q on field %q (known: $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists)", name, key)
		}
		arg := m[name]
		o := op{kind: kind, arg: arg}
		switch kind {
		case opEq, opNe:
			o = equality(kind, arg)
		case opIn, opNin:
			var n int
			switch list := arg.(type) {
			case stringArray:
				n, o.set = len(list), newStringSet(list)
			case []any:
				n, o.set = len(list), newValueSet(list)
			default:
				return nil, fmt.Errorf("%s on field %q takes an array", name, key)
			}
			if f.values += n; f.values > MaxValues {
				return nil, fmt.Errorf("more than %d values in $in and $nin together; at most %d are taken", MaxValues, MaxValues)
			}
			o.arg = nil
		case opGt, opGte, opLt, opLte:
			switch arg.(type) {
			case float64, string:
			default:
				return nil, fmt.Errorf("%s on field %q takes a number or a string", name, key)
			}
		case opExists:
			if _, ok := arg.(bool); !ok {
				return nil, fmt.Errorf("$exists on field %q takes true or false", key)
			}
		}
		e.ops = append(e.ops, o)
	}
	return e, nil
}

func hasOperator(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, "$") {
			return true
		}
	}
	return false
}

// equality is the $eq or $ne of want.
func equality(kind opKind, want any) op {
	want = plain(want)
	o := op{kind: kind, arg: want}
	switch want.(type) {
	case []any, map[string]any:
		var m memo
		o.hash, o.composite, o.shape = m.hash(want), true, shapeOf(want)
	}
	return o
}

func (e fieldExpr) match(doc map[string]any, m *memo) bool {
	for i := range e.ops {
		if !e.ops[i].match(doc, e.path, m) {
			return false
		}
	}
	return true
}

// part is a part of a field's path: a member's name, which is an array's
// index too when it is a non-negative integer without leading zeros.
type part struct {
	name  string
	index int // -1: none
}

func (o *op) match(doc map[string]any, path []part, m *memo) bool {
	switch o.kind {
	case opEq:
		return reach(doc, path, func(v any, found bool) bool { return o.equals(v, found, m) })
	case opNe:
		return !reach(doc, path, func(v any, found bool) bool { return o.equals(v, found, m) })
	case opIn:
		return reach(doc, path, func(v any, found bool) bool { return o.set.holds(v, found, m) })
	case opNin:
		return !reach(doc, path, func(v any, found bool) bool { return o.set.holds(v, found, m) })
	case opExists:
		return reach(doc, path, func(_ any, found bool) bool { return found }) == o.arg.(bool)
	}
	return reach(doc, path, func(v any, found bool) bool {
		return found && anyElement(v, func(v any) bool {
			c, ok := compare(v, o.arg)
			switch o.kind {
			case opGt:
				return ok && c > 0
			case opGte:
				return ok && c >= 0
			case opLt:
				return ok && c < 0
			}
			return ok && c <= 0
		})
	})
}

// reach calls visit with each value path leads to in v, or with found
// false where it leads nowhere, until visit returns true; it reports
// whether one did. Through an array, path goes into each object element,
// or to one element when its next part is an index.
func reach(v any, path []part, visit func(v any, found bool) bool) bool {
	if len(path) == 0 {
		return visit(v, true)
	}
	switch x := v.(type) {
	case map[string]any:
		child, ok := x[path[0].name]
		if !ok {
			return visit(nil, false)
		}
		return reach(child, path[1:], visit)
	case Object:
		child, ok := x.get(path[0].name)
		if !ok {
			return visit(nil, false)
		}
		return reach(child, path[1:], visit)
	case []any:
		if i := path[0].index; i >= 0 {
			if i < len(x) {
				return reach(x[i], path[1:], visit)
			}
			return visit(nil, false)
		}
		walked := false
		for _, el := range x {
			switch el.(type) {
			case map[string]any, Object:
				walked = true
				if reach(el, path, visit) {
					return true
				}
			}
		}
		return !walked && visit(nil, false)
	}
	return visit(nil, false)
}

// anyElement reports whether test holds for v or, v being an array, for
// one of its elements.
func anyElement(v any, test func(any) bool) bool {
	if test(v) {
		return true
	}
	list, _ := v.([]any)
	return slices.ContainsFunc(list, test)
}

// equals is $eq's test of a value reached (found) or not: an array or an
// object is compared only when its hash (made once for a document, m,
// however many conditions compare it) is the value's.
func (o *op) equals(v any, found bool, m *memo) bool {
	if !found {
		return o.arg == nil
	}
	if o.composite {
		return anyElement(v, func(v any) bool {
			switch v.(type) {
			case []any, map[string]any, Object:
				return shapeOf(v) == o.shape && m.hash(v) == o.hash && equal(v, o.arg)
			}
			return false
		})
	}
	return anyElement(v, func(v any) bool { return equal(v, o.arg) })
}

// equal reports whether two decoded JSON values are the same value, of the
// same type (a map and an Object being both objects).
func equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, equal)
	case map[string]any:
		switch y := b.(type) {
		case map[string]any:
			return maps.EqualFunc(x, y, equal)
		case Object:
			return objectEqual(y, x)
		}
	case Object:
		return objectEqual(x, b)
	}
	return false
}

// objectEqual reports whether b is an object of o's members.
func objectEqual(o Object, b any) bool {
	var get func(name string) (any, bool)
	switch y := b.(type) {
	case map[string]any:
		if len(y) != len(o) {
			return false
		}
		get = func(name string) (any, bool) { v, ok := y[name]; return v, ok }
	case Object:
		if len(y) != len(o) {
			return false
		}
		get = y.get
	default:
		return false
	}
	for _, m := range o {
		if v, ok := get(m.Name); !ok || !equal(m.Value, v) {
			return false
		}
	}
	return true
}

// compare orders two numbers or two strings; ok is false for any other
// pair.
func compare(a, b any) (c int, ok bool) {
	switch x := a.(type) {
	case float64:
		if y, ok := b.(float64); ok {
			switch {
			case x < y:
				return -1, true
			case x > y:
				return 1, true
			}
			return 0, true
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), true
		}
	}
	return 0, false
}
