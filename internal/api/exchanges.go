package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"
)

// ExchangesEnv names the environment variable that turns on the recording
// of exchanges: set to a directory, every fake in the process appends each
// API request it serves and its answer to a file there, one JSON object a
// line (Exchange), which openapi/check validates against the OpenAPI
// document. Unset, nothing is recorded and serving pays one comparison.
const ExchangesEnv = "SYNAPSEFAKE_EXCHANGES"

// exchangesDir is ExchangesEnv's value, read once: a test binary or the
// standalone fake records for its whole life or not at all.
var exchangesDir = os.Getenv(ExchangesEnv)

// Exchange is one recorded API call and its answer, as openapi/check reads
// it. A body is its text, or its base64 when it is not UTF-8 (a
// statement's PDF).
type Exchange struct {
	// Package is the directory, relative to the module's root, of the test
	// binary that served the call ("internal/api", "." for the root), or
	// the program's name and directory for another program.
	Package string `json:"package"`
	// Origin is the test that made the fake: the testing.TB it reports
	// to, else the Test, Example, Benchmark or Fuzz function that was on
	// the stack when it was built; "" when none was.
	Origin string      `json:"origin"`
	Method string      `json:"method"`
	Path   string      `json:"path"` // escaped, as sent
	Query  string      `json:"query,omitempty"`
	Header http.Header `json:"header,omitempty"`
	Body   string      `json:"body,omitempty"` // what the fake read of it
	// BodyBase64 reports that Body is base64.
	BodyBase64 bool `json:"body_base64,omitempty"`
	// Route is the route of the fake's table the path matched, without
	// the version prefix; "" for none (a 404 of an unknown path).
	Route        string      `json:"route"`
	Status       int         `json:"status"`
	AnswerHeader http.Header `json:"answer_header,omitempty"`
	Answer       string      `json:"answer,omitempty"`
	// AnswerBase64 reports that Answer is base64.
	AnswerBase64 bool `json:"answer_base64,omitempty"`
	// Hooked reports that the WithHook hook answered the call, not the fake.
	Hooked bool `json:"hooked,omitempty"`
}

// exchangeWriter records an answer on its way to the client.
type exchangeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (e *exchangeWriter) WriteHeader(code int) {
	if e.status == 0 && code >= http.StatusOK {
		e.status = code
	}
	e.ResponseWriter.WriteHeader(code)
}

func (e *exchangeWriter) Write(b []byte) (int, error) {
	if e.status == 0 {
		e.status = http.StatusOK
	}
	e.body.Write(b)
	return e.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the connection's writer.
func (e *exchangeWriter) Unwrap() http.ResponseWriter { return e.ResponseWriter }

// teeBody keeps what is read of a request's body.
type teeBody struct {
	io.ReadCloser
	read bytes.Buffer
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	t.read.Write(p[:n])
	return n, err
}

// startExchange starts recording the call r on g, when the wire records
// exchanges; the func it returns writes the record once the call is
// answered (hooked: by the WithHook hook). Otherwise it returns nil.
func (s *Wire) startExchange(g *GuardWriter, r *http.Request) func(hooked bool) {
	if s.exchanges == nil {
		return nil
	}
	ew := &exchangeWriter{ResponseWriter: g.ResponseWriter}
	g.ResponseWriter = ew
	x := Exchange{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Header: r.Header.Clone(), Route: routeOf(r.URL.Path)}
	var tee *teeBody
	if r.Body != nil && r.Body != http.NoBody {
		tee = &teeBody{ReadCloser: r.Body}
		r.Body = tee
	}
	origin := s.exchangeOrigin
	if name := tbName(s.Tb); name != "" {
		origin = name
	}
	rec := s.exchanges
	return func(hooked bool) {
		x.Origin, x.Hooked = origin, hooked
		if tee != nil {
			x.Body, x.BodyBase64 = exchangeText(tee.read.Bytes())
		}
		x.Answer, x.AnswerBase64 = exchangeText(ew.body.Bytes())
		x.Status, x.AnswerHeader = ew.status, ew.Header().Clone()
		if x.Status == 0 {
			x.Status = http.StatusOK
		}
		rec.write(&x)
	}
}

// tbName is tb's Name, "" for a nil tb, one without a Name method (a TB
// needs none) or a stand-in whose Name panics (one that embeds a nil
// testing.TB).
func tbName(tb TB) (name string) {
	n, ok := tb.(interface{ Name() string })
	if !ok {
		return ""
	}
	defer func() { _ = recover() }()
	return n.Name()
}

// exchangeText is b as an Exchange holds a body: its text, or its base64
// (true) when it is not UTF-8.
func exchangeText(b []byte) (string, bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	return base64.StdEncoding.EncodeToString(b), true
}

// processExchanges is the recorder of every wire in the process when
// ExchangesEnv is set, nil otherwise.
var processExchanges = sync.OnceValue(func() *exchangeRecorder {
	if exchangesDir == "" {
		return nil
	}
	return newExchangeRecorder(exchangesDir)
})

// exchangeRecorder appends exchanges to the process's file in dir, opened
// on the first; its lines are written whole, one write each, under mu.
type exchangeRecorder struct {
	dir  string
	pkg  string
	open sync.Once
	mu   sync.Mutex
	f    *os.File
	err  error
}

func newExchangeRecorder(dir string) *exchangeRecorder {
	return &exchangeRecorder{dir: dir, pkg: exchangePackage()}
}

// write appends x. A file that cannot be written is a broken test set-up:
// it panics, so that a recording that was asked for does not silently go
// missing.
func (e *exchangeRecorder) write(x *Exchange) {
	e.open.Do(func() {
		name := strings.NewReplacer("/", "_", ".", "root", " ", "_").Replace(e.pkg)
		e.f, e.err = os.OpenFile(filepath.Join(e.dir, fmt.Sprintf("%s-%d.jsonl", name, os.Getpid())), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	})
	if e.err != nil {
		panic(fmt.Sprintf("synapsefake: %s: %v", ExchangesEnv, e.err))
	}
	x.Package = e.pkg
	line, err := json.Marshal(x)
	if err != nil {
		panic(fmt.Sprintf("synapsefake: %s: %v", ExchangesEnv, err))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, err := e.f.Write(append(line, '\n')); err != nil {
		panic(fmt.Sprintf("synapsefake: %s: %v", ExchangesEnv, err))
	}
}

// exchangePackage names the process: the directory of the test binary's
// package relative to the module's root (go test runs a test binary in
// its package's directory), or the program's name and directory.
func exchangePackage() string {
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Base(os.Args[0])
	}
	if !strings.HasSuffix(os.Args[0], ".test") {
		return filepath.Base(os.Args[0]) + " in " + dir
	}
	for root := dir; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, _ := filepath.Rel(root, dir)
			return filepath.ToSlash(rel)
		}
		up := filepath.Dir(root)
		if up == root {
			return dir
		}
		root = up
	}
}

// testOrigin is the Test, Example, Benchmark or Fuzz function on the
// caller's stack, "" for none: the origin of a fake built without a
// testing.TB.
func testOrigin() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		name := f.Function[strings.LastIndexByte(f.Function, '/')+1:]
		if _, fn, ok := strings.Cut(name, "."); ok && strings.HasSuffix(f.File, "_test.go") {
			fn, _, _ = strings.Cut(fn, ".")
			for _, p := range []string{"Test", "Example", "Benchmark", "Fuzz"} {
				if strings.HasPrefix(fn, p) {
					return fn
				}
			}
		}
		if !more {
			return ""
		}
	}
}
