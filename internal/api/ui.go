// The dashboard, the wire's side: a delivery attempt as the dashboard shows it.

package api

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// attemptOutcome is what the stored attempt a came to.
func attemptOutcome(a bank.AttemptRecord) bank.UIOutcome {
	return outcomeOf(int(a.StatusCode()), a.ChaosFlags()&chaosBadSignature != 0, a.Answer())
}

// outcomeOf is what an attempt came to. Only a 2xx answer to a POST signed
// right is a delivery: the fake also ends a delivery on 400, 404, 405 and
// 408 (webhookFinal, which the service does not retry; 408 is how it
// records a receiver it could not reach or that did not answer in time),
// and each of those is a failure.
func outcomeOf(code int, badSignature bool, text string) bank.UIOutcome {
	switch {
	case code == http.StatusOK && text == notDelivered:
		return bank.UINotSent
	case code >= 200 && code < 300 && !badSignature:
		return bank.UIDelivered
	}
	return bank.UIFailed
}

// UIAttemptOf is an attempt of a webhook made at event.
func UIAttemptOf(a bank.Attempt, event time.Time) bank.UIAttempt {
	bad := slices.Contains(strings.Split(a.Chaos, ","), ChaosBadSignature)
	v := bank.UIAttempt{Attempt: a, Outcome: outcomeOf(a.Code, bad, a.Text), After: a.Date.Sub(event)}
	switch {
	case v.Outcome == bank.UIDelivered:
		v.Verdict = "delivered"
	case v.Outcome == bank.UINotSent:
		v.Verdict = "not sent"
	case bad:
		v.Verdict = "failed: bad signature (webhook chaos)"
	case a.Code == http.StatusRequestTimeout:
		v.Verdict = "failed: unreachable or timed out (recorded as 408)"
	default:
		v.Verdict = "failed"
	}
	return v
}

// uiSubWindow is how many of a subscription's newest deliveries its
// success rate counts.
const uiSubWindow = 20
