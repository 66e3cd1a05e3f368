package reference_test

import (
	"fmt"

	"github.com/synapsefake/synapsefake/reference"
)

func ExampleVerifyAddress() {
	for _, street := range []string{
		"123 Main St",             // as given
		"123 Main Street",         // suffix corrected
		"100 Market St",           // multi-unit building, no unit
		"2500 Mission St Apt 901", // unit starting with 9
		"123 Main St Apt 5",       // unit not needed
	} {
		v := reference.VerifyAddress(reference.Address{
			Street:      street,
			City:        "San Francisco",
			Subdivision: "CA",
			PostalCode:  "94105",
			CountryCode: "US",
		})
		fmt.Printf("%-24s %-30s %q\n", street, v.Deliverability, v.NormalizedAddress.Street)
	}
	// Output:
	// 123 Main St              usps_deliverable               "123 MAIN ST"
	// 123 Main Street          deliverable                    "123 MAIN ST"
	// 100 Market St            deliverable_missing_unit       "100 MARKET ST"
	// 2500 Mission St Apt 901  deliverable_incorrect_unit     "2500 MISSION ST APT 901"
	// 123 Main St Apt 5        deliverable_unneccessary_unit  "123 MAIN ST"
}

func ExampleInterchangeMeaning() {
	meaning, ok := reference.InterchangeMeaning(reference.IRInsufficientFunds)
	fmt.Println(reference.IRInsufficientFunds, meaning, ok)
	meaning, ok = reference.InterchangeMeaning("IR46")
	fmt.Println("IR46", meaning, ok)
	_, ok = reference.InterchangeMeaning("IR201")
	fmt.Println("IR201", ok)
	// Output:
	// IR51 insufficient funds true
	// IR46 reserved for ISO true
	// IR201 false
}
