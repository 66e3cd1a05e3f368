package filter

import (
	"strings"
	"unicode/utf8"
)

// Kind is what a Value holds.
type Kind uint8

// The kinds of a Value.
const (
	// Missing is a path that leads nowhere.
	Missing Kind = iota
	// Null is JSON's null.
	Null
	// String is Value.Str.
	String
	// Strings is an array of strings, Value.List (not nil).
	Strings
	// Bool is Value.Bool.
	Bool
	// Number is Value.Num.
	Number
	// Each is what a path through arrays of objects reaches, one value
	// at a time: each string of Value.List, and nothing (a missing
	// member, an array without objects) somewhere when Value.Absent. A
	// condition holds when it holds for one of them; at least one there
	// is.
	Each
)

// Value is what a path leads to in a document, as a Typed filter reads
// it: a scalar, or an array of strings, held without boxing into any. A
// string need not be valid UTF-8: it is read as JSON shows it (shown),
// each byte that is not UTF-8 as U+FFFD, which Match works out only when
// it might change the answer.
type Value struct {
	Kind   Kind
	Str    string
	List   []string
	Num    float64
	Bool   bool
	Absent bool
}

// Typed is a filter compiled to match a document read as the Values of
// the paths it names (Paths), rather than as decoded JSON: it matches as
// the filter matches a document where each path leads to its Value (and
// reaches nothing else). It is immutable and safe for concurrent use.
type Typed struct {
	paths []string
	root  typedNode
}

// typedNode is an $and (all) or $or of nodes, or the conditions on one
// path (path >= 0), all of which must hold.
type typedNode struct {
	all  bool
	subs []typedNode
	path int
	ops  []typedOp
}

// typedOp is an op with its argument unboxed.
type typedOp struct {
	kind opKind
	arg  Value     // $eq, $ne, the comparisons, $exists
	set  *valueSet // $in, $nin: no arrays or objects
}

// Typed compiles f to read Values: ok is false when f compares an array
// or an object ($eq or $ne of one, or $in or $nin holding one), which a
// Value cannot show.
func (f *Filter) Typed() (t *Typed, ok bool) {
	t = &Typed{}
	index := map[string]int{}
	root, ok := t.node(allOf(f.root), index)
	if !ok {
		return nil, false
	}
	t.root = root
	return t, true
}

// Paths are the dotted paths whose Values Match reads, in the order it
// takes them.
func (t *Typed) Paths() []string { return t.paths }

// Match reports whether the document whose paths (Paths) lead to values,
// in order, meets every condition of the filter.
func (t *Typed) Match(values []Value) bool { return t.root.match(values) }

func (t *Typed) node(e expr, index map[string]int) (typedNode, bool) {
	switch x := e.(type) {
	case allOf, anyOf:
		list, all := []expr(nil), false
		if a, ok := x.(allOf); ok {
			list, all = a, true
		} else {
			list = x.(anyOf)
		}
		n := typedNode{all: all, path: -1, subs: make([]typedNode, len(list))}
		for i, sub := range list {
			var ok bool
			if n.subs[i], ok = t.node(sub, index); !ok {
				return typedNode{}, false
			}
		}
		return n, true
	case fieldExpr:
		names := make([]string, len(x.path))
		for i, p := range x.path {
			names[i] = p.name
		}
		path := strings.Join(names, ".")
		i, seen := index[path]
		if !seen {
			i = len(t.paths)
			index[path] = i
			t.paths = append(t.paths, path)
		}
		n := typedNode{path: i, ops: make([]typedOp, len(x.ops))}
		for j := range x.ops {
			var ok bool
			if n.ops[j], ok = typedOpOf(&x.ops[j]); !ok {
				return typedNode{}, false
			}
		}
		return n, true
	}
	return typedNode{}, false
}

// typedOpOf is o unboxed; ok is false for an array or an object.
func typedOpOf(o *op) (typedOp, bool) {
	t := typedOp{kind: o.kind}
	if o.set != nil {
		t.set = o.set
		return t, len(o.set.composite) == 0
	}
	switch x := o.arg.(type) {
	case nil:
		t.arg = Value{Kind: Null}
	case string:
		t.arg = Value{Kind: String, Str: x}
	case float64:
		t.arg = Value{Kind: Number, Num: x}
	case bool:
		t.arg = Value{Kind: Bool, Bool: x}
	default:
		return t, false
	}
	return t, true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (n *typedNode) match(values []Value) bool {
	if n.path >= 0 {
		v := &values[n.path]
		for i := range n.ops {
			if !n.ops[i].match(v) {
				return false
			}
		}
		return true
	}
	for i := range n.subs {
		if n.subs[i].match(values) != n.all {
			return !n.all
		}
	}
	return n.all
}

// match is op.match of the document where the path leads to v.
func (o *typedOp) match(v *Value) bool {
	switch o.kind {
	case opEq:
		return o.equals(v)
	case opNe:
		return !o.equals(v)
	case opIn:
		return o.holds(v)
	case opNin:
		return !o.holds(v)
	case opExists:
		if v.Kind == Each {
			return (len(v.List) > 0) == o.arg.Bool
		}
		return (v.Kind != Missing) == o.arg.Bool
	}
	switch v.Kind {
	case String:
		return o.arg.Kind == String && o.compared(strings.Compare(shown(v.Str), o.arg.Str))
	case Number:
		if o.arg.Kind != Number {
			return false
		}
		c := 0
		if v.Num < o.arg.Num {
			c = -1
		} else if v.Num > o.arg.Num {
			c = 1
		}
		return o.compared(c)
	case Strings, Each:
		if o.arg.Kind != String {
			return false
		}
		for _, s := range v.List {
			if o.compared(strings.Compare(shown(s), o.arg.Str)) {
				return true
			}
		}
	}
	return false
}

// compared is a comparison's answer for c, the value's order against
// the argument.
func (o *typedOp) compared(c int) bool {
	switch o.kind {
	case opGt:
		return c > 0
	case opGte:
		return c >= 0
	case opLt:
		return c < 0
	}
	return c <= 0
}

// equals is op.equals of v: null equals a missing value too; an array
// of strings equals a string it holds.
func (o *typedOp) equals(v *Value) bool {
	a := &o.arg
	switch v.Kind {
	case Missing, Null:
		return a.Kind == Null
	case String:
		return a.Kind == String && shownIs(v.Str, a.Str)
	case Number:
		return a.Kind == Number && v.Num == a.Num
	case Bool:
		return a.Kind == Bool && v.Bool == a.Bool
	case Strings, Each:
		if v.Kind == Each && v.Absent && a.Kind == Null {
			return true
		}
		if a.Kind != String {
			return false
		}
		for _, s := range v.List {
			if shownIs(s, a.Str) {
				return true
			}
		}
	}
	return false
}

// holds is valueSet.holds of v.
func (o *typedOp) holds(v *Value) bool {
	s := o.set
	switch v.Kind {
	case Missing, Null:
		return s.null
	case String:
		return s.hasString(v.Str)
	case Number:
		_, ok := s.nums[v.Num]
		return ok
	case Bool:
		return s.bools[b2i(v.Bool)]
	case Strings, Each:
		if v.Kind == Each && v.Absent && s.null {
			return true
		}
		if s.strs == nil {
			return false
		}
		for _, str := range v.List {
			if s.hasString(str) {
				return true
			}
		}
	}
	return false
}

// shown is s as JSON shows it: each byte that is not UTF-8 as U+FFFD
// (as encoding/json writes it).
func shown(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// shownIs reports whether shown(s) is want, which is valid UTF-8: s
// itself, or s not UTF-8 and shown longer (each byte replaced grows by
// two), so that s is checked only when want is longer.
func shownIs(s, want string) bool {
	return s == want || len(want) > len(s) && !utf8.ValidString(s) && shown(s) == want
}

// hasString reports whether shown(str) is one of the set's strings
// (all valid UTF-8).
func (s *valueSet) hasString(str string) bool {
	if _, ok := s.strs[str]; ok {
		return true
	}
	if len(s.strs) == 0 || utf8.ValidString(str) {
		return false
	}
	_, ok := s.strs[shown(str)]
	return ok
}
