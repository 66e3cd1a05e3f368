package scenarios

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// CardDecisioning returns held swipes of the Env's card that the platform
// decides through transaction decisioning (a TRANS|POST|JIT subscription,
// see synapsefake.CardAuthorization): declined by its FAIL (RETURNED
// IR180), partially approved by its total_amount where the swipe allows
// partial approval (CREATED IR10, holding the approved amount), declined
// when it answers a total_amount to a swipe that does not (RETURNED IR180,
// nothing held) and decided by the card's own rules when it answers an
// error (approved). Apply stands in for the platform with a receiver of its
// own, subscribed for the one swipe and deactivated afterwards, so the fake
// must hold no other active TRANS|POST|JIT subscription. Each Verify checks
// the deposit node's balance and available balance and the transaction's
// amount. The slice is fresh on every call.
func CardDecisioning() []Scenario {
	const amount = 4000
	created := []synapsefake.Status{synapsefake.StatusCreated}
	return []Scenario{
		{
			Name:   "card declined by the platform IR180",
			Apply:  decidedSwipe(http.StatusOK, `{"decision":"FAIL"}`, amount, false),
			Want:   txOutcome(synapsefake.StatusReturned, reference.IRDenied, synapsefake.StatusCreated, synapsefake.StatusReturned),
			Verify: money(DepositCents, DepositCents, amount),
		},
		{
			Name:   "card partially approved by the platform IR10",
			Apply:  decidedSwipe(http.StatusOK, `{"decision":"PASS","total_amount":25}`, amount, true),
			Want:   txOutcome(synapsefake.StatusCreated, reference.IRPartiallyApproved, created...),
			Verify: money(DepositCents, DepositCents-2500, 2500),
		},
		{
			Name:   "card partial approval refused without partial_approval_allowed IR180",
			Apply:  decidedSwipe(http.StatusOK, `{"decision":"PASS","total_amount":25}`, amount, false),
			Want:   txOutcome(synapsefake.StatusReturned, reference.IRDenied, synapsefake.StatusCreated, synapsefake.StatusReturned),
			Verify: money(DepositCents, DepositCents, amount),
		},
		{
			Name:   "card decided by default when the platform fails",
			Apply:  decidedSwipe(http.StatusInternalServerError, `{}`, amount, false),
			Want:   txOutcome(synapsefake.StatusCreated, "", created...),
			Verify: money(DepositCents, DepositCents-amount, amount),
		},
	}
}

// decidedSwipe is the Apply of a held swipe of cents, allowing partial
// approval or not, that a stand-in platform answers with status and body.
func decidedSwipe(status int, body string, cents int64, partial bool) func(testing.TB, *synapsefake.Server, Env) Result {
	return func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
		tb.Helper()
		platform := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, body)
		}))
		defer platform.Close()
		sub := fake.MustAddSubscription(tb, platform.URL, reference.ScopeTransPostJIT)
		res := swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: cents, Merchant: "DINER", Hold: true, PartialApprovalAllowed: partial})
		r := send(tb, fake, "PATCH", "/subscriptions/"+sub.ID, userHeader(env, "", env.Fingerprint), map[string]any{"is_active": false})
		mustStatus(tb, "PATCH the subscription", r, http.StatusOK)
		return res
	}
}
