package bank

import (
	"encoding/hex"
	"math/rand/v2"
	"reflect"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// The bank's door (notes/issue-39-plan.md §3.2): the operations the
// layers above the bank call instead of taking the store's lock and
// reading its records themselves. Each takes the lock itself and answers
// plain values or views. They are exported for the layers above; Server
// holds its console as a named field, so none joins the public API.

// OpenStore makes the bank's store with the options New read. New calls
// it once, before anything else can reach the store.
func (s *Bank) OpenStore(client ClientView, microDeposits, manualProcessing, immediateProvisional bool, cutoffs Cutoffs) {
	st := newStore(s.Cfg.Seed)
	st.client = client
	st.secrets = secretsKey(client.ID, s.Cfg.Incarnation)
	st.microDeposits = microDeposits
	st.manualProcessing = manualProcessing
	st.immediateProvisional = immediateProvisional
	st.cutoffs = cutoffs
	st.kycDelay, st.kycManual = s.Cfg.KYCReview, s.Cfg.KYCManual
	st.defaultCutoffs = cutoffs.equal(SharedDefaultCutoffs)
	s.store = st
}

// ConnectPublisher connects the webhook side the bank hands its events
// to (§3.4's Publisher). New calls it once.
func (s *Bank) ConnectPublisher(p publisher) { s.store.hooks = p }

// SetStoreBase sets the base URL the bank's _links start with.
func (s *Bank) SetStoreBase(u string) {
	defer s.store.lock().unlock()
	s.store.base = u
}

// PendingTxWork lists the transactions' scheduled moves, in due order,
// of the transactions keep picks (by id and the two nodes).
func (s *Bank) PendingTxWork(keep func(id, fromNode, toNode string) bool) []PendingItem {
	var items []PendingItem
	st := s.store
	defer st.lock().unlock()
	for _, p := range st.pendingSteps(func(id string) bool {
		t := st.txs[id]
		return t != nil && keep(t.id, t.fromNode, t.toNode)
	}) {
		items = append(items, p.item())
	}
	return items
}

// PendingBankWork lists the bank's work waiting on the clock, read in one
// lock hold: the transactions' steps, then the statements still to make.
func (s *Bank) PendingBankWork() []PendingItem {
	var out []PendingItem
	st := s.store
	defer st.lock().unlock()
	for _, p := range st.pendingSteps(nil) {
		out = append(out, p.item())
	}
	return append(out, st.pendingStatements()...)
}

// TxStatusOf answers a transaction's status and recent_status code
// without copying the transaction.
func (s *Bank) TxStatusOf(id string) (status Status, code string, ok bool) {
	defer s.store.lock().unlock()
	t := s.store.txs[id]
	if t == nil {
		return "", "", false
	}
	return t.status, t.code, true
}

// NodeBalanceOf answers a node's balance and available balance, in
// cents, without copying the node.
func (s *Bank) NodeBalanceOf(id string) (balance, available int64, ok bool) {
	defer s.store.lock().unlock()
	n := s.store.nodes[id]
	if n == nil {
		return 0, 0, false
	}
	return int64(n.balance), int64(n.available()), true
}

// MintUserKey is OAuthKey with every user-level scope, also returning
// when the key expires; "" for an unknown user or a fingerprint POST
// /oauth would refuse. It reads the clock before it takes the lock.
func (s *Bank) MintUserKey(userID, fingerprint string) (string, time.Time) {
	now := s.Now()
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil || !ValidFingerprint(fingerprint) {
		return "", time.Time{}
	}
	u.fingerprints[fingerprint] = true
	k := st.newKey(now.Add(s.Cfg.KeyLifetime), u.id, fingerprint, allUserScopes)
	return k.key, k.expires
}

// StatementsOf answers copies of a node's statements, oldest first.
func (s *Bank) StatementsOf(nodeID string) []Statement {
	st := s.store
	defer st.lock().unlock()
	ids := st.book.byNode[nodeID]
	out := make([]Statement, len(ids))
	for i, id := range ids {
		out[i] = st.statementPublic(st.book.byID[id])
	}
	return out
}

// SnapshotBank copies the bank's state in one lock hold: the clock, the
// id stream, a clone of the store and the network user's id. participant
// runs inside the same hold (§3.4's StateParticipant: the webhook side is
// copied with the store, lock order bank, then hooks). The copy is
// encoded after the lock is released.
func (s *Bank) SnapshotBank(participant func()) (now time.Time, ids StateIDs, saved *Store, networkUser string) {
	st := s.store
	defer st.lock().unlock()
	now = s.Now()
	ids = StateIDs{Seed: hex.EncodeToString(st.ids.seed[:])}
	if st.ids.r != nil {
		ids.ChaCha8, _ = st.ids.r.MarshalBinary()
	}
	saved = cloneStore(st)
	if st.networkUser != nil {
		networkUser = st.networkUser.id
	}
	participant()
	return now, ids, saved, networkUser
}

// DecodeBankStore decodes a state document's "store" with its id stream
// and network user into a new store, not yet shared, or the refusal.
func (s *Bank) DecodeBankStore(data []byte, ids StateIDs, networkUser string) (*Store, error) {
	st := newStore(s.Cfg.Seed)
	if err := decodeStore(data, st); err != nil {
		return nil, ErrState(`"store": %v`, err)
	}
	idSeed, err := hex.DecodeString(ids.Seed)
	if err != nil || len(idSeed) != len(st.ids.seed) {
		return nil, ErrState(`"ids": "seed" must be %d bytes in hex.`, len(st.ids.seed))
	}
	copy(st.ids.seed[:], idSeed)
	if ids.ChaCha8 != nil {
		st.ids.r = &rand.ChaCha8{}
		if err := st.ids.r.UnmarshalBinary(ids.ChaCha8); err != nil {
			return nil, ErrState(`"ids": "chacha8": %v`, err)
		}
	}
	if networkUser != "" {
		if st.networkUser = st.users[networkUser]; st.networkUser == nil {
			return nil, ErrState(`"network_user" %q is not in users.`, networkUser)
		}
	}
	return st, nil
}

// SwapInBank replaces the store and the clock with a decoded document's,
// in one lock hold; participant (the webhook side's restore) runs inside
// it, last.
func (s *Bank) SwapInBank(saved *Store, clock time.Time, participant func()) {
	st := s.store
	defer st.lock().unlock()
	st.era++
	st.ids = saved.ids
	src := reflect.ValueOf(saved).Elem()
	dst := reflect.ValueOf(st).Elem()
	for i := range dst.NumField() {
		if _, apart := storeFieldsApart[dst.Type().Field(i).Name]; !apart {
			Exported(dst.Field(i)).Set(Exported(src.Field(i)))
		}
	}
	st.networkUser = saved.networkUser
	st.firstMonthly = firstMonthlyOf(st.nodes)
	st.goneUsers = goneUsersOf(st.users)
	st.userRecs = recordsOf(st.users, st.userOrder)
	switch {
	case s.Mock != nil:
		s.Mock.Set(clock)
	case s.Clock == nil:
		s.Frozen.mu.Lock()
		s.Frozen.now = clock
		s.Frozen.mu.Unlock()
	}
	participant()
}

// NetworkUserID is the hidden card network's user, "" before there is one.
func (s *Bank) NetworkUserID() string {
	st := s.store
	defer st.lock().unlock()
	if st.networkUser == nil {
		return ""
	}
	return st.networkUser.id
}

// NewestUsers answers the newest limit users, newest first, and how many
// there are.
func (s *Bank) NewestUsers(limit int) ([]User, int) { return s.store.newestUsers(limit) }

// NewestTxs answers a node's (or a user's, or every) newest limit
// transactions, and how many there are.
func (s *Bank) NewestTxs(userID, nodeID string, limit int) ([]Transaction, int, error) {
	return s.store.newestTxs(userID, nodeID, limit)
}

// DashboardUsers answers the dashboard's users page.
func (s *Bank) DashboardUsers(name string, limit int) ([]UIUser, int) {
	return s.store.uiUsers(name, limit)
}

// DashboardTxs answers the dashboard's transactions page.
func (s *Bank) DashboardTxs(f UITxFilter, limit int, now time.Time, manual bool) ([]UITx, int) {
	return s.store.uiTxList(f, limit, now, manual)
}

// Counts answers how many keys, users and transactions the bank holds.
func (s *Bank) Counts() (keys, users, txs int) { return s.store.counts() }

// Detail answers the dashboard's detail of any object by id, nil for an
// unknown id.
func (s *Bank) Detail(id string, now time.Time, manual bool) *UIDetail {
	return s.store.uiDetail(id, now, manual)
}

// DashboardSubs answers the dashboard's subscriptions page.
func (s *Bank) DashboardSubs(limit int) ([]UISub, int) { return s.store.uiSubs(limit) }

// WorldTx makes one of a world's transactions (LoadWorld).
func (s *Bank) WorldTx(at time.Time, userID, fromID, toID string, req CreateTxRequest, status Status, code string) (string, error) {
	return s.store.worldTx(at, userID, fromID, toID, req, status, code)
}

// CardDeclineCode answers the code a swipe of auth on a card subnet would
// be declined with, "" if it would be approved, reading the clock under
// the lock.
func (s *Bank) CardDeclineCode(subnetID string, auth CardAuth) (string, error) {
	st := s.store
	defer st.lock().unlock()
	sn := st.subnets[subnetID]
	switch {
	case sn == nil:
		return "", apierr.NotFound("subnet")
	case sn.class != ClassCard:
		return "", apierr.NotAllowed("not_a_card", "Subnet %s is not a card.", sn.id)
	}
	return st.declineCode(sn, st.nodes[sn.nodeID], Cents(auth.AmountCents), auth, s.Now()), nil
}

// SetFrozenClock sets the frozen clock's time before anything reads it
// (New, and LoadWorld's scratch server); afterwards Advance moves it (the
// root's moves of the clock all go through it), and Restore sets it to
// the saved time.
func (s *Bank) SetFrozenClock(t time.Time) { s.Frozen.now = t }

// RunTxSteps runs the transactions' processing steps due at now, and only
// those: statements and webhooks do not change a status.
func (s *Bank) RunTxSteps(now time.Time) { s.store.runDue(now) }
