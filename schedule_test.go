package synapsefake_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// et is a date and time in US Eastern time.
func et(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, reference.Eastern)
}

// TestTransferOverThanksgiving walks an ACH transfer created on the
// Wednesday before Thanksgiving, 2026, at 17:00 ET, after the 16:45 ET
// cutoff: nothing moves on Thanksgiving, processing starts on Friday at
// 08:30 ET and the transfer settles on Monday, after the weekend.
func TestTransferOverThanksgiving(t *testing.T) {
	t.Parallel()
	e := txEnvAt(t, et(2026, 11, 25, 17, 0), 1000_00)
	id := e.create(t, e.bank, 10)
	for _, c := range []struct {
		at   time.Time
		want synapsefake.Status
	}{
		{et(2026, 11, 25, 23, 59), synapsefake.StatusCreated},
		{et(2026, 11, 26, 12, 0), synapsefake.StatusCreated}, // Thanksgiving
		{et(2026, 11, 27, 8, 30), synapsefake.StatusCreated},
		{et(2026, 11, 27, 8, 31), synapsefake.StatusProcessingDebit},
		{et(2026, 11, 27, 9, 30), synapsefake.StatusProcessingCredit},
		{et(2026, 11, 29, 23, 59), synapsefake.StatusProcessingCredit}, // the weekend
		{et(2026, 11, 30, 8, 30).Add(-time.Millisecond), synapsefake.StatusProcessingCredit},
		{et(2026, 11, 30, 8, 30), synapsefake.StatusSettled},
	} {
		e.fake.Advance(c.at.Sub(e.fake.Now()))
		if got := e.tx(t, id).Status; got != c.want {
			t.Fatalf("at %v: %s, want %s", c.at, got, c.want)
		}
	}
	var got []string
	for _, s := range e.tx(t, id).Timeline {
		got = append(got, string(s.Status)+" "+s.Date.In(reference.Eastern).Format(time.DateTime))
	}
	want := []string{
		"CREATED 2026-11-25 17:00:00",
		"PROCESSING-DEBIT 2026-11-27 08:31:00",
		"PROCESSING-CREDIT 2026-11-27 09:30:00",
		"SETTLED 2026-11-30 08:30:00",
	}
	if diff := cmp.Diff(want, got); diff != "" {
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
	tuesday := func(h, m int) time.Time { return et(2026, 11, 24, h, m) }
	for _, tc := range []struct {
		name    string
		opts    []synapsefake.Option
		rail    int
		created time.Time
		want    []string // PROCESSING-DEBIT, PROCESSING-CREDIT, SETTLED
	}{
		{"ACH at the cutoff settles the next business day", nil, ach, tuesday(16, 45),
			[]string{"2026-11-24 16:46", "2026-11-24 17:45", "2026-11-25 16:45"}},
		{"ACH a minute after the cutoff starts the next business day", nil, ach, tuesday(16, 46),
			[]string{"2026-11-25 08:31", "2026-11-25 09:30", "2026-11-27 08:30"}},
		{"ACH before dawn counts for the day", nil, ach, tuesday(3, 0),
			[]string{"2026-11-24 03:01", "2026-11-24 04:00", "2026-11-25 03:00"}},
		{"ACH on Thanksgiving starts on Friday", nil, ach, et(2026, 11, 26, 10, 0),
			[]string{"2026-11-27 08:31", "2026-11-27 09:30", "2026-11-30 08:30"}},
		{"same-day ACH in the first window", nil, sameDay, tuesday(10, 30),
			[]string{"2026-11-24 10:31", "2026-11-24 11:30", "2026-11-24 13:00"}},
		{"same-day ACH in the second window", nil, sameDay, tuesday(10, 31),
			[]string{"2026-11-24 10:32", "2026-11-24 11:31", "2026-11-24 17:00"}},
		{"same-day ACH in the third window", nil, sameDay, tuesday(14, 46),
			[]string{"2026-11-24 14:47", "2026-11-24 15:46", "2026-11-24 18:00"}},
		{"same-day ACH at the last deadline", nil, sameDay, tuesday(16, 45),
			[]string{"2026-11-24 16:46", "2026-11-24 17:45", "2026-11-24 18:00"}},
		{"same-day ACH after the last window falls back to next-day", nil, sameDay, tuesday(16, 46),
			[]string{"2026-11-25 08:31", "2026-11-25 09:30", "2026-11-27 08:30"}},
		{"same-day ACH on a Saturday falls back to next-day", nil, sameDay, et(2026, 11, 28, 9, 0),
			[]string{"2026-11-30 08:31", "2026-11-30 09:30", "2026-12-01 08:30"}},
		{"wire at its cutoff settles four hours later", nil, wire, tuesday(18, 0),
			[]string{"2026-11-24 18:01", "2026-11-24 19:00", "2026-11-24 22:00"}},
		{"wire after its cutoff starts the next business day", nil, wire, tuesday(18, 1),
			[]string{"2026-11-25 08:31", "2026-11-25 09:30", "2026-11-25 12:30"}},
		{"wire on Thanksgiving starts on Friday", nil, wire, et(2026, 11, 26, 9, 0),
			[]string{"2026-11-27 08:31", "2026-11-27 09:30", "2026-11-27 12:30"}},
		{"internal transfer on Thanksgiving ignores the calendar", nil, internal, et(2026, 11, 26, 9, 0),
			[]string{"2026-11-26 09:00", "2026-11-26 09:00", "2026-11-26 09:00"}},
		{"ACH across the change to daylight time keeps its wall time", nil, ach, et(2026, 3, 6, 12, 0),
			[]string{"2026-03-06 12:01", "2026-03-06 13:00", "2026-03-09 12:00"}},
		{"WithCutoffs: an earlier ACH cutoff", []synapsefake.Option{synapsefake.WithCutoffs(synapsefake.Cutoffs{
			ACH: 15 * time.Hour, Wire: 17 * time.Hour, Open: 9 * time.Hour})}, ach, tuesday(15, 30),
			[]string{"2026-11-25 09:01", "2026-11-25 10:00", "2026-11-27 09:00"}},
		{"WithCutoffs: no same-day windows", []synapsefake.Option{synapsefake.WithCutoffs(synapsefake.Cutoffs{
			ACH: 15 * time.Hour, Wire: 17 * time.Hour, Open: 9 * time.Hour})}, sameDay, tuesday(10, 0),
			[]string{"2026-11-24 10:01", "2026-11-24 11:00", "2026-11-25 10:00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, tc.created, 1000_00, tc.opts...)
			to := e.bank
			switch tc.rail {
			case wire:
				to = addTxNode(t, e.fake, e.fx.user.ID, synapsefake.NodeSeed{Type: "WIRE-US", Nickname: "Wire"})
			case internal:
				to = e.payee.node
			}
			body := txBody(to, 10)
			if tc.rail == sameDay {
				putPath(body, "extra.same_day", true)
			}
			id := e.createFrom(t, e.fx, e.fx.node, body)
			e.fake.Advance(10 * 24 * time.Hour)
			var got []string
			for _, s := range e.tx(t, id).Timeline[1:] {
				got = append(got, s.Date.In(reference.Eastern).Format("2006-01-02 15:04"))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("dates of the steps after CREATED, ET (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithCutoffsRefusesBadTimes(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    synapsefake.Cutoffs
	}{
		{"ACH past midnight", synapsefake.Cutoffs{ACH: 24 * time.Hour}},
		{"negative wire", synapsefake.Cutoffs{Wire: -time.Minute}},
		{"negative same-day limit", synapsefake.Cutoffs{SameDayLimit: -1}},
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
	wednesday := et(2026, 11, 25, 17, 0)
	for _, tc := range []struct {
		name    string
		from    time.Time
		advance func(*synapsefake.Server) (time.Time, error)
		want    time.Time
		wantErr string
	}{
		{"next business day over Thanksgiving", wednesday,
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToNextBusinessDay(), nil }, et(2026, 11, 27, 0, 0), ""},
		{"next business day from a Friday", et(2026, 11, 27, 0, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToNextBusinessDay(), nil }, et(2026, 11, 30, 0, 0), ""},
		{"ACH cutoff after today's", wednesday,
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffACH) }, et(2026, 11, 27, 16, 45), ""},
		{"ACH cutoff later today", et(2026, 11, 24, 9, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffACH) }, et(2026, 11, 24, 16, 45), ""},
		{"ACH cutoff from the cutoff is the next one", et(2026, 11, 24, 16, 45),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffACH) }, et(2026, 11, 25, 16, 45), ""},
		{"next same-day window", et(2026, 11, 24, 11, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffSameDay) }, et(2026, 11, 24, 14, 45), ""},
		{"first same-day window of a Monday", et(2026, 11, 28, 11, 0),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffSameDay) }, et(2026, 11, 30, 10, 30), ""},
		{"wire cutoff", et(2026, 11, 24, 18, 30),
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff(synapsefake.CutoffWire) }, et(2026, 11, 25, 18, 0), ""},
		{"unknown cutoff moves nothing", wednesday,
			func(f *synapsefake.Server) (time.Time, error) { return f.AdvanceToCutoff("lunch") }, wednesday, "invalid_cutoff"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTxEnv(t, 0)
			e.mock.Set(tc.from)
			got, err := tc.advance(e.fake)
			if code := errCode(err); code != tc.wantErr {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if !got.Equal(tc.want) || !e.fake.Now().Equal(tc.want) {
				t.Errorf("answered %v, clock at %v; want %v", got, e.fake.Now(), tc.want)
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
		{"next business day", "/clock/next-business-day", nil, 200, "", "", et(2026, 11, 27, 0, 0)},
		{"ACH cutoff", "/clock/cutoff", map[string]any{"cutoff": "ach"}, 200, "", "", et(2026, 11, 27, 16, 45)},
		{"same-day cutoff", "/clock/cutoff", map[string]any{"cutoff": "same-day"}, 200, "", "", et(2026, 11, 27, 10, 30)},
		{"wire cutoff the same day", "/clock/cutoff", map[string]any{"cutoff": "wire"}, 200, "", "", et(2026, 11, 25, 18, 0)},
		{"unknown cutoff", "/clock/cutoff", map[string]any{"cutoff": "lunch"}, 400, "200", "invalid_cutoff", et(2026, 11, 25, 17, 0)},
		{"missing cutoff", "/clock/cutoff", nil, 400, "200", "invalid_cutoff", et(2026, 11, 25, 17, 0)},
		{"unknown field", "/clock/next-business-day", map[string]any{"days": 2}, 400, "200", "", et(2026, 11, 25, 17, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTxEnv(t, 0)
			e.mock.Set(et(2026, 11, 25, 17, 0))
			r := ctl(t, e.fake, "POST", tc.path, tc.body)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.raw)
			}
			if tc.status == http.StatusOK {
				if r.body["now"] != float64(tc.want.UnixMilli()) {
					t.Errorf("now %v, want %d", r.body["now"], tc.want.UnixMilli())
				}
			} else if ec, _ := r.body["error_code"].(string); ec != tc.errorCode || tc.code != "" && bodyCode(r.body) != tc.code {
				t.Errorf("error_code %q, error.code %q; want %q, %q", ec, bodyCode(r.body), tc.errorCode, tc.code)
			}
			if !e.fake.Now().Equal(tc.want) {
				t.Errorf("clock at %v, want %v", e.fake.Now(), tc.want)
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

// errCode is the error.code an error of the fake's Go API carries ("" for
// nil), read from its message: "synapsefake: CODE (error_code ...".
func errCode(err error) string {
	if err == nil {
		return ""
	}
	code, _, _ := strings.Cut(strings.TrimPrefix(err.Error(), "synapsefake: "), " ")
	return code
}

// txEnvAt is newTxEnv with the clock set to at and the sender's key minted
// then.
func txEnvAt(t testing.TB, at time.Time, balanceCents int64, opts ...synapsefake.Option) txEnv {
	t.Helper()
	e := newTxEnv(t, balanceCents, opts...)
	e.mock.Set(at)
	e.fx.key = e.fake.OAuthKey(e.fx.user.ID, testFingerprint)
	e.fx.headers = userHeaders(e.fake, e.fx.key)
	e.payee.key = e.fake.OAuthKey(e.payee.user.ID, testFingerprint)
	e.payee.headers = userHeaders(e.fake, e.payee.key)
	return e
}
