package bank

import (
	"encoding/json"
	"slices"
	"time"
)

// uiDetail reads the store's object with the id: a transaction with its
// moves pending on the clock at now.
func (st *Store) uiDetail(id string, now time.Time, manual bool) *UIDetail {
	defer st.lock().unlock()
	d := &UIDetail{ID: id}
	var view any
	var txIDs []string
	switch {
	case st.users[id] != nil && st.users[id] != st.networkUser:
		u := st.users[id]
		uu := st.uiUser(u)
		d.Kind, d.Page, d.User, view, txIDs = "user", "", &uu, st.userView(u), u.txIDs
		d.Documents, d.PermissionHistory = u.publicDocuments(), u.publicHistory()
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
		v := []UITx{st.uiTx(t)}
		st.uiPending(v, now, manual)
		d.Kind, d.Page, d.Tx, view = "transaction", "transactions", &v[0], st.txView(t)
	case st.subs[id] != nil:
		sub := st.subs[id]
		d.Kind, d.Page, view = "subscription", "subscriptions", st.subscriptionView(sub)
		d.Sub = &UISub{ID: sub.id, URL: sub.target.url, Scopes: slices.Clone(sub.scopes), Active: sub.active, Created: sub.created}
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
func (st *Store) uiOwner(id string) *UIUser {
	u := st.users[id]
	if u == nil {
		return nil
	}
	uu := st.uiUser(u)
	uu.Nodes = nil
	return &uu
}

// uiSubs reads the newest limit subscriptions, and how many there are.
func (st *Store) uiSubs(limit int) (list []UISub, total int) {
	defer st.lock().unlock()
	total = len(st.subOrder)
	for i := total - 1; i >= 0 && len(list) < limit; i-- {
		sub := st.subs[st.subOrder[i]]
		list = append(list, UISub{ID: sub.id, URL: sub.target.url, Scopes: slices.Clone(sub.scopes), Active: sub.active, Created: sub.created})
	}
	return list, total
}

// Bounds of the detail pane: the newest transactions and webhooks of the
// object it shows.
const (
	uiDetailTxs   = 20
	UIDetailHooks = 20
)

// UIDetail is the object the detail pane shows.
type UIDetail struct {
	// Kind is user, node, subnet, transaction, subscription or webhook;
	// "" when nothing has the id.
	Kind, ID string
	Page     string // the list page of the kind, below UIPrefix
	JSON     string // the object as the API answers it, indented
	User     *UIUser
	Node     *uiNode
	Owner    *UIUser // a node's or subnet's user, without its nodes
	Subnet   *Subnet
	Tx       *UITx
	Sub      *UISub
	Hook     *UIHook
	// Documents are a user's base documents with their sub-documents'
	// statuses, PermissionHistory every permission it held, oldest first.
	Documents         []Document
	PermissionHistory []PermissionChange
	// Txs are the newest transactions of a user, node or card, TxTotal how
	// many it has.
	Txs     []UITx
	TxTotal int
	// Hooks are the newest captured webhooks of the object, HooksMore
	// whether there are older ones.
	Hooks     []UIHookRow
	HooksMore bool
}

// UISub is a subscription on its page, with how its recent deliveries
// went (UIHealth).
type UISub struct {
	ID, URL string
	Scopes  []string
	Active  bool
	Created time.Time
	// Recent counts its newest deliveries with an attempt, at most
	// uiSubWindow; Delivered those of them whose last attempt was
	// delivered (UIOutcome), NotSent those captured and never sent.
	Recent, Delivered, NotSent int
	// Failing reports that its newest delivery's last attempt failed.
	Failing bool
	// LastError is its newest failed attempt, nil when none is in the
	// webhook log.
	LastError *UIAttempt
}

// Sent is how many of its recent deliveries were sent.
func (s UISub) Sent() int { return s.Recent - s.NotSent }

// Percent is the share of its recent deliveries sent that were delivered.
func (s UISub) Percent() int {
	if s.Sent() == 0 {
		return 0
	}
	return 100 * s.Delivered / s.Sent()
}

// indentJSON is v as indented JSON.
func indentJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ""
	}
	return string(b)
}

// UIHookRow is a captured webhook in a list.
type UIHookRow struct {
	Seq                           uint64
	LogID, Function, Status, Code string
	ObjectType, ObjectID          string
	Date                          time.Time
	// Deliveries whose last attempt was delivered or failed (UIOutcome),
	// that have none yet, or that were captured and never sent.
	Delivered, Failed, Queued, NotSent int
}
