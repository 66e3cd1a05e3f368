package synapsefake

import (
	"math"
	"net/http"
	"slices"
	"sort"
)

// stateHooks is the webhook side of the state. Events holds every event
// that the capture, the log, a retry or a queued delivery refers to,
// oldest first; the others refer to events by seq and to deliveries by
// their index in the event.
type stateHooks struct {
	Seq     uint64             `json:"seq"` // the last event's sequence number: log ids derive from it
	Events  []stateEvent       `json:"events"`
	Log     []stateLogEntry    `json:"log"`
	Retries []stateRetry       `json:"retries"`
	Queued  []stateDeliveryRef `json:"queued"` // deliveries waiting for, or in the middle of, an attempt
}

// snapshot describes the webhook side, in values that share nothing with
// the hooks. The store's lock is held; it takes the hooks lock.
func (h *hooks) snapshot() stateHooks {
	h.mu.Lock()
	defer h.mu.Unlock()
	events := map[uint64]*event{}
	captured := map[uint64]bool{}
	for i := range h.events.len() {
		ev := h.events.at(i)
		events[ev.sequence()], captured[ev.sequence()] = ev, true
	}
	for i := range h.log.len() {
		events[h.log.at(i).d.event().sequence()] = h.log.at(i).d.event()
	}
	retrying := map[*delivery]bool{}
	for _, r := range h.retries {
		events[r.d.event().sequence()] = r.d.event()
		retrying[r.d] = true
	}
	for _, b := range h.boxes {
		for _, d := range b.queue {
			events[d.event().sequence()] = d.event()
		}
	}
	out := stateHooks{Seq: h.seq, Events: []stateEvent{}, Log: []stateLogEntry{}, Retries: []stateRetry{}, Queued: []stateDeliveryRef{}}
	seqs := make([]uint64, 0, len(events))
	for seq := range events {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	var queued []*delivery
	for _, seq := range seqs {
		ev := events[seq]
		se := stateEvent{Seq: seq, At: ev.atMS(), Function: ev.function(), Backend: ev.byBackend(), Captured: captured[seq],
			Deliveries: make([]stateDelivery, len(ev.deliveryList()))}
		if ev.object() != nil {
			se.Object = &stateObject{Type: ev.objectType(), ID: ev.objectID(), Status: ev.status(), View: string(ev.object().view())}
		} else {
			se.TxID, se.Timeline, se.Code = ev.transaction().txID(), len(ev.txTimeline()), ev.recentCode()
		}
		for i := range ev.deliveryList() {
			d := &ev.deliveryList()[i]
			sd := stateDelivery{SubscriptionID: d.subscriptionID(), URL: d.targetURL(), Due: d.dueMS(), Attempts: make([]stateAttempt, len(d.attemptList()))}
			for j, a := range d.attemptList() {
				sd.Attempts[j] = stateAttempt{At: a.atMS(), Code: a.statusCode(), Text: a.answer(), Chaos: chaosString(a.chaosFlags())}
			}
			se.Deliveries[i] = sd
			if !deliveryFinished(d) && !retrying[d] {
				queued = append(queued, d)
			}
		}
		out.Events = append(out.Events, se)
	}
	sort.SliceStable(queued, func(i, j int) bool { return queued[i].dueMS() < queued[j].dueMS() })
	for _, d := range queued {
		out.Queued = append(out.Queued, stateDeliveryRef{Seq: d.event().sequence(), Delivery: d.index()})
	}
	for i := range h.log.len() {
		e := h.log.at(i)
		out.Log = append(out.Log, stateLogEntry{Seq: e.d.event().sequence(), Delivery: e.d.index(), Attempt: int(e.attempt)})
	}
	for _, r := range h.retries {
		out.Retries = append(out.Retries, stateRetry{At: r.at, Seq: r.d.event().sequence(), Delivery: r.d.index()})
	}
	return out
}

// deliveryFinished reports whether d needs no further attempt: its last
// attempt succeeded, or it made every retry. Callers hold the hooks lock.
func deliveryFinished(d *delivery) bool {
	n := len(d.attemptList())
	return n > 0 && (slices.Contains(webhookSuccess, int(d.attemptList()[n-1].statusCode())) || n > len(webhookRetryDelays))
}

// restore swaps in the webhook side of a decoded state: sh, its events by
// seq (linked to the decoded store) and the captured ones, oldest first.
// The store's lock is held.
func (h *hooks) restore(sh stateHooks, events map[uint64]*event, captured []*event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stop()
	h.seq = sh.Seq
	h.version++
	h.epoch++
	h.events, h.eventBytes = fifo[*event]{}, 0
	for _, ev := range captured {
		h.events.push(ev)
		h.eventBytes += ev.cost() + ev.attemptsCost()
	}
	h.trimEvents()
	h.log, h.logBytes = fifo[logEntry]{}, 0
	for _, e := range sh.Log {
		d := &events[e.Seq].deliveryList()[e.Delivery]
		h.pushLog(logEntry{d: d, attempt: int32(e.Attempt)})
		h.logBytes += int64(attemptOverhead + logEntryOverhead + len(d.attemptList()[e.Attempt].answer()))
	}
	for _, r := range sh.Retries {
		h.retries = append(h.retries, retry{at: r.At, d: &events[r.Seq].deliveryList()[r.Delivery]})
	}
	h.nextRetry.Store(math.MinInt64) // the next due finds the first
	if !h.closed {
		for _, q := range sh.Queued {
			d := &events[q.Seq].deliveryList()[q.Delivery]
			if h.s.cfg.deliverWebhooks {
				h.enqueue(d)
			} else {
				h.record(d, newAttempt(d.dueMS(), http.StatusOK, notDelivered, 0))
			}
		}
	}
	h.cond.Broadcast()
}

type stateLogEntry struct {
	Seq      uint64 `json:"seq"`
	Delivery int    `json:"delivery"`
	Attempt  int    `json:"attempt"`
}

type stateRetry struct {
	At       int64  `json:"at"` // ms
	Seq      uint64 `json:"seq"`
	Delivery int    `json:"delivery"`
}

type stateDeliveryRef struct {
	Seq      uint64 `json:"seq"`
	Delivery int    `json:"delivery"`
}
