package synapsefake_test

import (
	"net/http"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// TestSubnetAllowedLocked: synapsepay's Subnet.update and synapse_pay_rest's
// lock send {"allowed": "LOCKED"}, the older subnets' only documented change;
// the fake makes it status INACTIVE.
func TestSubnetAllowedLocked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		body       any
		status     int
		errorCode  string
		code       string
		wantStatus string // of the subnet afterwards
	}{
		{"allowed LOCKED", map[string]any{"allowed": "LOCKED"}, 200, "0", "", "INACTIVE"},
		{"allowed LOCKED with status INACTIVE", map[string]any{"allowed": "LOCKED", "status": "INACTIVE"}, 200, "0", "", "INACTIVE"},
		{"allowed LOCKED with status ACTIVE", map[string]any{"allowed": "LOCKED", "status": "ACTIVE"}, 400, "200", "conflicting_status", "ACTIVE"},
		{"allowed CREDIT-AND-DEBIT", map[string]any{"allowed": "CREDIT-AND-DEBIT"}, 400, "200", "invalid_allowed", "ACTIVE"},
		{"allowed a number", map[string]any{"allowed": 1}, 400, "200", "invalid_field_type", "ACTIVE"},
		{"allowed null", map[string]any{"allowed": nil}, 400, "200", "nothing_to_update", "ACTIVE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := newFixture(t, fake, 0)
			sn := addSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Test AC/RT"})
			r := do(t, fake, call{method: "PATCH", path: subnetPath(fx.user.ID, fx.node.ID, sn.ID), header: fx.headers, body: tc.body})
			if tc.status == http.StatusOK {
				if r.status != http.StatusOK {
					t.Fatalf("status %d, want 200: %s", r.status, r.raw)
				}
				if r.body["status"] != tc.wantStatus {
					t.Errorf("answer's status %v, want %s", r.body["status"], tc.wantStatus)
				}
			} else {
				wantError(t, r, tc.status, tc.errorCode, tc.code)
			}
			got, ok := fake.Subnet(sn.ID)
			if !ok {
				t.Fatalf("Subnet(%s) not found", sn.ID)
			}
			if string(got.Status) != tc.wantStatus {
				t.Errorf("subnet status %s, want %s", got.Status, tc.wantStatus)
			}
		})
	}
}
