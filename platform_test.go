package synapsefake_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// postTx creates a transaction of amount dollars from fx's node to toNode
// over the API and returns its id.
func postTx(t testing.TB, fake *synapsefake.Server, fx fixture, toNode string, amount float64) string {
	t.Helper()
	r := do(t, fake, call{method: "POST", path: "/users/" + fx.user.ID + "/nodes/" + fx.node.ID + "/trans", header: fx.headers,
		body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": toNode},
			"amount": map[string]any{"amount": amount, "currency": "USD"}, "extra": map[string]any{"ip": "127.0.0.1"}}})
	if r.status != http.StatusOK {
		t.Fatalf("POST trans: status %d: %s", r.status, r.raw)
	}
	id, _ := r.body["_id"].(string)
	return id
}

// listIDs returns the _id of each item of a list answer's field.
func listIDs(body map[string]any, field string) []string {
	items, _ := body[field].([]any)
	ids := []string{}
	for _, it := range items {
		m, _ := it.(map[string]any)
		id, _ := m["_id"].(string)
		ids = append(ids, id)
	}
	return ids
}

// platformEnv is two users with nodes and transactions, a deleted node and
// a card swipe (whose counterparty is the fake's hidden network node).
type platformEnv struct {
	fake    *synapsefake.Server
	nodes   []string // listed nodes, oldest first
	deposit []string // the DEPOSIT-US ones among them, oldest first
	txs     []string // oldest first
}

func newPlatformEnv(t testing.TB) platformEnv {
	t.Helper()
	fake := synapsefake.NewServer(t)
	a := newFixture(t, fake, 100_00)
	b := newFixture(t, fake, 50_00)
	ach := fake.MustAddNode(t, a.user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank", AccountNum: "123456789", RoutingNum: "051000017"})
	gone := fake.MustAddNode(t, b.user.ID, synapsefake.NodeSeed{Nickname: "Gone"})
	if r := do(t, fake, call{method: "DELETE", path: "/users/" + b.user.ID + "/nodes/" + gone.ID, header: b.headers}); r.status != http.StatusOK {
		t.Fatalf("DELETE node: status %d: %s", r.status, r.raw)
	}
	card := addSubnet(t, fake, a, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	e := platformEnv{fake: fake, nodes: []string{a.node.ID, b.node.ID, ach.ID}, deposit: []string{a.node.ID, b.node.ID}}
	e.txs = append(e.txs, postTx(t, fake, a, b.node.ID, 10), postTx(t, fake, b, a.node.ID, 5))
	swiped, err := fake.CardAuthorization(card.ID, synapsefake.CardAuth{AmountCents: 1_00})
	if err != nil {
		t.Fatalf("CardAuthorization: %v", err)
	}
	e.txs = append(e.txs, swiped.ID)
	return e
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// TestPlatformLists checks GET /nodes and GET /trans as SynapseGo
// (Client.GetNodes, Client.GetTransactions, with the caller's query string)
// and SynapsePy (Client.get_all_nodes(page, per_page, type),
// Client.get_all_trans(page, per_page)) send them, and the fields their
// Nodes and Transactions objects read.
func TestPlatformLists(t *testing.T) {
	t.Parallel()
	e := newPlatformEnv(t)
	type meta struct {
		Limit, Page, PageCount, Count float64
		IDs                           []string
	}
	for _, tc := range []struct {
		name      string
		py        bool   // sent as SynapsePy, else as SynapseGo
		path      string // with the query string
		listField string
		countKey  string
		want      meta
	}{
		{"go GetNodes()", false, "/nodes", "nodes", "node_count", meta{20, 1, 1, 3, reversed(e.nodes)}},
		{"go GetNodes(per_page=1&page=2)", false, "/nodes?page=2&per_page=1", "nodes", "node_count", meta{1, 2, 3, 3, []string{e.nodes[1]}}},
		{"py get_all_nodes()", true, "/nodes", "nodes", "node_count", meta{20, 1, 1, 3, reversed(e.nodes)}},
		{"py get_all_nodes(type=DEPOSIT-US)", true, "/nodes?page=1&per_page=20&type=DEPOSIT-US", "nodes", "node_count", meta{20, 1, 1, 2, reversed(e.deposit)}},
		{"py get_all_nodes(type=IOU)", true, "/nodes?type=IOU", "nodes", "node_count", meta{20, 1, 0, 0, []string{}}},
		{"page past the end", true, "/nodes?page=9", "nodes", "node_count", meta{20, 9, 1, 3, []string{}}},
		{"go GetTransactions()", false, "/trans", "trans", "trans_count", meta{20, 1, 1, 3, reversed(e.txs)}},
		{"py get_all_trans(page=1, per_page=2)", true, "/trans?page=1&per_page=2", "trans", "trans_count", meta{2, 1, 2, 3, reversed(e.txs)[:2]}},
		{"per_page above 20 is capped", true, "/trans?per_page=50", "trans", "trans_count", meta{20, 1, 1, 3, reversed(e.txs)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r response
			if tc.py {
				r = do(t, e.fake, call{method: "GET", path: tc.path, header: pyHeaders(e.fake, "")})
			} else {
				path, query, _ := strings.Cut(tc.path, "?")
				r = goSend(t, e.fake, goRequest{method: "GET", path: path, query: query, fingerprint: testFingerprint}).response
			}
			if r.status != http.StatusOK {
				t.Fatalf("status %d: %s", r.status, r.raw)
			}
			got := meta{IDs: listIDs(r.body, tc.listField)}
			got.Limit, _ = r.body["limit"].(float64)
			got.Page, _ = r.body["page"].(float64)
			got.PageCount, _ = r.body["page_count"].(float64)
			got.Count, _ = r.body[tc.countKey].(float64)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("list (-want +got):\n%s\n%s", diff, r.raw)
			}
			if r.body["error_code"] != "0" || r.body["http_code"] != "200" || r.body["success"] != true {
				t.Errorf("envelope: %s", r.raw)
			}
		})
	}
}

// TestPlatformListItems checks that the platform lists show the same node
// and transaction views as the user's own routes.
func TestPlatformListItems(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	a := newFixture(t, fake, 100_00)
	other := fake.MustAddNode(t, a.user.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	tx := postTx(t, fake, a, other.ID, 1)
	for _, tc := range []struct{ list, one, field string }{
		{"/nodes", "/users/" + a.user.ID + "/nodes/" + a.node.ID, "nodes"},
		{"/trans", "/users/" + a.user.ID + "/nodes/" + a.node.ID + "/trans/" + tx, "trans"},
	} {
		l := do(t, fake, call{method: "GET", path: tc.list, header: gatewayHeaders(fake)})
		one := do(t, fake, call{method: "GET", path: tc.one, header: a.headers})
		items, _ := l.body[tc.field].([]any)
		if len(items) == 0 {
			t.Fatalf("GET %s: no items: %s", tc.list, l.raw)
		}
		delete(one.body, "success")
		if diff := cmp.Diff(one.body, items[len(items)-1]); diff != "" {
			t.Errorf("GET %s item differs from GET %s (-one +list):\n%s", tc.list, tc.one, diff)
		}
	}
}

func TestPlatformListsRefusals(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := newFixture(t, fake, 0)
	for _, path := range []string{"/nodes", "/trans"} {
		for _, tc := range []struct {
			name      string
			query     string
			header    map[string]string
			status    int
			errorCode string
		}{
			{"no gateway", "", map[string]string{"X-SP-USER-IP": "127.0.0.1"}, 400, "100"},
			{"wrong gateway", "", editHeaders(gatewayHeaders(fake), map[string]string{"X-SP-GATEWAY": "client_x|secret_y"}), 401, "100"},
			{"page 0", "?page=0", gatewayHeaders(fake), 400, "200"},
			{"page not a number", "?page=two", gatewayHeaders(fake), 400, "200"},
			{"per_page 0", "?per_page=0", gatewayHeaders(fake), 400, "200"},
		} {
			t.Run(path+" "+tc.name, func(t *testing.T) {
				wantError(t, do(t, fake, call{method: "GET", path: path + tc.query, header: tc.header}), tc.status, tc.errorCode, "")
			})
		}
		t.Run(path+" POST is not allowed", func(t *testing.T) {
			wantError(t, do(t, fake, call{method: "POST", path: path, header: fx.headers, body: "{}"}), 409, "410", "method_not_allowed")
		})
	}
}
