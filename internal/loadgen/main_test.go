package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/benchpair"
)

func TestDrive(t *testing.T) {
	var served atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1)%5 == 0 {
			w.WriteHeader(http.StatusConflict)
		}
	}))
	defer ts.Close()
	w := &world{base: ts.URL}
	send := func(ctx context.Context, client *http.Client) error {
		_, err := w.do(ctx, client, "GET", "/", nil, nil)
		return err
	}
	ok, failed, first := drive(ts.Client(), send, 3, 100*time.Millisecond)
	if ok == 0 || failed == 0 || first == nil || !strings.Contains(first.Error(), "409") {
		t.Errorf("drive: %d ok, %d failed, first %v; want some of each, the first a 409", ok, failed, first)
	}
	// Every answer is counted once, except those cut off by the end.
	if total := ok + failed; total > served.Load() || total < served.Load()-3 {
		t.Errorf("drive counted %d answers of %d served", total, served.Load())
	}
}

func TestRunRefusesUnknownRow(t *testing.T) {
	_, err := run(config{rows: "create-c4,nope", rounds: 1, round: time.Millisecond}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `unknown row "nope"`) {
		t.Errorf("run with an unknown row: %v", err)
	}
}

func TestBareHandler(t *testing.T) {
	answer := []byte(`{"_id":"x"}`)
	body := `{"to":{"type":"DEPOSIT-US","id":"n"},"amount":{"amount":0.01,"currency":"USD"},"extra":{"ip":"127.0.0.1"}}`
	for _, keep := range []bool{false, true} {
		h := bareHandler(answer, keep)
		for range 2 {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/v3.1/users/u/nodes/n/trans", strings.NewReader(body)))
			if rec.Code != http.StatusOK || rec.Body.String() != string(answer) {
				t.Fatalf("keep %v: %d %q, want 200 and the answer", keep, rec.Code, rec.Body)
			}
		}
		k, isKeeper := h.(*benchpair.Keeper)
		if isKeeper != keep || keep && k.Len() != 2 {
			t.Errorf("keep %v: handler %T, want a Keeper keeping both POSTs only with keep", keep, h)
		}
	}
}

func TestBaselineFake(t *testing.T) {
	cfg := config{fakeFlags: "-quiet", fakeEnv: "GOGC=off", versusFlags: "-clock manual", versusEnv: "GOMAXPROCS=1"}
	for _, tc := range []struct {
		name                        string
		versus                      string
		webhooks                    bool
		wantBin, wantFlags, wantEnv string
	}{
		{"webhooks row: the fake's own build, flags and environment", "", true, "fake", "-quiet", "GOGC=off"},
		{"webhooks row with -versus: still the fake's own", "/other", true, "fake", "-quiet", "GOGC=off"},
		{"-versus BINARY: that build with the -versus flags", "/other", false, "/other", "-clock manual", "GOMAXPROCS=1"},
		{"-versus same: the fake's build with the -versus flags", "same", false, "fake", "-clock manual", "GOMAXPROCS=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			c.versus = tc.versus
			bin, flags, env := baselineFake(c, "fake", tc.webhooks)
			if bin != tc.wantBin || flags != tc.wantFlags || env != tc.wantEnv {
				t.Errorf("baselineFake = %q, %q, %q; want %q, %q, %q", bin, flags, env, tc.wantBin, tc.wantFlags, tc.wantEnv)
			}
		})
	}
}

func TestStartFakeFlagsAndEnv(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	script := filepath.Join(dir, "fake.sh")
	// A stand-in for the fake: it writes what it was given, prints the line
	// loadgen waits for, and waits for loadgen to stop it.
	body := "#!/bin/sh\nprintf '%s|%s\\n' \"$LOADGEN_TEST_VAR\" \"$*\" > \"$LOADGEN_TEST_OUT\"\necho next:\nexec sleep 60\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LOADGEN_TEST_OUT", out)
	p, err := startFake(script, "", "-quiet  -clock manual", "LOADGEN_TEST_VAR=on GOGC=off")
	if err != nil {
		t.Fatal(err)
	}
	p.stop()
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	env, args, _ := strings.Cut(strings.TrimSpace(string(got)), "|")
	if env != "on" || !strings.HasPrefix(args, "-addr 127.0.0.1:") || !strings.HasSuffix(args, " -quiet -clock manual") {
		t.Errorf("the fake got %q, want LOADGEN_TEST_VAR=on and -addr 127.0.0.1:PORT -quiet -clock manual", got)
	}
}

func TestCheckEnv(t *testing.T) {
	for _, tc := range []struct {
		env     string
		wantErr bool
	}{
		{"", false},
		{"GOGC=off", false},
		{"GOGC=off  GOMAXPROCS=1", false},
		{"EMPTY=", false},
		{"GOGC", true},
		{"GOGC=off =1", true},
	} {
		if err := checkEnv(tc.env); (err != nil) != tc.wantErr || err != nil && !strings.Contains(err.Error(), "NAME=VALUE") {
			t.Errorf("checkEnv(%q) = %v, want an error naming NAME=VALUE: %v", tc.env, err, tc.wantErr)
		}
	}
}

func TestPickRows(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     config
		want    string // the rows' names, comma-separated
		wantErr string
	}{
		{"default: every row", config{}, "create-c4,create-c32,get-node-c4,webhooks-c3", ""},
		{"named rows in their order", config{rows: "get-node-c4, create-c4"}, "get-node-c4,create-c4", ""},
		{"unknown row", config{rows: "create-c4,nope"}, "", `unknown row "nope"`},
		{"-keeper-vs-bare, default: the create rows", config{keeperVsBare: true}, "create-c4,create-c32", ""},
		{"-keeper-vs-bare, a create row", config{keeperVsBare: true, rows: "create-c32"}, "create-c32", ""},
		{"-keeper-vs-bare, the GET row", config{keeperVsBare: true, rows: "create-c4,get-node-c4"}, "", "create rows only, not get-node-c4"},
		{"-keeper-vs-bare, the webhooks row", config{keeperVsBare: true, rows: "webhooks-c3"}, "", "create rows only, not webhooks-c3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := pickRows(tc.cfg)
			var names []string
			for _, r := range rows {
				names = append(names, r.name)
			}
			if got := strings.Join(names, ","); got != tc.want || (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("pickRows = %q, %v; want %q, an error containing %q", got, err, tc.want, tc.wantErr)
			}
		})
	}
	if len(allRows) != 4 {
		t.Errorf("allRows has %d rows; the cases above name 4", len(allRows))
	}
}

func TestCheckModes(t *testing.T) {
	for _, tc := range []struct {
		cfg     config
		wantErr bool
	}{
		{config{}, false},
		{config{keeperVsBare: true}, false},
		{config{bareKeeps: true}, false},
		{config{versus: "same"}, false},
		{config{keeperVsBare: true, bareKeeps: true}, true},
		{config{keeperVsBare: true, versus: "same"}, true},
	} {
		if err := checkModes(tc.cfg); (err != nil) != tc.wantErr {
			t.Errorf("checkModes(%+v) = %v, want an error: %v", tc.cfg, err, tc.wantErr)
		}
	}
}
