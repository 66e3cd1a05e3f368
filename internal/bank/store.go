package bank

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Store is the in-memory state of one Server. Every field is guarded by mu;
// records never leave the store: callers get views or copies.
type Store struct {
	mu  sync.Mutex
	ids idStream // reproducible identifiers for a given seed
	// era counts the times Reset or Restore replaced the store's contents:
	// work begun under the lock, then finished under it again (a card
	// swipe the platform decides meanwhile), must not finish in another.
	era uint64
	// due is when, in Unix milliseconds, the store's earliest
	// clock-driven work falls due (nextDue), as of the last unlock:
	// runDue does nothing before it. Read without mu.
	due        atomic.Int64
	dueMonthly dueMonthly // statementBook.nextDue's cache
	// firstMonthly is, while book.checked is zero, when (Unix ms) the
	// first monthly statements can fall due: the 15th after the month of
	// the earliest node, math.MaxInt64 with none. newNode lowers it; a
	// restore works it out again (firstMonthlyOf).
	firstMonthly int64
	achMemo      achMemo // achTimes's cache

	users     map[string]*userRecord
	userOrder []string      // creation order, for O(page) listing
	userRecs  []*userRecord // userOrder's records, index for index: a filtered list reads them without looking each up
	goneUsers int           // users of userOrder whose permission is MAKE-IT-GO-AWAY, left out of GET /users
	nodes     map[string]*nodeRecord
	nodeOrder []string              // active nodes of listed users, creation order: GET /nodes
	txOrder   []string              // every transaction, creation order: GET /trans
	keys      map[string]*keyRecord // oauth_key -> key
	txs       map[string]*txRecord
	subnets   map[string]*subnetRecord
	steps     stepQueue // automatic processing and planned returns, by due time
	// returnPlans are returns waiting for their transaction to settle and
	// returnRules the rules new transactions meet (returns.go).
	returnPlans map[string]returnPlan
	returnRules []ReturnRule
	seq         uint64               // scheduling order of steps
	idem        map[string]time.Time // idempotency key -> when it was used
	// idemExpiry and keyExpiry are idem and keys in expiry order, for
	// sweep.
	idemExpiry expiryQueue
	keyExpiry  expiryQueue
	// expiredKeys are the last keys forgotten on expiry (oauth.go), for
	// the test's log and the dashboard's OAuth page.
	expiredKeys []keyRecord
	// rotatedTokens are the last refresh tokens an OAuth call used up
	// (oauth.go), so that the refusal of one says it was rotated.
	rotatedTokens []rotatedToken

	subs     map[string]*subscriptionRecord
	subOrder []string
	hooks    publisher // nil until the Server wires it
	// actor is webhook_meta.updated_by for the changes being made: SELF,
	// or BACKEND while the clock or a scenario helper holds mu.
	actor string

	book statementBook // statements.go: the balance ledger and the statements

	networkUser *userRecord       // hidden owner of the counterparty nodes
	network     map[string]string // node type -> hidden counterparty node

	bankLogins      map[string]*bankLoginRecord // banklogin.go: MFA access token -> login waiting for its answer
	bankLoginExpiry expiryQueue                 // bankLogins' tokens in expiry order, for sweep

	// kycReviews are the sub-documents' reviews waiting on the clock, by
	// due time then scheduling order (kyc.go).
	kycReviews []kycReview

	// Set once at construction, read-only afterwards.
	base             string     // URL() of the server, for _links
	client           ClientView // the client every object belongs to
	microDeposits    bool       // ACH-US nodes start at CREDIT until verified
	manualProcessing bool       // transactions move only when told
	// immediateProvisional: WithImmediateProvisionalCredit (disputes.go).
	immediateProvisional bool
	cutoffs              Cutoffs // schedule.go: the banking calendar's times of day
	// kycDelay is how long a sub-document's review takes, and kycManual
	// reports that only ReviewDocument(s) completes one (kyc.go).
	kycDelay       time.Duration
	kycManual      bool
	defaultCutoffs bool // cutoffs are DefaultCutoffs: achTimes may share answers

	// hexRoom is where randomHex writes the strings it returns: handed-out
	// bytes are never written again.
	hexRoom []byte
	// userSlab, nameRoom and textRoom are where newUser takes a user's
	// record, its legal names' list and their bytes (ownStrings), next to
	// the last user's: a list that reads every user reads memory in order.
	userSlab slab[userRecord]
	nameRoom []string
	textRoom []byte
	// secrets is the platform's identity (secretsKey), which secretHex
	// hashes into every key and token it draws.
	secrets [32]byte

	// eventSlab and objectSlab are where newEvent and the object events
	// take their values from, eventSlabSize at a time (events.go).
	eventSlab  slab[Event]
	objectSlab slab[objectEvent]
}

func newStore(seed uint64) *Store {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	copy(s[8:], "synapsefake-id-stream-v1")
	st := &Store{
		ids:     idStream{seed: s},
		users:   make(map[string]*userRecord),
		nodes:   make(map[string]*nodeRecord),
		keys:    make(map[string]*keyRecord),
		txs:     make(map[string]*txRecord),
		subnets: make(map[string]*subnetRecord),
		subs:    make(map[string]*subscriptionRecord),
		actor:   UpdatedBySelf,
		idem:    make(map[string]time.Time),
	}
	// Empty: nothing falls due until something is made.
	st.firstMonthly = math.MaxInt64
	st.due.Store(math.MaxInt64)
	return st
}

// lock is the one door to the store: it takes mu, and its unlock is
// deferred at once, as in
//
//	defer st.lock().unlock()
//
// so that a panic under the lock (answered 500 by ServeHTTP) leaves the
// store open. TestStoreHasOneDoor fails if other code takes mu, or calls
// lock or unlock in any other form.
func (st *Store) lock() *Store {
	st.mu.Lock()
	return st
}

// unlock releases mu; see lock. Whatever the holder changed, it first
// notes when the store's next clock-driven work falls due.
func (st *Store) unlock() {
	st.due.Store(st.nextDue())
	st.mu.Unlock()
}

// allDue runs, in one hold of the store's lock, the documents' reviews,
// the processing steps, the expiries and the statements that fell due by
// now: a request whose clock
// passed a step takes the lock once for them, not three times.
func (st *Store) allDue(now time.Time) {
	defer st.lock().unlock()
	st.reviewsDue(now)
	st.runSteps(now)
	st.sweepDue(now)
	st.statementsDue(now)
}

// nextDue is when, in Unix milliseconds, the first piece of the work
// allDue does falls due: a processing step, an expiring idempotency key,
// oauth key or bank-login question, an ad hoc statement or the monthly
// statements. The clock's times are whole milliseconds, so work due at t is
// due at the first millisecond at or after t. Callers hold mu.
func (st *Store) nextDue() int64 {
	next := int64(math.MaxInt64)
	if len(st.steps) > 0 {
		next = ceilMs(st.steps[0].at)
	}
	next = min(next, st.idemExpiry.nextDue(), st.keyExpiry.nextDue(), st.bankLoginExpiry.nextDue(), st.nextReview())
	return min(next, st.book.nextDue(&st.dueMonthly, st.firstMonthly))
}

// ceilMs is the first whole millisecond at or after t, in Unix
// milliseconds.
func ceilMs(t time.Time) int64 {
	m := t.UnixMilli()
	if t.Before(time.UnixMilli(m)) {
		m++
	}
	return m
}

// idStream is a ChaCha8 stream built on first use: a server per test
// that creates nothing does not pay for it.
type idStream struct {
	seed [32]byte
	r    *rand.ChaCha8
}

func (s *idStream) rng() *rand.ChaCha8 {
	if s.r == nil {
		s.r = rand.NewChaCha8(s.seed)
	}
	return s.r
}

func (s *idStream) Read(b []byte) (int, error) { return s.rng().Read(b) }

func (s *idStream) Uint64() uint64 { return s.rng().Uint64() }

// newID returns 24 lower-case hex characters, the form of the real service's
// object ids. Callers hold mu.
func (st *Store) newID() string {
	return st.randomHex(12)
}

// randomHex returns n random bytes as hex. Callers hold mu.
func (st *Store) randomHex(n int) string {
	if n > maxHexBytes {
		b := make([]byte, n)
		_, _ = st.ids.Read(b)
		return hex.EncodeToString(b)
	}
	var raw [maxHexBytes]byte
	_, _ = st.ids.Read(raw[:n])
	return st.hexOf(raw[:n])
}

// secretHex returns n (at most 32) bytes as hex for a credential: an
// oauth key, a refresh token, a bank login's access token. It draws them
// from the id stream as randomHex does, so that the ids drawn after it are
// the same, then hashes them with the platform's identity: two platforms
// with one seed hand out the same ids, but none of the other's keys. The
// same seed, client id and incarnation, and the same calls, give the same
// keys. Callers hold mu.
func (st *Store) secretHex(n int) string {
	var buf [len(st.secrets) + maxHexBytes]byte
	copy(buf[:], st.secrets[:])
	raw := buf[len(st.secrets) : len(st.secrets)+n]
	_, _ = st.ids.Read(raw)
	sum := sha256.Sum256(buf[:len(st.secrets)+n])
	return st.hexOf(sum[:n])
}

// secretsKey is the identity of the platform with the given client id and
// incarnation (Config.Incarnation), as secretHex hashes it.
func secretsKey(clientID string, incarnation uint64) [32]byte {
	b := append([]byte("synapsefake-secrets-v1\x00"), clientID...)
	return sha256.Sum256(binary.BigEndian.AppendUint64(append(b, 0), incarnation))
}

// hexOf returns b (at most maxHexBytes) as hex, written in hexRoom.
// Callers hold mu.
func (st *Store) hexOf(b []byte) string {
	n := len(b)
	if cap(st.hexRoom)-len(st.hexRoom) < 2*n {
		st.hexRoom = make([]byte, 0, hexRoomSize)
	}
	i := len(st.hexRoom)
	st.hexRoom = st.hexRoom[:i+2*n]
	hex.Encode(st.hexRoom[i:], b)
	return unsafe.String(&st.hexRoom[i], 2*n)
}

// ownString is s, copied next to the last string it copied.
func (st *Store) ownString(s string) string {
	if len(s) == 0 {
		return ""
	}
	if cap(st.textRoom)-len(st.textRoom) < len(s) {
		st.textRoom = make([]byte, 0, max(textRoomSize, len(s)))
	}
	k := len(st.textRoom)
	st.textRoom = append(st.textRoom, s...)
	return unsafe.String(&st.textRoom[k], len(s))
}

// ownStrings is a copy of list (nil for nil) whose strings are the
// store's own copies, list and bytes each next to the last ones
// ownStrings made: handed-out strings and lists are never written again
// (a change of a user's names builds a new list). Callers hold mu.
func (st *Store) ownStrings(list []string) []string {
	if list == nil {
		return nil
	}
	if cap(st.nameRoom)-len(st.nameRoom) < len(list) {
		st.nameRoom = make([]string, 0, max(nameRoomSize, len(list)))
	}
	i := len(st.nameRoom)
	st.nameRoom = st.nameRoom[:i+len(list)]
	out := st.nameRoom[i : i+len(list) : i+len(list)]
	for j, s := range list {
		out[j] = st.ownString(s)
	}
	return out
}

// nameRoomSize and textRoomSize are how many strings and bytes
// ownStrings allocates at a time, userSlabSize how many user records
// newUser does.
const (
	nameRoomSize = 256
	textRoomSize = 4096
	userSlabSize = 64
)

// maxHexBytes is the longest random string randomHex builds in hexRoom.
const maxHexBytes = 32

// hexRoomSize is how many bytes of hex randomHex allocates at a time: ten
// ids. The strings it returns share the array, whose bytes are never
// written again once handed out, so a new server's user, nodes, keys and
// first transaction cost one allocation, not one each.
const hexRoomSize = 256

// asBackend marks the changes made until the returned func runs as made by
// the service itself. Callers hold mu.
func (st *Store) asBackend() func() {
	st.actor = UpdatedByBackend
	return func() { st.actor = UpdatedBySelf }
}

// Itoa is strconv.Itoa, for the layers that format codes and counts.
func Itoa(n int) string { return strconv.Itoa(n) }

// Page is a resolved page request.
type Page struct {
	Number  int // 1-based
	PerPage int
}

// Window returns the half-open range of indexes a page covers in a list of n.
// A page past the end covers nothing; no page number overflows.
func (p Page) Window(n int) (lo, hi int) {
	if p.Number < 1 || p.PerPage < 1 || p.Number-1 > n/p.PerPage {
		return n, n
	}
	lo = (p.Number - 1) * p.PerPage // at most n, by the check above
	return lo, lo + min(p.PerPage, n-lo)
}

// PageCount is the number of pages n items fill.
func (p Page) PageCount(n int) int {
	if p.PerPage < 1 {
		return 0
	}
	c := n / p.PerPage
	if n%p.PerPage != 0 {
		c++
	}
	return c
}

// ListMeta is the paging part every list wrapper carries.
type ListMeta struct {
	ErrorCode string `json:"error_code"`
	HTTPCode  string `json:"http_code"`
	Limit     int    `json:"limit"`
	Page      int    `json:"page"`
	PageCount int    `json:"page_count"`
	Success   bool   `json:"success"`
}

// Meta is the paging part of the answer of page p of a list of total
// items.
func (p Page) Meta(total int) ListMeta {
	return ListMeta{ErrorCode: "0", HTTPCode: "200", Limit: p.PerPage, Page: p.Number, PageCount: p.PageCount(total), Success: true}
}

// Ms is the wire form of a time: integer milliseconds since the epoch.
func Ms(t time.Time) int64 { return t.UnixMilli() }
