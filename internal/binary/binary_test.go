package binary

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestStart(t *testing.T) {
	for _, tc := range []struct {
		name, script, wantGateway, wantRest, wantErr string
	}{
		{"banner", `echo "  X-SP-GATEWAY: id|secret"; echo "next: go"; echo one; echo two`, "id|secret", "one\ntwo\n", ""},
		{"no gateway", `echo "next: go"; echo one`, "", "one\n", ""},
		{"gateway after ready", `echo "next: go"; echo "X-SP-GATEWAY: late"`, "", "X-SP-GATEWAY: late\n", ""},
		{"never ready", `echo "X-SP-GATEWAY: g"; echo "not yet"`, "", "", `did not print "next:"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rest strings.Builder
			p, err := Start(exec.Command("sh", "-c", tc.script), "127.0.0.1:1", "next:", func(line string) { rest.WriteString(line + "\n") })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Start: %v, want an error with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			<-p.Exited()
			if p.Gateway != tc.wantGateway || rest.String() != tc.wantRest || p.Base != "http://127.0.0.1:1" {
				t.Errorf("gateway %q, rest %q, base %q; want %q, %q", p.Gateway, rest.String(), p.Base, tc.wantGateway, tc.wantRest)
			}
		})
	}
}

func TestStartKeepsStderr(t *testing.T) {
	var stderr strings.Builder
	cmd := exec.Command("sh", "-c", `echo "next: go"; echo oops >&2`)
	cmd.Stderr = &stderr
	p, err := Start(cmd, "127.0.0.1:1", "next:", nil)
	if err != nil {
		t.Fatal(err)
	}
	<-p.Exited()
	if stderr.String() != "oops\n" {
		t.Errorf("cmd.Stderr got %q, want %q", stderr.String(), "oops\n")
	}
}

func TestSelfCPU(t *testing.T) {
	before := SelfCPU()
	if before <= 0 {
		t.Fatalf("SelfCPU() = %v before any work, want the CPU time used so far", before)
	}
	for start := time.Now(); time.Since(start) < 30*time.Millisecond; {
	}
	if after := SelfCPU(); after <= before {
		t.Errorf("SelfCPU() = %v after 30 ms of work, %v before", after, before)
	}
}

func TestProcessCPU(t *testing.T) {
	if got := ProcessCPU(os.Getpid()); got <= 0 {
		t.Errorf("ProcessCPU(own pid) = %v, want the CPU time used so far", got)
	}
	if got := ProcessCPU(-1); got != 0 {
		t.Errorf("ProcessCPU(-1) = %v, want 0 (no such process)", got)
	}
}
