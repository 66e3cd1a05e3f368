package synapsefake

import (
	"net/http"
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

// AuthorizationHoldDays is how long a held card authorization (CardAuth.Hold)
// lasts: when the fake's clock passes the swipe plus this many days, the
// hold is released and the transaction CANCELED with IR154 ("authorization
// life cycle expired"), unless it was cleared or reversed first. Visa and
// Mastercard let most holds stand about seven days.
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
	original   cents     // the amount of the swipe
	authorized cents     // original, plus increments, less partial reversals
	// changes are the amounts the transaction showed, oldest first: a
	// view of a timeline of n entries shows the last change whose entries
	// is at most n, or original.
	changes []amountChange
}

// amountChange is a change of a card transaction's amount.
type amountChange struct {
	Entries    int // the timeline's length once the change was made
	Amount     cents
	Authorized cents
}

// holding reports whether c is a hold that stands while its transaction is
// in status s. A nil c holds nothing.
func (c *cardLife) holding(s Status) bool { return c != nil && c.hold && holdsAuthorization(s) }

// show returns the amount a view of a timeline of n entries shows and adds
// the authorization's fields to its extra.other: authorized_amount (USD)
// and, for a hold, hold_expires_on (ms).
func (c *cardLife) show(n int, other map[string]any) cents {
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
		other["hold_expires_on"] = ms(c.expires)
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
func (st *store) scheduleExpiry(t *txRecord) {
	st.seq++
	st.steps.push(step{at: t.card.expires, seq: st.seq, txID: t.id, gen: t.gen, to: StatusCanceled, code: codeHoldExpired})
}

// heldSwipe refuses a transaction that is not an approved card
// authorization still holding its amount. Callers hold mu.
func (st *store) heldSwipe(t *txRecord) error {
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
func (st *store) changeAmount(t *txRecord, amount, authorized cents, at time.Time, note string) {
	c := lifeOf(t)
	st.nodes[t.fromNode].pending += amount - t.amount
	t.amount, c.authorized = amount, authorized
	t.timeline = append(t.timeline, statusEntry{Date: ms(at), Note: note, Status: t.status})
	c.changes = append(c.changes, amountChange{Entries: len(t.timeline), Amount: amount, Authorized: authorized})
	st.emitTx(at, "TRAN|PATCH", t)
}

// walkNoted walks t from CREATED to SETTLED, the first entry with note.
// Callers hold mu.
func (st *store) walkNoted(t *txRecord, at time.Time, note string) error {
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
func (st *store) cardSubnet(subnetID string) (*subnetRecord, *nodeRecord, error) {
	sn := st.subnets[subnetID]
	if sn == nil {
		return nil, nil, apierr.NotFound("subnet")
	}
	if sn.class != ClassCard {
		return nil, nil, apierr.NotAllowed("not_a_card", "Subnet %s is not a card.", subnetID)
	}
	return sn, st.nodes[sn.nodeID], nil
}

// controlAmount decodes a lifecycle body; a route without a merchant
// refuses one.
func controlAmount(r *http.Request, merchant bool) (controlAmountRequest, error) {
	req, err := controlBody[controlAmountRequest](r)
	if err == nil && req.Merchant != "" && !merchant {
		err = apierr.Payload("unknown_field", `Unknown field "merchant".`)
	}
	return req, err
}
