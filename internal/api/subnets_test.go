package api_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// subnetAgreementURL is the agreement every subnet carries.
const subnetAgreementURL = "https://synapsefake.invalid/agreements/SUBNET_AGREEMENT.pdf"

// subnetRoutingNum is the routing number of every account-number subnet.
const subnetRoutingNum = "084106768"

// abuTokenPlaceholder stands for a card's abu_token in an expected subnet:
// wantSubnetBody checks that the answer has a non-empty string there.
const abuTokenPlaceholder = "<abu_token>"

// snMonday is a Monday morning UTC: an ACH-scheduled transaction created
// then settles on Tuesday at the same time.
var snMonday = time.Date(2024, time.January, 8, 10, 0, 0, 0, time.UTC)

var snDigits = regexp.MustCompile(`^[0-9]+$`)

// newMondayServer is a fake on a mock clock set to snMonday, with opts.
func newMondayServer(t testing.TB, opts ...synapsefake.Option) *synapsefake.Server {
	t.Helper()
	mock := clock.NewMock()
	mock.Set(snMonday)
	return synapsefake.NewServer(t, append([]synapsefake.Option{synapsefake.WithClock(mock)}, opts...)...)
}

func userSubnetsPath(userID string) string { return "/users/" + userID + "/subnets" }

func mustSubnet(t testing.TB, fake *synapsefake.Server, id string) synapsefake.Subnet {
	t.Helper()
	sn, ok := fake.Subnet(id)
	if !ok {
		t.Fatalf("Subnet(%s) not found", id)
	}
	return sn
}

// keyWithout mints a key for fx's user holding every user scope but scope.
func keyWithout(fake *synapsefake.Server, fx testkit.Fixture, scope string) map[string]string {
	scopes := slices.DeleteFunc(reference.Scopes(), func(s string) bool { return s == scope })
	return testkit.UserHeaders(fake, fake.OAuthKey(fx.User.ID, testkit.TestFingerprint, scopes...))
}

// subnetJSON is the wire form of sub, created and last updated at the given
// times, with no supp_id or card_style_id; full shows what
// full_dehydrate=YES shows. A card's abu_token is abuTokenPlaceholder.
func subnetJSON(fake *synapsefake.Server, sub synapsefake.Subnet, created, updated time.Time, full bool) map[string]any {
	m := map[string]any{
		"_id":           sub.ID,
		"_links":        map[string]any{"self": map[string]any{"href": fake.URL() + testkit.SubnetPath(sub.UserID, sub.NodeID, sub.ID)}},
		"account_class": string(sub.AccountClass),
		"agreements":    []any{map[string]any{"type": "SUBNET_AGREEMENT", "url": subnetAgreementURL}},
		"allowed":       subnetAllowedOf(sub),
		"client":        map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
		"created_on":    float64(created.UnixMilli()),
		"nickname":      sub.Nickname,
		"node_id":       sub.NodeID,
		"status":        string(sub.Status),
		"status_code":   sub.StatusCode,
		"supp_id":       nil,
		"updated_on":    float64(updated.UnixMilli()),
		"user_id":       sub.UserID,
	}
	if sub.AccountClass == synapsefake.ClassCard {
		m["abu_token"] = abuTokenPlaceholder
		m["card_number"], m["cvc"] = lastFourOf(sub.CardNumber), "***"
		if full {
			m["card_number"], m["cvc"] = sub.CardNumber, sub.Cvc
		}
		m["card_style_id"] = nil
		m["exp"] = sub.Exp.Format(time.DateOnly)
		m["preferences"] = map[string]any{
			"allow_cash_transactions":    sub.AllowCashTransactions,
			"allow_foreign_transactions": sub.AllowForeignTransactions,
			"daily_cash_limit":           float64(sub.DailyCashLimitCents),
			"daily_transaction_limit":    float64(sub.DailyTransactionLimitCents),
		}
		return m
	}
	m["account_num"] = "******" + lastFourOf(sub.AccountNum)
	if full {
		m["account_num"] = sub.AccountNum
	}
	m["routing_num"] = map[string]any{"ach": subnetRoutingNum, "wire": subnetRoutingNum}
	return m
}

// subnetAllowedOf is the allowed field sub reads (TestSubnetAllowed checks
// each value explicitly).
func subnetAllowedOf(sub synapsefake.Subnet) string {
	switch {
	case sub.Status != synapsefake.SubnetActive:
		return "LOCKED"
	case sub.AccountClass == synapsefake.ClassCard:
		return "CREDIT-AND-DEBIT"
	}
	return "CREDIT"
}

func lastFourOf(s string) string {
	if len(s) < 4 {
		return s
	}
	return s[len(s)-4:]
}

// wantSubnetBody checks that r is a 200 answering the single subnet want
// with "success": true.
func wantSubnetBody(t testing.TB, r testkit.Response, want map[string]any) {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d, want 200; body %s", r.Status, r.Raw)
	}
	want = maps.Clone(want)
	want["success"] = true
	if want["abu_token"] == abuTokenPlaceholder {
		if tok, _ := r.Body["abu_token"].(string); tok != "" {
			want["abu_token"] = tok
		}
	}
	if diff := cmp.Diff(want, r.Body); diff != "" {
		t.Errorf("subnet mismatch (-want +got):\n%s", diff)
	}
}

// subnetsWrapper is the list wrapper of the subnet lists.
func subnetsWrapper(limit, page, pageCount, count int, subnets []any) map[string]any {
	if subnets == nil {
		subnets = []any{}
	}
	return map[string]any{
		"error_code":    "0",
		"http_code":     "200",
		"limit":         float64(limit),
		"page":          float64(page),
		"page_count":    float64(pageCount),
		"subnets":       subnets,
		"subnets_count": float64(count),
		"success":       true,
	}
}

// wantSnError is wantError plus the rule that the HTTP status equals the
// body's http_code.
func wantSnError(t testing.TB, r testkit.Response, status int, errorCode, code string) {
	t.Helper()
	testkit.WantError(t, r, status, errorCode, code)
	if hc := r.Body["http_code"]; hc != fmt.Sprint(r.Status) {
		t.Errorf("http_code %v differs from the HTTP status %d", hc, r.Status)
	}
}

// snState is what a refused call must leave alone: users, their nodes and
// the nodes' transactions, and every subnet, as the inspection API and the
// list endpoints show them.
type snState struct {
	Users   map[string]synapsefake.User
	Nodes   map[string]synapsefake.Node
	Subnets map[string]synapsefake.Subnet
	Trans   map[string]synapsefake.Transaction
	Listed  map[string][]string // list path -> ids it lists, all pages
}

// snapshot copies the state of the users and of their nodes (plus extra
// nodes, such as deleted ones).
func snapshot(t testing.TB, fake *synapsefake.Server, userIDs []string, extraNodes ...string) snState {
	t.Helper()
	s := snState{Users: map[string]synapsefake.User{}, Nodes: map[string]synapsefake.Node{},
		Subnets: map[string]synapsefake.Subnet{}, Trans: map[string]synapsefake.Transaction{}, Listed: map[string][]string{}}
	for _, uid := range userIDs {
		u, ok := fake.User(uid)
		if !ok {
			t.Fatalf("User(%s) not found", uid)
		}
		s.Users[uid] = u
		h := testkit.UserHeaders(fake, fake.OAuthKey(uid, testkit.TestFingerprint))
		s.list(t, fake, h, userSubnetsPath(uid), "subnets")
		s.list(t, fake, h, "/users/"+uid+"/trans", "trans")
		for _, nid := range append(slices.Clone(u.NodeIDs), extraNodes...) {
			n, ok := fake.Node(nid)
			if !ok {
				t.Fatalf("Node(%s) not found", nid)
			}
			if n.UserID != uid {
				continue
			}
			s.Nodes[nid] = n
			s.list(t, fake, h, testkit.SubnetsPath(uid, nid), "subnets")
			s.list(t, fake, h, "/users/"+uid+"/nodes/"+nid+"/trans", "trans")
		}
	}
	for path, ids := range s.Listed {
		for _, id := range ids {
			if strings.HasSuffix(path, "/subnets") {
				s.Subnets[id] = mustSubnet(t, fake, id)
				continue
			}
			tx, ok := fake.Transaction(id)
			if !ok {
				t.Fatalf("Transaction(%s) not found", id)
			}
			s.Trans[id] = tx
		}
	}
	return s
}

// list walks every page of a list and records the ids it lists.
func (s snState) list(t testing.TB, fake *synapsefake.Server, h map[string]string, path, key string) {
	t.Helper()
	ids := []string{}
	for page := 1; ; page++ {
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: fmt.Sprintf("%s?page=%d&per_page=20", path, page), Header: h})
		if r.Status != 200 {
			t.Fatalf("GET %s: status %d: %s", path, r.Status, r.Raw)
		}
		items, _ := r.Body[key].([]any)
		for _, it := range items {
			ids = append(ids, it.(map[string]any)["_id"].(string))
		}
		if pc, _ := r.Body["page_count"].(float64); page >= int(pc) {
			break
		}
	}
	s.Listed[path] = ids
}

// wantUnchangedSince fails the test when the state moved since before.
func wantUnchangedSince(t testing.TB, fake *synapsefake.Server, before snState) {
	t.Helper()
	var extra []string
	for id := range before.Nodes {
		extra = append(extra, id)
	}
	after := snapshot(t, fake, slices.Collect(maps.Keys(before.Users)), extra...)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("store changed by a refused call (-before +after):\n%s", diff)
	}
}

// snEnv is a fake with a user holding subnets of every kind and another
// user, for the error tables.
type snEnv struct {
	fake      *synapsefake.Server
	fx        testkit.Fixture    // the caller, a DEPOSIT-US node with $1,000, every scope
	other     testkit.Fixture    // another user with a DEPOSIT-US node
	second    synapsefake.Node   // a second DEPOSIT-US node of fx, with no subnets
	card      synapsefake.Subnet // an INACTIVE card on fx's node
	active    synapsefake.Subnet // an ACTIVE card on fx's node
	ended     synapsefake.Subnet // a TERMINATED card on fx's node
	acct      synapsefake.Subnet // a CHECKING account number on fx's node
	otherCard synapsefake.Subnet // an ACTIVE card on other's node
	extra     synapsefake.Node   // a node a case's setup adds
	extraSub  synapsefake.Subnet // a subnet a case's setup adds
}

func newSnEnv(t testing.TB, opts ...synapsefake.Option) snEnv {
	t.Helper()
	fake := synapsefake.NewServer(t, opts...)
	e := snEnv{fake: fake, fx: testkit.NewFixture(t, fake, 100000), other: testkit.NewFixture(t, fake, 0)}
	e.second = fake.MustAddNode(t, e.fx.User.ID, synapsefake.NodeSeed{Nickname: "Second"})
	e.card = testkit.AddSubnet(t, fake, e.fx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD"})
	e.active = testkit.AddSubnet(t, fake, e.fx, synapsefake.SubnetSeed{Nickname: "Active", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	e.ended = testkit.AddSubnet(t, fake, e.fx, synapsefake.SubnetSeed{Nickname: "Ended", AccountClass: "CARD", Status: synapsefake.SubnetTerminated})
	e.acct = testkit.AddSubnet(t, fake, e.fx, synapsefake.SubnetSeed{Nickname: "Account"})
	e.otherCard = testkit.AddSubnet(t, fake, e.other, synapsefake.SubnetSeed{Nickname: "Theirs", AccountClass: "CARD", Status: synapsefake.SubnetActive})
	return e
}

func (e snEnv) snapshot(t testing.TB) snState {
	t.Helper()
	return snapshot(t, e.fake, []string{e.fx.User.ID, e.other.User.ID})
}

// path is the subnet's path under fx's user and node.
func (e snEnv) path(sub synapsefake.Subnet) string {
	return testkit.SubnetPath(e.fx.User.ID, e.fx.Node.ID, sub.ID)
}

// snErrorCase is a refused call and the error it gets.
type snErrorCase struct {
	name      string
	setup     func(t *testing.T, e *snEnv) // optional, before the snapshot
	call      func(e snEnv) testkit.Call
	status    int
	errorCode string
	code      string
}

// runSnErrorCases runs each case on a fresh snEnv and checks the envelope
// and that nothing changed.
func runSnErrorCases(t *testing.T, cases []snErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newSnEnv(t)
			if tc.setup != nil {
				tc.setup(t, &e)
			}
			before := e.snapshot(t)
			r := testkit.Do(t, e.fake, tc.call(e))
			wantSnError(t, r, tc.status, tc.errorCode, tc.code)
			wantUnchangedSince(t, e.fake, before)
		})
	}
}

// deleteNode deletes a node over HTTP.
func deleteNode(t testing.TB, fake *synapsefake.Server, fx testkit.Fixture, nodeID string) {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "DELETE", Path: "/users/" + fx.User.ID + "/nodes/" + nodeID, Header: fx.Headers})
	if r.Status != 200 {
		t.Fatalf("DELETE node: status %d: %s", r.Status, r.Raw)
	}
}

func TestCreateSubnet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		nodeType  string // of the node the subnet is issued on
		body      map[string]any
		wantClass string
		edit      func(want map[string]any) // the fields the body sets beyond the defaults
	}{
		{name: "nickname alone issues a checking account number", body: map[string]any{"nickname": "Rent"}, wantClass: "CHECKING"},
		{name: "explicit CHECKING", body: map[string]any{"nickname": "Rent", "account_class": "CHECKING"}, wantClass: "CHECKING"},
		{name: "SAVINGS", body: map[string]any{"nickname": "Rainy day", "account_class": "SAVINGS"}, wantClass: "SAVINGS"},
		{name: "CARD", body: map[string]any{"nickname": "Groceries", "account_class": "CARD"}, wantClass: "CARD"},
		{name: "DEBIT_CARD, the Go client's spelling, is a card", body: map[string]any{"nickname": "Groceries", "account_class": "DEBIT_CARD"}, wantClass: "CARD"},
		{name: "on a SUBACCOUNT-US node", nodeType: "SUBACCOUNT-US", body: map[string]any{"nickname": "Sub", "account_class": "CARD"}, wantClass: "CARD"},
		{name: "account number on a SUBACCOUNT-US node", nodeType: "SUBACCOUNT-US", body: map[string]any{"nickname": "Sub"}, wantClass: "CHECKING"},
		{
			name:      "card with supp_id and card_style_id",
			body:      map[string]any{"nickname": "Styled", "account_class": "CARD", "supp_id": "s-42", "card_style_id": "555"},
			wantClass: "CARD",
			edit: func(want map[string]any) {
				want["supp_id"] = "s-42"
				want["card_style_id"] = "555"
			},
		},
		{
			name:      "account number with supp_id",
			body:      map[string]any{"nickname": "Tagged", "supp_id": "s-43"},
			wantClass: "CHECKING",
			edit:      func(want map[string]any) { want["supp_id"] = "s-43" },
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			node := fx.Node
			if tc.nodeType != "" {
				node = fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Type: tc.nodeType})
			}
			now := fake.Now()
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.SubnetsPath(fx.User.ID, node.ID), Header: fx.Headers, Body: tc.body})
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			id, _ := r.Body["_id"].(string)
			if !hexIDPattern24(id) {
				t.Fatalf("_id %q is not 24 hex characters", id)
			}
			got := mustSubnet(t, fake, id)

			// The stored subnet: personal data of the right form, the rest as asked.
			want := synapsefake.Subnet{ID: id, UserID: fx.User.ID, NodeID: node.ID, Nickname: tc.body["nickname"].(string),
				AccountClass: synapsefake.AccountClass(tc.wantClass), Status: synapsefake.SubnetActive, StatusCode: "USER_REQUESTED"}
			if tc.wantClass == "CARD" {
				if len(got.CardNumber) != 16 || !snDigits.MatchString(got.CardNumber) || !luhnOK(got.CardNumber) {
					t.Errorf("card number %q is not 16 digits passing the Luhn check", got.CardNumber)
				}
				if len(got.Cvc) != 3 || !snDigits.MatchString(got.Cvc) {
					t.Errorf("cvc %q is not 3 digits", got.Cvc)
				}
				want.Status = synapsefake.SubnetInactive
				want.CardNumber, want.Cvc = got.CardNumber, got.Cvc
				want.Exp = time.Date(now.UTC().Year()+3, now.UTC().Month(), now.UTC().Day(), 0, 0, 0, 0, time.UTC)
				want.AllowCashTransactions, want.AllowForeignTransactions = true, false
				want.DailyCashLimitCents, want.DailyTransactionLimitCents = 50000, 100000
			} else {
				if len(got.AccountNum) != 10 || !snDigits.MatchString(got.AccountNum) {
					t.Errorf("account number %q is not 10 digits", got.AccountNum)
				}
				want.AccountNum = got.AccountNum
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("stored subnet (-want +got):\n%s", diff)
			}

			// The answer: the masked wire form.
			wantJSON := subnetJSON(fake, got, now, now, false)
			if tc.edit != nil {
				tc.edit(wantJSON)
			}
			wantSubnetBody(t, r, wantJSON)

			// GET answers the same object, and both lists hold it.
			g := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.SubnetPath(fx.User.ID, node.ID, id), Header: fx.Headers})
			if diff := cmp.Diff(r.Body, g.Body); diff != "" {
				t.Errorf("GET differs from the create answer (-create +get):\n%s", diff)
			}
			for _, path := range []string{testkit.SubnetsPath(fx.User.ID, node.ID), userSubnetsPath(fx.User.ID)} {
				l := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path, Header: fx.Headers})
				delete(g.Body, "success")
				if diff := cmp.Diff(subnetsWrapper(20, 1, 1, 1, []any{g.Body}), l.Body); diff != "" {
					t.Errorf("GET %s (-want +got):\n%s", path, diff)
				}
			}
		})
	}
}

var snHexID = regexp.MustCompile(`^[0-9a-f]{24}$`)

func hexIDPattern24(s string) bool { return snHexID.MatchString(s) }

// luhnOK reports whether a digit string passes the Luhn check.
func luhnOK(s string) bool {
	sum := 0
	for i := range len(s) {
		d := int(s[len(s)-1-i] - '0')
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

func TestCreateSubnetCardExpiry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		now  time.Time
		want string
	}{
		{"three years ahead", time.Date(2024, time.January, 8, 10, 0, 0, 0, time.UTC), "2027-01-08"},
		{"just before midnight UTC", time.Date(2024, time.December, 31, 23, 59, 59, 999e6, time.UTC), "2027-12-31"},
		{"the UTC day, whatever the clock's zone", time.Date(2024, time.March, 1, 20, 0, 0, 0, time.FixedZone("EST", -5*3600)), "2027-03-02"},
		{"February 29 rolls over to March 1", time.Date(2024, time.February, 29, 12, 0, 0, 0, time.UTC), "2027-03-01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mock := clock.NewMock()
			mock.Set(tc.now)
			fake := synapsefake.NewServer(t, synapsefake.WithClock(mock))
			fx := testkit.NewFixture(t, fake, 0)
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.SubnetsPath(fx.User.ID, fx.Node.ID), Header: fx.Headers,
				Body: map[string]any{"nickname": "Card", "account_class": "CARD"}})
			if r.Body["exp"] != tc.want {
				t.Errorf("exp %v, want %s", r.Body["exp"], tc.want)
			}
		})
	}
}

func TestCreateSubnetErrors(t *testing.T) {
	t.Parallel()
	post := func(path func(e snEnv) string, body any) func(e snEnv) testkit.Call {
		return func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: path(e), Header: e.fx.Headers, Body: body}
		}
	}
	own := func(e snEnv) string { return testkit.SubnetsPath(e.fx.User.ID, e.fx.Node.ID) }
	cases := []snErrorCase{
		{name: "missing nickname", call: post(own, map[string]any{"account_class": "CARD"}), status: 400, errorCode: "200", code: "missing_nickname"},
		{name: "null nickname", call: post(own, map[string]any{"nickname": nil}), status: 400, errorCode: "200", code: "missing_nickname"},
		{name: "nickname a number", call: post(own, map[string]any{"nickname": 5}), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "unknown account_class", call: post(own, map[string]any{"nickname": "x", "account_class": "PLATINUM"}), status: 400, errorCode: "200", code: "invalid_account_class"},
		{name: "lower-case account_class", call: post(own, map[string]any{"nickname": "x", "account_class": "card"}), status: 400, errorCode: "200", code: "invalid_account_class"},
		{name: "account_class a number", call: post(own, map[string]any{"nickname": "x", "account_class": 1}), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "supp_id a number", call: post(own, map[string]any{"nickname": "x", "supp_id": 1}), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "malformed JSON", call: post(own, `{"nickname":`), status: 400, errorCode: "200", code: "invalid_json"},
		{name: "array body", call: post(own, `[{"nickname":"x"}]`), status: 400, errorCode: "200", code: "invalid_json"},
		{name: "empty body", call: post(own, ""), status: 400, errorCode: "200", code: "invalid_json"},
		{name: "unknown node", call: post(func(e snEnv) string { return testkit.SubnetsPath(e.fx.User.ID, "0123456789abcdef01234567") }, map[string]any{"nickname": "x"}),
			status: 404, errorCode: "404", code: "unable_to_locate_node"},
		{name: "another user's node", call: post(func(e snEnv) string { return testkit.SubnetsPath(e.fx.User.ID, e.other.Node.ID) }, map[string]any{"nickname": "x"}),
			status: 401, errorCode: "300", code: "unauthorized_node"},
		{name: "another user's path", call: post(func(e snEnv) string { return testkit.SubnetsPath(e.other.User.ID, e.other.Node.ID) }, map[string]any{"nickname": "x"}),
			status: 401, errorCode: "300", code: "unauthorized_user"},
		{name: "scope SUBNETS|POST not granted", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: own(e), Header: keyWithout(e.fake, e.fx, "SUBNETS|POST"), Body: map[string]any{"nickname": "x"}}
		}, status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "missing X-SP-USER", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: own(e), Header: testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-USER": ""}), Body: map[string]any{"nickname": "x"}}
		}, status: 400, errorCode: "200", code: "missing_user_credentials"},
		{name: "unknown oauth key", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: own(e), Header: testkit.UserHeaders(e.fake, "oauth_unknown"), Body: map[string]any{"nickname": "x"}}
		}, status: 401, errorCode: "110", code: "invalid_oauth_key"},
		{name: "missing X-SP-USER-IP", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: own(e), Header: testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-USER-IP": ""}), Body: map[string]any{"nickname": "x"}}
		}, status: 400, errorCode: "200", code: "missing_user_ip"},
		{name: "wrong gateway", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: own(e), Header: testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-GATEWAY": "a|b"}), Body: map[string]any{"nickname": "x"}}
		}, status: 401, errorCode: "100", code: "invalid_client_credentials"},
		{name: "deleted node", setup: func(t *testing.T, e *snEnv) { deleteNode(t, e.fake, e.fx, e.second.ID) },
			call:   post(func(e snEnv) string { return testkit.SubnetsPath(e.fx.User.ID, e.second.ID) }, map[string]any{"nickname": "x"}),
			status: 409, errorCode: "410", code: "node_inactive"},
	}
	// Nodes of types that hold no subnets.
	for _, typ := range []string{"ACH-US", "EXTERNAL-US", "INTERCHANGE-US", "IC-DEPOSIT-US", "WIRE-US"} {
		cases = append(cases, snErrorCase{
			name: typ + " node",
			setup: func(t *testing.T, e *snEnv) {
				e.extra = e.fake.MustAddNode(t, e.fx.User.ID, synapsefake.NodeSeed{Type: typ, AccountNum: "123456789", RoutingNum: "051000017"})
			},
			call:   post(func(e snEnv) string { return testkit.SubnetsPath(e.fx.User.ID, e.extra.ID) }, map[string]any{"nickname": "x", "account_class": "CARD"}),
			status: 409, errorCode: "400", code: "invalid_node_type",
		})
	}
	runSnErrorCases(t, cases)
}

func TestListSubnets(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	second := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Second"})
	created := fake.Now()
	a := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "A"})
	fake.Advance(time.Minute)
	b, err := fake.AddSubnet(fx.User.ID, second.ID, synapsefake.SubnetSeed{Nickname: "B", AccountClass: "CARD"})
	if err != nil {
		t.Fatal(err)
	}
	fake.Advance(time.Minute)
	c := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "C", AccountClass: "SAVINGS", Status: synapsefake.SubnetTerminated})
	other := testkit.NewFixture(t, fake, 0)
	testkit.AddSubnet(t, fake, other, synapsefake.SubnetSeed{Nickname: "Theirs"})
	empty := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Empty"})

	ja := subnetJSON(fake, a, created, created, false)
	jb := subnetJSON(fake, b, created.Add(time.Minute), created.Add(time.Minute), false)
	jc := subnetJSON(fake, c, created.Add(2*time.Minute), created.Add(2*time.Minute), false)
	for _, tc := range []struct {
		name string
		path string
		want map[string]any
	}{
		{"a node's subnets in creation order", testkit.SubnetsPath(fx.User.ID, fx.Node.ID), subnetsWrapper(20, 1, 1, 2, []any{ja, jc})},
		{"the other node's", testkit.SubnetsPath(fx.User.ID, second.ID), subnetsWrapper(20, 1, 1, 1, []any{jb})},
		{"a node with none", testkit.SubnetsPath(fx.User.ID, empty.ID), subnetsWrapper(20, 1, 0, 0, nil)},
		{"every node of the user", userSubnetsPath(fx.User.ID), subnetsWrapper(20, 1, 1, 3, []any{ja, jb, jc})},
		{"stray query keys are tolerated", userSubnetsPath(fx.User.ID) + "?page=1&per_page=20&foo=bar", subnetsWrapper(20, 1, 1, 3, []any{ja, jb, jc})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.path, Header: fx.Headers})
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			// The card's abu_token is checked by TestCreateSubnet; take it as listed.
			if subs, _ := r.Body["subnets"].([]any); len(subs) > 0 {
				for i, s := range subs {
					w := tc.want["subnets"].([]any)[i].(map[string]any)
					if w["abu_token"] == abuTokenPlaceholder {
						w = maps.Clone(w)
						w["abu_token"] = s.(map[string]any)["abu_token"]
						tc.want["subnets"].([]any)[i] = w
					}
				}
			}
			if diff := cmp.Diff(tc.want, r.Body); diff != "" {
				t.Errorf("GET %s (-want +got):\n%s", tc.path, diff)
			}
		})
	}
}

func TestListSubnetsPaging(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	var ids []string
	for i := range 45 {
		class := ""
		if i%3 == 0 {
			class = "CARD"
		}
		ids = append(ids, testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: fmt.Sprint("S", i), AccountClass: synapsefake.AccountClass(class)}).ID)
	}
	for _, base := range []string{testkit.SubnetsPath(fx.User.ID, fx.Node.ID), userSubnetsPath(fx.User.ID)} {
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			for _, tc := range []struct {
				query                          string
				wantLimit, wantPage, wantCount int
				wantIDs                        []string
			}{
				{"?page=1&per_page=20", 20, 1, 3, ids[0:20]},
				{"?page=2&per_page=20", 20, 2, 3, ids[20:40]},
				{"?page=3&per_page=20", 20, 3, 3, ids[40:45]},
				{"?page=4&per_page=20", 20, 4, 3, nil},
				{"", 20, 1, 3, ids[0:20]},
				{"?page=3", 20, 3, 3, ids[40:45]},
				{"?per_page=50", 20, 1, 3, ids[0:20]},
				{"?per_page=50&page=3", 20, 3, 3, ids[40:45]},
				{"?per_page=7&page=7", 7, 7, 7, ids[42:45]},
				{"?per_page=1&page=45", 1, 45, 45, ids[44:45]},
			} {
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: base + tc.query, Header: fx.Headers})
				if r.Status != 200 {
					t.Fatalf("%s: status %d: %s", tc.query, r.Status, r.Raw)
				}
				subs, _ := r.Body["subnets"].([]any)
				got := []string{}
				for _, s := range subs {
					got = append(got, s.(map[string]any)["_id"].(string))
				}
				want := subnetsWrapper(tc.wantLimit, tc.wantPage, tc.wantCount, 45, nil)
				want["subnets"] = r.Body["subnets"] // compared by id below
				if diff := cmp.Diff(want, r.Body); diff != "" {
					t.Errorf("%s: wrapper (-want +got):\n%s", tc.query, diff)
				}
				if diff := cmp.Diff(append([]string{}, tc.wantIDs...), got); diff != "" {
					t.Errorf("%s: ids (-want +got):\n%s", tc.query, diff)
				}
			}
		})
	}
	// Walking the pages with per_page 20 sees every subnet once: 20, 20, 5.
	var walked []string
	var sizes []int
	for page := 1; page <= 3; page++ {
		r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: fmt.Sprintf("%s?page=%d&per_page=20", testkit.SubnetsPath(fx.User.ID, fx.Node.ID), page), Header: fx.Headers})
		if pc := r.Body["page_count"]; pc != 3.0 {
			t.Errorf("page %d: page_count %v, want 3", page, pc)
		}
		subs, _ := r.Body["subnets"].([]any)
		sizes = append(sizes, len(subs))
		for _, s := range subs {
			walked = append(walked, s.(map[string]any)["_id"].(string))
		}
	}
	if diff := cmp.Diff([]int{20, 20, 5}, sizes); diff != "" {
		t.Errorf("page sizes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ids, walked); diff != "" {
		t.Errorf("walked ids (-want +got):\n%s", diff)
	}
}

func TestListSubnetsErrors(t *testing.T) {
	t.Parallel()
	get := func(path func(e snEnv) string, h func(e snEnv) map[string]string) func(e snEnv) testkit.Call {
		return func(e snEnv) testkit.Call {
			hd := e.fx.Headers
			if h != nil {
				hd = h(e)
			}
			return testkit.Call{Method: "GET", Path: path(e), Header: hd}
		}
	}
	nodeList := func(q string) func(e snEnv) string {
		return func(e snEnv) string { return testkit.SubnetsPath(e.fx.User.ID, e.fx.Node.ID) + q }
	}
	userList := func(q string) func(e snEnv) string {
		return func(e snEnv) string { return userSubnetsPath(e.fx.User.ID) + q }
	}
	noGateway := func(e snEnv) map[string]string {
		return testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-GATEWAY": ""})
	}
	var cases []snErrorCase
	for _, l := range []struct {
		name string
		path func(q string) func(e snEnv) string
	}{{"node list", nodeList}, {"user list", userList}} {
		cases = append(cases,
			snErrorCase{name: l.name + ": missing gateway", call: get(l.path(""), noGateway), status: 400, errorCode: "100", code: "missing_client_credentials"},
			snErrorCase{name: l.name + ": wrong gateway", call: get(l.path(""), func(e snEnv) map[string]string {
				return testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-GATEWAY": "a|b"})
			}), status: 401, errorCode: "100", code: "invalid_client_credentials"},
			snErrorCase{name: l.name + ": page 0", call: get(l.path("?page=0"), nil), status: 400, errorCode: "200", code: "invalid_page"},
			snErrorCase{name: l.name + ": page not a number", call: get(l.path("?page=two"), nil), status: 400, errorCode: "200", code: "invalid_page"},
			snErrorCase{name: l.name + ": per_page 0", call: get(l.path("?per_page=0"), nil), status: 400, errorCode: "200", code: "invalid_per_page"},
			snErrorCase{name: l.name + ": per_page negative", call: get(l.path("?per_page=-5"), nil), status: 400, errorCode: "200", code: "invalid_per_page"},
			snErrorCase{name: l.name + ": scope SUBNETS|GET not granted", call: get(l.path(""), func(e snEnv) map[string]string {
				return keyWithout(e.fake, e.fx, "SUBNETS|GET")
			}), status: 401, errorCode: "300", code: "scope_not_granted"},
			snErrorCase{name: l.name + ": missing X-SP-USER-IP", call: get(l.path(""), func(e snEnv) map[string]string {
				return testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-USER-IP": ""})
			}), status: 400, errorCode: "200", code: "missing_user_ip"},
			snErrorCase{name: l.name + ": empty oauth key", call: get(l.path(""), func(e snEnv) map[string]string {
				return testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-USER": "|" + testkit.TestFingerprint})
			}), status: 401, errorCode: "300", code: "missing_oauth_key"},
		)
	}
	cases = append(cases,
		snErrorCase{name: "another user's node", call: get(func(e snEnv) string { return testkit.SubnetsPath(e.fx.User.ID, e.other.Node.ID) }, nil),
			status: 401, errorCode: "300", code: "unauthorized_node"},
		snErrorCase{name: "unknown node", call: get(func(e snEnv) string { return testkit.SubnetsPath(e.fx.User.ID, "0123456789abcdef01234567") }, nil),
			status: 404, errorCode: "404", code: "unable_to_locate_node"},
		snErrorCase{name: "another user's list", call: get(func(e snEnv) string { return userSubnetsPath(e.other.User.ID) }, nil),
			status: 401, errorCode: "300", code: "unauthorized_user"},
		snErrorCase{name: "POST on the user list", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: userSubnetsPath(e.fx.User.ID), Header: e.fx.Headers, Body: map[string]any{"nickname": "x"}}
		}, status: 409, errorCode: "410", code: "method_not_allowed"},
	)
	runSnErrorCases(t, cases)
}

func TestGetSubnet(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	now := fake.Now()
	card := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD"})
	acct := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account", AccountClass: "SAVINGS"})
	for _, sub := range []synapsefake.Subnet{card, acct} {
		for _, tc := range []struct {
			query string
			full  bool
		}{
			{"", false},
			{"?full_dehydrate=NO", false},
			{"?full_dehydrate=no", false},
			{"?full_dehydrate=YES", true},
			{"?full_dehydrate=yes", true},
			{"?full_dehydrate=Yes&foo=1", true},
		} {
			t.Run(string(sub.AccountClass)+tc.query, func(t *testing.T) {
				t.Parallel()
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.SubnetPath(fx.User.ID, fx.Node.ID, sub.ID) + tc.query, Header: fx.Headers})
				wantSubnetBody(t, r, subnetJSON(fake, sub, now, now, tc.full))
				if !tc.full {
					return
				}
				// The personal data has the form of the real thing.
				if sub.AccountClass == "CARD" {
					num, _ := r.Body["card_number"].(string)
					cvc, _ := r.Body["cvc"].(string)
					if len(num) != 16 || !snDigits.MatchString(num) || !luhnOK(num) {
						t.Errorf("card_number %q is not 16 Luhn-valid digits", num)
					}
					if len(cvc) != 3 || !snDigits.MatchString(cvc) {
						t.Errorf("cvc %q is not 3 digits", cvc)
					}
					return
				}
				if num, _ := r.Body["account_num"].(string); len(num) != 10 || !snDigits.MatchString(num) {
					t.Errorf("account_num %q is not 10 digits", num)
				}
			})
		}
	}
}

func TestGetSubnetErrors(t *testing.T) {
	t.Parallel()
	get := func(path func(e snEnv) string, h func(e snEnv) map[string]string) func(e snEnv) testkit.Call {
		return func(e snEnv) testkit.Call {
			hd := e.fx.Headers
			if h != nil {
				hd = h(e)
			}
			return testkit.Call{Method: "GET", Path: path(e), Header: hd}
		}
	}
	card := func(q string) func(e snEnv) string { return func(e snEnv) string { return e.path(e.card) + q } }
	runSnErrorCases(t, []snErrorCase{
		{name: "missing gateway", call: get(card(""), func(e snEnv) map[string]string {
			return testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-GATEWAY": ""})
		}), status: 400, errorCode: "100", code: "missing_client_credentials"},
		{name: "missing gateway with full_dehydrate", call: get(card("?full_dehydrate=YES"), func(e snEnv) map[string]string {
			return testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-GATEWAY": ""})
		}), status: 400, errorCode: "100", code: "missing_client_credentials"},
		{name: "scope SUBNET|GET not granted", call: get(card("?full_dehydrate=YES"), func(e snEnv) map[string]string {
			return keyWithout(e.fake, e.fx, "SUBNET|GET")
		}), status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "expired oauth key", call: get(card(""), func(e snEnv) map[string]string {
			return testkit.UserHeaders(e.fake, "oauth_0000000000000000000000000000")
		}), status: 401, errorCode: "110", code: "invalid_oauth_key"},
		{name: "another user's subnet under one's own node", call: get(func(e snEnv) string {
			return testkit.SubnetPath(e.fx.User.ID, e.fx.Node.ID, e.otherCard.ID)
		}, nil), status: 401, errorCode: "300", code: "unauthorized_subnet"},
		{name: "another user's node", call: get(func(e snEnv) string {
			return testkit.SubnetPath(e.fx.User.ID, e.other.Node.ID, e.otherCard.ID)
		}, nil), status: 401, errorCode: "300", code: "unauthorized_node"},
		{name: "another user's path", call: get(func(e snEnv) string {
			return testkit.SubnetPath(e.other.User.ID, e.other.Node.ID, e.otherCard.ID)
		}, nil), status: 401, errorCode: "300", code: "unauthorized_user"},
		{name: "unknown subnet", call: get(func(e snEnv) string {
			return testkit.SubnetPath(e.fx.User.ID, e.fx.Node.ID, "0123456789abcdef01234567")
		}, nil), status: 404, errorCode: "404", code: "unable_to_locate_subnet"},
		{name: "own subnet under one's other node", call: get(func(e snEnv) string {
			return testkit.SubnetPath(e.fx.User.ID, e.second.ID, e.card.ID)
		}, nil), status: 404, errorCode: "404", code: "unable_to_locate_subnet"},
		{name: "DELETE is not served", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "DELETE", Path: e.path(e.card), Header: e.fx.Headers}
		}, status: 409, errorCode: "410", code: "method_not_allowed"},
	})
}

func TestAddSubnet(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	other := testkit.NewFixture(t, fake, 0)
	ach := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", AccountNum: "123456789", RoutingNum: "051000017"})
	if sub, ok := fake.Subnet("0123456789abcdef01234567"); ok {
		t.Errorf("Subnet(unknown) = %+v, true", sub)
	}
	for _, tc := range []struct {
		name       string
		userID     string
		nodeID     string
		seed       synapsefake.SubnetSeed
		wantErr    bool
		wantStatus synapsefake.SubnetStatus
		wantClass  string
		wantName   string
	}{
		{name: "defaults", userID: fx.User.ID, nodeID: fx.Node.ID, wantStatus: "ACTIVE", wantClass: "CHECKING", wantName: "Subnet"},
		{name: "a card starts INACTIVE", userID: fx.User.ID, nodeID: fx.Node.ID, seed: synapsefake.SubnetSeed{Nickname: "C", AccountClass: "CARD"}, wantStatus: "INACTIVE", wantClass: "CARD", wantName: "C"},
		{name: "DEBIT_CARD, as the API takes it, is a card", userID: fx.User.ID, nodeID: fx.Node.ID, seed: synapsefake.SubnetSeed{AccountClass: "DEBIT_CARD"}, wantStatus: "INACTIVE", wantClass: "CARD", wantName: "Subnet"},
		{name: "a card seeded ACTIVE", userID: fx.User.ID, nodeID: fx.Node.ID, seed: synapsefake.SubnetSeed{AccountClass: "CARD", Status: "ACTIVE"}, wantStatus: "ACTIVE", wantClass: "CARD", wantName: "Subnet"},
		{name: "savings seeded TERMINATED", userID: fx.User.ID, nodeID: fx.Node.ID, seed: synapsefake.SubnetSeed{AccountClass: "SAVINGS", Status: "TERMINATED"}, wantStatus: "TERMINATED", wantClass: "SAVINGS", wantName: "Subnet"},
		{name: "unknown status", userID: fx.User.ID, nodeID: fx.Node.ID, seed: synapsefake.SubnetSeed{Status: "LOST"}, wantErr: true},
		{name: "unknown class", userID: fx.User.ID, nodeID: fx.Node.ID, seed: synapsefake.SubnetSeed{AccountClass: "GOLD"}, wantErr: true},
		{name: "unknown user", userID: "0123456789abcdef01234567", nodeID: fx.Node.ID, wantErr: true},
		{name: "unknown node", userID: fx.User.ID, nodeID: "0123456789abcdef01234567", wantErr: true},
		{name: "another user's node", userID: fx.User.ID, nodeID: other.Node.ID, wantErr: true},
		{name: "an ACH-US node", userID: fx.User.ID, nodeID: ach.ID, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(t, fake, []string{fx.User.ID, other.User.ID})
			sub, err := fake.AddSubnet(tc.userID, tc.nodeID, tc.seed)
			if tc.wantErr {
				if err == nil {
					t.Errorf("AddSubnet = %+v, want an error", sub)
				}
				wantUnchangedSince(t, fake, before)
				return
			}
			if err != nil {
				t.Fatalf("AddSubnet: %v", err)
			}
			if got := mustSubnet(t, fake, sub.ID); !cmp.Equal(got, sub) || sub.Status != tc.wantStatus || string(sub.AccountClass) != tc.wantClass ||
				sub.Nickname != tc.wantName || sub.StatusCode != "USER_REQUESTED" || sub.UserID != tc.userID || sub.NodeID != tc.nodeID {
				t.Errorf("AddSubnet = %+v (stored %+v), want %s %s %q", sub, got, tc.wantClass, tc.wantStatus, tc.wantName)
			}
		})
	}
}

// snEvent is the part of a captured webhook an event test compares.
type snEvent struct {
	Function, ObjectType, ObjectID, Status, Code, UpdatedBy string
}

// snEvents returns the captured webhooks of the given objects, oldest first.
func snEvents(fake *synapsefake.Server, ids ...string) []snEvent {
	var out []snEvent
	for _, w := range fake.Webhooks().All() {
		if slices.Contains(ids, w.ObjectID) {
			out = append(out, snEvent{w.Function, w.ObjectType, w.ObjectID, w.Status, w.Code, w.UpdatedBy})
		}
	}
	return out
}

func TestSubnetEvents(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 100000)

	// Over HTTP: create, a refused PATCH, then two PATCHes.
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.SubnetsPath(fx.User.ID, fx.Node.ID), Header: fx.Headers,
		Body: map[string]any{"nickname": "Card", "account_class": "CARD"}})
	id, _ := r.Body["_id"].(string)
	patchSubnet(t, fake, fx, id, `{"status":"LOST"}`)
	patchSubnet(t, fake, fx, id, `{"status":"ACTIVE"}`)
	p := patchSubnet(t, fake, fx, id, `{"pin":"c2VjcmV0LXBpbg==","preferences":{"allow_foreign_transactions":false}}`)
	if p.Status != 200 {
		t.Fatalf("PATCH: status %d: %s", p.Status, p.Raw)
	}
	// In Go: a seeded subnet and two swipes.
	seeded := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Seeded"})
	declined := swipe(t, fake, id, synapsefake.CardAuth{AmountCents: 100, Foreign: true})
	approved := swipe(t, fake, id, synapsefake.CardAuth{AmountCents: 100})

	want := []snEvent{
		{"SUBNETS|POST", "SUBNET", id, "INACTIVE", "", "SELF"},
		{"SUBNET|PATCH", "SUBNET", id, "ACTIVE", "", "SELF"},
		{"SUBNET|PATCH", "SUBNET", id, "ACTIVE", "", "SELF"},
		{"SUBNETS|POST", "SUBNET", seeded.ID, "ACTIVE", "", "BACKEND"},
		{"TRANS|POST", "TRAN", declined.ID, "CREATED", "", "BACKEND"},
		{"TRAN|PATCH", "TRAN", declined.ID, "RETURNED", "IR57", "BACKEND"},
		{"TRANS|POST", "TRAN", approved.ID, "CREATED", "", "BACKEND"},
	}
	if diff := cmp.Diff(want, snEvents(fake, id, seeded.ID, declined.ID, approved.ID)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	// The bodies carry the subnet as the API answered it, and never the pin.
	var bodies []map[string]any
	for _, w := range fake.Webhooks().All() {
		if w.ObjectID == id {
			if strings.Contains(string(w.Body), "c2VjcmV0LXBpbg==") {
				t.Errorf("%s body shows the pin: %s", w.Function, w.Body)
			}
			bodies = append(bodies, w.Payload())
		}
	}
	if len(bodies) != 3 {
		t.Fatalf("%d webhooks of the subnet, want 3", len(bodies))
	}
	for i, answer := range []testkit.Response{r, p} {
		rest := maps.Clone(answer.Body)
		delete(rest, "success")
		if diff := cmp.Diff(rest, bodies[i*2]["_rest"]); diff != "" {
			t.Errorf("%s: _rest differs from the API answer (-answer +_rest):\n%s", bodies[i*2]["webhook_meta"], diff)
		}
	}
}
