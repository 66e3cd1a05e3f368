package synapsefake

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRestoreLimits: a document over WithMaxStateSize is refused, and so
// is a restore sent while another runs; neither changes anything.
func TestRestoreLimits(t *testing.T) {
	s := New(WithMaxStateSize(4096), WithoutWebhookDelivery())
	defer s.Close()
	u := s.MustAddUser(t, UserSeed{Fingerprint: "fp"})
	var small bytes.Buffer
	if err := s.core.Snapshot(&small); err != nil {
		t.Fatal(err)
	}
	if small.Len() > 4096 {
		t.Fatalf("the test's document is %d bytes; raise the limit", small.Len())
	}
	for range 20 {
		s.MustAddUser(t, UserSeed{})
	}
	var big bytes.Buffer
	if err := s.core.Snapshot(&big); err != nil {
		t.Fatal(err)
	}
	if big.Len() <= 4096 {
		t.Fatalf("the big document is only %d bytes", big.Len())
	}
	before := s.core.store.snapshot()

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
				s.core.restoring.Lock()
				defer s.core.restoring.Unlock()
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest("PUT", "http://localhost/_fake/state", bytes.NewReader(tc.body)))
			var env struct {
				Error     struct{ Code string } `json:"error"`
				ErrorCode string                `json:"error_code"`
				HTTPCode  string                `json:"http_code"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || rec.Code != tc.status || env.Error.Code != tc.wantCode || env.HTTPCode != itoa(tc.status) {
				t.Errorf("PUT /_fake/state: %d %s, want %d %s", rec.Code, rec.Body, tc.status, tc.wantCode)
			}
			if err := s.core.Restore(bytes.NewReader(tc.body)); err == nil || !strings.Contains(err.Error(), tc.wantCode) {
				t.Errorf("Restore: %v, want %s", err, tc.wantCode)
			}
			if after := s.core.store.snapshot(); after != before {
				t.Error("a refused restore changed the store")
			}
		})
	}
	// Within the limit and alone, the small document is restored.
	if err := s.core.Restore(bytes.NewReader(small.Bytes())); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.core.User(u.ID); !ok || len(s.core.store.userOrder) != 1 {
		t.Errorf("after the restore: %d users, want the one saved", len(s.core.store.userOrder))
	}
}
