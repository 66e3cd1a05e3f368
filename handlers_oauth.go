package synapsefake

import "net/http"

// handleOAuth serves POST /v3.1/oauth/{user_id}.
func (s *wireCore) handleOAuth(w http.ResponseWriter, r *http.Request) {
	c, err := s.authorize(r, access{gateway: true, user: true, userIP: true})
	if err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[oauthRequest](r)
	if err != nil {
		s.fail(w, err)
		return
	}
	resp, status, err := s.grantOAuth(s.Now(), s.cfg.keyLifetime, r.PathValue("user_id"), c.fingerprint, req)
	switch {
	case err != nil:
		s.fail(w, err)
	case status == http.StatusOK:
		s.okObject(w, resp)
	default:
		if c, ok := resp.(mfaChallenge); ok {
			noteRefusal(w, c.why)
		}
		writeJSON(w, status, resp)
	}
}
