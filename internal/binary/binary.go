// Package binary builds the standalone fake (cmd/synapsefake) and runs
// servers as child processes on loopback, reading the banner they print:
// the part internal/loadgen and internal/soak share.
package binary

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Build builds cmd/synapsefake into a new temporary directory named after
// prefix, within 5 minutes, printing the compiler's output to stderr; flags
// go to go build before the package (e.g. -race). remove removes the
// directory; it is nil when err is not.
func Build(prefix string, flags ...string) (bin string, remove func(), err error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, err
	}
	bin = filepath.Join(dir, "synapsefake")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := append(append([]string{"build", "-o", bin}, flags...), "github.com/synapsefake/synapsefake/cmd/synapsefake")
	build := exec.CommandContext(ctx, "go", args...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("go build ./cmd/synapsefake: %w", err)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// FreeAddr is a loopback address with a free port.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Process is a started server.
type Process struct {
	Cmd     *exec.Cmd
	Base    string // http://ADDR
	Gateway string // the X-SP-GATEWAY line the fake printed before its ready line; "" if none
	exited  chan struct{}
}

// Exited is closed once the process has exited and all its output was read.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Kill kills the process unless it has exited.
func (p *Process) Kill() {
	select {
	case <-p.exited:
	default:
		_ = p.Cmd.Process.Kill()
	}
}

// Start starts cmd, which listens on addr, and waits up to 30 s until a
// line of its standard output starts with ready; its standard error goes to
// cmd.Stderr, or to ours when that is nil. Each line printed after that one is passed to rest (nil: read and
// discarded), from one goroutine, before Exited is closed.
func Start(cmd *exec.Cmd, addr, ready string, rest func(line string)) (*Process, error) {
	p := &Process{Cmd: cmd, Base: "http://" + addr, exited: make(chan struct{})}
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	found := make(chan bool, 1)
	go func() {
		// Wait closes the pipe: it comes after the last read.
		defer close(p.exited)
		defer func() { _ = cmd.Wait() }()
		lines := bufio.NewReader(stdout)
		ok := false
		for {
			line, err := lines.ReadString('\n')
			switch {
			case ok:
				if rest != nil && line != "" {
					rest(strings.TrimSuffix(line, "\n"))
				}
			case strings.HasPrefix(line, ready):
				ok = true
				found <- true
			default:
				if gw, isGW := strings.CutPrefix(strings.TrimSpace(line), "X-SP-GATEWAY: "); isGW {
					p.Gateway = gw
				}
			}
			if err != nil {
				if !ok {
					found <- false
				}
				return
			}
		}
	}()
	select {
	case ok := <-found:
		if ok {
			return p, nil
		}
	case <-time.After(30 * time.Second):
	}
	p.Kill()
	<-p.exited
	return nil, fmt.Errorf("%s did not print %q", cmd.Path, ready)
}

// ProcessCPU is the CPU time (user and system) process pid used so far,
// read from /proc/PID/stat in clock ticks of 10 ms; 0 when it cannot be
// read.
func ProcessCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// utime and stime are the 14th and 15th fields; the 2nd, the command,
	// is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// SelfCPU is the CPU time (user and system) this process used so far; 0
// when it cannot be read.
func SelfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
