package api_test

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// hookEvent summarises a captured webhook.
type hookEvent struct {
	Function, ObjectType, ObjectID, Status, Code, UpdatedBy string
}

// hookEnv is a fake with a user holding $100 in a DEPOSIT-US node and a
// second DEPOSIT-US node "Savings", and an empty webhook capture.
type hookEnv struct {
	fake    *synapsefake.Server
	fx      testkit.Fixture
	savings synapsefake.Node
}

func newHookEnv(t testing.TB, opts ...synapsefake.Option) hookEnv {
	t.Helper()
	fake := synapsefake.NewServer(t, opts...)
	e := hookEnv{fake: fake, fx: testkit.NewFixture(t, fake, 10000)}
	e.savings = fake.MustAddNode(t, e.fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	fake.Webhooks().Reset()
	return e
}

// must sends c and returns the answer's _id; anything but 200 fails the test.
func (e hookEnv) must(t testing.TB, c testkit.Call) string {
	t.Helper()
	r := testkit.Do(t, e.fake, c)
	if r.Status != http.StatusOK {
		t.Fatalf("%s %s: status %d: %s", c.Method, c.Path, r.Status, r.Raw)
	}
	id, _ := r.Body["_id"].(string)
	return id
}

func (e hookEnv) nodePath() string { return "/users/" + e.fx.User.ID + "/nodes/" + e.fx.Node.ID }

// transfer creates a $10 transfer to Savings over HTTP and returns its id.
func (e hookEnv) transfer(t testing.TB) string {
	t.Helper()
	return e.must(t, testkit.Call{Method: "POST", Path: e.nodePath() + "/trans", Header: e.fx.Headers,
		Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": e.savings.ID},
			"amount": map[string]any{"amount": 10, "currency": "USD"}, "extra": map[string]any{"ip": "192.168.0.1"}}})
}

// TestWebhookEvents checks that every kind of change emits its webhook, with
// the status after the change and SELF or BACKEND as the updater, whether
// made over HTTP, by a helper or by the clock; and that refused calls and
// subscription changes emit nothing.
func TestWebhookEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		act  func(t *testing.T, e hookEnv) []hookEvent
	}{
		{"POST /users", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.must(t, testkit.Call{Method: "POST", Path: "/users", Header: testkit.GatewayHeaders(e.fake), Body: map[string]any{
				"logins": []any{map[string]any{"email": "new@example.com"}}, "phone_numbers": []string{"901.111.1111"},
				"legal_names": []string{"New User"}}})
			return []hookEvent{{"USERS|POST", "USER", id, "", "", "SELF"}}
		}},
		{"AddUser", func(t *testing.T, e hookEnv) []hookEvent {
			u := e.fake.MustAddUser(t, synapsefake.UserSeed{})
			return []hookEvent{{"USERS|POST", "USER", u.ID, "", "", "BACKEND"}}
		}},
		{"PATCH /users/{id}", func(t *testing.T, e hookEnv) []hookEvent {
			e.must(t, testkit.Call{Method: "PATCH", Path: "/users/" + e.fx.User.ID, Header: e.fx.Headers,
				Body: map[string]any{"update": map[string]any{"public_note": "hi"}}})
			return []hookEvent{{"USER|PATCH", "USER", e.fx.User.ID, "", "", "SELF"}}
		}},
		{"POST nodes", func(t *testing.T, e hookEnv) []hookEvent {
			r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: "/users/" + e.fx.User.ID + "/nodes", Header: e.fx.Headers,
				Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Goals"}}})
			nodes, _ := r.Body["nodes"].([]any)
			if r.Status != http.StatusOK || len(nodes) != 1 {
				t.Fatalf("POST nodes: status %d: %s", r.Status, r.Raw)
			}
			id, _ := nodes[0].(map[string]any)["_id"].(string)
			return []hookEvent{{"NODES|POST", "NODE", id, "", "", "SELF"}}
		}},
		{"AddNode", func(t *testing.T, e hookEnv) []hookEvent {
			n := e.fake.MustAddNode(t, e.fx.User.ID, synapsefake.NodeSeed{})
			return []hookEvent{{"NODES|POST", "NODE", n.ID, "", "", "BACKEND"}}
		}},
		{"PATCH node", func(t *testing.T, e hookEnv) []hookEvent {
			e.must(t, testkit.Call{Method: "PATCH", Path: e.nodePath(), Header: e.fx.Headers, Body: map[string]any{"nickname": "Renamed"}})
			return []hookEvent{{"NODE|PATCH", "NODE", e.fx.Node.ID, "", "", "SELF"}}
		}},
		{"DELETE node", func(t *testing.T, e hookEnv) []hookEvent {
			e.must(t, testkit.Call{Method: "DELETE", Path: "/users/" + e.fx.User.ID + "/nodes/" + e.savings.ID, Header: e.fx.Headers})
			return []hookEvent{{"NODE|PATCH", "NODE", e.savings.ID, "", "", "SELF"}}
		}},
		{"POST trans", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.transfer(t)
			return []hookEvent{{"TRANS|POST", "TRAN", id, "CREATED", "", "SELF"}}
		}},
		{"PATCH trans comment", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.transfer(t)
			e.fake.Webhooks().Reset()
			e.must(t, testkit.Call{Method: "PATCH", Path: e.nodePath() + "/trans/" + id, Header: e.fx.Headers, Body: map[string]any{"comment": "checked"}})
			return []hookEvent{{"TRAN|PATCH", "TRAN", id, "CREATED", "", "SELF"}}
		}},
		{"DELETE trans", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.transfer(t)
			e.fake.Webhooks().Reset()
			e.must(t, testkit.Call{Method: "DELETE", Path: e.nodePath() + "/trans/" + id, Header: e.fx.Headers})
			return []hookEvent{{"TRAN|PATCH", "TRAN", id, "CANCELED", "", "SELF"}}
		}},
		{"Advance processes", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.transfer(t)
			e.fake.Webhooks().Reset()
			e.fake.Advance(time.Millisecond)
			return []hookEvent{
				{"TRAN|PATCH", "TRAN", id, "PROCESSING-DEBIT", "", "BACKEND"},
				{"TRAN|PATCH", "TRAN", id, "PROCESSING-CREDIT", "", "BACKEND"},
				{"TRAN|PATCH", "TRAN", id, "SETTLED", "", "BACKEND"},
			}
		}},
		{"Settle", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.transfer(t)
			e.fake.Webhooks().Reset()
			if err := e.fake.Settle(id); err != nil {
				t.Fatal(err)
			}
			return []hookEvent{
				{"TRAN|PATCH", "TRAN", id, "PROCESSING-DEBIT", "", "BACKEND"},
				{"TRAN|PATCH", "TRAN", id, "PROCESSING-CREDIT", "", "BACKEND"},
				{"TRAN|PATCH", "TRAN", id, "SETTLED", "", "BACKEND"},
			}
		}},
		{"Return", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.transfer(t)
			e.fake.Webhooks().Reset()
			if err := e.fake.Return(id, "R01"); err != nil {
				t.Fatal(err)
			}
			return []hookEvent{
				{"TRAN|PATCH", "TRAN", id, "PROCESSING-DEBIT", "", "BACKEND"},
				{"TRAN|PATCH", "TRAN", id, "PROCESSING-CREDIT", "", "BACKEND"},
				{"TRAN|PATCH", "TRAN", id, "RETURNED", "R01", "BACKEND"},
			}
		}},
		{"Queue", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.transfer(t)
			e.fake.Webhooks().Reset()
			if err := e.fake.Queue(id, "HIGH-RISK"); err != nil {
				t.Fatal(err)
			}
			return []hookEvent{{"TRAN|PATCH", "TRAN", id, "QUEUED-BY-SYNAPSE", "HIGH-RISK", "BACKEND"}}
		}},
		{"POST subnets", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.must(t, testkit.Call{Method: "POST", Path: e.nodePath() + "/subnets", Header: e.fx.Headers, Body: map[string]any{"nickname": "Bills"}})
			return []hookEvent{{"SUBNETS|POST", "SUBNET", id, "ACTIVE", "", "SELF"}}
		}},
		{"AddSubnet", func(t *testing.T, e hookEnv) []hookEvent {
			sn, err := e.fake.AddSubnet(e.fx.User.ID, e.fx.Node.ID, synapsefake.SubnetSeed{AccountClass: "CARD"})
			if err != nil {
				t.Fatal(err)
			}
			return []hookEvent{{"SUBNETS|POST", "SUBNET", sn.ID, string(sn.Status), "", "BACKEND"}}
		}},
		{"PATCH subnet", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.must(t, testkit.Call{Method: "POST", Path: e.nodePath() + "/subnets", Header: e.fx.Headers, Body: map[string]any{"nickname": "Bills"}})
			e.fake.Webhooks().Reset()
			e.must(t, testkit.Call{Method: "PATCH", Path: e.nodePath() + "/subnets/" + id, Header: e.fx.Headers, Body: map[string]any{"status": "INACTIVE"}})
			return []hookEvent{{"SUBNET|PATCH", "SUBNET", id, "INACTIVE", "", "SELF"}}
		}},
		{"approved card swipe", func(t *testing.T, e hookEnv) []hookEvent {
			sn, err := e.fake.AddSubnet(e.fx.User.ID, e.fx.Node.ID, synapsefake.SubnetSeed{AccountClass: "CARD", Status: synapsefake.SubnetActive})
			if err != nil {
				t.Fatal(err)
			}
			e.fake.Webhooks().Reset()
			tx, err := e.fake.CardAuthorization(sn.ID, synapsefake.CardAuth{AmountCents: 500})
			if err != nil {
				t.Fatal(err)
			}
			return []hookEvent{{"TRANS|POST", "TRAN", tx.ID, "CREATED", "", "BACKEND"}}
		}},
		{"declined card swipe", func(t *testing.T, e hookEnv) []hookEvent {
			sn, err := e.fake.AddSubnet(e.fx.User.ID, e.fx.Node.ID, synapsefake.SubnetSeed{AccountClass: "CARD", Status: synapsefake.SubnetActive})
			if err != nil {
				t.Fatal(err)
			}
			e.fake.Webhooks().Reset()
			tx, err := e.fake.CardAuthorization(sn.ID, synapsefake.CardAuth{AmountCents: 500, DeclineWith: "IR51"})
			if err != nil {
				t.Fatal(err)
			}
			return []hookEvent{
				{"TRANS|POST", "TRAN", tx.ID, "CREATED", "", "BACKEND"},
				{"TRAN|PATCH", "TRAN", tx.ID, "RETURNED", "IR51", "BACKEND"},
			}
		}},
		{"refused transfer emits nothing", func(t *testing.T, e hookEnv) []hookEvent {
			r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: e.nodePath() + "/trans", Header: e.fx.Headers,
				Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": e.fx.Node.ID},
					"amount": map[string]any{"amount": 1, "currency": "USD"}, "extra": map[string]any{"ip": "192.168.0.1"}}})
			if r.Status == http.StatusOK {
				t.Fatalf("a transfer to its own node was accepted: %s", r.Raw)
			}
			return nil
		}},
		{"subscriptions emit nothing", func(t *testing.T, e hookEnv) []hookEvent {
			id := e.must(t, testkit.Call{Method: "POST", Path: "/subscriptions", Header: hookGateway(e.fake),
				Body: map[string]any{"scope": []string{"USERS|POST"}, "url": "https://example.com/hooks"}})
			e.must(t, testkit.Call{Method: "PATCH", Path: "/subscriptions/" + id, Header: hookGateway(e.fake), Body: map[string]any{"is_active": false}})
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newHookEnv(t)
			want := tc.act(t, e)
			var got []hookEvent
			for _, w := range e.fake.Webhooks().All() {
				got = append(got, hookEvent{w.Function, w.ObjectType, w.ObjectID, w.Status, w.Code, w.UpdatedBy})
				checkHookBody(t, w)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("webhooks (-want +got):\n%s", diff)
			}
		})
	}
}

// checkHookBody checks that a webhook's body agrees with its summary.
func checkHookBody(t *testing.T, w synapsefake.Webhook) {
	t.Helper()
	p := w.Payload()
	rest, _ := p["_rest"].(map[string]any)
	got := map[string]any{"_id": p["_id"], "_rest._id": rest["_id"], "webhook_meta": p["webhook_meta"]}
	meta, _ := p["webhook_meta"].(map[string]any)
	want := map[string]any{
		"_id":       map[string]any{"$oid": w.ObjectID},
		"_rest._id": w.ObjectID,
		"webhook_meta": map[string]any{"function": w.Function, "log_id": meta["log_id"], "updated_by": w.UpdatedBy,
			"date": map[string]any{"$date": float64(w.Date.UnixMilli())}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: body (-want +got):\n%s", w, diff)
	}
	if id, _ := meta["log_id"].(string); !hookIDPattern.MatchString(id) {
		t.Errorf("%s: log_id %v is not 24 hex characters", w, meta["log_id"])
	}
}

// TestWebhookPayload compares whole payloads: the body is the resource as
// the API answers it, plus _id as {"$oid"}, _rest and webhook_meta; and
// IgnoreVolatile makes two runs' payloads equal while still seeing a real
// difference.
func TestWebhookPayload(t *testing.T) {
	t.Parallel()
	t.Run("exact", func(t *testing.T) {
		t.Parallel()
		e := newHookEnv(t)
		rcv := testkit.NewHookReceiver(t, nil)
		e.fake.MustAddSubscription(t, rcv.Url, "TRANS|POST")
		r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: e.nodePath() + "/trans", Header: e.fx.Headers,
			Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": e.savings.ID},
				"amount": map[string]any{"amount": 12.34, "currency": "USD"}, "extra": map[string]any{"ip": "192.168.0.1", "note": "rent"}}})
		if r.Status != http.StatusOK {
			t.Fatalf("create transaction: status %d: %s", r.Status, r.Raw)
		}
		e.fake.Flush()
		got := rcv.Deliveries()
		if len(got) != 1 {
			t.Fatalf("%d deliveries, want 1", len(got))
		}
		apiCopy := r.Body
		delete(apiCopy, "success")
		want := map[string]any{}
		for k, v := range apiCopy {
			want[k] = v
		}
		want["_id"] = map[string]any{"$oid": apiCopy["_id"]}
		want["_rest"] = apiCopy
		want["webhook_meta"] = map[string]any{"function": "TRANS|POST", "log_id": got[0].Meta("log_id"),
			"updated_by": "SELF", "date": map[string]any{"$date": float64(e.fake.Now().UnixMilli())}}
		if diff := cmp.Diff(want, got[0].Payload); diff != "" {
			t.Errorf("payload (-want +got):\n%s", diff)
		}
		if w := e.fake.Webhooks().Wait(t, synapsefake.ForFunction("TRANS|POST")); !bytes.Equal(w.Body, got[0].Body) {
			t.Errorf("captured body differs from the delivered one:\n%s\n%s", w.Body, got[0].Body)
		}
	})
	t.Run("IgnoreVolatile", func(t *testing.T) {
		t.Parallel()
		// The same story on two servers with other seeds and clocks: every
		// id and date differs, nothing else.
		payload := func(seed uint64, start time.Time, amount float64) map[string]any {
			mock := clock.NewMock()
			mock.Set(start)
			e := newHookEnv(t, synapsefake.WithIDSeed(seed), synapsefake.WithClock(mock))
			e.must(t, testkit.Call{Method: "POST", Path: e.nodePath() + "/trans", Header: e.fx.Headers,
				Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": e.savings.ID},
					"amount": map[string]any{"amount": amount, "currency": "USD"}, "extra": map[string]any{"ip": "192.168.0.1"}}})
			e.fake.Advance(time.Millisecond)
			return e.fake.Webhooks().Wait(t, synapsefake.ForFunction("TRAN|PATCH")).Payload()
		}
		day := time.Date(2024, time.March, 4, 9, 30, 0, 0, time.UTC)
		a, b := payload(1, day, 10), payload(2, day.Add(36*time.Hour+123*time.Millisecond), 10)
		if cmp.Equal(a, b) {
			t.Fatal("payloads of different seeds and clocks are equal without IgnoreVolatile; the test proves nothing")
		}
		if diff := cmp.Diff(a, b, synapsefake.IgnoreVolatile()); diff != "" {
			t.Errorf("payloads differ beyond volatile fields (-a +b):\n%s", diff)
		}
		if c := payload(1, day, 11); cmp.Equal(a, c, synapsefake.IgnoreVolatile()) {
			t.Error("IgnoreVolatile hides a different amount")
		}
	})
}

// TestVerifySignature checks the exported helper against HMACs computed
// here with crypto/hmac.
func TestVerifySignature(t *testing.T) {
	t.Parallel()
	const objectID, clientID, secret = "5bd9e16314c7f70098c16e88", "client_id_abc", "client_secret_xyz"
	msg := objectID + "+" + clientID
	good1, good256 := hmacHex(sha1.New, secret, msg), hmacHex(sha256.New, secret, msg)
	// tamper changes the last hex digit.
	tamper := func(s string) string {
		last := "0"
		if s[len(s)-1] == '0' {
			last = "1"
		}
		return s[:len(s)-1] + last
	}
	for _, tc := range []struct {
		name        string
		sig1, sig2  string // "-" leaves the header out
		obj, client string
		secret      string
		want        bool
	}{
		{"both valid", good1, good256, objectID, clientID, secret, true},
		{"wrong secret", good1, good256, objectID, clientID, "other", false},
		{"wrong object", good1, good256, "5bd9e16314c7f70098c16e89", clientID, secret, false},
		{"wrong client", good1, good256, objectID, "client_id_abd", secret, false},
		{"sha1 missing", "-", good256, objectID, clientID, secret, false},
		{"sha256 missing", good1, "-", objectID, clientID, secret, false},
		{"sha1 tampered", tamper(good1), good256, objectID, clientID, secret, false},
		{"sha256 tampered", good1, tamper(good256), objectID, clientID, secret, false},
		{"upper-case hex", strings.ToUpper(good1), strings.ToUpper(good256), objectID, clientID, secret, false},
		{"headers swapped", good256, good1, objectID, clientID, secret, false},
		{"sha256 of the wrong message order", good1, hmacHex(sha256.New, secret, clientID+"+"+objectID), objectID, clientID, secret, false},
		{"unsigned message", good1, hex.EncodeToString(func() []byte { s := sha256.Sum256([]byte(msg)); return s[:] }()), objectID, clientID, secret, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.sig1 != "-" {
				h.Set("X-Synapse-Signature", tc.sig1)
			}
			if tc.sig2 != "-" {
				h.Set("X-Synapse-Signature-Sha256", tc.sig2)
			}
			if got := synapsefake.VerifySignature(h, tc.obj, tc.client, tc.secret); got != tc.want {
				t.Errorf("VerifySignature = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestWebhookSignatureHeaders checks the headers a delivery carries, for
// each type of object, with custom client credentials.
func TestWebhookSignatureHeaders(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, synapsefake.WithClientCredentials("client_id_sigtest", "client_secret_sigtest"))
	rcv := testkit.NewHookReceiver(t, nil)
	e.fake.MustAddSubscription(t, rcv.Url)
	e.fake.MustAddUser(t, synapsefake.UserSeed{})
	e.fake.AddNode(e.fx.User.ID, synapsefake.NodeSeed{})
	e.transfer(t)
	e.must(t, testkit.Call{Method: "POST", Path: e.nodePath() + "/subnets", Header: e.fx.Headers, Body: map[string]any{"nickname": "Bills"}})
	e.fake.Flush()
	got := rcv.Deliveries()
	if len(got) != 4 {
		t.Fatalf("%d deliveries, want 4", len(got))
	}
	for _, d := range got {
		if err := wantSignatures(d.Header, d.ObjectID(), "client_id_sigtest", "client_secret_sigtest"); err != nil {
			t.Errorf("%s: %v", d.Meta("function"), err)
		}
		if synapsefake.VerifySignature(d.Header, d.ObjectID(), "client_id_synapsefake0000000000000000000000", "client_secret_synapsefake000000000000000000") {
			t.Errorf("%s: signature verifies with the default credentials", d.Meta("function"))
		}
	}
}

// TestObjectWebhookShowsItsMoment checks that a node's webhook and a
// user's show the object as it was when the webhook was emitted, however
// the node, its balance and its owner change before the webhook is read,
// and whether it is read at once or only afterwards: node and user events
// keep a snapshot and encode it when read.
func TestObjectWebhookShowsItsMoment(t *testing.T) {
	for _, readFirst := range []bool{true, false} {
		name := "read afterwards"
		if readFirst {
			name = "read at once, then again"
		}
		t.Run(name, func(t *testing.T) {
			fake := synapsefake.NewServer(t)
			fx := testkit.NamedFixture(t, fake, "Ann Original", 100_00)
			savings := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Before", BalanceCents: 5_00})
			find := func(function string) synapsefake.Webhook {
				return fake.Webhooks().Wait(t, func(w synapsefake.Webhook) bool { return w.ObjectID == savings.ID && w.Function == function })
			}
			created := func() synapsefake.Webhook { return find("NODES|POST") }
			userCreated := func() synapsefake.Webhook { return fake.Webhooks().Wait(t, synapsefake.ForFunction("USERS|POST")) }
			var first, firstUser []byte
			if readFirst {
				first, firstUser = created().Body, userCreated().Body
			}

			// Change the node, its balance and its owner's name.
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + fx.User.ID + "/nodes/" + savings.ID, Header: fx.Headers,
				Body: map[string]any{"nickname": "After"}})
			if r.Status != http.StatusOK {
				t.Fatalf("PATCH nickname: %d %s", r.Status, r.Raw)
			}
			r = testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: testkit.TxBody(savings, 20)})
			if r.Status != http.StatusOK {
				t.Fatalf("transfer: %d %s", r.Status, r.Raw)
			}
			fake.Advance(24 * time.Hour)
			fake.CheckBalance(t, savings.ID, 25_00, 25_00)
			headers := testkit.UserHeaders(fake, fake.OAuthKey(fx.User.ID, testkit.TestFingerprint))
			r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: "/users/" + fx.User.ID, Header: headers,
				Body: map[string]any{"update": map[string]any{"legal_name": "Bea Later", "remove_legal_name": "Ann Original"}}})
			if r.Status != http.StatusOK {
				t.Fatalf("PATCH user: %d %s", r.Status, r.Raw)
			}
			r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID + "/nodes/" + savings.ID, Header: headers})
			if got := r.Body["info"].(map[string]any)["name_on_account"]; got != "Bea Later" {
				t.Fatalf("the node now shows name_on_account %v, want Bea Later: the test changes nothing", got)
			}

			body := created().Body
			if readFirst && !bytes.Equal(body, first) {
				t.Errorf("the webhook changed after it was emitted:\nfirst  %s\nlater  %s", first, body)
			}
			if u := userCreated().Body; readFirst && !bytes.Equal(u, firstUser) {
				t.Errorf("the user's webhook changed after it was emitted:\nfirst  %s\nlater  %s", firstUser, u)
			}
			if names := userCreated().Payload()["_rest"].(map[string]any)["legal_names"]; !cmp.Equal(names, []any{"Ann Original"}) {
				t.Errorf("the user's webhook shows legal_names %v, want [Ann Original] as at its moment", names)
			}
			info, _ := created().Payload()["_rest"].(map[string]any)["info"].(map[string]any)
			want := map[string]any{"nickname": "Before", "balance": map[string]any{"amount": 5.0, "currency": "USD"}, "name_on_account": "Ann Original"}
			for k, w := range want {
				if !cmp.Equal(info[k], w) {
					t.Errorf("info.%s = %v, want %v as at the webhook's moment", k, info[k], w)
				}
			}
			patched := find("NODE|PATCH")
			if got := patched.Payload()["_rest"].(map[string]any)["info"].(map[string]any)["nickname"]; got != "After" {
				t.Errorf("the PATCH webhook shows nickname %v, want After", got)
			}

			// The node's timeline grows after the webhook: it still shows one entry.
			r = testkit.Do(t, fake, testkit.Call{Method: "DELETE", Path: "/users/" + fx.User.ID + "/nodes/" + savings.ID, Header: headers})
			if r.Status != http.StatusOK {
				t.Fatalf("DELETE node: %d %s", r.Status, r.Raw)
			}
			if tl := created().Payload()["_rest"].(map[string]any)["timeline"].([]any); len(tl) != 1 {
				t.Errorf("the NODES|POST webhook shows a timeline of %d entries, want 1 as at its moment: %v", len(tl), tl)
			}
		})
	}
}
