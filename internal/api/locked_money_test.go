package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// lockedPermissions are the permissions under which a user moves no money
// and no money reaches its nodes.
var lockedPermissions = []string{"LOCKED", "CLOSED", "MAKE-IT-GO-AWAY"}

// lockedEnv is a TxEnv with a user, "Lee Locked", whose DEPOSIT-US node
// holds an account-number subnet and a card, locked after they were made.
type lockedEnv struct {
	testkit.TxEnv
	locked     testkit.Fixture
	acct, card synapsefake.Subnet
}

func newLockedEnv(t *testing.T, perm string) lockedEnv {
	t.Helper()
	e := lockedEnv{TxEnv: testkit.NewTxEnv(t, 100_00)}
	e.locked = testkit.NamedFixture(t, e.Fake, "Lee Locked", 0)
	e.acct = testkit.AddSubnet(t, e.Fake, e.locked, synapsefake.SubnetSeed{Nickname: "Account"})
	e.card = testkit.AddSubnet(t, e.Fake, e.locked, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	if err := e.Fake.SetPermission(e.locked.User.ID, synapsefake.Permission(perm)); err != nil {
		t.Fatal(err)
	}
	// The locked user's own key still opens the user, and nothing else.
	e.locked.Key = e.Fake.OAuthKey(e.locked.User.ID, testkit.TestFingerprint)
	e.locked.Headers = testkit.UserHeaders(e.Fake, e.locked.Key)
	return e
}

// withFee is a transfer body of amount USD to `to` whose fee of fee USD
// goes to feeNode.
func withFee(to synapsefake.Node, amount float64, feeNode string, fee float64) map[string]any {
	b := testkit.TxBody(to, amount)
	b["fees"] = []any{map[string]any{"fee": fee, "note": "Platform fee", "to": map[string]any{"id": feeNode}}}
	return b
}

// TestNoMoneyReachesALockedUsersNode: every way money reaches a node (a
// transfer's to and its fees, a batch item's to and fees, dummy credits,
// a card refund, Fund) refuses a node whose user is LOCKED, CLOSED or
// MAKE-IT-GO-AWAY with the one answer 409 / "410" user_locked (a batch
// item in the batch's errors), and changes nothing: no balance, no
// transaction, no webhook.
func TestNoMoneyReachesALockedUsersNode(t *testing.T) {
	t.Parallel()
	type refusal struct {
		r     *testkit.Response // an answer over HTTP
		err   error             // or a Go method's error
		batch bool              // r is a batch answer: the refusal is its one item error
	}
	for _, tc := range []struct {
		name string
		try  func(t *testing.T, e lockedEnv) refusal
	}{
		{"a transfer to it", func(t *testing.T, e lockedEnv) refusal {
			r := e.Post(t, testkit.TxBody(e.locked.Node, 10))
			return refusal{r: &r}
		}},
		{"a fee to it", func(t *testing.T, e lockedEnv) refusal {
			r := e.Post(t, withFee(e.Payee.Node, 10, e.locked.Node.ID, 1.5))
			return refusal{r: &r}
		}},
		{"a second fee to it", func(t *testing.T, e lockedEnv) refusal {
			b := withFee(e.Payee.Node, 10, e.FeeNode.ID, 1)
			b["fees"] = append(b["fees"].([]any), map[string]any{"fee": 1.5, "to": map[string]any{"id": e.locked.Node.ID}})
			r := e.Post(t, b)
			return refusal{r: &r}
		}},
		{"a batch item to it", func(t *testing.T, e lockedEnv) refusal {
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: e.BatchPath(), Header: e.Fx.Headers,
				Body: map[string]any{"transactions": []any{testkit.TxBody(e.locked.Node, 10)}}})
			return refusal{r: &r, batch: true}
		}},
		{"a batch item's fee to it", func(t *testing.T, e lockedEnv) refusal {
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: e.BatchPath(), Header: e.Fx.Headers,
				Body: map[string]any{"transactions": []any{withFee(e.Payee.Node, 10, e.locked.Node.ID, 1.5)}}})
			return refusal{r: &r, batch: true}
		}},
		{"a dummy deposit through its account number", func(t *testing.T, e lockedEnv) refusal {
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: dummyPath(e.locked, e.acct), Header: e.locked.Headers,
				Body: map[string]any{"currency": "USD", "amount": 10, "type": "ACH", "direction": "DEPOSIT"}})
			return refusal{r: &r}
		}},
		{"a legacy dummy credit", func(t *testing.T, e lockedEnv) refusal {
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: legacyDummyPath(e.locked, e.locked.Node.ID, "?amount=10"), Header: e.locked.Headers})
			return refusal{r: &r}
		}},
		{"RefundCard", func(t *testing.T, e lockedEnv) refusal {
			_, err := e.Fake.RefundCard(e.card.ID, 10_00, "")
			return refusal{err: err}
		}},
		{"POST /_fake/subnets/{subnet_id}/refund", func(t *testing.T, e lockedEnv) refusal {
			r := testkit.Ctl(t, e.Fake, "POST", "/subnets/"+e.card.ID+"/refund", map[string]any{"amount_cents": 10_00})
			return refusal{r: &r}
		}},
		{"Fund", func(t *testing.T, e lockedEnv) refusal {
			return refusal{err: e.Fake.Fund(e.locked.Node.ID, 10_00)}
		}},
		{"POST /_fake/nodes/{node_id}/fund", func(t *testing.T, e lockedEnv) refusal {
			r := testkit.Ctl(t, e.Fake, "POST", "/nodes/"+e.locked.Node.ID+"/fund", map[string]any{"amount_cents": 10_00})
			return refusal{r: &r}
		}},
	} {
		for _, perm := range lockedPermissions {
			t.Run(tc.name+"/"+perm, func(t *testing.T) {
				t.Parallel()
				e := newLockedEnv(t, perm)
				before := testkit.StateBeyondJournal(t, testkit.SnapshotBytes(t, e.Fake))
				hooks := len(e.Fake.Webhooks().All())
				got := tc.try(t, e)

				en := "User " + e.locked.User.ID + " has permission " + perm + ": it cannot get keys or move money, and its key opens only the user."
				switch {
				case got.r == nil:
					if want := "synapsefake: user_locked (error_code 410, http 409): " + en; got.err == nil || got.err.Error() != want {
						t.Errorf("error %v, want %s", got.err, want)
					}
				case got.batch:
					want := map[string]any{"error_code": "0", "http_code": "200", "limit": float64(500), "page": float64(1), "page_count": float64(1),
						"success": true, "trans": []any{}, "trans_count": float64(0),
						"errors": []any{map[string]any{"index": float64(0), "error": map[string]any{"code": "user_locked", "en": en},
							"error_code": "410", "http_code": "409"}}}
					if got.r.Status != http.StatusOK {
						t.Errorf("status %d, want 200", got.r.Status)
					}
					if diff := cmp.Diff(want, got.r.Body); diff != "" {
						t.Errorf("batch answer (-want +got):\n%s", diff)
					}
				default:
					want := map[string]any{"error": map[string]any{"code": "user_locked", "en": en},
						"error_code": "410", "http_code": "409", "success": false}
					if got.r.Status != http.StatusConflict {
						t.Errorf("status %d, want 409", got.r.Status)
					}
					if diff := cmp.Diff(want, got.r.Body); diff != "" {
						t.Errorf("envelope (-want +got):\n%s", diff)
					}
				}
				if after := testkit.StateBeyondJournal(t, testkit.SnapshotBytes(t, e.Fake)); after != before {
					t.Errorf("the refusal changed the state: %s", testkit.FirstDiff(after, before))
				}
				e.Fake.Advance(72 * time.Hour)
				if got := moneyOf(t, e.Fake, e.locked.Node.ID); got != (nodeMoney{}) {
					t.Errorf("the locked user's node holds %+v after 72h, want nothing", got)
				}
				if got := len(e.Fake.Webhooks().All()); got != hooks {
					t.Errorf("%d webhooks, want the %d from before", got, hooks)
				}
			})
		}
	}
}

// TestLockedAfterCreation: the rule holds when a move is made. A transfer
// made before its receiver's and its fee node's users were locked still
// settles and credits both, as the transaction does whatever happened
// since; a return of a transfer whose sender was locked since still
// refunds the sender, and so does a dispute filed before the lock and won
// after it.
func TestLockedAfterCreation(t *testing.T) {
	t.Parallel()
	for _, perm := range lockedPermissions {
		t.Run(perm, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewDisputeEnv(t)
			debit := e.SettledDebit(t, 30)
			if r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, debit), Header: e.Fx.Headers,
				Body: map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"}}); r.Status != http.StatusOK {
				t.Fatalf("dispute: status %d: %s", r.Status, r.Raw)
			}
			fee := testkit.NamedFixture(t, e.Fake, "Fay Fees", 0)
			plain := e.Create(t, e.Payee.Node, 10)
			r := e.Post(t, withFee(e.Payee.Node, 20, fee.Node.ID, 1.5))
			if r.Status != http.StatusOK {
				t.Fatalf("create: status %d: %s", r.Status, r.Raw)
			}
			id := r.Body["_id"].(string)
			returned := e.Create(t, e.Savings, 5)
			for _, u := range []string{e.Payee.User.ID, fee.User.ID} {
				if err := e.Fake.SetPermission(u, synapsefake.Permission(perm)); err != nil {
					t.Fatal(err)
				}
			}
			e.Fake.Advance(72 * time.Hour)
			e.Fake.CheckStatus(t, plain, synapsefake.StatusSettled)
			e.Fake.CheckStatus(t, id, synapsefake.StatusSettled)
			if got := moneyOf(t, e.Fake, e.Payee.Node.ID); got != (nodeMoney{10_00 + 18_50, 10_00 + 18_50}) {
				t.Errorf("receiver %+v, want the two transfers less the fee", got)
			}
			if got := moneyOf(t, e.Fake, fee.Node.ID); got != (nodeMoney{1_50, 1_50}) {
				t.Errorf("fee node %+v, want the fee", got)
			}

			if err := e.Fake.SetPermission(e.Fx.User.ID, synapsefake.Permission(perm)); err != nil {
				t.Fatal(err)
			}
			before := moneyOf(t, e.Fake, e.Fx.Node.ID)
			if err := e.Fake.Return(returned, "R01"); err != nil {
				t.Fatalf("Return: %v", err)
			}
			if got := moneyOf(t, e.Fake, e.Fx.Node.ID); got != (nodeMoney{before.Balance + 5_00, before.Available + 5_00}) {
				t.Errorf("sender %+v after the return, want %+v plus 5.00", got, before)
			}
			if err := e.Fake.WinDispute(debit); err != nil {
				t.Fatalf("WinDispute: %v", err)
			}
			if got := moneyOf(t, e.Fake, e.Fx.Node.ID); got != (nodeMoney{before.Balance + 35_00, before.Available + 35_00}) {
				t.Errorf("sender %+v after the won dispute, want %+v plus 35.00", got, before)
			}
		})
	}
}
