package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

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
	a := testkit.NewFixture(t, fake, 100_00)
	b := testkit.NewFixture(t, fake, 50_00)
	ach := fake.MustAddNode(t, a.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank", AccountNum: "123456789", RoutingNum: "051000017"})
	gone := fake.MustAddNode(t, b.User.ID, synapsefake.NodeSeed{Nickname: "Gone"})
	if r := testkit.Do(t, fake, testkit.Call{Method: "DELETE", Path: "/users/" + b.User.ID + "/nodes/" + gone.ID, Header: b.Headers}); r.Status != http.StatusOK {
		t.Fatalf("DELETE node: status %d: %s", r.Status, r.Raw)
	}
	card := testkit.AddSubnet(t, fake, a, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	e := platformEnv{fake: fake, nodes: []string{a.Node.ID, b.Node.ID, ach.ID}, deposit: []string{a.Node.ID, b.Node.ID}}
	e.txs = append(e.txs, testkit.PostTx(t, fake, a, b.Node.ID, 10), testkit.PostTx(t, fake, b, a.Node.ID, 5))
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
			var r testkit.Response
			if tc.py {
				r = testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: tc.path, Header: testkit.PyHeaders(e.fake, "")})
			} else {
				path, query, _ := strings.Cut(tc.path, "?")
				r = goSend(t, e.fake, goRequest{method: "GET", path: path, query: query, fingerprint: testkit.TestFingerprint}).Response
			}
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			got := meta{IDs: testkit.ListIDs(r.Body, tc.listField)}
			got.Limit, _ = r.Body["limit"].(float64)
			got.Page, _ = r.Body["page"].(float64)
			got.PageCount, _ = r.Body["page_count"].(float64)
			got.Count, _ = r.Body[tc.countKey].(float64)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("list (-want +got):\n%s\n%s", diff, r.Raw)
			}
			if r.Body["error_code"] != "0" || r.Body["http_code"] != "200" || r.Body["success"] != true {
				t.Errorf("envelope: %s", r.Raw)
			}
		})
	}
}

// TestPlatformListItems checks that the platform lists show the same node
// and transaction views as the user's own routes.
func TestPlatformListItems(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	a := testkit.NewFixture(t, fake, 100_00)
	other := fake.MustAddNode(t, a.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	tx := testkit.PostTx(t, fake, a, other.ID, 1)
	for _, tc := range []struct{ list, one, field string }{
		{"/nodes", "/users/" + a.User.ID + "/nodes/" + a.Node.ID, "nodes"},
		{"/trans", "/users/" + a.User.ID + "/nodes/" + a.Node.ID + "/trans/" + tx, "trans"},
	} {
		l := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.list, Header: testkit.GatewayHeaders(fake)})
		one := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.one, Header: a.Headers})
		items, _ := l.Body[tc.field].([]any)
		if len(items) == 0 {
			t.Fatalf("GET %s: no items: %s", tc.list, l.Raw)
		}
		delete(one.Body, "success")
		if diff := cmp.Diff(one.Body, items[len(items)-1]); diff != "" {
			t.Errorf("GET %s item differs from GET %s (-one +list):\n%s", tc.list, tc.one, diff)
		}
	}
}

func TestPlatformListsRefusals(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	for _, path := range []string{"/nodes", "/trans"} {
		for _, tc := range []struct {
			name      string
			query     string
			header    map[string]string
			status    int
			errorCode string
		}{
			{"no gateway", "", map[string]string{"X-SP-USER-IP": "127.0.0.1"}, 400, "100"},
			{"wrong gateway", "", testkit.EditHeaders(testkit.GatewayHeaders(fake), map[string]string{"X-SP-GATEWAY": "client_x|secret_y"}), 401, "100"},
			{"page 0", "?page=0", testkit.GatewayHeaders(fake), 400, "200"},
			{"page not a number", "?page=two", testkit.GatewayHeaders(fake), 400, "200"},
			{"per_page 0", "?per_page=0", testkit.GatewayHeaders(fake), 400, "200"},
		} {
			t.Run(path+" "+tc.name, func(t *testing.T) {
				testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path + tc.query, Header: tc.header}), tc.status, tc.errorCode, "")
			})
		}
		t.Run(path+" POST is not allowed", func(t *testing.T) {
			testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "POST", Path: path, Header: fx.Headers, Body: "{}"}), 409, "410", "method_not_allowed")
		})
	}
}
