package synapsefake_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// strictServer is a server WithStrictRequests (and opts) whose failures of
// the test are recorded in rec, not reported; it closes with t.
func strictServer(t *testing.T, opts ...synapsefake.Option) (*synapsefake.Server, *recordingTB) {
	t.Helper()
	rec := &recordingTB{TB: t}
	t.Cleanup(rec.end)
	return synapsefake.NewServer(rec, append(opts, synapsefake.WithStrictRequests())...), rec
}

// wantRuleRefused checks that r is the refusal status / errorCode / code
// and that the strict server failed its test once, naming rule.
func wantRuleRefused(t *testing.T, rec *recordingTB, r response, status int, errorCode, code, rule string) {
	t.Helper()
	wantErrorStatus(t, r, status, errorCode, code)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], rule) {
		t.Errorf("the test's failures %q, want one naming %q", rec.errors, rule)
	}
}

// wantSameState checks that the state of fake is before's (stateDoc).
func wantSameState(t *testing.T, fake *synapsefake.Server, before []byte) {
	t.Helper()
	if after := stateDoc(t, fake); !bytes.Equal(before, after) {
		t.Errorf("the refused request changed the state")
	}
}
