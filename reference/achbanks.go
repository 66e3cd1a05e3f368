package reference

import "strings"

// Bank is what the fake shows of the bank behind an ACH-US node.
type Bank struct {
	Name     string // info.bank_name
	LongName string // info.bank_long_name
	Address  string // info.address
	Logo     string // info.bank_logo
}

// SandboxBank is the bank of a routing number the fake has no name for.
var SandboxBank = Bank{"SYNAPSEFAKE TEST BANK", "SYNAPSEFAKE TEST BANK, N.A.", "1 TEST PLAZA, SAN FRANCISCO, CA, US",
	"https://synapsefake.invalid/bank_logos/default.png"}

// ACHBank returns the bank of a routing number as an ACH-US node shows it,
// from the same ABA table routing-number verification answers from
// (RoutingBanks); SandboxBank for a number the table does not list.
func ACHBank(routing string) Bank {
	b, ok := LookupRoutingNumber(routing)
	if !ok || b.BankCode == "" && b.Address == "" {
		return SandboxBank
	}
	name := b.BankName
	for _, suffix := range []string{", N.A.", ", NA", " N.A.", " NA"} {
		name = strings.TrimSuffix(name, suffix)
	}
	logo := SandboxBank.Logo
	if b.BankCode != "" {
		logo = "https://synapsefake.invalid/bank_logos/" + b.BankCode + ".png"
	}
	return Bank{Name: name, LongName: b.BankName, Address: b.Address, Logo: logo}
}
