package synapsefake

import (
	"fmt"
	"slices"
	"time"
)

// pendingWork lists what the clock would do next, soonest first: the
// transactions' processing steps, planned returns and card-hold expiries,
// the statements still to make, and the webhook deliveries waiting for a
// retry (or held by webhook chaos).
func (s *wireCore) pendingWork() []pendingItem {
	out := s.pendingBankWork()
	h := s.hooks
	h.mu.Lock()
	for _, r := range h.retries {
		d := r.d
		out = append(out, pendingItem{at: time.UnixMilli(r.at).UTC(), what: fmt.Sprintf("webhook %s %s_%s is delivered to %s (attempt %d)",
			d.event().function(), d.event().objectType(), d.event().objectID(), d.targetURL(), len(d.attemptList())+1)})
	}
	h.mu.Unlock()
	slices.SortStableFunc(out, func(a, b pendingItem) int { return a.at.Compare(b.at) })
	return out
}
