package reference

// EntityType is one allowed entity type: a human name and the type value sent on the wire.
type EntityType struct {
	CommonName string `json:"common_name"`
	Type       string `json:"type"`
}

// EntityTypes is the object GET /v3.1/users/entity-types answers with.
type EntityTypes struct {
	Business []EntityType `json:"BUSINESS"`
	Personal []EntityType `json:"PERSONAL"`
}

// The common names are the sandbox's, as the docs' "Allowed Entity Types"
// page lists them and the provider's js wrapper's suite read them
// (test/usersTests/fetchData.test.js): "Business Trust" and "Personal
// Trust Account" tell the two TRUST types apart.
var businessEntityTypes = []EntityType{
	{"Limited Liability Company", "LLC"},
	{"Association", "ASSOCIATION"},
	{"Corporation (C-Corp, S-Corp, B-Corp)", "CORP"},
	{"Partnership", "PARTNERSHIP"},
	{"Sole Proprietorship", "SOLE-PROPRIETORSHIP"},
	{"Business Trust", "TRUST"},
	{"Business Vendor", "VENDOR"},
	{"Estate", "ESTATE"},
	{"Individual Retirement Accounts", "IRA"},
}

var personalEntityTypes = []EntityType{
	{"Male", "M"},
	{"Female", "F"},
	{"Other", "O"},
	{"Minor", "MINOR"},
	{"Not Known", "NOT_KNOWN"},
	{"Personal Trust Account", "TRUST"},
}

// AllEntityTypes returns the BUSINESS and PERSONAL entity types in the spec's order.
// The slices are fresh on every call.
func AllEntityTypes() EntityTypes {
	return EntityTypes{
		Business: append([]EntityType(nil), businessEntityTypes...),
		Personal: append([]EntityType(nil), personalEntityTypes...),
	}
}
