package reference

import (
	"sync"
	"time"
	_ "time/tzdata" // Eastern must load on a machine without zoneinfo
)

// Eastern is US Eastern time (America/New_York), the time zone of the
// Federal Reserve's schedules. Every calendar function reads a time's
// date in Eastern time, whatever its location.
var Eastern = mustLoad("America/New_York")

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic("reference: " + err.Error()) // unreachable: time/tzdata is embedded
	}
	return loc
}

// Holiday is a Federal Reserve holiday: the day the Federal Reserve Banks
// are closed, at 00:00 Eastern time.
type Holiday struct {
	Name string
	Date time.Time
}

// The Federal Reserve's holidays, as named on its holiday schedule.
const (
	HolidayNewYear       = "New Year's Day"
	HolidayMLK           = "Birthday of Martin Luther King, Jr."
	HolidayPresidents    = "Washington's Birthday"
	HolidayMemorial      = "Memorial Day"
	HolidayJuneteenth    = "Juneteenth National Independence Day"
	HolidayIndependence  = "Independence Day"
	HolidayLabor         = "Labor Day"
	HolidayColumbus      = "Columbus Day"
	HolidayVeterans      = "Veterans Day"
	HolidayThanksgiving  = "Thanksgiving Day"
	HolidayChristmas     = "Christmas Day"
	juneteenthFirstYear  = 2022 // first year the Federal Reserve closed on June 19
	fixedHolidaysPerYear = 11
)

// FedHolidays returns the days the Federal Reserve Banks are closed in
// year, in date order. A holiday that falls on a Sunday is observed on the
// Monday after; one that falls on a Saturday is not moved (the Banks are
// open the Friday before), so its Date is that Saturday. Juneteenth is a
// holiday from 2022.
func FedHolidays(year int) []Holiday {
	out := make([]Holiday, 0, fixedHolidaysPerYear)
	fixed := func(name string, m time.Month, d int) {
		t := day(year, m, d)
		if t.Weekday() == time.Sunday {
			t = t.AddDate(0, 0, 1)
		}
		out = append(out, Holiday{name, t})
	}
	nth := func(name string, m time.Month, wd time.Weekday, n int) {
		t := day(year, m, 1)
		t = t.AddDate(0, 0, (int(wd)-int(t.Weekday())+7)%7+7*(n-1))
		out = append(out, Holiday{name, t})
	}
	fixed(HolidayNewYear, time.January, 1)
	nth(HolidayMLK, time.January, time.Monday, 3)
	nth(HolidayPresidents, time.February, time.Monday, 3)
	last := day(year, time.May, 31)
	out = append(out, Holiday{HolidayMemorial, last.AddDate(0, 0, -(int(last.Weekday())-int(time.Monday)+7)%7)})
	if year >= juneteenthFirstYear {
		fixed(HolidayJuneteenth, time.June, 19)
	}
	fixed(HolidayIndependence, time.July, 4)
	nth(HolidayLabor, time.September, time.Monday, 1)
	nth(HolidayColumbus, time.October, time.Monday, 2)
	fixed(HolidayVeterans, time.November, 11)
	nth(HolidayThanksgiving, time.November, time.Thursday, 4)
	fixed(HolidayChristmas, time.December, 25)
	return out
}

// day is 00:00 Eastern time of a date.
func day(year int, m time.Month, d int) time.Time {
	return time.Date(year, m, d, 0, 0, 0, 0, Eastern)
}

// StartOfDay is 00:00 Eastern time of t's date in Eastern time.
func StartOfDay(t time.Time) time.Time {
	y, m, d := t.In(Eastern).Date()
	return day(y, m, d)
}

// FedHoliday returns the holiday on t's date (in Eastern time), if any.
func FedHoliday(t time.Time) (Holiday, bool) {
	y, m, d := t.In(Eastern).Date()
	h, ok := holidaysOf(y)[int(m)*100+d]
	return h, ok
}

// holidayYears caches each year's holidays by month*100+day: the calendar
// is read on every transfer's schedule.
var holidayYears sync.Map // int -> map[int]Holiday

func holidaysOf(year int) map[int]Holiday {
	if m, ok := holidayYears.Load(year); ok {
		return m.(map[int]Holiday)
	}
	m := make(map[int]Holiday, fixedHolidaysPerYear)
	for _, h := range FedHolidays(year) {
		m[int(h.Date.Month())*100+h.Date.Day()] = h
	}
	v, _ := holidayYears.LoadOrStore(year, m)
	return v.(map[int]Holiday)
}

// IsBusinessDay reports whether t's date, in Eastern time, is a Federal
// Reserve business day: a Monday to Friday that is not a holiday.
func IsBusinessDay(t time.Time) bool {
	t = t.In(Eastern)
	if wd := t.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return false
	}
	_, holiday := FedHoliday(t)
	return !holiday
}

// NextBusinessDay is 00:00 Eastern time of the first business day after
// t's date.
func NextBusinessDay(t time.Time) time.Time {
	d := StartOfDay(t).AddDate(0, 0, 1)
	for !IsBusinessDay(d) {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

// AddBusinessDays moves t to the n-th business day after its date (before
// it, for a negative n), at the same Eastern wall-clock time. Zero returns
// t unchanged, even on a day that is not a business day.
func AddBusinessDays(t time.Time, n int) time.Time {
	step := 1
	if n < 0 {
		step, n = -1, -n
	}
	e := t.In(Eastern)
	y, m, d := e.Date()
	for n > 0 {
		d += step
		if IsBusinessDay(day(y, m, d)) {
			n--
		}
	}
	return time.Date(y, m, d, e.Hour(), e.Minute(), e.Second(), e.Nanosecond(), Eastern).In(t.Location())
}

// AtEastern is t's date in Eastern time at the Eastern wall-clock time
// tod (a duration since midnight, such as 16*time.Hour + 45*time.Minute).
func AtEastern(t time.Time, tod time.Duration) time.Time {
	y, m, d := t.In(Eastern).Date()
	tod = tod.Round(time.Millisecond)
	return time.Date(y, m, d, 0, 0, 0, int(tod), Eastern)
}

// The Federal Reserve's published deadlines and settlement times, as
// Eastern wall-clock times (durations since midnight). Sources: FedACH
// processing schedule (frbservices.org) for the three same-day windows,
// with deposit deadlines 10:30, 14:45 and 16:45 ET and settlement at 13:00,
// 17:00 and 18:00 ET, and next-day items deposited by 02:15 ET settling at
// 08:30 ET that morning; "About the Fedwire Funds Service"
// (federalreserve.gov) for the Fedwire business day, from 21:00 ET the
// evening before to 19:00 ET, and its 18:00 ET deadline of transfers for a
// third party (a bank's customer). Fedwire settles each transfer at once,
// "immediate, final, and irrevocable", while it is open.
const (
	FedACHSameDay1Deadline   = 10*time.Hour + 30*time.Minute
	FedACHSameDay1Settlement = 13 * time.Hour
	FedACHSameDay2Deadline   = 14*time.Hour + 45*time.Minute
	FedACHSameDay2Settlement = 17 * time.Hour
	FedACHSameDay3Deadline   = 16*time.Hour + 45*time.Minute
	FedACHSameDay3Settlement = 18 * time.Hour
	FedACHNextDayDeadline    = 2*time.Hour + 15*time.Minute // on the settlement day
	FedACHNextDaySettlement  = 8*time.Hour + 30*time.Minute
	FedwireOpen              = 21 * time.Hour // on the calendar day before the business day
	FedwireClose             = 19 * time.Hour
	FedwireCustomerDeadline  = 18 * time.Hour
)

// The service's own ACH cutoffs, in front of FedACH's: same-day ACH by
// 11:00 AM PT (14:00 ET), next-day ACH by 3:00 PM PT (18:00 ET). Pacific
// and Eastern time change to and from daylight time on the same dates, so
// the two stay three hours apart all year. A same-day transfer sent after
// its cutoff goes into that day's next-day batch; a next-day one sent after
// its cutoff into the following business day's batch. Source: the
// service's payment accounts guide, "Cutoff Times"
// (docs.synapsefi.com/product-guides/payment-accounts).
const (
	ServiceSameDayACHCutoff = 14 * time.Hour
	ServiceNextDayACHCutoff = 18 * time.Hour
)

// SameDayACHLimitCents is the largest amount, in cents, of one entry that
// settles through same-day ACH: $1,000,000 per payment, Nacha's limit since
// March 18, 2022 (it was $100,000 before). An entry over the limit
// submitted in a same-day window is not rejected by the ACH Operator; it
// settles next day (Nacha, "Guidance: Per-Transaction Limit", nacha.org).
const SameDayACHLimitCents int64 = 100_000_000
