package api

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// handleShipSubnet serves PATCH (the SDKs) and POST (the newer docs) of
// .../subnets/{subnet_id}/ship: it records a shipment of the card, paid from
// fee_node_id (the fake charges no fee), and answers the subnet.
func (s *Wire) handleShipSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeSubnetPatch}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeValid[bank.ShipRequest](r)
	if err == nil {
		err = s.enforcerFor(r).Enforce(req.BrokenRule())
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (bank.SubnetView, error) {
		return s.ShipSubnet(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), req)
	})
}

// handleListShipments serves GET .../subnets/{subnet_id}/ship: the card's
// shipments, oldest first.
func (s *Wire) handleListShipments(w http.ResponseWriter, r *http.Request) {
	servePage(s, w, r, access{userIP: true, scope: reference.ScopeSubnetGet}, false,
		func(q bank.ListQuery) ([]bank.ShipView, int, error) {
			return s.ShipmentsPage(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), q)
		},
		func(meta bank.ListMeta, items []bank.ShipView, total int) any {
			return bank.ShipsList{ListMeta: meta, ShipCount: total, Ships: items}
		})
}

// shipmentAction authorizes scope and answers the shipment op answers.
func (s *Wire) shipmentAction(w http.ResponseWriter, r *http.Request, scope string, op func(userID, nodeID, subnetID, shipID string) (bank.ShipView, error)) {
	if _, err := s.authorize(r, access{userIP: true, scope: scope}); err != nil {
		s.Fail(w, err)
		return
	}
	answerValue(s, w, func() (bank.ShipView, error) {
		return op(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), r.PathValue("ship_id"))
	})
}

// handleGetShipment serves GET .../subnets/{subnet_id}/ship/{ship_id}.
func (s *Wire) handleGetShipment(w http.ResponseWriter, r *http.Request) {
	s.shipmentAction(w, r, reference.ScopeSubnetGet, s.GetShipment)
}

// handleCancelShipment serves DELETE .../subnets/{subnet_id}/ship/{ship_id}:
// a CREATED shipment becomes CANCELED; any other is refused.
func (s *Wire) handleCancelShipment(w http.ResponseWriter, r *http.Request) {
	now := s.Now()
	s.shipmentAction(w, r, reference.ScopeSubnetPatch, func(userID, nodeID, subnetID, shipID string) (bank.ShipView, error) {
		return s.CancelShipment(now, userID, nodeID, subnetID, shipID)
	})

}

// handleApplePay serves PATCH .../nodes/{node_id}/applepay, the provisioning
// call of the deprecated node-based cards: it answers the push-to-wallet
// shape, derived deterministically from the node and the nonce, and changes
// nothing.
func (s *Wire) handleApplePay(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodePatch}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeValid[bank.ApplePayRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	seed, err := s.ApplePaySeed(r.PathValue("user_id"), r.PathValue("node_id"), *req.Nonce)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, pushAnswer(seed))
}
