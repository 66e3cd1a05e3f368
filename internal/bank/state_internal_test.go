package bank

import (
	"reflect"
	"slices"
	"testing"
)

// TestStateHoldsEveryField fails when a field is added to the store, or to
// the webhook side Snapshot encodes by hand, without the saved state
// handling it.
func TestStateHoldsEveryField(t *testing.T) {
	st := reflect.TypeFor[Store]()
	for name := range storeFieldsApart {
		if _, ok := st.FieldByName(name); !ok {
			t.Errorf("storeFieldsApart names %q, which the store does not have", name)
		}
	}
	for i := range st.NumField() {
		f := st.Field(i)
		if _, apart := storeFieldsApart[f.Name]; apart {
			continue
		}
		if f.Type.Kind() == reflect.Pointer {
			t.Errorf("store.%s is a pointer: the record it points to may be shared; save it apart (storeFieldsApart)", f.Name)
		}
		if err := savable(f.Type, map[reflect.Type]bool{}); err != nil {
			t.Errorf("store.%s cannot be saved as it is: %v; save it apart (storeFieldsApart)", f.Name, err)
		}
	}
	// The webhook side is saved field by field in hooks.Snapshot and
	// restored in LinkStateEvents and hooks.Restore: these are the fields they
	// handle (or, for locks and workers, deliberately leave). The records
	// here are the bank's; the webhook side's own types are checked in the
	// api package (its TestStateHoldsEveryField).
	for _, tc := range []struct {
		typ     reflect.Type
		handled []string
	}{
		{reflect.TypeFor[Event](), []string{"seq", "at", "tx", "timeline", "code", "obj", "deliveries", "fn", "backend", "dropped"}},
		{reflect.TypeFor[objectEvent](), []string{"typ", "id", "status", "rest", "lazy"}},
		{reflect.TypeFor[DeliveryRecord](), []string{"ev", "target", "attempts", "due"}},
		{reflect.TypeFor[hookTarget](), []string{"subID", "url"}},
		{reflect.TypeFor[AttemptRecord](), []string{"at", "code", "chaos", "text"}},
	} {
		var fields []string
		for i := range tc.typ.NumField() {
			fields = append(fields, tc.typ.Field(i).Name)
		}
		if !slices.Equal(fields, tc.handled) {
			t.Errorf("%s has fields %v; the saved state handles %v: handle the new ones in state.go, then list them here", tc.typ, fields, tc.handled)
		}
	}
}
