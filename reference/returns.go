package reference

import (
	"strconv"
	"time"
)

// ACH return codes the fake uses, named after their NACHA meanings.
const (
	ReturnInsufficientFunds      = "R01" // insufficient funds
	ReturnAccountClosed          = "R02" // account closed
	ReturnNoAccount              = "R03" // no account
	ReturnInvalidAccountNumber   = "R04" // invalid account number
	ReturnUnauthorizedDebit      = "R05" // unauthorized debit
	ReturnPerODFI                = "R06" // returned per ODFI
	ReturnAuthorizationRevoked   = "R07" // authorization revoked
	ReturnPaymentStopped         = "R08" // payment stopped
	ReturnUncollectedFunds       = "R09" // uncollected funds
	ReturnNotAuthorized          = "R10" // not authorized
	ReturnAccountFrozen          = "R16" // account frozen
	ReturnNonTransactionAccount  = "R20" // non-transaction account
	ReturnCreditRefused          = "R23" // credit entry refused by receiver
	ReturnCorporateNotAuthorized = "R29" // corporate not authorized
)

// Wire return codes. The service never published its WRxx codes; these are the fake's.
const (
	WireReturnAccountClosed           = "WR01" // beneficiary account closed
	WireReturnNoAccount               = "WR02" // beneficiary account not found
	WireReturnInvalidAccountNumber    = "WR03" // invalid beneficiary account number
	WireReturnNameMismatch            = "WR04" // beneficiary name does not match account
	WireReturnInvalidRoutingNumber    = "WR05" // invalid routing number
	WireReturnPerOriginator           = "WR06" // returned at the originator's request
	WireReturnRefusedByBeneficiary    = "WR07" // refused by the beneficiary bank
	WireReturnDuplicate               = "WR08" // duplicate wire
	WireReturnComplianceReject        = "WR09" // rejected by compliance review
	WireReturnInvalidWireInstructions = "WR10" // missing or invalid wire instructions
)

// achReturnCodes is every return reason code NACHA defines between R01 and R85 (R48, R49,
// R54-R60 and R63-R66 are not defined). Meanings are short lower-case forms of NACHA's
// titles; those FIDELITY.md names are worded exactly as it words them.
var achReturnCodes = []Code{
	{"R01", "insufficient funds"},
	{"R02", "account closed"},
	{"R03", "no account"},
	{"R04", "invalid account number"},
	{"R05", "unauthorized debit"},
	{"R06", "returned per ODFI"},
	{"R07", "authorization revoked"},
	{"R08", "payment stopped"},
	{"R09", "uncollected funds"},
	{"R10", "not authorized"},
	{"R11", "entry not in accordance with the terms of the authorization"},
	{"R12", "account sold to another DFI"},
	{"R13", "invalid ACH routing number"},
	{"R14", "representative payee deceased"},
	{"R15", "beneficiary or account holder deceased"},
	{"R16", "account frozen"},
	{"R17", "file record edit criteria"},
	{"R18", "improper effective entry date"},
	{"R19", "amount field error"},
	{"R20", "non-transaction account"},
	{"R21", "invalid company identification"},
	{"R22", "invalid individual ID number"},
	{"R23", "credit entry refused by receiver"},
	{"R24", "duplicate entry"},
	{"R25", "addenda error"},
	{"R26", "mandatory field error"},
	{"R27", "trace number error"},
	{"R28", "routing number check digit error"},
	{"R29", "corporate not authorized"},
	{"R30", "RDFI not participant in check truncation program"},
	{"R31", "permissible return entry"},
	{"R32", "RDFI non-settlement"},
	{"R33", "return of XCK entry"},
	{"R34", "limited participation DFI"},
	{"R35", "return of improper debit entry"},
	{"R36", "return of improper credit entry"},
	{"R37", "source document presented for payment"},
	{"R38", "stop payment on source document"},
	{"R39", "improper source document"},
	{"R40", "return of ENR entry by federal government agency"},
	{"R41", "invalid transaction code (ENR)"},
	{"R42", "routing number or check digit error (ENR)"},
	{"R43", "invalid DFI account number (ENR)"},
	{"R44", "invalid individual ID number (ENR)"},
	{"R45", "invalid individual or company name (ENR)"},
	{"R46", "invalid representative payee indicator (ENR)"},
	{"R47", "duplicate enrollment (ENR)"},
	{"R50", "state law affecting RCK acceptance"},
	{"R51", "item related to RCK entry is ineligible or RCK entry is improper"},
	{"R52", "stop payment on item related to RCK entry"},
	{"R53", "item and RCK entry presented for payment"},
	{"R61", "misrouted return"},
	{"R62", "return of erroneous or reversing debit"},
	{"R67", "duplicate return"},
	{"R68", "untimely return"},
	{"R69", "field errors"},
	{"R70", "permissible return entry not accepted"},
	{"R71", "misrouted dishonored return"},
	{"R72", "untimely dishonored return"},
	{"R73", "timely original return"},
	{"R74", "corrected return"},
	{"R75", "return not a duplicate"},
	{"R76", "no errors found"},
	{"R77", "non-acceptance of R62 dishonored return"},
	{"R80", "IAT entry coding error"},
	{"R81", "non-participant in IAT program"},
	{"R82", "invalid foreign receiving DFI identification"},
	{"R83", "foreign receiving DFI unable to settle"},
	{"R84", "entry not processed by gateway"},
	{"R85", "incorrectly coded outbound international payment"},
}

// wireReturnCodes is the fake's own list of wire return codes.
var wireReturnCodes = []Code{
	{WireReturnAccountClosed, "beneficiary account closed"},
	{WireReturnNoAccount, "beneficiary account not found"},
	{WireReturnInvalidAccountNumber, "invalid beneficiary account number"},
	{WireReturnNameMismatch, "beneficiary name does not match account"},
	{WireReturnInvalidRoutingNumber, "invalid routing number"},
	{WireReturnPerOriginator, "returned at the originator's request"},
	{WireReturnRefusedByBeneficiary, "refused by the beneficiary bank"},
	{WireReturnDuplicate, "duplicate wire"},
	{WireReturnComplianceReject, "rejected by compliance review"},
	{WireReturnInvalidWireInstructions, "missing or invalid wire instructions"},
}

// ReturnWindow is how long after settlement NACHA lets a receiving bank
// return an entry with a code: BusinessDays banking days, or CalendarDays
// calendar days; exactly one of the two is set.
type ReturnWindow struct {
	BusinessDays int
	CalendarDays int
}

// String names the window: "2 banking days" or "60 calendar days".
func (w ReturnWindow) String() string {
	if w.CalendarDays > 0 {
		return strconv.Itoa(w.CalendarDays) + " calendar days"
	}
	return strconv.Itoa(w.BusinessDays) + " banking days"
}

// Deadline is the last moment a return in window w of an entry settled at
// settled is in time: the end (24:00 Eastern time) of the last day of the
// window, counted from the settlement date in Eastern time.
func (w ReturnWindow) Deadline(settled time.Time) time.Time {
	d := StartOfDay(settled)
	if w.CalendarDays > 0 {
		d = d.AddDate(0, 0, w.CalendarDays)
	} else {
		d = StartOfDay(AddBusinessDays(d, w.BusinessDays))
	}
	return d.AddDate(0, 0, 1).Add(-time.Millisecond)
}

// extendedReturnCodes are NACHA's extended-return codes: unauthorized,
// revoked or improper consumer debits, which a receiving bank may return up
// to 60 calendar days after settlement. R29 (corporate customer advises not
// authorized) is not one: NACHA gives unauthorized corporate debits the
// ordinary two banking days.
var extendedReturnCodes = map[string]bool{
	"R05": true, "R07": true, "R10": true, "R11": true,
	"R37": true, "R38": true, "R51": true, "R52": true, "R53": true,
}

// ACHReturnWindow is NACHA's return window of an ACH return code (Rxx): 60
// calendar days after settlement for the extended-return codes (R05, R07,
// R10, R11, R37, R38, R51, R52, R53), two banking days for every other. It
// reports false for a code that is not an ACH return code (card IRxx and
// wire WRxx returns have no window in the fake).
func ACHReturnWindow(code string) (ReturnWindow, bool) {
	if len(code) != 3 || code[0] != 'R' || !IsReturnCode(code) {
		return ReturnWindow{}, false
	}
	if extendedReturnCodes[code] {
		return ReturnWindow{CalendarDays: 60}, true
	}
	return ReturnWindow{BusinessDays: 2}, true
}
