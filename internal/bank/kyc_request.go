package bank

import (
	"encoding/json"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// uboPerson is a signer, contact or owner of a UBO form.
type uboPerson struct {
	DocumentID           *string `json:"document_id"`
	RelationshipToEntity *string `json:"relationship_to_entity"`
}

// UboRequest is the body of PATCH /users/{user_id}/ubo: the business's
// answers and the people the UBO / REG GG form names.
type UboRequest struct {
	EntityInfo *struct {
		DocumentID     *string `json:"document_id"`
		Cryptocurrency *bool   `json:"cryptocurrency"`
		MSB            *struct {
			Federal *bool    `json:"federal"`
			States  []string `json:"states"`
		} `json:"msb"`
		PublicCompany         *bool `json:"public_company"`
		MajorityOwnedByListed *bool `json:"majority_owned_by_listed"`
		RegisteredSEC         *bool `json:"registered_SEC"`
		RegulatedFinancial    *bool `json:"regulated_financial"`
		Gambling              *bool `json:"gambling"`
	} `json:"entity_info"`
	Signer                    *uboPerson `json:"signer"`
	ComplianceContact         *uboPerson `json:"compliance_contact"`
	PrimaryControllingContact *uboPerson `json:"primary_controlling_contact"`
	Owners                    []struct {
		DocumentID *string `json:"document_id"`
		Title      *string `json:"title"`
		// Ownership is a percentage: a number in the newer docs, a string
		// in the older ones; both are accepted.
		Ownership json.RawMessage `json:"ownership"`
	} `json:"owners"`
	Attested *bool `json:"attested"`
}

// Validate checks the body's payload rules: entity_info.document_id, a
// signer, and a document_id for each person named.
func (r UboRequest) Validate() error {
	if r.EntityInfo == nil || r.EntityInfo.DocumentID == nil || *r.EntityInfo.DocumentID == "" {
		return apierr.Payload("missing_entity_info", "entity_info.document_id is required.")
	}
	if r.Signer == nil {
		return apierr.Payload("missing_signer", "signer is required.")
	}
	for _, p := range []struct {
		name string
		v    *uboPerson
	}{{"signer", r.Signer}, {"compliance_contact", r.ComplianceContact}, {"primary_controlling_contact", r.PrimaryControllingContact}} {
		if p.v == nil {
			continue
		}
		if p.v.DocumentID == nil || *p.v.DocumentID == "" {
			return apierr.Payload("missing_document_id", "%s.document_id is required.", p.name)
		}
		if p.v.RelationshipToEntity == nil || *p.v.RelationshipToEntity == "" {
			return apierr.Payload("missing_relationship_to_entity", "%s.relationship_to_entity is required.", p.name)
		}
	}
	for _, o := range r.Owners {
		if o.DocumentID == nil || *o.DocumentID == "" {
			return apierr.Payload("missing_document_id", "owners[].document_id is required.")
		}
		if o.Title == nil || *o.Title == "" {
			return apierr.Payload("missing_title", "owners[].title is required.")
		}
		if _, ok := ownership(o.Ownership); len(o.Ownership) > 0 && !ok {
			return apierr.Payload("invalid_field_type", "owners[].ownership must be a number.")
		}
	}
	return nil
}

// Broken lists the contract's rules r breaks that the sandbox took.
func (r UboRequest) Broken() []BrokenRule {
	for _, o := range r.Owners {
		if f, _ := ownership(o.Ownership); f < 0 || f > 100 {
			return []BrokenRule{{"owners[].ownership is a percentage from 0 to 100",
				apierr.Payload("invalid_ownership", "owners[].ownership must be a percentage from 0 to 100.")}}
		}
	}
	return nil
}

// ownership reads an owner's ownership, a number or a string (0 for a
// string or none), and reports whether it is either.
func ownership(raw json.RawMessage) (float64, bool) {
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return f, true
	}
	var s string
	return 0, json.Unmarshal(raw, &s) == nil
}

// DuplicatesView is the answer of GET /users/{user_id}/get-duplicates.
type DuplicatesView struct {
	ClosedUsersID []string `json:"closed_users_id"`
	LockedUsersID []string `json:"locked_users_id"`
	OpenUsersID   []string `json:"open_users_id"`
	Reason        *string  `json:"reason"`
	Status        string   `json:"status"`
	UserID        string   `json:"user_id"`
}

// SwapRequest is the body of PATCH /users/{user_id}/swap-duplicate-users.
type SwapRequest struct {
	SwapToUserID *string `json:"swap_to_user_id"`
}

// regGGDocType is the physical document type the UBO form is filed as.
const regGGDocType = "REG_GG"
