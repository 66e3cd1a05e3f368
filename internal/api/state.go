// Saved state, the wire's side: the hooks' part of the document.

package api

import (
	"math"
	"net/http"
	"slices"
	"sort"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// StateHooks is the webhook side of the state. Events holds every event
// that the capture, the log, a retry or a queued delivery refers to,
// oldest first; the others refer to events by seq and to deliveries by
// their index in the event.
type StateHooks struct {
	Seq     uint64             `json:"seq"` // the last event's sequence number: log ids derive from it
	Events  []bank.StateEvent  `json:"events"`
	Log     []stateLogEntry    `json:"log"`
	Retries []StateRetry       `json:"retries"`
	Queued  []stateDeliveryRef `json:"queued"` // deliveries waiting for, or in the middle of, an attempt
}

// Snapshot describes the webhook side, in values that share nothing with
// the hooks. The store's lock is held; it takes the hooks lock.
func (h *hooks) Snapshot() StateHooks {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	events := map[uint64]*bank.Event{}
	captured := map[uint64]bool{}
	for i := range h.Events.Len() {
		ev := h.Events.At(i)
		events[ev.Sequence()], captured[ev.Sequence()] = ev, true
	}
	for i := range h.log.Len() {
		events[h.log.At(i).d.Event().Sequence()] = h.log.At(i).d.Event()
	}
	retrying := map[*bank.DeliveryRecord]bool{}
	for _, r := range h.retries {
		events[r.d.Event().Sequence()] = r.d.Event()
		retrying[r.d] = true
	}
	for _, b := range h.boxes {
		for _, d := range b.queue {
			events[d.Event().Sequence()] = d.Event()
		}
	}
	out := StateHooks{Seq: h.seq, Events: []bank.StateEvent{}, Log: []stateLogEntry{}, Retries: []StateRetry{}, Queued: []stateDeliveryRef{}}
	seqs := make([]uint64, 0, len(events))
	for seq := range events {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	var queued []*bank.DeliveryRecord
	for _, seq := range seqs {
		ev := events[seq]
		se := bank.StateEvent{Seq: seq, At: ev.AtMS(), Function: ev.Function(), Backend: ev.ByBackend(), Captured: captured[seq],
			Deliveries: make([]bank.StateDelivery, len(ev.DeliveryList()))}
		if ev.Object() != nil {
			se.Object = &bank.StateObject{Type: ev.ObjectType(), ID: ev.ObjectID(), Status: ev.Status(), View: string(ev.Object().View())}
		} else {
			se.TxID, se.Timeline, se.Code = ev.Transaction().TxID(), len(ev.TxTimeline()), ev.RecentCode()
		}
		for i := range ev.DeliveryList() {
			d := &ev.DeliveryList()[i]
			sd := bank.StateDelivery{SubscriptionID: d.SubscriptionID(), URL: d.TargetURL(), Due: d.DueMS(), Attempts: make([]bank.StateAttempt, len(d.AttemptList()))}
			for j, a := range d.AttemptList() {
				sd.Attempts[j] = bank.StateAttempt{At: a.AtMS(), Code: a.StatusCode(), Text: a.Answer(), Chaos: chaosString(a.ChaosFlags())}
			}
			se.Deliveries[i] = sd
			if !deliveryFinished(d) && !retrying[d] {
				queued = append(queued, d)
			}
		}
		out.Events = append(out.Events, se)
	}
	sort.SliceStable(queued, func(i, j int) bool { return queued[i].DueMS() < queued[j].DueMS() })
	for _, d := range queued {
		out.Queued = append(out.Queued, stateDeliveryRef{Seq: d.Event().Sequence(), Delivery: d.Index()})
	}
	for i := range h.log.Len() {
		e := h.log.At(i)
		out.Log = append(out.Log, stateLogEntry{Seq: e.d.Event().Sequence(), Delivery: e.d.Index(), Attempt: int(e.attempt)})
	}
	for _, r := range h.retries {
		out.Retries = append(out.Retries, StateRetry{At: r.at, Seq: r.d.Event().Sequence(), Delivery: r.d.Index()})
	}
	return out
}

// deliveryFinished reports whether d needs no further attempt: its last
// attempt succeeded, or it made every retry. Callers hold the hooks lock.
func deliveryFinished(d *bank.DeliveryRecord) bool {
	n := len(d.AttemptList())
	return n > 0 && (slices.Contains(webhookFinal, int(d.AttemptList()[n-1].StatusCode())) || n > len(webhookRetryDelays))
}

// Restore swaps in the webhook side of a decoded state: sh, its events by
// seq (linked to the decoded store) and the captured ones, oldest first.
// The store's lock is held.
func (h *hooks) Restore(sh StateHooks, events map[uint64]*bank.Event, captured []*bank.Event) {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	h.stop()
	h.seq = sh.Seq
	h.Version++
	h.epoch++
	h.Events, h.eventBytes = fifo[*bank.Event]{}, 0
	for _, ev := range captured {
		h.Events.push(ev)
		h.eventBytes += ev.Cost() + ev.AttemptsCost()
	}
	h.trimEvents()
	h.log, h.logBytes = fifo[logEntry]{}, 0
	for _, e := range sh.Log {
		d := &events[e.Seq].DeliveryList()[e.Delivery]
		h.pushLog(logEntry{d: d, attempt: int32(e.Attempt)})
		h.logBytes += int64(bank.AttemptOverhead + bank.LogEntryOverhead + len(d.AttemptList()[e.Attempt].Answer()))
	}
	for _, r := range sh.Retries {
		h.retries = append(h.retries, retry{at: r.At, d: &events[r.Seq].DeliveryList()[r.Delivery]})
	}
	h.nextRetry.Store(math.MinInt64) // the next due finds the first
	if !h.Closed {
		for _, q := range sh.Queued {
			d := &events[q.Seq].DeliveryList()[q.Delivery]
			if h.s.Cfg.DeliverWebhooks {
				h.enqueue(d)
			} else {
				h.record(d, bank.NewAttempt(d.DueMS(), http.StatusOK, notDelivered, 0))
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

// StateRetry is a delivery waiting for its retry at At, by its event's seq
// and its index in the event.
type StateRetry struct {
	At       int64  `json:"at"` // ms
	Seq      uint64 `json:"seq"`
	Delivery int    `json:"delivery"`
}

type stateDeliveryRef struct {
	Seq      uint64 `json:"seq"`
	Delivery int    `json:"delivery"`
}
