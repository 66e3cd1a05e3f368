package api_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// usStates are the 50 states and DC, the keys GET /loans-limits answers with.
var usStates = []string{
	"AK", "AL", "AR", "AZ", "CA", "CO", "CT", "DC", "DE", "FL", "GA", "HI", "IA", "ID",
	"IL", "IN", "KS", "KY", "LA", "MA", "MD", "ME", "MI", "MN", "MO", "MS", "MT", "NC",
	"ND", "NE", "NH", "NJ", "NM", "NV", "NY", "OH", "OK", "OR", "PA", "RI", "SC", "SD",
	"TN", "TX", "UT", "VA", "VT", "WA", "WI", "WV", "WY",
}

func TestLoanLimits(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	published := reference.LoanLimits()
	want := map[string]any{}
	for _, st := range usStates {
		types := []any{"ONE-TIME", "REVOLVING", "OPEN"}
		switch st {
		case "MS", "VA", "WV", "WY":
			types = []any{"ONE-TIME"}
		}
		want[st] = map[string]any{"LOAN_TYPES": types, "MAX_APR": published[st].MaxAPR}
	}
	if len(want) != 51 {
		t.Fatalf("test table has %d states, want 51", len(want))
	}
	for _, tc := range []struct {
		name   string
		header map[string]string
	}{
		{"no credentials", nil},
		{"gateway only", map[string]string{"X-SP-GATEWAY": fake.Gateway()}},
		{"full user credentials", fx.Headers},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/loans-limits", Header: tc.header})
			if r.Status != 200 {
				t.Fatalf("status %d, want 200; body %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s", diff)
			}
			for st, v := range r.Body {
				apr, ok := v.(map[string]any)["MAX_APR"].(float64)
				if !ok || apr <= 0 || apr > 100 {
					t.Errorf("%s MAX_APR %v is not a percentage number", st, v.(map[string]any)["MAX_APR"])
				}
			}
		})
	}
}

func TestWithLoanLimits(t *testing.T) {
	t.Parallel()
	limits := map[string]reference.LoanLimit{
		"CA": {LoanTypes: []string{"ONE-TIME", "OPEN"}, MaxAPR: 12.5},
		"NY": {LoanTypes: []string{"REVOLVING"}, MaxAPR: 9},
	}
	fake := synapsefake.NewServer(t, synapsefake.WithLoanLimits(limits))
	want := map[string]any{
		"CA": map[string]any{"LOAN_TYPES": []any{"ONE-TIME", "OPEN"}, "MAX_APR": 12.5},
		"NY": map[string]any{"LOAN_TYPES": []any{"REVOLVING"}, "MAX_APR": 9.0},
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/loans-limits"})
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("answer mismatch (-want +got):\n%s", diff)
	}

	// Changing the map passed in, and its slices, changes nothing.
	limits["CA"].LoanTypes[0] = "CHANGED"
	limits["TX"] = reference.LoanLimit{LoanTypes: []string{"OPEN"}, MaxAPR: 1}
	delete(limits, "NY")
	r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/loans-limits"})
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("answer after changing the option's map (-want +got):\n%s", diff)
	}

	// Other servers keep the published table.
	plain := synapsefake.NewServer(t)
	if r := testkit.Do(t, plain, testkit.Call{Method: "GET", Path: "/loans-limits"}); len(r.Body) != 51 {
		t.Errorf("a server without the option answers %d states, want 51", len(r.Body))
	}
}

func TestEntityTypes(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	entity := func(name, typ string) any { return map[string]any{"common_name": name, "type": typ} }
	want := map[string]any{
		"BUSINESS": []any{
			entity("Limited Liability Company", "LLC"),
			entity("Association", "ASSOCIATION"),
			entity("Corporation (C-Corp, S-Corp, B-Corp)", "CORP"),
			entity("Partnership", "PARTNERSHIP"),
			entity("Sole Proprietorship", "SOLE-PROPRIETORSHIP"),
			entity("Business Trust", "TRUST"),
			entity("Business Vendor", "VENDOR"),
			entity("Estate", "ESTATE"),
			entity("Individual Retirement Accounts", "IRA"),
		},
		"PERSONAL": []any{
			entity("Male", "M"),
			entity("Female", "F"),
			entity("Other", "O"),
			entity("Minor", "MINOR"),
			entity("Not Known", "NOT_KNOWN"),
			entity("Personal Trust Account", "TRUST"),
		},
	}
	for _, tc := range []struct {
		name   string
		header map[string]string
	}{
		{"gateway, fingerprint and IP", testkit.GatewayHeaders(fake)},
		{"gateway, a user key and IP", map[string]string{"X-SP-GATEWAY": fake.Gateway(), "X-SP-USER": "oauth_any|fp", "X-SP-USER-IP": "10.0.0.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/entity-types", Header: tc.header})
			if r.Status != 200 {
				t.Fatalf("status %d, want 200; body %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEntityTypesErrors: a wrong gateway is refused; missing headers are
// not (TestReferenceTablesNeedNoCredentials).
func TestEntityTypesErrors(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	wrong := testkit.GatewayHeaders(fake)
	wrong["X-SP-GATEWAY"] = "client_id_x|client_secret_x"
	for _, tc := range []struct {
		name      string
		header    map[string]string
		status    int
		errorCode string
		code      string
	}{
		{"wrong gateway", wrong, 401, "100", "invalid_client_credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/entity-types", Header: tc.header})
			wantErrorStatus(t, r, tc.status, tc.errorCode, tc.code)
		})
	}
}

// addressBody is a verification request for street with the other fields
// in untidy form.
func addressBody(street string) map[string]any {
	return map[string]any{
		"address_street":       street,
		"address_city":         " san  francisco ",
		"address_subdivision":  "ca",
		"address_postal_code":  " 94105 ",
		"address_country_code": "us",
	}
}

func TestAddressVerification(t *testing.T) {
	t.Parallel()
	type flags struct{ partial, numberInvalid, numberMissing, secondaryInvalid, secondaryMissing bool }
	fake := synapsefake.NewServer(t)
	for _, tc := range []struct {
		name           string
		street         string
		deliverability string
		flags          flags
		normalized     string
	}{
		// One row per deliverability value.
		{"usps_deliverable as given", "123 Main St", "usps_deliverable", flags{}, "123 MAIN ST"},
		{"deliverable after a suffix correction", "123 Main Street", "deliverable", flags{}, "123 MAIN ST"},
		{"deliverable_missing_unit", "100 Market St", "deliverable_missing_unit", flags{partial: true, secondaryMissing: true}, "100 MARKET ST"},
		{"deliverable_incorrect_unit", "2500 Mission St Apt 901", "deliverable_incorrect_unit", flags{partial: true, secondaryInvalid: true}, "2500 MISSION ST APT 901"},
		{"deliverable_unneccessary_unit", "123 Main St Apt 5", "deliverable_unneccessary_unit", flags{partial: true, secondaryInvalid: true}, "123 MAIN ST"},
		// One row per analysis flag not yet seen.
		{"primary_number_missing", "Main St", "deliverable", flags{partial: true, numberMissing: true}, "MAIN ST"},
		{"primary_number_invalid", "012 Main St", "deliverable", flags{partial: true, numberInvalid: true}, "012 MAIN ST"},
		// Further rules of the package documentation.
		{"cosmetic changes only", "  123  main st., ", "usps_deliverable", flags{}, "123 MAIN ST"},
		{"directionals corrected", "123 North Main Street West", "deliverable", flags{}, "123 N MAIN ST W"},
		{"multi-unit building with its unit", "2500 Mission St Ste 200", "usps_deliverable", flags{}, "2500 MISSION ST STE 200"},
		{"unit designator corrected", "2500 Mission Street Suite 200", "deliverable", flags{}, "2500 MISSION ST STE 200"},
		{"PO box with periods", "P.O. Box 12", "usps_deliverable", flags{}, "PO BOX 12"},
		{"post office box corrected", "Post Office Box 12", "deliverable", flags{}, "PO BOX 12"},
		{"PO box without number", "PO Box", "deliverable", flags{partial: true, numberMissing: true}, "PO BOX"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/address-verification", Body: addressBody(tc.street)})
			want := map[string]any{
				"deliverability": tc.deliverability,
				"deliverability_analysis": map[string]any{
					"partial_valid":          tc.flags.partial,
					"primary_number_invalid": tc.flags.numberInvalid,
					"primary_number_missing": tc.flags.numberMissing,
					"secondary_invalid":      tc.flags.secondaryInvalid,
					"secondary_missing":      tc.flags.secondaryMissing,
				},
				"normalized_address": map[string]any{
					"address_city":         "SAN FRANCISCO",
					"address_country_code": "US",
					"address_postal_code":  "94105",
					"address_street":       tc.normalized,
					"address_subdivision":  "CA",
				},
			}
			if r.Status != 200 {
				t.Errorf("status %d, want 200", r.Status)
			}
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAddressVerificationErrors: a body that is not a JSON object of
// strings is refused; a missing or blank field is verified as empty
// (TestContractRulesTheSandboxTook).
func TestAddressVerificationErrors(t *testing.T) {
	t.Parallel()
	type tcase struct {
		name string
		body any
		code string
		en   string // a part of error.en, "" to skip
	}
	var cases []tcase
	wrongStreet := addressBody("123 Main St")
	wrongStreet["address_street"] = 123
	wrongZip := addressBody("123 Main St")
	wrongZip["address_postal_code"] = 94105
	wrongCountry := addressBody("123 Main St")
	wrongCountry["address_country_code"] = []string{"US"}
	cases = append(cases,
		tcase{"malformed JSON", `{"address_street": "123 Main St",`, "invalid_json", ""},
		tcase{"array body", `["123 Main St"]`, "invalid_json", ""},
		tcase{"empty body", "", "invalid_json", ""},
		tcase{"trailing data", `{"address_street":"1 A St"} {}`, "invalid_json", ""},
		tcase{"street is a number", wrongStreet, "invalid_field_type", "address_street"},
		tcase{"postal code is a number", wrongZip, "invalid_field_type", "address_postal_code"},
		tcase{"country is an array", wrongCountry, "invalid_field_type", "address_country_code"},
	)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			before := inspectNodes(t, fake, []string{fx.User.ID})
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/address-verification", Body: tc.body})
			wantErrorStatus(t, r, 400, "200", tc.code)
			if en, _ := getPath(r.Body, "error.en").(string); !strings.Contains(en, tc.en) {
				t.Errorf("error.en %q does not mention %q", en, tc.en)
			}
			wantUnchanged(t, fake, before)
		})
	}
}

// TestReferenceAnswersCarryNoSuccessField pins the decision that the three
// reference endpoints answer the spec's exact shape.
func TestReferenceAnswersCarryNoSuccessField(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	for _, c := range []testkit.Call{
		{Method: "GET", Path: "/loans-limits"},
		{Method: "GET", Path: "/users/entity-types", Header: testkit.GatewayHeaders(fake)},
		{Method: "POST", Path: "/address-verification", Body: addressBody("123 Main St")},
	} {
		r := testkit.Do(t, fake, c)
		if r.Status != 200 {
			t.Errorf("%s %s: status %d, want 200", c.Method, c.Path, r.Status)
		}
		for _, k := range []string{"success", "error_code", "http_code", "error"} {
			if _, ok := r.Body[k]; ok {
				t.Errorf("%s %s: answer has %q: %v", c.Method, c.Path, k, slices.Sorted(maps.Keys(r.Body)))
			}
		}
	}
}
