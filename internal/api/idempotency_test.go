package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// withKey adds X-SP-IDEMPOTENCY-KEY to a copy of headers.
func withKey(headers map[string]string, key string) map[string]string {
	h := maps.Clone(headers)
	h["X-SP-IDEMPOTENCY-KEY"] = key
	return h
}

// transCount is trans_count of the user's transaction list.
func transCount(t testing.TB, e testkit.TxEnv, fx testkit.Fixture) any {
	t.Helper()
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID + "/trans", Header: fx.Headers})
	return r.Body["trans_count"]
}

func TestIdempotencyKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		advance time.Duration
		free    bool
	}{
		{"a repeat is refused", 0, false},
		{"a repeat after 24 h less 1 ms is refused", 24*time.Hour - time.Millisecond, false},
		{"a repeat after 24 h and 1 ms performs again", 24*time.Hour + time.Millisecond, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
			h := withKey(e.Fx.Headers, "key-1")
			path := testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: h, Body: testkit.TxBody(e.Bank, 10)})
			testkit.WantTxBody(t, r, testkit.WantTxJSON(t, e.Fake, "", e.Fx.Node, e.Bank, 10, testkit.Friday()))
			first, _ := r.Body["_id"].(string)
			e.Fake.Advance(tc.advance)
			before := e.State(t, first)

			// The same body, and another one, under the same key.
			for _, body := range []any{testkit.TxBody(e.Bank, 10), testkit.TxBody(e.Savings, 1)} {
				r = testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: h, Body: body})
				if tc.free {
					testkit.WantTxBody(t, r, testkit.WantTxJSON(t, e.Fake, "", e.Fx.Node, e.Bank, 10, testkit.Friday().Add(tc.advance)))
					break
				}
				wantErrorStatus(t, r, 409, "450", "idempotency_key_in_use")
				if en := getTxPath(r.Body, "error.en"); en != "Idempotency key already in use." {
					t.Errorf("error.en %q, want %q", en, "Idempotency key already in use.")
				}
				e.WantTxUnchanged(t, before)
			}
			if tc.free {
				if n := transCount(t, e, e.Fx); n != 2.0 {
					t.Errorf("trans_count %v, want 2", n)
				}
				// The key is taken again for the next 24 hours.
				r = testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: h, Body: testkit.TxBody(e.Bank, 10)})
				wantErrorStatus(t, r, 409, "450", "idempotency_key_in_use")
			}
		})
	}
}

// TestIdempotencyKeyTakenOnlyBySuccess: a refused request does not take its
// key, so the client can retry with it.
func TestIdempotencyKeyTakenOnlyBySuccess(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		header func(e testkit.TxEnv) map[string]string
		body   func(e testkit.TxEnv) any
		status int
	}{
		{"a payload error", nil, func(e testkit.TxEnv) any { return map[string]any{"to": map[string]any{}} }, 400},
		{"a transfer to its own node", nil, func(e testkit.TxEnv) any { return testkit.TxBody(e.Fx.Node, 1) }, 409},
		{"an unknown receiver", nil, func(e testkit.TxEnv) any {
			b := testkit.TxBody(e.Bank, 1)
			testkit.PutPath(b, "to.id", "0123456789abcdef01234567")
			return b
		}, 404},
		{"a scope not granted", func(e testkit.TxEnv) map[string]string {
			return testkit.UserHeaders(e.Fake, e.Fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint, "TRANS|GET"))
		}, nil, 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
			path := testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)
			header := e.Fx.Headers
			if tc.header != nil {
				header = tc.header(e)
			}
			var body any = testkit.TxBody(e.Bank, 10)
			if tc.body != nil {
				body = tc.body(e)
			}
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: withKey(header, "retry-me"), Body: body})
			if r.Status != tc.status {
				t.Fatalf("first call: status %d, want %d: %s", r.Status, tc.status, r.Raw)
			}
			r = testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: withKey(e.Fx.Headers, "retry-me"), Body: testkit.TxBody(e.Bank, 10)})
			testkit.WantTxBody(t, r, testkit.WantTxJSON(t, e.Fake, "", e.Fx.Node, e.Bank, 10, testkit.Friday()))
			r = testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: withKey(e.Fx.Headers, "retry-me"), Body: testkit.TxBody(e.Bank, 10)})
			wantErrorStatus(t, r, 409, "450", "idempotency_key_in_use")
		})
	}
}

// TestIdempotencyKeyScope: a key counts on the POST path it was used on;
// other methods ignore keys; a blank key is no key; a wrong gateway is
// refused before a key is looked at.
func TestIdempotencyKeyScope(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
	path := testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)
	id := e.Create(t, e.Bank, 1)

	// GET, PATCH and DELETE with a key neither take it nor are refused by it.
	for range 2 {
		for _, c := range []testkit.Call{
			{Method: "GET", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: withKey(e.Fx.Headers, "k")},
			{Method: "GET", Path: path, Header: withKey(e.Fx.Headers, "k")},
			{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: withKey(e.Fx.Headers, "k"), Body: map[string]any{"comment": "x"}},
		} {
			if r := testkit.Do(t, e.Fake, c); r.Status != 200 {
				t.Errorf("%s %s with a key: %d %s", c.Method, c.Path, r.Status, r.Raw)
			}
		}
	}
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: withKey(e.Fx.Headers, "k"), Body: testkit.TxBody(e.Bank, 1)})
	if r.Status != 200 {
		t.Fatalf("POST with a key only GETs used: %d %s", r.Status, r.Raw)
	}
	r = testkit.Do(t, e.Fake, testkit.Call{Method: "DELETE", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: withKey(e.Fx.Headers, "k")})
	if r.Status != 200 {
		t.Errorf("DELETE with a used key: %d %s", r.Status, r.Raw)
	}

	// On another route (here another user's), the key is a new key; a
	// second use there is refused.
	payeeFunded := testkit.AddTxNode(t, e.Fake, e.Payee.User.ID, synapsefake.NodeSeed{Nickname: "Funded", BalanceCents: 10_00})
	for _, c := range []testkit.Call{
		{Method: "POST", Path: testkit.TransPath(e.Payee.User.ID, payeeFunded.ID), Header: withKey(e.Payee.Headers, "k"), Body: testkit.TxBody(e.Bank, 1)},
		{Method: "POST", Path: "/users/" + e.Payee.User.ID + "/nodes/" + payeeFunded.ID + "/batch-trans", Header: withKey(e.Payee.Headers, "k"),
			Body: map[string]any{"transactions": []any{testkit.TxBody(e.Bank, 1)}}},
	} {
		if r := testkit.Do(t, e.Fake, c); r.Status != 200 {
			t.Errorf("POST %s with a key used on another route: %d %s", c.Path, r.Status, r.Raw)
		}
		before := e.State(t, id)
		wantErrorStatus(t, testkit.Do(t, e.Fake, c), 409, "450", "idempotency_key_in_use")
		e.WantTxUnchanged(t, before)
	}
	if n := transCount(t, e, e.Payee); n != 2.0 {
		t.Errorf("payee trans_count %v, want 2", n)
	}

	// A wrong gateway is refused as such, key or not.
	h := withKey(e.Fx.Headers, "k")
	h["X-SP-GATEWAY"] = e.Fake.ClientID() + "|wrong"
	r = testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: h, Body: testkit.TxBody(e.Bank, 1)})
	wantErrorStatus(t, r, 401, "100", "invalid_client_credentials")

	// A blank key is no key.
	for range 2 {
		r = testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: withKey(e.Fx.Headers, "  "), Body: testkit.TxBody(e.Bank, 1)})
		if r.Status != 200 {
			t.Errorf("POST with a blank key: %d %s", r.Status, r.Raw)
		}
	}
}

// TestIdempotencyKeyConcurrent is the acceptance test: 50 goroutines send
// the same key at once and exactly one transaction is created; after 24 h
// and 1 ms the key creates a second. Five rounds, each with its own key,
// give a missing lock five chances to show.
func TestIdempotencyKeyConcurrent(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
	// A large attachment makes each request take a while, which widens the
	// window a missing lock would leave open.
	b := testkit.TxBody(e.Bank, 0.01)
	testkit.PutPath(b, "extra.other", map[string]any{"attachments": []any{base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("attachment"), 3200))}})
	body, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	url := e.Fake.URL() + testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)
	const goroutines, rounds = 50, 5
	type answer struct {
		status    int
		errorCode string
		err       error
	}
	for round := range rounds {
		headers := withKey(e.Fx.Headers, fmt.Sprintf("same-key-%d", round))
		answers := make([]answer, goroutines)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range goroutines {
			wg.Go(func() {
				<-start
				// Half over the listener, half through the handler itself,
				// which packs the requests closer together.
				var a answer
				if i%2 == 0 {
					a.status, a.errorCode, a.err = postJSON(e.Fake.Client(), url, headers, body)
				} else {
					a.status, a.errorCode, a.err = serveJSON(e.Fake, url, headers, body)
				}
				answers[i] = a
			})
		}
		close(start)
		wg.Wait()
		created := 0
		for i, a := range answers {
			switch {
			case a.err != nil:
				t.Errorf("round %d, goroutine %d: %v", round, i, a.err)
			case a.status == 200:
				created++
			case a.status != 409 || a.errorCode != "450":
				t.Errorf("round %d, goroutine %d: status %d, error_code %q; want 200 or 409 / 450", round, i, a.status, a.errorCode)
			}
		}
		if created != 1 {
			t.Errorf("round %d: %d requests performed, want 1", round, created)
		}
	}
	if got := transCount(t, e, e.Fx); got != float64(rounds) {
		t.Errorf("trans_count %v, want %d", got, rounds)
	}

	e.Fake.Advance(24*time.Hour + time.Millisecond)
	status, code, err := postJSON(e.Fake.Client(), url, withKey(e.Fx.Headers, "same-key-0"), body)
	if err != nil || status != 200 {
		t.Fatalf("after 24 h and 1 ms: status %d, error_code %q, %v", status, code, err)
	}
	if got := transCount(t, e, e.Fx); got != float64(rounds+1) {
		t.Errorf("trans_count %v, want %d", got, rounds+1)
	}
}

// postJSON posts body and returns the status and the answer's error_code;
// it is safe in any goroutine.
func postJSON(client *http.Client, url string, headers map[string]string, body []byte) (int, string, error) {
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var out struct {
		ErrorCode string `json:"error_code"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return resp.StatusCode, "", err
	}
	return resp.StatusCode, out.ErrorCode, nil
}

// serveJSON is postJSON through the Server's ServeHTTP, without a socket.
func serveJSON(h http.Handler, url string, headers map[string]string, body []byte) (int, string, error) {
	req := httptest.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out struct {
		ErrorCode string `json:"error_code"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		return rec.Code, "", err
	}
	return rec.Code, out.ErrorCode, nil
}

// TestBatchIdempotencyKeys: each item of a batch may carry
// extra.idempotency_key; a used key refuses that item alone.
func TestBatchIdempotencyKeys(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
	item := func(key string, amount float64) map[string]any {
		b := testkit.TxBody(e.Bank, amount)
		if key != "" {
			testkit.PutPath(b, "extra.idempotency_key", key)
		}
		return b
	}
	noIP := item("k4", 1)
	delete(noIP["extra"].(map[string]any), "ip")
	for _, tc := range []struct {
		name    string
		advance time.Duration
		items   []any
		created int
		refused map[float64]string // index -> error.code
	}{
		{"a key repeated in one batch", 0, []any{item("k1", 1), item("k1", 2), item("k2", 3), item("", 4), item("", 5)}, 4,
			map[float64]string{1: "idempotency_key_in_use"}},
		{"keys used by an earlier batch", time.Hour, []any{item("k2", 1), item("k3", 2), item("k1", 3)}, 1,
			map[float64]string{0: "idempotency_key_in_use", 2: "idempotency_key_in_use"}},
		{"a refused item keeps its key free", 0, []any{noIP}, 0, map[float64]string{0: "missing_ip"}},
		{"which a later item takes", 0, []any{item("k4", 1)}, 1, nil},
		{"keys are free again after 24 h", 23*time.Hour + time.Millisecond, []any{item("k1", 1), item("k2", 1), item("k3", 1)}, 2,
			map[float64]string{2: "idempotency_key_in_use"}},
	} {
		e.Fake.Advance(tc.advance)
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: e.BatchPath(), Header: e.Fx.Headers, Body: map[string]any{"transactions": tc.items}})
		if r.Status != 200 {
			t.Fatalf("%s: status %d: %s", tc.name, r.Status, r.Raw)
		}
		refused := map[float64]string{}
		errs, _ := r.Body["errors"].([]any)
		for _, x := range errs {
			m := x.(map[string]any)
			code, _ := getTxPath(m, "error.code").(string)
			refused[m["index"].(float64)] = code
			if code == "idempotency_key_in_use" && (m["error_code"] != "450" || m["http_code"] != "409") {
				t.Errorf("%s: refused item %v", tc.name, m)
			}
		}
		if tc.refused == nil {
			tc.refused = map[float64]string{}
		}
		if r.Body["trans_count"] != float64(tc.created) || fmt.Sprint(refused) != fmt.Sprint(tc.refused) {
			t.Errorf("%s: created %v, refused %v; want %d and %v", tc.name, r.Body["trans_count"], refused, tc.created, tc.refused)
		}
	}
	if got := transCount(t, e, e.Fx); got != 8.0 {
		t.Errorf("trans_count %v, want 8", got)
	}
}

// TestIdempotencyKeyAfterCredentials: a used key is only reported to a
// caller whose credentials are good; others get the credentials error.
func TestIdempotencyKeyAfterCredentials(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	a, b := testkit.NewFixture(t, fake, 10000), testkit.NewFixture(t, fake, 0)
	if r := testkit.Do(t, fake, txCall(a, b, "used")); r.Status != 200 {
		t.Fatalf("first create: %d %s", r.Status, r.Raw)
	}
	for _, tc := range []struct {
		name      string
		drop      string
		set       map[string]string
		status    int
		errorCode string
	}{
		{name: "no X-SP-USER", drop: "X-SP-USER", status: 400, errorCode: "200"},
		{name: "unknown key", set: map[string]string{"X-SP-USER": "oauth_nope|" + testkit.TestFingerprint}, status: 401, errorCode: "110"},
		{name: "another user's key", set: map[string]string{"X-SP-USER": b.Key + "|" + testkit.TestFingerprint}, status: 401, errorCode: "300"},
		{name: "good credentials", status: 409, errorCode: "450"},
	} {
		c := txCall(a, b, "used")
		delete(c.Header, tc.drop)
		for k, v := range tc.set {
			c.Header[k] = v
		}
		r := testkit.Do(t, fake, c)
		if r.Status != tc.status || r.Body["error_code"] != tc.errorCode {
			t.Errorf("%s: %d %v, want %d %q", tc.name, r.Status, r.Body["error_code"], tc.status, tc.errorCode)
		}
	}
}

// TestIdempotencyKeyMustBeText: a key that is not UTF-8 is 400 / "200"
// invalid_idempotency_key and performs nothing; a saved state could not
// tell two such keys apart. A UTF-8 key of any script is taken.
func TestIdempotencyKeyMustBeText(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
	path := testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)
	for _, key := range []string{"key-\xff", "\xfe\xfe"} {
		before := transCount(t, e, e.Fx)
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: withKey(e.Fx.Headers, key), Body: testkit.TxBody(e.Bank, 10)})
		wantErrorStatus(t, r, 400, "200", "invalid_idempotency_key")
		if after := transCount(t, e, e.Fx); after != before {
			t.Errorf("key %q: trans_count %v after the refusal, %v before", key, after, before)
		}
	}
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: withKey(e.Fx.Headers, "clé-ключ-鍵"), Body: testkit.TxBody(e.Bank, 10)})
	if r.Status != http.StatusOK {
		t.Fatalf("a UTF-8 key: status %d: %s", r.Status, r.Raw)
	}
	r = testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: withKey(e.Fx.Headers, "clé-ключ-鍵"), Body: testkit.TxBody(e.Bank, 10)})
	wantErrorStatus(t, r, 409, "450", "idempotency_key_in_use")
}
