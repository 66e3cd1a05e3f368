package api_test

import (
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// timelineET is a transaction's timeline as "STATUS yyyy-mm-dd hh:mm:ss" in
// Eastern time.
func timelineET(tx synapsefake.Transaction) []string {
	var got []string
	for _, s := range tx.Timeline {
		got = append(got, string(s.Status)+" "+s.Date.In(reference.Eastern).Format(time.DateTime))
	}
	return got
}

// TestDummyTransactionsFollowTheCalendar creates dummy transactions on the
// days issue 22 names and checks that they move only on Federal Reserve
// business days: a dummy's counterparty is the hidden network's EXTERNAL-US
// node, so its type (ACH, WIRE, INTERNAL_TRASFER) picks the rail's calendar.
func TestDummyTransactionsFollowTheCalendar(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		created   time.Time
		typ, dir  string
		wantTrail []string
	}{
		{
			// Before the 18:00 ET cutoff: settled the next business day,
			// Friday, not on Thanksgiving.
			name: "ACH the day before Thanksgiving", created: testkit.Et(2026, 11, 25, 12, 0), typ: "ACH", dir: "DEPOSIT",
			wantTrail: []string{"CREATED 2026-11-25 12:00:00", "PROCESSING-DEBIT 2026-11-25 12:01:00",
				"PROCESSING-CREDIT 2026-11-25 13:00:00", "SETTLED 2026-11-27 12:00:00"},
		},
		{
			name: "ACH withdrawal on Christmas Eve", created: testkit.Et(2026, 12, 24, 12, 0), typ: "ACH", dir: "WITHDRAWAL",
			wantTrail: []string{"CREATED 2026-12-24 12:00:00", "PROCESSING-DEBIT 2026-12-24 12:01:00",
				"PROCESSING-CREDIT 2026-12-24 13:00:00", "SETTLED 2026-12-28 12:00:00"},
		},
		{
			name: "internal transfer on Christmas Eve", created: testkit.Et(2026, 12, 24, 12, 0), typ: "INTERNAL_TRASFER", dir: "DEPOSIT",
			wantTrail: []string{"CREATED 2026-12-24 12:00:00", "PROCESSING-DEBIT 2026-12-24 12:01:00",
				"PROCESSING-CREDIT 2026-12-24 13:00:00", "SETTLED 2026-12-28 12:00:00"},
		},
		{
			// Not a business day: carried to Monday's opening, 08:30 ET, and
			// settled within minutes, as Fedwire settles.
			name: "wire on a Saturday", created: testkit.Et(2026, 11, 28, 12, 0), typ: "WIRE", dir: "DEPOSIT",
			wantTrail: []string{"CREATED 2026-11-28 12:00:00", "PROCESSING-DEBIT 2026-11-30 08:31:00",
				"PROCESSING-CREDIT 2026-11-30 08:32:00", "SETTLED 2026-11-30 08:33:00"},
		},
		{
			name: "wire on a business day before 18:00 ET", created: testkit.Et(2026, 11, 25, 12, 0), typ: "WIRE", dir: "WITHDRAWAL",
			wantTrail: []string{"CREATED 2026-11-25 12:00:00", "PROCESSING-DEBIT 2026-11-25 12:01:00",
				"PROCESSING-CREDIT 2026-11-25 12:02:00", "SETTLED 2026-11-25 12:03:00"},
		},
		{
			// 17:59 ET makes the 18:00 ET deadline and settles before
			// Fedwire closes at 19:00 ET (it settled at 21:59 ET).
			name: "wire a minute before the Fedwire deadline", created: testkit.Et(2026, 11, 25, 17, 59), typ: "WIRE", dir: "DEPOSIT",
			wantTrail: []string{"CREATED 2026-11-25 17:59:00", "PROCESSING-DEBIT 2026-11-25 18:00:00",
				"PROCESSING-CREDIT 2026-11-25 18:01:00", "SETTLED 2026-11-25 18:02:00"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithStartTime(tc.created))
			fx := testkit.NewFixture(t, fake, 500_00)
			sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account"})
			id := postDummy(t, fake, fx, sub, tc.typ, tc.dir, 10)
			fake.AdvanceTo(tc.created.Add(7 * 24 * time.Hour))
			tx, ok := fake.Transaction(id)
			if !ok {
				t.Fatalf("Transaction(%s) not found", id)
			}
			if diff := cmp.Diff(tc.wantTrail, timelineET(tx)); diff != "" {
				t.Errorf("timeline (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSameDayACHLimit sends same-day ACH transfers on Wednesday 2026-11-25
// at 10:00 ET, before the first window's 10:30 ET deadline: up to
// $1,000,000 (Nacha's per-payment limit) settles with that window at 13:00
// ET; a larger one is processed as next-day ACH and settles Friday
// 2026-11-27 at 10:00 ET (Thanksgiving is not a business day), still
// showing same_day true.
func TestSameDayACHLimit(t *testing.T) {
	t.Parallel()
	start := testkit.Et(2026, 11, 25, 10, 0)
	for _, tc := range []struct {
		name    string
		amount  float64
		opts    []synapsefake.Option
		settled time.Time
	}{
		{"$2,000,000 settles next day", 2_000_000, nil, testkit.Et(2026, 11, 27, 10, 0)},
		{"one cent over the limit settles next day", 1_000_000.01, nil, testkit.Et(2026, 11, 27, 10, 0)},
		{"exactly the limit settles the same day", 1_000_000, nil, testkit.Et(2026, 11, 25, 13, 0)},
		{"under the limit settles the same day", 999_999.99, nil, testkit.Et(2026, 11, 25, 13, 0)},
		{"SameDayLimit 0 is no limit", 2_000_000, []synapsefake.Option{synapsefake.WithCutoffs(noSameDayLimit())}, testkit.Et(2026, 11, 25, 13, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 3_000_000_00, append([]synapsefake.Option{synapsefake.WithStartTime(start)}, tc.opts...)...)
			body := testkit.TxBody(e.Bank, tc.amount)
			testkit.PutPath(body, "extra.same_day", true)
			id := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
			tx := e.SettlesAt(t, id, tc.settled)
			if !tx.SameDay {
				t.Errorf("SameDay false; want the request's true kept")
			}
		})
	}
}

func noSameDayLimit() synapsefake.Cutoffs {
	c := synapsefake.DefaultCutoffs()
	c.SameDayLimit = 0
	return c
}

func TestDefaultSameDayLimit(t *testing.T) {
	t.Parallel()
	if got, want := synapsefake.DefaultCutoffs().SameDayLimit, int64(1_000_000_00); got != want {
		t.Errorf("DefaultCutoffs().SameDayLimit = %d, want %d ($1,000,000)", got, want)
	}
}

// TestOtherRailsFollowTheCalendar checks that the rails without a schedule
// of their own (push-to-card to an INTERCHANGE-US node, card swipes) settle
// a day later on a Federal Reserve business day in Eastern time, the
// calendar every rail keeps: not on Thanksgiving, Christmas or a Sunday.
// They used to skip only Saturdays and Sundays in UTC.
func TestOtherRailsFollowTheCalendar(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		created time.Time
		card    bool // a card swipe; otherwise a push to an INTERCHANGE-US node
		settled time.Time
	}{
		{"push-to-card the day before Thanksgiving", testkit.Et(2026, 11, 25, 12, 0), false, testkit.Et(2026, 11, 27, 12, 0)},
		{"push-to-card on Christmas Eve", testkit.Et(2026, 12, 24, 12, 0), false, testkit.Et(2026, 12, 28, 12, 0)},
		{"card swipe on Christmas Eve", testkit.Et(2026, 12, 24, 12, 0), true, testkit.Et(2026, 12, 28, 12, 0)},
		// Saturday 03:00 UTC: a day later was Sunday 22:00 ET, which the
		// UTC weekend rule let through.
		{"card swipe on a Friday evening", testkit.Et(2026, 11, 20, 22, 0), true, testkit.Et(2026, 11, 23, 22, 0)},
		{"card swipe on a Tuesday", testkit.Et(2026, 11, 17, 12, 0), true, testkit.Et(2026, 11, 18, 12, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithStartTime(tc.created), synapsefake.WithOAuthKeyLifetime(365*24*time.Hour))
			fx := testkit.NewFixture(t, fake, 500_00)
			var id string
			if tc.card {
				sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
				id = swipe(t, fake, sub.ID, synapsefake.CardAuth{AmountCents: 10_00, Merchant: "COFFEE SHOP"}).ID
			} else {
				card := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Type: "INTERCHANGE-US", Nickname: "Debit card"})
				r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: testkit.TxBody(card, 10)})
				if r.Status != 200 {
					t.Fatalf("push to card: status %d: %s", r.Status, r.Raw)
				}
				id, _ = r.Body["_id"].(string)
			}
			fake.AdvanceTo(tc.settled.Add(-time.Millisecond))
			tx, ok := fake.Transaction(id)
			if !ok {
				t.Fatalf("Transaction(%s) not found", id)
			}
			if tx.Status == synapsefake.StatusSettled {
				t.Fatalf("SETTLED before %v: %v", tc.settled.In(reference.Eastern), timelineET(tx))
			}
			fake.AdvanceTo(tc.settled)
			tx, _ = fake.Transaction(id)
			last := tx.Timeline[len(tx.Timeline)-1]
			if last.Status != synapsefake.StatusSettled || !last.Date.Equal(tc.settled) {
				t.Errorf("timeline %v, want SETTLED at %s ET", timelineET(tx), tc.settled.In(reference.Eastern).Format(time.DateTime))
			}
		})
	}
}
