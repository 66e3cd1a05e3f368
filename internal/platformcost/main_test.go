package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// TestMain serves, when PLATFORMCOST_FAKE is set, what the binary serves
// (a Platforms, the banner first), so that TestRun measures a process of
// its own without building cmd/synapsefake: the test binary started again.
func TestMain(m *testing.M) {
	if os.Getenv("PLATFORMCOST_FAKE") == "" {
		os.Exit(m.Run())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	base := "http://" + ln.Addr().String() + "/v3.1"
	p := synapsefake.NewPlatforms(synapsefake.WithBaseURL(base))
	fmt.Println("synapsefake serving " + base)
	fmt.Println(http.Serve(ln, p))
	os.Exit(1)
}

// TestRun runs two small rounds against the test binary serving as the
// fake (TestMain), with and without -dashboard: each prints its line, and
// the medians follow.
func TestRun(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PLATFORMCOST_FAKE", "1")
	for _, tc := range []struct {
		dashboard bool
		visited   string
	}{{false, ""}, {true, " and their dashboards visited"}} {
		var out strings.Builder
		if err := run(bin, 5, 2, tc.dashboard, &out); err != nil {
			t.Fatalf("run: %v\n%s", err, out.String())
		}
		want := regexp.MustCompile(`^round 1: 5 platforms made at once` + tc.visited + `, each answered 200, in \d+ ms; RSS [\d.]+ MiB idle, [\d.]+ MiB after \(-?[\d.]+ KiB a platform\)
round 2: .*
median of 2 rounds: 5 platforms` + tc.visited + ` in \d+ ms, -?[\d.]+ KiB of RSS a platform
$`)
		if !want.MatchString(out.String()) {
			t.Errorf("dashboard %v: output:\n%s\nwant it to match %s", tc.dashboard, out.String(), want)
		}
	}
}

func TestRunRefusesBadCounts(t *testing.T) {
	for _, tc := range []struct{ n, rounds int }{{0, 1}, {1, 0}, {-1, 5}} {
		if err := run("unused", tc.n, tc.rounds, false, &strings.Builder{}); err == nil {
			t.Errorf("run(n=%d, rounds=%d): no error", tc.n, tc.rounds)
		}
	}
}

func TestMedian(t *testing.T) {
	ms := func(v ...int) []round {
		var rs []round
		for _, x := range v {
			rs = append(rs, round{idleKiB: 0, busyKiB: int64(x)})
		}
		return rs
	}
	kib := func(r round) float64 { return float64(r.busyKiB) }
	for _, tc := range []struct {
		in   []round
		want float64
	}{{ms(5), 5}, {ms(3, 1, 2), 2}, {ms(4, 1, 3, 2), 2.5}} {
		if got := median(tc.in, kib); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
