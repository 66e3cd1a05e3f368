package reference

// RoutingBank is what the fake knows of the bank behind an ABA routing number: the
// answer of POST /v3.1/routing-number-verification.
type RoutingBank struct {
	RoutingNum string `json:"routing_num"`
	BankCode   string `json:"bank_code"` // an Institutions bank_code, "" for an unlisted bank
	BankName   string `json:"bank_name"`
	Address    string `json:"address"`
	ACH        bool   `json:"ach_enabled"`
	Wire       bool   `json:"wire_enabled"`
}

// UnlistedBankName is the bank_name of a routing number whose checksum holds but which
// is not in the fake's ABA table.
const UnlistedBankName = "SYNAPSEFAKE TEST BANK"

var routingBanks = []RoutingBank{
	{"011000138", "bofa", "BANK OF AMERICA, N.A.", "100 FEDERAL ST, BOSTON, MA, US", true, true},
	{"021000021", "chase", "JPMORGAN CHASE BANK, NA", "383 MADISON AVE, NEW YORK, NY, US", true, true},
	{"021000089", "citi", "CITIBANK NA", "388 GREENWICH ST, NEW YORK, NY, US", true, true},
	{"026009593", "bofa", "BANK OF AMERICA, N.A.", "222 BROADWAY, NEW YORK, NY, US", true, true},
	{"031176110", "capone", "CAPITAL ONE, N.A.", "1680 CAPITAL ONE DR, MCLEAN, VA, US", true, true},
	{"031201360", "td", "TD BANK NA", "2035 LIMESTONE RD, WILMINGTON, DE, US", true, true},
	{"043000096", "pnc", "PNC BANK, NA", "300 FIFTH AVE, PITTSBURGH, PA, US", true, true},
	{"051000017", "bofa", "BANK OF AMERICA", "8001 VILLA PARK DRIVE, HENRICO, VA, US", true, true}, // as recorded
	{"061000104", "suntrust", "TRUIST BANK", "303 PEACHTREE ST NE, ATLANTA, GA, US", true, true},
	{"084106768", "", "EVOLVE BANK & TRUST", "6070 POPLAR AVE, MEMPHIS, TN, US", true, true},
	{"091000022", "usbank", "U.S. BANK N.A.", "800 NICOLLET MALL, MINNEAPOLIS, MN, US", true, true},
	{"121000248", "wells", "WELLS FARGO BANK, NA", "420 MONTGOMERY ST, SAN FRANCISCO, CA, US", true, true},
	{"121202211", "schwab", "CHARLES SCHWAB BANK", "211 MAIN ST, SAN FRANCISCO, CA, US", true, true},
	{"124003116", "ally", "ALLY BANK", "6985 UNION PARK CTR, MIDVALE, UT, US", true, true},
	{"256074974", "navy", "NAVY FEDERAL CREDIT UNION", "820 FOLLIN LN, VIENNA, VA, US", true, true},
	{"314074269", "usaa", "USAA FEDERAL SAVINGS BANK", "10750 MCDERMOTT FWY, SAN ANTONIO, TX, US", true, true},
	{"322271627", "chase", "JPMORGAN CHASE BANK, NA", "P.O. BOX 659754, SAN ANTONIO, TX, US", true, true},
}

// ValidRoutingNumber reports whether r is nine digits whose ABA checksum holds
// (3·d1 + 7·d2 + d3 + 3·d4 + 7·d5 + d6 + 3·d7 + 7·d8 + d9 ≡ 0 mod 10). The fake knows
// every such number: it is the check ACH-US nodes and routing-number verification share.
func ValidRoutingNumber(r string) bool {
	if len(r) != 9 {
		return false
	}
	w := [9]int{3, 7, 1, 3, 7, 1, 3, 7, 1}
	sum := 0
	for i := range 9 {
		d := r[i]
		if d < '0' || d > '9' {
			return false
		}
		sum += w[i] * int(d-'0')
	}
	return sum%10 == 0
}

// LookupRoutingNumber answers the bank of routing number r. A number in the fake's ABA
// table (RoutingBanks) gets its bank; any other number whose checksum holds gets
// UnlistedBankName, no bank_code and no address, with ACH and wires enabled. ok is false
// exactly when ValidRoutingNumber(r) is false.
func LookupRoutingNumber(r string) (bank RoutingBank, ok bool) {
	if !ValidRoutingNumber(r) {
		return RoutingBank{}, false
	}
	for _, b := range routingBanks {
		if b.RoutingNum == r {
			return b, true
		}
	}
	return RoutingBank{RoutingNum: r, BankName: UnlistedBankName, ACH: true, Wire: true}, true
}

// RoutingBanks returns the fake's ABA table, sorted by routing number. The slice is
// fresh on every call.
func RoutingBanks() []RoutingBank {
	return append([]RoutingBank(nil), routingBanks...)
}
