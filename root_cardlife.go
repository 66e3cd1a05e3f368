package synapsefake

import (
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// IncrementAuthorization raises a card authorization that still holds its
// amount (CREATED) by amountCents, as a hotel or a car rental does: the
// amount and the hold grow, the available balance drops by amountCents, and
// the timeline gains a CREATED entry. The increment is checked like a swipe
// of amountCents (the card's status, the available balance, the daily
// limits counting the authorization's current amount); a declined increment
// is refused with 409 / "400" authorization_declined naming the IR code, and
// the authorization stands as it was. A hold's expiry does not move.
func (s *Server) IncrementAuthorization(id string, amountCents int64) error {
	return s.withHeld(id, amountCents, func(st *store, t *txRecord, inc cents, now time.Time) error {
		total, ok := t.amount.plus(inc)
		if !ok || total > MaxAmountCents {
			return apierr.Payload("invalid_amount", "The authorization would pass MaxAmountCents (%d).", int64(MaxAmountCents))
		}
		subnetID, _ := t.fromMeta["subnet_id"].(string)
		sn := st.subnets[subnetID]
		if sn == nil {
			return apierr.NotFound("subnet")
		}
		if code := st.declineCode(sn, st.nodes[t.fromNode], inc, CardAuth{Cash: t.cash}, now); code != "" {
			return apierr.Incorrect("authorization_declined", "Incremental authorization declined: %s", defaultNote(StatusReturned, code))
		}
		authorized := lifeOf(t).authorized + inc
		st.changeAmount(t, total, authorized, now, "Authorization increased by "+inc.usd()+" to "+total.usd()+".")
		return nil
	})
}

// ReverseAuthorization releases amountCents of a card authorization that
// still holds its amount (CREATED), as a merchant does when an order
// shrinks or is called off. Less than the held amount is a partial
// reversal: the amount and the hold shrink, the available balance grows
// back by amountCents, and the timeline gains a CREATED entry. The whole
// held amount is a full reversal: the transaction is CANCELED with IR17
// ("customer cancelled or reversed") and the hold released. More than the
// held amount is refused with 400 / "200".
func (s *Server) ReverseAuthorization(id string, amountCents int64) error {
	return s.withHeld(id, amountCents, func(st *store, t *txRecord, rev cents, now time.Time) error {
		switch {
		case rev > t.amount:
			return apierr.Payload("invalid_amount", "Cannot reverse %s of an authorization holding %s.", rev.usd(), t.amount.usd())
		case rev == t.amount:
			return st.move(t, StatusCanceled, now, "", codeReversed)
		}
		rest := t.amount - rev
		st.changeAmount(t, rest, lifeOf(t).authorized-rev, now, "Authorization partially reversed by "+rev.usd()+" to "+rest.usd()+".")
		return nil
	})
}

// ClearAuthorization clears a card authorization that still holds its
// amount (CREATED) for amountCents, which may be more (a tip, a fuel pump's
// final amount) or less than what was authorized: the hold becomes the
// debit of amountCents, and the transaction walks at once through
// PROCESSING-DEBIT (its note names both amounts), PROCESSING-CREDIT and
// SETTLED, each with its TRAN|PATCH showing amount.amount = the cleared
// amount and extra.other.authorized_amount = the authorized one. Clearing
// cannot be declined: a clearing over the available balance takes the
// node's available balance below zero. Only the balance limits refuse it
// (409 / "400" balance_limit).
func (s *Server) ClearAuthorization(id string, amountCents int64) error {
	return s.withHeld(id, amountCents, func(st *store, t *txRecord, amount cents, now time.Time) error {
		from := st.nodes[t.fromNode]
		if amount > t.amount && !from.fits(t.amount-amount) {
			return errBalanceLimit(from.id)
		}
		c := lifeOf(t)
		note := "Cleared for " + amount.usd() + ", authorized " + c.authorized.usd() + "."
		from.pending += amount - t.amount
		t.amount = amount
		// The change shows from the clearing's first entry on.
		c.changes = append(c.changes, amountChange{Entries: len(t.timeline) + 1, Amount: amount, Authorized: c.authorized})
		return st.walkNoted(t, now, note)
	})
}

// withHeld runs fn on a card authorization that still holds its amount,
// with a valid amount and the time of the call, under the store's lock.
func (s *Server) withHeld(id string, amountCents int64, fn func(st *store, t *txRecord, amount cents, now time.Time) error) error {
	if err := validCardAmount("amountCents", amountCents); err != nil {
		return err
	}
	now := s.Now()
	return s.withTx(id, func(st *store, t *txRecord) error {
		if err := st.heldSwipe(t); err != nil {
			return err
		}
		return fn(st, t, cents(amountCents), now)
	})
}

// ForcePost clears a card purchase that was never authorized, as a merchant
// that was offline or below its floor limit does: a transaction of
// auth.AmountCents from the card's node to the card network, with
// from.meta.is_force_post true and extra.other.authorized_amount 0, made
// and walked to SETTLED at once (TRANS|POST, then a TRAN|PATCH per step).
// A force post cannot be declined: the card's rules are not applied and it
// may take the node's available balance below zero; it does count toward
// the card's daily limits for later swipes. AmountCents must be from 1 to
// MaxAmountCents; DeclineWith and Hold must be unset. A card whose node is
// deleted (node_inactive) or whose user is locked (user_locked) takes none.
func (s *Server) ForcePost(subnetID string, auth CardAuth) (Transaction, error) {
	if err := validCardAmount("AmountCents", auth.AmountCents); err != nil {
		return Transaction{}, err
	}
	if auth.DeclineWith != "" || auth.Hold {
		return Transaction{}, apierr.Payload("invalid_force_post", "A force post has no authorization: DeclineWith and Hold must be unset.")
	}
	amount := cents(auth.AmountCents)
	return s.postCard(subnetID, func(st *store, sn *subnetRecord, n *nodeRecord, now time.Time) (*txRecord, string) {
		t := st.swipeRecord(sn, n, amount, auth, now, true)
		t.other = map[string]any{"approved": true, "affect_limits": true}
		t.card = &cardLife{forcePost: true, original: amount}
		return t, "Force post cleared without authorization."
	})
}

// RefundCard credits a card's node with a merchant's refund: a transaction
// of amountCents from the card network's INTERCHANGE-US node to the card's
// node, with extra.other.is_refund true, made and walked to SETTLED at once
// (TRANS|POST, then a TRAN|PATCH per step), so the node's balance and
// available balance grow by amountCents. Refunds are not purchases: they do
// not count toward the card's limits and are made whatever the card's
// status, though not to a deleted node (node_inactive) or a locked user's
// (user_locked). amountCents must be from 1 to MaxAmountCents; merchant ""
// is SYNAPSEFAKE MERCHANT.
func (s *Server) RefundCard(subnetID string, amountCents int64, merchant string) (Transaction, error) {
	if err := validCardAmount("amountCents", amountCents); err != nil {
		return Transaction{}, err
	}
	return s.postCard(subnetID, func(st *store, sn *subnetRecord, n *nodeRecord, now time.Time) (*txRecord, string) {
		t := st.swipeRecord(sn, n, cents(amountCents), CardAuth{Merchant: merchant}, now, false)
		t.fromNode, t.toNode, t.cardSwipe = t.toNode, t.fromNode, false
		t.other = map[string]any{"is_refund": true}
		return t, "Refund from " + t.note + "."
	})
}

// postCard stores the transaction build makes for a card and walks it to
// SETTLED at once, its first move noted: a force post or a refund, made by
// the service itself (BACKEND).
func (s *Server) postCard(subnetID string, build func(st *store, sn *subnetRecord, n *nodeRecord, now time.Time) (*txRecord, string)) (Transaction, error) {
	s.runDue()
	now := s.Now()
	st := s.store
	defer st.lock().unlock()
	defer st.asBackend()()
	sn, n, err := st.cardSubnet(subnetID)
	if err != nil {
		return Transaction{}, err
	}
	if err := st.accountOpen(n); err != nil {
		return Transaction{}, err
	}
	t, note := build(st, sn, n, now)
	if err := st.checkPromise(t, false); err != nil {
		return Transaction{}, err
	}
	st.addTx(t, statusEntry{Date: ms(now), Note: "Transaction Created.", Status: StatusCreated})
	sn.txIDs = append(sn.txIDs, t.id)
	_ = st.walkNoted(t, now, note)
	return t.public(), nil
}
