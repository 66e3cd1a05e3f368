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
