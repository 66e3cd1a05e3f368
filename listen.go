package synapsefake

import (
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

var loopback = net.IPv4(127, 0, 0, 1)

// listenPicks is how many ports listenLoopback tries before port 0.
const listenPicks = 8

// listenPicking is listenLoopback with the ports to try given by pick.
func listenPicking(pick func() int) (net.Listener, error) {
	for range listenPicks {
		// A TCPAddr, not "127.0.0.1:port": no address to parse and resolve.
		if l, err := net.ListenTCP("tcp4", &net.TCPAddr{IP: loopback, Port: pick()}); err == nil {
			return l, nil
		}
	}
	return net.Listen("tcp", "127.0.0.1:0")
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
