package testkit

// A platform that answers the fake's JIT questions about card swipes.

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Platform is a test's TRANS|POST|JIT receiver: it records each question
// and answers with what decide writes.
type Platform struct {
	Url    string
	Mu     sync.Mutex
	Asked  []JITQuestion
	Decide func(w http.ResponseWriter, r *http.Request)
}

// JITQuestion is one request the platform received.
type JITQuestion struct {
	Header http.Header
	Body   []byte
}

// NewPlatform starts a platform that answers with decide; the test's
// cleanup closes it.
func NewPlatform(t testing.TB, decide func(w http.ResponseWriter, r *http.Request)) *Platform {
	t.Helper()
	p := &Platform{Decide: decide}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		p.Mu.Lock()
		p.Asked = append(p.Asked, JITQuestion{Header: r.Header.Clone(), Body: body})
		p.Mu.Unlock()
		p.Decide(w, r)
	}))
	t.Cleanup(srv.Close)
	p.Url = srv.URL
	return p
}

// Answer is a decide func that answers status and body.
func Answer(status int, body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// Questions returns a copy of the questions received so far.
func (p *Platform) Questions() []JITQuestion {
	p.Mu.Lock()
	defer p.Mu.Unlock()
	return append([]JITQuestion(nil), p.Asked...)
}
