package main

import (
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"slices"
	"strings"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/phrase"
)

// clientEnv names the client that started the binary ("python/1.2.3",
// "node/1.2.3", "ruby"), as the control clients' X-Synapsefake-Client header names
// them: the start-up lines then suggest that client's calls.
const clientEnv = "SYNAPSEFAKE_CLIENT"

// banner prints the start-up lines: where the fake serves, what a client
// needs, what the start made and what to try next.
func (s *server) banner(st started) {
	addr := s.l.Addr().String()
	// The first line is read by scripts (compat/fake.sh): keep it first and
	// as it is.
	fmt.Fprintf(s.out, "synapsefake serving %s\n", s.base)
	printAccess(s.out, addr, s.fake)
	if st.restored {
		fmt.Fprintf(s.out, "  state restored from %s\n", s.c.stateFile)
	} else {
		fmt.Fprintf(s.out, "  seeded user %s (fingerprint demo-fingerprint, refresh_token %s)\n", st.user.ID, st.user.RefreshToken)
		if st.world != nil {
			printWorld(s.out, s.c.world, *st.world)
		}
	}
	fmt.Fprintln(s.out, "next: point your client at the base URL with the client id and secret above, or try")
	fmt.Fprintf(s.out, "  curl http://%s/v3.1/loans-limits\n", reachable(addr))
	if s.c.manualClock {
		printManualClock(s.out, reachable(addr))
	} else {
		fmt.Fprintf(s.out, "  curl http://%s/_fake/users   # control API: docs/control-api.md; the clock follows real time: -clock manual to move it yourself\n", reachable(addr))
	}
	if s.c.controlToken != "" {
		fmt.Fprintf(s.out, "  the control API needs -control-token: send X-Fake-Control-Token, or open http://%s/_fake/ui/?token=... once\n", addr)
	}
	if host, _, _ := net.SplitHostPort(addr); !net.ParseIP(host).IsLoopback() {
		names := []string{"localhost", "127.0.0.0/8", "[::1]"}
		if !net.ParseIP(host).IsUnspecified() {
			names = append(names, host)
		}
		fmt.Fprintf(s.out, "  the control API and the dashboard answer only Host %s (-allow-host adds names)\n",
			strings.Join(append(names, s.c.allowHosts...), ", "))
	}
}

// printWorld prints what the world file made, with the ids of the first
// users.
func printWorld(out io.Writer, file string, w synapsefake.World) {
	fmt.Fprintf(out, "  world %s: %d users, %d nodes, %d subnets, %d named transactions, %d subscriptions\n", file,
		len(w.Users), len(w.Nodes), len(w.Subnets), len(w.Transactions), len(w.Subscriptions))
	names := slices.Sorted(maps.Keys(w.Users))
	for i, name := range names {
		if i == 10 {
			fmt.Fprintf(out, "    ... and %d more users\n", len(names)-i)
			break
		}
		line := "    user " + name + ": " + w.Users[name]
		if key := w.OAuthKeys[name]; key != "" {
			line += " (X-SP-USER: " + key + "|" + w.Fingerprints[name] + ")"
		}
		fmt.Fprintln(out, line)
	}
}

// printManualClock prints the start-up line that moves a manual clock:
// the control route with curl, or the call of the client clientEnv names.
func printManualClock(out io.Writer, host string) {
	switch caller := phrase.ParseCaller(os.Getenv(clientEnv)); caller {
	case phrase.CallerHTTP:
		fmt.Fprintf(out, "  curl -X POST http://%s/_fake/clock/advance -d '{\"duration\":\"24h\"}'   # control API: docs/control-api.md\n", host)
	default:
		fmt.Fprintf(out, "  %s   # moves a platform's clock in a test; every control call: docs/control-api.md\n", caller.Phrase("Advance(24h)"))
	}
}

// printAccess prints what a client needs, after the "synapsefake serving"
// line: the base URL for the SDKs, the client id and the client secret
// apart (the SDKs take two values; the X-SP-GATEWAY header joins them) and
// the dashboard's address.
func printAccess(out io.Writer, addr string, fake *synapsefake.Server) {
	host := reachable(addr)
	fmt.Fprintf(out, "  base URL for the SDKs: http://%s/v3.1\n", host)
	fmt.Fprintf(out, "  client id: %s\n", fake.ClientID())
	fmt.Fprintf(out, "  client secret: %s\n", fake.ClientSecret())
	fmt.Fprintf(out, "  X-SP-GATEWAY: %s\n", fake.Gateway())
	fmt.Fprintf(out, "  dashboard: http://%s/_fake/ui/\n", host)
}

// reachable is the listener's address addr with an unspecified host
// (-addr :8080, 0.0.0.0:8080, [::]:8080) replaced by localhost: a browser
// or client on the same machine reaches that, and the control API answers
// it. In a container, the host's published port may differ.
func reachable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
