// Package jsonx holds the fake's hand-written JSON: helpers that append a
// value's JSON to a byte slice exactly as encoding/json would write it, the
// pool of buffers answers are encoded into, the short text helpers that
// shorten what a message repeats of a request, and the decoding of a
// request body's JSON object with its depth limit (decode.go).
//
// It is a leaf: it imports only the standard library and internal/apierr
// (for the refusals of a body it cannot decode), so every layer of the fake
// (the bank, the wire, the console) may use it.
package jsonx

import (
	"bytes"
	"encoding/json"
	"math"
	"sync"
	"unicode/utf8"
)

// Appender is a value that appends its own JSON: byte for byte what
// encoding/json writes for it (field order, escaping, numbers), without
// reflection.
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// AppendString appends s as encoding/json writes a string, HTML characters
// escaped. Plain ASCII goes as it is; anything else is left to
// encoding/json.
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plain[s[i]] {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plain are the bytes encoding/json writes as they are in a string:
// printable ASCII but for the quote, the backslash and <, > and &.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// AppendList appends list as encoding/json writes a slice: null when nil,
// else each element as each appends it.
func AppendList[E any](b []byte, list []E, each func([]byte, *E) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, &list[i])
	}
	return append(b, ']')
}

// AppendStrings appends a string slice: null when nil.
func AppendStrings(b []byte, ss []string) []byte {
	return AppendList(b, ss, func(b []byte, s *string) []byte { return AppendString(b, *s) })
}

// AppendStringPtr appends *s, or null.
func AppendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return AppendString(b, *s)
}

// AppendFloat appends f as encoding/json writes a float64; a positive zero
// is written here, any other number by encoding/json (which refuses NaN
// and the infinities).
func AppendFloat(b []byte, f float64) ([]byte, error) {
	if math.Float64bits(f) == 0 {
		return append(b, '0'), nil
	}
	return AppendAny(b, f)
}

// AppendFloats appends a float64 slice: null when nil.
func AppendFloats(b []byte, fs []float64) ([]byte, error) {
	if fs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	var err error
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = AppendFloat(b, f); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// AppendFloatPtr appends *f, or null.
func AppendFloatPtr(b []byte, f *float64) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	return AppendFloat(b, *f)
}

// AppendObject appends a map of any: an empty one as {}, others by
// encoding/json (keys sorted).
func AppendObject(b []byte, m map[string]any) ([]byte, error) {
	switch {
	case m == nil:
		return append(b, "null"...), nil
	case len(m) == 0:
		return append(b, "{}"...), nil
	}
	return AppendAny(b, m)
}

// AppendAny appends v as encoding/json writes it. On an error b is
// returned as it was.
func AppendAny(b []byte, v any) ([]byte, error) {
	q, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, q...), nil
}

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// buffers recycles the buffers answers are encoded into.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// GetBuffer takes an empty buffer from the pool; give it back with
// PutBuffer once nothing refers to its bytes.
func GetBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

// PutBuffer empties b and returns it to the pool, unless it grew past
// 64 KiB: a large answer's buffer is let go rather than held.
func PutBuffer(b *bytes.Buffer) {
	if b.Cap() > 64<<10 {
		return // let a large answer's buffer go rather than hold it
	}
	b.Reset()
	buffers.Put(b)
}

// Cut shortens s to at most n bytes, on a rune boundary, marking the cut
// with "…" (which is not counted in n).
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Clip shortens what a refusal repeats of a request to its first 100
// bytes, marking the cut with "..." (it may cut a rune: the result goes
// through %q).
func Clip(s string) string {
	const most = 100
	if len(s) > most {
		return s[:most] + "..."
	}
	return s
}
