// A card authorization's life, the bank's side: holds, increments, reversals, expiries.

package bank

import (
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// The card lifecycle beyond approve and decline. A card transaction has two
// stages, authorization and clearing, as the service's guide to card
// transactions describes them: the authorization holds the amount on the
// card's node (the available balance drops, the balance does not), and the
// clearing moves the money, possibly for another amount (a tip, a fuel
// pump). Clearing is not a status of its own: it is the authorization's
// walk to SETTLED, dated at the clearing, and its TRAN|PATCH webhooks show
// the cleared amount in amount.amount. While the hold stands the amount
// may be raised (an incremental authorization) or partly released (a
// partial reversal); these change the amount, not the status, and append a
// CREATED timeline entry saying so, with its TRAN|PATCH.

// AuthorizationHoldDays is documented at synapsefake.AuthorizationHoldDays.
const AuthorizationHoldDays = 7

// Codes of the card lifecycle's moves, from the interchange table.
const (
	// codeHoldExpired is recent_status.code of a hold that lapsed.
	codeHoldExpired = "IR154" // authorization life cycle expired
	// codeReversed is recent_status.code of a fully reversed authorization.
	codeReversed = "IR17" // customer cancelled or reversed
)

// cardLife is the lifecycle of a card authorization whose amount changed or
// that holds its amount until cleared.
type cardLife struct {
	hold       bool      // CardAuth.Hold: no automatic processing while CREATED
	expires    time.Time // when a hold lapses
	forcePost  bool      // cleared without an authorization
	original   Cents     // the amount of the swipe
	authorized Cents     // original, plus increments, less partial reversals
	// changes are the amounts the transaction showed, oldest first: a
	// view of a timeline of n entries shows the last change whose entries
	// is at most n, or original.
	changes []amountChange
}

// amountChange is a change of a card transaction's amount.
type amountChange struct {
	Entries    int // the timeline's length once the change was made
	Amount     Cents
	Authorized Cents
}

// holding reports whether c is a hold that stands while its transaction is
// in status s. A nil c holds nothing.
func (c *cardLife) holding(s Status) bool { return c != nil && c.hold && holdsAuthorization(s) }

// show returns the amount a view of a timeline of n entries shows and adds
// the authorization's fields to its extra.other: authorized_amount (USD)
// and, for a hold, hold_expires_on (ms).
func (c *cardLife) show(n int, other map[string]any) Cents {
	amount, authorized := c.original, c.original
	if c.forcePost {
		authorized = 0
	}
	for _, ch := range c.changes {
		if ch.Entries > n {
			break
		}
		amount, authorized = ch.Amount, ch.Authorized
	}
	other["authorized_amount"] = authorized
	if c.hold {
		other["hold_expires_on"] = Ms(c.expires)
	}
	return amount
}

// lifeOf returns t's lifecycle record, starting one for a swipe that had
// none. Callers hold mu.
func lifeOf(t *txRecord) *cardLife {
	if t.card == nil {
		t.card = &cardLife{original: t.amount, authorized: t.amount}
	}
	return t.card
}

// scheduleExpiry queues the lapse of t's hold. Callers hold mu.
func (st *Store) scheduleExpiry(t *txRecord) {
	st.seq++
	st.steps.push(step{at: t.card.expires, seq: st.seq, txID: t.id, gen: t.gen, to: StatusCanceled, code: codeHoldExpired})
}

// heldSwipe refuses a transaction that is not an approved card
// authorization still holding its amount. Callers hold mu.
func (st *Store) heldSwipe(t *txRecord) error {
	if !t.cardSwipe || t.other["approved"] != true || t.card != nil && t.card.forcePost {
		return apierr.NotAllowed("not_a_card_authorization", "Transaction %s is not a card authorization.", t.id)
	}
	if !holdsAuthorization(t.status) {
		return apierr.NotAllowed("authorization_not_held",
			"Transaction %s is %s: only a card authorization in %v holds its amount.", t.id, t.status, holdStatuses)
	}
	return nil
}

// changeAmount sets a held authorization's amount (and what it authorizes)
// with a CREATED timeline entry and a TRAN|PATCH. Callers hold mu.
func (st *Store) changeAmount(t *txRecord, amount, authorized Cents, at time.Time, note string) {
	c := lifeOf(t)
	st.nodes[t.fromNode].pending += amount - t.amount
	t.amount, c.authorized = amount, authorized
	t.timeline = append(t.timeline, statusEntry{Date: Ms(at), Note: note, Status: t.status})
	c.changes = append(c.changes, amountChange{Entries: len(t.timeline), Amount: amount, Authorized: authorized})
	st.emitTx(at, "TRAN|PATCH", t)
}

// walkNoted walks t from CREATED to SETTLED, the first entry with note.
// Callers hold mu.
func (st *Store) walkNoted(t *txRecord, at time.Time, note string) error {
	for _, to := range processingPath[1:] {
		if err := st.move(t, to, at, note, ""); err != nil {
			return err
		}
		if t.status != to { // the processing rules redirected it (a CREDIT-only sender cancels)
			return nil
		}
		note = ""
	}
	return nil
}

// cardSubnet returns a card subnet and its node, or the refusal. Callers
// hold mu.
func (st *Store) cardSubnet(subnetID string) (*subnetRecord, *nodeRecord, error) {
	sn := st.subnets[subnetID]
	if sn == nil {
		return nil, nil, apierr.NotFound("subnet")
	}
	if sn.class != ClassCard {
		return nil, nil, apierr.NotAllowed("not_a_card", "Subnet %s is not a card.", subnetID)
	}
	return sn, st.nodes[sn.nodeID], nil
}

// IncrementAuthorization is documented at synapsefake.Server.IncrementAuthorization.
func (s *Bank) IncrementAuthorization(id string, amountCents int64) error {
	return s.withHeld(id, amountCents, func(st *Store, t *txRecord, inc Cents, now time.Time) error {
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
		st.changeAmount(t, total, authorized, now, "Authorization increased by "+inc.Usd()+" to "+total.Usd()+".")
		return nil
	})
}

// ReverseAuthorization is documented at synapsefake.Server.ReverseAuthorization.
func (s *Bank) ReverseAuthorization(id string, amountCents int64) error {
	return s.withHeld(id, amountCents, func(st *Store, t *txRecord, rev Cents, now time.Time) error {
		switch {
		case rev > t.amount:
			return apierr.Payload("invalid_amount", "Cannot reverse %s of an authorization holding %s.", rev.Usd(), t.amount.Usd())
		case rev == t.amount:
			return st.move(t, StatusCanceled, now, "", codeReversed)
		}
		rest := t.amount - rev
		st.changeAmount(t, rest, lifeOf(t).authorized-rev, now, "Authorization partially reversed by "+rev.Usd()+" to "+rest.Usd()+".")
		return nil
	})
}

// ClearAuthorization is documented at synapsefake.Server.ClearAuthorization.
func (s *Bank) ClearAuthorization(id string, amountCents int64) error {
	return s.withHeld(id, amountCents, func(st *Store, t *txRecord, amount Cents, now time.Time) error {
		from := st.nodes[t.fromNode]
		if amount > t.amount && !from.fits(t.amount-amount) {
			return errBalanceLimit(from.id)
		}
		c := lifeOf(t)
		note := "Cleared for " + amount.Usd() + ", authorized " + c.authorized.Usd() + "."
		from.pending += amount - t.amount
		t.amount = amount
		// The change shows from the clearing's first entry on.
		c.changes = append(c.changes, amountChange{Entries: len(t.timeline) + 1, Amount: amount, Authorized: c.authorized})
		return st.walkNoted(t, now, note)
	})
}

// withHeld runs fn on a card authorization that still holds its amount,
// with a valid amount and the time of the call, under the store's lock.
func (s *Bank) withHeld(id string, amountCents int64, fn func(st *Store, t *txRecord, amount Cents, now time.Time) error) error {
	if err := ValidCardAmount("amountCents", amountCents); err != nil {
		return err
	}
	now := s.Now()
	return s.withTx(id, func(st *Store, t *txRecord) error {
		if err := st.heldSwipe(t); err != nil {
			return err
		}
		return fn(st, t, Cents(amountCents), now)
	})
}

// ForcePost is documented at synapsefake.Server.ForcePost.
func (s *Bank) ForcePost(subnetID string, auth CardAuth) (Transaction, error) {
	if err := ValidCardAmount("AmountCents", auth.AmountCents); err != nil {
		return Transaction{}, err
	}
	if auth.DeclineWith != "" || auth.Hold {
		return Transaction{}, apierr.Payload("invalid_force_post", "A force post has no authorization: DeclineWith and Hold must be unset.")
	}
	amount := Cents(auth.AmountCents)
	return s.postCard(subnetID, func(st *Store, sn *subnetRecord, n *nodeRecord, now time.Time) (*txRecord, string) {
		t := st.swipeRecord(sn, n, amount, auth, now, true)
		t.other = map[string]any{"approved": true, "affect_limits": true}
		t.card = &cardLife{forcePost: true, original: amount}
		return t, "Force post cleared without authorization."
	})
}

// RefundCard is documented at synapsefake.Server.RefundCard.
func (s *Bank) RefundCard(subnetID string, amountCents int64, merchant string) (Transaction, error) {
	if err := ValidCardAmount("amountCents", amountCents); err != nil {
		return Transaction{}, err
	}
	return s.postCard(subnetID, func(st *Store, sn *subnetRecord, n *nodeRecord, now time.Time) (*txRecord, string) {
		t := st.swipeRecord(sn, n, Cents(amountCents), CardAuth{Merchant: merchant}, now, false)
		t.fromNode, t.toNode, t.cardSwipe = t.toNode, t.fromNode, false
		t.other = map[string]any{"is_refund": true}
		return t, "Refund from " + t.note + "."
	})
}

// postCard stores the transaction build makes for a card and walks it to
// SETTLED at once, its first move noted: a force post or a refund, made by
// the service itself (BACKEND).
func (s *Bank) postCard(subnetID string, build func(st *Store, sn *subnetRecord, n *nodeRecord, now time.Time) (*txRecord, string)) (Transaction, error) {
	s.Up.RunDue()
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
	st.addTx(t, statusEntry{Date: Ms(now), Note: "Transaction Created.", Status: StatusCreated})
	sn.txIDs = append(sn.txIDs, t.id)
	_ = st.walkNoted(t, now, note)
	return t.public(), nil
}
