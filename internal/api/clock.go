// The clock, the wire's side: the pending work of the bank and the hooks together.

package api

import (
	"fmt"
	"slices"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// pendingWork lists what the clock would do next, soonest first: the
// transactions' processing steps, planned returns and card-hold expiries,
// the statements still to make, and the webhook deliveries waiting for a
// retry (or held by webhook chaos).
func (s *Wire) pendingWork() []bank.PendingItem {
	out := s.PendingBankWork()
	h := s.Hooks
	h.Mu.Lock()
	for _, r := range h.retries {
		d := r.d
		out = append(out, bank.PendingItem{At: time.UnixMilli(r.at).UTC(), What: fmt.Sprintf("webhook %s %s_%s is delivered to %s (attempt %d)",
			d.Event().Function(), d.Event().ObjectType(), d.Event().ObjectID(), d.TargetURL(), len(d.AttemptList())+1)})
	}
	h.Mu.Unlock()
	slices.SortStableFunc(out, func(a, b bank.PendingItem) int { return a.At.Compare(b.At) })
	return out
}
