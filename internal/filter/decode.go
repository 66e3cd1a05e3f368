package filter

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeSimple decodes text as encoding/json.Unmarshal into an any would
// (objects as map[string]any, arrays as []any, numbers as float64), for
// the documents a filter usually is: strings without escapes, of valid
// UTF-8 and no control characters. Its strings are text's own bytes, not
// copies; the array of an $in or $nin member that holds only strings is
// a stringArray, which plain makes the []any it stands for. ok is false
// for anything else, valid JSON or not: the caller then decodes with
// encoding/json, which answers the same value or the error it reports.
// TestDecodeSimpleIsUnmarshal holds the two alike.
func decodeSimple(text string) (v any, ok bool) {
	d := simpleDecoder{text: text}
	v, ok = d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	return v, d.at == len(text)
}

// simpleDecoder is decodeSimple's place in its text.
type simpleDecoder struct {
	text string
	at   int
}

// maxSimpleDepth is how deep decodeSimple nests before it leaves the
// document to encoding/json (Parse refuses deeper than MaxDepth anyway).
const maxSimpleDepth = 2*MaxDepth + 8

func (d *simpleDecoder) space() {
	for d.at < len(d.text) {
		switch d.text[d.at] {
		case ' ', '\t', '\n', '\r':
			d.at++
		default:
			return
		}
	}
}

func (d *simpleDecoder) value(depth int) (any, bool) {
	d.space()
	if d.at >= len(d.text) || depth > maxSimpleDepth {
		return nil, false
	}
	switch c := d.text[d.at]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		if s, ok := d.str(); ok {
			return s, true
		}
		return nil, false
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	}
	for _, lit := range [...]struct {
		text  string
		value any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(d.text)-d.at >= len(lit.text) && d.text[d.at:d.at+len(lit.text)] == lit.text {
			d.at += len(lit.text)
			return lit.value, true
		}
	}
	return nil, false
}

func (d *simpleDecoder) object(depth int) (any, bool) {
	d.at++ // {
	m := map[string]any{}
	if d.closes('}') {
		return m, true
	}
	for {
		d.space()
		if d.at >= len(d.text) || d.text[d.at] != '"' {
			return nil, false
		}
		key, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.at >= len(d.text) || d.text[d.at] != ':' {
			return nil, false
		}
		d.at++
		var v any
		ok = false
		if key == "$in" || key == "$nin" {
			v, ok = d.stringList()
		}
		if !ok {
			if v, ok = d.value(depth + 1); !ok {
				return nil, false
			}
		}
		m[key] = v // a repeated name: the last, as encoding/json
		if end, ok := d.after('}'); !ok || end {
			return m, ok
		}
	}
}

func (d *simpleDecoder) array(depth int) (any, bool) {
	d.at++ // [
	list := []any{}
	if d.closes(']') {
		return list, true
	}
	for {
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		list = append(list, v)
		if end, ok := d.after(']'); !ok || end {
			return list, ok
		}
	}
}

// closes reads close, an empty object's or array's end, when it is next.
func (d *simpleDecoder) closes(close byte) bool {
	d.space()
	if d.at < len(d.text) && d.text[d.at] == close {
		d.at++
		return true
	}
	return false
}

// after reads what follows a member or an element: a comma (end false)
// or close (end true); ok is false for anything else.
func (d *simpleDecoder) after(close byte) (end, ok bool) {
	d.space()
	if d.at < len(d.text) {
		switch d.text[d.at] {
		case ',':
			d.at++
			return false, true
		case close:
			d.at++
			return true, true
		}
	}
	return false, false
}

// validTail reports whether s, from the first byte that is not
// plainByte, is valid UTF-8 with no control character or '\\'.
func validTail(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c == '\\' {
			return false
		}
	}
	return utf8.ValidString(s)
}

// stringArray is an array of strings ($in's or $nin's) held without
// boxing each string into an any.
type stringArray []string

// plain is v with each stringArray in it the []any it stands for.
func plain(v any) any {
	switch x := v.(type) {
	case stringArray:
		list := make([]any, len(x))
		for i, s := range x {
			list[i] = s
		}
		return list
	case []any:
		for i, e := range x {
			x[i] = plain(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = plain(e)
		}
	}
	return v
}

// stringList reads an array whose elements are all strings, as str reads
// them, into a stringArray; ok is false, and nothing read, for
// anything else.
func (d *simpleDecoder) stringList() (any, bool) {
	start := d.at
	d.space()
	if d.at >= len(d.text) || d.text[d.at] != '[' {
		d.at = start
		return nil, false
	}
	d.at++
	list := make(stringArray, 0, elements(d.text[d.at:]))
	if d.closes(']') {
		return list, true
	}
	for {
		d.space()
		if d.at >= len(d.text) || d.text[d.at] != '"' {
			d.at = start
			return nil, false
		}
		s, ok := d.str()
		if !ok {
			d.at = start
			return nil, false
		}
		list = append(list, s)
		end, ok := d.after(']')
		switch {
		case !ok:
			d.at = start
			return nil, false
		case end:
			return list, true
		}
	}
}

// elements is about how many elements the array that text starts
// inside holds: one more than its commas before the first ']' (a comma
// or ']' in a string miscounts it, which costs only an append's growth).
func elements(text string) int {
	if end := strings.IndexByte(text, ']'); end >= 0 {
		text = text[:end]
	}
	return min(strings.Count(text, ",")+1, MaxValues+1)
}

// plainByte tells the bytes str takes as they are: not a control
// character, '\\' or the start of a rune beyond ASCII.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '\\'
	}
	return t
}()

// str reads a string with no escape, of valid UTF-8 and no control
// character.
func (d *simpleDecoder) str() (string, bool) {
	start := d.at + 1
	end := strings.IndexByte(d.text[start:], '"')
	if end < 0 {
		return "", false
	}
	s := d.text[start : start+end]
	for i := range len(s) {
		if !plainByte[s[i]] {
			if c := s[i]; c < utf8.RuneSelf || !validTail(s[i:]) {
				return "", false
			}
			break
		}
	}
	d.at = start + end + 1
	return s, true
}

// number reads a number as JSON writes one, into a float64.
func (d *simpleDecoder) number() (any, bool) {
	t, i := d.text, d.at
	if t[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(t) && '0' <= t[i] && t[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	switch {
	case i < len(t) && t[i] == '0':
		i++
	case digits() == 0:
		return nil, false
	}
	if i < len(t) && t[i] == '.' {
		i++
		if digits() == 0 {
			return nil, false
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	f, err := strconv.ParseFloat(t[d.at:i], 64)
	if err != nil {
		return nil, false // out of range: encoding/json's error
	}
	d.at = i
	return f, true
}
