package main

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestShutdownWaitsForItsGoroutines runs the binary's steps with the
// goroutines each clock and -state start beside the server, and checks that
// they run while it serves and have all ended when it returns: the
// due-work ticker even when it is in the middle of a tick as the shutdown
// begins.
func TestShutdownWaitsForItsGoroutines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		want []string // the goroutines running while it serves
	}{
		{"-clock real", nil, []string{"due-work ticker"}},
		{"-clock real -state", []string{"-state", "state.json"}, []string{"due-work ticker", "state saver"}},
		{"-clock manual", []string{"-clock", "manual"}, nil},
		{"-clock manual -state", []string{"-clock", "manual", "-state", "state.json"}, []string{"state saver"}},
		{"-state -state-interval 0", []string{"-clock", "manual", "-state", "state.json", "-state-interval", "0"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"-addr", "127.0.0.1:0", "-quiet"}, tc.args...)
			if i := slices.Index(args, "state.json"); i >= 0 {
				args[i] = filepath.Join(t.TempDir(), "state.json")
			}
			c, err := parseConfig(args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			s, err := listen(c, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// The ticker ticks when the test says; its tick runs the due work,
			// then waits for the shutdown to begin.
			ticks, ticked := make(chan time.Time), make(chan struct{})
			s.dueTicks = ticks
			runDue := s.runDue
			s.runDue = func() {
				runDue()
				ticked <- struct{}{}
				<-ctx.Done()
			}
			ready, done := make(chan string, 1), make(chan error, 1)
			go func() { done <- s.run(ctx, ready) }()
			select {
			case <-ready:
			case err := <-done:
				t.Fatalf("run returned before it was ready: %v", err)
			}
			if got := s.workers.running(); !slices.Equal(got, tc.want) {
				t.Errorf("goroutines running while it serves: %q, want %q", got, tc.want)
			}
			if slices.Contains(tc.want, "due-work ticker") {
				ticks <- time.Now()
				<-ticked
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("run: %v", err)
			}
			if got := s.workers.running(); len(got) != 0 {
				t.Errorf("goroutines still running when run returned: %q", got)
			}
		})
	}
}
