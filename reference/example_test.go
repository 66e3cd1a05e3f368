package reference_test

import (
	"fmt"
	"time"

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

func ExampleACHReturnWindow() {
	settled := time.Date(2026, 11, 25, 9, 0, 0, 0, reference.Eastern) // the Wednesday before Thanksgiving
	for _, code := range []string{"R01", "R10", "R06"} {
		w, _ := reference.ACHReturnWindow(code)
		if deadline, ok := w.Deadline(settled); ok {
			fmt.Printf("%s: %s, until %s ET\n", code, w, deadline.Format("Mon 2006-01-02 15:04"))
		} else {
			fmt.Printf("%s: %s\n", code, w)
		}
	}
	fmt.Println(reference.ReturnCodeRail("IR18"), reference.ReturnCodeRail("R01"), reference.ReturnCodeRail("WR01"))
	// Output:
	// R01: 2 banking days, until Mon 2026-11-30 08:30 ET
	// R10: 60 calendar days, until Sun 2027-01-24 23:59 ET
	// R06: no fixed window
	// INTERCHANGE-US ACH-US WIRE-US
}
