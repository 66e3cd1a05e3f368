package synapsefake

import "time"

// The bank's door (notes/issue-39-plan.md §3.2): the operations the
// layers above the bank call instead of taking the store's lock and
// reading its records themselves. Each takes the lock itself and answers
// plain values or views. They are unexported while the bank shares the
// root package (bankCore is embedded in Server, so an exported method
// would join Server's API); Phase B exports them.

// openStore makes the bank's store with the options New read. New calls
// it once, before anything else can reach the store.
func (s *bankCore) openStore(client clientView, microDeposits, manualProcessing, immediateProvisional bool, cutoffs Cutoffs) {
	st := newStore(s.cfg.seed)
	st.client = client
	st.microDeposits = microDeposits
	st.manualProcessing = manualProcessing
	st.immediateProvisional = immediateProvisional
	st.cutoffs = cutoffs
	st.defaultCutoffs = cutoffs.equal(defaultCutoffs)
	s.store = st
}

// connectPublisher connects the webhook side the bank hands its events
// to (§3.4's Publisher). New calls it once.
func (s *bankCore) connectPublisher(p *hooks) { s.store.hooks = p }

// setStoreBase sets the base URL the bank's _links start with.
func (s *bankCore) setStoreBase(u string) {
	defer s.store.lock().unlock()
	s.store.base = u
}

// pendingTxWork lists the transactions' scheduled moves, in due order,
// of the transactions keep picks (by id and the two nodes).
func (s *bankCore) pendingTxWork(keep func(id, fromNode, toNode string) bool) []pendingItem {
	var items []pendingItem
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

// pendingBankWork lists the bank's work waiting on the clock, read in one
// lock hold: the transactions' steps, then the statements still to make.
func (s *bankCore) pendingBankWork() []pendingItem {
	var out []pendingItem
	st := s.store
	defer st.lock().unlock()
	for _, p := range st.pendingSteps(nil) {
		out = append(out, p.item())
	}
	return append(out, st.pendingStatements()...)
}

// txStatusOf answers a transaction's status and recent_status code
// without copying the transaction.
func (s *bankCore) txStatusOf(id string) (status Status, code string, ok bool) {
	defer s.store.lock().unlock()
	t := s.store.txs[id]
	if t == nil {
		return "", "", false
	}
	return t.status, t.code, true
}

// nodeBalanceOf answers a node's balance and available balance, in
// cents, without copying the node.
func (s *bankCore) nodeBalanceOf(id string) (balance, available int64, ok bool) {
	defer s.store.lock().unlock()
	n := s.store.nodes[id]
	if n == nil {
		return 0, 0, false
	}
	return int64(n.balance), int64(n.available()), true
}

// mintUserKey is OAuthKey with every user-level scope, also returning
// when the key expires; "" for an unknown user or a fingerprint POST
// /oauth would refuse. It reads the clock before it takes the lock.
func (s *bankCore) mintUserKey(userID, fingerprint string) (string, time.Time) {
	now := s.Now()
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil || !validFingerprint(fingerprint) {
		return "", time.Time{}
	}
	u.fingerprints[fingerprint] = true
	k := st.newKey(now.Add(s.cfg.keyLifetime), u.id, fingerprint, allUserScopes)
	return k.key, k.expires
}

// statementsOf answers copies of a node's statements, oldest first.
func (s *bankCore) statementsOf(nodeID string) []Statement {
	st := s.store
	defer st.lock().unlock()
	ids := st.book.byNode[nodeID]
	out := make([]Statement, len(ids))
	for i, id := range ids {
		out[i] = st.statementPublic(st.book.byID[id])
	}
	return out
}
