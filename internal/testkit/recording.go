package testkit

// RecordingTB: a testing.TB that records what the fake reports to a test.

import (
	"fmt"
	"sync"
	"testing"
)

// RecordingTB is a testing.TB that records what a helper reports instead
// of reporting it: Fatalf and Errorf record a failure (Fatalf does not stop
// the goroutine), Logf a line, Cleanup a function that end runs.
type RecordingTB struct {
	testing.TB
	Mu       sync.Mutex
	Fatals   []string
	Errors   []string
	Logs     []string
	Cleanups []func()
	Helped   bool // Helper was called
	Unhelped int  // failures reported before any call of Helper
}

// Cleanup records f for End.
func (r *RecordingTB) Cleanup(f func()) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Cleanups = append(r.Cleanups, f)
}

// End runs the recorded cleanups, last first, as a test's end does.
func (r *RecordingTB) End() {
	r.Mu.Lock()
	fs := r.Cleanups
	r.Cleanups = nil
	r.Mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// Logged returns a copy of the lines Logf recorded.
func (r *RecordingTB) Logged() []string {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return append([]string(nil), r.Logs...)
}

// Helper records that Helper was called.
func (r *RecordingTB) Helper() {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Helped = true
}

// Fatalf records a failure and returns.
func (r *RecordingTB) Fatalf(format string, args ...any) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Fatals = append(r.Fatals, fmt.Sprintf(format, args...))
	r.NoteHelped()
}

// Errorf records a failure.
func (r *RecordingTB) Errorf(format string, args ...any) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Errors = append(r.Errors, fmt.Sprintf(format, args...))
	r.NoteHelped()
}

// NoteHelped counts a failure reported before Helper: its line would be
// the helper's, not the test's. Callers hold mu.
func (r *RecordingTB) NoteHelped() {
	if !r.Helped {
		r.Unhelped++
	}
}

// Logf records a line.
func (r *RecordingTB) Logf(format string, args ...any) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Logs = append(r.Logs, fmt.Sprintf(format, args...))
}

// Failed reports whether a failure was recorded.
func (r *RecordingTB) Failed() bool {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return len(r.Fatals)+len(r.Errors) > 0
}
