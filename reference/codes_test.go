package reference_test

import (
	"fmt"
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

func TestInterchangeCodesRunIR00ToIR200(t *testing.T) {
	codes := reference.InterchangeCodes()
	if len(codes) != 201 {
		t.Fatalf("len(InterchangeCodes()) = %d, want 201", len(codes))
	}
	for i, c := range codes {
		want := fmt.Sprintf("IR%02d", i)
		if c.Code != want {
			t.Errorf("InterchangeCodes()[%d].Code = %q, want %q", i, c.Code, want)
		}
		if c.Meaning == "" {
			t.Errorf("%s has no meaning", c.Code)
		}
	}
}

func TestInterchangeMeaning(t *testing.T) {
	for _, tc := range []struct {
		code   string
		want   string
		wantOK bool
	}{
		{"IR00", "success", true},
		{"IR04", "card not activated", true},
		{"IR05", "suspicious activity, do not honor", true},
		{"IR09", "request in progress", true},
		{"IR10", "partially approved", true},
		{"IR18", "customer reversed (chargeback)", true},
		{"IR45", "reserved for ISO", true},
		{"IR50", "reserved for ISO", true},
		{"IR51", "insufficient funds", true},
		{"IR54", "card expired", true},
		{"IR57", "not permitted to cardholder", true},
		{"IR62", "card restricted", true},
		{"IR69", "reserved for ISO", true},
		{"IR74", "reserved for ISO", true},
		{"IR87", "card information not on file", true},
		{"IR88", "card information not on file", true},
		{"IR97", "reserved for national use", true},
		{"IR98", "reserved for national use", true},
		{"IR100", "reserved for ISO", true},
		{"IR126", "reserved for ISO", true},
		{"IR127", "SEC invalid", true},
		{"IR130", "not permitted to cardholder", true},
		{"IR131", "not permitted to cardholder", true},
		{"IR141", "token transaction attempted on a prior PIN-based transaction", true},
		{"IR172", "card inactive", true},
		{"IR184", "transaction limit exceeded", true},
		{"IR185", "daily limit exceeded", true},
		{"IR200", "PIN compromised", true},
		{"IR0", "", false},
		{"IR201", "", false},
		{"ir00", "", false},
		{"R01", "", false},
		{"WR01", "", false},
		{"", "", false},
	} {
		got, ok := reference.InterchangeMeaning(tc.code)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("InterchangeMeaning(%q) = %q, %v; want %q, %v", tc.code, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestInterchangeConstantsMeanTheirNames(t *testing.T) {
	for _, tc := range []struct {
		code, want string
	}{
		{reference.IRSuccess, "success"},
		{reference.IRCardNotActivated, "card not activated"},
		{reference.IRDoNotHonor, "suspicious activity, do not honor"},
		{reference.IRProcessingError, "processing error"},
		{reference.IRPartiallyApproved, "partially approved"},
		{reference.IRInvalidTransaction, "invalid transaction"},
		{reference.IRInvalidAmount, "invalid amount"},
		{reference.IRCardNumberDoesNotExist, "card number does not exist"},
		{reference.IRLostCard, "lost card"},
		{reference.IRStolenCard, "stolen card"},
		{reference.IRInsufficientFunds, "insufficient funds"},
		{reference.IRCardExpired, "card expired"},
		{reference.IRIncorrectPIN, "incorrect PIN"},
		{reference.IRNotPermittedToCardholder, "not permitted to cardholder"},
		{reference.IRFraudSuspected, "fraud suspected"},
		{reference.IRExceedsWithdrawalLimit, "exceeds withdrawal limit"},
		{reference.IRCardRestricted, "card restricted"},
		{reference.IRExceedsWithdrawalFrequencyLimit, "exceeds withdrawal frequency limit"},
		{reference.IRAllowedPINTriesExceeded, "allowed PIN tries exceeded"},
		{reference.IRSecurityCodeVerificationFailed, "security code verification failed"},
		{reference.IRDuplicateTransaction, "duplicate transaction"},
		{reference.IRSystemError, "system error"},
		{reference.IRSecurityCodeInvalid, "security code invalid"},
		{reference.IRCashBackLimitExceeded, "cash back limit exceeded"},
		{reference.IRCardInactive, "card inactive"},
		{reference.IRAccountClosed, "account closed"},
		{reference.IRCardNotFound, "card not found"},
		{reference.IRDenied, "denied"},
		{reference.IRCategoryLimitExceeded, "category limit exceeded"},
		{reference.IRTransactionLimitExceeded, "transaction limit exceeded"},
		{reference.IRDailyLimitExceeded, "daily limit exceeded"},
		{reference.IRMonthlyLimitExceeded, "monthly limit exceeded"},
		{reference.IRAccountInactive, "account inactive"},
	} {
		if got, _ := reference.InterchangeMeaning(tc.code); got != tc.want {
			t.Errorf("InterchangeMeaning(%s) = %q, want %q", tc.code, got, tc.want)
		}
	}
}

func TestReturnCodesFidelityMeanings(t *testing.T) {
	for _, tc := range []struct {
		code, want string
	}{
		{reference.ReturnInsufficientFunds, "insufficient funds"},
		{reference.ReturnAccountClosed, "account closed"},
		{reference.ReturnNoAccount, "no account"},
		{reference.ReturnInvalidAccountNumber, "invalid account number"},
		{reference.ReturnUnauthorizedDebit, "unauthorized debit"},
		{reference.ReturnPerODFI, "returned per ODFI"},
		{reference.ReturnAuthorizationRevoked, "authorization revoked"},
		{reference.ReturnPaymentStopped, "payment stopped"},
		{reference.ReturnUncollectedFunds, "uncollected funds"},
		{reference.ReturnNotAuthorized, "not authorized"},
		{reference.ReturnAccountFrozen, "account frozen"},
		{reference.ReturnNonTransactionAccount, "non-transaction account"},
		{reference.ReturnCorporateNotAuthorized, "corporate not authorized"},
	} {
		if got, ok := reference.CodeMeaning(tc.code); got != tc.want || !ok {
			t.Errorf("CodeMeaning(%s) = %q, %v; want %q, true", tc.code, got, ok, tc.want)
		}
	}
}

func TestReturnCodesAreNACHAs(t *testing.T) {
	codes := reference.ReturnCodes()
	seen := map[string]bool{}
	prev := 0
	for _, c := range codes {
		var n int
		if _, err := fmt.Sscanf(c.Code, "R%02d", &n); err != nil || fmt.Sprintf("R%02d", n) != c.Code {
			t.Errorf("malformed ACH code %q", c.Code)
			continue
		}
		if n <= prev || n > 85 {
			t.Errorf("%s out of order or beyond R85", c.Code)
		}
		prev = n
		seen[c.Code] = true
		if c.Meaning == "" {
			t.Errorf("%s has no meaning", c.Code)
		}
	}
	for n := 1; n <= 39; n++ {
		if code := fmt.Sprintf("R%02d", n); !seen[code] {
			t.Errorf("ReturnCodes() lacks %s", code)
		}
	}
	for _, code := range []string{"R40", "R47", "R50", "R53", "R61", "R62", "R67", "R77", "R80", "R85"} {
		if !seen[code] {
			t.Errorf("ReturnCodes() lacks %s", code)
		}
	}
	for _, code := range []string{"R48", "R49", "R54", "R60", "R63", "R66", "R78", "R79"} {
		if seen[code] {
			t.Errorf("ReturnCodes() has %s, which NACHA does not define", code)
		}
	}
}

func TestWireReturnCodes(t *testing.T) {
	codes := reference.WireReturnCodes()
	if len(codes) != 10 {
		t.Fatalf("len(WireReturnCodes()) = %d, want 10", len(codes))
	}
	for i, c := range codes {
		if want := fmt.Sprintf("WR%02d", i+1); c.Code != want || c.Meaning == "" {
			t.Errorf("WireReturnCodes()[%d] = %+v, want code %s with a meaning", i, c, want)
		}
	}
	if got, _ := reference.CodeMeaning(reference.WireReturnAccountClosed); got != "beneficiary account closed" {
		t.Errorf("CodeMeaning(WR01) = %q", got)
	}
}

func TestCodeLookups(t *testing.T) {
	for _, tc := range []struct {
		code        string
		wantMeaning string
		wantKnown   bool
	}{
		{"R01", "insufficient funds", true},
		{"R02", "account closed", true},
		{"R29", "corporate not authorized", true},
		{"R85", "incorrectly coded outbound international payment", true},
		{"IR00", "success", true},
		{"IR51", "insufficient funds", true},
		{"IR200", "PIN compromised", true},
		{"WR01", "beneficiary account closed", true},
		{"WR10", "missing or invalid wire instructions", true},
		{"R00", "", false},
		{"R48", "", false},
		{"R86", "", false},
		{"R1", "", false},
		{"r01", "", false},
		{"IR201", "", false},
		{"WR00", "", false},
		{"WR11", "", false},
		{"200", "", false},
		{"", "", false},
	} {
		t.Run(tc.code, func(t *testing.T) {
			meaning, ok := reference.CodeMeaning(tc.code)
			if meaning != tc.wantMeaning || ok != tc.wantKnown {
				t.Errorf("CodeMeaning(%q) = %q, %v; want %q, %v", tc.code, meaning, ok, tc.wantMeaning, tc.wantKnown)
			}
			if got := reference.IsReturnCode(tc.code); got != tc.wantKnown {
				t.Errorf("IsReturnCode(%q) = %v, want %v", tc.code, got, tc.wantKnown)
			}
		})
	}
}

func TestCodeTablesAreCopies(t *testing.T) {
	for _, tc := range []struct {
		name  string
		table func() []reference.Code
	}{
		{"InterchangeCodes", reference.InterchangeCodes},
		{"ReturnCodes", reference.ReturnCodes},
		{"WireReturnCodes", reference.WireReturnCodes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := tc.table()
			want := first[0]
			first[0] = reference.Code{Code: "CHANGED", Meaning: "CHANGED"}
			if got := tc.table()[0]; got != want {
				t.Errorf("%s()[0] after mutating a copy = %+v, want %+v", tc.name, got, want)
			}
			if !reference.IsReturnCode(want.Code) {
				t.Errorf("IsReturnCode(%q) = false after mutating a copy", want.Code)
			}
		})
	}
}
