// Command synapsefake serves the fake v3.1 financial-account API on a real
// listener, for offline development and for clients in other languages.
//
//	go run ./cmd/synapsefake            # serves on 127.0.0.1:8080
//	go run ./cmd/synapsefake -addr :9090
//	go run ./cmd/synapsefake -journal-entries 1000 -journal-bytes 1048576
//	go run ./cmd/synapsefake -clock manual -state fake-state.json   # kept across restarts
//	go run ./cmd/synapsefake -addr :8080 -allow-host fake -control-token "$TOKEN"   # beyond loopback
//	go run ./cmd/synapsefake -clock manual -start 2026-04-14T10:00:00-04:00
//	go run ./cmd/synapsefake -version
//	synapsefake healthcheck              # exit 0 when the fake on 127.0.0.1:8080 is ready, 1 otherwise
//
// Install it with
//
//	go install github.com/synapsefake/synapsefake/cmd/synapsefake@latest
//
// or run the container image or a release archive (docs/standalone.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "synapsefake:", err)
		os.Exit(1)
	}
}

// run parses flags, serves until SIGINT or SIGTERM, then shuts down; or
// runs the healthcheck subcommand.
func run(args []string, out io.Writer) error {
	if len(args) > 0 && args[0] == "healthcheck" {
		return healthcheck(args[1:], out, os.Getenv)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, out, nil)
}

// serve runs the binary's steps: parse and check the flags (config.go),
// then listen, load, print the banner, serve until ctx is done and shut
// down (serve.go). ready, when not nil, receives the base URL once the
// fake is ready.
func serve(ctx context.Context, args []string, out io.Writer, ready chan<- string) error {
	c, err := parseConfig(args, out)
	if err != nil {
		return err
	}
	if c.version {
		fmt.Fprintln(out, versionLine(version, debug.ReadBuildInfo))
		return nil
	}
	if c.cpuProfile != "" {
		stop, err := startCPUProfile(c.cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	s, err := listen(c, out)
	if err != nil {
		return err
	}
	return s.run(ctx, ready)
}

// startCPUProfile profiles the process into file until stop.
func startCPUProfile(file string) (stop func(), err error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
