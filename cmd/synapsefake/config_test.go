package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/synapsefake/synapsefake"
)

// defaultConfig is the config of no flags.
var defaultConfig = config{
	addr:            "127.0.0.1:8080",
	seed:            1,
	journalEntries:  10_000,
	journalBytes:    8 << 20,
	captureBytes:    synapsefake.DefaultWebhookCaptureLimit,
	webhookLogBytes: synapsefake.DefaultWebhookLogLimit,
	webhookRate:     synapsefake.DefaultWebhookRate,
	stateInterval:   30 * time.Second,
	maxStateSize:    synapsefake.DefaultMaxStateSize,
	jitDeadline:     synapsefake.DefaultJITDeadline,
	maxPlatforms:    synapsefake.DefaultMaxPlatforms,
}

// TestParseConfig parses each flag, its bad values and the flags that go
// together: each gives its config, or its error, word for word.
func TestParseConfig(t *testing.T) {
	t.Parallel()
	with := func(f func(*config)) config {
		c := defaultConfig
		f(&c)
		return c
	}
	for _, tc := range []struct {
		name    string
		args    []string
		want    config
		wantErr string
	}{
		{"no flags", nil, defaultConfig, ""},
		{"-addr", []string{"-addr", ":9090"}, with(func(c *config) { c.addr = ":9090" }), ""},
		{"-seed", []string{"-seed", "7"}, with(func(c *config) { c.seed = 7 }), ""},
		{"-seed not a number", []string{"-seed", "x"}, config{}, `invalid value "x" for flag -seed: parse error`},
		{"-seed negative", []string{"-seed", "-1"}, config{}, `invalid value "-1" for flag -seed: parse error`},
		{"-clock real", []string{"-clock", "real"}, defaultConfig, ""},
		{"-clock manual", []string{"-clock", "manual"}, with(func(c *config) { c.manualClock = true }), ""},
		{"-clock unknown", []string{"-clock", "bogus"}, config{}, `-clock must be real or manual, not "bogus"`},
		{"-start an instant", []string{"-start", "2026-11-25T17:00:00-05:00"}, with(func(c *config) { c.start = time.Date(2026, 11, 25, 22, 0, 0, 0, time.UTC) }), ""},
		{"-start with milliseconds", []string{"-clock", "manual", "-start", "2027-01-04T08:30:00.250Z"}, with(func(c *config) {
			c.manualClock, c.start = true, time.Date(2027, 1, 4, 8, 30, 0, 250e6, time.UTC)
		}), ""},
		{"-start default", []string{"-start", "default"}, with(func(c *config) { c.start = synapsefake.DefaultStartTime() }), ""},
		{"-start not RFC 3339", []string{"-start", "2026-04-14 10:00"}, config{}, `-start must be an RFC 3339 instant such as 2026-04-14T10:00:00-04:00, or default, not "2026-04-14 10:00"`},
		{"-start without a zone", []string{"-start", "2026-04-14T10:00:00"}, config{}, `-start must be an RFC 3339 instant such as 2026-04-14T10:00:00-04:00, or default, not "2026-04-14T10:00:00"`},
		{"-start before 1970", []string{"-start", "1965-03-01T12:00:00Z"}, config{}, "-start 1965-03-01T12:00:00Z: synapsefake: start time 1965-03-01T12:00:00Z is not from 1970-01-01 to 9899-12-31 UTC"},
		{"-start in the year 9950", []string{"-start", "9950-03-01T12:00:00Z"}, config{}, "-start 9950-03-01T12:00:00Z: synapsefake: start time 9950-03-01T12:00:00Z is not from 1970-01-01 to 9899-12-31 UTC"},
		{"-start checked before -clock", []string{"-clock", "bogus", "-start", "soon"}, config{}, `-start must be an RFC 3339 instant such as 2026-04-14T10:00:00-04:00, or default, not "soon"`},
		{"-client-id and -client-secret", []string{"-client-id", "my-id", "-client-secret", "my-secret"}, with(func(c *config) { c.clientID, c.clientSecret = "my-id", "my-secret" }), ""},
		{"-client-id alone", []string{"-client-id", "my-id"}, config{}, "-client-id and -client-secret go together"},
		{"-client-secret alone", []string{"-client-secret", "my-secret"}, config{}, "-client-id and -client-secret go together"},
		{"-client-id ..", []string{"-client-id", "..", "-client-secret", "s"}, config{}, `-client-id must be at most 64 letters, digits, '_', '-' and '.', and not . or .., not ".."`},
		{"-client-id with a |", []string{"-client-id", "a|b", "-client-secret", "s"}, config{}, `-client-id must be at most 64 letters, digits, '_', '-' and '.', and not . or .., not "a|b"`},
		{"-client-secret with a space", []string{"-client-id", "id", "-client-secret", "a b"}, config{}, "-client-secret must be at most 128 printable characters, without spaces or '|'"},
		{"-webhooks deliver", []string{"-webhooks", "deliver"}, defaultConfig, ""},
		{"-webhooks capture", []string{"-webhooks", "capture"}, with(func(c *config) { c.captureWebhooks = true }), ""},
		{"-webhooks unknown", []string{"-webhooks", "drop"}, config{}, `-webhooks must be deliver or capture, not "drop"`},
		{"-quiet", []string{"-quiet"}, with(func(c *config) { c.quiet = true }), ""},
		{"-quiet not a boolean", []string{"-quiet=maybe"}, config{}, `invalid boolean value "maybe" for -quiet: parse error`},
		{"-micro-deposits", []string{"-micro-deposits"}, with(func(c *config) { c.microDeposits = true }), ""},
		{"-immediate-provisional-credit", []string{"-immediate-provisional-credit"}, with(func(c *config) { c.immediateCredit = true }), ""},
		{"-funds-check", []string{"-funds-check"}, with(func(c *config) { c.fundsCheck = true }), ""},
		{"-kyc-review a duration", []string{"-kyc-review", "24h"}, with(func(c *config) { c.kycReview = 24 * time.Hour }), ""},
		{"-kyc-review 0s", []string{"-kyc-review", "0s"}, defaultConfig, ""},
		{"-kyc-review manual", []string{"-kyc-review", "manual"}, with(func(c *config) { c.manualKYCReview = true }), ""},
		{"-kyc-review not a duration", []string{"-kyc-review", "soon"}, config{}, `-kyc-review "soon": want a duration of 0s or more (20s, 24h) or manual`},
		{"-kyc-review negative", []string{"-kyc-review", "-1s"}, config{}, `-kyc-review "-1s": want a duration of 0s or more (20s, 24h) or manual`},
		{"-journal-entries", []string{"-journal-entries", "-1"}, with(func(c *config) { c.journalEntries = -1 }), ""},
		{"-journal-entries not a number", []string{"-journal-entries", "many"}, config{}, `invalid value "many" for flag -journal-entries: parse error`},
		{"-journal-bytes", []string{"-journal-bytes", "0"}, with(func(c *config) { c.journalBytes = 0 }), ""},
		{"-webhook-capture-bytes", []string{"-webhook-capture-bytes", "1"}, with(func(c *config) { c.captureBytes = 1 }), ""},
		{"-webhook-log-bytes", []string{"-webhook-log-bytes", "-1"}, with(func(c *config) { c.webhookLogBytes = -1 }), ""},
		{"-webhook-rate", []string{"-webhook-rate", "0"}, with(func(c *config) { c.webhookRate = 0 }), ""},
		{"-webhook-rate not a number", []string{"-webhook-rate", "fast"}, config{}, `invalid value "fast" for flag -webhook-rate: parse error`},
		{"-world", []string{"-world", "world.json"}, with(func(c *config) { c.world = "world.json" }), ""},
		{"-state", []string{"-state", "state.json"}, with(func(c *config) { c.stateFile = "state.json" }), ""},
		{"-state-interval", []string{"-state-interval", "0"}, with(func(c *config) { c.stateInterval = 0 }), ""},
		{"-state-interval not a duration", []string{"-state-interval", "often"}, config{}, `invalid value "often" for flag -state-interval: parse error`},
		{"-max-state-size", []string{"-max-state-size", "1000"}, with(func(c *config) { c.maxStateSize = 1000 }), ""},
		{"-webhook-chaos", []string{"-webhook-chaos", `{"seed":7,"default":{"duplicate":0.5,"delay_by":"90s"}}`}, with(func(c *config) {
			c.chaos = &synapsefake.WebhookChaos{Seed: 7, Default: synapsefake.ChaosSettings{Duplicate: 0.5, DelayBy: 90 * time.Second}}
		}), ""},
		{"-webhook-chaos not JSON", []string{"-webhook-chaos", "duplicate=0.5"}, config{}, "-webhook-chaos: synapsefake: invalid_json (error_code 200, http 400): Request body must be a JSON object."},
		{"-webhook-chaos an unknown setting", []string{"-webhook-chaos", `{"default":{"dupe":0.5}}`}, config{}, `-webhook-chaos: synapsefake: unknown_field (error_code 200, http 400): Unknown field "dupe".`},
		{"-webhook-chaos a probability above 1", []string{"-webhook-chaos", `{"default":{"duplicate":2}}`}, config{}, "-webhook-chaos: synapsefake: invalid_chaos (error_code 200, http 400): default.duplicate must be a probability from 0 to 1, got 2."},
		{"-jit-deadline", []string{"-jit-deadline", "2s"}, with(func(c *config) { c.jitDeadline = 2 * time.Second }), ""},
		{"-allow-host", []string{"-allow-host", "fake", "-allow-host", "a.example, B.example"}, with(func(c *config) { c.allowHosts = []string{"fake", "a.example", "B.example"} }), ""},
		{"-allow-host a URL", []string{"-allow-host", "http://fake:8080"}, config{}, `invalid value "http://fake:8080" for flag -allow-host: "http://fake:8080" is not a host name (give names such as fake or 10.0.0.7, without a scheme or path)`},
		{"-allow-host an empty name", []string{"-allow-host", "a,,b"}, config{}, `invalid value "a,,b" for flag -allow-host: "" is not a host name (give names such as fake or 10.0.0.7, without a scheme or path)`},
		{"-control-token", []string{"-control-token", "tok-7f3a"}, with(func(c *config) { c.controlToken = "tok-7f3a" }), ""},
		{"-max-platforms", []string{"-max-platforms", "2"}, with(func(c *config) { c.maxPlatforms = 2 }), ""},
		{"-max-platforms 0", []string{"-max-platforms", "0"}, config{}, "-max-platforms must be at least 1 (the default platform), not 0"},
		{"-cpuprofile", []string{"-cpuprofile", "cpu.out"}, with(func(c *config) { c.cpuProfile = "cpu.out" }), ""},
		{"-version", []string{"-version"}, with(func(c *config) { c.version = true }), ""},
		{"-version checks nothing else", []string{"-version", "-clock", "bogus", "now"}, with(func(c *config) { c.version = true }), ""},
		{"an argument", []string{"-quiet", "now"}, config{}, `unexpected arguments ["now"] (flags only; see -h)`},
		{"an unknown flag", []string{"-nope"}, config{}, "flag provided but not defined: -nope"},
		{"-h", []string{"-h"}, config{}, flag.ErrHelp.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseConfig(tc.args, io.Discard)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("parseConfig(%q): %v", tc.args, err)
			case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
				t.Fatalf("parseConfig(%q): error %v, want %s", tc.args, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(config{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("parseConfig(%q) (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}

// TestServeChecksFlagsBeforeListening: a flag's error comes before the
// listener, so an address taken does not hide it and nothing listens.
func TestServeChecksFlagsBeforeListening(t *testing.T) {
	t.Parallel()
	taken := start(t, "-addr", "127.0.0.1:0", "-quiet")
	addr := strings.TrimSuffix(strings.TrimPrefix(taken.base, "http://"), "/v3.1")
	for _, args := range [][]string{
		{"-clock", "bogus"},
		{"-start", "soon"},
		{"-kyc-review", "soon"},
		{"-webhook-chaos", "{"},
		{"-webhooks", "drop"},
		{"-client-id", "my-id"},
		{"-max-platforms", "0"},
		{"now"},
	} {
		_, want := parseConfig(args, io.Discard)
		err := serve(context.Background(), append([]string{"-addr", addr}, args...), io.Discard, nil)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("serve(%q) on a taken address: %v, want the flag's error %v", args, err, want)
		}
	}
}

// ask serves one request below the server's root with h, in process, from
// the fake's own address, and answers the status and body.
func ask(t *testing.T, h http.Handler, method, path, body string, header map[string]string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = "127.0.0.1:8080"
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if host := req.Header.Get("Host"); host != "" {
		req.Host = host
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Code, w.Body.String()
}

// TestOptions builds a fake from the options of some flags and checks each
// flag's effect on it.
func TestOptions(t *testing.T) {
	t.Parallel()
	const base = "http://127.0.0.1:8080/v3.1"
	now := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	// reviewed is the status of an SSN sent at once and an hour later.
	reviewed := func(t *testing.T, p *synapsefake.Platforms) (string, string) {
		status, body := ask(t, p, "POST", "/_fake/users", `{"documents":[{"kind":"virtual","type":"SSN","value":"2222"}]}`, nil)
		if status != http.StatusOK {
			t.Fatalf("POST /_fake/users: %d %s", status, body)
		}
		var made struct {
			User struct {
				ID string `json:"_id"`
			} `json:"user"`
		}
		if err := json.Unmarshal([]byte(body), &made); err != nil {
			t.Fatal(err)
		}
		ssn := func() string {
			u, _ := p.Default().User(made.User.ID)
			return u.Documents[0].SubDocuments[0].Status
		}
		first := ssn()
		p.Default().Advance(time.Hour)
		return first, ssn()
	}
	// deliveries is how many webhooks reach a subscriber of the default
	// platform when a user is made.
	deliveries := func(t *testing.T, p *synapsefake.Platforms) int {
		hits := make(chan struct{}, 100)
		receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits <- struct{}{} }))
		defer receiver.Close()
		s := p.Default()
		s.MustAddSubscription(t, receiver.URL, "USERS|POST")
		s.MustAddUser(t, synapsefake.UserSeed{})
		s.Flush()
		return len(hits)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		check func(t *testing.T, p *synapsefake.Platforms)
	}{
		{"no flags", nil, func(t *testing.T, p *synapsefake.Platforms) {
			s, defaults := p.Default(), synapsefake.New()
			if s.ClientID() != defaults.ClientID() || s.ClientSecret() != defaults.ClientSecret() || s.URL() != base {
				t.Errorf("client id %q, secret %q, URL %q; want the defaults and %s", s.ClientID(), s.ClientSecret(), s.URL(), base)
			}
			if got := s.WebhookChaos(); !cmp.Equal(got, synapsefake.WebhookChaos{}, cmpopts.EquateEmpty()) {
				t.Errorf("webhook chaos %+v, want none", got)
			}
			if status, body := ask(t, p, "GET", "/_fake/clock", "", nil); status != http.StatusOK {
				t.Errorf("GET /_fake/clock without a token: %d %s, want 200", status, body)
			}
			if status, _ := ask(t, p, "GET", "/_fake/clock", "", map[string]string{"Host": "fake:8080"}); status != http.StatusForbidden {
				t.Errorf("GET /_fake/clock from Host fake: %d, want 403", status)
			}
			for range 2 {
				ask(t, p, "GET", "/v3.1/loans-limits", "", nil)
			}
			if got := len(s.Requests()); got != 2 {
				t.Errorf("the journal holds %d calls of 2", got)
			}
		}},
		{"-seed", []string{"-seed", "7"}, func(t *testing.T, p *synapsefake.Platforms) {
			got := p.Default().MustAddUser(t, synapsefake.UserSeed{})
			want := synapsefake.New(synapsefake.WithIDSeed(7)).MustAddUser(t, synapsefake.UserSeed{})
			if got.ID != want.ID {
				t.Errorf("first user %s, want %s (seed 7's)", got.ID, want.ID)
			}
		}},
		{"-client-id and -client-secret", []string{"-client-id", "my-id", "-client-secret", "my-secret"}, func(t *testing.T, p *synapsefake.Platforms) {
			if s := p.Default(); s.ClientID() != "my-id" || s.ClientSecret() != "my-secret" {
				t.Errorf("client id %q, secret %q, want my-id, my-secret", s.ClientID(), s.ClientSecret())
			}
		}},
		{"-clock real", nil, func(t *testing.T, p *synapsefake.Platforms) {
			before := time.Now()
			got := p.Default().Now()
			if got.Before(before.Add(-time.Minute)) || got.After(time.Now()) {
				t.Errorf("Now %v, want the wall-clock time %v", got, before)
			}
		}},
		{"-clock manual", []string{"-clock", "manual"}, func(t *testing.T, p *synapsefake.Platforms) {
			if got := p.Default().Now(); !got.Equal(now) {
				t.Errorf("Now %v, want %v, the start-up's", got, now)
			}
		}},
		{"-clock manual -start", []string{"-clock", "manual", "-start", "2026-11-25T17:00:00-05:00"}, func(t *testing.T, p *synapsefake.Platforms) {
			if got, want := p.Default().Now(), time.Date(2026, 11, 25, 22, 0, 0, 0, time.UTC); !got.Equal(want) {
				t.Errorf("Now %v, want %v", got, want)
			}
		}},
		{"-clock real -start default", []string{"-start", "default"}, func(t *testing.T, p *synapsefake.Platforms) {
			start := synapsefake.DefaultStartTime()
			if got := p.Default().Now(); got.Before(start) || got.After(start.Add(time.Minute)) {
				t.Errorf("Now %v, want it running from %v", got, start)
			}
		}},
		{"-webhook-chaos", []string{"-webhook-chaos", `{"seed":7,"default":{"duplicate":0.5}}`}, func(t *testing.T, p *synapsefake.Platforms) {
			want := synapsefake.WebhookChaos{Seed: 7, Default: synapsefake.ChaosSettings{Duplicate: 0.5}}
			if got := p.Default().WebhookChaos(); !cmp.Equal(got, want, cmpopts.EquateEmpty()) {
				t.Errorf("webhook chaos %+v, want %+v", got, want)
			}
		}},
		{"-control-token", []string{"-control-token", "tok"}, func(t *testing.T, p *synapsefake.Platforms) {
			if status, _ := ask(t, p, "GET", "/_fake/clock", "", nil); status != http.StatusUnauthorized {
				t.Errorf("GET /_fake/clock without the token: %d, want 401", status)
			}
			if status, _ := ask(t, p, "GET", "/_fake/clock", "", map[string]string{"X-Fake-Control-Token": "tok"}); status != http.StatusOK {
				t.Errorf("GET /_fake/clock with the token: %d, want 200", status)
			}
		}},
		{"-allow-host", []string{"-allow-host", "fake"}, func(t *testing.T, p *synapsefake.Platforms) {
			if status, _ := ask(t, p, "GET", "/_fake/clock", "", map[string]string{"Host": "fake:8080"}); status != http.StatusOK {
				t.Errorf("GET /_fake/clock from Host fake: %d, want 200", status)
			}
		}},
		{"-max-platforms", []string{"-max-platforms", "1"}, func(t *testing.T, p *synapsefake.Platforms) {
			if _, err := p.Add(synapsefake.PlatformConfig{ClientID: "p1"}); err == nil {
				t.Errorf("a second platform beyond -max-platforms 1 was made")
			}
		}},
		{"-journal-entries", []string{"-journal-entries", "1"}, func(t *testing.T, p *synapsefake.Platforms) {
			for range 2 {
				ask(t, p, "GET", "/v3.1/loans-limits", "", nil)
			}
			if got := len(p.Default().Requests()); got != 1 {
				t.Errorf("the journal holds %d calls of 2, want 1", got)
			}
		}},
		{"-journal-bytes", []string{"-journal-bytes", "0"}, func(t *testing.T, p *synapsefake.Platforms) {
			ask(t, p, "GET", "/v3.1/loans-limits", "", nil)
			if got := len(p.Default().Requests()); got != 0 {
				t.Errorf("the journal holds %d calls, want none", got)
			}
		}},
		{"-max-state-size", []string{"-max-state-size", "100"}, func(t *testing.T, p *synapsefake.Platforms) {
			if status, body := ask(t, p, "PUT", "/_fake/state", `{"padding":"`+strings.Repeat("x", 200)+`"}`, nil); status != http.StatusBadRequest || !strings.Contains(body, `"body_too_large"`) {
				t.Errorf("PUT /_fake/state of 200 bytes: %d %.200s, want 400 body_too_large", status, body)
			}
		}},
		{"-kyc-review 0s", []string{"-clock", "manual"}, func(t *testing.T, p *synapsefake.Platforms) {
			if first, later := reviewed(t, p); first != synapsefake.DocValid || later != synapsefake.DocValid {
				t.Errorf("an SSN: %s, then %s; want it valid at once", first, later)
			}
		}},
		{"-kyc-review 1h", []string{"-clock", "manual", "-kyc-review", "1h"}, func(t *testing.T, p *synapsefake.Platforms) {
			if first, later := reviewed(t, p); first != synapsefake.DocReviewing || later != synapsefake.DocValid {
				t.Errorf("an SSN: %s, then %s an hour later; want it reviewed within the hour", first, later)
			}
		}},
		{"-kyc-review manual", []string{"-clock", "manual", "-kyc-review", "manual"}, func(t *testing.T, p *synapsefake.Platforms) {
			if first, later := reviewed(t, p); first != synapsefake.DocReviewing || later != synapsefake.DocReviewing {
				t.Errorf("an SSN: %s, then %s an hour later; want it under review", first, later)
			}
		}},
		{"-webhooks deliver", []string{"-clock", "manual"}, func(t *testing.T, p *synapsefake.Platforms) {
			if got := deliveries(t, p); got == 0 {
				t.Errorf("no webhook delivered")
			}
		}},
		{"-webhooks capture", []string{"-clock", "manual", "-webhooks", "capture"}, func(t *testing.T, p *synapsefake.Platforms) {
			if got := deliveries(t, p); got != 0 {
				t.Errorf("%d webhooks delivered, want none", got)
			}
		}},
		{"-micro-deposits", []string{"-micro-deposits"}, func(t *testing.T, p *synapsefake.Platforms) {
			s := p.Default()
			u := s.MustAddUser(t, synapsefake.UserSeed{})
			n := s.MustAddNode(t, u.ID, synapsefake.NodeSeed{Type: "ACH-US", AccountNum: "123456789", RoutingNum: "051000017"})
			if n.Allowed != synapsefake.AllowedCredit {
				t.Errorf("an ACH-US node by account and routing number: allowed %s, want CREDIT", n.Allowed)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseConfig(tc.args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			p := synapsefake.NewPlatforms(options(c, base, now)...)
			t.Cleanup(p.Close)
			tc.check(t, p)
		})
	}
}
