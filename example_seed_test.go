package synapsefake_test

import (
	"fmt"

	"github.com/synapsefake/synapsefake"
)

// Every Add... returns the object and an error: the fake refuses what the
// service would, here a node type that does not exist, and adds nothing.
func ExampleServer_AddNode() {
	fake := synapsefake.New()
	user, _ := fake.AddUser(synapsefake.UserSeed{Fingerprint: "device-1"})

	node, err := fake.AddNode(user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 50_00})
	fmt.Println(node.Type, node.BalanceCents, err)

	_, err = fake.AddNode(user.ID, synapsefake.NodeSeed{Type: "BOGUS-US"})
	fmt.Println(err)
	u, _ := fake.User(user.ID)
	fmt.Println(len(u.NodeIDs), "node")
	// Output:
	// DEPOSIT-US 5000 <nil>
	// synapsefake: invalid_node_type (error_code 200, http 400): Unknown node type "BOGUS-US".
	// 1 node
}

// The Must... forms take the test and fail it on an error, for seeding that
// needs no error handling.
func ExampleServer_MustAddNode() {
	t := &exampleT{} // in a test: the *testing.T
	defer t.finish()
	fake := synapsefake.NewServer(t)
	user := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "device-1"})
	checking := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_00})
	card := fake.MustAddSubnet(t, user.ID, checking.ID, synapsefake.SubnetSeed{AccountClass: synapsefake.ClassCard})
	fmt.Println(checking.Nickname, checking.BalanceCents, card.AccountClass)
	// Output:
	// Checking 10000 CARD
}

// Fund gives money to a node the application made over HTTP, which starts
// empty: no transaction and no webhook, a "Funds added" line on its
// statements.
func ExampleServer_Fund() {
	fake := synapsefake.New()
	user, checking, key := exampleAccount(fake, 0)
	status, body := exampleCall(fake, "POST", "/users/"+user.ID+"/nodes", key, "",
		map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Savings"}})
	savings := body["nodes"].([]any)[0].(map[string]any)["_id"].(string)
	fmt.Println(status, checking.BalanceCents)

	if err := fake.Fund(savings, 250_00); err != nil {
		panic(err)
	}
	n, _ := fake.Node(savings)
	fmt.Println(n.Nickname, n.BalanceCents, n.AvailableCents)
	fmt.Println(fake.Fund(savings, -1))
	// Output:
	// 200 0
	// Savings 25000 25000
	// synapsefake: invalid_amount (error_code 200, http 400): Fund takes from 1 to 100000000000000000 cents, not -1.
}
