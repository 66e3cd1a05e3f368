package filter

import (
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

// valueSet is the values of an $in or $nin: strings, numbers and booleans
// as keys of a map (Go's map equality is the package's: same type, same
// value, 0 and -0 alike), null as a flag, arrays and objects by their
// canonical text (canonical), which two values share exactly when equal
// says they are equal.
type valueSet struct {
	scalars   map[any]struct{}
	null      bool
	composite map[string]struct{}
}

func newValueSet(values []any) *valueSet {
	s := &valueSet{}
	for _, v := range values {
		switch v.(type) {
		case nil:
			s.null = true
		case string, float64, bool:
			if s.scalars == nil {
				s.scalars = make(map[any]struct{}, len(values))
			}
			s.scalars[v] = struct{}{}
		case []any, map[string]any:
			if s.composite == nil {
				s.composite = map[string]struct{}{}
			}
			if k, ok := canonical(nil, v); ok {
				s.composite[string(k)] = struct{}{}
			}
		}
	}
	return s
}

// holds is $in's test of a value reached (found) or not: null stands for
// a missing field, and an array is in the set when it, or one of its
// elements, is.
func (s *valueSet) holds(v any, found bool) bool {
	if !found {
		return s.null
	}
	if s.has(v) {
		return true
	}
	list, _ := v.([]any)
	return slices.ContainsFunc(list, s.has)
}

// has reports whether v is one of the set's values.
func (s *valueSet) has(v any) bool {
	switch v.(type) {
	case nil:
		return s.null
	case string, float64, bool:
		_, ok := s.scalars[v]
		return ok
	case []any, map[string]any:
		if len(s.composite) == 0 {
			return false
		}
		k, ok := canonical(nil, v)
		if !ok {
			return false
		}
		_, ok = s.composite[string(k)]
		return ok
	}
	return false
}

// canonical appends v's canonical text to b: a type letter and the value,
// an object's fields in the order of their names. Two decoded JSON values
// have the same text exactly when equal reports them equal; ok is false
// for a value of another type (or holding one), which equals nothing.
func canonical(b []byte, v any) (_ []byte, ok bool) {
	switch x := v.(type) {
	case nil:
		return append(b, 'n'), true
	case bool:
		if x {
			return append(b, 't'), true
		}
		return append(b, 'f'), true
	case float64:
		if x == 0 {
			x = 0 // -0 is 0
		}
		b = strconv.AppendFloat(append(b, 'd'), x, 'g', -1, 64)
		return append(b, ';'), true
	case string:
		return appendString(b, 's', x), true
	case []any:
		b = append(b, '[')
		for _, el := range x {
			if b, ok = canonical(b, el); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		b = append(b, '{')
		for _, k := range slices.Sorted(maps.Keys(x)) {
			b = appendString(b, 'k', k)
			if b, ok = canonical(b, x[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendString appends s after a letter and its length, so that no text
// inside s can end it early.
func appendString(b []byte, letter byte, s string) []byte {
	b = strconv.AppendInt(append(b, letter), int64(len(s)), 10)
	return append(append(b, ':'), s...)
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
