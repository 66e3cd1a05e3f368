package api_test

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// TestHeapPerSettledTransaction checks what a settled transaction costs to
// keep, with one subscription and its four deliveries logged: events are
// references to the transaction, not copies of its JSON.
func TestHeapPerSettledTransaction(t *testing.T) {
	const n = 2000
	e := testkit.NewTxEnv(t, 1<<40, synapsefake.WithoutWebhookDelivery())
	e.Fake.MustAddSubscription(t, "http://127.0.0.1:1/hooks")
	body := testkit.TxBody(e.Payee.Node, 1)
	for range 100 { // warm the connection, the encoders and the indexes
		e.CreateFrom(t, e.Fx, e.Fx.Node, body)
	}
	e.Fake.Advance(time.Hour)
	e.Fake.ResetRequests()
	before := testkit.HeapAfterGC()
	for range n {
		e.CreateFrom(t, e.Fx, e.Fx.Node, body)
	}
	e.Fake.Advance(time.Hour)
	e.Fake.ResetRequests() // the journal is bounded by its own limit
	after := testkit.HeapAfterGC()
	all := e.Fake.Webhooks().All()
	if len(all) < 4*n {
		t.Fatalf("%d webhooks captured, want at least %d", len(all), 4*n)
	}
	if w := all[len(all)-1]; w.Status != "SETTLED" || len(w.Deliveries) != 1 || len(w.Deliveries[0].Attempts) != 1 {
		t.Fatalf("last webhook %s, want a SETTLED transaction delivered once", w)
	}
	per := (int64(after) - int64(before)) / n
	t.Logf("heap per settled transaction: %d bytes", per)
	if per > 2048 {
		t.Errorf("heap per settled transaction %d bytes, want at most 2048", per)
	}
}

func TestCommentLength(t *testing.T) {
	for _, tc := range []struct {
		name    string
		comment string
		status  int
	}{
		{"at the limit", strings.Repeat("a", synapsefake.MaxCommentLength), 200},
		{"at the limit in multibyte characters", strings.Repeat("é", synapsefake.MaxCommentLength), 200},
		{"one over", strings.Repeat("a", synapsefake.MaxCommentLength+1), 400},
		{"far over", strings.Repeat("a", 100_000), 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
			id := e.Create(t, e.Payee.Node, 1)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers,
				Body: map[string]any{"comment": tc.comment}})
			tx, _ := e.Fake.Transaction(id)
			if tc.status == 400 {
				testkit.WantError(t, r, 400, "200", "comment_too_long")
				if len(tx.Timeline) != 1 {
					t.Errorf("refused comment changed the timeline: %d entries", len(tx.Timeline))
				}
				return
			}
			if r.Status != 200 || len(tx.Timeline) != 2 || tx.Timeline[1].Note != tc.comment {
				t.Errorf("status %d, timeline %d entries; want 200 and the comment", r.Status, len(tx.Timeline))
			}
		})
	}
}

// TestCommentCount: a transaction takes MaxComments comments; the next is
// refused with the error envelope and changes neither the timeline nor the
// webhooks captured.
func TestCommentCount(t *testing.T) {
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing(), synapsefake.WithoutWebhookDelivery())
	e.Fake.MustAddSubscription(t, "http://127.0.0.1:1/hooks", "TRAN|PATCH")
	id := e.Create(t, e.Payee.Node, 1)
	other := e.Create(t, e.Payee.Node, 1)
	comment := func(id string, i int) testkit.Response {
		return testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers,
			Body: map[string]any{"comment": fmt.Sprintf("comment %d", i)}})
	}
	for i := range synapsefake.MaxComments {
		if r := comment(id, i); r.Status != 200 {
			t.Fatalf("comment %d: status %d %s", i, r.Status, r.Raw)
		}
	}
	hooks := e.Fake.Webhooks().Len()
	for range 2 {
		testkit.WantError(t, comment(id, synapsefake.MaxComments), 409, "410", "too_many_comments")
	}
	tx, _ := e.Fake.Transaction(id)
	if len(tx.Timeline) != 1+synapsefake.MaxComments || tx.Timeline[len(tx.Timeline)-1].Note != fmt.Sprintf("comment %d", synapsefake.MaxComments-1) {
		t.Errorf("timeline has %d entries, last %+v; want %d, the last comment taken", len(tx.Timeline),
			tx.Timeline[len(tx.Timeline)-1], 1+synapsefake.MaxComments)
	}
	if n := e.Fake.Webhooks().Len(); n != hooks {
		t.Errorf("refused comments captured %d webhooks", n-hooks)
	}
	// The bound is per transaction, and status changes are not comments.
	if r := comment(other, 0); r.Status != 200 {
		t.Errorf("another transaction's comment: status %d %s", r.Status, r.Raw)
	}
	if err := e.Fake.Settle(id); err != nil {
		t.Errorf("Settle after the last comment: %v", err)
	}
}

// TestControlWebhooksPagedByBytes: a transaction with every comment it
// takes, each as long as it may be, makes webhooks whose bodies add up to
// more than one answer may hold. GET /_fake/webhooks answers them in pages
// within MaxWebhookPageBytes, and following next_cursor reads each webhook
// once, in order. Before pages, the first answer held them all.
func TestControlWebhooksPagedByBytes(t *testing.T) {
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing(), synapsefake.WithoutWebhookDelivery())
	e.Fake.MustAddSubscription(t, "http://127.0.0.1:1/hooks", "TRAN|PATCH")
	id := e.Create(t, e.Payee.Node, 1)
	note := strings.Repeat("c", synapsefake.MaxCommentLength)
	for i := range synapsefake.MaxComments {
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers,
			Body: map[string]any{"comment": note}})
		if r.Status != 200 {
			t.Fatalf("comment %d: status %d", i, r.Status)
		}
	}
	logID := func(payload any) string {
		meta, _ := payload.(map[string]any)["webhook_meta"].(map[string]any)
		s, _ := meta["log_id"].(string)
		return s
	}
	var want []string
	for _, w := range e.Fake.Webhooks().All() {
		want = append(want, logID(w.Payload()))
	}

	var got []string
	pages, query := 0, ""
	for {
		r := testkit.Ctl(t, e.Fake, "GET", "/webhooks"+query, nil)
		if r.Status != 200 {
			t.Fatalf("GET /_fake/webhooks%s: status %d", query, r.Status)
		}
		pages++
		if len(r.Raw) > synapsefake.MaxWebhookPageBytes {
			t.Errorf("page %d: %d bytes, want at most %d", pages, len(r.Raw), synapsefake.MaxWebhookPageBytes)
		}
		hooks, _ := r.Body["webhooks"].([]any)
		if len(hooks) == 0 {
			t.Fatalf("page %d is empty", pages)
		}
		for _, h := range hooks {
			got = append(got, logID(h.(map[string]any)["payload"]))
		}
		cursor, ok := r.Body["next_cursor"].(string)
		if !ok || pages > len(want) {
			break
		}
		query = "?cursor=" + cursor
	}
	t.Logf("%d webhooks in %d pages", len(got), pages)
	if pages < 3 {
		t.Errorf("%d pages, want the capture split over at least 3", pages)
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages read %d webhooks, want each of the %d captured once, in order", len(got), len(want))
	}

	// A cursor with a limit: that many webhooks, then the next cursor.
	first := testkit.CtlOK(t, e.Fake, "GET", "/webhooks?limit=1&cursor=0", nil)
	cursor, ok := first["next_cursor"].(string)
	if hooks := first["webhooks"].([]any); len(hooks) != 1 || logID(hooks[0].(map[string]any)["payload"]) != want[0] || !ok {
		t.Fatalf("?limit=1&cursor=0: %d webhooks, next_cursor %v; want the oldest and a cursor", len(hooks), first["next_cursor"])
	}
	second := testkit.CtlOK(t, e.Fake, "GET", "/webhooks?limit=1&cursor="+cursor, nil)
	if hooks := second["webhooks"].([]any); len(hooks) != 1 || logID(hooks[0].(map[string]any)["payload"]) != want[1] {
		t.Errorf("the next page does not hold the second webhook")
	}
	// ?limit=N alone is still the N newest, and nothing follows them.
	newest := testkit.CtlOK(t, e.Fake, "GET", "/webhooks?limit=2", nil)
	if hooks := newest["webhooks"].([]any); len(hooks) != 2 || logID(hooks[1].(map[string]any)["payload"]) != want[len(want)-1] ||
		newest["next_cursor"] != nil {
		t.Errorf("?limit=2: %d webhooks, next_cursor %v; want the two newest and no cursor", len(hooks), newest["next_cursor"])
	}
	for _, bad := range []string{"x", "-1", "1.5", "18446744073709551616"} {
		testkit.WantError(t, testkit.Ctl(t, e.Fake, "GET", "/webhooks?cursor="+bad, nil), 400, "200", "invalid_cursor")
	}
}

// TestDashboardWebhooksPagedByBytes: the dashboard's webhooks page shows
// the newest webhooks until their payloads reach its bound, and its
// "Older webhooks" link pages on until each was shown once. Before, the
// first page rendered every payload of a transaction's comments.
func TestDashboardWebhooksPagedByBytes(t *testing.T) {
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing(), synapsefake.WithoutWebhookDelivery())
	e.Fake.MustAddSubscription(t, "http://127.0.0.1:1/hooks", "TRAN|PATCH")
	id := e.Create(t, e.Payee.Node, 1)
	note := strings.Repeat("c", synapsefake.MaxCommentLength)
	for i := range synapsefake.MaxComments {
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers,
			Body: map[string]any{"comment": note}})
		if r.Status != 200 {
			t.Fatalf("comment %d: status %d", i, r.Status)
		}
	}
	hookID := regexp.MustCompile(`id="hook-(\d+)"`)
	older := regexp.MustCompile(`href="(/_fake/ui/webhooks\?[^"]*)">Older webhooks`)
	const bound = 5 << 20 // 4 MiB of payloads, and the markup around 100 webhooks
	var seqs, sizes []int
	pages, path := 0, "/_fake/ui/webhooks"
	for path != "" && pages <= e.Fake.Webhooks().Len() {
		body := testkit.UIPage(t, e.Fake, path)
		pages++
		sizes = append(sizes, len(body))
		if len(body) > bound {
			t.Errorf("page %d: %d bytes, want at most %d", pages, len(body), bound)
		}
		for _, m := range hookID.FindAllStringSubmatch(body, -1) {
			n, _ := strconv.Atoi(m[1])
			seqs = append(seqs, n)
		}
		path = ""
		if m := older.FindStringSubmatch(body); m != nil {
			path = html.UnescapeString(m[1])
		}
	}
	t.Logf("%d webhooks in %d pages of %v bytes", len(seqs), pages, sizes)
	if n := e.Fake.Webhooks().Len(); len(seqs) != n || pages < 3 {
		t.Errorf("%d webhooks shown in %d pages, want each of the %d captured over at least 3", len(seqs), pages, n)
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] >= seqs[i-1] {
			t.Fatalf("webhook %d shown after %d: want each once, newest first", seqs[i], seqs[i-1])
		}
	}
}

// receiver is a webhook receiver that records what it got; hang makes it
// hold every request until the request is abandoned or the test ends.
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []string // webhook_meta.function of each request
	arrived chan struct{}
	gone    chan struct{} // a hung request's context ended
}

func newReceiver(t *testing.T, hang bool) *receiver {
	rc := &receiver{arrived: make(chan struct{}, 100), gone: make(chan struct{}, 100)}
	stop := make(chan struct{})
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Reading the body lets the server notice the client hang up.
		_, _ = io.Copy(io.Discard, r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, r.URL.Path)
		rc.mu.Unlock()
		rc.arrived <- struct{}{}
		if hang {
			select {
			case <-r.Context().Done():
				rc.gone <- struct{}{}
			case <-stop:
			}
		}
	}))
	t.Cleanup(func() { close(stop); rc.Close() })
	return rc
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.got)
}

// within waits for ch, failing the test after 2 s.
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(2 * time.Second):
		t.Fatalf("%s: nothing within 2 s", what)
	}
}

// TestHangingReceiverDoesNotHoldUpOthers: each subscription has its own
// ordered queue, so three subscriptions to a receiver that never answers
// do not delay a healthy one.
func TestHangingReceiverDoesNotHoldUpOthers(t *testing.T) {
	hung, healthy := newReceiver(t, true), newReceiver(t, false)
	fake := synapsefake.NewServer(t)
	for range 3 {
		fake.MustAddSubscription(t, hung.URL+"/hung", "USERS|POST")
	}
	fake.MustAddSubscription(t, healthy.URL+"/healthy", "USERS|POST")
	fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.MustAddUser(t, synapsefake.UserSeed{})
	within(t, healthy.arrived, "first delivery to the healthy receiver")
	within(t, healthy.arrived, "second delivery to the healthy receiver")
	for i := range 3 {
		within(t, hung.arrived, fmt.Sprintf("first delivery to hung subscription %d", i+1))
	}
}

// TestFlushIsBounded: Flush (and so Advance) waits at most the webhook
// timeout plus a second, however many attempts a hanging receiver has
// queued.
func TestFlushIsBounded(t *testing.T) {
	hung := newReceiver(t, true)
	fake := synapsefake.NewServer(t, synapsefake.WithWebhookTimeout(200*time.Millisecond))
	fake.MustAddSubscription(t, hung.URL, "USERS|POST")
	const events = 10 // 2 s of attempts, one after the other
	for range events {
		fake.MustAddUser(t, synapsefake.UserSeed{})
	}
	fake.Flush()
	attempts := 0
	for _, w := range fake.Webhooks().All() {
		attempts += len(w.Deliveries[0].Attempts)
	}
	if attempts >= events {
		t.Errorf("Flush returned after all %d attempts; want it back within its bound, before the last", attempts)
	}
	if attempts == 0 {
		t.Errorf("Flush returned before any attempt ended; want it to wait up to its bound")
	}
}

// TestResetDuringDelivery: Reset abandons the attempt in flight; it is not
// logged afterwards and not retried.
func TestResetDuringDelivery(t *testing.T) {
	hung := newReceiver(t, true)
	fake := synapsefake.NewServer(t)
	fake.MustAddSubscription(t, hung.URL, "USERS|POST")
	fake.MustAddUser(t, synapsefake.UserSeed{})
	within(t, hung.arrived, "the delivery")
	fake.Reset()
	within(t, hung.gone, "the abandoned attempt's end")
	fake.Flush()
	fake.Advance(48 * time.Hour) // every retry would have fallen due
	if got := fake.Webhooks().Len(); got != 0 {
		t.Errorf("%d webhooks captured after Reset, want 0", got)
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions/logs", Header: testkit.GatewayHeaders(fake)})
	if r.Body["logs_count"] != 0.0 {
		t.Errorf("webhook log after Reset: %s", r.Raw)
	}
	if n := hung.count(); n != 1 {
		t.Errorf("the receiver got %d requests, want the 1 before Reset", n)
	}
}

// TestCloseCancelsDelivery: Close abandons the attempt in flight.
func TestCloseCancelsDelivery(t *testing.T) {
	hung := newReceiver(t, true)
	fake := synapsefake.NewServer(t)
	fake.MustAddSubscription(t, hung.URL, "USERS|POST")
	fake.MustAddUser(t, synapsefake.UserSeed{})
	within(t, hung.arrived, "the delivery")
	fake.Close()
	within(t, hung.gone, "the abandoned attempt's end")
}

// TestCloseWaitsForDeliveries: when Close returns, no delivery's
// goroutine is left running, though one was in an attempt the receiver
// held.
func TestCloseWaitsForDeliveries(t *testing.T) {
	before := deliveryGoroutines()
	hung := newReceiver(t, true)
	fake := synapsefake.NewServer(t)
	fake.MustAddSubscription(t, hung.URL, "USERS|POST")
	fake.MustAddUser(t, synapsefake.UserSeed{})
	within(t, hung.arrived, "the delivery")
	if n := deliveryGoroutines(); n <= before {
		t.Fatalf("%d delivery goroutines during the attempt, %d before it", n, before)
	}
	fake.Close()
	if n := deliveryGoroutines(); n > before {
		t.Errorf("%d delivery goroutines after Close, %d before the fake", n, before)
	}
}

// deliveryGoroutines counts the goroutines delivering webhooks, of every
// fake in the process.
func deliveryGoroutines() int {
	buf := make([]byte, 1<<22)
	return strings.Count(string(buf[:runtime.Stack(buf, true)]), "(*hooks).work(")
}

func TestWebhookCaptureLimit(t *testing.T) {
	fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery(), synapsefake.WithWebhookCaptureLimit(16<<10))
	var last string
	for range 200 {
		last = fake.MustAddUser(t, synapsefake.UserSeed{}).ID
	}
	all := fake.Webhooks().All()
	if len(all) == 0 || len(all) >= 100 {
		t.Fatalf("capture holds %d of 200 webhooks under a 16 KiB limit, want some but not most", len(all))
	}
	if got := all[len(all)-1].ObjectID; got != last {
		t.Errorf("newest captured webhook is of %s, want the last user %s", got, last)
	}
	if n := fake.Webhooks().Len(); n != len(all) {
		t.Errorf("Len %d, All %d", n, len(all))
	}
}

func TestWebhookLogLimit(t *testing.T) {
	fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery(), synapsefake.WithWebhookLogLimit(8<<10))
	fake.MustAddSubscription(t, "http://127.0.0.1:1/hooks", "USERS|POST")
	for range 500 {
		fake.MustAddUser(t, synapsefake.UserSeed{})
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions/logs", Header: testkit.GatewayHeaders(fake)})
	n, _ := r.Body["logs_count"].(float64)
	if n == 0 || n >= 500 {
		t.Errorf("log holds %v of 500 attempts under an 8 KiB limit, want some but not all", n)
	}
}

// TestTransactionKeepsNotItsBody: a created transaction keeps copies of
// the request's strings it needs (ip, note...), not the request: the
// decoder cuts them from one copy of the whole body, and a record holding
// one of them held the body with it. Each body here carries 32 KiB of
// JSON whitespace, which the decoder reads past
// (TestDecodeFastReadsPaddedBodies).
func TestTransactionKeepsNotItsBody(t *testing.T) {
	// Not parallel: it measures the heap.
	const (
		n   = 40
		pad = 32 << 10
	)
	e := testkit.NewTxEnv(t, 1<<40, synapsefake.WithManualProcessing())
	body := []byte(fmt.Sprintf(`{"to":{"type":%q,"id":%q},%s"amount":{"amount":1,"currency":"USD"},"extra":{"ip":%q,"note":"rent"}}`,
		e.Payee.Node.Type, e.Payee.Node.ID, strings.Repeat(" ", pad), testkit.TxIP))
	e.Post(t, body) // warm the connection and the encoders
	e.Fake.ResetRequests()
	before := testkit.HeapAfterGC()
	for range n {
		if r := e.Post(t, body); r.Status != 200 || r.Body["extra"].(map[string]any)["note"] != "rent" {
			t.Fatalf("create: %d %s", r.Status, r.Raw)
		}
	}
	e.Fake.ResetRequests() // the journal keeps bodies, within its own bound
	grew := int64(testkit.HeapAfterGC()) - int64(before)
	t.Logf("%d transactions created from %d KiB bodies: heap grew by %d KiB", n, pad>>10, grew>>10)
	if grew > n*pad/4 {
		t.Errorf("heap grew by %d KiB for %d transactions, want well under their bodies' %d KiB", grew>>10, n, n*pad>>10)
	}
}
