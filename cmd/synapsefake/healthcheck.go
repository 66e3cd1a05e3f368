package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/console"
)

// healthcheckURLEnv names the environment variable that gives healthcheck
// its URL when no flag does.
const healthcheckURLEnv = "SYNAPSEFAKE_HEALTHCHECK_URL"

// defaultHealthcheckAddr is where the container image's fake listens.
const defaultHealthcheckAddr = "127.0.0.1:8080"

// healthcheck is the healthcheck subcommand, a container's HEALTHCHECK (the
// image has no shell, nor curl): it asks the fake's GET /_fake/readyz and
// returns nil when it answers 200, an error (exit status 1) for anything
// else or no answer. getenv reads the environment.
func healthcheck(args []string, out io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("synapsefake healthcheck", flag.ContinueOnError)
	fs.SetOutput(out)
	url := fs.String("url", "", "the readiness `URL` to ask (default $"+healthcheckURLEnv+", else http://ADDR/_fake/readyz)")
	addr := fs.String("addr", defaultHealthcheckAddr, "the fake's `address`, as its -addr: :8080 or [::]:8080 is asked on 127.0.0.1")
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for the answer")
	fs.Usage = func() {
		fmt.Fprintf(out, "Usage: synapsefake healthcheck [flags]\n\nExits 0 when the fake answers GET /_fake/readyz with 200 (it is ready: its -state\n"+
			"file is loaded), 1 otherwise: a container's HEALTHCHECK. See docs/standalone.md.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("healthcheck: unexpected arguments %q (flags only; see -h)", fs.Args())
	}
	addrSet := false
	fs.Visit(func(f *flag.Flag) { addrSet = addrSet || f.Name == "addr" })
	target := *url
	switch {
	case target != "":
	case !addrSet && getenv(healthcheckURLEnv) != "":
		target = getenv(healthcheckURLEnv)
	default:
		host, port, err := net.SplitHostPort(*addr)
		if err != nil {
			return fmt.Errorf("healthcheck: -addr %q: %v", *addr, err)
		}
		if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
			host = "127.0.0.1"
		}
		target = "http://" + net.JoinHostPort(host, port) + console.ControlPrefix + "readyz"
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %v", err)
	}
	// No proxy: the fake is beside the check, whatever the environment says.
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Do(req)
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) {
			err = ue.Unwrap()
		}
		return fmt.Errorf("healthcheck: %s: not answering: %v", target, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %d: %s", target, resp.StatusCode, strings.TrimSpace(string(body)))
	}
	fmt.Fprintf(out, "synapsefake healthcheck: %s answered 200: ready\n", target)
	return nil
}
