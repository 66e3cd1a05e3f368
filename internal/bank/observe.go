package bank

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// ObservedDigest is a digest of everything a client could observe in the
// store: the views of its users, nodes, transactions, subnets (with their
// pins) and subscriptions. Tests of the layers above compare it before
// and after a request that was refused, which must have changed nothing.
func (s *Bank) ObservedDigest() string {
	st := s.store
	defer st.lock().unlock()
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, id := range sortedKeys(st.users) {
		_ = enc.Encode(st.userView(st.users[id]))
		_ = enc.Encode(st.users[id].public())
	}
	for _, id := range sortedKeys(st.nodes) {
		_ = enc.Encode(st.nodeView(st.nodes[id]))
	}
	for _, id := range sortedKeys(st.txs) {
		_ = enc.Encode(st.txView(st.txs[id]))
	}
	for _, id := range sortedKeys(st.subnets) {
		_ = enc.Encode(st.subnetView(st.subnets[id], true))
		_ = enc.Encode(st.subnets[id].pin)
	}
	for _, id := range st.subOrder {
		_ = enc.Encode(st.subscriptionView(st.subs[id]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// MoneyInStore is every node's balance plus the money in flight (the
// amounts of transactions PROCESSING-DEBIT or PROCESSING-CREDIT). Tests of
// the layers above check that no request changes it, except a dummy
// transaction, whose counterparty is a node of the store too.
func (s *Bank) MoneyInStore() Cents {
	st := s.store
	defer st.lock().unlock()
	var sum Cents
	for _, n := range st.nodes {
		sum += n.balance
	}
	for _, t := range st.txs {
		if t.status == StatusProcessingDebit || t.status == StatusProcessingCredit {
			sum += t.amount
		}
	}
	return sum
}
