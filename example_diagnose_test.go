package synapsefake_test

import (
	"fmt"

	"github.com/synapsefake/synapsefake"
)

// loggingT stands in for a *testing.T whose log is printed, as exampleT
// does: Logf prints the line, Errorf prints it and marks the test failed.
type loggingT struct{ exampleT }

func (t *loggingT) Logf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
func (t *loggingT) Errorf(format string, args ...any) {
	t.failed = true
	fmt.Printf(format+"\n", args...)
}

// A refused request explains itself in the test's log: the route, the
// answer, why, and a hint for the usual mistake. When the test fails, its
// end lists the last calls the fake answered. A test whose calls all
// succeed logs nothing.
func ExampleNewServer_diagnostics() {
	t := &loggingT{} // in a test: the *testing.T
	fake := synapsefake.NewServer(t)

	user, _, key := exampleAccount(fake, 0)
	status, _ := exampleCall(fake, "GET", "/users/"+user.ID+"/nodes", key, "", nil)
	fmt.Println("with the key's device:", status)

	// The app sends the key from another device.
	other := fake.OAuthKey(user.ID, "other-device")
	status, _ = exampleCall(fake, "GET", "/users/"+user.ID+"/nodes", other, "", nil)
	fmt.Println("with another device's key:", status)

	t.Errorf("the test fails")
	t.finish()
	// Output:
	// with the key's device: 200
	// synapsefake: GET /users/{user_id}/nodes -> 401 error_code "120" unauthorized_fingerprint: the oauth_key was issued to fingerprint "other-device"; X-SP-USER sends "example-device" (hint: a key works only with the fingerprint it was issued to; to use another device, register it: fake.OAuthKey(userID, fingerprint), UserSeed.Fingerprint, or the MFA flow of POST /oauth/{user_id})
	// with another device's key: 401
	// the test fails
	// synapsefake: the test failed; the last 2 of the 2 requests in the journal, oldest first:
	//   GET /v3.1/users/4a9f3f3d214fecdb1fc54cff/nodes -> 200/0
	//   GET /v3.1/users/4a9f3f3d214fecdb1fc54cff/nodes -> 401/120: the oauth_key was issued to fingerprint "other-device"; X-SP-USER sends "example-device" (hint: a key works only with the fingerprint it was issued to; to use another device, register it: fake.OAuthKey(userID, fingerprint), UserSeed.Fingerprint, or the MFA flow of POST /oauth/{user_id})
}

// WithLog sends the diagnostics elsewhere: here to standard output, from a
// server built by New, which has no test to log to. (WithFundsCheck makes
// the second transfer a refusal.)
func ExampleWithLog() {
	fake := synapsefake.New(synapsefake.WithLog(func(format string, args ...any) { fmt.Printf(format+"\n", args...) }), synapsefake.WithFundsCheck())
	user, node, key := exampleAccount(fake, 10_00)
	savings, _ := fake.AddNode(user.ID, synapsefake.NodeSeed{Nickname: "Savings"})

	path := "/users/" + user.ID + "/nodes/" + node.ID + "/trans"
	status, _ := exampleCall(fake, "POST", path, key, "", exampleTransfer("DEPOSIT-US", savings.ID, 8))
	fmt.Println(status)
	status, _ = exampleCall(fake, "POST", path, key, "", exampleTransfer("DEPOSIT-US", savings.ID, 5))
	fmt.Println(status)
	// Output:
	// 200
	// synapsefake: POST /users/{user_id}/nodes/{node_id}/trans -> 409 error_code "400" insufficient_funds: node 2c80247d3a9532ab14daf2ce has 2.00 USD available, 3.00 USD short of this 5.00 USD debit: balance 10.00 less 8.00 held by pending debits (2da0c8dd11e9955c63313151: 8.00, CREATED) (hint: fund the node (fake.Fund, NodeSeed.BalanceCents), or let the pending debits settle or cancel them)
	// 409
}

// WithStrictRequests refuses, and fails the test for, a field the service
// would ignore without a word, and names the field it was meant to be.
func ExampleWithStrictRequests() {
	t := &loggingT{} // in a test: the *testing.T
	defer t.finish()
	fake := synapsefake.NewServer(t, synapsefake.WithStrictRequests(), synapsefake.WithoutDiagnostics())
	user, node, key := exampleAccount(fake, 100_00)
	savings, _ := fake.AddNode(user.ID, synapsefake.NodeSeed{Nickname: "Savings"})

	body := exampleTransfer("DEPOSIT-US", savings.ID, 25)
	body["amount"].(map[string]any)["ammount"] = 25
	status, answer := exampleCall(fake, "POST", "/users/"+user.ID+"/nodes/"+node.ID+"/trans", key, "", body)
	fmt.Println(status, answer["error_code"], answer["error"].(map[string]any)["en"])
	fmt.Println("test failed:", t.Failed())
	// Output:
	// synapsefake: strict requests: POST /users/{user_id}/nodes/{node_id}/trans: unknown field amount.ammount (did you mean amount.amount?): the service would ignore it
	// 400 200 Unknown field amount.ammount (did you mean amount.amount?).
	// test failed: true
}
