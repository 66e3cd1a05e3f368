package synapsefake

import (
	"strings"
	"time"
)

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
		j, ok := index[e.d.subscriptionID()]
		if !ok {
			continue
		}
		sub, a := &subs[j], e.d.attemptList()[e.attempt]
		was := sub.Recent == uiSubWindow && sub.LastError != nil
		if sub.LastError == nil && attemptOutcome(a) == uiFailed {
			v := uiAttemptOf(attemptPublic(a), time.UnixMilli(e.d.event().atMS()))
			sub.LastError = &v
		}
		// The log is in attempt order: the first entry of a delivery
		// met is its last attempt.
		if sub.Recent < uiSubWindow && !seen[e.d] {
			seen[e.d] = true
			switch attemptOutcome(a) {
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

// seqOfLogID finds the captured webhook whose webhook_meta.log_id is id.
func (h *hooks) seqOfLogID(s *wireCore, id string) (uint64, bool) {
	if len(id) != 24 {
		return 0, false
	}
	want := strings.ToLower(id)
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := h.events.len() - 1; i >= 0; i-- {
		if seq := h.events.at(i).sequence(); s.logID(seq) == want {
			return seq, true
		}
	}
	return 0, false
}

// rowsOf lists the newest limit captured webhooks of the object id, and
// whether it has older ones.
func (h *hooks) rowsOf(s *wireCore, id string, limit int) (rows []uiHookRow, more bool) {
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
		for j := range ev.deliveryList() {
			a := ev.deliveryList()[j].attemptList()
			switch {
			case len(a) == 0:
				counts[i][2]++
			case attemptOutcome(a[len(a)-1]) == uiDelivered:
				counts[i][0]++
			case attemptOutcome(a[len(a)-1]) == uiNotSent:
				counts[i][3]++
			default:
				counts[i][1]++
			}
		}
	}
	h.mu.Unlock()
	for i, ev := range picked {
		code := ""
		if ev.object() == nil {
			code = ev.txCode()
		}
		rows = append(rows, uiHookRow{Seq: ev.sequence(), LogID: s.logID(ev.sequence()), Function: ev.function(), Status: ev.status(),
			Code: code, ObjectType: ev.objectType(), ObjectID: ev.objectID(), Date: time.UnixMilli(ev.atMS()).UTC(),
			Delivered: counts[i][0], Failed: counts[i][1], Queued: counts[i][2], NotSent: counts[i][3]})
	}
	return rows, more
}
