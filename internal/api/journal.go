package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// Request is documented at synapsefake.Request.
type Request struct {
	Method string
	Path   string // as sent, version prefix included
	// Route is the spec's route the path matched, without the version
	// prefix, "" for an unknown route.
	Route  string
	Query  url.Values
	Header http.Header
	// Body is the body as sent, or its first 64 KiB when BodyTruncated.
	Body []byte
	// BodyTruncated reports that the body was longer than the journal
	// keeps of it.
	BodyTruncated bool
	// Status and ErrorCode are the answer's HTTP status and error_code
	// ("0" for a success without one).
	Status    int
	ErrorCode string
	Time      time.Time
	// Reason says why the fake refused the call, with a hint for the
	// usual mistake behind it: "" for a call it did not refuse. It is the
	// line the test's log shows (WithLog); the wire never carries it.
	Reason string
	// NearMisses are the routes nearest to a call no route took (404
	// not_found, or a method the route does not serve), nearest first, as
	// "METHOD /route" (FailNext's names): at most three, nil for other
	// calls. The Reason asks about them too ("did you mean ...?").
	NearMisses []string `json:",omitempty"`
}

// redactedFields are the body fields and query parameters whose values
// String hides, in any letter case: the service decodes JSON names without
// regard to case, so "Refresh_Token" is a refresh_token too. bank_pw,
// mfa_answer and access_token are a bank login's password, its answer to
// the bank's question and the token that carries the question over.
var redactedFields = []string{"refresh_token", "validation_pin", "pin", "card_pin", "client_secret", "oauth_key", "password", "nonce_signature",
	"bank_pw", "mfa_answer", "access_token"}

// redacted reports whether name is one of redactedFields, folding case as
// encoding/json does.
func redacted(name string) bool {
	for _, f := range redactedFields {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	return false
}

// String describes the request on one line with its secrets redacted: the
// client secret, oauth keys, refresh tokens, pins and bank-login
// credentials, in the body and the query. A body the journal cut shows only as its kept size.
func (r Request) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", r.Method, r.Path)
	if len(r.Query) > 0 {
		b.WriteString("?" + RedactQuery(r.Query).Encode())
	}
	fmt.Fprintf(&b, " -> %d/%s", r.Status, r.ErrorCode)
	if gw := r.Header.Get("X-Sp-Gateway"); gw != "" {
		// Without the separator the whole value may be the secret.
		id, _, found := strings.Cut(gw, "|")
		if !found {
			id = "***"
		}
		fmt.Fprintf(&b, " gateway=%s|***", id)
	}
	if u := r.Header.Get("X-Sp-User"); u != "" {
		key, fp, _ := strings.Cut(u, "|")
		if key != "" {
			key = "***"
		}
		fmt.Fprintf(&b, " user=%s|%s", key, fp)
	}
	switch {
	case r.BodyTruncated:
		fmt.Fprintf(&b, " body=<more than %d bytes, not shown>", len(r.Body))
	case len(r.Body) > 0:
		b.WriteString(" body=")
		b.Write(RedactBody(r.Body))
	}
	return b.String()
}

// RedactQuery returns a copy of q with the values of redactedFields
// replaced by "***".
func RedactQuery(q url.Values) url.Values {
	out := make(url.Values, len(q))
	for k, vs := range q {
		vs = slices.Clone(vs)
		if redacted(k) {
			for i := range vs {
				vs[i] = "***"
			}
		}
		out[k] = vs
	}
	return out
}

// RedactBody replaces secret fields of a JSON body, at any depth, by "***".
func RedactBody(body []byte) []byte {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return []byte(fmt.Sprintf("<%d bytes, not JSON>", len(body)))
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if redacted(k) {
					x[k] = "***"
					continue
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

// The journal's default bounds (WithJournalLimit): past either, the oldest
// calls are dropped first. Each kept body is cut at maxJournalBody.
const (
	DefaultJournalEntries = 10_000
	DefaultJournalBytes   = 8 << 20
	maxJournalBody        = 64 << 10
)

// journalEntryOverhead is the memory a journaled call takes besides its
// strings and body (the Request, its header and query maps), and
// journalValueOverhead that of each header or query value.
const (
	journalEntryOverhead = 640
	journalValueOverhead = 48
)

// journal records the API calls; past its bounds the oldest go first.
type journal struct {
	Mu      sync.Mutex
	Entries []JournalEntry // oldest first, from head on
	Head    int
	Bytes   int64 // the cost of entries[head:]
	S       *Wire
}

// JournalEntry is a call and the bytes it counts for.
type JournalEntry struct {
	Req     Request
	cost    int64
	Latency time.Duration // real time taken to answer, for the dashboard
	// Answer is the body of a JSON answer, its first maxJournalBody bytes
	// when AnswerCut, for the dashboard; nil for other answers.
	Answer    []byte
	AnswerCut bool
}

// cost estimates the memory r holds.
func (r *Request) cost() int64 {
	n := journalEntryOverhead + len(r.Method) + len(r.Path) + len(r.ErrorCode) + len(r.Reason) + cap(r.Body)
	for _, m := range r.NearMisses {
		n += len(m) + journalValueOverhead
	}
	for _, m := range []map[string][]string{r.Query, r.Header} {
		for k, vs := range m {
			n += len(k) + journalValueOverhead
			for _, v := range vs {
				n += len(v) + journalValueOverhead
			}
		}
	}
	return int64(n)
}

// maxRecordedHead is how much of an answer a recorder keeps: a refusal's
// to read its error_code from, a JSON answer's for the journal.
const maxRecordedHead = maxJournalBody

// recorder is the ResponseWriter of a journaled call: it keeps the status
// and the head of the body.
type recorder struct {
	http.ResponseWriter
	s      *Wire // whose journal: serverOf
	req    Request
	status int
	// head is the first maxRecordedHead bytes of the body, or more when
	// one write crossed that: of every answer when the journal keeps
	// them (journal.keeps), else of a refusal. It goes to the journal as
	// it is, so that an answer is copied once.
	head    []byte
	written int64     // bytes of the body written
	began   time.Time // real time
	// refusal is the error fail wrote, with its reason (diagnose.go).
	refusal *apierr.Error
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
	if len(r.head) < maxRecordedHead && (r.status != http.StatusOK || r.s.Journal.keeps()) {
		if r.head == nil {
			r.head = make([]byte, 0, len(b)) // most answers are one write
		}
		r.head = append(r.head, b...)
	}
	r.written += int64(len(b))
	return r.ResponseWriter.Write(b)
}

// Start records the request and replaces its body with a re-readable copy.
// The journal keeps the first maxJournalBody bytes of the body. The header
// map is kept, not copied: net/http gives each request its own and no
// handler writes it; Requests copies it.
func (j *journal) Start(w http.ResponseWriter, r *http.Request) *recorder {
	rec := recorders.Get().(*recorder)
	rec.ResponseWriter, rec.s, rec.began = w, j.S, time.Now()
	rec.req = Request{Method: r.Method, Path: r.URL.Path, Header: r.Header, Time: j.S.Now()}
	if r.URL.RawQuery != "" {
		rec.req.Query = decodeQuery(r.URL.RawQuery) // else nil, which Requests copies as empty
	}
	if r.Body != nil && r.Body != http.NoBody {
		body, err := readLimited(r.Body, r.ContentLength, MaxBody+1)
		r.Body.Close()
		if len(body) > maxJournalBody {
			// A copy, so that the journal does not hold the whole body.
			rec.req.Body, rec.req.BodyTruncated = bytes.Clone(body[:maxJournalBody]), true
		} else {
			rec.req.Body = body
		}
		r.Body = &replayBody{data: body, err: err}
	}
	return rec
}

// readLimited is io.ReadAll(io.LimitReader(body, limit)) that starts with
// room for size bytes (a request's ContentLength, -1 when unknown), so that
// a body of the length it announced is read into one allocation.
func readLimited(body io.Reader, size, limit int64) ([]byte, error) {
	if size < 0 || size >= limit {
		return io.ReadAll(io.LimitReader(body, limit))
	}
	b := make([]byte, 0, size+1) // +1: room to read EOF without growing
	lr := io.LimitedReader{R: body, N: limit}
	for {
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow as io.ReadAll does
		}
	}
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

// Finish records the answer. served is the request the API's mux was
// given, whose Pattern names the route.
func (j *journal) Finish(rec *recorder, served *http.Request) {
	rec.req.Route = strings.TrimPrefix(served.Pattern, APIPrefix)
	if served.Pattern == "" {
		// The mux matched a copy of served (see WithIdempotency).
		rec.req.Route = routeOf(rec.req.Path)
	} else if served.Pattern == "/" {
		rec.req.Route = "" // the catch-all: not a route of the API
	}
	rec.req.Status = rec.status
	rec.req.ErrorCode = "0"
	if rec.status != http.StatusOK {
		var env struct {
			ErrorCode string `json:"error_code"`
			Error     struct{ En string }
		}
		_ = json.Unmarshal(rec.head, &env)
		rec.req.ErrorCode, rec.req.Reason = env.ErrorCode, env.Error.En
	}
	j.S.Metrics.request(rec.req.Method, rec.req.Route, rec.req.Status)
	if rec.refusal != nil || rec.status >= http.StatusBadRequest {
		j.S.Metrics.refusal(rec.req.ErrorCode, j.S.refused(&rec.req, rec.refusal, rec.head))
	}
	e := JournalEntry{Req: rec.req, Latency: time.Since(rec.began)}
	if len(rec.head) > 0 && j.keeps() && strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		e.Answer, e.AnswerCut = rec.head[:min(len(rec.head), maxJournalBody)], rec.written > maxJournalBody
	}
	j.addEntry(e)
	*rec = recorder{}
	recorders.Put(rec)
}

// recorders recycles the recorders of answered calls: finish copies what
// the journal keeps of one, and nothing holds it afterwards.
var recorders = sync.Pool{New: func() any { return new(recorder) }}

// keeps reports whether the journal keeps any call.
func (j *journal) keeps() bool { return j.S.Cfg.JournalEntries != 0 && j.S.Cfg.JournalBytes != 0 }

// Add appends r, as addEntry does.
func (j *journal) Add(r Request, latency time.Duration) {
	j.addEntry(JournalEntry{Req: r, Latency: latency})
}

// addEntry appends e, then drops the oldest calls while the journal holds
// more than its bounds allow, always keeping e itself.
func (j *journal) addEntry(e JournalEntry) {
	if !j.keeps() {
		return
	}
	maxEntries, maxBytes := j.S.Cfg.JournalEntries, j.S.Cfg.JournalBytes
	e.cost = e.Req.cost() + int64(cap(e.Answer))
	j.Mu.Lock()
	defer j.Mu.Unlock()
	j.Entries = append(j.Entries, e)
	j.Bytes += e.cost
	for n := len(j.Entries) - j.Head; n > 1 && (maxEntries > 0 && n > maxEntries || maxBytes > 0 && j.Bytes > maxBytes); n-- {
		j.Bytes -= j.Entries[j.Head].cost
		j.Entries[j.Head] = JournalEntry{}
		j.Head++
	}
	if j.Head > len(j.Entries)/2 {
		j.Entries = append(j.Entries[:0], j.Entries[j.Head:]...)
		clear(j.Entries[len(j.Entries):cap(j.Entries)])
		j.Head = 0
	}
}

func cloneValues(v url.Values) url.Values {
	out := make(url.Values, len(v))
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// Requests is documented at synapsefake.Server.Requests.
func (s *Wire) Requests() []Request {
	s.Journal.Mu.Lock()
	defer s.Journal.Mu.Unlock()
	live := s.Journal.Entries[s.Journal.Head:]
	out := make([]Request, len(live))
	for i, e := range live {
		r := e.Req
		r.Header = r.Header.Clone()
		r.Query = cloneValues(r.Query)
		r.Body = bytes.Clone(r.Body)
		r.NearMisses = slices.Clone(r.NearMisses)
		out[i] = r
	}
	return out
}

// RequestsTo is documented at synapsefake.Server.RequestsTo.
func (s *Wire) RequestsTo(method, route string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if (method == "" || r.Method == method) && r.Route == route {
			out = append(out, r)
		}
	}
	return out
}

// ResetRequests is documented at synapsefake.Server.ResetRequests.
func (s *Wire) ResetRequests() {
	s.Journal.Mu.Lock()
	s.Journal.Entries, s.Journal.Head, s.Journal.Bytes = nil, 0, 0
	s.Journal.Mu.Unlock()
}
