package bank

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestViewDocIsTheAnswersJSON: the document a filter reads of a view holds
// each field it names as the list answer shows it (encoding/json's output,
// decoded), omitted fields absent, over views filled at random as in
// TestAppendJSONIsEncodingJSON.
func TestViewDocIsTheAnswersJSON(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	infos := []reflect.Type{reflect.TypeFor[nodeInfo](), reflect.TypeFor[achNodeInfo](), reflect.TypeFor[map[string]any]()}
	for _, typ := range []reflect.Type{reflect.TypeFor[TxView](), reflect.TypeFor[NodeView](), reflect.TypeFor[UserView](),
		reflect.TypeFor[SubnetView](), reflect.TypeFor[SubscriptionView](), reflect.TypeFor[StatementView](), reflect.TypeFor[ShipView]()} {
		if jsonFieldsOf(typ) == nil {
			t.Errorf("%s is read through its whole JSON; a view is expected to be read field by field", typ)
		}
		var names []string
		for i := range typ.NumField() {
			if name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); name != "" {
				names = append(names, name)
			}
		}
		names = append(names, "no_such_field")
		checked := 0
		for i := 0; checked < 500 && i < 5000; i++ {
			v := reflect.New(typ)
			fillRandom(rng, v.Elem(), 0)
			if n, ok := v.Interface().(*NodeView); ok && rng.IntN(4) > 0 {
				info := reflect.New(infos[rng.IntN(len(infos))])
				fillRandom(rng, info.Elem(), 1)
				n.Info = info.Elem().Interface()
			}
			data, err := json.Marshal(v.Interface())
			if err != nil {
				continue // an infinity: no answer shows it
			}
			var want map[string]any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			got := map[string]any{}
			viewFields(got, v.Interface(), names)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s #%d: the filter's document differs from the answer's JSON (-answer +document):\n%s\n%s", typ, i, diff, data)
			}
			checked++
		}
		if checked < 100 {
			t.Errorf("%s: only %d views were checked", typ, checked)
		}
	}
}
