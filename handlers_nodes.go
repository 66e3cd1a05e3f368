package synapsefake

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

// nodesList is the wrapper of GET /users/{user_id}/nodes and of the answer
// to POST /users/{user_id}/nodes (which the real service sent without page).
type nodesList struct {
	ErrorCode string     `json:"error_code"`
	HTTPCode  string     `json:"http_code"`
	Limit     int        `json:"limit"`
	NodeCount int        `json:"node_count"`
	Nodes     []nodeView `json:"nodes"`
	Page      *int       `json:"page,omitempty"`
	PageCount int        `json:"page_count"`
	Success   bool       `json:"success"`
}

// creatableNodeTypes are the node types POST /nodes accepts.
var creatableNodeTypes = []string{
	reference.NodeDepositUS, reference.NodeInterchangeUS, reference.NodeICDepositUS,
	reference.NodeExternalUS, reference.NodeACHUS, reference.NodeSubaccountUS,
}

// createNodeRequest is the body of POST /users/{user_id}/nodes.
type createNodeRequest struct {
	Type *string `json:"type"`
	Info *struct {
		Nickname   *string `json:"nickname"`
		AccountNum string  `json:"account_num"`
		RoutingNum string  `json:"routing_num"`
		Type       string  `json:"type"`
		Class      string  `json:"class"`
		DocumentID string  `json:"document_id"`
	} `json:"info"`
	Extra struct {
		SuppID string         `json:"supp_id"`
		Note   *string        `json:"note"`
		Other  map[string]any `json:"other"`
	} `json:"extra"`
}

func (r createNodeRequest) validate() error {
	if r.Type == nil || *r.Type == "" {
		return errPayload("missing_type", "type is required.")
	}
	if !slices.Contains(creatableNodeTypes, *r.Type) {
		return errPayload("invalid_node_type", "Unsupported node type %q.", *r.Type)
	}
	if r.Info == nil || r.Info.Nickname == nil || *r.Info.Nickname == "" {
		return errPayload("missing_nickname", "info.nickname is required.")
	}
	if err := validNickname("info.nickname", *r.Info.Nickname); err != nil {
		return err
	}
	if *r.Type == reference.NodeACHUS {
		if !allDigits(r.Info.AccountNum) || len(r.Info.AccountNum) < 4 || len(r.Info.AccountNum) > 17 {
			return errPayload("invalid_account_num", "info.account_num must be 4 to 17 digits.")
		}
		if !allDigits(r.Info.RoutingNum) || len(r.Info.RoutingNum) != 9 {
			return errPayload("invalid_routing_num", "info.routing_num must be 9 digits.")
		}
		if t := r.Info.Type; t != "" && t != "PERSONAL" && t != "BUSINESS" {
			return errPayload("invalid_account_type", "info.type must be PERSONAL or BUSINESS.")
		}
		if c := r.Info.Class; c != "" && c != "CHECKING" && c != "SAVINGS" {
			return errPayload("invalid_account_class", "info.class must be CHECKING or SAVINGS.")
		}
		if !validRoutingNumber(r.Info.RoutingNum) {
			return errIncorrect("unknown_routing_number", "Routing number %s is not a known bank.", r.Info.RoutingNum)
		}
	}
	return nil
}

func allDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// handleCreateNode serves POST /v3.1/users/{user_id}/nodes.
func (s *Server) handleCreateNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodesPost}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decode[createNodeRequest](r)
	if err == nil {
		err = req.validate()
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.store.createNode(s.Now(), r.PathValue("user_id"), req)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.ok(w, nodesList{ErrorCode: "0", HTTPCode: "200", Limit: 20, NodeCount: 1, Nodes: []nodeView{v}, PageCount: 1, Success: true})
}

func (st *store) createNode(now time.Time, userID string, req createNodeRequest) (nodeView, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	u := st.users[userID]
	if u == nil {
		return nodeView{}, errNotFound("user")
	}
	seed := NodeSeed{Type: *req.Type, Nickname: *req.Info.Nickname, AccountNum: req.Info.AccountNum,
		RoutingNum: req.Info.RoutingNum, SuppID: req.Extra.SuppID}
	var typ, class string
	if seed.Type == reference.NodeACHUS {
		typ, class = req.Info.Type, req.Info.Class
		if typ == "" {
			typ = "PERSONAL"
		}
		if class == "" {
			class = "CHECKING"
		}
	}
	n := st.newNode(now, u, seed, typ, class, req.Extra.Note)
	n.other = req.Extra.Other
	return st.emitNode(now, "NODES|POST", n), nil
}

// handleListNodes serves GET /v3.1/users/{user_id}/nodes.
func (s *Server) handleListNodes(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodesGet}); err != nil {
		s.fail(w, err)
		return
	}
	p, err := readPage(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.store.listNodes(r.PathValue("user_id"), p, r.URL.Query().Get("type"))
	if err != nil {
		s.fail(w, err)
		return
	}
	s.ok(w, v)
}

func (st *store) listNodes(userID string, p page, typ string) (nodesList, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	u := st.users[userID]
	if u == nil {
		return nodesList{}, errNotFound("user")
	}
	ids := u.nodeIDs
	if typ != "" {
		ids = nil
		for _, id := range u.nodeIDs {
			if st.nodes[id].typ == typ {
				ids = append(ids, id)
			}
		}
	}
	lo, hi := p.window(len(ids))
	out := nodesList{ErrorCode: "0", HTTPCode: "200", Limit: p.perPage, NodeCount: len(ids), Nodes: make([]nodeView, 0, hi-lo),
		Page: &p.number, PageCount: p.pageCount(len(ids)), Success: true}
	for _, id := range ids[lo:hi] {
		out.Nodes = append(out.Nodes, st.nodeView(st.nodes[id]))
	}
	return out, nil
}

// userNode finds a node under a user: unknown ids are 404, another user's
// node is 401 / "300". Callers hold mu.
func (st *store) userNode(userID, nodeID string) (*nodeRecord, error) {
	if st.users[userID] == nil {
		return nil, errNotFound("user")
	}
	n := st.nodes[nodeID]
	if n == nil {
		return nil, errNotFound("node")
	}
	if n.userID != userID {
		return nil, errUnauthorized("unauthorized_node", "Node %s does not belong to user %s.", nodeID, userID)
	}
	return n, nil
}

// handleGetNode serves GET /v3.1/users/{user_id}/nodes/{node_id}.
func (s *Server) handleGetNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodeGet}); err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.store.getNode(r.PathValue("user_id"), r.PathValue("node_id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	s.okObject(w, v)
}

func (st *store) getNode(userID, nodeID string) (nodeView, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return nodeView{}, err
	}
	return st.nodeView(n), nil
}

// patchNodeRequest is the body of PATCH /users/{user_id}/nodes/{node_id}.
type patchNodeRequest struct {
	Nickname *string `json:"nickname"`
	SuppID   *string `json:"supp_id"`
	Info     *struct {
		Nickname *string `json:"nickname"`
	} `json:"info"`
	Extra *struct {
		SuppID *string `json:"supp_id"`
		Note   *string `json:"note"`
	} `json:"extra"`
	Micro       []float64 `json:"micro"`
	ResendMicro *string   `json:"resend_micro"`
}

func (r patchNodeRequest) validate() error {
	if r.Nickname != nil && *r.Nickname == "" || r.Info != nil && r.Info.Nickname != nil && *r.Info.Nickname == "" {
		return errPayload("invalid_nickname", "nickname must not be empty.")
	}
	if r.Nickname != nil {
		if err := validNickname("nickname", *r.Nickname); err != nil {
			return err
		}
	}
	if r.Info != nil && r.Info.Nickname != nil {
		if err := validNickname("info.nickname", *r.Info.Nickname); err != nil {
			return err
		}
	}
	if r.Micro != nil && len(r.Micro) != 2 {
		return errPayload("invalid_micro", "micro must hold the two micro-deposit amounts.")
	}
	return nil
}

// handlePatchNode serves PATCH /v3.1/users/{user_id}/nodes/{node_id}.
func (s *Server) handlePatchNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodePatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeOptional[patchNodeRequest](r)
	if err == nil {
		err = req.validate()
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.store.patchNode(s.Now(), r.PathValue("user_id"), r.PathValue("node_id"), req)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.okObject(w, v)
}

func (st *store) patchNode(now time.Time, userID, nodeID string, req patchNodeRequest) (nodeView, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return nodeView{}, err
	}
	if !n.isActive {
		return nodeView{}, errNotAllowed("node_inactive", "Node %s is deleted.", nodeID)
	}
	if req.Micro != nil {
		if n.typ != reference.NodeACHUS || n.allowed != AllowedCredit {
			return nodeView{}, errNotAllowed("micro_not_pending", "Node %s has no micro deposits to verify.", nodeID)
		}
		if toCents(req.Micro[0]) != microDeposits[0] || toCents(req.Micro[1]) != microDeposits[1] {
			return nodeView{}, errIncorrect("incorrect_micro", "Micro deposit amounts do not match.")
		}
	}
	if req.Nickname != nil {
		n.nickname = *req.Nickname
	}
	if req.Info != nil && req.Info.Nickname != nil {
		n.nickname = *req.Info.Nickname
	}
	if req.SuppID != nil {
		n.suppID = *req.SuppID
	}
	if req.Extra != nil {
		if req.Extra.SuppID != nil {
			n.suppID = *req.Extra.SuppID
		}
		if req.Extra.Note != nil {
			n.note = req.Extra.Note
		}
	}
	if req.Micro != nil {
		n.allowed = AllowedCreditAndDebit
		n.timeline = append(n.timeline, nodeEvent{Date: ms(now), Note: "Micro deposits verified."})
	}
	if req.ResendMicro != nil && n.allowed == AllowedCredit {
		n.timeline = append(n.timeline, nodeEvent{Date: ms(now), Note: "Micro deposits initiated."})
	}
	return st.emitNode(now, "NODE|PATCH", n), nil
}

// handleDeleteNode serves DELETE /v3.1/users/{user_id}/nodes/{node_id}. The
// node is deactivated (is_active false), leaves the user's node list, and
// the answer is the node.
func (s *Server) handleDeleteNode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodeDelete}); err != nil {
		s.fail(w, err)
		return
	}
	v, err := s.store.deleteNode(s.Now(), r.PathValue("user_id"), r.PathValue("node_id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	s.okObject(w, v)
}

func (st *store) deleteNode(now time.Time, userID, nodeID string) (nodeView, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return nodeView{}, err
	}
	if !n.isActive {
		return nodeView{}, errNotAllowed("node_inactive", "Node %s is already deleted.", nodeID)
	}
	n.isActive = false
	n.timeline = append(n.timeline, nodeEvent{Date: ms(now), Note: "Node deleted."})
	u := st.users[userID]
	u.nodeIDs = slices.DeleteFunc(u.nodeIDs, func(id string) bool { return id == nodeID })
	st.nodeOrder = slices.DeleteFunc(st.nodeOrder, func(id string) bool { return id == nodeID })
	return st.emitNode(now, "NODE|PATCH", n), nil
}

// emitNode records a node event and returns the node's view. Callers hold mu.
func (st *store) emitNode(now time.Time, function string, n *nodeRecord) nodeView {
	v := st.nodeView(n)
	st.emit(now, function, "NODE", n.id, v)
	return v
}
