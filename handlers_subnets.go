package synapsefake

import (
	"net/http"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// subnetsList is the wrapper of the subnet lists.
type subnetsList struct {
	listMeta
	Subnets      []subnetView `json:"subnets"`
	SubnetsCount int          `json:"subnets_count"`
}

// listSubnets serves a subnet list, oldest first.
func (s *wireCore) listSubnets(w http.ResponseWriter, r *http.Request, list func(q listQuery) ([]subnetView, int, error)) {
	servePage(s, w, r, access{gateway: true, userIP: true, scope: reference.ScopeSubnetsGet}, false, list,
		func(meta listMeta, items []subnetView, total int) any {
			return subnetsList{listMeta: meta, Subnets: items, SubnetsCount: total}
		})
}

// handleCreateSubnet serves POST /v3.1/users/{user_id}/nodes/{node_id}/subnets.
func (s *wireCore) handleCreateSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeSubnetsPost}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[createSubnetRequest](r)
	if err == nil {
		err = s.strictRules(r, req.broken())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (subnetView, error) {
		return s.createSubnet(now, r.PathValue("user_id"), r.PathValue("node_id"), req)
	})

}

// handleListNodeSubnets serves GET /v3.1/users/{user_id}/nodes/{node_id}/subnets.
func (s *wireCore) handleListNodeSubnets(w http.ResponseWriter, r *http.Request) {
	s.listSubnets(w, r, func(q listQuery) ([]subnetView, int, error) {
		return s.nodeSubnetsPage(r.PathValue("user_id"), r.PathValue("node_id"), q)
	})
}

// handleListUserSubnets serves GET /v3.1/users/{user_id}/subnets.
func (s *wireCore) handleListUserSubnets(w http.ResponseWriter, r *http.Request) {
	s.listSubnets(w, r, func(q listQuery) ([]subnetView, int, error) { return s.userSubnetsPage(r.PathValue("user_id"), q) })
}

// handleGetSubnet serves GET .../subnets/{subnet_id}; full_dehydrate=YES
// shows the full card number, cvc and account number, any other value
// nothing more.
func (s *wireCore) handleGetSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true, userIP: true, scope: reference.ScopeSubnetGet}); err != nil {
		s.fail(w, err)
		return
	}
	full := false
	switch v := strings.ToUpper(r.URL.Query().Get("full_dehydrate")); v {
	case "", "NO":
	case "YES":
		full = true
	default: // NO, as GET /users/{user_id} reads it
		if err := s.strictRule(r, "full_dehydrate is YES or NO", apierr.Payload("invalid_full_dehydrate", "full_dehydrate must be YES or NO.")); err != nil {
			s.fail(w, err)
			return
		}
	}
	answerValue(s, w, func() (subnetView, error) {
		return s.getSubnet(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), full)
	})
}

// handlePatchSubnet serves PATCH .../subnets/{subnet_id}.
func (s *wireCore) handlePatchSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeSubnetPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[patchSubnetRequest](r)
	if err == nil {
		err = s.strictRules(r, req.broken())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	strict := func(broken ...brokenRule) error { return s.strictRules(r, broken) }
	answerValue(s, w, func() (subnetView, error) {
		return s.patchSubnet(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), req, strict)
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
func (s *wireCore) handlePushSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true, userIP: true, scope: reference.ScopeSubnetPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[pushRequest](r)
	if err == nil {
		err = s.strictRules(r, req.broken())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	seed, err := s.pushSeed(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), *req.Type, deref(req.Nonce))
	var out pushResponse
	if err == nil {
		out.Success = true
		out.Data.Authentication = pushAuthentication{
			ActivationData: derived(seed, "activation", 32),
			EncryptedData:  derived(seed, "encrypted", 96),
			PublicKey:      derived(seed, "public_key", 65),
		}
	}

	if err != nil {
		s.fail(w, err)
		return
	}
	s.ok(w, out)
}
