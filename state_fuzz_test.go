package synapsefake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// The state fuzzer restores documents that differ from a saved one in one
// place, and then asks the fake for every page and list: a restore that it
// accepted must leave a fake that answers each of them (no 500) within
// probeDeadline; a wedged store lock is a finding, and so is a 500. A
// document it refused must have changed nothing.

// probeDeadline is how long one probe request may take before the fake
// counts as wedged.
const probeDeadline = 2 * time.Second

// stateFuzzServer builds a server with one of each kind of record a state
// document holds, and its saved document.
func stateFuzzServer(tb testing.TB) (*fuzzWorld, []byte) {
	tb.Helper()
	w := newFuzzWorld(tb)
	s := w.s
	if _, err := s.core.CardAuthorization(w.card, CardAuth{AmountCents: 500, Merchant: "Shop"}); err != nil {
		tb.Fatal(err)
	}
	if _, err := s.core.CardAuthorization(w.card, CardAuth{AmountCents: 300, Hold: true}); err != nil {
		tb.Fatal(err)
	}
	// An ACH transfer whose R01 return was dishonored (R68), for the
	// dishonor's fields.
	achNode := s.MustAddNode(tb, w.user, NodeSeed{Type: "ACH-US", AccountNum: "123456789", RoutingNum: "051000017"})
	var t bank.TxView
	if err := s.core.CreateTxInto(s.core.Now(), w.user, achNode.ID, fuzzTx(w.node, 20), true, nil, &t); err != nil {
		tb.Fatal(err)
	}
	for _, move := range []func() error{
		func() error { return s.core.Settle(t.ID) },
		func() error { return s.core.Return(t.ID, "R01") },
		func() error { return s.core.DishonorReturn(t.ID, "R68") },
	} {
		if err := move(); err != nil {
			tb.Fatal(err)
		}
	}
	s.core.Advance(40 * 24 * time.Hour) // settles both, and makes a month's statements
	var doc bytes.Buffer
	if err := s.core.Snapshot(&doc); err != nil {
		tb.Fatal(err)
	}
	return w, doc.Bytes()
}

// jsonPath is a path into a decoded JSON document: map keys and indexes.
type jsonPath []any

func (p jsonPath) String() string {
	var b strings.Builder
	for i, k := range p {
		switch k := k.(type) {
		case string:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(k)
		case int:
			fmt.Fprintf(&b, "[%d]", k)
		}
	}
	return b.String()
}

// statePaths lists every path under the document's "store", "network_user"
// and "webhooks", in a fixed order.
func statePaths(doc any) []jsonPath {
	var out []jsonPath
	var walk func(v any, p jsonPath)
	walk = func(v any, p jsonPath) {
		out = append(out, slices.Clone(p))
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k], append(p, k))
			}
		case []any:
			for i := range x {
				walk(x[i], append(p, i))
			}
		}
	}
	top := doc.(map[string]any)
	for _, k := range []string{"network_user", "store", "webhooks"} {
		walk(top[k], jsonPath{k})
	}
	return out
}

// stateIDs lists the 24-hex-character ids of the document.
func stateIDsOf(doc any) []string {
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				if isObjectID(k) {
					seen[k] = true
				}
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case string:
			if isObjectID(x) {
				seen[x] = true
			}
		}
	}
	walk(doc)
	return sortedKeys(seen)
}

// sortedKeys are m's keys, sorted.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func isObjectID(s string) bool {
	if len(s) != 24 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

// edit applies f to the value at p: f returns the new value, or false to
// remove it (a map entry is deleted, an array element dropped).
func edit(doc any, p jsonPath, f func(any) (any, bool)) any {
	if len(p) == 0 {
		v, _ := f(doc)
		return v
	}
	switch x := doc.(type) {
	case map[string]any:
		k, _ := p[0].(string)
		if len(p) == 1 {
			if v, keep := f(x[k]); keep {
				x[k] = v
			} else {
				delete(x, k)
			}
			return x
		}
		x[k] = edit(x[k], p[1:], f)
		return x
	case []any:
		i, _ := p[0].(int)
		if i >= len(x) {
			return x
		}
		if len(p) == 1 {
			if v, keep := f(x[i]); keep {
				x[i] = v
				return x
			}
			return slices.Delete(x, i, i+1)
		}
		x[i] = edit(x[i], p[1:], f)
		return x
	}
	return doc
}

// stateMutations are the ways the fuzzer changes the value at a path.
var stateMutations = []struct {
	name string
	f    func(v any, ids []string, pick int) (any, bool)
}{
	{"unknown id", func(any, []string, int) (any, bool) { return "000000000000000000000000", true }},
	{"another id", func(_ any, ids []string, pick int) (any, bool) { return ids[pick%len(ids)], true }},
	{"null", func(any, []string, int) (any, bool) { return nil, true }},
	{"removed", func(any, []string, int) (any, bool) { return nil, false }},
	{"empty string", func(any, []string, int) (any, bool) { return "", true }},
	{"two characters", func(any, []string, int) (any, bool) { return "12", true }},
	{"negative", func(any, []string, int) (any, bool) { return json.Number("-1"), true }},
	{"huge", func(any, []string, int) (any, bool) { return json.Number("9223372036854775807"), true }},
	{"year 1", func(any, []string, int) (any, bool) { return "0001-01-01T00:00:00Z", true }},
	{"empty list", func(any, []string, int) (any, bool) { return []any{}, true }},
	{"empty object", func(any, []string, int) (any, bool) { return map[string]any{}, true }},
	{"twice", func(v any, _ []string, _ int) (any, bool) {
		if l, ok := v.([]any); ok && len(l) > 0 {
			return append(l, l[0]), true
		}
		return v, true
	}},
	{"one more unknown", func(v any, _ []string, _ int) (any, bool) {
		if l, ok := v.([]any); ok {
			return append(l, "000000000000000000000000"), true
		}
		return v, true
	}},
}

// mutateState returns doc with one change, chosen by path and how, and a
// description of it.
func mutateState(tb testing.TB, doc []byte, path uint32, how uint8, pick uint8) ([]byte, string) {
	tb.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		tb.Fatal(err)
	}
	paths, ids := statePaths(v), stateIDsOf(v)
	p := paths[int(path)%len(paths)]
	m := stateMutations[int(how)%len(stateMutations)]
	v = edit(v, p, func(old any) (any, bool) { return m.f(old, ids, int(pick)) })
	out, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return out, p.String() + ": " + m.name
}

// serve runs one request with probeDeadline; a request that does not
// answer in time fails the test as a wedge.
func serveWithin(t *testing.T, s *Server, r *http.Request, what string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.ServeHTTP(rec, r)
	}()
	select {
	case <-done:
	case <-time.After(probeDeadline):
		t.Fatalf("%s: %s %s did not answer within %s: the fake is wedged", what, r.Method, r.URL, probeDeadline)
	}
	if rec.Code >= http.StatusInternalServerError || rec.Code == http.StatusForbidden {
		t.Fatalf("%s: %s %s answered %d: %s", what, r.Method, r.URL, rec.Code, rec.Body)
	}
	return rec
}

// probeState asks the fake for every dashboard page, control list and API
// page and list of every object the document holds, moves the clock so
// that due work runs, and saves and restores the result.
func probeState(t *testing.T, s *Server, doc []byte, what string) {
	t.Helper()
	var v struct {
		Store struct {
			Users   map[string]struct{ ID string } `json:"users"`
			Nodes   map[string]struct{ UserID string }
			Txs     map[string]struct{ UserID, FromNode string }
			Subnets map[string]struct{ UserID, NodeID string }
			Subs    map[string]json.RawMessage
			Book    struct {
				ByID map[string]struct{ UserID, NodeID string }
			}
		}
	}
	_ = json.Unmarshal(doc, &v) // what the fake accepted; fields it did not need may be of any shape
	req := func(method, target, body string) *http.Request {
		r := httptest.NewRequest(method, "http://localhost"+target, strings.NewReader(body))
		r.Header.Set("X-SP-GATEWAY", s.Gateway())
		r.Header.Set("X-SP-USER-IP", "127.0.0.1")
		return r
	}
	get := func(target string) { serveWithin(t, s, req("GET", target, ""), what) }
	for _, p := range []string{"/_fake/ui/", "/_fake/ui/transactions", "/_fake/ui/webhooks", "/_fake/ui/requests",
		"/_fake/ui/oauth", "/_fake/ui/subscriptions", "/_fake/ui/?name=a", "/_fake/ui/transactions?user=a&node=a", "/_fake/webhooks", "/_fake/requests", "/_fake/clock", "/_fake/return-rules",
		"/v3.1/users", "/v3.1/nodes", "/v3.1/trans", "/v3.1/subnets", "/v3.1/subscriptions"} {
		get(p)
	}
	userGet := func(userID, target string) {
		done := make(chan string, 1)
		go func() { done <- s.core.OAuthKey(userID, "fp") }()
		var key string
		select {
		case key = <-done:
		case <-time.After(probeDeadline):
			t.Fatalf("%s: OAuthKey(%q) did not return within %s: the fake is wedged", what, userID, probeDeadline)
		}
		r := req("GET", target, "")
		r.Header.Set("X-SP-USER", key+"|fp")
		serveWithin(t, s, r, what)
	}
	// The dashboard's detail of each object.
	for _, ids := range [][]string{sortedKeys(v.Store.Users), sortedKeys(v.Store.Nodes), sortedKeys(v.Store.Txs),
		sortedKeys(v.Store.Subnets), sortedKeys(v.Store.Subs)} {
		for _, id := range ids {
			get("/_fake/ui/?open=" + url.QueryEscape(id))
		}
	}
	for _, id := range sortedKeys(v.Store.Users) {
		for _, p := range []string{"", "/nodes", "/trans", "/subnets", "/statements"} {
			userGet(id, "/v3.1/users/"+id+p)
		}
	}
	for _, id := range sortedKeys(v.Store.Nodes) {
		n := v.Store.Nodes[id]
		for _, p := range []string{"", "/trans", "/subnets", "/statements"} {
			userGet(n.UserID, "/v3.1/users/"+n.UserID+"/nodes/"+id+p)
		}
	}
	for _, id := range sortedKeys(v.Store.Txs) {
		tx := v.Store.Txs[id]
		userGet(tx.UserID, "/v3.1/users/"+tx.UserID+"/nodes/"+tx.FromNode+"/trans/"+id)
		get("/_fake/transactions/" + id)
	}
	for _, id := range sortedKeys(v.Store.Subnets) {
		sn := v.Store.Subnets[id]
		userGet(sn.UserID, "/v3.1/users/"+sn.UserID+"/nodes/"+sn.NodeID+"/subnets/"+id)
		serveWithin(t, s, req("POST", "/_fake/subnets/"+id+"/authorize", `{"amount_cents":100}`), what)
	}
	for _, id := range sortedKeys(v.Store.Subs) {
		get("/v3.1/subscriptions/" + id)
	}
	for _, id := range sortedKeys(v.Store.Book.ByID) {
		st := v.Store.Book.ByID[id]
		userGet(st.UserID, "/v3.1/users/"+st.UserID+"/statements/"+id)
	}
	for _, d := range []string{"1h", "960h"} {
		serveWithin(t, s, req("POST", "/_fake/clock/advance", `{"duration":"`+d+`"}`), what)
	}
	get("/_fake/ui/")
	saved := serveWithin(t, s, req("GET", "/_fake/state", ""), what)
	if rec := serveWithin(t, s, req("PUT", "/_fake/state", saved.Body.String()), what); rec.Code != http.StatusOK {
		t.Fatalf("%s: the fake cannot restore its own state: %d %s", what, rec.Code, rec.Body)
	}
}

// restoreOrRefuse restores doc. Accepted, the fake must pass the probe;
// refused, it must be a 400 that changed nothing.
func restoreOrRefuse(t *testing.T, w *fuzzWorld, doc []byte, what string) (accepted bool, answer string) {
	t.Helper()
	s := w.s
	before := s.core.ObservedDigest()
	rec := serveWithin(t, s, httptest.NewRequest("PUT", "http://localhost/_fake/state", bytes.NewReader(doc)), what)
	if rec.Code != http.StatusOK {
		checkAnswer(t, rec)
		if rec.Code != http.StatusBadRequest {
			t.Fatalf("%s: refused with %d, want 400: %s", what, rec.Code, rec.Body)
		}
		if after := s.core.ObservedDigest(); after != before {
			t.Fatalf("%s: refused, but the store changed", what)
		}
		return false, rec.Body.String()
	}
	probeState(t, s, doc, what)
	return true, rec.Body.String()
}

// FuzzState restores saved documents changed in one place (an id that
// names nothing, another object's id, null, a removed key, a bad number,
// card number or date, a list with an id twice...): a document the fake
// accepts must leave every page and list answering; one it refuses must
// change nothing.
func FuzzState(f *testing.F) {
	w, doc := stateFuzzServer(f)
	for i := range 64 {
		f.Add(uint32(i*37), uint8(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, path uint32, how, pick uint8) {
		mutated, what := mutateState(t, doc, path, how, pick)
		w.s.core.Reset()
		restoreOrRefuse(t, w, mutated, what)
	})
}

// TestStateRefusesWhatWouldWedge restores the documents the issue found to
// wedge the fake or make it fail: each is refused naming the path, and
// changes nothing.
func TestStateRefusesWhatWouldWedge(t *testing.T) {
	w, doc := stateFuzzServer(t)
	var v map[string]any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	store := v["store"].(map[string]any)
	first := func(m string) string { return sortedKeys(store[m].(map[string]any))[0] }
	card := ""
	for _, id := range sortedKeys(store["subnets"].(map[string]any)) {
		if store["subnets"].(map[string]any)[id].(map[string]any)["class"] == string(ClassCard) {
			card = id
		}
	}
	unknown := "000000000000000000000000"
	dishonored := ""
	for id, tx := range store["txs"].(map[string]any) {
		if tx.(map[string]any)["dishonor"] != nil {
			dishonored = id
		}
	}
	if dishonored == "" {
		t.Fatal("the saved document holds no dishonored transaction")
	}
	swipe := "" // a settled card swipe: its node's ledger shows its debit
	for _, id := range sortedKeys(store["txs"].(map[string]any)) {
		if tx := store["txs"].(map[string]any)[id].(map[string]any); tx["cardSwipe"] == true && tx["status"] == string(StatusSettled) {
			swipe = id
		}
	}
	if swipe == "" {
		t.Fatal("the saved document holds no settled card swipe")
	}
	deep := any("bottom")
	for range 3000 {
		deep = map[string]any{"a": deep}
	}
	for _, tc := range []struct {
		name     string
		path     jsonPath
		value    any // nil with remove: the entry is removed
		remove   bool
		wantPath string
	}{
		{"a transaction to an unknown node", jsonPath{"store", "txs", first("txs"), "toNode"}, unknown, false, "toNode"},
		{"userOrder naming a missing user", jsonPath{"store", "userOrder"}, []any{unknown}, false, "store.userOrder[0]"},
		{"txOrder naming a missing transaction", jsonPath{"store", "txOrder", 0}, unknown, false, "store.txOrder[0]"},
		{"a node's subnetIDs naming a missing subnet", jsonPath{"store", "nodes", w.node, "subnetIDs"}, []any{unknown}, false, "subnetIDs[0]"},
		{"a user's nodeIDs naming a missing node", jsonPath{"store", "users", w.user, "nodeIDs"}, []any{unknown}, false, "nodeIDs[0]"},
		{"users keyed by the wrong id", jsonPath{"store", "users", w.user, "id"}, unknown, false, ".id"},
		{"nodes null", jsonPath{"store", "nodes"}, nil, false, "store.nodes"},
		{"nodeOrder naming a missing node", jsonPath{"store", "nodeOrder", 0}, unknown, false, "store.nodeOrder[0]"},
		{"a node of a missing user", jsonPath{"store", "nodes", w.peer, "userID"}, unknown, false, "userID"},
		{"a subnet of a missing node", jsonPath{"store", "subnets", w.account, "nodeID"}, unknown, false, "nodeID"},
		{"a two-character card number", jsonPath{"store", "subnets", card, "cardNumber"}, "12", false, "cardNumber"},
		{"a transaction removed but still listed", jsonPath{"store", "txs", first("txs")}, nil, true, "store."},
		{"a balance past the limit", jsonPath{"store", "nodes", w.node, "balance"}, json.Number("9223372036854775807"), false, "balance"},
		{"a node created in year 1", jsonPath{"store", "nodes", w.node, "created"}, "0001-01-01T00:00:00Z", false, "created"},
		{"a transaction with no timeline", jsonPath{"store", "txs", first("txs"), "timeline"}, []any{}, false, "timeline"},
		{"an unknown node type", jsonPath{"store", "nodes", w.node, "typ"}, "BOGUS-US", false, "typ"},
		{"a user with no fingerprints map", jsonPath{"store", "users", w.user, "fingerprints"}, nil, false, "fingerprints"},
		{"a dishonor with a return's code", jsonPath{"store", "txs", dishonored, "dishonor", "code"}, "R01", false, "dishonor.code"},
		{"a dishonor of a dishonor code", jsonPath{"store", "txs", dishonored, "dishonor", "returnCode"}, "R68", false, "dishonor.returnCode"},
		{"a contest with a dishonor's code", jsonPath{"store", "txs", dishonored, "dishonor", "contest"}, "R68", false, "dishonor.contest"},
		{"a contest without its date", jsonPath{"store", "txs", dishonored, "dishonor", "contest"}, "R73", false, "dishonor.contested"},
		{"a contest date without a contest", jsonPath{"store", "txs", dishonored, "dishonor", "contested"}, "2026-05-01T00:00:00Z", false, "dishonor.contested"},
		{"a dishonor in year 1", jsonPath{"store", "txs", dishonored, "dishonor", "at"}, "0001-01-01T00:00:00Z", false, "dishonor.at"},
		{"a dishonored transaction RETURNED without a contest", jsonPath{"store", "txs", dishonored, "status"}, "RETURNED", false, "dishonor"},
		{"a transaction whose user does not own its sending node", jsonPath{"store", "txs", dishonored, "userID"}, w.other, false, dishonored + `\"].userID: is`},
		{"a node whose pending amount is negative", jsonPath{"store", "nodes", w.node, "pending"}, -500, false, w.node + `\"].pending: is -500 cents`},
		{"a node whose pending amount its transactions do not hold", jsonPath{"store", "nodes", w.node, "pending"}, 300, false, w.node + `\"].pending: is 300 cents`},
		{"a node whose amount in flight its transactions do not hold", jsonPath{"store", "nodes", w.node, "inflight"}, 700, false, w.node + `\"].inflight: is 700 cents`},
		{"a settled transaction larger than its ledger shows", jsonPath{"store", "txs", swipe, "amount"}, 5000, false, swipe + `\"].amount: a SETTLED transaction of 5000 cents moves -5000`},
		{"a settled transaction that has not credited its receiver", jsonPath{"store", "txs", swipe, "credited"}, false, false, swipe + `\"].credited: is false`},
		{"an extra.other nested 3,000 levels", jsonPath{"store", "nodes", w.node, "other"}, map[string]any{"deep": deep}, false, `other: [\"deep\"]: arrays and objects nest deeper than 100 levels`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d any
			dec := json.NewDecoder(bytes.NewReader(doc))
			dec.UseNumber()
			if err := dec.Decode(&d); err != nil {
				t.Fatal(err)
			}
			d = edit(d, tc.path, func(any) (any, bool) { return tc.value, !tc.remove })
			mutated, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			w.s.core.Reset()
			accepted, answer := restoreOrRefuse(t, w, mutated, tc.name)
			if accepted {
				t.Fatalf("accepted; want a 400 naming %q", tc.wantPath)
			}
			if !strings.Contains(answer, tc.wantPath) || !strings.Contains(answer, `"invalid_state"`) || !strings.Contains(answer, `"error_code":"200"`) {
				t.Errorf("answer %s does not name %q", answer, tc.wantPath)
			}
		})
	}
	// The unchanged document is accepted and passes the probe.
	w.s.core.Reset()
	if accepted, answer := restoreOrRefuse(t, w, doc, "the saved document"); !accepted {
		t.Fatalf("the saved document was refused: %s", answer)
	}
}
