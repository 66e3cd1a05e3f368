package synapsefake

import (
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

// TestDefaultGrantIsShared: every oauth_key of the default grant holds
// allUserScopes itself, not a copy, and no key's scopes are written: a key
// minted with its own scopes leaves the shared list as it was.
func TestDefaultGrantIsShared(t *testing.T) {
	s := New()
	u, err := s.core.AddUser(UserSeed{Fingerprint: "device-1"})
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{s.core.OAuthKey(u.ID, "device-1"), s.core.OAuthKey(u.ID, "device-2")}
	own := s.core.OAuthKey(u.ID, "device-3", reference.ScopeTransPost)
	for _, key := range keys {
		k := s.core.store.keys[key]
		if len(k.scopes) == 0 || &k.scopes[0] != &allUserScopes[0] {
			t.Errorf("key %s holds its own copy of the default grant", key)
		}
	}
	if k := s.core.store.keys[own]; !slices.Equal(k.scopes, []string{reference.ScopeTransPost}) {
		t.Errorf("key with its own scopes holds %v", k.scopes)
	}
	if !slices.Equal(allUserScopes, reference.Scopes()) {
		t.Errorf("the shared default grant changed: %v", allUserScopes)
	}
}

// TestACHUSOtherIsShared: ACH-US nodes share one extra.other, which no
// change to a node writes: PATCHing a node's other replaces its own.
func TestACHUSOtherIsShared(t *testing.T) {
	s := New()
	u, err := s.core.AddUser(UserSeed{Fingerprint: "device-1"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 2 {
		n, err := s.core.AddNode(u.ID, NodeSeed{Type: reference.NodeACHUS, Nickname: "Bank"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, n.ID)
	}
	for _, id := range ids {
		if m := s.core.store.nodes[id].sysOther; reflect.ValueOf(m).UnsafePointer() != reflect.ValueOf(achUSOther).UnsafePointer() {
			t.Errorf("node %s holds its own extra.other", id)
		}
	}
	resp := callAPI(t, s, http.MethodPatch, "/users/"+u.ID+"/nodes/"+ids[0], u.ID,
		`{"nickname": "Renamed", "extra": {"other": {"access_token": "mine", "x": 1}}}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("PATCH node: %d", resp.StatusCode)
	}
	if want := map[string]any{"access_token": nil, "updated_on": nil}; !maps.Equal(achUSOther, want) {
		t.Errorf("the shared extra.other changed: %v", achUSOther)
	}
}

// TestFaultCount: the count a request reads without the lock follows the
// list through adds, takes that use a fault up, and replacements.
func TestFaultCount(t *testing.T) {
	var fs faults
	check := func(when string) {
		t.Helper()
		if got, want := int(fs.count.Load()), len(fs.list); got != want {
			t.Errorf("%s: count %d, list holds %d", when, got, want)
		}
	}
	check("empty")
	if fs.take("GET", "/users", false) != nil {
		t.Fatal("an empty list gave a fault")
	}
	fs.add(&fault{method: "GET", times: 2, err: errGatewayTimeout})
	fs.add(&fault{delay: time.Second, times: 1})
	check("two added")
	for i := range 2 {
		if fs.take("GET", "/users", false) == nil {
			t.Fatalf("take %d: no fault", i)
		}
		check(fmt.Sprint("after take ", i))
	}
	if !fs.pending() || fs.take("GET", "/users", true) == nil {
		t.Fatal("the delay is not pending")
	}
	check("all used")
	if fs.pending() {
		t.Error("pending with none left")
	}
	fs.set([]*fault{{times: 1}})
	check("set")
	fs.set(nil)
	check("cleared")
}

// cleanupTB runs a server's cleanups when told, and fails when told.
type cleanupTB struct {
	testing.TB
	cleanups []func()
	failed   bool
}

func (c *cleanupTB) Cleanup(f func())    { c.cleanups = append(c.cleanups, f) }
func (c *cleanupTB) Failed() bool        { return c.failed }
func (c *cleanupTB) Logf(string, ...any) {}
func (c *cleanupTB) end() {
	for i := len(c.cleanups) - 1; i >= 0; i-- {
		c.cleanups[i]()
	}
}

// TestEndOfTestKeepsWhatAFailureNeeds: the end of a passing test copies
// none of the journal; a failed one's keeps its calls.
func TestEndOfTestKeepsWhatAFailureNeeds(t *testing.T) {
	for _, failed := range []bool{false, true} {
		tb := &cleanupTB{TB: t, failed: failed}
		s := NewServer(tb)
		resp, err := s.Client().Get(s.URL() + "/users")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		tb.end()
		if got, want := len(s.core.end.recent), map[bool]int{false: 0, true: 1}[failed]; got != want {
			t.Errorf("failed %v: the end kept %d calls, want %d", failed, got, want)
		}
	}
}

// TestSeedDefaultsAreCopied: a user made with UserSeed's default phone
// number and legal name holds its own copies of them, as newUser copies any
// seed's lists (a caller may write its own after AddUser), so that the
// process-wide defaults are no user's lists.
func TestSeedDefaultsAreCopied(t *testing.T) {
	s := New()
	u, err := s.core.AddUser(UserSeed{})
	if err != nil {
		t.Fatal(err)
	}
	rec := s.core.store.users[u.ID]
	if &rec.phones[0] == &defaultSeedPhones[0] || &rec.legalNames[0] == &defaultSeedNames[0] {
		t.Fatal("the user holds UserSeed's default lists themselves")
	}
	if !slices.Equal(rec.phones, []string{"901.111.1111"}) || !slices.Equal(rec.legalNames, []string{"Test User"}) {
		t.Errorf("defaults %v %v", rec.phones, rec.legalNames)
	}
}

// TestUserListsAreNeverWrittenInPlace: a view of a user (as a webhook or a
// transaction's party keeps it) shares the user's legal names, phone
// numbers and logins, so no PATCH may write them in place: after each
// update, alone and in pairs, the view taken before still shows the
// lists it showed.
func TestUserListsAreNeverWrittenInPlace(t *testing.T) {
	for _, tc := range []struct {
		name   string
		update string
	}{
		{"add a legal name", `{"legal_name": "Cy Added"}`},
		{"remove a legal name", `{"remove_legal_name": "Ann First"}`},
		{"add then remove a legal name", `{"legal_name": "Cy Added", "remove_legal_name": "Ann First"}`},
		{"add a phone", `{"phone_number": "901.222.2222"}`},
		{"remove a phone", `{"remove_phone_number": "901.111.1111"}`},
		{"add then remove a phone", `{"phone_number": "901.222.2222", "remove_phone_number": "901.111.1111"}`},
		{"add a login", `{"login": {"email": "added@example.com"}}`},
		{"remove a login", `{"remove_login": {"email": "first@example.com"}}`},
		{"add then remove a login", `{"login": {"email": "added@example.com"}, "remove_login": {"email": "first@example.com"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServer(t)
			u, err := s.core.AddUser(UserSeed{Fingerprint: "device-1", Email: "first@example.com",
				LegalNames: []string{"Ann First", "Bea Second"}, PhoneNumbers: []string{"901.111.1111", "901.333.3333"}})
			if err != nil {
				t.Fatal(err)
			}
			// A second login, so that removing the first leaves one.
			s.core.store.users[u.ID].logins = append(s.core.store.users[u.ID].logins, loginView{Email: "second@example.com", Scope: "READ"})
			var view userView
			func() { defer s.core.store.lock().unlock(); view = s.core.store.userView(s.core.store.users[u.ID]) }()
			names, phones, logins := slices.Clone(view.LegalNames), slices.Clone(view.PhoneNumbers), slices.Clone(view.Logins)

			if resp := callAPI(t, s, http.MethodPatch, "/users/"+u.ID, u.ID, `{"update": `+tc.update+`}`); resp.StatusCode != http.StatusOK {
				t.Fatalf("PATCH user: %d", resp.StatusCode)
			}
			after := s.core.store.users[u.ID]
			if slices.Equal(after.legalNames, names) && slices.Equal(after.phones, phones) && slices.Equal(after.logins, logins) {
				t.Fatalf("the PATCH changed none of the user's lists")
			}
			if !slices.Equal(view.LegalNames, names) || !slices.Equal(view.PhoneNumbers, phones) || !slices.Equal(view.Logins, logins) {
				t.Errorf("the view taken before the PATCH shows %v %v %v, want %v %v %v",
					view.LegalNames, view.PhoneNumbers, view.Logins, names, phones, logins)
			}
		})
	}
}
