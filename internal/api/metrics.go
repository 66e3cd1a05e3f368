// Metrics, the wire's side: the counts of requests, refusals and deliveries.

package api

import (
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// Metrics counts what a server answered and delivered since it was made,
// for GET /_fake/metrics: API requests by method, route and status,
// refusals by error code, and webhook attempts by outcome. Reset and a
// restored state leave the counts be, as a process's counters are. Every
// label comes from a bounded set (the route table's patterns, the
// methods of HTTP, the fake's error codes), never from a raw path, so the
// series stay few whatever clients send. Safe for concurrent use; a count
// costs a map read and an atomic add.
type Metrics struct {
	requests sync.Map // RequestKey -> *atomic.Uint64
	refusals sync.Map // RefusalKey -> *atomic.Uint64
	webhooks [webhookOutcomes]atomic.Uint64
}

// RequestKey is the labels of an API request's count: Route is the route
// pattern without the version prefix, UnmatchedRoute for none; Method is
// one of HTTP's, or OtherMethod.
type RequestKey struct {
	Method, Route string
	Status        int
}

// RefusalKey is the labels of a refusal's count: the body's error_code and
// error.code.
type RefusalKey struct{ ErrorCode, Code string }

// UnmatchedRoute is the route label of a request no route took.
const UnmatchedRoute = "unmatched"

// OtherMethod is the method label of a method HTTP does not define.
const OtherMethod = "OTHER"

// WebhookOutcome is what a webhook attempt came to, as the dashboard
// shows it: delivered (a 2xx to a request signed right), failed, or not
// sent (WithoutWebhookDelivery).
type WebhookOutcome int

// The webhook outcomes, in the order Webhooks counts them.
const (
	WebhookDelivered WebhookOutcome = iota
	WebhookFailed
	WebhookNotSent
	webhookOutcomes
)

// String is the outcome's label.
func (o WebhookOutcome) String() string {
	return [...]string{"delivered", "failed", "not_sent"}[o]
}

// metricMethods are the methods counted under their own name.
var metricMethods = map[string]bool{http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true, http.MethodConnect: true, http.MethodTrace: true}

// count adds one to the counter of key in m.
func count[K comparable](m *sync.Map, key K) {
	c, ok := m.Load(key)
	if !ok {
		c, _ = m.LoadOrStore(key, new(atomic.Uint64))
	}
	c.(*atomic.Uint64).Add(1)
}

// request counts an answered API request.
func (m *Metrics) request(method, route string, status int) {
	if !metricMethods[method] {
		method = OtherMethod
	}
	if route == "" {
		route = UnmatchedRoute
	}
	count(&m.requests, RequestKey{method, route, status})
}

// refusal counts a refusal.
func (m *Metrics) refusal(errorCode, code string) { count(&m.refusals, RefusalKey{errorCode, code}) }

// webhook counts a webhook attempt.
func (m *Metrics) webhook(o bank.UIOutcome) {
	switch o {
	case bank.UIDelivered:
		m.webhooks[WebhookDelivered].Add(1)
	case bank.UINotSent:
		m.webhooks[WebhookNotSent].Add(1)
	default:
		m.webhooks[WebhookFailed].Add(1)
	}
}

// Requests calls f with each request counter and its count.
func (m *Metrics) Requests(f func(RequestKey, uint64)) {
	m.requests.Range(func(k, v any) bool {
		f(k.(RequestKey), v.(*atomic.Uint64).Load())
		return true
	})
}

// Refusals calls f with each refusal counter and its count.
func (m *Metrics) Refusals(f func(RefusalKey, uint64)) {
	m.refusals.Range(func(k, v any) bool {
		f(k.(RefusalKey), v.(*atomic.Uint64).Load())
		return true
	})
}

// Webhooks is the count of webhook attempts that came to o.
func (m *Metrics) Webhooks(o WebhookOutcome) uint64 { return m.webhooks[o].Load() }

// JournalSize is what the request journal holds: its calls and the bytes
// they count for.
func (s *Wire) JournalSize() (calls int, bytes int64) {
	s.Journal.Mu.Lock()
	defer s.Journal.Mu.Unlock()
	return len(s.Journal.Entries) - s.Journal.Head, s.Journal.Bytes
}
