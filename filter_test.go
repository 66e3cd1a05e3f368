package synapsefake_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// filterEnv is a platform of three users (one with a supp_id), user A's
// three nodes, two subnets on A's first node, two subscriptions and three
// transactions, the last two created an hour after the first.
type filterEnv struct {
	fake          *synapsefake.Server
	a, b          testkit.Fixture
	vip           synapsefake.User
	savings, ach  synapsefake.Node
	card, acct    synapsefake.Subnet
	hookA, hookB  synapsefake.Subscription
	tx1, tx2, tx3 string // A to B 10.00; A to A's savings 5.50; B to A 2.00
	later         int64  // ms: when tx2 and tx3 were created
	aPath, aNode  string
}

func newFilterEnv(t *testing.T) filterEnv {
	t.Helper()
	fake := synapsefake.NewServer(t, synapsefake.WithManualProcessing(), synapsefake.WithoutWebhookDelivery())
	e := filterEnv{fake: fake, a: testkit.NewFixture(t, fake, 100_00), b: testkit.NewFixture(t, fake, 50_00)}
	e.vip = fake.MustAddUser(t, synapsefake.UserSeed{SuppID: "vip-1"})
	e.savings = fake.MustAddNode(t, e.a.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	e.ach = fake.MustAddNode(t, e.a.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank", AccountNum: "123456789", RoutingNum: "051000017"})
	e.card = testkit.AddSubnet(t, fake, e.a, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	e.acct = testkit.AddSubnet(t, fake, e.a, synapsefake.SubnetSeed{Nickname: "Acct"})
	e.hookA = fake.MustAddSubscription(t, "https://example.com/a", "USERS|POST", "USER|PATCH")
	e.hookB = fake.MustAddSubscription(t, "https://example.com/b", "TRANS|POST")
	e.tx1 = testkit.PostTx(t, fake, e.a, e.b.Node.ID, 10)
	fake.MoveFrozenClock(time.Hour)
	e.later = fake.Now().UnixMilli()
	e.tx2 = testkit.PostTx(t, fake, e.a, e.savings.ID, 5.5)
	e.tx3 = testkit.PostTx(t, fake, e.b, e.a.Node.ID, 2)
	e.aPath = "/users/" + e.a.User.ID
	e.aNode = e.aPath + "/nodes/" + e.a.Node.ID
	return e
}

// TestListFilter: each list answers the items its filter matches, in the
// list's order, with the count and page_count of the filtered list, paged
// after filtering.
func TestListFilter(t *testing.T) {
	t.Parallel()
	e := newFilterEnv(t)
	gw := testkit.GatewayHeaders(e.fake)
	for _, tc := range []struct {
		name          string
		path          string
		header        map[string]string
		filter        string
		query         string // more query parameters
		field, count  string // the list's items and count
		want          []string
		wantTotal     int
		wantPageCount int
	}{
		{"users by _id", "/users", gw, fmt.Sprintf(`{"_id":%q}`, e.a.User.ID), "", "users", "users_count",
			[]string{e.a.User.ID}, 1, 1},
		{"users by extra.supp_id", "/users", gw, `{"extra.supp_id":"vip-1"}`, "", "users", "users_count",
			[]string{e.vip.ID}, 1, 1},
		{"users, $in paged after filtering", "/users", gw, fmt.Sprintf(`{"_id":{"$in":[%q,%q]}}`, e.a.User.ID, e.vip.ID), "&per_page=1&page=2",
			"users", "users_count", []string{e.vip.ID}, 2, 2},
		{"users, none", "/users", gw, `{"_id":"000000000000000000000000"}`, "", "users", "users_count", []string{}, 0, 0},
		{"nodes by info.nickname", e.aPath + "/nodes", e.a.Headers, `{"info.nickname":"Savings"}`, "", "nodes", "node_count",
			[]string{e.savings.ID}, 1, 1},
		{"nodes, $ne type", e.aPath + "/nodes", e.a.Headers, `{"type":{"$ne":"ACH-US"}}`, "", "nodes", "node_count",
			[]string{e.a.Node.ID, e.savings.ID}, 2, 1},
		{"nodes, none", e.aPath + "/nodes", e.a.Headers, `{"type":"WIRE-US"}`, "", "nodes", "node_count", []string{}, 0, 0},
		{"node transactions, $gt amount", e.aNode + "/trans", e.a.Headers, `{"amount.amount":{"$gt":6}}`, "", "trans", "trans_count",
			[]string{e.tx1}, 1, 1},
		{"node transactions, $gte created_on", e.aNode + "/trans", e.a.Headers, fmt.Sprintf(`{"extra.created_on":{"$gte":%d}}`, e.later), "",
			"trans", "trans_count", []string{e.tx3, e.tx2}, 2, 1},
		{"node transactions, none", e.aNode + "/trans", e.a.Headers, `{"recent_status.status":"SETTLED"}`, "", "trans", "trans_count",
			[]string{}, 0, 0},
		{"user transactions by to.id", e.aPath + "/trans", e.a.Headers, fmt.Sprintf(`{"to.id":%q}`, e.savings.ID), "", "trans", "trans_count",
			[]string{e.tx2}, 1, 1},
		{"user transactions, $or", e.aPath + "/trans", e.a.Headers, fmt.Sprintf(`{"$or":[{"to.id":%q},{"from.id":%q}]}`, e.b.Node.ID, e.b.Node.ID), "",
			"trans", "trans_count", []string{e.tx3, e.tx1}, 2, 1},
		{"user transactions, none", e.aPath + "/trans", e.a.Headers, `{"amount.amount":{"$lt":1}}`, "", "trans", "trans_count", []string{}, 0, 0},
		{"platform nodes by user_id", "/nodes", gw, fmt.Sprintf(`{"user_id":%q}`, e.b.User.ID), "", "nodes", "node_count",
			[]string{e.b.Node.ID}, 1, 1},
		{"platform nodes, $and", "/nodes", gw, `{"$and":[{"type":"DEPOSIT-US"},{"info.nickname":{"$in":["Checking","Savings"]}}]}`, "&per_page=2&page=2",
			"nodes", "node_count", []string{e.a.Node.ID}, 3, 2},
		{"platform nodes, none", "/nodes", gw, `{"type":"ACH-US","info.nickname":"Nope"}`, "", "nodes", "node_count", []string{}, 0, 0},
		{"platform transactions by from.user._id", "/trans", gw, fmt.Sprintf(`{"from.user._id":%q}`, e.b.User.ID), "", "trans", "trans_count",
			[]string{e.tx3}, 1, 1},
		{"platform transactions, none", "/trans", gw, `{"amount.currency":"EUR"}`, "", "trans", "trans_count", []string{}, 0, 0},
		{"node subnets by account_class", e.aNode + "/subnets", e.a.Headers, `{"account_class":"CARD"}`, "", "subnets", "subnets_count",
			[]string{e.card.ID}, 1, 1},
		{"node subnets, none", e.aNode + "/subnets", e.a.Headers, `{"nickname":{"$exists":false}}`, "", "subnets", "subnets_count",
			[]string{}, 0, 0},
		{"user subnets, $ne nickname", e.aPath + "/subnets", e.a.Headers, `{"nickname":{"$ne":"Card"}}`, "", "subnets", "subnets_count",
			[]string{e.acct.ID}, 1, 1},
		{"user subnets, none", e.aPath + "/subnets", e.a.Headers, `{"nickname":"Nope"}`, "", "subnets", "subnets_count", []string{}, 0, 0},
		{"subscriptions by an element of scope", "/subscriptions", gw, `{"scope":"TRANS|POST"}`, "", "subscriptions", "subscriptions_count",
			[]string{e.hookB.ID}, 1, 1},
		{"subscriptions, none", "/subscriptions", gw, `{"url":{"$gt":"https://example.com/b"}}`, "", "subscriptions", "subscriptions_count",
			[]string{}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: tc.path + "?filter=" + url.QueryEscape(tc.filter) + tc.query, Header: tc.header})
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(tc.want, testkit.ListIDs(r.Body, tc.field)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.field, diff)
			}
			if r.Body[tc.count] != float64(tc.wantTotal) || r.Body["page_count"] != float64(tc.wantPageCount) {
				t.Errorf("%s %v, page_count %v; want %d and %d", tc.count, r.Body[tc.count], r.Body["page_count"], tc.wantTotal, tc.wantPageCount)
			}
		})
	}
}

// TestListFilterRefusesMalformed: a filter that is not JSON, not an object,
// names an unknown operator or gives one a value of the wrong type is
// 400 / "200" invalid_filter on every filtered list, with the reason.
func TestListFilterRefusesMalformed(t *testing.T) {
	t.Parallel()
	e := newFilterEnv(t)
	gw := testkit.GatewayHeaders(e.fake)
	routes := []struct {
		path   string
		header map[string]string
	}{
		{"/users", gw}, {e.aPath + "/nodes", e.a.Headers}, {e.aNode + "/trans", e.a.Headers}, {e.aPath + "/trans", e.a.Headers},
		{"/nodes", gw}, {"/trans", gw}, {e.aNode + "/subnets", e.a.Headers}, {e.aPath + "/subnets", e.a.Headers},
	}
	for _, tc := range []struct {
		name, filter, reason string
	}{
		{"not JSON", `{"_id":`, "not JSON"},
		{"not an object", `["_id"]`, "not a JSON object"},
		{"unknown operator", `{"type":{"$regex":"^DEP"}}`, `unknown operator "$regex"`},
		{"unknown top-level operator", `{"$where":"1"}`, `unknown top-level operator "$where"`},
		{"$in of a string", `{"type":{"$in":"DEPOSIT-US"}}`, `$in on field "type" takes an array`},
		{"$gt of a bool", `{"extra.created_on":{"$gt":true}}`, `takes a number or a string`},
		{"$exists of a string", `{"type":{"$exists":"yes"}}`, `$exists on field "type" takes true or false`},
		{"$or of an object", `{"$or":{"type":"ACH-US"}}`, `$or takes a non-empty array`},
	} {
		for _, rt := range routes {
			t.Run(tc.name+" "+rt.path, func(t *testing.T) {
				r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: rt.path + "?filter=" + url.QueryEscape(tc.filter), Header: rt.header})
				testkit.WantError(t, r, 400, "200", "invalid_filter")
				body, _ := r.Body["error"].(map[string]any)
				if en, _ := body["en"].(string); !strings.Contains(en, tc.reason) {
					t.Errorf("error.en %q does not say %q", en, tc.reason)
				}
			})
		}
	}
	// Nothing changed: every list answers as before.
	r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/trans", Header: gw})
	if diff := cmp.Diff([]string{e.tx3, e.tx2, e.tx1}, testkit.ListIDs(r.Body, "trans")); diff != "" {
		t.Errorf("GET /trans after the refusals (-want +got):\n%s", diff)
	}
}

// TestListFilterLimits: a filter past one of internal/filter's limits
// (its text, its $in and $nin values, its conditions, a field's path
// parts) is refused on every filtered list with the whole envelope, 400 /
// "200" invalid_filter naming the limit, and changes nothing; one at the
// limit is answered.
func TestListFilterLimits(t *testing.T) {
	t.Parallel()
	e := newFilterEnv(t)
	gw := testkit.GatewayHeaders(e.fake)
	repeat := func(n int, part func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = part(i)
		}
		return strings.Join(parts, ",")
	}
	for _, tc := range []struct {
		name, atLimit, past, message string
	}{
		{"text", `{"_id":"` + strings.Repeat("x", 16384-10) + `"}`, `{"_id":"` + strings.Repeat("x", 16385-10) + `"}`,
			"filter: the document is 16385 bytes; at most 16384 are taken."},
		{"$in values", `{"_id":{"$in":[` + repeat(1000, func(i int) string { return fmt.Sprint(i) }) + `]}}`,
			`{"_id":{"$in":[` + repeat(600, func(i int) string { return fmt.Sprint(i) }) + `]},"type":{"$nin":[` + repeat(401, func(int) string { return "0" }) + `]}}`,
			"filter: more than 1000 values in $in and $nin together; at most 1000 are taken."},
		{"conditions", `{"$or":[` + repeat(31, func(i int) string { return "{}" }) + `],"_id":{"$exists":true}}`,
			`{"$or":[` + repeat(16, func(i int) string { return fmt.Sprintf(`{"f%d":1}`, i) }) + `],"_id":{"$exists":true}}`,
			"filter: more than 32 conditions (operators on fields, a value to equal counting as one, and documents of $and and $or); at most 32 are taken."},
		{"path parts", `{"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p":1}`, `{"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q":1}`,
			`filter: field "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q" has 17 path parts; at most 16 are taken.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := storeState(t, e.fake)
			for _, rt := range []struct {
				path   string
				header map[string]string
			}{{"/users", gw}, {e.aPath + "/nodes", e.a.Headers}, {e.aNode + "/trans", e.a.Headers}, {"/subscriptions", gw}} {
				r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: rt.path + "?filter=" + url.QueryEscape(tc.past), Header: rt.header})
				want := map[string]any{"error": map[string]any{"en": tc.message, "code": "invalid_filter"},
					"error_code": "200", "http_code": "400", "success": false}
				if r.Status != 400 {
					t.Errorf("%s: status %d, want 400", rt.path, r.Status)
				}
				if diff := cmp.Diff(want, r.Body); diff != "" {
					t.Errorf("%s: the refusal (-want +got):\n%s", rt.path, diff)
				}
				if r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: rt.path + "?filter=" + url.QueryEscape(tc.atLimit), Header: rt.header}); r.Status != 200 {
					t.Errorf("%s: a filter at the limit: status %d: %.300s", rt.path, r.Status, r.Raw)
				}
			}
			if after := storeState(t, e.fake); after != before {
				t.Errorf("the refusals changed the state: %s", testkit.FirstDiff(after, before))
			}
		})
	}
}

// storeState is the fake's saved store, id stream and clock: what a
// refused request must leave as it was (the journal records it).
func storeState(t *testing.T, fake *synapsefake.Server) string {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(testkit.SnapshotBytes(t, fake), &doc); err != nil {
		t.Fatal(err)
	}
	return string(doc["store"]) + string(doc["ids"]) + string(doc["clock"])
}

// TestListFilterPercentEncoded: the filter parameter is read from the
// decoded query, so a name sent percent-encoded (?%66ilter=, ?f%69lter=)
// filters as ?filter= does, and a malformed filter sent that way is
// refused.
func TestListFilterPercentEncoded(t *testing.T) {
	t.Parallel()
	e := newFilterEnv(t)
	gw := testkit.GatewayHeaders(e.fake)
	byID := url.QueryEscape(fmt.Sprintf(`{"_id":%q}`, e.vip.ID))
	for _, tc := range []struct {
		name, query string
		want        []string // nil: refused
	}{
		{"%66ilter", "?%66ilter=" + byID, []string{e.vip.ID}},
		{"f%69lter", "?f%69lter=" + byID, []string{e.vip.ID}},
		{"%46ILTER is another name", "?%46ILTER=" + byID, []string{e.a.User.ID, e.b.User.ID, e.vip.ID}},
		{"beside page", "?per_page=5&%66%69%6c%74%65%72=" + byID, []string{e.vip.ID}},
		{"$where, %66ilter", "?%66ilter=" + url.QueryEscape(`{"$where":1}`), nil},
		{"$where, f%69lter", "?f%69lter=" + url.QueryEscape(`{"$where":1}`), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users" + tc.query, Header: gw})
			if tc.want == nil {
				testkit.WantError(t, r, 400, "200", "invalid_filter")
				return
			}
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(tc.want, testkit.ListIDs(r.Body, "users")); diff != "" {
				t.Errorf("users (-want +got):\n%s", diff)
			}
		})
	}
}

// TestListFilterCanceledRequest: a filtered or searched list whose
// request has already ended reads nothing and answers 503 / "503"
// request_canceled (which nobody reads but the journal); the unfiltered
// list, which reads its page alone, answers it as before.
func TestListFilterCanceledRequest(t *testing.T) {
	t.Parallel()
	e := newFilterEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	serve := func(path string) *httptest.ResponseRecorder {
		r := httptest.NewRequestWithContext(ctx, "GET", "/v3.1"+path, nil)
		for k, v := range testkit.GatewayHeaders(e.fake) {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		e.fake.ServeHTTP(w, r)
		return w
	}
	for _, path := range []string{"/users?filter=" + url.QueryEscape(`{"_id":{"$exists":true}}`), "/users?query=a", "/trans?filter=" + url.QueryEscape(`{"amount.amount":{"$gt":1}}`)} {
		w := serve(path)
		var body map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("%s: %v: %s", path, err, w.Body)
		}
		testkit.WantError(t, testkit.Response{Status: w.Code, Body: body, Raw: w.Body.Bytes()}, 503, "503", "request_canceled")
	}
	if w := serve("/users"); w.Code != 200 {
		t.Errorf("unfiltered: status %d: %s", w.Code, w.Body)
	}
}
