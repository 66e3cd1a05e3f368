package synapsefake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Request is one call the server answered, as recorded in its journal.
type Request struct {
	Method string
	Path   string // as sent, version prefix included
	// Route is the spec's route the path matched, without the version
	// prefix, "" for an unknown route.
	Route  string
	Query  url.Values
	Header http.Header
	Body   []byte
	// Status and ErrorCode are the answer's HTTP status and error_code
	// ("0" for a success without one).
	Status    int
	ErrorCode string
	Time      time.Time
}

// redactedFields are the body fields whose values String hides.
var redactedFields = []string{"refresh_token", "validation_pin", "pin", "card_pin", "client_secret", "oauth_key", "password", "nonce_signature"}

// String describes the request on one line with its secrets redacted: the
// client secret, oauth keys, refresh tokens and pins.
func (r Request) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", r.Method, r.Path)
	if len(r.Query) > 0 {
		b.WriteString("?" + r.Query.Encode())
	}
	fmt.Fprintf(&b, " -> %d/%s", r.Status, r.ErrorCode)
	if gw := r.Header.Get("X-Sp-Gateway"); gw != "" {
		id, _, _ := strings.Cut(gw, "|")
		fmt.Fprintf(&b, " gateway=%s|***", id)
	}
	if u := r.Header.Get("X-Sp-User"); u != "" {
		key, fp, _ := strings.Cut(u, "|")
		if key != "" {
			key = "***"
		}
		fmt.Fprintf(&b, " user=%s|%s", key, fp)
	}
	if len(r.Body) > 0 {
		b.WriteString(" body=")
		b.Write(redactBody(r.Body))
	}
	return b.String()
}

// redactBody replaces secret fields of a JSON body, at any depth, by "***".
func redactBody(body []byte) []byte {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return []byte(fmt.Sprintf("<%d bytes, not JSON>", len(body)))
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				for _, f := range redactedFields {
					if k == f {
						x[k] = "***"
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	out, _ := json.Marshal(v)
	return out
}

// maxJournal bounds the journal; past it the oldest half is dropped.
const maxJournal = 20000

// journal records every API call (the newest 10,000 to 20,000 of them).
type journal struct {
	mu   sync.Mutex
	reqs []Request
	s    *Server
}

// recorder is the ResponseWriter of a journaled call: it keeps the status
// and enough of the body to read error_code.
type recorder struct {
	http.ResponseWriter
	req    Request
	status int
	head   bytes.Buffer
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.status != http.StatusOK && r.head.Len() < 1<<16 {
		r.head.Write(b)
	}
	return r.ResponseWriter.Write(b)
}

// start records the request and replaces its body with a re-readable copy.
// The header map is kept, not copied: net/http gives each request its own
// and no handler writes it; Requests copies it.
func (j *journal) start(w http.ResponseWriter, r *http.Request) *recorder {
	rec := &recorder{ResponseWriter: w, req: Request{Method: r.Method, Path: r.URL.Path, Header: r.Header, Time: j.s.Now()}}
	if r.URL.RawQuery != "" {
		rec.req.Query = r.URL.Query() // else nil, which Requests copies as empty
	}
	if r.Body != nil && r.Body != http.NoBody {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		r.Body.Close()
		rec.req.Body = body
		r.Body = &replayBody{data: body, err: err}
	}
	return rec
}

// replayBody replays the bytes the journal read, then the read error, if
// any. readBody takes its bytes without copying them.
type replayBody struct {
	data []byte
	off  int
	err  error
}

func (b *replayBody) Read(p []byte) (int, error) {
	if b.off == len(b.data) {
		if b.err != nil {
			return 0, b.err
		}
		return 0, io.EOF
	}
	n := copy(p, b.data[b.off:])
	b.off += n
	return n, nil
}

func (b *replayBody) Close() error { return nil }

// rest returns what Read has yet to give and the error it would end with.
func (b *replayBody) rest() ([]byte, error) {
	data := b.data[b.off:]
	b.off = len(b.data)
	return data, b.err
}

// errReader replays a read error after the recorded bytes.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// finish records the answer. served is the request the API's mux was
// given, whose Pattern names the route.
func (j *journal) finish(rec *recorder, served *http.Request) {
	rec.req.Route = strings.TrimPrefix(served.Pattern, "/v3.1")
	if served.Pattern == "" {
		// The mux matched a copy of served (see withIdempotency).
		rec.req.Route = routeOf(rec.req.Path)
	} else if served.Pattern == "/" {
		rec.req.Route = "" // the catch-all: not a route of the API
	}
	rec.req.Status = rec.status
	rec.req.ErrorCode = "0"
	if rec.status != http.StatusOK {
		var env struct {
			ErrorCode string `json:"error_code"`
		}
		_ = json.Unmarshal(rec.head.Bytes(), &env)
		rec.req.ErrorCode = env.ErrorCode
	}
	j.mu.Lock()
	if len(j.reqs) >= maxJournal {
		// Keep the newest half: a long-running standalone server must not
		// grow without bound.
		j.reqs = append(j.reqs[:0], j.reqs[len(j.reqs)-maxJournal/2:]...)
	}
	j.reqs = append(j.reqs, rec.req)
	j.mu.Unlock()
}

// Requests returns the API calls the server answered, oldest first: all of
// them up to 20,000, then the newest 10,000 or more (the
// /_fake/ control API is not recorded).
func (s *Server) Requests() []Request {
	s.journal.mu.Lock()
	defer s.journal.mu.Unlock()
	out := make([]Request, len(s.journal.reqs))
	for i, r := range s.journal.reqs {
		r.Header = r.Header.Clone()
		r.Query = cloneValues(r.Query)
		r.Body = bytes.Clone(r.Body)
		out[i] = r
	}
	return out
}

// RequestsTo returns the calls to one route, as FailNext names routes:
// RequestsTo("POST", "/users/{user_id}/nodes/{node_id}/trans"). An empty
// method matches any.
func (s *Server) RequestsTo(method, route string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if (method == "" || r.Method == method) && r.Route == route {
			out = append(out, r)
		}
	}
	return out
}

// ResetRequests empties the journal.
func (s *Server) ResetRequests() {
	s.journal.mu.Lock()
	s.journal.reqs = nil
	s.journal.mu.Unlock()
}

func cloneValues(v url.Values) url.Values {
	out := make(url.Values, len(v))
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
