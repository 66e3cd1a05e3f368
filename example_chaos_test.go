package synapsefake_test

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake"
)

// ledger is a consumer's webhook handler, the code under test: it keeps
// each transaction's latest status. It refuses a bad signature (the
// service retries), ignores a log_id it has applied (duplicates) and keeps
// the status with the longest timeline (deliveries out of order).
type ledger struct {
	clientID, secret string

	mu      sync.Mutex
	posts   int
	applied map[string]bool   // webhook_meta.log_id
	status  map[string]string // transaction id → recent_status.status
	steps   map[string]int    // transaction id → len(timeline) of that status
}

func (l *ledger) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var hook struct {
		ID struct {
			OID string `json:"$oid"`
		} `json:"_id"`
		RecentStatus struct{ Status string } `json:"recent_status"`
		Timeline     []json.RawMessage       `json:"timeline"`
		WebhookMeta  struct {
			LogID string `json:"log_id"`
		} `json:"webhook_meta"`
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &hook) != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.posts++
	if !synapsefake.VerifySignature(r.Header, hook.ID.OID, l.clientID, l.secret) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	if l.applied[hook.WebhookMeta.LogID] {
		return // a duplicate: already applied
	}
	l.applied[hook.WebhookMeta.LogID] = true
	if id := hook.ID.OID; len(hook.Timeline) > l.steps[id] {
		l.status[id], l.steps[id] = hook.RecentStatus.Status, len(hook.Timeline)
	}
}

// A consumer's test asserts that its webhook handler is idempotent and
// order-insensitive: under seeded chaos (duplicates, reordering, dropped
// first attempts, bad signatures) it ends with the same state as with
// orderly delivery, and the same seed replays the same chaos.
func ExampleWithWebhookChaos() {
	fake := synapsefake.New(synapsefake.WithWebhookChaos(synapsefake.WebhookChaos{
		Seed:    3,
		Default: synapsefake.ChaosSettings{Duplicate: 0.3, Reorder: 0.3, Delay: 0.2, DropFirst: 0.2, BadSignature: 0.2},
	}))
	defer fake.Close()
	consumer := &ledger{clientID: fake.ClientID(), secret: fake.ClientSecret(),
		applied: map[string]bool{}, status: map[string]string{}, steps: map[string]int{}}
	receiver := httptest.NewServer(consumer)
	defer receiver.Close()
	fake.AddSubscription(receiver.URL, "TRANS|POST", "TRAN|PATCH")

	alice, from, key := exampleAccount(fake, 10_000)
	_, to, _ := exampleAccount(fake, 0)
	var ids []string
	for range 3 {
		_, tx := exampleCall(fake, "POST", "/users/"+alice.ID+"/nodes/"+from.ID+"/trans", key, "",
			exampleTransfer("DEPOSIT-US", to.ID, 10))
		ids = append(ids, tx["_id"].(string))
	}
	fake.Flush()
	fake.Advance(24 * time.Hour) // processing, retries and held deliveries

	kinds, subscribed := map[string]int{}, 0
	for _, w := range fake.Webhooks().All() {
		if len(w.Deliveries) == 0 {
			continue // a user or node event: not subscribed to
		}
		subscribed++
		for _, a := range w.Deliveries[0].Attempts {
			for k := range strings.SplitSeq(a.Chaos, ",") {
				kinds[k]++ // "" counts the attempts chaos left alone
			}
		}
	}
	consumer.mu.Lock()
	defer consumer.mu.Unlock()
	for _, id := range ids {
		t, _ := fake.Transaction(id)
		fmt.Println("consumer:", consumer.status[id], "fake:", t.Status)
	}
	fmt.Println("webhooks applied:", len(consumer.applied), "of", subscribed)
	fmt.Println("POSTs received:", consumer.posts)
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		fmt.Printf("attempts %q: %d\n", k, kinds[k])
	}
	// Output:
	// consumer: SETTLED fake: SETTLED
	// consumer: SETTLED fake: SETTLED
	// consumer: SETTLED fake: SETTLED
	// webhooks applied: 12 of 12
	// POSTs received: 19
	// attempts "": 6
	// attempts "bad_signature": 2
	// attempts "delayed": 4
	// attempts "dropped": 2
	// attempts "duplicate": 5
	// attempts "reordered": 2
}
