package synapsefake

import (
	"testing"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// AddSubscription subscribes url to webhooks of the given scopes (all eight
// subscription scopes when none are given: TRANS|POST|JIT, which makes url
// decide card swipes, only when asked for) and returns a copy of it. A
// scope that is not one of the eight nor TRANS|POST|JIT, or a url that is
// not an absolute http or https URL, is an error, as POST /subscriptions
// refuses them, and adds nothing.
func (s *Server) AddSubscription(url string, scopes ...string) (Subscription, error) {
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

// MustAddSubscription is AddSubscription for a test that wants no error
// handling: an error fails tb at once.
func (s *Server) MustAddSubscription(tb testing.TB, url string, scopes ...string) Subscription {
	sub, err := s.AddSubscription(url, scopes...)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddSubscription: %v", err)
	}
	return sub
}
