package bank

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// ShipRequest is the body of PATCH (or POST) .../subnets/{subnet_id}/ship.
type ShipRequest struct {
	FeeNodeID      *string `json:"fee_node_id"`
	Delivery       *string `json:"delivery"`
	Expedite       *bool   `json:"expedite"` // deprecated: true asks for EXPEDITE
	CardStyleID    *string `json:"card_style_id"`
	SecondaryLabel *string `json:"secondary_label"`
}

// Validate checks the body's payload rules: a fee_node_id and a
// secondary_label of at most maxStoredLabel characters.
func (r ShipRequest) Validate() error {
	switch {
	case r.FeeNodeID == nil || *r.FeeNodeID == "":
		return apierr.Payload("missing_fee_node_id", "fee_node_id is required.")
	case r.SecondaryLabel != nil && utf8.RuneCountInString(*r.SecondaryLabel) > maxStoredLabel:
		return apierr.Payload("invalid_secondary_label", "secondary_label is at most %d characters.", maxStoredLabel)
	}
	return nil
}

// BrokenRule is the first rule of a shipment the request breaks that the
// sandbox took: the delivery, style and label are kept as sent.
func (r ShipRequest) BrokenRule() BrokenRule {
	switch {
	case r.Delivery != nil && !slices.Contains(shipDeliveries, *r.Delivery):
		return BrokenRule{"delivery is one of " + strings.Join(shipDeliveries, ", "),
			apierr.Payload("invalid_delivery", "delivery must be one of %s.", strings.Join(shipDeliveries, ", "))}
	case r.CardStyleID != nil && *r.CardStyleID == "":
		return BrokenRule{"card_style_id is not empty", apierr.Payload("invalid_card_style_id", "card_style_id must not be empty.")}
	case r.SecondaryLabel != nil && utf8.RuneCountInString(*r.SecondaryLabel) > maxSecondaryLabel:
		return BrokenRule{fmt.Sprintf("secondary_label is at most %d characters", maxSecondaryLabel),
			apierr.Payload("invalid_secondary_label", "secondary_label is at most %d characters.", maxSecondaryLabel)}
	}
	return BrokenRule{}
}

func (r ShipRequest) delivery() string {
	switch {
	case r.Delivery != nil:
		return *r.Delivery
	case r.Expedite != nil && *r.Expedite:
		return "EXPEDITE"
	}
	return "STANDARD"
}

// ApplePayRequest is the body of PATCH .../nodes/{node_id}/applepay.
type ApplePayRequest struct {
	Certificate    *string  `json:"certificate"`
	Certificates   []string `json:"certificates"`
	Nonce          *string  `json:"nonce"`
	NonceSignature *string  `json:"nonce_signature"`
}

// Validate checks the body's payload rules: a nonce, a nonce_signature and
// a certificate (or certificates).
func (r ApplePayRequest) Validate() error {
	switch {
	case r.Nonce == nil || *r.Nonce == "":
		return apierr.Payload("missing_nonce", "nonce is required.")
	case r.NonceSignature == nil || *r.NonceSignature == "":
		return apierr.Payload("missing_nonce_signature", "nonce_signature is required.")
	case (r.Certificate == nil || *r.Certificate == "") && (len(r.Certificates) == 0 || slices.Contains(r.Certificates, "")):
		return apierr.Payload("missing_certificate", "certificate (or certificates) is required.")
	}
	return nil
}

// maxStoredLabel bounds a secondary_label the fake keeps, in characters, as
// a note's (maxNoteLength): a bound of its memory, not a rule of the card.
const maxStoredLabel = maxNoteLength
