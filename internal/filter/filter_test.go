package filter_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake/internal/benchpair"
	"github.com/synapsefake/synapsefake/internal/filter"
)

// node is a document shaped like a node of the API, with an array of
// objects, an array of strings, a null, nested objects and numbers.
const node = `{
	"_id": "5d2f0f3b8e7d3a0001a1b2c3",
	"type": "DEPOSIT-US",
	"is_active": true,
	"allowed": null,
	"info": {"nickname": "Checking", "balance": {"amount": 12.5, "currency": "USD"}},
	"extra": {"supp_id": "abc", "other": {}},
	"tags": ["a", "b"],
	"timeline": [{"date": 1000, "note": "Node created."}, {"date": 2000, "note": "Locked.", "code": "R01"}],
	"created_on": 1700000000000
}`

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return m
}

func TestMatch(t *testing.T) {
	doc := decode(t, node)
	for _, tc := range []struct {
		name   string
		filter string
		want   bool
	}{
		{"empty document matches everything", `{}`, true},
		{"equality on a field", `{"_id":"5d2f0f3b8e7d3a0001a1b2c3"}`, true},
		{"equality on another value", `{"_id":"5d2f0f3b8e7d3a0001a1b2c4"}`, false},
		{"equality on a dotted path", `{"info.nickname":"Checking"}`, true},
		{"equality on a deeper path", `{"info.balance.currency":"USD"}`, true},
		{"dotted path through a string", `{"type.x":"DEPOSIT-US"}`, false},
		{"several fields all hold", `{"type":"DEPOSIT-US","extra.supp_id":"abc"}`, true},
		{"several fields, one fails", `{"type":"DEPOSIT-US","extra.supp_id":"abd"}`, false},
		{"$eq", `{"type":{"$eq":"DEPOSIT-US"}}`, true},
		{"number equals number", `{"info.balance.amount":12.5}`, true},
		{"number does not equal its string", `{"info.balance.amount":"12.5"}`, false},
		{"string does not equal a number", `{"created_on":"1700000000000"}`, false},
		{"bool is not 1", `{"is_active":1}`, false},
		{"bool equals bool", `{"is_active":true}`, true},
		{"null matches null", `{"allowed":null}`, true},
		{"null matches a missing field", `{"missing":null}`, true},
		{"null does not match a present value", `{"type":null}`, false},
		{"object equality ignores order", `{"info.balance":{"currency":"USD","amount":12.5}}`, true},
		{"object equality needs every field", `{"info.balance":{"currency":"USD"}}`, false},
		{"empty object equals empty object", `{"extra.other":{}}`, true},
		{"array field equals an element", `{"tags":"b"}`, true},
		{"array field equals the whole array", `{"tags":["a","b"]}`, true},
		{"array field, order matters for the whole", `{"tags":["b","a"]}`, false},
		{"array field, no such element", `{"tags":"c"}`, false},
		{"path into an array of objects", `{"timeline.note":"Locked."}`, true},
		{"path into an array of objects, no match", `{"timeline.note":"Gone."}`, false},
		{"numeric index into an array", `{"timeline.1.code":"R01"}`, true},
		{"numeric index, other element", `{"timeline.0.code":"R01"}`, false},
		{"index past the end", `{"timeline.5.code":null}`, true},
		{"index into a string array", `{"tags.0":"a"}`, true},
		{"$ne on a value", `{"type":{"$ne":"ACH-US"}}`, true},
		{"$ne on the value", `{"type":{"$ne":"DEPOSIT-US"}}`, false},
		{"$ne matches a missing field", `{"missing":{"$ne":"x"}}`, true},
		{"$ne against an array's element", `{"tags":{"$ne":"a"}}`, false},
		{"$ne null on a missing field", `{"missing":{"$ne":null}}`, false},
		{"$in matches", `{"type":{"$in":["ACH-US","DEPOSIT-US"]}}`, true},
		{"$in does not match", `{"type":{"$in":["ACH-US"]}}`, false},
		{"$in empty", `{"type":{"$in":[]}}`, false},
		{"$in with null matches a missing field", `{"missing":{"$in":[null]}}`, true},
		{"$in against an array field", `{"tags":{"$in":["z","b"]}}`, true},
		{"$nin matches", `{"type":{"$nin":["ACH-US"]}}`, true},
		{"$nin does not match", `{"type":{"$nin":["DEPOSIT-US"]}}`, false},
		{"$nin matches a missing field", `{"missing":{"$nin":["x"]}}`, true},
		{"$gt on a number", `{"created_on":{"$gt":1600000000000}}`, true},
		{"$gt, equal is not greater", `{"created_on":{"$gt":1700000000000}}`, false},
		{"$gte, equal", `{"created_on":{"$gte":1700000000000}}`, true},
		{"$lt", `{"created_on":{"$lt":1700000000001}}`, true},
		{"$lte", `{"created_on":{"$lte":1699999999999}}`, false},
		{"range", `{"created_on":{"$gte":1600000000000,"$lt":1800000000000}}`, true},
		{"range, one side fails", `{"created_on":{"$gte":1600000000000,"$lt":1650000000000}}`, false},
		{"$gt on a number against a string", `{"created_on":{"$gt":"1"}}`, false},
		{"$lt on a string against a number", `{"type":{"$lt":5}}`, false},
		{"$gt on strings", `{"type":{"$gt":"ACH-US"}}`, true},
		{"$gt on a missing field", `{"missing":{"$gt":0}}`, false},
		{"$gt on a null", `{"allowed":{"$lt":1}}`, false},
		{"$gt into an array of objects", `{"timeline.date":{"$gt":1500}}`, true},
		{"$gt into an array of objects, none", `{"timeline.date":{"$gt":2500}}`, false},
		{"$exists true", `{"info.nickname":{"$exists":true}}`, true},
		{"$exists true, null counts", `{"allowed":{"$exists":true}}`, true},
		{"$exists true, missing", `{"info.nope":{"$exists":true}}`, false},
		{"$exists false, missing", `{"info.nope":{"$exists":false}}`, true},
		{"$exists false, present", `{"type":{"$exists":false}}`, false},
		{"$exists into an array", `{"timeline.code":{"$exists":true}}`, true},
		{"$or, one holds", `{"$or":[{"type":"ACH-US"},{"info.nickname":"Checking"}]}`, true},
		{"$or, none holds", `{"$or":[{"type":"ACH-US"},{"info.nickname":"Savings"}]}`, false},
		{"$and, both hold", `{"$and":[{"type":"DEPOSIT-US"},{"info.nickname":"Checking"}]}`, true},
		{"$and, one fails", `{"$and":[{"type":"DEPOSIT-US"},{"info.nickname":"Savings"}]}`, false},
		{"nested $or in $and", `{"$and":[{"$or":[{"type":"ACH-US"},{"type":"DEPOSIT-US"}]},{"tags":"a"}]}`, true},
		{"nested $and in $or", `{"$or":[{"$and":[{"type":"ACH-US"},{"tags":"a"}]},{"$and":[{"type":"DEPOSIT-US"},{"tags":"z"}]}]}`, false},
		{"$or beside a field", `{"type":"DEPOSIT-US","$or":[{"tags":"z"},{"extra.supp_id":"abc"}]}`, true},
		{"$or beside a failing field", `{"type":"ACH-US","$or":[{"tags":"a"}]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := filter.Parse(tc.filter)
			if err != nil {
				t.Fatalf("Parse(%s): %v", tc.filter, err)
			}
			if got := f.Match(doc); got != tc.want {
				t.Errorf("Parse(%s).Match = %v, want %v", tc.filter, got, tc.want)
			}
			if got := f.Match(asObjects(doc, 1).(map[string]any)); got != tc.want {
				t.Errorf("Parse(%s).Match of the document's objects as Objects = %v, want %v", tc.filter, got, tc.want)
			}
		})
	}
}

// TestFields: a document holding only Fields matches as the
// whole document does.
func TestFields(t *testing.T) {
	doc := decode(t, node)
	for _, tc := range []struct {
		filter string
		want   []string
	}{
		{`{}`, nil},
		{`{"$or":[{},{"$and":[{}]}],"$and":[{"$or":[{}]}]}`, nil},
		{`{"_id":"x"}`, []string{"_id"}},
		{`{"info.nickname":"x","info.balance.amount":{"$gt":1},"type":"y"}`, []string{"info", "type"}},
		{`{"$or":[{"extra.supp_id":"abc"},{"$and":[{"timeline.note":"x"},{"_id":"y"}]}],"missing":{"$exists":false}}`,
			[]string{"_id", "extra", "missing", "timeline"}},
	} {
		t.Run(tc.filter, func(t *testing.T) {
			f, err := filter.Parse(tc.filter)
			if err != nil {
				t.Fatalf("Parse(%s): %v", tc.filter, err)
			}
			if diff := cmp.Diff(tc.want, f.Fields()); diff != "" {
				t.Errorf("Fields() (-want +got):\n%s", diff)
			}
			part := map[string]any{}
			for _, k := range f.Fields() {
				if v, ok := doc[k]; ok {
					part[k] = v
				}
			}
			if f.Match(part) != f.Match(doc) {
				t.Errorf("Match of Fields only = %v, of the whole = %v", f.Match(part), f.Match(doc))
			}
			if len(f.Fields()) == 0 && !f.Match(map[string]any{}) {
				t.Errorf("a filter of no field does not match {}")
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	deep := strings.Repeat(`{"$and":[`, filter.MaxDepth+1) + `{}` + strings.Repeat(`]}`, filter.MaxDepth+1)
	limits := limitDocuments(1)
	for _, tc := range []struct {
		name, filter, want string // want: a part of the error's text
	}{
		{"not JSON", `{"_id":`, "not JSON"},
		{"not JSON, a bare word", `abc`, "not JSON"},
		{"trailing data", `{"_id":"x"} {}`, "not JSON"},
		{"an array", `[{"_id":"x"}]`, "not a JSON object"},
		{"a string", `"x"`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"unknown top-level operator", `{"$nor":[{"a":1}]}`, `unknown top-level operator "$nor"`},
		{"unknown field operator", `{"a":{"$regex":"^x"}}`, `unknown operator "$regex" on field "a"`},
		{"$and inside a field", `{"a":{"$and":[{"b":1}]}}`, `unknown operator "$and" on field "a"`},
		{"operators mixed with fields", `{"a":{"$gt":1,"b":2}}`, `mixes operators and fields`},
		{"$or not an array", `{"$or":{"a":1}}`, "$or takes a non-empty array"},
		{"$or empty", `{"$or":[]}`, "$or takes a non-empty array"},
		{"$and of a non-object", `{"$and":[{"a":1},2]}`, "element 1 is not an object"},
		{"$in not an array", `{"a":{"$in":"x"}}`, `$in on field "a" takes an array`},
		{"$nin not an array", `{"a":{"$nin":{"x":1}}}`, `$nin on field "a" takes an array`},
		{"$gt of a bool", `{"a":{"$gt":true}}`, `$gt on field "a" takes a number or a string`},
		{"$lte of null", `{"a":{"$lte":null}}`, `$lte on field "a" takes a number or a string`},
		{"$gte of an array", `{"a":{"$gte":[1]}}`, `$gte on field "a" takes a number or a string`},
		{"$exists of a number", `{"a":{"$exists":1}}`, `$exists on field "a" takes true or false`},
		{"empty field name", `{"":1}`, "empty name or path part"},
		{"empty path part", `{"a..b":1}`, "empty name or path part"},
		{"path ending in a dot", `{"a.":1}`, "empty name or path part"},
		{"bad operator deep inside $or", `{"$or":[{"a":1},{"$and":[{"b":{"$where":"1"}}]}]}`, `unknown operator "$where"`},
		{"too deep", deep, "nest deeper than"},
		{"number out of range", `{"a":1e999}`, "not JSON"},
		{"a byte past MaxBytes", limits["bytes"], "the document is 16385 bytes; at most 16384 are taken"},
		{"a value past MaxValues", limits["values"], "more than 1000 values in $in and $nin together; at most 1000 are taken"},
		{"a field past MaxConditions", limits["fields"], "more than 32 conditions"},
		{"an operator past MaxConditions", limits["operators"], "more than 32 conditions"},
		{"a branch past MaxConditions", limits["branches"], "more than 32 conditions"},
		{"a part past MaxPathParts", limits["path"], `field "p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p" has 17 path parts; at most 16 are taken`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := filter.Parse(tc.filter)
			if err == nil {
				t.Fatalf("Parse(%s) = %v, nil; want an error", tc.filter, f)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse(%s): %v; want it to say %q", tc.filter, err, tc.want)
			}
		})
	}
}

// limitDocuments are filter documents at each limit plus over: 0 for one
// at the limit, 1 for one past it.
func limitDocuments(over int) map[string]string {
	repeat := func(n int, part func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = part(i)
		}
		return strings.Join(parts, ",")
	}
	values := filter.MaxValues + over
	bytes := `{"a":"` + strings.Repeat("x", filter.MaxBytes+over-8) + `"}`
	return map[string]string{
		"bytes": bytes,
		// Two lists, so that the limit is of their total.
		"values": fmt.Sprintf(`{"a":{"$in":[%s]},"b":{"$nin":[%s]}}`,
			repeat(values/2, func(int) string { return "0" }), repeat(values-values/2, func(int) string { return `"x"` })),
		"fields":    "{" + repeat(filter.MaxConditions+over, func(i int) string { return fmt.Sprintf(`"f%d":1`, i) }) + "}",
		"operators": `{"a":{"$gt":0,"$lt":9},"b":{"$exists":true},` + repeat(filter.MaxConditions+over-3, func(i int) string { return fmt.Sprintf(`"f%d":{"$ne":%d}`, i, i) }) + "}",
		"branches":  `{"$or":[` + repeat(filter.MaxConditions+over, func(int) string { return "{}" }) + `]}`,
		"path":      fmt.Sprintf(`{"%s":1}`, strings.TrimSuffix(strings.Repeat("p.", filter.MaxPathParts+over), ".")),
	}
}

// TestParseAcceptsTheLimits: a document at each limit is taken.
func TestParseAcceptsTheLimits(t *testing.T) {
	for name, text := range limitDocuments(0) {
		t.Run(name, func(t *testing.T) {
			if _, err := filter.Parse(text); err != nil {
				t.Errorf("Parse of a document at the limit: %v", err)
			}
		})
	}
}

// TestMatchDocumentShapes: documents without the field, or holding it as
// another shape than the filter expects, never panic and match as the
// package comment says.
func TestMatchDocumentShapes(t *testing.T) {
	for _, tc := range []struct {
		name, filter, doc string
		want              bool
	}{
		{"empty document, equality", `{"a.b":1}`, `{}`, false},
		{"empty document, $ne", `{"a.b":{"$ne":1}}`, `{}`, true},
		{"empty array, null", `{"a.b":null}`, `{"a":[]}`, true},
		{"empty array, $exists", `{"a.b":{"$exists":true}}`, `{"a":[]}`, false},
		{"array of scalars, path", `{"a.b":1}`, `{"a":[1,2]}`, false},
		{"array of arrays is not entered", `{"a.b":1}`, `{"a":[[{"b":1}]]}`, false},
		{"some elements lack the field", `{"a.b":null}`, `{"a":[{"b":1},{"c":2}]}`, true},
		{"number path part on an object", `{"a.0":1}`, `{"a":{"0":1}}`, true},
		{"leading-zero part is not an index", `{"a.01":1}`, `{"a":[0,1]}`, false},
		{"negative part is not an index", `{"a.-1":1}`, `{"a":[1]}`, false},
		{"array equals array of objects", `{"a":[{"b":1}]}`, `{"a":[{"b":1}]}`, true},
		{"$in with an object", `{"a":{"$in":[{"b":1}]}}`, `{"a":{"b":1}}`, true},
		{"comparison over array elements, none", `{"a":{"$gt":5}}`, `{"a":[1,3]}`, false},
		{"each operator may meet another element", `{"a":{"$gt":2,"$lt":2}}`, `{"a":[1,3]}`, true},
		{"null field against a value", `{"a":1}`, `{"a":null}`, false},
		{"$nin with null and a missing field", `{"a":{"$nin":[null]}}`, `{}`, false},
		{"$in: -0 is 0", `{"a":{"$in":[0]}}`, `{"a":-0}`, true},
		{"$in: -0 is 0 in an array", `{"a":{"$in":[[0,"x"]]}}`, `{"a":[-0,"x"]}`, true},
		{"$eq: -0 is 0 in an object", `{"a":{"$eq":{"x":-0}}}`, `{"a":{"x":0}}`, true},
		{"$in: objects equal in any order", `{"a":{"$in":[{"y":[1,{"z":null}],"x":"1"}]}}`, `{"a":{"x":"1","y":[1,{"z":null}]}}`, true},
		{"$in: an object's member of another type", `{"a":{"$in":[{"x":"1"}]}}`, `{"a":{"x":1}}`, false},
		{"$in: a string is not its quoted text", `{"a":{"$in":["s1:x"]}}`, `{"a":"x"}`, false},
		{"$in: an array element that is an object", `{"a":{"$in":[{"x":1}]}}`, `{"a":[{"x":2},{"x":1}]}`, true},
		{"$ne: an array against an object", `{"a":{"$ne":{"x":1}}}`, `{"a":[1,{"x":1}]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := filter.Parse(tc.filter)
			if err != nil {
				t.Fatalf("Parse(%s): %v", tc.filter, err)
			}
			if got := f.Match(decode(t, tc.doc)); got != tc.want {
				t.Errorf("Parse(%s).Match(%s) = %v, want %v", tc.filter, tc.doc, got, tc.want)
			}
			if got := f.Match(asObjects(decode(t, tc.doc), 2).(map[string]any)); got != tc.want {
				t.Errorf("Parse(%s).Match(%s) with Objects = %v, want %v", tc.filter, tc.doc, got, tc.want)
			}
		})
	}
}

// FuzzParseMatch: no filter text panics Parse, and a parsed filter matches
// any document without panicking, as it matches the document's Fields.
func FuzzParseMatch(f *testing.F) {
	for _, seed := range []string{`{}`, `{"info.nickname":"Checking"}`, `{"$or":[{"a":1},{"b":{"$in":[null,[1],{}]}}]}`,
		`{"timeline.0.date":{"$gte":1,"$lt":"x"}}`, `{"a":{"$exists":false,"$ne":[]}}`, `[`, `{"$and":[]}`} {
		f.Add(seed, node)
	}
	f.Fuzz(func(t *testing.T, text, doc string) {
		flt, err := filter.Parse(text)
		if err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal([]byte(doc), &m) != nil {
			return
		}
		part := map[string]any{}
		for _, k := range flt.Fields() {
			if v, ok := m[k]; ok {
				part[k] = v
			}
		}
		if whole := flt.Match(m); flt.Match(part) != whole {
			t.Errorf("Parse(%s): Match of %s is %v, of its Fields %v", text, doc, whole, !whole)
		}
	})
}

// TestInIsEveryEq: $eq holds when the value reached, or one of its
// elements, is deeply equal to its value (reflect.DeepEqual, which on
// decoded JSON is the package's equality: -0 is 0, objects equal by their
// members), null standing for a missing field; $in holds when one of its
// values' $eq does, and $nin when none does. Over random values: numbers
// (0 and -0 among them), strings that look like them, booleans, null,
// arrays and objects, reached directly, through an array of objects, or
// not at all.
func TestInIsEveryEq(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 1))
	scalars := []any{0.0, math.Copysign(0, -1), 1.0, 1.5, "0", "1", "a", "", true, false, nil}
	var value func(depth int) any
	value = func(depth int) any {
		switch k := rng.IntN(10); {
		case k < 6 || depth > 1:
			return scalars[rng.IntN(len(scalars))]
		case k < 8:
			list := make([]any, rng.IntN(3))
			for i := range list {
				list[i] = value(depth + 1)
			}
			return list
		default:
			m := map[string]any{}
			for _, key := range []string{"x", "y"}[:rng.IntN(3)] {
				m[key] = value(depth + 1)
			}
			return m
		}
	}
	// eq is the oracle of $eq on one value reached, or none.
	eq := func(v any, found bool, want any) bool {
		if !found {
			return want == nil
		}
		if reflect.DeepEqual(v, want) {
			return true
		}
		list, _ := v.([]any)
		return slices.ContainsFunc(list, func(e any) bool { return reflect.DeepEqual(e, want) })
	}
	for i := range 5000 {
		path, doc := "a", map[string]any{}
		// reached are the values the path reaches (found false: none).
		type reached struct {
			v     any
			found bool
		}
		var at []reached
		switch rng.IntN(3) {
		case 0:
			doc["a"] = value(0)
			at = []reached{{doc["a"], true}}
		case 1:
			path = "a.b"
			list := make([]any, rng.IntN(3))
			for j := range list {
				o := map[string]any{}
				if rng.IntN(4) > 0 {
					o["b"] = value(0)
				}
				list[j] = o
				v, ok := o["b"]
				at = append(at, reached{v, ok})
			}
			doc["a"] = list
			if len(list) == 0 {
				at = []reached{{nil, false}}
			}
		default:
			at = []reached{{nil, false}}
		}
		values := make([]any, rng.IntN(6))
		for j := range values {
			values[j] = value(0)
		}
		for _, want := range values {
			text := mustJSON(t, map[string]any{path: map[string]any{"$eq": want}})
			wantEq := slices.ContainsFunc(at, func(r reached) bool { return eq(r.v, r.found, want) })
			if got := mustParse(t, text).Match(doc); got != wantEq {
				t.Fatalf("#%d: %s on %s = %v, want %v", i, text, mustJSON(t, doc), got, wantEq)
			}
			if got := mustParse(t, text).Match(asObjects(doc, uint64(i)).(map[string]any)); got != wantEq {
				t.Fatalf("#%d: %s on %s with Objects = %v, want %v", i, text, mustJSON(t, doc), got, wantEq)
			}
		}
		wantIn := slices.ContainsFunc(values, func(want any) bool {
			return slices.ContainsFunc(at, func(r reached) bool { return eq(r.v, r.found, want) })
		})
		in := mustJSON(t, map[string]any{path: map[string]any{"$in": values}})
		nin := mustJSON(t, map[string]any{path: map[string]any{"$nin": values}})
		objects := asObjects(doc, uint64(i)).(map[string]any)
		for _, d := range []map[string]any{doc, objects} {
			if got := mustParse(t, in).Match(d); got != wantIn {
				t.Fatalf("#%d: %s on %s = %v, want %v", i, in, mustJSON(t, doc), got, wantIn)
			}
			if got := mustParse(t, nin).Match(d); got != !wantIn {
				t.Fatalf("#%d: %s on %s = %v, want %v", i, nin, mustJSON(t, doc), got, !wantIn)
			}
		}
	}
}

// asObjects is v with each object below its top (a map) an Object, its
// members in an order shuffled by seed.
func asObjects(v any, seed uint64) any {
	rng := rand.New(rand.NewPCG(seed, 45))
	var convert func(v any, top bool) any
	convert = func(v any, top bool) any {
		switch x := v.(type) {
		case map[string]any:
			if top {
				m := make(map[string]any, len(x))
				for k, c := range x {
					m[k] = convert(c, false)
				}
				return m
			}
			o := filter.Object{}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				o = append(o, filter.Member{Name: k, Value: convert(x[k], false)})
			}
			rng.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
			return o
		case []any:
			list := make([]any, len(x))
			for i, c := range x {
				list[i] = convert(c, false)
			}
			return list
		}
		return v
	}
	return convert(v, true)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustParse(t *testing.T, text string) *filter.Filter {
	t.Helper()
	f, err := filter.Parse(text)
	if err != nil {
		t.Fatalf("Parse(%s): %v", text, err)
	}
	return f
}

// BenchmarkIn is an $in of MaxValues values against one of a single
// value, on a field holding an array of 50 strings, which is looked up
// whole and then element by element: "paired" reports their ratio, about
// 1x when $in is a set (it grew with the values when $in was a list).
func BenchmarkIn(b *testing.B) {
	list := make([]any, 50)
	for i := range list {
		list[i] = fmt.Sprint("name ", i)
	}
	doc := map[string]any{"a": list}
	values := make([]string, filter.MaxValues)
	for i := range values {
		values[i] = fmt.Sprintf(`"other %d"`, i)
	}
	many, err := filter.Parse(`{"a":{"$in":[` + strings.Join(values, ",") + `]}}`)
	if err != nil {
		b.Fatal(err)
	}
	one, err := filter.Parse(`{"a":{"$in":["other 0"]}}`)
	if err != nil {
		b.Fatal(err)
	}
	benchpair.Run(b, func() { many.Match(doc) }, func() { one.Match(doc) })
}
