package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/standalone"
)

// server is the binary once it listens: the platforms it serves, the HTTP
// server, and the goroutines it runs beside it.
type server struct {
	c         config
	out       io.Writer
	l         net.Listener
	base      string // the API's base URL: http://ADDR/v3.1
	platforms *synapsefake.Platforms
	fake      *synapsefake.Server // the default platform
	gate      *startup
	http      *http.Server
	served    chan error  // what http.Serve returned
	log       *requestLog // nil with -quiet
	workers   workers

	// What the due-work ticker runs on: every second, standalone.RunDue(platforms).
	// Tests replace them before run.
	dueTicks <-chan time.Time
	runDue   func()
}

// listen opens c's listener and makes the platforms behind it, the API's
// links naming its address.
func listen(c config, out io.Writer) (*server, error) {
	l, err := net.Listen("tcp", c.addr)
	if err != nil {
		return nil, err
	}
	base := "http://" + l.Addr().String() + "/v3.1"
	// Every platform is a whole fake; the one the binary starts with is the
	// default, which answers whatever names no other (issue 37).
	platforms := synapsefake.NewPlatforms(options(c, base, time.Now())...)
	s := &server{c: c, out: out, l: l, base: base, platforms: platforms, fake: platforms.Default(),
		gate: newStartup(platforms, c.stateFile), served: make(chan error, 1), runDue: func() { standalone.RunDue(platforms) }}
	s.http = &http.Server{Handler: s.gate, ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// run serves until ctx is done, then shuts down: it serves from the start
// (/_fake/livez at once, /_fake/readyz 503 until the state is loaded, every
// other request once it is: startup.go), loads the state, prints the
// banner, opens the gate, starts the workers and sends the base URL on
// ready (when not nil).
func (s *server) run(ctx context.Context, ready chan<- string) error {
	go func() { s.served <- s.http.Serve(s.l) }()
	if startupLoading != nil {
		startupLoading(s.base)
	}
	start, err := s.load()
	if err != nil {
		return s.fail(err)
	}
	s.banner(start)
	var handler http.Handler = s.platforms
	if !s.c.quiet {
		s.log = newRequestLog(s.out)
		handler = s.log.wrap(s.platforms)
	}
	s.gate.ready(handler)
	s.startWorkers()
	if ready != nil {
		ready <- s.base
	}
	select {
	case err := <-s.served:
		s.workers.stop()
		s.closeLog()
		return err
	case <-ctx.Done():
	}
	return s.shutdown()
}

// startupLoading, when set (by tests), runs once the server listens and
// serves, before the state is loaded, with the base URL.
var startupLoading func(base string)

// started is what the start made: the state restored from -state, or the
// demo user seeded and the -world loaded.
type started struct {
	restored bool
	user     synapsefake.User
	world    *synapsefake.World // nil without -world
}

// load restores -state and its platforms, if the file exists; otherwise it
// seeds the demo user and loads -world.
func (s *server) load() (started, error) {
	restored, err := loadState(s.fake, s.c.stateFile)
	if err == nil {
		err = loadPlatforms(s.platforms, s.c.stateFile)
	}
	if err != nil || restored {
		return started{restored: restored}, err
	}
	user, err := s.fake.AddUser(synapsefake.UserSeed{Email: "demo@example.com", LegalNames: []string{"Demo User"}, Fingerprint: "demo-fingerprint"})
	if err != nil {
		return started{}, err
	}
	st := started{user: user}
	if s.c.world != "" {
		w, err := loadWorld(s.fake, s.c.world)
		if err != nil {
			return started{}, err
		}
		st.world = &w
	}
	return st, nil
}

// fail ends a start that failed: the requests held get 503, the server
// stops, and err is returned.
func (s *server) fail(err error) error {
	s.gate.fail()
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.http.Shutdown(stop) // the requests held get their 503 first
	<-s.served
	return err
}

// startWorkers starts the goroutines that run beside the server: with
// -clock real, the due-work ticker; with -state and -state-interval, the
// saver.
func (s *server) startWorkers() {
	if !s.c.manualClock {
		// With wall-clock time, processing steps and webhook retries fall due
		// by themselves; run them every second rather than on the next request.
		// RunDue, not Advance: Advance would wait for every queued webhook
		// delivery, at full speed, every second.
		s.workers.Go("due-work ticker", func(stop <-chan struct{}) {
			ticks := s.dueTicks
			if ticks == nil {
				t := time.NewTicker(time.Second)
				defer t.Stop()
				ticks = t.C
			}
			for {
				select {
				case <-stop:
					return
				case <-ticks:
					s.runDue()
				}
			}
		})
	}
	if s.c.stateFile != "" && s.c.stateInterval > 0 {
		s.workers.Go("state saver", func(stop <-chan struct{}) {
			t := time.NewTicker(s.c.stateInterval)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					if err := saveState(s.platforms, s.c.stateFile); err != nil {
						fmt.Fprintln(s.out, "synapsefake:", err)
					}
				}
			}
		})
	}
}

// shutdown stops the server, letting the requests in flight finish for up
// to 5 seconds, stops the workers and waits for them, writes the last log
// lines, and saves -state.
func (s *server) shutdown() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The final save runs even when requests in flight did not finish in
	// time: what changed since the last interval is kept all the same.
	stopErr := s.http.Shutdown(ctx)
	if err := <-s.served; stopErr == nil && !errors.Is(err, http.ErrServerClosed) {
		stopErr = err
	}
	s.workers.stop() // no RunDue or save runs beside the last save
	s.closeLog()     // its lines come before what follows
	if s.c.stateFile != "" {
		if err := saveState(s.platforms, s.c.stateFile); err != nil {
			return errors.Join(stopErr, err)
		}
		fmt.Fprintf(s.out, "state saved to %s\n", s.c.stateFile)
	}
	if stopErr != nil {
		return stopErr
	}
	fmt.Fprintln(s.out, "synapsefake stopped")
	return nil
}

// closeLog writes the request log's last lines and stops its writer.
func (s *server) closeLog() {
	if s.log != nil {
		s.log.close()
	}
}

// workers are goroutines that run until stop, which waits for them all.
type workers struct {
	wg      sync.WaitGroup
	mu      sync.Mutex
	stopped chan struct{} // made by the first Go, closed by stop
	live    []string      // the names of those running
}

// Go runs f in a goroutine named name; f returns once stop is closed.
func (w *workers) Go(name string, f func(stop <-chan struct{})) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped == nil {
		w.stopped = make(chan struct{})
	}
	w.live = append(w.live, name)
	stop := w.stopped
	w.wg.Go(func() {
		defer func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			i := slices.Index(w.live, name)
			w.live = slices.Delete(w.live, i, i+1)
		}()
		f(stop)
	})
}

// stop tells every goroutine to return and waits until they have.
func (w *workers) stop() {
	w.mu.Lock()
	if w.stopped != nil {
		close(w.stopped)
		w.stopped = nil
	}
	w.mu.Unlock()
	w.wg.Wait()
}

// running lists the names of the goroutines running, in the order they
// started.
func (w *workers) running() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.live)
}
