package synapsefake_test

import (
	"fmt"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// exampleDispute pays $20.00 to a merchant's EXTERNAL-US node, settles it
// and disputes it as the payer; it prints the answer's provisional credit
// and the payer's balance, and returns the payer's node id.
func exampleDispute(fake *synapsefake.Server) string {
	user, checking, key := exampleAccount(fake, 100_00)
	merchant, _ := fake.AddUser(synapsefake.UserSeed{LegalNames: []string{"Merchant Co"}})
	shop, _ := fake.AddNode(merchant.ID, synapsefake.NodeSeed{Type: "EXTERNAL-US", Nickname: "Shop"})
	trans := "/users/" + user.ID + "/nodes/" + checking.ID + "/trans"
	_, tx := exampleCall(fake, "POST", trans, key, "", exampleTransfer("EXTERNAL-US", shop.ID, 20))
	id := tx["_id"].(string)
	if err := fake.Settle(id); err != nil {
		panic(err)
	}
	_, answer := exampleCall(fake, "PATCH", trans+"/"+id+"/dispute", key, "",
		map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"})
	n, _ := fake.Node(checking.ID)
	fmt.Printf("disputed: provisional credit %v, balance %d\n", answer["provisional_credit_tran"] != nil, n.BalanceCents)
	return checking.ID
}

// A dispute of $25.00 or less gets a provisional credit, 3 business days
// after filing, or 15 for a node younger than 30 days, on the fake's clock.
// WithImmediateProvisionalCredit posts it as the dispute is filed.
func ExampleWithImmediateProvisionalCredit() {
	fake := synapsefake.New() // Tuesday 2026-04-14 10:00 ET
	node := exampleDispute(fake)
	show := func() {
		n, _ := fake.Node(node)
		fmt.Println(fake.Now().In(reference.Eastern).Format("Mon 2006-01-02 15:04"), "balance", n.BalanceCents)
	}
	fake.Advance(20 * 24 * time.Hour)
	show()
	fake.Advance(24 * time.Hour) // 15 business days after filing
	show()

	exampleDispute(synapsefake.New(synapsefake.WithImmediateProvisionalCredit()))
	// Output:
	// disputed: provisional credit false, balance 8000
	// Mon 2026-05-04 10:00 balance 8000
	// Tue 2026-05-05 10:00 balance 10000
	// disputed: provisional credit true, balance 10000
}
