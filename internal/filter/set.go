package filter

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// valueSet is the values of an $in or $nin: strings and numbers as keys
// of maps by type (Go's map equality is the package's: same value, 0 and
// -0 alike), booleans and null as flags, arrays and objects by their hash
// (memo.hash), each candidate of an item's hash then compared (equal).
type valueSet struct {
	strs stringTable
	// sigs is a Bloom filter of strs: the bits of their signatures
	// (signature), so that most strings not in the set are told so
	// without hashing them into the table.
	sigs [sigBits / 64]uint64
	// replaced reports that a string of strs holds U+FFFD, which a
	// string that is not UTF-8 shows (shown): none does, and no such
	// string is in the set.
	replaced  bool
	nums      map[float64]struct{}
	bools     [2]bool // false, true
	null      bool
	composite map[uint64][]any
	shapes    map[shape]bool // the composites'
}

// shape is an array's or an object's length and which it is: values
// equal (equal) share it, so that a value of another shape than a set's
// or an $eq's is not hashed.
type shape struct {
	n      int
	object bool
}

// shapeOf is the shape of an array or an object.
func shapeOf(v any) shape {
	switch x := v.(type) {
	case []any:
		return shape{n: len(x)}
	case map[string]any:
		return shape{n: len(x), object: true}
	case Object:
		return shape{n: len(x), object: true}
	}
	return shape{n: -1}
}

func newValueSet(values []any) *valueSet {
	s := &valueSet{}
	var m memo
	for _, v := range values {
		v = plain(v)
		switch x := v.(type) {
		case nil:
			s.null = true
		case string:
			if s.strs.empty() {
				s.strs = newStringTable(nil, len(values))
			}
			s.addString(x)
		case float64:
			if s.nums == nil {
				s.nums = make(map[float64]struct{}, len(values))
			}
			s.nums[x] = struct{}{}
		case bool:
			s.bools[b2i(x)] = true
		case []any, map[string]any, Object:
			if s.composite == nil {
				s.composite, s.shapes = map[uint64][]any{}, map[shape]bool{}
			}
			s.shapes[shapeOf(v)] = true
			h := m.hash(v)
			s.composite[h] = append(s.composite[h], v)
		}
	}
	return s
}

// sigBits is the bits of a valueSet's Bloom filter: with MaxValues
// strings, at most one in sixteen is set.
const sigBits = 16384

// signature is a string's bit in a valueSet's Bloom filter: its length
// and its last 8 bytes (the first ones of a shorter string), mixed.
func signature(s string) uint {
	n := len(s)
	x := uint64(n) * 0x9e3779b97f4a7c15
	if n >= 8 {
		x ^= binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[n-8:]), 8))
	} else {
		for i := range n {
			x = x<<8 | uint64(s[i])
		}
	}
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	return uint(x >> (64 - 14)) // sigBits is 1<<14
}

// mayHold reports whether str may be one of the set's strings: false
// when it is not.
func (s *valueSet) mayHold(str string) bool {
	sig := signature(str)
	return s.sigs[sig/64]&(1<<(sig%64)) != 0
}

// newStringSet is newValueSet of strings: its table keeps them in list,
// which the caller hands over.
func newStringSet(list []string) *valueSet {
	s := &valueSet{strs: newStringTable(list[:0], len(list))}
	for _, str := range list {
		s.addString(str)
	}
	return s
}

// addString puts str in the set's strings, whose table has room for it.
func (s *valueSet) addString(str string) {
	if !s.strs.add(str) {
		return
	}
	sig := signature(str)
	s.sigs[sig/64] |= 1 << (sig % 64)
	s.replaced = s.replaced || strings.IndexByte(str, 0xef) >= 0 && strings.ContainsRune(str, utf8.RuneError) // U+FFFD starts 0xef
}

// holds is $in's test of a value reached (found) or not: null stands for
// a missing field, and an array is in the set when it, or one of its
// elements, is.
func (s *valueSet) holds(v any, found bool, m *memo) bool {
	if !found {
		return s.null
	}
	if s.has(v, m) {
		return true
	}
	list, _ := v.([]any)
	return slices.ContainsFunc(list, func(v any) bool { return s.has(v, m) })
}

// has reports whether v is one of the set's values.
func (s *valueSet) has(v any, m *memo) bool {
	switch x := v.(type) {
	case nil:
		return s.null
	case string:
		return s.strs.has(x)
	case float64:
		_, ok := s.nums[x]
		return ok
	case bool:
		return s.bools[b2i(x)]
	case []any, map[string]any, Object:
		if len(s.composite) == 0 || !s.shapes[shapeOf(v)] {
			return false
		}
		return slices.ContainsFunc(s.composite[m.hash(v)], func(c any) bool { return equal(v, c) })
	}
	return false
}

// seed is the hashes' seed, one for the process: sets and items are
// hashed alike.
var seed = maphash.MakeSeed()

// memo keeps the hashes of a document's arrays and objects, by identity,
// while one document is matched: each is hashed once however many
// conditions compare it, and an array's or object's hash is made of its
// members' own.
type memo struct {
	hashes map[memoID]uint64
	// last is the last value hashed: conditions on a path come one after
	// another.
	last     memoID
	lastHash uint64
}

type memoID struct {
	p    uintptr // the map, or the slice's first element
	n    int     // the slice's length
	kind uint8   // tagArray or tagObject, and 1 for an Object
}

func (m *memo) reset() {
	clear(m.hashes)
	m.last = memoID{}
}

// hash is a hash of v that values equal (equal) share: a type's tag
// mixed with the value; an array's elements in order, an object's members
// in any order (their hashes added); 0 and -0 alike.
func (m *memo) hash(v any) uint64 {
	const (
		tagNull = iota + 1
		tagFalse
		tagTrue
		tagNumber
		tagString
		tagArray
		tagObject
		tagOther
	)
	switch x := v.(type) {
	case nil:
		return tagNull
	case bool:
		if x {
			return tagTrue
		}
		return tagFalse
	case float64:
		if x == 0 {
			x = 0 // -0 is 0
		}
		return mix(tagNumber, math.Float64bits(x))
	case string:
		return mix(tagString, maphash.String(seed, x))
	case []any, map[string]any, Object:
	default:
		return tagOther // equal to nothing: any hash will do
	}
	rv := reflect.ValueOf(v)
	id := memoID{p: rv.Pointer(), n: rv.Len()}
	switch v.(type) {
	case map[string]any:
		id.kind = tagObject
	case Object:
		id.kind = 1
	}
	if id == m.last && id.p != 0 {
		return m.lastHash
	}
	if h, ok := m.hashes[id]; ok {
		m.last, m.lastHash = id, h
		return h
	}
	var h uint64
	switch x := v.(type) {
	case []any:
		h = mix(tagArray, uint64(len(x)))
		for _, el := range x {
			h = mix(h, m.hash(el))
		}
	case map[string]any:
		var sum uint64
		for k, el := range x {
			sum += mix(maphash.String(seed, k), m.hash(el))
		}
		h = mix(mix(tagObject, uint64(len(x))), sum)
	case Object:
		var sum uint64
		for _, member := range x {
			sum += mix(maphash.String(seed, member.Name), m.hash(member.Value))
		}
		h = mix(mix(tagObject, uint64(len(x))), sum)
	}
	if m.hashes == nil {
		m.hashes = map[memoID]uint64{}
	}
	m.hashes[id] = h
	m.last, m.lastHash = id, h
	return h
}

// mix combines two hashes, in order.
func mix(a, b uint64) uint64 {
	h := (a ^ 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	h ^= b + 0x94d049bb133111eb + (h << 6) + (h >> 2)
	h *= 0xff51afd7ed558ccd
	return h ^ h>>33
}

// shorten is s cut to 60 bytes (at a rune), for an error message.
func shorten(s string) string {
	const limit = 60
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// stringTable is a set of strings, built once and read many times: an
// open-addressed table of indexes into its keys, a few KiB where a map
// of MaxValues strings takes tens (the garbage a long filter leaves).
// The zero value is empty; add only to one made with room
// (newStringTable).
type stringTable struct {
	keys []string
	// slots hold 1 + an index of keys in their low 16 bits, 0 for none,
	// and the high 16 bits of its hash above, so that most other strings
	// are passed over without comparing them. They are a power of two,
	// over twice as many as keys.
	slots []uint32
}

// tableSeed hashes every stringTable's strings.
var tableSeed = maphash.MakeSeed()

// newStringTable is an empty table with room for n strings (at most
// MaxValues), which it keeps in keys' array.
func newStringTable(keys []string, n int) stringTable {
	size := 8
	for size < 2*n+1 {
		size *= 2
	}
	return stringTable{keys: keys[:0], slots: make([]uint32, size)}
}

// empty reports whether the table holds no string.
func (t *stringTable) empty() bool { return len(t.keys) == 0 }

// slot is where str is in the table, or the empty slot where it would
// go, and the tag of its hash.
func (t *stringTable) slot(str string) (int, uint32) {
	h := maphash.String(tableSeed, str)
	mask, tag := len(t.slots)-1, uint32(h>>48)<<16
	for i := int(h) & mask; ; i = (i + 1) & mask {
		switch s := t.slots[i]; {
		case s == 0:
			return i, tag
		case s&0xffff0000 == tag && t.keys[s&0xffff-1] == str:
			return i, tag
		}
	}
}

// add puts str in the table; it reports false when it was there.
func (t *stringTable) add(str string) bool {
	i, tag := t.slot(str)
	if t.slots[i] != 0 {
		return false
	}
	t.keys = append(t.keys, str)
	t.slots[i] = tag | uint32(len(t.keys))
	return true
}

// has reports whether str is in the table.
func (t *stringTable) has(str string) bool {
	if len(t.slots) == 0 {
		return false
	}
	i, _ := t.slot(str)
	return t.slots[i] != 0
}
