package synapsefake

import (
	"encoding/json"
	"net/http"
	"net/url"
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

// uiDetail finds the object with the id; its Kind is "" when none has it.
func (s *consoleCore) uiDetail(id string) *uiDetail {
	d := s.store.uiDetail(id, s.Now(), s.manualClock())
	if d.Kind == "" {
		if seq, ok := s.hooks.seqOfLogID(&s.wireCore, id); ok {
			return s.uiHookDetail(id, seq)
		}
		return d
	}
	d.Hooks, d.HooksMore = s.hooks.rowsOf(&s.wireCore, id, uiDetailHooks)
	if d.Sub != nil {
		subs := []uiSub{*d.Sub}
		s.hooks.uiHealth(subs)
		d.Sub = &subs[0]
	}
	return d
}

// indentJSON is v as indented JSON.
func indentJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ""
	}
	return string(b)
}

// uiHookDetail is the captured webhook numbered seq, in full.
func (s *consoleCore) uiHookDetail(logID string, seq uint64) *uiDetail {
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
func (s *consoleCore) uiFind(w http.ResponseWriter, r *http.Request) {
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
func (s *consoleCore) uiSubscriptions(w http.ResponseWriter, r *http.Request) {
	limit, err := uiLimit(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	list, total := s.store.uiSubs(limit)
	s.hooks.uiHealth(list)
	s.uiRender(w, r, "subscriptions", uiPage{Limit: limit, Shown: len(list), Total: total, Data: list})
}
