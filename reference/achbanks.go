package reference

// Bank is what the fake shows of the bank behind an ACH-US node.
type Bank struct {
	Name     string // info.bank_name
	LongName string // info.bank_long_name
	Address  string // info.address
	Logo     string // info.bank_logo
}

// achBanks are the banks the fake names by routing number. Any other
// routing number that passes the ABA checksum gets SandboxBank.
var achBanks = map[string]Bank{
	"051000017": {"BANK OF AMERICA", "BANK OF AMERICA", "8001 VILLA PARK DRIVE, HENRICO, VA, US",
		"https://synapsefake.invalid/bank_logos/bofa.png"},
	"021000021": {"JPMORGAN CHASE BANK", "JPMORGAN CHASE BANK, NA", "1111 POLARIS PARKWAY, COLUMBUS, OH, US",
		"https://synapsefake.invalid/bank_logos/chase.png"},
	"121000248": {"WELLS FARGO BANK", "WELLS FARGO BANK, NA", "255 2ND AVE SOUTH, MINNEAPOLIS, MN, US",
		"https://synapsefake.invalid/bank_logos/wells.png"},
}

// SandboxBank is the bank of a routing number the fake has no name for.
var SandboxBank = Bank{"SYNAPSEFAKE TEST BANK", "SYNAPSEFAKE TEST BANK, N.A.", "1 TEST PLAZA, SAN FRANCISCO, CA, US",
	"https://synapsefake.invalid/bank_logos/default.png"}

// ACHBank returns the bank of a routing number, SandboxBank when the fake
// knows no name for it.
func ACHBank(routing string) Bank {
	if b, ok := achBanks[routing]; ok {
		return b
	}
	return SandboxBank
}
