package synapsefake_test

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// The originating bank may dishonor an ACH return within five banking days
// of it (R68: the return came too late), which puts the money back where
// the transfer had it; the receiving bank may contest the dishonor within
// two banking days (R73: the return was timely), and the return stands.
func ExampleServer_DishonorReturn() {
	// Tuesday 2026-11-24 09:00 ET: a $10.00 transfer to the user's bank
	// account settles on Wednesday at 09:00 ET.
	fake := synapsefake.New(synapsefake.WithStartTime(time.Date(2026, 11, 24, 9, 0, 0, 0, reference.Eastern)))
	user, checking, key := exampleAccount(fake, 100_00)
	bank, _ := fake.AddNode(user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank",
		AccountNum: "123456789", RoutingNum: "051000017"})
	_, tx := exampleCall(fake, "POST", "/users/"+user.ID+"/nodes/"+checking.ID+"/trans", key, "",
		exampleTransfer("ACH-US", bank.ID, 10))
	id := tx["_id"].(string)
	fake.Advance(24 * time.Hour)
	show := func(step string, err error) {
		t, _ := fake.Transaction(id)
		n, _ := fake.Node(checking.ID)
		refused := ""
		var e *synapsefake.Error
		if errors.As(err, &e) {
			refused = e.Code // the body's error.code, as a client would read it
		}
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%-9s %-8s %-4s balance %5d %s", step, t.Status, t.Code, n.BalanceCents, refused)))
	}
	show("settled", nil)
	show("returned", fake.Return(id, "R01"))
	fake.Advance(7 * 24 * time.Hour) // Wed 12-02: the fourth banking day (Thanksgiving is not one)
	show("dishonor", fake.DishonorReturn(id, "R68"))
	show("again", fake.DishonorReturn(id, "R68"))
	fake.Advance(24 * time.Hour) // Thu 12-03: within two banking days of the dishonor
	show("contest", fake.ContestDishonor(id, "R73"))
	// Output:
	// settled   SETTLED       balance  9000
	// returned  RETURNED R01  balance 10000
	// dishonor  SETTLED  R68  balance  9000
	// again     SETTLED  R68  balance  9000 already_dishonored
	// contest   RETURNED R73  balance 10000
}
