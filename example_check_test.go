package synapsefake_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
)

// checkT stands in for the *testing.T of a real test, as exampleT does,
// and prints what a failed check reports, so that an example can show it.
type checkT struct{ exampleT }

func (t *checkT) Errorf(format string, args ...any) { t.report(format, args...) }
func (t *checkT) Fatalf(format string, args ...any) { t.report(format, args...) }

// report prints a failure. go-cmp writes some diffs with non-breaking
// spaces, to keep tests from depending on its format; print them as
// spaces.
func (t *checkT) report(format string, args ...any) {
	fmt.Println("FAIL:", strings.ReplaceAll(fmt.Sprintf(format, args...), "\u00a0", " "))
}

// checkFake is a fake at a fixed instant with a user who has a Checking
// node holding $100.00 and an empty Savings node, and the user's handle.
func checkFake(t *checkT) (fake *synapsefake.Server, u *synapsefake.UserClient, checking, savings synapsefake.Node) {
	mock := clock.NewMock()
	mock.Set(time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)) // a Monday
	fake = synapsefake.New(synapsefake.WithClock(mock))
	user := fake.MustAddUser(t, synapsefake.UserSeed{})
	checking = fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_00})
	savings = fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	return fake, fake.As(t, user.ID, "device-1"), checking, savings
}

// checkTransfer is the body of POST .../trans sending usd to a DEPOSIT-US node.
func checkTransfer(to synapsefake.Node, usd float64) map[string]any {
	return map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": to.ID},
		"amount": map[string]any{"amount": usd, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1", "note": "rent"},
	}
}

// As gives a test the user's side of the API in one line a call: the
// handle sets the headers, encodes the body and keeps its key live.
func ExampleServer_As() {
	t := &checkT{} // in a test: the *testing.T
	fake, u, checking, savings := checkFake(t)

	// A path without a leading "/" is below the user's own: /users/<id>/...
	resp := u.Post("nodes/"+checking.ID+"/trans", checkTransfer(savings, 25))
	fmt.Println("send:", resp.Status, resp.Body["recent_status"].(map[string]any)["status"])

	var tx struct {
		Amount struct {
			Amount float64 `json:"amount"`
		} `json:"amount"`
	}
	_ = resp.Decode(&tx)
	fmt.Println("amount:", tx.Amount.Amount)

	// The key lives two hours; the handle mints a new one when it expired.
	fake.Advance(3 * time.Hour)
	resp = u.Get("nodes/" + checking.ID)
	fmt.Println("three hours later:", resp.Status, resp.Body["info"].(map[string]any)["balance"])

	// Another user's objects are refused as the service refuses them.
	other := fake.MustAddUser(t, synapsefake.UserSeed{})
	resp = u.Get("/users/" + other.ID + "/nodes")
	fmt.Println("another user:", resp.Status, resp.Body["error_code"], resp.Body["error"].(map[string]any)["code"])
	// Output:
	// send: 200 CREATED
	// amount: 25
	// three hours later: 200 map[amount:75 currency:USD]
	// another user: 401 300 unauthorized_user
}

// Do is the call without a test to fail: for another goroutine, it returns
// the error (here a body that does not encode) instead.
func ExampleUserClient_Do() {
	t := &checkT{}
	_, u, _, _ := checkFake(t)
	_, err := u.Do("PATCH", "", map[string]any{"bad": make(chan int)})
	fmt.Println(err)
	// Output:
	// synapsefake: PATCH : encode body: json: unsupported type: chan int
}

// CheckStatus checks a transaction's status and, given one, its code.
func ExampleServer_CheckStatus() {
	t := &checkT{}
	fake, u, checking, savings := checkFake(t)
	tx := u.Post("nodes/"+checking.ID+"/trans", checkTransfer(savings, 25)).Body["_id"].(string)
	_ = fake.Return(tx, "R01")

	fake.CheckStatus(t, tx, synapsefake.StatusReturned, "R01") // passes: nothing printed
	fake.CheckStatus(t, tx, synapsefake.StatusSettled)
	// Output:
	// FAIL: synapsefake: CheckStatus: transaction 2da0c8dd11e9955c63313151 at 2026-03-02T09:00:00Z (Mon 04:00 EST) (-want +got):
	//   synapsefake.checkedStatus{
	// - 	Status: "SETTLED",
	// + 	Status: "RETURNED",
	//   	Code:   "R01",
	//   }
	//
	// timeline:
	//   2026-03-02T09:00:00Z (Mon 04:00 EST)  CREATED (Transaction Created.)
	//   2026-03-02T09:00:00Z (Mon 04:00 EST)  PROCESSING-DEBIT (Processing debit.)
	//   2026-03-02T09:00:00Z (Mon 04:00 EST)  PROCESSING-CREDIT (Processing credit.)
	//   2026-03-02T09:00:00Z (Mon 04:00 EST)  RETURNED (R01: insufficient funds.)
	// nothing is pending on the clock for it
}

// CheckBalance checks a node's balance and available balance, in cents.
func ExampleServer_CheckBalance() {
	t := &checkT{}
	fake, u, checking, savings := checkFake(t)
	u.Post("nodes/"+checking.ID+"/trans", checkTransfer(savings, 25))

	// The $25.00 is promised, not yet debited.
	fake.CheckBalance(t, checking.ID, 100_00, 75_00) // passes
	fake.CheckBalance(t, checking.ID, 75_00, 75_00)
	// Output:
	// FAIL: synapsefake: CheckBalance: node 2c80247d3a9532ab14daf2ce (Checking) at 2026-03-02T09:00:00Z (Mon 04:00 EST) (-want +got):
	//   synapsefake.checkedBalance{
	// - 	BalanceCents:   7500,
	// + 	BalanceCents:   10000,
	//   	AvailableCents: 7500,
	//   }
	//
	// pending on the clock, soonest first:
	//   transaction 2da0c8dd11e9955c63313151 reaches PROCESSING-DEBIT at 2026-03-02T09:00:00.001Z (Mon 04:00 EST) (call Advance(1ms))
	//   transaction 2da0c8dd11e9955c63313151 reaches PROCESSING-CREDIT at 2026-03-02T09:00:00.001Z (Mon 04:00 EST) (call Advance(1ms))
	//   transaction 2da0c8dd11e9955c63313151 reaches SETTLED at 2026-03-02T09:00:00.001Z (Mon 04:00 EST) (call Advance(1ms))
}

// CheckWebhook checks what was captured, without waiting; a failure shows
// the diff to a webhook that misses by one field.
func ExampleServer_CheckWebhook() {
	t := &checkT{}
	fake, u, checking, savings := checkFake(t)
	tx := u.Post("nodes/"+checking.ID+"/trans", checkTransfer(savings, 25)).Body["_id"].(string)

	fake.CheckWebhook(t, synapsefake.ForTransaction(tx, synapsefake.StatusCreated)) // passes
	fake.CheckWebhook(t, synapsefake.ForTransaction(tx, synapsefake.StatusSettled))
	// Output:
	// FAIL: synapsefake: CheckWebhook: none of the 4 captured webhooks matched; the nearest (-want +got):
	//   synapsefake.checkedWebhook{
	//   	Function:   "TRANS|POST",
	//   	ObjectType: "TRAN",
	//   	ObjectID:   "2da0c8dd11e9955c63313151",
	// - 	Status:     "SETTLED",
	// + 	Status:     "CREATED",
	//   	Code:       "",
	//   }
	//
	// captured:
	//   1. USERS|POST USER_4a9f3f3d214fecdb1fc54cff
	//   2. NODES|POST NODE_2c80247d3a9532ab14daf2ce
	//   3. NODES|POST NODE_bfb6a6fb38dce41629c3aabf
	//   4. TRANS|POST TRAN_2da0c8dd11e9955c63313151 CREATED
}

// CheckNoWebhook checks that nothing captured matches.
func ExampleServer_CheckNoWebhook() {
	t := &checkT{}
	fake, u, checking, savings := checkFake(t)
	tx := u.Post("nodes/"+checking.ID+"/trans", checkTransfer(savings, 25)).Body["_id"].(string)

	fake.CheckNoWebhook(t, synapsefake.ForTransaction(tx, synapsefake.StatusReturned)) // passes
	_ = fake.Return(tx, "R02")
	fake.CheckNoWebhook(t, synapsefake.ForTransaction(tx, synapsefake.StatusReturned))
	// Output:
	// FAIL: synapsefake: CheckNoWebhook: 1 of the 7 captured webhooks matched (-want +got):
	//   []string{
	// + 	"TRAN|PATCH TRAN_2da0c8dd11e9955c63313151 RETURNED (R02)",
	//   }
}

// CheckRequest checks that the application sent a call, by route and,
// optionally, a part of its body.
func ExampleServer_CheckRequest() {
	t := &checkT{}
	fake, u, checking, savings := checkFake(t)
	u.Post("nodes/"+checking.ID+"/trans", checkTransfer(savings, 25))

	const route = "/users/{user_id}/nodes/{node_id}/trans"
	fake.CheckRequest(t, "POST", route)                                                          // passes
	fake.CheckRequest(t, "POST", "/users/{user_id}/nodes/"+checking.ID+"/trans")                 // passes
	fake.CheckRequest(t, "POST", route, map[string]any{"extra": map[string]any{"note": "rent"}}) // passes
	fake.CheckRequest(t, "POST", route, map[string]any{"amount": map[string]any{"amount": 30}})
	fake.CheckRequest(t, "DELETE", route+"/{trans_id}")
	// Output:
	// FAIL: synapsefake: CheckRequest: 1 call POST /users/{user_id}/nodes/{node_id}/trans, none with the wanted body; the newest (-want +got):
	//   map[string]any{
	// - 	"amount": map[string]any{"amount": float64(30)},
	// + 	"amount": map[string]any{"amount": float64(25)},
	//   }
	//
	// FAIL: synapsefake: CheckRequest: want a call DELETE /users/{user_id}/nodes/{node_id}/trans/{trans_id}; the server answered 1, none of them that one:
	//   1. POST /users/{user_id}/nodes/{node_id}/trans -> 200/0
}

// Intercept serves a client that hard-codes the service's host and takes
// no *http.Client, such as SynapseGo, without a listener; the rest of the
// process's HTTP goes to next. (With SynapseGo, also set
// gorequest.DisableTransportSwap: see docs/compatibility.md.)
func ExampleServer_Intercept() {
	fake := synapsefake.New()
	old := http.DefaultTransport
	http.DefaultTransport = fake.Intercept(old) // in a test: restore it in t.Cleanup
	defer func() { http.DefaultTransport = old }()

	req, _ := http.NewRequest("GET", "https://uat-api.synapsefi.com/v3.1/users", nil)
	req.Header.Set("X-SP-GATEWAY", fake.Gateway())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(errors.Unwrap(err))
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, strings.Contains(string(body), `"users_count":0`))
	// Output:
	// 200 true
}
