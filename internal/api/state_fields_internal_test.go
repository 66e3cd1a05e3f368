package api

import (
	"reflect"
	"slices"
	"testing"
)

// TestStateHoldsEveryField fails when a field is added to the webhook side
// Snapshot encodes by hand, or to the journal or the faults, without the
// saved state handling it. The store and the bank's records the webhook
// side holds are checked in the bank package (its TestStateHoldsEveryField).
func TestStateHoldsEveryField(t *testing.T) {
	// The webhook side is saved field by field in hooks.Snapshot and
	// restored in LinkStateEvents and hooks.Restore: these are the fields they
	// handle (or, for locks and workers, deliberately leave).
	for _, tc := range []struct {
		typ     reflect.Type
		handled []string
	}{
		{reflect.TypeFor[hooks](), []string{"s", "Mu", "cond", "seq", "Version", "logged", "epoch", "Events", "eventBytes", "log", "logBytes",
			"boxes", "busy", "retries", "ctx", "cancel", "Closed", "chaos", "budget", "hurry", "pacing", "nextRetry"}},
		{reflect.TypeFor[logEntry](), []string{"d", "attempt"}},
		{reflect.TypeFor[retry](), []string{"at", "d"}},
		{reflect.TypeFor[journal](), []string{"Mu", "Entries", "Head", "Bytes", "S"}},
		{reflect.TypeFor[faults](), []string{"Mu", "List", "count"}}, // count: set with list (faults.set)
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
