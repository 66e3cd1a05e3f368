package synapsefake_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// walkCase is a helper that walks several moves: from a status, the
// statuses it appends, or none when it is refused.
type walkCase struct {
	from synapsefake.Status
	want []synapsefake.Status // appended to the timeline; nil: refused
}

// runWalk creates a transaction with a fee, brings it to tc.from, advances
// the clock a second and calls helper. It checks the appended timeline, and
// that a refusal changes nothing; it returns the env and the id.
func runWalk(t *testing.T, tc walkCase, helper func(f *synapsefake.Server, id string) error) (testkit.TxEnv, string) {
	t.Helper()
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
	body := testkit.TxBody(e.Payee.Node, 40)
	body["fees"] = []any{map[string]any{"fee": 1, "note": "Platform", "to": map[string]any{"id": e.FeeNode.ID}}}
	id := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
	if err := testkit.Reach(e.Fake, id, tc.from); err != nil {
		t.Fatalf("reach %s: %v", tc.from, err)
	}
	e.Fake.Advance(time.Second)
	before := e.State(t, id)
	err := helper(e.Fake, id)
	if tc.want == nil {
		if err == nil {
			t.Fatalf("from %s: no error, want a refusal", tc.from)
		}
		e.WantTxUnchanged(t, before)
		return e, id
	}
	if err != nil {
		t.Fatalf("from %s: %v", tc.from, err)
	}
	tx := e.Tx(t, id)
	old := before.Txs[id].Timeline
	var got []synapsefake.Status
	for i, entry := range tx.Timeline[len(old):] {
		got = append(got, entry.Status)
		if !entry.Date.Equal(e.Fake.Now()) {
			t.Errorf("entry %d dated %v, want the clock's %v", i, entry.Date, e.Fake.Now())
		}
	}
	if diff := cmp.Diff(tc.want, got); diff != "" {
		t.Errorf("from %s: appended statuses (-want +got):\n%s", tc.from, diff)
	}
	return e, id
}

func TestSettle(t *testing.T) {
	t.Parallel()
	const (
		pd = synapsefake.StatusProcessingDebit
		pc = synapsefake.StatusProcessingCredit
		st = synapsefake.StatusSettled
	)
	for _, tc := range []walkCase{
		{synapsefake.StatusCreated, []synapsefake.Status{pd, pc, st}},
		{pd, []synapsefake.Status{pc, st}},
		{pc, []synapsefake.Status{st}},
		{synapsefake.StatusQueuedBySynapse, nil},
		{synapsefake.StatusQueuedByReceiver, nil},
		{st, nil},
		{synapsefake.StatusCanceled, nil},
		{synapsefake.StatusReturned, nil},
	} {
		t.Run(string(tc.from), func(t *testing.T) {
			t.Parallel()
			e, id := runWalk(t, tc, (*synapsefake.Server).Settle)
			if tc.want == nil {
				return
			}
			// 40.00 debited, 39.00 to the payee, 1.00 to the fee node.
			e.WantBalances(t, 100_00, map[string]int64{"sender": 60_00, "payee": 39_00, "fees": 1_00})
			if tx := e.Tx(t, id); tx.Code != "" {
				t.Errorf("Code %q, want none", tx.Code)
			}
		})
	}
}

func TestReturn(t *testing.T) {
	t.Parallel()
	const (
		pd  = synapsefake.StatusProcessingDebit
		pc  = synapsefake.StatusProcessingCredit
		ret = synapsefake.StatusReturned
	)
	for _, tc := range []walkCase{
		{synapsefake.StatusCreated, []synapsefake.Status{pd, pc, ret}},
		{pd, []synapsefake.Status{pc, ret}},
		{pc, []synapsefake.Status{ret}},
		{synapsefake.StatusSettled, []synapsefake.Status{ret}},
		{synapsefake.StatusQueuedBySynapse, nil},
		{synapsefake.StatusQueuedByReceiver, nil},
		{synapsefake.StatusCanceled, nil},
		{ret, nil},
	} {
		t.Run(string(tc.from), func(t *testing.T) {
			t.Parallel()
			e, id := runWalk(t, tc, func(f *synapsefake.Server, id string) error { return f.Return(id, "R02") })
			if tc.want == nil {
				return
			}
			// Every cent is back where it started.
			e.WantBalances(t, 100_00, nil)
			tx := e.Tx(t, id)
			last := tx.Timeline[len(tx.Timeline)-1]
			if tx.Code != "R02" || last.Note != "R02: account closed." {
				t.Errorf("Code %q, note %q; want R02 and %q", tx.Code, last.Note, "R02: account closed.")
			}
			// Only the last move carries the code.
			for _, entry := range tx.Timeline[:len(tx.Timeline)-1] {
				if entry.Note == last.Note {
					t.Errorf("entry %+v carries the return note", entry)
				}
			}
		})
	}
}

// TestReturnOnTheWire shows a return as the API answers it: the code in
// recent_status.code and a note with the code and its meaning.
func TestReturnOnTheWire(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	id := e.Create(t, e.Bank, 25)
	e.Fake.Advance(72 * time.Hour) // settled on Monday
	monday := testkit.Friday().Add(72 * time.Hour)
	e.Fake.Advance(time.Hour)
	if err := e.Fake.Return(id, "R02"); err != nil {
		t.Fatal(err)
	}
	want := testkit.WantTxJSON(t, e.Fake, id, e.Fx.Node, e.Bank, 25, testkit.Friday())
	testkit.WithEntries(want, "R02",
		testkit.TxEntry(synapsefake.StatusProcessingDebit, "Processing debit.", testkit.Friday().Add(time.Minute)),
		testkit.TxEntry(synapsefake.StatusProcessingCredit, "Processing credit.", testkit.Friday().Add(time.Hour)),
		testkit.TxEntry(synapsefake.StatusSettled, "Transaction settled.", monday),
		testkit.TxEntry(synapsefake.StatusReturned, "R02: account closed.", monday.Add(time.Hour)),
	)
	testkit.WantTxBody(t, e.Get(t, id), want)
	e.WantBalances(t, 100_00, nil)
}

// TestReturnCodes returns a transaction with every ACH, card and wire code:
// internal transfers between two DEPOSIT-US nodes, which take the codes of
// every rail. The codes of returns of returns (R61, R62, R67-R77) are
// refused (wrong_code_family) and leave the transaction as it was.
func TestReturnCodes(t *testing.T) {
	t.Parallel()
	codes := slices.Concat(reference.ReturnCodes(), reference.InterchangeCodes(), reference.WireReturnCodes())
	if len(codes) > 500 {
		t.Fatalf("%d codes do not fit one batch", len(codes))
	}
	e := testkit.NewTxEnv(t, 0, synapsefake.WithManualProcessing())
	items := make([]any, len(codes))
	for i := range items {
		items[i] = testkit.TxBody(e.Savings, 1)
	}
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: e.BatchPath(), Header: e.Fx.Headers, Body: map[string]any{"transactions": items}})
	trans, _ := r.Body["trans"].([]any)
	if len(trans) != len(codes) {
		t.Fatalf("batch created %d, want %d: %s", len(trans), len(codes), r.Raw)
	}
	for i, c := range codes {
		id, _ := trans[i].(map[string]any)["_id"].(string)
		if reference.ReturnSubjectOf(c.Code) != reference.OfEntry {
			err := e.Fake.Return(id, c.Code)
			if tx := e.Tx(t, id); testkit.ErrCode(err) != "wrong_code_family" || tx.Status != synapsefake.StatusCreated || len(tx.Timeline) != 1 {
				t.Errorf("Return(%s): %v, then %s with %d timeline entries; want wrong_code_family, CREATED with 1", c.Code, err, tx.Status, len(tx.Timeline))
			}
			continue
		}
		if err := e.Fake.Return(id, c.Code); err != nil {
			t.Errorf("Return(%s): %v", c.Code, err)
			continue
		}
		tx := e.Tx(t, id)
		want := c.Code + ": " + c.Meaning + "."
		if last := tx.Timeline[len(tx.Timeline)-1]; tx.Status != synapsefake.StatusReturned || tx.Code != c.Code || last.Note != want {
			t.Errorf("Return(%s): %s, code %q, note %q; want RETURNED, %q, %q", c.Code, tx.Status, tx.Code, last.Note, c.Code, want)
		}
	}
	e.WantBalances(t, 0, nil)
}

func TestReturnUnknownCode(t *testing.T) {
	t.Parallel()
	for _, code := range []string{"", "R00", "R48", "R86", "r01", "IR201", "IR-1", "WR11", "ACCOUNT_CLOSED"} {
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			for _, from := range []synapsefake.Status{synapsefake.StatusCreated, synapsefake.StatusSettled} {
				runWalk(t, walkCase{from: from}, func(f *synapsefake.Server, id string) error { return f.Return(id, code) })
			}
		})
	}
}

// TestQueueAndRelease: a queue stops automatic processing, with its code
// on the wire; a release starts it again from the release time.
func TestQueueAndRelease(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	id := e.Create(t, e.Bank, 10)
	e.Fake.Advance(30 * time.Second)
	if err := e.Fake.Queue(id, "HIGH_RISK"); err != nil {
		t.Fatal(err)
	}
	queuedAt := testkit.Friday().Add(30 * time.Second)
	want := testkit.WantTxJSON(t, e.Fake, id, e.Fx.Node, e.Bank, 10, testkit.Friday())
	testkit.WithEntries(want, "HIGH_RISK", testkit.TxEntry(synapsefake.StatusQueuedBySynapse, "HIGH_RISK", queuedAt))
	testkit.WantTxBody(t, e.Get(t, id), want)

	e.Fake.Advance(7 * 24 * time.Hour)
	testkit.WantTxBody(t, e.Get(t, id), want)
	e.WantBalances(t, 100_00, nil)

	if err := e.Fake.Release(id); err != nil {
		t.Fatal(err)
	}
	released := queuedAt.Add(7 * 24 * time.Hour) // a Friday again
	tx := e.Tx(t, id)
	if last := tx.Timeline[len(tx.Timeline)-1]; tx.Status != synapsefake.StatusCreated || tx.Code != "" ||
		last.Note != "Transaction released from queue." || !last.Date.Equal(released) {
		t.Fatalf("after Release: %s, code %q, last entry %+v", tx.Status, tx.Code, last)
	}
	for _, c := range []struct {
		at   time.Time
		want synapsefake.Status
	}{
		{released.Add(time.Minute - time.Millisecond), synapsefake.StatusCreated},
		{released.Add(time.Minute), synapsefake.StatusProcessingDebit},
		{released.Add(time.Hour), synapsefake.StatusProcessingCredit},
		// Monday January 15, 2024 is Martin Luther King Jr. Day: settled on Tuesday.
		{released.Add(96*time.Hour - time.Millisecond), synapsefake.StatusProcessingCredit},
		{released.Add(96 * time.Hour), synapsefake.StatusSettled},
	} {
		e.Fake.Advance(c.at.Sub(e.Fake.Now()))
		if got := e.Tx(t, id).Status; got != c.want {
			t.Fatalf("at %v: %s, want %s", c.at, got, c.want)
		}
	}
	e.WantBalances(t, 100_00, map[string]int64{"sender": 90_00, "bank": 10_00})
}

func TestQueueAndReleaseRefused(t *testing.T) {
	t.Parallel()
	for _, from := range testkit.AllStatuses() {
		t.Run(string(from), func(t *testing.T) {
			t.Parallel()
			var queue, release walkCase
			queue.from, release.from = from, from
			switch from {
			case synapsefake.StatusCreated:
				queue.want = []synapsefake.Status{synapsefake.StatusQueuedBySynapse}
			case synapsefake.StatusQueuedBySynapse, synapsefake.StatusQueuedByReceiver:
				release.want = []synapsefake.Status{synapsefake.StatusCreated}
			}
			e, id := runWalk(t, queue, func(f *synapsefake.Server, id string) error { return f.Queue(id, "R10") })
			if queue.want != nil {
				if tx := e.Tx(t, id); tx.Code != "R10" || tx.Timeline[len(tx.Timeline)-1].Note != "R10: not authorized." {
					t.Errorf("queued: code %q, timeline %+v", tx.Code, tx.Timeline)
				}
			}
			runWalk(t, release, (*synapsefake.Server).Release)
		})
	}
}

// TestCancelWithCode: the helper's code shows in recent_status.code, and a
// code without a known meaning is the note itself.
func TestCancelWithCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code, note string
	}{
		{"", "Transaction canceled."},
		{"R08", "R08: payment stopped."},
		{"USER_REQUESTED", "USER_REQUESTED"},
	} {
		t.Run(tc.code, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 100_00)
			id := e.Create(t, e.Bank, 10)
			e.Fake.Advance(time.Second)
			if err := e.Fake.Cancel(id, tc.code); err != nil {
				t.Fatal(err)
			}
			want := testkit.WantTxJSON(t, e.Fake, id, e.Fx.Node, e.Bank, 10, testkit.Friday())
			testkit.WithEntries(want, tc.code, testkit.TxEntry(synapsefake.StatusCanceled, tc.note, testkit.Friday().Add(time.Second)))
			testkit.WantTxBody(t, e.Get(t, id), want)
			e.Fake.Advance(7 * 24 * time.Hour)
			e.WantBalances(t, 100_00, nil)
		})
	}
}

func TestHelpersRefuseUnknownTransaction(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	const id = "0123456789abcdef01234567"
	for name, err := range map[string]error{
		"AdvanceTransaction": fake.AdvanceTransaction(id, synapsefake.StatusProcessingDebit),
		"Settle":             fake.Settle(id),
		"Return":             fake.Return(id, "R01"),
		"Queue":              fake.Queue(id, ""),
		"Release":            fake.Release(id),
		"Cancel":             fake.Cancel(id, ""),
	} {
		if err == nil {
			t.Errorf("%s of an unknown transaction: no error", name)
		}
	}
	if tx, ok := fake.Transaction(id); ok {
		t.Errorf("Transaction(unknown) = %+v, true", tx)
	}
}

// TestManualMoveAndTheClock: a move made by hand replaces the clock's step
// into the same status; the clock goes on from there without moving the
// money twice.
func TestManualMoveAndTheClock(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	id := e.Create(t, e.Bank, 10)
	e.Fake.Advance(30 * time.Second)
	if err := e.Fake.AdvanceTransaction(id, synapsefake.StatusProcessingDebit); err != nil {
		t.Fatal(err)
	}
	e.Fake.Advance(time.Minute) // the clock's own debit step fell due
	tx := e.Tx(t, id)
	wantTimeline := []synapsefake.TimelineEntry{
		{Status: synapsefake.StatusCreated, Note: "Transaction Created.", Date: testkit.Friday()},
		{Status: synapsefake.StatusProcessingDebit, Note: "Processing debit.", Date: testkit.Friday().Add(30 * time.Second)},
	}
	if diff := cmp.Diff(wantTimeline, tx.Timeline); diff != "" {
		t.Errorf("Timeline (-want +got):\n%s", diff)
	}
	e.WantBalances(t, 100_00, map[string]int64{"sender": 90_00})
	e.Fake.Advance(72 * time.Hour)
	if got := e.Tx(t, id).Status; got != synapsefake.StatusSettled {
		t.Errorf("on Monday: %s, want SETTLED", got)
	}
	e.WantBalances(t, 100_00, map[string]int64{"sender": 90_00, "bank": 10_00})
}

// walkSeeds is how many seeds TestMoneyIsConserved walks; the first is
// fixed, so that a plain go test always walks the same way.
var walkSeeds = flag.Int("walkseeds", 1, "how many seeds TestMoneyIsConserved walks (go test -run TestMoneyIsConserved -walkseeds 200)")

// TestMoneyIsConserved is the property test: a few hundred random steps
// (creates, batches, settles, returns, cancels, queues, releases, single
// moves, clock advances (now and then 61 days), card swipes and their
// lifecycle, disputes (late ones refused) and their decisions, provisional
// credits falling due, chargebacks, returns of disputed transactions,
// dishonored returns and contested dishonors, in their windows and past
// them) and
// after each one the sum of every balance plus the money in flight
// (PROCESSING-DEBIT and PROCESSING-CREDIT) is what it was at the start,
// every node's available balance is its balance less its outgoing
// transactions still CREATED or queued, and each user (the owner of nodes)
// holds what the transactions' outcomes give it: its nodes' starting
// balances, less what it sent that is in flight or settled and not given
// back by a dispute, plus what it received that is settled and not taken
// back by a dispute. Disputed money comes back once: a disputed
// transaction is never also returned. -walkseeds walks more seeds.
func TestMoneyIsConserved(t *testing.T) {
	t.Parallel()
	for i := range max(*walkSeeds, 1) {
		seed := uint64(20240105 + i)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			moneyWalk(t, seed, i == 0, synapsefake.WithFundsCheck())
		})
		// By default a transfer over the balance is taken and the
		// sender's balance may go negative: money is conserved all the
		// same.
		t.Run(fmt.Sprint(seed, "-overdrafts"), func(t *testing.T) {
			t.Parallel()
			moneyWalk(t, seed, false)
		})
	}
}

// moneyWalk is one walk of TestMoneyIsConserved on a server with opts;
// with coverage, it also checks that every operation succeeded at least
// once.
func moneyWalk(t *testing.T, seed uint64, coverage bool, opts ...synapsefake.Option) {
	e := testkit.NewTxEnv(t, 1000_00, opts...)
	payeeSavings := testkit.AddTxNode(t, e.Fake, e.Payee.User.ID, synapsefake.NodeSeed{Nickname: "Payee savings", BalanceCents: 800_00})
	payeeExternal := testkit.AddTxNode(t, e.Fake, e.Payee.User.ID, synapsefake.NodeSeed{Type: "EXTERNAL-US", Nickname: "Payee external"})
	nodes := []synapsefake.Node{e.Fx.Node, e.Savings, e.Bank, e.Payee.Node, payeeSavings, payeeExternal, e.FeeNode}
	owners := map[string]testkit.Fixture{e.Fx.User.ID: e.Fx, e.Payee.User.ID: e.Payee}
	senders := nodes[:6]
	// What each node held at the start, for what each user should hold.
	start := map[string]int64{}
	for _, n := range nodes {
		start[n.ID] = n.BalanceCents
	}
	codes := []string{"R01", "R02", "R16", "IR51", "WR01", "IR999"}
	known := map[string]bool{}
	for _, n := range nodes {
		known[n.ID] = true
	}
	statuses := slices.Clone(testkit.AllStatuses())
	durations := []time.Duration{time.Millisecond, time.Minute, time.Hour, 4 * time.Hour, 24 * time.Hour, 72 * time.Hour}

	var txIDs []string
	seen := map[synapsefake.Status]bool{}
	var maxInFlight int64
	var maxPending int64
	total := func() int64 {
		var inFlight int64
		pending := map[string]int64{}
		for _, id := range txIDs {
			tx := e.Tx(t, id)
			seen[tx.Status] = true
			switch {
			case tx.Status == synapsefake.StatusProcessingDebit || tx.Status == synapsefake.StatusProcessingCredit:
				inFlight += tx.AmountCents
			case tx.Status == synapsefake.StatusCreated || tx.Status.Queued():
				pending[tx.FromNodeID] += tx.AmountCents
				maxPending = max(maxPending, pending[tx.FromNodeID])
			}
		}
		var sum int64
		for _, n := range nodes {
			got, ok := e.Fake.Node(n.ID)
			if !ok {
				t.Fatalf("Node(%s) not found", n.ID)
			}
			sum += got.BalanceCents
			if got.AvailableCents != got.BalanceCents-pending[n.ID] {
				t.Fatalf("node %s: available %d, want balance %d less pending %d", n.Nickname, got.AvailableCents, got.BalanceCents, pending[n.ID])
			}
		}
		maxInFlight = max(maxInFlight, inFlight)
		return sum + inFlight
	}
	rng := rand.New(rand.NewPCG(seed, 4))
	item := func(from synapsefake.Node) map[string]any {
		to := nodes[rng.IntN(len(nodes))]
		for to.ID == from.ID {
			to = nodes[rng.IntN(len(nodes))]
		}
		amount := rng.IntN(300_00) + 1
		body := testkit.TxBody(to, float64(amount)/100)
		if rng.IntN(3) == 0 {
			body["fees"] = []any{map[string]any{"fee": float64(rng.IntN(amount+1)) / 100, "to": map[string]any{"id": e.FeeNode.ID}}}
		}
		if rng.IntN(4) == 0 {
			testkit.PutPath(body, "extra.same_day", true)
		}
		if rng.IntN(6) == 0 {
			testkit.PutPath(body, "extra.process_on", rng.IntN(3))
		}
		return body
	}
	pick := func() (synapsefake.Transaction, bool) {
		if len(txIDs) == 0 {
			return synapsefake.Transaction{}, false
		}
		// Half the time one of the newest three, which are more often
		// still CREATED or queued.
		i := rng.IntN(len(txIDs))
		if rng.IntN(2) == 0 {
			i = max(0, len(txIDs)-1-rng.IntN(3))
		}
		return e.Tx(t, txIDs[i]), true
	}

	// A card on a node of its own, which the transfers do not drain; its
	// first force post brings the card network's hidden node. Both are
	// counted like the others.
	cardFx := e.Fx
	cardFx.Node = testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Nickname: "Card account", BalanceCents: 2000_00})
	nodes = append(nodes, cardFx.Node)
	start[cardFx.Node.ID] = cardFx.Node.BalanceCents
	card := testkit.AddSubnet(t, e.Fake, cardFx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	first, err := e.Fake.ForcePost(card.ID, synapsefake.CardAuth{AmountCents: 1})
	if err != nil {
		t.Fatal(err)
	}
	network, ok := e.Fake.Node(first.ToNodeID)
	if !ok {
		t.Fatalf("card network node %s not found", first.ToNodeID)
	}
	nodes = append(nodes, network)
	start[network.ID] = 0 // made by the first force post, which the walk counts
	txIDs = append(txIDs, first.ID)
	// The platform decides card swipes (TRANS|POST|JIT), answering what
	// each swipe picks: PASS, FAIL, a partial approval or nonsense.
	var jitMu sync.Mutex
	jitAnswer := ""
	jit := testkit.NewPlatform(t, func(w http.ResponseWriter, r *http.Request) {
		jitMu.Lock()
		a := jitAnswer
		jitMu.Unlock()
		testkit.Answer(200, a)(w, r)
	})
	e.Fake.MustAddSubscription(t, jit.Url, reference.ScopeTransPostJIT)
	jitAnswers := []string{`{"decision":"PASS"}`, `{"decision":"FAIL"}`, `{"decision":"PASS","total_amount":0.5}`, `nonsense`}
	var swipes []string // card authorizations, for the lifecycle's moves
	pickSwipe := func() (synapsefake.Transaction, bool) {
		if len(swipes) == 0 {
			return synapsefake.Transaction{}, false
		}
		i := rng.IntN(len(swipes))
		if rng.IntN(2) == 0 {
			i = max(0, len(swipes)-1-rng.IntN(3))
		}
		return e.Tx(t, swipes[i]), true
	}

	// A return rule returns every transfer to the payee's external node a
	// day after it settles.
	if _, err := e.Fake.AddReturnRule(synapsefake.ReturnRule{NodeID: payeeExternal.ID, Code: "R10", After: 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	// Disputes, in filing order; filed is true for a user's dispute, false
	// for the platform's dispute of a chargeback. A dispute's credits join
	// txIDs, for the other moves to try, and postings tells them apart.
	var disputes []string
	filed, postings := map[string]bool{}, map[string]bool{}
	owner := map[string]string{} // node id -> user id
	for _, n := range nodes {
		owner[n.ID] = n.UserID
	}
	disputable := map[string]bool{payeeExternal.ID: true, e.Bank.ID: true, network.ID: true}
	reasons := []string{"CHARGE_BACK", "SERVICE|MERCHANT|RETURNED_MERCH", "FRAUD|UNAUTHORIZED|CARD_LOST"}
	notePosting := func(id string) {
		if c := e.Tx(t, id).DisputeCreditID; c != "" && !postings[c] {
			postings[c] = true
			txIDs = append(txIDs, c)
		}
	}
	// held compares what each user holds with what the outcomes of the
	// transactions give it; dispute credits count through their disputes.
	held := func() error {
		want := map[string]int64{}
		for id, b := range start {
			want[owner[id]] += b
		}
		for _, id := range txIDs {
			if postings[id] {
				continue
			}
			tx := e.Tx(t, id)
			from, to := owner[tx.FromNodeID], owner[tx.ToNodeID]
			var fees int64
			for _, f := range tx.Fees {
				fees += f.AmountCents
			}
			byUser, disputed := filed[id]
			switch {
			case tx.Dispute != synapsefake.DisputeNone && !disputed:
				return fmt.Errorf("transaction %s is disputed (%s), but nobody filed a dispute", id, tx.Dispute)
			case tx.Status == synapsefake.StatusProcessingDebit || tx.Status == synapsefake.StatusProcessingCredit:
				want[from] -= tx.AmountCents
			case tx.Status == synapsefake.StatusSettled:
				var back int64 // what the user's dispute gave back
				if byUser && (tx.Dispute == synapsefake.DisputeWon || tx.Dispute == synapsefake.DisputePending && tx.DisputeCreditID != "") {
					back = tx.AmountCents
				}
				want[from] -= tx.AmountCents - back
				want[to] += tx.AmountCents - fees - back
				for _, f := range tx.Fees {
					if f.NodeID != "" {
						want[owner[f.NodeID]] += f.AmountCents
					}
				}
			case tx.Status == synapsefake.StatusReturned && byUser:
				return fmt.Errorf("transaction %s was disputed by its user (%s) and returned (%s)", id, tx.Dispute, tx.Code)
			case tx.Status == synapsefake.StatusReturned && disputed && tx.Dispute == synapsefake.DisputeWon:
				// A won chargeback gives the receiver back what it had netted.
				want[from] -= tx.AmountCents - fees
				want[to] += tx.AmountCents - fees
			}
		}
		got := map[string]int64{}
		for _, n := range nodes {
			got[n.UserID] += testkit.Balance(t, e.Fake, n.ID)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			return fmt.Errorf("held by user (-want +got):\n%s", diff)
		}
		return nil
	}
	want := total()
	done := map[string]int{} // successful operations by name
	// The moves of returns of returns draw from a generator of their own
	// and come between the others, whose draws stay as they were.
	rrng := rand.New(rand.NewPCG(seed, 5))
	for step, others := 0, 0; others < 1000; step++ {
		var op string
		var err error
		kind := 16 // past the others' draws
		if rrng.IntN(8) != 0 {
			kind = rng.IntN(16)
			others++
		}
		switch kind {
		case 0, 1:
			op = "create"
			from := senders[rng.IntN(len(senders))]
			fx := owners[from.UserID]
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, from.ID), Header: fx.Headers, Body: item(from)})
			if r.Status == 200 {
				txIDs = append(txIDs, r.Body["_id"].(string))
			} else {
				err = fmt.Errorf("%d %s", r.Status, r.Raw)
			}
		case 2:
			op = "batch"
			from := senders[rng.IntN(len(senders))]
			fx := owners[from.UserID]
			items := make([]any, rng.IntN(4)+1)
			for i := range items {
				items[i] = item(from)
			}
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes/" + from.ID + "/batch-trans",
				Header: fx.Headers, Body: map[string]any{"transactions": items}})
			trans, _ := r.Body["trans"].([]any)
			for _, tx := range trans {
				txIDs = append(txIDs, tx.(map[string]any)["_id"].(string))
			}
			if len(trans) == 0 {
				err = fmt.Errorf("%d %s", r.Status, r.Raw)
			}
		case 3:
			op = "settle"
			if tx, ok := pick(); ok {
				err = e.Fake.Settle(tx.ID)
			}
		case 4:
			op = "return"
			tx, ok := pick()
			if !ok {
				break
			}
			// A code of the transaction's rail: R on ACH-US, IR on the
			// card network's node; internal transfers take any.
			var code string
			switch {
			case tx.FromNodeID == e.Bank.ID || tx.ToNodeID == e.Bank.ID:
				code = codes[rng.IntN(3)]
			case !known[tx.FromNodeID] || !known[tx.ToNodeID]:
				code = []string{"IR51", "IR999"}[rng.IntN(2)]
			default:
				code = codes[rng.IntN(len(codes))]
			}
			switch rng.IntN(4) {
			case 0, 1:
				err = e.Fake.Return(tx.ID, code)
			case 2:
				op = "late return"
				err = e.Fake.Return(tx.ID, code, synapsefake.PastWindow())
			default:
				op = "schedule return"
				err = e.Fake.Return(tx.ID, code, synapsefake.AfterSettlement(durations[rng.IntN(len(durations))]/2))
			}
		case 5:
			op = "cancel"
			if tx, ok := pick(); ok {
				if rng.IntN(2) == 0 {
					err = e.Fake.Cancel(tx.ID, "")
				} else {
					fx := owners[tx.UserID]
					r := testkit.Do(t, e.Fake, testkit.Call{Method: "DELETE", Path: testkit.TranPath(tx.UserID, tx.FromNodeID, tx.ID), Header: fx.Headers})
					if r.Status != 200 {
						err = fmt.Errorf("%d %s", r.Status, r.Raw)
					}
				}
			}
		case 6:
			op = "queue"
			var queued []string
			for _, id := range txIDs {
				if e.Tx(t, id).Status.Queued() {
					queued = append(queued, id)
				}
			}
			if len(queued) > 0 && rng.IntN(2) == 0 {
				op = "release"
				err = e.Fake.Release(queued[rng.IntN(len(queued))])
			} else if tx, ok := pick(); ok {
				err = e.Fake.Queue(tx.ID, "HOLD")
			}
		case 7:
			op = "advance transaction"
			if tx, ok := pick(); ok {
				err = e.Fake.AdvanceTransaction(tx.ID, statuses[rng.IntN(len(statuses))])
			}
		case 8:
			amount := int64(rng.IntN(30_00) + 1) // under the card's daily limit of $1,000.00 a few times a day
			var tx synapsefake.Transaction
			switch rng.IntN(4) {
			case 0, 1:
				op = "card swipe"
				jitMu.Lock()
				jitAnswer = jitAnswers[rng.IntN(len(jitAnswers))]
				jitMu.Unlock()
				// A partial approval is honoured for even amounts, refused (IR180) for odd ones.
				tx, err = e.Fake.CardAuthorization(card.ID, synapsefake.CardAuth{AmountCents: amount, Hold: rng.IntN(3) != 0, PartialApprovalAllowed: amount%2 == 0})
				swipes = append(swipes, tx.ID)
				if tx.Code == "IR10" || tx.Code == "IR180" {
					done["swipe "+tx.Code]++
				}
			case 2:
				op = "force post"
				tx, err = e.Fake.ForcePost(card.ID, synapsefake.CardAuth{AmountCents: amount})
			default:
				op = "refund"
				tx, err = e.Fake.RefundCard(card.ID, amount, "")
			}
			if err == nil {
				txIDs = append(txIDs, tx.ID)
			}
		case 9:
			op = "card move"
			tx, ok := pickSwipe()
			if !ok {
				break
			}
			switch rng.IntN(3) {
			case 0:
				op = "increment"
				err = e.Fake.IncrementAuthorization(tx.ID, int64(rng.IntN(10_00)+1))
			case 1:
				op = "reverse"
				err = e.Fake.ReverseAuthorization(tx.ID, int64(rng.IntN(int(max(tx.AmountCents, 1))))+1)
			default:
				op = "clear"
				err = e.Fake.ClearAuthorization(tx.ID, max(1, tx.AmountCents+int64(rng.IntN(40_00))-20_00))
			}
		case 10:
			// A user disputes a settled debit that left the platform, or
			// now and then any transaction (refused but for a few).
			op = "dispute"
			var candidates []synapsefake.Transaction
			for _, id := range txIDs {
				if tx := e.Tx(t, id); tx.Status == synapsefake.StatusSettled && tx.Dispute == synapsefake.DisputeNone &&
					!postings[id] && disputable[tx.ToNodeID] {
					candidates = append(candidates, tx)
				}
			}
			// Half the time one settled over 121 days ago, past every
			// rail's filing window, when there is one.
			var late []synapsefake.Transaction
			for _, tx := range candidates {
				for _, s := range tx.Timeline {
					if s.Status == synapsefake.StatusSettled {
						if e.Fake.Now().Sub(s.Date) > 121*24*time.Hour {
							late = append(late, tx)
						}
						break
					}
				}
			}
			tx, ok := pick()
			switch {
			case len(late) > 0 && rng.IntN(2) == 0:
				tx, ok = late[rng.IntN(len(late))], true
			case len(candidates) > 0 && rng.IntN(4) != 0:
				tx, ok = candidates[rng.IntN(len(candidates))], true
			}
			if !ok {
				op = "nothing to dispute"
				break
			}
			fx, ok := owners[owner[tx.FromNodeID]]
			if !ok {
				fx = e.Fx
			}
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.TranPath(fx.User.ID, tx.FromNodeID, tx.ID) + "/dispute", Header: fx.Headers,
				Body: map[string]any{"dispute_reason": reasons[rng.IntN(len(reasons))]}})
			if err = testkit.RespErr(r); err == nil {
				filed[tx.ID] = true
				disputes = append(disputes, tx.ID)
				notePosting(tx.ID)
			} else if testkit.ErrCode(err) == "dispute_window_closed" {
				// Past its filing window: refused, and nothing changed
				// (held checks the money below).
				if after := e.Tx(t, tx.ID); after.Dispute != synapsefake.DisputeNone || after.DisputeCreditID != "" {
					t.Fatalf("step %d: a late dispute of %s was refused but left dispute %q, credit %q", step, tx.ID, after.Dispute, after.DisputeCreditID)
				}
				done["late dispute refused"]++
			}
		case 11:
			// A dispute is decided, mostly a pending one, by the Go
			// helpers or the control API.
			var pending []string
			for _, id := range disputes {
				if e.Tx(t, id).Dispute == synapsefake.DisputePending {
					pending = append(pending, id)
				}
			}
			if len(disputes) == 0 {
				op = "nothing to decide"
				break
			}
			id := disputes[rng.IntN(len(disputes))]
			if len(pending) > 0 && rng.IntN(4) != 0 {
				id = pending[rng.IntN(len(pending))]
			}
			won := rng.IntN(2) == 0
			op = map[bool]string{true: "win", false: "lose"}[won]
			switch {
			case rng.IntN(2) == 0:
				outcome := map[bool]string{true: "won", false: "lost"}[won]
				err = testkit.RespErr(testkit.Ctl(t, e.Fake, "POST", "/transactions/"+id+"/dispute", map[string]any{"outcome": outcome}))
			case won:
				err = e.Fake.WinDispute(id)
			default:
				err = e.Fake.LoseDispute(id)
			}
			if err == nil {
				notePosting(id)
			}
		case 12:
			// A card purchase is charged back (returned with IR999), or
			// the platform disputes a chargeback.
			var charged, purchases []string
			for _, id := range txIDs {
				tx := e.Tx(t, id)
				switch {
				case postings[id] || tx.Dispute != synapsefake.DisputeNone || tx.ToNodeID != network.ID:
				case tx.Status == synapsefake.StatusReturned && tx.Code == "IR999":
					charged = append(charged, id)
				case tx.Status == synapsefake.StatusSettled:
					purchases = append(purchases, id)
				}
			}
			switch {
			case len(charged) > 0 && (len(purchases) == 0 || rng.IntN(2) == 0):
				op = "chargeback dispute"
				id := charged[rng.IntN(len(charged))]
				if err = testkit.RespErr(testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: "/trans/" + id + "/dispute-chargeback",
					Header: testkit.GatewayHeaders(e.Fake), Body: map[string]any{}})); err == nil {
					filed[id] = false
					disputes = append(disputes, id)
				}
			case len(purchases) > 0:
				op = "chargeback"
				err = e.Fake.Return(purchases[rng.IntN(len(purchases))], "IR999")
			default:
				op = "nothing to charge back"
			}
		case 13:
			// Every road to RETURNED is closed to a transaction its user
			// disputed and to a dispute's credit.
			var closed []string
			for _, id := range txIDs {
				if filed[id] || postings[id] {
					closed = append(closed, id)
				}
			}
			if len(closed) == 0 {
				op = "nothing disputed to return"
				break
			}
			id := closed[rng.IntN(len(closed))]
			code := codes[rng.IntN(len(codes))]
			op = "return of a disputed transaction"
			switch rng.IntN(6) {
			case 0:
				err = e.Fake.Return(id, code)
			case 1:
				err = e.Fake.Return(id, code, synapsefake.PastWindow())
			case 2:
				err = e.Fake.Return(id, code, synapsefake.AfterSettlement(durations[rng.IntN(len(durations))]/2))
			case 3:
				err = e.Fake.Return(id, code, synapsefake.AfterSettlement(0), synapsefake.PastWindow())
			case 4:
				err = e.Fake.AdvanceTransaction(id, synapsefake.StatusReturned)
			default:
				err = testkit.RespErr(testkit.Ctl(t, e.Fake, "POST", "/transactions/"+id+"/return", map[string]any{"code": code, "late": true}))
			}
			switch c := testkit.ErrCode(err); c {
			case "transaction_disputed", "dispute_posting", "illegal_status_change", "return_window_passed", "return_code_not_for_rail":
				done["refused "+c]++
			default:
				t.Fatalf("step %d: %s of %s (%s): error %v, want a refusal", step, op, id, e.Tx(t, id).Status, err)
			}
		case 16:
			// The originating bank dishonors the return of an ACH
			// transfer (R61, R62, R67-R70), or the receiving bank
			// contests a dishonor (R71-R77), within their windows or
			// past them; now and then either is tried on any
			// transaction. A refusal changes nothing (total and held
			// check the money below).
			// Returned and dishonored ACH transfers, the recent ones
			// (in the last four days, mostly in their windows) apart.
			var returned, dishonored, recent, recentlyDishonored []string
			for _, id := range txIDs {
				tx := e.Tx(t, id)
				last := tx.Timeline[len(tx.Timeline)-1]
				fresh := e.Fake.Now().Sub(last.Date) < 4*24*time.Hour
				switch {
				case postings[id] || tx.FromNodeID != e.Bank.ID && tx.ToNodeID != e.Bank.ID:
				case tx.Status == synapsefake.StatusReturned && reference.ReturnSubjectOf(tx.Code) == reference.OfEntry:
					returned = append(returned, id)
					if fresh {
						recent = append(recent, id)
					}
				case tx.Status == synapsefake.StatusSettled && reference.ReturnSubjectOf(tx.Code) == reference.OfReturn:
					dishonored = append(dishonored, id)
					if fresh {
						recentlyDishonored = append(recentlyDishonored, id)
					}
				}
			}
			dishonorCodes := []string{"R61", "R62", "R67", "R68", "R69", "R70"}
			contestCodes := []string{"R71", "R72", "R73", "R74", "R75", "R76", "R77"}
			var id string
			contest := rrng.IntN(2) == 0
			switch {
			case contest && len(recentlyDishonored) > 0 && rrng.IntN(4) != 0:
				id = recentlyDishonored[rrng.IntN(len(recentlyDishonored))]
			case contest && len(dishonored) > 0:
				id = dishonored[rrng.IntN(len(dishonored))]
			case !contest && len(recent) > 0 && rrng.IntN(4) != 0:
				id = recent[rrng.IntN(len(recent))]
			case !contest && len(returned) > 0:
				id = returned[rrng.IntN(len(returned))]
			case len(txIDs) > 0:
				id = txIDs[rrng.IntN(len(txIDs))]
			default:
				op = "nothing to dishonor"
			}
			if id == "" {
				break
			}
			e.Fake.Advance(0) // the steps due now, which any call makes first
			before := e.Tx(t, id)
			if contest {
				op = "contest"
				err = e.Fake.ContestDishonor(id, contestCodes[rrng.IntN(len(contestCodes))])
			} else {
				op = "dishonor"
				err = e.Fake.DishonorReturn(id, dishonorCodes[rrng.IntN(len(dishonorCodes))])
			}
			switch c := testkit.ErrCode(err); c {
			case "":
			case "dishonor_window_passed", "contest_window_passed", "not_returned", "not_dishonored", "already_dishonored",
				"already_contested", "return_code_not_for_rail", "dispute_posting", "transaction_disputed":
				done["refused "+c]++
				if after := e.Tx(t, id); !cmp.Equal(before, after) {
					t.Fatalf("step %d: %s of %s refused (%v) but changed it:\n%s", step, op, id, err, cmp.Diff(before, after))
				}
			default:
				t.Fatalf("step %d: %s of %s (%s %s): error %v, want success or a refusal", step, op, id, before.Status, before.Code, err)
			}
		default:
			op = "advance clock"
			d := durations[rng.IntN(len(durations))]
			if rng.IntN(40) == 0 && e.Fake.Now().Before(testkit.Friday().AddDate(0, 0, 200)) {
				d = 61 * 24 * time.Hour // past the 60-day filing windows (keys live 365 days)
			}
			e.Fake.Advance(d)
		}
		if err == nil {
			done[op]++
		}
		// A provisional credit falls due business days after its dispute
		// was filed, in whatever step moves the clock past it.
		for _, id := range disputes {
			if c := e.Tx(t, id).DisputeCreditID; c != "" && !postings[c] {
				done["provisional credit on schedule"]++
				notePosting(id)
			}
		}
		if got := total(); got != want {
			t.Fatalf("step %d (%s, error %v): balances plus money in flight %d, want %d", step, op, err, got, want)
		}
		if wrong := held(); wrong != nil {
			t.Fatalf("step %d (%s, error %v): %v", step, op, err, wrong)
		}
	}
	for _, id := range txIDs {
		if tx := e.Tx(t, id); slices.ContainsFunc(tx.Timeline, func(e synapsefake.TimelineEntry) bool {
			return strings.HasPrefix(e.Note, "Planned return ")
		}) {
			done["planned return not made"]++
		}
	}
	if !coverage {
		return
	}
	// The walk must have gone everywhere the property is about.
	for _, s := range testkit.AllStatuses() {
		if !seen[s] {
			t.Errorf("no transaction was ever %s", s)
		}
	}
	for _, op := range []string{"create", "batch", "settle", "return", "late return", "schedule return", "cancel", "queue", "release",
		"advance transaction", "advance clock", "card swipe", "force post", "refund", "increment", "reverse", "clear", "swipe IR10", "swipe IR180",
		"dispute", "win", "lose", "chargeback", "chargeback dispute", "refused transaction_disputed", "refused dispute_posting",
		"planned return not made", "late dispute refused", "provisional credit on schedule",
		"dishonor", "contest", "refused dishonor_window_passed", "refused contest_window_passed"} {
		if done[op] == 0 {
			t.Errorf("no %s succeeded", op)
		}
	}
	if maxInFlight == 0 {
		t.Error("no money was ever in flight")
	}
	if maxPending == 0 {
		t.Error("no money was ever pending")
	}
	t.Logf("%d transactions; successful operations %v", len(txIDs), done)
}

// TestReleaseRestartsTheSchedule: a transaction queued and released before
// its first step fell due starts over from the release; the step scheduled
// at creation no longer applies.
func TestReleaseRestartsTheSchedule(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	id := e.Create(t, e.Bank, 10)
	e.Fake.Advance(10 * time.Second)
	if err := e.Fake.Queue(id, ""); err != nil {
		t.Fatal(err)
	}
	e.Fake.Advance(10 * time.Second)
	if err := e.Fake.Release(id); err != nil {
		t.Fatal(err)
	}
	released := testkit.Friday().Add(20 * time.Second)
	e.Fake.Advance(time.Minute - 20*time.Second) // the creation's debit step
	if got := e.Tx(t, id).Status; got != synapsefake.StatusCreated {
		t.Fatalf("a minute after creation: %s, want CREATED", got)
	}
	e.WantBalances(t, 100_00, nil)
	e.Fake.Advance(released.Add(time.Minute).Sub(e.Fake.Now()))
	wantTimeline := []synapsefake.TimelineEntry{
		{Status: synapsefake.StatusCreated, Note: "Transaction Created.", Date: testkit.Friday()},
		{Status: synapsefake.StatusQueuedBySynapse, Note: "Transaction queued.", Date: testkit.Friday().Add(10 * time.Second)},
		{Status: synapsefake.StatusCreated, Note: "Transaction released from queue.", Date: released},
		{Status: synapsefake.StatusProcessingDebit, Note: "Processing debit.", Date: released.Add(time.Minute)},
	}
	if diff := cmp.Diff(wantTimeline, e.Tx(t, id).Timeline); diff != "" {
		t.Errorf("Timeline (-want +got):\n%s", diff)
	}
	e.WantBalances(t, 100_00, map[string]int64{"sender": 90_00})
}
