package synapsefake

import (
	"slices"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
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

// AddSubscription subscribes url to webhooks of the given scopes (all eight
// subscription scopes when none are given: TRANS|POST|JIT, which makes url
// decide card swipes, only when asked for) and returns a copy of it. A
// scope that is not one of the eight nor TRANS|POST|JIT, or a url that is
// not an absolute http or https URL, is an error, as POST /subscriptions
// refuses them, and adds nothing.
func (s *bankCore) AddSubscription(url string, scopes ...string) (Subscription, error) {
	if len(scopes) == 0 {
		scopes = reference.SubscriptionScopes()
	}
	if err := validSubscriptionScopes(scopes); err != nil {
		return Subscription{}, err
	}
	if !validWebhookURL(url) {
		return Subscription{}, apierr.Payload("invalid_url", "url must be an absolute http or https URL.")
	}
	st := s.store
	defer st.lock().unlock()
	return st.newSubscription(s.Now(), url, scopes).public(), nil
}
