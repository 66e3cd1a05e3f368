package bank

import (
	"bytes"
	"reflect"
	"testing"
)

// TestLaterFieldsAreOptional: a field of laterFields is left out of the
// document while zero and restored as zero when absent, so that a document
// written before the field existed restores and one that never uses it
// keeps its bytes; once set, it is saved and restored.
func TestLaterFieldsAreOptional(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   statusEntry
		want string
	}{
		{"a status", statusEntry{Date: 1, Note: "Transaction Created.", Status: StatusCreated},
			`{"Date":1,"Note":"Transaction Created.","Status":"CREATED"}`},
		{"a comment", statusEntry{Date: 2, Note: "first comment", Status: StatusCreated, Comment: true},
			`{"Date":2,"Note":"first comment","Status":"CREATED","Comment":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := EncodeValue(&buf, reflect.ValueOf(&tc.in).Elem()); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.want {
				t.Errorf("saved %s, want %s", buf.String(), tc.want)
			}
			var got statusEntry
			if err := DecodeValue(buf.Bytes(), reflect.ValueOf(&got).Elem()); err != nil {
				t.Fatal(err)
			}
			if got != tc.in {
				t.Errorf("restored %+v, want %+v", got, tc.in)
			}
		})
	}
	for _, doc := range []string{
		`{"Date":1,"Note":"x"}`, // Status is no later field
		`{"Date":1,"Note":"x","Status":"CREATED","Other":1}`,
		`{"Date":1,"Note":"x","Status":"CREATED","Comment":"yes"}`,
	} {
		var got statusEntry
		if err := DecodeValue([]byte(doc), reflect.ValueOf(&got).Elem()); err == nil {
			t.Errorf("DecodeValue(%s) restored %+v, want an error", doc, got)
		}
	}
}

// TestPasswordsAreSavedOnlyWhenSet: a user without passwords saves as
// before (no key), one with them saves and restores them.
func TestPasswordsAreSavedOnlyWhenSet(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pw      map[string]string
		wantKey bool
	}{
		{"none", nil, false},
		{"one login's", map[string]string{"ann@example.com": "pw"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := userRecord{id: "u", passwords: tc.pw}
			var buf bytes.Buffer
			if err := EncodeValue(&buf, reflect.ValueOf(&in).Elem()); err != nil {
				t.Fatal(err)
			}
			if got := bytes.Contains(buf.Bytes(), []byte(`"passwords"`)); got != tc.wantKey {
				t.Errorf("saved %s: passwords key %v, want %v", buf.String(), got, tc.wantKey)
			}
			var out userRecord
			if err := DecodeValue(buf.Bytes(), reflect.ValueOf(&out).Elem()); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(out.passwords, tc.pw) || out.id != "u" {
				t.Errorf("restored passwords %v (id %q), want %v", out.passwords, out.id, tc.pw)
			}
		})
	}
}
