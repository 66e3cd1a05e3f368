package filter

import (
	"slices"
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
// it might change the answer. Only the fields of its Kind are read (Str
// of a String, List of Strings, List and Absent of Each...), so that a
// reader sets a Value again, in place, with its Set methods.
type Value struct {
	Kind   Kind
	Str    string
	List   []string
	Num    float64
	Bool   bool
	Absent bool
}

// SetMissing makes v a path that leads nowhere.
func (v *Value) SetMissing() { v.Kind = Missing }

// SetNull makes v null.
func (v *Value) SetNull() { v.Kind = Null }

// SetString makes v the string s.
func (v *Value) SetString(s string) { v.Kind, v.Str = String, s }

// SetStrings makes v the array of strings list, null when list is nil.
func (v *Value) SetStrings(list []string) {
	if list == nil {
		v.Kind = Null
		return
	}
	v.Kind, v.List = Strings, list
}

// SetBool makes v the boolean b.
func (v *Value) SetBool(b bool) { v.Kind, v.Bool = Bool, b }

// SetNumber makes v the number n.
func (v *Value) SetNumber(n float64) { v.Kind, v.Num = Number, n }

// SetEach makes v what a path through arrays of objects reaches: the
// strings of list, and nothing somewhere when absent (see Each).
func (v *Value) SetEach(list []string, absent bool) { v.Kind, v.List, v.Absent = Each, list, absent }

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
	// replaced reports that arg is a string holding U+FFFD, which a
	// string that is not UTF-8 shows (shown): only then may one equal it.
	replaced bool
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
		t.arg, t.replaced = Value{Kind: String, Str: x}, strings.ContainsRune(x, utf8.RuneError)
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
		return a.Kind == String && o.shownIs(v.Str)
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
			if o.shownIs(s) {
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
		if s.strs.empty() {
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

// shownIs reports whether shown(s) is the argument, a string (valid
// UTF-8): s itself, or s not UTF-8 and shown a longer string (each byte
// replaced grows by two) with U+FFFD in it, so that s is checked only
// when the argument is longer and holds one.
func (o *typedOp) shownIs(s string) bool {
	return s == o.arg.Str || o.replaced && shownAs(s, o.arg.Str)
}

// shownAs reports whether s, which is not want, shows (shown) as want.
func shownAs(s, want string) bool {
	return len(want) > len(s) && !utf8.ValidString(s) && shown(s) == want
}

// isString is equals of a string argument, want (valid UTF-8; replaced
// when it holds U+FFFD, see typedOp.replaced).
func (v *Value) isString(want string, replaced bool) bool {
	switch v.Kind {
	case String:
		return v.Str == want || replaced && shownAs(v.Str, want)
	case Strings, Each:
		for _, s := range v.List {
			if s == want || replaced && shownAs(s, want) {
				return true
			}
		}
	}
	return false
}

// onlyStrings reports whether the set holds strings and nothing else.
func (s *valueSet) onlyStrings() bool {
	return !s.strs.empty() && !s.null && len(s.nums) == 0 && s.bools == [2]bool{} && len(s.composite) == 0
}

// holdsString is holds of v for a set of strings alone (onlyStrings).
func (s *valueSet) holdsString(v *Value) bool {
	switch v.Kind {
	case String:
		return s.hasString(v.Str)
	case Strings, Each:
		for _, str := range v.List {
			if s.hasString(str) {
				return true
			}
		}
	}
	return false
}

// hasString reports whether shown(str) is one of the set's strings
// (all valid UTF-8).
func (s *valueSet) hasString(str string) bool {
	return s.mayHold(str) && s.strs.has(str) || s.replaced && s.hasShown(str)
}

// hasShown reports whether str, not UTF-8, shows as one of the set's
// strings.
func (s *valueSet) hasShown(str string) bool {
	return !utf8.ValidString(str) && s.strs.has(shown(str))
}

// Bind compiles t into a test of one item at a time, of type R read in
// a context C (a store): readers[i] sets v to what Paths()[i] leads to in
// it, with a buffer of its own (buf) for the lists it makes. It answers as Match of
// the Values the readers read, reading a path only when a condition asks
// for it ($and and $or stop at their first answer) and a path named by
// more than one condition once an item. The test is not safe for
// concurrent use: it holds the readers' buffers and what it read last.
func Bind[C, R any](t *Typed, readers []func(c C, r R, v *Value, buf *[]string)) func(C, R) bool {
	b := binder[C, R]{readers: readers, uses: make([]int, len(t.paths)), bufs: make([][]string, len(t.paths))}
	t.root.count(b.uses)
	b.values, b.readAt = make([]Value, len(t.paths)), make([]uint64, len(t.paths))
	test := b.node(&t.root)
	if !slices.ContainsFunc(b.uses, func(n int) bool { return n > 1 }) {
		return test
	}
	item := &b.item
	return func(c C, r R) bool {
		*item++
		return test(c, r)
	}
}

// count adds, by path, the conditions of n that name each one.
func (n *typedNode) count(uses []int) {
	if n.path >= 0 {
		uses[n.path]++
	}
	for i := range n.subs {
		n.subs[i].count(uses)
	}
}

// binder is Bind's state: item counts the items tested, and a path
// named more than once keeps, in values, what it read for item readAt.
type binder[C, R any] struct {
	readers []func(C, R, *Value, *[]string)
	uses    []int
	bufs    [][]string
	values  []Value
	readAt  []uint64
	item    uint64
}

func (b *binder[C, R]) node(n *typedNode) func(C, R) bool {
	if n.path >= 0 {
		return b.path(n)
	}
	subs := make([]func(C, R) bool, len(n.subs))
	for i := range n.subs {
		subs[i] = b.node(&n.subs[i])
	}
	switch {
	case len(subs) == 0:
		return func(C, R) bool { return true }
	case len(subs) == 1:
		return subs[0]
	case len(subs) == 2 && n.all:
		x, y := subs[0], subs[1]
		return func(c C, r R) bool { return x(c, r) && y(c, r) }
	case len(subs) == 2:
		x, y := subs[0], subs[1]
		return func(c C, r R) bool { return x(c, r) || y(c, r) }
	case len(subs) == 3 && n.all:
		x, y, z := subs[0], subs[1], subs[2]
		return func(c C, r R) bool { return x(c, r) && y(c, r) && z(c, r) }
	case len(subs) == 3:
		x, y, z := subs[0], subs[1], subs[2]
		return func(c C, r R) bool { return x(c, r) || y(c, r) || z(c, r) }
	case n.all:
		return func(c C, r R) bool {
			for _, sub := range subs {
				if !sub(c, r) {
					return false
				}
			}
			return true
		}
	}
	return func(c C, r R) bool {
		for _, sub := range subs {
			if sub(c, r) {
				return true
			}
		}
		return false
	}
}

// path is the test of the conditions on one path.
func (b *binder[C, R]) path(n *typedNode) func(C, R) bool {
	read, value, buf, ops := b.readers[n.path], &b.values[n.path], &b.bufs[n.path], n.ops
	if b.uses[n.path] > 1 {
		at, item := &b.readAt[n.path], &b.item
		return func(c C, r R) bool {
			if *at != *item {
				read(c, r, value, buf)
				*at = *item
			}
			for i := range ops {
				if !ops[i].match(value) {
					return false
				}
			}
			return true
		}
	}
	if len(ops) == 1 {
		op := &ops[0]
		switch {
		case (op.kind == opEq || op.kind == opNe) && op.arg.Kind == String:
			want, replaced, eq := op.arg.Str, op.replaced, op.kind == opEq
			return func(c C, r R) bool {
				read(c, r, value, buf)
				return value.isString(want, replaced) == eq
			}
		case (op.kind == opIn || op.kind == opNin) && op.set.onlyStrings():
			set, in := op.set, op.kind == opIn
			return func(c C, r R) bool {
				read(c, r, value, buf)
				return set.holdsString(value) == in
			}
		case op.kind == opIn || op.kind == opNin:
			in := op.kind == opIn
			return func(c C, r R) bool {
				read(c, r, value, buf)
				return op.holds(value) == in
			}
		}
		return func(c C, r R) bool {
			read(c, r, value, buf)
			return op.match(value)
		}
	}
	return func(c C, r R) bool {
		read(c, r, value, buf)
		for i := range ops {
			if !ops[i].match(value) {
				return false
			}
		}
		return true
	}
}

// Split divides f, whose conditions must all hold, into the conditions
// that compile to a Typed whose every path typeable accepts (typed, nil
// when none does) and the others (rest, nil when none is left): a
// document meets f when typed matches its Values and rest matches it.
// A list then tests typed first, from what it reads cheaply, and builds
// the document rest needs only for the items typed lets through.
func (f *Filter) Split(typeable func(path string) bool) (typed *Typed, rest *Filter) {
	var in, out allOf
	for _, e := range f.root {
		t := &Typed{}
		if _, ok := t.node(e, map[string]int{}); ok && !slices.ContainsFunc(t.paths, func(p string) bool { return !typeable(p) }) {
			in = append(in, e)
		} else {
			out = append(out, e)
		}
	}
	if len(in) > 0 {
		typed = &Typed{}
		root, _ := typed.node(in, map[string]int{})
		typed.root = root
	}
	if len(out) > 0 {
		rest = &Filter{root: out}
		for _, e := range out {
			rest.collect(e)
		}
		slices.Sort(rest.fields)
		rest.fields = slices.Compact(rest.fields)
	}
	return typed, rest
}

// collect adds the fields and paths e reads to f's.
func (f *Filter) collect(e expr) {
	switch x := e.(type) {
	case allOf:
		for _, sub := range x {
			f.collect(sub)
		}
	case anyOf:
		for _, sub := range x {
			f.collect(sub)
		}
	case fieldExpr:
		path := make([]string, len(x.path))
		for i, p := range x.path {
			path[i] = p.name
		}
		f.fields = append(f.fields, path[0])
		f.paths = append(f.paths, path)
	}
}
