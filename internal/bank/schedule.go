// The banking schedule, the bank's side: cutoffs and the banking calendar.

package bank

import (
	"fmt"
	"slices"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// Cutoffs is documented at synapsefake.Cutoffs.
type Cutoffs struct {
	// ACH is the service's next-day ACH cutoff: an ACH transfer that
	// starts on a business day at or before it enters processing at once
	// and settles on the next business day (NextDaySettlement); one that
	// starts later, or on a day that is not a business day, enters
	// processing at Open on the next business day and settles on the
	// business day after.
	ACH time.Duration
	// SameDayACH is the service's same-day ACH cutoff, in front of the
	// FedACH windows: a same-day transfer that starts on a business day
	// after it is processed as next-day ACH. Zero: the windows' deadlines
	// alone decide.
	SameDayACH time.Duration
	// SameDay are the FedACH same-day windows, in order: a same-day
	// transfer that starts on a business day at or before a window's
	// Deadline (and SameDayACH) enters processing at once and settles at
	// that window's Settlement. After the last window it falls back to the
	// next-day rule.
	SameDay []SameDayWindow
	// NextDaySettlement is when a next-day ACH transfer settles on the
	// business day after it enters processing. Zero: at the time of day it
	// entered processing.
	NextDaySettlement time.Duration
	// Wire is the service's wire cutoff: a wire that starts on a business
	// day at or before it enters processing at once; a later one, or one on
	// a day that is not a business day, enters processing at Open on the
	// next business day. A wire is PROCESSING-DEBIT one minute,
	// PROCESSING-CREDIT two minutes and SETTLED three minutes after it
	// enters processing, none of them after WireClose.
	Wire time.Duration
	// WireClose is when the wire rail closes for the day: no step of a
	// wire falls after it. Zero: no close.
	WireClose time.Duration
	// Open is when work carried to the next business day enters processing.
	Open time.Duration
	// SameDayLimit is the largest amount, in cents, a same-day ACH
	// transfer may move and still settle the same day; a larger one is
	// processed as next-day ACH, as the ACH Operator does with such an
	// entry. Zero means no limit; DefaultCutoffs sets
	// reference.SameDayACHLimitCents ($1,000,000).
	SameDayLimit int64
}

// SameDayWindow is documented at synapsefake.SameDayWindow.
type SameDayWindow struct {
	Deadline   time.Duration
	Settlement time.Duration
}

// equal reports that c and d are the same calendar.
func (c Cutoffs) equal(d Cutoffs) bool {
	return c.ACH == d.ACH && c.SameDayACH == d.SameDayACH && slices.Equal(c.SameDay, d.SameDay) &&
		c.NextDaySettlement == d.NextDaySettlement && c.Wire == d.Wire && c.WireClose == d.WireClose &&
		c.Open == d.Open && c.SameDayLimit == d.SameDayLimit
}

// SharedDefaultCutoffs is DefaultCutoffs, shared read-only by every server that
// keeps the defaults (WithCutoffs gives a server its own copy).
var SharedDefaultCutoffs = DefaultCutoffs()

// DefaultCutoffs is documented at synapsefake.DefaultCutoffs.
func DefaultCutoffs() Cutoffs {
	return Cutoffs{
		ACH:        reference.ServiceNextDayACHCutoff,
		SameDayACH: reference.ServiceSameDayACHCutoff,
		SameDay: []SameDayWindow{
			{reference.FedACHSameDay1Deadline, reference.FedACHSameDay1Settlement},
			{reference.FedACHSameDay2Deadline, reference.FedACHSameDay2Settlement},
			{reference.FedACHSameDay3Deadline, reference.FedACHSameDay3Settlement},
		},
		Wire:         reference.FedwireCustomerDeadline,
		WireClose:    reference.FedwireClose,
		Open:         reference.FedACHNextDaySettlement,
		SameDayLimit: reference.SameDayACHLimitCents,
	}
}

// wireSteps are how long after it enters processing a wire reaches
// PROCESSING-DEBIT, PROCESSING-CREDIT and SETTLED: Fedwire settles each
// transfer at once.
var wireSteps = [3]time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute}

// Validate refuses times outside a day, windows out of order and a wire
// rail that closes before its work starts.
func (c Cutoffs) validate() error {
	inDay := func(name string, d time.Duration) error {
		if d < 0 || d >= 24*time.Hour {
			return fmt.Errorf("synapsefake: Cutoffs.%s is %v; want a time of day in [0, 24h)", name, d)
		}
		return nil
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"ACH", c.ACH}, {"SameDayACH", c.SameDayACH}, {"NextDaySettlement", c.NextDaySettlement},
		{"Wire", c.Wire}, {"WireClose", c.WireClose}, {"Open", c.Open}} {
		if err := inDay(f.name, f.d); err != nil {
			return err
		}
	}
	if c.SameDayLimit < 0 {
		return fmt.Errorf("synapsefake: Cutoffs.SameDayLimit is %d; want 0 (no limit) or a positive number of cents", c.SameDayLimit)
	}
	for i, w := range c.SameDay {
		if err := inDay(fmt.Sprintf("SameDay[%d].Deadline", i), w.Deadline); err != nil {
			return err
		}
		if err := inDay(fmt.Sprintf("SameDay[%d].Settlement", i), w.Settlement); err != nil {
			return err
		}
		if w.Settlement < w.Deadline || i > 0 && w.Deadline <= c.SameDay[i-1].Deadline {
			return fmt.Errorf("synapsefake: Cutoffs.SameDay[%d] %v: deadlines must rise and each settlement come at or after its deadline", i, w)
		}
	}
	if c.WireClose != 0 && (c.Wire > c.WireClose || c.Open > c.WireClose) {
		return fmt.Errorf("synapsefake: Cutoffs.WireClose is %v, before Wire (%v) or Open (%v); a wire must be able to start before the rail closes", c.WireClose, c.Wire, c.Open)
	}
	return nil
}

// carried is when work that missed start's day enters processing: Open on
// the next business day.
func (c Cutoffs) carried(start time.Time) time.Time {
	return reference.AtEastern(reference.NextBusinessDay(start), c.Open)
}

// sameDayEligible reports whether a same-day ACH transfer of amount may
// settle the same day (SameDayLimit).
func (c Cutoffs) sameDayEligible(amount Cents) bool {
	return c.SameDayLimit == 0 || int64(amount) <= c.SameDayLimit
}

// sameDayDeadline is a window's deadline as a transfer must meet it: the
// service's SameDayACH cutoff when it comes first.
func (c Cutoffs) sameDayDeadline(w SameDayWindow) time.Duration {
	if c.SameDayACH != 0 && c.SameDayACH < w.Deadline {
		return c.SameDayACH
	}
	return w.Deadline
}

// nextDay is when a next-day ACH transfer that entered processing at begin
// settles.
func (c Cutoffs) nextDay(begin time.Time) time.Time {
	if c.NextDaySettlement == 0 {
		return reference.AddBusinessDays(begin, 1)
	}
	return reference.AtEastern(reference.NextBusinessDay(begin), c.NextDaySettlement)
}

// ach is when an ACH transfer that starts at start enters processing and
// when it settles.
func (c Cutoffs) ach(start time.Time, sameDay bool) (begin, settle time.Time) {
	if reference.IsBusinessDay(start) {
		if sameDay {
			for _, w := range c.SameDay {
				if !start.After(reference.AtEastern(start, c.sameDayDeadline(w))) {
					return start, reference.AtEastern(start, w.Settlement)
				}
			}
		}
		if !start.After(reference.AtEastern(start, c.ACH)) {
			return start, c.nextDay(start)
		}
	}
	begin = c.carried(start)
	return begin, c.nextDay(begin)
}

// wire is when a wire that starts at start reaches PROCESSING-DEBIT,
// PROCESSING-CREDIT and SETTLED.
func (c Cutoffs) wire(start time.Time) [3]time.Time {
	begin := start
	if !reference.IsBusinessDay(start) || start.After(reference.AtEastern(start, c.Wire)) {
		begin = c.carried(start)
	}
	var steps [3]time.Time
	for i, d := range wireSteps {
		steps[i] = begin.Add(d)
		if c.WireClose != 0 {
			if closes := reference.AtEastern(begin, c.WireClose); steps[i].After(closes) {
				steps[i] = closes
			}
		}
	}
	return steps
}

// Cutoff is documented at synapsefake.Cutoff.
type Cutoff string

// The deadlines AdvanceToCutoff moves to.
const (
	CutoffACH     Cutoff = "ach"      // Cutoffs.ACH
	CutoffSameDay Cutoff = "same-day" // the next of Cutoffs.SameDay's deadlines, none after Cutoffs.SameDayACH
	CutoffWire    Cutoff = "wire"     // Cutoffs.Wire
)

// next is the first moment after now that deadline c falls on a business day.
func (c Cutoffs) next(now time.Time, which Cutoff) (time.Time, error) {
	var times []time.Duration
	switch which {
	case CutoffACH:
		times = []time.Duration{c.ACH}
	case CutoffWire:
		times = []time.Duration{c.Wire}
	case CutoffSameDay:
		for _, w := range c.SameDay {
			times = append(times, c.sameDayDeadline(w))
		}
	default:
		return time.Time{}, apierr.Payload("invalid_cutoff", `cutoff must be "ach", "same-day" or "wire", got %q.`, which)
	}
	if len(times) == 0 {
		return time.Time{}, apierr.Payload("invalid_cutoff", "The server has no same-day windows.")
	}
	slices.Sort(times)
	times = slices.Compact(times)
	day := now
	if !reference.IsBusinessDay(day) {
		day = reference.NextBusinessDay(day)
	}
	for {
		for _, d := range times {
			if at := reference.AtEastern(day, d); at.After(now) {
				return at, nil
			}
		}
		day = reference.NextBusinessDay(day)
	}
}
