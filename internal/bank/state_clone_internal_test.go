package bank

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// TestCloneStoreSharesNothing: changing every record of the store leaves a
// copy's encoding as it was.
func TestCloneStoreSharesNothing(t *testing.T) {
	b := newTestBank(testBankOptions{})
	fillStateTestBank(t, b)
	st := b.store
	encode := func(s *Store) string {
		var b bytes.Buffer
		if err := EncodeStore(&b, s); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	st.lock()
	defer st.unlock()
	c := cloneStore(st)
	want := encode(c)
	if got := encode(st); got != want {
		t.Fatal("the copy encodes otherwise than the store")
	}
	for _, u := range st.users {
		u.legalNames[0] = "Changed"
		u.fingerprints["new"] = true
	}
	for _, n := range st.nodes {
		n.balance++
		n.timeline[0].Note = "changed"
	}
	for _, tx := range st.txs {
		tx.timeline[0].Note = "changed"
		tx.fees = append(tx.fees, feeRecord{fee: 1})
	}
	for _, sn := range st.subnets {
		sn.prefs.dailyCash++
	}
	if got := encode(c); got != want {
		t.Error("changing the store changed its copy")
	}
}

// fillStateTestBank gives b one of each record the root's fuzz world
// holds (newFuzzWorld): two users, a node of each, a card and an account
// subnet, a subscription and a transaction between the nodes.
func fillStateTestBank(tb testing.TB, b *Bank) {
	tb.Helper()
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	u, err := b.AddUser(UserSeed{Fingerprint: "fp"})
	must(err)
	o, err := b.AddUser(UserSeed{Fingerprint: "fp"})
	must(err)
	n, err := b.AddNode(u.ID, NodeSeed{BalanceCents: 100000})
	must(err)
	p, err := b.AddNode(o.ID, NodeSeed{BalanceCents: 5000})
	must(err)
	_, err = b.AddSubnet(u.ID, n.ID, SubnetSeed{AccountClass: ClassCard, Status: SubnetActive})
	must(err)
	_, err = b.AddSubnet(u.ID, n.ID, SubnetSeed{})
	must(err)
	_, err = b.AddSubscription("http://127.0.0.1:1/hook")
	must(err)
	var req CreateTxRequest
	must(json.Unmarshal(fmt.Appendf(nil, `{"to":{"type":"DEPOSIT-US","id":%q},"amount":{"amount":10,"currency":"USD"},"extra":{"ip":"1.1.1.1"}}`, p.ID), &req))
	st := b.store
	defer st.lock().unlock()
	_, err = st.createTx(b.Now(), u.ID, n.ID, req, true, nil)
	must(err)
}
