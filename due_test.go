package synapsefake_test

import (
	"bytes"
	"net/http"
	"testing"
	"time"

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
		{"SetTime", false, func(fake *synapsefake.Server, _ *clock.Mock, d time.Duration) {
			if err := fake.SetTime(fake.Now().Add(d)); err != nil {
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
		setUp func(t *testing.T, e txEnv) (check func())
	}{
		{"a processing step", func(t *testing.T, e txEnv) func() {
			tx := e.post(t, txBody(e.savings, 1))
			txID, _ := tx.body["_id"].(string)
			if statusOf(tx) != string(synapsefake.StatusCreated) {
				t.Fatalf("POST transaction: %d %s, want CREATED", tx.status, tx.raw)
			}
			return func() {
				got := do(t, e.fake, call{method: "GET", path: tranPath(e.fx.user.ID, e.fx.node.ID, txID), header: e.fx.headers})
				if s := statusOf(got); s != string(synapsefake.StatusSettled) {
					t.Errorf("the transaction is %q at the first request after the clock moved, want SETTLED: %s", s, got.raw)
				}
			}
		}},
		{"an ad hoc statement", func(t *testing.T, e txEnv) func() {
			stmt := do(t, e.fake, call{method: "POST", path: nodeStmtsPath(e.fx.node), header: e.fx.headers,
				body: map[string]any{"date_start": e.fake.Now().Add(-time.Hour).UnixMilli(), "date_end": e.fake.Now().UnixMilli()}})
			stmtID, _ := stmt.body["_id"].(string)
			if stmt.status != http.StatusOK || stmt.body["status"] != "QUEUED" {
				t.Fatalf("POST statement: %d %s, want 200 and QUEUED", stmt.status, stmt.raw)
			}
			return func() {
				got := do(t, e.fake, call{method: "GET", path: nodeStmtsPath(e.fx.node) + "/" + stmtID, header: e.fx.headers})
				if got.body["status"] != "GENERATED" {
					t.Errorf("the statement is %v at the first request after the clock moved, want GENERATED: %s", got.body["status"], got.raw)
				}
			}
		}},
		{"a webhook retry", func(t *testing.T, e txEnv) func() {
			rcv := newHookReceiver(t, func(n int, _ hookDelivery) (int, string) {
				if n == 0 {
					return http.StatusInternalServerError, "not yet"
				}
				return http.StatusOK, "ok"
			})
			e.fake.MustAddSubscription(t, rcv.url, "USERS|POST")
			e.fake.MustAddUser(t, synapsefake.UserSeed{})
			e.fake.Flush() // the first attempt fails: the retry waits a minute
			if got := len(rcv.deliveries()); got != 1 {
				t.Fatalf("%d webhook attempts before the clock moves, want 1", got)
			}
			return func() {
				do(t, e.fake, call{method: "GET", path: "/users/" + e.fx.user.ID, header: e.fx.headers})
				e.fake.Flush() // waits for the deliveries under way; runs nothing that is due
				if got := len(rcv.deliveries()); got != 2 {
					t.Errorf("%d webhook attempts after the first request after the clock moved, want 2 (the retry)", got)
				}
			}
		}},
	}
	for _, m := range movers {
		for _, k := range kinds {
			t.Run(m.name+"/"+k.name, func(t *testing.T) {
				e := newTxEnv(t, 1_000_00)
				if m.reset {
					e.fake.Reset()
					e = txEnvOn(t, e.fake, e.mock)
				}
				// A first request: a server's first runs all that may be due.
				do(t, e.fake, call{method: "GET", path: "/users/" + e.fx.user.ID, header: e.fx.headers})
				check := k.setUp(t, e)
				m.move(e.fake, e.mock, 72*time.Hour)
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
	tx := e.post(t, txBody(e.savings, 1))
	txID, _ := tx.body["_id"].(string)
	var doc bytes.Buffer
	if err := saved.Snapshot(&doc); err != nil {
		t.Fatal(err)
	}

	fake := synapsefake.NewServer(t, synapsefake.WithClock(clock.New()))
	if err := fake.Restore(&doc); err != nil {
		t.Fatal(err)
	}
	got := do(t, fake, call{method: "GET", path: tranPath(e.fx.user.ID, e.fx.node.ID, txID), header: userHeaders(fake, fake.OAuthKey(e.fx.user.ID, testFingerprint))})
	if s := statusOf(got); s != string(synapsefake.StatusSettled) {
		t.Errorf("the restored transaction is %q at the first request, want SETTLED: %s", s, got.raw)
	}
}

// txEnvOn seeds newTxEnv's sender and savings node on fake.
func txEnvOn(t *testing.T, fake *synapsefake.Server, mock *clock.Mock) txEnv {
	t.Helper()
	e := txEnv{fake: fake, mock: mock}
	e.fx = namedFixture(t, fake, "Sam Sender", 1_000_00)
	e.savings = addTxNode(t, fake, e.fx.user.ID, synapsefake.NodeSeed{Nickname: "Savings"})
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
func statusOf(r response) string {
	rs, _ := r.body["recent_status"].(map[string]any)
	s, _ := rs["status"].(string)
	return s
}
