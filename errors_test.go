package synapsefake_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// TestErrorsAs: a refusal of the Go API reads back with errors.As as a
// *synapsefake.Error carrying the envelope the API would answer, whatever
// the call and the layer that refused it.
func TestErrorsAs(t *testing.T) {
	t.Parallel()
	type wire struct {
		Status                    int
		ErrorCode, HTTPCode, Code string
		Message                   string
	}
	fake := synapsefake.New()
	user := fake.MustAddUser(t, synapsefake.UserSeed{})
	node := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{})
	platforms := synapsefake.NewPlatforms()
	defer platforms.Close()
	for _, tc := range []struct {
		name string
		call func() error
		want wire
	}{
		{"AddUser of an unknown permission", func() error {
			_, err := fake.AddUser(synapsefake.UserSeed{Permission: "BOSS"})
			return err
		}, wire{400, "200", "400", "invalid_permission", `Unknown permission "BOSS".`}},
		{"AddNode of a balance out of range", func() error {
			_, err := fake.AddNode(user.ID, synapsefake.NodeSeed{BalanceCents: synapsefake.MaxBalanceCents + 1})
			return err
		}, wire{400, "200", "400", "invalid_balance", "BalanceCents 100000000000000001 is outside ±MaxBalanceCents (100000000000000000)."}},
		{"Fund of a negative amount", func() error { return fake.Fund(node.ID, -1) },
			wire{400, "200", "400", "invalid_amount", "Fund takes from 1 to 100000000000000000 cents, not -1."}},
		{"Return of an unknown transaction", func() error { return fake.Return("nope", "R01") },
			wire{404, "404", "404", "unable_to_locate_transaction", "Unable to locate transaction."}},
		{"SetPermission of an unknown user", func() error { return fake.SetPermission("nope", synapsefake.PermissionLocked) },
			wire{404, "404", "404", "unable_to_locate_user", "Unable to locate user."}},
		{"AdvanceToCutoff of an unknown cutoff", func() error {
			_, err := fake.AdvanceToCutoff("lunch")
			return err
		}, wire{400, "200", "400", "invalid_cutoff", `cutoff must be "ach", "same-day" or "wire", got "lunch".`}},
		{"AdvanceTo back", func() error {
			_, err := fake.AdvanceTo(fake.Now().Add(-1))
			return err
		},
			wire{400, "200", "400", "invalid_time", "The clock is at 2026-04-14T14:00:00Z (Tue 10:00 EDT) and only moves forward, not back to 2026-04-14T13:59:59.999Z (Tue 09:59 EDT)."}},
		{"Restore of a document that is not JSON", func() error { return fake.Restore(strings.NewReader("[")) },
			wire{400, "200", "400", "invalid_state", "State document refused: not a JSON object: unexpected end of JSON input"}},
		{"LoadWorld of a bad world", func() error {
			_, err := fake.LoadWorld(strings.NewReader(`{"users": 1}`))
			return err
		}, wire{400, "200", "400", "invalid_world", "users must be of type array, got number."}},
		{"ParseWebhookChaos of a bad probability", func() error {
			_, err := synapsefake.ParseWebhookChaos([]byte(`{"default": {"duplicate": 2}}`))
			return err
		}, wire{400, "200", "400", "invalid_chaos", "default.duplicate must be a probability from 0 to 1, got 2."}},
		{"AddSubscription of a URL that is not http", func() error {
			_, err := fake.AddSubscription("ftp://example.com")
			return err
		}, wire{400, "200", "400", "invalid_url", "url must be an absolute http or https URL."}},
		{"CardAuthorization of an unknown subnet", func() error {
			_, err := fake.CardAuthorization("nope", synapsefake.CardAuth{AmountCents: 1})
			return err
		}, wire{404, "404", "404", "unable_to_locate_subnet", "Unable to locate subnet."}},
		{"Platforms.Add of a bad client id", func() error {
			_, err := platforms.Add(synapsefake.PlatformConfig{ClientID: "a b"})
			return err
		}, wire{400, "200", "400", "invalid_client_id", `client_id must be at most 64 letters, digits, '_', '-' and '.', and not . or .. (a URL resolver would take /_fake/platforms/.. for /_fake/), not "a b".`}},
		{"Platforms.Remove of the default", func() error { return platforms.Remove(platforms.Default().ClientID()) },
			wire{409, "410", "409", "default_platform", "The default platform cannot be deleted."}},
		{"Platforms.RestoreMade of a document that is not JSON", func() error { return platforms.RestoreMade(strings.NewReader("[")) },
			wire{400, "200", "400", "invalid_state", "State document refused: platforms: unexpected EOF"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			var e *synapsefake.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v, not a *synapsefake.Error", err, err)
			}
			if got := (wire{e.Status, e.ErrorCode, e.HTTPCode(), e.Code, e.Message}); got != tc.want {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
