package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// TestLoad drives one fake from 64 goroutines with a bounded number of mixed
// requests while webhooks deliver to a local receiver, then checks every
// invariant: money conserved, no transaction lost or duplicated, every
// event delivered exactly once, and the webhook log matching the deliveries.
func TestLoad(t *testing.T) {
	const (
		clients  = 64
		requests = 30 // per client
		users    = 8
		balance  = 1_000_000 // cents per node
	)
	var (
		mu       sync.Mutex
		received = map[string]int{} // webhook_meta.log_id -> deliveries
	)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Meta struct {
				LogID string `json:"log_id"`
			} `json:"webhook_meta"`
		}
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &body); err != nil || body.Meta.LogID == "" {
			t.Errorf("receiver: bad body %q", data)
		}
		mu.Lock()
		received[body.Meta.LogID]++
		mu.Unlock()
	}))
	defer receiver.Close()

	fake := synapsefake.NewServer(t)
	fake.MustAddSubscription(t, receiver.URL)
	fixtures := make([]testkit.Fixture, users)
	for i := range fixtures {
		fixtures[i] = testkit.NewFixture(t, fake, balance)
	}
	total := int64(users * balance)

	var (
		wg      sync.WaitGroup
		created sync.Map // transaction id -> sender fixture index
	)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			var mine []string
			for range requests {
				from := rng.IntN(users)
				f := fixtures[from]
				base := "/users/" + f.User.ID + "/nodes/" + f.Node.ID + "/trans"
				switch op := rng.IntN(10); {
				case op < 4 || len(mine) == 0:
					to := fixtures[(from+1+rng.IntN(users-1))%users]
					r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: base, Header: f.Headers, Body: map[string]any{
						"to":     map[string]any{"type": "DEPOSIT-US", "id": to.Node.ID},
						"amount": map[string]any{"amount": float64(1+rng.IntN(500)) / 100, "currency": "USD"},
						"extra":  map[string]any{"ip": "10.0.0.1"},
					}})
					if r.Status != http.StatusOK {
						t.Errorf("create: %d %s", r.Status, r.Raw)
						continue
					}
					id := r.Body["_id"].(string)
					if _, dup := created.LoadOrStore(id, from); dup {
						t.Errorf("transaction id %s handed out twice", id)
					}
					mine = append(mine, id)
				case op < 6:
					testkit.Do(t, fake, testkit.Call{Method: "GET", Path: base + "?page=1&per_page=20", Header: f.Headers})
				case op < 7:
					id := mine[rng.IntN(len(mine))]
					tx, _ := fake.Transaction(id)
					g := fixtures[indexOf(fixtures, tx.FromNodeID)]
					r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + g.User.ID + "/nodes/" + g.Node.ID + "/trans/" + id,
						Header: g.Headers, Body: map[string]any{"comment": "load"}})
					if r.Status != http.StatusOK {
						t.Errorf("comment: %d %s", r.Status, r.Raw)
					}
				case op < 8:
					id := mine[rng.IntN(len(mine))]
					tx, _ := fake.Transaction(id)
					g := fixtures[indexOf(fixtures, tx.FromNodeID)]
					r := testkit.Do(t, fake, testkit.Call{Method: "DELETE", Path: "/users/" + g.User.ID + "/nodes/" + g.Node.ID + "/trans/" + id, Header: g.Headers})
					if r.Status != http.StatusOK && r.Body["error"].(map[string]any)["code"] != "cannot_cancel_transaction" {
						t.Errorf("cancel: %d %s", r.Status, r.Raw)
					}
				case op < 9:
					_ = fake.Settle(mine[rng.IntN(len(mine))]) // may race a cancel: either is legal
				default:
					fake.Advance(time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	fake.Advance(48 * time.Hour)

	var sum int64
	for _, f := range fixtures {
		n, _ := fake.Node(f.Node.ID)
		sum += n.BalanceCents
	}
	if sum != total {
		t.Errorf("balances sum to %d cents, want %d", sum, total)
	}
	count := 0
	created.Range(func(k, _ any) bool {
		count++
		tx, ok := fake.Transaction(k.(string))
		if !ok {
			t.Errorf("transaction %s lost", k)
		} else if tx.Status != synapsefake.StatusSettled && tx.Status != synapsefake.StatusCanceled {
			t.Errorf("transaction %s ended %s", k, tx.Status)
		}
		return true
	})
	listed := 0
	for _, f := range fixtures {
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + f.User.ID + "/nodes/" + f.Node.ID + "/trans", Header: testkit.UserHeaders(fake, fake.OAuthKey(f.User.ID, testkit.TestFingerprint))})
		listed += int(r.Body["trans_count"].(float64))
	}
	if listed != 2*count { // each transaction is listed on its sender's and its receiver's node
		t.Errorf("node lists hold %d entries, want %d for %d transactions", listed, 2*count, count)
	}

	deliveries := 0
	for _, w := range fake.Webhooks().All() {
		for _, d := range w.Deliveries {
			deliveries++
			if len(d.Attempts) != 1 || d.Attempts[0].Code != http.StatusOK {
				t.Errorf("%s: attempts %+v", w, d.Attempts)
			}
			mu.Lock()
			if n := received[d.LogID]; n != 1 {
				t.Errorf("%s delivered %d times", w, n)
			}
			mu.Unlock()
		}
	}
	mu.Lock()
	if len(received) != deliveries {
		t.Errorf("receiver saw %d webhooks, the fake delivered %d", len(received), deliveries)
	}
	mu.Unlock()
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions/logs", Header: testkit.GatewayHeaders(fake)})
	if got := int(r.Body["logs_count"].(float64)); got != deliveries {
		t.Errorf("webhook log holds %d entries, want %d", got, deliveries)
	}
	t.Logf("%d transactions, %d webhook deliveries", count, deliveries)
}

func indexOf(fs []testkit.Fixture, nodeID string) int {
	for i, f := range fs {
		if f.Node.ID == nodeID {
			return i
		}
	}
	return -1
}

// TestManyFakes starts 500 fakes in parallel subtests, each running a short
// flow, to show a server per test is cheap and shares nothing.
func TestManyFakes(t *testing.T) {
	for i := range 500 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			a := testkit.NewFixture(t, fake, 10_000)
			b := testkit.NewFixture(t, fake, 0)
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + a.User.ID + "/nodes/" + a.Node.ID + "/trans", Header: a.Headers,
				Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": b.Node.ID},
					"amount": map[string]any{"amount": 25.5, "currency": "USD"}, "extra": map[string]any{"ip": "10.0.0.1"}}})
			if r.Status != http.StatusOK {
				t.Fatalf("create: %d %s", r.Status, r.Raw)
			}
			fake.Advance(time.Millisecond)
			if n, _ := fake.Node(b.Node.ID); n.BalanceCents != 2550 {
				t.Errorf("receiver holds %d cents, want 2550", n.BalanceCents)
			}
		})
	}
}
