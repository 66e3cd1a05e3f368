package synapsefake_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/benchpair"
)

// benchPost sends body and fails the benchmark unless the answer is 200; it
// returns the answer's size.
func benchPost(b *testing.B, client *http.Client, method, url string, headers map[string]string, body []byte) int {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("%s %s: status %d, %v: %.300s", method, url, resp.StatusCode, err, data)
	}
	return len(data)
}

// BenchmarkCreateTransaction is one POST .../trans over the loopback
// listener with the body a client sends. "fake" is the fake (authorize,
// decode, validate, store, answer the whole object); "floor" is an httptest
// server whose handler decodes the same body into the same shape and writes
// the fake's answer, already encoded, with the same client and headers;
// "paired" runs one of each per iteration and reports their ratio.
func BenchmarkCreateTransaction(b *testing.B) {
	e := testkit.NewTxEnv(b, 1<<50)
	body, err := json.Marshal(testkit.TxBody(e.Bank, 1))
	if err != nil {
		b.Fatal(err)
	}
	path := testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)
	answer := testkit.Do(b, e.Fake, testkit.Call{Method: "POST", Path: path, Header: e.Fx.Headers, Body: body}).Raw
	ts := httptest.NewServer(benchpair.Baseline(answer))
	b.Cleanup(ts.Close)
	fakeClient, floorClient := e.Fake.Client(), ts.Client()
	fakeURL, floorURL := e.Fake.URL()+path, ts.URL+"/v3.1"+path
	if got := benchPost(b, floorClient, "POST", floorURL, e.Fx.Headers, body); got != len(answer) {
		b.Fatalf("floor answers %d bytes, the fake %d", got, len(answer))
	}
	fake := func() { benchPost(b, fakeClient, "POST", fakeURL, e.Fx.Headers, body) }
	floor := func() { benchPost(b, floorClient, "POST", floorURL, e.Fx.Headers, body) }
	b.Run("fake", func(b *testing.B) { benchLoop(b, fake) })
	b.Run("floor", func(b *testing.B) { benchLoop(b, floor) })
	b.Run("paired", func(b *testing.B) { benchPaired(b, fake, floor) })
}

// BenchmarkListTransactions is GET of the first page (20, newest first) of a
// node's transactions with 100, 1,000 and 100,000 in the store. Seeding goes in
// batches of 500 and is not measured.
func BenchmarkListTransactions(b *testing.B) {
	for _, n := range []int{100, 1_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e := testkit.NewTxEnv(b, 0, synapsefake.WithManualProcessing())
			seedTransactions(b, e, n)
			client := e.Fake.Client()
			url := e.Fake.URL() + testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)
			r := testkit.Do(b, e.Fake, testkit.Call{Method: "GET", Path: testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers})
			if r.Body["trans_count"] != float64(n) || len(r.Body["trans"].([]any)) != 20 {
				b.Fatalf("trans_count %v with %d on the page, want %d and 20", r.Body["trans_count"], len(r.Body["trans"].([]any)), n)
			}
			b.ReportAllocs()
			for b.Loop() {
				benchPost(b, client, "GET", url, e.Fx.Headers, nil)
			}
		})
	}
}

// seedTransactions creates n transactions from the sender's DEPOSIT-US node
// in batches of up to 500.
func seedTransactions(b *testing.B, e testkit.TxEnv, n int) {
	b.Helper()
	item := testkit.TxBody(e.Bank, 0.01)
	client := e.Fake.Client()
	url := e.Fake.URL() + e.BatchPath()
	for n > 0 {
		k := min(n, 500)
		items := make([]any, k)
		for i := range items {
			items[i] = item
		}
		body, err := json.Marshal(map[string]any{"transactions": items})
		if err != nil {
			b.Fatal(err)
		}
		benchPost(b, client, "POST", url, e.Fx.Headers, body)
		n -= k
	}
}

// BenchmarkServeCreate is the server's side of BenchmarkCreateTransaction
// alone, without the network, the client or net/http's connection: one
// create-transaction request handed to ServeHTTP, against the baseline's
// handler (benchpair.Baseline: decode the same body, write the same answer)
// handed the same request. Both sides build their request the same way, so
// the ratio is of the fake's own work per request, steadier than the load
// generator's req/s. "paired" runs on a frozen clock, as a test's fake does;
// "paired-moving" moves the clock 2 ms before each request, so that the
// internal transfer the last one created takes its three processing steps
// at the start of this one, as on the standalone fake's real clock.
func BenchmarkServeCreate(b *testing.B) {
	for _, moving := range []bool{false, true} {
		name := "paired"
		if moving {
			name = "paired-moving"
		}
		b.Run(name, func(b *testing.B) {
			fake := synapsefake.NewServer(b)
			fx := testkit.NamedFixture(b, fake, "Sam Sender", 1<<50)
			savings := testkit.AddTxNode(b, fake, fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
			body, err := json.Marshal(testkit.TxBody(savings, 1))
			if err != nil {
				b.Fatal(err)
			}
			path := "/v3.1" + testkit.TransPath(fx.User.ID, fx.Node.ID)
			request := func() *http.Request {
				r := httptest.NewRequest("POST", path, bytes.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				for k, v := range fx.Headers {
					r.Header.Set(k, v)
				}
				return r
			}
			w := &discardWriter{}
			fake.ServeHTTP(w.reset(), request())
			if w.status != http.StatusOK || w.n == 0 {
				b.Fatalf("the fake answered %d, %d bytes", w.status, w.n)
			}
			base := benchpair.Baseline(make([]byte, w.n))
			op := func() {
				if moving {
					fake.MoveFrozenClock(2 * time.Millisecond)
				}
				fake.ServeHTTP(w.reset(), request())
				if w.status != http.StatusOK {
					b.Fatalf("the fake answered %d", w.status)
				}
			}
			baseline := func() { base.ServeHTTP(w.reset(), request()) }
			benchpair.Run(b, op, baseline)
		})
	}
}

// discardWriter is a ResponseWriter that keeps only the status and the
// size of the answer.
type discardWriter struct {
	header http.Header
	status int
	n      int
}

func (w *discardWriter) reset() *discardWriter {
	w.header, w.status, w.n = http.Header{}, 0, 0
	return w
}

func (w *discardWriter) Header() http.Header { return w.header }

func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *discardWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(b)
	return len(b), nil
}
