package synapsefake_test

import (
	"math"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// TestSeedingRefusesWhatTheServiceWould: every Add* and Fund answers an
// error naming the service's refusal for what the API would refuse, and
// adds or changes nothing; the Must* forms fail the test with it.
func TestSeedingRefusesWhatTheServiceWould(t *testing.T) {
	t.Parallel()
	const maxB = synapsefake.MaxBalanceCents
	for _, tc := range []struct {
		name string
		call func(f *synapsefake.Server, userID, nodeID string) error
		want string // the error's code
	}{
		{"AddUser with an unknown permission", func(f *synapsefake.Server, _, _ string) error {
			_, err := f.AddUser(synapsefake.UserSeed{Permission: "ADMIN"})
			return err
		}, "invalid_permission"},
		{"AddUser with an empty phone number", func(f *synapsefake.Server, _, _ string) error {
			_, err := f.AddUser(synapsefake.UserSeed{PhoneNumbers: []string{"901.111.1111", ""}})
			return err
		}, "missing_phone_numbers"},
		{"AddUser with an empty legal name", func(f *synapsefake.Server, _, _ string) error {
			_, err := f.AddUser(synapsefake.UserSeed{LegalNames: []string{""}})
			return err
		}, "missing_legal_names"},
		{"AddNode for an unknown user", func(f *synapsefake.Server, _, _ string) error {
			_, err := f.AddNode("000000000000000000000000", synapsefake.NodeSeed{})
			return err
		}, "unable_to_locate_user"},
		{"AddNode of an unknown type", func(f *synapsefake.Server, u, _ string) error {
			_, err := f.AddNode(u, synapsefake.NodeSeed{Type: "BOGUS-US"})
			return err
		}, "invalid_node_type"},
		{"AddNode with a 257-character nickname", func(f *synapsefake.Server, u, _ string) error {
			_, err := f.AddNode(u, synapsefake.NodeSeed{Nickname: strings.Repeat("é", 257)})
			return err
		}, "nickname_too_long"},
		{"AddNode with a bad routing number", func(f *synapsefake.Server, u, _ string) error {
			_, err := f.AddNode(u, synapsefake.NodeSeed{Type: "ACH-US", AccountNum: "123456789", RoutingNum: "123456789"})
			return err
		}, "invalid_routing_num"},
		{"AddNode with an ACH-US account number of letters", func(f *synapsefake.Server, u, _ string) error {
			_, err := f.AddNode(u, synapsefake.NodeSeed{Type: "ACH-US", AccountNum: "abc", RoutingNum: "051000017"})
			return err
		}, "invalid_account_num"},
		{"AddNode with an ACH-US account number of 18 digits", func(f *synapsefake.Server, u, _ string) error {
			_, err := f.AddNode(u, synapsefake.NodeSeed{Type: "ACH-US", AccountNum: strings.Repeat("1", 18)})
			return err
		}, "invalid_account_num"},
		{"AddSubnet on an unknown node", func(f *synapsefake.Server, u, _ string) error {
			_, err := f.AddSubnet(u, "000000000000000000000000", synapsefake.SubnetSeed{})
			return err
		}, "unable_to_locate_node"},
		{"AddSubscription to an unknown scope", func(f *synapsefake.Server, _, _ string) error {
			_, err := f.AddSubscription("https://consumer.example.com/hooks", "TRAN|PATCHED")
			return err
		}, "invalid_scope"},
		{"AddSubscription with one unknown scope of two", func(f *synapsefake.Server, _, _ string) error {
			_, err := f.AddSubscription("https://consumer.example.com/hooks", "USERS|POST", "USER|GET")
			return err
		}, "invalid_scope"},
		{"AddSubscription to a relative url", func(f *synapsefake.Server, _, _ string) error {
			_, err := f.AddSubscription("/hooks", "USERS|POST")
			return err
		}, "invalid_url"},
		{"Fund an unknown node", func(f *synapsefake.Server, _, _ string) error {
			return f.Fund("000000000000000000000000", 100)
		}, "unable_to_locate_node"},
		{"Fund nothing", func(f *synapsefake.Server, _, n string) error { return f.Fund(n, 0) }, "invalid_amount"},
		{"Fund a negative amount", func(f *synapsefake.Server, _, n string) error { return f.Fund(n, -100) }, "invalid_amount"},
		{"Fund past the balance limit", func(f *synapsefake.Server, _, n string) error { return f.Fund(n, maxB) }, "balance_limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery())
			u := fake.MustAddUser(t, synapsefake.UserSeed{})
			n := fake.MustAddNode(t, u.ID, synapsefake.NodeSeed{BalanceCents: 100})
			before := testkit.SavedState(t, fake)
			err := tc.call(fake, u.ID, n.ID)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %s", err, tc.want)
			}
			if after := testkit.SavedState(t, fake); after != before {
				t.Error("a refused call changed the fake's state")
			}
		})
	}
	t.Run("AddNode outside the balance limit", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		u := fake.MustAddUser(t, synapsefake.UserSeed{})
		for _, b := range []int64{math.MaxInt64, maxB + 1, -maxB - 1, math.MinInt64} {
			if _, err := fake.AddNode(u.ID, synapsefake.NodeSeed{BalanceCents: b}); err == nil || !strings.Contains(err.Error(), "invalid_balance") {
				t.Errorf("AddNode(BalanceCents %d): %v, want invalid_balance", b, err)
			}
		}
		if got, _ := fake.User(u.ID); len(got.NodeIDs) != 0 {
			t.Errorf("nodes %v after refusals, want none", got.NodeIDs)
		}
	})
}

// TestMustFormsFailTheTest: each Must* form fails the test with the error
// of its Add*, and stops it.
func TestMustFormsFailTheTest(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	u := fake.MustAddUser(t, synapsefake.UserSeed{})
	n := fake.MustAddNode(t, u.ID, synapsefake.NodeSeed{})
	for _, tc := range []struct {
		name string
		call func(tb testing.TB)
		want string
	}{
		{"MustAddUser", func(tb testing.TB) { fake.MustAddUser(tb, synapsefake.UserSeed{Permission: "ADMIN"}) }, "AddUser: synapsefake: invalid_permission"},
		{"MustAddNode", func(tb testing.TB) { fake.MustAddNode(tb, u.ID, synapsefake.NodeSeed{Type: "BOGUS-US"}) }, "AddNode: synapsefake: invalid_node_type"},
		{"MustAddSubnet", func(tb testing.TB) { fake.MustAddSubnet(tb, u.ID, "nope", synapsefake.SubnetSeed{}) }, "AddSubnet: synapsefake: unable_to_locate_node"},
		{"MustAddSubscription", func(tb testing.TB) { fake.MustAddSubscription(tb, "ftp://x", "USERS|POST") }, "AddSubscription: synapsefake: invalid_url"},
		{"MustFund", func(tb testing.TB) { fake.MustFund(tb, n.ID, -1) }, "Fund: synapsefake: invalid_amount"},
		{"As with a fingerprint POST /oauth refuses", func(tb testing.TB) { fake.As(tb, u.ID, "my phone") }, "As: synapsefake: invalid_fingerprint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &testkit.RecordingTB{TB: t}
			tc.call(rec)
			if len(rec.Fatals) != 1 || !strings.Contains(rec.Fatals[0], tc.want) {
				t.Errorf("failures %q; want one naming %q", rec.Fatals, tc.want)
			}
		})
	}
}

// TestFund: Fund adds to the balance and the available balance of a node
// the app created over HTTP, and shows on its statements as a line of its
// own; no transaction, no webhook.
func TestFund(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery())
	fx := testkit.NewFixture(t, fake, 0)
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes", Header: fx.Headers,
		Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Made over HTTP"}}})
	if r.Status != 200 {
		t.Fatalf("create node: %d %s", r.Status, r.Raw)
	}
	id := r.Body["nodes"].([]any)[0].(map[string]any)["_id"].(string)
	hooks := len(fake.Webhooks().All())
	fake.MustFund(t, id, 250_00)
	fake.MustFund(t, id, 1)
	n, _ := fake.Node(id)
	if n.BalanceCents != 250_01 || n.AvailableCents != 250_01 {
		t.Errorf("balance %d, available %d; want 25001 each", n.BalanceCents, n.AvailableCents)
	}
	if got := len(fake.Webhooks().All()); got != hooks {
		t.Errorf("%d webhooks after Fund, want %d", got, hooks)
	}
	if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID + "/trans", Header: fx.Headers}); r.Status != 200 || r.Body["trans_count"] != float64(0) {
		t.Errorf("GET .../trans after Fund: %d %v, want no transaction", r.Status, r.Body["trans_count"])
	}
}
