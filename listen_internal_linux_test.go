package synapsefake

import (
	"net"
	"syscall"
	"testing"
)

// TestListenerIsPlainTCP: NewServer's listener is a plain TCP socket
// (SO_PROTOCOL IPPROTO_TCP), not the Multipath TCP socket a Go listener
// opens by default on Linux, which costs more to open and close, and the
// connections it accepts have no keep-alive probes (SO_KEEPALIVE 0).
func TestListenerIsPlainTCP(t *testing.T) {
	for _, tc := range []struct {
		name string
		pick func() int
	}{
		{"a picked port", func() int { return 0 }},
		{"port 0 after the picks", func() int { return -1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := listenPicking(tc.pick)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			raw, err := l.(*net.TCPListener).SyscallConn()
			if err != nil {
				t.Fatal(err)
			}
			if proto := sockopt(t, raw, syscall.SO_PROTOCOL); proto != syscall.IPPROTO_TCP {
				t.Errorf("the listener's protocol is %d, want IPPROTO_TCP (%d)", proto, syscall.IPPROTO_TCP)
			}
			c, err := net.Dial("tcp", l.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			accepted, err := l.Accept()
			if err != nil {
				t.Fatal(err)
			}
			defer accepted.Close()
			raw, err = accepted.(*net.TCPConn).SyscallConn()
			if err != nil {
				t.Fatal(err)
			}
			if ka := sockopt(t, raw, syscall.SO_KEEPALIVE); ka != 0 {
				t.Errorf("an accepted connection's SO_KEEPALIVE is %d, want 0", ka)
			}
		})
	}
}

// sockopt is the SOL_SOCKET option opt of raw's socket.
func sockopt(t *testing.T, raw syscall.RawConn, opt int) int {
	t.Helper()
	var v int
	var serr error
	if err := raw.Control(func(fd uintptr) { v, serr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, opt) }); err != nil || serr != nil {
		t.Fatal(err, serr)
	}
	return v
}
