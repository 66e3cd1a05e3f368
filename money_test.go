package synapsefake_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

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
	e := newTxEnv(t, 100_00, synapsefake.WithFundsCheck())
	var statuses []int
	for range 3 {
		r := e.post(t, txBody(e.payee.node, 100))
		statuses = append(statuses, r.status)
		if r.status != 200 {
			wantError(t, r, 409, "400", "insufficient_funds")
		}
		if m := moneyOf(t, e.fake, e.fx.node.ID); m != (nodeMoney{100_00, 0}) {
			t.Errorf("after a transfer: %+v, want balance 100_00, available 0", m)
		}
	}
	if diff := cmp.Diff([]int{200, 409, 409}, statuses); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	for _, d := range []time.Duration{time.Minute, time.Hour, 24 * time.Hour, 72 * time.Hour} {
		e.fake.Advance(d)
		if m := moneyOf(t, e.fake, e.fx.node.ID); m != (nodeMoney{0, 0}) {
			t.Errorf("after %v: %+v, want 0, 0", d, m)
		}
	}
	e.wantBalances(t, 0, map[string]int64{"payee": 100_00})
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
			e := newTxEnv(t, 100_00, synapsefake.WithManualProcessing())
			id := e.create(t, e.payee.node, 30)
			if err := tc.moves(e.fake, id); err != nil {
				t.Fatal(err)
			}
			if got := e.tx(t, id).Status; got != tc.wantStatus {
				t.Errorf("status %s, want %s", got, tc.wantStatus)
			}
			if got := moneyOf(t, e.fake, e.fx.node.ID); got != tc.want {
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
	e := newTxEnv(t, 100_00, synapsefake.WithManualProcessing(), synapsefake.WithFundsCheck())
	r := do(t, e.fake, call{method: "POST", path: "/users/" + e.fx.user.ID + "/nodes/" + e.fx.node.ID + "/batch-trans",
		header: e.fx.headers, body: map[string]any{"transactions": []any{txBody(e.payee.node, 80), txBody(e.payee.node, 70)}}})
	if r.status != 200 || r.body["trans_count"] != float64(2) {
		t.Fatalf("batch: status %d: %s", r.status, r.raw)
	}
	if got, want := moneyOf(t, e.fake, e.fx.node.ID), (nodeMoney{100_00, -50_00}); got != want {
		t.Errorf("after the batch %+v, want %+v", got, want)
	}
	wantError(t, e.post(t, txBody(e.payee.node, 0.01)), 409, "400", "insufficient_funds")
}

// TestCardSwipeAgainstPromisedMoney: money promised to a pending transfer
// is not there for a swipe (IR51); once the transfer is canceled it is.
// WithFundsCheck, a swipe's hold refuses a transfer in turn.
func TestCardSwipeAgainstPromisedMoney(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 100_00, "", synapsefake.WithFundsCheck())
	other := addTxNode(t, e.fake, e.fx.user.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	r := do(t, e.fake, call{method: "POST", path: transPath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers, body: txBody(other, 90)})
	if r.status != 200 {
		t.Fatalf("create: status %d: %s", r.status, r.raw)
	}
	declined := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 20_00})
	wantSwipe(t, e.fake, e.card, synapsefake.CardAuth{AmountCents: 20_00}, declined, reference.IRInsufficientFunds)
	if got, want := moneyOf(t, e.fake, e.fx.node.ID), (nodeMoney{100_00, 10_00}); got != want {
		t.Errorf("after the decline %+v, want %+v", got, want)
	}
	approved := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 10_00})
	wantSwipe(t, e.fake, e.card, synapsefake.CardAuth{AmountCents: 10_00}, approved, "")
	if got, want := moneyOf(t, e.fake, e.fx.node.ID), (nodeMoney{100_00, 0}); got != want {
		t.Errorf("after the approved swipe %+v, want %+v", got, want)
	}
	// The swipe's hold refuses a single transfer in turn.
	r = do(t, e.fake, call{method: "POST", path: transPath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers, body: txBody(other, 0.01)})
	wantError(t, r, 409, "400", "insufficient_funds")
}

// TestAmountLimits: amounts over MaxAmountCents are refused by every path
// that moves money, as bad payloads, and change nothing.
func TestAmountLimits(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 100_00, "")
	before := moneyOf(t, e.fake, e.fx.node.ID)
	for _, amount := range []int64{synapsefake.MaxAmountCents + 1, math.MaxInt64} {
		if _, err := e.fake.CardAuthorization(e.card.ID, synapsefake.CardAuth{AmountCents: amount}); err == nil ||
			!strings.Contains(err.Error(), "invalid_amount") {
			t.Errorf("CardAuthorization(%d): %v, want invalid_amount", amount, err)
		}
	}
	if got := moneyOf(t, e.fake, e.fx.node.ID); got != before {
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
	e := newTxEnv(t, 100_00)
	items := make([]any, 500)
	for i := range items {
		items[i] = txBody(e.payee.node, 1e12)
	}
	body, err := json.Marshal(map[string]any{"transactions": items})
	if err != nil {
		t.Fatal(err)
	}
	path := "/users/" + e.fx.user.ID + "/nodes/" + e.fx.node.ID + "/batch-trans"
	for b := range 2 {
		r := do(t, e.fake, call{method: "POST", path: path, header: e.fx.headers, body: body})
		errs, _ := r.body["errors"].([]any)
		if r.status != 200 || r.body["trans_count"] != float64(0) || len(errs) != 500 {
			t.Fatalf("batch %d: status %d, trans_count %v, %d errors", b, r.status, r.body["trans_count"], len(errs))
		}
		want := map[string]any{"index": float64(499), "error_code": "200", "http_code": "400",
			"error": map[string]any{"code": "invalid_amount", "en": "amount.amount must be a number from 0.01 to 1000000000 with at most two decimals."}}
		if diff := cmp.Diff(want, errs[499]); diff != "" {
			t.Fatalf("batch %d: last error (-want +got):\n%s", b, diff)
		}
	}
	e.fake.Advance(72 * time.Hour)
	e.wantBalances(t, 100_00, nil)
}

// TestBalanceLimits: balances stay within ±MaxBalanceCents whatever the
// order of moves, and nothing overflows int64.
func TestBalanceLimits(t *testing.T) {
	t.Parallel()
	const maxB, maxA = synapsefake.MaxBalanceCents, synapsefake.MaxAmountCents

	t.Run("a cent more for a node at the limit is refused", func(t *testing.T) {
		t.Parallel()
		e := newTxEnv(t, 100_00)
		full := addTxNode(t, e.fake, e.payee.user.ID, synapsefake.NodeSeed{Nickname: "Full", BalanceCents: maxB})
		wantError(t, e.post(t, txBody(full, 0.01)), 409, "400", "balance_limit")
		e.fake.Advance(72 * time.Hour)
		if got := moneyOf(t, e.fake, full.ID); got != (nodeMoney{maxB, maxB}) {
			t.Errorf("full node %+v, want %d", got, int64(maxB))
		}
		e.wantBalances(t, 100_00, nil)
	})

	t.Run("a credit that no longer fits at settlement is returned R23", func(t *testing.T) {
		t.Parallel()
		e := newTxEnv(t, 100_00, synapsefake.WithManualProcessing())
		nearly := addTxNode(t, e.fake, e.payee.user.ID, synapsefake.NodeSeed{Nickname: "Nearly full", BalanceCents: maxB - 1_00})
		first, second := e.create(t, nearly, 1), e.create(t, nearly, 1)
		for _, id := range []string{first, second} {
			if err := e.fake.Settle(id); err != nil {
				t.Fatalf("Settle: %v", err)
			}
		}
		got := []string{string(e.tx(t, first).Status), string(e.tx(t, second).Status), e.tx(t, second).Code}
		if diff := cmp.Diff([]string{"SETTLED", "RETURNED", "R23"}, got); diff != "" {
			t.Errorf("statuses and code (-want +got):\n%s", diff)
		}
		if m := moneyOf(t, e.fake, nearly.ID); m != (nodeMoney{maxB, maxB}) {
			t.Errorf("receiver %+v, want %d", m, int64(maxB))
		}
		e.wantBalances(t, 100_00, map[string]int64{"sender": 99_00})
	})

	t.Run("a batch overdraws only down to the limit", func(t *testing.T) {
		t.Parallel()
		e := newTxEnv(t, 100_00)
		deep := addTxNode(t, e.fake, e.fx.user.ID, synapsefake.NodeSeed{Type: "DEPOSIT-US", Nickname: "Deep", BalanceCents: -maxB + 2*maxA})
		items := []any{txBody(e.payee.node, maxA/100), txBody(e.payee.node, maxA/100), txBody(e.payee.node, maxA/100)}
		r := do(t, e.fake, call{method: "POST", path: "/users/" + e.fx.user.ID + "/nodes/" + deep.ID + "/batch-trans",
			header: e.fx.headers, body: map[string]any{"transactions": items}})
		errs, _ := r.body["errors"].([]any)
		if r.status != 200 || r.body["trans_count"] != float64(2) || len(errs) != 1 {
			t.Fatalf("batch: status %d: %s", r.status, r.raw)
		}
		if e := errs[0].(map[string]any); e["index"] != float64(2) || e["http_code"] != "409" || e["error_code"] != "400" ||
			e["error"].(map[string]any)["code"] != "balance_limit" {
			t.Errorf("refused item %v, want index 2, 409 / \"400\" balance_limit", e)
		}
		e.fake.Advance(72 * time.Hour)
		if got := moneyOf(t, e.fake, deep.ID); got != (nodeMoney{-maxB, -maxB}) {
			t.Errorf("sender %+v, want %d", got, int64(-maxB))
		}
	})

	t.Run("a return that would refund past the limit is refused", func(t *testing.T) {
		t.Parallel()
		e := newTxEnv(t, maxB, synapsefake.WithManualProcessing())
		out := e.create(t, e.payee.node, 1)
		if err := e.fake.Settle(out); err != nil {
			t.Fatal(err)
		}
		in := e.createFrom(t, e.payee, e.payee.node, txBody(e.fx.node, 1))
		if err := e.fake.Settle(in); err != nil {
			t.Fatal(err)
		}
		err := e.fake.Return(out, "R01")
		if err == nil || !strings.Contains(err.Error(), "balance_limit") {
			t.Errorf("Return: %v, want balance_limit", err)
		}
		if got := e.tx(t, out).Status; got != synapsefake.StatusSettled {
			t.Errorf("after the refused return: %s, want SETTLED", got)
		}
		e.wantBalances(t, maxB, nil)
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
			acct := addSubnet(t, e.fake, e.fx, synapsefake.SubnetSeed{Nickname: "Account"})
			peer := newFixture(t, e.fake, 100_00)
			if r := do(t, e.fake, call{method: "PATCH", path: "/users/" + e.fx.user.ID, header: e.fx.headers,
				body: map[string]any{"permission": perm}}); r.status != 200 {
				t.Fatalf("PATCH permission: status %d: %s", r.status, r.raw)
			}
			u, _ := e.fake.User(e.fx.user.ID)
			before := moneyOf(t, e.fake, e.fx.node.ID)
			wantError(t, do(t, e.fake, call{method: "POST", path: transPath(u.ID, e.fx.node.ID), header: e.fx.headers,
				body: txBody(peer.node, 1)}), 409, "410", "user_locked")
			e.fx.headers = userHeaders(e.fake, e.fake.OAuthKey(u.ID, testFingerprint))

			wantError(t, postOAuth(t, e.fake, u.ID, testFingerprint, map[string]any{"refresh_token": u.RefreshToken}), 409, "410", "user_locked")
			for _, c := range []call{
				{method: "POST", path: transPath(u.ID, e.fx.node.ID), body: txBody(peer.node, 1)},
				{method: "POST", path: "/users/" + u.ID + "/nodes/" + e.fx.node.ID + "/batch-trans",
					body: map[string]any{"transactions": []any{txBody(peer.node, 1)}}},
				{method: "POST", path: dummyPath(e.fx, acct),
					body: map[string]any{"currency": "USD", "amount": 1, "type": "ACH", "direction": "DEPOSIT"}},
				{method: "GET", path: legacyDummyPath(e.fx, e.fx.node.ID, "?amount=1")},
			} {
				c.header = e.fx.headers
				wantError(t, do(t, e.fake, c), 409, "410", "user_locked")
			}
			// Nor can anyone pay the locked user.
			r := do(t, e.fake, call{method: "POST", path: transPath(peer.user.ID, peer.node.ID), header: peer.headers, body: txBody(e.fx.node, 1)})
			wantError(t, r, 409, "410", "user_locked")
			declined := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 1_00})
			wantSwipe(t, e.fake, e.card, synapsefake.CardAuth{AmountCents: 1_00}, declined, reference.IRCardRestricted)

			e.fake.Advance(72 * time.Hour)
			if got := moneyOf(t, e.fake, e.fx.node.ID); got != before {
				t.Errorf("node %+v, want %+v", got, before)
			}
			if got := moneyOf(t, e.fake, peer.node.ID); got != (nodeMoney{100_00, 100_00}) {
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
	fx := newFixture(t, fake, 100_00)
	acct := addSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account"})
	other := addTxNode(t, fake, fx.user.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	if r := do(t, fake, call{method: "POST", path: transPath(fx.user.ID, fx.node.ID), header: fx.headers, body: txBody(other, 90)}); r.status != 200 {
		t.Fatalf("create: status %d: %s", r.status, r.raw)
	}
	withdraw := func(amount float64) response {
		return do(t, fake, call{method: "POST", path: dummyPath(fx, acct), header: fx.headers,
			body: map[string]any{"currency": "USD", "amount": amount, "type": "ACH", "direction": "WITHDRAWAL"}})
	}
	wantError(t, withdraw(10.01), 409, "400", "insufficient_funds")
	wantError(t, do(t, fake, call{method: "GET", path: legacyDummyPath(fx, fx.node.ID, "?is_credit=NO&amount=10.01"), header: fx.headers}),
		409, "400", "insufficient_funds")
	if r := withdraw(10); r.status != 200 {
		t.Fatalf("withdrawal of the available $10: status %d: %s", r.status, r.raw)
	}
	if got, want := moneyOf(t, fake, fx.node.ID), (nodeMoney{100_00, 0}); got != want {
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
		call func(e txEnv, acct synapsefake.Subnet) call
	}{
		{"a transfer", func(e txEnv, _ synapsefake.Subnet) call {
			return call{method: "POST", path: transPath(e.fx.user.ID, e.fx.node.ID), header: e.fx.headers, body: txBody(e.payee.node, 10)}
		}},
		{"a dummy withdrawal", func(e txEnv, acct synapsefake.Subnet) call {
			return call{method: "POST", path: dummyPath(e.fx, acct), header: e.fx.headers,
				body: map[string]any{"currency": "USD", "amount": 10, "type": "ACH", "direction": "WITHDRAWAL"}}
		}},
		{"a legacy dummy debit", func(e txEnv, _ synapsefake.Subnet) call {
			return call{method: "GET", path: legacyDummyPath(e.fx, e.fx.node.ID, "?is_credit=NO&amount=10"), header: e.fx.headers}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTxEnv(t, 0, synapsefake.WithImmediateStatements())
			acct := addSubnet(t, e.fake, e.fx, synapsefake.SubnetSeed{Nickname: "Account"})
			r := do(t, e.fake, tc.call(e, acct))
			if r.status != 200 || getPath(r.body, "recent_status.status") != "CREATED" {
				t.Fatalf("status %d, want 200 and CREATED: %s", r.status, r.raw)
			}
			e.fake.CheckBalance(t, e.fx.node.ID, 0, -10_00)
			e.fake.Advance(96 * time.Hour)
			e.fake.CheckStatus(t, r.body["_id"].(string), synapsefake.StatusSettled)
			e.fake.CheckBalance(t, e.fx.node.ID, -10_00, -10_00)
			if tc.name == "a transfer" {
				e.fake.CheckBalance(t, e.payee.node.ID, 10_00, 10_00)
			}
			s := do(t, e.fake, call{method: "POST", path: nodePath(e.fx.user.ID, e.fx.node.ID) + "/statements", header: e.fx.headers, body: map[string]any{}})
			if s.status != 200 || s.body["opening_balance"] != 0.0 || s.body["ending_balance"] != -10.0 {
				t.Errorf("statement: %d, opening %v ending %v, want 0 and -10: %s", s.status, s.body["opening_balance"], s.body["ending_balance"], s.raw)
			}
			var saved bytes.Buffer
			if err := e.fake.Snapshot(&saved); err != nil {
				t.Fatal(err)
			}
			if err := synapsefake.New().Restore(&saved); err != nil {
				t.Errorf("the saved state does not check: %v", err)
			}

			checked := newTxEnv(t, 0, synapsefake.WithFundsCheck())
			acct = addSubnet(t, checked.fake, checked.fx, synapsefake.SubnetSeed{Nickname: "Account"})
			before := stateDoc(t, checked.fake)
			wantErrorStatus(t, do(t, checked.fake, tc.call(checked, acct)), 409, "400", "insufficient_funds")
			wantSameState(t, checked.fake, before)
		})
	}
}
