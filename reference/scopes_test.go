package reference_test

import (
	"reflect"
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

func TestScopes(t *testing.T) {
	want := []string{
		"USER|PATCH", "USER|GET",
		"NODES|POST", "NODES|GET", "NODE|GET", "NODE|PATCH", "NODE|DELETE",
		"TRANS|POST", "TRANS|GET", "TRAN|GET", "TRAN|PATCH", "TRAN|DELETE",
		"SUBNETS|POST", "SUBNETS|GET", "SUBNET|GET", "SUBNET|PATCH",
		"STATEMENTS|GET", "STATEMENT|GET", "STATEMENTS|POST",
		"CONVERSATIONS|POST", "CONVERSATIONS|GET", "CONVERSATION|GET", "CONVERSATION|PATCH",
		"MESSAGES|POST", "MESSAGES|GET",
	}
	if got := reference.Scopes(); !reflect.DeepEqual(got, want) {
		t.Errorf("Scopes() = %q\nwant %q", got, want)
	}
}

func TestSubscriptionScopes(t *testing.T) {
	want := []string{
		"USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH",
		"TRANS|POST", "TRAN|PATCH", "SUBNETS|POST", "SUBNET|PATCH",
	}
	if got := reference.SubscriptionScopes(); !reflect.DeepEqual(got, want) {
		t.Errorf("SubscriptionScopes() = %q\nwant %q", got, want)
	}
}

func TestScopePredicates(t *testing.T) {
	for _, tc := range []struct {
		scope            string
		wantUser, wantWH bool
	}{
		{reference.ScopeUserPatch, true, true},
		{reference.ScopeUserGet, true, false},
		{reference.ScopeNodesPost, true, true},
		{reference.ScopeNodeDelete, true, false},
		{reference.ScopeTranPatch, true, true},
		{reference.ScopeTranDelete, true, false},
		{reference.ScopeSubnetPatch, true, true},
		{reference.ScopeStatementsPost, true, false},
		{reference.ScopeMessagesGet, true, false},
		{reference.ScopeUsersPost, false, true},
		{reference.ScopeTransPostJIT, false, true},
		{"TRANS|POST|jit", false, false},
		{"user|patch", false, false},
		{"USER|DELETE", false, false},
		{"USER|PATCH ", false, false},
		{"", false, false},
	} {
		if got := reference.IsScope(tc.scope); got != tc.wantUser {
			t.Errorf("IsScope(%q) = %v, want %v", tc.scope, got, tc.wantUser)
		}
		if got := reference.IsSubscriptionScope(tc.scope); got != tc.wantWH {
			t.Errorf("IsSubscriptionScope(%q) = %v, want %v", tc.scope, got, tc.wantWH)
		}
	}
}

func TestScopeListsAreCopies(t *testing.T) {
	s := reference.Scopes()
	s[0] = "CHANGED"
	w := reference.SubscriptionScopes()
	w[0] = "CHANGED"
	if reference.Scopes()[0] != reference.ScopeUserPatch || !reference.IsScope(reference.ScopeUserPatch) {
		t.Error("Scopes() changed after mutating a copy")
	}
	if reference.SubscriptionScopes()[0] != reference.ScopeUsersPost || !reference.IsSubscriptionScope(reference.ScopeUsersPost) {
		t.Error("SubscriptionScopes() changed after mutating a copy")
	}
}
