package synapsefake

import (
	"bytes"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRecoverFromPanicInHandler breaks the store so that GET /subscriptions panics
// under the store lock, and checks the answer, the journal, the log and
// that the lock was released.
func TestRecoverFromPanicInHandler(t *testing.T) {
	var logged bytes.Buffer
	s := New(WithErrorLog(log.New(&logged, "", 0)))
	get := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/v3.1/subscriptions", nil)
		req.Header.Set("X-SP-GATEWAY", s.Gateway())
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec
	}
	s.core.store.lock()
	s.core.store.subOrder = append(s.core.store.subOrder, "no-such-subscription")
	s.core.store.unlock()
	rec := get()
	want := `{"error":{"en":"The fake failed to serve this request; its error log says why.","code":"internal_error"},"error_code":"500","http_code":"500","success":false}`
	if rec.Code != http.StatusInternalServerError || rec.Body.String() != want {
		t.Errorf("GET /subscriptions on a broken store: %d %s, want 500 %s", rec.Code, rec.Body, want)
	}
	if got := logged.String(); !strings.HasPrefix(got, `synapsefake: panic serving GET "/v3.1/subscriptions": runtime error: invalid memory address`) {
		t.Errorf("error log %q", got)
	}
	if reqs := s.core.Requests(); len(reqs) != 1 || reqs[0].Status != 500 || reqs[0].ErrorCode != "500" {
		t.Errorf("journal %v, want the call with 500 / \"500\"\n%s", reqs, logged.String())
	}
	if s.core.store.mu.TryLock() {
		s.core.store.subOrder = nil
		s.core.store.unlock()
	} else {
		t.Fatal("the store lock is still held after the panic")
	}
	if rec := get(); rec.Code != http.StatusOK {
		t.Errorf("GET /subscriptions after the panic: %d %s", rec.Code, rec.Body)
	}
}
