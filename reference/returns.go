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
// titles; those the spec's FIDELITY.md names are worded exactly as it words them.
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
	// WindowBankingDaysEnd: the code may be sent until the end (24:00
	// Eastern time) of the Length-th banking day after the date its window
	// counts from: a dishonored return within five banking days after the
	// settlement date of the return, a contested dishonored return within
	// two banking days after the settlement date of the dishonor (NACHA
	// Operating Rules, Subsection 2.13.6 and Appendix Four).
	WindowBankingDaysEnd
	// WindowAtProcessing: the ACH Operator returns the entry as it
	// processes it, with the next file it delivers, before the entry
	// settles (Appendix Four's time frame for R13, R18 and R19: "next file
	// delivery time following processing"). The window closes at
	// settlement.
	WindowAtProcessing
	// WindowOnNotice: the receiving bank returns the entry when its
	// customer refuses it (R23, Appendix Four: "upon receipt of refusal"),
	// whenever that is; the fake takes the call that returns the entry as
	// the receiver's notice, so the window does not count from settlement.
	WindowOnNotice
)

// ReturnParty is who sends a return code.
type ReturnParty int

// The parties that send return codes.
const (
	// ReceivingBank: the receiving bank (RDFI) returns an entry it was
	// sent, and contests the dishonor of its return.
	ReceivingBank ReturnParty = iota
	// OriginatingBank: the originating bank (ODFI) dishonors a return.
	OriginatingBank
	// ACHOperator: the ACH Operator (FedACH) returns an entry it cannot
	// process.
	ACHOperator
)

// String names the party: "the receiving bank", "the originating bank",
// "the ACH Operator".
func (p ReturnParty) String() string {
	switch p {
	case OriginatingBank:
		return "the originating bank"
	case ACHOperator:
		return "the ACH Operator"
	}
	return "the receiving bank"
}

// ReturnSubject is what a return code acts on, and so where its window
// counts from.
type ReturnSubject int

// What return codes act on.
const (
	// OfEntry: the original entry, a return (R01...); the window counts
	// from the entry's settlement.
	OfEntry ReturnSubject = iota
	// OfReturn: a return, refused by the originating bank: a dishonored
	// return (R61, R62, R67-R70); the window counts from the return's
	// settlement.
	OfReturn
	// OfDishonor: a dishonored return, contested by the receiving bank: a
	// contested dishonored return (R71-R77); the window counts from the
	// dishonor's settlement.
	OfDishonor
)

// String names the subject: "an entry", "a return", "a dishonored return".
func (o ReturnSubject) String() string {
	switch o {
	case OfReturn:
		return "a return"
	case OfDishonor:
		return "a dishonored return"
	}
	return "an entry"
}

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

// ReturnWindow is NACHA's rule for an ACH return code: who sends it (By),
// what it acts on (Of, which also says where the window counts from) and
// how long after that the code may be sent: Length banking or calendar
// days (Kind), until settlement, from the receiver's notice, or no fixed
// window (WindowNone, the zero value). The zero value is an ordinary
// return by the receiving bank with no fixed window.
type ReturnWindow struct {
	Kind   ReturnWindowKind
	Length int
	By     ReturnParty
	Of     ReturnSubject
}

// String names the window: "2 banking days", "60 calendar days", "at
// processing, before settlement", "from the receiver's notice" or "no
// fixed window".
func (w ReturnWindow) String() string {
	switch w.Kind {
	case WindowBankingDays, WindowBankingDaysEnd:
		return strconv.Itoa(w.Length) + " banking days"
	case WindowCalendarDays:
		return strconv.Itoa(w.Length) + " calendar days"
	case WindowAtProcessing:
		return "at processing, before settlement"
	case WindowOnNotice:
		return "from the receiver's notice"
	}
	return "no fixed window"
}

// Deadline is the last moment a code with window w is in time, counted from
// from (the settlement of what the code acts on, Of) in Eastern time:
// opening of business (08:30 ET) on the last banking day, the end (24:00
// Eastern time) of the last calendar or banking day, or from itself for a
// window that closes at settlement. It reports false for a window with no
// deadline.
func (w ReturnWindow) Deadline(from time.Time) (time.Time, bool) {
	d := StartOfDay(from)
	switch w.Kind {
	case WindowBankingDays:
		return AtEastern(AddBusinessDays(d, w.Length), ReturnOpeningOfBusiness), true
	case WindowCalendarDays:
		return d.AddDate(0, 0, w.Length+1).Add(-time.Millisecond), true
	case WindowBankingDaysEnd:
		return StartOfDay(AddBusinessDays(d, w.Length)).AddDate(0, 0, 1).Add(-time.Millisecond), true
	case WindowAtProcessing:
		return from, true
	}
	return time.Time{}, false
}

// Shortest is the shortest time a window can hold after any settlement:
// from a settlement at the very end of a day, Length-1 whole days and the
// hours to the opening of business for banking days, Length days for
// calendar days and banking days counted to their end, nothing for a
// window that closes at settlement. It reports false for a window with no
// deadline.
func (w ReturnWindow) Shortest() (time.Duration, bool) {
	switch w.Kind {
	case WindowBankingDays:
		return time.Duration(w.Length-1)*24*time.Hour + ReturnOpeningOfBusiness, true
	case WindowCalendarDays, WindowBankingDaysEnd:
		return time.Duration(w.Length) * 24 * time.Hour, true
	case WindowAtProcessing:
		return 0, true
	}
	return 0, false
}

// achReturnWindows are the ACH return codes whose NACHA rule is not the
// ordinary return by the receiving bank within two banking days (NACHA
// Operating Rules, Appendix Four, which gives each code's time frame and
// who initiates it). The 60-calendar-day codes are the extended returns of
// unauthorized, revoked or improper consumer debits and of the check
// conversions (R33, a return of an XCK entry). R29 (corporate customer
// advises not authorized) is not one: NACHA gives unauthorized corporate
// debits the ordinary two banking days. R13, R18 and R19 are the ACH
// Operator's, at processing; R23 runs from the receiver's refusal. R61,
// R62 and R67-R70 are dishonored returns (R77, "non-acceptance of R62
// dishonored return", names R62 one), R71-R77 contested dishonored
// returns.
var achReturnWindows = map[string]ReturnWindow{
	"R05": {Kind: WindowCalendarDays, Length: 60}, "R07": {Kind: WindowCalendarDays, Length: 60},
	"R10": {Kind: WindowCalendarDays, Length: 60}, "R11": {Kind: WindowCalendarDays, Length: 60},
	"R33": {Kind: WindowCalendarDays, Length: 60}, "R37": {Kind: WindowCalendarDays, Length: 60},
	"R38": {Kind: WindowCalendarDays, Length: 60}, "R51": {Kind: WindowCalendarDays, Length: 60},
	"R52": {Kind: WindowCalendarDays, Length: 60}, "R53": {Kind: WindowCalendarDays, Length: 60},
	"R06": {Kind: WindowNone}, "R31": {Kind: WindowNone},
	"R13": {Kind: WindowAtProcessing, By: ACHOperator}, "R18": {Kind: WindowAtProcessing, By: ACHOperator},
	"R19": {Kind: WindowAtProcessing, By: ACHOperator},
	"R23": {Kind: WindowOnNotice},
	"R61": dishonoredReturn, "R62": dishonoredReturn, "R67": dishonoredReturn, "R68": dishonoredReturn,
	"R69": dishonoredReturn, "R70": dishonoredReturn,
	"R71": contestedDishonor, "R72": contestedDishonor, "R73": contestedDishonor, "R74": contestedDishonor,
	"R75": contestedDishonor, "R76": contestedDishonor, "R77": contestedDishonor,
}

var (
	// dishonoredReturn: the originating bank refuses a return within five
	// banking days after the return's settlement date.
	dishonoredReturn = ReturnWindow{Kind: WindowBankingDaysEnd, Length: 5, By: OriginatingBank, Of: OfReturn}
	// contestedDishonor: the receiving bank contests the dishonor within
	// two banking days after the dishonor's settlement date.
	contestedDishonor = ReturnWindow{Kind: WindowBankingDaysEnd, Length: 2, By: ReceivingBank, Of: OfDishonor}
)

// ACHReturnWindow is NACHA's rule of an ACH return code (Rxx): 60 calendar
// days after settlement for the extended-return codes (R05, R07, R10, R11,
// R33, R37, R38, R51, R52, R53), no fixed window for R06 and R31, at
// processing by the ACH Operator for R13, R18 and R19, from the receiver's
// notice for R23, five banking days after the return for the dishonored
// returns (R61, R62, R67-R70, the originating bank's), two banking days
// after the dishonor for the contested dishonored returns (R71-R77), two
// banking days after settlement for every other. It reports false for a
// code that is not an ACH return code (card IRxx and wire WRxx returns have
// no window in the fake).
func ACHReturnWindow(code string) (ReturnWindow, bool) {
	if ReturnCodeRail(code) != NodeACHUS {
		return ReturnWindow{}, false
	}
	if w, ok := achReturnWindows[code]; ok {
		return w, true
	}
	return ReturnWindow{Kind: WindowBankingDays, Length: 2}, true
}

// ReturnSubjectOf is what a return code acts on: OfReturn for a dishonored
// return code, OfDishonor for a contested dishonored return code, OfEntry
// for every other return code, card and wire codes included.
func ReturnSubjectOf(code string) ReturnSubject {
	w, _ := ACHReturnWindow(code)
	return w.Of
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
