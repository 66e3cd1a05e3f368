package reference_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake/reference"
)

// et is a date and time in US Eastern time.
func et(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, reference.Eastern)
}

func TestFedHolidays(t *testing.T) {
	type day struct {
		Name string
		Date string // YYYY-MM-DD, Eastern
	}
	for _, tc := range []struct {
		year int
		want []day
	}{
		{2026, []day{
			{reference.HolidayNewYear, "2026-01-01"},
			{reference.HolidayMLK, "2026-01-19"},
			{reference.HolidayPresidents, "2026-02-16"},
			{reference.HolidayMemorial, "2026-05-25"},
			{reference.HolidayJuneteenth, "2026-06-19"},
			{reference.HolidayIndependence, "2026-07-04"}, // a Saturday: not moved
			{reference.HolidayLabor, "2026-09-07"},
			{reference.HolidayColumbus, "2026-10-12"},
			{reference.HolidayVeterans, "2026-11-11"},
			{reference.HolidayThanksgiving, "2026-11-26"},
			{reference.HolidayChristmas, "2026-12-25"},
		}},
		{2027, []day{
			{reference.HolidayNewYear, "2027-01-01"},
			{reference.HolidayMLK, "2027-01-18"},
			{reference.HolidayPresidents, "2027-02-15"},
			{reference.HolidayMemorial, "2027-05-31"},
			{reference.HolidayJuneteenth, "2027-06-19"},   // a Saturday: not moved
			{reference.HolidayIndependence, "2027-07-05"}, // July 4 is a Sunday: Monday
			{reference.HolidayLabor, "2027-09-06"},
			{reference.HolidayColumbus, "2027-10-11"},
			{reference.HolidayVeterans, "2027-11-11"},
			{reference.HolidayThanksgiving, "2027-11-25"},
			{reference.HolidayChristmas, "2027-12-25"}, // a Saturday: not moved
		}},
		{2021, []day{ // before Juneteenth; Christmas on a Saturday
			{reference.HolidayNewYear, "2021-01-01"},
			{reference.HolidayMLK, "2021-01-18"},
			{reference.HolidayPresidents, "2021-02-15"},
			{reference.HolidayMemorial, "2021-05-31"},
			{reference.HolidayIndependence, "2021-07-05"},
			{reference.HolidayLabor, "2021-09-06"},
			{reference.HolidayColumbus, "2021-10-11"},
			{reference.HolidayVeterans, "2021-11-11"},
			{reference.HolidayThanksgiving, "2021-11-25"},
			{reference.HolidayChristmas, "2021-12-25"},
		}},
	} {
		var got []day
		for _, h := range reference.FedHolidays(tc.year) {
			if h.Date.Location() != reference.Eastern || h.Date.Hour() != 0 {
				t.Errorf("%s %d: Date %v is not 00:00 Eastern", h.Name, tc.year, h.Date)
			}
			got = append(got, day{h.Name, h.Date.Format(time.DateOnly)})
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("FedHolidays(%d) (-want +got):\n%s", tc.year, diff)
		}
	}
}

func TestIsBusinessDay(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   time.Time
		want bool
	}{
		{"a Wednesday", et(2026, 11, 25, 17, 0), true},
		{"Thanksgiving", et(2026, 11, 26, 12, 0), false},
		{"the Friday after Thanksgiving", et(2026, 11, 27, 0, 0), true},
		{"a Saturday", et(2026, 11, 28, 12, 0), false},
		{"a Sunday", et(2026, 11, 29, 23, 59), false},
		{"the Sunday rule: Monday July 5, 2027", et(2027, 7, 5, 9, 0), false},
		{"a Saturday holiday leaves the Friday open", et(2027, 12, 24, 9, 0), true},
		{"the day is read in Eastern time", time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC), false}, // Thursday 22:00 ET
		{"New Year's Day 2028 (a Saturday) leaves Dec 31 open", et(2027, 12, 31, 9, 0), true},
	} {
		if got := reference.IsBusinessDay(tc.at); got != tc.want {
			t.Errorf("%s: IsBusinessDay(%v) = %v, want %v", tc.name, tc.at, got, tc.want)
		}
	}
}

func TestNextBusinessDay(t *testing.T) {
	for _, tc := range []struct {
		from, want time.Time
	}{
		{et(2026, 11, 25, 17, 0), et(2026, 11, 27, 0, 0)},      // over Thanksgiving
		{et(2026, 11, 27, 9, 0), et(2026, 11, 30, 0, 0)},       // over the weekend
		{et(2026, 12, 24, 23, 0), et(2026, 12, 28, 0, 0)},      // over Christmas and the weekend
		{et(2027, 7, 2, 10, 0), et(2027, 7, 6, 0, 0)},          // Sunday July 4 observed Monday
		{et(2026, 1, 16, 12, 0), et(2026, 1, 20, 0, 0)},        // MLK day
		{et(2026, 12, 31, 12, 0), et(2027, 1, 4, 0, 0)},        // New Year's Day, then a weekend
		{et(2026, 11, 24, 9, 0), et(2026, 11, 25, 0, 0)},       // an ordinary day
		{et(2026, 3, 7, 12, 0), et(2026, 3, 9, 0, 0)},          // across the change to daylight time
		{et(2026, 10, 30, 12, 0), et(2026, 11, 2, 0, 0)},       // across the change back
		{et(2026, 11, 26, 0, 0).UTC(), et(2026, 11, 27, 0, 0)}, // a UTC time is read in Eastern time
	} {
		if got := reference.NextBusinessDay(tc.from); !got.Equal(tc.want) {
			t.Errorf("NextBusinessDay(%v) = %v, want %v", tc.from, got, tc.want)
		}
	}
}

func TestAddBusinessDays(t *testing.T) {
	for _, tc := range []struct {
		from time.Time
		n    int
		want time.Time
	}{
		{et(2026, 11, 25, 17, 0), 1, et(2026, 11, 27, 17, 0)},
		{et(2026, 11, 25, 17, 0), 2, et(2026, 11, 30, 17, 0)},
		{et(2026, 11, 30, 9, 0), -2, et(2026, 11, 25, 9, 0)},
		{et(2026, 11, 28, 9, 0), 0, et(2026, 11, 28, 9, 0)},
		{et(2026, 11, 28, 9, 0), 1, et(2026, 11, 30, 9, 0)},
		{et(2026, 3, 6, 12, 0), 1, et(2026, 3, 9, 12, 0)}, // same wall time across daylight time
	} {
		if got := reference.AddBusinessDays(tc.from, tc.n); !got.Equal(tc.want) {
			t.Errorf("AddBusinessDays(%v, %d) = %v, want %v", tc.from, tc.n, got, tc.want)
		}
	}
}

func TestACHReturnWindow(t *testing.T) {
	settled := et(2026, 11, 25, 8, 30) // the Wednesday before Thanksgiving
	two := et(2026, 11, 30, 8, 30)     // opening of business on the second banking day
	sixty := et(2027, 1, 24, 23, 59).Add(59*time.Second + 999*time.Millisecond)
	fifth := et(2026, 12, 3, 23, 59).Add(59*time.Second + 999*time.Millisecond)        // the end of the fifth banking day
	endOfSecond := et(2026, 11, 30, 23, 59).Add(59*time.Second + 999*time.Millisecond) // the end of the second
	for _, tc := range []struct {
		code     string
		want     string // the window's name, "" for none
		deadline time.Time
	}{
		{"R01", "2 banking days", two},
		{"R02", "2 banking days", two},
		{"R03", "2 banking days", two},
		{"R04", "2 banking days", two},
		{"R08", "2 banking days", two},
		{"R09", "2 banking days", two},
		{"R16", "2 banking days", two},
		{"R20", "2 banking days", two},
		{"R29", "2 banking days", two},
		{"R05", "60 calendar days", sixty},
		{"R07", "60 calendar days", sixty},
		{"R10", "60 calendar days", sixty},
		{"R11", "60 calendar days", sixty},
		{"R51", "60 calendar days", sixty},
		{"R33", "60 calendar days", sixty},
		{"R06", "no fixed window", time.Time{}},
		{"R31", "no fixed window", time.Time{}},
		{"R13", "at processing, before settlement", settled},
		{"R18", "at processing, before settlement", settled},
		{"R19", "at processing, before settlement", settled},
		{"R23", "from the receiver's notice", time.Time{}},
		// Counted from the return (dishonors) and from the dishonor
		// (contests) to the end of the day.
		{"R61", "5 banking days", fifth},
		{"R62", "5 banking days", fifth},
		{"R67", "5 banking days", fifth},
		{"R68", "5 banking days", fifth},
		{"R69", "5 banking days", fifth},
		{"R70", "5 banking days", fifth},
		{"R71", "2 banking days", endOfSecond},
		{"R73", "2 banking days", endOfSecond},
		{"R77", "2 banking days", endOfSecond},
		{"IR01", "", time.Time{}},
		{"WR01", "", time.Time{}},
		{"R99", "", time.Time{}},
	} {
		w, ok := reference.ACHReturnWindow(tc.code)
		if tc.want == "" {
			if ok {
				t.Errorf("ACHReturnWindow(%s) = %v, want none", tc.code, w)
			}
			continue
		}
		if !ok || w.String() != tc.want {
			t.Errorf("ACHReturnWindow(%s) = %v, %v; want %s", tc.code, w, ok, tc.want)
			continue
		}
		if got, ok := w.Deadline(settled); !got.Equal(tc.deadline) || ok == tc.deadline.IsZero() {
			t.Errorf("%s: Deadline(%v) = %v, %v; want %v", tc.code, settled, got, ok, tc.deadline)
		}
	}
}

// TestReturnWindowParties: who sends each family of ACH codes and what it
// acts on.
func TestReturnWindowParties(t *testing.T) {
	for code, want := range map[string]struct {
		by reference.ReturnParty
		of reference.ReturnSubject
	}{
		"R01": {reference.ReceivingBank, reference.OfEntry}, "R10": {reference.ReceivingBank, reference.OfEntry},
		"R23": {reference.ReceivingBank, reference.OfEntry}, "R13": {reference.ACHOperator, reference.OfEntry},
		"R19": {reference.ACHOperator, reference.OfEntry}, "R61": {reference.OriginatingBank, reference.OfReturn},
		"R62": {reference.OriginatingBank, reference.OfReturn}, "R70": {reference.OriginatingBank, reference.OfReturn},
		"R71": {reference.ReceivingBank, reference.OfDishonor}, "R77": {reference.ReceivingBank, reference.OfDishonor},
		"IR18": {reference.ReceivingBank, reference.OfEntry},
	} {
		w, _ := reference.ACHReturnWindow(code)
		if w.By != want.by || w.Of != want.of || reference.ReturnSubjectOf(code) != want.of {
			t.Errorf("%s: by %s, of %s; want by %s, of %s", code, w.By, w.Of, want.by, want.of)
		}
	}
	for w, want := range map[reference.ReturnWindow]time.Duration{
		{Kind: reference.WindowBankingDaysEnd, Length: 5}: 5 * 24 * time.Hour,
		{Kind: reference.WindowAtProcessing}:              0,
	} {
		if got, ok := w.Shortest(); !ok || got != want {
			t.Errorf("%v.Shortest() = %v, %v; want %v", w, got, ok, want)
		}
	}
	if _, ok := (reference.ReturnWindow{Kind: reference.WindowOnNotice}).Shortest(); ok {
		t.Error("a window from the receiver's notice has a shortest length")
	}
}

func TestReturnCodeRail(t *testing.T) {
	for code, want := range map[string]string{
		"R01": reference.NodeACHUS, "R85": reference.NodeACHUS,
		"IR18": reference.NodeInterchangeUS, "IR999": reference.NodeInterchangeUS,
		"WR01": reference.NodeWireUS,
		"R99":  "", "X01": "", "": "",
	} {
		if got := reference.ReturnCodeRail(code); got != want {
			t.Errorf("ReturnCodeRail(%q) = %q, want %q", code, got, want)
		}
	}
}

// TestServiceCutoffsInEastern: the service publishes its ACH cutoffs in
// Pacific time (11:00 AM and 3:00 PM PT); the Eastern constants equal them
// on every day of 2026, across both changes of daylight time.
func TestServiceCutoffsInEastern(t *testing.T) {
	pacific, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	for d := time.Date(2026, 1, 1, 0, 0, 0, 0, pacific); d.Year() == 2026; d = d.AddDate(0, 0, 1) {
		for _, c := range []struct {
			name      string
			pt        time.Time
			inEastern time.Duration
		}{
			{"same-day", time.Date(d.Year(), d.Month(), d.Day(), 11, 0, 0, 0, pacific), reference.ServiceSameDayACHCutoff},
			{"next-day", time.Date(d.Year(), d.Month(), d.Day(), 15, 0, 0, 0, pacific), reference.ServiceNextDayACHCutoff},
		} {
			if got := reference.AtEastern(c.pt, c.inEastern); !got.Equal(c.pt) {
				t.Fatalf("%s cutoff on %s: %v ET, want %v", c.name, d.Format(time.DateOnly), got, c.pt.In(reference.Eastern))
			}
		}
	}
}
