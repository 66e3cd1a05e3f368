package synapsefake_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// BenchmarkNewServer measures a server per test: start on a loopback
// listener, then close. Compare with BenchmarkHTTPTestBaseline.
func BenchmarkNewServer(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		synapsefake.NewServer(b).Close()
	}
}

// BenchmarkHTTPTestBaseline is a bare httptest server with a trivial
// handler, started and closed: the floor NewServer is measured against.
func BenchmarkHTTPTestBaseline(b *testing.B) {
	b.ReportAllocs()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	for b.Loop() {
		httptest.NewServer(h).Close()
	}
}
