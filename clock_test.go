package synapsefake_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// TestDefaultStartTime pins the instant every server starts at: Tuesday
// 14 April 2026, 10:00 EDT, a business day between two business days,
// before the first ACH deadline of the day.
func TestDefaultStartTime(t *testing.T) {
	want := time.Date(2026, time.April, 14, 14, 0, 0, 0, time.UTC)
	if got := synapsefake.DefaultStartTime(); !got.Equal(want) || got.Location() != time.UTC {
		t.Fatalf("DefaultStartTime() = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		name string
		fake *synapsefake.Server
	}{
		{"NewServer", synapsefake.NewServer(t)},
		{"New", synapsefake.New()},
		{"WithStartTime of the zero time", synapsefake.New(synapsefake.WithStartTime(time.Time{}))},
		{"WithClock then WithStartTime", synapsefake.New(synapsefake.WithClock(clock.New()), synapsefake.WithStartTime(time.Time{}))},
	} {
		if got := tc.fake.Now(); !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("%s: Now() = %v, want %v", tc.name, got, want)
		}
	}
	e := want.In(reference.Eastern)
	if got := e.Format("Mon 2006-01-02 15:04 MST"); got != "Tue 2026-04-14 10:00 EDT" {
		t.Errorf("in Eastern time: %s", got)
	}
	for _, d := range []int{-1, 0, 1} {
		if day := want.AddDate(0, 0, d); !reference.IsBusinessDay(day) {
			t.Errorf("%s is not a business day", day.In(reference.Eastern).Format("Mon 2006-01-02"))
		}
	}
	if first := reference.AtEastern(want, reference.FedACHSameDay1Deadline); !want.Before(first) {
		t.Errorf("the start %v is not before the first ACH deadline %v", want, first)
	}
}

// TestStartTimeACHOutcome pins, for start instants around weekends, the
// service's 18:00 ET (3:00 PM PT) next-day cutoff and the 2026-2027
// holidays, the README's flow: an ACH-US debit
// from a DEPOSIT-US node created at the start over HTTP; its status after
// Advance(24*time.Hour), then after AdvanceToNextBusinessDay, and when it
// settles, in Eastern time.
func TestStartTimeACHOutcome(t *testing.T) {
	t.Parallel()
	const (
		created = synapsefake.StatusCreated
		credit  = synapsefake.StatusProcessingCredit
		settled = synapsefake.StatusSettled
	)
	for _, tc := range []struct {
		name      string
		start     time.Time // zero: no option, the default start
		afterDay  synapsefake.Status
		afterNext synapsefake.Status
		settled   time.Time
	}{
		{"default: Tue 10:00", time.Time{}, settled, settled, testkit.Et(2026, 4, 15, 10, 0)},
		{"Mon 10:00", testkit.Et(2026, 4, 13, 10, 0), settled, settled, testkit.Et(2026, 4, 14, 10, 0)},
		{"Thu 10:00", testkit.Et(2026, 4, 16, 10, 0), settled, settled, testkit.Et(2026, 4, 17, 10, 0)},
		{"Fri 10:00", testkit.Et(2026, 4, 17, 10, 0), credit, credit, testkit.Et(2026, 4, 20, 10, 0)},
		{"Fri 16:46, after FedACH's last same-day deadline", testkit.Et(2026, 4, 17, 16, 46), credit, credit, testkit.Et(2026, 4, 20, 16, 46)},
		{"Fri 18:00, the cutoff", testkit.Et(2026, 4, 17, 18, 0), credit, credit, testkit.Et(2026, 4, 20, 18, 0)},
		{"Fri 18:01, after the cutoff", testkit.Et(2026, 4, 17, 18, 1), created, created, testkit.Et(2026, 4, 21, 8, 30)},
		{"Sat 10:00", testkit.Et(2026, 4, 18, 10, 0), created, created, testkit.Et(2026, 4, 21, 8, 30)},
		{"Sun 10:00", testkit.Et(2026, 4, 19, 10, 0), credit, credit, testkit.Et(2026, 4, 21, 8, 30)},
		{"Tue 17:00, before the cutoff", testkit.Et(2026, 4, 14, 17, 0), settled, settled, testkit.Et(2026, 4, 15, 17, 0)},
		{"Tue 18:30, after the cutoff", testkit.Et(2026, 4, 14, 18, 30), credit, credit, testkit.Et(2026, 4, 16, 8, 30)},
		{"Fri before MLK Day 2026", testkit.Et(2026, 1, 16, 10, 0), credit, credit, testkit.Et(2026, 1, 20, 10, 0)},
		{"Fri before Presidents Day 2026", testkit.Et(2026, 2, 13, 10, 0), credit, credit, testkit.Et(2026, 2, 17, 10, 0)},
		{"Fri before daylight saving time", testkit.Et(2026, 3, 6, 10, 0), credit, credit, testkit.Et(2026, 3, 9, 10, 0)},
		{"Fri before Memorial Day 2026", testkit.Et(2026, 5, 22, 10, 0), credit, credit, testkit.Et(2026, 5, 26, 10, 0)},
		{"Thu before Juneteenth 2026 (Fri)", testkit.Et(2026, 6, 18, 10, 0), credit, credit, testkit.Et(2026, 6, 22, 10, 0)},
		{"Thu before Independence Day 2026 (Sat, not moved)", testkit.Et(2026, 7, 2, 10, 0), settled, settled, testkit.Et(2026, 7, 3, 10, 0)},
		{"Fri before Labor Day 2026", testkit.Et(2026, 9, 4, 10, 0), credit, credit, testkit.Et(2026, 9, 8, 10, 0)},
		{"Fri before Columbus Day 2026", testkit.Et(2026, 10, 9, 10, 0), credit, credit, testkit.Et(2026, 10, 13, 10, 0)},
		{"Fri before standard time", testkit.Et(2026, 10, 30, 10, 0), credit, credit, testkit.Et(2026, 11, 2, 10, 0)},
		{"Tue before Veterans Day 2026 (Wed)", testkit.Et(2026, 11, 10, 10, 0), credit, credit, testkit.Et(2026, 11, 12, 10, 0)},
		{"Wed before Thanksgiving 2026", testkit.Et(2026, 11, 25, 10, 0), credit, credit, testkit.Et(2026, 11, 27, 10, 0)},
		{"Thu before Christmas 2026 (Fri)", testkit.Et(2026, 12, 24, 10, 0), credit, credit, testkit.Et(2026, 12, 28, 10, 0)},
		{"Thu before New Year's Day 2027 (Fri)", testkit.Et(2026, 12, 31, 10, 0), credit, credit, testkit.Et(2027, 1, 4, 10, 0)},
		{"Fri before MLK Day 2027", testkit.Et(2027, 1, 15, 10, 0), credit, credit, testkit.Et(2027, 1, 19, 10, 0)},
		{"Fri before Presidents Day 2027", testkit.Et(2027, 2, 12, 10, 0), credit, credit, testkit.Et(2027, 2, 16, 10, 0)},
		{"Fri before Memorial Day 2027", testkit.Et(2027, 5, 28, 10, 0), credit, credit, testkit.Et(2027, 6, 1, 10, 0)},
		{"Thu before Juneteenth 2027 (Sat, not moved)", testkit.Et(2027, 6, 17, 10, 0), settled, settled, testkit.Et(2027, 6, 18, 10, 0)},
		{"Fri before Independence Day 2027 (Sun, Mon observed)", testkit.Et(2027, 7, 2, 10, 0), credit, credit, testkit.Et(2027, 7, 6, 10, 0)},
		{"Fri before Labor Day 2027", testkit.Et(2027, 9, 3, 10, 0), credit, credit, testkit.Et(2027, 9, 7, 10, 0)},
		{"Fri before Columbus Day 2027", testkit.Et(2027, 10, 8, 10, 0), credit, credit, testkit.Et(2027, 10, 12, 10, 0)},
		{"Wed before Veterans Day 2027 (Thu)", testkit.Et(2027, 11, 10, 10, 0), credit, credit, testkit.Et(2027, 11, 12, 10, 0)},
		{"Wed before Thanksgiving 2027", testkit.Et(2027, 11, 24, 10, 0), credit, credit, testkit.Et(2027, 11, 26, 10, 0)},
		{"Thu before Christmas 2027 (Sat, not moved)", testkit.Et(2027, 12, 23, 10, 0), settled, settled, testkit.Et(2027, 12, 24, 10, 0)},
		{"Thu before New Year's Day 2028 (Sat, not moved)", testkit.Et(2027, 12, 30, 10, 0), settled, settled, testkit.Et(2027, 12, 31, 10, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []synapsefake.Option
			start := synapsefake.DefaultStartTime()
			if !tc.start.IsZero() {
				opts, start = append(opts, synapsefake.WithStartTime(tc.start)), tc.start
			}
			fake := synapsefake.New(opts...)
			if !fake.Now().Equal(start) {
				t.Fatalf("Now() = %v, want the start %v", fake.Now(), start)
			}
			id := readmeTransfer(t, fake)
			status := func() synapsefake.Status {
				tx, _ := fake.Transaction(id)
				return tx.Status
			}
			fake.Advance(24 * time.Hour)
			if got := status(); got != tc.afterDay {
				t.Errorf("after Advance(24h): %s, want %s", got, tc.afterDay)
			}
			fake.AdvanceToNextBusinessDay()
			if got := status(); got != tc.afterNext {
				t.Errorf("after AdvanceToNextBusinessDay (%s): %s, want %s", fake.Now().In(reference.Eastern).Format("Mon 01-02 15:04"), got, tc.afterNext)
			}
			fake.Advance(7 * 24 * time.Hour)
			tx, _ := fake.Transaction(id)
			last := tx.Timeline[len(tx.Timeline)-1]
			if last.Status != settled || !last.Date.Equal(tc.settled) {
				t.Errorf("ends %s at %s, want SETTLED at %s", last.Status, last.Date.In(reference.Eastern).Format(time.DateTime+" MST"),
					tc.settled.In(reference.Eastern).Format(time.DateTime+" MST"))
			}
		})
	}
}

// readmeTransfer is the README's flow up to the transaction: a user with
// a DEPOSIT-US node holding $100 sends $25 to an ACH-US node, over HTTP.
// It returns the transaction's id.
func readmeTransfer(t *testing.T, fake *synapsefake.Server) string {
	t.Helper()
	fx := testkit.NewFixture(t, fake, 100_00)
	bank := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Landlord"})
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/trans", Header: fx.Headers,
		Body: map[string]any{"to": map[string]any{"type": "ACH-US", "id": bank.ID}, "amount": map[string]any{"amount": 25, "currency": "USD"},
			"extra": map[string]any{"ip": "127.0.0.1"}}})
	if r.Status != http.StatusOK {
		t.Fatalf("create transaction: %d %s", r.Status, r.Raw)
	}
	return r.Body["_id"].(string)
}

// TestAdvanceTo: it moves the clock forward and runs what fell due; it
// refuses to go back or to move a clock it cannot, and then moves and runs
// nothing and answers Now.
func TestAdvanceTo(t *testing.T) {
	t.Parallel()
	start := synapsefake.DefaultStartTime()
	for _, tc := range []struct {
		name    string
		opts    []synapsefake.Option
		to      time.Time
		wantErr string // the error's code, "" for success
		wantNow time.Time
		want    synapsefake.Status
	}{
		{"forward runs what fell due", nil, start.Add(time.Hour), "", start.Add(time.Hour), synapsefake.StatusProcessingCredit},
		{"a day on settles", nil, start.Add(24 * time.Hour), "", start.Add(24 * time.Hour), synapsefake.StatusSettled},
		{"to now runs what is due", nil, start, "", start, synapsefake.StatusCreated},
		{"back is refused", nil, start.Add(-time.Millisecond), "invalid_time", start, synapsefake.StatusCreated},
		{"cuts to the millisecond", nil, start.Add(time.Minute + 999*time.Microsecond), "", start.Add(time.Minute), synapsefake.StatusProcessingDebit},
		{"moves a mock", []synapsefake.Option{synapsefake.WithClock(mockAt(start))}, start.Add(24 * time.Hour), "", start.Add(24 * time.Hour), synapsefake.StatusSettled},
		{"refuses a real clock", []synapsefake.Option{synapsefake.WithClock(clock.New())}, start, "clock_not_manual", time.Time{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := synapsefake.New(tc.opts...)
			id := readmeTransfer(t, fake)
			before := fake.Now()
			got, err := fake.AdvanceTo(tc.to)
			if code := testkit.ErrCode(err); code != tc.wantErr {
				t.Fatalf("error %v, want code %q", err, tc.wantErr)
			}
			wantNow := tc.wantNow
			if wantNow.IsZero() {
				wantNow = before // a real clock: only compared for moving back
				if fake.Now().Before(before) {
					t.Errorf("Now() = %v, went back from %v", fake.Now(), before)
				}
			} else if now := fake.Now(); !now.Equal(wantNow) || !got.Equal(wantNow) {
				t.Errorf("AdvanceTo answered %v and Now() = %v, want %v", got, now, wantNow)
			}
			if tc.want != "" {
				if tx, _ := fake.Transaction(id); tx.Status != tc.want {
					t.Errorf("status %s, want %s", tx.Status, tc.want)
				}
			}
		})
	}
}

func mockAt(t time.Time) *clock.Mock {
	m := clock.NewMock()
	m.Set(t)
	return m
}

// TestWithStartTimeOrder: WithClock and WithStartTime both choose the
// clock, and the last one wins.
func TestWithStartTimeOrder(t *testing.T) {
	t.Parallel()
	at := time.Date(2030, time.January, 8, 15, 30, 0, 123_456_789, time.FixedZone("X", 3600))
	mock := mockAt(time.Date(2031, time.March, 4, 0, 0, 0, 0, time.UTC))
	for _, tc := range []struct {
		name string
		opts []synapsefake.Option
		want time.Time
	}{
		{"WithStartTime, in UTC, cut to the millisecond", []synapsefake.Option{synapsefake.WithStartTime(at)}, time.Date(2030, time.January, 8, 14, 30, 0, 123_000_000, time.UTC)},
		{"WithStartTime then WithClock", []synapsefake.Option{synapsefake.WithStartTime(at), synapsefake.WithClock(mock)}, mock.Now()},
		{"WithClock then WithStartTime", []synapsefake.Option{synapsefake.WithClock(mock), synapsefake.WithStartTime(at)}, time.Date(2030, time.January, 8, 14, 30, 0, 123_000_000, time.UTC)},
	} {
		fake := synapsefake.New(tc.opts...)
		if got := fake.Now(); !got.Equal(tc.want) {
			t.Errorf("%s: Now() = %v, want %v", tc.name, got, tc.want)
		}
		fake.Advance(time.Hour)
		if got := fake.Now(); !got.Equal(tc.want.Add(time.Hour)) {
			t.Errorf("%s: after Advance(1h), Now() = %v, want %v", tc.name, got, tc.want.Add(time.Hour))
		}
	}
}

// TestWaitOnFrozenClock: on a frozen clock, a Wait that nothing in flight
// can satisfy fails at once, saying that the clock is frozen and naming
// what is pending and when it falls due, soonest first.
func TestWaitOnFrozenClock(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts []synapsefake.Option
	}{
		{"default clock", nil},
		{"mock clock", []synapsefake.Option{synapsefake.WithClock(mockAt(synapsefake.DefaultStartTime()))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, tc.opts...)
			rcv := testkit.NewHookReceiver(t, func(int, testkit.HookDelivery) (int, string) { return http.StatusInternalServerError, "" })
			fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
			id := readmeTransfer(t, fake) // its user's USERS|POST is delivered, answered 500, and retried in a minute

			tb := &testkit.RecordingTB{TB: t}
			began := time.Now()
			w := fake.Webhooks().Wait(tb, synapsefake.ForTransaction(id, synapsefake.StatusSettled))
			if took := time.Since(began); took > time.Second {
				t.Errorf("Wait took %v of real time, want at once", took)
			}
			if w.Function != "" || len(tb.Fatals) != 1 {
				t.Fatalf("Wait returned %s and failed %d times, want the zero Webhook and one failure", w, len(tb.Fatals))
			}
			msg := tb.Fatals[0]
			u := fake.Webhooks().All()[0].ObjectID
			for _, want := range []string{
				"synapsefake: no webhook matched, and none can until the clock moves: it is frozen at 2026-04-14T14:00:00Z (Tue 10:00 EDT) and no delivery is in flight\n" +
					"pending on the clock, soonest first:\n" +
					"  transaction " + id + " reaches PROCESSING-DEBIT at 2026-04-14T14:01:00Z (Tue 10:01 EDT) (call Advance(1m))\n" +
					"  webhook USERS|POST USER_" + u + " is delivered to " + rcv.Url + " (attempt 2) at 2026-04-14T14:01:00Z (Tue 10:01 EDT) (call Advance(1m))\n" +
					"  transaction " + id + " reaches PROCESSING-CREDIT at 2026-04-14T15:00:00Z (Tue 11:00 EDT) (call Advance(1h))\n" +
					"  transaction " + id + " reaches SETTLED at 2026-04-15T14:00:00Z (Wed 10:00 EDT) (call Advance(24h))\n" +
					"  the monthly statements are made at 2026-05-15T00:00:00Z (Thu 20:00 EDT) (call Advance(730h))\n" +
					"captured:\n",
				"\n  1. USERS|POST USER_" + u + " -> " + rcv.Url + " [500]\n",
				"\n  4. TRANS|POST TRAN_" + id + " CREATED",
			} {
				if !strings.Contains(msg, want) {
					t.Errorf("message lacks %q:\n%s", want, msg)
				}
			}

			// Once the clock has moved past them, only the next monthly
			// statements are pending.
			fake.Advance(31 * 24 * time.Hour)
			tb = &testkit.RecordingTB{TB: t}
			fake.Webhooks().Wait(tb, synapsefake.ForFunction("NODE|PATCH"))
			if len(tb.Fatals) != 1 || !strings.Contains(tb.Fatals[0], "frozen at 2026-05-15T14:00:00Z (Fri 10:00 EDT) and no delivery is in flight\n"+
				"pending on the clock, soonest first:\n"+
				"  the monthly statements are made at 2026-06-15T00:00:00Z (Sun 20:00 EDT) (call Advance(730h))\ncaptured:\n") {
				t.Errorf("after the clock moved past the transfer and the retries: %q", tb.Fatals)
			}
		})
	}
	t.Run("nothing pending", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.New()
		fake.MustAddUser(t, synapsefake.UserSeed{})
		tb := &testkit.RecordingTB{TB: t}
		fake.Webhooks().Wait(tb, synapsefake.ForFunction("NODE|PATCH"))
		if len(tb.Fatals) != 1 || !strings.HasSuffix(tb.Fatals[0], "no delivery is in flight\n"+
			"nothing is pending on the clock: no processing step, return, statement or webhook retry\n"+
			"captured:\n  1. USERS|POST USER_"+fake.Webhooks().All()[0].ObjectID) {
			t.Errorf("with nothing pending: %q", tb.Fatals)
		}
	})
}

// TestWaitWhileDelivering: on a frozen clock Wait still waits, in real
// time, for a delivery in flight; here the receiver answers only once Wait
// has looked and found nothing.
func TestWaitWhileDelivering(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	release := make(chan struct{})
	var once sync.Once
	rcv := testkit.NewHookReceiver(t, func(int, testkit.HookDelivery) (int, string) {
		<-release
		return http.StatusOK, "ok"
	})
	fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
	u := fake.MustAddUser(t, synapsefake.UserSeed{})
	w := fake.Webhooks().Wait(t, func(w synapsefake.Webhook) bool {
		if w.ObjectID == u.ID && len(w.Deliveries) == 1 && len(w.Deliveries[0].Attempts) == 1 {
			return true
		}
		once.Do(func() { close(release) })
		return false
	})
	if got := w.Deliveries[0].Attempts[0].Code; got != http.StatusOK {
		t.Errorf("attempt answered %d, want 200", got)
	}
}

// TestWaitOnRealClock: on a clock that is not frozen, a failed Wait says
// where the clock is, not that it is frozen, and still lists the pending
// work.
func TestWaitOnRealClock(t *testing.T) {
	t.Parallel()
	fake := synapsefake.New(synapsefake.WithClock(clock.New()))
	id := readmeTransfer(t, fake)
	tb := &testkit.RecordingTB{TB: t}
	fake.Webhooks().WaitWithin(tb, 20*time.Millisecond, synapsefake.ForTransaction(id, synapsefake.StatusSettled))
	if len(tb.Fatals) != 1 {
		t.Fatalf("failed %d times, want 1", len(tb.Fatals))
	}
	msg := tb.Fatals[0]
	if !strings.HasPrefix(msg, "synapsefake: no webhook matched within 20ms; the clock is at ") || strings.Contains(msg, "frozen") ||
		!strings.Contains(msg, "transaction "+id+" reaches PROCESSING-DEBIT at ") {
		t.Errorf("message:\n%s", msg)
	}
}

// TestRealClockMovesForNoMethod: a clock given to WithClock that is not a
// *clock.Mock moves for no method. AdvanceTo and AdvanceToCutoff refuse it
// (clock_not_manual, what POST /_fake/clock/cutoff answers); Advance and
// AdvanceToNextBusinessDay, which return no error, run what is due and
// return Now.
func TestRealClockMovesForNoMethod(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		move    func(*synapsefake.Server) (time.Time, error)
		wantErr string // the error's code, "" for none
	}{
		{"Advance", func(f *synapsefake.Server) (time.Time, error) { f.Advance(24 * time.Hour); return f.Now(), nil }, ""},
		{"AdvanceTo", func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceTo(f.Now().Add(24 * time.Hour)) }, "clock_not_manual"},
		{"AdvanceToNextBusinessDay", func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToNextBusinessDay(), nil }, ""},
		{"AdvanceToCutoff ach", func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffACH) }, "clock_not_manual"},
		{"AdvanceToCutoff same-day", func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffSameDay) }, "clock_not_manual"},
		{"AdvanceToCutoff wire", func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffWire) }, "clock_not_manual"},
		{"AdvanceToCutoff of an unknown cutoff", func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff("lunch") }, "invalid_cutoff"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.New(synapsefake.WithClock(clock.New()))
			defer fake.Close()
			before := fake.Now()
			got, err := tc.move(fake)
			after := fake.Now()
			if code := testkit.ErrCode(err); code != tc.wantErr {
				t.Fatalf("error %v, want code %q", err, tc.wantErr)
			}
			// The clock runs on by itself, by far less than any move.
			if got.Before(before) || got.After(after) || after.Sub(before) > time.Minute {
				t.Errorf("answered %v; the clock went from %v to %v", got, before, after)
			}
		})
	}
}
