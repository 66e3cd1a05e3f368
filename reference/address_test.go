package reference_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

var (
	noFlags          = reference.DeliverabilityAnalysis{}
	primaryMissing   = reference.DeliverabilityAnalysis{PartialValid: true, PrimaryNumberMissing: true}
	primaryInvalid   = reference.DeliverabilityAnalysis{PartialValid: true, PrimaryNumberInvalid: true}
	secondaryMissing = reference.DeliverabilityAnalysis{PartialValid: true, SecondaryMissing: true}
	secondaryInvalid = reference.DeliverabilityAnalysis{PartialValid: true, SecondaryInvalid: true}
)

// verifyAddressCases is shared by the table test and the coverage test.
var verifyAddressCases = []struct {
	name           string
	street         string
	deliverability string
	normalized     string
	flags          reference.DeliverabilityAnalysis
}{
	{"normalized address is usps deliverable", "123 Main St", reference.DeliverabilityUSPSDeliverable, "123 MAIN ST", noFlags},
	{"case, spaces and punctuation are cosmetic", "  123  main st., ", reference.DeliverabilityUSPSDeliverable, "123 MAIN ST", noFlags},
	{"single-word street name is kept", "123 Broadway", reference.DeliverabilityUSPSDeliverable, "123 BROADWAY", noFlags},
	{"house number with one letter is valid", "123A Main St", reference.DeliverabilityUSPSDeliverable, "123A MAIN ST", noFlags},
	{"spelled-out suffix is corrected", "123 Main Street", reference.DeliverabilityDeliverable, "123 MAIN ST", noFlags},
	{"misspelled suffix is corrected", "123 Elm Stret", reference.DeliverabilityDeliverable, "123 ELM ST", noFlags},
	{"misspelled avenue is corrected", "42 Park Avenu", reference.DeliverabilityDeliverable, "42 PARK AVE", noFlags},
	{"spelled-out directionals are abbreviated", "123 North Main Street West", reference.DeliverabilityDeliverable, "123 N MAIN ST W", noFlags},
	{"directional that is the street name is kept", "123 West Street", reference.DeliverabilityDeliverable, "123 WEST ST", noFlags},
	{"multi-unit building without unit", "100 Market St", reference.DeliverabilityMissingUnit, "100 MARKET ST", secondaryMissing},
	{"designator without unit number is dropped", "100 Market St Apt", reference.DeliverabilityMissingUnit, "100 MARKET ST", secondaryMissing},
	{"unit starting with 9 is incorrect", "2500 Mission St Apt 901", reference.DeliverabilityIncorrectUnit, "2500 MISSION ST APT 901", secondaryInvalid},
	{"incorrect unit keeps corrections", "2500 mission street suite 9", reference.DeliverabilityIncorrectUnit, "2500 MISSION ST STE 9", secondaryInvalid},
	{"multi-unit building with unit as given", "2500 Mission St Ste 200", reference.DeliverabilityUSPSDeliverable, "2500 MISSION ST STE 200", noFlags},
	{"hash unit is spaced", "2500 Mission St #4", reference.DeliverabilityUSPSDeliverable, "2500 MISSION ST # 4", noFlags},
	{"unit designator is corrected", "2500 Mission Street Suite 200", reference.DeliverabilityDeliverable, "2500 MISSION ST STE 200", noFlags},
	{"unit on a single-unit address is dropped", "123 Main St Apt 5", reference.DeliverabilityUnnecessaryUnit, "123 MAIN ST", secondaryInvalid},
	{"unit on a lettered house number is unnecessary", "123A Elm St #2", reference.DeliverabilityUnnecessaryUnit, "123A ELM ST", secondaryInvalid},
	{"unnecessary unit after a comma", "123 Main Street, Unit 7", reference.DeliverabilityUnnecessaryUnit, "123 MAIN ST", secondaryInvalid},
	{"no primary number", "Main St", reference.DeliverabilityDeliverable, "MAIN ST", primaryMissing},
	{"no primary number keeps the unit", "Main Street Apt 5", reference.DeliverabilityDeliverable, "MAIN ST APT 5", primaryMissing},
	{"empty street", "", reference.DeliverabilityDeliverable, "", primaryMissing},
	{"primary number zero", "0 Main St", reference.DeliverabilityDeliverable, "0 MAIN ST", primaryInvalid},
	{"primary number with leading zero", "012 Main St", reference.DeliverabilityDeliverable, "012 MAIN ST", primaryInvalid},
	{"primary number with letters inside", "12B3 Main Street", reference.DeliverabilityDeliverable, "12B3 MAIN ST", primaryInvalid},
	{"PO box as given", "PO Box 123", reference.DeliverabilityUSPSDeliverable, "PO BOX 123", noFlags},
	{"PO box with periods", "p.o. box 123", reference.DeliverabilityUSPSDeliverable, "PO BOX 123", noFlags},
	{"post office box is corrected", "Post Office Box 123", reference.DeliverabilityDeliverable, "PO BOX 123", noFlags},
	{"PO box without number", "PO Box", reference.DeliverabilityDeliverable, "PO BOX", primaryMissing},
}

func TestVerifyAddress(t *testing.T) {
	for _, tc := range verifyAddressCases {
		t.Run(tc.name, func(t *testing.T) {
			in := reference.Address{
				Street:      tc.street,
				City:        " San  francisco ",
				Subdivision: "ca",
				PostalCode:  " 94105 ",
				CountryCode: "us",
			}
			want := reference.AddressVerification{
				Deliverability:         tc.deliverability,
				DeliverabilityAnalysis: tc.flags,
				NormalizedAddress: reference.NormalizedAddress{
					City:        "SAN FRANCISCO",
					CountryCode: "US",
					PostalCode:  "94105",
					Street:      tc.normalized,
					Subdivision: "CA",
				},
			}
			got := reference.VerifyAddress(in)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("VerifyAddress(%q) =\n%+v\nwant\n%+v", tc.street, got, want)
			}
			if again := reference.VerifyAddress(in); !reflect.DeepEqual(again, got) {
				t.Errorf("VerifyAddress(%q) is not deterministic: %+v then %+v", tc.street, got, again)
			}
		})
	}
}

func TestVerifyAddressCasesCoverEveryValueAndFlag(t *testing.T) {
	deliverabilities := map[string]bool{}
	flags := map[string]bool{}
	for _, tc := range verifyAddressCases {
		deliverabilities[tc.deliverability] = true
		f := tc.flags
		for name, set := range map[string]bool{
			"partial_valid":          f.PartialValid,
			"primary_number_invalid": f.PrimaryNumberInvalid,
			"primary_number_missing": f.PrimaryNumberMissing,
			"secondary_invalid":      f.SecondaryInvalid,
			"secondary_missing":      f.SecondaryMissing,
		} {
			flags[name] = flags[name] || set
		}
	}
	for _, d := range []string{
		"deliverable", "usps_deliverable", "deliverable_incorrect_unit",
		"deliverable_missing_unit", "deliverable_unneccessary_unit",
	} {
		if !deliverabilities[d] {
			t.Errorf("no case yields deliverability %q", d)
		}
	}
	for name, set := range flags {
		if !set {
			t.Errorf("no case sets %s", name)
		}
	}
}

func TestAddressVerificationJSON(t *testing.T) {
	b, err := json.Marshal(reference.VerifyAddress(reference.Address{
		Street: "100 Market St", City: "San Francisco", Subdivision: "CA", PostalCode: "94105", CountryCode: "US",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"deliverability":"deliverable_missing_unit",` +
		`"deliverability_analysis":{"partial_valid":true,"primary_number_invalid":false,"primary_number_missing":false,"secondary_invalid":false,"secondary_missing":true},` +
		`"normalized_address":{"address_city":"SAN FRANCISCO","address_country_code":"US","address_postal_code":"94105","address_street":"100 MARKET ST","address_subdivision":"CA"}}`
	if string(b) != want {
		t.Errorf("json =\n%s\nwant\n%s", b, want)
	}
}

func TestAddressJSONNames(t *testing.T) {
	var a reference.Address
	body := `{"address_street":"1 A St","address_city":"B","address_subdivision":"C","address_postal_code":"D","address_country_code":"E"}`
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	want := reference.Address{Street: "1 A St", City: "B", Subdivision: "C", PostalCode: "D", CountryCode: "E"}
	if a != want {
		t.Errorf("decoded %+v, want %+v", a, want)
	}
}

func TestAddressValidate(t *testing.T) {
	full := reference.Address{Street: "1 Main St", City: "Town", Subdivision: "CA", PostalCode: "94105", CountryCode: "US"}
	for _, tc := range []struct {
		name    string
		change  func(*reference.Address)
		wantErr string
	}{
		{"complete address is valid", func(*reference.Address) {}, ""},
		{"missing street", func(a *reference.Address) { a.Street = "" }, "address_street is required"},
		{"blank street", func(a *reference.Address) { a.Street = "  \t" }, "address_street is required"},
		{"missing city", func(a *reference.Address) { a.City = "" }, "address_city is required"},
		{"missing subdivision", func(a *reference.Address) { a.Subdivision = "" }, "address_subdivision is required"},
		{"missing postal code", func(a *reference.Address) { a.PostalCode = " " }, "address_postal_code is required"},
		{"missing country code", func(a *reference.Address) { a.CountryCode = "" }, "address_country_code is required"},
		{"first missing field is reported", func(a *reference.Address) { *a = reference.Address{CountryCode: "US"} }, "address_street is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := full
			tc.change(&a)
			err := a.Validate()
			if tc.wantErr == "" {
				if err != nil {
					t.Errorf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tc.wantErr {
				t.Fatalf("Validate() = %v, want %q", err, tc.wantErr)
			}
			var missing *reference.MissingFieldError
			if !errors.As(err, &missing) || missing.Field+" is required" != tc.wantErr {
				t.Errorf("Validate() = %#v, want a *MissingFieldError naming the field", err)
			}
		})
	}
}
