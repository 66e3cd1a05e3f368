package synapsefake

import (
	"net/http"
	"net/url"
	"strings"
)

// The dashboard's detail pane and search: every list page shows, beside
// its rows, the object named by ?open= (a user, node, subnet, transaction,
// subscription or webhook log_id), whichever page it is on; the header's
// search box (GET /_fake/ui/find?id=) opens the object on the page that
// lists its kind.

// uiDetail finds the object with the id; its Kind is "" when none has it.
func (s *consoleCore) uiDetail(id string) *uiDetail {
	d := s.detail(id, s.Now(), s.manualClock())
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

// uiHookDetail is the captured webhook numbered seq, in full.
func (s *consoleCore) uiHookDetail(logID string, seq uint64) *uiDetail {
	d := &uiDetail{ID: logID}
	h := s.hooks
	h.mu.Lock()
	var c *capturedEvent
	for i := h.events.len() - 1; i >= 0; i-- {
		if ev := h.events.at(i); ev.sequence() == seq {
			ds := ev.deliveryList()
			cc := capturedEvent{ev: ev, deliveries: make([]Delivery, len(ds))}
			for j := range ds {
				dl := &ds[j]
				cc.deliveries[j] = Delivery{SubscriptionID: dl.subscriptionID(), URL: dl.targetURL(), Attempts: attempts(dl.attemptList())}
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
		users, total := s.dashboardUsers("", uiDefaultLimit)
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
	list, total := s.dashboardSubs(limit)
	s.hooks.uiHealth(list)
	s.uiRender(w, r, "subscriptions", uiPage{Limit: limit, Shown: len(list), Total: total, Data: list})
}
