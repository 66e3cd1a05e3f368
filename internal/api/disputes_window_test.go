package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// fileDispute disputes the purchase as its user and answers the response.
func (p purchase) fileDispute(t *testing.T) testkit.Response {
	t.Helper()
	return testkit.Do(t, p.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(p.Fx.User.ID, p.sender, p.id), Header: p.Fx.Headers,
		Body: map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"}})
}

// advanceTo moves the fake's clock to at.
func (p purchase) advanceTo(t *testing.T, at time.Time) {
	t.Helper()
	if d := at.Sub(p.Fake.Now()); d < 0 {
		t.Fatalf("advanceTo(%v): the clock is at %v already", at, p.Fake.Now())
	} else {
		p.Fake.Advance(d)
	}
}

// TestDisputeFilingWindow: a user disputes a debit within its rail's
// window after settlement (cards 120 calendar days, ACH 60, other rails
// 60), through the last Eastern calendar day; later, the dispute is
// refused with 409 / "400" dispute_window_closed and nothing changes.
// Every purchase settles Fri 2024-01-05 07:00 ET.
func TestDisputeFilingWindow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		kind   string
		amount int64
		at     time.Time
		wantOK bool
	}{
		{"external $100, 400 days later", "external", 100_00, testkit.Et(2025, time.February, 8, 7, 0), false},
		{"external, the 60th day", "external", 100_00, testkit.Et(2024, time.March, 5, 23, 59), true},
		{"external, the 61st day", "external", 100_00, testkit.Et(2024, time.March, 6, 0, 0), false},
		{"ACH, the 60th day", "ach", 100_00, testkit.Et(2024, time.March, 5, 23, 59), true},
		{"ACH, the 61st day", "ach", 100_00, testkit.Et(2024, time.March, 6, 0, 0), false},
		{"card, the 120th day", "card", 50_00, testkit.Et(2024, time.May, 4, 23, 59), true},
		{"card, the 121st day", "card", 50_00, testkit.Et(2024, time.May, 5, 0, 0), false},
		{"card $100, 400 days later", "card", 100_00, testkit.Et(2025, time.February, 8, 7, 0), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPurchaseWith(t, tc.kind, tc.amount, false, synapsefake.WithOAuthKeyLifetime(2*365*24*time.Hour)) // keys outlive 400 days
			if tx := p.Tx(t, p.id); tx.Status != synapsefake.StatusSettled || !p.Fake.Now().Equal(testkit.Et(2024, time.January, 5, 7, 0)) {
				t.Fatalf("the purchase is %s at %v, want SETTLED Fri 2024-01-05 07:00 ET", tx.Status, p.Fake.Now())
			}
			p.advanceTo(t, tc.at)
			before := testkit.Balance(t, p.Fake, p.sender)
			r := p.fileDispute(t)
			tx := p.Tx(t, p.id)
			if tc.wantOK {
				if r.Status != http.StatusOK || tx.Dispute != synapsefake.DisputePending {
					t.Fatalf("dispute: %d %s, Dispute %q; want 200 and PENDING", r.Status, r.Raw, tx.Dispute)
				}
				return
			}
			if err := testkit.RespErr(r); err == nil || !strings.Contains(err.Error(), "dispute_window_closed (error_code 400, http 409)") {
				t.Fatalf("dispute: %v; want 409 / \"400\" dispute_window_closed", err)
			}
			if tx.Dispute != synapsefake.DisputeNone || tx.DisputeCreditID != "" || tx.Status != synapsefake.StatusSettled {
				t.Errorf("after the refusal: Dispute %q, credit %q, status %s; want none, none, SETTLED", tx.Dispute, tx.DisputeCreditID, tx.Status)
			}
			if got := testkit.Balance(t, p.Fake, p.sender); got != before {
				t.Errorf("sender balance %d, want %d (unchanged)", got, before)
			}
		})
	}
}

// TestProvisionalCreditSchedule: an eligible dispute's provisional credit
// posts 3 business days after filing for a node older than 30 days, 15 for
// a newer one, on the fake's clock; a dispute decided first gets none.
func TestProvisionalCreditSchedule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		age  time.Duration // how long the sender's node existed before the purchase
		// decide is "won" or "lost" to decide the dispute before the credit is due, "" not to.
		decide string
		due    time.Time // when the credit falls due
		// wantSender is the sender's balance once the due time passed, from 1000_00 less the $20.00 debit.
		wantSender int64
		wantCredit bool // a provisional credit posted
	}{
		{name: "a new node: 15 business days (MLK Day skipped)", age: 0,
			due: testkit.Et(2024, time.January, 29, 7, 1), wantSender: 1000_00, wantCredit: true},
		{name: "a node of 42 days: 3 business days (Presidents' Day skipped)", age: 42 * 24 * time.Hour,
			due: testkit.Et(2024, time.February, 22, 7, 1), wantSender: 1000_00, wantCredit: true},
		{name: "lost before the credit is due: none posts", age: 42 * 24 * time.Hour, decide: "lost",
			due: testkit.Et(2024, time.February, 22, 7, 1), wantSender: 980_00},
		{name: "won before the credit is due: the won credit alone", age: 42 * 24 * time.Hour, decide: "won",
			due: testkit.Et(2024, time.February, 22, 7, 1), wantSender: 1000_00},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewDisputeEnv(t)
			e.Fake.Advance(tc.age)
			p := purchase{DisputeEnv: e, id: e.SettledDebit(t, 20), sender: e.Fx.Node.ID, receiver: e.Merchant.ID}
			p.Fake.Advance(time.Minute)
			r := p.fileDispute(t)
			if r.Status != http.StatusOK || r.Body["provisional_credit_tran"] != nil {
				t.Fatalf("dispute: %d %s; want 200 and no provisional credit yet", r.Status, r.Raw)
			}
			if tx := p.Tx(t, p.id); tx.DisputeCreditID != "" || testkit.Balance(t, p.Fake, p.sender) != 980_00 {
				t.Fatalf("at filing: credit %q, balance %d; want none and 98000", tx.DisputeCreditID, testkit.Balance(t, p.Fake, p.sender))
			}
			switch tc.decide {
			case "won":
				if err := p.Fake.WinDispute(p.id); err != nil {
					t.Fatal(err)
				}
			case "lost":
				if err := p.Fake.LoseDispute(p.id); err != nil {
					t.Fatal(err)
				}
			}
			decided := p.Tx(t, p.id).DisputeCreditID
			p.advanceTo(t, tc.due.Add(-time.Millisecond))
			if got := p.Tx(t, p.id).DisputeCreditID; got != decided {
				t.Fatalf("a millisecond before it is due: credit %q, want %q", got, decided)
			}
			p.advanceTo(t, tc.due)
			tx := p.Tx(t, p.id)
			if got := testkit.Balance(t, p.Fake, p.sender); got != tc.wantSender {
				t.Errorf("sender balance %d, want %d", got, tc.wantSender)
			}
			view := p.Get(t, p.id).Body
			other := view["extra"].(map[string]any)["other"].(map[string]any)
			if !tc.wantCredit {
				if tx.DisputeCreditID != decided || other["provisional_credit_transaction_id"] != nil {
					t.Errorf("credit %q, provisional %v; want %q and none", tx.DisputeCreditID, other["provisional_credit_transaction_id"], decided)
				}
				return
			}
			c := p.Tx(t, tx.DisputeCreditID)
			if c.Status != synapsefake.StatusSettled || c.FromNodeID != p.receiver || c.ToNodeID != p.sender || !c.CreatedOn.Equal(tc.due) {
				t.Errorf("credit %s from %s to %s created %v; want SETTLED from the merchant to the sender at %v",
					c.Status, c.FromNodeID, c.ToNodeID, c.CreatedOn, tc.due)
			}
			if other["provisional_credit_transaction_id"] != tx.DisputeCreditID {
				t.Errorf("provisional_credit_transaction_id %v, want %s", other["provisional_credit_transaction_id"], tx.DisputeCreditID)
			}
			recent := view["recent_status"].(map[string]any)
			if recent["note"] != "Provisional credit posted: "+tx.DisputeCreditID+"." || recent["date"] != float64(tc.due.UnixMilli()) {
				t.Errorf("recent_status %v, want the provisional credit's note at %v", recent, tc.due)
			}
			if hook := lastWebhook(t, p.Fake, p.id); hook.Function != "TRAN|PATCH" {
				t.Errorf("last webhook %s, want TRAN|PATCH", hook.Function)
			}
			if err := p.Fake.LoseDispute(p.id); err != nil {
				t.Fatal(err)
			}
			if got := testkit.Balance(t, p.Fake, p.sender); got != 980_00 {
				t.Errorf("after losing: sender balance %d, want 98000 (the provisional credit taken back)", got)
			}
		})
	}
}
