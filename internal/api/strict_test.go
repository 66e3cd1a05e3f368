package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// strictEnv is a user with a funded checking node and a savings node, and
// a second user, on one server.
type strictEnv struct {
	fake    *synapsefake.Server
	fx      testkit.Fixture
	savings synapsefake.Node
}

// newStrictEnv seeds the same objects on every server: servers with the
// same seed give them the same ids, so that one body serves a strict and a
// lenient server alike.
func newStrictEnv(t *testing.T, tb testing.TB, opts ...synapsefake.Option) strictEnv {
	t.Helper()
	fake := synapsefake.NewServer(tb, opts...)
	fx := testkit.NewFixture(t, fake, 100_00)
	savings := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	return strictEnv{fake: fake, fx: fx, savings: savings}
}

func (e strictEnv) nodePath(suffix string) string {
	return "/users/" + e.fx.User.ID + "/nodes/" + e.fx.Node.ID + suffix
}

// txBody is a valid create-transaction body to the savings node, changed
// by edit.
func (e strictEnv) txBody(edit func(b map[string]any)) map[string]any {
	b := map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": e.savings.ID},
		"amount": map[string]any{"amount": 10, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1"},
	}
	if edit != nil {
		edit(b)
	}
	return b
}

func sub(b map[string]any, key string) map[string]any { return b[key].(map[string]any) }

func userBody(extra map[string]any) map[string]any {
	b := map[string]any{"logins": []any{map[string]any{"email": "ada@example.com"}}, "phone_numbers": []any{"901.111.1111"},
		"legal_names": []any{"Ada Lovelace"}}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// TestStrictRequests sends bodies with a misspelt or misplaced field: the
// default server accepts each (the service ignores such fields); a server
// WithStrictRequests answers 400 / "200" unknown_field naming the field's
// path and the nearest known field, fails the test once, and changes
// nothing.
func TestStrictRequests(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		method  string
		path    func(e strictEnv) string
		client  bool // gateway headers, not the user's
		body    func(e strictEnv) map[string]any
		field   string // the path of the field the service would ignore
		nearest string
	}{
		{"ammount beside amount", "POST", func(e strictEnv) string { return e.nodePath("/trans") }, false,
			func(e strictEnv) map[string]any {
				return e.txBody(func(b map[string]any) { sub(b, "amount")["ammount"] = 10 })
			}, "amount.ammount", "amount.amount"},
		{"typo in extra.note", "POST", func(e strictEnv) string { return e.nodePath("/trans") }, false,
			func(e strictEnv) map[string]any {
				return e.txBody(func(b map[string]any) { sub(b, "extra")["nte"] = "rent" })
			}, "extra.nte", "extra.note"},
		{"letters swapped in same_day", "POST", func(e strictEnv) string { return e.nodePath("/trans") }, false,
			func(e strictEnv) map[string]any {
				return e.txBody(func(b map[string]any) { sub(b, "extra")["same_dya"] = true })
			}, "extra.same_dya", "extra.same_day"},
		{"supp_id without its underscore", "POST", func(e strictEnv) string { return e.nodePath("/trans") }, false,
			func(e strictEnv) map[string]any {
				return e.txBody(func(b map[string]any) { sub(b, "extra")["suppid"] = "order-1" })
			}, "extra.suppid", "extra.supp_id"},
		{"currency at the top instead of under amount", "POST", func(e strictEnv) string { return e.nodePath("/trans") }, false,
			func(e strictEnv) map[string]any {
				return e.txBody(func(b map[string]any) { b["currency"] = "USD" })
			}, "currency", "amount.currency"},
		{"ip at the top instead of under extra", "POST", func(e strictEnv) string { return e.nodePath("/trans") }, false,
			func(e strictEnv) map[string]any {
				return e.txBody(func(b map[string]any) { b["ip"] = "127.0.0.1" })
			}, "ip", "extra.ip"},
		{"extras beside extra", "POST", func(e strictEnv) string { return e.nodePath("/trans") }, false,
			func(e strictEnv) map[string]any {
				return e.txBody(func(b map[string]any) { b["extras"] = map[string]any{"note": "rent"} })
			}, "extras", "extra"},
		{"typo in a fee's note", "POST", func(e strictEnv) string { return e.nodePath("/trans") }, false,
			func(e strictEnv) map[string]any {
				return e.txBody(func(b map[string]any) {
					b["fees"] = []any{map[string]any{"fee": 0.5, "nots": "platform fee", "to": map[string]any{"id": e.savings.ID}}}
				})
			}, "fees[0].nots", "fees[0].note"},
		{"typo in a batch item", "POST", func(e strictEnv) string { return e.nodePath("/batch-trans") }, false,
			func(e strictEnv) map[string]any {
				return map[string]any{"transactions": []any{e.txBody(nil), e.txBody(func(b map[string]any) { sub(b, "extra")["nte"] = "x" })}}
			}, "transactions[1].extra.nte", "transactions[1].extra.note"},
		{"node: notes for extra.note", "POST", func(e strictEnv) string { return "/users/" + e.fx.User.ID + "/nodes" }, false,
			func(e strictEnv) map[string]any {
				return map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Rainy day"}, "extra": map[string]any{"notes": "x"}}
			}, "extra.notes", "extra.note"},
		{"node: nick_name beside info.nickname", "POST", func(e strictEnv) string { return "/users/" + e.fx.User.ID + "/nodes" }, false,
			func(e strictEnv) map[string]any {
				return map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "Rainy day", "nick_name": "x"}}
			}, "info.nick_name", "info.nickname"},
		{"user: is_buisness", "POST", func(strictEnv) string { return "/users" }, true,
			func(strictEnv) map[string]any {
				return userBody(map[string]any{"extra": map[string]any{"is_buisness": true}})
			}, "extra.is_buisness", "extra.is_business"},
		{"user: supp_id at the top instead of under extra", "POST", func(strictEnv) string { return "/users" }, true,
			func(strictEnv) map[string]any { return userBody(map[string]any{"supp_id": "u-1"}) }, "supp_id", "extra.supp_id"},
		{"user: a document's emial", "POST", func(strictEnv) string { return "/users" }, true,
			func(strictEnv) map[string]any {
				return userBody(map[string]any{"documents": []any{map[string]any{"email": "ada@example.com", "emial": "x"}}})
			}, "documents[0].emial", "documents[0].email"},
		{"patch user: phone_numbr", "PATCH", func(e strictEnv) string { return "/users/" + e.fx.User.ID }, false,
			func(strictEnv) map[string]any {
				return map[string]any{"update": map[string]any{"legal_name": "Ada King", "phone_numbr": "901.222.2222"}}
			}, "update.phone_numbr", "update.phone_number"},
		{"subscription: scopes beside scope", "POST", func(strictEnv) string { return "/subscriptions" }, true,
			func(strictEnv) map[string]any {
				return map[string]any{"url": "https://example.com/hooks", "scope": []any{"USERS|POST"}, "scopes": []any{"NODES|POST"}}
			}, "scopes", "scope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			headers := func(e strictEnv) map[string]string {
				if tc.client {
					return testkit.GatewayHeaders(e.fake)
				}
				return e.fx.Headers
			}
			lenient := newStrictEnv(t, t)
			if r := testkit.Do(t, lenient.fake, testkit.Call{Method: tc.method, Path: tc.path(lenient), Header: headers(lenient), Body: tc.body(lenient)}); r.Status != http.StatusOK {
				t.Fatalf("default server: %d, want 200: %s", r.Status, r.Raw)
			}

			rec := &testkit.RecordingTB{TB: t}
			e := newStrictEnv(t, rec, synapsefake.WithStrictRequests())
			testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users/" + e.fx.User.ID, Header: e.fx.Headers}) // the clock's work of this instant done
			before := stateDoc(t, e.fake)
			r := testkit.Do(t, e.fake, testkit.Call{Method: tc.method, Path: tc.path(e), Header: headers(e), Body: tc.body(e)})
			testkit.WantError(t, r, http.StatusBadRequest, "200", "unknown_field")
			want := tc.field + " (did you mean " + tc.nearest + "?)"
			if en := r.Body["error"].(map[string]any)["en"].(string); en != "Unknown field "+want+"." {
				t.Errorf("error.en %q, want %q", en, "Unknown field "+want+".")
			}
			if len(rec.Errors) != 1 || !strings.Contains(rec.Errors[0], want) {
				t.Errorf("the test's failures %q, want one naming %q", rec.Errors, want)
			}
			if logs := rec.Logged(); len(logs) != 0 {
				t.Errorf("the strict refusal also logged %q: its failure line is the one line it gets", logs)
			}
			if after := stateDoc(t, e.fake); !bytes.Equal(before, after) {
				t.Errorf("the refused request changed the state")
			}
		})
	}
}

// stateDoc is the fake's state document without its request journal.
func stateDoc(t *testing.T, fake *synapsefake.Server) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := fake.Snapshot(&b); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "journal")
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStrictRequestsAccept: what the service reads is taken in strict
// mode too: names in another letter case (the service matches them without
// regard to case), any key of a free object (extra.other), the fields of a
// transaction's extra the spec shows, and those the official SDKs send.
func TestStrictRequestsAccept(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		path func(e strictEnv) string
		body func(e strictEnv) map[string]any
	}{
		{"names in another case", func(e strictEnv) string { return e.nodePath("/trans") }, func(e strictEnv) map[string]any {
			return map[string]any{"TO": map[string]any{"Type": "DEPOSIT-US", "ID": e.savings.ID},
				"Amount": map[string]any{"AMOUNT": 10, "currency": "USD"}, "extra": map[string]any{"IP": "127.0.0.1", "Note": "rent"}}
		}},
		{"any key under extra.other", func(e strictEnv) string { return e.nodePath("/trans") }, func(e strictEnv) map[string]any {
			return e.txBody(func(b map[string]any) {
				sub(b, "extra")["other"] = map[string]any{"attachments": []any{}, "dispute_form": map[string]any{"any": 1}}
			})
		}},
		{"extra fields the spec shows", func(e strictEnv) string { return e.nodePath("/trans") }, func(e strictEnv) map[string]any {
			return e.txBody(func(b map[string]any) {
				x := sub(b, "extra")
				x["latlon"] = "0,0"
				x["location"] = map[string]any{"lat": 1, "lon": 2, "anything": true}
				x["txp_meta"] = map[string]any{"tin": "1"}
			})
		}},
		{"a node's free extra.other", func(e strictEnv) string { return "/users/" + e.fx.User.ID + "/nodes" }, func(strictEnv) map[string]any {
			return map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "N"}, "extra": map[string]any{"other": map[string]any{"x": 1}}}
		}},
		{"SynapseGo's CreateNode is_active", func(e strictEnv) string { return "/users/" + e.fx.User.ID + "/nodes" }, func(strictEnv) map[string]any {
			return map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "N"}, "is_active": true}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &testkit.RecordingTB{TB: t}
			e := newStrictEnv(t, rec, synapsefake.WithStrictRequests())
			if r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: tc.path(e), Header: e.fx.Headers, Body: tc.body(e)}); r.Status != http.StatusOK {
				t.Errorf("status %d, want 200: %s", r.Status, r.Raw)
			}
			if rec.Failed() || len(rec.Logged()) > 0 {
				t.Errorf("failures %q, logs %q; want none", rec.Errors, rec.Logged())
			}
		})
	}
}

// TestStrictRequestsWithoutATest: New has no test to fail: the request is
// refused all the same, and WithLog hears why.
func TestStrictRequestsWithoutATest(t *testing.T) {
	t.Parallel()
	var lines []string
	fake := synapsefake.New(synapsefake.WithStrictRequests(), synapsefake.WithLog(func(format string, args ...any) {
		lines = append(lines, fmt.Sprintf(format, args...))
	}))
	fx := testkit.NewFixture(t, fake, 0)
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes", Header: fx.Headers,
		Body: map[string]any{"type": "DEPOSIT-US", "info": map[string]any{"nickname": "N"}, "nickname": "N", "extra": map[string]any{"sup_id": "1"}}})
	testkit.WantError(t, r, http.StatusBadRequest, "200", "unknown_field")
	const want = "unknown fields extra.sup_id (did you mean extra.supp_id?), nickname (did you mean info.nickname?): the service would ignore it"
	if len(lines) != 1 || !strings.Contains(lines[0], want) {
		t.Errorf("log %q, want one line with %q", lines, want)
	}
	if reqs := fake.Requests(); len(reqs) != 1 || !strings.Contains(reqs[0].Reason, want) {
		t.Errorf("journal %v, want the reason %q", reqs, want)
	}
}
