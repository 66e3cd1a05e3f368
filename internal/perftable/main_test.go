package main

import (
	"slices"
	"strings"
	"testing"
)

func TestParseBench(t *testing.T) {
	out := `goos: linux
BenchmarkNewServer/paired-2         	   20000	     60000 ns/op	     30000 op-median-ns	     28000 baseline-median-ns	         1.071 x	    4000 B/op
BenchmarkNewServer/paired-2         	   20000	     60000 ns/op	         1.050 x
BenchmarkStatement/paired           	      75	  15703268 ns/op	   6835568 baseline-median-ns	   6999973 op-median-ns	         1.024 x
BenchmarkCreateTransaction/fake-2   	   10000	    100000 ns/op
--- FAIL: BenchmarkOther 1.5 x
PASS
`
	got := parseBench([]byte(out))
	want := map[string][]float64{"BenchmarkNewServer/paired": {1.071, 1.05}, "BenchmarkStatement/paired": {1.024}}
	if len(got) != len(want) {
		t.Fatalf("parseBench = %v, want %v", got, want)
	}
	for k, v := range want {
		if !slices.Equal(got[k], v) {
			t.Errorf("parseBench[%s] = %v, want %v", k, got[k], v)
		}
	}
}

func TestParseLoadgen(t *testing.T) {
	got, err := parseLoadgen([]byte("building...\n{\"row\":\"create-c4\",\"ratios\":[0.9,0.8]}\n{\"row\":\"get-node-c4\",\"ratios\":[1]}\n"))
	if err != nil || !slices.Equal(got["loadgen create-c4"], []float64{0.9, 0.8}) || !slices.Equal(got["loadgen get-node-c4"], []float64{1}) || len(got) != 2 {
		t.Errorf("parseLoadgen = %v, %v", got, err)
	}
	if _, err := parseLoadgen([]byte("nothing\n")); err == nil {
		t.Error("parseLoadgen of no row: no error")
	}
	if _, err := parseLoadgen([]byte("{not json\n")); err == nil {
		t.Error("parseLoadgen of a broken row: no error")
	}
}

func TestRender(t *testing.T) {
	table := render(map[string][]float64{
		"BenchmarkStatement/paired": {1.3, 1.1, 1.0, 1.2},
		"loadgen create-c4":         {0.9, 0.86, 0.7},
		"BenchmarkNewServer/paired": {1.2, 1.0, 1.3},
		"loadgen get-node-c4":       {0.89},
	}, 4, 3)
	for _, want := range []string{
		"| statement PDF (10,000 movements) | `BenchmarkStatement/paired` | the same statement as CSV | **1.15x** (1.00x-1.30x, 4 runs) | <= 1.2x | yes |",
		"| binary create-transaction req/s, c=4 | `go run ./internal/loadgen`, row `create-c4` | a bare `net/http` server decoding the same body and answering the same bytes | **0.86x** (0.70x-0.90x, 3 rounds) | >= 0.85x | yes |",
		"| binary create-transaction req/s, c=32 | `go run ./internal/loadgen`, row `create-c32` | the same, c=32 | not measured | >= 0.85x | — |",
		"| `NewServer` + `Close`, as a test uses it | `BenchmarkNewServer/paired` | `httptest.NewServer` + `t.Cleanup(ts.Close)` | **1.20x** (1.00x-1.30x, 3 runs) | <= 1.1x | no |",
		"| binary GET one node (user auth) req/s, c=4 | `go run ./internal/loadgen`, row `get-node-c4` | a bare GET answering the same bytes | **0.89x** (0.89x-0.89x, 1 rounds) | >= 0.9x | no |",
		"| the README's test | `BenchmarkReadmeTest/paired` | the same test over an httptest handler answering the fake's own captured JSON | not measured: the benchmark is not in this tree | <= 1.1x | — |",
	} {
		if !strings.Contains(table, want+"\n") {
			t.Errorf("the table has no line\n%s\nin\n%s", want, table)
		}
	}
	if !strings.HasPrefix(table, beginMark+"\n") || !strings.HasSuffix(table, endMark+"\n") {
		t.Errorf("the table is not between its markers:\n%s", table)
	}
}

func TestReplace(t *testing.T) {
	table := beginMark + "\nnew\n" + endMark + "\n"
	for _, tc := range []struct {
		name, text, want string
		wantErr          bool
	}{
		{"between", "a\n" + beginMark + "\nold\nold\n" + endMark + "\nb\n", "a\n" + table + "b\n", false},
		{"at the end", "a\n" + beginMark + "\n" + endMark, "a\n" + table, false},
		{"no markers", "a\nb\n", "", true},
		{"end first", endMark + "\n" + beginMark + "\n", "", true},
		{"two tables", beginMark + endMark + beginMark + endMark, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := replace(tc.text, table)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("replace = %q, %v; want %q (error: %v)", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestTimeWait(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"sockets: used 8\nTCP: inuse 1 orphan 0 tw 4003 alloc 1 mem 0\nUDP: inuse 0 mem 0\n", 4003, true},
		{"TCP: inuse 1 orphan 0 tw 0 alloc 1 mem 0", 0, true},
		{"TCP6: inuse 1\nTCP: tw 7", 7, true},
		{"TCP: inuse 1 orphan 0", 0, false},
		{"TCP: tw many", 0, false},
		{"", 0, false},
	} {
		if n, ok := timeWait(tc.in); n != tc.want || ok != tc.ok {
			t.Errorf("timeWait(%q) = %d, %v; want %d, %v", tc.in, n, ok, tc.want, tc.ok)
		}
	}
}
