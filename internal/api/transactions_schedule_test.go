package api_test

import (
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// TestProcessingSchedule drives transactions with the clock alone: each
// checkpoint advances to a time after creation and wants a status there.
func TestProcessingSchedule(t *testing.T) {
	t.Parallel()
	type checkpoint struct {
		after time.Duration // since creation
		want  synapsefake.Status
	}
	thursday := testkit.Friday().Add(-24 * time.Hour)
	saturday := testkit.Friday().Add(24 * time.Hour)
	for _, tc := range []struct {
		name    string
		created time.Time
		to      func(e testkit.TxEnv) synapsefake.Node
		edit    func(body map[string]any)
		checks  []checkpoint
	}{
		{
			name: "internal transfer settles 1 ms after creation", created: testkit.Friday(),
			to: func(e testkit.TxEnv) synapsefake.Node { return e.Payee.Node },
			checks: []checkpoint{
				{0, synapsefake.StatusCreated},
				{time.Millisecond, synapsefake.StatusSettled},
			},
		},
		{
			name: "ACH on a Friday settles on Monday", created: testkit.Friday(),
			to: func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			checks: []checkpoint{
				{time.Minute - time.Millisecond, synapsefake.StatusCreated},
				{time.Minute, synapsefake.StatusProcessingDebit},
				{time.Hour - time.Millisecond, synapsefake.StatusProcessingDebit},
				{time.Hour, synapsefake.StatusProcessingCredit},
				{24 * time.Hour, synapsefake.StatusProcessingCredit},
				{72*time.Hour - time.Millisecond, synapsefake.StatusProcessingCredit},
				{72 * time.Hour, synapsefake.StatusSettled},
			},
		},
		{
			name: "ACH on a Thursday settles on Friday", created: thursday,
			to: func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			checks: []checkpoint{
				{24*time.Hour - time.Millisecond, synapsefake.StatusProcessingCredit},
				{24 * time.Hour, synapsefake.StatusSettled},
			},
		},
		{
			// Saturday noon UTC is 07:00 ET: processing starts on Monday at
			// 08:30 ET (13:30 UTC), and the transfer settles on Tuesday.
			name: "ACH on a Saturday starts on Monday and settles on Tuesday", created: saturday,
			to: func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			checks: []checkpoint{
				{49*time.Hour + 31*time.Minute - time.Millisecond, synapsefake.StatusCreated},
				{49*time.Hour + 31*time.Minute, synapsefake.StatusProcessingDebit},
				{50*time.Hour + 30*time.Minute, synapsefake.StatusProcessingCredit},
				{73*time.Hour + 30*time.Minute - time.Millisecond, synapsefake.StatusProcessingCredit},
				{73*time.Hour + 30*time.Minute, synapsefake.StatusSettled},
			},
		},
		{
			// Created at 07:00 ET, before the first window's 10:30 ET deadline:
			// settled at 13:00 ET.
			name: "same-day ACH settles with the first window", created: testkit.Friday(),
			to:   func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			edit: func(b map[string]any) { testkit.PutPath(b, "extra.same_day", true) },
			checks: []checkpoint{
				{time.Minute, synapsefake.StatusProcessingDebit},
				{time.Hour, synapsefake.StatusProcessingCredit},
				{6*time.Hour - time.Millisecond, synapsefake.StatusProcessingCredit},
				{6 * time.Hour, synapsefake.StatusSettled},
			},
		},
		{
			name: "process_on delays an internal transfer by whole days", created: testkit.Friday(),
			to:   func(e testkit.TxEnv) synapsefake.Node { return e.Savings },
			edit: func(b map[string]any) { testkit.PutPath(b, "extra.process_on", 2) },
			checks: []checkpoint{
				{48 * time.Hour, synapsefake.StatusCreated},
				{48*time.Hour + time.Millisecond, synapsefake.StatusSettled},
			},
		},
		{
			name: "process_on delays an ACH transfer", created: testkit.Friday(),
			to:   func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			edit: func(b map[string]any) { testkit.PutPath(b, "extra.process_on", 1) },
			checks: []checkpoint{
				// Started on Saturday: processing starts on Monday at 08:30 ET
				// and the transfer settles on Tuesday.
				{73*time.Hour + 31*time.Minute - time.Millisecond, synapsefake.StatusCreated},
				{73*time.Hour + 31*time.Minute, synapsefake.StatusProcessingDebit},
				{97*time.Hour + 30*time.Minute, synapsefake.StatusSettled},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 1000_00)
			e.Mock.Set(tc.created)
			body := testkit.TxBody(tc.to(e), 10)
			if tc.edit != nil {
				tc.edit(body)
			}
			id := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
			for _, c := range tc.checks {
				e.Fake.Advance(tc.created.Add(c.after).Sub(e.Fake.Now()))
				if got := e.Tx(t, id).Status; got != c.want {
					t.Fatalf("at creation + %v: status %s, want %s", c.after, got, c.want)
				}
			}
		})
	}
}

// TestWeekendIsUTC: the weekend rule reads the UTC day, whatever the
// location of the clock's times. Friday noon UTC is already Saturday in
// UTC+14, and the transfer still settles on Monday noon UTC.
func TestWeekendIsUTC(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	e.Mock.Set(testkit.Friday().In(time.FixedZone("UTC+14", 14*3600)))
	id := e.Create(t, e.Bank, 10)
	e.Fake.Advance(72*time.Hour - time.Millisecond)
	if got := e.Tx(t, id).Status; got != synapsefake.StatusProcessingCredit {
		t.Fatalf("Monday 11:59:59.999 UTC: %s, want PROCESSING-CREDIT", got)
	}
	e.Fake.Advance(time.Millisecond)
	tx := e.Tx(t, id)
	if last := tx.Timeline[len(tx.Timeline)-1]; tx.Status != synapsefake.StatusSettled || !last.Date.Equal(testkit.Friday().Add(72*time.Hour)) {
		t.Fatalf("Monday noon UTC: %s, last entry %+v", tx.Status, last)
	}
}

// TestWireTransferSettlesWithinMinutes sends to a WIRE-US node on a
// business morning: Fedwire settles each transfer at once, so the wire is
// SETTLED three minutes after it starts (it was four hours, which took a
// wire sent at 17:59 ET past Fedwire's 19:00 ET close).
func TestWireTransferSettlesWithinMinutes(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 1000_00)
	wire := testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: "WIRE-US", Nickname: "Wire"})
	id := e.Create(t, wire, 10)
	e.Fake.Advance(3*time.Minute - time.Millisecond)
	if got := e.Tx(t, id).Status; got != synapsefake.StatusProcessingCredit {
		t.Fatalf("after 3 min - 1 ms: %s, want PROCESSING-CREDIT", got)
	}
	e.Fake.Advance(time.Millisecond)
	if got := e.Tx(t, id).Status; got != synapsefake.StatusSettled {
		t.Fatalf("after 3 min: %s, want SETTLED", got)
	}
}

// TestACHTransferSettlesOnTheClock is the acceptance test of automatic
// processing: an ACH transfer created on a Friday, the clock advanced by the
// documented schedule, SETTLED on Monday with the whole timeline dated at
// the due times, without a call to Settle.
func TestACHTransferSettlesOnTheClock(t *testing.T) {
	t.Parallel()
	const start = 300_00
	e := testkit.NewTxEnv(t, start)
	id := e.Create(t, e.Bank, 120.75)
	monday := testkit.Friday().Add(72 * time.Hour)

	for _, step := range []struct {
		advance  time.Duration
		balances map[string]int64
	}{
		{time.Minute, map[string]int64{"sender": start - 120_75}},             // PROCESSING-DEBIT
		{time.Hour - time.Minute, map[string]int64{"sender": start - 120_75}}, // PROCESSING-CREDIT
		{24*time.Hour - time.Hour, map[string]int64{"sender": start - 120_75}},
		{48 * time.Hour, map[string]int64{"sender": start - 120_75, "bank": 120_75}}, // Monday: SETTLED
	} {
		e.Fake.Advance(step.advance)
		e.WantBalances(t, start, step.balances)
	}

	want := testkit.WantTxJSON(t, e.Fake, id, e.Fx.Node, e.Bank, 120.75, testkit.Friday())
	testkit.WithEntries(want, "",
		testkit.TxEntry(synapsefake.StatusProcessingDebit, "Processing debit.", testkit.Friday().Add(time.Minute)),
		testkit.TxEntry(synapsefake.StatusProcessingCredit, "Processing credit.", testkit.Friday().Add(time.Hour)),
		testkit.TxEntry(synapsefake.StatusSettled, "Transaction settled.", monday),
	)
	testkit.WantTxBody(t, e.Get(t, id), want)

	wantTimeline := []synapsefake.TimelineEntry{
		{Status: synapsefake.StatusCreated, Note: "Transaction Created.", Date: testkit.Friday()},
		{Status: synapsefake.StatusProcessingDebit, Note: "Processing debit.", Date: testkit.Friday().Add(time.Minute)},
		{Status: synapsefake.StatusProcessingCredit, Note: "Processing credit.", Date: testkit.Friday().Add(time.Hour)},
		{Status: synapsefake.StatusSettled, Note: "Transaction settled.", Date: monday},
	}
	if diff := cmp.Diff(wantTimeline, e.Tx(t, id).Timeline); diff != "" {
		t.Errorf("Timeline (-want +got):\n%s", diff)
	}
}

// TestProcessingRunsOnTheNextRequest moves a shared mock directly: the next
// request applies what fell due before it answers.
func TestProcessingRunsOnTheNextRequest(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	id := e.Create(t, e.Payee.Node, 10)
	e.Mock.Add(time.Second)
	r := e.Get(t, id)
	if got := getTxPath(r.Body, "recent_status.status"); got != "SETTLED" {
		t.Errorf("recent_status.status %v, want SETTLED", got)
	}
	e.WantBalances(t, 100_00, map[string]int64{"sender": 90_00, "payee": 10_00})
}

func getTxPath(m map[string]any, path string) any {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		m, _ = m[k].(map[string]any)
	}
	return m[keys[len(keys)-1]]
}

// TestManualProcessing: with WithManualProcessing the clock moves nothing;
// the helpers still do.
func TestManualProcessing(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
	internal := e.Create(t, e.Payee.Node, 10)
	ach := e.Create(t, e.Bank, 10)
	e.Fake.Advance(30 * 24 * time.Hour)
	for _, id := range []string{internal, ach} {
		if got := e.Tx(t, id); got.Status != synapsefake.StatusCreated || len(got.Timeline) != 1 {
			t.Errorf("%s after 30 days: %s with %d timeline entries, want CREATED with 1", id, got.Status, len(got.Timeline))
		}
	}
	e.WantBalances(t, 100_00, nil)
	if err := e.Fake.Settle(ach); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	e.Fake.Advance(30 * 24 * time.Hour)
	e.WantBalances(t, 100_00, map[string]int64{"sender": 90_00, "bank": 10_00})
	if got := e.Tx(t, internal).Status; got != synapsefake.StatusCreated {
		t.Errorf("internal transfer: %s, want CREATED", got)
	}
}

// TestCreditOnlySenderIsCanceled models the real service's rule for an
// ACH-US node not yet verified: its debit is canceled at PROCESSING-DEBIT.
func TestCreditOnlySenderIsCanceled(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 0, synapsefake.WithMicroDeposits())
	bank := testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Unverified"})
	if bank.Allowed != synapsefake.AllowedCredit {
		t.Fatalf("Allowed %s, want CREDIT", bank.Allowed)
	}
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: testkit.TransPath(e.Fx.User.ID, bank.ID), Header: e.Fx.Headers, Body: testkit.TxBody(e.Fx.Node, 10)})
	testkit.WantTxBody(t, r, testkit.WantTxJSON(t, e.Fake, "", bank, e.Fx.Node, 10, testkit.Friday()))
	id, _ := r.Body["_id"].(string)
	e.Fake.Advance(time.Minute)
	tx := e.Tx(t, id)
	wantTimeline := []synapsefake.TimelineEntry{
		{Status: synapsefake.StatusCreated, Note: "Transaction Created.", Date: testkit.Friday()},
		{Status: synapsefake.StatusCanceled, Note: "Unable to settle transaction from " + bank.ID + ", since the node 'allowed' is CREDIT.", Date: testkit.Friday().Add(time.Minute)},
	}
	if diff := cmp.Diff(wantTimeline, tx.Timeline); diff != "" {
		t.Errorf("Timeline (-want +got):\n%s", diff)
	}
	if n, _ := e.Fake.Node(bank.ID); n.BalanceCents != 0 {
		t.Errorf("sender balance %d, want 0", n.BalanceCents)
	}
	e.WantBalances(t, 0, nil)
}

// TestSettleCreditOnlySender: Settle walks the same rule as the clock, so
// the debit of a CREDIT-only sender cancels the transaction and the walk
// stops there.
func TestSettleCreditOnlySender(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 0, synapsefake.WithMicroDeposits(), synapsefake.WithManualProcessing())
	bank := testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Unverified"})
	id := e.CreateFrom(t, e.Fx, bank, testkit.TxBody(e.Fx.Node, 10))
	if err := e.Fake.Settle(id); err != nil {
		t.Fatal(err)
	}
	tx := e.Tx(t, id)
	if tx.Status != synapsefake.StatusCanceled || len(tx.Timeline) != 2 {
		t.Errorf("after Settle: %s with timeline %+v, want CANCELED after CREATED", tx.Status, tx.Timeline)
	}
	e.WantBalances(t, 0, nil)
	if n, _ := e.Fake.Node(bank.ID); n.BalanceCents != 0 {
		t.Errorf("sender balance %d, want 0", n.BalanceCents)
	}
}
