package synapsefake

import (
	"encoding/json"
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// uboPerson is a signer, contact or owner of a UBO form.
type uboPerson struct {
	DocumentID           *string `json:"document_id"`
	RelationshipToEntity *string `json:"relationship_to_entity"`
}

// uboRequest is the body of PATCH /users/{user_id}/ubo: the business's
// answers and the people the UBO / REG GG form names.
type uboRequest struct {
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

func (r uboRequest) validate() error {
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

// broken lists the contract's rules r breaks that the sandbox took.
func (r uboRequest) broken() []brokenRule {
	for _, o := range r.Owners {
		if f, _ := ownership(o.Ownership); f < 0 || f > 100 {
			return []brokenRule{{"owners[].ownership is a percentage from 0 to 100",
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

// regGGDocType is the physical document type the UBO form is filed as.
const regGGDocType = "REG_GG"

// handleUBO serves PATCH /v3.1/users/{user_id}/ubo: the UBO / REG GG form
// is filed as a REG_GG physical document of the user's first base document
// (replacing an earlier one), and the user is answered.
func (s *Server) handleUBO(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeUserPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[uboRequest](r)
	if err == nil {
		err = s.strictRules(r, req.broken())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	answerObject(s, w, func(st *store) (userView, error) { return st.fileUBO(now, r.PathValue("user_id")) })
}

// duplicatesView is the answer of GET /users/{user_id}/get-duplicates.
type duplicatesView struct {
	ClosedUsersID []string `json:"closed_users_id"`
	LockedUsersID []string `json:"locked_users_id"`
	OpenUsersID   []string `json:"open_users_id"`
	Reason        *string  `json:"reason"`
	Status        string   `json:"status"`
	UserID        string   `json:"user_id"`
}

// handleGetDuplicates serves GET /v3.1/users/{user_id}/get-duplicates. The
// fake's duplicates of a user are the other users sharing a virtual
// document's value or a verified phone number with it (identityMarks),
// grouped by their permission; reason is why the first one is a duplicate.
func (s *Server) handleGetDuplicates(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeUserGet}); err != nil {
		s.fail(w, err)
		return
	}
	answerObject(s, w, func(st *store) (duplicatesView, error) {
		u := st.users[r.PathValue("user_id")]
		if u == nil {
			return duplicatesView{}, apierr.NotFound("user")
		}
		v := duplicatesView{ClosedUsersID: []string{}, LockedUsersID: []string{}, OpenUsersID: []string{},
			Status: u.permission, UserID: u.id}
		for _, d := range st.duplicates(u) {
			switch d.user.permission {
			case PermissionClosed, PermissionMakeItGoAway:
				v.ClosedUsersID = append(v.ClosedUsersID, d.user.id)
			case PermissionLocked:
				v.LockedUsersID = append(v.LockedUsersID, d.user.id)
			default:
				v.OpenUsersID = append(v.OpenUsersID, d.user.id)
			}
			if v.Reason == nil {
				reason := d.reason
				v.Reason = &reason
			}
		}
		return v, nil
	})
}

// swapRequest is the body of PATCH /users/{user_id}/swap-duplicate-users.
type swapRequest struct {
	SwapToUserID *string `json:"swap_to_user_id"`
}

// handleSwapDuplicates serves PATCH /v3.1/users/{user_id}/swap-duplicate-users:
// a closed or locked user takes the permission of an open duplicate, which
// takes the closed one's in exchange (and loses its keys). Both must be
// duplicates by get-duplicates' rule. The path's user is answered.
func (s *Server) handleSwapDuplicates(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeUserPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decode[swapRequest](r)
	if err == nil && (req.SwapToUserID == nil || *req.SwapToUserID == "") {
		err = apierr.Payload("missing_swap_to_user_id", "swap_to_user_id is required.")
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	answerObject(s, w, func(st *store) (userView, error) {
		u := st.users[r.PathValue("user_id")]
		if u == nil {
			return userView{}, apierr.NotFound("user")
		}
		to := st.users[*req.SwapToUserID]
		switch {
		case !st.isDuplicate(u, to):
			return userView{}, apierr.Incorrect("not_a_duplicate", "User %s is not a duplicate of user %s.", *req.SwapToUserID, u.id)
		case !u.locked():
			return userView{}, apierr.NotAllowed("user_not_closed", "User %s is %s; only a closed or locked user can be swapped in.", u.id, u.permission)
		case to.locked():
			return userView{}, apierr.NotAllowed("duplicate_not_open", "User %s is %s; the swap needs an open duplicate.", to.id, to.permission)
		}
		up, toP := to.permission, u.permission
		st.setPermission(u, up)
		st.setPermission(to, toP)
		u.updated, to.updated = now, now
		st.emitUser(now, "USER|PATCH", to)
		v := st.userView(u)
		st.emit(now, "USER|PATCH", "USER", u.id, v)
		return v, nil
	})
}
