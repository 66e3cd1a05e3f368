package bank

import (
	"math"
	"strconv"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// Money limits. Every amount the fake accepts is at most MaxAmountCents and
// every node's balance stays within ±MaxBalanceCents, so no sum the fake
// keeps (a balance, the pending debits or in-flight debits of a node, a
// batch, the fees of a transaction) comes near the range of int64.
const (
	// MaxAmountCents is documented at synapsefake.MaxAmountCents.
	MaxAmountCents = 1_000_000_000_00
	// MaxBalanceCents is documented at synapsefake.MaxBalanceCents.
	MaxBalanceCents = 1_000_000_000_000_000_00
)

// Cents is an amount of money in integer cents; on the wire it is a USD number.
type Cents int64

// MarshalJSON writes the amount in dollars, as short as it is exact: 1234 -> 12.34.
func (c Cents) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }

// ToCents converts a wire amount in USD to cents, rounding half away from zero.
func ToCents(usd float64) Cents {
	if usd < 0 {
		return -ToCents(-usd)
	}
	return Cents(usd*100 + 0.5)
}

// hasSubCents reports whether a USD amount has more than two decimals. The
// shortest decimal form that reads back as usd is the number the client
// wrote (12.34, not 12.339999...); its decimals are counted there, since
// usd*100 is off by more than any fixed epsilon for large amounts.
func hasSubCents(usd float64) bool {
	s := strconv.FormatFloat(usd, 'f', -1, 64)
	_, frac, ok := strings.Cut(s, ".")
	return ok && len(frac) > 2
}

// ValidAmount reports whether a wire amount in USD is one the fake moves:
// from 0.01 to MaxAmountCents/100, in whole cents.
func ValidAmount(usd float64) bool {
	return !math.IsNaN(usd) && usd >= 0.01 && usd <= MaxAmountCents/100 && !hasSubCents(usd)
}

// plus returns c+d and whether the sum is within ±MaxBalanceCents (false
// also when it would overflow int64).
func (c Cents) plus(d Cents) (Cents, bool) {
	s := c + d
	if (s > c) != (d > 0) {
		return 0, false
	}
	return s, s >= -MaxBalanceCents && s <= MaxBalanceCents
}

// errInvalidAmount refuses an amount ValidAmount does not accept; field is
// its name in the request.
func errInvalidAmount(field string) *apierr.Error {
	return apierr.Payload("invalid_amount", "%s must be a number from 0.01 to %s with at most two decimals.", field, Cents(MaxAmountCents).Usd())
}

// errInsufficientFunds refuses a debit over the sender's available balance.
func errInsufficientFunds(nodeID string) *apierr.Error {
	return apierr.Incorrect("insufficient_funds", "Insufficient funds in node %s.", nodeID)
}

// errBalanceLimit refuses a move that would take a node's balance past
// ±MaxBalanceCents.
func errBalanceLimit(nodeID string) *apierr.Error {
	return apierr.Incorrect("balance_limit", "Node %s would pass the balance limit of %s USD.", nodeID, Cents(MaxBalanceCents).Usd())
}

// Usd formats c as the wire writes it: 1234 -> "12.34".
func (c Cents) Usd() string {
	b, _ := c.MarshalJSON()
	return string(b)
}

// ValidCardAmount refuses an amount that is not from 1 to MaxAmountCents.
func ValidCardAmount(field string, amount int64) error {
	if amount <= 0 || amount > MaxAmountCents {
		return apierr.Payload("invalid_amount", "%s must be from 1 to MaxAmountCents (%d).", field, int64(MaxAmountCents))
	}
	return nil
}
