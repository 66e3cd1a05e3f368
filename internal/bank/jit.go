// JIT decisions, the bank's side: the question a swipe asks and its outcome.

package bank

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// Transaction decisioning (just-in-time, JIT), as the service's guide
// describes it: a subscription with the scope TRANS|POST|JIT is sent each
// card withdrawal before it is decided, and answers
//
//	{"decision": "PASS" | "FAIL", "total_amount": 12.34}
//
// within 1.00 s, or else the swipe follows the default path of decisioning
// (the card's own rules). The fake asks the oldest active subscription that
// holds the scope, and only it; a swipe that DeclineWith declines, or whose
// card or holder may not transact (the rules down to IR57), is declined
// without asking, as the service checks the user before asking. The
// answer:
//
//	PASS                           -> the card's balance and limit rules (IR51, IR185) for the amount
//	PASS, total_amount < amount,   -> the same for total_amount: partially approved, the
//	  the swipe allows it             transaction made for total_amount with recent_status.code IR10
//	PASS, total_amount < amount,   -> declined with IR180 (denied), as FAIL: the merchant
//	  the swipe does not allow it     cannot take less than the amount
//	FAIL                           -> declined with IR180 (denied)
//	no answer within the deadline,
//	a status other than 2xx, a body
//	that is not such an object     -> the default path: every card rule, as without JIT
//
// A swipe allows partial approval when its merchant says so
// (CardAuth.PartialApprovalAllowed): the question, like the stored swipe,
// then carries to.meta.partial_approval_allowed true.
// A swipe that follows the default path notes why in its CREATED entry.
// Under WithoutWebhookDelivery the platform is never asked: every swipe
// follows the default path.
// funding_nodes (Instant Auth) is not supported: an answer that carries
// any follows the default path.

// DefaultJITDeadline is documented at synapsefake.DefaultJITDeadline.
const DefaultJITDeadline = time.Second

// MaxJITAnswer bounds the part of a platform's answer that is read.
const MaxJITAnswer = 64 << 10

// JITAsk is a card swipe waiting for the platform's decision: the
// transaction it would be, not stored, and the request that asks.
type JITAsk struct {
	era      uint64 // the store's when asked
	subnetID string
	auth     CardAuth
	t        *txRecord
	Url      string
	Body     []byte
}

// TxID is the swiped transaction's id (set when it is made; read without
// the lock, as before).
func (a *JITAsk) TxID() string { return a.t.id }

// Amount is what the swipe asks for.
func (a *JITAsk) Amount() Cents { return a.t.amount }

// JITOutcome is a platform's answer as the fake applies it.
type JITOutcome struct {
	Decision string // "PASS" or "FAIL"; "" follows the default path
	Total    Cents  // PASS: the amount approved
	Reason   string // the default path: why
}

// jitSubscription returns the oldest active subscription that holds
// TRANS|POST|JIT, nil when none does. Callers hold mu.
func (st *Store) jitSubscription() *subscriptionRecord {
	for _, id := range st.subOrder {
		if sub := st.subs[id]; sub != nil && sub.active && slices.Contains(sub.scopes, reference.ScopeTransPostJIT) {
			return sub
		}
	}
	return nil
}

// newJITAsk prepares the question of sub about the swipe t: t's view as
// an approved CREATED swipe, in a webhook body whose function is
// TRANS|POST|JIT. Callers hold mu.
func (st *Store) newJITAsk(sub *subscriptionRecord, sn *subnetRecord, t *txRecord, auth CardAuth, now time.Time) *JITAsk {
	t.other = map[string]any{"approved": true, "affect_limits": true}
	if auth.Hold {
		t.card = &cardLife{hold: true, expires: now.AddDate(0, 0, AuthorizationHoldDays), original: t.amount, authorized: t.amount}
	}
	created := []statusEntry{{Date: Ms(now), Note: "Transaction Created.", Status: StatusCreated}}
	rest, err := json.Marshal(st.txViewAt(t, created, ""))
	if err != nil {
		rest = []byte("{}")
	}
	body := WebhookBody(t.id, reference.ScopeTransPostJIT, st.newID(), UpdatedByBackend, now, rest)
	return &JITAsk{era: st.era, subnetID: sn.id, auth: auth, t: t, Url: sub.target.url, Body: body}
}

// finishSwipe applies the platform's decision o to the swipe a and stores
// it. The card, its holder and the balance may have changed while the
// platform decided: every rule is applied again now.
func (st *Store) finishSwipe(a *JITAsk, o JITOutcome, now time.Time) (Transaction, error) {
	defer st.lock().unlock()
	defer st.asBackend()()
	if st.era != a.era {
		// The swipe's id was drawn from a stream Reset or Restore has since
		// replaced: stored now, it could take another transaction's.
		return Transaction{}, apierr.NotAllowed("state_replaced",
			"The fake was reset or its state restored while the platform decided this swipe; it was not stored.")
	}
	sn, n, err := st.cardSubnet(a.subnetID)
	if err != nil {
		return Transaction{}, err
	}
	t := a.t
	t.userID, t.fromNode, t.toNode = sn.userID, n.id, st.networkNode(now, reference.NodeInterchangeUS).id
	note := "Transaction Created."
	code := st.cardStatusCode(sn, n, a.auth, now)
	switch {
	case code != "":
	case o.Decision == "FAIL":
		code = reference.IRDenied
	case o.Decision == "PASS" && o.Total < t.amount && !a.auth.PartialApprovalAllowed:
		note += " Partial approval for " + o.Total.Usd() + " of " + t.amount.Usd() + " refused: the swipe does not allow partial approval."
		code = reference.IRDenied
	case o.Decision == "PASS":
		if o.Total < t.amount {
			note += " Partially approved for " + o.Total.Usd() + " of " + t.amount.Usd() + "."
			t.amount, t.code = o.Total, reference.IRPartiallyApproved
		}
		code = st.cardFundsCode(sn, n, t.amount, a.auth.Cash, now)
	default:
		note += " No decision from the platform (" + o.Reason + "): default decisioning."
		code = st.cardFundsCode(sn, n, t.amount, a.auth.Cash, now)
	}
	return st.storeSwipe(sn, t, a.auth.Hold, code, note).public(), nil
}
