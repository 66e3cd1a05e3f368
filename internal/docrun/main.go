// Command docrun runs the shell blocks of the README and docs/ as scripts,
// each against a fresh standalone fake, so that the documentation runs as
// written:
//
//	go run ./internal/docrun            # every block of README.md and docs/*.md
//	go run ./internal/docrun -v docs/standalone.md
//
// From the repository's root, it builds cmd/synapsefake once, then runs
// every ```sh, ```bash and ```console block in order with bash (set -euo
// pipefail), in an empty directory of its own that links to the
// repository's top-level files and directories (so testdata/worlds/... and
// the like are there, and what a block writes is thrown away; what the root
// package embeds is copied, as go will not embed through a link), with:
//
//   - Ports. Each number 8080 to 8089 (127.0.0.1:8080, localhost:8080,
//     -addr :8080, a receiver's 8081) becomes a free loopback port of its
//     own for the block: 8080 is the fake's, the others are free for a
//     receiver.
//   - The server. The fresh binary comes first on PATH, and
//     `go run ./cmd/synapsefake` runs it. A command that starts it (anything
//     but -version, -h or the healthcheck subcommand) runs in the background with -addr 127.0.0.1:PORT
//     put first (the block's own -addr wins), its output in a log, and the
//     next command waits until it has printed its banner (at most 10 s),
//     whether or not the line ends with "&". A block that starts none but
//     names a port gets one started for it as `synapsefake -quiet` (the
//     binary's defaults: a real clock, seed 1). After the block, the fake
//     must still answer GET /_fake/clock; then the block's whole process
//     group is stopped with SIGTERM (SIGKILL after 5 s).
//   - Failures. A command that fails fails the block, and so does curl
//     answered 400 or more (sh and bash blocks run curl with
//     --fail-with-body). A ```console block is a session: "$ " lines are
//     commands, the lines after one are its output, compared exactly (an
//     error answer shown in a session is checked as output).
//   - Marks. A block right after `<!-- not run: REASON -->` is not run and
//     is reported as skipped with its reason. A reason saying ".ci/run runs
//     it" is checked: each command of the block starts a line of .ci/run.
//
// Each block has 60 s. It prints one line per block and ends with
// "N run, M not run, F failed"; the exit status is 0 only when none failed.
// The same parsing runs in `go test ./internal/docrun`, which fails when a
// shell block is neither runnable nor marked.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	verbose := flag.Bool("v", false, "print each block's output")
	timeout := flag.Duration("timeout", 60*time.Second, "the most a block may take")
	flag.Parse()
	code, err := run(flag.Args(), *verbose, *timeout, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docrun:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// documents are the files whose blocks run, the README and docs/*.md
// unless files are given.
func documents(root string, files []string) ([]string, error) {
	if len(files) > 0 {
		return files, nil
	}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	out := []string{"README.md"}
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		out = append(out, rel)
	}
	return out, nil
}

// load parses the documents and checks every block; problems stop the run.
func load(root string, files []string) ([]block, error) {
	var all []block
	var problems []string
	for _, f := range files {
		text, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		blocks, p := parse(f, string(text))
		problems = append(problems, p...)
		for _, b := range blocks {
			if !b.shell() {
				continue
			}
			if b.skip != "" {
				problems = append(problems, checkMark(b, root)...)
			} else {
				problems = append(problems, b.check()...)
			}
			all = append(all, b)
		}
	}
	if len(problems) > 0 {
		return nil, errors.New("the documents' shell blocks do not run as written:\n  " + strings.Join(problems, "\n  "))
	}
	return all, nil
}

func run(files []string, verbose bool, timeout time.Duration, out io.Writer) (int, error) {
	root, err := os.Getwd()
	if err != nil {
		return 2, err
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "synapsefake")); err != nil {
		return 2, fmt.Errorf("run it from the repository's root: %v", err)
	}
	files, err = documents(root, files)
	if err != nil {
		return 2, err
	}
	blocks, err := load(root, files)
	if err != nil {
		return 2, err
	}
	tmp, err := os.MkdirTemp("", "docrun")
	if err != nil {
		return 2, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "synapsefake"), "./cmd/synapsefake")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return 2, fmt.Errorf("go build ./cmd/synapsefake: %v", err)
	}
	var ran, skipped, failed int
	for i, b := range blocks {
		if b.skip != "" {
			skipped++
			fmt.Fprintf(out, "skip %s (%s): not run: %s\n", b, b.lang, b.skip)
			continue
		}
		start := time.Now()
		dir := filepath.Join(tmp, "block"+strconv.Itoa(i))
		output, err := runBlock(b, root, bin, dir, timeout)
		ran++
		took := time.Since(start).Round(10 * time.Millisecond)
		if err != nil {
			failed++
			fmt.Fprintf(out, "FAIL %s (%s) in %v: %v\n", b, b.lang, took, err)
			fmt.Fprintf(out, "--- its output:\n%s---\n", output)
			continue
		}
		fmt.Fprintf(out, "ok   %s (%s) in %v\n", b, b.lang, took)
		if verbose {
			fmt.Fprintf(out, "%s", output)
		}
	}
	fmt.Fprintf(out, "%d run, %d not run, %d failed\n", ran, skipped, failed)
	if failed > 0 {
		return 1, nil
	}
	return 0, nil
}

// documentedPort matches a documented port, 8080 to 8089.
var documentedPort = regexp.MustCompile(`\b808[0-9]\b`)

// serveLine matches a command that starts the fake; the runner drops a
// trailing "&", since it runs the fake in the background anyway.
var serveLine = regexp.MustCompile(`(?m)^(\s*(?:\$ )?(?:go run \./cmd/synapsefake|synapsefake)\b[^#\n]*?)\s*&(\s*(?:#.*)?)$`)

// infoFlag matches the flags with which the binary prints and exits, and
// the subcommands, which start no server.
var infoFlag = regexp.MustCompile(`(^|\s)--?(version|h|help)\b|^\s+healthcheck\b`)

// startsServer reports whether a script starts the fake itself.
func startsServer(script string) bool {
	for _, l := range strings.Split(script, "\n") {
		l = strings.TrimSpace(stripComment(l))
		args, ok := strings.CutPrefix(l, "go run ./cmd/synapsefake")
		if !ok {
			args, ok = strings.CutPrefix(l, "synapsefake")
		}
		if !ok || args != "" && args[0] != ' ' {
			continue
		}
		if !infoFlag.MatchString(args) {
			return true
		}
	}
	return false
}

// preamble defines the shell functions the blocks run with. DOCRUN_DIR is
// the block's directory, DOCRUN_PORT the port that stands for 8080.
const preamble = `set -euo pipefail
go() {
	if [[ $# -ge 2 && $1 == run && $2 == ./cmd/synapsefake ]]; then
		shift 2
		synapsefake "$@"
	else
		command go "$@"
	fi
}
synapsefake() {
	local a
	if [[ ${1:-} == healthcheck ]]; then command synapsefake "$@"; return; fi
	for a in "$@"; do
		case $a in -version | --version | -h | -help | --help) command synapsefake "$@"; return ;; esac
	done
	__docrun_servers=$((${__docrun_servers:-0} + 1))
	local log="$DOCRUN_DIR/server.$__docrun_servers.log"
	command synapsefake -addr "127.0.0.1:$DOCRUN_PORT" "$@" >"$log" 2>&1 &
	local pid=$! i
	for ((i = 0; i < 100; i++)); do
		if grep -qs '^synapsefake serving ' "$log"; then return 0; fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "docrun: synapsefake $* exited:" >&2
			cat "$log" >&2
			return 1
		fi
		sleep 0.1
	done
	echo "docrun: synapsefake $* printed no banner within 10 s:" >&2
	cat "$log" >&2
	return 1
}
`

// failingCurl makes curl fail on an HTTP answer of 400 or more in sh and
// bash blocks, unless the block asks for -f itself (curl refuses both).
const failingCurl = `curl() {
	local a
	for a in "$@"; do
		if [[ $a == --fail* || $a =~ ^-[a-zA-Z]*f[a-zA-Z]*$ ]]; then
			command curl "$@"
			return
		fi
	done
	command curl --fail-with-body "$@"
}
`

// runBlock runs one block in dir and answers its output.
func runBlock(b block, root, bin, dir string, timeout time.Duration) ([]byte, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := linkRoot(root, dir); err != nil {
		return nil, err
	}
	ports := map[string]string{}
	replace := func(s string) string {
		return documentedPort.ReplaceAllStringFunc(s, func(m string) string { return ports[m] })
	}
	wanted := documentedPort.FindAllString(b.body, -1)
	usesFake := slices.Contains(wanted, "8080")
	if !usesFake {
		wanted = append(wanted, "8080")
	}
	// Every listener stays open until all are chosen: a port closed at once
	// may be handed out again to the next placeholder.
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for _, m := range wanted {
		if ports[m] == "" {
			l, p, err := freePort()
			if err != nil {
				return nil, err
			}
			held = append(held, l)
			ports[m] = p
		}
	}
	for _, l := range held {
		l.Close()
	}
	held = nil
	b.body = serveLine.ReplaceAllString(replace(b.body), "$1$2")
	script, err := b.script()
	if err != nil {
		return nil, err
	}
	var src strings.Builder
	src.WriteString(preamble)
	serves := startsServer(script)
	needsServer := serves || usesFake
	if needsServer && !serves {
		src.WriteString("synapsefake -quiet\n")
	}
	var steps []step
	if b.lang == "console" {
		steps, _ = b.steps()
		for i, s := range steps {
			fmt.Fprintf(&src, "printf '\\n\\036%d\\n'\n%s\n", i, s.cmd)
		}
	} else {
		src.WriteString(failingCurl)
		fmt.Fprintf(&src, "trap 'echo \"docrun: %s line $((LINENO + %d)): $BASH_COMMAND exited $?\" >&2' ERR\n", b.file, b.line)
		fmt.Fprintf(&src, "source %q\n", filepath.Join(dir, "block.sh"))
		if err := os.WriteFile(filepath.Join(dir, "block.sh"), []byte(script), 0o644); err != nil {
			return nil, err
		}
	}
	scriptFile := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(scriptFile, []byte(src.String()), 0o644); err != nil {
		return nil, err
	}

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.Command("bash", "--noprofile", "--norc", scriptFile)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"DOCRUN_DIR="+dir, "DOCRUN_PORT="+ports["8080"])
	// A file, not a pipe: a receiver a block leaves in the background keeps
	// its descriptors, and Wait would wait for it to close them.
	outFile, err := os.Create(filepath.Join(dir, "output"))
	if err != nil {
		return nil, err
	}
	defer outFile.Close()
	cmd.Stdout, cmd.Stderr = outFile, outFile
	output := func() []byte {
		b, _ := os.ReadFile(outFile.Name())
		return b
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	pgid := cmd.Process.Pid
	defer stopGroup(pgid)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var runErr error
	select {
	case runErr = <-done:
	case <-ctx.Done():
		stopGroup(pgid)
		<-done
		return output(), fmt.Errorf("still running after %v", timeout)
	}
	if b.lang == "console" {
		raw := output()
		output = func() []byte { return transcript(steps, raw) }
		if err := compareSession(steps, raw); err != nil {
			return output(), err
		}
	}
	if runErr != nil {
		return output(), runErr
	}
	if needsServer {
		if err := stillServing(ports["8080"]); err != nil {
			return output(), err
		}
	}
	return output(), nil
}

// compareSession checks each command's output in a console block against
// the output shown under it.
func compareSession(steps []step, output []byte) error {
	parts := stepMarker.Split(string(output), -1)
	// parts[0] is what came before the first command; parts[i+1] is step i's.
	for i, s := range steps {
		if i+1 >= len(parts) {
			return fmt.Errorf("line %d: not reached: `%s`", s.line, s.cmd)
		}
		got := strings.TrimRight(parts[i+1], " \n")
		want := strings.TrimRight(s.want, " \n")
		if got != want {
			return fmt.Errorf("line %d: `%s` printed\n%s\nwhere the document shows\n%s", s.line, s.cmd, got, want)
		}
	}
	return nil
}

// stepMarker separates the outputs of a session's commands.
var stepMarker = regexp.MustCompile("\n\x1e([0-9]+)\n")

// transcript shows a session's output as a terminal would: each command
// after its "$ ", then what it printed.
func transcript(steps []step, raw []byte) []byte {
	return stepMarker.ReplaceAllFunc(raw, func(m []byte) []byte {
		i, _ := strconv.Atoi(string(m[2 : len(m)-1]))
		return []byte("\n$ " + steps[i].cmd + "\n")
	})
}

// stillServing checks that the fake on port answers GET /_fake/clock: a
// 200, or a 401 when it wants a control token.
func stillServing(port string) error {
	client := http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get("http://127.0.0.1:" + port + "/_fake/clock")
	if err != nil {
		return fmt.Errorf("after the block, the fake does not answer: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusUnauthorized {
		return fmt.Errorf("after the block, GET /_fake/clock answers %s", resp.Status)
	}
	return nil
}

// stopGroup stops a process group: SIGTERM, then SIGKILL after 5 s.
func stopGroup(pgid int) {
	if syscall.Kill(-pgid, syscall.SIGTERM) != nil {
		return
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !groupRunning(pgid) {
			return
		}
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
}

// groupRunning reports whether a process of group pgid still runs. A
// zombie does not: it holds no port or file, and one a block left in the
// background (its parent, bash, gone) waits for PID 1 to reap it, which
// some containers' PID 1 does only every second or so, while kill(-pgid,
// 0) still finds it. Where there is no /proc, any process of the group
// counts.
func groupRunning(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, p := range procs {
		if _, err := strconv.Atoi(p.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", p.Name(), "stat"))
		if err != nil {
			continue // gone since the listing
		}
		// "pid (comm) state ppid pgrp ...": comm may hold spaces and
		// parentheses, so the fields are counted from its last ')'.
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		if f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return false
}

// linkRoot links each top-level entry of the repository into dir, but
// copies what the root package embeds (its //go:embed patterns' first
// elements): go refuses to embed through a symbolic link, and a block may
// build or test the root package (go test . in docs/performance.md).
func linkRoot(root, dir string) error {
	embedded, err := embeddedRoots(root)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		src, dst := filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())
		if embedded[e.Name()] {
			err = os.CopyFS(dst, os.DirFS(src))
		} else {
			err = os.Symlink(src, dst)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// embeddedRoots is the set of top-level directories that the root
// package's non-test files embed.
func embeddedRoots(root string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(root, "*.go"))
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for line := range strings.Lines(string(data)) {
			patterns, ok := strings.CutPrefix(strings.TrimSpace(line), "//go:embed ")
			if !ok {
				continue
			}
			for _, p := range strings.Fields(patterns) {
				first, _, _ := strings.Cut(strings.TrimPrefix(p, "all:"), "/")
				if info, err := os.Stat(filepath.Join(root, first)); err == nil && info.IsDir() {
					out[first] = true
				}
			}
		}
	}
	return out, nil
}

// freePort listens on a free loopback port and returns the listener, for
// the caller to close when it has chosen all its ports, and the port.
func freePort() (net.Listener, string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	_, port, err := net.SplitHostPort(l.Addr().String())
	if err != nil {
		l.Close()
		return nil, "", err
	}
	return l, port, nil
}
