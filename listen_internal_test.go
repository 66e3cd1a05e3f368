package synapsefake

import (
	"net"
	"testing"

	"github.com/synapsefake/synapsefake/internal/benchpair"
)

func TestPortRange(t *testing.T) {
	for _, tc := range []struct {
		in     string
		lo, hi int
	}{
		{"32768\t60999\n", 32768, 60999},
		{"1024 65535", 1024, 65535},
		{"40000 40000", 40000, 40000},
		{"", 32768, 60999},
		{"80 9000", 32768, 60999},     // below the privileged ports' end
		{"50000 40000", 32768, 60999}, // backwards
		{"40000 70000", 32768, 60999}, // past the last port
		{"a b", 32768, 60999},
		{"40000", 32768, 60999},
	} {
		if lo, hi := portRange(tc.in); lo != tc.lo || hi != tc.hi {
			t.Errorf("portRange(%q) = %d, %d; want %d, %d", tc.in, lo, hi, tc.lo, tc.hi)
		}
	}
}

func TestListenLoopback(t *testing.T) {
	lo, hi := ephemeralPorts()
	ports := map[int]bool{}
	for range 20 {
		l, err := listenLoopback()
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		addr := l.Addr().(*net.TCPAddr)
		if !addr.IP.Equal(net.IPv4(127, 0, 0, 1)) {
			t.Errorf("listening on %v, want 127.0.0.1", addr)
		}
		if ports[addr.Port] {
			t.Errorf("port %d given twice while both listen", addr.Port)
		}
		ports[addr.Port] = true
		if addr.Port < lo || addr.Port > hi {
			t.Logf("port %d outside %d-%d: the kernel's (every random pick was busy)", addr.Port, lo, hi)
		}
	}
}

// BenchmarkListen is NewServer's listener ("fake": a port of the ephemeral
// range named outright) against the kernel's choice ("port0": what
// httptest.NewServer asks for), opened and closed; "paired" reports their
// ratio. The kernel's choice slows as the machine gathers sockets in
// TIME_WAIT on servers' ports, as a test suite does: run it after the
// root package's other benchmarks to see the difference.
func BenchmarkListen(b *testing.B) {
	open := func(listen func() (net.Listener, error)) func() {
		return func() {
			l, err := listen()
			if err != nil {
				b.Fatal(err)
			}
			l.Close()
		}
	}
	fake := open(listenLoopback)
	port0 := open(func() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") })
	b.Run("fake", func(b *testing.B) {
		for b.Loop() {
			fake()
		}
	})
	b.Run("port0", func(b *testing.B) {
		for b.Loop() {
			port0()
		}
	})
	b.Run("paired", func(b *testing.B) { benchpair.Run(b, fake, port0) })
}
