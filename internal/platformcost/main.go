// Command platformcost measures what platforms cost the standalone fake
// (issue 37): it starts cmd/synapsefake, reads its resident memory idle,
// makes -n platforms at once over HTTP (POST /_fake/platforms, then each
// platform's GET /v3.1/users with its own gateway, and with -dashboard
// every page of its dashboard; issue 45), and reads the memory again, over
// -rounds rounds of a fresh process each:
//
//	go run ./internal/platformcost                # 200 platforms, 5 rounds
//	go run ./internal/platformcost -n 1000 -rounds 3
//	go run ./internal/platformcost -dashboard     # each platform's dashboard visited
//
// It prints each round and the medians: the time from the first POST to
// the last answer, and the growth of the process's resident set (VmRSS,
// Linux only) per platform. Without -binary it builds cmd/synapsefake into
// a temporary directory. The exit status is 1 when any answer was not 200.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	n := flag.Int("n", 200, "platforms made at once in each round")
	rounds := flag.Int("rounds", 5, "rounds, each with a fresh process")
	bin := flag.String("binary", "", "the synapsefake binary (default: build cmd/synapsefake)")
	dashboard := flag.Bool("dashboard", false, "visit every page of each platform's dashboard too")
	flag.Parse()
	if err := run(*bin, *n, *rounds, *dashboard, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "platformcost:", err)
		os.Exit(1)
	}
}

// round is one round's figures.
type round struct {
	took             time.Duration
	idleKiB, busyKiB int64
}

func (r round) perPlatformKiB(n int) float64 { return float64(r.busyKiB-r.idleKiB) / float64(n) }

func run(bin string, n, rounds int, dashboard bool, out io.Writer) error {
	if n < 1 || rounds < 1 {
		return errors.New("-n and -rounds must be at least 1")
	}
	if bin == "" {
		dir, err := os.MkdirTemp("", "platformcost")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "synapsefake")
		build := exec.Command("go", "build", "-o", bin, "./cmd/synapsefake")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go build ./cmd/synapsefake (run from the repository's root): %w", err)
		}
	}
	visited := ""
	if dashboard {
		visited = " and their dashboards visited"
	}
	var all []round
	for i := range rounds {
		r, err := measure(bin, n, dashboard)
		if err != nil {
			return fmt.Errorf("round %d: %w", i+1, err)
		}
		fmt.Fprintf(out, "round %d: %d platforms made at once%s, each answered 200, in %d ms; RSS %.1f MiB idle, %.1f MiB after (%.1f KiB a platform)\n",
			i+1, n, visited, r.took.Milliseconds(), float64(r.idleKiB)/1024, float64(r.busyKiB)/1024, r.perPlatformKiB(n))
		all = append(all, r)
	}
	took := median(all, func(r round) float64 { return float64(r.took.Milliseconds()) })
	kib := median(all, func(r round) float64 { return r.perPlatformKiB(n) })
	fmt.Fprintf(out, "median of %d rounds: %d platforms%s in %.0f ms, %.1f KiB of RSS a platform\n", rounds, n, visited, took, kib)
	return nil
}

func median(rs []round, f func(round) float64) float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// measure starts the binary, makes n platforms at once (visiting their
// dashboards when dashboard is set) and reads its memory before and after.
func measure(bin string, n int, dashboard bool) (round, error) {
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-quiet", "-clock", "manual", "-max-platforms", strconv.Itoa(n+1))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return round{}, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return round{}, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(stdout)
	var base string
	for lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "synapsefake serving "); ok {
			base = u
			break
		}
	}
	if base == "" {
		return round{}, errors.New("the fake printed no \"synapsefake serving\" line")
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	root := strings.TrimSuffix(base, "/v3.1")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	// One platform made and dropped first, its dashboard visited, so that
	// the idle figure holds what any platform's first request loads
	// (templates, routes), not just the process at rest.
	if err := makeAndAsk(client, root, "warm_up", true); err != nil {
		return round{}, err
	}
	if err := drop(client, root, "warm_up"); err != nil {
		return round{}, err
	}
	r := round{idleKiB: rssKiB(cmd.Process.Pid)}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() { errs <- makeAndAsk(client, root, fmt.Sprintf("client_%d", i), dashboard) })
	}
	wg.Wait()
	r.took = time.Since(start)
	close(errs)
	for err := range errs {
		if err != nil {
			return r, err
		}
	}
	r.busyKiB = rssKiB(cmd.Process.Pid)
	return r, nil
}

// dashboardPages are the pages of a platform's dashboard, below its ui/.
var dashboardPages = []string{"", "transactions", "webhooks", "subscriptions", "requests", "oauth"}

// makeAndAsk makes a platform and asks for its users with its gateway,
// then, when dashboard is set, for every page of its dashboard.
func makeAndAsk(c *http.Client, root, id string, dashboard bool) error {
	resp, err := c.Post(root+"/_fake/platforms", "application/json", strings.NewReader(`{"client_id":"`+id+`"}`))
	if err != nil {
		return err
	}
	var made struct {
		Platform struct {
			Gateway string `json:"gateway"`
			BaseURL string `json:"base_url"`
		} `json:"platform"`
	}
	err = json.NewDecoder(resp.Body).Decode(&made)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST /_fake/platforms %s: %d %v", id, resp.StatusCode, err)
	}
	req, err := http.NewRequest("GET", made.Platform.BaseURL+"/users", nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-SP-GATEWAY", made.Platform.Gateway)
	req.Header.Set("X-SP-USER", "|fp")
	req.Header.Set("X-SP-USER-IP", "127.0.0.1")
	resp, err = c.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /v3.1/users as %s: %d", id, resp.StatusCode)
	}
	for _, page := range dashboardPages {
		if !dashboard {
			break
		}
		resp, err := c.Get(root + "/_fake/platforms/" + id + "/ui/" + page)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s's dashboard page %q: %d", id, page, resp.StatusCode)
		}
	}
	return nil
}

func drop(c *http.Client, root, id string) error {
	req, err := http.NewRequest("DELETE", root+"/_fake/platforms/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("DELETE /_fake/platforms/%s: %d", id, resp.StatusCode)
	}
	return nil
}

// rssKiB is the process's VmRSS in KiB, 0 where /proc is not.
func rssKiB(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kib
		}
	}
	return 0
}
