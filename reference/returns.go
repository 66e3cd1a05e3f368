package reference

import (
	"strconv"
	"strings"
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

// ReturnWindowKind is how a return window is counted.
type ReturnWindowKind int

// The kinds of return window.
const (
	// WindowNone: NACHA sets no fixed window (R06, returned at the
	// originating bank's request; R31, a permissible return of a CCD or CTX
	// entry the originator agreed to take back).
	WindowNone ReturnWindowKind = iota
	// WindowBankingDays: the return must reach the originating bank by the
	// opening of business (ReturnOpeningOfBusiness) on the Length-th banking
	// day after the settlement date.
	WindowBankingDays
	// WindowCalendarDays: the return may be made until the end (24:00
	// Eastern time) of the Length-th calendar day after the settlement date.
	WindowCalendarDays
)

// ReturnOpeningOfBusiness is the "opening of business" that closes a
// banking-day return window, as an Eastern wall-clock time: 08:30 ET,
// FedACH's first settlement of the day (the next-day items,
// FedACHNextDaySettlement), the first moment a return can reach the
// originating bank on a banking day. NACHA Operating Rules, Subsection
// 3.8.3.1 ("Return Entries ... must be made available to the ODFI no later
// than opening of business on the second Banking Day following the
// Settlement Date of the original Entry"); the rules leave the hour to the
// banks, and the fake takes the Fed's.
const ReturnOpeningOfBusiness = FedACHNextDaySettlement

// ReturnWindow is how long after settlement NACHA lets a receiving bank
// return an entry with a code: Length banking or calendar days (Kind), or
// no fixed window (WindowNone, the zero value).
type ReturnWindow struct {
	Kind   ReturnWindowKind
	Length int
}

// String names the window: "2 banking days", "60 calendar days" or "no
// fixed window".
func (w ReturnWindow) String() string {
	switch w.Kind {
	case WindowBankingDays:
		return strconv.Itoa(w.Length) + " banking days"
	case WindowCalendarDays:
		return strconv.Itoa(w.Length) + " calendar days"
	}
	return "no fixed window"
}

// Deadline is the last moment a return in window w of an entry settled at
// settled is in time, counted from the settlement date in Eastern time:
// opening of business (08:30 ET) on the last banking day, or the end
// (24:00 Eastern time) of the last calendar day. It reports false for a
// window with no deadline.
func (w ReturnWindow) Deadline(settled time.Time) (time.Time, bool) {
	d := StartOfDay(settled)
	switch w.Kind {
	case WindowBankingDays:
		return AtEastern(AddBusinessDays(d, w.Length), ReturnOpeningOfBusiness), true
	case WindowCalendarDays:
		return d.AddDate(0, 0, w.Length+1).Add(-time.Millisecond), true
	}
	return time.Time{}, false
}

// Shortest is the shortest time a window can hold after any settlement:
// from a settlement at the very end of a day, Length-1 whole days and the
// hours to the opening of business for banking days, Length days for
// calendar days. It reports false for a window with no deadline.
func (w ReturnWindow) Shortest() (time.Duration, bool) {
	switch w.Kind {
	case WindowBankingDays:
		return time.Duration(w.Length-1)*24*time.Hour + ReturnOpeningOfBusiness, true
	case WindowCalendarDays:
		return time.Duration(w.Length) * 24 * time.Hour, true
	}
	return 0, false
}

// achReturnWindows are the ACH return codes whose NACHA window is not the
// ordinary two banking days (NACHA Operating Rules, Appendix Four, which
// gives each code's time frame). The 60-calendar-day codes are the extended
// returns of unauthorized, revoked or improper consumer debits and of the
// check conversions (R33, a return of an XCK entry, Appendix Four). R29
// (corporate customer advises not authorized) is not one: NACHA gives
// unauthorized corporate debits the ordinary two banking days.
var achReturnWindows = map[string]ReturnWindow{
	"R05": {WindowCalendarDays, 60}, "R07": {WindowCalendarDays, 60}, "R10": {WindowCalendarDays, 60},
	"R11": {WindowCalendarDays, 60}, "R33": {WindowCalendarDays, 60}, "R37": {WindowCalendarDays, 60},
	"R38": {WindowCalendarDays, 60}, "R51": {WindowCalendarDays, 60}, "R52": {WindowCalendarDays, 60},
	"R53": {WindowCalendarDays, 60},
	"R06": {WindowNone, 0}, "R31": {WindowNone, 0},
}

// ACHReturnWindow is NACHA's return window of an ACH return code (Rxx): 60
// calendar days after settlement for the extended-return codes (R05, R07,
// R10, R11, R33, R37, R38, R51, R52, R53), no fixed window for R06 and R31,
// two banking days for every other. It reports false for a code that is not
// an ACH return code (card IRxx and wire WRxx returns have no window in the
// fake).
func ACHReturnWindow(code string) (ReturnWindow, bool) {
	if ReturnCodeRail(code) != NodeACHUS {
		return ReturnWindow{}, false
	}
	if w, ok := achReturnWindows[code]; ok {
		return w, true
	}
	return ReturnWindow{WindowBankingDays, 2}, true
}

// ReturnCodeRail is the node type of the rail a return code belongs to:
// ACH-US for NACHA's Rxx codes, INTERCHANGE-US for the card network's IRxx
// codes, WIRE-US for the wire WRxx codes, "" for a code that is not a
// return code.
func ReturnCodeRail(code string) string {
	switch {
	case !IsReturnCode(code):
		return ""
	case strings.HasPrefix(code, "IR"):
		return NodeInterchangeUS
	case strings.HasPrefix(code, "WR"):
		return NodeWireUS
	case strings.HasPrefix(code, "R"):
		return NodeACHUS
	}
	return ""
}
