// Idempotency, the bank's side: the keys it keeps and their expiry.

package bank

import (
	"math"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// idempotencyLifetime is how long a used X-SP-IDEMPOTENCY-KEY stays taken.
const idempotencyLifetime = 24 * time.Hour

// ErrIdempotency is the answer to a create whose X-SP-IDEMPOTENCY-KEY was
// used within idempotencyLifetime.
var ErrIdempotency = apierr.New(reference.ErrIdempotencyKey, "idempotency_key_in_use", "Idempotency key already in use.")

// idemUsed reports whether key was used within the last 24 hours of the
// clock, forgetting it when it has expired. Callers hold mu.
func (st *Store) idemUsed(key string, now time.Time) bool {
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
func (st *Store) useIdem(key string, now time.Time) {
	st.idem[key] = now
	st.idemExpiry.push(key, now.Add(idempotencyLifetime))
}

// sweepDue forgets the idempotency keys, oauth keys and bank-login
// questions that expired by now, without waiting for them to be looked up
// again. It costs nothing when nothing expired. Callers hold mu.
func (st *Store) sweepDue(now time.Time) {
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

// idemUsedAt is idemUsed under the store's lock, with when key was used.
func (st *Store) idemUsedAt(key string, now time.Time) (time.Time, bool) {
	defer st.lock().unlock()
	return st.idem[key], st.idemUsed(key, now)
}

// IdemKey scopes an idempotency key to a client and to the method and
// path it is used on (scope): the same key on another route is a new key,
// since SynapsePy and synapsenode resend a key on every later request of
// the same client object. A scope holds no NUL.
func IdemKey(clientID, scope, key string) string {
	return clientID + "\x00" + scope + "\x00" + key
}
