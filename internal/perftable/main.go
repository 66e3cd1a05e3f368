// Command perftable regenerates the speed table of docs/performance.md
// from the paired benchmarks and the load generator:
//
//	go run ./internal/perftable                  # -count 6, 6 rounds of 2 s: several minutes
//	go run ./internal/perftable -print           # print the table, leave the document alone
//	go run ./internal/perftable -skip-loadgen    # the benchmarks only; the binary rows say so
//
// It runs
//
//	go test -run '^$' -bench '^Benchmark(NewServer|ReadmeTest)$/^paired$' -benchtime 200x -count 6 .
//	go test -run '^$' -bench '^Benchmark(CreateTransaction|Statement)$/^paired$' -count 6 . ./internal/bank
//
// (the first once fewer than 1,000 sockets are in TIME_WAIT, waiting up to
// 70 s: see listenerIterations) and reads the x metric (the ratio of the
// op's median time to its baseline's) of each run, then runs go run
// ./internal/loadgen -json for the
// binary rows (the ratio of req/s of each round). Each row of the table
// gives the median of its ratios and their range, and its target. A paired
// benchmark that the tree does not have (yet) is listed as not measured.
// The table is written between the lines <!-- perftable:begin --> and
// <!-- perftable:end --> of the document, which it rewrites in place.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/benchpair"
)

// row is one line of the table: a figure of issue 23, where it comes
// from and its target.
type row struct {
	figure   string
	source   string // a paired benchmark (Benchmark...) or a load generator row
	baseline string
	target   string
	better   func(x float64) bool // whether x meets the target
}

// rows are the table's lines, in order.
var rows = []row{
	{"binary create-transaction req/s, c=4", "loadgen create-c4", "a bare `net/http` server decoding the same body and answering the same bytes", ">= 0.85x", atLeast(0.85)},
	{"binary create-transaction req/s, c=32", "loadgen create-c32", "the same, c=32", ">= 0.85x", atLeast(0.85)},
	{"binary GET one node (user auth) req/s, c=4", "loadgen get-node-c4", "a bare GET answering the same bytes", ">= 0.9x", atLeast(0.9)},
	{"API req/s while a webhook backlog drains (3 clients, 3 subscriptions to a local receiver)", "loadgen webhooks-c3", "the same load on a fake without subscriptions", ">= 0.8x", atLeast(0.8)},
	{"in-process create-transaction round trip", "BenchmarkCreateTransaction/paired", "an httptest handler decoding the same body and writing the same answer", "<= 1.15x", atMost(1.15)},
	{"`NewServer` + `Close`, as a test uses it", "BenchmarkNewServer/paired", "`httptest.NewServer` + `t.Cleanup(ts.Close)`", "<= 1.1x", atMost(1.1)},
	{"the README's test", "BenchmarkReadmeTest/paired", "the same test over an httptest handler answering the fake's own captured JSON", "<= 1.1x", atMost(1.1)},
	{"statement PDF (10,000 movements)", "BenchmarkStatement/paired", "the same statement as CSV", "<= 1.2x", atMost(1.2)},
}

func atLeast(t float64) func(float64) bool { return func(x float64) bool { return x >= t } }
func atMost(t float64) func(float64) bool  { return func(x float64) bool { return x <= t } }

// Markers of the generated table in the document.
const (
	beginMark = "<!-- perftable:begin -->"
	endMark   = "<!-- perftable:end -->"
)

// benchRegexp selects the paired benchmarks of the table that open no
// listener per iteration; listenerRegexp those that open two, a server
// for the fake and one for its baseline.
const (
	benchRegexp    = "^Benchmark(CreateTransaction|Statement)$/^paired$"
	listenerRegexp = "^Benchmark(NewServer|ReadmeTest)$/^paired$"
)

// listenerIterations is each run of the listener benchmarks: few enough
// that the sockets they leave in TIME_WAIT (a few thousand a run) do not
// slow the kernel's choice of a port the baseline asks for. With tens of
// thousands, Linux's bind to port 0 takes milliseconds, which the fake's
// NewServer does not pay (it names its port) and httptest.NewServer does:
// the ratio then measures the machine's state, not the fake.
const listenerIterations = "200x"

// quietTimeWait is how few sockets in TIME_WAIT the listener benchmarks
// wait for (at most maxQuietWait) before they start.
const (
	quietTimeWait = 1000
	maxQuietWait  = 70 * time.Second
)

func main() {
	fs := flag.NewFlagSet("perftable", flag.ExitOnError)
	doc := fs.String("doc", "docs/performance.md", "the document whose table is rewritten")
	count := fs.Int("count", 6, "runs of each paired benchmark (go test -count)")
	rounds := fs.Int("rounds", 6, "rounds of each load generator row")
	round := fs.String("round", "2s", "length of each side of a load generator round")
	skipLoad := fs.Bool("skip-loadgen", false, "do not run the load generator; its rows say not measured")
	printOnly := fs.Bool("print", false, "print the table instead of rewriting the document")
	_ = fs.Parse(os.Args[1:])
	if fs.NArg() > 0 || *count < 1 || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "perftable: flags only; -count and -rounds at least 1")
		os.Exit(2)
	}
	ratios := map[string][]float64{}
	waitForQuietPorts()
	for _, cmd := range []*exec.Cmd{
		exec.Command("go", "test", "-run", "^$", "-bench", listenerRegexp, "-benchtime", listenerIterations, "-count", strconv.Itoa(*count), "."),
		// BenchmarkStatement is the bank's (internal/bank), BenchmarkCreateTransaction the root's.
		exec.Command("go", "test", "-run", "^$", "-bench", benchRegexp, "-count", strconv.Itoa(*count), ".", "./internal/bank"),
	} {
		fmt.Fprintln(os.Stderr, "perftable:", strings.Join(cmd.Args, " "))
		out, err := runTee(cmd)
		if err != nil {
			fmt.Fprintln(os.Stderr, "perftable: the benchmarks:", err)
			os.Exit(1)
		}
		maps(ratios, parseBench(out))
	}
	if !*skipLoad {
		cmd := exec.Command("go", "run", "./internal/loadgen", "-json", "-rounds", strconv.Itoa(*rounds), "-round", *round)
		fmt.Fprintln(os.Stderr, "perftable:", strings.Join(cmd.Args, " "))
		out, err := runTee(cmd)
		if err != nil {
			fmt.Fprintln(os.Stderr, "perftable: the load generator:", err)
			os.Exit(1)
		}
		got, err := parseLoadgen(out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "perftable:", err)
			os.Exit(1)
		}
		maps(ratios, got)
	}
	table := render(ratios, *count, *rounds)
	if *printOnly {
		fmt.Print(table)
		return
	}
	text, err := os.ReadFile(*doc)
	if err != nil {
		fmt.Fprintln(os.Stderr, "perftable:", err)
		os.Exit(1)
	}
	updated, err := replace(string(text), table)
	if err != nil {
		fmt.Fprintf(os.Stderr, "perftable: %s: %v\n", *doc, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*doc, []byte(updated), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "perftable:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "perftable: %s rewritten\n", *doc)
	fmt.Print(table)
}

// waitForQuietPorts waits, at most maxQuietWait, until fewer than
// quietTimeWait TCP sockets are in TIME_WAIT (each lasts 60 s on Linux),
// so that the listener benchmarks start on a machine whose ports are not
// crowded by an earlier run. Where /proc/net/sockstat cannot be read it
// does not wait.
func waitForQuietPorts() {
	deadline := time.Now().Add(maxQuietWait)
	for {
		data, err := os.ReadFile("/proc/net/sockstat")
		n, ok := timeWait(string(data))
		if err != nil || !ok || n < quietTimeWait || time.Now().After(deadline) {
			if ok && n >= quietTimeWait {
				fmt.Fprintf(os.Stderr, "perftable: still %d sockets in TIME_WAIT; the listener benchmarks may measure the kernel's port search\n", n)
			}
			return
		}
		fmt.Fprintf(os.Stderr, "perftable: %d sockets in TIME_WAIT; waiting for fewer than %d\n", n, quietTimeWait)
		time.Sleep(5 * time.Second)
	}
}

// timeWait reads the count of TCP sockets in TIME_WAIT from the text of
// /proc/net/sockstat ("TCP: inuse 5 orphan 0 tw 12 alloc 9 mem 1").
func timeWait(sockstat string) (int, bool) {
	for line := range strings.Lines(sockstat) {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "TCP:" {
			continue
		}
		for i := 1; i+1 < len(f); i += 2 {
			if f[i] == "tw" {
				n, err := strconv.Atoi(f[i+1])
				return n, err == nil
			}
		}
	}
	return 0, false
}

// runTee runs cmd, copying its output to stderr as it comes, and returns
// its standard output.
func runTee(cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(&out, os.Stderr)
	cmd.Stderr = os.Stderr
	err := cmd.Run()
	return out.Bytes(), err
}

func maps(dst, src map[string][]float64) {
	for k, v := range src {
		dst[k] = append(dst[k], v...)
	}
}

// benchLine is a result line of go test -bench: the name (without the
// -GOMAXPROCS suffix), the iterations, then value-unit pairs.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// parseBench reads the x metric of every result line, by benchmark name.
func parseBench(out []byte) map[string][]float64 {
	got := map[string][]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		fields := strings.Fields(m[2])
		for i := 0; i+1 < len(fields); i += 2 {
			if fields[i+1] == "x" {
				if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
					got[m[1]] = append(got[m[1]], v)
				}
			}
		}
	}
	return got
}

// parseLoadgen reads the rows loadgen -json printed: each row's ratio per
// round, keyed "loadgen ROW".
func parseLoadgen(out []byte) (map[string][]float64, error) {
	got := map[string][]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var r struct {
			Row    string    `json:"row"`
			Ratios []float64 `json:"ratios"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("loadgen printed %q: %w", line, err)
		}
		got["loadgen "+r.Row] = r.Ratios
	}
	if len(got) == 0 {
		return nil, errors.New("loadgen printed no row")
	}
	return got, nil
}

// render is the table in markdown, between its markers.
func render(ratios map[string][]float64, count, rounds int) string {
	var b strings.Builder
	b.WriteString(beginMark + "\n")
	b.WriteString("| Figure | Measured by | Baseline | Result: median (range) | Target | Met |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		source := "`" + r.source + "`"
		if name, ok := strings.CutPrefix(r.source, "loadgen "); ok {
			source = "`go run ./internal/loadgen`, row `" + name + "`"
		}
		result, met := "not measured", "—"
		if x := ratios[r.source]; len(x) > 0 {
			m := benchpair.MedianOf(x)
			runs := fmt.Sprintf("%d runs", len(x))
			if strings.HasPrefix(r.source, "loadgen ") {
				runs = fmt.Sprintf("%d rounds", len(x))
			}
			result = fmt.Sprintf("**%.2fx** (%.2fx-%.2fx, %s)", m, slices.Min(x), slices.Max(x), runs)
			met = "no"
			if r.better(m) {
				met = "yes"
			}
		} else if !strings.HasPrefix(r.source, "loadgen ") {
			result = "not measured: the benchmark is not in this tree"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", r.figure, source, r.baseline, result, r.target, met)
	}
	fmt.Fprintf(&b, "\nGenerated by `go run ./internal/perftable` (benchmarks `-count %d`, load generator %d rounds).\n", count, rounds)
	b.WriteString(endMark + "\n")
	return b.String()
}

// replace puts table in place of the lines from the begin marker to the
// end marker of text.
func replace(text, table string) (string, error) {
	i := strings.Index(text, beginMark)
	j := strings.Index(text, endMark)
	if i < 0 || j < i || strings.Count(text, beginMark) != 1 || strings.Count(text, endMark) != 1 {
		return "", fmt.Errorf("want one %s line and, after it, one %s line", beginMark, endMark)
	}
	end := j + len(endMark)
	if end < len(text) && text[end] == '\n' {
		end++
	}
	return text[:i] + table + text[end:], nil
}
