package synapsefake

import (
	"math"
	"time"
)

// Reset empties the whole store (users, nodes, transactions, subnets,
// subscriptions, keys, idempotency keys, bank-login questions, statements
// and their ledger), the webhook capture, the webhook log, queued
// deliveries and retries, the request journal and pending faults, as if
// the server had just started.
// The clock and the id stream go on.
func (s *wireCore) Reset() {
	s.resetStore()
	s.faults.set(nil)
	s.ResetRequests()
}

// resetStore empties the store and the webhook side together, under the
// store's lock, so that no event slips in between.
func (s *wireCore) resetStore() {
	st := s.store
	defer st.lock().unlock()
	st.era++
	s.hooks.reset()
	st.users, st.userOrder, st.goneUsers = map[string]*userRecord{}, nil, 0
	st.nodeOrder, st.txOrder = nil, nil
	st.nodes, st.keys, st.txs = map[string]*nodeRecord{}, map[string]*keyRecord{}, map[string]*txRecord{}
	st.subnets, st.subs, st.subOrder = map[string]*subnetRecord{}, map[string]*subscriptionRecord{}, nil
	st.steps, st.idem = nil, map[string]time.Time{}
	st.returnPlans, st.returnRules = nil, nil
	st.idemExpiry, st.keyExpiry = expiryQueue{}, expiryQueue{}
	st.bankLogins, st.bankLoginExpiry = nil, expiryQueue{}
	st.networkUser, st.network = nil, nil
	st.book = statementBook{}
	st.firstMonthly = math.MaxInt64
	st.bankLogins = nil
}
