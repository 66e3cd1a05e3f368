package console_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// loadWorldFile loads a file of testdata/worlds into fake.
func loadWorldFile(t testing.TB, fake *synapsefake.Server, name string) synapsefake.World {
	t.Helper()
	f, err := os.Open("../../testdata/worlds/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := fake.LoadWorld(f)
	if err != nil {
		t.Fatalf("LoadWorld(%s): %v", name, err)
	}
	return w
}

// worldUserHeaders are the headers of a call by a world user with an oauth key.
func worldUserHeaders(fake *synapsefake.Server, w synapsefake.World, user string) map[string]string {
	return map[string]string{
		"X-SP-GATEWAY": fake.Gateway(),
		"X-SP-USER":    w.OAuthKeys[user] + "|" + w.Fingerprints[user],
		"X-SP-USER-IP": "127.0.0.1",
	}
}

func TestWorldPerson(t *testing.T) {
	fake := synapsefake.New()
	w := loadWorldFile(t, fake, "person.json")
	now := fake.Now()

	for _, tc := range []struct {
		node               string
		balance, available int64
	}{
		// 1500 + 2400 paycheck - 500 to savings - 1200 rent; the bounced
		// deposit came back, the cancel never moved; 2000 queued and 0.75
		// created are held on the available balance.
		{"checking", 220000, 220000 - 200000 - 75},
		{"savings", 350000, 350000},
		{"bank", -120000, -120000},
	} {
		n, ok := fake.Node(w.Nodes[tc.node])
		if !ok || n.BalanceCents != tc.balance || n.AvailableCents != tc.available {
			t.Errorf("node %s: found %v, balance %d available %d, want %d and %d", tc.node, ok, n.BalanceCents, n.AvailableCents, tc.balance, tc.available)
		}
	}
	for _, tc := range []struct {
		tx     string
		status synapsefake.Status
		code   string
		ago    time.Duration
	}{
		{"paycheck", synapsefake.StatusSettled, "", 14 * 24 * time.Hour},
		{"to savings", synapsefake.StatusSettled, "", 10 * 24 * time.Hour},
		{"rent", synapsefake.StatusSettled, "", 3 * 24 * time.Hour},
		{"bounced deposit", synapsefake.StatusReturned, "R01", 2 * 24 * time.Hour},
		{"changed my mind", synapsefake.StatusCanceled, "", 24 * time.Hour},
		{"big withdrawal", synapsefake.StatusQueuedBySynapse, "Manual review", 0},
		{"round-up", synapsefake.StatusCreated, "", 0},
	} {
		tx, ok := fake.Transaction(w.Transactions[tc.tx])
		if !ok || tx.Status != tc.status || tx.Code != tc.code {
			t.Errorf("transaction %s: found %v, %s %q, want %s %q", tc.tx, ok, tx.Status, tx.Code, tc.status, tc.code)
			continue
		}
		for _, e := range tx.Timeline {
			if want := now.Add(-tc.ago); !e.Date.Equal(want) {
				t.Errorf("transaction %s: timeline %s dated %v, want %v", tc.tx, e.Status, e.Date, want)
			}
		}
	}
	card, ok := fake.Subnet(w.Subnets["debit card"])
	if !ok || card.AccountClass != "CARD" || card.Status != synapsefake.SubnetActive || card.NodeID != w.Nodes["checking"] || card.Nickname != "Alex's debit card" {
		t.Errorf("debit card: found %v, %+v", ok, card)
	}

	// The world's key works over the API, and the API shows the balance.
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + w.Users["alex"] + "/nodes/" + w.Nodes["savings"], Header: worldUserHeaders(fake, w, "alex")})
	info, _ := r.Body["info"].(map[string]any)
	if r.Status != http.StatusOK || fmt.Sprint(info["balance"]) != "map[amount:3500 currency:USD]" || info["nickname"] != "Rainy Day Savings" {
		t.Errorf("GET savings: %d %s", r.Status, r.Raw)
	}
}

// TestWorldPlatformUsers is a table test built from a world: each of the
// platform's 50 customers, checked against the API.
func TestWorldPlatformUsers(t *testing.T) {
	fake := synapsefake.New()
	w := loadWorldFile(t, fake, "platform.json")
	if len(w.Users) != 51 || len(w.Nodes) != 102 {
		t.Fatalf("%d users and %d nodes, want 51 and 102", len(w.Users), len(w.Nodes))
	}
	for u := 1; u <= 50; u++ {
		name := fmt.Sprintf("user%d", u)
		t.Run(name, func(t *testing.T) {
			// $100 opening, four weekly payouts of $u5 and four
			// subscriptions of $u; today's payout is still CREATED.
			wantCents := int64(10000 + 4*(1000*u+500) - 4*100*u)
			id := w.Users[name]
			key := fake.OAuthKey(id, testkit.TestFingerprint)
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + id + "/nodes/" + w.Nodes[name+" checking"], Header: testkit.UserHeaders(fake, key)})
			info, _ := r.Body["info"].(map[string]any)
			bal, _ := info["balance"].(map[string]any)
			if r.Status != http.StatusOK || bal["amount"] != float64(wantCents)/100 {
				t.Errorf("GET checking: %d, balance %v, want %v", r.Status, bal["amount"], float64(wantCents)/100)
			}
			r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + id + "/trans", Header: testkit.UserHeaders(fake, key)})
			if r.Status != http.StatusOK || r.Body["trans_count"] != float64(9+extraTx(u)) {
				t.Errorf("GET trans: %d, trans_count %v, want %d", r.Status, r.Body["trans_count"], 9+extraTx(u))
			}
			payout, _ := fake.Transaction(w.Transactions["payout "+name+" today"])
			if payout.Status != synapsefake.StatusCreated || payout.AmountCents != int64(1000*u+500) {
				t.Errorf("today's payout: %s %d", payout.Status, payout.AmountCents)
			}
		})
	}
	for _, tc := range []struct {
		node               string
		balance, available int64
	}{
		{"operating", 100000000 - 4*1300000, 100000000 - 4*1300000 - 1300000 - 500000},
		{"revenue", 4 * 127500, 4 * 127500},
	} {
		if n, _ := fake.Node(w.Nodes[tc.node]); n.BalanceCents != tc.balance || n.AvailableCents != tc.available {
			t.Errorf("%s: balance %d available %d, want %d and %d", tc.node, n.BalanceCents, n.AvailableCents, tc.balance, tc.available)
		}
	}
}

// extraTx counts the platform's hand-written transactions of customer u.
func extraTx(u int) int {
	switch u {
	case 3, 7, 42:
		return 1
	}
	return 0
}

func TestWorldSameIDs(t *testing.T) {
	for _, file := range []string{"person.json", "platform.json"} {
		t.Run(file, func(t *testing.T) {
			a := loadWorldFile(t, synapsefake.New(synapsefake.WithIDSeed(7)), file)
			b := loadWorldFile(t, synapsefake.New(synapsefake.WithIDSeed(7)), file)
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("same file, same seed, different ids (-first +second):\n%s", diff)
			}
			c := loadWorldFile(t, synapsefake.New(synapsefake.WithIDSeed(8)), file)
			if cmp.Equal(a, c) {
				t.Errorf("seeds 7 and 8 gave the same ids")
			}
		})
	}
}

func TestWorldDates(t *testing.T) {
	fake := synapsefake.New()
	now := fake.Now()
	day := time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		date string
		want time.Time
	}{
		{"", now},
		{"now", now},
		{"-3d", now.Add(-72 * time.Hour)},
		{"-1d12h", now.Add(-36 * time.Hour)},
		{"-90m", now.Add(-90 * time.Minute)},
		{"-2w", now.Add(-14 * 24 * time.Hour)},
		{"-30s", now.Add(-30 * time.Second)},
		{"2020-01-02", day},
		{"-520w", now.Add(-520 * 7 * 24 * time.Hour)},
		{"2020-01-02T03:04:05.006Z", day.Add(3*time.Hour + 4*time.Minute + 5*time.Second + 6*time.Millisecond)},
	} {
		t.Run(tc.date, func(t *testing.T) {
			w, err := fake.LoadWorld(strings.NewReader(`{"users": [{"name": "u", "nodes": [{"name": "a", "balance": 10}, {"name": "b"}]}],
				"transactions": [{"name": "t", "from": "a", "to": "b", "amount": 1, "date": "` + tc.date + `", "status": "SETTLED"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			tx, _ := fake.Transaction(w.Transactions["t"])
			if got := tx.Timeline[0].Date; !got.Equal(tc.want) {
				t.Errorf("created %v, want %v", got, tc.want)
			}
		})
	}
}

func TestWorldSubscriptionsAndOAuth(t *testing.T) {
	fake := synapsefake.New()
	w, err := fake.LoadWorld(strings.NewReader(`{
		"users": [{"name": "sam", "oauth": {"fingerprint": "sam-laptop", "scopes": ["USER|GET"]}}],
		"subscriptions": [{"name": "app", "url": "https://app.example/hooks", "scopes": ["USERS|POST", "TRANS|POST"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if w.Fingerprints["sam"] != "sam-laptop" || !strings.HasPrefix(w.OAuthKeys["sam"], "oauth_") {
		t.Errorf("oauth: key %q fingerprint %q", w.OAuthKeys["sam"], w.Fingerprints["sam"])
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + w.Users["sam"], Header: worldUserHeaders(fake, w, "sam")})
	if r.Status != http.StatusOK || r.Body["_id"] != w.Users["sam"] {
		t.Errorf("GET user with the world's key: %d %s", r.Status, r.Raw)
	}
	r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/subscriptions/" + w.Subscriptions["app"], Header: testkit.GatewayHeaders(fake)})
	if r.Status != http.StatusOK || r.Body["url"] != "https://app.example/hooks" || fmt.Sprint(r.Body["scope"]) != "[USERS|POST TRANS|POST]" {
		t.Errorf("GET subscription: %d %s", r.Status, r.Raw)
	}
}

func TestWorldRefused(t *testing.T) {
	const users = `"users": [{"name": "ann", "nodes": [{"name": "a", "balance": 100}, {"name": "b"}, {"name": "ach", "type": "ACH-US"}]}]`
	for _, tc := range []struct {
		name, world, want string
	}{
		{"bad JSON", `{"users": [`, "Malformed JSON"},
		{"not an object", `[]`, "must be a JSON object"},
		{"unknown top-level field", `{"user": []}`, `Unknown field "user"`},
		{"unknown node field", `{"users": [{"name": "ann", "nodes": [{"name": "a", "balanc": 1}]}]}`, `users[0]: Unknown field "balanc"`},
		{"unknown transaction field", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "staus": "SETTLED"}]}`, `transactions[0]: Unknown field "staus"`},
		{"user without name", `{"users": [{"legal_names": ["X"]}]}`, "users[0]: a user needs a name"},
		{"duplicate user", `{"users": [{"name": "ann"}, {"name": "ann"}]}`, `users[1]: duplicate user name "ann"`},
		{"duplicate node", `{"users": [{"name": "ann", "nodes": [{"name": "a"}]}, {"name": "bob", "nodes": [{"name": "a"}]}]}`, `users[1] "bob": nodes[0]: the node name "a" is taken by users[0] "ann": nodes[0] "a"`},
		{"duplicate subnet", `{"users": [{"name": "ann", "nodes": [{"name": "a", "subnets": [{"name": "c"}, {"name": "c"}]}]}]}`, `duplicate subnet name "c"`},
		{"duplicate transaction", `{` + users + `, "transactions": [{"name": "t", "from": "a", "to": "b", "amount": 1}, {"name": "t", "from": "a", "to": "b", "amount": 1}]}`, `transactions[1] "t": duplicate transaction name "t"`},
		{"unknown reference", `{` + users + `, "transactions": [{"name": "t", "from": "a", "to": "nowhere", "amount": 1}]}`, `transactions[0] "t": to names no node of the world: "nowhere"`},
		{"bad amount: sub-cent", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": "12.345"}]}`, `transactions[0]: amount "12.345" must be dollars`},
		{"bad amount: negative", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": -5}]}`, `transactions[0]: amount "-5" must be dollars`},
		{"bad amount: zero", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 0}]}`, `transactions[0]: amount "0" must be dollars`},
		{"bad amount: not a number", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": true}]}`, `transactions[0]: Malformed JSON`},
		{"bad balance", `{"users": [{"name": "ann", "nodes": [{"name": "a", "balance": "1e3"}]}]}`, `users[0] "ann": nodes[0] "a": balance "1e3" must be dollars`},
		{"unknown node type", `{"users": [{"name": "ann", "nodes": [{"name": "a", "type": "DEPOSIT"}]}]}`, `nodes[0] "a": Unknown node type "DEPOSIT"`},
		{"unknown permission", `{"users": [{"name": "ann", "permission": "ROOT"}]}`, `users[0] "ann": Unknown permission "ROOT"`},
		{"unknown subscription scope", `{"subscriptions": [{"name": "s", "url": "https://x.example", "scopes": ["NOPE"]}]}`, `subscriptions[0] "s": Unknown subscription scope "NOPE"`},
		{"empty subscription scopes", `{"subscriptions": [{"name": "s", "url": "https://x.example", "scopes": []}]}`, `subscriptions[0] "s": scopes, when given, must list at least one scope`},
		{"illegal status", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "status": "SETTLD"}]}`, `transactions[0]: unknown status "SETTLD"`},
		{"returned without code", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "status": "RETURNED"}]}`, `transactions[0]: Unknown return code ""`},
		{"returned with a dishonor's code", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "status": "RETURNED", "code": "R68"}]}`, `transactions[0]: R68 (untimely return) is a dishonored return`},
		{"returned with another rail's code", `{` + users + `, "transactions": [{"name": "t", "from": "a", "to": "ach", "amount": 1, "status": "RETURNED", "code": "IR51"}]}`, `transactions[0] "t": IR51 is a return code of INTERCHANGE-US; transaction`},
		{"returned with a wire's code", `{` + users + `, "transactions": [{"from": "a", "to": "ach", "amount": 1, "status": "RETURNED", "code": "WR01"}]}`, `transactions[0]: WR01 is a return code of WIRE-US`},
		{"code on settled", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "status": "SETTLED", "code": "R01"}]}`, "a code goes only with"},
		{"future date", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "date": "2999-01-01"}]}`, `date "2999-01-01" is in the future`},
		{"bad date", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "date": "3 days ago"}]}`, `date "3 days ago" must be`},
		{"year 1", `{` + users + `, "transactions": [{"name": "t", "from": "a", "to": "b", "amount": 1, "date": "0001-01-01"}]}`, `transactions[0] "t": date "0001-01-01" is more than 10 years before now`},
		{"year 1 in RFC 3339", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "date": "0001-01-01T00:00:00Z"}]}`, `transactions[0]: date "0001-01-01T00:00:00Z" is more than 10 years before now`},
		{"eleven years back", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "date": "-574w"}]}`, `transactions[0]: date "-574w" is more than 10 years before now`},
		{"an offset that would overflow", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "date": "-36600w"}]}`, `date "-36600w" is more than 10 years before now`},
		{"offsets that add up too far", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1, "date": "-3000d3000d"}]}`, `date "-3000d3000d" is more than 10 years before now`},
		{"a later entry dated too far back", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 1}, {"repeat": {"y": 2}, "from": "a", "to": "b", "amount": 1, "date": "20{y}5-06-01"}]}`, `transactions[1] (y=1): date "2015-06-01" is more than 10 years before now`},
		{"insufficient funds", `{` + users + `, "transactions": [{"name": "big", "from": "a", "to": "b", "amount": 101, "status": "SETTLED"}]}`, `transactions[0] "big": Insufficient funds in node "a".`},
		{"types that may not trade", `{"users": [{"name": "ann", "nodes": [{"name": "x", "type": "ACH-US"}, {"name": "y", "type": "ACH-US"}]}], "transactions": [{"name": "t", "from": "x", "to": "y", "amount": 1}]}`, `transactions[0] "t": Transactions from a ACH-US node to a ACH-US node are not allowed`},
		{"locked user", `{"users": [{"name": "ann", "permission": "LOCKED", "nodes": [{"name": "a", "balance": 5}, {"name": "b"}]}], "transactions": [{"name": "t", "from": "a", "to": "b", "amount": 1}]}`, `transactions[0] "t": User "ann" has permission LOCKED`},
		{"card on an ACH node", `{"users": [{"name": "ann", "nodes": [{"name": "x", "type": "ACH-US", "subnets": [{"name": "c", "account_class": "CARD"}]}]}]}`, `subnets[0] "c": Subnets can only be issued`},
		{"past CREATED already due", `{` + users + `, "transactions": [{"name": "t", "from": "ach", "to": "a", "amount": 1, "date": "-7d"}]}`, `transactions[0] "t": declared CREATED, but by now the clock has moved it to `},
		{"later entry breaks a rule", `{` + users + `, "transactions": [{"from": "a", "to": "b", "amount": 60, "date": "-2d", "status": "SETTLED"}, {"name": "second", "from": "a", "to": "b", "amount": 60, "date": "-1d", "status": "SETTLED"}]}`, `transactions[1] "second"`},
		{"bad repeat", `{"users": [{"repeat": {"u": 0}, "name": "u{u}"}]}`, "users[0]: repeat must be an object"},
		{"unknown placeholder", `{"users": [{"repeat": {"u": 2}, "name": "u{v}"}]}`, "users[0]: unknown placeholder {v} (repeat defines u)"},
		{"repeat copy breaks a rule", `{"users": [{"repeat": {"u": 3}, "name": "u{u}", "nodes": [{"name": "n{u}", "balance": "{u}"}, {"name": "m{u}"}]}], "transactions": [{"repeat": {"u": 3}, "from": "n{u}", "to": "m{u}", "amount": "2", "status": "SETTLED"}]}`, "transactions[0] (u=1)"},
		{"too many objects", `{"users": [{"repeat": {"u": 200, "v": 200}, "name": "u{u}-{v}"}]}`, "at most 20000 objects"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := synapsefake.New()
			_, err := fake.LoadWorld(strings.NewReader(tc.world))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "invalid_world (error_code 200, http 400)") {
				t.Fatalf("LoadWorld: %v, want an invalid_world error containing %q", err, tc.want)
			}
			wantWorldUnchanged(t, fake)
		})
	}
}

// wantWorldUnchanged checks that fake holds nothing and that its id stream is
// where a fresh server's is.
func wantWorldUnchanged(t *testing.T, fake *synapsefake.Server) {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users", Header: testkit.GatewayHeaders(fake)})
	if r.Body["users_count"] != float64(0) {
		t.Errorf("after a refused world, GET /users counts %v users", r.Body["users_count"])
	}
	if n := len(fake.Webhooks().All()); n != 0 {
		t.Errorf("after a refused world, %d webhooks were captured", n)
	}
	if got, want := fake.MustAddUser(t, synapsefake.UserSeed{}).ID, synapsefake.New().MustAddUser(t, synapsefake.UserSeed{}).ID; got != want {
		t.Errorf("after a refused world, the next id is %s, want a fresh server's %s", got, want)
	}
}

func TestWorldOverHTTP(t *testing.T) {
	data, err := os.ReadFile("../../testdata/worlds/person.json")
	if err != nil {
		t.Fatal(err)
	}
	fake := synapsefake.NewServer(t)
	body := testkit.CtlOK(t, fake, "POST", "/world", string(data))
	want := loadWorldFile(t, synapsefake.New(), "person.json")
	wantBody := map[string]any{"success": true, "world": ctlNormalize(t, want)}
	if diff := cmp.Diff(wantBody, body); diff != "" {
		t.Errorf("POST /_fake/world (-want +got):\n%s", diff)
	}
	if n, _ := fake.Node(want.Nodes["checking"]); n.BalanceCents != 220000 {
		t.Errorf("checking balance %d, want 220000", n.BalanceCents)
	}

	for _, tc := range []struct {
		name, method, body string
		status             int
		errorCode, code    string
	}{
		{"bad JSON", "POST", `{"users": `, http.StatusBadRequest, "200", "invalid_world"},
		{"unknown field", "POST", `{"users": [{"name": "x", "emial": "x@example.com"}]}`, http.StatusBadRequest, "200", "invalid_world"},
		{"rule broken", "POST", `{"users": [{"name": "x", "nodes": [{"name": "a"}, {"name": "b"}]}], "transactions": [{"from": "a", "to": "b", "amount": 1}]}`, http.StatusBadRequest, "200", "invalid_world"},
		{"wrong method", "GET", "", http.StatusMethodNotAllowed, "410", "method_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fresh := synapsefake.NewServer(t)
			testkit.WantError(t, testkit.Ctl(t, fresh, tc.method, "/world", tc.body), tc.status, tc.errorCode, tc.code)
			wantWorldUnchanged(t, fresh)
		})
	}
}

// BenchmarkLoadWorld loads each example into a fresh server; the scratch
// load that makes a refusal change nothing is included.
func BenchmarkLoadWorld(b *testing.B) {
	for _, file := range []string{"person.json", "platform.json"} {
		data, err := os.ReadFile("../../testdata/worlds/" + file)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(file, func(b *testing.B) {
			for b.Loop() {
				if _, err := synapsefake.New().LoadWorld(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestWorldNodesPrecedeTransactions: a world's users, nodes and subnets are
// made at its earliest transaction date, so no transaction precedes its
// nodes and a node's opening balance comes before its history; a world
// without past transactions makes them now, and its OAuth keys are minted
// now either way.
func TestWorldNodesPrecedeTransactions(t *testing.T) {
	t.Parallel()
	const nodes = `"users": [{"name": "ann", "oauth": {"fingerprint": "ann-phone"}, "nodes": [
		{"name": "a", "balance": 100, "subnets": [{"name": "card", "account_class": "CARD"}]}, {"name": "b"}]}]`
	for _, tc := range []struct {
		name  string
		txs   string
		start time.Duration // before now
	}{
		{"back-dated transactions", `[{"from": "b", "to": "a", "amount": 1, "date": "-3d", "status": "SETTLED"},
			{"from": "a", "to": "b", "amount": 1, "date": "-14d", "status": "SETTLED"}, {"from": "a", "to": "b", "amount": 1}]`, 14 * 24 * time.Hour},
		{"a day", `[{"from": "a", "to": "b", "amount": 1, "date": "-1d", "status": "SETTLED"}]`, 24 * time.Hour},
		{"only now", `[{"from": "a", "to": "b", "amount": 1}]`, 0},
		{"no transactions", `[]`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.New()
			start := fake.Now().Add(-tc.start)
			w, err := fake.LoadWorld(strings.NewReader(`{` + nodes + `, "transactions": ` + tc.txs + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if u, _ := fake.User(w.Users["ann"]); !u.CreatedOn.Equal(start) {
				t.Errorf("user created %v, want %v", u.CreatedOn, start)
			}
			headers := worldUserHeaders(fake, w, "ann")
			for _, name := range []string{"a", "b"} {
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + w.Users["ann"] + "/nodes/" + w.Nodes[name], Header: headers})
				timeline, _ := r.Body["timeline"].([]any)
				if r.Status != http.StatusOK || len(timeline) == 0 {
					t.Fatalf("GET node %s: %d %s", name, r.Status, r.Raw)
				}
				if got := testkit.CtlObj(timeline[0])["date"]; got != float64(start.UnixMilli()) {
					t.Errorf("node %s created %v, want %d", name, got, start.UnixMilli())
				}
			}
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + w.Users["ann"] + "/nodes/" + w.Nodes["a"] + "/subnets/" + w.Subnets["card"], Header: headers})
			if got := r.Body["created_on"]; r.Status != http.StatusOK || got != float64(start.UnixMilli()) {
				t.Errorf("card: %d, created_on %v, want %d", r.Status, got, start.UnixMilli())
			}
			r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + w.Users["ann"] + "/nodes/" + w.Nodes["a"] + "/trans", Header: headers})
			for _, tx := range r.Body["trans"].([]any) {
				created := testkit.CtlObj(testkit.CtlObj(tx)["extra"])["created_on"].(float64)
				if created < float64(start.UnixMilli()) {
					t.Errorf("transaction %v created %v, before its nodes (%d)", testkit.CtlObj(tx)["_id"], created, start.UnixMilli())
				}
			}
		})
	}
	t.Run("refused over HTTP", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		r := testkit.Ctl(t, fake, "POST", "/world", `{`+nodes+`, "transactions": [{"name": "ancient", "from": "a", "to": "b", "amount": 1, "date": "0001-01-01", "status": "SETTLED"}]}`)
		testkit.WantError(t, r, http.StatusBadRequest, "200", "invalid_world")
		if msg := testkit.CtlStr(testkit.CtlObj(r.Body["error"])["en"]); !strings.HasPrefix(msg, `transactions[0] "ancient": date "0001-01-01" is more than 10 years before now`) {
			t.Errorf("message %q does not name the entry and the rule", msg)
		}
		wantWorldUnchanged(t, fake)
	})
}

// TestWorldStatementsAfterARequest: a world whose nodes date from months back
// gets their monthly statements, the months since then each, even when the
// server answered a request before the world was loaded (the first look for
// monthly statements waits for a node that could have one).
func TestWorldStatementsAfterARequest(t *testing.T) {
	fake := synapsefake.NewServer(t)
	if r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users", Header: testkit.GatewayHeaders(fake)}); r.Status != http.StatusOK {
		t.Fatalf("GET /users: %d %s", r.Status, r.Raw)
	}
	w, err := fake.LoadWorld(strings.NewReader(`{
		"users": [{"name": "alex", "nodes": [
			{"name": "checking", "nickname": "Checking", "balance": "100.00"},
			{"name": "bank", "type": "ACH-US", "nickname": "Bank", "account_num": "123456789", "routing_num": "021000021"}
		]}],
		"transactions": [{"from": "bank", "to": "checking", "amount": 5, "date": "-90d", "status": "SETTLED"}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	fake.Advance(time.Second)
	var got []string
	for _, s := range fake.Statements(w.Nodes["checking"]) {
		got = append(got, s.Start.UTC().Format("2006-01-02")+".."+s.End.UTC().Format("2006-01-02"))
	}
	// The nodes date from 2026-01-14 (90 days before the default start):
	// the statements of January and February, made on the 15ths since.
	want := []string{"2026-01-01..2026-01-31", "2026-02-01..2026-02-28"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("monthly statements of a world node loaded after a request (-want +got):\n%s", diff)
	}
}
