package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// logf is where diagnostics go: WithLog's function, else the test's log,
// else nowhere (nil).
func (s *Wire) logf() func(format string, args ...any) {
	switch {
	case s.Cfg.Quiet:
		return nil
	case s.Cfg.Logf != nil:
		return s.Cfg.Logf
	case s.Tb != nil:
		return s.Tb.Logf
	}
	return nil
}

// noteRefusal tells the journal's recorder under w why the request was
// refused; fail calls it for every error it writes. A writer with no
// recorder under it (a request refused before the journal saw it) is left
// alone.
func noteRefusal(w http.ResponseWriter, e *apierr.Error) {
	for {
		switch x := w.(type) {
		case *recorder:
			x.refusal = e
			return
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return
		}
	}
}

// refused completes a refused call's record with its reason, logs it and
// answers its error.code. e is the error fail wrote, or nil for an answer
// written otherwise, whose envelope head then tells what it can.
func (s *Wire) refused(req *Request, e *apierr.Error, head []byte) string {
	if e == nil {
		var env bank.ErrorEnvelope
		_ = json.Unmarshal(head, &env)
		e = &apierr.Error{Status: req.Status, ErrorCode: env.ErrorCode, Code: env.Error.Code, Message: env.Error.En}
	}
	req.Reason = e.Explanation()
	logf := s.logf()
	if logf == nil || apierr.Reported(e) {
		return e.Code
	}
	where := req.Route
	if where == "" {
		where = req.Path
	}
	code := ""
	if e.Code != "" {
		code = " " + e.Code
	}
	logf("synapsefake: %s %s -> %d error_code %q%s: %s", req.Method, where, req.Status, req.ErrorCode, code, req.Reason)
	return e.Code
}

// FailUnjournaled answers err to a request ServeHTTP refuses before the
// journal records it, and logs why.
func (s *Wire) FailUnjournaled(w http.ResponseWriter, r *http.Request, err *apierr.Error) {
	s.Fail(w, err)
	s.Metrics.request(r.Method, "", err.Status)
	s.Metrics.refusal(err.ErrorCode, s.refused(&Request{Method: r.Method, Path: r.URL.Path, Status: err.Status, ErrorCode: err.ErrorCode}, err, nil))
}

// recentShown bounds the calls a failed test's log lists, and recentBody
// the bytes of each body it shows.
const (
	recentShown = 20
	recentBody  = 200
)

// EndOfTest is NewServer's cleanup. It holds the server only until the
// server is closed, then only the calls a failed test's log would list: a
// test that closes its servers early, or a benchmark that makes thousands,
// does not keep them all until it ends.
type EndOfTest struct {
	mu     sync.Mutex
	S      *Wire
	Srv    interface{ Close() } // the Server, whose Close run calls: an upward edge, which NewServer sets
	logf   func(format string, args ...any)
	tb     TB
	recent []Request // the journal's last calls, oldest first
	total  int       // the calls the journal held
	// running: run is closing the server, and reads the journal itself
	// if the test failed, so closed keeps nothing.
	running bool
}

// Closed keeps what run needs of the server once it is closed, and lets go
// of the server. Close calls it once.
func (e *EndOfTest) Closed() {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.S
	e.S = nil
	e.logf, e.tb = s.logf(), s.Tb
	if e.logf != nil && !e.running {
		e.keepRecent(s)
	}
}

// keepRecent copies the calls a failed test's log lists from s's journal.
// Callers hold e.mu.
func (e *EndOfTest) keepRecent(s *Wire) {
	j := &s.Journal
	j.Mu.Lock()
	defer j.Mu.Unlock()
	live := j.Entries[j.Head:]
	e.total = len(live)
	for _, x := range live[max(0, len(live)-recentShown):] {
		e.recent = append(e.recent, x.Req)
	}
}

// Run closes the server, then, when the test failed, logs the last calls
// the server answered.
func (e *EndOfTest) Run() {
	e.mu.Lock()
	s := e.S
	e.running = s != nil
	e.mu.Unlock()
	if s != nil {
		e.Srv.Close()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if s != nil && e.logf != nil && e.tb.Failed() {
		e.keepRecent(s) // a passing test's end copies nothing
	}
	if e.logf != nil && len(e.recent) > 0 && e.tb.Failed() {
		e.logf("%s", recentCalls(e.recent, e.total))
	}
}

// recentCalls describes calls, the last of total journaled, oldest first,
// one a line, secrets redacted and bodies cut.
func recentCalls(last []Request, total int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "synapsefake: the test failed; the last %d of the %d requests in the journal, oldest first:", len(last), total)
	for _, r := range last {
		fmt.Fprintf(&b, "\n  %s %s", r.Method, r.Path)
		if len(r.Query) > 0 {
			b.WriteString("?" + RedactQuery(r.Query).Encode())
		}
		fmt.Fprintf(&b, " -> %d/%s", r.Status, r.ErrorCode)
		if r.Reason != "" {
			b.WriteString(": " + r.Reason)
		}
		switch {
		case r.BodyTruncated:
			fmt.Fprintf(&b, " body=<more than %d bytes>", len(r.Body))
		case len(r.Body) > 0:
			b.WriteString(" body=" + jsonx.Cut(string(RedactBody(r.Body)), recentBody))
		}
	}
	return b.String()
}

// The hints of the wire's common mistakes, each said the same way wherever
// it applies (the bank's, for X-SP-USER and its key, are its Hint*
// constants).
const (
	hintGateway     = `send X-SP-GATEWAY: "<client_id>|<client_secret>"; fake.Gateway() is this fake's`
	hintUserIP      = `send X-SP-USER-IP with the IP of the user's device, e.g. 127.0.0.1`
	hintIdempotency = `a key stays taken for 24h after its 200 and the service does not replay the first answer: a retry gets 409 too; a new operation needs a new key`
)

// errGatewayFor explains why gw, a wrong X-SP-GATEWAY, is not this fake's,
// without repeating a secret.
func (s *Wire) errGatewayFor(gw string) *apierr.Error {
	id, _, found := strings.Cut(gw, "|")
	switch {
	case !found:
		return apierr.BadGateway.Because(`X-SP-GATEWAY has no "|" between the client_id and the client_secret`).Hinting(hintGateway)
	case id != s.Cfg.ClientID:
		return apierr.BadGateway.Because("X-SP-GATEWAY's client_id %q is not this fake's (%q)", jsonx.Cut(id, 64), s.Cfg.ClientID).Hinting(hintGateway)
	}
	return apierr.BadGateway.Because("X-SP-GATEWAY's client_secret is not this fake's").Hinting(hintGateway)
}

// errIdempotencyFor explains why r's idempotency key, taken at used, is
// refused: the journal's earlier successful call with that key tells
// whether the body was the same.
func (s *Wire) errIdempotencyFor(r *http.Request, used time.Time) *apierr.Error {
	raw, _ := header(r, "X-SP-IDEMPOTENCY-KEY")
	var body []byte
	if rb, ok := r.Body.(*replayBody); ok {
		body = rb.data
	}
	same := "its body is no longer in the journal"
	j := &s.Journal
	j.Mu.Lock()
	for i := len(j.Entries) - 1; i >= j.Head; i-- {
		e := &j.Entries[i].Req
		if e.Method != r.Method || e.Path != r.URL.Path || e.Status != http.StatusOK || e.Header.Get("X-Sp-Idempotency-Key") != raw {
			continue
		}
		switch {
		case bytes.Equal(e.Body, body) || e.BodyTruncated && bytes.HasPrefix(body, e.Body):
			same = "with the same body"
		default:
			same = "with another body: " + jsonx.Cut(string(RedactBody(e.Body)), recentBody)
		}
		break
	}
	j.Mu.Unlock()
	return bank.ErrIdempotency.Because("X-SP-IDEMPOTENCY-KEY %q was taken by a successful %s to this path %s ago by the fake's clock, %s",
		jsonx.Cut(raw, 64), r.Method, s.Now().Sub(used), same).Hinting(hintIdempotency)
}

// routeHint is the likely mistake behind a path no route matches.
func routeHint(path string) string {
	switch {
	case strings.Contains(path, "/v3.1/v3.1"):
		return "the /v3.1 prefix is doubled: fake.URL() already ends with it"
	case !strings.HasPrefix(path, "/v3.1/"):
		return "the API's paths start with /v3.1, which fake.URL() includes"
	}
	return "docs/api.md lists the routes, as the spec writes them"
}
