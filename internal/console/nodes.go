// Nodes, the console's side: the control routes that make, read and fund a node, and make a subnet.

package console

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// controlNodeView is a node as the control API shows it.
type controlNodeView struct {
	ID           string       `json:"_id"`
	UserID       string       `json:"user_id"`
	Type         string       `json:"type"`
	Nickname     string       `json:"nickname"`
	Allowed      bank.Allowed `json:"allowed"`
	BalanceCents int64        `json:"balance_cents"`
	// AvailableCents is the balance less the debits promised but not yet
	// made (Node.AvailableCents).
	AvailableCents int64 `json:"available_cents"`
	IsActive       bool  `json:"is_active"`
}

// controlNodeRequest is the body of POST /_fake/users/{user_id}/nodes: a NodeSeed.
type controlNodeRequest struct {
	Type         string `json:"type"`
	Nickname     string `json:"nickname"`
	BalanceCents int64  `json:"balance_cents"`
	AccountNum   string `json:"account_num"`
	RoutingNum   string `json:"routing_num"`
	SuppID       string `json:"supp_id"`
}

// Validate refuses a negative balance, which AddNode takes but the control
// API and worlds do not, then what AddNode refuses.
func (req controlNodeRequest) Validate() error {
	if req.BalanceCents < 0 {
		return apierr.Payload("invalid_balance", "balance_cents must be from 0 to %d.", int64(bank.MaxBalanceCents))
	}
	return bank.ValidateNodeSeed(bank.NodeSeed(req))
}

// controlCreateNode serves POST /_fake/users/{user_id}/nodes.
func (s *Console) controlCreateNode(w http.ResponseWriter, r *http.Request) {
	req, err := controlBodyValid[controlNodeRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	n, err := s.AddNode(r.PathValue("user_id"), bank.NodeSeed(req))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"node": controlNodeRead(n)})
}

// controlSubnetView is a subnet as the control API shows it, with the full
// card or account number.
type controlSubnetView struct {
	ID           string            `json:"_id"`
	NodeID       string            `json:"node_id"`
	UserID       string            `json:"user_id"`
	AccountClass bank.AccountClass `json:"account_class"`
	Status       bank.SubnetStatus `json:"status"`
	StatusCode   string            `json:"status_code"`
	CardNumber   string            `json:"card_number"`
	AccountNum   string            `json:"account_num"`
}

// controlSubnetRequest is the body of POST .../subnets: a SubnetSeed.
type controlSubnetRequest struct {
	Nickname     string            `json:"nickname"`
	AccountClass bank.AccountClass `json:"account_class"`
	Status       bank.SubnetStatus `json:"status"`
}

// controlCreateSubnet serves POST /_fake/users/{user_id}/nodes/{node_id}/subnets.
func (s *Console) controlCreateSubnet(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlSubnetRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	sn, err := s.AddSubnet(r.PathValue("user_id"), r.PathValue("node_id"), bank.SubnetSeed(req))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"subnet": controlSubnetView{ID: sn.ID, NodeID: sn.NodeID, UserID: sn.UserID,
		AccountClass: sn.AccountClass, Status: sn.Status, StatusCode: sn.StatusCode, CardNumber: sn.CardNumber,
		AccountNum: sn.AccountNum}})
}

// controlNodeRead is a node as the control API's reads show it: its
// current and available balances.
func controlNodeRead(n bank.Node) controlNodeView {
	return controlNodeView{ID: n.ID, UserID: n.UserID, Type: n.Type, Nickname: n.Nickname, Allowed: n.Allowed,
		BalanceCents: n.BalanceCents, AvailableCents: n.AvailableCents, IsActive: n.IsActive}
}

// controlUserNodes serves GET /_fake/users/{user_id}/nodes: the user's
// active nodes, oldest first, with their balances.
func (s *Console) controlUserNodes(w http.ResponseWriter, r *http.Request) {
	u, ok := s.User(r.PathValue("user_id"))
	if !ok {
		s.Fail(w, apierr.NotFound("user"))
		return
	}
	views := make([]controlNodeView, 0, len(u.NodeIDs))
	for _, id := range u.NodeIDs {
		if n, ok := s.Node(id); ok {
			views = append(views, controlNodeRead(n))
		}
	}
	s.ControlOK(w, map[string]any{"nodes": views, "nodes_count": len(views)})
}

// controlGetNode serves GET /_fake/nodes/{node_id}.
func (s *Console) controlGetNode(w http.ResponseWriter, r *http.Request) {
	n, ok := s.Node(r.PathValue("node_id"))
	if !ok || n.UserID == s.NetworkUserID() {
		s.Fail(w, apierr.NotFound("node"))
		return
	}
	s.ControlOK(w, map[string]any{"node": controlNodeRead(n)})
}

// controlFundRequest is the body of POST /_fake/nodes/{node_id}/fund.
type controlFundRequest struct {
	AmountCents *int64 `json:"amount_cents"`
}

// controlFund serves POST /_fake/nodes/{node_id}/fund {"amount_cents": N}:
// Fund, and the node as it is after.
func (s *Console) controlFund(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlFundRequest](r)
	if err == nil && req.AmountCents == nil {
		err = apierr.Payload("missing_amount_cents", "amount_cents is required.")
	}
	if err == nil {
		err = s.Fund(r.PathValue("node_id"), *req.AmountCents)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	n, _ := s.Node(r.PathValue("node_id"))
	s.ControlOK(w, map[string]any{"node": controlNodeRead(n)})
}
