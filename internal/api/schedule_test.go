package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// TestTransferOverThanksgiving walks a next-day ACH transfer created on
// the Wednesday before Thanksgiving, 2026, at 17:00 ET, before the
// service's 18:00 ET (3:00 PM PT) cutoff (issue 22, point 7): it enters
// processing at once, nothing moves on Thanksgiving, and it settles on the
// next business day, Friday 11-27, at the same time; it used to miss a
// 16:45 ET cutoff and settle Monday 11-30 at 08:30.
func TestTransferOverThanksgiving(t *testing.T) {
	t.Parallel()
	e := txEnvAt(t, testkit.Et(2026, 11, 25, 17, 0), 1000_00)
	id := e.Create(t, e.Bank, 10)
	for _, c := range []struct {
		at   time.Time
		want synapsefake.Status
	}{
		{testkit.Et(2026, 11, 25, 17, 1).Add(-time.Millisecond), synapsefake.StatusCreated},
		{testkit.Et(2026, 11, 25, 17, 1), synapsefake.StatusProcessingDebit},
		{testkit.Et(2026, 11, 25, 18, 0), synapsefake.StatusProcessingCredit},
		{testkit.Et(2026, 11, 26, 17, 0), synapsefake.StatusProcessingCredit}, // Thanksgiving
		{testkit.Et(2026, 11, 27, 17, 0).Add(-time.Millisecond), synapsefake.StatusProcessingCredit},
		{testkit.Et(2026, 11, 27, 17, 0), synapsefake.StatusSettled},
	} {
		e.Fake.AdvanceTo(c.at)
		if got := e.Tx(t, id).Status; got != c.want {
			t.Fatalf("at %v: %s, want %s", c.at, got, c.want)
		}
	}
	want := []string{
		"CREATED 2026-11-25 17:00:00",
		"PROCESSING-DEBIT 2026-11-25 17:01:00",
		"PROCESSING-CREDIT 2026-11-25 18:00:00",
		"SETTLED 2026-11-27 17:00:00",
	}
	if diff := cmp.Diff(want, timelineET(e.Tx(t, id))); diff != "" {
		t.Errorf("timeline (-want +got):\n%s", diff)
	}
}

// TestCutoffs creates transfers on either side of each cutoff and checks
// when each step of the timeline was dated, in Eastern time.
func TestCutoffs(t *testing.T) {
	t.Parallel()
	const (
		ach = iota
		sameDay
		wire
		internal
	)
	tuesday := func(h, m int) time.Time { return testkit.Et(2026, 11, 24, h, m) }
	for _, tc := range []struct {
		name    string
		opts    []synapsefake.Option
		rail    int
		created time.Time
		want    []string // PROCESSING-DEBIT, PROCESSING-CREDIT, SETTLED
	}{
		{"ACH at the cutoff settles the next business day", nil, ach, tuesday(18, 0),
			[]string{"2026-11-24 18:01", "2026-11-24 19:00", "2026-11-25 18:00"}},
		{"ACH a minute after the cutoff starts the next business day", nil, ach, tuesday(18, 1),
			[]string{"2026-11-25 08:31", "2026-11-25 09:30", "2026-11-27 08:30"}},
		{"ACH after FedACH's last same-day deadline makes the service's cutoff", nil, ach, tuesday(16, 46),
			[]string{"2026-11-24 16:47", "2026-11-24 17:46", "2026-11-25 16:46"}},
		{"ACH before dawn counts for the day", nil, ach, tuesday(3, 0),
			[]string{"2026-11-24 03:01", "2026-11-24 04:00", "2026-11-25 03:00"}},
		{"ACH on Thanksgiving starts on Friday", nil, ach, testkit.Et(2026, 11, 26, 10, 0),
			[]string{"2026-11-27 08:31", "2026-11-27 09:30", "2026-11-30 08:30"}},
		{"same-day ACH in the first window", nil, sameDay, tuesday(10, 30),
			[]string{"2026-11-24 10:31", "2026-11-24 11:30", "2026-11-24 13:00"}},
		{"same-day ACH in the second window", nil, sameDay, tuesday(10, 31),
			[]string{"2026-11-24 10:32", "2026-11-24 11:31", "2026-11-24 17:00"}},
		{"same-day ACH at the service's cutoff goes into the second window", nil, sameDay, tuesday(14, 0),
			[]string{"2026-11-24 14:01", "2026-11-24 15:00", "2026-11-24 17:00"}},
		{"same-day ACH after the service's cutoff is next-day", nil, sameDay, tuesday(14, 1),
			[]string{"2026-11-24 14:02", "2026-11-24 15:01", "2026-11-25 14:01"}},
		{"same-day ACH in FedACH's third window is next-day", nil, sameDay, tuesday(16, 45),
			[]string{"2026-11-24 16:46", "2026-11-24 17:45", "2026-11-25 16:45"}},
		{"same-day ACH after the next-day cutoff starts the next business day", nil, sameDay, tuesday(18, 1),
			[]string{"2026-11-25 08:31", "2026-11-25 09:30", "2026-11-27 08:30"}},
		{"same-day ACH on a Saturday falls back to next-day", nil, sameDay, testkit.Et(2026, 11, 28, 9, 0),
			[]string{"2026-11-30 08:31", "2026-11-30 09:30", "2026-12-01 08:30"}},
		{"wire at its cutoff settles before Fedwire closes", nil, wire, tuesday(18, 0),
			[]string{"2026-11-24 18:01", "2026-11-24 18:02", "2026-11-24 18:03"}},
		{"wire after its cutoff starts the next business day", nil, wire, tuesday(18, 1),
			[]string{"2026-11-25 08:31", "2026-11-25 08:32", "2026-11-25 08:33"}},
		{"wire on Thanksgiving starts on Friday", nil, wire, testkit.Et(2026, 11, 26, 9, 0),
			[]string{"2026-11-27 08:31", "2026-11-27 08:32", "2026-11-27 08:33"}},
		{"internal transfer on Thanksgiving ignores the calendar", nil, internal, testkit.Et(2026, 11, 26, 9, 0),
			[]string{"2026-11-26 09:00", "2026-11-26 09:00", "2026-11-26 09:00"}},
		{"ACH across the change to daylight time keeps its wall time", nil, ach, testkit.Et(2026, 3, 6, 12, 0),
			[]string{"2026-03-06 12:01", "2026-03-06 13:00", "2026-03-09 12:00"}},
		{"WithCutoffs: an earlier ACH cutoff", []synapsefake.Option{synapsefake.WithCutoffs(synapsefake.Cutoffs{
			ACH: 15 * time.Hour, Wire: 17 * time.Hour, Open: 9 * time.Hour})}, ach, tuesday(15, 30),
			[]string{"2026-11-25 09:01", "2026-11-25 10:00", "2026-11-27 09:00"}},
		{"WithCutoffs: no same-day windows", []synapsefake.Option{synapsefake.WithCutoffs(synapsefake.Cutoffs{
			ACH: 15 * time.Hour, Wire: 17 * time.Hour, Open: 9 * time.Hour})}, sameDay, tuesday(10, 0),
			[]string{"2026-11-24 10:01", "2026-11-24 11:00", "2026-11-25 10:00"}},
		{"WithCutoffs: without the service's same-day cutoff the FedACH windows decide", []synapsefake.Option{
			synapsefake.WithCutoffs(withCutoffs(func(c *synapsefake.Cutoffs) { c.SameDayACH = 0 }))}, sameDay, tuesday(14, 46),
			[]string{"2026-11-24 14:47", "2026-11-24 15:46", "2026-11-24 18:00"}},
		{"WithCutoffs: a later same-day cutoff reaches the third window", []synapsefake.Option{
			synapsefake.WithCutoffs(withCutoffs(func(c *synapsefake.Cutoffs) { c.SameDayACH = 16 * time.Hour }))}, sameDay, tuesday(15, 0),
			[]string{"2026-11-24 15:01", "2026-11-24 16:00", "2026-11-24 18:00"}},
		{"WithCutoffs: FedACH's 08:30 ET next-day settlement", []synapsefake.Option{
			synapsefake.WithCutoffs(withCutoffs(func(c *synapsefake.Cutoffs) { c.NextDaySettlement = reference.FedACHNextDaySettlement }))}, ach, tuesday(10, 0),
			[]string{"2026-11-24 10:01", "2026-11-24 11:00", "2026-11-25 08:30"}},
		{"WithCutoffs: 08:30 ET next-day settlement of carried work", []synapsefake.Option{
			synapsefake.WithCutoffs(withCutoffs(func(c *synapsefake.Cutoffs) { c.NextDaySettlement = reference.FedACHNextDaySettlement }))}, ach, tuesday(18, 1),
			[]string{"2026-11-25 08:31", "2026-11-25 09:30", "2026-11-27 08:30"}},
		{"WithCutoffs: a wire at a late cutoff stops at the close", []synapsefake.Option{
			synapsefake.WithCutoffs(withCutoffs(func(c *synapsefake.Cutoffs) { c.Wire = 18*time.Hour + 59*time.Minute }))}, wire, tuesday(18, 59),
			[]string{"2026-11-24 19:00", "2026-11-24 19:00", "2026-11-24 19:00"}},
		{"WithCutoffs: no wire close", []synapsefake.Option{
			synapsefake.WithCutoffs(withCutoffs(func(c *synapsefake.Cutoffs) { c.Wire, c.WireClose = 23*time.Hour+59*time.Minute, 0 }))}, wire, tuesday(23, 59),
			[]string{"2026-11-25 00:00", "2026-11-25 00:01", "2026-11-25 00:02"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, tc.created, 1000_00, tc.opts...)
			to := e.Bank
			switch tc.rail {
			case wire:
				to = testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: "WIRE-US", Nickname: "Wire"})
			case internal:
				to = e.Payee.Node
			}
			body := testkit.TxBody(to, 10)
			if tc.rail == sameDay {
				testkit.PutPath(body, "extra.same_day", true)
			}
			id := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
			e.Fake.Advance(10 * 24 * time.Hour)
			var got []string
			for _, s := range e.Tx(t, id).Timeline[1:] {
				got = append(got, s.Date.In(reference.Eastern).Format("2006-01-02 15:04"))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("dates of the steps after CREATED, ET (-want +got):\n%s", diff)
			}
		})
	}
}

// withCutoffs is DefaultCutoffs changed by change.
func withCutoffs(change func(*synapsefake.Cutoffs)) synapsefake.Cutoffs {
	c := synapsefake.DefaultCutoffs()
	change(&c)
	return c
}

func TestWithCutoffsRefusesBadTimes(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    synapsefake.Cutoffs
	}{
		{"ACH past midnight", synapsefake.Cutoffs{ACH: 24 * time.Hour}},
		{"negative wire", synapsefake.Cutoffs{Wire: -time.Minute}},
		{"negative same-day limit", synapsefake.Cutoffs{SameDayLimit: -1}},
		{"same-day cutoff past midnight", synapsefake.Cutoffs{SameDayACH: 25 * time.Hour}},
		{"negative next-day settlement", synapsefake.Cutoffs{NextDaySettlement: -time.Second}},
		{"wire close past midnight", synapsefake.Cutoffs{WireClose: 24 * time.Hour}},
		{"wire close before the wire cutoff", withCutoffs(func(c *synapsefake.Cutoffs) { c.Wire = 19*time.Hour + time.Minute })},
		{"wire close before the opening", withCutoffs(func(c *synapsefake.Cutoffs) { c.Open = 20 * time.Hour })},
		{"settlement before deadline", synapsefake.Cutoffs{SameDay: []synapsefake.SameDayWindow{{Deadline: 12 * time.Hour, Settlement: 11 * time.Hour}}}},
		{"windows out of order", synapsefake.Cutoffs{SameDay: []synapsefake.SameDayWindow{
			{Deadline: 12 * time.Hour, Settlement: 13 * time.Hour}, {Deadline: 11 * time.Hour, Settlement: 13 * time.Hour}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("WithCutoffs(%+v) did not panic", tc.c)
				}
			}()
			synapsefake.WithCutoffs(tc.c)
		})
	}
}

func TestAdvanceOnTheCalendar(t *testing.T) {
	t.Parallel()
	wednesday := testkit.Et(2026, 11, 25, 17, 0)
	for _, tc := range []struct {
		name    string
		from    time.Time
		advance func(*synapsefake.Server) (time.Time, error)
		want    time.Time
		wantErr string
	}{
		{"next business day over Thanksgiving", wednesday,
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToNextBusinessDay(), nil }, testkit.Et(2026, 11, 27, 0, 0), ""},
		{"next business day from a Friday", testkit.Et(2026, 11, 27, 0, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToNextBusinessDay(), nil }, testkit.Et(2026, 11, 30, 0, 0), ""},
		{"ACH cutoff of the day, 18:00 ET", wednesday,
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffACH) }, testkit.Et(2026, 11, 25, 18, 0), ""},
		{"ACH cutoff after today's", testkit.Et(2026, 11, 25, 18, 30),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffACH) }, testkit.Et(2026, 11, 27, 18, 0), ""},
		{"ACH cutoff later today", testkit.Et(2026, 11, 24, 9, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffACH) }, testkit.Et(2026, 11, 24, 18, 0), ""},
		{"ACH cutoff from the cutoff is the next one", testkit.Et(2026, 11, 24, 18, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffACH) }, testkit.Et(2026, 11, 25, 18, 0), ""},
		{"next same-day deadline is the service's cutoff", testkit.Et(2026, 11, 24, 11, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffSameDay) }, testkit.Et(2026, 11, 24, 14, 0), ""},
		{"no same-day deadline after the service's cutoff", testkit.Et(2026, 11, 24, 14, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffSameDay) }, testkit.Et(2026, 11, 25, 10, 30), ""},
		{"first same-day window of a Monday", testkit.Et(2026, 11, 28, 11, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffSameDay) }, testkit.Et(2026, 11, 30, 10, 30), ""},
		{"wire cutoff", testkit.Et(2026, 11, 24, 18, 30),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffWire) }, testkit.Et(2026, 11, 25, 18, 0), ""},
		{"unknown cutoff moves nothing", wednesday,
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff("lunch") }, wednesday, "invalid_cutoff"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 0)
			e.Mock.Set(tc.from)
			got, err := tc.advance(e.Fake)
			if code := testkit.ErrCode(err); code != tc.wantErr {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if !got.Equal(tc.want) || !e.Fake.Now().Equal(tc.want) {
				t.Errorf("answered %v, clock at %v; want %v", got, e.Fake.Now(), tc.want)
			}
		})
	}
}

func TestControlCalendar(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		path      string
		body      any
		status    int
		errorCode string
		code      string
		want      time.Time
	}{
		{"next business day", "/clock/next-business-day", nil, 200, "", "", testkit.Et(2026, 11, 27, 0, 0)},
		{"ACH cutoff", "/clock/cutoff", map[string]any{"cutoff": "ach"}, 200, "", "", testkit.Et(2026, 11, 25, 18, 0)},
		{"same-day cutoff", "/clock/cutoff", map[string]any{"cutoff": "same-day"}, 200, "", "", testkit.Et(2026, 11, 27, 10, 30)},
		{"wire cutoff the same day", "/clock/cutoff", map[string]any{"cutoff": "wire"}, 200, "", "", testkit.Et(2026, 11, 25, 18, 0)},
		{"unknown cutoff", "/clock/cutoff", map[string]any{"cutoff": "lunch"}, 400, "200", "invalid_cutoff", testkit.Et(2026, 11, 25, 17, 0)},
		{"missing cutoff", "/clock/cutoff", nil, 400, "200", "invalid_cutoff", testkit.Et(2026, 11, 25, 17, 0)},
		{"unknown field", "/clock/next-business-day", map[string]any{"days": 2}, 400, "200", "", testkit.Et(2026, 11, 25, 17, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 0)
			e.Mock.Set(testkit.Et(2026, 11, 25, 17, 0))
			r := testkit.Ctl(t, e.Fake, "POST", tc.path, tc.body)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Raw)
			}
			if tc.status == http.StatusOK {
				if r.Body["now"] != float64(tc.want.UnixMilli()) {
					t.Errorf("now %v, want %d", r.Body["now"], tc.want.UnixMilli())
				}
			} else if ec, _ := r.Body["error_code"].(string); ec != tc.errorCode || tc.code != "" && bodyCode(r.Body) != tc.code {
				t.Errorf("error_code %q, error.code %q; want %q, %q", ec, bodyCode(r.Body), tc.errorCode, tc.code)
			}
			if !e.Fake.Now().Equal(tc.want) {
				t.Errorf("clock at %v, want %v", e.Fake.Now(), tc.want)
			}
		})
	}
}

// bodyCode is the error.code of an error envelope.
func bodyCode(body map[string]any) string {
	e, _ := body["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// txEnvAt is newTxEnv with the clock set to at and the sender's key minted
// then.
func txEnvAt(t testing.TB, at time.Time, balanceCents int64, opts ...synapsefake.Option) testkit.TxEnv {
	t.Helper()
	e := testkit.NewTxEnv(t, balanceCents, opts...)
	e.Mock.Set(at)
	e.Fx.Key = e.Fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint)
	e.Fx.Headers = testkit.UserHeaders(e.Fake, e.Fx.Key)
	e.Payee.Key = e.Fake.OAuthKey(e.Payee.User.ID, testkit.TestFingerprint)
	e.Payee.Headers = testkit.UserHeaders(e.Fake, e.Payee.Key)
	return e
}

// TestServiceCutoffs checks issue 22's examples (points 7 and 9) at their
// dates: the service's published ACH cutoffs (same-day by 11:00 AM PT,
// next-day by 3:00 PM PT) stand in front of the FedACH windows, and a wire
// settles while Fedwire is open. Each row names what the fake did before.
func TestServiceCutoffs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		start   time.Time
		to      string // "ACH-US" or "WIRE-US"
		sameDay bool
		settled time.Time
	}{
		// It settled Fri 18:00 ET, in FedACH's third window.
		{"same-day ACH at Fri 15:00 ET settles the next business day", testkit.Et(2026, 11, 20, 15, 0), "ACH-US", true, testkit.Et(2026, 11, 23, 15, 0)},
		// It settled Mon 11-30 08:30 ET, after a 16:45 ET cutoff.
		{"next-day ACH at Wed 11-25 17:00 ET settles Fri 11-27", testkit.Et(2026, 11, 25, 17, 0), "ACH-US", false, testkit.Et(2026, 11, 27, 17, 0)},
		{"same-day ACH by 10:30 ET settles at 13:00 ET", testkit.Et(2026, 11, 20, 10, 30), "ACH-US", true, testkit.Et(2026, 11, 20, 13, 0)},
		{"same-day ACH by 14:00 ET settles at 17:00 ET", testkit.Et(2026, 11, 20, 14, 0), "ACH-US", true, testkit.Et(2026, 11, 20, 17, 0)},
		// It settled at 21:59 ET, after Fedwire's 19:00 ET close.
		{"wire at 17:59 ET settles before Fedwire closes", testkit.Et(2026, 11, 24, 17, 59), "WIRE-US", false, testkit.Et(2026, 11, 24, 18, 2)},
		// It settled Wed 12:30 ET, four hours after 08:30 ET.
		{"wire after 18:00 ET settles at the next business day's opening", testkit.Et(2026, 11, 24, 18, 1), "WIRE-US", false, testkit.Et(2026, 11, 25, 8, 33)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 1000_00, synapsefake.WithStartTime(tc.start))
			to := e.Bank
			if tc.to == "WIRE-US" {
				to = testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: "WIRE-US", Nickname: "Wire"})
			}
			body := testkit.TxBody(to, 10)
			if tc.sameDay {
				testkit.PutPath(body, "extra.same_day", true)
			}
			id := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
			tx := e.SettlesAt(t, id, tc.settled)
			if tc.to == "WIRE-US" {
				for _, s := range tx.Timeline[1:] {
					if !s.Date.Before(reference.AtEastern(s.Date, reference.FedwireClose).Add(time.Nanosecond)) {
						t.Errorf("%s at %v, after Fedwire's 19:00 ET close", s.Status, s.Date)
					}
				}
			}
		})
	}
}
