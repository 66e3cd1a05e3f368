package synapsefake

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The dashboard's detail pane and search: every list page shows, beside
// its rows, the object named by ?open= (a user, node, subnet, transaction,
// subscription or webhook log_id), whichever page it is on; the header's
// search box (GET /_fake/ui/find?id=) opens the object on the page that
// lists its kind.

// Bounds of the detail pane: the newest transactions and webhooks of the
// object it shows.
const (
	uiDetailTxs   = 20
	uiDetailHooks = 20
)

// uiDetail is the object the detail pane shows.
type uiDetail struct {
	// Kind is user, node, subnet, transaction, subscription or webhook;
	// "" when nothing has the id.
	Kind, ID string
	Page     string // the list page of the kind, below uiPrefix
	JSON     string // the object as the API answers it, indented
	User     *uiUser
	Node     *uiNode
	Owner    *uiUser // a node's or subnet's user, without its nodes
	Subnet   *Subnet
	Tx       *uiTx
	Sub      *uiSub
	Hook     *uiHook
	// Txs are the newest transactions of a user, node or card, TxTotal how
	// many it has.
	Txs     []uiTx
	TxTotal int
	// Hooks are the newest captured webhooks of the object, HooksMore
	// whether there are older ones.
	Hooks     []uiHookRow
	HooksMore bool
}

// uiHookRow is a captured webhook in a list.
type uiHookRow struct {
	Seq                           uint64
	LogID, Function, Status, Code string
	ObjectType, ObjectID          string
	Date                          time.Time
	// Deliveries whose last attempt was delivered or failed (uiOutcome),
	// that have none yet, or that were captured and never sent.
	Delivered, Failed, Queued, NotSent int
}

// uiSub is a subscription on its page, with how its recent deliveries
// went (uiHealth).
type uiSub struct {
	ID, URL string
	Scopes  []string
	Active  bool
	Created time.Time
	// Recent counts its newest deliveries with an attempt, at most
	// uiSubWindow; Delivered those of them whose last attempt was
	// delivered (uiOutcome), NotSent those captured and never sent.
	Recent, Delivered, NotSent int
	// Failing reports that its newest delivery's last attempt failed.
	Failing bool
	// LastError is its newest failed attempt, nil when none is in the
	// webhook log.
	LastError *uiAttempt
}

// uiSubWindow is how many of a subscription's newest deliveries its
// success rate counts.
const uiSubWindow = 20

// Sent is how many of its recent deliveries were sent.
func (s uiSub) Sent() int { return s.Recent - s.NotSent }

// Percent is the share of its recent deliveries sent that were delivered.
func (s uiSub) Percent() int {
	if s.Sent() == 0 {
		return 0
	}
	return 100 * s.Delivered / s.Sent()
}

// uiHealth fills in the subscriptions' recent deliveries and last errors
// from the webhook log, newest attempt first.
func (h *hooks) uiHealth(subs []uiSub) {
	if len(subs) == 0 {
		return
	}
	index := make(map[string]int, len(subs))
	for i := range subs {
		index[subs[i].ID] = i
	}
	seen := map[*delivery]bool{}
	complete := 0 // subscriptions with a full window and a last error
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := h.log.len() - 1; i >= 0 && complete < len(subs); i-- {
		e := h.log.at(i)
		j, ok := index[e.d.target.subID]
		if !ok {
			continue
		}
		sub, a := &subs[j], e.d.attempts[e.attempt]
		was := sub.Recent == uiSubWindow && sub.LastError != nil
		if sub.LastError == nil && a.outcome() == uiFailed {
			v := uiAttemptOf(a.public(), time.UnixMilli(e.d.ev.at))
			sub.LastError = &v
		}
		// The log is in attempt order: the first entry of a delivery
		// met is its last attempt.
		if sub.Recent < uiSubWindow && !seen[e.d] {
			seen[e.d] = true
			switch a.outcome() {
			case uiDelivered:
				sub.Delivered++
			case uiNotSent:
				sub.NotSent++
			default:
				if sub.Recent == 0 {
					sub.Failing = true
				}
			}
			sub.Recent++
		}
		if !was && sub.Recent == uiSubWindow && sub.LastError != nil {
			complete++
		}
	}
}

// uiDetail finds the object with the id; its Kind is "" when none has it.
func (s *Server) uiDetail(id string) *uiDetail {
	d := s.store.uiDetail(id, s.Now(), s.manualClock())
	if d.Kind == "" {
		if seq, ok := s.hooks.seqOfLogID(s, id); ok {
			return s.uiHookDetail(id, seq)
		}
		return d
	}
	d.Hooks, d.HooksMore = s.hooks.rowsOf(s, id, uiDetailHooks)
	if d.Sub != nil {
		subs := []uiSub{*d.Sub}
		s.hooks.uiHealth(subs)
		d.Sub = &subs[0]
	}
	return d
}

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

// indentJSON is v as indented JSON.
func indentJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ""
	}
	return string(b)
}

// seqOfLogID finds the captured webhook whose webhook_meta.log_id is id.
func (h *hooks) seqOfLogID(s *Server, id string) (uint64, bool) {
	if len(id) != 24 {
		return 0, false
	}
	want := strings.ToLower(id)
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := h.events.len() - 1; i >= 0; i-- {
		if seq := h.events.at(i).seq; s.logID(seq) == want {
			return seq, true
		}
	}
	return 0, false
}

// rowsOf lists the newest limit captured webhooks of the object id, and
// whether it has older ones.
func (h *hooks) rowsOf(s *Server, id string, limit int) (rows []uiHookRow, more bool) {
	h.mu.Lock()
	var picked []*event
	for i := h.events.len() - 1; i >= 0; i-- {
		if ev := h.events.at(i); ev.objectID() == id {
			if len(picked) == limit {
				more = true
				break
			}
			picked = append(picked, ev)
		}
	}
	counts := make([][4]int, len(picked)) // delivered, failed, queued, not sent
	for i, ev := range picked {
		for j := range ev.deliveries {
			a := ev.deliveries[j].attempts
			switch {
			case len(a) == 0:
				counts[i][2]++
			case a[len(a)-1].outcome() == uiDelivered:
				counts[i][0]++
			case a[len(a)-1].outcome() == uiNotSent:
				counts[i][3]++
			default:
				counts[i][1]++
			}
		}
	}
	h.mu.Unlock()
	for i, ev := range picked {
		code := ""
		if ev.obj == nil {
			code = ev.txCode()
		}
		rows = append(rows, uiHookRow{Seq: ev.seq, LogID: s.logID(ev.seq), Function: ev.function(), Status: ev.status(),
			Code: code, ObjectType: ev.objectType(), ObjectID: ev.objectID(), Date: time.UnixMilli(ev.at).UTC(),
			Delivered: counts[i][0], Failed: counts[i][1], Queued: counts[i][2], NotSent: counts[i][3]})
	}
	return rows, more
}

// uiHookDetail is the captured webhook numbered seq, in full.
func (s *Server) uiHookDetail(logID string, seq uint64) *uiDetail {
	d := &uiDetail{ID: logID}
	h := s.hooks
	h.mu.Lock()
	var c *capturedEvent
	for i := h.events.len() - 1; i >= 0; i-- {
		if ev := h.events.at(i); ev.seq == seq {
			cc := capturedEvent{ev: ev, deliveries: make([]Delivery, len(ev.deliveries))}
			for j := range ev.deliveries {
				dl := &ev.deliveries[j]
				cc.deliveries[j] = Delivery{SubscriptionID: dl.target.subID, URL: dl.target.url, Attempts: attempts(dl.attempts)}
			}
			c = &cc
			break
		}
	}
	h.mu.Unlock()
	if c == nil {
		return d // forgotten since
	}
	v := s.uiHook(*c)
	d.Kind, d.Page, d.Hook, d.JSON = "webhook", "webhooks", &v, v.Payload
	return d
}

// uiFind serves GET /_fake/ui/find?id=: a redirect to the page that lists
// the object with that id, its detail open; a page saying that nothing has
// it (404) otherwise.
func (s *Server) uiFind(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimSpace(r.URL.Query().Get("id"))
	d := &uiDetail{ID: id}
	if id != "" {
		d = s.uiDetail(id)
	}
	if d.Kind == "" {
		users, total := s.store.uiUsers("", uiDefaultLimit)
		s.uiRenderStatus(w, r, http.StatusNotFound, "overview", uiPage{Limit: uiDefaultLimit, Shown: len(users), Total: total, Open: d,
			Data: struct {
				Name  string
				Users []uiUser
			}{"", users}})
		return
	}
	http.Redirect(w, r, s.controlRoot()+"ui/"+d.Page+"?open="+url.QueryEscape(id), http.StatusFound)
}

// uiSubscriptions serves GET /_fake/ui/subscriptions?limit=: the newest
// subscriptions, with their URL, scopes and whether they are active.
func (s *Server) uiSubscriptions(w http.ResponseWriter, r *http.Request) {
	limit, err := uiLimit(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	list, total := s.store.uiSubs(limit)
	s.hooks.uiHealth(list)
	s.uiRender(w, r, "subscriptions", uiPage{Limit: limit, Shown: len(list), Total: total, Data: list})
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
