package synapsefake

import (
	"net/http"
	"strings"

	"github.com/synapsefake/synapsefake/reference"
)

// handleCreateUser serves POST /v3.1/users.
func (s *wireCore) handleCreateUser(w http.ResponseWriter, r *http.Request) {
	c, err := s.authorize(r, access{gateway: true, user: true, userIP: true})
	if err != nil {
		s.fail(w, err)
		return
	}
	if !validFingerprint(c.fingerprint) {
		s.fail(w, errInvalidFingerprintFor(c.fingerprint))
		return
	}
	req, err := decode[createUserRequest](r)
	if err == nil {
		err = req.validate()
	}
	if err == nil {
		err = s.strictRules(r, req.broken())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	s.okObject(w, s.createUser(s.Now(), req, c.fingerprint))
}

// handleListUsers serves GET /v3.1/users. Each user carries its
// refresh_token, as in the list SynapsePy recorded from the sandbox without
// show_refresh_tokens (its Users build a User from each, which reads the
// token); show_refresh_tokens=no leaves the tokens out.
func (s *wireCore) handleListUsers(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.fail(w, err)
		return
	}
	p, err := readPage(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	f, err := readFilter(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	q := r.URL.Query()
	s.ok(w, s.listUsers(p, q.Get("query"), !strings.EqualFold(q.Get("show_refresh_tokens"), "no"), f))
}

// handleGetUser serves GET /v3.1/users/{user_id}. Gateway credentials are
// enough, as for the official clients, which read the refresh_token here.
// With full_dehydrate=yes the base documents show their personal fields and
// the sub-documents their values.
func (s *wireCore) handleGetUser(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.getUser(r.PathValue("user_id"), strings.EqualFold(r.URL.Query().Get("full_dehydrate"), "yes"))
	if err != nil {
		s.fail(w, err)
		return
	}
	s.okObject(w, v)
}

// handlePatchUser serves PATCH /v3.1/users/{user_id}; with full_dehydrate=yes
// the answer shows the documents as GET /users/{user_id}?full_dehydrate=yes does.
func (s *wireCore) handlePatchUser(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeUserPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decode[patchUserRequest](r)
	if err == nil {
		err = req.validate()
	}
	if err == nil {
		err = s.strictRules(r, req.broken())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	strict := func(broken ...brokenRule) error { return s.strictRules(r, broken) }
	v, err := s.patchUser(s.Now(), r.PathValue("user_id"), req, strings.EqualFold(r.URL.Query().Get("full_dehydrate"), "yes"), strict)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.okObject(w, v)
}
