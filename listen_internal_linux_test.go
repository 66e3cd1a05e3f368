package synapsefake

import (
	"net"
	"syscall"
	"testing"
)

// TestListenerIsPlainTCP: NewServer's listener is a plain TCP socket
// (SO_PROTOCOL IPPROTO_TCP), not the Multipath TCP socket a Go listener
// opens by default on Linux, which costs more to open and close.
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
			var proto int
			var serr error
			if err := raw.Control(func(fd uintptr) {
				proto, serr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_PROTOCOL)
			}); err != nil || serr != nil {
				t.Fatal(err, serr)
			}
			if proto != syscall.IPPROTO_TCP {
				t.Errorf("the listener's protocol is %d, want IPPROTO_TCP (%d)", proto, syscall.IPPROTO_TCP)
			}
		})
	}
}
