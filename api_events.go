package synapsefake

import (
	"encoding/json"
	"time"
)

// eventBody encodes the webhook body of ev: the object's view as of the
// event, with _id as {"$oid"}, _rest and webhook_meta. It takes the store
// lock to read the parties of a transaction, so callers must not hold it,
// nor the hooks lock (the store lock is taken before the hooks lock).
func eventBody(ev *event, s *wireCore) []byte {
	var rest []byte
	if ev.object() != nil {
		rest = ev.object().view()
	} else {
		v := s.txViewAt(ev.transaction(), ev.txTimeline(), ev.txCode())
		var err error
		if rest, err = json.Marshal(v); err != nil {
			return []byte("{}")
		}
	}
	return webhookBody(ev.objectID(), ev.function(), s.logID(ev.sequence()), ev.actor(), time.UnixMilli(ev.atMS()), rest)
}
