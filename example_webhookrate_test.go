package synapsefake_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/synapsefake/synapsefake"
)

// WithWebhookRate paces the deliveries nobody waits for, so that a backlog
// leaves the CPU to the API; Flush (as Advance and Wait) lifts the pace
// while it waits, so a test gets its webhooks at once.
func ExampleWithWebhookRate() {
	var received atomic.Int64
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received.Add(1)
	}))
	defer receiver.Close()

	fake := synapsefake.New(synapsefake.WithWebhookRate(2)) // two attempts a second
	defer fake.Close()
	if _, err := fake.AddSubscription(receiver.URL, "USERS|POST"); err != nil {
		fmt.Println(err)
		return
	}
	for range 50 {
		if _, err := fake.AddUser(synapsefake.UserSeed{}); err != nil {
			fmt.Println(err)
			return
		}
	}
	fake.Flush() // 50 deliveries at two a second would take 25 s
	fmt.Println(received.Load(), "webhooks received")
	// Output: 50 webhooks received
}
