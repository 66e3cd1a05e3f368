package bank

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/synapsefake/synapsefake/internal/apierr"
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

// TestSavedErrorKeepsItsKeys: an *apierr.Error in the document (a fault's,
// a bank login's) has the keys it had when it was the root's apiError, so
// that documents saved before the layers restore, and new ones read the
// same; and savedNames names every field of the types it covers.
func TestSavedErrorKeepsItsKeys(t *testing.T) {
	for typ, names := range savedNames {
		if len(names) != typ.NumField() {
			t.Errorf("savedNames has %d keys for the %d fields of %s", len(names), typ.NumField(), typ)
		}
	}
	e := &apierr.Error{Status: 500, ErrorCode: "500", Code: "injected_failure", Message: "Internal server error.",
		Reason: "FailNext injected this answer", Hint: "h"}
	apierr.MarkReported(e)
	const saved = `{"status":500,"errorCode":"500","httpCode":"","code":"injected_failure","msg":"Internal server error.","reason":"FailNext injected this answer","hint":"h","reported":true}`
	var buf bytes.Buffer
	if err := EncodeValue(&buf, reflect.ValueOf(e)); err != nil {
		t.Fatal(err)
	}
	if buf.String() != saved {
		t.Errorf("saved as\n%s\nwant\n%s", buf.String(), saved)
	}
	var back *apierr.Error
	if err := DecodeValue([]byte(saved), reflect.ValueOf(&back).Elem()); err != nil {
		t.Fatal(err)
	}
	if *back != *e {
		t.Errorf("restored %+v, want %+v", *back, *e)
	}
}

// TestSubDocsSaveAsTheMap: a base document's sub-documents are saved as
// the object of kinds the map they once were wrote (only the kinds set,
// sorted, a nil list as null), read back as they were, and a saved
// object naming another kind, or null, is refused.
func TestSubDocsSaveAsTheMap(t *testing.T) {
	t.Parallel()
	d := &subDocRecord{id: "d1", typ: "SSN", status: DocValid}
	var s subDocs
	s.put(virtualDocs, []*subDocRecord{d})
	s.put(physicalDocs, nil)
	var buf bytes.Buffer
	if err := EncodeValue(&buf, reflect.ValueOf(s)); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := EncodeValue(&want, reflect.ValueOf(map[string][]*subDocRecord{virtualDocs: {d}, physicalDocs: nil})); err != nil {
		t.Fatal(err)
	}
	if buf.String() != want.String() {
		t.Errorf("saved as %s; the map saved as %s", buf.String(), want.String())
	}
	var back subDocs
	if err := DecodeValue(buf.Bytes(), reflect.ValueOf(&back).Elem()); err != nil {
		t.Fatal(err)
	}
	if back.set != s.set || len(back.of(virtualDocs)) != 1 || back.of(virtualDocs)[0].id != "d1" || back.of(socialDocs) != nil {
		t.Errorf("read back as %+v, want %+v", back, s)
	}
	for _, bad := range []string{`null`, `{"other_docs":[]}`, `[]`} {
		if err := DecodeValue([]byte(bad), reflect.ValueOf(&back).Elem()); err == nil {
			t.Errorf("DecodeValue(%s) took it", bad)
		}
	}
}
