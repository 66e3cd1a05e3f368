package synapsefake

import (
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// CardAuthorization simulates a swipe of a card subnet. An approved swipe
// creates a transaction from the card's node to the card network's
// INTERCHANGE-US node that follows the normal state machine. A declined
// swipe is recorded as a RETURNED transaction, no money moved, with
// recent_status.code set, and is returned without an error. The rules,
// first match wins:
//
//	DeclineWith set                               -> that code
//	card's node deleted                           -> IR175 account closed
//	card's user LOCKED, CLOSED or MAKE-IT-GO-AWAY -> IR62 card restricted
//	card TERMINATED                               -> IR62 card restricted
//	card INACTIVE                                 -> IR04 card not activated
//	fake clock past the card's exp date           -> IR54 card expired
//	Cash and allow_cash_transactions false        -> IR57 not permitted to cardholder
//	Foreign and allow_foreign_transactions false  -> IR57 not permitted to cardholder
//	amount over the node's available balance      -> IR51 insufficient funds
//	  (its balance less approved swipes and
//	  transactions not yet debited)
//	today's approved swipes + amount over daily_transaction_limit -> IR185
//	Cash: today's approved cash + amount over daily_cash_limit    -> IR185
//
// "Today" is the fake clock's UTC day; only today's swipes that were
// approved and not since canceled or returned count toward the limits. An
// error means the swipe could not be made at all: an unknown subnet, one
// that is not a card, an amount that is not from 1 to MaxAmountCents or an
// unknown DeclineWith code.
//
// When an active subscription holds TRANS|POST|JIT, a swipe that passes
// the rules down to IR57 is first put to the platform (transaction
// decisioning, jit.go): CardAuthorization then waits, holding no lock, for
// its answer, at most the JIT deadline.
func (s *Server) CardAuthorization(subnetID string, auth CardAuth) (Transaction, error) {
	if err := validCardAmount("AmountCents", auth.AmountCents); err != nil {
		return Transaction{}, err
	}
	if auth.DeclineWith != "" {
		if _, ok := reference.InterchangeMeaning(auth.DeclineWith); !ok {
			return Transaction{}, apierr.Payload("invalid_code", "Unknown IR code %q.", auth.DeclineWith)
		}
	}
	s.runDue()
	now := s.Now()
	ask, tx, err := s.store.startSwipe(subnetID, auth, now)
	if err != nil || ask == nil {
		return tx, err
	}
	return s.store.finishSwipe(ask, s.askPlatform(ask), now)
}
