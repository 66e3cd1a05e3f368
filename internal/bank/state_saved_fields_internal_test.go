package bank

import (
	"bytes"
	"reflect"
	"testing"
)

// TestPasswordsAndCommentsAreSaved: a user's login passwords and a
// timeline entry's comment mark are saved with the state and restored.
func TestPasswordsAndCommentsAreSaved(t *testing.T) {
	for _, in := range []any{
		&userRecord{id: "u", passwords: map[string]string{"ann@example.com": "pw"}},
		&userRecord{id: "u"},
		&statusEntry{Date: 2, Note: "first comment", Status: StatusCreated, Comment: true},
		&statusEntry{Date: 1, Note: "Transaction Created.", Status: StatusCreated},
	} {
		var buf bytes.Buffer
		if err := EncodeValue(&buf, reflect.ValueOf(in).Elem()); err != nil {
			t.Fatal(err)
		}
		out := reflect.New(reflect.TypeOf(in).Elem())
		if err := DecodeValue(buf.Bytes(), out.Elem()); err != nil {
			t.Fatalf("%s: %v", buf.String(), err)
		}
		if !reflect.DeepEqual(out.Interface(), in) {
			t.Errorf("saved %s, restored %+v, want %+v", buf.String(), out.Interface(), in)
		}
	}
}
