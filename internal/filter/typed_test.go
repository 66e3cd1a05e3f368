package filter_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/filter"
)

// TestTypedIsMatch: a filter compiled to read Values (Typed) matches as
// the filter matches the decoded document whose paths lead to those
// values, over random documents (strings, some not UTF-8, lists of
// strings, empty or null, numbers with 0 and -0, booleans, null, missing,
// a path into an object, a path through an array of objects) and random
// filters of every operator, $and and $or, against values found in them
// and others; and a filter that compares an array or an object does not
// compile. Bind's test of the same readers answers as Match.
func TestTypedIsMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 3))
	paths := []string{"s", "l", "n", "b", "x.y", "d.e"}
	// strs are an item's strings: "b\xff" and "\xffb" are not UTF-8, and
	// JSON shows them as "b\ufffd" and "\ufffdb".
	strs := []string{"a", "b", "", "0", "b\xff", "\xffb", "b\ufffd"}
	shown := func(s string) string {
		data, _ := json.Marshal(s)
		_ = json.Unmarshal(data, &s)
		return s
	}
	scalars := []any{"a", "b", "b\ufffd", "\ufffdb", "", "0", 0.0, math.Copysign(0, -1), 1.0, 2.5, true, false, nil}
	randomValue := func() (filter.Value, any) {
		switch rng.IntN(7) {
		case 0:
			return filter.Value{}, nil // missing
		case 1:
			return filter.Value{Kind: filter.Null}, nil
		case 2:
			s := strs[rng.IntN(len(strs))]
			return filter.Value{Kind: filter.String, Str: s}, shown(s)
		case 3:
			list, decoded := []string{}, []any{}
			for range rng.IntN(3) {
				s := strs[rng.IntN(len(strs))]
				list, decoded = append(list, s), append(decoded, shown(s))
			}
			return filter.Value{Kind: filter.Strings, List: list}, decoded
		case 4:
			n := []float64{0, math.Copysign(0, -1), 1, 2.5}[rng.IntN(4)]
			return filter.Value{Kind: filter.Number, Num: n}, n
		default:
			b := rng.IntN(2) == 0
			return filter.Value{Kind: filter.Bool, Bool: b}, b
		}
	}
	ops := []string{"$eq", "$ne", "$in", "$nin", "$exists", "$gt", "$gte", "$lt", "$lte"}
	condition := func() map[string]any {
		op, arg := ops[rng.IntN(len(ops))], scalars[rng.IntN(len(scalars))]
		switch op {
		case "$in", "$nin":
			list := []any{}
			for range rng.IntN(4) {
				list = append(list, scalars[rng.IntN(len(scalars))])
			}
			arg = list
		case "$exists":
			arg = rng.IntN(2) == 0
		case "$gt", "$gte", "$lt", "$lte":
			if _, ok := arg.(float64); !ok {
				arg = []string{"a", "b\ufffd"}[rng.IntN(2)]
			}
		}
		return map[string]any{paths[rng.IntN(len(paths))]: map[string]any{op: arg}}
	}
	var document func(depth int) map[string]any
	document = func(depth int) map[string]any {
		doc := condition()
		if depth < 2 && rng.IntN(3) == 0 {
			subs := []any{}
			for range 1 + rng.IntN(3) {
				subs = append(subs, document(depth+1))
			}
			doc[[]string{"$and", "$or"}[rng.IntN(2)]] = subs
		}
		return doc
	}
	checked := 0
	for range 20000 {
		text, err := json.Marshal(document(0))
		if err != nil {
			t.Fatal(err)
		}
		f, err := filter.Parse(string(text))
		if err != nil {
			t.Fatalf("Parse(%s): %v", text, err)
		}
		typed, ok := f.Typed()
		if !ok {
			t.Fatalf("Parse(%s).Typed() does not compile", text)
		}
		values := make([]filter.Value, len(typed.Paths()))
		doc := map[string]any{}
		if rng.IntN(2) == 0 {
			doc["x"] = map[string]any{} // x.y missing from an object
		}
		for i, path := range typed.Paths() {
			if path == "d.e" { // an array of objects, each with e or not
				v, d := filter.Value{Kind: filter.Each}, []any{}
				for range rng.IntN(3) {
					s := strs[rng.IntN(len(strs))]
					v.List, d = append(v.List, s), append(d, map[string]any{"e": shown(s)})
				}
				if v.Absent = len(v.List) == 0 || rng.IntN(3) == 0; v.Absent && (len(d) > 0 || rng.IntN(2) == 0) {
					d = append(d, map[string]any{"f": 1.0})
				}
				if len(d) == 0 && rng.IntN(2) == 0 {
					doc["d"] = []any{"not an object"}
				} else {
					doc["d"] = d
				}
				values[i] = v
				continue
			}
			v, decoded := randomValue()
			values[i] = v
			if v.Kind == filter.Missing {
				continue
			}
			if path == "x.y" {
				x, _ := doc["x"].(map[string]any)
				if x == nil {
					x = map[string]any{}
					doc["x"] = x
				}
				x["y"] = decoded
				continue
			}
			doc[path] = decoded
		}
		want := f.Match(doc)
		if got := typed.Match(values); got != want {
			t.Fatalf("%s: Typed matches %v, Match of %v %v", text, got, doc, want)
		}
		// Bind's test answers as Match, item after item (the first of
		// other values, which the readers leave in what they set),
		// reading each path at most once an item.
		reads := make([]int, len(values))
		readers := make([]func(int, []filter.Value, *filter.Value, *[]string), len(values))
		for i := range readers {
			readers[i] = func(_ int, item []filter.Value, v *filter.Value, _ *[]string) { reads[i]++; setValue(v, item[i]) }
		}
		bound := filter.Bind(typed, readers)
		other := make([]filter.Value, len(values))
		for i := range other {
			other[i], _ = randomValue()
		}
		bound(0, other)
		for item := 1; item < 3; item++ {
			if got := bound(item, values); got != want {
				t.Fatalf("%s: Bind's test of item %d matches %v, Match of %v %v", text, item, got, doc, want)
			}
			for i, n := range reads {
				if n > item+1 {
					t.Fatalf("%s: Bind's test read %s %d times in %d items", text, typed.Paths()[i], n, item+1)
				}
			}
		}
		checked++
	}
	for _, text := range []string{`{"a":[1]}`, `{"a":{"$ne":{"b":1}}}`, `{"a":{"$in":["x",[1]]}}`, `{"$or":[{"b":1},{"a":{"$nin":[{}]}}]}`} {
		f, err := filter.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := f.Typed(); ok {
			t.Errorf("Parse(%s).Typed() compiles", text)
		}
	}
}

// setValue sets v to x with its Set methods, as a reader does.
func setValue(v *filter.Value, x filter.Value) {
	switch x.Kind {
	case filter.Missing:
		v.SetMissing()
	case filter.Null:
		v.SetNull()
	case filter.String:
		v.SetString(x.Str)
	case filter.Strings:
		v.SetStrings(x.List)
	case filter.Bool:
		v.SetBool(x.Bool)
	case filter.Number:
		v.SetNumber(x.Num)
	case filter.Each:
		v.SetEach(x.List, x.Absent)
	}
}

// TestSplitIsMatch: a filter split into a Typed part and the rest
// matches a document exactly when both parts do, over filters that mix
// conditions Typed compiles (on paths typeable accepts or not) with ones
// it does not (an array or object compared), $or and $and of both, and
// documents of strings, numbers, lists of strings, null and missing
// fields; the rest reads only the fields its conditions name.
func TestSplitIsMatch(t *testing.T) {
	t.Parallel()
	docs := []string{
		`{"s":"a","n":1,"l":["a","b"],"o":{"x":1}}`,
		`{"s":"b","n":2,"l":[],"o":{"x":2}}`,
		`{"s":null,"l":["b"],"o":[1]}`,
		`{}`,
	}
	filters := []string{
		`{"s":"a","o":{"x":1}}`,
		`{"s":{"$in":["a","b"]},"o":{"$nin":[[1]]}}`,
		`{"n":{"$gt":1},"l":"b","o":{"$ne":{"x":2}}}`,
		`{"$or":[{"s":"a"},{"o":{"x":2}}],"n":{"$exists":true}}`,
		`{"$and":[{"s":{"$ne":"b"}},{"l":{"$in":["a"]}}],"o":[1]}`,
		`{"s":"a","n":1}`,
		`{"o":{"x":1}}`,
		`{"l":["a","b"],"s":{"$lte":"b"}}`,
	}
	for _, typeableN := range []bool{true, false} {
		typeable := func(p string) bool { return p != "o" && (typeableN || p != "n") }
		for _, text := range filters {
			f, err := filter.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			typed, rest := f.Split(typeable)
			if rest != nil && slices.Contains(rest.Fields(), "s") && !strings.Contains(text, `"$or"`) && !strings.Contains(text, `"$and"`) {
				t.Errorf("%s: the rest reads s, which the typed part tests", text)
			}
			for _, d := range docs {
				var doc map[string]any
				if err := json.Unmarshal([]byte(d), &doc); err != nil {
					t.Fatal(err)
				}
				got := true
				if typed != nil {
					values := make([]filter.Value, len(typed.Paths()))
					for i, p := range typed.Paths() {
						if !typeable(p) {
							t.Fatalf("%s: the typed part reads %s", text, p)
						}
						values[i] = topValue(doc, p)
					}
					got = typed.Match(values)
				}
				if rest != nil {
					got = got && rest.Match(doc)
				}
				if want := f.Match(doc); got != want {
					t.Errorf("%s (typeable n %v) on %s: split parts match %v, the filter %v", text, typeableN, d, got, want)
				}
			}
		}
	}
}

// topValue is the Value a top-level field of doc holds.
func topValue(doc map[string]any, name string) filter.Value {
	x, ok := doc[name]
	if !ok {
		return filter.Value{}
	}
	switch v := x.(type) {
	case nil:
		return filter.Value{Kind: filter.Null}
	case string:
		return filter.Value{Kind: filter.String, Str: v}
	case float64:
		return filter.Value{Kind: filter.Number, Num: v}
	case bool:
		return filter.Value{Kind: filter.Bool, Bool: v}
	case []any:
		list := []string{}
		for _, e := range v {
			s, _ := e.(string)
			list = append(list, s)
		}
		return filter.Value{Kind: filter.Strings, List: list}
	}
	return filter.Value{Kind: 255}
}
