package reference

import "strings"

// Deliverability values of an address verification, spelled as the spec spells them.
const (
	DeliverabilityDeliverable     = "deliverable"
	DeliverabilityUSPSDeliverable = "usps_deliverable"
	DeliverabilityIncorrectUnit   = "deliverable_incorrect_unit"
	DeliverabilityMissingUnit     = "deliverable_missing_unit"
	// DeliverabilityUnnecessaryUnit keeps the spec's misspelling in its value.
	DeliverabilityUnnecessaryUnit = "deliverable_unneccessary_unit"
)

// Address is the body of POST /v3.1/address-verification. Every field is required.
type Address struct {
	Street      string `json:"address_street"`
	City        string `json:"address_city"`
	Subdivision string `json:"address_subdivision"`
	PostalCode  string `json:"address_postal_code"`
	CountryCode string `json:"address_country_code"`
}

// MissingFieldError reports a required address field that is absent or blank.
type MissingFieldError struct {
	Field string // the JSON name, for example "address_street"
}

// Error returns "<field> is required".
func (e *MissingFieldError) Error() string {
	return e.Field + " is required"
}

// Validate reports the first required field that is empty or blank, in the order
// address_street, address_city, address_subdivision, address_postal_code,
// address_country_code, as a *MissingFieldError. It returns nil when all are present.
func (a Address) Validate() error {
	for _, f := range []struct{ name, value string }{
		{"address_street", a.Street},
		{"address_city", a.City},
		{"address_subdivision", a.Subdivision},
		{"address_postal_code", a.PostalCode},
		{"address_country_code", a.CountryCode},
	} {
		if strings.TrimSpace(f.value) == "" {
			return &MissingFieldError{Field: f.name}
		}
	}
	return nil
}

// AddressVerification is the answer of POST /v3.1/address-verification.
type AddressVerification struct {
	Deliverability         string                 `json:"deliverability"`
	DeliverabilityAnalysis DeliverabilityAnalysis `json:"deliverability_analysis"`
	NormalizedAddress      NormalizedAddress      `json:"normalized_address"`
}

// DeliverabilityAnalysis holds the analysis flags of an address verification.
type DeliverabilityAnalysis struct {
	PartialValid         bool `json:"partial_valid"`
	PrimaryNumberInvalid bool `json:"primary_number_invalid"`
	PrimaryNumberMissing bool `json:"primary_number_missing"`
	SecondaryInvalid     bool `json:"secondary_invalid"`
	SecondaryMissing     bool `json:"secondary_missing"`
}

// NormalizedAddress is the upper-case, corrected address of a verification.
type NormalizedAddress struct {
	City        string `json:"address_city"`
	CountryCode string `json:"address_country_code"`
	PostalCode  string `json:"address_postal_code"`
	Street      string `json:"address_street"`
	Subdivision string `json:"address_subdivision"`
}

// VerifyAddress verifies an address by the fixed rules in the package documentation:
// the same input always gives the same answer, and recognisable inputs give every
// deliverability value and every analysis flag. It does not call Validate; empty fields
// are verified as they are.
func VerifyAddress(a Address) AddressVerification {
	s := parseStreet(a.Street)
	v := AddressVerification{
		NormalizedAddress: NormalizedAddress{
			City:        normalizeField(a.City),
			CountryCode: normalizeField(a.CountryCode),
			PostalCode:  normalizeField(a.PostalCode),
			Subdivision: normalizeField(a.Subdivision),
		},
	}
	flags := &v.DeliverabilityAnalysis
	multi := multiUnit(s.number)
	withUnit := true
	switch {
	case s.number == "":
		v.Deliverability = DeliverabilityDeliverable
		flags.PrimaryNumberMissing = true
	case s.poBox:
		v.Deliverability = deliverableIf(s.corrected)
	case !validPrimaryNumber(s.number):
		v.Deliverability = DeliverabilityDeliverable
		flags.PrimaryNumberInvalid = true
	case multi && s.unit == "":
		v.Deliverability = DeliverabilityMissingUnit
		flags.SecondaryMissing = true
	case multi && strings.HasPrefix(s.unit, "9"):
		v.Deliverability = DeliverabilityIncorrectUnit
		flags.SecondaryInvalid = true
	case !multi && s.unit != "":
		v.Deliverability = DeliverabilityUnnecessaryUnit
		flags.SecondaryInvalid = true
		withUnit = false
	default:
		v.Deliverability = deliverableIf(s.corrected)
	}
	flags.PartialValid = flags.PrimaryNumberInvalid || flags.PrimaryNumberMissing ||
		flags.SecondaryInvalid || flags.SecondaryMissing
	v.NormalizedAddress.Street = s.format(withUnit)
	return v
}

// deliverableIf answers deliverable when the street was corrected, usps_deliverable when
// it was deliverable as given.
func deliverableIf(corrected bool) string {
	if corrected {
		return DeliverabilityDeliverable
	}
	return DeliverabilityUSPSDeliverable
}

// normalizeField trims, collapses runs of white space and upper-cases.
func normalizeField(s string) string {
	return strings.Join(strings.Fields(strings.ToUpper(s)), " ")
}

// street is an address_street read into its parts, after corrections.
type street struct {
	poBox      bool     // a post office box: words is ["PO", "BOX"], number the box number
	number     string   // primary number; "" when missing
	words      []string // street words, corrected
	designator string   // unit designator, normalized; "" when there is no unit
	unit       string   // unit number (and anything after it); "" when there is no unit
	corrected  bool     // a word was corrected or dropped (not only cosmetic changes)
}

// format joins the parts into the normalized address_street, with or without the unit.
func (s street) format(withUnit bool) string {
	var parts []string
	if s.poBox {
		parts = append(parts, s.words...)
		parts = append(parts, s.number)
	} else {
		parts = append(parts, s.number)
		parts = append(parts, s.words...)
	}
	if withUnit && s.unit != "" {
		parts = append(parts, s.designator, s.unit)
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

// streetTokens applies the cosmetic changes (upper case, commas to spaces, periods
// removed, "#" standing alone) and splits the street into words.
func streetTokens(raw string) []string {
	s := strings.ToUpper(raw)
	s = strings.ReplaceAll(s, ",", " ")
	s = strings.ReplaceAll(s, ".", "")
	s = strings.ReplaceAll(s, "#", " # ")
	return strings.Fields(s)
}

// parseStreet reads an address_street into a street.
func parseStreet(raw string) street {
	tokens := streetTokens(raw)
	var s street

	// Post office boxes.
	for _, prefix := range []struct {
		words     []string
		corrected bool
	}{
		{[]string{"PO", "BOX"}, false},
		{[]string{"P", "O", "BOX"}, true},
		{[]string{"POST", "OFFICE", "BOX"}, true},
	} {
		if hasPrefix(tokens, prefix.words) {
			s.poBox = true
			s.corrected = prefix.corrected
			s.words = []string{"PO", "BOX"}
			rest := tokens[len(prefix.words):]
			if len(rest) > 0 {
				s.number = strings.Join(rest, " ")
			}
			return s
		}
	}

	rest := tokens
	if len(tokens) > 0 && startsWithDigit(tokens[0]) {
		s.number, rest = tokens[0], tokens[1:]
	}

	// A unit designator counts only after at least one street word.
	words := rest
	for i := 1; i < len(rest); i++ {
		designator, ok := unitDesignators[rest[i]]
		if !ok {
			continue
		}
		words = rest[:i]
		if designator != rest[i] {
			s.corrected = true
		}
		if unit := rest[i+1:]; len(unit) > 0 {
			s.designator, s.unit = designator, strings.Join(unit, " ")
		} else {
			s.corrected = true // a designator without a unit number is dropped
		}
		break
	}
	s.words = append([]string(nil), words...)
	if correctStreetWords(s.words) {
		s.corrected = true
	}
	return s
}

// correctStreetWords corrects the street suffix and spelled-out directionals in place and
// reports whether it changed anything.
func correctStreetWords(w []string) bool {
	n := len(w)
	if n < 2 {
		return false // a single word ("BROADWAY") is a name, not a suffix
	}
	changed := false
	replace := func(i int, to string) {
		if w[i] != to {
			w[i] = to
			changed = true
		}
	}
	suffix := n - 1
	if n >= 3 && isDirectional(w[n-1]) {
		suffix = n - 2
	}
	if std, ok := streetSuffixes[w[suffix]]; ok {
		replace(suffix, std)
	}
	if n >= 3 {
		if std, ok := directionals[w[0]]; ok {
			replace(0, std)
		}
		if std, ok := directionals[w[n-1]]; ok && suffix == n-2 && isStandardSuffix(w[suffix]) {
			replace(n-1, std)
		}
	}
	return changed
}

// validPrimaryNumber reports whether a primary number is a digit 1-9, more digits, and
// at most one trailing letter ("123", "123A").
func validPrimaryNumber(n string) bool {
	if n == "" || n[0] < '1' || n[0] > '9' {
		return false
	}
	rest := strings.TrimLeft(n, "0123456789")
	return rest == "" || (len(rest) == 1 && rest[0] >= 'A' && rest[0] <= 'Z')
}

// multiUnit reports whether a primary number is all digits and ends in "00": the fake's
// mark of a building with several units.
func multiUnit(n string) bool {
	return allDigits(n) && strings.HasSuffix(n, "00")
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func startsWithDigit(s string) bool {
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

func hasPrefix(tokens, prefix []string) bool {
	if len(tokens) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if tokens[i] != p {
			return false
		}
	}
	return true
}

func isDirectional(w string) bool {
	_, spelled := directionals[w]
	return spelled || isStandardDirectional(w)
}

func isStandardDirectional(w string) bool {
	for _, std := range directionals {
		if w == std {
			return true
		}
	}
	return false
}

func isStandardSuffix(w string) bool {
	for _, std := range streetSuffixes {
		if w == std {
			return true
		}
	}
	return false
}

// streetSuffixes maps spelled-out and misspelled street suffixes to the USPS abbreviation.
// Standard abbreviations map to themselves.
var streetSuffixes = map[string]string{
	"STREET": "ST", "STRET": "ST", "STRT": "ST", "STR": "ST", "ST": "ST",
	"AVENUE": "AVE", "AVENU": "AVE", "AVEN": "AVE", "AVN": "AVE", "AV": "AVE", "AVE": "AVE",
	"ROAD": "RD", "RD": "RD",
	"BOULEVARD": "BLVD", "BOULV": "BLVD", "BOUL": "BLVD", "BLVD": "BLVD",
	"DRIVE": "DR", "DRIV": "DR", "DRV": "DR", "DR": "DR",
	"LANE": "LN", "LN": "LN",
	"COURT": "CT", "CRT": "CT", "CT": "CT",
	"PLACE": "PL", "PL": "PL",
	"CIRCLE": "CIR", "CIRC": "CIR", "CIR": "CIR",
	"HIGHWAY": "HWY", "HWAY": "HWY", "HWY": "HWY",
	"PARKWAY": "PKWY", "PKY": "PKWY", "PKWY": "PKWY",
	"TERRACE": "TER", "TERR": "TER", "TER": "TER",
	"SQUARE": "SQ", "SQR": "SQ", "SQ": "SQ",
	"TRAIL": "TRL", "TRL": "TRL",
	"PLAZA": "PLZ", "PLZ": "PLZ",
	"ALLEY": "ALY", "ALY": "ALY",
	"WAY": "WAY",
}

// directionals maps spelled-out directionals to their abbreviations.
var directionals = map[string]string{
	"NORTH": "N", "SOUTH": "S", "EAST": "E", "WEST": "W",
	"NORTHEAST": "NE", "NORTHWEST": "NW", "SOUTHEAST": "SE", "SOUTHWEST": "SW",
}

// unitDesignators maps unit designators to their USPS abbreviations.
var unitDesignators = map[string]string{
	"APARTMENT": "APT", "APT": "APT",
	"SUITE": "STE", "STE": "STE",
	"UNIT": "UNIT",
	"ROOM": "RM", "RM": "RM",
	"FLOOR": "FL", "FL": "FL",
	"#": "#",
}
