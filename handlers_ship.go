package synapsefake

import (
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/reference"
)

// Shipment statuses. A new shipment is CREATED; the fake moves it only to
// CANCELED, by DELETE.
const (
	ShipmentCreated  = "CREATED"
	ShipmentCanceled = "CANCELED"
)

// shipDeliveries are the delivery speeds a shipment may ask for.
var shipDeliveries = []string{"STANDARD", "STANDARD|TRACKING", "EXPEDITE", "OVERNIGHT"}

// maxSecondaryLabel is the longest secondary_label printed on a card.
const maxSecondaryLabel = 26

// shipCarrier is the delivery_carrier every recorded shipment showed.
const shipCarrier = "6070 Poplar Avenue, Suite 100 Memphis, Tennessee 38119"

// shipRecord is one card shipment, kept on its subnet.
type shipRecord struct {
	id             string
	created        time.Time
	delivery       string
	cardStyleID    *string
	name           string
	address        shipAddress
	secondaryLabel *string
	status         string
}

type shipAddress struct {
	CareOf      string `json:"address_care_of"`
	City        string `json:"address_city"`
	CountryCode string `json:"address_country_code"`
	PostalCode  string `json:"address_postal_code"`
	Street      string `json:"address_street"`
	Subdivision string `json:"address_subdivision"`
}

// shipView is a shipment as the API returns it.
type shipView struct {
	ID              string      `json:"_id"`
	Address         shipAddress `json:"address"`
	CardStyleID     *string     `json:"card_style_id"`
	CreatedOn       int64       `json:"created_on"`
	Delivery        string      `json:"delivery"`
	DeliveryCarrier string      `json:"delivery_carrier"`
	Name            string      `json:"name"`
	NodeID          string      `json:"node_id"`
	SecondaryLabel  any         `json:"secondary_label"` // false when none, as recorded
	Status          string      `json:"status"`
	SubnetID        string      `json:"subnet_id"`
	Tracking        *string     `json:"tracking"`
}

func (sh *shipRecord) view(sn *subnetRecord) shipView {
	v := shipView{ID: sh.id, Address: sh.address, CardStyleID: sh.cardStyleID, CreatedOn: ms(sh.created),
		Delivery: sh.delivery, DeliveryCarrier: shipCarrier, Name: sh.name,
		NodeID: sn.nodeID, SecondaryLabel: false, Status: sh.status, SubnetID: sn.id}
	if sh.secondaryLabel != nil {
		v.SecondaryLabel = *sh.secondaryLabel
	}
	return v
}

// shipsList is the wrapper of GET .../subnets/{subnet_id}/ship.
type shipsList struct {
	listMeta
	ShipCount int        `json:"ship_count"`
	Ships     []shipView `json:"ships"`
}

// shipRequest is the body of PATCH (or POST) .../subnets/{subnet_id}/ship.
type shipRequest struct {
	FeeNodeID      *string `json:"fee_node_id"`
	Delivery       *string `json:"delivery"`
	Expedite       *bool   `json:"expedite"` // deprecated: true asks for EXPEDITE
	CardStyleID    *string `json:"card_style_id"`
	SecondaryLabel *string `json:"secondary_label"`
}

func (r shipRequest) validate() error {
	switch {
	case r.FeeNodeID == nil || *r.FeeNodeID == "":
		return errPayload("missing_fee_node_id", "fee_node_id is required.")
	case r.Delivery != nil && !slices.Contains(shipDeliveries, *r.Delivery):
		return errPayload("invalid_delivery", "delivery must be one of %s.", strings.Join(shipDeliveries, ", "))
	case r.CardStyleID != nil && *r.CardStyleID == "":
		return errPayload("invalid_card_style_id", "card_style_id must not be empty.")
	case r.SecondaryLabel != nil && utf8.RuneCountInString(*r.SecondaryLabel) > maxSecondaryLabel:
		return errPayload("invalid_secondary_label", "secondary_label is at most %d characters.", maxSecondaryLabel)
	}
	return nil
}

func (r shipRequest) delivery() string {
	switch {
	case r.Delivery != nil:
		return *r.Delivery
	case r.Expedite != nil && *r.Expedite:
		return "EXPEDITE"
	}
	return "STANDARD"
}

// handleShipSubnet serves PATCH (the SDKs) and POST (the newer docs) of
// .../subnets/{subnet_id}/ship: it records a shipment of the card, paid from
// fee_node_id (the fake charges no fee), and answers the subnet.
func (s *Server) handleShipSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeSubnetPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decode[shipRequest](r)
	if err == nil {
		err = req.validate()
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	s.subnetAction(w, r, false, func(st *store, sn *subnetRecord) error { return st.ship(sn, now, req) })
}

// ship records a shipment of a card. Callers hold mu.
func (st *store) ship(sn *subnetRecord, now time.Time, req shipRequest) error {
	fee, err := st.userNode(sn.userID, *req.FeeNodeID)
	switch {
	case err != nil:
		return err
	case !fee.isActive:
		return errNotAllowed("node_inactive", "Node %s is deleted.", fee.id)
	case sn.class != ClassCard:
		return errNotAllowed("not_a_card", "Only cards can be shipped.")
	case sn.status == SubnetTerminated:
		return errNotAllowed("subnet_terminated", "Subnet %s is TERMINATED; it cannot be shipped.", sn.id)
	}
	if req.CardStyleID != nil {
		sn.cardStyleID = req.CardStyleID
	}
	name, addr := st.users[sn.userID].mailing()
	sn.ships = append(sn.ships, &shipRecord{id: st.newID(), created: now, delivery: req.delivery(),
		cardStyleID: sn.cardStyleID, name: name, address: addr,
		secondaryLabel: req.SecondaryLabel, status: ShipmentCreated})
	sn.updated = now
	st.emit(now, "SUBNET|PATCH", "SUBNET", sn.id, st.subnetView(sn, false))
	return nil
}

// mailing is the name and address a card is shipped to: those of the
// user's first document that has them (upper-cased, as the service
// normalised them), else the user's first legal name and an empty address.
func (u *userRecord) mailing() (string, shipAddress) {
	name := ""
	if len(u.legalNames) > 0 {
		name = u.legalNames[0]
	}
	for _, b := range u.documents {
		d := b.fields
		if deref(d.AddressStreet) == "" {
			continue
		}
		if deref(d.Name) != "" {
			name = *d.Name
		}
		up := strings.ToUpper
		return name, shipAddress{CareOf: name, City: up(deref(d.AddressCity)), CountryCode: up(deref(d.AddressCountryCode)),
			PostalCode: deref(d.AddressPostalCode), Street: up(*d.AddressStreet), Subdivision: up(deref(d.AddressSubdivision))}
	}
	return name, shipAddress{CareOf: name}
}

// handleListShipments serves GET .../subnets/{subnet_id}/ship: the card's
// shipments, oldest first.
func (s *Server) handleListShipments(w http.ResponseWriter, r *http.Request) {
	var sn *subnetRecord
	servePage(s, w, r, access{userIP: true, scope: reference.ScopeSubnetGet}, false,
		func(st *store) ([]string, error) {
			var err error
			sn, err = st.nodeSubnet(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"))
			if err != nil {
				return nil, err
			}
			ids := make([]string, len(sn.ships))
			for i, sh := range sn.ships {
				ids[i] = sh.id
			}
			return ids, nil
		},
		func(_ *store, id string) shipView { return sn.ship(id).view(sn) },
		func(meta listMeta, items []shipView, total int) any {
			return shipsList{listMeta: meta, ShipCount: total, Ships: items}
		})
}

// ship finds a shipment of the subnet, or nil.
func (sn *subnetRecord) ship(id string) *shipRecord {
	for _, sh := range sn.ships {
		if sh.id == id {
			return sh
		}
	}
	return nil
}

// shipmentAction runs fn on the path's shipment under the lock and answers
// the shipment as it is afterwards.
func (s *Server) shipmentAction(w http.ResponseWriter, r *http.Request, scope string, fn func(*store, *subnetRecord, *shipRecord) error) {
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
			return shipView{}, errNotFound("shipment")
		}
		if err := fn(st, sn, sh); err != nil {
			return shipView{}, err
		}
		return sh.view(sn), nil
	})
}

// handleGetShipment serves GET .../subnets/{subnet_id}/ship/{ship_id}.
func (s *Server) handleGetShipment(w http.ResponseWriter, r *http.Request) {
	s.shipmentAction(w, r, reference.ScopeSubnetGet, func(*store, *subnetRecord, *shipRecord) error { return nil })
}

// handleCancelShipment serves DELETE .../subnets/{subnet_id}/ship/{ship_id}:
// a CREATED shipment becomes CANCELED; any other is refused.
func (s *Server) handleCancelShipment(w http.ResponseWriter, r *http.Request) {
	now := s.Now()
	s.shipmentAction(w, r, reference.ScopeSubnetPatch, func(st *store, sn *subnetRecord, sh *shipRecord) error {
		if sh.status != ShipmentCreated {
			return errNotAllowed("cannot_cancel_shipment", "Shipment in status %s cannot be canceled.", sh.status)
		}
		sh.status = ShipmentCanceled
		sn.updated = now
		st.emit(now, "SUBNET|PATCH", "SUBNET", sn.id, st.subnetView(sn, false))
		return nil
	})
}

// applePayRequest is the body of PATCH .../nodes/{node_id}/applepay.
type applePayRequest struct {
	Certificate    *string  `json:"certificate"`
	Certificates   []string `json:"certificates"`
	Nonce          *string  `json:"nonce"`
	NonceSignature *string  `json:"nonce_signature"`
}

func (r applePayRequest) validate() error {
	switch {
	case r.Nonce == nil || *r.Nonce == "":
		return errPayload("missing_nonce", "nonce is required.")
	case r.NonceSignature == nil || *r.NonceSignature == "":
		return errPayload("missing_nonce_signature", "nonce_signature is required.")
	case (r.Certificate == nil || *r.Certificate == "") && (len(r.Certificates) == 0 || slices.Contains(r.Certificates, "")):
		return errPayload("missing_certificate", "certificate (or certificates) is required.")
	}
	return nil
}

// handleApplePay serves PATCH .../nodes/{node_id}/applepay, the provisioning
// call of the deprecated node-based cards: it answers the push-to-wallet
// shape, derived deterministically from the node and the nonce, and changes
// nothing.
func (s *Server) handleApplePay(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodePatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decode[applePayRequest](r)
	if err == nil {
		err = req.validate()
	}
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
			return out, errNotAllowed("node_inactive", "Node %s is deleted.", n.id)
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
