package api_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// hookIDPattern is the form of object ids and log ids.
var hookIDPattern = regexp.MustCompile(`^[0-9a-f]{24}$`)

// hookGateway are the headers of a call made with gateway credentials only,
// as the subscription endpoints take them.
func hookGateway(fake *synapsefake.Server) map[string]string {
	return map[string]string{"X-SP-GATEWAY": fake.Gateway()}
}

// hookSend is one HTTP call to the fake that reports failures instead of
// failing the test, for goroutines other than the test's (webhook
// receivers, concurrent callers).
func hookSend(fake *synapsefake.Server, method, path string, header map[string]string, body any) (int, map[string]any, error) {
	var rdr io.Reader = http.NoBody
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rdr = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, fake.URL()+path, rdr)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := fake.Client().Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: decode: %v", method, path, err)
	}
	return resp.StatusCode, m, nil
}

// hookLogs is GET /subscriptions/logs with query (e.g. "?page=2"), which
// must succeed.
func hookLogs(t testing.TB, fake *synapsefake.Server, query string) map[string]any {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions/logs" + query, Header: hookGateway(fake)})
	if r.Status != http.StatusOK {
		t.Fatalf("GET /subscriptions/logs%s: status %d: %s", query, r.Status, r.Raw)
	}
	return r.Body
}

// hookLogCodes are the http_response_code of every log entry, oldest first.
func hookLogCodes(t testing.TB, fake *synapsefake.Server) []string {
	t.Helper()
	logs, _ := hookLogs(t, fake, "")["logs"].([]any)
	var codes []string
	for _, e := range slices.Backward(logs) {
		m, _ := e.(map[string]any)
		codes = append(codes, fmt.Sprint(m["http_response_code"]))
	}
	return codes
}

// attemptCodes are the codes of a webhook's attempts, by delivery.
func attemptCodes(w synapsefake.Webhook) [][]int {
	out := make([][]int, len(w.Deliveries))
	for i, d := range w.Deliveries {
		for _, a := range d.Attempts {
			out[i] = append(out[i], a.Code)
		}
	}
	return out
}

// hmacHex is the hex HMAC of msg keyed with key, computed here independently
// of the fake.
func hmacHex(h func() hash.Hash, key, msg string) string {
	m := hmac.New(h, []byte(key))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

// wantSignatures checks both signature headers against HMACs computed here.
func wantSignatures(h http.Header, objectID, clientID, secret string) error {
	msg := objectID + "+" + clientID
	if got, want := h.Get("X-Synapse-Signature"), hmacHex(sha1.New, secret, msg); got != want {
		return fmt.Errorf("X-Synapse-Signature %q, want %q", got, want)
	}
	if got, want := h.Get("X-Synapse-Signature-Sha256"), hmacHex(sha256.New, secret, msg); got != want {
		return fmt.Errorf("X-Synapse-Signature-Sha256 %q, want %q", got, want)
	}
	if !synapsefake.VerifySignature(h, objectID, clientID, secret) {
		return fmt.Errorf("VerifySignature refused the headers of %s", objectID)
	}
	return nil
}

// TestWebhookEndToEnd is the first acceptance test: a consumer's
// handler subscribed to transaction events receives CREATED through SETTLED
// in order, checks both signatures and calls the fake back from inside the
// handler.
func TestWebhookEndToEnd(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 10000)
	savings := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})

	type seen struct{ Function, Status, CallbackStatus string }
	var (
		mu   sync.Mutex
		got  []seen
		errs []string
	)
	rcv := testkit.NewHookReceiver(t, func(_ int, d testkit.HookDelivery) (int, string) {
		id := d.ObjectID()
		var problems []string
		if d.Method != http.MethodPost {
			problems = append(problems, "method "+d.Method)
		}
		if ct := d.Header.Get("Content-Type"); ct != "application/json" {
			problems = append(problems, "Content-Type "+ct)
		}
		if err := wantSignatures(d.Header, id, fake.ClientID(), fake.ClientSecret()); err != nil {
			problems = append(problems, err.Error())
		}
		// The consumer looks the transaction up while the fake waits for
		// its answer.
		status, body, err := hookSend(fake, "GET", "/users/"+fx.User.ID+"/nodes/"+fx.Node.ID+"/trans/"+id, fx.Headers, nil)
		if err != nil {
			problems = append(problems, err.Error())
		} else if body["_id"] != id {
			problems = append(problems, fmt.Sprintf("callback answered _id %v, want %s", body["_id"], id))
		}
		mu.Lock()
		got = append(got, seen{d.Meta("function"), d.Status(), fmt.Sprint(status)})
		errs = append(errs, problems...)
		mu.Unlock()
		return http.StatusOK, "ok"
	})

	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/subscriptions", Header: hookGateway(fake),
		Body: map[string]any{"scope": []string{"TRANS|POST", "TRAN|PATCH"}, "url": rcv.Url}})
	if r.Status != http.StatusOK {
		t.Fatalf("POST /subscriptions: status %d: %s", r.Status, r.Raw)
	}
	r = testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/trans", Header: fx.Headers,
		Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": savings.ID},
			"amount": map[string]any{"amount": 10.5, "currency": "USD"}, "extra": map[string]any{"ip": "192.168.0.1"}}})
	if r.Status != http.StatusOK {
		t.Fatalf("create transaction: status %d: %s", r.Status, r.Raw)
	}
	txID, _ := r.Body["_id"].(string)

	done := make(chan struct{})
	go func() {
		fake.Advance(time.Millisecond)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Advance did not return within 10 s: a delivery whose receiver calls the fake back deadlocked")
	}

	mu.Lock()
	defer mu.Unlock()
	want := []seen{
		{"TRANS|POST", "CREATED", "200"},
		{"TRAN|PATCH", "PROCESSING-DEBIT", "200"},
		{"TRAN|PATCH", "PROCESSING-CREDIT", "200"},
		{"TRAN|PATCH", "SETTLED", "200"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("deliveries (-want +got):\n%s", diff)
	}
	for _, e := range errs {
		t.Error(e)
	}
	if tx, _ := fake.Transaction(txID); tx.Status != synapsefake.StatusSettled {
		t.Errorf("transaction status %s, want SETTLED", tx.Status)
	}
	w := fake.Webhooks().Wait(t, synapsefake.ForTransaction(txID, synapsefake.StatusSettled))
	if diff := cmp.Diff([][]int{{200}}, attemptCodes(w)); diff != "" {
		t.Errorf("SETTLED webhook attempts (-want +got):\n%s", diff)
	}
}

// TestWebhookRetries is the second acceptance test: a receiver that
// answers 500 twice then 200 gets three attempts, the retries only when the
// clock reaches them, and the log holds all three with their codes.
func TestWebhookRetries(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	texts := []string{"boom 1", "boom 2", "thanks"}
	rcv := testkit.NewHookReceiver(t, func(n int, _ testkit.HookDelivery) (int, string) {
		if n < 2 {
			return http.StatusInternalServerError, texts[n]
		}
		return http.StatusOK, texts[min(n, 2)]
	})
	fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
	t0 := fake.Now()
	u := fake.MustAddUser(t, synapsefake.UserSeed{})

	steps := []struct {
		advance time.Duration
		want    int // receiver's attempts afterwards
	}{
		{0, 1},                                 // Flush only: the first attempt
		{time.Minute - time.Millisecond, 1},    // the first retry is not due yet
		{time.Millisecond, 2},                  // one minute after the first attempt
		{10*time.Minute - time.Millisecond, 2}, // the second retry is not due yet
		{time.Millisecond, 3},                  // ten minutes after the first retry: 200
		{48 * time.Hour, 3},                    // a success ends the delivery
	}
	for i, s := range steps {
		if s.advance == 0 {
			fake.Flush()
		} else {
			fake.Advance(s.advance)
		}
		if got := len(rcv.Deliveries()); got != s.want {
			t.Fatalf("step %d (advance %v): %d attempts, want %d", i, s.advance, got, s.want)
		}
	}

	w := fake.Webhooks().Wait(t, synapsefake.ForObject(u.ID))
	if diff := cmp.Diff([][]int{{500, 500, 200}}, attemptCodes(w)); diff != "" {
		t.Errorf("captured attempts (-want +got):\n%s", diff)
	}
	got := hookLogs(t, fake, "")

	// The expected log, built from the delivered bytes.
	delivered := rcv.Deliveries()
	for i, d := range delivered[1:] {
		if !bytes.Equal(d.Body, delivered[0].Body) {
			t.Errorf("attempt %d body differs from the first attempt's", i+2)
		}
	}
	var safeObj map[string]any
	if err := json.Unmarshal(delivered[0].Body, &safeObj); err != nil {
		t.Fatal(err)
	}
	// The log shows the object's dates as {"$date"}, outside _rest.
	extra := safeObj["extra"].(map[string]any)
	for _, k := range []string{"date_joined", "last_updated"} {
		extra[k] = map[string]any{"$date": extra[k]}
	}
	sum := sha256.Sum256(delivered[0].Body)
	logID := delivered[0].Meta("log_id")
	if !hookIDPattern.MatchString(logID) {
		t.Errorf("webhook_meta.log_id %q is not 24 hex characters", logID)
	}
	dates := []time.Time{t0, t0.Add(time.Minute), t0.Add(11 * time.Minute)}
	codes := []string{"500", "500", "200"}
	var responses, logs []any
	for i := range 3 {
		responses = append(responses, map[string]any{"date": float64(dates[i].UnixMilli()),
			"http_response_code": codes[i], "http_response_text": texts[i]})
		entry := map[string]any{
			"_id":                map[string]any{"$oid": logID},
			"client_id":          fake.ClientID(),
			"date":               float64(dates[i].UnixMilli()),
			"function":           "USERS|POST",
			"http_response_code": codes[i],
			"http_response_text": texts[i],
			"http_responses":     slices.Clone(responses),
			"http_url":           rcv.Url,
			"obj_id":             "USER_" + u.ID,
			"safe_obj":           safeObj,
			"safe_obj_hash":      hex.EncodeToString(sum[:]),
			"updated_by":         "BACKEND",
		}
		logs = slices.Insert(logs, 0, any(entry)) // newest first
	}
	want := map[string]any{"error_code": "0", "http_code": "200", "limit": float64(20), "logs": logs,
		"logs_count": float64(3), "page": float64(1), "page_count": float64(1), "success": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GET /subscriptions/logs (-want +got):\n%s", diff)
	}
}

// TestWebhookRetrySchedule checks that a receiver that never succeeds gets
// the first attempt and five retries within 24 hours, all of them run by a
// single Advance and dated when each fell due, and nothing after.
func TestWebhookRetrySchedule(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	rcv := testkit.NewHookReceiver(t, func(int, testkit.HookDelivery) (int, string) { return http.StatusServiceUnavailable, "down" })
	fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
	t0 := fake.Now()
	u := fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.Advance(24 * time.Hour)
	fake.Advance(30 * 24 * time.Hour)

	if got := len(rcv.Deliveries()); got != 6 {
		t.Errorf("receiver got %d attempts, want 6", got)
	}
	w := fake.Webhooks().Wait(t, synapsefake.ForObject(u.ID))
	var got []time.Time
	for _, a := range w.Deliveries[0].Attempts {
		got = append(got, a.Date)
	}
	var want []time.Time
	at := t0
	for _, d := range []time.Duration{0, time.Minute, 10 * time.Minute, time.Hour, 4 * time.Hour, 12 * time.Hour} {
		at = at.Add(d)
		want = append(want, at)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("attempt dates (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"503", "503", "503", "503", "503", "503"}, hookLogCodes(t, fake)); diff != "" {
		t.Errorf("logged codes (-want +got):\n%s", diff)
	}
}

// TestWebhookSuccessCodes checks which answers end a delivery: 200, 204,
// 400, 404, 405 and 408 do; anything else is retried.
func TestWebhookSuccessCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code         int
		wantAttempts int
	}{
		{200, 1}, {204, 1}, {400, 1}, {404, 1}, {405, 1}, {408, 1},
		{201, 6}, {401, 6}, {403, 6}, {409, 6}, {429, 6}, {500, 6}, {502, 6}, {503, 6},
	} {
		t.Run(fmt.Sprint(tc.code), func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			rcv := testkit.NewHookReceiver(t, func(int, testkit.HookDelivery) (int, string) { return tc.code, "" })
			fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
			fake.MustAddUser(t, synapsefake.UserSeed{})
			fake.Advance(24 * time.Hour)
			if got := len(rcv.Deliveries()); got != tc.wantAttempts {
				t.Errorf("answer %d: %d attempts, want %d", tc.code, got, tc.wantAttempts)
			}
			want := slices.Repeat([]string{fmt.Sprint(tc.code)}, tc.wantAttempts)
			if diff := cmp.Diff(want, hookLogCodes(t, fake)); diff != "" {
				t.Errorf("logged codes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWebhookDeadSubscription is the third acceptance test: a
// subscription to an address nobody listens on is logged as 408 and not
// retried, and the call that caused the event is answered as usual.
func TestWebhookDeadSubscription(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	url := testkit.DeadURL(t)
	fake.MustAddSubscription(t, url)
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(fake), Body: map[string]any{
		"logins": []any{map[string]any{"email": "dead@example.com"}}, "phone_numbers": []string{"901.111.1111"},
		"legal_names": []string{"Dead Letter"}}})
	if r.Status != http.StatusOK {
		t.Fatalf("POST /users: status %d: %s", r.Status, r.Raw)
	}
	fake.Advance(24 * time.Hour)

	w := fake.Webhooks().Wait(t, synapsefake.ForFunction("USERS|POST"))
	if diff := cmp.Diff([][]int{{408}}, attemptCodes(w)); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
	logs, _ := hookLogs(t, fake, "")["logs"].([]any)
	if len(logs) != 1 {
		t.Fatalf("%d log entries, want 1", len(logs))
	}
	e := logs[0].(map[string]any)
	if e["http_response_code"] != "408" || e["http_url"] != url || e["obj_id"] != "USER_"+r.Body["_id"].(string) {
		t.Errorf("log entry code %v url %v obj_id %v, want \"408\" %s USER_%s", e["http_response_code"], e["http_url"], e["obj_id"], url, r.Body["_id"])
	}
	if text, _ := e["http_response_text"].(string); text == "" {
		t.Error("http_response_text is empty; want the connection error")
	}
}

// TestWebhookDeliveryIsOffTheRequestPath checks that a receiver that does
// not answer does not hold up the API call that caused the event.
func TestWebhookDeliveryIsOffTheRequestPath(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	release := make(chan struct{})
	rcv := testkit.NewHookReceiver(t, func(int, testkit.HookDelivery) (int, string) {
		<-release
		return http.StatusOK, "ok"
	})
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	fake.MustAddSubscription(t, rcv.Url, "USERS|POST", "USER|PATCH")
	fx := testkit.NewFixture(t, fake, 0) // blocks the receiver on its USERS|POST
	// The calls run in another goroutine so that a delivery made on the
	// request path fails the test instead of hanging it.
	done := make(chan error, 1)
	go func() {
		for i := range 3 {
			status, body, err := hookSend(fake, "PATCH", "/users/"+fx.User.ID, fx.Headers,
				map[string]any{"update": map[string]any{"public_note": fmt.Sprint("note ", i)}})
			if err == nil && status != http.StatusOK {
				err = fmt.Errorf("PATCH /users: status %d: %v", status, body)
			}
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the API calls did not return within 10 s while the receiver hangs")
	}
	if n := len(fake.Webhooks().All()); n != 5 { // USERS|POST, NODES|POST, 3 USER|PATCH
		t.Errorf("%d webhooks captured while the receiver hangs, want 5", n)
	}
	close(release)
	fake.Flush()
	var got []string
	for _, d := range rcv.Deliveries() {
		got = append(got, d.Meta("function"))
	}
	if diff := cmp.Diff([]string{"USERS|POST", "USER|PATCH", "USER|PATCH", "USER|PATCH"}, got); diff != "" {
		t.Errorf("delivered functions (-want +got):\n%s", diff)
	}
}

// TestWebhookConcurrentEvents is the fourth acceptance test: 20
// goroutines cause events at once; every event is delivered exactly once,
// in the order the fake captured it.
func TestWebhookConcurrentEvents(t *testing.T) {
	t.Parallel()
	const goroutines, rounds = 20, 5
	fake := synapsefake.NewServer(t)
	rcv := testkit.NewHookReceiver(t, nil)
	fake.MustAddSubscription(t, rcv.Url)

	var wg sync.WaitGroup
	errs := make(chan error, goroutines*rounds*3)
	for g := range goroutines {
		wg.Go(func() {
			for i := range rounds {
				status, body, err := hookSend(fake, "POST", "/users", testkit.GatewayHeaders(fake), map[string]any{
					"logins":        []any{map[string]any{"email": fmt.Sprintf("u%d-%d@example.com", g, i)}},
					"phone_numbers": []string{"901.111.1111"}, "legal_names": []string{"Concurrent User"}})
				if err != nil || status != http.StatusOK {
					errs <- fmt.Errorf("POST /users: %d %v %v", status, body, err)
					continue
				}
				id, _ := body["_id"].(string)
				key := fake.OAuthKey(id, testkit.TestFingerprint)
				status, body, err = hookSend(fake, "PATCH", "/users/"+id, testkit.UserHeaders(fake, key),
					map[string]any{"update": map[string]any{"public_note": "hello"}})
				if err != nil || status != http.StatusOK {
					errs <- fmt.Errorf("PATCH /users: %d %v %v", status, body, err)
				}
				if _, err := fake.AddNode(id, synapsefake.NodeSeed{}); err != nil {
					errs <- fmt.Errorf("AddNode(%s): %v", id, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	fake.Flush()

	captured := fake.Webhooks().All()
	if len(captured) != goroutines*rounds*3 {
		t.Errorf("%d webhooks captured, want %d", len(captured), goroutines*rounds*3)
	}
	var wantIDs []string
	for _, w := range captured {
		if len(w.Deliveries) != 1 {
			t.Fatalf("%s: %d deliveries, want 1", w, len(w.Deliveries))
		}
		wantIDs = append(wantIDs, w.Deliveries[0].LogID)
	}
	count := map[string]int{}
	var gotIDs []string
	for _, d := range rcv.Deliveries() {
		id := d.Meta("log_id")
		count[id]++
		gotIDs = append(gotIDs, id)
	}
	for id, n := range count {
		if n != 1 {
			t.Errorf("log_id %s delivered %d times", id, n)
		}
	}
	if diff := cmp.Diff(wantIDs, gotIDs); diff != "" {
		t.Errorf("delivered log_ids, in order (-captured +delivered):\n%s", diff)
	}
	if n := hookLogs(t, fake, "")["logs_count"]; n != float64(len(wantIDs)) {
		t.Errorf("logs_count %v, want %d", n, len(wantIDs))
	}
}

// TestWebhookCapture covers All, Reset, Wait and the matchers.
func TestWebhookCapture(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, synapsefake.WithManualProcessing())
	if got := e.fake.Webhooks().All(); len(got) != 0 {
		t.Fatalf("All after Reset: %d webhooks, want none", len(got))
	}
	tx1 := e.transfer(t)
	tx2 := e.transfer(t)
	if err := e.fake.Settle(tx1); err != nil {
		t.Fatal(err)
	}
	u := e.fake.MustAddUser(t, synapsefake.UserSeed{})

	all := e.fake.Webhooks().All()
	var names []string
	for _, w := range all {
		names = append(names, w.Function+" "+w.ObjectID+" "+w.Status)
	}
	want := []string{
		"TRANS|POST " + tx1 + " CREATED", "TRANS|POST " + tx2 + " CREATED",
		"TRAN|PATCH " + tx1 + " PROCESSING-DEBIT", "TRAN|PATCH " + tx1 + " PROCESSING-CREDIT", "TRAN|PATCH " + tx1 + " SETTLED",
		"USERS|POST " + u.ID + " ",
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Fatalf("All, oldest first (-want +got):\n%s", diff)
	}
	// All returns copies.
	mine := e.fake.Webhooks().All()
	mine[0].Body[0] = 'X'
	mine[0].Function = "changed"
	if again := e.fake.Webhooks().All(); again[0].Body[0] != '{' || again[0].Function != "TRANS|POST" {
		t.Error("changing All's result changed the capture")
	}

	for _, tc := range []struct {
		name  string
		match synapsefake.WebhookMatcher
		want  []int // indexes into all
	}{
		{"ForTransaction any status", synapsefake.ForTransaction(tx1, ""), []int{0, 2, 3, 4}},
		{"ForTransaction SETTLED", synapsefake.ForTransaction(tx1, synapsefake.StatusSettled), []int{4}},
		{"ForTransaction CREATED", synapsefake.ForTransaction(tx2, synapsefake.StatusCreated), []int{1}},
		{"ForTransaction no such status", synapsefake.ForTransaction(tx2, synapsefake.StatusSettled), nil},
		{"ForTransaction of a user id", synapsefake.ForTransaction(u.ID, ""), nil},
		{"ForFunction TRANS|POST", synapsefake.ForFunction("TRANS|POST"), []int{0, 1}},
		{"ForFunction TRAN|PATCH", synapsefake.ForFunction("TRAN|PATCH"), []int{2, 3, 4}},
		{"ForFunction USERS|POST", synapsefake.ForFunction("USERS|POST"), []int{5}},
		{"ForFunction NODE|PATCH", synapsefake.ForFunction("NODE|PATCH"), nil},
		{"ForObject user", synapsefake.ForObject(u.ID), []int{5}},
		{"ForObject transaction", synapsefake.ForObject(tx2), []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []int
			for i, w := range all {
				if tc.match(w) {
					got = append(got, i)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("matches (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("Wait returns the first match at once", func(t *testing.T) {
		w := e.fake.Webhooks().Wait(t, synapsefake.ForTransaction(tx1, ""))
		if w.Function != "TRANS|POST" || w.ObjectID != tx1 {
			t.Errorf("Wait returned %s, want the TRANS|POST of %s", w, tx1)
		}
	})
	t.Run("WaitWithin waits for another goroutine", func(t *testing.T) {
		// The other goroutine makes its change only once WaitWithin has
		// looked at the capture and found nothing, so it must wait for it,
		// although the clock is frozen and no delivery is in flight.
		release := make(chan struct{})
		var once sync.Once
		done := make(chan string, 1)
		go func() {
			<-release
			done <- e.fake.MustAddUser(t, synapsefake.UserSeed{}).ID
		}()
		match := func(w synapsefake.Webhook) bool {
			if w.Function == "USERS|POST" && w.ObjectID != u.ID {
				return true
			}
			once.Do(func() { close(release) })
			return false
		}
		w := e.fake.Webhooks().WaitWithin(t, 5*time.Second, match)
		id := <-done
		if w.ObjectID != id {
			t.Errorf("Wait returned %s, want the USERS|POST of %s", w, id)
		}
	})
	t.Run("Reset", func(t *testing.T) {
		e.fake.Webhooks().Reset()
		if got := e.fake.Webhooks().All(); len(got) != 0 {
			t.Errorf("All after Reset: %d webhooks", len(got))
		}
		if err := e.fake.Settle(tx2); err != nil {
			t.Fatal(err)
		}
		if got := e.fake.Webhooks().All(); len(got) != 3 || got[0].ObjectID != tx2 {
			t.Errorf("after Reset and Settle: %v, want tx2's three moves", got)
		}
	})
}

// TestWebhookWaitFailure checks that Wait fails the test when nothing
// matches, with a message that lists what was captured. It waits Wait's
// bound of real time (5 s).
func TestWebhookWaitFailure(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	rcv := testkit.NewHookReceiver(t, func(int, testkit.HookDelivery) (int, string) { return http.StatusInternalServerError, "" })
	e.fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
	u := e.fake.MustAddUser(t, synapsefake.UserSeed{})
	tx := e.transfer(t)
	if err := e.fake.Queue(tx, "HIGH-RISK"); err != nil {
		t.Fatal(err)
	}
	e.fake.Flush()

	tb := &testkit.RecordingTB{TB: t}
	w := e.fake.Webhooks().WaitWithin(tb, 50*time.Millisecond, synapsefake.ForFunction("SUBNET|PATCH"))
	if w.Function != "" {
		t.Errorf("Wait returned %s after failing, want the zero Webhook", w)
	}
	if len(tb.Fatals) != 1 {
		t.Fatalf("Fatalf called %d times, want 1: %q", len(tb.Fatals), tb.Fatals)
	}
	msg := tb.Fatals[0]
	for _, want := range []string{
		"no webhook matched",
		"\n  1. USERS|POST USER_" + u.ID + " -> " + rcv.Url + " [500]\n",
		"\n  2. TRANS|POST TRAN_" + tx + " CREATED\n",
		"\n  3. TRAN|PATCH TRAN_" + tx + " QUEUED-BY-SYNAPSE (HIGH-RISK)",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure message lacks %q:\n%s", want, msg)
		}
	}
}

// TestWithoutWebhookDelivery checks that webhooks are captured and logged as
// delivered, with no request to the subscription's URL.
func TestWithoutWebhookDelivery(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery())
	rcv := testkit.NewHookReceiver(t, nil)
	fake.MustAddSubscription(t, rcv.Url)
	fake.MustAddSubscription(t, testkit.DeadURL(t))
	fx := testkit.NewFixture(t, fake, 0)
	fake.Advance(24 * time.Hour)

	if got := rcv.Deliveries(); len(got) != 0 {
		t.Errorf("receiver got %d requests, want none", len(got))
	}
	w := fake.Webhooks().Wait(t, synapsefake.ForObject(fx.User.ID))
	if diff := cmp.Diff([][]int{{200}, {200}}, attemptCodes(w)); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"200", "200", "200", "200"}, hookLogCodes(t, fake)); diff != "" {
		t.Errorf("logged codes (-want +got):\n%s", diff)
	}
}

// hookTransport answers every request itself and records it.
type hookTransport struct {
	mu   sync.Mutex
	reqs []string
}

func (tr *hookTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	tr.mu.Lock()
	tr.reqs = append(tr.reqs, r.Method+" "+r.URL.String())
	tr.mu.Unlock()
	return &http.Response{StatusCode: http.StatusAccepted, Body: io.NopCloser(strings.NewReader("via transport")),
		Header: http.Header{}, Request: r}, nil
}

// TestWithWebhookClient checks that deliveries go through the given client.
func TestWithWebhookClient(t *testing.T) {
	t.Parallel()
	tr := &hookTransport{}
	fake := synapsefake.NewServer(t, synapsefake.WithWebhookClient(&http.Client{Transport: tr}))
	fake.MustAddSubscription(t, "https://consumer.invalid/hooks", "USERS|POST")
	fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.Flush()
	tr.mu.Lock()
	reqs := slices.Clone(tr.reqs)
	tr.mu.Unlock()
	if diff := cmp.Diff([]string{"POST https://consumer.invalid/hooks"}, reqs); diff != "" {
		t.Errorf("requests through the client (-want +got):\n%s", diff)
	}
	// 202 is not a success code: it is retried on the clock.
	fake.Advance(time.Minute)
	logs, _ := hookLogs(t, fake, "")["logs"].([]any)
	if len(logs) != 2 {
		t.Fatalf("%d log entries, want 2", len(logs))
	}
	e := logs[0].(map[string]any)
	if e["http_response_code"] != "202" || e["http_response_text"] != "via transport" {
		t.Errorf("log entry code %v text %v, want \"202\" \"via transport\"", e["http_response_code"], e["http_response_text"])
	}
}

// TestWithWebhookTimeout checks that a receiver that does not answer within
// the timeout is logged as 408 and not retried.
func TestWithWebhookTimeout(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithWebhookTimeout(20*time.Millisecond))
	release := make(chan struct{})
	rcv := testkit.NewHookReceiver(t, func(int, testkit.HookDelivery) (int, string) {
		<-release
		return http.StatusOK, "too late"
	})
	t.Cleanup(func() { close(release) }) // runs before the receiver closes
	fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
	fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.Advance(24 * time.Hour)
	if diff := cmp.Diff([]string{"408"}, hookLogCodes(t, fake)); diff != "" {
		t.Errorf("logged codes (-want +got):\n%s", diff)
	}
	if n := len(rcv.Deliveries()); n != 1 {
		t.Errorf("receiver saw %d requests, want 1", n)
	}
}

// TestWebhookSubscriptionRouting checks which subscriptions get a delivery:
// active ones whose scope holds the function, each once, at the URL they
// have when the change happens.
func TestWebhookSubscriptionRouting(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	users, nodes, both := testkit.NewHookReceiver(t, nil), testkit.NewHookReceiver(t, nil), testkit.NewHookReceiver(t, nil)
	fake.MustAddSubscription(t, users.Url, "USERS|POST")
	fake.MustAddSubscription(t, nodes.Url, "NODES|POST", "NODE|PATCH")
	bothSub := fake.MustAddSubscription(t, both.Url)
	off := fake.MustAddSubscription(t, testkit.DeadURL(t))
	r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/subscriptions/" + off.ID, Header: hookGateway(fake), Body: map[string]any{"is_active": false}})
	if r.Status != http.StatusOK {
		t.Fatalf("deactivate: status %d: %s", r.Status, r.Raw)
	}

	u := fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.AddNode(u.ID, synapsefake.NodeSeed{})
	// Move "both" to the users receiver: later events go there.
	r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/subscriptions/" + bothSub.ID, Header: hookGateway(fake), Body: map[string]any{"url": users.Url}})
	if r.Status != http.StatusOK {
		t.Fatalf("move: status %d: %s", r.Status, r.Raw)
	}
	fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.Flush()

	functions := func(rcv *testkit.HookReceiver) []string {
		var out []string
		for _, d := range rcv.Deliveries() {
			out = append(out, d.Meta("function"))
		}
		return out
	}
	for name, tc := range map[string]struct {
		rcv  *testkit.HookReceiver
		want []string
	}{
		"users": {users, []string{"USERS|POST", "USERS|POST", "USERS|POST"}},
		"nodes": {nodes, []string{"NODES|POST"}},
		"both":  {both, []string{"USERS|POST", "NODES|POST"}},
	} {
		if diff := cmp.Diff(tc.want, functions(tc.rcv)); diff != "" {
			t.Errorf("%s receiver (-want +got):\n%s", name, diff)
		}
	}
	all := fake.Webhooks().All()
	if len(all) != 3 {
		t.Fatalf("%d webhooks, want 3", len(all))
	}
	var urls []string
	for _, d := range all[2].Deliveries {
		urls = append(urls, d.URL)
		if d.LogID != all[2].Payload()["webhook_meta"].(map[string]any)["log_id"] {
			t.Errorf("delivery log id %s differs from webhook_meta.log_id", d.LogID)
		}
	}
	if diff := cmp.Diff([]string{users.Url, users.Url}, urls); diff != "" {
		t.Errorf("deliveries of the second user (-want +got):\n%s", diff)
	}
	if n := hookLogs(t, fake, "")["logs_count"]; n != float64(6) {
		t.Errorf("logs_count %v, want 6 (none for the inactive subscription)", n)
	}
}

// TestWebhookLogs checks the log wrapper, newest-first order and paging.
func TestWebhookLogs(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	rcv := testkit.NewHookReceiver(t, nil)
	fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
	var ids []string
	for range 23 {
		ids = append(ids, fake.MustAddUser(t, synapsefake.UserSeed{}).ID)
	}
	fake.Flush()
	objIDs := func(body map[string]any) []string {
		var out []string
		logs, _ := body["logs"].([]any)
		for _, e := range logs {
			out = append(out, e.(map[string]any)["obj_id"].(string))
		}
		return out
	}
	newest := func(from, to int) []string { // obj_ids of ids[from:to], newest first
		var out []string
		for i := to - 1; i >= from; i-- {
			out = append(out, "USER_"+ids[i])
		}
		return out
	}
	for _, tc := range []struct {
		query            string
		limit, page, pgs float64
		want             []string
	}{
		{"", 20, 1, 2, newest(3, 23)},
		{"?page=2", 20, 2, 2, newest(0, 3)},
		{"?page=3", 20, 3, 2, nil},
		{"?per_page=5&page=2", 5, 2, 5, newest(13, 18)},
		{"?per_page=100", 20, 1, 2, newest(3, 23)},
	} {
		t.Run(tc.query, func(t *testing.T) {
			body := hookLogs(t, fake, tc.query)
			gotWrapper := map[string]any{}
			for _, k := range []string{"error_code", "http_code", "limit", "logs_count", "page", "page_count", "success"} {
				gotWrapper[k] = body[k]
			}
			wantWrapper := map[string]any{"error_code": "0", "http_code": "200", "limit": tc.limit, "logs_count": float64(23),
				"page": tc.page, "page_count": tc.pgs, "success": true}
			if diff := cmp.Diff(wantWrapper, gotWrapper); diff != "" {
				t.Errorf("wrapper (-want +got):\n%s", diff)
			}
			if len(body) != 8 {
				t.Errorf("wrapper has %d fields, want 8: %v", len(body), body)
			}
			if diff := cmp.Diff(tc.want, objIDs(body)); diff != "" {
				t.Errorf("obj_ids (-want +got):\n%s", diff)
			}
			if logs, ok := body["logs"].([]any); !ok {
				t.Errorf("logs is %T, want an array even when empty", body["logs"])
			} else if len(tc.want) == 0 && len(logs) != 0 {
				t.Errorf("logs %v, want []", logs)
			}
		})
	}
}

// TestWebhookLogsErrors checks the refusals of GET /subscriptions/logs; none
// changes the log.
func TestWebhookLogsErrors(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery())
	fake.MustAddSubscription(t, "https://example.com/hooks")
	fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.Flush()
	before := hookLogs(t, fake, "")
	for _, tc := range []struct {
		name                  string
		method, query         string
		header                map[string]string
		status                int
		errorCode, errorField string
	}{
		{"missing gateway", "GET", "", map[string]string{}, 400, "100", "missing_client_credentials"},
		{"wrong gateway", "GET", "", map[string]string{"X-SP-GATEWAY": "client_id_x|client_secret_y"}, 401, "100", "invalid_client_credentials"},
		{"page 0", "GET", "?page=0", hookGateway(fake), 400, "200", ""},
		{"page not a number", "GET", "?page=two", hookGateway(fake), 400, "200", ""},
		{"per_page 0", "GET", "?per_page=0", hookGateway(fake), 400, "200", ""},
		{"POST", "POST", "", hookGateway(fake), 409, "410", "method_not_allowed"},
		{"DELETE", "DELETE", "", hookGateway(fake), 409, "410", "method_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: "/subscriptions/logs" + tc.query, Header: tc.header})
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.errorField)
			if diff := cmp.Diff(before, hookLogs(t, fake, "")); diff != "" {
				t.Errorf("log changed (-before +after):\n%s", diff)
			}
		})
	}
}
