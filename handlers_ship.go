package synapsefake

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
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
	s.subnetAction(w, r, false, func(st *store, sn *subnetRecord) error { return st.ship(sn, now, req) })
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

// shipmentAction runs fn on the path's shipment under the lock and answers
// the shipment as it is afterwards.
func (s *wireCore) shipmentAction(w http.ResponseWriter, r *http.Request, scope string, fn func(*store, *subnetRecord, *shipRecord) error) {
	if _, err := s.authorize(r, access{userIP: true, scope: scope}); err != nil {
		s.fail(w, err)
		return
	}
	answerObject(s, w, func(st *store) (shipView, error) {
		sn, err := st.nodeSubnet(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"))
		if err != nil {
			return shipView{}, err
		}
		sh := sn.ship(r.PathValue("ship_id"))
		if sh == nil {
			return shipView{}, apierr.NotFound("shipment")
		}
		if err := fn(st, sn, sh); err != nil {
			return shipView{}, err
		}
		return sh.view(sn), nil
	})
}

// handleGetShipment serves GET .../subnets/{subnet_id}/ship/{ship_id}.
func (s *wireCore) handleGetShipment(w http.ResponseWriter, r *http.Request) {
	s.shipmentAction(w, r, reference.ScopeSubnetGet, func(*store, *subnetRecord, *shipRecord) error { return nil })
}

// handleCancelShipment serves DELETE .../subnets/{subnet_id}/ship/{ship_id}:
// a CREATED shipment becomes CANCELED; any other is refused.
func (s *wireCore) handleCancelShipment(w http.ResponseWriter, r *http.Request) {
	now := s.Now()
	s.shipmentAction(w, r, reference.ScopeSubnetPatch, func(st *store, sn *subnetRecord, sh *shipRecord) error {
		if sh.status != ShipmentCreated {
			return apierr.NotAllowed("cannot_cancel_shipment", "Shipment in status %s cannot be canceled.", sh.status)
		}
		sh.status = ShipmentCanceled
		sn.updated = now
		st.emit(now, "SUBNET|PATCH", "SUBNET", sn.id, st.subnetView(sn, false))
		return nil
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
	out, err := withStore(s.store, func(st *store) (pushResponse, error) {
		var out pushResponse
		n, err := st.userNode(r.PathValue("user_id"), r.PathValue("node_id"))
		if err != nil {
			return out, err
		}
		if !n.isActive {
			return out, apierr.NotAllowed("node_inactive", "Node %s is deleted.", n.id)
		}
		seed := n.id + "|" + PushApple + "|" + *req.Nonce
		out.Success = true
		out.Data.Authentication = pushAuthentication{
			ActivationData: derived(seed, "activation", 32),
			EncryptedData:  derived(seed, "encrypted", 96),
			PublicKey:      derived(seed, "public_key", 65),
		}
		return out, nil
	})
	if err != nil {
		s.fail(w, err)
		return
	}
	s.ok(w, out)
}
