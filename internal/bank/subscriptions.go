// Subscriptions, the bank's side: the record and its rules (URL, scopes).

package bank

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

func (st *Store) subscriptionView(sub *subscriptionRecord) SubscriptionView {
	return SubscriptionView{ID: sub.id, Links: linkTo(st.base + "/subscriptions/" + sub.id), V: sub.v,
		ClientID: st.client.ID, IsActive: sub.active, Scope: slices.Clone(sub.scopes), URL: sub.target.url}
}

// newSubscription stores an active subscription. Callers hold mu.
func (st *Store) newSubscription(now time.Time, u string, scopes []string) *subscriptionRecord {
	sub := &subscriptionRecord{id: st.newID(), scopes: slices.Clone(scopes), active: true, v: 1, created: now}
	sub.target = &hookTarget{subID: sub.id, url: u}
	st.subs[sub.id] = sub
	st.subOrder = append(st.subOrder, sub.id)
	return sub
}

// AddSubscription is documented at synapsefake.Server.AddSubscription.
func (s *Bank) AddSubscription(url string, scopes ...string) (Subscription, error) {
	if len(scopes) == 0 {
		scopes = reference.SubscriptionScopes()
	}
	if err := ValidSubscriptionScopes(scopes); err != nil {
		return Subscription{}, err
	}
	if !ValidWebhookURL(url) {
		return Subscription{}, apierr.Payload("invalid_url", "url must be an absolute http or https URL.")
	}
	st := s.store
	defer st.lock().unlock()
	return st.newSubscription(s.Now(), url, scopes).public(), nil
}

type subscriptionRecord struct {
	id      string
	target  *hookTarget // id and url, shared by its deliveries; new when url changes
	scopes  []string
	active  bool
	v       int
	created time.Time
}

// SubscriptionView is a subscription as the API returns it.
type SubscriptionView struct {
	ID       string   `json:"_id"`
	Links    links    `json:"_links"`
	V        int      `json:"_v"`
	ClientID string   `json:"client_id"`
	IsActive bool     `json:"is_active"`
	Scope    []string `json:"scope"`
	URL      string   `json:"url"`
}

// Subscription is documented at synapsefake.Subscription.
type Subscription struct {
	ID       string
	URL      string
	Scopes   []string
	IsActive bool
}

func (sub *subscriptionRecord) public() Subscription {
	return Subscription{ID: sub.id, URL: sub.target.url, Scopes: slices.Clone(sub.scopes), IsActive: sub.active}
}

// ValidWebhookURL reports whether u is an absolute http or https URL with
// a host.
func ValidWebhookURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != ""
}

// SchemelessWebhookURL reports whether u is a host name with a dot and an
// optional port and path but no scheme ("test.com", "hooks.example.com/in"),
// which PATCH /subscriptions/{id} stores as sent.
func SchemelessWebhookURL(u string) bool {
	if strings.Contains(u, "://") {
		return false
	}
	p, err := url.Parse("http://" + u)
	if err != nil || p.User != nil || p.Host == "" {
		return false
	}
	host := p.Hostname()
	return strings.Contains(host, ".") && !strings.HasPrefix(host, ".") && !strings.HasSuffix(host, ".") &&
		!strings.ContainsFunc(host, func(r rune) bool {
			return !(r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		})
}

// ValidSubscriptionScopes checks that scopes lists at least one scope and
// only subscription scopes.
func ValidSubscriptionScopes(scopes []string) error {
	if len(scopes) == 0 {
		return apierr.Payload("missing_scope", "scope must list at least one scope.")
	}
	for _, sc := range scopes {
		if !reference.IsSubscriptionScope(sc) {
			return apierr.Payload("invalid_scope", "Unknown subscription scope %q.", sc)
		}
	}
	return nil
}
