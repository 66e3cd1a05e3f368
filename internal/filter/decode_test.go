package filter

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// decodeCases are documents decodeSimple takes (simple: true) or leaves
// to encoding/json, valid JSON or not.
var decodeCases = []struct {
	text   string
	simple bool
}{
	{`{}`, true},
	{` { "a" : [ 1 , -2.5e3 , "x" , true , false , null , { } , [ ] ] } `, true},
	{"{\t\"a\"\n:\r1}", true},
	{`{"a":1,"a":2}`, true},
	{`{"legal_names":{"$in":["User 1","User 11"]}}`, true},
	{`{"é":"ünïcödé ✓"}`, true},
	{`{"a":0}`, true},
	{`{"a":-0}`, true},
	{`{"a":1E+2}`, true},
	{`{"a":1e-2}`, true},
	{`{"a":0.5}`, true},
	{`[1,2]`, true},
	{`"s"`, true},
	{`12`, true},
	{`null`, true},
	{`{"a":{"$in":["x","y"]},"b":{"$nin":[]},"c":{"$in":["x",1]},"$in":"x"}`, true},
	{`{"a":{"$eq":{"$in":["x"]}},"b":[{"$nin":["y"]}]}`, true},
	{`{"a":{"$in":["x\n"]}}`, false},
	{`{"a":{"$in":["x",}}`, false},
	{`{"a":"\n"}`, false},
	{`{"a":"\u00e9"}`, false},
	{`{"a\"b":1}`, false},
	{"{\"a\":\"\x01\"}", false},
	{"{\"a\":\"\xff\"}", false},
	{`{"a":1e400}`, false},
	{`{"a":01}`, false},
	{`{"a":1.}`, false},
	{`{"a":.5}`, false},
	{`{"a":-}`, false},
	{`{"a":1e}`, false},
	{`{"a":+1}`, false},
	{`{"a":tru}`, false},
	{`{"a":nulll}`, false},
	{`{"a":1,}`, false},
	{`{"a" 1}`, false},
	{`{a:1}`, false},
	{`[1,]`, false},
	{`[1 2]`, false},
	{`{"a":1}}`, false},
	{`{"a":1} x`, false},
	{`{"a":[1}`, false},
	{`{"a":"x`, false},
	{`{"a":`, false},
	{`{`, false},
	{``, false},
	{`   `, false},
	{strings.Repeat("[", maxSimpleDepth+2) + strings.Repeat("]", maxSimpleDepth+2), false},
}

// TestDecodeSimpleIsUnmarshal: what decodeSimple decodes, encoding/json
// decodes to the same value, and what it leaves (ok false) it leaves to
// encoding/json, which answers as before.
func TestDecodeSimpleIsUnmarshal(t *testing.T) {
	t.Parallel()
	for _, tc := range decodeCases {
		got, ok := decodeSimple(tc.text)
		if ok != tc.simple {
			t.Errorf("decodeSimple(%q): ok %v, want %v", tc.text, ok, tc.simple)
		}
		checkDecodeSimple(t, tc.text, got, ok)
	}
}

// checkDecodeSimple fails when decodeSimple's answer (v, ok) to text is
// not encoding/json's.
func checkDecodeSimple(t *testing.T, text string, v any, ok bool) {
	t.Helper()
	if !ok {
		return
	}
	var want any
	if err := json.Unmarshal([]byte(text), &want); err != nil {
		t.Fatalf("decodeSimple(%q) decoded what encoding/json refuses: %v", text, err)
	}
	if !reflect.DeepEqual(plain(v), want) {
		t.Fatalf("decodeSimple(%q) = %#v, encoding/json %#v", text, v, want)
	}
}

// FuzzDecodeSimple holds decodeSimple to encoding/json on any text.
func FuzzDecodeSimple(f *testing.F) {
	for _, tc := range decodeCases {
		f.Add(tc.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, ok := decodeSimple(text)
		checkDecodeSimple(t, text, v, ok)
	})
}

// TestMatchLiteralsLikeOperators: an object holding an $in or $nin member
// compared as a value ($eq, $ne, an element of $in) matches the document's
// object of the same members, though Parse reads an $in's strings without
// boxing them (stringArray).
func TestMatchLiteralsLikeOperators(t *testing.T) {
	t.Parallel()
	var doc map[string]any
	if err := json.Unmarshal([]byte(`{"q":{"$in":["x","y"]},"r":[{"$nin":["z"]}]}`), &doc); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		filter string
		want   bool
	}{
		{`{"q":{"$eq":{"$in":["x","y"]}}}`, true},
		{`{"q":{"$eq":{"$in":["y","x"]}}}`, false},
		{`{"q":{"$ne":{"$in":["x","y"]}}}`, false},
		{`{"q":{"$in":[{"$in":["x","y"]}]}}`, true},
		{`{"q":{"$nin":[{"$in":["x","y"]},"w"]}}`, false},
		{`{"r":{"$eq":[{"$nin":["z"]}]}}`, true},
		{`{"r":{"$in":[{"$nin":["z"]}]}}`, true},
		{`{"q.$in":{"$in":["y"]}}`, true},
	} {
		f, err := Parse(tc.filter)
		if err != nil {
			t.Fatalf("Parse(%s): %v", tc.filter, err)
		}
		if got := f.Match(doc); got != tc.want {
			t.Errorf("%s: Match = %v, want %v", tc.filter, got, tc.want)
		}
	}
}

// TestStringTableIsASet: a stringTable of MaxValues strings (repeated
// ones among them, and "") holds each of them and no other, as a map
// of them does.
func TestStringTableIsASet(t *testing.T) {
	t.Parallel()
	var list []string
	want := map[string]bool{}
	for i := range MaxValues {
		s := strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strings.Repeat("y", i%5)
		if i%10 == 0 {
			s = ""
		}
		list = append(list, s)
		want[s] = true
	}
	table := newStringTable(nil, len(list))
	added := 0
	for _, s := range list {
		if table.add(s) {
			added++
		}
	}
	if added != len(want) || len(table.keys) != len(want) {
		t.Errorf("added %d strings, kept %d; want %d", added, len(table.keys), len(want))
	}
	for s := range want {
		if !table.has(s) {
			t.Errorf("has(%q) = false", s)
		}
	}
	for _, s := range []string{"z", "xa ", "xxxxxxxxa", "ab", "aa"} {
		if table.has(s) != want[s] {
			t.Errorf("has(%q) = %v, want %v", s, !want[s], want[s])
		}
	}
	var empty stringTable
	if empty.has("") || !empty.empty() {
		t.Error("the zero stringTable holds a string")
	}
}
