package main

import (
	"os/exec"
	"syscall"
	"testing"
	"unsafe"
)

// TestGroupRunning: a process group whose one process is a zombie no
// longer runs, though kill(-pgid, 0) still finds it; one with a live
// process does.
func TestGroupRunning(t *testing.T) {
	start := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(name, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	live := start("sleep", "30")
	defer func() {
		live.Process.Kill()
		live.Wait()
	}()
	if !groupRunning(live.Process.Pid) {
		t.Errorf("groupRunning(%d) = false for a sleeping process's group", live.Process.Pid)
	}

	done := start("true")
	defer done.Wait()
	waitExitedNotReaped(t, done.Process.Pid)
	if err := syscall.Kill(-done.Process.Pid, 0); err != nil {
		t.Fatalf("kill(-pgid, 0) of a zombie's group: %v, want it found", err)
	}
	if groupRunning(done.Process.Pid) {
		t.Errorf("groupRunning(%d) = true for a group whose one process is a zombie", done.Process.Pid)
	}
}

// waitExitedNotReaped blocks until child pid has exited and leaves it a
// zombie: waitid(P_PID, pid, WEXITED|WNOWAIT).
func waitExitedNotReaped(t *testing.T, pid int) {
	const pPID = 1
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])),
			syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		switch errno {
		case 0:
			return
		case syscall.EINTR:
			continue
		}
		t.Fatalf("waitid(%d): %v", pid, errno)
	}
}
