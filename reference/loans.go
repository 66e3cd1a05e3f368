package reference

// Loan types a state may allow, as GET /v3.1/loans-limits lists them in LOAN_TYPES.
const (
	LoanTypeOneTime   = "ONE-TIME"
	LoanTypeRevolving = "REVOLVING"
	LoanTypeOpen      = "OPEN"
)

// LoanLimit is one state's entry in the loan limits object: the loan types allowed there
// and the APR cap in percent (may be fractional).
type LoanLimit struct {
	LoanTypes []string `json:"LOAN_TYPES"`
	MaxAPR    float64  `json:"MAX_APR"`
}

// oneTimeOnlyStates are the states the spec lists with ONE-TIME loans only.
var oneTimeOnlyStates = map[string]bool{"MS": true, "VA": true, "WV": true, "WY": true}

// maxAPR holds the APR cap per state and DC. The real values were never published; these
// are plausible small-loan caps chosen by the fake (many states at 36%, a few lower, some
// fractional). The fake's server lets a test replace the whole table.
var maxAPR = map[string]float64{
	"AK": 36, "AL": 36, "AR": 17, "AZ": 36, "CA": 36,
	"CO": 36, "CT": 36, "DC": 24, "DE": 36, "FL": 17.5,
	"GA": 16, "HI": 36, "IA": 21.75, "ID": 36, "IL": 36,
	"IN": 36, "KS": 36, "KY": 24.99, "LA": 36, "MA": 23,
	"MD": 33, "ME": 30, "MI": 25.5, "MN": 36, "MO": 36,
	"MS": 36, "MT": 36, "NC": 36, "ND": 36, "NE": 24.5,
	"NH": 36, "NJ": 30, "NM": 36, "NV": 36, "NY": 25,
	"OH": 28, "OK": 36, "OR": 36, "PA": 24, "RI": 36,
	"SC": 35.99, "SD": 36, "TN": 29.99, "TX": 36, "UT": 36,
	"VA": 36, "VT": 24, "WA": 25, "WI": 36, "WV": 31,
	"WY": 36,
}

// LoanLimits returns the loan limits object of GET /v3.1/loans-limits: the 50 US states
// and DC keyed by two-letter code. MS, VA, WV and WY allow ONE-TIME loans only; every
// other state allows ONE-TIME, REVOLVING and OPEN, in that order. MAX_APR values are the
// fake's choice (see the README's Fidelity section).
// The map and its slices are fresh on every call.
func LoanLimits() map[string]LoanLimit {
	out := make(map[string]LoanLimit, len(maxAPR))
	for state, apr := range maxAPR {
		types := []string{LoanTypeOneTime, LoanTypeRevolving, LoanTypeOpen}
		if oneTimeOnlyStates[state] {
			types = []string{LoanTypeOneTime}
		}
		out[state] = LoanLimit{LoanTypes: types, MaxAPR: apr}
	}
	return out
}
