package api_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// validRouting passes the ABA checksum (3,7,1 weights sum to 50).
const validRouting = "051000017"

// nodeAgreementURL is the agreement every deposit-type node carries.
const nodeAgreementURL = "https://synapsefake.invalid/agreements/NODE_AGREEMENT.pdf"

// nodeStore is the inspectable state of some users and of their nodes,
// compared before and after a refused call.
type nodeStore struct {
	Users map[string]synapsefake.User
	Nodes map[string]synapsefake.Node
}

// inspectNodes copies the users and every node they list, plus extra node
// ids (deleted nodes leave the user's list).
func inspectNodes(t testing.TB, fake *synapsefake.Server, userIDs []string, nodeIDs ...string) nodeStore {
	t.Helper()
	s := nodeStore{Users: map[string]synapsefake.User{}, Nodes: map[string]synapsefake.Node{}}
	for _, id := range userIDs {
		u, ok := fake.User(id)
		if !ok {
			t.Fatalf("User(%s) not found", id)
		}
		s.Users[id] = u
		nodeIDs = append(nodeIDs, u.NodeIDs...)
	}
	for _, id := range nodeIDs {
		n, ok := fake.Node(id)
		if !ok {
			t.Fatalf("Node(%s) not found", id)
		}
		s.Nodes[id] = n
	}
	return s
}

// wantUnchanged fails the test when the store moved since before.
func wantUnchanged(t testing.TB, fake *synapsefake.Server, before nodeStore) {
	t.Helper()
	ids := slices.Collect(maps.Keys(before.Users))
	after := inspectNodes(t, fake, ids, slices.Collect(maps.Keys(before.Nodes))...)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("store changed by a refused call (-before +after):\n%s", diff)
	}
}

// wantErrorStatus is wantError plus the rule that the HTTP status equals the
// body's http_code.
func wantErrorStatus(t testing.TB, r testkit.Response, status int, errorCode, code string) {
	t.Helper()
	testkit.WantError(t, r, status, errorCode, code)
	if hc := r.Body["http_code"]; hc != fmt.Sprint(r.Status) {
		t.Errorf("http_code %v differs from the HTTP status %d", hc, r.Status)
	}
}

// wantNodeJSON is the wire form the spec's FIDELITY.md gives a node just created by the
// fake for a user with default legal names: one timeline entry, no note,
// balance 0 USD, allowed CREDIT-AND-DEBIT. Callers adjust it with setPath.
func wantNodeJSON(fake *synapsefake.Server, userID, nodeID, typ, nickname string) map[string]any {
	agreements := []any{}
	switch typ {
	case "DEPOSIT-US", "IC-DEPOSIT-US", "SUBACCOUNT-US":
		agreements = []any{map[string]any{"type": "NODE_AGREEMENT", "url": nodeAgreementURL}}
	}
	info := map[string]any{
		"agreements":      agreements,
		"balance":         map[string]any{"amount": 0.0, "currency": "USD"},
		"bank_code":       "EBT",
		"document_id":     nil,
		"name_on_account": "Test User",
		"nickname":        nickname,
	}
	return map[string]any{
		"_id":                 nodeID,
		"_links":              map[string]any{"self": map[string]any{"href": fake.URL() + "/users/" + userID + "/nodes/" + nodeID}},
		"allowed":             "CREDIT-AND-DEBIT",
		"allowed_status_code": nil,
		"client":              map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
		"extra":               map[string]any{"note": nil, "other": map[string]any{}, "supp_id": ""},
		"info":                info,
		"is_active":           true,
		"timeline":            []any{timelineEntry(fake.Now(), "Node created.")},
		"type":                typ,
		"user_id":             userID,
	}
}

// achInfo gives an expected node the ACH-US info and extra.other of the
// recorded sandbox answers, for an account at routing number validRouting.
func achInfo(node map[string]any, accountLast4, routingLast4, typ, class string) {
	setPath(node, "info", map[string]any{
		"account_num":     accountLast4,
		"address":         "8001 VILLA PARK DRIVE, HENRICO, VA, US",
		"balance":         map[string]any{"amount": "0.00", "currency": "USD"},
		"bank_logo":       "https://synapsefake.invalid/bank_logos/bofa.png",
		"bank_long_name":  "BANK OF AMERICA",
		"bank_name":       "BANK OF AMERICA",
		"class":           class,
		"match_info":      map[string]any{"email_match": "not_found", "name_match": "not_found", "phonenumber_match": "not_found"},
		"name_on_account": getPath(node, "info.name_on_account"),
		"nickname":        getPath(node, "info.nickname"),
		"routing_num":     routingLast4,
		"type":            typ,
	})
	setPath(node, "extra.other", map[string]any{"access_token": nil, "updated_on": nil})
}

func timelineEntry(at time.Time, note string) map[string]any {
	return map[string]any{"date": float64(at.UnixMilli()), "note": note}
}

// setPath sets a value at a dotted path of nested objects.
func setPath(m map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		m = m[k].(map[string]any)
	}
	m[keys[len(keys)-1]] = v
}

// getPath reads a value at a dotted path of nested objects.
func getPath(m map[string]any, path string) any {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		m, _ = m[k].(map[string]any)
	}
	return m[keys[len(keys)-1]]
}

func withSuccess(m map[string]any) map[string]any {
	out := maps.Clone(m)
	out["success"] = true
	return out
}

// nodesWrapper is the list wrapper of GET and POST /users/{id}/nodes; page
// is left out when it is 0 (the create answer).
func nodesWrapper(limit, page, pageCount, nodeCount int, nodes ...any) map[string]any {
	if nodes == nil {
		nodes = []any{}
	}
	w := map[string]any{
		"error_code": "0",
		"http_code":  "200",
		"limit":      float64(limit),
		"node_count": float64(nodeCount),
		"nodes":      nodes,
		"page_count": float64(pageCount),
		"success":    true,
	}
	if page > 0 {
		w["page"] = float64(page)
	}
	return w
}

// otherUser seeds a second user with a node and a key holding every scope.
func otherUser(t testing.TB, fake *synapsefake.Server) testkit.Fixture {
	t.Helper()
	return testkit.NewFixture(t, fake, 0)
}

func TestCreateNode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		body   map[string]any
		typ    string
		suppID string
		edit   func(node map[string]any)
	}{
		{
			name: "DEPOSIT-US",
			body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Spending"}},
			typ:  "DEPOSIT-US",
		},
		{
			name: "INTERCHANGE-US",
			body: map[string]any{"type": "INTERCHANGE-US", "info": map[string]any{"nickname": "Spending",
				"card_number": "4111111111111111", "exp_date": "202812", "document_id": "doc-1"}},
			typ: "INTERCHANGE-US",
			edit: func(n map[string]any) {
				setPath(n, "info", map[string]any{"balance": map[string]any{"amount": 0.0, "currency": "USD"},
					"card_hash": "9bbef19476623ca56c17da75fd57734dbf82530686043a6e491c6d71befe8f6e", "card_number": "1111",
					"document_id": "doc-1", "is_international": false, "name_on_account": "Test User", "network": "VISA",
					"nickname": "Spending", "type": "DEBIT"})
			},
		},
		{
			name: "IC-DEPOSIT-US",
			body: map[string]any{"type": "IC-DEPOSIT-US", "info": map[string]any{"nickname": "Spending"}},
			typ:  "IC-DEPOSIT-US",
		},
		{
			name: "EXTERNAL-US",
			body: map[string]any{"type": "EXTERNAL-US", "info": map[string]any{"nickname": "Spending"}},
			typ:  "EXTERNAL-US",
		},
		{
			name: "SUBACCOUNT-US",
			body: map[string]any{"type": "SUBACCOUNT-US", "info": map[string]any{"nickname": "Spending"}},
			typ:  "SUBACCOUNT-US",
		},
		{
			name: "ACH-US personal checking shows the last four digits",
			body: map[string]any{"type": "ACH-US", "info": map[string]any{
				"nickname": "Spending", "account_num": "123456789", "routing_num": validRouting,
				"type": "PERSONAL", "class": "CHECKING",
			}},
			typ:  "ACH-US",
			edit: func(n map[string]any) { achInfo(n, "6789", "0017", "PERSONAL", "CHECKING") },
		},
		{
			name: "ACH-US business savings",
			body: map[string]any{"type": "ACH-US", "info": map[string]any{
				"nickname": "Spending", "account_num": "0000123456789012", "routing_num": validRouting,
				"type": "BUSINESS", "class": "SAVINGS",
			}},
			typ:  "ACH-US",
			edit: func(n map[string]any) { achInfo(n, "9012", "0017", "BUSINESS", "SAVINGS") },
		},
		{
			name: "ACH-US without type and class is personal checking",
			body: map[string]any{"type": "ACH-US", "info": map[string]any{
				"nickname": "Spending", "account_num": "1234", "routing_num": validRouting,
			}},
			typ:  "ACH-US",
			edit: func(n map[string]any) { achInfo(n, "1234", "0017", "PERSONAL", "CHECKING") },
		},
		{
			name: "extra supp_id, note and other are kept",
			body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Spending"},
				"extra": map[string]any{"supp_id": "my-ref-1", "note": "rent", "other": map[string]any{"k": "v"}}},
			typ:    "DEPOSIT-US",
			suppID: "my-ref-1",
			edit: func(n map[string]any) {
				setPath(n, "extra", map[string]any{"note": "rent", "other": map[string]any{"k": "v"}, "supp_id": "my-ref-1"})
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)

			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: tc.body})
			if r.Status != 200 {
				t.Fatalf("status %d, want 200; body %s", r.Status, r.Raw)
			}
			nodes, _ := r.Body["nodes"].([]any)
			if len(nodes) != 1 {
				t.Fatalf("nodes %v, want one node", r.Body["nodes"])
			}
			id, _ := nodes[0].(map[string]any)["_id"].(string)
			node := wantNodeJSON(fake, fx.User.ID, id, tc.typ, "Spending")
			if tc.edit != nil {
				tc.edit(node)
			}
			if diff := cmp.Diff(nodesWrapper(20, 0, 1, 1, node), r.Body); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s", diff)
			}
			if len(id) != 24 {
				t.Errorf("_id %q is not 24 characters", id)
			}

			got, ok := fake.Node(id)
			if !ok {
				t.Fatalf("Node(%s) not found after create", id)
			}
			want := synapsefake.Node{ID: id, UserID: fx.User.ID, Type: tc.typ, Nickname: "Spending",
				Allowed: synapsefake.AllowedCreditAndDebit, Currency: "USD", IsActive: true, SuppID: tc.suppID}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("stored node mismatch (-want +got):\n%s", diff)
			}
			u, _ := fake.User(fx.User.ID)
			if diff := cmp.Diff([]string{fx.Node.ID, id}, u.NodeIDs); diff != "" {
				t.Errorf("user NodeIDs mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCreateNodeErrors(t *testing.T) {
	t.Parallel()
	deposit := map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Spending"}}
	ach := func(account, routing any) map[string]any {
		info := map[string]any{"nickname": "Ext", "type": "PERSONAL", "class": "CHECKING"}
		if account != nil {
			info["account_num"] = account
		}
		if routing != nil {
			info["routing_num"] = routing
		}
		return map[string]any{"type": "ACH-US", "info": info}
	}
	type env struct {
		fake  *synapsefake.Server
		fx    testkit.Fixture
		other testkit.Fixture
	}
	for _, tc := range []struct {
		name      string
		body      any
		header    func(e env) map[string]string // nil: the fixture's headers
		before    func(e env)                   // runs before the call
		status    int
		errorCode string
		code      string
	}{
		{name: "missing type", body: map[string]any{"info": map[string]any{"nickname": "x"}},
			status: 400, errorCode: "200", code: "missing_type"},
		{name: "empty type", body: map[string]any{"type": "", "info": map[string]any{"nickname": "x"}},
			status: 400, errorCode: "200", code: "missing_type"},
		{name: "unknown type", body: map[string]any{"type": "SAVINGS-US", "info": map[string]any{"nickname": "x"}},
			status: 400, errorCode: "200", code: "invalid_node_type"},
		{name: "WIRE-US without its account", body: map[string]any{"type": "WIRE-US", "info": map[string]any{"nickname": "x"}},
			status: 400, errorCode: "200", code: "missing_info"},
		{name: "missing info", body: map[string]any{"type": "DEPOSIT-US"},
			status: 400, errorCode: "200", code: "missing_nickname"},
		{name: "missing info.nickname", body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{}},
			status: 400, errorCode: "200", code: "missing_nickname"},
		{name: "ACH-US missing account_num", body: ach(nil, validRouting),
			status: 400, errorCode: "200", code: "invalid_account_num"},
		// An account_num of other characters or length, an unknown info.type
		// or info.class are taken (TestContractRulesTheSandboxTook); a
		// routing_num of another form is an unknown bank.
		{name: "ACH-US missing routing_num", body: ach("123456789", nil),
			status: 400, errorCode: "200", code: "invalid_routing_num"},
		{name: "ACH-US non-digit routing_num", body: ach("123456789", "05100001X"),
			status: 409, errorCode: "400", code: "unknown_routing_number"},
		{name: "ACH-US routing_num of 8 digits", body: ach("123456789", "05100001"),
			status: 409, errorCode: "400", code: "unknown_routing_number"},
		{name: "ACH-US bad routing checksum", body: ach("123456789", "051000018"),
			status: 409, errorCode: "400", code: "unknown_routing_number"},
		{name: "ACH-US another bad routing checksum", body: ach("123456789", "123456789"),
			status: 409, errorCode: "400", code: "unknown_routing_number"},
		{name: "malformed JSON", body: `{"type":"DEPOSIT-US",`,
			status: 400, errorCode: "200", code: "invalid_json"},
		{name: "array body", body: `[{"type":"DEPOSIT-US"}]`,
			status: 400, errorCode: "200", code: "invalid_json"},
		{name: "empty body", body: "",
			status: 400, errorCode: "200", code: "invalid_json"},
		{name: "type is a number", body: map[string]any{"type": 5, "info": map[string]any{"nickname": "x"}},
			status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "info is a string", body: map[string]any{"type": "DEPOSIT-US", "info": "x"},
			status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "nickname is a number", body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": 7}},
			status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "ACH-US account_num is a number", body: ach(123456789, validRouting),
			status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "key without NODES|POST", body: deposit,
			header: func(e env) map[string]string {
				return testkit.UserHeaders(e.fake, e.fake.OAuthKey(e.fx.User.ID, testkit.TestFingerprint, "NODES|GET", "NODE|PATCH"))
			},
			status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "another user's key", body: deposit,
			header: func(e env) map[string]string { return e.other.Headers },
			status: 401, errorCode: "300", code: "unauthorized_user"},
		{name: "expired key", body: deposit,
			before: func(e env) { e.fake.Advance(7200 * time.Second) },
			status: 401, errorCode: "110", code: "invalid_oauth_key"},
		{name: "unknown key", body: deposit,
			header: func(e env) map[string]string {
				return testkit.UserHeaders(e.fake, "oauth_0000000000000000000000000000000000000000")
			},
			status: 401, errorCode: "110", code: "invalid_oauth_key"},
		{name: "fingerprint differs from the key's", body: deposit,
			header: func(e env) map[string]string {
				h := maps.Clone(e.fx.Headers)
				h["X-SP-USER"] = e.fx.Key + "|another-device"
				return h
			},
			status: 401, errorCode: "120", code: "unauthorized_fingerprint"},
		{name: "missing X-SP-USER", body: deposit,
			header: func(e env) map[string]string {
				h := maps.Clone(e.fx.Headers)
				delete(h, "X-SP-USER")
				return h
			},
			status: 400, errorCode: "200", code: "missing_user_credentials"},
		{name: "missing X-SP-USER-IP", body: deposit,
			header: func(e env) map[string]string {
				h := maps.Clone(e.fx.Headers)
				delete(h, "X-SP-USER-IP")
				return h
			},
			status: 400, errorCode: "200", code: "missing_user_ip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			e := env{fake: fake, fx: testkit.NewFixture(t, fake, 0), other: otherUser(t, fake)}
			hdr := e.fx.Headers
			if tc.header != nil {
				hdr = tc.header(e)
			}
			if tc.before != nil {
				tc.before(e)
			}
			before := inspectNodes(t, fake, []string{e.fx.User.ID, e.other.User.ID})

			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(e.fx.User.ID), Header: hdr, Body: tc.body})
			wantErrorStatus(t, r, tc.status, tc.errorCode, tc.code)
			wantUnchanged(t, fake, before)
		})
	}
}

func TestOAuthKeyLivesJustUnder7200Seconds(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	fake.Advance(7199 * time.Second)
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers})
	if r.Status != 200 {
		t.Fatalf("after 7199 s: status %d, want 200; body %s", r.Status, r.Raw)
	}
	fake.Advance(time.Second)
	r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers})
	wantErrorStatus(t, r, 401, "110", "invalid_oauth_key")
	if got := getPath(r.Body, "error.en"); got != "Invalid/expired oauth_key." {
		t.Errorf("error.en %q, want %q", got, "Invalid/expired oauth_key.")
	}
}

func TestListNodes(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 2500)
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers})
	node := wantNodeJSON(fake, fx.User.ID, fx.Node.ID, "DEPOSIT-US", "Checking")
	setPath(node, "info.balance.amount", 25.0)
	if diff := cmp.Diff(nodesWrapper(20, 1, 1, 1, node), r.Body); diff != "" {
		t.Errorf("answer mismatch (-want +got):\n%s", diff)
	}
}

func TestListNodesPaging(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	for i := range 44 {
		fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: fmt.Sprintf("Node %d", i)})
	}
	u, _ := fake.User(fx.User.ID)
	all := u.NodeIDs
	if len(all) != 45 {
		t.Fatalf("user has %d nodes, want 45", len(all))
	}
	for _, tc := range []struct {
		query     string
		page      int
		limit     int
		pageCount int
		ids       []string
	}{
		{"", 1, 20, 3, all[0:20]},
		{"?page=1", 1, 20, 3, all[0:20]},
		{"?page=2", 2, 20, 3, all[20:40]},
		{"?page=3", 3, 20, 3, all[40:45]},
		{"?page=4", 4, 20, 3, nil},
		{"?per_page=50&page=2", 2, 20, 3, all[20:40]},
		{"?per_page=10&page=5", 5, 10, 5, all[40:45]},
		{"?page=2&per_page=7", 2, 7, 7, all[7:14]},
	} {
		t.Run(tc.query, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodesPath(fx.User.ID) + tc.query, Header: fx.Headers})
			var gotIDs []string
			nodes, _ := r.Body["nodes"].([]any)
			for _, n := range nodes {
				gotIDs = append(gotIDs, n.(map[string]any)["_id"].(string))
			}
			if diff := cmp.Diff(tc.ids, gotIDs); diff != "" {
				t.Errorf("node ids mismatch (-want +got):\n%s", diff)
			}
			r.Body["nodes"] = []any{}
			if diff := cmp.Diff(nodesWrapper(tc.limit, tc.page, tc.pageCount, 45), r.Body); diff != "" {
				t.Errorf("wrapper mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestListNodesTypeFilter(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	var ach []string
	for i, typ := range []string{"ACH-US", "EXTERNAL-US", "ACH-US", "SUBACCOUNT-US", "ACH-US"} {
		n := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Type: typ, Nickname: fmt.Sprint("n", i),
			AccountNum: "123456789", RoutingNum: validRouting})
		if typ == "ACH-US" {
			ach = append(ach, n.ID)
		}
	}
	for _, tc := range []struct {
		typ  string
		want []string
	}{
		{"ACH-US", ach},
		{"DEPOSIT-US", []string{fx.Node.ID}},
		{"WIRE-US", nil},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodesPath(fx.User.ID) + "?type=" + tc.typ, Header: fx.Headers})
			var got []string
			nodes, _ := r.Body["nodes"].([]any)
			for _, n := range nodes {
				m := n.(map[string]any)
				got = append(got, m["_id"].(string))
				if m["type"] != tc.typ {
					t.Errorf("node %s has type %v, want %s", m["_id"], m["type"], tc.typ)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("node ids mismatch (-want +got):\n%s", diff)
			}
			pages := 0
			if len(tc.want) > 0 {
				pages = 1
			}
			r.Body["nodes"] = []any{}
			if diff := cmp.Diff(nodesWrapper(20, 1, pages, len(tc.want)), r.Body); diff != "" {
				t.Errorf("wrapper mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestListNodesErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		query     string
		scopes    []string
		status    int
		errorCode string
		code      string
	}{
		{"page zero", "?page=0", nil, 400, "200", "invalid_page"},
		{"negative page", "?page=-1", nil, 400, "200", "invalid_page"},
		{"page not an integer", "?page=two", nil, 400, "200", "invalid_page"},
		{"per_page zero", "?per_page=0", nil, 400, "200", "invalid_per_page"},
		{"per_page not an integer", "?per_page=1.5", nil, 400, "200", "invalid_per_page"},
		{"key without NODES|GET", "", []string{"NODES|POST", "NODE|GET"}, 401, "300", "scope_not_granted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0, tc.scopes...)
			before := inspectNodes(t, fake, []string{fx.User.ID})
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodesPath(fx.User.ID) + tc.query, Header: fx.Headers})
			wantErrorStatus(t, r, tc.status, tc.errorCode, tc.code)
			wantUnchanged(t, fake, before)
		})
	}
}

func TestGetNode(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	ach := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank",
		AccountNum: "9876543210", RoutingNum: validRouting, SuppID: "ext-1"})
	achWant := wantNodeJSON(fake, fx.User.ID, ach.ID, "ACH-US", "Bank")
	achInfo(achWant, "3210", "0017", "PERSONAL", "CHECKING")
	setPath(achWant, "extra.supp_id", "ext-1")
	for _, tc := range []struct {
		name string
		id   string
		want map[string]any
	}{
		{"DEPOSIT-US", fx.Node.ID, wantNodeJSON(fake, fx.User.ID, fx.Node.ID, "DEPOSIT-US", "Checking")},
		{"ACH-US", ach.ID, achWant},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodePath(fx.User.ID, tc.id), Header: fx.Headers})
			if diff := cmp.Diff(withSuccess(tc.want), r.Body); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s", diff)
			}
			if r.Status != 200 {
				t.Errorf("status %d, want 200", r.Status)
			}
		})
	}
}

func TestNodeBalanceAmount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cents int64
		want  float64
		raw   string
	}{
		{1234, 12.34, `"amount":12.34`},
		{0, 0, `"amount":0,`},
		{5, 0.05, `"amount":0.05`},
		{100, 1, `"amount":1,`},
		{-250, -2.5, `"amount":-2.5`},
		{123456789, 1234567.89, `"amount":1234567.89`},
	} {
		t.Run(fmt.Sprint(tc.cents), func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, tc.cents)
			if fx.Node.BalanceCents != tc.cents {
				t.Errorf("AddNode BalanceCents %d, want %d", fx.Node.BalanceCents, tc.cents)
			}
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers})
			want := map[string]any{"amount": tc.want, "currency": "USD"}
			if diff := cmp.Diff(want, getPath(r.Body, "info.balance")); diff != "" {
				t.Errorf("info.balance mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(string(r.Raw), tc.raw) {
				t.Errorf("body does not hold %s: %s", tc.raw, r.Raw)
			}
		})
	}
}

func TestPatchNode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		body     any
		nickname string // stored and shown nickname afterwards
		suppID   string
		note     any // extra.note afterwards
	}{
		{"nickname", map[string]any{"nickname": "Savings"}, "Savings", "", nil},
		{"supp_id", map[string]any{"supp_id": "ref-9"}, "Checking", "ref-9", nil},
		{"info.nickname", map[string]any{"info": map[string]any{"nickname": "Rainy day"}}, "Rainy day", "", nil},
		{"extra supp_id and note", map[string]any{"extra": map[string]any{"supp_id": "ref-2", "note": "joint"}}, "Checking", "ref-2", "joint"},
		{"everything at once", map[string]any{"nickname": "A", "supp_id": "s", "extra": map[string]any{"note": "n"}}, "A", "s", "n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: tc.body})
			want := wantNodeJSON(fake, fx.User.ID, fx.Node.ID, "DEPOSIT-US", tc.nickname)
			setPath(want, "extra.supp_id", tc.suppID)
			setPath(want, "extra.note", tc.note)
			if diff := cmp.Diff(withSuccess(want), r.Body); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s", diff)
			}
			got, _ := fake.Node(fx.Node.ID)
			wantNode := fx.Node
			wantNode.Nickname, wantNode.SuppID = tc.nickname, tc.suppID
			if diff := cmp.Diff(wantNode, got); diff != "" {
				t.Errorf("stored node mismatch (-want +got):\n%s", diff)
			}
			// GET shows the same node as the PATCH answer.
			g := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers})
			if diff := cmp.Diff(r.Body, g.Body); diff != "" {
				t.Errorf("GET after PATCH differs from the PATCH answer (-patch +get):\n%s", diff)
			}
		})
	}
}

// nodeErrorCase is one refused call on /users/{uid}/nodes/{nid}.
type nodeErrorCase struct {
	name      string
	method    string
	body      any
	scopes    []string                               // key scopes, all when nil
	target    func(fx, other testkit.Fixture) string // the path; the fixture's node when nil
	status    int
	errorCode string
	code      string
}

func runNodeErrorCases(t *testing.T, cases []nodeErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0, tc.scopes...)
			other := otherUser(t, fake)
			path := testkit.NodePath(fx.User.ID, fx.Node.ID)
			if tc.target != nil {
				path = tc.target(fx, other)
			}
			before := inspectNodes(t, fake, []string{fx.User.ID, other.User.ID})
			r := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: path, Header: fx.Headers, Body: tc.body})
			wantErrorStatus(t, r, tc.status, tc.errorCode, tc.code)
			wantUnchanged(t, fake, before)
		})
	}
}

func unknownNode(fx, _ testkit.Fixture) string {
	return testkit.NodePath(fx.User.ID, "0123456789abcdef01234567")
}

func othersNode(fx, other testkit.Fixture) string { return testkit.NodePath(fx.User.ID, other.Node.ID) }

func othersPath(_, other testkit.Fixture) string {
	return testkit.NodePath(other.User.ID, other.Node.ID)
}

func TestNodeErrors(t *testing.T) {
	t.Parallel()
	nick := map[string]any{"nickname": "New"}
	runNodeErrorCases(t, []nodeErrorCase{
		{name: "GET unknown node", method: "GET", target: unknownNode, status: 404, errorCode: "404", code: "unable_to_locate_node"},
		{name: "GET another user's node", method: "GET", target: othersNode, status: 401, errorCode: "300", code: "unauthorized_node"},
		{name: "GET under another user's path", method: "GET", target: othersPath, status: 401, errorCode: "300", code: "unauthorized_user"},
		{name: "GET without NODE|GET", method: "GET", scopes: []string{"NODES|GET"}, status: 401, errorCode: "300", code: "scope_not_granted"},

		// A PATCH that changes nothing (an empty body or object, a type,
		// which cannot change) and an empty nickname are taken
		// (TestContractRulesTheSandboxTook, TestPatchNodeChangingNothing).
		{name: "PATCH ship on a deposit node", method: "PATCH", target: func(fx, _ testkit.Fixture) string { return testkit.NodePath(fx.User.ID, fx.Node.ID) + "?ship=YES" },
			body: map[string]any{}, status: 409, errorCode: "410", code: "not_a_card_node"},
		{name: "PATCH malformed JSON", method: "PATCH", body: `{"nickname":`, status: 400, errorCode: "200", code: "invalid_json"},
		{name: "PATCH nickname is a number", method: "PATCH", body: map[string]any{"nickname": 5}, status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "PATCH micro with one amount", method: "PATCH", body: map[string]any{"micro": []float64{0.1}}, status: 400, errorCode: "200", code: "invalid_micro"},
		{name: "PATCH micro on a verified node", method: "PATCH", body: map[string]any{"micro": []float64{0.1, 0.1}}, status: 409, errorCode: "410", code: "micro_not_pending"},
		{name: "PATCH unknown node", method: "PATCH", body: nick, target: unknownNode, status: 404, errorCode: "404", code: "unable_to_locate_node"},
		{name: "PATCH another user's node", method: "PATCH", body: nick, target: othersNode, status: 401, errorCode: "300", code: "unauthorized_node"},
		{name: "PATCH without NODE|PATCH", method: "PATCH", body: nick, scopes: []string{"NODE|GET", "NODE|DELETE"}, status: 401, errorCode: "300", code: "scope_not_granted"},

		{name: "DELETE unknown node", method: "DELETE", target: unknownNode, status: 404, errorCode: "404", code: "unable_to_locate_node"},
		{name: "DELETE another user's node", method: "DELETE", target: othersNode, status: 401, errorCode: "300", code: "unauthorized_node"},
		{name: "DELETE under another user's path", method: "DELETE", target: othersPath, status: 401, errorCode: "300", code: "unauthorized_user"},
		{name: "DELETE without NODE|DELETE", method: "DELETE", scopes: []string{"NODE|GET", "NODE|PATCH"}, status: 401, errorCode: "300", code: "scope_not_granted"},
	})
}

func TestMicroDeposits(t *testing.T) {
	t.Parallel()
	achBody := map[string]any{"type": "ACH-US", "info": map[string]any{
		"nickname": "Bank", "account_num": "123456789", "routing_num": validRouting, "type": "PERSONAL", "class": "CHECKING"}}

	t.Run("without the option ACH-US debits at once", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t)
		fx := testkit.NewFixture(t, fake, 0)
		r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: achBody})
		if got := getPath(r.Body["nodes"].([]any)[0].(map[string]any), "allowed"); got != "CREDIT-AND-DEBIT" {
			t.Errorf("allowed %v, want CREDIT-AND-DEBIT", got)
		}
	})

	t.Run("with the option ACH-US waits for verification", func(t *testing.T) {
		t.Parallel()
		fake := synapsefake.NewServer(t, synapsefake.WithMicroDeposits())
		fx := testkit.NewFixture(t, fake, 0)
		created := fake.Now()
		r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: achBody})
		node := r.Body["nodes"].([]any)[0].(map[string]any)
		id := node["_id"].(string)
		want := wantNodeJSON(fake, fx.User.ID, id, "ACH-US", "Bank")
		achInfo(want, "6789", "0017", "PERSONAL", "CHECKING")
		setPath(want, "allowed", "CREDIT")
		setPath(want, "timeline", []any{timelineEntry(created, "Node created."), timelineEntry(created, "Micro deposits initiated.")})
		if diff := cmp.Diff(want, node); diff != "" {
			t.Fatalf("created node mismatch (-want +got):\n%s", diff)
		}
		if n, _ := fake.Node(id); n.Allowed != synapsefake.AllowedCredit {
			t.Errorf("stored Allowed %q, want CREDIT", n.Allowed)
		}

		// Non-ACH nodes are not affected by the option.
		d := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers,
			Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "D"}}})
		if got := d.Body["nodes"].([]any)[0].(map[string]any)["allowed"]; got != "CREDIT-AND-DEBIT" {
			t.Errorf("DEPOSIT-US allowed %v, want CREDIT-AND-DEBIT", got)
		}

		path := testkit.NodePath(fx.User.ID, id)
		for _, wrong := range [][]float64{{0.2, 0.1}, {0.1, 0.11}, {0, 0}, {10, 10}, {-0.1, -0.1}} {
			before := inspectNodes(t, fake, []string{fx.User.ID})
			w := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers,
				Body: map[string]any{"micro": wrong, "nickname": "Changed"}})
			wantErrorStatus(t, w, 409, "400", "incorrect_micro")
			wantUnchanged(t, fake, before)
		}

		// Asking for the deposits again notes it and keeps the node at CREDIT.
		fake.Advance(time.Minute)
		resend := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"resend_micro": "YES"}})
		setPath(want, "timeline", append(want["timeline"].([]any), timelineEntry(fake.Now(), "Micro deposits initiated.")))
		if diff := cmp.Diff(withSuccess(want), resend.Body); diff != "" {
			t.Errorf("node after resend_micro mismatch (-want +got):\n%s", diff)
		}

		fake.Advance(time.Minute)
		ok := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: `{"micro":[0.1,0.1]}`})
		setPath(want, "allowed", "CREDIT-AND-DEBIT")
		setPath(want, "timeline", append(want["timeline"].([]any), timelineEntry(fake.Now(), "Micro deposits verified.")))
		if diff := cmp.Diff(withSuccess(want), ok.Body); diff != "" {
			t.Errorf("verified node mismatch (-want +got):\n%s", diff)
		}
		if n, _ := fake.Node(id); n.Allowed != synapsefake.AllowedCreditAndDebit {
			t.Errorf("stored Allowed %q after verification, want CREDIT-AND-DEBIT", n.Allowed)
		}

		// Verifying twice is refused.
		before := inspectNodes(t, fake, []string{fx.User.ID})
		again := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: `{"micro":[0.1,0.1]}`})
		wantErrorStatus(t, again, 409, "410", "micro_not_pending")
		wantUnchanged(t, fake, before)
	})
}

// TestDeleteNodeMidTransfer: deleting a node, or locking its user, stops new
// transfers only; one created before, from or to it, settles, moving the
// money, and a test of an account closed mid-transfer returns it with R02
// (docs/fidelity.md).
func TestDeleteNodeMidTransfer(t *testing.T) {
	t.Parallel()
	for _, deleted := range []string{"sender", "receiver", "user locked"} {
		t.Run(deleted, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
			id := e.Create(t, e.Savings, 10)
			if deleted == "user locked" {
				if err := e.Fake.SetPermission(e.Fx.User.ID, synapsefake.PermissionLocked); err != nil {
					t.Fatal(err)
				}
			} else {
				deleteNode(t, e.Fake, e.Fx, map[string]string{"sender": e.Fx.Node.ID, "receiver": e.Savings.ID}[deleted])
			}
			if err := e.Fake.Settle(id); err != nil {
				t.Fatalf("Settle: %v", err)
			}
			if tx := e.Tx(t, id); tx.Status != synapsefake.StatusSettled {
				t.Fatalf("the transfer after its %s was deleted: %s, want SETTLED", deleted, tx.Status)
			}
			e.Fake.CheckBalance(t, e.Savings.ID, 10_00, 10_00)
			if err := e.Fake.Return(id, "R02"); err != nil {
				t.Fatalf("Return R02: %v", err)
			}
			e.Fake.Advance(time.Millisecond)
			if tx := e.Tx(t, id); tx.Status != synapsefake.StatusReturned || tx.Code != "R02" {
				t.Errorf("after Return: %s %q, want RETURNED R02", tx.Status, tx.Code)
			}
			e.Fake.CheckBalance(t, e.Savings.ID, 0, 0)
		})
	}
}

func TestDeleteNode(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 700)
	keep := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Keep"})
	created := fake.Now()
	fake.Advance(time.Hour)

	r := testkit.Do(t, fake, testkit.Call{Method: "DELETE", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers})
	want := wantNodeJSON(fake, fx.User.ID, fx.Node.ID, "DEPOSIT-US", "Checking")
	setPath(want, "info.balance.amount", 7.0)
	setPath(want, "is_active", false)
	setPath(want, "timeline", []any{timelineEntry(created, "Node created."), timelineEntry(fake.Now(), "Node's 'is_active' toggled to False.")})
	if diff := cmp.Diff(withSuccess(want), r.Body); diff != "" {
		t.Errorf("DELETE answer mismatch (-want +got):\n%s", diff)
	}
	if r.Status != 200 {
		t.Errorf("status %d, want 200", r.Status)
	}

	n, ok := fake.Node(fx.Node.ID)
	if !ok || n.IsActive {
		t.Errorf("Node after DELETE: %+v, found %v; want it inactive", n, ok)
	}
	u, _ := fake.User(fx.User.ID)
	if diff := cmp.Diff([]string{keep.ID}, u.NodeIDs); diff != "" {
		t.Errorf("user NodeIDs after DELETE (-want +got):\n%s", diff)
	}

	list := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers})
	if got := list.Body["node_count"]; got != 1.0 {
		t.Errorf("node_count %v after DELETE, want 1", got)
	}
	if nodes, _ := list.Body["nodes"].([]any); len(nodes) != 1 || nodes[0].(map[string]any)["_id"] != keep.ID {
		t.Errorf("list after DELETE holds %v, want only %s", nodes, keep.ID)
	}

	// The deleted node can still be read, inactive.
	g := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers})
	if diff := cmp.Diff(r.Body, g.Body); diff != "" {
		t.Errorf("GET of a deleted node differs from the DELETE answer (-delete +get):\n%s", diff)
	}

	for _, tc := range []struct {
		method string
		body   any
	}{
		{"DELETE", nil},
		{"PATCH", map[string]any{"nickname": "Back"}},
		{"PATCH", map[string]any{"extra": map[string]any{"note": "x"}}},
	} {
		before := inspectNodes(t, fake, []string{fx.User.ID}, fx.Node.ID)
		e := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: testkit.NodePath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: tc.body})
		wantErrorStatus(t, e, 409, "410", "node_inactive")
		wantUnchanged(t, fake, before)
	}
}

// TestCardNodePreferences sends synapse_pay_rest's
// CardUsNode.update_preferences: PATCH {"preferences": {...}} on a CARD-US
// node stores each preference sent (limits in USD, as sent) beside the
// recorded defaults, and GET shows them. Other node types and bad values
// are refused and change nothing.
func TestCardNodePreferences(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	card := createdNode(t, fake, fx, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "My Debit Card", "document_id": "doc"}})
	path := testkit.NodePath(fx.User.ID, card["_id"].(string))
	if diff := cmp.Diff(map[string]any{"allow_foreign_transactions": false, "atm_withdrawal_limit": float64(100), "max_pin_attempts": float64(3),
		"pos_withdrawal_limit": float64(1000), "security_alerts": true}, getPath(card, "info.preferences")); diff != "" {
		t.Fatalf("default preferences (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name  string
		prefs map[string]any
		want  map[string]any
	}{
		{"all five, as the SDK sends them",
			map[string]any{"allow_foreign_transactions": true, "atm_withdrawal_limit": 100, "max_pin_attempts": 3, "pos_withdrawal_limit": 1000, "security_alerts": true},
			map[string]any{"allow_foreign_transactions": true, "atm_withdrawal_limit": float64(100), "max_pin_attempts": float64(3), "pos_withdrawal_limit": float64(1000), "security_alerts": true}},
		{"one, the others kept",
			map[string]any{"atm_withdrawal_limit": 250.5},
			map[string]any{"allow_foreign_transactions": true, "atm_withdrawal_limit": 250.5, "max_pin_attempts": float64(3), "pos_withdrawal_limit": float64(1000), "security_alerts": true}},
	} {
		r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"preferences": tc.prefs}})
		if r.Status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tc.name, r.Status, r.Raw)
		}
		got := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path, Header: fx.Headers})
		for _, body := range []map[string]any{r.Body, got.Body} {
			if diff := cmp.Diff(tc.want, getPath(body, "info.preferences")); diff != "" {
				t.Errorf("%s: info.preferences (-want +got):\n%s", tc.name, diff)
			}
			if getPath(body, "info.card_hash") != getPath(card, "info.card_hash") {
				t.Errorf("%s: the card changed: %v", tc.name, getPath(body, "info.card_hash"))
			}
		}
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + "?reset=YES", Header: fx.Headers, Body: map[string]any{}})
	if diff := cmp.Diff(float64(3), getPath(r.Body, "info.preferences.max_pin_attempts")); diff != "" {
		t.Errorf("preferences after reset (-want +got):\n%s", diff)
	}

	other := testkit.NewFixture(t, fake, 0)
	before := inspectNodes(t, fake, []string{fx.User.ID, other.User.ID})
	events := len(fake.Webhooks().All())
	prefs := func(p map[string]any) map[string]any { return map[string]any{"preferences": p} }
	for _, tc := range []struct {
		name    string
		path    string
		headers map[string]string
		body    any
		status  int
		errCode string
		code    string
	}{
		{"a deposit node", testkit.NodePath(fx.User.ID, fx.Node.ID), fx.Headers, prefs(map[string]any{"security_alerts": true}), 409, "410", "not_a_card_node"},
		{"preferences not an object", path, fx.Headers, map[string]any{"preferences": "x"}, 400, "200", "invalid_field_type"},
		{"limit as a string", path, fx.Headers, prefs(map[string]any{"atm_withdrawal_limit": "100"}), 400, "200", "invalid_field_type"},
		{"flag as a string", path, fx.Headers, prefs(map[string]any{"security_alerts": "yes"}), 400, "200", "invalid_field_type"},
		{"max_pin_attempts a fraction", path, fx.Headers, prefs(map[string]any{"max_pin_attempts": 2.5}), 400, "200", "invalid_field_type"},
		// Empty preferences and limits below the rule are taken
		// (TestContractRulesTheSandboxTook).
		{"malformed JSON", path, fx.Headers, `{"preferences":`, 400, "200", "invalid_json"},
		{"unknown node", testkit.NodePath(fx.User.ID, "0123456789abcdef01234567"), fx.Headers, prefs(map[string]any{"security_alerts": true}), 404, "404", ""},
		{"another user's key", path, other.Headers, prefs(map[string]any{"security_alerts": true}), 401, "300", ""},
		{"another user's node", testkit.NodePath(other.User.ID, card["_id"].(string)), other.Headers, prefs(map[string]any{"security_alerts": true}), 401, "300", ""},
		{"no oauth key", path, testkit.GatewayHeaders(fake), prefs(map[string]any{"security_alerts": true}), 401, "300", ""},
		{"wrong gateway", path, testkit.EditHeaders(fx.Headers, map[string]string{"X-SP-GATEWAY": "a|b"}), prefs(map[string]any{"security_alerts": true}), 401, "100", ""},
	} {
		r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: tc.path, Header: tc.headers, Body: tc.body})
		t.Run(tc.name, func(t *testing.T) { wantErrorStatus(t, r, tc.status, tc.errCode, tc.code) })
	}
	wantUnchanged(t, fake, before)
	if n := len(fake.Webhooks().All()); n != events {
		t.Errorf("%d events after the refusals, want %d", n, events)
	}
}
