package main

import (
	"fmt"
	"io"
	"net"
	"os"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// clientEnv names the client that started the binary ("python/1.2.3",
// "node/1.2.3", "ruby"), as the control clients' X-Synapsefake-Client header names
// them: the start-up lines then suggest that client's calls.
const clientEnv = "SYNAPSEFAKE_CLIENT"

// printManualClock prints the start-up line that moves a manual clock:
// the control route with curl, or the call of the client clientEnv names.
func printManualClock(out io.Writer, host string) {
	switch caller := bank.ParseCaller(os.Getenv(clientEnv)); caller {
	case bank.CallerHTTP:
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
