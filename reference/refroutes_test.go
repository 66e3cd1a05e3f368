package reference_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

func TestRoutingNumbers(t *testing.T) {
	t.Parallel()
	banks := reference.RoutingBanks()
	if !slices.IsSortedFunc(banks, func(a, b reference.RoutingBank) int { return strings.Compare(a.RoutingNum, b.RoutingNum) }) {
		t.Error("RoutingBanks is not sorted by routing number")
	}
	for _, b := range banks {
		got, ok := reference.LookupRoutingNumber(b.RoutingNum)
		if !ok || got != b {
			t.Errorf("LookupRoutingNumber(%s) = %v, %v; want %v", b.RoutingNum, got, ok, b)
		}
		if _, ok := reference.LookupInstitution(b.BankCode); b.BankCode != "" && !ok {
			t.Errorf("%s: bank_code %q is not an institution", b.RoutingNum, b.BankCode)
		}
	}
	banks[0].BankName = "CHANGED"
	if reference.RoutingBanks()[0].BankName == "CHANGED" {
		t.Error("RoutingBanks shares its table")
	}
	for _, tc := range []struct {
		num      string
		ok       bool
		bankName string
	}{
		{"021000021", true, "JPMORGAN CHASE BANK, NA"},
		{"084008426", true, reference.UnlistedBankName},
		{"021000022", false, ""},
		{"02100002", false, ""},
		{"0210000211", false, ""},
		{"02100002a", false, ""},
		{"", false, ""},
	} {
		b, ok := reference.LookupRoutingNumber(tc.num)
		if ok != tc.ok || b.BankName != tc.bankName || ok != reference.ValidRoutingNumber(tc.num) {
			t.Errorf("LookupRoutingNumber(%q) = %q, %v; want %q, %v", tc.num, b.BankName, ok, tc.bankName, tc.ok)
		}
	}
}

func TestInstitutions(t *testing.T) {
	t.Parallel()
	list := reference.Institutions()
	if list[0].BankCode != reference.SandboxBankCode {
		t.Errorf("first institution %q, want the sandbox bank", list[0].BankCode)
	}
	if !slices.IsSortedFunc(list[1:], func(a, b reference.Institution) int { return strings.Compare(a.BankCode, b.BankCode) }) {
		t.Error("institutions after the sandbox bank are not sorted by bank_code")
	}
	for _, in := range list {
		if in.BankName == "" || len(in.Features) == 0 || !in.IsActive || !strings.HasPrefix(in.Logo, "https://") || in.TxHistoryMonths <= 0 {
			t.Errorf("incomplete institution %+v", in)
		}
	}
	list[0].Features[0] = "CHANGED"
	if in, _ := reference.LookupInstitution(reference.SandboxBankCode); in.Features[0] == "CHANGED" {
		t.Error("Institutions shares its Features slices")
	}
	if _, ok := reference.LookupInstitution("nope"); ok {
		t.Error("LookupInstitution found an unknown bank")
	}
}

func TestTablesAreCopies(t *testing.T) {
	t.Parallel()
	d := reference.AllDocumentTypes()
	d.PhysicalDocs[0].AllowedFileTypes[0] = "CHANGED"
	if reference.AllDocumentTypes().PhysicalDocs[0].AllowedFileTypes[0] == "CHANGED" {
		t.Error("AllDocumentTypes shares its slices")
	}
	for _, list := range [][]reference.DocumentType{d.PhysicalDocs, d.SocialDocs, d.VirtualDocs} {
		for _, dt := range list {
			if dt.AllowedFileTypes == nil || dt.RequiredMeta == nil || len(dt.BaseDocTypes) == 0 || dt.Type == "" {
				t.Errorf("document type %+v: nil list or missing field", dt)
			}
		}
	}
	s := reference.AllEntityScopes()
	s.Scopes[0] = "CHANGED"
	if !reference.IsEntityScope("Not Known") || reference.IsEntityScope("CHANGED") {
		t.Error("AllEntityScopes shares its slice")
	}
	n := reference.AllAllowedNodeTypes()
	if len(n.NodeTypes) != len(reference.NodeTypes()) || n.NodeTypes[0] != (reference.NodeTypeInfo{CommonName: "ACH Account", Type: "ACH-US"}) ||
		!slices.IsSortedFunc(n.NodeTypes, func(a, b reference.NodeTypeInfo) int { return strings.Compare(a.Type, b.Type) }) {
		t.Errorf("node types %v: want every type the fake creates, by type, named", n.NodeTypes)
	}
	for _, i := range n.NodeTypes {
		if i.CommonName == "" {
			t.Errorf("node type %s has no common name", i.Type)
		}
	}
	for _, want := range []string{"DEPOSIT-US", "ACH-US", "CUSTODY-US", "CARD-US", "SUBACCOUNT-US", "IB-DEPOSIT-US", "IB-SUBACCOUNT-US",
		"INTERCHANGE-US", "WIRE-US", "WIRE-INT", "CHECK-US", "IOU", "CRYPTO-US"} {
		if !slices.ContainsFunc(n.NodeTypes, func(i reference.NodeTypeInfo) bool { return i.Type == want }) {
			t.Errorf("node types lack %s", want)
		}
	}
	if c := reference.ClientScopes(); !reference.IsPublicKeyScope(c[0]) || !reference.IsPublicKeyScope("NODES|POST") || reference.IsPublicKeyScope("NODES|PUT") {
		t.Error("IsPublicKeyScope")
	}
}

func TestNearbyATMs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		center reference.Place
		radius float64
	}{
		{"known zip", reference.ZipPlace("94114"), 5},
		{"unknown zip", reference.ZipPlace("12345"), 1},
		{"coordinates", reference.CoordinatesPlace(40.75, -73.99), 100},
		{"near a pole", reference.CoordinatesPlace(89.99, 10), 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			atms := reference.NearbyATMs(tc.center, tc.radius)
			if len(atms) != reference.ATMsPerSearch {
				t.Fatalf("%d ATMs, want %d", len(atms), reference.ATMsPerSearch)
			}
			if !slices.Equal(atms, reference.NearbyATMs(tc.center, tc.radius)) {
				t.Error("two searches differ")
			}
			for i, a := range atms {
				if a.Distance <= 0 || a.Distance > tc.radius || (i > 0 && a.Distance < atms[i-1].Distance) {
					t.Errorf("ATM %d at %v miles: not sorted within %v", i, a.Distance, tc.radius)
				}
				l := a.ATMLocation
				if l.Address.PostalCode != tc.center.PostalCode || l.Address.City != tc.center.City || l.Name == "" || len(l.ID) != 6 {
					t.Errorf("ATM %d: %+v", i, l)
				}
			}
		})
	}
	if p := reference.ZipPlace("12345"); p.PostalCode != "12345" || p.City == "" {
		t.Errorf("ZipPlace(12345) = %+v", p)
	}
	if p := reference.CoordinatesPlace(40.7, -74); p.City != "NEW YORK" || p.Latitude != 40.7 {
		t.Errorf("CoordinatesPlace near New York = %+v", p)
	}
}

func TestMarketData(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC)
	q := reference.CryptoQuotes(day)
	if len(q) != 2*len(reference.CryptoCurrencies()) {
		t.Fatalf("%d quotes", len(q))
	}
	for _, c := range reference.CryptoCurrencies() {
		p := q[c.Symbol+"USD"]
		if p < c.BaseUSD*0.9 || p > c.BaseUSD*1.1 || q["USD"+c.Symbol] <= 0 {
			t.Errorf("%s: %v, %v", c.Symbol, p, q["USD"+c.Symbol])
		}
	}
	if later := reference.CryptoQuotes(day.Add(8 * time.Hour)); later["BTCUSD"] != q["BTCUSD"] {
		t.Error("quotes change within a UTC day")
	}
	data, ok := reference.CryptoMarketData("ETH", 3, day)
	if !ok || len(data) != 3 || data[0].Date != time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC).UnixMilli() || data[1].Close != data[0].Open {
		t.Errorf("CryptoMarketData = %+v, %v", data, ok)
	}
	for _, d := range data {
		if d.Low > min(d.Open, d.Close) || d.High < max(d.Open, d.Close) {
			t.Errorf("day %+v: low/high outside open/close", d)
		}
	}
	if _, ok := reference.CryptoMarketData("DOGE", 1, day); ok {
		t.Error("DOGE is quoted")
	}
	for _, tc := range []struct {
		ticker string
		ok     bool
	}{{"AAPL", true}, {"F", true}, {"BRK.B", true}, {"GOOGL", true}, {"", false}, {"aapl", false}, {"TOOLONG", false}, {"BRK.", false}, {".B", false}, {"A1", false}} {
		tq, ok := reference.TradeMarketData(tc.ticker, day)
		if ok != tc.ok || ok != reference.ValidTicker(tc.ticker) {
			t.Errorf("TradeMarketData(%q) ok %v, want %v", tc.ticker, ok, tc.ok)
		}
		if ok && (tq.Ticker != tc.ticker || tq.Open != tq.PreviousClose || tq.Close < 9 || tq.Volume <= 0) {
			t.Errorf("TradeMarketData(%q) = %+v", tc.ticker, tq)
		}
	}
}

// TestDocumentTypesAsDocumented: every document type the service's docs
// list, of each kind, in their order; the social types include those the
// provider's js wrapper's sandbox suite read (FACEBOOK, LINKEDIN,
// EMAIL_2FA) and those the service filed from a base document's fields.
func TestDocumentTypesAsDocumented(t *testing.T) {
	t.Parallel()
	d := reference.AllDocumentTypes()
	typesOf := func(list []reference.DocumentType) []string {
		var out []string
		for _, dt := range list {
			out = append(out, dt.Type)
		}
		return out
	}
	for _, tc := range []struct {
		kind string
		got  []reference.DocumentType
		want []string
	}{
		{"physical_docs", d.PhysicalDocs, []string{"GOVT_ID", "GOVT_ID_INT", "GOVT_ID_BACK", "GOVT_ID_INT_BACK", "VIDEO_AUTHORIZATION", "SELFIE",
			"PROOF_OF_ADDRESS", "PROOF_OF_INCOME", "PROOF_OF_ACCOUNT", "AUTHORIZATION", "BG_CHECK", "SSN_CARD", "EIN_DOC", "SS4_DOC",
			"W9_DOC", "W2_DOC", "VOIDED_CHECK", "AOI", "BYLAWS_DOC", "DBA_DOC", "LEGAL_AGREEMENT", "OTHER"}},
		{"social_docs", d.SocialDocs, []string{"ADDRESS", "MAILING_ADDRESS", "DATE", "EMAIL", "EMAIL_2FA", "EMPLOYER", "FACEBOOK", "IP",
			"LINKEDIN", "OTHER", "PHONE_NUMBER", "PHONE_NUMBER_2FA", "TWITTER", "UNIVERSITY", "WEBSITE"}},
		{"virtual_docs", d.VirtualDocs, []string{"SSN", "PASSPORT", "DRIVERS_LICENSE", "PERSONAL_IDENTIFICATION", "CITIZENSHIP", "TIN", "DUNS", "OTHER"}},
	} {
		if got := typesOf(tc.got); !slices.Equal(got, tc.want) {
			t.Errorf("%s types %q, want %q", tc.kind, got, tc.want)
		}
	}
	for _, dt := range d.PhysicalDocs {
		if dt.Type == "VIDEO_AUTHORIZATION" && !slices.Equal(dt.AllowedFileTypes, []string{"mov", "mp4", "webm", "avi", "flv", "mkv", "ogg"}) {
			t.Errorf("VIDEO_AUTHORIZATION allowed_file_types %q, want the docs' seven", dt.AllowedFileTypes)
		}
	}
	for _, dt := range d.VirtualDocs {
		if dt.Type == "CITIZENSHIP" && !slices.Equal(dt.RequiredMeta, []string{"country_of_issuance"}) {
			t.Errorf("CITIZENSHIP required_meta %q, want [country_of_issuance]", dt.RequiredMeta)
		}
	}
}
