package testkit

// Webhooks: a receiver that records the deliveries it is sent, and a URL nothing answers.

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
)

// HookDelivery is one POST a receiver got.
type HookDelivery struct {
	Method  string
	Header  http.Header
	Body    []byte
	Payload map[string]any
}

// Meta is webhook_meta[key] as a string.
func (d HookDelivery) Meta(key string) string {
	m, _ := d.Payload["webhook_meta"].(map[string]any)
	s, _ := m[key].(string)
	return s
}

// ObjectID is the payload's _id.$oid.
func (d HookDelivery) ObjectID() string {
	m, _ := d.Payload["_id"].(map[string]any)
	s, _ := m["$oid"].(string)
	return s
}

// Status is the payload's recent_status.status ("" for users and nodes).
func (d HookDelivery) Status() string {
	m, _ := d.Payload["recent_status"].(map[string]any)
	s, _ := m["status"].(string)
	return s
}

// HookReceiver is a consumer's webhook endpoint.
type HookReceiver struct {
	Url string
	Mu  sync.Mutex
	Got []HookDelivery
}

// NewHookReceiver starts a webhook endpoint that records every delivery and
// answers the nth (from 0) with answer's status and text; nil answers 200.
// answer runs outside the receiver's lock and may call the fake back.
func NewHookReceiver(t testing.TB, answer func(n int, d HookDelivery) (int, string)) *HookReceiver {
	t.Helper()
	rcv := &HookReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		d := HookDelivery{Method: r.Method, Header: r.Header.Clone(), Body: body}
		_ = json.Unmarshal(body, &d.Payload)
		rcv.Mu.Lock()
		n := len(rcv.Got)
		rcv.Got = append(rcv.Got, d)
		rcv.Mu.Unlock()
		code, text := http.StatusOK, "ok"
		if answer != nil {
			code, text = answer(n, d)
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, text)
	}))
	t.Cleanup(srv.Close)
	rcv.Url = srv.URL + "/hooks"
	return rcv
}

// Deliveries returns a copy of the deliveries received so far.
func (rcv *HookReceiver) Deliveries() []HookDelivery {
	rcv.Mu.Lock()
	defer rcv.Mu.Unlock()
	return slices.Clone(rcv.Got)
}

// DeadURL is an address nobody listens on.
func DeadURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/hooks"
}
