package api

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/benchpair"
)

// recordingWire is a test wire that records its exchanges in a directory
// of the test's, and that directory.
func recordingWire(t testing.TB) (*Wire, string) {
	w := newTestWire(nil)
	endTestWire(t, w)
	dir := t.TempDir()
	w.exchanges = newExchangeRecorder(dir)
	return w, dir
}

func readExchanges(t *testing.T, dir string) []Exchange {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v (%v), want one", files, err)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Exchange
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var x Exchange
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
}

// TestExchangesRecorded: a wire that records writes each call it serves,
// answered or refused, with the test's name, the route, the request as
// read and the answer; a body that is not UTF-8 is base64; a call the
// WithHook hook answered is marked.
func TestExchangesRecorded(t *testing.T) {
	w, dir := recordingWire(t)
	hookOn := false
	w.Cfg.Hook = func(rw http.ResponseWriter, r *http.Request) bool {
		if !hookOn {
			return false
		}
		rw.WriteHeader(http.StatusTeapot)
		return true
	}
	u, err := w.AddUser(bank.UserSeed{})
	if err != nil {
		t.Fatal(err)
	}
	serve := func(method, path, body string) {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("X-SP-GATEWAY", w.Cfg.ClientID+"|"+w.Cfg.ClientSecret)
		serveTest(w, httptest.NewRecorder(), r)
	}
	serve("GET", "/v3.1/users/"+u.ID+"?full_dehydrate=no", "")
	serve("POST", "/v3.1/subscriptions", "\xff not UTF-8")
	serve("GET", "/v3.1/nope", "")
	hookOn = true
	serve("GET", "/v3.1/users", "")

	got := readExchanges(t, dir)
	want := []Exchange{
		{Package: "internal/api", Origin: t.Name(), Method: "GET", Path: "/v3.1/users/" + u.ID, Query: "full_dehydrate=no",
			Route: "/users/{user_id}", Status: 200},
		{Package: "internal/api", Origin: t.Name(), Method: "POST", Path: "/v3.1/subscriptions", Body: "/yBub3QgVVRGLTg=", BodyBase64: true,
			Route: "/subscriptions", Status: 400},
		{Package: "internal/api", Origin: t.Name(), Method: "GET", Path: "/v3.1/nope", Route: "", Status: 404},
		{Package: "internal/api", Origin: t.Name(), Method: "GET", Path: "/v3.1/users", Route: "/users", Status: 418, Hooked: true},
	}
	ignore := cmpopts.IgnoreFields(Exchange{}, "Header", "AnswerHeader", "Answer")
	if diff := cmp.Diff(want, got, ignore); diff != "" {
		t.Errorf("exchanges (-want +got):\n%s", diff)
	}
	if len(got) == 4 {
		if !strings.Contains(got[0].Answer, `"_id":"`+u.ID+`"`) || got[0].AnswerHeader.Get("Content-Type") != "application/json" {
			t.Errorf("the user's answer %q, header %v", got[0].Answer, got[0].AnswerHeader)
		}
		if !strings.Contains(got[1].Answer, `"error_code":"200"`) {
			t.Errorf("the refusal's answer %q", got[1].Answer)
		}
		if got[0].Header.Get("X-Sp-Gateway") == "" {
			t.Error("the request's headers were not recorded")
		}
	}
}

// TestExchangesOffByDefault: without ExchangesEnv a wire records nothing.
func TestExchangesOffByDefault(t *testing.T) {
	if exchangesDir != "" {
		t.Skipf("%s is set for this run", ExchangesEnv)
	}
	if w := newTestWire(nil); w.exchanges != nil {
		t.Error("a wire records exchanges with the variable unset")
	}
}

// BenchmarkExchangeRecording is the cost of recording an exchange (a GET
// of a user: op) beside serving it without (baseline), and the cost of the
// hook when recording is off: the check alone, against an empty function
// (off: x near 1, no allocation).
func BenchmarkExchangeRecording(b *testing.B) {
	w, _ := recordingWire(b)
	u, err := w.AddUser(bank.UserSeed{})
	if err != nil {
		b.Fatal(err)
	}
	rec := w.exchanges
	r := httptest.NewRequest("GET", "/v3.1/users/"+u.ID, nil)
	r.Header.Set("X-SP-GATEWAY", w.Cfg.ClientID+"|"+w.Cfg.ClientSecret)
	serve := func() {
		rw := httptest.NewRecorder()
		serveTest(w, rw, r)
		if rw.Code != http.StatusOK {
			b.Fatalf("status %d", rw.Code)
		}
	}
	b.Run("on", func(b *testing.B) {
		benchpair.Run(b, func() { w.exchanges = rec; serve() }, func() { w.exchanges = nil; serve() })
	})
	b.Run("off", func(b *testing.B) {
		w.exchanges = nil
		g := &GuardWriter{ResponseWriter: httptest.NewRecorder()}
		b.ReportAllocs()
		benchpair.Run(b, func() {
			if w.startExchange(g, r) != nil {
				b.Fatal("recording")
			}
		}, func() {})
	})
}
