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
	if len(types) != 7 {
		t.Errorf("len(NodeTypes()) = %d, want 7", len(types))
	}
	for _, nt := range types {
		if reference.IsDepositType(nt) == reference.IsExternalType(nt) {
			t.Errorf("%s is deposit and external, or neither", nt)
		}
	}
	types[0] = "CHANGED"
	if reference.NodeTypes()[0] != reference.NodeDepositUS {
		t.Error("NodeTypes() changed after mutating a copy")
	}
}
