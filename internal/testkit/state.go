package testkit

// Saved state: a fake's state document, read and compared.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// SavedState is the fake's whole saved state, to compare before and after.
func SavedState(t testing.TB, fake *synapsefake.Server) string {
	t.Helper()
	var b strings.Builder
	if err := fake.Snapshot(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// SnapshotBytes returns fake's Snapshot; it fails the test on an error.
func SnapshotBytes(t testing.TB, fake *synapsefake.Server) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := fake.Snapshot(&b); err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return b.Bytes()
}

// FirstDiff shows where got and want first differ.
func FirstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(i-150, 0)
	return fmt.Sprintf("at byte %d:\n got ...%.300s\nwant ...%.300s", i, got[lo:], want[lo:])
}

// StateBeyondJournal is a saved state without its request journal, which
// records refused calls too: what a refused call must leave as it was.
func StateBeyondJournal(t testing.TB, doc []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "journal")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// HeapAfterGC is the live heap, in bytes, once the garbage is collected.
func HeapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
