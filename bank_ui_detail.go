package synapsefake

import (
	"slices"
	"time"
)

// uiDetail reads the store's object with the id: a transaction with its
// moves pending on the clock at now.
func (st *store) uiDetail(id string, now time.Time, manual bool) *uiDetail {
	defer st.lock().unlock()
	d := &uiDetail{ID: id}
	var view any
	var txIDs []string
	switch {
	case st.users[id] != nil && st.users[id] != st.networkUser:
		u := st.users[id]
		uu := st.uiUser(u)
		d.Kind, d.Page, d.User, view, txIDs = "user", "", &uu, st.userView(u), u.txIDs
	case st.nodes[id] != nil && (st.networkUser == nil || st.nodes[id].userID != st.networkUser.id):
		n := st.nodes[id]
		un := st.uiNode(n)
		d.Kind, d.Page, d.Node, view, txIDs = "node", "", &un, st.nodeView(n), n.txIDs
		d.Owner = st.uiOwner(n.userID)
	case st.subnets[id] != nil:
		sn := st.subnets[id]
		pub := sn.public()
		un := st.uiNode(st.nodes[sn.nodeID])
		d.Kind, d.Page, d.Subnet, d.Node, view, txIDs = "subnet", "", &pub, &un, st.subnetView(sn, true), sn.txIDs
		d.Owner = st.uiOwner(sn.userID)
	case st.txs[id] != nil:
		t := st.txs[id]
		v := []uiTx{st.uiTx(t)}
		st.uiPending(v, now, manual)
		d.Kind, d.Page, d.Tx, view = "transaction", "transactions", &v[0], st.txView(t)
	case st.subs[id] != nil:
		sub := st.subs[id]
		d.Kind, d.Page, view = "subscription", "subscriptions", st.subscriptionView(sub)
		d.Sub = &uiSub{ID: sub.id, URL: sub.target.url, Scopes: slices.Clone(sub.scopes), Active: sub.active, Created: sub.created}
	default:
		return d
	}
	d.JSON = indentJSON(view)
	d.TxTotal = len(txIDs)
	for i := len(txIDs) - 1; i >= 0 && len(d.Txs) < uiDetailTxs; i-- {
		d.Txs = append(d.Txs, st.uiTx(st.txs[txIDs[i]]))
	}
	return d
}

// uiOwner is the user with the id, without its nodes. Callers hold mu.
func (st *store) uiOwner(id string) *uiUser {
	u := st.users[id]
	if u == nil {
		return nil
	}
	uu := st.uiUser(u)
	uu.Nodes = nil
	return &uu
}

// uiSubs reads the newest limit subscriptions, and how many there are.
func (st *store) uiSubs(limit int) (list []uiSub, total int) {
	defer st.lock().unlock()
	total = len(st.subOrder)
	for i := total - 1; i >= 0 && len(list) < limit; i-- {
		sub := st.subs[st.subOrder[i]]
		list = append(list, uiSub{ID: sub.id, URL: sub.target.url, Scopes: slices.Clone(sub.scopes), Active: sub.active, Created: sub.created})
	}
	return list, total
}
