// The dashboard's detail pages, the console's side: one object, one hook, a search.

package console

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// The dashboard's detail pane and search: every list page shows, beside
// its rows, the object named by ?open= (a user, node, subnet, transaction,
// subscription or webhook log_id), whichever page it is on; the header's
// search box (GET /_fake/ui/find?id=) opens the object on the page that
// lists its kind.

// uiDetail finds the object with the id; its Kind is "" when none has it.
func (s *Console) uiDetail(id string) *bank.UIDetail {
	d := s.Detail(id, s.Now(), s.ManualClock())
	if d.Kind == "" {
		if seq, ok := s.Hooks.SeqOfLogID(&s.Wire, id); ok {
			return s.uiHookDetail(id, seq)
		}
		return d
	}
	d.Hooks, d.HooksMore = s.Hooks.RowsOf(&s.Wire, id, bank.UIDetailHooks)
	if d.Sub != nil {
		subs := []bank.UISub{*d.Sub}
		s.Hooks.UIHealth(subs)
		d.Sub = &subs[0]
	}
	return d
}

// uiHookDetail is the captured webhook numbered seq, in full.
func (s *Console) uiHookDetail(logID string, seq uint64) *bank.UIDetail {
	d := &bank.UIDetail{ID: logID}
	h := s.Hooks
	h.Mu.Lock()
	var c *api.CapturedEvent
	for i := h.Events.Len() - 1; i >= 0; i-- {
		if ev := h.Events.At(i); ev.Sequence() == seq {
			ds := ev.DeliveryList()
			cc := api.CapturedEvent{Ev: ev, Deliveries: make([]api.Delivery, len(ds))}
			for j := range ds {
				dl := &ds[j]
				cc.Deliveries[j] = api.Delivery{SubscriptionID: dl.SubscriptionID(), URL: dl.TargetURL(), Attempts: api.Attempts(dl.AttemptList())}
			}
			c = &cc
			break
		}
	}
	h.Mu.Unlock()
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
func (s *Console) uiFind(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimSpace(r.URL.Query().Get("id"))
	d := &bank.UIDetail{ID: id}
	if id != "" {
		d = s.uiDetail(id)
	}
	if d.Kind == "" {
		users, total := s.DashboardUsers("", uiDefaultLimit)
		s.uiRenderStatus(w, r, http.StatusNotFound, "overview", uiPage{Limit: uiDefaultLimit, Shown: len(users), Total: total, Open: d,
			Data: struct {
				Name  string
				Users []bank.UIUser
			}{"", users}})
		return
	}
	http.Redirect(w, r, s.controlRoot()+"ui/"+d.Page+"?open="+url.QueryEscape(id), http.StatusFound)
}

// uiSubscriptions serves GET /_fake/ui/subscriptions?limit=: the newest
// subscriptions, with their URL, scopes and whether they are active.
func (s *Console) uiSubscriptions(w http.ResponseWriter, r *http.Request) {
	limit, err := uiLimit(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	list, total := s.DashboardSubs(limit)
	s.Hooks.UIHealth(list)
	s.uiRender(w, r, "subscriptions", uiPage{Limit: limit, Shown: len(list), Total: total, Data: list})
}
