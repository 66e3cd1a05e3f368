package reference

// IRChargeback is the return code of a card chargeback: an INTERCHANGE-US
// transaction returned with it may be disputed by the platform
// (PATCH /trans/{trans_id}/dispute-chargeback) within ChargebackDisputeDays.
// The spec's IR table stops at IR200; the docs name this code apart.
const IRChargeback = "IR999"

// ChargebackDisputeDays is how many days after its return a chargeback may
// be disputed, as the docs give it.
const ChargebackDisputeDays = 14

// Dispute reasons that the docs single out: a debit disputed with one of
// them gets a provisional credit at once.
const (
	DisputeReturnedMerchandise = "MERCHANT|RETURNED_MERCH"
	DisputeDefectOrNotAsDesc   = "MERCHANT|DEFECT_OR_NOT_AS_DESC"
)

// ProvisionalCreditLimitCents is the amount up to which every disputed debit
// gets a provisional credit whatever its reason: $25.00, the cost of filing
// a dispute, as the docs give it.
const ProvisionalCreditLimitCents = 2500

// Filing windows of a user's dispute of a debit, in calendar days after the
// debit settled (the card disputes guide, as ../shared/spec/FIDELITY.md
// quotes it). A card transaction has CardDisputeDays; an ACH debit has
// ACHDisputeDays, the window of the unauthorized-consumer-debit family (R05,
// R07, R10...), since a user disputing a debit says it was unauthorized or
// wrong, and the 2-banking-day family is a bank's return, not a user's
// dispute. Other rails (wires, checks, EXTERNAL-US) have OtherDisputeDays,
// the fake's choice: Regulation E's 60 days.
const (
	CardDisputeDays  = 120
	ACHDisputeDays   = 60
	OtherDisputeDays = 60
)

// DisputeWindowDays is the filing window, in calendar days after
// settlement, of a user's dispute of a debit to a node of type nodeType;
// card is true for a card swipe whatever the receiving node.
func DisputeWindowDays(nodeType string, card bool) int {
	switch {
	case card || nodeType == NodeInterchangeUS:
		return CardDisputeDays
	case nodeType == NodeACHUS:
		return ACHDisputeDays
	}
	return OtherDisputeDays
}

// Provisional credit waits ProvisionalCreditDays business days after the
// dispute is filed for an account older than NewAccountDays calendar days,
// NewAccountProvisionalCreditDays business days for a newer one (the card
// disputes guide gives 3 and 15; it does not say which days the 15 are, and
// the fake counts business days, as it does the 3).
const (
	ProvisionalCreditDays           = 3
	NewAccountProvisionalCreditDays = 15
	NewAccountDays                  = 30
)
