package api

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// TestDecodeFastIsEncodingJSON: a create body decodeFast reads is decoded
// exactly as encoding/json decodes it, and one it does not read (encoding/json
// refuses it, or reads it in a way decodeFast does not) is left as it was,
// over handwritten bodies and 20,000 random ones: keys known, unknown,
// repeated and in other letter cases; values of every JSON type,
// escapes, invalid UTF-8 and control characters; numbers of every form;
// white space anywhere and trailing data.
func TestDecodeFastIsEncodingJSON(t *testing.T) {
	t.Parallel()
	bodies := []string{
		`{"to":{"type":"ACH-US","id":"abc"},"amount":{"amount":25,"currency":"USD"},"extra":{"ip":"127.0.0.1","note":"Rent"}}`,
		` {"amount":{"currency":"USD","amount":12.34},"to":{"id":"x","type":"DEPOSIT-US"},"extra":{"ip":"1","same_day":true,"process_on":2,"group_id":"g","supp_id":"s","idempotency_key":"k"}} `,
		`{}`, `{"to":{}}`, `{"to":null}`, `{"To":{"type":"a"}}`, `{"to":{"type":"a"},"to":{"id":"b"}}`,
		`{"extra":{"process_on":1.5}}`, `{"extra":{"process_on":1e2}}`, `{"extra":{"process_on":99999999999999999999}}`,
		`{"amount":{"amount":1e400}}`, `{"amount":{"amount":"1"}}`, `{"amount":{"amount":-0}}`, `{"amount":{"amount":01}}`,
		`{"extra":{"note":"a\"b"}}`, `{"extra":{"note":"\u00e9"}}`, "{\"extra\":{\"note\":\"\xff\"}}", "{\"extra\":{\"note\":\"\x01\"}}",
		`{"extra":{"note":"é漢"}}`, `{} x`, `{}}`, `{},`, `[]`, `"x"`, `{"fees":[]}`, `{"extra":{"other":{}}}`,
		`{"extra":{"note":"a","note":"b"}}`, `{"amount":{"amount":1,"amount":2.5}}`, `{"to":{"type":"a","type":"b"},"to":{}}`,
		`{"to":{"type":"a"},"to":null}`, `{"extra":{"ip":"a"},"extra":{"same_day":true},"extra":{"ip":"b"}}`,
		`{"to":{"type":"a",}}`, `{"to":{"type":"a"}`, `{"to"}`, `{"to":{"type":"a" "id":"b"}}`, `{"extra":{"same_day":tru}}`,
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20_000 {
		bodies = append(bodies, randomCreateBody(rng))
	}
	fast := 0
	for _, body := range bodies {
		var want bank.CreateTxRequest
		wantErr := jsonx.UnmarshalObject([]byte(body), &want, false)
		var got bank.CreateTxRequest
		if !decodeFastCreateTx([]byte(body), &got) {
			if !reflect.DeepEqual(got, bank.CreateTxRequest{}) {
				t.Fatalf("decodeFast failed on %q but changed the body: %+v", body, got)
			}
			continue
		}
		fast++
		if wantErr != nil {
			t.Fatalf("decodeFast read %q, which encoding/json refuses: %v", body, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeFast read %q as\n%s\nencoding/json as\n%s", body, dumpCreate(got), dumpCreate(want))
		}
	}
	if fast < len(bodies)/10 {
		t.Fatalf("decodeFast read only %d of %d bodies: the test does not exercise it", fast, len(bodies))
	}
}

// randomCreateBody is a create body, more or less well formed.
func randomCreateBody(rng *rand.Rand) string {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	ws := func() string { return pick("", "", "", " ", "\n\t ", "\r") }
	strs := []string{`"ACH-US"`, `"USD"`, `"127.0.0.1"`, `""`, `"é"`, `"a\"b"`, `"\u0041"`, "\"\xff\"", "\"\x01\"", `"<&>"`}
	values := append([]string{`1`, `-0`, `12.34`, `25`, `1e2`, `1E400`, `01`, `1.`, `.5`, `-`, `true`, `false`, `null`,
		`{}`, `[]`, `["a"]`, `99999999999999999999`, `-7`}, strs...)
	rare := func(usual, other string) string {
		if rng.IntN(40) == 0 {
			return other
		}
		return usual
	}
	// object writes some of known, in any order, now and then with a key
	// of odd (repeated, unknown or of another case).
	object := func(known, odd []string, value func(key string) string) string {
		keys := slices.Clone(known)
		rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		keys = keys[:rng.IntN(len(keys)+1)]
		if rng.IntN(8) == 0 {
			keys = append(keys, pick(append(slices.Clone(known), odd...)...))
		}
		var b strings.Builder
		b.WriteString(ws() + "{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(ws() + rare(",", ""))
			}
			b.WriteString(ws() + `"` + k + `"` + ws() + rare(":", "") + value(k))
		}
		b.WriteString(ws() + rare("}", pick("", ",}")))
		return b.String()
	}
	leaf := func(typed map[string][]string) func(string) string {
		return func(k string) string {
			if v, ok := typed[k]; ok && rng.IntN(20) > 0 {
				return ws() + pick(v...)
			}
			return ws() + pick(values...)
		}
	}
	sub := map[string]func() string{
		"to": func() string {
			return object([]string{"type", "id"}, []string{"ID", "x"}, leaf(map[string][]string{"type": strs, "id": strs}))
		},
		"amount": func() string {
			return object([]string{"amount", "currency"}, []string{"Amount"}, leaf(map[string][]string{"amount": {`25`, `12.34`, `1e2`, `-1`}, "currency": strs}))
		},
		"extra": func() string {
			return object([]string{"ip", "note", "supp_id", "group_id", "process_on", "same_day", "idempotency_key"}, []string{"other", "Note", "latlon"},
				leaf(map[string][]string{"ip": strs, "note": strs, "supp_id": strs, "group_id": strs, "idempotency_key": strs,
					"process_on": {`1`, `0`, `-3`, `2.0`}, "same_day": {`true`, `false`}, "other": {`{}`, `{"attachments":["a"]}`}}))
		},
	}
	body := object([]string{"to", "amount", "extra"}, []string{"fees", "To", "unknown"}, func(k string) string {
		if f, ok := sub[k]; ok && rng.IntN(20) > 0 {
			return f()
		}
		return ws() + pick(values...)
	})
	return body + rare(pick("", " ", "\n"), pick(" x", "}", "{}", ","))
}

// dumpCreate shows a body with its pointers followed.
func dumpCreate(r bank.CreateTxRequest) string {
	b, _ := json.Marshal(r)
	return string(b)
}

// TestDecodeFastReadsPaddedBodies: a body padded with JSON whitespace, as
// TestTransactionKeepsNotItsBody sends, is read by decodeFast, whose
// strings are cut from one copy of the body: that test measures what a
// record keeps of such a body, and would measure nothing if encoding/json
// read it instead.
func TestDecodeFastReadsPaddedBodies(t *testing.T) {
	body := `{"to":{"type":"DEPOSIT-US","id":"n1"},` + strings.Repeat(" ", 32<<10) +
		`"amount":{"amount":1,"currency":"USD"},"extra":{"ip":"127.0.0.1","note":"rent"}}`
	var r bank.CreateTxRequest
	if !decodeFastCreateTx([]byte(body), &r) {
		t.Fatal("decodeFast left a whitespace-padded body to encoding/json")
	}
	if *r.To.ID != "n1" || *r.Extra.IP != "127.0.0.1" || r.Extra.Note != "rent" {
		t.Errorf("decoded to.id %q, ip %q, note %q", *r.To.ID, *r.Extra.IP, r.Extra.Note)
	}
}
