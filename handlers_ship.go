package synapsefake

import (
	"net/http"

	"github.com/synapsefake/synapsefake/reference"
)

// handleShipSubnet serves PATCH (the SDKs) and POST (the newer docs) of
// .../subnets/{subnet_id}/ship: it records a shipment of the card, paid from
// fee_node_id (the fake charges no fee), and answers the subnet.
func (s *wireCore) handleShipSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeSubnetPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[shipRequest](r)
	if err == nil {
		err = s.enforcerFor(r).enforce(req.brokenRule())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (subnetView, error) {
		return s.shipSubnet(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), req)
	})
}

// handleListShipments serves GET .../subnets/{subnet_id}/ship: the card's
// shipments, oldest first.
func (s *wireCore) handleListShipments(w http.ResponseWriter, r *http.Request) {
	servePage(s, w, r, access{userIP: true, scope: reference.ScopeSubnetGet}, false,
		func(q listQuery) ([]shipView, int, error) {
			return s.shipmentsPage(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), q)
		},
		func(meta listMeta, items []shipView, total int) any {
			return shipsList{listMeta: meta, ShipCount: total, Ships: items}
		})
}

// shipmentAction authorizes scope and answers the shipment op answers.
func (s *wireCore) shipmentAction(w http.ResponseWriter, r *http.Request, scope string, op func(userID, nodeID, subnetID, shipID string) (shipView, error)) {
	if _, err := s.authorize(r, access{userIP: true, scope: scope}); err != nil {
		s.fail(w, err)
		return
	}
	answerValue(s, w, func() (shipView, error) {
		return op(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), r.PathValue("ship_id"))
	})
}

// handleGetShipment serves GET .../subnets/{subnet_id}/ship/{ship_id}.
func (s *wireCore) handleGetShipment(w http.ResponseWriter, r *http.Request) {
	s.shipmentAction(w, r, reference.ScopeSubnetGet, s.getShipment)
}

// handleCancelShipment serves DELETE .../subnets/{subnet_id}/ship/{ship_id}:
// a CREATED shipment becomes CANCELED; any other is refused.
func (s *wireCore) handleCancelShipment(w http.ResponseWriter, r *http.Request) {
	now := s.Now()
	s.shipmentAction(w, r, reference.ScopeSubnetPatch, func(userID, nodeID, subnetID, shipID string) (shipView, error) {
		return s.cancelShipment(now, userID, nodeID, subnetID, shipID)
	})

}

// handleApplePay serves PATCH .../nodes/{node_id}/applepay, the provisioning
// call of the deprecated node-based cards: it answers the push-to-wallet
// shape, derived deterministically from the node and the nonce, and changes
// nothing.
func (s *wireCore) handleApplePay(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodePatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[applePayRequest](r)
	if err != nil {
		s.fail(w, err)
		return
	}
	seed, err := s.applePaySeed(r.PathValue("user_id"), r.PathValue("node_id"), *req.Nonce)
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
