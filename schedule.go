package synapsefake

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

// Cutoffs are the banking calendar's times of day, each in US Eastern time
// as a duration since midnight (16*time.Hour + 45*time.Minute is 16:45 ET).
// ACH and wire transfers start processing only on Federal Reserve business
// days (reference.IsBusinessDay); internal transfers ignore the calendar.
type Cutoffs struct {
	// ACH is the next-day ACH cutoff: an ACH transfer that starts on a
	// business day at or before it enters processing at once and settles
	// at the same time on the next business day; one that starts later, or
	// on a day that is not a business day, enters processing at Open on the
	// next business day and settles at Open on the business day after.
	ACH time.Duration
	// SameDay are the same-day ACH windows, in order: a same-day transfer
	// that starts on a business day at or before a window's Deadline enters
	// processing at once and settles at that window's Settlement. After the
	// last window it falls back to the next-day rule.
	SameDay []SameDayWindow
	// Wire is the wire cutoff: a wire that starts on a business day at or
	// before it settles four hours after it starts; a later one enters
	// processing at Open on the next business day.
	Wire time.Duration
	// Open is when work carried to the next business day enters processing.
	Open time.Duration
	// SameDayLimit is the largest amount, in cents, a same-day ACH
	// transfer may move and still settle the same day; a larger one is
	// processed as next-day ACH, as the ACH Operator does with such an
	// entry. Zero means no limit; DefaultCutoffs sets
	// reference.SameDayACHLimitCents ($1,000,000).
	SameDayLimit int64
}

// SameDayWindow is one same-day ACH window: its deposit deadline and its
// settlement time, Eastern wall-clock times as durations since midnight.
type SameDayWindow struct {
	Deadline   time.Duration
	Settlement time.Duration
}

// defaultCutoffs is DefaultCutoffs, shared read-only by every server that
// keeps the defaults (WithCutoffs gives a server its own copy).
var defaultCutoffs = DefaultCutoffs()

// DefaultCutoffs are the Federal Reserve's published times: the FedACH
// same-day windows (deadlines 10:30, 14:45 and 16:45 ET, settling at 13:00,
// 17:00 and 18:00 ET), next-day ACH accepted until the last same-day
// deadline (16:45 ET), the Fedwire deadline for customer transfers (18:00
// ET), and carried-over work starting at 08:30 ET, when FedACH settles
// next-day entries.
func DefaultCutoffs() Cutoffs {
	return Cutoffs{
		ACH: reference.FedACHSameDay3Deadline,
		SameDay: []SameDayWindow{
			{reference.FedACHSameDay1Deadline, reference.FedACHSameDay1Settlement},
			{reference.FedACHSameDay2Deadline, reference.FedACHSameDay2Settlement},
			{reference.FedACHSameDay3Deadline, reference.FedACHSameDay3Settlement},
		},
		Wire:         reference.FedwireCustomerDeadline,
		Open:         reference.FedACHNextDaySettlement,
		SameDayLimit: reference.SameDayACHLimitCents,
	}
}

// wireSettlement is how long after it starts a wire settles.
const wireSettlement = 4 * time.Hour

// validate refuses times outside a day and windows out of order.
func (c Cutoffs) validate() error {
	inDay := func(name string, d time.Duration) error {
		if d < 0 || d >= 24*time.Hour {
			return fmt.Errorf("synapsefake: Cutoffs.%s is %v; want a time of day in [0, 24h)", name, d)
		}
		return nil
	}
	for name, d := range map[string]time.Duration{"ACH": c.ACH, "Wire": c.Wire, "Open": c.Open} {
		if err := inDay(name, d); err != nil {
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
	return nil
}

// carried is when work that missed start's day enters processing: Open on
// the next business day.
func (c Cutoffs) carried(start time.Time) time.Time {
	return reference.AtEastern(reference.NextBusinessDay(start), c.Open)
}

// sameDayEligible reports whether a same-day ACH transfer of amount may
// settle the same day (SameDayLimit).
func (c Cutoffs) sameDayEligible(amount cents) bool {
	return c.SameDayLimit == 0 || int64(amount) <= c.SameDayLimit
}

// ach is when an ACH transfer that starts at start enters processing and
// when it settles.
func (c Cutoffs) ach(start time.Time, sameDay bool) (begin, settle time.Time) {
	if reference.IsBusinessDay(start) {
		if sameDay {
			for _, w := range c.SameDay {
				if !start.After(reference.AtEastern(start, w.Deadline)) {
					return start, reference.AtEastern(start, w.Settlement)
				}
			}
		}
		if !start.After(reference.AtEastern(start, c.ACH)) {
			return start, reference.AddBusinessDays(start, 1)
		}
	}
	begin = c.carried(start)
	return begin, reference.AddBusinessDays(begin, 1)
}

// wire is when a wire that starts at start enters processing and when it
// settles.
func (c Cutoffs) wire(start time.Time) (begin, settle time.Time) {
	begin = start
	if !reference.IsBusinessDay(start) || start.After(reference.AtEastern(start, c.Wire)) {
		begin = c.carried(start)
	}
	return begin, begin.Add(wireSettlement)
}

// Cutoff names one of the calendar's daily deadlines, for AdvanceToCutoff.
type Cutoff string

// The deadlines AdvanceToCutoff moves to.
const (
	CutoffACH     Cutoff = "ach"      // Cutoffs.ACH
	CutoffSameDay Cutoff = "same-day" // the next of Cutoffs.SameDay's deadlines
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
			times = append(times, w.Deadline)
		}
	default:
		return time.Time{}, errPayload("invalid_cutoff", `cutoff must be "ach", "same-day" or "wire", got %q.`, which)
	}
	if len(times) == 0 {
		return time.Time{}, errPayload("invalid_cutoff", "The server has no same-day windows.")
	}
	slices.Sort(times)
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

// AdvanceToNextBusinessDay moves the clock, as Advance does, to 00:00 US
// Eastern time of the next Federal Reserve business day, and returns the
// new time.
func (s *Server) AdvanceToNextBusinessDay() time.Time {
	now := s.Now()
	s.Advance(reference.NextBusinessDay(now).Sub(now))
	return s.Now()
}

// AdvanceToCutoff moves the clock, as Advance does, to the next moment
// after now that the named deadline falls on a business day (for
// CutoffSameDay, the next same-day window's deadline), and returns the new
// time. A transfer created at that moment still makes the deadline. It
// returns an error for an unknown Cutoff, and then does not move the clock.
func (s *Server) AdvanceToCutoff(c Cutoff) (time.Time, error) {
	now := s.Now()
	at, err := s.store.cutoffs.next(now, c)
	if err != nil {
		return now, err
	}
	s.Advance(at.Sub(now))
	return s.Now(), nil
}

// controlNextBusinessDay serves POST /_fake/clock/next-business-day.
func (s *Server) controlNextBusinessDay(w http.ResponseWriter, r *http.Request) {
	if _, err := controlBody[struct{}](r); err != nil {
		s.fail(w, err)
		return
	}
	s.controlOK(w, map[string]any{"now": ms(s.AdvanceToNextBusinessDay())})
}

// controlCutoffRequest is the body of POST /_fake/clock/cutoff.
type controlCutoffRequest struct {
	Cutoff Cutoff `json:"cutoff"`
}

// controlAdvanceToCutoff serves POST /_fake/clock/cutoff {"cutoff": "ach"|"same-day"|"wire"}.
func (s *Server) controlAdvanceToCutoff(w http.ResponseWriter, r *http.Request) {
	req, err := controlBody[controlCutoffRequest](r)
	var now time.Time
	if err == nil {
		now, err = s.AdvanceToCutoff(req.Cutoff)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	s.controlOK(w, map[string]any{"now": ms(now)})
}
