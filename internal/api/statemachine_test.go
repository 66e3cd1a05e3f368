package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

func TestStatuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status synapsefake.Status
		wire   string
		id     string
		queued bool
	}{
		{synapsefake.StatusQueuedBySynapse, "QUEUED-BY-SYNAPSE", "-1", true},
		{synapsefake.StatusQueuedByReceiver, "QUEUED-BY-RECEIVER", "0", true},
		{synapsefake.StatusCreated, "CREATED", "1", false},
		{synapsefake.StatusProcessingDebit, "PROCESSING-DEBIT", "2", false},
		{synapsefake.StatusProcessingCredit, "PROCESSING-CREDIT", "3", false},
		{synapsefake.StatusSettled, "SETTLED", "4", false},
		{synapsefake.StatusCanceled, "CANCELED", "5", false},
		{synapsefake.StatusReturned, "RETURNED", "6", false},
		{synapsefake.Status("PENDING"), "PENDING", "", false},
		{synapsefake.Status(""), "", "", false},
	} {
		if string(tc.status) != tc.wire || tc.status.ID() != tc.id || tc.status.Queued() != tc.queued {
			t.Errorf("%q: ID() %q, Queued() %v; want %q, %q, %v",
				tc.status, tc.status.ID(), tc.status.Queued(), tc.wire, tc.id, tc.queued)
		}
	}
}

// legalMoves is the state machine of the issue and the spec's FIDELITY.md: creation
// lands in CREATED; CREATED -> PROCESSING-DEBIT -> PROCESSING-CREDIT ->
// SETTLED; CREATED and both queued statuses may be canceled; CREATED may be
// queued and a queued transaction released; PROCESSING-CREDIT and SETTLED
// may be returned. Nothing leaves CANCELED or RETURNED by these moves (a
// dishonored return, DishonorReturn, has its own tests: dishonor_test.go).
var legalMoves = map[synapsefake.Status][]synapsefake.Status{
	synapsefake.StatusCreated: {synapsefake.StatusProcessingDebit, synapsefake.StatusCanceled,
		synapsefake.StatusQueuedBySynapse, synapsefake.StatusQueuedByReceiver},
	synapsefake.StatusQueuedBySynapse:  {synapsefake.StatusCreated, synapsefake.StatusCanceled},
	synapsefake.StatusQueuedByReceiver: {synapsefake.StatusCreated, synapsefake.StatusCanceled},
	synapsefake.StatusProcessingDebit:  {synapsefake.StatusProcessingCredit},
	synapsefake.StatusProcessingCredit: {synapsefake.StatusSettled, synapsefake.StatusReturned},
	synapsefake.StatusSettled:          {synapsefake.StatusReturned},
}

// moveRoute is one way to ask for a move: a helper or an HTTP call. It
// returns the refusal's wire error.code ("" when the helper's error carries
// none that the test checks) or nil.
type moveRoute struct {
	name string
	to   synapsefake.Status // the move it makes
	do   func(t *testing.T, e testkit.TxEnv, id string) (refused bool, code string)
}

func helperRoute(name string, to synapsefake.Status, code string, fn func(f *synapsefake.Server, id string) error) moveRoute {
	return moveRoute{name: name, to: to, do: func(t *testing.T, e testkit.TxEnv, id string) (bool, string) {
		err := fn(e.Fake, id)
		if err == nil {
			return false, ""
		}
		if code != "" && !strings.Contains(err.Error(), code) {
			t.Errorf("%s: error %q does not name %s", name, err, code)
		}
		return true, code
	}}
}

// moveRoutes are every way to make each move: AdvanceTransaction for all of
// them, and the helper or HTTP call dedicated to some.
func moveRoutes() []moveRoute {
	var routes []moveRoute
	for _, to := range testkit.AllStatuses() {
		routes = append(routes, helperRoute("AdvanceTransaction", to, "", func(f *synapsefake.Server, id string) error {
			return f.AdvanceTransaction(id, to)
		}))
	}
	return append(routes,
		helperRoute("Cancel", synapsefake.StatusCanceled, "cannot_cancel_transaction", func(f *synapsefake.Server, id string) error {
			return f.Cancel(id, "")
		}),
		helperRoute("Queue", synapsefake.StatusQueuedBySynapse, "", func(f *synapsefake.Server, id string) error {
			return f.Queue(id, "")
		}),
		helperRoute("Release", synapsefake.StatusCreated, "", func(f *synapsefake.Server, id string) error {
			return f.Release(id)
		}),
		moveRoute{name: "DELETE", to: synapsefake.StatusCanceled, do: func(t *testing.T, e testkit.TxEnv, id string) (bool, string) {
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "DELETE", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers})
			if r.Status == 200 {
				if got := getTxPath(r.Body, "recent_status.status"); got != string(synapsefake.StatusCanceled) {
					t.Errorf("DELETE answered recent_status.status %v, want CANCELED", got)
				}
				return false, ""
			}
			wantErrorStatus(t, r, 409, "410", "cannot_cancel_transaction")
			return true, "cannot_cancel_transaction"
		}},
	)
}

// moveOutcome is what a move leaves behind, compared across routes.
type moveOutcome struct {
	Refused  bool
	Tx       synapsefake.Transaction
	Balances map[string]int64
}

// TestStateMachine tries every move between the eight statuses, through
// every route that makes it: legal moves happen, illegal ones are refused
// and change nothing, and every route to the same move ends in the same
// state. Each route runs on its own fake built the same way (same seed,
// same clock), so the outcomes compare whole.
func TestStateMachine(t *testing.T) {
	t.Parallel()
	routes := moveRoutes()
	for _, from := range testkit.AllStatuses() {
		for _, to := range testkit.AllStatuses() {
			legal := slices.Contains(legalMoves[from], to)
			t.Run(fmt.Sprintf("%s to %s", from, to), func(t *testing.T) {
				t.Parallel()
				var first *moveOutcome
				var firstRoute string
				for _, route := range routes {
					if route.to != to {
						continue
					}
					got := runMove(t, route, from, to, legal)
					if first == nil {
						first, firstRoute = &got, route.name
						continue
					}
					if diff := cmp.Diff(*first, got); diff != "" {
						t.Errorf("%s and %s differ (-%s +%s):\n%s", firstRoute, route.name, firstRoute, route.name, diff)
					}
				}
				if first == nil {
					t.Fatalf("no route makes the move to %s", to)
				}
			})
		}
	}
}

// runMove makes one move through one route on a new fake and checks it.
func runMove(t *testing.T, route moveRoute, from, to synapsefake.Status, legal bool) moveOutcome {
	t.Helper()
	const start = 100_00
	e := testkit.NewTxEnv(t, start, synapsefake.WithManualProcessing())
	body := testkit.TxBody(e.Payee.Node, 40)
	body["fees"] = []any{map[string]any{"fee": 1, "note": "Platform", "to": map[string]any{"id": e.FeeNode.ID}}}
	id := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
	if err := testkit.Reach(e.Fake, id, from); err != nil {
		t.Fatalf("reach %s: %v", from, err)
	}
	e.Fake.Advance(time.Second) // the move is dated apart from the setup
	before := e.State(t, id)

	refused, _ := route.do(t, e, id)
	if refused == legal {
		t.Fatalf("%s from %s to %s: refused %v, want %v", route.name, from, to, refused, !legal)
	}
	tx := e.Tx(t, id)
	if refused {
		e.WantTxUnchanged(t, before)
	} else {
		old := before.Txs[id].Timeline
		if tx.Status != to || len(tx.Timeline) != len(old)+1 {
			t.Fatalf("%s: status %s with %d timeline entries, want %s with %d", route.name, tx.Status, len(tx.Timeline), to, len(old)+1)
		}
		last := tx.Timeline[len(tx.Timeline)-1]
		if last.Status != to || !last.Date.Equal(e.Fake.Now()) || last.Note == "" {
			t.Errorf("%s: last timeline entry %+v, want %s at %v with a note", route.name, last, to, e.Fake.Now())
		}
		if diff := cmp.Diff(old, tx.Timeline[:len(old)]); diff != "" {
			t.Errorf("%s rewrote the timeline (-before +after):\n%s", route.name, diff)
		}
	}
	return moveOutcome{Refused: refused, Tx: tx, Balances: e.Balances(t)}
}
