// Subnets, the wire's side: the subnet routes.

package api

import (
	"net/http"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// subnetsList is the wrapper of the subnet lists.
type subnetsList struct {
	bank.ListMeta
	Subnets      []bank.SubnetView `json:"subnets"`
	SubnetsCount int               `json:"subnets_count"`
}

// listSubnets serves a subnet list, oldest first.
func (s *Wire) listSubnets(w http.ResponseWriter, r *http.Request, list func(q bank.ListQuery) ([]bank.SubnetView, int, error)) {
	servePage(s, w, r, access{gateway: true, userIP: true, scope: reference.ScopeSubnetsGet}, false, list,
		func(meta bank.ListMeta, items []bank.SubnetView, total int) any {
			return subnetsList{ListMeta: meta, Subnets: items, SubnetsCount: total}
		})
}

// handleCreateSubnet serves POST /v3.1/users/{user_id}/nodes/{node_id}/subnets.
func (s *Wire) handleCreateSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeSubnetsPost}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeChecked[bank.CreateSubnetRequest](s, r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (bank.SubnetView, error) {
		return s.CreateSubnet(now, r.PathValue("user_id"), r.PathValue("node_id"), req)
	})

}

// handleListNodeSubnets serves GET /v3.1/users/{user_id}/nodes/{node_id}/subnets.
func (s *Wire) handleListNodeSubnets(w http.ResponseWriter, r *http.Request) {
	s.listSubnets(w, r, func(q bank.ListQuery) ([]bank.SubnetView, int, error) {
		return s.NodeSubnetsPage(r.PathValue("user_id"), r.PathValue("node_id"), q)
	})
}

// handleListUserSubnets serves GET /v3.1/users/{user_id}/subnets.
func (s *Wire) handleListUserSubnets(w http.ResponseWriter, r *http.Request) {
	s.listSubnets(w, r, func(q bank.ListQuery) ([]bank.SubnetView, int, error) {
		return s.UserSubnetsPage(r.PathValue("user_id"), q)
	})
}

// handleGetSubnet serves GET .../subnets/{subnet_id}; full_dehydrate=YES
// shows the full card number, cvc and account number, any other value
// nothing more.
func (s *Wire) handleGetSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true, userIP: true, scope: reference.ScopeSubnetGet}); err != nil {
		s.Fail(w, err)
		return
	}
	full := false
	switch v := strings.ToUpper(r.URL.Query().Get("full_dehydrate")); v {
	case "", "NO":
	case "YES":
		full = true
	default: // NO, as GET /users/{user_id} reads it
		if err := s.strictRule(r, "full_dehydrate is YES or NO", apierr.Payload("invalid_full_dehydrate", "full_dehydrate must be YES or NO.")); err != nil {
			s.Fail(w, err)
			return
		}
	}
	answerValue(s, w, func() (bank.SubnetView, error) {
		return s.GetSubnet(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), full)
	})
}

// handlePatchSubnet serves PATCH .../subnets/{subnet_id}.
func (s *Wire) handlePatchSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeSubnetPatch}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeChecked[bank.PatchSubnetRequest](s, r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	strict := func(broken ...bank.BrokenRule) error { return s.strictRules(r, broken) }
	answerValue(s, w, func() (bank.SubnetView, error) {
		return s.PatchSubnet(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), req, strict)
	})
}

type pushAuthentication struct {
	ActivationData string `json:"activation_data"`
	EncryptedData  string `json:"encrypted_data"`
	PublicKey      string `json:"public_key"`
}

type pushResponse struct {
	Data struct {
		Authentication pushAuthentication `json:"authentication"`
	} `json:"data"`
	Error   struct{} `json:"error"`
	Success bool     `json:"success"`
}

// handlePushSubnet serves POST .../subnets/{subnet_id}/push: a provisioning
// token for an ACTIVE card, derived deterministically from the card and
// the request.
func (s *Wire) handlePushSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true, userIP: true, scope: reference.ScopeSubnetPatch}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeChecked[bank.PushRequest](s, r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	seed, err := s.PushSeed(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), *req.Type, bank.Deref(req.Nonce))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, pushAnswer(seed))
}

// pushAnswer is the push-to-wallet answer whose provisioning data seed
// derives.
func pushAnswer(seed string) pushResponse {
	var out pushResponse
	out.Success = true
	out.Data.Authentication = pushAuthentication{
		ActivationData: bank.Derived(seed, "activation", 32),
		EncryptedData:  bank.Derived(seed, "encrypted", 96),
		PublicKey:      bank.Derived(seed, "public_key", 65),
	}
	return out
}
