package synapsefake

import (
	"context"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// listenLoopback opens NewServer's listener on 127.0.0.1 at a port it picks
// itself, at random in the system's ephemeral range, trying a few before it
// asks the kernel for one (port 0).
//
// Asking the kernel costs more the more sockets wait in TIME_WAIT on
// their servers' ports, which is how every test's server leaves its port
// when it closes: Linux's bind to port 0 then walks the busy ports one by
// one. Once some ten thousand servers had closed within a minute (as a
// large suite, or a benchmark, closes them) a bind took 1.2 to 2 ms on the
// 2-core machine of docs/performance.md, against about 20 µs for a port
// named outright, whatever the state (BenchmarkListen compares the two). A
// port in use (a listener, or a connection's own end) refuses the bind and
// the next is tried; a port where only TIME_WAIT sockets remain is free to
// listen on.
func listenLoopback() (net.Listener, error) {
	return listenPicking(func() int {
		lo, hi := ephemeralPorts()
		return lo + rand.IntN(hi-lo+1)
	})
}

// plainTCP is the ListenConfig of NewServer's listener: plain TCP, not the
// Multipath TCP that Go's listeners ask Linux for by default. No client
// of a test's fake dials Multipath TCP (Go's own Dialer does not by
// default), and a plain socket costs less to open and close: with it,
// BenchmarkListen/paired, whose baseline is a default listener on port 0,
// went from 0.97-0.99x to 0.71-0.73x, and a README test is about 3%
// cheaper (TestListenerIsPlainTCP). Nor does it turn on TCP keep-alive
// probes for each connection it accepts, four system calls that a
// loopback connection in a test has no use for.
var plainTCP = func() *net.ListenConfig {
	lc := net.ListenConfig{KeepAlive: -1}
	lc.SetMultipathTCP(false)
	return &lc
}()

// listenPicks is how many ports listenLoopback tries before port 0.
const listenPicks = 8

// listenPicking is listenLoopback with the ports to try given by pick.
func listenPicking(pick func() int) (net.Listener, error) {
	ctx := context.Background()
	for range listenPicks {
		if l, err := plainTCP.Listen(ctx, "tcp4", "127.0.0.1:"+strconv.Itoa(pick())); err == nil {
			return l, nil
		}
	}
	return plainTCP.Listen(ctx, "tcp4", "127.0.0.1:0")
}

// ephemeralPorts is the system's range of ports for local ends it picks
// (Linux's net.ipv4.ip_local_port_range), or Linux's default range where it
// cannot be read.
var ephemeralPorts = sync.OnceValues(func() (lo, hi int) {
	data, _ := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	return portRange(string(data))
})

// portRange reads ip_local_port_range's two numbers, or answers Linux's
// default range for anything else.
func portRange(s string) (lo, hi int) {
	f := strings.Fields(s)
	if len(f) == 2 {
		a, errA := strconv.Atoi(f[0])
		b, errB := strconv.Atoi(f[1])
		if errA == nil && errB == nil && a >= 1024 && a <= b && b <= 65535 {
			return a, b
		}
	}
	return 32768, 60999
}
