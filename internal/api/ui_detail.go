// The dashboard's detail pages, the wire's side: the hooks' health and rows.

package api

import (
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// UIHealth fills in the subscriptions' recent deliveries and last errors
// from the webhook log, newest attempt first.
func (h *hooks) UIHealth(subs []bank.UISub) {
	if len(subs) == 0 {
		return
	}
	index := make(map[string]int, len(subs))
	for i := range subs {
		index[subs[i].ID] = i
	}
	seen := map[*bank.DeliveryRecord]bool{}
	complete := 0 // subscriptions with a full window and a last error
	h.Mu.Lock()
	defer h.Mu.Unlock()
	for i := h.log.Len() - 1; i >= 0 && complete < len(subs); i-- {
		e := h.log.At(i)
		j, ok := index[e.d.SubscriptionID()]
		if !ok {
			continue
		}
		sub, a := &subs[j], e.d.AttemptList()[e.attempt]
		was := sub.Recent == uiSubWindow && sub.LastError != nil
		if sub.LastError == nil && attemptOutcome(a) == bank.UIFailed {
			v := UIAttemptOf(attemptPublic(a), time.UnixMilli(e.d.Event().AtMS()))
			sub.LastError = &v
		}
		// The log is in attempt order: the first entry of a delivery
		// met is its last attempt.
		if sub.Recent < uiSubWindow && !seen[e.d] {
			seen[e.d] = true
			switch attemptOutcome(a) {
			case bank.UIDelivered:
				sub.Delivered++
			case bank.UINotSent:
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

// SeqOfLogID finds the captured webhook whose webhook_meta.log_id is id.
func (h *hooks) SeqOfLogID(s *Wire, id string) (uint64, bool) {
	if len(id) != 24 {
		return 0, false
	}
	want := strings.ToLower(id)
	h.Mu.Lock()
	defer h.Mu.Unlock()
	for i := h.Events.Len() - 1; i >= 0; i-- {
		if seq := h.Events.At(i).Sequence(); s.LogID(seq) == want {
			return seq, true
		}
	}
	return 0, false
}

// RowsOf lists the newest limit captured webhooks of the object id, and
// whether it has older ones.
func (h *hooks) RowsOf(s *Wire, id string, limit int) (rows []bank.UIHookRow, more bool) {
	h.Mu.Lock()
	var picked []*bank.Event
	for i := h.Events.Len() - 1; i >= 0; i-- {
		if ev := h.Events.At(i); ev.ObjectID() == id {
			if len(picked) == limit {
				more = true
				break
			}
			picked = append(picked, ev)
		}
	}
	counts := make([][4]int, len(picked)) // delivered, failed, queued, not sent
	for i, ev := range picked {
		for j := range ev.DeliveryList() {
			a := ev.DeliveryList()[j].AttemptList()
			switch {
			case len(a) == 0:
				counts[i][2]++
			case attemptOutcome(a[len(a)-1]) == bank.UIDelivered:
				counts[i][0]++
			case attemptOutcome(a[len(a)-1]) == bank.UINotSent:
				counts[i][3]++
			default:
				counts[i][1]++
			}
		}
	}
	h.Mu.Unlock()
	for i, ev := range picked {
		code := ""
		if ev.Object() == nil {
			code = ev.TxCode()
		}
		rows = append(rows, bank.UIHookRow{Seq: ev.Sequence(), LogID: s.LogID(ev.Sequence()), Function: ev.Function(), Status: ev.Status(),
			Code: code, ObjectType: ev.ObjectType(), ObjectID: ev.ObjectID(), Date: time.UnixMilli(ev.AtMS()).UTC(),
			Delivered: counts[i][0], Failed: counts[i][1], Queued: counts[i][2], NotSent: counts[i][3]})
	}
	return rows, more
}
