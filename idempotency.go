package synapsefake

import (
	"context"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// idempotencyLifetime is how long a used X-SP-IDEMPOTENCY-KEY stays taken.
const idempotencyLifetime = 24 * time.Hour

var errIdempotency = apierr.New(reference.ErrIdempotencyKey, "idempotency_key_in_use", "Idempotency key already in use.")

// idemKey scopes an idempotency key to a client and to the method and
// path it is used on (scope): the same key on another route is a new key,
// since SynapsePy and synapsenode resend a key on every later request of
// the same client object. A scope holds no NUL.
func idemKey(clientID, scope, key string) string {
	return clientID + "\x00" + scope + "\x00" + key
}

// requestScope is the scope of a key sent as X-SP-IDEMPOTENCY-KEY.
func requestScope(r *http.Request) string { return r.Method + " " + r.URL.EscapedPath() }

// idemUsed reports whether key was used within the last 24 hours of the
// clock, forgetting it when it has expired. Callers hold mu.
func (st *store) idemUsed(key string, now time.Time) bool {
	used, ok := st.idem[key]
	if !ok {
		return false
	}
	if now.Sub(used) >= idempotencyLifetime {
		delete(st.idem, key)
		return false
	}
	return true
}

// useIdem takes key for idempotencyLifetime from now. Callers hold mu.
func (st *store) useIdem(key string, now time.Time) {
	st.idem[key] = now
	st.idemExpiry.push(key, now.Add(idempotencyLifetime))
}

// sweepDue forgets the idempotency keys, oauth keys and bank-login
// questions that expired by now, without waiting for them to be looked up
// again. It costs nothing when nothing expired. Callers hold mu.
func (st *store) sweepDue(now time.Time) {
	for key, ok := st.idemExpiry.popDue(now); ok; key, ok = st.idemExpiry.popDue(now) {
		st.idemUsed(key, now) // forgets key unless it was taken again since
	}
	st.sweepKeys(now)
	st.sweepBankLogins(now)
}

// expiryQueue holds keys in the order they expire. Each kind of key has one
// lifetime per server and the clock moves forward, so that is the order in
// which they were pushed. (Were the clock set back, a key would only be
// swept late, never early: whoever pops a key checks its record.)
type expiryQueue struct {
	items []expiring // from head on
	head  int
}

type expiring struct {
	key string
	at  time.Time
}

func (q *expiryQueue) push(key string, at time.Time) {
	q.items = append(q.items, expiring{key, at})
}

// popDue removes and returns the first key if it is due at now.
func (q *expiryQueue) popDue(now time.Time) (string, bool) {
	if q.head == len(q.items) || q.items[q.head].at.After(now) {
		return "", false
	}
	key := q.items[q.head].key
	q.items[q.head] = expiring{}
	q.head++
	switch {
	case q.head == len(q.items):
		q.items, q.head = nil, 0
	case q.head > len(q.items)/2:
		q.items = append(q.items[:0], q.items[q.head:]...)
		q.head = 0
	}
	return key, true
}

// nextDue is when popDue first returns a key, in Unix milliseconds
// (store.nextDue).
func (q *expiryQueue) nextDue() int64 {
	if q.head == len(q.items) {
		return math.MaxInt64
	}
	return ceilMs(q.items[q.head].at)
}

// len is the number of keys waiting.
func (q *expiryQueue) len() int { return len(q.items) - q.head }

// idemCtxKey carries a POST's scoped idempotency key to authorize.
type idemCtxKey struct{}

// checkIdempotency refuses a request whose idempotency key was used by a
// successful POST in the last 24 hours. The caller holds the key's lock.
func (s *Server) checkIdempotency(r *http.Request) error {
	key, _ := r.Context().Value(idemCtxKey{}).(string)
	if key == "" {
		return nil
	}
	if used, ok := s.store.idemUsedAt(key, s.Now()); ok {
		return s.errIdempotencyFor(r, used) // diagnose.go
	}
	return nil
}

// idemUsedAt is idemUsed under the store's lock, with when key was used.
func (st *store) idemUsedAt(key string, now time.Time) (time.Time, bool) {
	defer st.lock().unlock()
	return st.idem[key], st.idemUsed(key, now)
}

// keyLocks serialises requests that carry the same idempotency key, so that
// concurrent retries perform the operation exactly once.
type keyLocks struct {
	mu    sync.Mutex
	locks map[string]*keyLock
}

type keyLock struct {
	mu    sync.Mutex
	users int
}

func (k *keyLocks) lock(key string) func() {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = make(map[string]*keyLock)
	}
	l := k.locks[key]
	if l == nil {
		l = &keyLock{}
		k.locks[key] = l
	}
	l.users++
	k.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		k.mu.Lock()
		if l.users--; l.users == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

// Unwrap gives noteRefusal the journal's recorder.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// withIdempotency wraps a POST carrying X-SP-IDEMPOTENCY-KEY: a key used by
// a successful POST to the same path in the last 24 hours answers 409 /
// "450" and performs nothing. Only a 200 answer takes the key, so a refused or failed request
// can be retried with it. Keys on other methods are ignored, as the Node
// client resends them on later GETs.
func (s *Server) withIdempotency(w http.ResponseWriter, r *http.Request, next http.Handler) {
	raw, _ := header(r, "X-SP-IDEMPOTENCY-KEY")
	if r.Method != http.MethodPost || strings.TrimSpace(raw) == "" {
		next.ServeHTTP(w, r)
		return
	}
	if gw, ok := header(r, "X-SP-GATEWAY"); ok && !s.isGateway(gw) {
		// A wrong gateway is refused by the route (401 / "100") before a
		// key is looked at: no key answers for an unknown client.
		next.ServeHTTP(w, r)
		return
	}
	if !utf8.ValidString(raw) {
		// A saved state keeps keys as JSON text, which has no room for
		// other bytes: two such keys would become one.
		s.fail(w, apierr.Payload("invalid_idempotency_key", "X-SP-IDEMPOTENCY-KEY must be UTF-8 text."))
		return
	}
	key := idemKey(s.cfg.clientID, requestScope(r), raw)
	unlock := s.idemLocks.lock(key)
	defer unlock()
	// The route's authorize refuses a used key (409 / "450"), once the
	// caller's credentials are known to be good: an unauthenticated caller
	// learns nothing about keys.
	r = r.WithContext(context.WithValue(r.Context(), idemCtxKey{}, key))
	rec := &statusRecorder{ResponseWriter: w}
	next.ServeHTTP(rec, r)
	if rec.status == http.StatusOK {
		now := s.Now() // outside the lock: the clock may be the caller's
		s.store.useIdemLocked(key, now)
	}
}

// useIdemLocked is useIdem under the store's lock.
func (st *store) useIdemLocked(key string, now time.Time) {
	defer st.lock().unlock()
	st.useIdem(key, now)
}
