package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// get asks url and answers its status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// notReadyLoading is /_fake/readyz's answer while the binary loads -state
// FILE.
func notReadyLoading(file string) string {
	return `{"error":{"en":"The fake is loading its state from ` + file + `; it answers once that is done.","code":"not_ready"},"error_code":"503","http_code":"503","success":false}`
}

// TestServeReadyOnceTheStateIsLoaded holds the binary after it listens and
// before it loads its -state file: /_fake/livez answers 200, /_fake/readyz
// 503 / "503" not_ready, and an API request waits; once the state is in,
// the request is answered from it and readyz is 200, and the healthcheck
// subcommand says so. Not parallel: it sets the startupLoading hook.
func TestServeReadyOnceTheStateIsLoaded(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")
	saved := synapsefake.New(synapsefake.WithIDSeed(1))
	u := saved.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Saved User"}})
	var doc bytes.Buffer
	if err := saved.Snapshot(&doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, doc.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	listening, holding, release := holdStartup(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, []string{"-addr", "127.0.0.1:0", "-clock", "manual", "-state", file, "-state-interval", "0"}, out, nil)
	}()
	base := <-listening
	root := strings.TrimSuffix(base, "/v3.1")

	if status, body := get(t, root+"/_fake/livez"); status != 200 || body != `{"live":true,"success":true}` {
		t.Errorf("GET /_fake/livez while loading: %d %s, want 200", status, body)
	}
	if status, body := get(t, root+"/_fake/readyz"); status != 503 || body != notReadyLoading(file) {
		t.Errorf("GET /_fake/readyz while loading: %d %s, want 503 %s", status, body, notReadyLoading(file))
	}
	if err := healthcheck([]string{"-url", root + "/_fake/readyz"}, io.Discard, os.Getenv); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("healthcheck while loading: %v, want an error naming the 503", err)
	}
	held := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest("GET", base+"/users/"+u.ID, nil)
		req.Header.Set("X-SP-GATEWAY", saved.Gateway())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			held <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		held <- resp.Status + " " + string(b)
	}()
	<-holding
	if out.String() != "" {
		t.Errorf("printed %q before the state was loaded, want nothing (the banner's first line comes first)", out)
	}
	close(release)

	if got := <-held; !strings.HasPrefix(got, "200 ") || !strings.Contains(got, "Saved User") {
		t.Errorf("the request held while loading: %s, want the saved user", got)
	}
	if status, body := get(t, root+"/_fake/readyz"); status != 200 || body != `{"ready":true,"success":true}` {
		t.Errorf("GET /_fake/readyz once loaded: %d %s, want 200", status, body)
	}
	var said bytes.Buffer
	if err := healthcheck([]string{"-url", root + "/_fake/readyz"}, &said, os.Getenv); err != nil {
		t.Errorf("healthcheck once loaded: %v", err)
	}
	if want := "synapsefake healthcheck: " + root + "/_fake/readyz answered 200: ready\n"; said.String() != want {
		t.Errorf("healthcheck printed %q, want %q", said.String(), want)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
	if first, _, _ := strings.Cut(out.String(), "\n"); !strings.HasPrefix(first, "synapsefake serving ") {
		t.Errorf("first line %q, want the banner's", first)
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "/_fake/livez") || strings.Contains(l, "/_fake/readyz") {
			t.Errorf("the request log shows a health probe: %q", l)
		}
	}
}

// TestServeNotReadyWhenTheStartFails: a request held while the state loads
// gets 503 not_ready when the state file is refused, and serve returns the
// refusal. Not parallel: it sets the startupLoading hook.
func TestServeNotReadyWhenTheStartFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(file, []byte(`{"format":"not a state"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	listening, holding, release := holdStartup(t)
	done := make(chan error, 1)
	go func() {
		done <- serve(context.Background(), []string{"-addr", "127.0.0.1:0", "-state", file}, io.Discard, nil)
	}()
	base := <-listening
	held := make(chan string, 1)
	go func() {
		resp, err := http.Get(base + "/loans-limits")
		if err != nil {
			held <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		held <- http.StatusText(resp.StatusCode) + " " + string(b)
	}()
	<-holding
	close(release)
	if err := <-done; err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("serve: %v, want the state file refused", err)
	}
	want := `Service Unavailable {"error":{"en":"The fake did not start.","code":"not_ready"},"error_code":"503","http_code":"503","success":false}`
	if got := <-held; got != want {
		t.Errorf("the request held: %s, want %s", got, want)
	}
}

// TestHealthcheck runs the subcommand against a stand-in fake: 200 is
// ready (exit 0), anything else or no answer is not (exit 1), and the URL
// comes from -url, else -addr, else $SYNAPSEFAKE_HEALTHCHECK_URL, else
// 127.0.0.1:8080.
func TestHealthcheck(t *testing.T) {
	t.Parallel()
	var asked struct {
		path, host string
	}
	status := http.StatusOK
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.path, asked.host = r.URL.Path, r.Host
		w.WriteHeader(status)
		io.WriteString(w, `{"ready":true,"success":true}`)
	}))
	defer fake.Close()
	addr := strings.TrimPrefix(fake.URL, "http://")
	_, port, _ := strings.Cut(addr, ":")
	dead := freeAddr(t)
	for _, tc := range []struct {
		name   string
		args   []string
		env    string
		status int
		host   string // the Host it asked, "" for none
		err    string // in the error, "" for none
	}{
		{"-url", []string{"-url", fake.URL + "/_fake/readyz"}, "", 200, addr, ""},
		{"-addr with the fake's port alone", []string{"-addr", ":" + port}, "", 200, addr, ""},
		{"-addr on all interfaces", []string{"-addr", "0.0.0.0:" + port}, "", 200, addr, ""},
		{"the environment", nil, fake.URL + "/_fake/readyz", 200, addr, ""},
		{"-addr over the environment", []string{"-addr", dead}, fake.URL + "/_fake/readyz", 200, "", "not answering"},
		{"not ready", []string{"-url", fake.URL + "/_fake/readyz"}, "", 503, addr, "answered 503"},
		{"nothing listening", []string{"-addr", dead}, "", 200, "", "not answering"},
		{"a bad -addr", []string{"-addr", "8080"}, "", 200, "", "-addr"},
		{"arguments", []string{"now"}, "", 200, "", "unexpected arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked.path, asked.host, status = "", "", tc.status
			err := healthcheck(tc.args, io.Discard, func(k string) string {
				if k == healthcheckURLEnv {
					return tc.env
				}
				return ""
			})
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("healthcheck(%q): %v, want nil", tc.args, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("healthcheck(%q): %v, want an error with %q", tc.args, err, tc.err)
			}
			if tc.host != "" && (asked.host != tc.host || asked.path != "/_fake/readyz") {
				t.Errorf("asked %s%s, want %s/_fake/readyz", asked.host, asked.path, tc.host)
			}
		})
	}
}

// TestHealthcheckSubcommand: run dispatches "healthcheck" and its flags,
// and its default is the container's fake, 127.0.0.1:8080.
func TestHealthcheckSubcommand(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	err := run([]string{"healthcheck", "-h"}, &out)
	if err == nil || !strings.Contains(out.String(), "Usage: synapsefake healthcheck") || !strings.Contains(out.String(), "127.0.0.1:8080") {
		t.Errorf("run healthcheck -h: %v\n%s", err, out.String())
	}
	r := start(t, "-addr", "127.0.0.1:0", "-quiet")
	if err := run([]string{"healthcheck", "-addr", strings.TrimPrefix(strings.TrimSuffix(r.base, "/v3.1"), "http://")}, io.Discard); err != nil {
		t.Errorf("run healthcheck against a running fake: %v", err)
	}
}

// TestRequestLogNearMisses: the request log's line of an API request no
// route took asks about the nearest routes; other lines, a control route's
// 404 among them, stay as they were.
func TestRequestLogNearMisses(t *testing.T) {
	t.Parallel()
	r := start(t, "-addr", "127.0.0.1:0", "-clock", "manual")
	const id = "5f0a0a0a0a0a0a0a0a0a0a01"
	root := strings.TrimSuffix(r.base, "/v3.1")
	cases := []struct {
		method, path string // path below the server's root
		note         string
	}{
		{"POST", "/v3.1/users/" + id + "/nodes/" + id + "/tran", " did you mean `POST /users/{user_id}/nodes/{node_id}/trans`?"},
		{"PUT", "/v3.1/users/" + id, " did you mean `PATCH /users/{user_id}` or `GET /users/{user_id}`?"},
		{"GET", "/users/" + id + "/nodes", " did you mean `GET /users/{user_id}/nodes`? (routes are under /v3.1)"},
		{"GET", "/v3.1/v3.1/users", " did you mean `GET /users`? (/v3.1 is doubled)"},
		{"GET", "/v3.1/users/" + id + "/nodes/", " did you mean `GET /users/{user_id}/nodes`?"},
		{"GET", "/v3.1/users/" + id, ""},  // a route: 404 for the user only
		{"GET", "/v3.1/nothing-near", ""}, // no route near
		{"GET", "/_fake/userz", ""},       // the control API's
		{"GET", "/v3.1/loans-limits", ""}, // answered
	}
	for _, tc := range cases {
		req, err := http.NewRequest(tc.method, root+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-SP-GATEWAY", synapsefake.New().Gateway())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if err := r.stop(t); err != nil { // the log's lines are all out
		t.Fatal(err)
	}
	lines := strings.Split(r.out.String(), "\n")
	for _, tc := range cases {
		var line string
		for _, l := range lines {
			if strings.HasPrefix(l, tc.method+" "+tc.path+" ") {
				line = l
			}
		}
		switch {
		case line == "":
			t.Errorf("no log line for %s %s in:\n%s", tc.method, tc.path, r.out)
		case tc.note == "" && strings.Contains(line, "did you mean"), tc.note != "" && !strings.HasSuffix(line, tc.note):
			t.Errorf("log line %q, want it to end with %q", line, tc.note)
		}
	}
}

// holdStartup sets the start-up hooks until t ends: listening receives the
// base URL once the server listens and its state is loading, which then
// waits for release to be closed; holding receives once the server holds
// requests for the load.
func holdStartup(t *testing.T) (listening <-chan string, holding <-chan struct{}, release chan struct{}) {
	l, h := make(chan string, 1), make(chan struct{}, 1)
	release = make(chan struct{})
	startupLoading = func(base string) {
		l <- base
		<-release
	}
	startupHolding = func() { h <- struct{}{} }
	t.Cleanup(func() { startupLoading, startupHolding = nil, nil })
	return l, h, release
}
