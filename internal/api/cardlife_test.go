package api_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// lifeStep is one step of a card's lifecycle and what the fake shows after
// it.
type lifeStep struct {
	do                 func(e cardEnv, id string) error
	wantErr            string // error.code the step is refused with, "" for success
	status             synapsefake.Status
	code               string
	amount, authorized int64 // the transaction's AmountCents and AuthorizedCents
	balance, available int64 // the card's node
	// hooks are the webhooks of the transaction emitted by the step, as
	// "FUNCTION STATUS amount.amount authorized_amount".
	hooks []string
}

func TestCardLifecycle(t *testing.T) {
	clear := func(c int64) func(cardEnv, string) error {
		return func(e cardEnv, id string) error { return e.fake.ClearAuthorization(id, c) }
	}
	increment := func(c int64) func(cardEnv, string) error {
		return func(e cardEnv, id string) error { return e.fake.IncrementAuthorization(id, c) }
	}
	reverse := func(c int64) func(cardEnv, string) error {
		return func(e cardEnv, id string) error { return e.fake.ReverseAuthorization(id, c) }
	}
	advance := func(d time.Duration) func(cardEnv, string) error {
		return func(e cardEnv, _ string) error { e.fake.Advance(d); return nil }
	}
	const (
		created  = synapsefake.StatusCreated
		settled  = synapsefake.StatusSettled
		canceled = synapsefake.StatusCanceled
	)
	cleared := func(amount, authorized string) []string {
		return []string{
			"TRAN|PATCH PROCESSING-DEBIT " + amount + " " + authorized,
			"TRAN|PATCH PROCESSING-CREDIT " + amount + " " + authorized,
			"TRAN|PATCH SETTLED " + amount + " " + authorized,
		}
	}
	for _, tc := range []struct {
		name  string
		auth  int64 // the held swipe, on a node holding $100.00
		steps []lifeStep
	}{
		{"cleared for more than authorized (a tip)", 20_00, []lifeStep{
			{do: clear(23_00), status: settled, amount: 23_00, authorized: 20_00, balance: 77_00, available: 77_00,
				hooks: cleared("23", "20")},
		}},
		{"cleared for less than authorized (fuel)", 75_00, []lifeStep{
			{do: clear(43_00), status: settled, amount: 43_00, authorized: 75_00, balance: 57_00, available: 57_00,
				hooks: cleared("43", "75")},
		}},
		{"cleared past the available balance", 90_00, []lifeStep{
			{do: clear(120_00), status: settled, amount: 120_00, authorized: 90_00, balance: -20_00, available: -20_00,
				hooks: cleared("120", "90")},
		}},
		{"incremented, then cleared", 30_00, []lifeStep{
			{do: increment(15_00), status: created, amount: 45_00, authorized: 45_00, balance: 100_00, available: 55_00,
				hooks: []string{"TRAN|PATCH CREATED 45 45"}},
			{do: increment(5_00), status: created, amount: 50_00, authorized: 50_00, balance: 100_00, available: 50_00,
				hooks: []string{"TRAN|PATCH CREATED 50 50"}},
			{do: clear(50_00), status: settled, amount: 50_00, authorized: 50_00, balance: 50_00, available: 50_00,
				hooks: cleared("50", "50")},
		}},
		{"partly reversed, then cleared", 50_00, []lifeStep{
			{do: reverse(20_00), status: created, amount: 30_00, authorized: 30_00, balance: 100_00, available: 70_00,
				hooks: []string{"TRAN|PATCH CREATED 30 30"}},
			{do: clear(30_00), status: settled, amount: 30_00, authorized: 30_00, balance: 70_00, available: 70_00,
				hooks: cleared("30", "30")},
		}},
		{"fully reversed", 50_00, []lifeStep{
			{do: reverse(50_00), status: canceled, code: "IR17", amount: 50_00, authorized: 50_00, balance: 100_00, available: 100_00,
				hooks: []string{"TRAN|PATCH CANCELED 50 50"}},
		}},
		{"incremented, then fully reversed", 10_00, []lifeStep{
			{do: increment(10_00), status: created, amount: 20_00, authorized: 20_00, balance: 100_00, available: 80_00,
				hooks: []string{"TRAN|PATCH CREATED 20 20"}},
			{do: reverse(20_00), status: canceled, code: "IR17", amount: 20_00, authorized: 20_00, balance: 100_00, available: 100_00,
				hooks: []string{"TRAN|PATCH CANCELED 20 20"}},
		}},
		{"lapses after AuthorizationHoldDays", 40_00, []lifeStep{
			{do: advance(synapsefake.AuthorizationHoldDays*24*time.Hour - time.Millisecond), status: created,
				amount: 40_00, authorized: 40_00, balance: 100_00, available: 60_00},
			{do: advance(time.Millisecond), status: canceled, code: "IR154", amount: 40_00, authorized: 40_00,
				balance: 100_00, available: 100_00, hooks: []string{"TRAN|PATCH CANCELED 40 40"}},
			{do: clear(40_00), wantErr: "authorization_not_held", status: canceled, code: "IR154", amount: 40_00,
				authorized: 40_00, balance: 100_00, available: 100_00},
		}},
		{"cleared before it lapses", 40_00, []lifeStep{
			{do: advance(6 * 24 * time.Hour), status: created, amount: 40_00, authorized: 40_00, balance: 100_00, available: 60_00},
			{do: clear(40_00), status: settled, amount: 40_00, authorized: 40_00, balance: 60_00, available: 60_00,
				hooks: cleared("40", "40")},
			{do: advance(2 * 24 * time.Hour), status: settled, amount: 40_00, authorized: 40_00, balance: 60_00, available: 60_00},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newCardEnv(t, 100_00, "")
			tx := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: tc.auth, Merchant: "DINER", Hold: true})
			if tx.Status != created || tx.AuthorizedCents != tc.auth || !tx.HoldExpires.Equal(snMonday.AddDate(0, 0, 7)) {
				t.Fatalf("held swipe: %s, authorized %d, expires %v", tx.Status, tx.AuthorizedCents, tx.HoldExpires)
			}
			want := fmt.Sprintf("TRANS|POST CREATED %v %v", float64(tc.auth)/100, float64(tc.auth)/100)
			seen := 0
			if got := txHooks(e.fake, tx.ID, &seen); !cmp.Equal(got, []string{want}) {
				t.Errorf("swipe webhooks %q, want %q", got, want)
			}
			wantMoney(t, e, 100_00, 100_00-tc.auth)
			all := []string{want}
			for i, st := range tc.steps {
				all = append(all, st.hooks...)
				if err := st.do(e, tx.ID); !errIs(err, st.wantErr) {
					t.Fatalf("step %d: error %v, want %q", i, err, st.wantErr)
				}
				got, _ := e.fake.Transaction(tx.ID)
				if got.Status != st.status || got.Code != st.code || got.AmountCents != st.amount || got.AuthorizedCents != st.authorized {
					t.Errorf("step %d: %s %q amount %d authorized %d; want %s %q %d %d", i,
						got.Status, got.Code, got.AmountCents, got.AuthorizedCents, st.status, st.code, st.amount, st.authorized)
				}
				wantMoney(t, e, st.balance, st.available)
				if hooks := txHooks(e.fake, tx.ID, &seen); !cmp.Equal(hooks, st.hooks) {
					t.Errorf("step %d: webhooks %q, want %q", i, hooks, st.hooks)
				}
			}
			// Read again at the end, each webhook still shows the amount
			// of its moment.
			seen = 0
			if got := txHooks(e.fake, tx.ID, &seen); !cmp.Equal(got, all) {
				t.Errorf("webhooks read at the end %q, want %q", got, all)
			}
		})
	}
}

// errIs reports whether err is the refusal with error.code code, or nil
// for code "".
func errIs(err error, code string) bool {
	if code == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), "synapsefake: "+code+" ")
}

// txHooks formats the webhooks of transaction id emitted since *seen and
// moves *seen past them.
func txHooks(fake *synapsefake.Server, id string, seen *int) []string {
	var out []string
	n := 0
	for _, w := range fake.Webhooks().All() {
		if w.ObjectID != id {
			continue
		}
		n++
		if n <= *seen {
			continue
		}
		p := w.Payload()
		amount := p["amount"].(map[string]any)["amount"]
		other := p["extra"].(map[string]any)["other"].(map[string]any)
		out = append(out, fmt.Sprintf("%s %s %v %v", w.Function, w.Status, amount, other["authorized_amount"]))
	}
	*seen = n
	return out
}

// wantMoney checks the current and available balance of the card's node.
func wantMoney(t *testing.T, e cardEnv, balance, available int64) {
	t.Helper()
	n, ok := e.fake.Node(e.fx.Node.ID)
	if !ok {
		t.Fatalf("Node(%s) not found", e.fx.Node.ID)
	}
	if n.BalanceCents != balance || n.AvailableCents != available {
		t.Errorf("node: balance %d available %d, want %d %d", n.BalanceCents, n.AvailableCents, balance, available)
	}
}

// lifeIDs are the objects a refusal case may name.
type lifeIDs struct {
	held     string // a held $50.00 authorization
	settled  string // a swipe cleared for its amount
	declined string // a declined swipe
	transfer string // a CREATED transfer between deposit nodes
	acct     string // an account-number subnet
}

func newLifeIDs(t *testing.T, e cardEnv) lifeIDs {
	t.Helper()
	ids := lifeIDs{held: swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 50_00, Hold: true}).ID}
	ids.settled = swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 10_00, Hold: true}).ID
	if err := e.fake.ClearAuthorization(ids.settled, 10_00); err != nil {
		t.Fatal(err)
	}
	ids.declined = swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 5_00, DeclineWith: "IR59"}).ID
	payee := testkit.NewFixture(t, e.fake, 0)
	r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: testkit.TransPath(e.fx.User.ID, e.fx.Node.ID), Header: e.fx.Headers,
		Body: testkit.TxBody(payee.Node, 1)})
	if r.Status != 200 {
		t.Fatalf("POST trans: %d %s", r.Status, r.Raw)
	}
	ids.transfer = r.Body["_id"].(string)
	ids.acct = testkit.AddSubnet(t, e.fake, e.fx, synapsefake.SubnetSeed{Nickname: "Checking"}).ID
	return ids
}

// TestCardLifecycleRefusals: bad input and steps that are not legal for the
// transaction's status are refused, through Go and the control API alike,
// with the wire error, and change nothing: no balance, no transaction, no
// webhook.
func TestCardLifecycleRefusals(t *testing.T) {
	const unknown = "0123456789abcdef01234567"
	for _, tc := range []struct {
		name          string
		goCall        func(f *synapsefake.Server, ids lifeIDs, card string) error
		path          func(ids lifeIDs, card string) string // below /_fake
		body          map[string]any
		status        int
		errCode, code string
	}{
		{"increment: unknown transaction",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error {
				return f.IncrementAuthorization(unknown, 100)
			},
			func(ids lifeIDs, _ string) string { return "/transactions/" + unknown + "/increment" },
			map[string]any{"amount_cents": 100}, 404, "404", "unable_to_locate_transaction"},
		{"increment: zero",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error { return f.IncrementAuthorization(ids.held, 0) },
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.held + "/increment" },
			map[string]any{"amount_cents": 0}, 400, "200", "invalid_amount"},
		{"increment: past MaxAmountCents",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error {
				return f.IncrementAuthorization(ids.held, synapsefake.MaxAmountCents)
			},
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.held + "/increment" },
			map[string]any{"amount_cents": synapsefake.MaxAmountCents}, 400, "200", "invalid_amount"},
		{"increment: over the available balance",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error {
				return f.IncrementAuthorization(ids.held, 50_01)
			},
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.held + "/increment" },
			map[string]any{"amount_cents": 50_01}, 409, "400", "authorization_declined"},
		{"increment: amount missing",
			nil,
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.held + "/increment" },
			map[string]any{}, 400, "200", "missing_amount"},
		{"increment: a cleared swipe",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error {
				return f.IncrementAuthorization(ids.settled, 100)
			},
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.settled + "/increment" },
			map[string]any{"amount_cents": 100}, 409, "410", "authorization_not_held"},
		{"increment: a declined swipe",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error {
				return f.IncrementAuthorization(ids.declined, 100)
			},
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.declined + "/increment" },
			map[string]any{"amount_cents": 100}, 409, "410", "not_a_card_authorization"},
		{"reverse: more than held",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error {
				return f.ReverseAuthorization(ids.held, 50_01)
			},
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.held + "/reverse" },
			map[string]any{"amount_cents": 50_01}, 400, "200", "invalid_amount"},
		{"reverse: negative",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error { return f.ReverseAuthorization(ids.held, -1) },
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.held + "/reverse" },
			map[string]any{"amount_cents": -1}, 400, "200", "invalid_amount"},
		{"reverse: a transfer",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error {
				return f.ReverseAuthorization(ids.transfer, 100)
			},
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.transfer + "/reverse" },
			map[string]any{"amount_cents": 100}, 409, "410", "not_a_card_authorization"},
		{"reverse: unknown field",
			nil,
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.held + "/reverse" },
			map[string]any{"amount_cents": 100, "merchant": "X"}, 400, "200", "unknown_field"},
		{"clear: a cleared swipe",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error {
				return f.ClearAuthorization(ids.settled, 100)
			},
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.settled + "/clear" },
			map[string]any{"amount_cents": 100}, 409, "410", "authorization_not_held"},
		{"clear: zero",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error { return f.ClearAuthorization(ids.held, 0) },
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.held + "/clear" },
			map[string]any{"amount_cents": 0}, 400, "200", "invalid_amount"},
		{"clear: amount of the wrong type",
			nil,
			func(ids lifeIDs, _ string) string { return "/transactions/" + ids.held + "/clear" },
			map[string]any{"amount_cents": "12"}, 400, "200", ""},
		{"force post: unknown subnet",
			func(f *synapsefake.Server, _ lifeIDs, _ string) error {
				_, err := f.ForcePost(unknown, synapsefake.CardAuth{AmountCents: 100})
				return err
			},
			func(lifeIDs, string) string { return "/subnets/" + unknown + "/force-post" },
			map[string]any{"amount_cents": 100}, 404, "404", "unable_to_locate_subnet"},
		{"force post: with a decline code",
			func(f *synapsefake.Server, _ lifeIDs, card string) error {
				_, err := f.ForcePost(card, synapsefake.CardAuth{AmountCents: 100, DeclineWith: "IR51"})
				return err
			},
			func(_ lifeIDs, card string) string { return "/subnets/" + card + "/force-post" },
			map[string]any{"amount_cents": 100, "decline_with": "IR51"}, 400, "200", "invalid_force_post"},
		{"force post: over MaxAmountCents",
			func(f *synapsefake.Server, _ lifeIDs, card string) error {
				_, err := f.ForcePost(card, synapsefake.CardAuth{AmountCents: synapsefake.MaxAmountCents + 1})
				return err
			},
			func(_ lifeIDs, card string) string { return "/subnets/" + card + "/force-post" },
			map[string]any{"amount_cents": synapsefake.MaxAmountCents + 1}, 400, "200", "invalid_amount"},
		{"refund: not a card",
			func(f *synapsefake.Server, ids lifeIDs, _ string) error {
				_, err := f.RefundCard(ids.acct, 100, "")
				return err
			},
			func(ids lifeIDs, _ string) string { return "/subnets/" + ids.acct + "/refund" },
			map[string]any{"amount_cents": 100}, 409, "410", "not_a_card"},
		{"refund: zero",
			func(f *synapsefake.Server, _ lifeIDs, card string) error {
				_, err := f.RefundCard(card, 0, "")
				return err
			},
			func(_ lifeIDs, card string) string { return "/subnets/" + card + "/refund" },
			map[string]any{"amount_cents": 0}, 400, "200", "invalid_amount"},
		{"refund: amount missing",
			nil,
			func(_ lifeIDs, card string) string { return "/subnets/" + card + "/refund" },
			map[string]any{"merchant": "SHOP"}, 400, "200", "missing_amount"},
	} {
		for _, via := range []string{"go", "control"} {
			if via == "go" && tc.goCall == nil {
				continue
			}
			t.Run(tc.name+" via "+via, func(t *testing.T) {
				t.Parallel()
				e := newCardEnv(t, 100_00, "")
				ids := newLifeIDs(t, e)
				before := lifeState(t, e)
				if via == "go" {
					if err := tc.goCall(e.fake, ids, e.card.ID); !errIs(err, tc.code) {
						t.Errorf("error %v, want %q", err, tc.code)
					}
				} else {
					testkit.WantError(t, testkit.Ctl(t, e.fake, "POST", tc.path(ids, e.card.ID), tc.body), tc.status, tc.errCode, tc.code)
				}
				if diff := cmp.Diff(before, lifeState(t, e)); diff != "" {
					t.Errorf("state changed (-before +after):\n%s", diff)
				}
			})
		}
	}
}

// TestForcePostAndRefundNeedAnOpenAccount: a force post or a refund to a card
// whose node is deleted is 409 / "410" node_inactive, and to a locked user's
// card 409 / "410" user_locked, through Go and the control API alike, as the
// other doors that move money refuse them; nothing changes.
func TestForcePostAndRefundNeedAnOpenAccount(t *testing.T) {
	t.Parallel()
	ops := map[string]struct {
		goCall func(e cardEnv) error
		path   string
		body   map[string]any
	}{
		"force post": {func(e cardEnv) error {
			_, err := e.fake.ForcePost(e.card.ID, synapsefake.CardAuth{AmountCents: 30_00})
			return err
		}, "/force-post", map[string]any{"amount_cents": 30_00}},
		"refund": {func(e cardEnv) error {
			_, err := e.fake.RefundCard(e.card.ID, 12_50, "")
			return err
		}, "/refund", map[string]any{"amount_cents": 12_50}},
	}
	closings := map[string]struct {
		close func(t *testing.T, e cardEnv)
		code  string
	}{
		"node deleted": {func(t *testing.T, e cardEnv) { deleteNode(t, e.fake, e.fx, e.fx.Node.ID) }, "node_inactive"},
		"user locked": {func(t *testing.T, e cardEnv) {
			if err := e.fake.SetPermission(e.fx.User.ID, synapsefake.PermissionLocked); err != nil {
				t.Fatal(err)
			}
		}, "user_locked"},
	}
	for opName, op := range ops {
		for closing, c := range closings {
			for _, via := range []string{"go", "control"} {
				t.Run(opName+", "+closing+", via "+via, func(t *testing.T) {
					t.Parallel()
					e := newCardEnv(t, 100_00, "")
					c.close(t, e)
					before := lifeState(t, e)
					if via == "go" {
						if err := op.goCall(e); !errIs(err, c.code) {
							t.Errorf("error %v, want %q", err, c.code)
						}
					} else {
						testkit.WantError(t, testkit.Ctl(t, e.fake, "POST", "/subnets/"+e.card.ID+op.path, op.body), 409, "410", c.code)
					}
					if diff := cmp.Diff(before, lifeState(t, e)); diff != "" {
						t.Errorf("state changed (-before +after):\n%s", diff)
					}
				})
			}
		}
	}
}

// lifeState is what a refusal must not change: the card node's money, every
// transaction and the number of webhooks.
func lifeState(t *testing.T, e cardEnv) any {
	t.Helper()
	n, _ := e.fake.Node(e.fx.Node.ID)
	var txs []synapsefake.Transaction
	for _, w := range e.fake.Webhooks().All() {
		if w.ObjectType == "TRAN" && w.Function == "TRANS|POST" {
			tx, _ := e.fake.Transaction(w.ObjectID)
			txs = append(txs, tx)
		}
	}
	return map[string]any{"balance": n.BalanceCents, "available": n.AvailableCents, "txs": txs, "hooks": e.fake.Webhooks().Len()}
}

// TestForcePostAndRefund: a force post debits the card's node at once with
// no authorization, whatever the card's rules; a refund credits it at once.
// Each is one TRANS|POST and a TRAN|PATCH per step, through Go and the
// control API alike.
func TestForcePostAndRefund(t *testing.T) {
	settledHooks := func(amount, authorized string) []string {
		return []string{"TRANS|POST CREATED " + amount + " " + authorized,
			"TRAN|PATCH PROCESSING-DEBIT " + amount + " " + authorized,
			"TRAN|PATCH PROCESSING-CREDIT " + amount + " " + authorized,
			"TRAN|PATCH SETTLED " + amount + " " + authorized}
	}
	for _, tc := range []struct {
		name               string
		goCall             func(e cardEnv) (synapsefake.Transaction, error)
		path               string // below /_fake/subnets/{card}
		body               map[string]any
		balance, available int64
		toCard             bool // the card's node receives
		hooks              []string
		meta               string // from.meta.is_force_post / extra.other.is_refund
	}{
		{"force post", func(e cardEnv) (synapsefake.Transaction, error) {
			return e.fake.ForcePost(e.card.ID, synapsefake.CardAuth{AmountCents: 30_00, Merchant: "TOLL ROAD"})
		}, "/force-post", map[string]any{"amount_cents": 30_00, "merchant": "TOLL ROAD"},
			70_00, 70_00, false, settledHooks("30", "0"), "force post"},
		{"force post past the available balance", func(e cardEnv) (synapsefake.Transaction, error) {
			return e.fake.ForcePost(e.card.ID, synapsefake.CardAuth{AmountCents: 130_00, Merchant: "AIRLINE"})
		}, "/force-post", map[string]any{"amount_cents": 130_00, "merchant": "AIRLINE"},
			-30_00, -30_00, false, settledHooks("130", "0"), "force post"},
		{"refund", func(e cardEnv) (synapsefake.Transaction, error) {
			return e.fake.RefundCard(e.card.ID, 12_50, "SHOE STORE")
		}, "/refund", map[string]any{"amount_cents": 12_50, "merchant": "SHOE STORE"},
			112_50, 112_50, true, []string{"TRANS|POST CREATED 12.5 <nil>", "TRAN|PATCH PROCESSING-DEBIT 12.5 <nil>",
				"TRAN|PATCH PROCESSING-CREDIT 12.5 <nil>", "TRAN|PATCH SETTLED 12.5 <nil>"}, "refund"},
	} {
		for _, via := range []string{"go", "control"} {
			t.Run(tc.name+" via "+via, func(t *testing.T) {
				t.Parallel()
				e := newCardEnv(t, 100_00, "")
				e.patch(t, `{"status":"INACTIVE"}`) // no rule of the card applies
				var id string
				if via == "go" {
					tx, err := tc.goCall(e)
					if err != nil {
						t.Fatal(err)
					}
					id = tx.ID
				} else {
					body := testkit.CtlOK(t, e.fake, "POST", "/subnets/"+e.card.ID+tc.path, tc.body)
					id = body["transaction"].(map[string]any)["_id"].(string)
				}
				tx, _ := e.fake.Transaction(id)
				if tx.Status != synapsefake.StatusSettled || (tx.ToNodeID == e.fx.Node.ID) != tc.toCard || tx.AuthorizedCents != 0 {
					t.Errorf("transaction %s to %s authorized %d; want SETTLED, to the card's node %v", tx.Status, tx.ToNodeID, tx.AuthorizedCents, tc.toCard)
				}
				wantMoney(t, e, tc.balance, tc.available)
				seen := 0
				if got := txHooks(e.fake, id, &seen); !cmp.Equal(got, tc.hooks) {
					t.Errorf("webhooks %q, want %q", got, tc.hooks)
				}
				p := e.fake.Webhooks().All()
				last := p[len(p)-1].Payload()
				forcePost := last["from"].(map[string]any)["meta"].(map[string]any)["is_force_post"]
				refund := last["extra"].(map[string]any)["other"].(map[string]any)["is_refund"]
				if got := map[bool]string{true: "force post"}[forcePost == true] + map[bool]string{true: "refund"}[refund == true]; got != tc.meta {
					t.Errorf("is_force_post %v, is_refund %v; want %s", forcePost, refund, tc.meta)
				}
			})
		}
	}
}

// TestHeldAuthorizationControl drives a hold through the control API: the
// swipe with "hold", an increment, a partial reversal, a clearing for more
// (amount_cents omitted clears the held amount).
func TestHeldAuthorizationControl(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 100_00, "")
	body := testkit.CtlOK(t, e.fake, "POST", "/subnets/"+e.card.ID+"/authorize", map[string]any{"amount_cents": 20_00, "hold": true})
	id := body["transaction"].(map[string]any)["_id"].(string)
	for _, step := range []struct {
		path               string
		body               map[string]any
		status             string
		amount             float64
		balance, available int64
	}{
		{"/increment", map[string]any{"amount_cents": 10_00}, "CREATED", 30_00, 100_00, 70_00},
		{"/reverse", map[string]any{"amount_cents": 5_00}, "CREATED", 25_00, 100_00, 75_00},
		{"/clear", map[string]any{"amount_cents": 28_00}, "SETTLED", 28_00, 72_00, 72_00},
	} {
		got := testkit.CtlOK(t, e.fake, "POST", "/transactions/"+id+step.path, step.body)["transaction"].(map[string]any)
		if got["status"] != step.status || got["amount_cents"] != step.amount {
			t.Errorf("%s: %v %v, want %s %v", step.path, got["status"], got["amount_cents"], step.status, step.amount)
		}
		wantMoney(t, e, step.balance, step.available)
	}
	second := testkit.CtlOK(t, e.fake, "POST", "/subnets/"+e.card.ID+"/authorize", map[string]any{"amount_cents": 40_00, "hold": true})
	id = second["transaction"].(map[string]any)["_id"].(string)
	if got := testkit.CtlOK(t, e.fake, "POST", "/transactions/"+id+"/reverse", nil)["transaction"].(map[string]any); got["status"] != "CANCELED" || got["code"] != "IR17" {
		t.Errorf("full reversal: %v %v, want CANCELED IR17", got["status"], got["code"])
	}
	wantMoney(t, e, 72_00, 72_00)
}

// TestHeldAuthorizationSurvivesRestore: a saved state keeps a hold, its
// amount history and its expiry.
func TestHeldAuthorizationSurvivesRestore(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 100_00, "")
	tx := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 20_00, Hold: true})
	if err := e.fake.IncrementAuthorization(tx.ID, 5_00); err != nil {
		t.Fatal(err)
	}
	var saved strings.Builder
	if err := e.fake.Snapshot(&saved); err != nil {
		t.Fatal(err)
	}
	restored := newMondayServer(t)
	if err := restored.Restore(strings.NewReader(saved.String())); err != nil {
		t.Fatal(err)
	}
	seen := 0
	if got, want := txHooks(restored, tx.ID, &seen), []string{"TRANS|POST CREATED 20 20", "TRAN|PATCH CREATED 25 25"}; !cmp.Equal(got, want) {
		t.Errorf("restored webhooks %q, want %q", got, want)
	}
	restored.Advance(synapsefake.AuthorizationHoldDays * 24 * time.Hour)
	if got, _ := restored.Transaction(tx.ID); got.Status != synapsefake.StatusCanceled || got.Code != "IR154" || got.AuthorizedCents != 25_00 {
		t.Errorf("after the hold's days: %s %q authorized %d, want CANCELED IR154 2500", got.Status, got.Code, got.AuthorizedCents)
	}
	if n, _ := restored.Node(e.fx.Node.ID); n.AvailableCents != 100_00 {
		t.Errorf("available %d after the lapse, want 10000", n.AvailableCents)
	}
}
