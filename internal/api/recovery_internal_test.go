package api

import (
	"bytes"
	"log"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestRecoverFromPanicInHandler breaks the store so that GET /subscriptions panics
// under the store lock, and checks the answer, the journal, the log and
// that the lock was released.
func TestRecoverFromPanicInHandler(t *testing.T) {
	var logged bytes.Buffer
	s := newTestWire(func(c *WireConfig) { c.ErrorLog = log.New(&logged, "", 0) })
	get := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/v3.1/subscriptions", nil)
		req.Header.Set("X-SP-GATEWAY", s.Cfg.ClientID+"|"+s.Cfg.ClientSecret)
		rec := httptest.NewRecorder()
		serveTest(s, rec, req)
		return rec
	}
	mu := storeField(s, "mu").Addr().Interface().(*sync.Mutex)
	subOrder := storeField(s, "subOrder")
	mu.Lock()
	subOrder.Set(reflect.Append(subOrder, reflect.ValueOf("no-such-subscription")))
	mu.Unlock()
	rec := get()
	want := `{"error":{"en":"The fake failed to serve this request; its error log says why.","code":"internal_error"},"error_code":"500","http_code":"500","success":false}`
	if rec.Code != http.StatusInternalServerError || rec.Body.String() != want {
		t.Errorf("GET /subscriptions on a broken store: %d %s, want 500 %s", rec.Code, rec.Body, want)
	}
	if got := logged.String(); !strings.HasPrefix(got, `synapsefake: panic serving GET "/v3.1/subscriptions": runtime error: invalid memory address`) {
		t.Errorf("error log %q", got)
	}
	if reqs := s.Requests(); len(reqs) != 1 || reqs[0].Status != 500 || reqs[0].ErrorCode != "500" {
		t.Errorf("journal %v, want the call with 500 / \"500\"\n%s", reqs, logged.String())
	}
	if mu.TryLock() {
		subOrder.Set(reflect.Zero(subOrder.Type()))
		mu.Unlock()
	} else {
		t.Fatal("the store lock is still held after the panic")
	}
	if rec := get(); rec.Code != http.StatusOK {
		t.Errorf("GET /subscriptions after the panic: %d %s", rec.Code, rec.Body)
	}
}

// storeField is the settable field name of w's bank.Store, which the bank
// does not export: a test of the wire that must break the store, or see
// whether its lock is free, reaches it by reflection. The saved state
// reads the store's fields by name, so their names do not change.
func storeField(w *Wire, name string) reflect.Value {
	st := reflect.ValueOf(&w.Bank).Elem().FieldByName("store")
	f := reflect.NewAt(st.Type().Elem(), st.UnsafePointer()).Elem().FieldByName(name)
	if !f.IsValid() {
		panic("bank.Store has no field " + name)
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}
