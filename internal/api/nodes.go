// Nodes, the wire's side: the node routes.

package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// decodeCreateNode reads the body of POST /users/{user_id}/nodes.
func decodeCreateNode(r *http.Request) (bank.CreateNodeRequest, error) {
	var req bank.CreateNodeRequest
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
	req.RawInfo = raw.Info
	return req, nil
}

// handleCreateNode serves POST /v3.1/users/{user_id}/nodes.
func (s *Wire) handleCreateNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodesPost}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeCreateNode(r)
	if err == nil {
		err = req.Validate(s.enforcerFor(r))
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	userID := r.PathValue("user_id")
	var ans bank.BankLoginAnswer
	switch {
	case req.AccessToken != nil:
		ans, err = s.AnswerBankMFA(s.Now(), userID, *req.AccessToken, *req.MFAAnswer)
	case req.IsBankLogin():
		ans, err = s.BankLogin(s.Now(), userID, *req.Info.BankID, *req.Info.BankPW, *req.Info.BankName)
	default:
		var v bank.NodeView
		v, err = s.CreateNode(s.Now(), userID, req)
		ans.Nodes = []bank.NodeView{v}
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	if ans.Mfa != nil {
		writeJSON(w, http.StatusAccepted, ans.Mfa)
		return
	}
	s.Ok(w, bank.NodesList{ErrorCode: "0", HTTPCode: "200", Limit: 20, NodeCount: len(ans.Nodes), Nodes: ans.Nodes, PageCount: 1, Success: true})
}

// handleListNodes serves GET /v3.1/users/{user_id}/nodes.
func (s *Wire) handleListNodes(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodesGet}); err != nil {
		s.Fail(w, err)
		return
	}
	lq, q, err := readList(w, r, false)
	if err != nil {
		s.Fail(w, err)
		return
	}
	v, err := s.ListNodes(r.PathValue("user_id"), lq, q.Get("type"))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, v)
}

// handleGetNode serves GET /v3.1/users/{user_id}/nodes/{node_id}.
func (s *Wire) handleGetNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodeGet}); err != nil {
		s.Fail(w, err)
		return
	}
	v, err := s.GetNode(r.PathValue("user_id"), r.PathValue("node_id"))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.okObject(w, v)
}

// decodePatchNode reads PATCH /users/{user_id}/nodes/{node_id}: the body
// may be a JSON object, or empty whatever its Content-Type (the Go SDK's
// ResetCardNode sends an empty form-encoded body). A query flag other than
// YES or NO is NO, unless enf refuses it.
func decodePatchNode(r *http.Request, enf bank.Enforcer) (bank.PatchNodeRequest, error) {
	req, err := decodeOptional[bank.PatchNodeRequest](r)
	if err != nil {
		return req, err
	}
	q := r.URL.Query()
	for _, p := range []struct {
		name string
		set  func()
	}{
		{"resend_micro", func() { yes := "YES"; req.ResendMicro = &yes }},
		{"ship", func() { req.Ship = true }},
		{"reset", func() { req.Reset = true }},
		// synapse_pay_rest's CardUsNode#reissue_card and #reorder_card.
		{"reissue_card", func() { req.Reset, req.Reissue = true, true }},
		{"reorder_card", func() { req.Ship = true }},
	} {
		switch v := q.Get(p.name); {
		case strings.EqualFold(v, "YES"):
			p.set()
		case v != "" && !strings.EqualFold(v, "NO"):
			if err := enf.Enforce(bank.BrokenRule{Rule: p.name + " is YES or NO", Err: apierr.Payload("invalid_query", "%s must be YES or NO.", p.name)}); err != nil {
				return req, err
			}
		}
	}
	return req, nil
}

// handlePatchNode serves PATCH /v3.1/users/{user_id}/nodes/{node_id}.
func (s *Wire) handlePatchNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodePatch}); err != nil {
		s.Fail(w, err)
		return
	}
	enf := s.enforcerFor(r)
	req, err := decodePatchNode(r, enf)
	if err == nil {
		err = req.Validate(enf)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	v, err := s.PatchNode(s.Now(), r.PathValue("user_id"), r.PathValue("node_id"), req)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.okObject(w, v)
}

// handleDeleteNode serves DELETE /v3.1/users/{user_id}/nodes/{node_id}. The
// node is deactivated (is_active false), leaves the user's node list, and
// the answer is the node.
func (s *Wire) handleDeleteNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodeDelete}); err != nil {
		s.Fail(w, err)
		return
	}
	v, err := s.DeleteNode(s.Now(), r.PathValue("user_id"), r.PathValue("node_id"))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.okObject(w, v)
}
