package synapsefake

import (
	"slices"
	"time"
)

func (st *store) subscriptionView(sub *subscriptionRecord) subscriptionView {
	return subscriptionView{ID: sub.id, Links: linkTo(st.base + "/subscriptions/" + sub.id), V: sub.v,
		ClientID: st.client.ID, IsActive: sub.active, Scope: slices.Clone(sub.scopes), URL: sub.target.url}
}

// newSubscription stores an active subscription. Callers hold mu.
func (st *store) newSubscription(now time.Time, u string, scopes []string) *subscriptionRecord {
	sub := &subscriptionRecord{id: st.newID(), scopes: slices.Clone(scopes), active: true, v: 1, created: now}
	sub.target = &hookTarget{subID: sub.id, url: u}
	st.subs[sub.id] = sub
	st.subOrder = append(st.subOrder, sub.id)
	return sub
}
