package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// postRaw sends body to path (below the base URL) and returns the status.
func postRaw(t testing.TB, fake *synapsefake.Server, client *http.Client, path string, body []byte) int {
	t.Helper()
	resp, err := client.Post(fake.URL()+path, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// journalPaths lists the paths of the journaled calls, oldest first.
func journalPaths(fake *synapsefake.Server) []string {
	var out []string
	for _, r := range fake.Requests() {
		out = append(out, r.Path)
	}
	return out
}

func TestJournalMemoryIsBounded(t *testing.T) {
	// Not parallel: it measures the heap.
	const (
		calls  = 40      // of 1 MiB, above bound+margin
		bound  = 8 << 20 // the default
		margin = 4 << 20
	)
	fake := synapsefake.New()
	client := &http.Client{Transport: fake.Transport()}
	body := bytes.Repeat([]byte("x"), 1<<20)
	before := testkit.HeapAfterGC()
	for i := range calls {
		if status := postRaw(t, fake, client, fmt.Sprintf("/nowhere/%d", i), body); status != http.StatusNotFound {
			t.Fatalf("POST /nowhere/%d: status %d, want 404", i, status)
		}
	}
	grew := int64(testkit.HeapAfterGC()) - int64(before)
	if grew > bound+margin {
		t.Errorf("heap grew by %d KiB after %d calls of 1 MiB, want at most %d KiB", grew>>10, calls, (bound+margin)>>10)
	}
	reqs := fake.Requests()
	t.Logf("%d POSTs of 1 MiB: heap grew by %.1f MiB, %d calls kept", calls, float64(grew)/(1<<20), len(reqs))
	if len(reqs) != calls {
		t.Fatalf("%d calls journaled, want all %d", len(reqs), calls)
	}
	for i, r := range reqs {
		if want := fmt.Sprintf("/v3.1/nowhere/%d", calls-len(reqs)+i); r.Path != want {
			t.Fatalf("journal entry %d is %s, want %s: the newest calls, oldest first", i, r.Path, want)
		}
		if !r.BodyTruncated || !bytes.Equal(r.Body, body[:64<<10]) {
			t.Fatalf("entry %d: body of %d bytes, truncated %v; want the first 64 KiB, truncated", i, len(r.Body), r.BodyTruncated)
		}
	}
	runtime.KeepAlive(fake)
}

func TestJournalLimit(t *testing.T) {
	t.Parallel()
	all := []string{"/v3.1/nowhere/0", "/v3.1/nowhere/1", "/v3.1/nowhere/2", "/v3.1/nowhere/3", "/v3.1/nowhere/4"}
	for _, tc := range []struct {
		name string
		opts []synapsefake.Option
		want []string
	}{
		{"defaults keep every call", nil, all},
		{"entry bound keeps the newest", []synapsefake.Option{synapsefake.WithJournalLimit(2, -1)}, all[3:]},
		{"byte bound keeps the newest", []synapsefake.Option{synapsefake.WithJournalLimit(-1, 256<<10)}, all[2:]},
		{"tiny byte bound keeps the newest call", []synapsefake.Option{synapsefake.WithJournalLimit(-1, 1)}, all[4:]},
		{"no bounds", []synapsefake.Option{synapsefake.WithJournalLimit(-1, -1)}, all},
		{"zero entries is off", []synapsefake.Option{synapsefake.WithJournalLimit(0, -1)}, nil},
		{"zero bytes is off", []synapsefake.Option{synapsefake.WithJournalLimit(10, 0)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.New(tc.opts...)
			// Each call keeps 64 KiB of its body and counts for a little more.
			body := bytes.Repeat([]byte("x"), 100<<10)
			for i := range all {
				postRaw(t, fake, fake.Client(), fmt.Sprintf("/nowhere/%d", i), body)
			}
			if diff := cmp.Diff(tc.want, journalPaths(fake)); diff != "" {
				t.Errorf("journal (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJournalTruncatesLongBodies(t *testing.T) {
	t.Parallel()
	fake := synapsefake.New()
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
	for _, tc := range []struct {
		name          string
		size          int // of the whole body
		wantTruncated bool
	}{
		{"64 KiB is kept whole", 64 << 10, false},
		{"one byte more is cut", 64<<10 + 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake.ResetRequests()
			head := `{"refresh_token":"` + u.RefreshToken + `","pad":"`
			pad := strings.Repeat("p", tc.size-len(head)-2)
			body := head + pad + `"}`
			// The handler reads the whole body: the answer is a key.
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/oauth/" + u.ID, Header: testkit.GatewayHeaders(fake), Body: body})
			if r.Status != http.StatusOK {
				t.Fatalf("POST /oauth: status %d, want 200: %s", r.Status, r.Raw)
			}
			reqs := fake.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d calls journaled, want 1", len(reqs))
			}
			want := body[:min(len(body), 64<<10)]
			if got := reqs[0]; got.BodyTruncated != tc.wantTruncated || string(got.Body) != want {
				t.Errorf("body of %d bytes, truncated %v; want %d bytes, truncated %v", len(got.Body), got.BodyTruncated, len(want), tc.wantTruncated)
			}
			wantSummary := "POST /v3.1/oauth/" + u.ID + " -> 200/0 gateway=" + fake.ClientID() + "|*** user=|" + testkit.TestFingerprint + ` body={"pad":"` + pad + `","refresh_token":"***"}`
			if tc.wantTruncated {
				wantSummary = "POST /v3.1/oauth/" + u.ID + " -> 200/0 gateway=" + fake.ClientID() + "|*** user=|" + testkit.TestFingerprint + " body=<more than 65536 bytes, not shown>"
			}
			if got, want := reqs[0].String(), wantSummary; got != want {
				t.Errorf("String() =\n%.300s\nwant\n%.300s", got, want)
			}
		})
	}
}

// spellings gives the ways a client may write field that the service's
// case-insensitive JSON decoding accepts as field.
func spellings(field string) []string {
	parts := strings.Split(field, "_")
	for i, p := range parts {
		parts[i] = strings.ToUpper(p[:1]) + p[1:]
	}
	return []string{field, strings.Join(parts, "_"), strings.ToUpper(field)}
}

func TestJournalRedaction(t *testing.T) {
	t.Parallel()
	const secret = "s3cret-value"
	type tcase struct {
		name        string
		path        string // below the base URL
		header      map[string]string
		body        string
		wantSummary string // after "POST /v3.1/nowhere"
		wantQuery   map[string]any
	}
	var cases []tcase
	fields := []string{"refresh_token", "validation_pin", "pin", "card_pin", "client_secret", "oauth_key", "password", "nonce_signature",
		"bank_pw", "mfa_answer", "access_token"}
	for _, f := range fields {
		for _, name := range append(spellings(f), strings.ReplaceAll(strings.ReplaceAll(f, "s", "\u017f"), "k", "\u212a")) {
			cases = append(cases,
				tcase{name: name + " at the top", path: "/nowhere", body: `{"` + name + `":"` + secret + `","1":1}`,
					wantSummary: ` -> 404/404 body={"1":1,"` + name + `":"***"}`},
				tcase{name: name + " nested in an object", path: "/nowhere", body: `{"a":{"b":{"` + name + `":{"x":"` + secret + `"}}}}`,
					wantSummary: ` -> 404/404 body={"a":{"b":{"` + name + `":"***"}}}`},
				tcase{name: name + " nested in an array", path: "/nowhere", body: `{"a":[1,{"` + name + `":"` + secret + `"}]}`,
					wantSummary: ` -> 404/404 body={"a":[1,{"` + name + `":"***"}]}`},
				tcase{name: name + " in the query", path: "/nowhere?" + name + "=" + secret + "&1=2",
					wantSummary: `?1=2&` + strings.NewReplacer("\u017f", "%C5%BF", "\u212a", "%E2%84%AA").Replace(name) + `=%2A%2A%2A -> 404/404`,
					wantQuery:   map[string]any{name: []any{"***"}, "1": []any{"2"}}},
			)
		}
	}
	cases = append(cases,
		tcase{name: "gateway without a separator", path: "/nowhere", header: map[string]string{"X-SP-GATEWAY": secret},
			wantSummary: ` -> 404/404 gateway=***|***`},
		tcase{name: "user key without a fingerprint", path: "/nowhere", header: map[string]string{"X-SP-USER": secret},
			wantSummary: ` -> 404/404 user=***|`},
		tcase{name: "gateway and user key", path: "/nowhere", header: map[string]string{"X-SP-GATEWAY": "id|" + secret, "X-SP-USER": secret + "|fp"},
			wantSummary: ` -> 404/404 gateway=id|*** user=***|fp`},
	)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.New()
			c := testkit.Call{Method: "POST", Path: tc.path, Header: tc.header}
			if tc.body != "" {
				c.Body = tc.body
			}
			testkit.WantError(t, testkit.Do(t, fake, c), 404, "404", "")
			got := testkit.CtlOK(t, fake, "GET", "/requests", nil)
			if tc.wantQuery == nil {
				tc.wantQuery = map[string]any{}
			}
			want := map[string]any{"success": true, "requests": []any{map[string]any{
				"method": "POST", "path": "/v3.1/nowhere", "route": "", "query": tc.wantQuery,
				"status": 404.0, "error_code": "404", "summary": "POST /v3.1/nowhere" + tc.wantSummary,
				"reason": "no route of the API matches POST /v3.1/nowhere (hint: docs/api.md lists the routes, as the spec writes them)",
			}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("GET /_fake/requests (-want +got):\n%s", diff)
			}
			if s := fake.Requests()[0].String(); strings.Contains(s, secret) {
				t.Errorf("String() shows the secret: %s", s)
			}
		})
	}
}

// TestJournalRedactsBankLogin walks a bank login with its MFA question and
// reads the journal back over /_fake/requests and on the dashboard: the
// password, the answer and the access_token show only as "***", in the
// bodies' own structure.
func TestJournalRedactsBankLogin(t *testing.T) {
	t.Parallel()
	const password, answer = "test1234_checking", "test_answer"
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: testkit.BankLoginBody("synapse_good", password)})
	token, _ := testkit.CtlObj(r.Body["mfa"])["access_token"].(string)
	if r.Status != http.StatusAccepted || token == "" {
		t.Fatalf("bank login: status %d, want 202 with an access_token: %s", r.Status, r.Raw)
	}
	if r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers,
		Body: map[string]any{"access_token": token, "mfa_answer": answer}}); r.Status != http.StatusOK {
		t.Fatalf("MFA answer: status %d: %s", r.Status, r.Raw)
	}
	prefix := "POST /v3.1/users/" + fx.User.ID + "/nodes -> "
	user := " gateway=" + fake.ClientID() + "|*** user=***|" + testkit.TestFingerprint
	var summaries []string
	for _, q := range testkit.CtlOK(t, fake, "GET", "/requests", nil)["requests"].([]any) {
		summaries = append(summaries, testkit.CtlStr(testkit.CtlObj(q)["summary"]))
	}
	want := []string{
		prefix + "202/10" + user + ` body={"info":{"bank_id":"synapse_good","bank_name":"fake","bank_pw":"***"},"type":"ACH-US"}`,
		prefix + "200/0" + user + ` body={"access_token":"***","mfa_answer":"***"}`,
	}
	if diff := cmp.Diff(want, summaries); diff != "" {
		t.Errorf("GET /_fake/requests summaries (-want +got):\n%s", diff)
	}
	page := testkit.UIPage(t, fake, "/_fake/ui/requests")
	for _, secret := range []string{password, answer, token} {
		if strings.Contains(page, secret) {
			t.Errorf("the dashboard's requests page shows %q", secret)
		}
	}
	for _, masked := range []string{"&#34;bank_pw&#34;: &#34;***&#34;", "&#34;mfa_answer&#34;: &#34;***&#34;", "&#34;access_token&#34;: &#34;***&#34;"} {
		if !strings.Contains(page, masked) {
			t.Errorf("the dashboard's requests page lacks %s", masked)
		}
	}
}
