package reference_test

import (
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

func TestNodeTypePredicates(t *testing.T) {
	for _, tc := range []struct {
		nodeType     string
		wantDeposit  bool
		wantExternal bool
	}{
		{reference.NodeDepositUS, true, false},
		{reference.NodeICDepositUS, true, false},
		{reference.NodeSubaccountUS, true, false},
		{reference.NodeExternalUS, false, true},
		{reference.NodeACHUS, false, true},
		{reference.NodeWireUS, false, true},
		{reference.NodeInterchangeUS, false, true},
		{"deposit-us", false, false},
		{"CHECKING-US", false, false},
		{"", false, false},
	} {
		if got := reference.IsDepositType(tc.nodeType); got != tc.wantDeposit {
			t.Errorf("IsDepositType(%q) = %v, want %v", tc.nodeType, got, tc.wantDeposit)
		}
		if got := reference.IsExternalType(tc.nodeType); got != tc.wantExternal {
			t.Errorf("IsExternalType(%q) = %v, want %v", tc.nodeType, got, tc.wantExternal)
		}
	}
}

func TestNodeTypes(t *testing.T) {
	types := reference.NodeTypes()
	if len(types) != 15 {
		t.Errorf("len(NodeTypes()) = %d, want 15", len(types))
	}
	for _, nt := range types {
		if reference.IsDepositType(nt) && reference.IsExternalType(nt) {
			t.Errorf("%s is both deposit and external", nt)
		}
		d, ok := reference.LookupNodeType(nt)
		if !ok || d.Type != nt || d.Class == "" || len(d.RequiredInfo) == 0 || d.RequiredInfo[0] != "nickname" {
			t.Errorf("LookupNodeType(%q) = %+v, %v; want its class and nickname first", nt, d, ok)
		}
	}
	types[0] = "CHANGED"
	if reference.NodeTypes()[0] != reference.NodeDepositUS {
		t.Error("NodeTypes() changed after mutating a copy")
	}
	if _, ok := reference.LookupNodeType("SAVINGS-US"); ok {
		t.Error("LookupNodeType(SAVINGS-US) found a type")
	}
}

func TestCanTransfer(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		want     bool
	}{
		{reference.NodeDepositUS, reference.NodeACHUS, true},
		{reference.NodeACHUS, reference.NodeCustodyUS, true},
		{reference.NodeDepositUS, reference.NodeWireInt, true},
		{reference.NodeWireInt, reference.NodeDepositUS, false},
		{reference.NodeCheckUS, reference.NodeDepositUS, false},
		{reference.NodeACHUS, reference.NodeExternalUS, false},
		{reference.NodeCardUS, reference.NodeIBDepositUS, true},
		{reference.NodeIOU, reference.NodeIOU, true},
		{reference.NodeCryptoUS, reference.NodeIOU, false},
		{"SAVINGS-US", reference.NodeDepositUS, false},
	} {
		if got := reference.CanTransfer(tc.from, tc.to); got != tc.want {
			t.Errorf("CanTransfer(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestACHBank(t *testing.T) {
	if got := reference.ACHBank("051000017").Name; got != "BANK OF AMERICA" {
		t.Errorf("ACHBank(051000017).Name = %q, want BANK OF AMERICA", got)
	}
	if got := reference.ACHBank("011000015"); got != reference.SandboxBank {
		t.Errorf("ACHBank(011000015) = %+v, want SandboxBank", got)
	}
}

// TestIsNodeType: IsNodeType finds what LookupNodeType finds, and nothing
// else.
func TestIsNodeType(t *testing.T) {
	names := append(append(reference.NodeTypes(), reference.NodeTypeAliases()...), "", "deposit-us", "DEPOSIT", "NOPE-US", "ACH-US ")
	for _, name := range names {
		_, want := reference.LookupNodeType(name)
		if got := reference.IsNodeType(name); got != want {
			t.Errorf("IsNodeType(%q) = %v, LookupNodeType finds it: %v", name, got, want)
		}
	}
}
