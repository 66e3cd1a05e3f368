package api_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// nodeMoney is a node's balance and available balance, in cents.
type nodeMoney struct {
	Balance, Available int64
}

func moneyOf(t testing.TB, fake *synapsefake.Server, nodeID string) nodeMoney {
	t.Helper()
	n, ok := fake.Node(nodeID)
	if !ok {
		t.Fatalf("Node(%s) not found", nodeID)
	}
	return nodeMoney{n.BalanceCents, n.AvailableCents}
}

// TestSingleTransfersCannotOverdraw is the double spend: three
// single $100 transfers from a $100 node WithFundsCheck. Only the first is
// accepted, and the node is never negative on the way to settlement.
func TestSingleTransfersCannotOverdraw(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithFundsCheck())
	var statuses []int
	for range 3 {
		r := e.Post(t, testkit.TxBody(e.Payee.Node, 100))
		statuses = append(statuses, r.Status)
		if r.Status != 200 {
			testkit.WantError(t, r, 409, "400", "insufficient_funds")
		}
		if m := moneyOf(t, e.Fake, e.Fx.Node.ID); m != (nodeMoney{100_00, 0}) {
			t.Errorf("after a transfer: %+v, want balance 100_00, available 0", m)
		}
	}
	if diff := cmp.Diff([]int{200, 409, 409}, statuses); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	for _, d := range []time.Duration{time.Minute, time.Hour, 24 * time.Hour, 72 * time.Hour} {
		e.Fake.Advance(d)
		if m := moneyOf(t, e.Fake, e.Fx.Node.ID); m != (nodeMoney{0, 0}) {
			t.Errorf("after %v: %+v, want 0, 0", d, m)
		}
	}
	e.WantBalances(t, 0, map[string]int64{"payee": 100_00})
}

// TestAvailableBalanceFollowsMoves: a $30 transfer from a $100 node holds
// its amount on the available balance until the debit, and every move that
// ends it releases or restores the money.
func TestAvailableBalanceFollowsMoves(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		moves      func(f *synapsefake.Server, id string) error
		wantStatus synapsefake.Status
		want       nodeMoney
	}{
		{"created", func(*synapsefake.Server, string) error { return nil }, synapsefake.StatusCreated, nodeMoney{100_00, 70_00}},
		{"queued", func(f *synapsefake.Server, id string) error { return f.Queue(id, "HOLD") },
			synapsefake.StatusQueuedBySynapse, nodeMoney{100_00, 70_00}},
		{"queued by receiver", func(f *synapsefake.Server, id string) error {
			return f.AdvanceTransaction(id, synapsefake.StatusQueuedByReceiver)
		}, synapsefake.StatusQueuedByReceiver, nodeMoney{100_00, 70_00}},
		{"released", func(f *synapsefake.Server, id string) error {
			if err := f.Queue(id, "HOLD"); err != nil {
				return err
			}
			return f.Release(id)
		}, synapsefake.StatusCreated, nodeMoney{100_00, 70_00}},
		{"canceled", func(f *synapsefake.Server, id string) error { return f.Cancel(id, "") },
			synapsefake.StatusCanceled, nodeMoney{100_00, 100_00}},
		{"canceled from the queue", func(f *synapsefake.Server, id string) error {
			if err := f.Queue(id, "HOLD"); err != nil {
				return err
			}
			return f.Cancel(id, "")
		}, synapsefake.StatusCanceled, nodeMoney{100_00, 100_00}},
		{"debited", func(f *synapsefake.Server, id string) error {
			return f.AdvanceTransaction(id, synapsefake.StatusProcessingDebit)
		}, synapsefake.StatusProcessingDebit, nodeMoney{70_00, 70_00}},
		{"settled", func(f *synapsefake.Server, id string) error { return f.Settle(id) },
			synapsefake.StatusSettled, nodeMoney{70_00, 70_00}},
		{"returned before settlement", func(f *synapsefake.Server, id string) error { return f.Return(id, "R01") },
			synapsefake.StatusReturned, nodeMoney{100_00, 100_00}},
		{"returned after settlement", func(f *synapsefake.Server, id string) error {
			if err := f.Settle(id); err != nil {
				return err
			}
			return f.Return(id, "R02")
		}, synapsefake.StatusReturned, nodeMoney{100_00, 100_00}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
			id := e.Create(t, e.Payee.Node, 30)
			if err := tc.moves(e.Fake, id); err != nil {
				t.Fatal(err)
			}
			if got := e.Tx(t, id).Status; got != tc.wantStatus {
				t.Errorf("status %s, want %s", got, tc.wantStatus)
			}
			if got := moneyOf(t, e.Fake, e.Fx.Node.ID); got != tc.want {
				t.Errorf("sender %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestBatchMayOverdrawTheAvailableBalance: batch items are not refused for
// the balance (the spec's rule), but they hold their amounts, so a single
// transfer after them is refused WithFundsCheck.
func TestBatchMayOverdrawTheAvailableBalance(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing(), synapsefake.WithFundsCheck())
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/batch-trans",
		Header: e.Fx.Headers, Body: map[string]any{"transactions": []any{testkit.TxBody(e.Payee.Node, 80), testkit.TxBody(e.Payee.Node, 70)}}})
	if r.Status != 200 || r.Body["trans_count"] != float64(2) {
		t.Fatalf("batch: status %d: %s", r.Status, r.Raw)
	}
	if got, want := moneyOf(t, e.Fake, e.Fx.Node.ID), (nodeMoney{100_00, -50_00}); got != want {
		t.Errorf("after the batch %+v, want %+v", got, want)
	}
	testkit.WantError(t, e.Post(t, testkit.TxBody(e.Payee.Node, 0.01)), 409, "400", "insufficient_funds")
}

// TestCardSwipeAgainstPromisedMoney: money promised to a pending transfer
// is not there for a swipe (IR51); once the transfer is canceled it is.
// WithFundsCheck, a swipe's hold refuses a transfer in turn.
func TestCardSwipeAgainstPromisedMoney(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 100_00, "", synapsefake.WithFundsCheck())
	other := testkit.AddTxNode(t, e.fake, e.fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: testkit.TransPath(e.fx.User.ID, e.fx.Node.ID), Header: e.fx.Headers, Body: testkit.TxBody(other, 90)})
	if r.Status != 200 {
		t.Fatalf("create: status %d: %s", r.Status, r.Raw)
	}
	declined := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 20_00})
	wantSwipe(t, e.fake, e.card, synapsefake.CardAuth{AmountCents: 20_00}, declined, reference.IRInsufficientFunds)
	if got, want := moneyOf(t, e.fake, e.fx.Node.ID), (nodeMoney{100_00, 10_00}); got != want {
		t.Errorf("after the decline %+v, want %+v", got, want)
	}
	approved := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 10_00})
	wantSwipe(t, e.fake, e.card, synapsefake.CardAuth{AmountCents: 10_00}, approved, "")
	if got, want := moneyOf(t, e.fake, e.fx.Node.ID), (nodeMoney{100_00, 0}); got != want {
		t.Errorf("after the approved swipe %+v, want %+v", got, want)
	}
	// The swipe's hold refuses a single transfer in turn.
	r = testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: testkit.TransPath(e.fx.User.ID, e.fx.Node.ID), Header: e.fx.Headers, Body: testkit.TxBody(other, 0.01)})
	testkit.WantError(t, r, 409, "400", "insufficient_funds")
}

// TestAmountLimits: amounts over MaxAmountCents are refused by every path
// that moves money, as bad payloads, and change nothing.
func TestAmountLimits(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 100_00, "")
	before := moneyOf(t, e.fake, e.fx.Node.ID)
	for _, amount := range []int64{synapsefake.MaxAmountCents + 1, math.MaxInt64} {
		if _, err := e.fake.CardAuthorization(e.card.ID, synapsefake.CardAuth{AmountCents: amount}); err == nil ||
			!strings.Contains(err.Error(), "invalid_amount") {
			t.Errorf("CardAuthorization(%d): %v, want invalid_amount", amount, err)
		}
	}
	if got := moneyOf(t, e.fake, e.fx.Node.ID); got != before {
		t.Errorf("node %+v after refused swipes, want %+v", got, before)
	}
}

// TestBatchesOfHugeAmounts is the reproduction: 185 batches of 500
// items of $1e12 once drove the sender's balance past int64. Every item is
// over MaxAmountCents and refused as a bad payload, and nothing moves; as a
// refused batch leaves the store as it was, two batches stand for the 185
// (which take 10 s under -race, all of it JSON).
func TestBatchesOfHugeAmounts(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	items := make([]any, 500)
	for i := range items {
		items[i] = testkit.TxBody(e.Payee.Node, 1e12)
	}
	body, err := json.Marshal(map[string]any{"transactions": items})
	if err != nil {
		t.Fatal(err)
	}
	path := "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/batch-trans"
	for b := range 2 {
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: e.Fx.Headers, Body: body})
		errs, _ := r.Body["errors"].([]any)
		if r.Status != 200 || r.Body["trans_count"] != float64(0) || len(errs) != 500 {
			t.Fatalf("batch %d: status %d, trans_count %v, %d errors", b, r.Status, r.Body["trans_count"], len(errs))
		}
		want := map[string]any{"index": float64(499), "error_code": "200", "http_code": "400",
			"error": map[string]any{"code": "invalid_amount", "en": "amount.amount must be a number from 0.01 to 1000000000 with at most two decimals."}}
		if diff := cmp.Diff(want, errs[499]); diff != "" {
			t.Fatalf("batch %d: last error (-want +got):\n%s", b, diff)
		}
	}
	e.Fake.Advance(72 * time.Hour)
	e.WantBalances(t, 100_00, nil)
}

// TestBalanceLimits: balances stay within ±MaxBalanceCents whatever the
// order of moves, and nothing overflows int64.
func TestBalanceLimits(t *testing.T) {
	t.Parallel()
	const maxB, maxA = synapsefake.MaxBalanceCents, synapsefake.MaxAmountCents

	t.Run("a cent more for a node at the limit is refused", func(t *testing.T) {
		t.Parallel()
		e := testkit.NewTxEnv(t, 100_00)
		full := testkit.AddTxNode(t, e.Fake, e.Payee.User.ID, synapsefake.NodeSeed{Nickname: "Full", BalanceCents: maxB})
		testkit.WantError(t, e.Post(t, testkit.TxBody(full, 0.01)), 409, "400", "balance_limit")
		e.Fake.Advance(72 * time.Hour)
		if got := moneyOf(t, e.Fake, full.ID); got != (nodeMoney{maxB, maxB}) {
			t.Errorf("full node %+v, want %d", got, int64(maxB))
		}
		e.WantBalances(t, 100_00, nil)
	})

	t.Run("a credit that no longer fits at settlement is returned R23", func(t *testing.T) {
		t.Parallel()
		e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
		nearly := testkit.AddTxNode(t, e.Fake, e.Payee.User.ID, synapsefake.NodeSeed{Nickname: "Nearly full", BalanceCents: maxB - 1_00})
		first, second := e.Create(t, nearly, 1), e.Create(t, nearly, 1)
		for _, id := range []string{first, second} {
			if err := e.Fake.Settle(id); err != nil {
				t.Fatalf("Settle: %v", err)
			}
		}
		got := []string{string(e.Tx(t, first).Status), string(e.Tx(t, second).Status), e.Tx(t, second).Code}
		if diff := cmp.Diff([]string{"SETTLED", "RETURNED", "R23"}, got); diff != "" {
			t.Errorf("statuses and code (-want +got):\n%s", diff)
		}
		if m := moneyOf(t, e.Fake, nearly.ID); m != (nodeMoney{maxB, maxB}) {
			t.Errorf("receiver %+v, want %d", m, int64(maxB))
		}
		e.WantBalances(t, 100_00, map[string]int64{"sender": 99_00})
	})

	t.Run("a batch overdraws only down to the limit", func(t *testing.T) {
		t.Parallel()
		e := testkit.NewTxEnv(t, 100_00)
		deep := testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: "DEPOSIT-US", Nickname: "Deep", BalanceCents: -maxB + 2*maxA})
		items := []any{testkit.TxBody(e.Payee.Node, maxA/100), testkit.TxBody(e.Payee.Node, maxA/100), testkit.TxBody(e.Payee.Node, maxA/100)}
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: "/users/" + e.Fx.User.ID + "/nodes/" + deep.ID + "/batch-trans",
			Header: e.Fx.Headers, Body: map[string]any{"transactions": items}})
		errs, _ := r.Body["errors"].([]any)
		if r.Status != 200 || r.Body["trans_count"] != float64(2) || len(errs) != 1 {
			t.Fatalf("batch: status %d: %s", r.Status, r.Raw)
		}
		if e := errs[0].(map[string]any); e["index"] != float64(2) || e["http_code"] != "409" || e["error_code"] != "400" ||
			e["error"].(map[string]any)["code"] != "balance_limit" {
			t.Errorf("refused item %v, want index 2, 409 / \"400\" balance_limit", e)
		}
		e.Fake.Advance(72 * time.Hour)
		if got := moneyOf(t, e.Fake, deep.ID); got != (nodeMoney{-maxB, -maxB}) {
			t.Errorf("sender %+v, want %d", got, int64(-maxB))
		}
	})

	t.Run("a return that would refund past the limit is refused", func(t *testing.T) {
		t.Parallel()
		e := testkit.NewTxEnv(t, maxB, synapsefake.WithManualProcessing())
		out := e.Create(t, e.Payee.Node, 1)
		if err := e.Fake.Settle(out); err != nil {
			t.Fatal(err)
		}
		in := e.CreateFrom(t, e.Payee, e.Payee.Node, testkit.TxBody(e.Fx.Node, 1))
		if err := e.Fake.Settle(in); err != nil {
			t.Fatal(err)
		}
		err := e.Fake.Return(out, "R01")
		if err == nil || !strings.Contains(err.Error(), "balance_limit") {
			t.Errorf("Return: %v, want balance_limit", err)
		}
		if got := e.Tx(t, out).Status; got != synapsefake.StatusSettled {
			t.Errorf("after the refused return: %s, want SETTLED", got)
		}
		e.WantBalances(t, maxB, nil)
	})
}

// TestLockedUsers: a user PATCHed to LOCKED, CLOSED or MAKE-IT-GO-AWAY gets
// no OAuth key and moves no money: the keys it held, and one minted by
// OAuthKey after the lock, are refused every money move.
func TestLockedUsers(t *testing.T) {
	t.Parallel()
	for _, perm := range []string{"LOCKED", "CLOSED", "MAKE-IT-GO-AWAY"} {
		t.Run(perm, func(t *testing.T) {
			t.Parallel()
			e := newCardEnv(t, 100_00, "")
			acct := testkit.AddSubnet(t, e.fake, e.fx, synapsefake.SubnetSeed{Nickname: "Account"})
			peer := testkit.NewFixture(t, e.fake, 100_00)
			if r := testkit.Do(t, e.fake, testkit.Call{Method: "PATCH", Path: "/users/" + e.fx.User.ID, Header: e.fx.Headers,
				Body: map[string]any{"permission": perm}}); r.Status != 200 {
				t.Fatalf("PATCH permission: status %d: %s", r.Status, r.Raw)
			}
			u, _ := e.fake.User(e.fx.User.ID)
			before := moneyOf(t, e.fake, e.fx.Node.ID)
			testkit.WantError(t, testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: testkit.TransPath(u.ID, e.fx.Node.ID), Header: e.fx.Headers,
				Body: testkit.TxBody(peer.Node, 1)}), 409, "410", "user_locked")
			e.fx.Headers = testkit.UserHeaders(e.fake, e.fake.OAuthKey(u.ID, testkit.TestFingerprint))

			testkit.WantError(t, postOAuth(t, e.fake, u.ID, testkit.TestFingerprint, map[string]any{"refresh_token": u.RefreshToken}), 409, "410", "user_locked")
			for _, c := range []testkit.Call{
				{Method: "POST", Path: testkit.TransPath(u.ID, e.fx.Node.ID), Body: testkit.TxBody(peer.Node, 1)},
				{Method: "POST", Path: "/users/" + u.ID + "/nodes/" + e.fx.Node.ID + "/batch-trans",
					Body: map[string]any{"transactions": []any{testkit.TxBody(peer.Node, 1)}}},
				{Method: "POST", Path: dummyPath(e.fx, acct),
					Body: map[string]any{"currency": "USD", "amount": 1, "type": "ACH", "direction": "DEPOSIT"}},
				{Method: "GET", Path: legacyDummyPath(e.fx, e.fx.Node.ID, "?amount=1")},
			} {
				c.Header = e.fx.Headers
				testkit.WantError(t, testkit.Do(t, e.fake, c), 409, "410", "user_locked")
			}
			// Nor can anyone pay the locked user.
			r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: testkit.TransPath(peer.User.ID, peer.Node.ID), Header: peer.Headers, Body: testkit.TxBody(e.fx.Node, 1)})
			testkit.WantError(t, r, 409, "410", "user_locked")
			declined := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 1_00})
			wantSwipe(t, e.fake, e.card, synapsefake.CardAuth{AmountCents: 1_00}, declined, reference.IRCardRestricted)

			e.fake.Advance(72 * time.Hour)
			if got := moneyOf(t, e.fake, e.fx.Node.ID); got != before {
				t.Errorf("node %+v, want %+v", got, before)
			}
			if got := moneyOf(t, e.fake, peer.Node.ID); got != (nodeMoney{100_00, 100_00}) {
				t.Errorf("peer %+v, want unchanged", got)
			}
		})
	}
}

// TestDummyWithdrawalAgainstPromisedMoney: WithFundsCheck, a dummy
// withdrawal must fit in the available balance, like a single transfer.
func TestDummyWithdrawalAgainstPromisedMoney(t *testing.T) {
	t.Parallel()
	fake := newMondayServer(t, synapsefake.WithFundsCheck())
	fx := testkit.NewFixture(t, fake, 100_00)
	acct := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account"})
	other := testkit.AddTxNode(t, fake, fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	if r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: testkit.TxBody(other, 90)}); r.Status != 200 {
		t.Fatalf("create: status %d: %s", r.Status, r.Raw)
	}
	withdraw := func(amount float64) testkit.Response {
		return testkit.Do(t, fake, testkit.Call{Method: "POST", Path: dummyPath(fx, acct), Header: fx.Headers,
			Body: map[string]any{"currency": "USD", "amount": amount, "type": "ACH", "direction": "WITHDRAWAL"}})
	}
	testkit.WantError(t, withdraw(10.01), 409, "400", "insufficient_funds")
	testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "GET", Path: legacyDummyPath(fx, fx.Node.ID, "?is_credit=NO&amount=10.01"), Header: fx.Headers}),
		409, "400", "insufficient_funds")
	if r := withdraw(10); r.Status != 200 {
		t.Fatalf("withdrawal of the available $10: status %d: %s", r.Status, r.Raw)
	}
	if got, want := moneyOf(t, fake, fx.Node.ID), (nodeMoney{100_00, 0}); got != want {
		t.Errorf("node %+v, want %+v", got, want)
	}
}

// TestTransferBeyondTheBalance: a transfer from a new, empty DEPOSIT-US
// node is taken, as the sandbox took it (issue 35; 409 insufficient_funds
// before), and so is a dummy withdrawal: each is debited on its schedule
// and the node's balance goes negative, as the spec says a batch's may;
// the receiver is credited, the sender's ledger and statement show the
// debit, and the saved state still checks. WithFundsCheck (the binary's
// -funds-check) refuses both, 409 / "400" insufficient_funds, and changes
// nothing.
func TestTransferBeyondTheBalance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		call func(e testkit.TxEnv, acct synapsefake.Subnet) testkit.Call
	}{
		{"a transfer", func(e testkit.TxEnv, _ synapsefake.Subnet) testkit.Call {
			return testkit.Call{Method: "POST", Path: testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers, Body: testkit.TxBody(e.Payee.Node, 10)}
		}},
		{"a dummy withdrawal", func(e testkit.TxEnv, acct synapsefake.Subnet) testkit.Call {
			return testkit.Call{Method: "POST", Path: dummyPath(e.Fx, acct), Header: e.Fx.Headers,
				Body: map[string]any{"currency": "USD", "amount": 10, "type": "ACH", "direction": "WITHDRAWAL"}}
		}},
		{"a legacy dummy debit", func(e testkit.TxEnv, _ synapsefake.Subnet) testkit.Call {
			return testkit.Call{Method: "GET", Path: legacyDummyPath(e.Fx, e.Fx.Node.ID, "?is_credit=NO&amount=10"), Header: e.Fx.Headers}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 0, synapsefake.WithImmediateStatements())
			acct := testkit.AddSubnet(t, e.Fake, e.Fx, synapsefake.SubnetSeed{Nickname: "Account"})
			r := testkit.Do(t, e.Fake, tc.call(e, acct))
			if r.Status != 200 || getPath(r.Body, "recent_status.status") != "CREATED" {
				t.Fatalf("status %d, want 200 and CREATED: %s", r.Status, r.Raw)
			}
			e.Fake.CheckBalance(t, e.Fx.Node.ID, 0, -10_00)
			e.Fake.Advance(96 * time.Hour)
			e.Fake.CheckStatus(t, r.Body["_id"].(string), synapsefake.StatusSettled)
			e.Fake.CheckBalance(t, e.Fx.Node.ID, -10_00, -10_00)
			if tc.name == "a transfer" {
				e.Fake.CheckBalance(t, e.Payee.Node.ID, 10_00, 10_00)
			}
			s := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: testkit.NodePath(e.Fx.User.ID, e.Fx.Node.ID) + "/statements", Header: e.Fx.Headers, Body: map[string]any{}})
			if s.Status != 200 || s.Body["opening_balance"] != 0.0 || s.Body["ending_balance"] != -10.0 {
				t.Errorf("statement: %d, opening %v ending %v, want 0 and -10: %s", s.Status, s.Body["opening_balance"], s.Body["ending_balance"], s.Raw)
			}
			var saved bytes.Buffer
			if err := e.Fake.Snapshot(&saved); err != nil {
				t.Fatal(err)
			}
			if err := synapsefake.New().Restore(&saved); err != nil {
				t.Errorf("the saved state does not check: %v", err)
			}

			checked := testkit.NewTxEnv(t, 0, synapsefake.WithFundsCheck())
			acct = testkit.AddSubnet(t, checked.Fake, checked.Fx, synapsefake.SubnetSeed{Nickname: "Account"})
			before := stateDoc(t, checked.Fake)
			wantErrorStatus(t, testkit.Do(t, checked.Fake, tc.call(checked, acct)), 409, "400", "insufficient_funds")
			wantSameState(t, checked.Fake, before)
		})
	}
}
