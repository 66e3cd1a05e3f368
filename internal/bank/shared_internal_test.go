package bank

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

// TestDefaultGrantIsShared: every oauth_key of the default grant holds
// allUserScopes itself, not a copy, and no key's scopes are written: a key
// minted with its own scopes leaves the shared list as it was.
func TestDefaultGrantIsShared(t *testing.T) {
	s := newTestBank(testBankOptions{})
	u, err := s.AddUser(UserSeed{Fingerprint: "device-1"})
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{s.OAuthKey(u.ID, "device-1"), s.OAuthKey(u.ID, "device-2")}
	own := s.OAuthKey(u.ID, "device-3", reference.ScopeTransPost)
	for _, key := range keys {
		k := s.store.keys[key]
		if len(k.scopes) == 0 || &k.scopes[0] != &allUserScopes[0] {
			t.Errorf("key %s holds its own copy of the default grant", key)
		}
	}
	if k := s.store.keys[own]; !slices.Equal(k.scopes, []string{reference.ScopeTransPost}) {
		t.Errorf("key with its own scopes holds %v", k.scopes)
	}
	if !slices.Equal(allUserScopes, reference.Scopes()) {
		t.Errorf("the shared default grant changed: %v", allUserScopes)
	}
}

// TestACHUSOtherIsShared: ACH-US nodes share one extra.other, which no
// change to a node writes: PATCHing a node's other replaces its own.
func TestACHUSOtherIsShared(t *testing.T) {
	s := newTestBank(testBankOptions{})
	u, err := s.AddUser(UserSeed{Fingerprint: "device-1"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 2 {
		n, err := s.AddNode(u.ID, NodeSeed{Type: reference.NodeACHUS, Nickname: "Bank"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, n.ID)
	}
	for _, id := range ids {
		if m := s.store.nodes[id].sysOther; reflect.ValueOf(m).UnsafePointer() != reflect.ValueOf(achUSOther).UnsafePointer() {
			t.Errorf("node %s holds its own extra.other", id)
		}
	}
	var patch PatchNodeRequest
	if err := json.Unmarshal([]byte(`{"nickname": "Renamed", "extra": {"other": {"access_token": "mine", "x": 1}}}`), &patch); err != nil {
		t.Fatal(err)
	}
	if err := patch.Validate(nil); err != nil {
		t.Fatalf("PATCH node: %v", err)
	}
	if _, err := s.PatchNode(s.Now(), u.ID, ids[0], patch); err != nil {
		t.Fatalf("PATCH node: %v", err)
	}
	if want := map[string]any{"access_token": nil, "updated_on": nil}; !maps.Equal(achUSOther, want) {
		t.Errorf("the shared extra.other changed: %v", achUSOther)
	}
}

// TestSeedDefaultsAreCopied: a user made with UserSeed's default phone
// number and legal name holds its own copies of them, as newUser copies any
// seed's lists (a caller may write its own after AddUser), so that the
// process-wide defaults are no user's lists.
func TestSeedDefaultsAreCopied(t *testing.T) {
	s := newTestBank(testBankOptions{})
	u, err := s.AddUser(UserSeed{})
	if err != nil {
		t.Fatal(err)
	}
	rec := s.store.users[u.ID]
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
			s := newTestBank(testBankOptions{})
			u, err := s.AddUser(UserSeed{Fingerprint: "device-1", Email: "first@example.com",
				LegalNames: []string{"Ann First", "Bea Second"}, PhoneNumbers: []string{"901.111.1111", "901.333.3333"}})
			if err != nil {
				t.Fatal(err)
			}
			// A second login, so that removing the first leaves one.
			s.store.users[u.ID].logins = append(s.store.users[u.ID].logins, loginView{Email: "second@example.com", Scope: "READ"})
			var view UserView
			func() { defer s.store.lock().unlock(); view = s.store.userView(s.store.users[u.ID]) }()
			names, phones, logins := slices.Clone(view.LegalNames), slices.Clone(view.PhoneNumbers), slices.Clone(view.Logins)

			var patch PatchUserRequest
			if err := json.Unmarshal([]byte(`{"update": `+tc.update+`}`), &patch); err != nil {
				t.Fatal(err)
			}
			if err := patch.Validate(); err != nil {
				t.Fatalf("PATCH user: %v", err)
			}
			if _, err := s.PatchUser(s.Now(), u.ID, patch, false, func(...BrokenRule) error { return nil }); err != nil {
				t.Fatalf("PATCH user: %v", err)
			}
			after := s.store.users[u.ID]
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
