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
		if !addr.IP.Equal(net.IPv4(127, 0, 0, 1)) || addr.Port < lo || addr.Port > hi {
			t.Errorf("listening on %v, want 127.0.0.1 and a port of %d-%d", addr, lo, hi)
		}
		if ports[addr.Port] {
			t.Errorf("port %d given twice while both listen", addr.Port)
		}
		ports[addr.Port] = true
	}
}

// TestListenPicking gives listenPicking its ports: the one it picks is the
// one it listens on, a busy one is passed over, and after listenPicks busy
// ones the kernel chooses.
func TestListenPicking(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port
	free := func() int { // a port that was free a moment ago
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().(*net.TCPAddr).Port
	}
	for _, tc := range []struct {
		name      string
		picks     func(free int) []int
		wantPort  func(free int) int // 0: any port but the busy one
		wantPicks int
	}{
		{"the first pick", func(free int) []int { return []int{free} }, func(free int) int { return free }, 1},
		{"a busy pick passed over", func(free int) []int { return []int{busyPort, busyPort, free} }, func(free int) int { return free }, 3},
		{"every pick busy: port 0", func(int) []int { return nil }, func(int) int { return 0 }, listenPicks},
	} {
		t.Run(tc.name, func(t *testing.T) {
			port := free()
			picks := tc.picks(port)
			n := 0
			l, err := listenPicking(func() int {
				n++
				if n <= len(picks) {
					return picks[n-1]
				}
				return busyPort
			})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			got := l.Addr().(*net.TCPAddr).Port
			if want := tc.wantPort(port); want != 0 && got != want || got == busyPort {
				t.Errorf("listening on port %d, want %d (busy: %d)", got, want, busyPort)
			}
			if n != tc.wantPicks {
				t.Errorf("%d ports picked, want %d", n, tc.wantPicks)
			}
		})
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
