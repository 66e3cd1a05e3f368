package reference_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

var allStates = []string{
	"AK", "AL", "AR", "AZ", "CA", "CO", "CT", "DC", "DE", "FL", "GA", "HI", "IA", "ID",
	"IL", "IN", "KS", "KY", "LA", "MA", "MD", "ME", "MI", "MN", "MO", "MS", "MT", "NC",
	"ND", "NE", "NH", "NJ", "NM", "NV", "NY", "OH", "OK", "OR", "PA", "RI", "SC", "SD",
	"TN", "TX", "UT", "VA", "VT", "WA", "WI", "WV", "WY",
}

func TestLoanLimitsCoverEveryStateAndDC(t *testing.T) {
	limits := reference.LoanLimits()
	if len(limits) != 51 {
		t.Errorf("len(LoanLimits()) = %d, want 51", len(limits))
	}
	for _, state := range allStates {
		if _, ok := limits[state]; !ok {
			t.Errorf("LoanLimits() has no %s", state)
		}
	}
}

func TestLoanLimitsLoanTypes(t *testing.T) {
	oneTimeOnly := []string{"MS", "VA", "WV", "WY"}
	all := []string{reference.LoanTypeOneTime, reference.LoanTypeRevolving, reference.LoanTypeOpen}
	for state, limit := range reference.LoanLimits() {
		want := all
		if slices.Contains(oneTimeOnly, state) {
			want = []string{"ONE-TIME"}
		}
		if !reflect.DeepEqual(limit.LoanTypes, want) {
			t.Errorf("%s LOAN_TYPES = %q, want %q", state, limit.LoanTypes, want)
		}
	}
}

func TestLoanLimitsMaxAPR(t *testing.T) {
	fractional := 0
	for state, limit := range reference.LoanLimits() {
		if limit.MaxAPR <= 0 || limit.MaxAPR > 100 {
			t.Errorf("%s MAX_APR = %v, want a percent in (0, 100]", state, limit.MaxAPR)
		}
		if limit.MaxAPR != float64(int(limit.MaxAPR)) {
			fractional++
		}
	}
	if fractional == 0 {
		t.Error("no state has a fractional MAX_APR")
	}
}

func TestLoanLimitsAreCopies(t *testing.T) {
	first := reference.LoanLimits()
	first["CA"].LoanTypes[0] = "CHANGED"
	first["CA"] = reference.LoanLimit{MaxAPR: -1}
	delete(first, "NY")
	first["XX"] = reference.LoanLimit{}

	second := reference.LoanLimits()
	if got := second["CA"]; got.MaxAPR <= 0 || got.LoanTypes[0] != "ONE-TIME" {
		t.Errorf("CA after mutating a copy = %+v", got)
	}
	if _, ok := second["NY"]; !ok {
		t.Error("NY missing after deleting it from a copy")
	}
	if _, ok := second["XX"]; ok {
		t.Error("XX present after adding it to a copy")
	}
	// The slices of two entries of one call are not shared either.
	second["AL"].LoanTypes[0] = "CHANGED"
	if second["AK"].LoanTypes[0] != "ONE-TIME" {
		t.Error("states share a LOAN_TYPES slice")
	}
}
