package synapsefake_test

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"

	"github.com/synapsefake/synapsefake"
)

// TestDueWorkRunsAtTheNextRequest: a request runs the clock-driven work
// that fell due before it, however the clock got there (a shared mock
// moved by another goroutine, Advance from another goroutine, SetTime),
// and whatever came before (Reset): a processing step, an ad hoc
// statement, a webhook retry. A request only compares the time with when
// the first work falls due, so each kind of work is set up alone: each
// must bring that time forward itself.
func TestDueWorkRunsAtTheNextRequest(t *testing.T) {
	movers := []struct {
		name  string
		reset bool // Reset first, then set the work up
		move  func(fake *synapsefake.Server, mock *clock.Mock, d time.Duration)
	}{
		{"a shared mock moved by another goroutine", false, func(_ *synapsefake.Server, mock *clock.Mock, d time.Duration) {
			inGoroutine(func() { mock.Add(d) })
		}},
		{"Advance from another goroutine", false, func(fake *synapsefake.Server, _ *clock.Mock, d time.Duration) {
			inGoroutine(func() { fake.Advance(d) })
		}},
		{"AdvanceTo", false, func(fake *synapsefake.Server, _ *clock.Mock, d time.Duration) {
			if _, err := fake.AdvanceTo(fake.Now().Add(d)); err != nil {
				panic(err)
			}
		}},
		{"Reset, then a shared mock moved by another goroutine", true, func(_ *synapsefake.Server, mock *clock.Mock, d time.Duration) {
			inGoroutine(func() { mock.Add(d) })
		}},
	}
	// Each kind sets its work up and returns the check made after the
	// clock moved, whose first request must find the work done.
	kinds := []struct {
		name  string
		setUp func(t *testing.T, e testkit.TxEnv) (check func())
	}{
		{"a processing step", func(t *testing.T, e testkit.TxEnv) func() {
			tx := e.Post(t, testkit.TxBody(e.Savings, 1))
			txID, _ := tx.Body["_id"].(string)
			if statusOf(tx) != string(synapsefake.StatusCreated) {
				t.Fatalf("POST transaction: %d %s, want CREATED", tx.Status, tx.Raw)
			}
			return func() {
				got := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, txID), Header: e.Fx.Headers})
				if s := statusOf(got); s != string(synapsefake.StatusSettled) {
					t.Errorf("the transaction is %q at the first request after the clock moved, want SETTLED: %s", s, got.Raw)
				}
			}
		}},
		{"an ad hoc statement", func(t *testing.T, e testkit.TxEnv) func() {
			stmt := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: testkit.NodeStmtsPath(e.Fx.Node), Header: e.Fx.Headers,
				Body: map[string]any{"date_start": e.Fake.Now().Add(-time.Hour).UnixMilli(), "date_end": e.Fake.Now().UnixMilli()}})
			stmtID, _ := stmt.Body["_id"].(string)
			if stmt.Status != http.StatusOK || stmt.Body["status"] != "QUEUED" {
				t.Fatalf("POST statement: %d %s, want 200 and QUEUED", stmt.Status, stmt.Raw)
			}
			return func() {
				got := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: testkit.NodeStmtsPath(e.Fx.Node) + "/" + stmtID, Header: e.Fx.Headers})
				if got.Body["status"] != "GENERATED" {
					t.Errorf("the statement is %v at the first request after the clock moved, want GENERATED: %s", got.Body["status"], got.Raw)
				}
			}
		}},
		{"a webhook retry", func(t *testing.T, e testkit.TxEnv) func() {
			rcv := testkit.NewHookReceiver(t, func(n int, _ testkit.HookDelivery) (int, string) {
				if n == 0 {
					return http.StatusInternalServerError, "not yet"
				}
				return http.StatusOK, "ok"
			})
			e.Fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
			e.Fake.MustAddUser(t, synapsefake.UserSeed{})
			e.Fake.Flush() // the first attempt fails: the retry waits a minute
			if got := len(rcv.Deliveries()); got != 1 {
				t.Fatalf("%d webhook attempts before the clock moves, want 1", got)
			}
			return func() {
				testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: "/users/" + e.Fx.User.ID, Header: e.Fx.Headers})
				e.Fake.Flush() // waits for the deliveries under way; runs nothing that is due
				if got := len(rcv.Deliveries()); got != 2 {
					t.Errorf("%d webhook attempts after the first request after the clock moved, want 2 (the retry)", got)
				}
			}
		}},
	}
	for _, m := range movers {
		for _, k := range kinds {
			t.Run(m.name+"/"+k.name, func(t *testing.T) {
				e := testkit.NewTxEnv(t, 1_000_00)
				if m.reset {
					e.Fake.Reset()
					e = txEnvOn(t, e.Fake, e.Mock)
				}
				// A first request: a server's first runs all that may be due.
				testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: "/users/" + e.Fx.User.ID, Header: e.Fx.Headers})
				check := k.setUp(t, e)
				m.move(e.Fake, e.Mock, 72*time.Hour)
				check()
			})
		}
	}
}

// TestDueWorkRunsAfterRestore: a document restored into a server whose
// clock is past the work it holds runs that work at the next request.
func TestDueWorkRunsAfterRestore(t *testing.T) {
	old := time.Date(2020, time.January, 7, 15, 0, 0, 0, time.UTC) // a Tuesday, long before the real clock
	saved := synapsefake.NewServer(t, synapsefake.WithStartTime(old))
	e := txEnvOn(t, saved, nil)
	tx := e.Post(t, testkit.TxBody(e.Savings, 1))
	txID, _ := tx.Body["_id"].(string)
	var doc bytes.Buffer
	if err := saved.Snapshot(&doc); err != nil {
		t.Fatal(err)
	}

	fake := synapsefake.NewServer(t, synapsefake.WithClock(clock.New()))
	if err := fake.Restore(&doc); err != nil {
		t.Fatal(err)
	}
	got := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, txID), Header: testkit.UserHeaders(fake, fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint))})
	if s := statusOf(got); s != string(synapsefake.StatusSettled) {
		t.Errorf("the restored transaction is %q at the first request, want SETTLED: %s", s, got.Raw)
	}
}

// txEnvOn seeds newTxEnv's sender and savings node on fake.
func txEnvOn(t *testing.T, fake *synapsefake.Server, mock *clock.Mock) testkit.TxEnv {
	t.Helper()
	e := testkit.TxEnv{Fake: fake, Mock: mock}
	e.Fx = testkit.NamedFixture(t, fake, "Sam Sender", 1_000_00)
	e.Savings = testkit.AddTxNode(t, fake, e.Fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	return e
}

// inGoroutine runs f in a goroutine of its own and waits for it.
func inGoroutine(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// statusOf is a transaction answer's recent_status.status.
func statusOf(r testkit.Response) string {
	rs, _ := r.Body["recent_status"].(map[string]any)
	s, _ := rs["status"].(string)
	return s
}
