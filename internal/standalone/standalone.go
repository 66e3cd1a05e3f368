// Package standalone is what the standalone fake, cmd/synapsefake, asks
// of the root package beyond its public API: the binary's plumbing, which
// the root and the binary share and no user of the package can import.
package standalone

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// RunDue runs the clock-driven work that is due now on a *Server, or on
// every platform of a *Platforms, without moving the clock and without
// waiting for the webhook deliveries it queues (internal/api's
// Wire.RunDue). The binary calls it every second on a real clock, where a
// server may sit idle; a test calls Advance, which also waits. The root
// package sets it when it is loaded, and it panics for any other handler.
var RunDue func(h http.Handler)

// RealClockFrom is a clock that runs in real time from start: it reads
// start now and moves on with the wall clock. It is the binary's
// -clock real -start, and a platform's on a real clock that begins at
// another instant.
func RealClockFrom(start time.Time) clock.Clock {
	return offsetClock{clock.New(), time.Until(start)}
}

// offsetClock is a real clock set off by a fixed duration.
type offsetClock struct {
	clock.Clock
	offset time.Duration
}

func (c offsetClock) Now() time.Time                  { return c.Clock.Now().Add(c.offset) }
func (c offsetClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }
func (c offsetClock) Until(t time.Time) time.Duration { return t.Sub(c.Now()) }

// ValidateStartTime returns nil when WithStartTime takes t (the zero time,
// or a time from 1970-01-01 to the end of the year 9899 UTC), and
// otherwise the error WithStartTime panics with, for a caller that reads t
// from its user (the binary's -start, a platform's start).
func ValidateStartTime(t time.Time) error {
	if !t.IsZero() && (t.Before(minStartTime) || !t.Before(maxStartTime)) {
		return fmt.Errorf("synapsefake: start time %s is not from 1970-01-01 to 9899-12-31 UTC", t.UTC().Format(time.RFC3339))
	}
	return nil
}

// The start times WithStartTime takes: a saved state's range (1970-9999),
// less a century for the clock to move on and cards to expire in.
var (
	minStartTime = bank.MinStateTime
	maxStartTime = time.Date(9900, 1, 1, 0, 0, 0, 0, time.UTC)
)

// ValidClientID reports whether id can be a platform's client id: at most
// 64 letters, digits, '_', '-' and '.', and not . or .. (a URL resolver
// would take /_fake/platforms/.. for /_fake/; a '|' would split the
// gateway). The binary's -client-id and POST /_fake/platforms check it.
func ValidClientID(id string) bool {
	return len(id) <= 64 && id != "." && id != ".." && strings.IndexFunc(id, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
	}) < 0
}

// ValidClientSecret reports whether secret can be a platform's client
// secret: at most 128 printable characters, without spaces or '|'.
func ValidClientSecret(secret string) bool {
	return len(secret) <= 128 && strings.IndexFunc(secret, func(r rune) bool { return r <= ' ' || r == '|' || r >= 0x7f }) < 0
}
