package synapsefake_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/synapsefake/synapsefake"
)

// A world file declares users, nodes, cards and transactions by name;
// LoadWorld makes them through the ordinary store operations and returns
// their ids by name.
func ExampleServer_LoadWorld() {
	fake := synapsefake.New()
	f, err := os.Open("testdata/worlds/person.json")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	world, err := fake.LoadWorld(f)
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"checking", "savings"} {
		n, _ := fake.Node(world.Nodes[name])
		fmt.Printf("%s: balance %d, available %d cents\n", name, n.BalanceCents, n.AvailableCents)
	}
	for _, name := range []string{"paycheck", "bounced deposit", "big withdrawal", "round-up"} {
		tx, _ := fake.Transaction(world.Transactions[name])
		fmt.Printf("%s: %s\n", name, strings.TrimSpace(string(tx.Status)+" "+tx.Code))
	}
	card, _ := fake.Subnet(world.Subnets["debit card"])
	fmt.Println("debit card:", card.AccountClass, card.Status)

	// Settle the pending round-up: the rules apply to world objects as to any.
	if err := fake.Settle(world.Transactions["round-up"]); err != nil {
		panic(err)
	}
	n, _ := fake.Node(world.Nodes["savings"])
	fmt.Println("savings after the round-up:", n.BalanceCents)
	// Output:
	// checking: balance 220000, available 19925 cents
	// savings: balance 350000, available 350000 cents
	// paycheck: SETTLED
	// bounced deposit: RETURNED R01
	// big withdrawal: QUEUED-BY-SYNAPSE Manual review
	// round-up: CREATED
	// debit card: CARD ACTIVE
	// savings after the round-up: 350075
}
