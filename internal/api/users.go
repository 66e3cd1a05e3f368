// Users, the wire's side: the user routes.

package api

import (
	"net/http"
	"strings"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// handleCreateUser serves POST /v3.1/users.
func (s *Wire) handleCreateUser(w http.ResponseWriter, r *http.Request) {
	c, err := s.authorize(r, access{gateway: true, user: true, userIP: true})
	if err != nil {
		s.Fail(w, err)
		return
	}
	if !bank.ValidFingerprint(c.fingerprint) {
		s.Fail(w, bank.ErrInvalidFingerprintFor(c.fingerprint))
		return
	}
	req, err := decodeChecked[bank.CreateUserRequest](s, r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.okObject(w, s.CreateUser(s.Now(), req, c.fingerprint))
}

// handleListUsers serves GET /v3.1/users. Each user carries its
// refresh_token, as in the list SynapsePy recorded from the sandbox without
// show_refresh_tokens (its Users build a User from each, which reads the
// token); show_refresh_tokens=no leaves the tokens out.
func (s *Wire) handleListUsers(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.Fail(w, err)
		return
	}
	lq, q, err := readList(w, r, false)
	if err != nil {
		s.Fail(w, err)
		return
	}
	v, err := s.ListUsers(lq, q.Get("query"), !strings.EqualFold(q.Get("show_refresh_tokens"), "no"))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, v)
}

// handleGetUser serves GET /v3.1/users/{user_id}. Gateway credentials are
// enough, as for the official clients, which read the refresh_token here.
// With full_dehydrate=yes the base documents show their personal fields and
// the sub-documents their values.
func (s *Wire) handleGetUser(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.Fail(w, err)
		return
	}
	v, err := s.GetUser(r.PathValue("user_id"), strings.EqualFold(r.URL.Query().Get("full_dehydrate"), "yes"))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.okObject(w, v)
}

// handlePatchUser serves PATCH /v3.1/users/{user_id}; with full_dehydrate=yes
// the answer shows the documents as GET /users/{user_id}?full_dehydrate=yes does.
func (s *Wire) handlePatchUser(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeUserPatch}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeChecked[bank.PatchUserRequest](s, r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	strict := func(broken ...bank.BrokenRule) error { return s.strictRules(r, broken) }
	v, err := s.PatchUser(s.Now(), r.PathValue("user_id"), req, strings.EqualFold(r.URL.Query().Get("full_dehydrate"), "yes"), strict)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.okObject(w, v)
}
