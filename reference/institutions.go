package reference

// Institution is one bank offered for bank login (ACH-US with bank_id, bank_pw and
// bank_name): an entry of the banks list of GET /v3.1/institutions.
type Institution struct {
	BankCode          string   `json:"bank_code"` // the bank_name a bank login sends
	BankName          string   `json:"bank_name"`
	Features          []string `json:"features"`
	ForgottenPassword string   `json:"forgotten_password"`
	IsActive          bool     `json:"is_active"`
	Logo              string   `json:"logo"`
	TxHistoryMonths   int      `json:"tx_history_months"`
}

// SandboxBankCode is the bank_code of the docs' sandbox bank, the one a bank login
// with the sandbox credentials (bank_id "synapse_good", bank_pw "test1234", ...) names.
const SandboxBankCode = "fake"

const logoBase = "https://cdn.synapsepay.com/bank_logos_v3p1/"

var loginFeatures = []string{"credentials", "mfa_questions", "mfa_code", "account_data"}

var institutions = []Institution{
	{SandboxBankCode, "Synapse Sandbox Bank", loginFeatures, "https://uat-dashboard.synapsefi.com/forgot", true, logoBase + "fake_v.png", 24},
	{"ally", "Ally Bank", loginFeatures, "https://www.ally.com/", true, logoBase + "ally_v.png", 24},
	{"bofa", "Bank of America", loginFeatures, "https://www.bankofamerica.com/", true, logoBase + "bankofamerica_v.png", 24},
	{"capone", "Capital One", loginFeatures, "https://www.capitalone.com/", true, logoBase + "capitalone_v.png", 24},
	{"chase", "Chase", loginFeatures, "https://www.chase.com/", true, logoBase + "chase_v.png", 24},
	{"citi", "Citibank", loginFeatures, "https://online.citi.com/", true, logoBase + "citi_v.png", 24},
	{"navy", "Navy Federal Credit Union", loginFeatures, "https://www.navyfederal.org/", true, logoBase + "navyfederal_v.png", 12},
	{"pnc", "PNC", loginFeatures, "https://www.pnc.com/", true, logoBase + "pnc_v.png", 12},
	{"schwab", "Charles Schwab", loginFeatures, "https://www.schwab.com/", true, logoBase + "schwab_v.png", 12},
	{"suntrust", "Truist (SunTrust)", loginFeatures, "https://www.truist.com/", true, logoBase + "suntrust_v.png", 12},
	{"td", "TD Bank", loginFeatures, "https://www.td.com/us/", true, logoBase + "td_v.png", 12},
	{"usaa", "USAA", loginFeatures, "https://www.usaa.com/", true, logoBase + "usaa_v.png", 12},
	{"usbank", "US Bank", loginFeatures, "https://www.usbank.com/", true, logoBase + "usbank_v.png", 12},
	{"wells", "Wells Fargo", loginFeatures, "https://www.wellsfargo.com/", true, logoBase + "wellsfargo_v.png", 24},
}

// Institutions returns the banks offered for bank login, the sandbox bank first and the
// others by bank_code. The slice and each Features slice are fresh on every call.
func Institutions() []Institution {
	out := make([]Institution, len(institutions))
	for i, in := range institutions {
		in.Features = append([]string(nil), in.Features...)
		out[i] = in
	}
	return out
}

// LookupInstitution returns the institution whose bank_code is code.
func LookupInstitution(code string) (Institution, bool) {
	for _, in := range Institutions() {
		if in.BankCode == code {
			return in, true
		}
	}
	return Institution{}, false
}
