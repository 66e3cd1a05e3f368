package synapsefake_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// platformUserBody is a user as POST /v3.1/users takes it.
func platformUserBody(email string) map[string]any {
	return map[string]any{"logins": []any{map[string]any{"email": email}},
		"phone_numbers": []any{"901.111.1111"}, "legal_names": []any{"Test User"}}
}

// apiHeaders are a client-level call's headers with gateway gw.
func apiHeaders(gw string) map[string]string {
	return map[string]string{"X-SP-GATEWAY": gw, "X-SP-USER": "|" + testkit.TestFingerprint, "X-SP-USER-IP": "127.0.0.1"}
}

// TestPlatformsIsolated is issue 37's acceptance over HTTP: two platforms
// made with POST /_fake/platforms see none of each other's users, ids,
// webhooks or requests; advancing one's clock leaves the other's where it
// was; a deleted platform's gateway is 401; the default platform at
// /_fake/ is untouched by all of it.
func TestPlatformsIsolated(t *testing.T) {
	start := time.Date(2026, 1, 5, 15, 0, 0, 0, time.UTC)
	p, root := testkit.NewPlatforms(t, synapsefake.WithoutWebhookDelivery(), synapsefake.WithStartTime(start))
	c := http.DefaultClient
	ctl := func(method, path string, body any) testkit.Response {
		t.Helper()
		return testkit.CtlSend(t, c, method, root+"/_fake"+path, nil, body)
	}
	defNow := start.UnixMilli()

	r := ctl("POST", "/platforms", map[string]any{"name": "Alpha", "client_id": "client_a", "client_secret": "secret_a",
		"clock": "manual", "start": "2026-03-02T10:00:00Z", "seed": 7})
	want := map[string]any{"success": true, "platform": map[string]any{
		"client_id": "client_a", "client_secret": "secret_a", "gateway": "client_a|secret_a", "name": "Alpha",
		"base_url": root + "/v3.1", "control_url": root + "/_fake/platforms/client_a",
		"now": float64(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC).UnixMilli())}}
	if r.Status != 200 || !cmp.Equal(r.Body, want) {
		t.Fatalf("POST /_fake/platforms: %d %s\ndiff (-got +want):\n%s", r.Status, r.Raw, cmp.Diff(r.Body, want))
	}
	r = ctl("POST", "/platforms", map[string]any{"client_id": "client_b"})
	pb, _ := r.Body["platform"].(map[string]any)
	if r.Status != 200 || pb["name"] != "client_b" || pb["now"] != float64(defNow) || len(pb["client_secret"].(string)) < 20 {
		t.Fatalf("POST /_fake/platforms with defaults: %d %s", r.Status, r.Raw)
	}
	gwA, gwB := "client_a|secret_a", pb["gateway"].(string)
	if s := p.Get("client_b"); s == nil || s.Gateway() != gwB {
		t.Fatalf("Get(client_b) = %v, want the platform with gateway %s", s, gwB)
	}
	testkit.WantError(t, ctl("POST", "/platforms", map[string]any{"client_id": "client_a"}), 409, "410", "platform_exists")

	// Users and ids: each platform sees only its own.
	ctl("POST", "/platforms/client_a/subscriptions", map[string]any{"url": "https://example.com/hook"})
	ctl("POST", "/platforms/client_b/subscriptions", map[string]any{"url": "https://example.com/hook"})
	api := func(method, path, gw string, body any) testkit.Response {
		t.Helper()
		return testkit.CtlSend(t, c, method, root+"/v3.1"+path, apiHeaders(gw), body)
	}
	ua := api("POST", "/users", gwA, platformUserBody("a@example.com"))
	ub := api("POST", "/users", gwB, platformUserBody("b@example.com"))
	if ua.Status != 200 || ub.Status != 200 {
		t.Fatalf("POST /users: %d %s; %d %s", ua.Status, ua.Raw, ub.Status, ub.Raw)
	}
	idA, idB := ua.Body["_id"].(string), ub.Body["_id"].(string)
	if idA == idB {
		t.Errorf("both platforms made user %s: the ids are not their own", idA)
	}
	if ua.Body["client"].(map[string]any)["name"] != "Alpha" {
		t.Errorf("user's client %v, want name Alpha", ua.Body["client"])
	}
	for _, tc := range []struct {
		gw   string
		want []string
	}{{gwA, []string{idA}}, {gwB, []string{idB}}, {p.Default().Gateway(), nil}} {
		r := api("GET", "/users", tc.gw, nil)
		var got []string
		for _, u := range r.Body["users"].([]any) {
			got = append(got, u.(map[string]any)["_id"].(string))
		}
		if r.Status != 200 || !cmp.Equal(got, tc.want) {
			t.Errorf("GET /users as %s: %d users %v, want %v", tc.gw, r.Status, got, tc.want)
		}
	}
	testkit.WantError(t, ctl("GET", "/platforms/client_b/users/"+idA, nil), 404, "404", "unable_to_locate_user")
	testkit.WantError(t, ctl("GET", "/users/"+idA, nil), 404, "404", "unable_to_locate_user")
	if r := ctl("GET", "/platforms/client_a/users/"+idA, nil); r.Status != 200 {
		t.Errorf("GET /_fake/platforms/client_a/users/%s: %d %s", idA, r.Status, r.Raw)
	}

	// Webhooks and requests: each platform's capture and journal are its own.
	ctl("POST", "/platforms/client_a/webhooks/flush", nil)
	ctl("POST", "/platforms/client_b/webhooks/flush", nil)
	for _, tc := range []struct {
		prefix, id  string
		hooks, reqs int
	}{{"/platforms/client_a", idA, 1, 2}, {"/platforms/client_b", idB, 1, 2}, {"", "", 0, 1}} {
		r := ctl("GET", tc.prefix+"/webhooks", nil)
		hooks, _ := r.Body["webhooks"].([]any)
		if len(hooks) != tc.hooks || (tc.hooks > 0 && hooks[0].(map[string]any)["object_id"] != tc.id) {
			t.Errorf("GET /_fake%s/webhooks: %s, want %d webhook(s) of %q", tc.prefix, r.Raw, tc.hooks, tc.id)
		}
		r = ctl("GET", tc.prefix+"/requests", nil)
		reqs, _ := r.Body["requests"].([]any)
		if n := len(reqs); n != tc.reqs { // POST /users and GET /users; the default's only GET /users
			t.Errorf("GET /_fake%s/requests: %d requests %s, want %d", tc.prefix, n, r.Raw, tc.reqs)
		}
	}

	// Clocks: advancing one leaves the others.
	if r := ctl("POST", "/platforms/client_a/clock/advance", map[string]any{"duration": "24h"}); r.Status != 200 {
		t.Fatalf("advance client_a: %d %s", r.Status, r.Raw)
	}
	for _, tc := range []struct {
		prefix string
		now    int64
	}{
		{"/platforms/client_a", time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC).UnixMilli()},
		{"/platforms/client_b", defNow},
		{"", defNow},
	} {
		if r := ctl("GET", tc.prefix+"/clock", nil); r.Body["now"] != float64(tc.now) {
			t.Errorf("GET /_fake%s/clock: %s, want now %d", tc.prefix, r.Raw, tc.now)
		}
	}

	// Delete: the gateway is refused, the platform's control API is gone.
	if r := ctl("DELETE", "/platforms/client_a", nil); r.Status != 200 || !cmp.Equal(r.Body, map[string]any{"success": true}) {
		t.Fatalf("DELETE /_fake/platforms/client_a: %d %s", r.Status, r.Raw)
	}
	testkit.WantError(t, api("GET", "/users", gwA, nil), 401, "100", "invalid_client_credentials")
	testkit.WantError(t, ctl("GET", "/platforms/client_a/clock", nil), 404, "404", "unable_to_locate_platform")
	testkit.WantError(t, ctl("DELETE", "/platforms/client_a", nil), 404, "404", "unable_to_locate_platform")
	testkit.WantError(t, ctl("DELETE", "/platforms/"+p.Default().ClientID(), nil), 409, "410", "default_platform")
	testkit.WantError(t, api("GET", "/users", "client_b|wrong", nil), 401, "100", "invalid_client_credentials")

	r = ctl("GET", "/platforms", nil)
	var ids []string
	for _, v := range r.Body["platforms"].([]any) {
		ids = append(ids, v.(map[string]any)["client_id"].(string))
	}
	if want := []string{p.Default().ClientID(), "client_b"}; !cmp.Equal(ids, want) || r.Body["platforms_count"] != float64(2) {
		t.Errorf("GET /_fake/platforms: %s, want %v, the default first", r.Raw, want)
	}
	// Reference data needs no credentials and answers the same everywhere.
	if r := api("GET", "/loans-limits", gwB, nil); r.Status != 200 {
		t.Errorf("GET /loans-limits as client_b: %d %s", r.Status, r.Raw)
	}
}

// TestPlatformsRefusals checks the control routes' refusals, in the
// control API's envelope.
func TestPlatformsRefusals(t *testing.T) {
	_, root := testkit.NewPlatforms(t, synapsefake.WithMaxPlatforms(2))
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		errorCode, code    string
	}{
		{"unknown field", "POST", "/platforms", `{"client":"x"}`, 400, "200", "unknown_field"},
		{"malformed", "POST", "/platforms", `{"client_id":`, 400, "200", "invalid_json"},
		{"client id with a bar", "POST", "/platforms", map[string]any{"client_id": "a|b"}, 400, "200", "invalid_client_id"},
		{"secret with a space", "POST", "/platforms", map[string]any{"client_secret": "a b"}, 400, "200", "invalid_client_secret"},
		{"bad clock", "POST", "/platforms", map[string]any{"clock": "fast"}, 400, "200", "invalid_clock"},
		{"bad start", "POST", "/platforms", map[string]any{"start": "yesterday"}, 400, "200", "invalid_start"},
		{"start too early", "POST", "/platforms", map[string]any{"start": "1960-01-01T00:00:00Z"}, 400, "200", "invalid_start"},
		{"wrong method", "PUT", "/platforms", nil, 405, "410", "method_not_allowed"},
		{"wrong method on one", "POST", "/platforms/nobody", nil, 404, "404", "unable_to_locate_platform"},
		{"unknown platform", "GET", "/platforms/nobody/clock", nil, 404, "404", "unable_to_locate_platform"},
		{"no id", "GET", "/platforms/", nil, 404, "404", "not_found"},
		{"made", "POST", "/platforms", map[string]any{"client_id": "one"}, 200, "", ""},
		{"beyond the bound", "POST", "/platforms", map[string]any{"client_id": "two"}, 429, "429", "too_many_platforms"},
		{"wrong method on a made one", "PUT", "/platforms/one", nil, 405, "410", "method_not_allowed"},
		{"unknown route of a made one", "GET", "/platforms/one/nothing", nil, 404, "404", "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testkit.CtlSend(t, http.DefaultClient, tc.method, root+"/_fake"+tc.path, nil, tc.body)
			if tc.status == 200 {
				if r.Status != 200 {
					t.Errorf("status %d %s, want 200", r.Status, r.Raw)
				}
				return
			}
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
		})
	}
}

// TestPlatformsControlGuard checks that the prefixed control API keeps the
// origin checks of /_fake/: another site's page is refused.
func TestPlatformsControlGuard(t *testing.T) {
	p, root := testkit.NewPlatforms(t)
	if _, err := p.Add(synapsefake.PlatformConfig{ClientID: "one"}); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/platforms", "/platforms/one", "/platforms/one/clock"} {
		r := testkit.CtlSend(t, http.DefaultClient, "GET", root+"/_fake"+path, map[string]string{"Origin": "https://evil.example"}, nil)
		if r.Status != 403 {
			t.Errorf("GET /_fake%s from another origin: %d %s, want 403", path, r.Status, r.Raw)
		}
	}
}

// TestPlatformsConcurrent makes 200 platforms at once and checks that each
// answers its own gateway with 200.
func TestPlatformsConcurrent(t *testing.T) {
	_, root := testkit.NewPlatforms(t)
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan string, 2*n)
	for i := range n {
		wg.Go(func() {
			id := fmt.Sprintf("client_%d", i)
			r := testkit.CtlSend(t, http.DefaultClient, "POST", root+"/_fake/platforms", nil, map[string]any{"client_id": id})
			if r.Status != 200 {
				errs <- fmt.Sprintf("POST %s: %d %s", id, r.Status, r.Raw)
				return
			}
			gw := r.Body["platform"].(map[string]any)["gateway"].(string)
			r = testkit.CtlSend(t, http.DefaultClient, "GET", root+"/v3.1/users", apiHeaders(gw), nil)
			if r.Status != 200 {
				errs <- fmt.Sprintf("GET /users as %s: %d %s", id, r.Status, r.Raw)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	r := testkit.CtlSend(t, http.DefaultClient, "GET", root+"/_fake/platforms", nil, nil)
	if r.Body["platforms_count"] != float64(n+1) {
		t.Errorf("platforms_count %v, want %d", r.Body["platforms_count"], n+1)
	}
}

// TestPlatformsWebhooksSignedWithTheirSecret checks that a made platform
// delivers its webhooks signed with its own client id and secret.
func TestPlatformsWebhooksSignedWithTheirSecret(t *testing.T) {
	var mu sync.Mutex
	var got []http.Header
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
	}))
	t.Cleanup(recv.Close)
	p, root := testkit.NewPlatforms(t)
	if _, err := p.Add(synapsefake.PlatformConfig{ClientID: "client_a", ClientSecret: "secret_a"}); err != nil {
		t.Fatal(err)
	}
	testkit.CtlSend(t, http.DefaultClient, "POST", root+"/_fake/platforms/client_a/subscriptions", nil, map[string]any{"url": recv.URL, "scopes": []string{"USERS|POST"}})
	r := testkit.CtlSend(t, http.DefaultClient, "POST", root+"/v3.1/users", apiHeaders("client_a|secret_a"), platformUserBody("a@example.com"))
	id, _ := r.Body["_id"].(string)
	testkit.CtlSend(t, http.DefaultClient, "POST", root+"/_fake/platforms/client_a/webhooks/flush", nil, nil)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("the receiver got %d webhooks, want 1 (USERS|POST of %s)", len(got), id)
	}
	for _, tc := range []struct {
		id, secret string
		want       bool
	}{{"client_a", "secret_a", true}, {p.Default().ClientID(), p.Default().Gateway()[len(p.Default().ClientID())+1:], false}} {
		if ok := synapsefake.VerifySignature(got[0], id, tc.id, tc.secret); ok != tc.want {
			t.Errorf("VerifySignature with %s's credentials = %v, want %v", tc.id, ok, tc.want)
		}
	}
}

// TestPlatformsStateRestoresIntoAMadePlatform checks that the state
// document of a platform (GET /_fake/platforms/{id}/state) restores, after
// the platform is deleted, into one made again with its client id and seed
// (a state document is refused by a server of another client id or seed),
// which then answers its gateway with the saved users.
func TestPlatformsStateRestoresIntoAMadePlatform(t *testing.T) {
	_, root := testkit.NewPlatforms(t)
	create := func() {
		t.Helper()
		r := testkit.CtlSend(t, http.DefaultClient, "POST", root+"/_fake/platforms", nil, map[string]any{"client_id": "client_a", "client_secret": "secret", "seed": 5})
		if r.Status != 200 {
			t.Fatalf("POST /_fake/platforms: %d %s", r.Status, r.Raw)
		}
	}
	create()
	u := testkit.CtlSend(t, http.DefaultClient, "POST", root+"/v3.1/users", apiHeaders("client_a|secret"), platformUserBody("a@example.com"))
	doc := platformState(t, root+"/_fake/platforms/client_a/state")
	testkit.CtlSend(t, http.DefaultClient, "DELETE", root+"/_fake/platforms/client_a", nil, nil)
	create()
	path := root + "/v3.1/users/" + u.Body["_id"].(string)
	testkit.WantError(t, testkit.CtlSend(t, http.DefaultClient, "GET", path, apiHeaders("client_a|secret"), nil), 404, "404", "")
	if r := testkit.CtlSend(t, http.DefaultClient, "PUT", root+"/_fake/platforms/client_a/state", nil, doc); r.Status != 200 {
		t.Fatalf("PUT /_fake/platforms/client_a/state: %d %s", r.Status, r.Raw)
	}
	if r := testkit.CtlSend(t, http.DefaultClient, "GET", path, apiHeaders("client_a|secret"), nil); r.Status != 200 || r.Body["_id"] != u.Body["_id"] {
		t.Errorf("GET /users/%s after the restore: %d %s", u.Body["_id"], r.Status, r.Raw)
	}
}

// platformState GETs a state document, failing the test unless it is 200.
func platformState(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return doc
}

// TestPlatformsStateCopiesIntoAnother checks that a platform's state
// document restores into another platform, of another client id, secret
// and seed, with PUT .../state?copy=true (RestoreCopy): its users answer
// there as that platform's, under its gateway; the platform it came from
// keeps its own; without copy=true the document is refused and changes
// nothing.
func TestPlatformsStateCopiesIntoAnother(t *testing.T) {
	_, root := testkit.NewPlatforms(t, synapsefake.WithoutWebhookDelivery())
	c := http.DefaultClient
	for _, b := range []map[string]any{
		{"client_id": "client_a", "client_secret": "secret_a", "seed": 5, "name": "Alpha"},
		{"client_id": "client_b", "client_secret": "secret_b", "seed": 9, "name": "Beta"},
	} {
		if r := testkit.CtlSend(t, c, "POST", root+"/_fake/platforms", nil, b); r.Status != 200 {
			t.Fatalf("POST /_fake/platforms: %d %s", r.Status, r.Raw)
		}
	}
	gwA, gwB := "client_a|secret_a", "client_b|secret_b"
	u := testkit.CtlSend(t, c, "POST", root+"/v3.1/users", apiHeaders(gwA), platformUserBody("a@example.com"))
	id, _ := u.Body["_id"].(string)
	doc := platformState(t, root+"/_fake/platforms/client_a/state")
	userOf := func(gw string) testkit.Response {
		t.Helper()
		return testkit.CtlSend(t, c, "GET", root+"/v3.1/users/"+id, apiHeaders(gw), nil)
	}

	for _, q := range []string{"", "?copy=false"} {
		r := testkit.CtlSend(t, c, "PUT", root+"/_fake/platforms/client_b/state"+q, nil, doc)
		testkit.WantError(t, r, 400, "200", "invalid_state")
		if e, _ := r.Body["error"].(map[string]any); !strings.Contains(fmt.Sprint(e["en"]), "copy=true") {
			t.Errorf("PUT state%s: the refusal %s does not name copy=true", q, r.Raw)
		}
	}
	for _, q := range []string{"?copy=yes", "?copy="} {
		testkit.WantError(t, testkit.CtlSend(t, c, "PUT", root+"/_fake/platforms/client_b/state"+q, nil, doc), 400, "200", "invalid_copy")
	}
	testkit.WantError(t, userOf(gwB), 404, "404", "")

	if r := testkit.CtlSend(t, c, "PUT", root+"/_fake/platforms/client_b/state?copy=true", nil, doc); r.Status != 200 {
		t.Fatalf("PUT state?copy=true: %d %s", r.Status, r.Raw)
	}
	got := userOf(gwB)
	if got.Status != 200 {
		t.Fatalf("GET /users/%s as client_b after the copy: %d %s", id, got.Status, got.Raw)
	}
	if cl, _ := got.Body["client"].(map[string]any); cl["id"] != "client_b" || cl["name"] != "Beta" {
		t.Errorf("the copied user's client = %v, want client_b / Beta", got.Body["client"])
	}
	if a := userOf(gwA); a.Status != 200 || a.Body["client"].(map[string]any)["id"] != "client_a" {
		t.Errorf("client_a's own user after the copy: %d %s", a.Status, a.Raw)
	}
	// The copy is apart from its source: a user made on one is not on the other.
	v := testkit.CtlSend(t, c, "POST", root+"/v3.1/users", apiHeaders(gwB), platformUserBody("b@example.com"))
	for gw, want := range map[string]float64{gwA: 1, gwB: 2} {
		if r := testkit.CtlSend(t, c, "GET", root+"/v3.1/users", apiHeaders(gw), nil); r.Body["users_count"] != want {
			t.Errorf("GET /users as %s: users_count %v, want %v (made on B: %s)", gw, r.Body["users_count"], want, v.Body["_id"])
		}
	}
	// The default platform takes it too, at /_fake/state?copy=true.
	if r := testkit.CtlSend(t, c, "PUT", root+"/_fake/state?copy=true", nil, doc); r.Status != 200 {
		t.Fatalf("PUT /_fake/state?copy=true: %d %s", r.Status, r.Raw)
	}
	if r := testkit.CtlSend(t, c, "GET", root+"/_fake/users/"+id, nil, nil); r.Status != 200 {
		t.Errorf("GET /_fake/users/%s on the default after the copy: %d %s", id, r.Status, r.Raw)
	}
}

// TestRestoreCopyChecksTheDocument checks that RestoreCopy refuses what
// Restore refuses, but for the client id and seed, and changes nothing.
func TestRestoreCopyChecksTheDocument(t *testing.T) {
	src := synapsefake.NewServer(t, synapsefake.WithIDSeed(3), synapsefake.WithClientCredentials("src_id", "src_secret"))
	fx := testkit.NewFixture(t, src, 100)
	doc := testkit.SnapshotBytes(t, src)
	for _, tc := range []struct {
		name, doc string
		ok        bool
	}{
		{"the document", string(doc), true},
		{"not JSON", "state", false},
		{"truncated", string(doc[:len(doc)/2]), false},
		{"another format", strings.Replace(string(doc), `"format":"`, `"format":"x`, 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := synapsefake.NewServer(t)
			before := testkit.SnapshotBytes(t, dst)
			if err := dst.Restore(strings.NewReader(tc.doc)); err == nil {
				t.Error("Restore took another server's document")
			}
			err := dst.RestoreCopy(strings.NewReader(tc.doc))
			if (err == nil) != tc.ok {
				t.Fatalf("RestoreCopy: %v, want ok %v", err, tc.ok)
			}
			if !tc.ok && !bytes.Equal(testkit.SnapshotBytes(t, dst), before) {
				t.Error("a refused document changed the state")
			}
			if _, found := dst.User(fx.User.ID); found != tc.ok {
				t.Errorf("after RestoreCopy: user %s found %v, want %v", fx.User.ID, found, tc.ok)
			}
		})
	}
}

// hookedContext runs f the first time anything reads a value of it: a
// seam in the middle of serving a request that needs nothing of the code.
type hookedContext struct {
	context.Context
	once sync.Once
	f    func()
}

func (c *hookedContext) Value(key any) any {
	c.once.Do(c.f)
	return c.Context.Value(key)
}

// serveLocal serves a control request on p as a client on loopback sends
// it, ctx its context, and answers its status and body.
func serveLocal(t *testing.T, p *synapsefake.Platforms, ctx context.Context, method, path string) (int, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, httptest.NewRequestWithContext(ctx, method, "http://localhost"+path, nil))
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("%s %s: %d %q is not JSON", method, path, rec.Code, rec.Body)
	}
	return rec.Code, body
}

// TestPlatformsServeLooksUpOnce: a request below /_fake/platforms/{id} is
// served with the platform it found when it came in, even when that
// platform is made, removed or made again while it is served (issue 45):
// a sub-route never acts on the platform itself (DELETE .../webhooks
// deleted the platform, POST .../webhooks/flush was 405), and a DELETE
// removes the platform it found, not one made again under its client id.
func TestPlatformsServeLooksUpOnce(t *testing.T) {
	for _, tc := range []struct {
		name         string
		exists       bool   // X9 exists when the request comes in
		during       string // what happens to X9 while the request is served: make, remake
		method, path string
		status       int
		code         string // the refusal's error.code; "" for success
		after        bool   // X9 exists after the request
	}{
		{"sub-route DELETE, the platform made meanwhile", false, "make", "DELETE", "/_fake/platforms/X9/webhooks", 404, "unable_to_locate_platform", true},
		{"sub-route POST, the platform made meanwhile", false, "make", "POST", "/_fake/platforms/X9/webhooks/flush", 404, "unable_to_locate_platform", true},
		{"sub-route DELETE of a made platform", true, "", "DELETE", "/_fake/platforms/X9/webhooks", 200, "", true},
		{"DELETE, the platform made again meanwhile", true, "remake", "DELETE", "/_fake/platforms/X9", 404, "unable_to_locate_platform", true},
		{"DELETE, the platform there throughout", true, "", "DELETE", "/_fake/platforms/X9", 200, "", false},
		{"GET, the platform made meanwhile", false, "make", "GET", "/_fake/platforms/X9", 404, "unable_to_locate_platform", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := synapsefake.NewPlatforms()
			t.Cleanup(p.Close)
			add := func() *synapsefake.Server {
				s, err := p.Add(synapsefake.PlatformConfig{ClientID: "X9"})
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			var first *synapsefake.Server
			if tc.exists {
				first = add()
			}
			ctx := &hookedContext{Context: context.Background(), f: func() {
				switch tc.during {
				case "make":
					add()
				case "remake":
					if err := p.Remove("X9"); err != nil {
						t.Fatal(err)
					}
					add()
				}
			}}
			status, body := serveLocal(t, p, ctx, tc.method, tc.path)
			code := ""
			if e, ok := body["error"].(map[string]any); ok {
				code, _ = e["code"].(string)
			}
			if status != tc.status || code != tc.code {
				t.Errorf("%s %s: %d %v, want %d %q", tc.method, tc.path, status, body, tc.status, tc.code)
			}
			if s := p.Get("X9"); (s != nil) != tc.after || (s != nil && s == first && tc.during == "remake") {
				t.Errorf("after %s %s: X9 is %v, want it to exist: %v (made again: %v)", tc.method, tc.path, s, tc.after, tc.during == "remake")
			}
		})
	}
}

// TestPlatformsServeWhileMadeAndRemoved makes and removes a platform over
// and over while other goroutines send its control sub-routes: no
// sub-route ever removes it (its maker's DELETE finds it every time) or
// answers 405. Run it under -race.
func TestPlatformsServeWhileMadeAndRemoved(t *testing.T) {
	p := synapsefake.NewPlatforms()
	t.Cleanup(p.Close)
	const rounds = 500
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, req := range [][2]string{{"DELETE", "/_fake/platforms/X9/webhooks"}, {"POST", "/_fake/platforms/X9/webhooks/flush"}, {"GET", "/_fake/platforms/X9/clock"}} {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if status, body := serveLocal(t, p, context.Background(), req[0], req[1]); status != 200 && status != 404 {
					t.Errorf("%s %s: %d %v, want 200, or 404 between the platform's lives", req[0], req[1], status, body)
				}
			}
		})
	}
	for i := range rounds {
		if _, err := p.Add(synapsefake.PlatformConfig{ClientID: "X9"}); err != nil {
			t.Fatalf("round %d: Add: %v", i, err)
		}
		if status, body := serveLocal(t, p, context.Background(), "DELETE", "/_fake/platforms/X9"); status != 200 {
			t.Fatalf("round %d: DELETE /_fake/platforms/X9 after making it: %d %v (a sub-route removed it)", i, status, body)
		}
	}
	close(done)
	wg.Wait()
}

// TestPlatformsClientIDs: a client id is one segment of the platform's
// control URL and of its dashboard's, so the ids a URL resolver would
// rewrite ("." and "..": /_fake/platforms/.. is /_fake/ to curl, requests,
// Node's URL and browsers) or that are no single segment are refused with
// invalid_client_id, by the control API and Add alike, and nothing is
// made; every accepted one's control_url, and every link of the
// dashboard's platform switcher, resolves (as a client resolves it) to its
// own platform.
func TestPlatformsClientIDs(t *testing.T) {
	p, root := testkit.NewPlatforms(t)
	c := http.DefaultClient
	for _, id := range []string{".", "..", "a/b", "/", `a\b`, "%2e%2e", "%2E", ".%2e", "a%2fb", "a?b", "a#b", "?", "#",
		"a b", " ", "\t", "a\x00", "a\n", "é", strings.Repeat("a", 65)} {
		testkit.WantError(t, testkit.CtlSend(t, c, "POST", root+"/_fake/platforms", nil, map[string]any{"client_id": id}), 400, "200", "invalid_client_id")
		if _, err := p.Add(synapsefake.PlatformConfig{ClientID: id}); testkit.ErrCode(err) != "invalid_client_id" {
			t.Errorf("Add(ClientID %q): %v, want invalid_client_id", id, err)
		}
	}
	if n := len(p.List()); n != 1 {
		t.Fatalf("%d platforms after the refusals, want the default alone", n)
	}

	accepted := []string{"...", ".a", "a.", "a..b", ".-", "-", "_", "A.b-C_9", strings.Repeat("a", 64)}
	rootURL, _ := url.Parse(root)
	resolve := func(base *url.URL, ref string) *url.URL {
		t.Helper()
		u, err := url.Parse(ref)
		if err != nil {
			t.Fatalf("url.Parse(%q): %v", ref, err)
		}
		return base.ResolveReference(u)
	}
	for _, id := range accepted {
		r := testkit.CtlSend(t, c, "POST", root+"/_fake/platforms", nil, map[string]any{"client_id": id})
		if r.Status != 200 {
			t.Fatalf("POST client_id %q: %d %s", id, r.Status, r.Raw)
		}
		ctl := resolve(rootURL, r.Body["platform"].(map[string]any)["control_url"].(string))
		if want := "/_fake/platforms/" + id; ctl.Path != want {
			t.Errorf("client_id %q: control_url resolves to %s, want %s", id, ctl.Path, want)
		}
		got := testkit.CtlSend(t, c, "GET", ctl.String(), nil, nil)
		if pl, _ := got.Body["platform"].(map[string]any); got.Status != 200 || pl["client_id"] != id {
			t.Errorf("client_id %q: GET its resolved control_url %s: %d %s", id, ctl, got.Status, got.Raw)
		}
	}

	// The switcher, on the default's dashboard and on each platform's.
	link := regexp.MustCompile(`<li><a href="([^"]*)"[^>]*>[^<]*</a> <code>([^<]*)</code></li>`)
	current := regexp.MustCompile(`Platform <b>([^<]*)</b>`)
	for _, page := range append([]string{"/_fake/ui/"}, func() (pages []string) {
		for _, id := range accepted {
			pages = append(pages, "/_fake/platforms/"+id+"/ui/")
		}
		return pages
	}()...) {
		pageURL := resolve(rootURL, page)
		resp, body := testkit.GetNoRedirect(t, c, pageURL.String(), nil)
		links := link.FindAllStringSubmatch(body, -1)
		if resp.StatusCode != 200 || len(links) != 1+len(accepted) {
			t.Fatalf("GET %s: %d, %d switcher links, want %d", page, resp.StatusCode, len(links), 1+len(accepted))
		}
		for _, l := range links {
			id := html.UnescapeString(l[2])
			want := "/_fake/platforms/" + id + "/ui/"
			if id == p.Default().ClientID() {
				want = "/_fake/ui/"
			}
			to := resolve(pageURL, html.UnescapeString(l[1]))
			if to.Path != want {
				t.Errorf("on %s, the switcher's link to %s resolves to %s, want %s", page, id, to.Path, want)
				continue
			}
			_, there := testkit.GetNoRedirect(t, c, to.String(), nil)
			if m := current.FindStringSubmatch(there); m == nil || html.UnescapeString(m[1]) != p.Get(id).ClientName() {
				t.Errorf("on %s, the switcher's link to %s opens the dashboard of %v", page, id, m)
			}
		}
	}
}

// TestPlatformsKeysAreTheirOwn: two platforms made with one seed hand out
// the same user ids (the seed's), but their refresh tokens and oauth keys
// hold the platform's identity: neither opens the other platform, nor a
// removed platform's the one made again with its client id, secret and
// seed. The keys keep their form (oauth_ or refresh_ and 40 hex digits).
func TestPlatformsKeysAreTheirOwn(t *testing.T) {
	_, root := testkit.NewPlatforms(t)
	c := http.DefaultClient
	key := regexp.MustCompile(`^oauth_[0-9a-f]{40}$`)
	token := regexp.MustCompile(`^refresh_[0-9a-f]{40}$`)
	type creds struct{ gw, user, refresh, key string }
	// login makes a platform and its user, and gets the user a key.
	login := func(id string) creds {
		t.Helper()
		if r := testkit.CtlSend(t, c, "POST", root+"/_fake/platforms", nil, map[string]any{"client_id": id, "client_secret": "secret", "seed": 7}); r.Status != 200 {
			t.Fatalf("POST /_fake/platforms %s: %d %s", id, r.Status, r.Raw)
		}
		gw := id + "|secret"
		u := testkit.CtlSend(t, c, "POST", root+"/v3.1/users", apiHeaders(gw), platformUserBody("a@example.com"))
		userID, _ := u.Body["_id"].(string)
		refresh, _ := u.Body["refresh_token"].(string)
		o := testkit.CtlSend(t, c, "POST", root+"/v3.1/oauth/"+userID, apiHeaders(gw), map[string]any{"refresh_token": refresh})
		k, _ := o.Body["oauth_key"].(string)
		if u.Status != 200 || o.Status != 200 || !token.MatchString(refresh) || !key.MatchString(k) {
			t.Fatalf("%s: POST /users %d, POST /oauth %d: refresh_token %q, oauth_key %q", id, u.Status, o.Status, refresh, k)
		}
		return creds{gw, userID, refresh, k}
	}
	// opens reports whether cr's key, and cr's refresh token, open gw's platform.
	opens := func(cr creds, gw string) (keyOK, refreshOK bool) {
		t.Helper()
		h := apiHeaders(gw)
		h["X-SP-USER"] = cr.key + "|" + testkit.TestFingerprint
		keyOK = testkit.CtlSend(t, c, "GET", root+"/v3.1/users/"+cr.user+"/nodes", h, nil).Status == 200
		refreshOK = testkit.CtlSend(t, c, "POST", root+"/v3.1/oauth/"+cr.user, apiHeaders(gw), map[string]any{"refresh_token": cr.refresh}).Status == 200
		return keyOK, refreshOK
	}

	pc, pd := login("client_c"), login("client_d")
	if pc.user != pd.user {
		t.Errorf("one seed, two user ids %s and %s: ids are the seed's", pc.user, pd.user)
	}
	if testkit.CtlSend(t, c, "DELETE", root+"/_fake/platforms/client_c", nil, nil).Status != 200 {
		t.Fatal("DELETE client_c")
	}
	again := login("client_c")
	if again.user != pc.user {
		t.Errorf("client_c made again: user %s, want %s (the seed's)", again.user, pc.user)
	}
	for _, tc := range []struct {
		name string
		cr   creds
		gw   string
		want bool
	}{
		{"C's on C", again, again.gw, true},
		{"D's on D", pd, pd.gw, true},
		{"D's on C", pd, again.gw, false},
		{"C's on D", again, pd.gw, false},
		{"the removed C's on the C made again", pc, again.gw, false},
		{"the removed C's on D", pc, pd.gw, false},
	} {
		if keyOK, refreshOK := opens(tc.cr, tc.gw); keyOK != tc.want || refreshOK != tc.want {
			t.Errorf("%s: the oauth_key opens it: %v, the refresh_token: %v; want %v", tc.name, keyOK, refreshOK, tc.want)
		}
	}
}

// TestPlatformsKeysAreDeterministic: the same platforms made, removed and
// made again in the same order in a fresh Platforms (a fresh process) hand
// out the same ids, refresh tokens and keys.
func TestPlatformsKeysAreDeterministic(t *testing.T) {
	run := func() []string {
		p := synapsefake.NewPlatforms()
		defer p.Close()
		var out []string
		for _, step := range []string{"client_c", "client_d", "-client_c", "client_c"} {
			if id, ok := strings.CutPrefix(step, "-"); ok {
				if err := p.Remove(id); err != nil {
					t.Fatal(err)
				}
				continue
			}
			s, err := p.Add(synapsefake.PlatformConfig{ClientID: step, ClientSecret: "secret", Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			u := s.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
			out = append(out, u.ID, u.RefreshToken, s.OAuthKey(u.ID, testkit.TestFingerprint))
		}
		return out
	}
	a, b := run(), run()
	if !cmp.Equal(a, b) {
		t.Errorf("two runs differ:\n%s", cmp.Diff(a, b))
	}
	seen := map[string]bool{}
	for i, v := range a {
		if i%3 != 0 && seen[v] { // ids repeat (the seed's); keys and tokens do not
			t.Errorf("%s handed out twice in one run: %v", v, a)
		}
		seen[v] = true
	}
}
