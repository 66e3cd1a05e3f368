package main

import (
	"bytes"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/console"
)

// requestLog logs one line per request: method, path, status, error_code
// and duration, and for an API request no route took the nearest routes
// (api.NearMissNote). The path is printed escaped, as sent, so that a %0A
// in it cannot forge a line. Health probes (/_fake/livez, /_fake/readyz),
// which a container's healthcheck sends every few seconds, are not logged.
//
// A request appends its line to a buffer; one goroutine writes what the
// buffer holds whenever it holds something, and after each write lets the
// requests running append their lines before it looks again, so an idle
// server prints each line at once and a busy one prints many lines per
// write instead of making a system call per request.
type requestLog struct {
	out     io.Writer
	mu      sync.Mutex
	pending []byte
	wake    chan struct{} // holds a token while pending has lines to write
	done    chan struct{} // closed when the writer has written everything and ended
	closing bool
	once    sync.Once
}

func newRequestLog(out io.Writer) *requestLog {
	l := &requestLog{out: out, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go l.write()
	return l
}

// write is the writer goroutine: it swaps the pending lines out and writes
// them, until close.
func (l *requestLog) write() {
	defer close(l.done)
	var spare []byte
	for range l.wake {
		l.mu.Lock()
		lines := l.pending
		l.pending = spare[:0]
		closing := l.closing
		l.mu.Unlock()
		if len(lines) > 0 {
			_, _ = l.out.Write(lines)
		}
		spare = lines
		if closing {
			return
		}
		runtime.Gosched() // let the requests running append their lines first
	}
}

// close writes the lines still pending and stops the writer; lines logged
// afterwards are dropped. It may be called more than once.
func (l *requestLog) close() {
	l.once.Do(func() {
		l.mu.Lock()
		l.closing = true
		l.mu.Unlock()
		select {
		case l.wake <- struct{}{}:
		default:
		}
	})
	<-l.done
}

// wrap logs every request h serves.
func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == livezPath || r.URL.Path == readyzPath {
			h.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		rec := writers.Get().(*statusWriter)
		rec.ResponseWriter, rec.status, rec.code = w, 0, ""
		h.ServeHTTP(rec, r)
		took := time.Since(start).Round(time.Microsecond)
		code, status := rec.code, rec.status
		if status == 0 {
			status = http.StatusOK // the handler wrote nothing: net/http answers 200
		}
		if code == "" {
			code = errorCode(rec.body)
		}
		var note string
		if (status == http.StatusNotFound || status == http.StatusConflict) && !strings.HasPrefix(r.URL.Path, console.ControlPrefix) {
			note = api.NearMissNote(r.Method, r.URL.EscapedPath())
		}
		l.mu.Lock()
		if !l.closing {
			b := append(l.pending, r.Method...)
			b = append(b, ' ')
			b = append(b, r.URL.EscapedPath()...)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(status), 10)
			b = append(b, ' ')
			b = append(b, code...)
			b = append(b, ' ')
			b = append(b, took.String()...)
			if note != "" {
				b = append(b, ' ')
				b = append(b, note...)
			}
			l.pending = append(b, '\n')
		}
		l.mu.Unlock()
		select {
		case l.wake <- struct{}{}:
		default:
		}
		rec.ResponseWriter, rec.body = nil, rec.body[:0]
		if cap(rec.body) <= maxLoggedBody {
			writers.Put(rec)
		}
	})
}

// maxLoggedBody is how much of an answer the log keeps to find its
// error_code.
const maxLoggedBody = 1 << 16

var writers = sync.Pool{New: func() any { return new(statusWriter) }}

// errorCode is the string value of the top-level "error_code" of a JSON
// object, or "-" when it has none (or is not a JSON object). It scans the
// bytes once, skipping strings and nested values, rather than decoding the
// whole answer.
func errorCode(body []byte) string {
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) == 0 || body[0] != '{' || !bytes.Contains(body, []byte(`"error_code"`)) {
		return "-"
	}
	depth := 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return "-"
			}
		case '"':
			end := stringEnd(body, i)
			if end < 0 {
				return "-"
			}
			// A key of the top-level object is a string at depth 1 followed by ':'.
			if depth == 1 && string(body[i:end]) == `"error_code"` {
				rest := bytes.TrimLeft(body[end:], " \t\r\n")
				if len(rest) > 0 && rest[0] == ':' {
					rest = bytes.TrimLeft(rest[1:], " \t\r\n")
					if len(rest) > 0 && rest[0] == '"' {
						if e := stringEnd(rest, 0); e > 0 {
							if v, err := strconv.Unquote(string(rest[:e])); err == nil && v != "" {
								return v
							}
						}
					}
					return "-"
				}
			}
			i = end - 1
		}
	}
	return "-"
}

// stringEnd is the index just past the JSON string that starts at b[i]
// (a '"'), or -1 when it does not end.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// statusWriter keeps the status and the error_code of an answer. An answer
// written whole in one write with its Content-Length (as the fake writes
// its JSON) is read in place; any other keeps the start of its body in body
// to be read once written.
type statusWriter struct {
	http.ResponseWriter
	status int
	code   string // the answer's error_code or "-", once known
	body   []byte
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap gives http.ResponseController the connection's writer, so that
// the dashboard's event stream can flush.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.code != "" {
		return w.ResponseWriter.Write(b)
	}
	if len(w.body) == 0 && len(b) <= maxLoggedBody && wholeBody(w.Header(), len(b)) {
		w.code = errorCode(b)
		return w.ResponseWriter.Write(b)
	}
	if room := maxLoggedBody - len(w.body); room > 0 {
		w.body = append(w.body, b[:min(len(b), room)]...)
	}
	return w.ResponseWriter.Write(b)
}

// wholeBody reports that a first write of n bytes is the whole body: the
// answer's Content-Length says n.
func wholeBody(h http.Header, n int) bool {
	cl := h["Content-Length"]
	if len(cl) != 1 {
		return false
	}
	m, err := strconv.Atoi(cl[0])
	return err == nil && m == n
}
