package synapsefake_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// BenchmarkIdleFake reports the heap one idle fake holds (bytes/fake), over
// 1,000 fakes built with New (no listener), with NewServer, as platforms
// of one Platforms (Platforms.Add, what POST /_fake/platforms does; issue
// 37), and as platforms whose every dashboard page was visited once
// (PlatformDashboard; issue 45), and the time to build one (ns/op over the
// 1,000, the visits included). The dashboard's templates are parsed
// before the count, as any process's first visit parses them.
func BenchmarkIdleFake(b *testing.B) {
	dashboard := []string{"", "transactions", "webhooks", "subscriptions", "requests", "oauth"}
	visit := func(p *synapsefake.Platforms, base string) {
		for _, page := range dashboard {
			rec := httptest.NewRecorder()
			p.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+base+"ui/"+page, nil))
			if rec.Code != 200 {
				b.Fatalf("GET %sui/%s: %d", base, page, rec.Code)
			}
		}
	}
	for _, kind := range []string{"New", "NewServer", "Platform", "PlatformDashboard"} {
		b.Run(kind, func(b *testing.B) {
			const n = 1000
			var perFake float64
			for b.Loop() {
				fakes := make([]*synapsefake.Server, n)
				var platforms *synapsefake.Platforms
				if strings.HasPrefix(kind, "Platform") {
					platforms = synapsefake.NewPlatforms(synapsefake.WithMaxPlatforms(n + 1))
					visit(platforms, "/_fake/")
				}
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for i := range fakes {
					switch kind {
					case "NewServer":
						fakes[i] = synapsefake.NewServer(b)
					case "New":
						fakes[i] = synapsefake.New()
					default:
						f, err := platforms.Add(synapsefake.PlatformConfig{ClientID: fmt.Sprintf("client_%d", i), ClientSecret: "secret"})
						if err != nil {
							b.Fatal(err)
						}
						if kind == "PlatformDashboard" {
							visit(platforms, "/_fake/platforms/"+f.ClientID()+"/")
						}
						fakes[i] = f
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				perFake = float64(after.HeapAlloc-before.HeapAlloc) / n
				for _, f := range fakes {
					f.Close()
				}
				runtime.KeepAlive(fakes)
				runtime.KeepAlive(platforms)
			}
			b.ReportMetric(perFake, "bytes/fake")
		})
	}
}

// BenchmarkAdvance measures one Advance that settles 10,000 pending internal
// transfers, each moving through three statuses.
func BenchmarkAdvance(b *testing.B) {
	const pending = 10_000
	for b.Loop() {
		b.StopTimer()
		fake := synapsefake.New()
		u := fake.MustAddUser(b, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
		from := fake.MustAddNode(b, u.ID, synapsefake.NodeSeed{BalanceCents: 100 * pending})
		to := fake.MustAddNode(b, u.ID, synapsefake.NodeSeed{})
		f := testkit.Fixture{User: u, Node: from}
		f.Headers = testkit.UserHeaders(fake, fake.OAuthKey(u.ID, testkit.TestFingerprint))
		item := map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": to.ID},
			"amount": map[string]any{"amount": 1, "currency": "USD"}, "extra": map[string]any{"ip": "10.0.0.1"}}
		batch := make([]any, 500)
		for i := range batch {
			batch[i] = item
		}
		for range pending / len(batch) {
			r := testkit.Do(b, fake, testkit.Call{Method: "POST", Path: "/users/" + u.ID + "/nodes/" + from.ID + "/batch-trans", Header: f.Headers,
				Body: map[string]any{"transactions": batch}})
			if r.Status != 200 {
				b.Fatalf("batch: %d", r.Status)
			}
		}
		b.StartTimer()
		fake.Advance(time.Millisecond)
		b.StopTimer()
		if n, _ := fake.Node(to.ID); n.BalanceCents != 100*pending {
			b.Fatalf("settled %d cents, want %d", n.BalanceCents, 100*pending)
		}
		fake.Close()
		b.StartTimer()
	}
}

// BenchmarkMakePlatforms is issue 37's acceptance figure in process: 200
// platforms made at once over HTTP (POST /_fake/platforms), each then
// answering its own gateway's GET /v3.1/users with 200; ns/op is the time
// for all 200. go run ./internal/platformcost measures the same against the
// binary, with its resident memory.
func BenchmarkMakePlatforms(b *testing.B) {
	const n = 200
	for b.Loop() {
		b.StopTimer()
		p, root := testkit.NewPlatforms(b, synapsefake.WithMaxPlatforms(n+1))
		b.StartTimer()
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Go(func() {
				errs <- makeAndAsk(root, fmt.Sprintf("client_%d", i))
			})
		}
		wg.Wait()
		b.StopTimer()
		close(errs)
		for err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
		p.Close()
		b.StartTimer()
	}
}

// makeAndAsk makes a platform over HTTP and asks for its users.
func makeAndAsk(root, id string) error {
	resp, err := http.Post(root+"/_fake/platforms", "application/json", strings.NewReader(`{"client_id":"`+id+`"}`))
	if err != nil {
		return err
	}
	var made struct {
		Platform struct{ Gateway string } `json:"platform"`
	}
	err = json.NewDecoder(resp.Body).Decode(&made)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		return fmt.Errorf("POST /_fake/platforms %s: %d %v", id, resp.StatusCode, err)
	}
	req, _ := http.NewRequest("GET", root+"/v3.1/users", nil)
	for k, v := range apiHeaders(made.Platform.Gateway) {
		req.Header.Set(k, v)
	}
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("GET /v3.1/users as %s: %d", id, resp.StatusCode)
	}
	return nil
}
