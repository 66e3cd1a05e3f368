package bank

import (
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
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

// ShipView is a shipment as the API returns it.
type ShipView struct {
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

func (sh *shipRecord) view(sn *subnetRecord) ShipView {
	v := ShipView{ID: sh.id, Address: sh.address, CardStyleID: sh.cardStyleID, CreatedOn: Ms(sh.created),
		Delivery: sh.delivery, DeliveryCarrier: shipCarrier, Name: sh.name,
		NodeID: sn.nodeID, SecondaryLabel: false, Status: sh.status, SubnetID: sn.id}
	if sh.secondaryLabel != nil {
		v.SecondaryLabel = *sh.secondaryLabel
	}
	return v
}

// ShipsList is the wrapper of GET .../subnets/{subnet_id}/ship.
type ShipsList struct {
	ListMeta
	ShipCount int        `json:"ship_count"`
	Ships     []ShipView `json:"ships"`
}

// ship records a shipment of a card. Callers hold mu.
func (st *Store) ship(sn *subnetRecord, now time.Time, req ShipRequest) error {
	fee, err := st.userNode(sn.userID, *req.FeeNodeID)
	switch {
	case err != nil:
		return err
	case !fee.isActive:
		return apierr.NotAllowed("node_inactive", "Node %s is deleted.", fee.id)
	case sn.class != ClassCard:
		return apierr.NotAllowed("not_a_card", "Only cards can be shipped.")
	case sn.status == SubnetTerminated:
		return apierr.NotAllowed("subnet_terminated", "Subnet %s is TERMINATED; it cannot be shipped.", sn.id)
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
		if Deref(d.AddressStreet) == "" {
			continue
		}
		if Deref(d.Name) != "" {
			name = *d.Name
		}
		up := strings.ToUpper
		return name, shipAddress{CareOf: name, City: up(Deref(d.AddressCity)), CountryCode: up(Deref(d.AddressCountryCode)),
			PostalCode: Deref(d.AddressPostalCode), Street: up(*d.AddressStreet), Subdivision: up(Deref(d.AddressSubdivision))}
	}
	return name, shipAddress{CareOf: name}
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
