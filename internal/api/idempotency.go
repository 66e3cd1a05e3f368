// Idempotency, the wire's side: the wrapper that answers a repeated key.

package api

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// requestScope is the scope of a key sent as X-SP-IDEMPOTENCY-KEY.
func requestScope(r *http.Request) string { return r.Method + " " + r.URL.EscapedPath() }

// idemCtxKey carries a POST's scoped idempotency key to authorize.
type idemCtxKey struct{}

// checkIdempotency refuses a request whose idempotency key was used by a
// successful POST in the last 24 hours. The caller holds the key's lock.
func (s *Wire) checkIdempotency(r *http.Request) error {
	key, _ := r.Context().Value(idemCtxKey{}).(string)
	if key == "" {
		return nil
	}
	if used, ok := s.IdemUsedAt(key, s.Now()); ok {
		return s.errIdempotencyFor(r, used) // diagnose.go
	}
	return nil
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

// WithIdempotency wraps a POST carrying X-SP-IDEMPOTENCY-KEY: a key used by
// a successful POST to the same path in the last 24 hours answers 409 /
// "450" and performs nothing. Only a 200 answer takes the key, so a refused or failed request
// can be retried with it. Keys on other methods are ignored, as the Node
// client resends them on later GETs.
func (s *Wire) WithIdempotency(w http.ResponseWriter, r *http.Request, next http.Handler) {
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
		s.Fail(w, apierr.Payload("invalid_idempotency_key", "X-SP-IDEMPOTENCY-KEY must be UTF-8 text."))
		return
	}
	key := bank.IdemKey(s.Cfg.ClientID, requestScope(r), raw)
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
		s.UseIdem(key, now)
	}
}
