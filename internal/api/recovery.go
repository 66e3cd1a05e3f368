package api

import (
	"bufio"
	"errors"
	"log"
	"net"
	"net/http"
	"runtime/debug"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// errPanic is the answer to a request whose serving panicked.
var errPanic = apierr.New(reference.ErrServer, "internal_error", "The fake failed to serve this request; its error log says why.")

// GuardWriter is the ResponseWriter ServeHTTP serves through: it knows
// whether the answer has started, so that a recovered panic is answered with
// the error envelope only while nothing has been sent.
type GuardWriter struct {
	http.ResponseWriter
	started bool
}

// WriteHeader notes that the answer has started (a status of 200 or more)
// and writes the header.
func (g *GuardWriter) WriteHeader(code int) {
	if code >= http.StatusOK {
		g.started = true
	}
	g.ResponseWriter.WriteHeader(code)
}

// Write notes that the answer has started and writes b.
func (g *GuardWriter) Write(b []byte) (int, error) {
	g.started = true
	return g.ResponseWriter.Write(b)
}

// Flush flushes the answer, when the connection can.
func (g *GuardWriter) Flush() {
	g.started = true
	_ = http.NewResponseController(g.ResponseWriter).Flush()
}

// Hijack takes the connection over, when the connection can.
func (g *GuardWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	g.started = true
	return http.NewResponseController(g.ResponseWriter).Hijack()
}

// Unwrap gives http.ResponseController the connection's writer.
func (g *GuardWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// RecoverPanic, deferred, turns a panic in serving r into the 500 envelope
// written to w, and logs it; the server goes on serving. g tells whether the
// answer has started: then no envelope can follow, and the panic goes on as
// http.ErrAbortHandler, which net/http answers by dropping the connection.
// http.ErrAbortHandler itself goes on up untouched, as net/http expects.
func (s *Wire) RecoverPanic(g *GuardWriter, w http.ResponseWriter, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
		panic(v)
	}
	l := s.Cfg.ErrorLog
	if l == nil {
		l = log.Default()
	}
	l.Printf("synapsefake: panic serving %s %q: %v\n%s", r.Method, r.URL.RequestURI(), v, debug.Stack())
	if g.started {
		panic(http.ErrAbortHandler)
	}
	s.Fail(w, errPanic)
}
