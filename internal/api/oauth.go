// OAuth, the wire's side: the oauth routes.

package api

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// handleOAuth serves POST /v3.1/oauth/{user_id}.
func (s *Wire) handleOAuth(w http.ResponseWriter, r *http.Request) {
	c, err := s.authorize(r, access{gateway: true, user: true, userIP: true})
	if err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeValid[bank.OAuthRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	resp, status, err := s.GrantOAuth(s.Now(), s.Cfg.KeyLifetime, r.PathValue("user_id"), c.fingerprint, req)
	switch {
	case err != nil:
		s.Fail(w, err)
	case status == http.StatusOK:
		s.okObject(w, resp)
	default:
		if c, ok := resp.(bank.MFAChallenge); ok {
			noteRefusal(w, c.Why)
		}
		writeJSON(w, status, resp)
	}
}

// handleOAuthLogin serves POST /v3.1/oauth/{user_id}/login: the user's
// current refresh token for one of its logins' email and password.
func (s *Wire) handleOAuthLogin(w http.ResponseWriter, r *http.Request) {
	c, err := s.authorize(r, access{gateway: true, user: true, userIP: true})
	if err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeValid[bank.LoginRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	resp, err := s.LoginRefreshToken(r.PathValue("user_id"), c.fingerprint, req)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.okObject(w, resp)
}
