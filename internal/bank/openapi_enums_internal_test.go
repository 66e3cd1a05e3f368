package bank

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake/openapi"
	"github.com/synapsefake/synapsefake/reference"
)

// TestOpenAPIEnumsMatchTheCode: each enum of the OpenAPI document's
// schemas lists exactly the values the code has, in any order, so that
// neither drifts from the other.
func TestOpenAPIEnumsMatchTheCode(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Enum []any `json:"enum"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	codes := func(lists ...[]reference.Code) []string {
		var out []string
		for _, l := range lists {
			for _, c := range l {
				out = append(out, c.Code)
			}
		}
		return out
	}
	var statuses, statusIDs, errorCodes []string
	for _, s := range reference.TransactionStatuses() {
		statuses, statusIDs = append(statuses, s.Status), append(statusIDs, s.ID)
	}
	for _, e := range reference.ErrorCodes() {
		errorCodes = append(errorCodes, e.Code)
	}
	tests := []struct {
		schema string
		want   []string
	}{
		{"Permission", userPermissions},
		{"DocStatus", docStatuses},
		{"DocSummary", []string{DocValid, DocInvalid, DocMissing}},
		{"PermissionScope", []string{ScopeUnverified, ScopeReceive, ScopeSendAndReceive}},
		{"TransactionStatus", statuses},
		{"TransactionStatusID", statusIDs},
		{"ReturnCode", append(codes(reference.InterchangeCodes(), reference.ReturnCodes(), reference.WireReturnCodes()), reference.IRChargeback)},
		{"NodeType", append(reference.NodeTypes(), reference.NodeTypeAliases()...)},
		{"NodeAllowed", []string{AllowedCreditAndDebit, AllowedCredit, AllowedDebit, AllowedLocked, AllowedInactive, AllowedPending, AllowedRejected}},
		{"SubnetStatus", []string{string(SubnetActive), string(SubnetInactive), string(SubnetTerminated)}},
		{"Scope", reference.Scopes()},
		{"SubscriptionScope", append(reference.SubscriptionScopes(), reference.ScopeTransPostJIT)},
		{"ClientScope", reference.ClientScopes()},
		{"ErrorCode", errorCodes},
	}
	for _, tt := range tests {
		t.Run(tt.schema, func(t *testing.T) {
			s, ok := doc.Components.Schemas[tt.schema]
			if !ok {
				t.Fatalf("the document has no schema %s", tt.schema)
			}
			var got []string
			for _, v := range s.Enum {
				str, ok := v.(string)
				if !ok {
					t.Errorf("enum value %v is not a string", v)
					continue
				}
				got = append(got, str)
			}
			want := slices.Clone(tt.want)
			slices.Sort(got)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("components.schemas.%s.enum differs from the code (-code +document):\n%s", tt.schema, diff)
			}
		})
	}
}
