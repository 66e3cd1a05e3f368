package api_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// cardEnv is a fake on a mock clock set to snMonday with an ACTIVE card on
// a DEPOSIT-US node.
type cardEnv struct {
	fake *synapsefake.Server
	fx   testkit.Fixture
	card synapsefake.Subnet
}

// newCardEnv builds a cardEnv on a server with opts whose node holds
// balanceCents; prefs, when not "", is the card's preferences object sent
// by PATCH (limits in USD).
func newCardEnv(t testing.TB, balanceCents int64, prefs string, opts ...synapsefake.Option) cardEnv {
	t.Helper()
	fake := newMondayServer(t, opts...)
	fx := testkit.NewFixture(t, fake, balanceCents)
	e := cardEnv{fake: fake, fx: fx}
	e.card = testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	if prefs != "" {
		e.patch(t, `{"preferences":`+prefs+`}`)
	}
	return e
}

// patch sends a PATCH to the card and fails the test unless it succeeds.
func (e cardEnv) patch(t testing.TB, body string) {
	t.Helper()
	if r := patchSubnet(t, e.fake, e.fx, e.card.ID, body); r.Status != 200 {
		t.Fatalf("PATCH %s: status %d: %s", body, r.Status, r.Raw)
	}
}

// swipe makes a card authorization that must not be an error.
func swipe(t testing.TB, fake *synapsefake.Server, subnetID string, auth synapsefake.CardAuth) synapsefake.Transaction {
	t.Helper()
	tx, err := fake.CardAuthorization(subnetID, auth)
	if err != nil {
		t.Fatalf("CardAuthorization(%+v): %v", auth, err)
	}
	return tx
}

func balanceOf(t testing.TB, fake *synapsefake.Server, nodeID string) int64 {
	t.Helper()
	n, ok := fake.Node(nodeID)
	if !ok {
		t.Fatalf("Node(%s) not found", nodeID)
	}
	return n.BalanceCents
}

// wantSwipe checks a swipe's transaction: from the card's node to an
// INTERCHANGE-US node, made at the fake's current time, declined with code
// (RETURNED at once, no money moved) or approved (CREATED) when code is "".
func wantSwipe(t testing.TB, fake *synapsefake.Server, card synapsefake.Subnet, auth synapsefake.CardAuth, got synapsefake.Transaction, code string) {
	t.Helper()
	now := fake.Now()
	to, ok := fake.Node(got.ToNodeID)
	if !ok || to.Type != "INTERCHANGE-US" {
		t.Errorf("to node %s is %+v, want an INTERCHANGE-US node", got.ToNodeID, to)
	}
	merchant := auth.Merchant
	if merchant == "" {
		merchant = "SYNAPSEFAKE MERCHANT"
	}
	want := synapsefake.Transaction{
		ID: got.ID, UserID: card.UserID, FromNodeID: card.NodeID, ToNodeID: got.ToNodeID, AmountCents: auth.AmountCents,
		Currency: "USD", Fees: []synapsefake.Fee{{Note: "Facilitator Fee"}}, Status: synapsefake.StatusCreated,
		Timeline:  []synapsefake.TimelineEntry{{Status: synapsefake.StatusCreated, Note: "Transaction Created.", Date: now}},
		Note:      merchant,
		CreatedOn: now, ProcessOn: now,
	}
	if code != "" {
		meaning, _ := reference.InterchangeMeaning(code)
		want.Status, want.Code = synapsefake.StatusReturned, code
		want.Timeline = append(want.Timeline, synapsefake.TimelineEntry{Status: synapsefake.StatusReturned, Note: code + ": " + meaning + ".", Date: now})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("swipe transaction (-want +got):\n%s", diff)
	}
	if stored, _ := fake.Transaction(got.ID); !cmp.Equal(got, stored) {
		t.Errorf("Transaction(%s) differs from the returned copy:\n%s", got.ID, cmp.Diff(got, stored))
	}
}

func TestCardAuthorizationRules(t *testing.T) {
	t.Parallel()
	const usd = 100 // cents
	for _, tc := range []struct {
		name       string
		balance    int64                    // of the card's node, cents; 200,000 when 0
		status     synapsefake.SubnetStatus // of the card; ACTIVE when ""
		prefs      string                   // PATCH preferences, USD
		deleteNode bool
		expire     time.Duration // advance the clock to the card's exp day + 1 plus this
		prior      []synapsefake.CardAuth
		auth       synapsefake.CardAuth
		wantCode   string // "" approved
	}{
		{name: "approved", auth: synapsefake.CardAuth{AmountCents: 25 * usd, Merchant: "CORNER SHOP"}},
		{name: "TERMINATED card is restricted", status: synapsefake.SubnetTerminated, auth: synapsefake.CardAuth{AmountCents: 1}, wantCode: "IR62"},
		{name: "INACTIVE card is not activated", status: synapsefake.SubnetInactive, auth: synapsefake.CardAuth{AmountCents: 1}, wantCode: "IR04"},
		{name: "card past its exp day is expired", expire: 0, auth: synapsefake.CardAuth{AmountCents: 1}, wantCode: "IR54"},
		{name: "card is valid through its exp day", expire: -time.Millisecond, auth: synapsefake.CardAuth{AmountCents: 1}},
		{name: "cash when not allowed", prefs: `{"allow_cash_transactions":false}`, auth: synapsefake.CardAuth{AmountCents: 20 * usd, Cash: true}, wantCode: "IR57"},
		{name: "cash allowed by default", auth: synapsefake.CardAuth{AmountCents: 20 * usd, Cash: true}},
		{name: "purchase when cash is not allowed", prefs: `{"allow_cash_transactions":false}`, auth: synapsefake.CardAuth{AmountCents: 20 * usd}},
		{name: "foreign refused by default", auth: synapsefake.CardAuth{AmountCents: 20 * usd, Foreign: true}, wantCode: "IR57"},
		{name: "foreign when allowed", prefs: `{"allow_foreign_transactions":true}`, auth: synapsefake.CardAuth{AmountCents: 20 * usd, Foreign: true}},
		{name: "foreign cash when only cash is allowed", auth: synapsefake.CardAuth{AmountCents: 20 * usd, Foreign: true, Cash: true}, wantCode: "IR57"},
		{name: "over the node's balance", balance: 50 * usd, auth: synapsefake.CardAuth{AmountCents: 50*usd + 1}, wantCode: "IR51"},
		{name: "exactly the node's balance", balance: 50 * usd, auth: synapsefake.CardAuth{AmountCents: 50 * usd}},
		{
			name: "approved swipes not yet debited hold funds", balance: 50 * usd,
			prior: []synapsefake.CardAuth{{AmountCents: 30 * usd}}, auth: synapsefake.CardAuth{AmountCents: 20*usd + 1}, wantCode: "IR51",
		},
		{
			name: "up to the balance less the held funds", balance: 50 * usd,
			prior: []synapsefake.CardAuth{{AmountCents: 30 * usd}}, auth: synapsefake.CardAuth{AmountCents: 20 * usd},
		},
		{
			name: "declined swipes hold nothing", balance: 50 * usd,
			prior: []synapsefake.CardAuth{{AmountCents: 30 * usd, DeclineWith: "IR05"}}, auth: synapsefake.CardAuth{AmountCents: 50 * usd},
		},
		{name: "over daily_transaction_limit at once", auth: synapsefake.CardAuth{AmountCents: 1000*usd + 1}, wantCode: "IR185"},
		{name: "exactly daily_transaction_limit", auth: synapsefake.CardAuth{AmountCents: 1000 * usd}},
		{name: "a lowered daily_transaction_limit", prefs: `{"daily_transaction_limit":12.34}`, auth: synapsefake.CardAuth{AmountCents: 1235}, wantCode: "IR185"},
		{name: "up to a lowered daily_transaction_limit", prefs: `{"daily_transaction_limit":12.34}`, auth: synapsefake.CardAuth{AmountCents: 1234}},
		{name: "a zero daily_transaction_limit refuses every swipe", prefs: `{"daily_transaction_limit":0}`, auth: synapsefake.CardAuth{AmountCents: 1}, wantCode: "IR185"},
		{
			name:     "today's approved swipes count toward daily_transaction_limit",
			prior:    []synapsefake.CardAuth{{AmountCents: 600 * usd}, {AmountCents: 300 * usd}},
			auth:     synapsefake.CardAuth{AmountCents: 100*usd + 1},
			wantCode: "IR185",
		},
		{
			name:  "up to daily_transaction_limit with today's swipes",
			prior: []synapsefake.CardAuth{{AmountCents: 600 * usd}, {AmountCents: 300 * usd}},
			auth:  synapsefake.CardAuth{AmountCents: 100 * usd},
		},
		{
			name:  "declined swipes do not count toward the limit",
			prior: []synapsefake.CardAuth{{AmountCents: 900 * usd, DeclineWith: "IR05"}, {AmountCents: 900 * usd, Foreign: true}},
			auth:  synapsefake.CardAuth{AmountCents: 1000 * usd},
		},
		{name: "cash over daily_cash_limit at once", auth: synapsefake.CardAuth{AmountCents: 500*usd + 1, Cash: true}, wantCode: "IR185"},
		{name: "cash of exactly daily_cash_limit", auth: synapsefake.CardAuth{AmountCents: 500 * usd, Cash: true}},
		{name: "cash under a daily_cash_limit with cents", prefs: `{"daily_cash_limit":0.5}`, auth: synapsefake.CardAuth{AmountCents: 50, Cash: true}},
		{name: "cash over a daily_cash_limit with cents", prefs: `{"daily_cash_limit":0.5}`, auth: synapsefake.CardAuth{AmountCents: 51, Cash: true}, wantCode: "IR185"},
		{
			name:     "today's cash counts toward daily_cash_limit",
			prior:    []synapsefake.CardAuth{{AmountCents: 300 * usd, Cash: true}},
			auth:     synapsefake.CardAuth{AmountCents: 200*usd + 1, Cash: true},
			wantCode: "IR185",
		},
		{
			name:  "purchases do not count toward daily_cash_limit",
			prior: []synapsefake.CardAuth{{AmountCents: 600 * usd}},
			auth:  synapsefake.CardAuth{AmountCents: 400 * usd, Cash: true},
		},
		{
			name:     "cash counts toward daily_transaction_limit",
			prior:    []synapsefake.CardAuth{{AmountCents: 500 * usd, Cash: true}},
			auth:     synapsefake.CardAuth{AmountCents: 500*usd + 1},
			wantCode: "IR185",
		},
		{name: "the card's node is deleted", deleteNode: true, auth: synapsefake.CardAuth{AmountCents: 1}, wantCode: "IR175"},
		// Precedence: the first rule that matches wins.
		{name: "TERMINATED before not permitted and no funds", status: synapsefake.SubnetTerminated, balance: 1, auth: synapsefake.CardAuth{AmountCents: 5 * usd, Foreign: true}, wantCode: "IR62"},
		{name: "INACTIVE before expired", status: synapsefake.SubnetInactive, expire: time.Hour, auth: synapsefake.CardAuth{AmountCents: 1}, wantCode: "IR04"},
		{name: "expired before not permitted", expire: time.Hour, auth: synapsefake.CardAuth{AmountCents: 1, Foreign: true}, wantCode: "IR54"},
		{name: "not permitted before insufficient funds", balance: 1, auth: synapsefake.CardAuth{AmountCents: 5 * usd, Cash: true, Foreign: true}, wantCode: "IR57"},
		{name: "insufficient funds before the daily limit", balance: 100 * usd, auth: synapsefake.CardAuth{AmountCents: 2000 * usd}, wantCode: "IR51"},
		{name: "DeclineWith before every rule", status: synapsefake.SubnetTerminated, balance: 1, auth: synapsefake.CardAuth{AmountCents: 5 * usd, DeclineWith: "IR59"}, wantCode: "IR59"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			balance := tc.balance
			if balance == 0 {
				balance = 2000 * usd
			}
			e := newCardEnv(t, balance, tc.prefs)
			if tc.status != "" {
				e.patch(t, fmt.Sprintf(`{"status":%q}`, tc.status))
			}
			if tc.deleteNode {
				deleteNode(t, e.fake, e.fx, e.fx.Node.ID)
			}
			if tc.expire != 0 || tc.wantCode == "IR54" {
				card := mustSubnet(t, e.fake, e.card.ID)
				e.fake.Advance(card.Exp.AddDate(0, 0, 1).Add(tc.expire).Sub(e.fake.Now()))
			}
			spent := int64(0)
			var priors []synapsefake.Transaction
			for _, p := range tc.prior {
				tx := swipe(t, e.fake, e.card.ID, p)
				priors = append(priors, tx)
				if tx.Status == synapsefake.StatusCreated {
					spent += p.AmountCents
				}
			}
			got := swipe(t, e.fake, e.card.ID, tc.auth)
			wantSwipe(t, e.fake, mustSubnet(t, e.fake, e.card.ID), tc.auth, got, tc.wantCode)
			if b := balanceOf(t, e.fake, e.fx.Node.ID); b != balance {
				t.Errorf("balance %d right after the swipe, want %d: nothing moves before processing", b, balance)
			}

			// Processing settles the approved swipes and leaves the declined ones.
			e.fake.Advance(96 * time.Hour)
			after, _ := e.fake.Transaction(got.ID)
			wantStatus := synapsefake.StatusSettled
			if tc.wantCode != "" {
				wantStatus = synapsefake.StatusReturned
			} else {
				spent += tc.auth.AmountCents
			}
			if after.Status != wantStatus || after.Code != tc.wantCode {
				t.Errorf("after processing: %s %q, want %s %q", after.Status, after.Code, wantStatus, tc.wantCode)
			}
			if tc.wantCode != "" && !cmp.Equal(after, got) {
				t.Errorf("a declined swipe changed during processing:\n%s", cmp.Diff(got, after))
			}
			for _, p := range priors {
				if tx, _ := e.fake.Transaction(p.ID); p.Status == synapsefake.StatusCreated && tx.Status != synapsefake.StatusSettled {
					t.Errorf("earlier approved swipe %s is %s after processing", p.ID, tx.Status)
				}
			}
			if b := balanceOf(t, e.fake, e.fx.Node.ID); b != balance-spent {
				t.Errorf("balance %d after processing, want %d", b, balance-spent)
			}
		})
	}
}

func TestCardAuthorizationDeclineWith(t *testing.T) {
	t.Parallel()
	var codes []string
	for _, c := range reference.InterchangeCodes() {
		if c.Code != reference.IRSuccess {
			codes = append(codes, c.Code)
		}
	}
	if len(codes) != 200 {
		t.Fatalf("%d IR codes besides IR00, want 200", len(codes))
	}
	e := newCardEnv(t, 1000000, "")
	for _, code := range codes {
		auth := synapsefake.CardAuth{AmountCents: 100, DeclineWith: code}
		tx := swipe(t, e.fake, e.card.ID, auth)
		wantSwipe(t, e.fake, e.card, auth, tx, code)
	}
	if b := balanceOf(t, e.fake, e.fx.Node.ID); b != 1000000 {
		t.Errorf("balance %d after forced declines, want 1000000", b)
	}
	// The forced declines used none of the day's limit.
	auth := synapsefake.CardAuth{AmountCents: 100000}
	wantSwipe(t, e.fake, e.card, auth, swipe(t, e.fake, e.card.ID, auth), "")
}

func TestCardAuthorizationErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		subnet func(e snEnv) string
		auth   synapsefake.CardAuth
	}{
		{"unknown DeclineWith code", func(e snEnv) string { return e.active.ID }, synapsefake.CardAuth{AmountCents: 1, DeclineWith: "IR201"}},
		{"ACH return code as DeclineWith", func(e snEnv) string { return e.active.ID }, synapsefake.CardAuth{AmountCents: 1, DeclineWith: "R01"}},
		{"lower-case DeclineWith", func(e snEnv) string { return e.active.ID }, synapsefake.CardAuth{AmountCents: 1, DeclineWith: "ir51"}},
		{"DeclineWith with no number", func(e snEnv) string { return e.active.ID }, synapsefake.CardAuth{AmountCents: 1, DeclineWith: "IR"}},
		{"zero amount", func(e snEnv) string { return e.active.ID }, synapsefake.CardAuth{}},
		{"negative amount", func(e snEnv) string { return e.active.ID }, synapsefake.CardAuth{AmountCents: -100}},
		{"unknown subnet", func(e snEnv) string { return "0123456789abcdef01234567" }, synapsefake.CardAuth{AmountCents: 1}},
		{"account-number subnet", func(e snEnv) string { return e.acct.ID }, synapsefake.CardAuth{AmountCents: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newSnEnv(t)
			before := e.snapshot(t)
			if tx, err := e.fake.CardAuthorization(tc.subnet(e), tc.auth); err == nil {
				t.Errorf("CardAuthorization(%+v) = %+v, want an error", tc.auth, tx)
			}
			wantUnchangedSince(t, e.fake, before)
		})
	}
}

func TestCardDailyLimitResets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		prefs   string
		cash    bool
		advance time.Duration // from snMonday 10:00 UTC
		want    string        // the second swipe's code
	}{
		{"transaction limit, a day later", `{"daily_transaction_limit":100}`, false, 24 * time.Hour, ""},
		{"transaction limit, at UTC midnight", `{"daily_transaction_limit":100}`, false, 14 * time.Hour, ""},
		{"transaction limit, just before UTC midnight", `{"daily_transaction_limit":100}`, false, 14*time.Hour - time.Millisecond, "IR185"},
		{"cash limit, a day later", `{"daily_cash_limit":100}`, true, 24 * time.Hour, ""},
		{"cash limit, just before UTC midnight", `{"daily_cash_limit":100}`, true, 14*time.Hour - time.Millisecond, "IR185"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newCardEnv(t, 1000000, tc.prefs)
			first := synapsefake.CardAuth{AmountCents: 6000, Cash: tc.cash}
			wantSwipe(t, e.fake, e.card, first, swipe(t, e.fake, e.card.ID, first), "")
			second := synapsefake.CardAuth{AmountCents: 5000, Cash: tc.cash}
			wantSwipe(t, e.fake, e.card, second, swipe(t, e.fake, e.card.ID, second), "IR185")
			e.fake.Advance(tc.advance)
			wantSwipe(t, e.fake, e.card, second, swipe(t, e.fake, e.card.ID, second), tc.want)
		})
	}
}

func TestCardReturnedSwipeFreesTheLimit(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 1000000, `{"daily_transaction_limit":100}`)
	first := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 10000})
	again := synapsefake.CardAuth{AmountCents: 10000}
	wantSwipe(t, e.fake, e.card, again, swipe(t, e.fake, e.card.ID, again), "IR185")
	if err := e.fake.Return(first.ID, "IR17"); err != nil {
		t.Fatalf("Return: %v", err)
	}
	wantSwipe(t, e.fake, e.card, again, swipe(t, e.fake, e.card.ID, again), "")
	if b := balanceOf(t, e.fake, e.fx.Node.ID); b != 1000000 {
		t.Errorf("balance %d after the return, want 1000000 (the returned swipe's money came back)", b)
	}
}

func TestCardSwipeSettlesOnTheACHSchedule(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 10000, "")
	tx := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 2500, Merchant: "BOOKS"})
	for _, step := range []struct {
		advance time.Duration
		status  synapsefake.Status
		balance int64
	}{
		{time.Minute - time.Millisecond, synapsefake.StatusCreated, 10000},
		{time.Millisecond, synapsefake.StatusProcessingDebit, 7500},
		{time.Hour - time.Minute, synapsefake.StatusProcessingCredit, 7500},
		{23*time.Hour - time.Millisecond, synapsefake.StatusProcessingCredit, 7500},
		{time.Millisecond, synapsefake.StatusSettled, 7500},
	} {
		e.fake.Advance(step.advance)
		got, _ := e.fake.Transaction(tx.ID)
		if got.Status != step.status {
			t.Errorf("at %v: %s, want %s", e.fake.Now().Sub(snMonday), got.Status, step.status)
		}
		if b := balanceOf(t, e.fake, e.fx.Node.ID); b != step.balance {
			t.Errorf("at %v: balance %d, want %d", e.fake.Now().Sub(snMonday), b, step.balance)
		}
	}
	if n := balanceOf(t, e.fake, tx.ToNodeID); n != 2500 {
		t.Errorf("interchange node balance %d, want 2500", n)
	}
	// Settle does the same in one call.
	tx2 := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 500})
	if err := e.fake.Settle(tx2.ID); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	if got, _ := e.fake.Transaction(tx2.ID); got.Status != synapsefake.StatusSettled {
		t.Errorf("after Settle: %s", got.Status)
	}
	if b := balanceOf(t, e.fake, e.fx.Node.ID); b != 7000 {
		t.Errorf("balance %d after Settle, want 7000", b)
	}
	// A declined swipe cannot be settled.
	declined := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 500, DeclineWith: "IR05"})
	if err := e.fake.Settle(declined.ID); err == nil {
		t.Error("Settle of a declined swipe succeeded")
	}
	if got, _ := e.fake.Transaction(declined.ID); !cmp.Equal(got, declined) {
		t.Errorf("refused Settle changed the swipe:\n%s", cmp.Diff(declined, got))
	}
}

func TestCardSwipeOverHTTP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		auth synapsefake.CardAuth
		code string
	}{
		{"declined foreign swipe", synapsefake.CardAuth{AmountCents: 1250, Merchant: "CAFE DE PARIS", Foreign: true}, "IR57"},
		{"forced decline", synapsefake.CardAuth{AmountCents: 99, Cash: true, DeclineWith: "IR41"}, "IR41"},
		{"approved swipe", synapsefake.CardAuth{AmountCents: 1250}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newCardEnv(t, 100000, "")
			tx := swipe(t, e.fake, e.card.ID, tc.auth)
			r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users/" + e.fx.User.ID + "/nodes/" + e.fx.Node.ID + "/trans/" + tx.ID, Header: e.fx.Headers})
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			net, _ := e.fake.Node(tx.ToNodeID)
			netUser, _ := e.fake.User(net.UserID)
			now := float64(e.fake.Now().UnixMilli())
			merchant := tc.auth.Merchant
			if merchant == "" {
				merchant = "SYNAPSEFAKE MERCHANT"
			}
			created := map[string]any{"date": now, "note": "Transaction Created.", "status": "CREATED", "status_id": "1"}
			timeline := []any{created}
			recent := created
			if tc.code != "" {
				meaning, _ := reference.InterchangeMeaning(tc.code)
				recent = map[string]any{"code": tc.code, "date": now, "note": tc.code + ": " + meaning + ".", "status": "RETURNED", "status_id": "6"}
				timeline = append(timeline, map[string]any{"date": now, "note": tc.code + ": " + meaning + ".", "status": "RETURNED", "status_id": "6"})
			}
			want := map[string]any{
				"_id":    tx.ID,
				"_links": map[string]any{"self": map[string]any{"href": e.fake.URL() + "/users/" + e.fx.User.ID + "/nodes/" + e.fx.Node.ID + "/trans/" + tx.ID}},
				"_v":     float64(len(timeline) + 1),
				"amount": map[string]any{"amount": float64(tc.auth.AmountCents) / 100, "currency": "USD"},
				"client": map[string]any{"id": e.fake.ClientID(), "name": e.fake.ClientName()},
				"extra": map[string]any{
					"asset": nil, "created_on": now, "encrypted_note": "", "group_id": nil, "ip": "127.0.0.1", "latlon": "0,0",
					"note": merchant, "other": map[string]any{"approved": tc.code == "", "affect_limits": tc.code == ""},
					"process_on": now, "same_day": false, "supp_id": "",
					"filename": nil, "location": map[string]any{"address_city": "", "address_country_code": "", "address_postal_code": "", "address_subdivision": "", "lat": 0.0, "lon": 0.0}, "rate": nil, "rate_limit": nil, "settlement_delay": 0.0, "tracking_number": nil, "txp_meta": map[string]any{"amount_types": []any{}, "amounts": []any{}, "payment_code": "", "tax_period_end_date": "", "taxpayer_verification": "", "tin": ""},
				},
				"fees": []any{map[string]any{"fee": 0.0, "note": "Facilitator Fee", "to": map[string]any{"id": "None"}}},
				"from": map[string]any{
					"id": e.fx.Node.ID,
					"meta": map[string]any{"merchant_name": merchant, "subnet_id": e.card.ID, "type": "CARD",
						"foreign_transaction": tc.auth.Foreign, "network_id": "SYNAPSEFAKE", "is_force_post": false},
					"nickname": "Checking", "type": "DEPOSIT-US",
					"user": map[string]any{"_id": e.fx.User.ID, "legal_names": []any{"Test User"}},
				},
				"recent_status": recent,
				"timeline":      timeline,
				"to": map[string]any{
					"id": net.ID, "nickname": net.Nickname, "type": "INTERCHANGE-US",
					"user": map[string]any{"_id": netUser.ID, "legal_names": []any{"Card Network"}},
				},
				"success": true,
			}
			if diff := cmp.Diff(want, r.Body); diff != "" {
				t.Errorf("GET transaction (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCardSwipesShareOneInterchangeNode(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 100000, "")
	other := testkit.NewFixture(t, e.fake, 100000)
	card2 := testkit.AddSubnet(t, e.fake, other, synapsefake.SubnetSeed{Nickname: "C2", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	a := swipe(t, e.fake, e.card.ID, synapsefake.CardAuth{AmountCents: 100})
	b := swipe(t, e.fake, card2.ID, synapsefake.CardAuth{AmountCents: 100, DeclineWith: "IR05"})
	if a.ToNodeID != b.ToNodeID {
		t.Errorf("swipes go to different interchange nodes %s and %s", a.ToNodeID, b.ToNodeID)
	}
	// The card network is nobody's user: no list shows its node, neither
	// the Go view of a user nor the API's list of its nodes.
	for _, fx := range []testkit.Fixture{e.fx, other} {
		u, ok := e.fake.User(fx.User.ID)
		if !ok || len(u.NodeIDs) == 0 {
			t.Fatalf("User(%s) = %v with nodes %v, want the user and its own nodes", fx.User.ID, ok, u.NodeIDs)
		}
		if slices.Contains(u.NodeIDs, a.ToNodeID) {
			t.Errorf("user %s lists the interchange node", fx.User.ID)
		}
		r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID + "/nodes", Header: fx.Headers})
		nodes, _ := r.Body["nodes"].([]any)
		if r.Status != 200 || len(nodes) == 0 {
			t.Fatalf("GET /users/%s/nodes: %d with %d nodes: %s", fx.User.ID, r.Status, len(nodes), r.Raw)
		}
		for _, n := range nodes {
			if n.(map[string]any)["_id"] == a.ToNodeID {
				t.Errorf("GET /users/%s/nodes lists the interchange node", fx.User.ID)
			}
		}
	}
}

func TestLegacyDummyThroughACardIsNotASwipe(t *testing.T) {
	t.Parallel()
	e := newCardEnv(t, 10000, `{"daily_transaction_limit":100}`)
	for _, dir := range []string{"YES", "NO"} {
		r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Header: e.fx.Headers,
			Path: "/users/" + e.fx.User.ID + "/nodes/" + e.fx.Node.ID + "/dummy-tran?is_credit=" + dir + "&type=INTERCHANGE&subnetid=" + e.card.ID + "&amount=45"})
		if r.Status != 200 {
			t.Fatalf("dummy-tran: status %d: %s", r.Status, r.Raw)
		}
	}
	// The same day, the 90 USD of dummy transactions through the card used
	// none of its 100 USD limit.
	auth := synapsefake.CardAuth{AmountCents: 5000}
	wantSwipe(t, e.fake, e.card, auth, swipe(t, e.fake, e.card.ID, auth), "")
}
