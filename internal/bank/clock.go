// The clock, the bank's side: the start time, the frozen clock, the work pending on it.

package bank

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

// DefaultStartTime is documented at synapsefake.DefaultStartTime.
func DefaultStartTime() time.Time {
	return time.Date(2026, time.April, 14, 14, 0, 0, 0, time.UTC)
}

// frozenClock is the default clock: frozen at the start instant, moved only
// by Advance. (A clock.Mock would do, but its Set and Add sleep a
// millisecond each, which dominates the cost of a server per test.)
type frozenClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *frozenClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *frozenClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d).Truncate(time.Millisecond)
	c.mu.Unlock()
}

// StartTime is where the default clock starts: t, or DefaultStartTime for
// the zero time, in UTC and in milliseconds.
func StartTime(t time.Time) time.Time {
	if t.IsZero() {
		return DefaultStartTime()
	}
	return t.UTC().Truncate(time.Millisecond)
}

// PendingItem is one piece of work waiting on the clock.
type PendingItem struct {
	At   time.Time
	What string
}

// pendingSteps lists the transactions' scheduled moves in due order, each
// followed by the steps its own run will schedule; keep, when not nil,
// picks the transactions listed. Callers hold mu.
func (st *Store) pendingSteps(keep func(txID string) bool) []txStep {
	var steps []step
	if keep == nil {
		steps = slices.Clone(st.steps)
	} else {
		for _, p := range st.steps {
			if keep(p.txID) {
				steps = append(steps, p)
			}
		}
	}
	var out []txStep
	slices.SortFunc(steps, func(a, b step) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	for _, p := range steps {
		t := st.txs[p.txID]
		switch {
		case t == nil:
			continue
		case p.to == StatusReturned:
			if !canMove(t.status, StatusReturned) {
				continue
			}
		case t.gen != p.gen:
			continue
		}
		step := "reaches " + string(p.to)
		if p.code != "" {
			step += " (" + p.code + ")"
		}
		out = append(out, txStep{p.at, t.id, step})
		if p.code != "" || p.to == StatusReturned || t.card.holding(t.status) {
			continue
		}
		// The steps after this one are scheduled as it runs; their
		// due times depend only on the transaction's start and rail.
		if i := slices.Index(processingPath, p.to); i >= 0 {
			for _, next := range processingPath[i+1:] {
				out = append(out, txStep{st.dueAt(t, next), t.id, "reaches " + string(next)})
			}
		}
	}
	return out
}

// txStep is a pending move of a transaction: what it does ("reaches
// SETTLED", "reaches RETURNED (R01)") and when it falls due.
type txStep struct {
	at       time.Time
	tx, step string
}

// item is the step as a failure message lists it.
func (p txStep) item() PendingItem {
	return PendingItem{At: p.at, What: "transaction " + p.tx + " " + p.step}
}

// pendingStatements are the ad hoc statements still queued and the next
// monthly statements, if any node will get one. Callers hold mu.
func (st *Store) pendingStatements() []PendingItem {
	var out []PendingItem
	b := &st.book
	for _, id := range b.pending {
		if rec := b.byID[id]; rec != nil && st.nodes[rec.nodeID] != nil {
			out = append(out, PendingItem{At: rec.created.Add(time.Millisecond), What: "statement " + id + " of node " + rec.nodeID + " is made"})
		}
	}
	// Monthly statements are made on the 15th (00:00 UTC) for the nodes
	// that existed before the month that ended.
	var first time.Time // the earliest active deposit node's creation
	for _, n := range st.nodes {
		if n.isActive && reference.IsDepositType(n.typ) && (first.IsZero() || n.created.Before(first)) {
			first = n.created
		}
	}
	if first.IsZero() {
		return out
	}
	if b.checked.IsZero() { // the first look makes them, for the months since the first node's
		return append(out, PendingItem{At: time.UnixMilli(firstMonthlyAfter(first)).UTC(), What: "the monthly statements are made"})
	}
	next := time.Date(b.checked.Year(), b.checked.Month()+1, 15, 0, 0, 0, 0, time.UTC)
	if first.Before(time.Date(next.Year(), next.Month(), 1, 0, 0, 0, 0, time.UTC)) {
		out = append(out, PendingItem{At: next, What: "the monthly statements are made"})
	} else { // every node is created before now, so before the month after next ends
		out = append(out, PendingItem{At: next.AddDate(0, 1, 0), What: "the monthly statements are made"})
	}
	return out
}

// maxPendingShown bounds the pending work a failure message lists.
const maxPendingShown = 10

// DescribePending writes the pending work, soonest first, each with the
// Advance that makes it due.
func DescribePending(b *strings.Builder, now time.Time, items []PendingItem) {
	if len(items) == 0 {
		b.WriteString("\nnothing is pending on the clock: no processing step, return, statement or webhook retry")
		return
	}
	b.WriteString("\npending on the clock, soonest first:")
	for i, p := range items {
		if i == maxPendingShown {
			fmt.Fprintf(b, "\n  ... and %d more", len(items)-i)
			break
		}
		fmt.Fprintf(b, "\n  %s at %s (%s)", p.What, FmtInstant(p.At), advanceHint(now, p.At))
	}
}

// advanceHint is the call that runs work due at at: "call Advance(1h)", or
// "due now: Advance(0) runs it".
func advanceHint(now, at time.Time) string {
	if d := at.Sub(now); d > 0 {
		return "call Advance(" + shortDuration(d) + ")"
	}
	return "due now: Advance(0) runs it"
}

// FmtInstant is an instant in UTC, with milliseconds when it has them, and
// its Eastern wall-clock time, the banking calendar's.
func FmtInstant(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.999Z07:00") + " (" + FmtEastern(t) + ")"
}

// FmtEastern is an instant's Eastern wall-clock time, with the weekday:
// "Tue 10:00 EDT".
func FmtEastern(t time.Time) string { return t.In(reference.Eastern).Format("Mon 15:04 MST") }

// shortDuration is d as Go writes it, without zero minutes and seconds:
// 24h, 1h30m, 1m, 1ms.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// ManualClock reports whether the server's clock moves only when told.
func (s *Bank) ManualClock() bool { return s.Clock == nil || s.Mock != nil }
