package bank

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// TestAppendJSONIsEncodingJSON: each view that appends its own JSON
// (transactions, nodes, users) writes the bytes encoding/json writes for it, over views filled at random:
// strings that need escaping (quotes, control characters, HTML, U+2028,
// invalid UTF-8), nil and empty slices and maps, nested values in maps,
// nil and set pointers, and numbers of every form.
func TestAppendJSONIsEncodingJSON(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	// A node's info is one of these, or a map.
	infos := []reflect.Type{reflect.TypeFor[nodeInfo](), reflect.TypeFor[achNodeInfo](), reflect.TypeFor[map[string]any]()}
	for _, typ := range []reflect.Type{reflect.TypeFor[TxView](), reflect.TypeFor[NodeView](), reflect.TypeFor[UserView]()} {
		for i := range 2000 {
			v := reflect.New(typ)
			fillRandom(rng, v.Elem(), 0)
			if n, ok := v.Interface().(*NodeView); ok && rng.IntN(4) > 0 {
				info := reflect.New(infos[rng.IntN(len(infos))])
				fillRandom(rng, info.Elem(), 1)
				n.Info = info.Elem().Interface()
			}
			want, err := json.Marshal(v.Interface())
			got, gotErr := v.Interface().(jsonx.Appender).AppendJSON([]byte("prefix"))
			if (err != nil) != (gotErr != nil) {
				t.Fatalf("%s #%d: encoding/json's error %v, AppendJSON's %v", typ, i, err, gotErr)
			}
			if err == nil && !bytes.Equal(got, append([]byte("prefix"), want...)) {
				t.Fatalf("%s #%d:\nAppendJSON:    %s\nencoding/json: prefix%s", typ, i, got, want)
			}
		}
	}
}

var (
	randomStrings = []string{"", "a", "USD", "Rent", `say "hi"`, `back\slash`, "tab\tnew\nline\r", "\x00\x01\x1f",
		"<b>&amp;</b>", "a<b", "a>b", "é ü 漢字", "line\u2028sep\u2029", "bad \xff utf8", "emoji 😀", "\x7f"}
	randomFloats = []float64{0, math.Copysign(0, -1), 1, -1.5, 12.34, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, math.MaxFloat64, math.Inf(1)}
)

// fillRandom gives v a random value of its type.
func fillRandom(rng *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(randomStrings[rng.IntN(len(randomStrings))])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		v.SetInt([]int64{0, 1, -1, 42, 1 << 53, -(1 << 60), math.MaxInt64, math.MinInt64}[rng.IntN(8)])
	case reflect.Float64:
		v.SetFloat(randomFloats[rng.IntN(len(randomFloats))])
	case reflect.Pointer:
		if rng.IntN(2) == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fillRandom(rng, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch rng.IntN(3) {
		case 0: // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			n := 1 + rng.IntN(3)
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				fillRandom(rng, s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Map:
		switch rng.IntN(3) {
		case 0: // nil
		case 1:
			v.Set(reflect.MakeMap(v.Type()))
		default:
			m := reflect.MakeMap(v.Type())
			for range 1 + rng.IntN(3) {
				k := reflect.New(v.Type().Key()).Elem()
				fillRandom(rng, k, depth+1)
				e := reflect.New(v.Type().Elem()).Elem()
				fillRandom(rng, e, depth+1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Interface: // any: a JSON value
		if depth > 3 {
			return
		}
		var x any
		switch rng.IntN(6) {
		case 0:
			x = randomStrings[rng.IntN(len(randomStrings))]
		case 1:
			x = randomFloats[rng.IntN(len(randomFloats))]
		case 2:
			x = rng.IntN(2) == 0
		case 3:
			m := map[string]any{}
			fillRandom(rng, reflect.ValueOf(&m).Elem(), depth+1)
			x = m
		case 4:
			var s []any
			fillRandom(rng, reflect.ValueOf(&s).Elem(), depth+1)
			x = s
		}
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillRandom(rng, v.Field(i), depth+1)
			}
		}
	}
}
