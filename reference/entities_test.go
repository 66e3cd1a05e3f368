package reference_test

import (
	"reflect"
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

func TestAllEntityTypes(t *testing.T) {
	want := reference.EntityTypes{
		Business: []reference.EntityType{
			{CommonName: "Limited Liability Company", Type: "LLC"},
			{CommonName: "Association", Type: "ASSOCIATION"},
			{CommonName: "Corporation (C-Corp, S-Corp, B-Corp)", Type: "CORP"},
			{CommonName: "Partnership", Type: "PARTNERSHIP"},
			{CommonName: "Sole Proprietorship", Type: "SOLE-PROPRIETORSHIP"},
			{CommonName: "Business Trust", Type: "TRUST"},
			{CommonName: "Business Vendor", Type: "VENDOR"},
			{CommonName: "Estate", Type: "ESTATE"},
			{CommonName: "Individual Retirement Accounts", Type: "IRA"},
		},
		Personal: []reference.EntityType{
			{CommonName: "Male", Type: "M"},
			{CommonName: "Female", Type: "F"},
			{CommonName: "Other", Type: "O"},
			{CommonName: "Minor", Type: "MINOR"},
			{CommonName: "Not Known", Type: "NOT_KNOWN"},
			{CommonName: "Personal Trust Account", Type: "TRUST"},
		},
	}
	if got := reference.AllEntityTypes(); !reflect.DeepEqual(got, want) {
		t.Errorf("AllEntityTypes() =\n%+v\nwant\n%+v", got, want)
	}
}

func TestAllEntityTypesAreCopies(t *testing.T) {
	first := reference.AllEntityTypes()
	first.Business[0].Type = "CHANGED"
	first.Personal[0].CommonName = "CHANGED"
	second := reference.AllEntityTypes()
	if second.Business[0].Type != "LLC" || second.Personal[0].CommonName != "Male" {
		t.Errorf("AllEntityTypes() after mutating a copy = %+v", second)
	}
}
