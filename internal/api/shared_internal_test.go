package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestFaultCount: the count a request reads without the lock follows the
// list through adds, takes that use a fault up, and replacements.
func TestFaultCount(t *testing.T) {
	var fs faults
	check := func(when string) {
		t.Helper()
		if got, want := int(fs.count.Load()), len(fs.List); got != want {
			t.Errorf("%s: count %d, list holds %d", when, got, want)
		}
	}
	check("empty")
	if fs.take("GET", "/users", false) != nil {
		t.Fatal("an empty list gave a fault")
	}
	fs.add(&Fault{method: "GET", times: 2, err: ErrGatewayTimeout})
	fs.add(&Fault{delay: time.Second, times: 1})
	check("two added")
	for i := range 2 {
		if fs.take("GET", "/users", false) == nil {
			t.Fatalf("take %d: no fault", i)
		}
		check(fmt.Sprint("after take ", i))
	}
	if !fs.pending() || fs.take("GET", "/users", true) == nil {
		t.Fatal("the delay is not pending")
	}
	check("all used")
	if fs.pending() {
		t.Error("pending with none left")
	}
	fs.Set([]*Fault{{times: 1}})
	check("set")
	fs.Set(nil)
	check("cleared")
}

// cleanupTB runs a server's cleanups when told, and fails when told.
type cleanupTB struct {
	testing.TB
	cleanups []func()
	failed   bool
}

func (c *cleanupTB) Cleanup(f func())    { c.cleanups = append(c.cleanups, f) }
func (c *cleanupTB) Failed() bool        { return c.failed }
func (c *cleanupTB) Logf(string, ...any) {}
func (c *cleanupTB) end() {
	for i := len(c.cleanups) - 1; i >= 0; i-- {
		c.cleanups[i]()
	}
}

// TestEndOfTestKeepsWhatAFailureNeeds: the end of a passing test copies
// none of the journal; a failed one's keeps its calls.
func TestEndOfTestKeepsWhatAFailureNeeds(t *testing.T) {
	for _, failed := range []bool{false, true} {
		tb := &cleanupTB{TB: t, failed: failed}
		w := newTestWire(nil)
		endTestWire(tb, w)
		serveTest(w, httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, APIPrefix+"/users", nil))
		tb.end()
		if got, want := len(w.End.recent), map[bool]int{false: 0, true: 1}[failed]; got != want {
			t.Errorf("failed %v: the end kept %d calls, want %d", failed, got, want)
		}
	}
}
