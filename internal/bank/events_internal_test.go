package bank

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestCommentMemory: every comment is a webhook of the whole timeline, but
// the capture keeps a reference to the transaction, so memory grows with
// the number of comments, not with its square. (The comments are made
// through the store: through HTTP each answer carries the whole timeline,
// which costs the client, not the fake's memory.)
func TestCommentMemory(t *testing.T) {
	s := newTestBank(testBankOptions{manual: true})
	if _, err := s.AddSubscription("http://127.0.0.1:1/hooks"); err != nil {
		t.Fatal(err)
	}
	u := mustAddUser(t, s, UserSeed{})
	from := mustAddNode(t, s, u.ID, NodeSeed{BalanceCents: 100_00})
	to := mustAddNode(t, s, u.ID, NodeSeed{})
	st := s.store
	st.lock()
	tx := &txRecord{id: st.newID(), userID: u.ID, fromNode: from.ID, toNode: to.ID, amount: 100, currency: "USD",
		created: s.Now(), processOn: s.Now(), status: StatusCreated}
	st.addTx(tx, statusEntry{Date: Ms(s.Now()), Note: "Transaction Created.", Status: StatusCreated})
	st.unlock()

	note := strings.Repeat("c", 100)
	before := int64(heapInUse())
	for i := range 2000 {
		st.lock()
		st.comment(tx, s.Now().Add(time.Duration(i)*time.Millisecond), note)
		st.unlock()
	}
	grown := int64(heapInUse()) - before
	t.Logf("2,000 comments grew the heap by %d KiB", grown>>10)
	if grown > 64<<20 {
		t.Errorf("2,000 comments grew the heap by %d MiB, want under 64", grown>>20)
	}
	if n := published(s); n != 2000+4 { // the user, two nodes, the transaction
		t.Errorf("%d webhooks captured, want 2,004", n)
	}
	runtime.KeepAlive(s)
}
