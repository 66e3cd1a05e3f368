package api_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

const createTxRoute = "/users/{user_id}/nodes/{node_id}/trans"

func txCall(a, b testkit.Fixture, idem string) testkit.Call {
	h := map[string]string{}
	for k, v := range a.Headers {
		h[k] = v
	}
	if idem != "" {
		h["X-SP-IDEMPOTENCY-KEY"] = idem
	}
	return testkit.Call{Method: "POST", Path: "/users/" + a.User.ID + "/nodes/" + a.Node.ID + "/trans", Header: h,
		Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": b.Node.ID},
			"amount": map[string]any{"amount": 10, "currency": "USD"}, "extra": map[string]any{"ip": "10.0.0.1"}}}
}

func TestFailNext(t *testing.T) {
	for _, tc := range []struct {
		code   string
		status int
	}{
		{"429", 429}, {"500", 500}, {"503", 503}, {"504", 504}, {"460", 402}, {"404", 404}, {"450", 409},
	} {
		t.Run(tc.code, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			a, b := testkit.NewFixture(t, fake, 10000), testkit.NewFixture(t, fake, 0)
			fake.FailNext("POST", createTxRoute, tc.code, 2)
			for range 2 {
				r := testkit.Do(t, fake, txCall(a, b, "key-1"))
				testkit.WantError(t, r, tc.status, tc.code, "injected_failure")
			}
			if n, _ := fake.Node(a.Node.ID); n.BalanceCents != 10000 {
				t.Errorf("a failed request moved money: %d", n.BalanceCents)
			}
			if got := len(fake.RequestsTo("POST", createTxRoute)); got != 2 {
				t.Errorf("journal holds %d create calls, want 2", got)
			}
			// The retry with the same idempotency key succeeds, once.
			r := testkit.Do(t, fake, txCall(a, b, "key-1"))
			if r.Status != 200 {
				t.Fatalf("retry: %d %s", r.Status, r.Raw)
			}
			r = testkit.Do(t, fake, txCall(a, b, "key-1"))
			testkit.WantError(t, r, 409, "450", "idempotency_key_in_use")
			list := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + a.User.ID + "/nodes/" + a.Node.ID + "/trans", Header: a.Headers})
			if list.Body["trans_count"] != 1.0 {
				t.Errorf("trans_count %v, want exactly 1", list.Body["trans_count"])
			}
		})
	}
}

func TestFailNextMatching(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	a := testkit.NewFixture(t, fake, 0)
	fake.FailNext("", "*", "503", 1) // any route, any method
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/loans-limits"})
	testkit.WantError(t, r, 503, "503", "injected_failure")
	r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/loans-limits"})
	if r.Status != 200 {
		t.Errorf("the fault was used up, yet: %d", r.Status)
	}
	fake.FailNext("GET", "/users/{user_id}/nodes", "500", 1)
	if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + a.User.ID + "/nodes/" + a.Node.ID, Header: a.Headers}); r.Status != 200 {
		t.Errorf("another route was failed: %d", r.Status)
	}
	testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + a.User.ID + "/nodes", Header: a.Headers}), 500, "500", "injected_failure")

	for _, bad := range []struct{ method, route, code string }{
		{"POST", "/v3.1/users", "503"}, {"POST", "/users/{id}", "503"}, {"PUT", "/users", "503"}, {"POST", "/users", "0"}, {"POST", "/users", "999"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("FailNext(%q, %q, %q) did not panic", bad.method, bad.route, bad.code)
				}
			}()
			fake.FailNext(bad.method, bad.route, bad.code, 1)
		}()
	}
}

func TestSlowNextClientTimeout(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	a, b := testkit.NewFixture(t, fake, 10000), testkit.NewFixture(t, fake, 0)
	fake.SlowNext("POST", createTxRoute, time.Minute, 1)
	c := txCall(a, b, "")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, c.Method, fake.URL()+c.Path, strings.NewReader(`{"to":{"type":"DEPOSIT-US","id":"`+b.Node.ID+`"},"amount":{"amount":1,"currency":"USD"},"extra":{"ip":"1.1.1.1"}}`))
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	_, err := fake.Client().Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("client error %v, want a timeout", err)
	}
	// The abandoned request did nothing, and the next one is not slowed.
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + a.User.ID + "/nodes/" + a.Node.ID + "/trans", Header: a.Headers})
	if r.Body["trans_count"] != 0.0 {
		t.Errorf("trans_count %v after a timed-out create, want 0", r.Body["trans_count"])
	}
	if r := testkit.Do(t, fake, txCall(a, b, "")); r.Status != 200 {
		t.Errorf("next create: %d", r.Status)
	}
}

func TestWithHookAndLatency(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithLatency(time.Millisecond), synapsefake.WithHook(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("X-Teapot") == "" {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte(`{"error":{"en":"teapot"},"error_code":"500","http_code":"418","success":false}`))
		return true
	}))
	if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/loans-limits"}); r.Status != 200 {
		t.Errorf("plain call: %d", r.Status)
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/loans-limits", Header: map[string]string{"X-Teapot": "1"}})
	if r.Status != http.StatusTeapot {
		t.Errorf("hooked call: %d", r.Status)
	}
}

func TestRequestJournal(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
	testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/oauth/" + u.ID, Header: testkit.GatewayHeaders(fake),
		Body: map[string]any{"refresh_token": u.RefreshToken, "validation_pin": "123456"}})
	testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/nope?page=2"})
	reqs := fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests journaled, want 2", len(reqs))
	}
	got := []synapsefake.Request{reqs[0], reqs[1]}
	for i := range got {
		got[i].Header, got[i].Body, got[i].Time = nil, nil, time.Time{}
	}
	want := []synapsefake.Request{
		{Method: "POST", Path: "/v3.1/oauth/" + u.ID, Route: "/oauth/{user_id}", Query: map[string][]string{}, Status: 200, ErrorCode: "0"},
		{Method: "GET", Path: "/v3.1/nope", Route: "", Query: map[string][]string{"page": {"2"}}, Status: 404, ErrorCode: "404",
			Reason: "no route of the API matches GET /v3.1/nope (hint: docs/api.md lists the routes, as the spec writes them)"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("journal (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(reqs[0].Body), u.RefreshToken) || reqs[0].Header.Get("X-Sp-Gateway") != fake.Gateway() {
		t.Errorf("the journal must keep what the app sent: %s %v", reqs[0].Body, reqs[0].Header)
	}
	s := reqs[0].String()
	for _, secret := range []string{fake.ClientSecret(), u.RefreshToken, "123456"} {
		if strings.Contains(s, secret) {
			t.Errorf("String() shows the secret %q: %s", secret, s)
		}
	}
	if !strings.Contains(s, "POST /v3.1/oauth/"+u.ID+" -> 200/0") || !strings.Contains(s, fake.ClientID()+"|***") {
		t.Errorf("String() = %s", s)
	}
	if got := fake.RequestsTo("", "/oauth/{user_id}"); len(got) != 1 {
		t.Errorf("RequestsTo found %d", len(got))
	}
	fake.ResetRequests()
	if got := fake.Requests(); len(got) != 0 {
		t.Errorf("%d requests after ResetRequests", len(got))
	}
}
