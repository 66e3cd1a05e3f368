package console

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// TestRestoreLimits: a document over WithMaxStateSize is refused, and so
// is a restore sent while another runs; neither changes anything.
func TestRestoreLimits(t *testing.T) {
	s := newTestConsole(t, func(c *ConsoleConfig) { c.MaxState = 4096 }) // WithMaxStateSize(4096)
	u, err := s.AddUser(bank.UserSeed{Fingerprint: "fp"})
	if err != nil {
		t.Fatal(err)
	}
	var small bytes.Buffer
	if err := s.Snapshot(&small); err != nil {
		t.Fatal(err)
	}
	if small.Len() > 4096 {
		t.Fatalf("the test's document is %d bytes; raise the limit", small.Len())
	}
	for range 20 {
		if _, err := s.AddUser(bank.UserSeed{}); err != nil {
			t.Fatal(err)
		}
	}
	var big bytes.Buffer
	if err := s.Snapshot(&big); err != nil {
		t.Fatal(err)
	}
	if big.Len() <= 4096 {
		t.Fatalf("the big document is only %d bytes", big.Len())
	}
	before := s.ObservedDigest()

	for _, tc := range []struct {
		name     string
		body     []byte
		busy     bool
		status   int
		wantCode string
	}{
		{"over the size limit", big.Bytes(), false, http.StatusBadRequest, "body_too_large"},
		{"while another restore runs", small.Bytes(), true, http.StatusTooManyRequests, "restore_in_progress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.busy {
				s.restoring.Lock()
				defer s.restoring.Unlock()
			}
			rec := httptest.NewRecorder()
			s.ServeControl(rec, httptest.NewRequest("PUT", "http://localhost/_fake/state", bytes.NewReader(tc.body)))
			var env struct {
				Error     struct{ Code string } `json:"error"`
				ErrorCode string                `json:"error_code"`
				HTTPCode  string                `json:"http_code"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || rec.Code != tc.status || env.Error.Code != tc.wantCode || env.HTTPCode != bank.Itoa(tc.status) {
				t.Errorf("PUT /_fake/state: %d %s, want %d %s", rec.Code, rec.Body, tc.status, tc.wantCode)
			}
			if err := s.Restore(bytes.NewReader(tc.body)); err == nil || !strings.Contains(err.Error(), tc.wantCode) {
				t.Errorf("Restore: %v, want %s", err, tc.wantCode)
			}
			if after := s.ObservedDigest(); after != before {
				t.Error("a refused restore changed the store")
			}
		})
	}
	// Within the limit and alone, the small document is restored.
	if err := s.Restore(bytes.NewReader(small.Bytes())); err != nil {
		t.Fatal(err)
	}
	_, users, _ := s.Counts() // users: the length of the store's userOrder
	if _, ok := s.User(u.ID); !ok || users != 1 {
		t.Errorf("after the restore: %d users, want the one saved", users)
	}
}
