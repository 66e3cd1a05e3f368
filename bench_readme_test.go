package synapsefake_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/benchpair"
	"github.com/synapsefake/synapsefake/internal/rent"
)

// BenchmarkReadmeTest is the README's test (TestPayRent) as a test costs:
// "fake" is its body, the fake's server, seeding, the application's client
// and the fake's checks; "bare" is the same client code against an
// httptest server whose handler answers each request with the bytes the
// fake answered to it (captured once, by method and path, in order), with
// t.Cleanup(ts.Close) as a test writes it; "paired" runs one of each per
// iteration and reports their ratio. Each iteration is one test: its
// cleanups run when it ends. "phases" runs one of each per iteration too,
// timing each step, and reports each step's median in µs: where the fake's
// extra time per test goes.
func BenchmarkReadmeTest(b *testing.B) {
	t := &oneTest{TB: b}
	// fake is TestPayRent's body, word for word but for t, with step marks:
	// after NewServer, seeding, the call, the checks and the cleanups.
	fake := func(step func()) {
		fake := synapsefake.NewServer(t)
		step()
		user := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "device-1"})
		checking := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_00})
		landlord := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Landlord"})
		app := rent.Client{BaseURL: fake.URL(), ClientID: fake.ClientID(), ClientSecret: fake.ClientSecret(),
			UserKey: fake.OAuthKey(user.ID, "device-1"), Fingerprint: "device-1"}
		step()
		txID, err := app.PayRent(user.ID, checking.ID, landlord.ID, 25)
		if err != nil {
			t.Fatal(err)
		}
		step()
		fake.CheckBalance(t, checking.ID, 100_00, 75_00)
		fake.Advance(24 * time.Hour)
		fake.CheckStatus(t, txID, synapsefake.StatusSettled)
		fake.CheckBalance(t, checking.ID, 75_00, 75_00)
		step()
		t.end()
		step()
	}

	// The fake's answers, and what the test sent, captured from one run.
	var (
		answers                    = map[string][]capturedAnswer{}
		app                        rent.Client
		userID, checkingID, nodeID string
		wantTx                     string
	)
	{
		fake := synapsefake.NewServer(b)
		user := fake.MustAddUser(b, synapsefake.UserSeed{Fingerprint: "device-1"})
		checking := fake.MustAddNode(b, user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_00})
		landlord := fake.MustAddNode(b, user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Landlord"})
		capture := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			fake.ServeHTTP(rec, r)
			key := r.Method + " " + r.URL.Path
			answers[key] = append(answers[key], capturedAnswer{rec.Code, rec.Body.Bytes()})
			w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
		}))
		app = rent.Client{BaseURL: capture.URL + "/v3.1", ClientID: fake.ClientID(), ClientSecret: fake.ClientSecret(),
			UserKey: fake.OAuthKey(user.ID, "device-1"), Fingerprint: "device-1"}
		userID, checkingID, nodeID = user.ID, checking.ID, landlord.ID
		var err error
		if wantTx, err = app.PayRent(userID, checkingID, nodeID, 25); err != nil {
			b.Fatal(err)
		}
		capture.Close()
	}

	// bare marks its steps as fake does: after NewServer, the call and the
	// cleanups.
	bare := func(step func()) {
		sent := map[string]int{}
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := r.Method + " " + r.URL.Path
			list := answers[key]
			if sent[key] >= len(list) {
				http.Error(w, "no captured answer for "+key, http.StatusInternalServerError)
				return
			}
			a := list[sent[key]]
			sent[key]++
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(a.status)
			_, _ = w.Write(a.body)
		}))
		t.Cleanup(ts.Close)
		step()
		app := app
		app.BaseURL = ts.URL + "/v3.1"
		txID, err := app.PayRent(userID, checkingID, nodeID, 25)
		if err != nil || txID != wantTx {
			t.Fatalf("the bare test paid %q, %v; the fake's answer was %q", txID, err, wantTx)
		}
		step()
		t.end()
		step()
	}
	noSteps := func() {}
	b.Run("fake", func(b *testing.B) { benchLoop(b, func() { fake(noSteps) }) })
	b.Run("bare", func(b *testing.B) { benchLoop(b, func() { bare(noSteps) }) })
	b.Run("paired", func(b *testing.B) { benchPaired(b, func() { fake(noSteps) }, func() { bare(noSteps) }) })
	b.Run("phases", func(b *testing.B) {
		fakeSteps := stepTimes{names: []string{"fake-new", "fake-seed", "fake-call", "fake-checks", "fake-cleanup"}}
		bareSteps := stepTimes{names: []string{"bare-new", "bare-call", "bare-cleanup"}}
		for b.Loop() {
			fakeSteps.run(fake)
			bareSteps.run(bare)
		}
		fakeSteps.report(b)
		bareSteps.report(b)
	})
}

// stepTimes collects the time each step of a test takes, over many runs.
type stepTimes struct {
	names []string
	times [][]time.Duration // by step
}

// run runs test once, timing each step it marks.
func (s *stepTimes) run(test func(step func())) {
	if s.times == nil {
		s.times = make([][]time.Duration, len(s.names))
	}
	i, last := 0, time.Now()
	test(func() {
		now := time.Now()
		s.times[i] = append(s.times[i], now.Sub(last))
		i, last = i+1, now
	})
	if i != len(s.names) {
		panic(fmt.Sprintf("the test marked %d steps, want %d", i, len(s.names)))
	}
}

// report reports each step's median, in µs, as NAME-µs.
func (s *stepTimes) report(b *testing.B) {
	for i, name := range s.names {
		if len(s.times[i]) == 0 {
			return
		}
		us := make([]float64, len(s.times[i]))
		for j, d := range s.times[i] {
			us[j] = float64(d) / 1e3
		}
		b.ReportMetric(benchpair.MedianOf(us), name+"-µs")
	}
}

// capturedAnswer is a status and body the fake answered.
type capturedAnswer struct {
	status int
	body   []byte
}

// TestReadmeBenchmarkIsTheReadmeTest keeps BenchmarkReadmeTest's copy of
// TestPayRent's body the same as the test, comments aside: a benchmark of
// another test would measure something the README does not show.
func TestReadmeBenchmarkIsTheReadmeTest(t *testing.T) {
	test, err := os.ReadFile("readme_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	bench, err := os.ReadFile("bench_readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(string(test), "func TestPayRent(t *testing.T) {\n")
	body, _, ok2 := strings.Cut(body, "\n}\n")
	if !ok || !ok2 {
		t.Fatal("readme_example_test.go has no func TestPayRent(t *testing.T) { ... }")
	}
	benchLines := map[string]bool{}
	for line := range strings.Lines(string(bench)) {
		benchLines[strings.TrimSpace(line)] = true
	}
	for line := range strings.Lines(body) {
		code, _, _ := strings.Cut(line, "//")
		if code = strings.TrimSpace(code); code != "" && !benchLines[code] {
			t.Errorf("TestPayRent's line %q is not in BenchmarkReadmeTest's copy", code)
		}
	}
}
