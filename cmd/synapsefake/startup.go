package main

import (
	"net/http"
	"sync"

	"github.com/synapsefake/synapsefake/internal/console"
)

// The health routes the binary answers before it is ready.
const (
	livezPath  = console.ControlPrefix + "livez"
	readyzPath = console.ControlPrefix + "readyz"
)

// startup is the server's handler from the moment it listens: until the
// fake is ready (its -state file loaded, its demo user or -world made) it
// answers GET /_fake/livez (the process is up) and 503 to /_fake/readyz,
// and holds every other request until the fake is ready, then serves it;
// if the start fails instead, they get 503 too. A container's healthcheck
// or an orchestrator's readiness probe so sees the fake live at once and
// ready once its state is in.
type startup struct {
	live    http.Handler // answers /_fake/livez meanwhile
	why     string       // what readyz says it waits for
	up      chan struct{}
	down    chan struct{}
	h       http.Handler // set before up is closed
	endOnce sync.Once
}

func newStartup(live http.Handler, stateFile string) *startup {
	why := "The fake is starting."
	if stateFile != "" {
		why = "The fake is loading its state from " + stateFile + "; it answers once that is done."
	}
	return &startup{live: live, why: why, up: make(chan struct{}), down: make(chan struct{})}
}

// ready serves every request with h from now on.
func (g *startup) ready(h http.Handler) {
	g.endOnce.Do(func() {
		g.h = h
		close(g.up)
	})
}

// fail answers the requests held, and any other, 503: the fake did not
// start.
func (g *startup) fail() {
	g.endOnce.Do(func() { close(g.down) })
}

func (g *startup) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case <-g.up:
		g.h.ServeHTTP(w, r)
		return
	default:
	}
	switch r.URL.Path {
	case livezPath:
		g.live.ServeHTTP(w, r)
		return
	case readyzPath:
		console.ServeNotReady(w, g.whyNot())
		return
	}
	if startupHolding != nil {
		startupHolding()
	}
	select {
	case <-g.up:
		g.h.ServeHTTP(w, r)
	case <-g.down:
		console.ServeNotReady(w, g.whyNot())
	case <-r.Context().Done():
	}
}

// startupHolding, when set (by tests), runs as startup begins to hold a
// request.
var startupHolding func()

// whyNot is what readyz answers while the fake is not ready.
func (g *startup) whyNot() string {
	select {
	case <-g.down:
		return "The fake did not start."
	default:
		return g.why
	}
}
