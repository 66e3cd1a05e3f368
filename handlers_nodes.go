package synapsefake

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// decodeCreateNode reads the body of POST /users/{user_id}/nodes.
func decodeCreateNode(r *http.Request) (createNodeRequest, error) {
	var req createNodeRequest
	data, err := readBody(r)
	if err != nil {
		return req, err
	}
	if err := decodeBody(r, data, &req); err != nil {
		return req, err
	}
	var raw struct {
		Info map[string]any `json:"info"`
	}
	_ = json.Unmarshal(data, &raw) // the typed decode above already accepted it
	req.rawInfo = raw.Info
	return req, nil
}

// handleCreateNode serves POST /v3.1/users/{user_id}/nodes.
func (s *wireCore) handleCreateNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodesPost}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeCreateNode(r)
	if err == nil {
		err = req.validate(s.enforcerFor(r))
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	userID := r.PathValue("user_id")
	var ans bankLoginAnswer
	switch {
	case req.AccessToken != nil:
		ans, err = s.answerBankMFA(s.Now(), userID, *req.AccessToken, *req.MFAAnswer)
	case req.isBankLogin():
		ans, err = s.bankLogin(s.Now(), userID, *req.Info.BankID, *req.Info.BankPW, *req.Info.BankName)
	default:
		var v nodeView
		v, err = s.createNode(s.Now(), userID, req)
		ans.nodes = []nodeView{v}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	if ans.mfa != nil {
		writeJSON(w, http.StatusAccepted, ans.mfa)
		return
	}
	s.ok(w, nodesList{ErrorCode: "0", HTTPCode: "200", Limit: 20, NodeCount: len(ans.nodes), Nodes: ans.nodes, PageCount: 1, Success: true})
}

// handleListNodes serves GET /v3.1/users/{user_id}/nodes.
func (s *wireCore) handleListNodes(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodesGet}); err != nil {
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
	v, err := s.listNodes(r.PathValue("user_id"), p, r.URL.Query().Get("type"), f)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.ok(w, v)
}

// handleGetNode serves GET /v3.1/users/{user_id}/nodes/{node_id}.
func (s *wireCore) handleGetNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodeGet}); err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.getNode(r.PathValue("user_id"), r.PathValue("node_id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	s.okObject(w, v)
}

// decodePatchNode reads PATCH /users/{user_id}/nodes/{node_id}: the body
// may be a JSON object, or empty whatever its Content-Type (the Go SDK's
// ResetCardNode sends an empty form-encoded body). A query flag other than
// YES or NO is NO, unless enf refuses it.
func decodePatchNode(r *http.Request, enf enforcer) (patchNodeRequest, error) {
	req, err := decodeOptional[patchNodeRequest](r)
	if err != nil {
		return req, err
	}
	q := r.URL.Query()
	for _, p := range []struct {
		name string
		set  func()
	}{
		{"resend_micro", func() { yes := "YES"; req.ResendMicro = &yes }},
		{"ship", func() { req.ship = true }},
		{"reset", func() { req.reset = true }},
		// synapse_pay_rest's CardUsNode#reissue_card and #reorder_card.
		{"reissue_card", func() { req.reset, req.reissue = true, true }},
		{"reorder_card", func() { req.ship = true }},
	} {
		switch v := q.Get(p.name); {
		case strings.EqualFold(v, "YES"):
			p.set()
		case v != "" && !strings.EqualFold(v, "NO"):
			if err := enf.enforce(brokenRule{p.name + " is YES or NO", apierr.Payload("invalid_query", "%s must be YES or NO.", p.name)}); err != nil {
				return req, err
			}
		}
	}
	return req, nil
}

// handlePatchNode serves PATCH /v3.1/users/{user_id}/nodes/{node_id}.
func (s *wireCore) handlePatchNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodePatch}); err != nil {
		s.fail(w, err)
		return
	}
	enf := s.enforcerFor(r)
	req, err := decodePatchNode(r, enf)
	if err == nil {
		err = req.validate(enf)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.patchNode(s.Now(), r.PathValue("user_id"), r.PathValue("node_id"), req)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.okObject(w, v)
}

// handleDeleteNode serves DELETE /v3.1/users/{user_id}/nodes/{node_id}. The
// node is deactivated (is_active false), leaves the user's node list, and
// the answer is the node.
func (s *wireCore) handleDeleteNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodeDelete}); err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.deleteNode(s.Now(), r.PathValue("user_id"), r.PathValue("node_id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	s.okObject(w, v)
}
