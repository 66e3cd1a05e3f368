package synapsefake_test

import (
	"fmt"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// Every server starts at the same instant, whatever the day the test runs.
func ExampleDefaultStartTime() {
	fake := synapsefake.New()
	fmt.Println(fake.Now())
	fmt.Println(fake.Now().In(reference.Eastern).Format("Monday 2006-01-02 15:04 MST"))
	fmt.Println(fake.Now().Equal(synapsefake.DefaultStartTime()))
	// Output:
	// 2026-04-14 14:00:00 +0000 UTC
	// Tuesday 2026-04-14 10:00 EDT
	// true
}

// WithStartTime starts the clock elsewhere: an ACH transfer made on a
// Friday morning settles on Monday, at the same time of day, so a day later
// it is still on its way.
func ExampleWithStartTime() {
	friday := time.Date(2026, time.April, 17, 10, 0, 0, 0, reference.Eastern)
	fake := synapsefake.New(synapsefake.WithStartTime(friday))
	user, checking, key := exampleAccount(fake, 50_000)
	bank, _ := fake.AddNode(user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank"})
	_, tx := exampleCall(fake, "POST", "/users/"+user.ID+"/nodes/"+checking.ID+"/trans", key, "",
		exampleTransfer("ACH-US", bank.ID, 100))
	id := tx["_id"].(string)

	show := func(what string) {
		t, _ := fake.Transaction(id)
		fmt.Printf("%-27s %s  %s\n", what, fake.Now().In(reference.Eastern).Format("Mon 15:04"), t.Status)
	}
	show("created")
	fake.Advance(24 * time.Hour)
	show("Advance(24h)")
	fake.AdvanceToNextBusinessDay()
	show("AdvanceToNextBusinessDay()")
	fake.Advance(10 * time.Hour)
	show("Advance(10h)")
	// Output:
	// created                     Fri 10:00  CREATED
	// Advance(24h)                Sat 10:00  PROCESSING-CREDIT
	// AdvanceToNextBusinessDay()  Mon 00:00  PROCESSING-CREDIT
	// Advance(10h)                Mon 10:00  SETTLED
}

// AdvanceTo moves the clock to an instant, running everything that fell
// due on the way, as Advance does. The clock never goes back.
func ExampleServer_AdvanceTo() {
	fake := synapsefake.New() // Tuesday 2026-04-14 10:00 ET
	user, checking, key := exampleAccount(fake, 50_000)
	bank, _ := fake.AddNode(user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank"})
	_, tx := exampleCall(fake, "POST", "/users/"+user.ID+"/nodes/"+checking.ID+"/trans", key, "",
		exampleTransfer("ACH-US", bank.ID, 100))
	id := tx["_id"].(string)

	cutoff := reference.AtEastern(fake.Now(), reference.ServiceNextDayACHCutoff)
	now, err := fake.AdvanceTo(cutoff)
	fmt.Println(now.In(reference.Eastern).Format("Mon 15:04"), err)

	wednesday := time.Date(2026, time.April, 15, 10, 0, 0, 0, reference.Eastern)
	now, _ = fake.AdvanceTo(wednesday)
	t, _ := fake.Transaction(id)
	fmt.Println(now.In(reference.Eastern).Format("Mon 15:04"), t.Status)

	_, err = fake.AdvanceTo(wednesday.Add(-time.Hour))
	fmt.Println(err)
	// Output:
	// Tue 18:00 <nil>
	// Wed 10:00 SETTLED
	// synapsefake: invalid_time (error_code 200, http 400): The clock is at 2026-04-15T14:00:00Z (Wed 10:00 EDT) and only moves forward, not back to 2026-04-15T13:00:00Z (Wed 09:00 EDT).
}
