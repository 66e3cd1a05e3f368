package reference_test

import (
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

// TestChargebackCode: IR999 is a return code a transaction may carry, but
// not one of the spec's card decline codes.
func TestChargebackCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"IsReturnCode", reference.IsReturnCode(reference.IRChargeback), true},
		{"InterchangeMeaning", func() bool { _, ok := reference.InterchangeMeaning(reference.IRChargeback); return ok }(), false},
		{"CodeMeaning", func() bool { m, ok := reference.CodeMeaning(reference.IRChargeback); return ok && m == "chargeback" }(), true},
		{"not in InterchangeCodes", len(reference.InterchangeCodes()) == 201, true},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
