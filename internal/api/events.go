// Events, the wire's side: an event's webhook body.

package api

import (
	"encoding/json"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// EventBody encodes the webhook body of ev: the object's view as of the
// event, with _id as {"$oid"}, _rest and webhook_meta. It takes the store
// lock to read the parties of a transaction, so callers must not hold it,
// nor the hooks lock (the store lock is taken before the hooks lock).
func EventBody(ev *bank.Event, s *Wire) []byte {
	var rest []byte
	if ev.Object() != nil {
		rest = ev.Object().View()
	} else {
		v := s.TxViewAt(ev.Transaction(), ev.TxTimeline(), ev.TxCode())
		var err error
		if rest, err = json.Marshal(v); err != nil {
			return []byte("{}")
		}
	}
	return bank.WebhookBody(ev.ObjectID(), ev.Function(), s.LogID(ev.Sequence()), ev.Actor(), time.UnixMilli(ev.AtMS()), rest)
}
