package bank

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/filter"
)

func mustFilter(tb testing.TB, text string) *filter.Filter {
	tb.Helper()
	f, err := filter.Parse(text)
	if err != nil {
		tb.Fatalf("Parse(%s): %v", text, err)
	}
	return f
}

// usersBank is a bank of n users named "User 0" to "User n-1", and their
// ids in order.
func usersBank(tb testing.TB, n int) (*Bank, []string) {
	tb.Helper()
	b := newTestBank(testBankOptions{})
	ids := make([]string, n)
	for i := range ids {
		ids[i] = mustAddUser(tb, b, UserSeed{LegalNames: []string{fmt.Sprint("User ", i)}}).ID
	}
	return b, ids
}

func userIDs(users []UserView) []string {
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	return ids
}

// TestListReleasesTheLockBetweenChunks: a filtered or searched list reads
// its items a chunk to a hold of the store's lock, and between holds the
// lock is free: another request (GET of a user) is served there, so that
// none waits for a whole evaluation. The answer is the one a single hold
// gives.
func TestListReleasesTheLockBetweenChunks(t *testing.T) {
	b, ids := usersBank(t, 100)
	st := b.store
	for _, tc := range []struct {
		name, filter, query string
		want                []string // the page: per_page 20
		wantTotal           int
	}{
		{"a field read from the record", `{"legal_names":{"$ne":"User 3"}}`, "", slices.Delete(slices.Clone(ids[:21]), 3, 4), 99},
		{"a field read from the view", `{"documents":{"$exists":true}}`, "", ids[:20], 100},
		{"a search, no filter", "", "User 5", append([]string{ids[5]}, ids[50:60]...), 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var between []int
			q := ListQuery{Page: Page{Number: 1, PerPage: 20}, chunk: 10, between: func(examined int) {
				if !st.mu.TryLock() {
					t.Fatalf("after %d items the store's lock is held", examined)
				}
				st.unlock()
				if _, err := b.GetUser(ids[examined], false); err != nil {
					t.Fatal(err)
				}
				between = append(between, examined)
			}}
			if tc.filter != "" {
				q.Filter = mustFilter(t, tc.filter)
			}
			got, err := b.ListUsers(q, tc.query, true)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, userIDs(got.Users)); diff != "" {
				t.Errorf("users (-want +got):\n%s", diff)
			}
			if got.UsersCount != tc.wantTotal {
				t.Errorf("users_count %d, want %d", got.UsersCount, tc.wantTotal)
			}
			if want := []int{10, 20, 30, 40, 50, 60, 70, 80, 90}; !slices.Equal(between, want) {
				t.Errorf("released the lock after %v items, want after each 10: %v", between, want)
			}
			q.chunk, q.between = 1000, nil
			whole, err := b.ListUsers(q, tc.query, true)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(whole, got, cmp.AllowUnexported(UserView{}, docStatus{})); diff != "" {
				t.Errorf("the answer differs from one hold's (-one hold +chunks):\n%s", diff)
			}
		})
	}
	// The unfiltered list reads its page only, in one hold.
	q := ListQuery{Page: Page{Number: 2, PerPage: 20}, chunk: 10, between: func(int) { t.Error("the unfiltered list released the lock") }}
	if got, err := b.ListUsers(q, "", true); err != nil || !slices.Equal(userIDs(got.Users), ids[20:40]) || got.UsersCount != 100 {
		t.Errorf("unfiltered page 2: %v, %d users, %v", userIDs(got.Users), got.UsersCount, err)
	}
}

// TestListGivesUpWhenItsContextEnds: a filtered list whose request has
// ended answers 503 / "503" request_canceled: at once when it ended
// before, after the hold under way when it ends during the list.
func TestListGivesUpWhenItsContextEnds(t *testing.T) {
	b, ids := usersBank(t, 100)
	f := mustFilter(t, `{"legal_names":"nobody"}`)
	for _, tc := range []struct {
		name         string
		cancelAfter  int // items examined when the context ends; 0: before the list
		wantExamined int
	}{
		{"ended before", 0, 0},
		{"ended during", 30, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancelAfter == 0 {
				cancel()
			}
			examined := 0
			l := listing[*userRecord, UserView]{
				ids: func(st *Store) ([]string, error) { return st.userOrder, nil },
				record: func(st *Store, id string) *userRecord {
					examined++
					return st.users[id]
				},
				view: (*Store).userView, fields: userFields,
			}
			q := ListQuery{Page: Page{Number: 1, PerPage: 20}, Filter: f, Ctx: ctx, chunk: 10, between: func(n int) {
				if n == tc.cancelAfter {
					cancel()
				}
			}}
			_, _, err := pageOf(b.store, q, l)
			var e *apierr.Error
			if !errors.As(err, &e) || e.Status != 503 || e.ErrorCode != "503" || e.Code != "request_canceled" {
				t.Fatalf("error %v, want 503 / \"503\" request_canceled", err)
			}
			if examined != tc.wantExamined {
				t.Errorf("examined %d of %d items, want %d", examined, len(ids), tc.wantExamined)
			}
		})
	}
}

// TestListFollowsItsListBetweenHolds: when the list changes between two
// holds, the list goes on where it was: an item removed before it was
// reached is not counted, one removed after is (it matched when
// examined), one added is read oldest first and not newest first; when
// the item it last examined is gone, or the store was reset, it starts
// again. Every answer's page agrees with its count.
func TestListFollowsItsListBetweenHolds(t *testing.T) {
	for _, tc := range []struct {
		name        string
		newestFirst bool
		change      func(t *testing.T, b *Bank, u string, nodes []string) // after the first 10 nodes
		want        func(nodes []string, added string) []string
	}{
		{"a node examined is removed", false, deleteNodes(3),
			func(n []string, _ string) []string { return n }},
		{"a node not yet examined is removed", false, deleteNodes(25),
			func(n []string, _ string) []string { return slices.Delete(slices.Clone(n), 25, 26) }},
		{"the node last examined is removed: start again", false, deleteNodes(9),
			func(n []string, _ string) []string { return slices.Delete(slices.Clone(n), 9, 10) }},
		{"a node is added", false, addNode,
			func(n []string, added string) []string { return append(slices.Clone(n), added) }},
		{"newest first, a node examined is removed", true, deleteNodes(25),
			func(n []string, _ string) []string { return reversed(n) }},
		{"newest first, a node not yet examined is removed", true, deleteNodes(3),
			func(n []string, _ string) []string { return reversed(slices.Delete(slices.Clone(n), 3, 4)) }},
		{"newest first, the node last examined is removed: start again", true, deleteNodes(20),
			func(n []string, _ string) []string { return reversed(slices.Delete(slices.Clone(n), 20, 21)) }},
		{"newest first, a node is added", true, addNode,
			func(n []string, _ string) []string { return reversed(n) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTestBank(testBankOptions{})
			u := mustAddUser(t, b, UserSeed{}).ID
			nodes := make([]string, 30)
			for i := range nodes {
				nodes[i] = mustAddNode(t, b, u, NodeSeed{Nickname: fmt.Sprint("N", i)}).ID
			}
			added := ""
			changed := false
			q := ListQuery{Page: Page{Number: 1, PerPage: 100}, NewestFirst: tc.newestFirst,
				Filter: mustFilter(t, `{"is_active":true}`), chunk: 10, between: func(int) {
					if !changed {
						changed = true
						tc.change(t, b, u, nodes)
						added = b.store.users[u].nodeIDs[len(b.store.users[u].nodeIDs)-1]
					}
				}}
			got, total, err := userNodesPage(b, u, q)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want(nodes, added)
			if diff := cmp.Diff(want, nodeIDsOf(got)); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
			if total != len(want) {
				t.Errorf("count %d, want %d", total, len(want))
			}
		})
	}
	t.Run("a reset: start again", func(t *testing.T) {
		b, _ := usersBank(t, 30)
		q := ListQuery{Page: Page{Number: 1, PerPage: 100}, Filter: mustFilter(t, `{"_id":{"$exists":true}}`), chunk: 10,
			between: func(n int) {
				if n == 10 {
					b.ResetBank(func() {})
				}
			}}
		got, err := b.ListUsers(q, "", true)
		if err != nil || len(got.Users) != 0 || got.UsersCount != 0 {
			t.Errorf("after a reset: %d users, users_count %d, %v; want none", len(got.Users), got.UsersCount, err)
		}
	})
}

func deleteNodes(i int) func(t *testing.T, b *Bank, u string, nodes []string) {
	return func(t *testing.T, b *Bank, u string, nodes []string) {
		if _, err := b.DeleteNode(b.Now(), u, nodes[i]); err != nil {
			t.Fatal(err)
		}
	}
}

func addNode(t *testing.T, b *Bank, u string, _ []string) {
	mustAddNode(t, b, u, NodeSeed{Nickname: "Added"})
}

func reversed(s []string) []string {
	s = slices.Clone(s)
	slices.Reverse(s)
	return s
}

func nodeIDsOf(nodes []NodeView) []string {
	ids := make([]string, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID
	}
	return ids
}

// userNodesPage is a user's nodes as listNodes reads them, in either
// order.
func userNodesPage(b *Bank, userID string, q ListQuery) ([]NodeView, int, error) {
	return pageOf(b.store, q, listing[*nodeRecord, NodeView]{
		ids:    func(st *Store) ([]string, error) { return st.users[userID].nodeIDs, nil },
		record: nodeByID, view: (*Store).nodeView, fields: nodeFields,
	})
}

// TestListWhileTheListChanges, under -race: filtered lists read, a chunk
// to a hold, while another goroutine adds and deletes the user's nodes;
// every answer's page agrees with its count, and shows active nodes
// only (a node is shown as it was when examined, active).
func TestListWhileTheListChanges(t *testing.T) {
	b := newTestBank(testBankOptions{})
	u := mustAddUser(t, b, UserSeed{}).ID
	for range 40 {
		mustAddNode(t, b, u, NodeSeed{})
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 200 {
			n, err := b.AddNode(u, NodeSeed{})
			if err != nil {
				t.Error(err)
				return
			}
			if i%2 == 0 {
				if _, err := b.DeleteNode(b.Now(), u, n.ID); err != nil {
					t.Error(err)
				}
			}
		}
	}()
	f := mustFilter(t, `{"type":"DEPOSIT-US","is_active":true}`)
	for i := range 200 {
		q := ListQuery{Page: Page{Number: 1 + i%3, PerPage: 20}, NewestFirst: i%2 == 0, Filter: f, chunk: 7}
		got, err := b.ListNodes(u, q, "")
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := q.Page.Window(got.NodeCount)
		if len(got.Nodes) != hi-lo {
			t.Fatalf("page %d of %d nodes holds %d", q.Page.Number, got.NodeCount, len(got.Nodes))
		}
		for _, n := range got.Nodes {
			if !n.IsActive {
				t.Fatalf("node %s is shown inactive", n.ID)
			}
		}
	}
	wg.Wait()
}

// TestFieldReadersAreTheViews: each reader of a listing's fields reads
// what the item's view shows in that field (its JSON, decoded), and each
// typed reader what its path leads to there, on every item of a store
// holding one of each kind of record and users of many shapes.
func TestFieldReadersAreTheViews(t *testing.T) {
	b := newTestBank(testBankOptions{})
	fillStateTestBank(t, b)
	mustAddUser(t, b, UserSeed{Email: "a@example.com", PhoneNumbers: []string{"555"}, LegalNames: []string{"A", "B \xff"},
		SuppID: "s", IsBusiness: true, Permission: PermissionMakeItGoAway})
	mustAddUser(t, b, UserSeed{Documents: []SubDocumentSeed{{Kind: "social", Type: "FACEBOOK", Value: "x"}}})
	n := mustAddNode(t, b, mustAddUser(t, b, UserSeed{}).ID, NodeSeed{Type: "ACH-US", AccountNum: "123456789", RoutingNum: "051000017"})
	if _, err := b.DeleteNode(b.Now(), n.UserID, n.ID); err != nil {
		t.Fatal(err)
	}
	for _, sn := range b.store.subnets {
		if _, err := b.CreateStatement(b.Now(), sn.userID, sn.nodeID, b.Now().Add(-time.Hour), b.Now(), nil, true); err != nil {
			t.Fatal(err)
		}
		break
	}
	st := b.store
	defer st.lock().unlock()
	for _, tx := range st.txs { // and a card authorization whose amount changed, with a code
		c := *tx
		c.id, c.code = "card-tx", codeReversed
		c.card = &cardLife{hold: true, expires: b.Now().Add(time.Hour), original: tx.amount, authorized: tx.amount,
			changes: []amountChange{{Entries: len(tx.timeline), Amount: tx.amount / 2, Authorized: tx.amount / 2}}}
		st.txs[c.id] = &c
		break
	}
	for _, u := range st.users { // and a user updated since joining, without logins
		c := *u
		c.id, c.updated, c.logins = "updated-user", u.updated.Add(time.Minute), nil
		st.users[c.id] = &c
		break
	}
	checked := map[string]int{}
	check := func(kind string, readers map[string]func() (any, bool), view any) {
		t.Helper()
		doc := map[string]any{}
		viewFields(doc, view, slices.Collect(maps.Keys(readers)), nil, nil)
		for name, read := range readers {
			x, ok := read()
			var got any
			if ok {
				got = jsonValue(reflect.ValueOf(x))
			}
			want, shown := doc[name]
			if ok != shown || !cmp.Equal(plain(want), plain(got)) {
				t.Errorf("%s %s: the reader reads %#v (%v), the view shows %#v (%v)", kind, name, got, ok, want, shown)
			}
			checked[kind]++
		}
	}
	// checkTyped is check of typed readers: each reads the Value its path
	// leads to in the view's JSON.
	checkTyped := func(kind string, readers map[string]func() filter.Value, view any) {
		t.Helper()
		data, err := json.Marshal(view)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		for path, read := range readers {
			if got, want := shownValue(read()), valueAt(doc, strings.Split(path, ".")); !cmp.Equal(got, want) {
				t.Errorf("%s %s: the typed reader reads %#v, the view shows %#v", kind, path, got, want)
			}
			checked["typed "+kind]++
		}
	}
	for _, u := range st.users {
		v := st.userView(u)
		check("user", bind(st, u, userFieldsOf(true)), &v)
		checkTyped("user", bindTyped(st, u, typedUserFieldsOf(true)), &v)
		v.RefreshToken = "" // show_refresh_tokens=no
		check("user", bind(st, u, userFieldsOf(false)), &v)
		checkTyped("user", bindTyped(st, u, typedUserFieldsOf(false)), &v)
	}
	for _, n := range st.nodes {
		v := st.nodeView(n)
		check("node", bind(st, n, nodeFields), &v)
		checkTyped("node", bindTyped(st, n, typedNodeFields), &v)
	}
	for _, tx := range st.txs {
		v := st.txView(tx)
		check("transaction", bind(st, tx, txFields), &v)
		checkTyped("transaction", bindTyped(st, tx, typedTxFields), &v)
	}
	for _, sn := range st.subnets {
		v := st.subnetView(sn, false)
		check("subnet", bind(st, sn, subnetFields), &v)
	}
	for _, sub := range st.subs {
		v := st.subscriptionView(sub)
		check("subscription", bind(st, sub, subscriptionFields), &v)
	}
	for _, rec := range st.book.byID {
		v := st.statementView(rec)
		check("statement", bind(st, rec, statementFields), &v)
	}
	for _, kind := range []string{"user", "node", "transaction", "subnet", "subscription", "statement", "typed user", "typed node", "typed transaction"} {
		if checked[kind] == 0 {
			t.Errorf("no %s was checked", kind)
		}
	}
}

// bindTyped is a listing's typed readers of r's paths.
func bindTyped[R any](st *Store, r R, typed map[string]func(*Store, R, *filter.Value, *[]string)) map[string]func() filter.Value {
	out := map[string]func() filter.Value{}
	for path, read := range typed {
		out[path] = func() filter.Value {
			var v filter.Value
			read(st, r, &v, new([]string))
			return v
		}
	}
	return out
}

// shownValue is v with its strings as JSON shows them (as filter.Typed
// reads them).
func shownValue(v filter.Value) filter.Value {
	shown := func(s string) string { return jsonValue(reflect.ValueOf(s)).(string) }
	v.Str = shown(v.Str)
	if v.List != nil {
		list := make([]string, len(v.List))
		for i, s := range v.List {
			list[i] = shown(s)
		}
		v.List = list
	}
	return v
}

// valueAt is what path leads to in a decoded document, as a
// filter.Typed reads it: through its objects, or through arrays of
// objects to each value it reaches (filter.Each).
func valueAt(doc any, path []string) filter.Value {
	var (
		visits       []any
		absent, each bool
		walk         func(x any, path []string)
	)
	walk = func(x any, path []string) {
		if len(path) == 0 {
			visits = append(visits, x)
			return
		}
		switch y := x.(type) {
		case map[string]any:
			if c, ok := y[path[0]]; ok {
				walk(c, path[1:])
			} else {
				absent = true
			}
		case []any:
			each = true
			walked := false
			for _, el := range y {
				if m, ok := el.(map[string]any); ok {
					walked = true
					walk(m, path)
				}
			}
			absent = absent || !walked
		default:
			absent = true
		}
	}
	walk(doc, path)
	if each {
		v := filter.Value{Kind: filter.Each, Absent: absent}
		for _, x := range visits {
			s, ok := x.(string)
			if !ok {
				return filter.Value{Kind: 255} // not a Value
			}
			v.List = append(v.List, s)
		}
		return v
	}
	if absent {
		return filter.Value{}
	}
	switch x := visits[0].(type) {
	case nil:
		return filter.Value{Kind: filter.Null}
	case string:
		return filter.Value{Kind: filter.String, Str: x}
	case float64:
		return filter.Value{Kind: filter.Number, Num: x}
	case bool:
		return filter.Value{Kind: filter.Bool, Bool: x}
	case []any:
		list := []string{}
		for _, el := range x {
			s, ok := el.(string)
			if !ok {
				return filter.Value{Kind: 255} // not a Value
			}
			list = append(list, s)
		}
		return filter.Value{Kind: filter.Strings, List: list}
	}
	return filter.Value{Kind: 255}
}

// bind is a listing's readers of r's fields.
func bind[R any](st *Store, r R, fields map[string]func(*Store, R) (any, bool)) map[string]func() (any, bool) {
	out := map[string]func() (any, bool){}
	for name, read := range fields {
		out[name] = func() (any, bool) { return read(st, r) }
	}
	return out
}
