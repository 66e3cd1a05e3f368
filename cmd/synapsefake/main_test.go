package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine's writes and
// the test's reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitTimeout bounds every wait on the server, so that a hung serve fails
// the test instead of the whole run.
const waitTimeout = 10 * time.Second

// running is a serve call in progress.
type running struct {
	base   string
	out    *syncBuffer
	cancel context.CancelFunc
	done   chan error
}

// start runs serve with args in the background and waits until it listens.
// The server is stopped when the test ends, if the test did not stop it.
func start(t *testing.T, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{out: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	ready := make(chan string, 1)
	go func() { r.done <- serve(ctx, args, r.out, ready) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.done:
		case <-time.After(waitTimeout):
			t.Errorf("serve did not return after cancel")
		}
	})
	select {
	case r.base = <-ready:
	case err := <-r.done:
		r.done <- err // for the cleanup
		t.Fatalf("serve(%q) returned before listening: %v\noutput:\n%s", args, err, r.out)
	case <-time.After(waitTimeout):
		t.Fatalf("serve(%q) did not become ready\noutput:\n%s", args, r.out)
	}
	return r
}

// stop cancels serve's context and returns what serve returned.
func (r *running) stop(t *testing.T) error {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		r.done <- err // for the cleanup
		return err
	case <-time.After(waitTimeout):
		t.Fatalf("serve did not return after cancel")
		return nil
	}
}

// request sends one JSON request to the running server and decodes the
// JSON object it answers.
func (r *running) request(t *testing.T, method, path string, header map[string]string, body any) (int, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, r.base+path, &buf)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", method, path, ct)
	}
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %v", method, path, err)
	}
	return resp.StatusCode, out
}

// seededUser matches the startup line naming the seeded user.
var seededUser = regexp.MustCompile(`seeded user ([0-9a-f]{24}) \(fingerprint demo-fingerprint, refresh_token (refresh_[0-9a-f]{40})\)`)

func TestServe(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0")

	if !regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+/v3\.1$`).MatchString(r.base) {
		t.Errorf("ready sent %q, want http://127.0.0.1:PORT/v3.1", r.base)
	}
	out := r.out.String()
	defaults := synapsefake.New() // the default credentials
	gateway := defaults.Gateway()
	if first := "synapsefake serving " + r.base + "\n"; !strings.HasPrefix(out, first) {
		t.Errorf("startup output does not begin with %q (scripts read that line):\n%s", first, out)
	}
	dashboard := strings.TrimSuffix(r.base, "/v3.1") + "/_fake/ui/"
	for _, want := range []string{
		"\n  base URL for the SDKs: " + r.base + "\n",
		"\n  client id: " + defaults.ClientID() + "\n",
		"\n  client secret: " + defaults.ClientSecret() + "\n",
		"\n  X-SP-GATEWAY: " + gateway + "\n",
		"\n  dashboard: " + dashboard + "\n",
		"curl " + r.base + "/loans-limits\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("startup output lacks %q:\n%s", want, out)
		}
	}
	if resp, err := http.Get(dashboard); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s, the dashboard's printed address: %v %v, want 200", dashboard, resp, err)
	} else {
		resp.Body.Close()
	}

	status, limits := r.request(t, "GET", "/loans-limits", nil, nil)
	if status != http.StatusOK || len(limits) != 51 {
		t.Errorf("GET /loans-limits: status %d with %d states, want 200 with 51", status, len(limits))
	}

	// The seeded user is real: its printed id, refresh token and
	// fingerprint get an OAuth key without MFA.
	m := seededUser.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("startup output names no seeded user:\n%s", out)
	}
	status, oauth := r.request(t, "POST", "/oauth/"+m[1], map[string]string{
		"X-SP-GATEWAY": gateway,
		"X-SP-USER":    "|demo-fingerprint",
		"X-SP-USER-IP": "127.0.0.1",
	}, map[string]any{"refresh_token": m[2]})
	if key, _ := oauth["oauth_key"].(string); status != http.StatusOK || !strings.HasPrefix(key, "oauth_") {
		t.Errorf("OAuth with the seeded user: status %d, body %v; want 200 with an oauth_key", status, oauth)
	}
	// The links name the address the server listens on.
	status, user := r.request(t, "GET", "/users/"+m[1], map[string]string{"X-SP-GATEWAY": gateway}, nil)
	links, _ := user["_links"].(map[string]any)
	self, _ := links["self"].(map[string]any)
	if want := r.base + "/users/" + m[1]; status != http.StatusOK || self["href"] != want {
		t.Errorf("GET /users/{id}: status %d, _links.self.href %v; want 200 and %q", status, self["href"], want)
	}

	if err := r.stop(t); err != nil {
		t.Errorf("serve returned %v after cancel, want nil", err)
	}
	if out := r.out.String(); !strings.HasSuffix(out, "synapsefake stopped\n") {
		t.Errorf("output does not end with the stop line:\n%s", out)
	}
	if _, err := http.Get(r.base + "/loans-limits"); err == nil {
		t.Errorf("the server still answers after serve returned")
	}
}

func TestServeOptions(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-client-id", "my-id", "-client-secret", "my-secret", "-clock", "manual", "-seed", "7")

	for _, want := range []string{"\n  client id: my-id\n", "\n  client secret: my-secret\n", "\n  X-SP-GATEWAY: my-id|my-secret\n"} {
		if out := r.out.String(); !strings.Contains(out, want) {
			t.Errorf("startup output lacks %q, the given credentials:\n%s", want, out)
		}
	}
	m := seededUser.FindStringSubmatch(r.out.String())
	if m == nil {
		t.Fatalf("startup output names no seeded user:\n%s", r.out)
	}
	// -seed 7 gives the ids a fake seeded with 7 gives.
	want := synapsefake.New(synapsefake.WithIDSeed(7)).MustAddUser(t, synapsefake.UserSeed{Email: "demo@example.com"})
	if m[1] != want.ID {
		t.Errorf("seeded user %s, want %s (the first id of seed 7)", m[1], want.ID)
	}
	for _, tc := range []struct {
		name    string
		gateway string
		want    int
	}{
		{"given credentials", "my-id|my-secret", http.StatusOK},
		{"default credentials", synapsefake.New().Gateway(), http.StatusUnauthorized},
	} {
		status, body := r.request(t, "GET", "/users/"+m[1], map[string]string{"X-SP-GATEWAY": tc.gateway}, nil)
		if status != tc.want {
			t.Errorf("%s: GET /users/{id} status %d, want %d; body %v", tc.name, status, tc.want, body)
		}
	}
	if err := r.stop(t); err != nil {
		t.Errorf("serve returned %v after cancel, want nil", err)
	}
}

func TestServeBadFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown clock", []string{"-clock", "bogus"}, "-clock must be real or manual"},
		{"start not RFC 3339", []string{"-clock", "manual", "-start", "2026-04-14 10:00"}, `-start must be an RFC 3339 instant such as 2026-04-14T10:00:00-04:00, or default, not "2026-04-14 10:00"`},
		{"start without a zone", []string{"-start", "2026-04-14T10:00:00"}, "-start must be an RFC 3339 instant"},
		{"start before 1970", []string{"-clock", "manual", "-start", "1965-03-01T12:00:00Z"}, "-start 1965-03-01T12:00:00Z: synapsefake: start time 1965-03-01T12:00:00Z is not from 1970-01-01 to 9899-12-31 UTC"},
		{"start in the year 9950", []string{"-clock", "real", "-start", "9950-03-01T12:00:00Z"}, "is not from 1970-01-01 to 9899-12-31 UTC"},
		{"client id alone", []string{"-client-id", "my-id"}, "-client-id and -client-secret go together"},
		{"client secret alone", []string{"-client-secret", "my-secret"}, "-client-id and -client-secret go together"},
		{"unknown flag", []string{"-nope"}, "flag provided but not defined"},
		{"bad seed", []string{"-seed", "x"}, "invalid value"},
		{"chaos not JSON", []string{"-webhook-chaos", "duplicate=0.5"}, "-webhook-chaos: synapsefake: invalid_json (error_code 200, http 400)"},
		{"chaos unknown setting", []string{"-webhook-chaos", `{"default":{"dupe":0.5}}`}, "-webhook-chaos: synapsefake: unknown_field (error_code 200, http 400)"},
		{"chaos probability above 1", []string{"-webhook-chaos", `{"default":{"duplicate":2}}`}, "default.duplicate must be a probability from 0 to 1, got 2."},
		{"chaos bad delay", []string{"-webhook-chaos", `{"default":{"delay":1,"delay_by":"soon"}}`}, "invalid_chaos"},
		{"allow-host a URL", []string{"-allow-host", "http://fake:8080"}, `"http://fake:8080" is not a host name`},
		{"allow-host an empty name", []string{"-allow-host", "a,,b"}, `"" is not a host name`},
		{"no platform", []string{"-max-platforms", "0"}, "-max-platforms must be at least 1 (the default platform), not 0"},
		{"kyc-review not a duration", []string{"-kyc-review", "soon"}, `-kyc-review "soon": want a duration of 0s or more (20s, 24h) or manual`},
		{"kyc-review negative", []string{"-kyc-review", "-1s"}, `-kyc-review "-1s"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ready := make(chan string, 1)
			var out syncBuffer
			// Port 0: a flag error must not depend on 8080 being free.
			args := append([]string{"-addr", "127.0.0.1:0"}, tc.args...)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel() // stops a server that started by mistake
			done := make(chan error, 1)
			go func() { done <- serve(ctx, args, &out, ready) }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("serve(%q) = %v, want an error containing %q", args, err, tc.wantErr)
				}
			case base := <-ready:
				t.Fatalf("serve(%q) started serving at %s, want an error", args, base)
			case <-time.After(waitTimeout):
				t.Fatalf("serve(%q) did not return", args)
			}
			if len(ready) != 0 {
				t.Errorf("serve(%q) signalled ready and failed", args)
			}
		})
	}
}

func TestServeAddressInUse(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0")
	addr := strings.TrimSuffix(strings.TrimPrefix(r.base, "http://"), "/v3.1")
	err := serve(context.Background(), []string{"-addr", addr}, &syncBuffer{}, nil)
	if err == nil {
		t.Errorf("serve on %s, which is taken, returned nil", addr)
	}
}

func TestRequestLogEscapesPath(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0")
	paths := []struct{ sent, logged string }{
		{"/x%0Afake-line", "/v3.1/x%0Afake-line"},
		{"/x%0D%0Afake-line", "/v3.1/x%0D%0Afake-line"},
		{"/x%0A%0Afake-line", "/v3.1/x%0A%0Afake-line"},
		{"/users/%0Afake-line/nodes", "/v3.1/users/%0Afake-line/nodes"},
		{"/x%20y", "/v3.1/x%20y"},
	}
	for _, p := range paths {
		if status, _ := r.request(t, "GET", p.sent, nil, nil); status != http.StatusNotFound && status != http.StatusBadRequest {
			t.Errorf("GET %s: status %d, want 404 or 400", p.sent, status)
		}
	}
	if err := r.stop(t); err != nil {
		t.Fatalf("serve returned %v after cancel, want nil", err)
	}
	lines := strings.Split(r.out.String(), "\n")
	for _, p := range paths {
		t.Run(p.sent, func(t *testing.T) {
			var got []string
			for _, l := range lines {
				if strings.HasPrefix(l, "GET "+p.logged+" ") {
					got = append(got, l)
				}
			}
			if len(got) != 1 {
				t.Errorf("log lines for GET %s: %q, want exactly one", p.logged, got)
			}
		})
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "fake-line") || strings.HasPrefix(l, "\rfake-line") {
			t.Errorf("forged log line %q in:\n%s", l, r.out)
		}
	}
}

func TestServeJournalFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		args  []string
		calls int
		want  int // calls GET /_fake/requests lists
	}{
		{"default bounds keep every call", nil, 3, 3},
		{"entry bound", []string{"-journal-entries", "2"}, 3, 2},
		{"byte bound keeps the newest call", []string{"-journal-bytes", "1"}, 3, 1},
		{"journal off", []string{"-journal-bytes", "0"}, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := start(t, append([]string{"-addr", "127.0.0.1:0", "-clock", "manual", "-quiet"}, tc.args...)...)
			for range tc.calls {
				if status, _ := r.request(t, "GET", "/nowhere", nil, nil); status != http.StatusNotFound {
					t.Fatalf("GET /nowhere: status %d, want 404", status)
				}
			}
			root := running{base: strings.TrimSuffix(r.base, "/v3.1")}
			status, body := root.request(t, "GET", "/_fake/requests", nil, nil)
			reqs, _ := body["requests"].([]any)
			if status != http.StatusOK || len(reqs) != tc.want {
				t.Errorf("GET /_fake/requests: status %d, %d requests, want 200 and %d: %v", status, len(reqs), tc.want, body)
			}
		})
	}
}

func TestServeWebhookCaptureFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		all  bool // every webhook of three users, or only the newest
	}{
		{"default bound keeps all", nil, true},
		{"tiny bound keeps the newest", []string{"-webhook-capture-bytes", "1"}, false},
		{"no bound", []string{"-webhook-capture-bytes", "-1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := start(t, append([]string{"-addr", "127.0.0.1:0", "-clock", "manual", "-quiet", "-webhooks", "capture"}, tc.args...)...)
			root := running{base: strings.TrimSuffix(r.base, "/v3.1")}
			for range 3 {
				if status, body := root.request(t, "POST", "/_fake/users", nil, map[string]any{}); status != http.StatusOK {
					t.Fatalf("POST /_fake/users: %d %v", status, body)
				}
			}
			status, body := root.request(t, "GET", "/_fake/webhooks", nil, nil)
			hooks, _ := body["webhooks"].([]any)
			if status != http.StatusOK || tc.all && len(hooks) < 3 || !tc.all && len(hooks) != 1 {
				t.Errorf("GET /_fake/webhooks: status %d, %d webhooks, want 200 and all (at least 3): %v", status, len(hooks), tc.all)
			}
		})
	}
}

func TestServeWorld(t *testing.T) {
	t.Parallel()
	const file = "../../testdata/worlds/person.json"
	r := start(t, "-addr", "127.0.0.1:0", "-clock", "manual", "-seed", "7", "-world", file)

	// The binary seeds its demo user, then loads the world: the ids are
	// those of a fake of the same seed doing the same.
	fake := synapsefake.New(synapsefake.WithIDSeed(7))
	fake.MustAddUser(t, synapsefake.UserSeed{Email: "demo@example.com"})
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := fake.LoadWorld(f)
	if err != nil {
		t.Fatal(err)
	}
	out := r.out.String()
	for _, line := range []string{
		"  world " + file + ": 1 users, 3 nodes, 1 subnets, 7 named transactions, 0 subscriptions\n",
		"    user alex: " + want.Users["alex"] + " (X-SP-USER: " + want.OAuthKeys["alex"] + "|alex-phone)\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("startup output lacks %q:\n%s", line, out)
		}
	}
	header := map[string]string{"X-SP-GATEWAY": fake.Gateway(), "X-SP-USER": want.OAuthKeys["alex"] + "|alex-phone", "X-SP-USER-IP": "127.0.0.1"}
	status, body := r.request(t, "GET", "/users/"+want.Users["alex"]+"/nodes/"+want.Nodes["checking"], header, nil)
	info, _ := body["info"].(map[string]any)
	if status != http.StatusOK || fmt.Sprint(info["balance"]) != "map[amount:2200 currency:USD]" {
		t.Errorf("GET checking: %d %v", status, body)
	}
}

// TestServeWorldRefused: a -world file that is missing or breaks a rule
// stops the start with its error.
func TestServeWorldRefused(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"users": [{"name": "ann", "nodes": [{"name": "a"}]}], "transactions": [{"name": "t", "from": "a", "to": "b", "amount": 1}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, wantErr string
	}{
		{"missing file", "no-such-world.json", "-world: open no-such-world.json"},
		{"broken rule", bad, "-world " + bad + `: synapsefake: invalid_world (error_code 200, http 400): transactions[0] "t": to names no node of the world: "b".`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ready := make(chan string, 1)
			var out syncBuffer
			err := serve(context.Background(), []string{"-addr", "127.0.0.1:0", "-world", tc.file}, &out, ready)
			if err == nil || err.Error() != tc.wantErr && !strings.HasPrefix(err.Error(), tc.wantErr) {
				t.Errorf("serve = %v, want an error starting %q", err, tc.wantErr)
			}
			if len(ready) != 0 {
				t.Errorf("serve signalled ready and failed")
			}
			// A script waits for the first line as the sign that the fake
			// serves: a start that fails prints no banner.
			if got := out.String(); got != "" {
				t.Errorf("serve printed %q, want nothing", got)
			}
		})
	}
}

// raw sends a request below the server's root (e.g. "/_fake/state") and
// returns the status and body as sent.
func (r *running) raw(t *testing.T, method, path, body string) string {
	t.Helper()
	req, err := http.NewRequest(method, strings.TrimSuffix(r.base, "/v3.1")+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-SP-GATEWAY", synapsefake.New().Gateway())
	req.Header.Set("X-SP-USER", "|fp")
	req.Header.Set("X-SP-USER-IP", "127.0.0.1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d %s", resp.StatusCode, b)
}

// freeAddr is a loopback address nothing listens on, so that two runs in
// turn can serve the same URLs.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestServeState: a server with -state saves on shutdown; a restart with
// the same file answers the same requests byte for byte as another restart
// from a copy of it, and the file always holds a whole document.
func TestServeState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")
	addr := freeAddr(t)
	args := func(state string) []string {
		return []string{"-addr", addr, "-clock", "manual", "-quiet", "-state", state, "-state-interval", "0"}
	}

	first := start(t, args(file)...)
	if !seededUser.MatchString(first.out.String()) {
		t.Errorf("a start without a state file does not seed the demo user:\n%s", first.out)
	}
	user := first.raw(t, "POST", "/_fake/users", `{"legal_names":["Ann Saved"]}`)
	if !strings.HasPrefix(user, "200 ") {
		t.Fatalf("create user: %s", user)
	}
	first.raw(t, "POST", "/_fake/clock/advance", `{"duration":"26h"}`)
	saved := first.raw(t, "GET", "/_fake/state", "")
	if err := first.stop(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no state file after shutdown: %v", err)
	}
	if "200 "+string(data) != saved {
		t.Errorf("the file saved on shutdown differs from GET /_fake/state before it: %.200s", data)
	}
	copyFile := filepath.Join(dir, "copy.json")
	if err := os.WriteFile(copyFile, data, 0o600); err != nil {
		t.Fatal(err)
	}

	// The same requests and clock moves after each restart.
	steps := []struct{ method, path, body string }{
		{"GET", "/_fake/state", ""},
		{"POST", "/_fake/users", `{"legal_names":["After Restart"]}`},
		{"POST", "/_fake/clock/advance", `{"duration":"24h"}`},
		{"GET", "/_fake/clock", ""},
		{"GET", "/v3.1/users", ""},
		{"GET", "/_fake/state", ""},
	}
	var answers [2][]string
	for i, f := range []string{file, copyFile} {
		r := start(t, args(f)...)
		if !strings.Contains(r.out.String(), "state restored from "+f) || seededUser.MatchString(r.out.String()) {
			t.Errorf("restart %d: output does not say the state was restored, or seeds the demo user again:\n%s", i, r.out)
		}
		for _, s := range steps {
			answers[i] = append(answers[i], r.raw(t, s.method, s.path, s.body))
		}
		if err := r.stop(t); err != nil {
			t.Fatalf("serve: %v", err)
		}
	}
	if answers[0][0] != saved {
		t.Errorf("after a restart GET /_fake/state answers otherwise than before the shutdown")
	}
	for i, s := range steps {
		if answers[0][i] != answers[1][i] {
			t.Errorf("%s %s: restarts from the same state answered\n%.300s\n%.300s", s.method, s.path, answers[0][i], answers[1][i])
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the directory holds %d files, want the state and its copy (no temporary file left)", len(entries))
	}
}

// TestServeStateRefusesABadFile: a state file that cannot be restored
// stops the start and is left as it was.
func TestServeStateRefusesABadFile(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(file, []byte(`{"format":"synapsefake-state","version":99}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	err := serve(context.Background(), []string{"-addr", "127.0.0.1:0", "-state", file}, &out, nil)
	if err == nil || !strings.Contains(err.Error(), "version 99 is not supported") {
		t.Errorf("serve: %v, want the refusal of version 99", err)
	}
	if data, _ := os.ReadFile(file); string(data) != `{"format":"synapsefake-state","version":99}` {
		t.Errorf("the refused file was changed: %s", data)
	}
}

// TestWriteFileAtomic: the file is replaced whole, or, when writing fails,
// left as it was; no temporary file stays behind either way.
func TestWriteFileAtomic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		write   func(io.Writer) error
		wantErr bool
		want    string
	}{
		{"replaced", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, false, "new"},
		{"a failed write keeps the old file", func(w io.Writer) error {
			_, _ = io.WriteString(w, "half")
			return errors.New("disk full")
		}, true, "old"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "state.json")
			if err := os.WriteFile(file, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := writeFileAtomic(file, tc.write); (err != nil) != tc.wantErr {
				t.Errorf("writeFileAtomic: %v, want error %v", err, tc.wantErr)
			}
			if data, _ := os.ReadFile(file); string(data) != tc.want {
				t.Errorf("file holds %q, want %q", data, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("the directory holds %d files, want 1", len(entries))
			}
		})
	}
}

func TestServeWebhookChaosFlag(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-clock", "manual", "-quiet",
		"-webhook-chaos", `{"seed":7,"default":{"duplicate":0.5,"delay_by":"90s"}}`)
	root := running{base: strings.TrimSuffix(r.base, "/v3.1")}
	status, body := root.request(t, "GET", "/_fake/webhooks/chaos", nil, nil)
	want := map[string]any{"success": true, "chaos": map[string]any{"seed": 7.0, "subscriptions": map[string]any{},
		"default": map[string]any{"duplicate": 0.5, "reorder": 0.0, "delay": 0.0, "delay_by": "1m30s", "drop_first": 0.0, "bad_signature": 0.0}}}
	if status != http.StatusOK {
		t.Fatalf("GET /_fake/webhooks/chaos: status %d: %v", status, body)
	}
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("GET /_fake/webhooks/chaos (-want +got):\n%s", diff)
	}
}

// TestServeStateRemovesStaleTemps: temporary files that a save killed
// mid-write left beside the state file are removed at start; other files
// are not touched.
func TestServeStateRemovesStaleTemps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")
	keep := []string{"other.json", "state.json.bak", "other.json.tmp-1"}
	for _, name := range append([]string{"state.json.tmp-123", "state.json.tmp-abc"}, keep...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := start(t, "-addr", freeAddr(t), "-quiet", "-state", file, "-state-interval", "0")
	if err := r.stop(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
	var got []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := append([]string{"state.json"}, keep...)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("files after a start and stop: %q, want %q", got, want)
	}
}

// TestServeMaxStateSize: -max-state-size bounds both the -state file read
// at start and PUT /_fake/state.
func TestServeMaxStateSize(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "state.json")
	big := `{"format":"synapsefake-state","padding":"` + strings.Repeat("x", 2000) + `"}`
	if err := os.WriteFile(file, []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	err := serve(context.Background(), []string{"-addr", "127.0.0.1:0", "-max-state-size", "1000", "-state", file}, &out, nil)
	if err == nil || !strings.Contains(err.Error(), "larger than 1000 bytes") {
		t.Errorf("serve with a state file over -max-state-size: %v", err)
	}
	r := start(t, "-addr", freeAddr(t), "-quiet", "-max-state-size", "1000")
	if got := r.raw(t, "PUT", "/_fake/state", big); !strings.HasPrefix(got, "400 ") || !strings.Contains(got, `"body_too_large"`) {
		t.Errorf("PUT /_fake/state over the limit: %.200s", got)
	}
	if err := r.stop(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
}

// send sends one request to the running server's root with the given Host
// ("" for its address) and headers, and returns the status, the headers and
// the error.code of a refusal.
func (r *running) send(t *testing.T, method, path, host string, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, strings.TrimSuffix(r.base, "/v3.1")+path, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	client := http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
		ErrorCode string `json:"error_code"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&env)
	if env.ErrorCode != "" && env.ErrorCode != "300" && resp.StatusCode >= 400 {
		t.Errorf("%s %s: error_code %q", method, path, env.ErrorCode)
	}
	return resp.StatusCode, resp.Header, env.Error.Code
}

func TestServeControlOrigin(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-clock", "manual", "-quiet", "-allow-host", "fake", "-allow-host", "a.example, B.example")
	for _, tc := range []struct {
		name, method, path, host string
		header                   map[string]string
		want                     int
		code                     string
	}{
		{"its own address", "POST", "/_fake/users", "", nil, 200, ""},
		{"localhost", "POST", "/_fake/users", "localhost:8080", nil, 200, ""},
		{"-allow-host", "POST", "/_fake/users", "fake:8080", nil, 200, ""},
		{"-allow-host, comma-separated", "GET", "/_fake/state", "a.example", nil, 200, ""},
		{"-allow-host, comma-separated, another case", "GET", "/_fake/ui/", "b.example:80", nil, 200, ""},
		{"a foreign host reads", "GET", "/_fake/state", "rebind.evil.example:8080", nil, 403, "foreign_host"},
		{"a foreign host resets", "POST", "/_fake/reset", "rebind.evil.example:8080", nil, 403, "foreign_host"},
		{"a foreign origin resets", "POST", "/_fake/reset", "", map[string]string{"Origin": "http://127.0.0.1:1", "Content-Type": "text/plain"}, 403, "cross_origin_request"},
		{"a cross-site request", "POST", "/_fake/reset", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross_origin_request"},
		{"the API answers any host", "GET", "/v3.1/loans-limits", "rebind.evil.example:8080", nil, 200, ""},
	} {
		status, _, code := r.send(t, tc.method, tc.path, tc.host, tc.header)
		if status != tc.want || code != tc.code {
			t.Errorf("%s: %s %s: %d %q, want %d %q", tc.name, tc.method, tc.path, status, code, tc.want, tc.code)
		}
	}
	// The seeded user survived the refused resets.
	status, body := r.request(t, "GET", "/users", map[string]string{"X-SP-GATEWAY": synapsefake.New().Gateway()}, nil)
	if status != http.StatusOK || body["users_count"] != 4.0 {
		t.Errorf("GET /users: %d users_count %v, want 200 and 4 (the seeded user and three made above)", status, body["users_count"])
	}
}

func TestServeControlToken(t *testing.T) {
	t.Parallel()
	const token = "tok-7f3a"
	r := start(t, "-addr", "127.0.0.1:0", "-quiet", "-control-token", token)
	if out := r.out.String(); !strings.Contains(out, "the control API needs -control-token") || strings.Contains(out, token) {
		t.Errorf("startup output does not say the control API needs the token, or shows it:\n%s", out)
	}
	for _, tc := range []struct {
		name, method, path string
		header             map[string]string
		want               int
		code               string
	}{
		{"no token", "GET", "/_fake/clock", nil, 401, "missing_control_token"},
		{"a wrong token", "GET", "/_fake/clock", map[string]string{"X-Fake-Control-Token": "tok"}, 401, "invalid_control_token"},
		{"the token", "GET", "/_fake/clock", map[string]string{"X-Fake-Control-Token": token}, 200, ""},
		{"a bearer token", "POST", "/_fake/users", map[string]string{"Authorization": "Bearer " + token}, 200, ""},
		{"the API needs none", "GET", "/v3.1/loans-limits", nil, 200, ""},
	} {
		status, _, code := r.send(t, tc.method, tc.path, "", tc.header)
		if status != tc.want || code != tc.code {
			t.Errorf("%s: %s %s: %d %q, want %d %q", tc.name, tc.method, tc.path, status, code, tc.want, tc.code)
		}
	}
	status, h, _ := r.send(t, "GET", "/_fake/ui/?token="+token, "", nil)
	if status != http.StatusSeeOther || h.Get("Location") != "/_fake/ui/" || !strings.HasPrefix(h.Get("Set-Cookie"), "synapsefake_control=") {
		t.Errorf("GET /_fake/ui/?token=: %d Location %q Set-Cookie %q, want 303 to /_fake/ui/ with the cookie", status, h.Get("Location"), h.Get("Set-Cookie"))
	}
	cookie := strings.Split(h.Get("Set-Cookie"), ";")[0]
	if status, _, _ := r.send(t, "GET", "/_fake/ui/", "", map[string]string{"Cookie": cookie}); status != http.StatusOK {
		t.Errorf("GET /_fake/ui/ with the cookie: %d, want 200", status)
	}
}

func TestServeHelpNamesTheControlFlags(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	if err := serve(context.Background(), []string{"-h"}, &out, nil); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("serve(-h) = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"-allow-host name", "DNS rebinding", "-control-token token", "X-Fake-Control-Token"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestServeStart: -start sets the fake's time at start-up: frozen there
// with -clock manual, running on from there with -clock real; without it
// the clock starts at the wall-clock time.
func TestServeStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		want time.Time // zero: the wall-clock time of the start
		runs bool      // a real clock: Now is at or after want, within the test's time
	}{
		{"manual at an instant", []string{"-clock", "manual", "-start", "2026-11-25T17:00:00-05:00"}, time.Date(2026, 11, 25, 22, 0, 0, 0, time.UTC), false},
		{"manual at the default start", []string{"-clock", "manual", "-start", "default"}, synapsefake.DefaultStartTime(), false},
		{"manual with milliseconds", []string{"-clock", "manual", "-start", "2027-01-04T08:30:00.250Z"}, time.Date(2027, 1, 4, 8, 30, 0, 250e6, time.UTC), false},
		{"real from an instant", []string{"-clock", "real", "-start", "2030-01-01T00:00:00Z"}, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"manual without -start", []string{"-clock", "manual"}, time.Time{}, false},
		{"real without -start", []string{"-clock", "real"}, time.Time{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			began := time.Now().Truncate(time.Millisecond)
			r := start(t, append([]string{"-addr", "127.0.0.1:0", "-quiet"}, tc.args...)...)
			ctl := strings.TrimSuffix(r.base, "/v3.1")
			now := func() time.Time {
				resp, err := http.Get(ctl + "/_fake/clock")
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				var body struct{ Now int64 }
				if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
					t.Fatal(err)
				}
				return time.UnixMilli(body.Now).UTC()
			}
			got := now()
			ended := time.Now()
			switch {
			case tc.want.IsZero():
				if got.Before(began) || got.After(ended) {
					t.Errorf("clock at %v, want the wall-clock time, within [%v, %v]", got, began, ended)
				}
			case tc.runs:
				if got.Before(tc.want) || got.After(tc.want.Add(ended.Sub(began))) {
					t.Errorf("clock at %v, want %v plus at most %v", got, tc.want, ended.Sub(began))
				}
			case !got.Equal(tc.want):
				t.Errorf("clock at %v, want %v", got, tc.want)
			}
			if !tc.runs {
				if again := now(); !again.Equal(got) {
					t.Errorf("a manual clock moved by itself, from %v to %v", got, again)
				}
			}
		})
	}
}

func TestServeHelpPointsToTheDocs(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	if err := serve(context.Background(), []string{"-h"}, &out, nil); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("serve(-h) = %v, want flag.ErrHelp", err)
	}
	help := out.String()
	for _, want := range []string{"docs/standalone.md", "the world file format", "-version"} {
		if !strings.Contains(help, want) {
			t.Errorf("-h output lacks %q:\n%s", want, help)
		}
	}
	if strings.Contains(help, "README") {
		t.Errorf("-h output points to the README, which does not hold the flags or the world format:\n%s", help)
	}
}

// TestServeUnspecifiedAddress checks the banner of a fake listening on all
// interfaces, as in the container (-addr :8080): it names localhost, which
// the control API answers, rather than [::] or 0.0.0.0.
func TestServeUnspecifiedAddress(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", ":0", "-quiet")
	port := r.base[strings.LastIndex(r.base, ":")+1 : len(r.base)-len("/v3.1")]
	out := r.out.String()
	if !strings.HasPrefix(out, "synapsefake serving "+r.base+"\n") {
		t.Errorf("startup output does not begin with the serving line for %s:\n%s", r.base, out)
	}
	for _, want := range []string{
		"\n  base URL for the SDKs: http://localhost:" + port + "/v3.1\n",
		"\n  dashboard: http://localhost:" + port + "/_fake/ui/\n",
		"\n  curl http://localhost:" + port + "/v3.1/loans-limits\n",
		"answer only Host localhost, 127.0.0.0/8, [::1] (-allow-host adds names)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("startup output lacks %q:\n%s", want, out)
		}
	}
	// The control API answers the printed name (a port published by a
	// container reaches the fake as localhost:PORT too) and refuses others.
	for _, tc := range []struct {
		host string
		want int
	}{
		{"localhost:" + port, http.StatusOK},
		{"localhost:18080", http.StatusOK},
		{"fake:8080", http.StatusForbidden},
	} {
		if status, _, _ := r.send(t, "GET", "/_fake/ui/", tc.host, nil); status != tc.want {
			t.Errorf("GET /_fake/ui/ with Host %s: %d, want %d", tc.host, status, tc.want)
		}
	}
}

func TestServeVersion(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	// -version answers before listening: the taken address does not matter.
	taken := start(t, "-addr", "127.0.0.1:0", "-quiet")
	addr := strings.TrimSuffix(strings.TrimPrefix(taken.base, "http://"), "/v3.1")
	if err := serve(context.Background(), []string{"-version", "-addr", addr}, &out, nil); err != nil {
		t.Fatalf("serve(-version) = %v, want nil", err)
	}
	if got, want := out.String(), versionLine(version, debug.ReadBuildInfo)+"\n"; got != want {
		t.Errorf("-version printed %q, want %q", got, want)
	}
}

func TestVersionLine(t *testing.T) {
	t.Parallel()
	platform := runtime.GOOS + "/" + runtime.GOARCH
	info := func(main string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: repository, Version: main}, Settings: settings}, true
		}
	}
	for _, tc := range []struct {
		name      string
		release   string
		buildInfo func() (*debug.BuildInfo, bool)
		want      string
	}{
		{"go install @v1.2.3", "", info("v1.2.3"), "synapsefake v1.2.3 (go1.26.0 " + platform + ")"},
		{"a checkout's pseudo-version and commit", "", info("v0.0.0-20260101120000-0123456789ab+dirty",
			debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}),
			"synapsefake v0.0.0-20260101120000-0123456789ab+dirty (go1.26.0 " + platform + ", commit 0123456789ab)"},
		{"the release script's version wins", "v2.0.0", info("v0.0.0-20260101120000-0123456789ab"), "synapsefake v2.0.0 (go1.26.0 " + platform + ")"},
		{"a build without a version", "", info("(devel)"), "synapsefake (devel) (go1.26.0 " + platform + ")"},
		{"no build information", "", func() (*debug.BuildInfo, bool) { return nil, false }, "synapsefake (devel) (" + runtime.Version() + " " + platform + ")"},
		{"no build information, a release", "v2.0.0", func() (*debug.BuildInfo, bool) { return nil, false }, "synapsefake v2.0.0 (" + runtime.Version() + " " + platform + ")"},
	} {
		if got := versionLine(tc.release, tc.buildInfo); got != tc.want {
			t.Errorf("%s: versionLine = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// worldNames is a loaded world's names to ids, as POST /_fake/world
// answers them.
type worldNames struct {
	World struct {
		Users        map[string]string `json:"users"`
		Nodes        map[string]string `json:"nodes"`
		Transactions map[string]string `json:"transactions"`
		OAuthKeys    map[string]string `json:"oauth_keys"`
	} `json:"world"`
}

// loadWorld loads a world file through the control API.
func (r *running) loadWorld(t *testing.T, world string) worldNames {
	t.Helper()
	status, body, _ := strings.Cut(r.raw(t, "POST", "/_fake/world", world), " ")
	if status != "200" {
		t.Fatalf("POST /_fake/world: %s %s", status, body)
	}
	var w worldNames
	if err := json.Unmarshal([]byte(body), &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestServeImmediateProvisionalCredit: by default a dispute of $20.00 gets
// its provisional credit business days later; -immediate-provisional-credit
// posts it as the dispute is filed.
func TestServeImmediateProvisionalCredit(t *testing.T) {
	t.Parallel()
	const world = `{"users": [
		{"name": "ann", "oauth": {"fingerprint": "ann-phone"}, "nodes": [{"name": "checking", "balance": "100.00"}]},
		{"name": "shop", "nodes": [{"name": "till", "type": "EXTERNAL-US"}]}],
	 "transactions": [{"name": "buy", "from": "checking", "to": "till", "amount": 20, "status": "SETTLED"}]}`
	for _, tc := range []struct {
		name       string
		args       []string
		wantCredit bool
	}{
		{"default", nil, false},
		{"-immediate-provisional-credit", []string{"-immediate-provisional-credit"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := start(t, append([]string{"-addr", "127.0.0.1:0", "-clock", "manual"}, tc.args...)...)
			w := r.loadWorld(t, world)
			path := "/users/" + w.World.Users["ann"] + "/nodes/" + w.World.Nodes["checking"] + "/trans/" + w.World.Transactions["buy"] + "/dispute"
			code, answer := r.request(t, "PATCH", path, map[string]string{
				"X-SP-GATEWAY": synapsefake.New().Gateway(),
				"X-SP-USER":    w.World.OAuthKeys["ann"] + "|ann-phone",
				"X-SP-USER-IP": "127.0.0.1",
			}, map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"})
			if code != http.StatusOK {
				t.Fatalf("PATCH dispute: %d %v", code, answer)
			}
			if got := answer["provisional_credit_tran"] != nil; got != tc.wantCredit {
				t.Errorf("provisional_credit_tran %v, want one: %v", answer["provisional_credit_tran"], tc.wantCredit)
			}
		})
	}
}

// TestBannerAndAdvanceAgree checks that the start-up lines suggest a clock
// advance only where one moves the clock, and that POST
// /_fake/clock/advance under -clock real is refused with the reason instead
// of answering 200 and moving nothing.
func TestBannerAndAdvanceAgree(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		clock      string
		suggests   bool
		wantStatus string // the advance's status and error code, as raw gives it
	}{
		{"manual", true, `200 {"now":`},
		{"real", false, `409 {"error":{"en":"The clock follows real time`},
	} {
		t.Run(tc.clock, func(t *testing.T) {
			t.Parallel()
			r := start(t, "-addr", "127.0.0.1:0", "-clock", tc.clock)
			defer r.stop(t)
			out := r.out.String()
			if got := strings.Contains(out, "/_fake/clock/advance"); got != tc.suggests {
				t.Errorf("-clock %s: the start-up lines suggest clock/advance: %v, want %v:\n%s", tc.clock, got, tc.suggests, out)
			}
			before := r.raw(t, "GET", "/_fake/clock", "")
			got := r.raw(t, "POST", "/_fake/clock/advance", `{"duration":"24h"}`)
			if !strings.HasPrefix(got, tc.wantStatus) {
				t.Errorf("-clock %s: POST /_fake/clock/advance 24h answered %.200s, want it to begin %s", tc.clock, got, tc.wantStatus)
			}
			if tc.clock == "real" {
				if !strings.Contains(got, `"error_code":"410"`) {
					t.Errorf("-clock real: the refusal %s lacks error_code \"410\"", got)
				}
				// A zero advance runs what is due and is answered.
				if zero := r.raw(t, "POST", "/_fake/clock/advance", `{"duration":"0s"}`); !strings.HasPrefix(zero, "200 ") {
					t.Errorf("-clock real: a zero advance answered %.200s, want 200", zero)
				}
			} else if before == got {
				t.Errorf("-clock manual: the clock did not move: %s", got)
			}
		})
	}
}

// TestServeFundsCheck: by default a transfer over the sender's balance is
// taken, as the sandbox took it; -funds-check refuses it, 409 / "400"
// insufficient_funds, as WithFundsCheck does.
func TestServeFundsCheck(t *testing.T) {
	t.Parallel()
	const world = `{"users": [{"name": "ann", "oauth": {"fingerprint": "ann-phone"},
		"nodes": [{"name": "checking", "balance": "5.00"}, {"name": "savings"}]}]}`
	for _, tc := range []struct {
		name       string
		args       []string
		wantStatus int
		wantCode   string
	}{
		{"default", nil, http.StatusOK, ""},
		{"-funds-check", []string{"-funds-check"}, http.StatusConflict, "insufficient_funds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := start(t, append([]string{"-addr", "127.0.0.1:0", "-clock", "manual"}, tc.args...)...)
			w := r.loadWorld(t, world)
			code, answer := r.request(t, "POST", "/users/"+w.World.Users["ann"]+"/nodes/"+w.World.Nodes["checking"]+"/trans", map[string]string{
				"X-SP-GATEWAY": synapsefake.New().Gateway(),
				"X-SP-USER":    w.World.OAuthKeys["ann"] + "|ann-phone",
				"X-SP-USER-IP": "127.0.0.1",
			}, map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": w.World.Nodes["savings"]},
				"amount": map[string]any{"amount": 10, "currency": "USD"}, "extra": map[string]any{"ip": "127.0.0.1"}})
			e, _ := answer["error"].(map[string]any)
			errCode, _ := e["code"].(string)
			if code != tc.wantStatus || errCode != tc.wantCode {
				t.Errorf("a $10.00 transfer from $5.00: %d %v, want %d %q", code, answer, tc.wantStatus, tc.wantCode)
			}
		})
	}
}

// TestServeKYCReview: a document sent with a seeded user is reviewed by
// the next request by default, an hour of the fake's clock later with
// -kyc-review 1h, and only by hand with -kyc-review manual.
func TestServeKYCReview(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		args       []string
		now, later string // the SSN's status at once, and after an hour
	}{
		{"default", nil, "SUBMITTED|VALID", "SUBMITTED|VALID"},
		{"-kyc-review 1h", []string{"-kyc-review", "1h"}, "SUBMITTED|REVIEWING", "SUBMITTED|VALID"},
		{"-kyc-review manual", []string{"-kyc-review", "manual"}, "SUBMITTED|REVIEWING", "SUBMITTED|REVIEWING"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := start(t, append([]string{"-addr", "127.0.0.1:0", "-clock", "manual"}, tc.args...)...)
			ctl := *r
			ctl.base = strings.TrimSuffix(r.base, "/v3.1")
			code, answer := ctl.request(t, "POST", "/_fake/users", nil, map[string]any{"documents": []any{map[string]any{"kind": "virtual", "type": "SSN", "value": "2222"}}})
			if code != http.StatusOK {
				t.Fatalf("POST /_fake/users: %d %v", code, answer)
			}
			id, _ := answer["user"].(map[string]any)["_id"].(string)
			status := func() string {
				_, got := ctl.request(t, "GET", "/_fake/users/"+id, nil, nil)
				u, _ := got["user"].(map[string]any)
				docs, _ := u["documents"].([]any)
				subs, _ := docs[0].(map[string]any)["sub_documents"].([]any)
				s, _ := subs[0].(map[string]any)["status"].(string)
				return s
			}
			if got := status(); got != tc.now {
				t.Errorf("at once: %s, want %s", got, tc.now)
			}
			if code, answer := ctl.request(t, "POST", "/_fake/clock/advance", nil, map[string]any{"duration": "1h"}); code != http.StatusOK {
				t.Fatalf("advance: %d %v", code, answer)
			}
			if got := status(); got != tc.later {
				t.Errorf("an hour later: %s, want %s", got, tc.later)
			}
		})
	}
}

// TestServePlatforms checks that the binary serves many platforms (issue
// 37): a platform made with POST /_fake/platforms answers its own gateway
// with its own users and links under the binary's base URL, its clock moves
// alone, and -max-platforms bounds how many there are.
func TestServePlatforms(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-clock", "manual", "-start", "default", "-quiet", "-max-platforms", "2")
	root := strings.TrimSuffix(r.base, "/v3.1")
	ctl := *r
	ctl.base = root + "/_fake"
	status, body := ctl.request(t, "POST", "/platforms", nil, map[string]any{"client_id": "p1", "client_secret": "s1", "name": "One"})
	now := float64(synapsefake.DefaultStartTime().UnixMilli())
	want := map[string]any{"success": true, "platform": map[string]any{"client_id": "p1", "client_secret": "s1",
		"gateway": "p1|s1", "name": "One", "base_url": r.base, "control_url": root + "/_fake/platforms/p1", "now": now}}
	if status != http.StatusOK || !cmp.Equal(body, want) {
		t.Fatalf("POST /_fake/platforms: %d, diff (-got +want):\n%s", status, cmp.Diff(body, want))
	}
	status, body = ctl.request(t, "POST", "/platforms", nil, map[string]any{"client_id": "p2"})
	if code, _ := body["error"].(map[string]any)["code"].(string); status != http.StatusTooManyRequests || body["error_code"] != "429" || code != "too_many_platforms" {
		t.Errorf("POST /_fake/platforms beyond -max-platforms 2: %d %v, want 429 too_many_platforms", status, body)
	}
	gw := map[string]string{"X-SP-GATEWAY": "p1|s1", "X-SP-USER": "|fp", "X-SP-USER-IP": "127.0.0.1"}
	status, body = r.request(t, "POST", "/users", gw, map[string]any{"logins": []any{map[string]any{"email": "a@example.com"}},
		"phone_numbers": []any{"901.111.1111"}, "legal_names": []any{"A"}})
	self, _ := body["_links"].(map[string]any)["self"].(map[string]any)
	if status != http.StatusOK || self["href"] != r.base+"/users/"+body["_id"].(string) {
		t.Errorf("POST /users on p1: %d, _links.self %v, want under %s", status, self, r.base)
	}
	for _, tc := range []struct {
		gw    string
		users float64
	}{{"p1|s1", 1}, {synapsefake.New().Gateway(), 1}} { // p1's own user; the default's seeded one
		status, body := r.request(t, "GET", "/users", map[string]string{"X-SP-GATEWAY": tc.gw, "X-SP-USER": "|fp", "X-SP-USER-IP": "127.0.0.1"}, nil)
		if status != http.StatusOK || body["users_count"] != tc.users {
			t.Errorf("GET /users as %s: %d users_count %v, want %v", tc.gw, status, body["users_count"], tc.users)
		}
	}
	if status, body := ctl.request(t, "POST", "/platforms/p1/clock/advance", nil, map[string]any{"duration": "24h"}); status != http.StatusOK || body["now"] != now+864e5 {
		t.Errorf("advance p1: %d %v, want now %v", status, body, now+864e5)
	}
	if _, body := ctl.request(t, "GET", "/clock", nil, nil); body["now"] != now {
		t.Errorf("the default's clock: %v, want %v (left where it was)", body["now"], now)
	}
}

// TestServeStatePlatforms checks that -state saves the platforms made
// besides the default beside its file (FILE.platforms) and makes them again
// at the next start, each with its users, credentials and clock; a fake
// whose platforms were never made writes no such file.
func TestServeStatePlatforms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")
	args := []string{"-addr", freeAddr(t), "-clock", "manual", "-start", "default", "-quiet", "-state", file, "-state-interval", "0"}
	first := start(t, args...)
	if err := first.stop(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
	if _, err := os.Stat(file + ".platforms"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a fake with no platform made wrote %s.platforms (%v)", file, err)
	}
	second := start(t, args...)
	if got := second.raw(t, "POST", "/_fake/platforms", `{"client_id":"p1","client_secret":"s1","name":"One"}`); !strings.HasPrefix(got, "200 ") {
		t.Fatalf("POST /_fake/platforms: %s", got)
	}
	gw := map[string]string{"X-SP-GATEWAY": "p1|s1", "X-SP-USER": "|fp", "X-SP-USER-IP": "127.0.0.1"}
	_, user := second.request(t, "POST", "/users", gw, map[string]any{"logins": []any{map[string]any{"email": "a@example.com"}},
		"phone_numbers": []any{"901.111.1111"}, "legal_names": []any{"A"}})
	second.raw(t, "POST", "/_fake/platforms/p1/clock/advance", `{"duration":"26h"}`)
	if err := second.stop(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
	third := start(t, args...)
	status, body := third.request(t, "GET", "/users/"+user["_id"].(string), gw, nil)
	if status != http.StatusOK || body["_id"] != user["_id"] || body["client"].(map[string]any)["name"] != "One" {
		t.Errorf("GET /users/%v on p1 after a restart: %d %v", user["_id"], status, body)
	}
	want := fmt.Sprintf(`"now":%d`, synapsefake.DefaultStartTime().Add(26*time.Hour).UnixMilli())
	if got := third.raw(t, "GET", "/_fake/platforms/p1/clock", ""); !strings.HasPrefix(got, "200 ") || !strings.Contains(got, want) {
		t.Errorf("p1's clock after a restart: %s, want %s", got, want)
	}
}

// TestBannerInTheClientsWords: started by a client that names itself in
// SYNAPSEFAKE_CLIENT, the binary suggests that client's call to move the
// clock, not curl's; with no client named, curl's. Not parallel: it sets
// the environment.
func TestBannerInTheClientsWords(t *testing.T) {
	for _, tc := range []struct {
		client, want string
	}{
		{"", `  curl -X POST http://127.0.0.1:`},
		{"curl/8.5.0", `  curl -X POST http://127.0.0.1:`},
		{"python/0.0.0.dev0", `  synapsefake.advance("24h")   # moves a platform's clock in a test; every control call: docs/control-api.md` + "\n"},
		{"node/0.0.0-dev", `  platform.control.advance('24h')   # moves a platform's clock in a test; every control call: docs/control-api.md` + "\n"},
		{"ruby", `  synapsefake.advance("24h")   # moves a platform's clock in a test; every control call: docs/control-api.md` + "\n"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			t.Setenv("SYNAPSEFAKE_CLIENT", tc.client)
			r := start(t, "-addr", "127.0.0.1:0", "-clock", "manual", "-quiet")
			defer r.stop(t)
			if out := r.out.String(); !strings.Contains(out, "next: point your client at the base URL with the client id and secret above, or try\n") ||
				!strings.Contains(out, tc.want) {
				t.Errorf("SYNAPSEFAKE_CLIENT=%q: the start-up lines lack %q:\n%s", tc.client, tc.want, out)
			}
		})
	}
}
