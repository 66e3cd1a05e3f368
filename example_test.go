package synapsefake_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// A test gets its fake with synapsefake.NewServer(t). An example has no t,
// so the examples that show NewServer, the Must and Check methods or Wait
// hand them exampleT, a stand-in of a few lines (any synapsefake.TB
// will do), and the others use synapsefake.New, the same fake without a
// listener, reached through fake.Client(). exampleCall stands in for the
// application's own API client. Everything here is the package's public
// API and the standard library, so an example can be copied as it is.

// exampleT stands in for the *testing.T of a test: NewServer and the
// helpers that fail a test take any synapsefake.TB. Fatalf panics, as an
// example has no test to stop; finish runs the cleanups, as the end of a
// test does.
type exampleT struct {
	cleanups []func()
	failed   bool
}

func (t *exampleT) Cleanup(f func())                  { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Errorf(format string, args ...any) { t.failed = true }
func (t *exampleT) Failed() bool                      { return t.failed }
func (t *exampleT) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
func (t *exampleT) Helper()                           {}
func (t *exampleT) Logf(format string, args ...any)   {}

// finish runs the cleanups, newest first.
func (t *exampleT) finish() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

// exampleDevice is the device fingerprint the examples' client sends.
const exampleDevice = "example-device"

// exampleCall sends one JSON request as an application's API client would
// and returns the HTTP status and the decoded body. oauthKey is "" for
// client-level calls; idemKey, when set, is sent as X-SP-IDEMPOTENCY-KEY.
func exampleCall(fake *synapsefake.Server, method, path, oauthKey, idemKey string, body any) (int, map[string]any) {
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			panic(err)
		}
	}
	req, err := http.NewRequest(method, fake.URL()+path, &buf)
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-SP-GATEWAY", fake.Gateway())
	req.Header.Set("X-SP-USER", oauthKey+"|"+exampleDevice)
	req.Header.Set("X-SP-USER-IP", "127.0.0.1")
	if idemKey != "" {
		req.Header.Set("X-SP-IDEMPOTENCY-KEY", idemKey)
	}
	resp, err := fake.Client().Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		panic(err)
	}
	return resp.StatusCode, out
}

// exampleTransfer is the body of POST .../trans sending usd to a node.
func exampleTransfer(toType, toID string, usd float64) map[string]any {
	return map[string]any{
		"to":     map[string]any{"type": toType, "id": toID},
		"amount": map[string]any{"amount": usd, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1", "note": "rent"},
	}
}

// exampleAccount seeds a user whose device is exampleDevice, with a
// DEPOSIT-US node holding balanceCents, and mints an oauth_key with every
// scope.
func exampleAccount(fake *synapsefake.Server, balanceCents int64) (user synapsefake.User, node synapsefake.Node, key string) {
	user, _ = fake.AddUser(synapsefake.UserSeed{Fingerprint: exampleDevice})
	node, _ = fake.AddNode(user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: balanceCents})
	return user, node, fake.OAuthKey(user.ID, exampleDevice)
}

// The whole client flow over HTTP: create a user, get an OAuth key with the
// user's refresh_token, create a node and list the user's nodes.
func ExampleNewServer() {
	t := &exampleT{} // in a test: the *testing.T
	defer t.finish()

	fake := synapsefake.NewServer(t)

	status, user := exampleCall(fake, "POST", "/users", "", "", map[string]any{
		"logins":        []any{map[string]any{"email": "ada@example.com"}},
		"phone_numbers": []any{"901.111.1111"},
		"legal_names":   []any{"Ada Lovelace"},
	})
	fmt.Println("create user:", status, user["permission"])

	// The fingerprint that created the user is registered, so OAuth answers 200.
	userID := user["_id"].(string)
	status, oauth := exampleCall(fake, "POST", "/oauth/"+userID, "", "", map[string]any{
		"refresh_token": user["refresh_token"],
	})
	fmt.Println("oauth:", status, oauth["expires_in"])
	key := oauth["oauth_key"].(string)

	status, _ = exampleCall(fake, "POST", "/users/"+userID+"/nodes", key, "", map[string]any{
		"type": "DEPOSIT-US",
		"info": map[string]any{"nickname": "Savings"},
	})
	fmt.Println("create node:", status)

	status, nodes := exampleCall(fake, "GET", "/users/"+userID+"/nodes", key, "", nil)
	node := nodes["nodes"].([]any)[0].(map[string]any)
	fmt.Println("list nodes:", status, nodes["node_count"], node["type"], node["allowed"])
	// Output:
	// create user: 200 UNVERIFIED
	// oauth: 200 7200
	// create node: 200
	// list nodes: 200 1 DEPOSIT-US CREDIT-AND-DEBIT
}

// OAuthKey skips the OAuth dance: the key it mints works at once, with the
// scopes asked for (every user-level scope when none are given).
func ExampleServer_OAuthKey() {
	fake := synapsefake.New()
	user, _ := fake.AddUser(synapsefake.UserSeed{Fingerprint: exampleDevice})
	node, _ := fake.AddNode(user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 12_345})

	key := fake.OAuthKey(user.ID, exampleDevice)
	status, body := exampleCall(fake, "GET", "/users/"+user.ID+"/nodes/"+node.ID, key, "", nil)
	fmt.Println(status, body["info"].(map[string]any)["balance"])

	// A key holding only NODES|GET cannot create a node.
	readOnly := fake.OAuthKey(user.ID, exampleDevice, "NODES|GET")
	status, body = exampleCall(fake, "POST", "/users/"+user.ID+"/nodes", readOnly, "", map[string]any{
		"type": "DEPOSIT-US",
		"info": map[string]any{"nickname": "Another"},
	})
	fmt.Println(status, body["error_code"], body["error"].(map[string]any)["code"])
	// Output:
	// 200 map[amount:123.45 currency:USD]
	// 401 300 scope_not_granted
}

// A locked user's key opens only the user: it moves no money, and it
// unlocks the user. SetPermission makes the same change without a request.
func ExampleServer_SetPermission() {
	fake := synapsefake.New()
	user, checking, key := exampleAccount(fake, 100_00)
	lock := map[string]any{"permission": "LOCKED"}
	unlock := map[string]any{"permission": "SEND-AND-RECEIVE"}
	status, _ := exampleCall(fake, "PATCH", "/users/"+user.ID, key, "", lock)
	fmt.Println("lock:", status)
	status, body := exampleCall(fake, "GET", "/users/"+user.ID+"/nodes/"+checking.ID, key, "", nil)
	fmt.Println("read a node:", status, body["error"].(map[string]any)["code"])
	status, _ = exampleCall(fake, "PATCH", "/users/"+user.ID, key, "", unlock)
	fmt.Println("unlock with the same key:", status)

	if err := fake.SetPermission(user.ID, synapsefake.PermissionLocked); err != nil {
		panic(err)
	}
	u, _ := fake.User(user.ID)
	fmt.Println("after SetPermission:", u.Permission)
	// Output:
	// lock: 200
	// read a node: 409 user_locked
	// unlock with the same key: 200
	// after SetPermission: LOCKED
}

// An ACH transaction moves only when the fake's clock does: debit after a
// minute, credit after an hour, settled one business day after creation.
// The clock starts at DefaultStartTime, Tuesday 10:00 US Eastern time, so
// the day after is a business day in every run.
func ExampleServer_Advance() {
	fake := synapsefake.New()
	user, checking, key := exampleAccount(fake, 50_000)
	bank, _ := fake.AddNode(user.ID, synapsefake.NodeSeed{
		Type: "ACH-US", Nickname: "Bank", AccountNum: "123456789", RoutingNum: "051000017",
	})

	_, tx := exampleCall(fake, "POST", "/users/"+user.ID+"/nodes/"+checking.ID+"/trans", key, "",
		exampleTransfer("ACH-US", bank.ID, 100))
	id := tx["_id"].(string)

	status := func() synapsefake.Status { t, _ := fake.Transaction(id); return t.Status }
	fmt.Println("created:        ", status())
	fake.Advance(time.Minute)
	fmt.Println("after 1 minute: ", status())
	fake.Advance(time.Hour)
	fmt.Println("after 1 hour:   ", status())
	fake.Advance(24 * time.Hour)
	fmt.Println("after 1 day:    ", status())

	// The timeline dates each step at the time it fell due.
	t, _ := fake.Transaction(id)
	for _, e := range t.Timeline {
		fmt.Println(e.Date.In(reference.Eastern).Format("Mon 15:04 MST"), e.Status)
	}
	// Output:
	// created:         CREATED
	// after 1 minute:  PROCESSING-DEBIT
	// after 1 hour:    PROCESSING-CREDIT
	// after 1 day:     SETTLED
	// Tue 10:00 EDT CREATED
	// Tue 10:01 EDT PROCESSING-DEBIT
	// Tue 11:00 EDT PROCESSING-CREDIT
	// Wed 10:00 EDT SETTLED
}

// Settle walks a transaction through every remaining step at once: the
// sender was debited at PROCESSING-DEBIT, the receiver is credited at
// SETTLED.
func ExampleServer_Settle() {
	fake := synapsefake.New()
	alice, from, key := exampleAccount(fake, 10_000)
	bob, to, _ := exampleAccount(fake, 0)

	_, tx := exampleCall(fake, "POST", "/users/"+alice.ID+"/nodes/"+from.ID+"/trans", key, "",
		exampleTransfer("DEPOSIT-US", to.ID, 25))
	if err := fake.Settle(tx["_id"].(string)); err != nil {
		panic(err)
	}

	t, _ := fake.Transaction(tx["_id"].(string))
	sender, _ := fake.Node(from.ID)
	receiver, _ := fake.Node(to.ID)
	fmt.Println(t.Status, sender.BalanceCents, receiver.BalanceCents, receiver.UserID == bob.ID)
	// Output:
	// SETTLED 7500 2500 true
}

// Return returns a transaction with an ACH code: the client sees it in
// recent_status, and the money goes back.
func ExampleServer_Return() {
	fake := synapsefake.New()
	user, checking, key := exampleAccount(fake, 50_000)
	bank, _ := fake.AddNode(user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank"})

	path := "/users/" + user.ID + "/nodes/" + checking.ID + "/trans"
	_, tx := exampleCall(fake, "POST", path, key, "", exampleTransfer("ACH-US", bank.ID, 100))
	id := tx["_id"].(string)
	if err := fake.Return(id, "R02"); err != nil {
		panic(err)
	}

	_, tx = exampleCall(fake, "GET", path+"/"+id, key, "", nil)
	recent := tx["recent_status"].(map[string]any)
	fmt.Println(recent["status"], recent["status_id"], recent["code"])
	fmt.Println(recent["note"])
	n, _ := fake.Node(checking.ID)
	fmt.Println("balance:", n.BalanceCents)
	// Output:
	// RETURNED 6 R02
	// R02: account closed.
	// balance: 50000
}

// CardAuthorization swipes a card. A swipe the card's rules refuse is
// recorded as a RETURNED transaction carrying the IR code, with no money
// moved.
func ExampleServer_CardAuthorization() {
	fake := synapsefake.New()
	user, checking, _ := exampleAccount(fake, 1_000) // $10.00
	card, err := fake.AddSubnet(user.ID, checking.ID, synapsefake.SubnetSeed{
		AccountClass: synapsefake.ClassCard, Status: synapsefake.SubnetActive,
	})
	if err != nil {
		panic(err)
	}

	declined, err := fake.CardAuthorization(card.ID, synapsefake.CardAuth{AmountCents: 2_500, Merchant: "BOOKSHOP"})
	if err != nil {
		panic(err)
	}
	fmt.Println(declined.Status, declined.Code)

	approved, err := fake.CardAuthorization(card.ID, synapsefake.CardAuth{AmountCents: 500, Merchant: "CAFE"})
	if err != nil {
		panic(err)
	}
	fmt.Println(approved.Status, approved.Code == "")
	// Output:
	// RETURNED IR51
	// CREATED true
}

// A new device walks the MFA flow: 202 with the user's phone numbers, 202
// once the code is sent, then 200 with a key once the pin (123456 in the
// fake, as in the sandbox) comes back.
func Example_mfa() {
	fake := synapsefake.New()
	user, _ := fake.AddUser(synapsefake.UserSeed{PhoneNumbers: []string{"901.111.1111"}}) // no device registered
	path := "/oauth/" + user.ID

	status, body := exampleCall(fake, "POST", path, "", "", map[string]any{"refresh_token": user.RefreshToken})
	fmt.Println(status, body["error_code"], body["phone_numbers"])

	status, body = exampleCall(fake, "POST", path, "", "", map[string]any{
		"refresh_token": user.RefreshToken, "phone_number": "901.111.1111",
	})
	fmt.Println(status, body["error_code"], body["success"])

	status, body = exampleCall(fake, "POST", path, "", "", map[string]any{
		"refresh_token": user.RefreshToken, "validation_pin": "123456",
	})
	key, _ := body["oauth_key"].(string)
	fmt.Println(status, strings.HasPrefix(key, "oauth_"))

	u, _ := fake.User(user.ID)
	fmt.Println(u.Fingerprints)
	// Output:
	// 202 10 [901.111.1111]
	// 202 10 true
	// 200 true
	// [example-device]
}

// A POST repeated with the same X-SP-IDEMPOTENCY-KEY within 24 hours is
// refused with 409 / "450" and performs nothing.
func Example_idempotency() {
	fake := synapsefake.New()
	alice, from, key := exampleAccount(fake, 10_000)
	_, to, _ := exampleAccount(fake, 0)
	path := "/users/" + alice.ID + "/nodes/" + from.ID + "/trans"
	body := exampleTransfer("DEPOSIT-US", to.ID, 10)

	status, _ := exampleCall(fake, "POST", path, key, "order-42", body)
	fmt.Println(status)
	status, refused := exampleCall(fake, "POST", path, key, "order-42", body)
	fmt.Println(status, refused["error_code"], refused["error"].(map[string]any)["en"])

	_, list := exampleCall(fake, "GET", path, key, "", nil)
	fmt.Println("transactions:", list["trans_count"])

	fake.Advance(24 * time.Hour)                 // the idempotency key expires,
	key = fake.OAuthKey(alice.ID, exampleDevice) // and so did the 2-hour oauth_key
	status, _ = exampleCall(fake, "POST", path, key, "order-42", body)
	fmt.Println(status)
	// Output:
	// 200
	// 409 450 Idempotency key already in use.
	// transactions: 1
	// 200
}

// Two servers with the same seed that see the same calls hand out the same
// ids, keys and refresh tokens, so a failing test can be replayed exactly.
func ExampleWithIDSeed() {
	a := synapsefake.New(synapsefake.WithIDSeed(42))
	b := synapsefake.New(synapsefake.WithIDSeed(42))
	c := synapsefake.New(synapsefake.WithIDSeed(43))

	ua, _ := a.AddUser(synapsefake.UserSeed{Email: "ada@example.com"})
	ub, _ := b.AddUser(synapsefake.UserSeed{Email: "ada@example.com"})
	uc, _ := c.AddUser(synapsefake.UserSeed{Email: "ada@example.com"})
	fmt.Println(ua.ID == ub.ID, ua.RefreshToken == ub.RefreshToken, ua.ID == uc.ID, len(ua.ID))
	// Output:
	// true true false 24
}

// Every change is captured as a webhook, whether or not a subscription
// receives it; a test asserts on the capture instead of sleeping.
func ExampleWebhookCapture_Wait() {
	t := &exampleT{}
	defer t.finish()
	fake := synapsefake.New(synapsefake.WithoutWebhookDelivery())
	defer fake.Close()
	alice, from, key := exampleAccount(fake, 10_000)
	_, to, _ := exampleAccount(fake, 0)
	_, tx := exampleCall(fake, "POST", "/users/"+alice.ID+"/nodes/"+from.ID+"/trans", key, "",
		exampleTransfer("DEPOSIT-US", to.ID, 25))
	id := tx["_id"].(string)

	fake.Advance(time.Millisecond) // an internal transfer settles on the next clock movement
	hook := fake.Webhooks().Wait(t, synapsefake.ForTransaction(id, synapsefake.StatusSettled))
	fmt.Println(hook.Function, hook.Status, hook.UpdatedBy)
	for _, w := range fake.Webhooks().All() {
		if w.ObjectID == id {
			fmt.Println(w.Function, w.Status)
		}
	}
	// Output:
	// TRAN|PATCH SETTLED BACKEND
	// TRANS|POST CREATED
	// TRAN|PATCH PROCESSING-DEBIT
	// TRAN|PATCH PROCESSING-CREDIT
	// TRAN|PATCH SETTLED
}

// FailNext answers the next matching requests with the real error envelope
// and changes nothing, so an app's retry with the same idempotency key
// creates the transaction exactly once.
func ExampleServer_FailNext() {
	fake := synapsefake.New()
	alice, from, key := exampleAccount(fake, 10_000)
	_, to, _ := exampleAccount(fake, 0)
	fake.FailNext("POST", "/users/{user_id}/nodes/{node_id}/trans", "503", 1)

	path := "/users/" + alice.ID + "/nodes/" + from.ID + "/trans"
	for attempt := 1; attempt <= 3; attempt++ {
		status, body := exampleCall(fake, "POST", path, key, "order-42", exampleTransfer("DEPOSIT-US", to.ID, 25))
		fmt.Println(attempt, status, body["error_code"])
	}
	for _, r := range fake.RequestsTo("POST", "/users/{user_id}/nodes/{node_id}/trans") {
		fmt.Println(r.Status, r.ErrorCode)
	}
	// Output:
	// 1 503 503
	// 2 200 <nil>
	// 3 409 450
	// 503 503
	// 200 0
	// 409 450
}

// ExampleWithControlToken shows a fake whose control API needs a token, as
// one reachable beyond loopback would.
func ExampleWithControlToken() {
	fake := synapsefake.New(synapsefake.WithControlToken("let-me-in"))
	defer fake.Close()
	root := strings.TrimSuffix(fake.URL(), "/v3.1")
	for _, token := range []string{"", "let-me-in"} {
		req, _ := http.NewRequest("GET", root+"/_fake/clock", nil)
		if token != "" {
			req.Header.Set("X-Fake-Control-Token", token)
		}
		resp, err := fake.Client().Do(req)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Printf("token %q: %d\n", token, resp.StatusCode)
	}
	// Output:
	// token "": 401
	// token "let-me-in": 200
}
