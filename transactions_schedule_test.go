package synapsefake_test

import (
	"strings"
	"testing"
	"time"

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
	thursday := friday.Add(-24 * time.Hour)
	saturday := friday.Add(24 * time.Hour)
	for _, tc := range []struct {
		name    string
		created time.Time
		to      func(e txEnv) synapsefake.Node
		edit    func(body map[string]any)
		checks  []checkpoint
	}{
		{
			name: "internal transfer settles 1 ms after creation", created: friday,
			to: func(e txEnv) synapsefake.Node { return e.payee.node },
			checks: []checkpoint{
				{0, synapsefake.StatusCreated},
				{time.Millisecond, synapsefake.StatusSettled},
			},
		},
		{
			name: "ACH on a Friday settles on Monday", created: friday,
			to: func(e txEnv) synapsefake.Node { return e.bank },
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
			to: func(e txEnv) synapsefake.Node { return e.bank },
			checks: []checkpoint{
				{24*time.Hour - time.Millisecond, synapsefake.StatusProcessingCredit},
				{24 * time.Hour, synapsefake.StatusSettled},
			},
		},
		{
			// Saturday noon UTC is 07:00 ET: processing starts on Monday at
			// 08:30 ET (13:30 UTC), and the transfer settles on Tuesday.
			name: "ACH on a Saturday starts on Monday and settles on Tuesday", created: saturday,
			to: func(e txEnv) synapsefake.Node { return e.bank },
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
			name: "same-day ACH settles with the first window", created: friday,
			to:   func(e txEnv) synapsefake.Node { return e.bank },
			edit: func(b map[string]any) { putPath(b, "extra.same_day", true) },
			checks: []checkpoint{
				{time.Minute, synapsefake.StatusProcessingDebit},
				{time.Hour, synapsefake.StatusProcessingCredit},
				{6*time.Hour - time.Millisecond, synapsefake.StatusProcessingCredit},
				{6 * time.Hour, synapsefake.StatusSettled},
			},
		},
		{
			name: "process_on delays an internal transfer by whole days", created: friday,
			to:   func(e txEnv) synapsefake.Node { return e.savings },
			edit: func(b map[string]any) { putPath(b, "extra.process_on", 2) },
			checks: []checkpoint{
				{48 * time.Hour, synapsefake.StatusCreated},
				{48*time.Hour + time.Millisecond, synapsefake.StatusSettled},
			},
		},
		{
			name: "process_on delays an ACH transfer", created: friday,
			to:   func(e txEnv) synapsefake.Node { return e.bank },
			edit: func(b map[string]any) { putPath(b, "extra.process_on", 1) },
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
			e := newTxEnv(t, 1000_00)
			e.mock.Set(tc.created)
			body := txBody(tc.to(e), 10)
			if tc.edit != nil {
				tc.edit(body)
			}
			id := e.createFrom(t, e.fx, e.fx.node, body)
			for _, c := range tc.checks {
				e.fake.Advance(tc.created.Add(c.after).Sub(e.fake.Now()))
				if got := e.tx(t, id).Status; got != c.want {
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
	e := newTxEnv(t, 100_00)
	e.mock.Set(friday.In(time.FixedZone("UTC+14", 14*3600)))
	id := e.create(t, e.bank, 10)
	e.fake.Advance(72*time.Hour - time.Millisecond)
	if got := e.tx(t, id).Status; got != synapsefake.StatusProcessingCredit {
		t.Fatalf("Monday 11:59:59.999 UTC: %s, want PROCESSING-CREDIT", got)
	}
	e.fake.Advance(time.Millisecond)
	tx := e.tx(t, id)
	if last := tx.Timeline[len(tx.Timeline)-1]; tx.Status != synapsefake.StatusSettled || !last.Date.Equal(friday.Add(72*time.Hour)) {
		t.Fatalf("Monday noon UTC: %s, last entry %+v", tx.Status, last)
	}
}

// TestWireTransferSettlesWithinMinutes sends to a WIRE-US node on a
// business morning: Fedwire settles each transfer at once, so the wire is
// SETTLED three minutes after it starts (it was four hours, which took a
// wire sent at 17:59 ET past Fedwire's 19:00 ET close).
func TestWireTransferSettlesWithinMinutes(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 1000_00)
	wire := addTxNode(t, e.fake, e.fx.user.ID, synapsefake.NodeSeed{Type: "WIRE-US", Nickname: "Wire"})
	id := e.create(t, wire, 10)
	e.fake.Advance(3*time.Minute - time.Millisecond)
	if got := e.tx(t, id).Status; got != synapsefake.StatusProcessingCredit {
		t.Fatalf("after 3 min - 1 ms: %s, want PROCESSING-CREDIT", got)
	}
	e.fake.Advance(time.Millisecond)
	if got := e.tx(t, id).Status; got != synapsefake.StatusSettled {
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
	e := newTxEnv(t, start)
	id := e.create(t, e.bank, 120.75)
	monday := friday.Add(72 * time.Hour)

	for _, step := range []struct {
		advance  time.Duration
		balances map[string]int64
	}{
		{time.Minute, map[string]int64{"sender": start - 120_75}},             // PROCESSING-DEBIT
		{time.Hour - time.Minute, map[string]int64{"sender": start - 120_75}}, // PROCESSING-CREDIT
		{24*time.Hour - time.Hour, map[string]int64{"sender": start - 120_75}},
		{48 * time.Hour, map[string]int64{"sender": start - 120_75, "bank": 120_75}}, // Monday: SETTLED
	} {
		e.fake.Advance(step.advance)
		e.wantBalances(t, start, step.balances)
	}

	want := wantTxJSON(t, e.fake, id, e.fx.node, e.bank, 120.75, friday)
	withEntries(want, "",
		txEntry(synapsefake.StatusProcessingDebit, "Processing debit.", friday.Add(time.Minute)),
		txEntry(synapsefake.StatusProcessingCredit, "Processing credit.", friday.Add(time.Hour)),
		txEntry(synapsefake.StatusSettled, "Transaction settled.", monday),
	)
	wantTxBody(t, e.get(t, id), want)

	wantTimeline := []synapsefake.TimelineEntry{
		{Status: synapsefake.StatusCreated, Note: "Transaction Created.", Date: friday},
		{Status: synapsefake.StatusProcessingDebit, Note: "Processing debit.", Date: friday.Add(time.Minute)},
		{Status: synapsefake.StatusProcessingCredit, Note: "Processing credit.", Date: friday.Add(time.Hour)},
		{Status: synapsefake.StatusSettled, Note: "Transaction settled.", Date: monday},
	}
	if diff := cmp.Diff(wantTimeline, e.tx(t, id).Timeline); diff != "" {
		t.Errorf("Timeline (-want +got):\n%s", diff)
	}
}

// TestProcessingRunsOnTheNextRequest moves a shared mock directly: the next
// request applies what fell due before it answers.
func TestProcessingRunsOnTheNextRequest(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 100_00)
	id := e.create(t, e.payee.node, 10)
	e.mock.Add(time.Second)
	r := e.get(t, id)
	if got := getTxPath(r.body, "recent_status.status"); got != "SETTLED" {
		t.Errorf("recent_status.status %v, want SETTLED", got)
	}
	e.wantBalances(t, 100_00, map[string]int64{"sender": 90_00, "payee": 10_00})
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
	e := newTxEnv(t, 100_00, synapsefake.WithManualProcessing())
	internal := e.create(t, e.payee.node, 10)
	ach := e.create(t, e.bank, 10)
	e.fake.Advance(30 * 24 * time.Hour)
	for _, id := range []string{internal, ach} {
		if got := e.tx(t, id); got.Status != synapsefake.StatusCreated || len(got.Timeline) != 1 {
			t.Errorf("%s after 30 days: %s with %d timeline entries, want CREATED with 1", id, got.Status, len(got.Timeline))
		}
	}
	e.wantBalances(t, 100_00, nil)
	if err := e.fake.Settle(ach); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	e.fake.Advance(30 * 24 * time.Hour)
	e.wantBalances(t, 100_00, map[string]int64{"sender": 90_00, "bank": 10_00})
	if got := e.tx(t, internal).Status; got != synapsefake.StatusCreated {
		t.Errorf("internal transfer: %s, want CREATED", got)
	}
}

// TestCreditOnlySenderIsCanceled models the real service's rule for an
// ACH-US node not yet verified: its debit is canceled at PROCESSING-DEBIT.
func TestCreditOnlySenderIsCanceled(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 0, synapsefake.WithMicroDeposits())
	bank := addTxNode(t, e.fake, e.fx.user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Unverified"})
	if bank.Allowed != synapsefake.AllowedCredit {
		t.Fatalf("Allowed %s, want CREDIT", bank.Allowed)
	}
	r := do(t, e.fake, call{method: "POST", path: transPath(e.fx.user.ID, bank.ID), header: e.fx.headers, body: txBody(e.fx.node, 10)})
	wantTxBody(t, r, wantTxJSON(t, e.fake, "", bank, e.fx.node, 10, friday))
	id, _ := r.body["_id"].(string)
	e.fake.Advance(time.Minute)
	tx := e.tx(t, id)
	wantTimeline := []synapsefake.TimelineEntry{
		{Status: synapsefake.StatusCreated, Note: "Transaction Created.", Date: friday},
		{Status: synapsefake.StatusCanceled, Note: "Unable to settle transaction from " + bank.ID + ", since the node 'allowed' is CREDIT.", Date: friday.Add(time.Minute)},
	}
	if diff := cmp.Diff(wantTimeline, tx.Timeline); diff != "" {
		t.Errorf("Timeline (-want +got):\n%s", diff)
	}
	if n, _ := e.fake.Node(bank.ID); n.BalanceCents != 0 {
		t.Errorf("sender balance %d, want 0", n.BalanceCents)
	}
	e.wantBalances(t, 0, nil)
}

// TestSettleCreditOnlySender: Settle walks the same rule as the clock, so
// the debit of a CREDIT-only sender cancels the transaction and the walk
// stops there.
func TestSettleCreditOnlySender(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 0, synapsefake.WithMicroDeposits(), synapsefake.WithManualProcessing())
	bank := addTxNode(t, e.fake, e.fx.user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Unverified"})
	id := e.createFrom(t, e.fx, bank, txBody(e.fx.node, 10))
	if err := e.fake.Settle(id); err != nil {
		t.Fatal(err)
	}
	tx := e.tx(t, id)
	if tx.Status != synapsefake.StatusCanceled || len(tx.Timeline) != 2 {
		t.Errorf("after Settle: %s with timeline %+v, want CANCELED after CREATED", tx.Status, tx.Timeline)
	}
	e.wantBalances(t, 0, nil)
	if n, _ := e.fake.Node(bank.ID); n.BalanceCents != 0 {
		t.Errorf("sender balance %d, want 0", n.BalanceCents)
	}
}
