package bank

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/jsonx"
)

type loginRequest struct {
	Email    *string `json:"email"`
	Password string  `json:"password"`
	Scope    string  `json:"scope"`
	// ReadOnly is the older name of scope READ, as the Ruby gem's
	// add_login and the SDKs' samples send it.
	ReadOnly *bool `json:"read_only"`
}

// scope is the login's scope: scope when given, else READ for read_only
// true, else READ_AND_WRITE.
func (l loginRequest) scope() string {
	if l.Scope == "" && l.ReadOnly != nil && *l.ReadOnly {
		return "READ"
	}
	return loginScope(l.Scope)
}

// CreateUserRequest is the body of POST /users.
type CreateUserRequest struct {
	Logins       []loginRequest    `json:"logins"`
	PhoneNumbers []string          `json:"phone_numbers"`
	LegalNames   []string          `json:"legal_names"`
	Documents    []json.RawMessage `json:"documents" strict:"document"`
	Extra        struct {
		SuppID     string  `json:"supp_id"`
		CipTag     *int    `json:"cip_tag"`
		IsBusiness bool    `json:"is_business"`
		Note       *string `json:"note"`
		// PublicNote is the user's public note, as PATCH's update.public_note
		// sets it; it wins over the older note.
		PublicNote *string `json:"public_note"`
	} `json:"extra"`

	docs []BaseDocRequest // Documents, parsed by validate
}

// Validate checks the body's payload rules (logins with an email,
// phone_numbers, legal_names) and parses documents into r.docs.
func (r *CreateUserRequest) Validate() error {
	if len(r.Logins) == 0 {
		return apierr.Payload("missing_logins", "logins is required.")
	}
	for _, l := range r.Logins {
		if l.Email == nil || *l.Email == "" {
			return apierr.Payload("invalid_email", "logins[].email is required.")
		}
	}
	if len(r.PhoneNumbers) == 0 || slices.Contains(r.PhoneNumbers, "") {
		return apierr.Payload("missing_phone_numbers", "phone_numbers is required.")
	}
	if len(r.LegalNames) == 0 || slices.Contains(r.LegalNames, "") {
		return apierr.Payload("missing_legal_names", "legal_names is required.")
	}
	var err error
	if r.docs, err = parseDocuments(r.Documents); err != nil {
		return err
	}
	return nil
}

// Broken lists the contract's rules r breaks that the sandbox took.
func (r *CreateUserRequest) Broken() []BrokenRule {
	var out []BrokenRule
	for _, l := range r.Logins {
		out = append(out, emailRule("logins[].email", *l.Email)...)
	}
	return append(out, cipTagRule("extra.cip_tag", r.Extra.CipTag)...)
}

// cipTagRule is the rule of a user's CIP tag, a positive integer (1 by
// default), which no source says the sandbox checked.
func cipTagRule(field string, tag *int) []BrokenRule {
	if tag == nil || *tag >= 1 {
		return nil
	}
	return []BrokenRule{{field + " is a positive integer", apierr.Payload("invalid_cip_tag", "%s must be a positive integer.", field)}}
}

// emailRule is the contract's rule for a login's email, an email address,
// which the sandbox did not check: it took any non-empty string.
func emailRule(field, email string) []BrokenRule {
	if strings.Contains(email, "@") {
		return nil
	}
	return []BrokenRule{{field + " is an email address", apierr.Payload("invalid_email", "%s must be an email address.", field)}}
}

// subDocRequest is a physical, social or virtual document of a base
// document: a new one (document_type and document_value), or a change to
// the one of its id.
type subDocRequest struct {
	ID            *string `json:"id"`
	DocumentType  *string `json:"document_type"`
	DocumentValue *string `json:"document_value"`
}

// deletes reports whether s asks to remove its sub-document, as
// synapsenode's deleteExistingDocument sends it (the js wrapper's
// PATCH_DELETE_SUB_DOCS too, with a dummy document_value).
func (s subDocRequest) deletes() bool {
	return s.DocumentType != nil && *s.DocumentType == deleteDocument
}

// BaseDocRequest is one element of documents[]: a new base document, or,
// with an id, fields and sub-documents merged into that base document.
type BaseDocRequest struct {
	ID *string `json:"id"`
	// PermissionScope "DELETE_DOCUMENT" with an id removes that base
	// document, as synapsenode's deleteExistingDocument sends it.
	PermissionScope *string `json:"permission_scope"`
	baseDocFields
	PhysicalDocs []subDocRequest `json:"physical_docs"`
	SocialDocs   []subDocRequest `json:"social_docs"`
	VirtualDocs  []subDocRequest `json:"virtual_docs"`
}

// deletes reports whether r asks to remove its base document.
func (r BaseDocRequest) deletes() bool {
	return r.PermissionScope != nil && *r.PermissionScope == deleteDocument
}

// changesContact reports whether r gives the base document of fields a
// new email or phone number: the sandbox then answered it under a new id
// (synapse_pay_rest's BaseDocument#submit: "id will be different if email
// or phone changed").
func (r BaseDocRequest) changesContact(fields baseDocFields) bool {
	return r.Email != nil && Deref(r.Email) != Deref(fields.Email) ||
		r.PhoneNumber != nil && Deref(r.PhoneNumber) != Deref(fields.PhoneNumber)
}

func (r BaseDocRequest) subDocs() map[string][]subDocRequest {
	return map[string][]subDocRequest{physicalDocs: r.PhysicalDocs, socialDocs: r.SocialDocs, virtualDocs: r.VirtualDocs}
}

// Validate checks the payload rules of one documents[] element and of its
// sub-documents.
func (r BaseDocRequest) Validate() error {
	if r.ID != nil && *r.ID == "" {
		return apierr.Payload("invalid_document_id", "documents[].id must not be empty.")
	}
	if r.deletes() && r.ID == nil {
		return apierr.Payload("missing_document_id", "documents[].id is required with permission_scope DELETE_DOCUMENT.")
	}
	for kind, subs := range r.subDocs() {
		for _, s := range subs {
			switch {
			case s.ID != nil && *s.ID == "":
				return apierr.Payload("invalid_document_id", "documents[].%s[].id must not be empty.", kind)
			case s.ID != nil:
			case s.deletes():
				return apierr.Payload("missing_document_id", "documents[].%s[].id is required with document_type %s.", kind, deleteDocument)
			case s.DocumentType == nil || *s.DocumentType == "":
				return apierr.Payload("missing_document_type", "documents[].%s[].document_type is required.", kind)
			case s.DocumentValue == nil || *s.DocumentValue == "":
				return apierr.Payload("missing_document_value", "documents[].%s[].document_value is required.", kind)
			}
		}
	}
	return nil
}

// parseDocuments reads and validates documents[]: each must be an object
// whose known fields have their types.
func parseDocuments(docs []json.RawMessage) ([]BaseDocRequest, error) {
	out := make([]BaseDocRequest, 0, len(docs))
	for _, d := range docs {
		if len(d) == 0 || d[0] != '{' {
			return nil, apierr.Payload("invalid_documents", "documents[] must be objects.")
		}
		var r BaseDocRequest
		if err := jsonx.UnmarshalObject(d, &r, false); err != nil {
			if e, ok := err.(*apierr.Error); ok {
				e.Message = "documents[]: " + e.Message
			}
			return nil, err
		}
		if err := r.Validate(); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func loginScope(s string) string {
	if s == "READ" {
		return s
	}
	return "READ_AND_WRITE"
}

// PatchUserRequest is the body of PATCH /users/{user_id}.
type PatchUserRequest struct {
	RefreshToken *string `json:"refresh_token"`
	Update       *struct {
		Login             *loginRequest `json:"login"`
		RemoveLogin       *loginRequest `json:"remove_login"`
		LegalName         *string       `json:"legal_name"`
		RemoveLegalName   *string       `json:"remove_legal_name"`
		PhoneNumber       *string       `json:"phone_number"`
		RemovePhoneNumber *string       `json:"remove_phone_number"`
		CipTag            *int          `json:"cip_tag"`
		PublicNote        *string       `json:"public_note"`
	} `json:"update"`
	Documents  []json.RawMessage `json:"documents" strict:"document"`
	Permission *string           `json:"permission"`
	// Doc is the older KYC form (add_doc), one document on the user.
	Doc *legacyDocRequest `json:"doc"`

	docs []BaseDocRequest // Documents, parsed by validate
}

// legacyDocRequest is the body's doc in the older KYC form, as the Ruby
// gem's samples send it with add_doc (a name, a birth date, an address and
// one virtual document such as an SSN) and its attach_file sends it (an
// attachment alone).
type legacyDocRequest struct {
	BirthDay           *int    `json:"birth_day"`
	BirthMonth         *int    `json:"birth_month"`
	BirthYear          *int    `json:"birth_year"`
	NameFirst          *string `json:"name_first"`
	NameLast           *string `json:"name_last"`
	AddressStreet1     *string `json:"address_street1"`
	AddressStreet2     *string `json:"address_street2"`
	AddressCity        *string `json:"address_city"`
	AddressSubdivision *string `json:"address_subdivision"`
	AddressPostalCode  *string `json:"address_postal_code"`
	AddressCountryCode *string `json:"address_country_code"`
	DocumentValue      *string `json:"document_value"`
	DocumentType       *string `json:"document_type"`
	Attachment         *string `json:"attachment"`
}

func (d legacyDocRequest) Validate() error {
	hasValue := d.DocumentValue != nil && *d.DocumentValue != ""
	hasType := d.DocumentType != nil && *d.DocumentType != ""
	switch {
	case hasValue && !hasType:
		return apierr.Payload("missing_document_type", "doc.document_type is required with doc.document_value.")
	case hasType && !hasValue:
		return apierr.Payload("missing_document_value", "doc.document_value is required with doc.document_type.")
	case !hasValue && (d.Attachment == nil || *d.Attachment == ""):
		return apierr.Payload("missing_document_value", "doc needs document_value and document_type, or attachment.")
	}
	return nil
}

// baseDoc is d as today's documents form: its fields on a base document,
// its document_value a virtual document of its type, its attachment a
// GOVT_ID physical document.
func (d legacyDocRequest) baseDoc() BaseDocRequest {
	var r BaseDocRequest
	if name := strings.TrimSpace(Deref(d.NameFirst) + " " + Deref(d.NameLast)); name != "" {
		r.Name = &name
	}
	if street := strings.TrimSpace(Deref(d.AddressStreet1) + " " + Deref(d.AddressStreet2)); street != "" {
		r.AddressStreet = &street
	}
	r.Day, r.Month, r.Year = d.BirthDay, d.BirthMonth, d.BirthYear
	r.AddressCity, r.AddressSubdivision = d.AddressCity, d.AddressSubdivision
	r.AddressPostalCode, r.AddressCountryCode = d.AddressPostalCode, d.AddressCountryCode
	if d.DocumentValue != nil && *d.DocumentValue != "" {
		r.VirtualDocs = []subDocRequest{{DocumentType: d.DocumentType, DocumentValue: d.DocumentValue}}
	}
	if d.Attachment != nil && *d.Attachment != "" {
		typ := legacyAttachmentType
		r.PhysicalDocs = []subDocRequest{{DocumentType: &typ, DocumentValue: d.Attachment}}
	}
	return r
}

// Validate checks the body's payload rules and parses documents into
// r.docs.
func (r *PatchUserRequest) Validate() error {
	var err error
	if r.docs, err = parseDocuments(r.Documents); err != nil {
		return err
	}
	if r.Doc != nil {
		if err := r.Doc.Validate(); err != nil {
			return err
		}
	}
	if r.Permission != nil && !slices.Contains(userPermissions, *r.Permission) {
		return apierr.Payload("invalid_permission", "Unknown permission %q.", *r.Permission)
	}
	if u := r.Update; u != nil {
		if u.Login != nil && (u.Login.Email == nil || *u.Login.Email == "") {
			return apierr.Payload("invalid_email", "update.login.email is required.")
		}
		if u.RemoveLogin != nil && u.RemoveLogin.Email == nil {
			return apierr.Payload("invalid_email", "update.remove_login.email is required.")
		}
		if u.LegalName != nil && *u.LegalName == "" {
			return apierr.Payload("invalid_legal_name", "update.legal_name must not be empty.")
		}
		if u.PhoneNumber != nil && *u.PhoneNumber == "" {
			return apierr.Payload("invalid_phone_number", "update.phone_number must not be empty.")
		}
	}
	return nil
}

// changesNothing reports whether r names nothing to change: no update
// field, document, doc or permission (a body of refresh_token alone, as
// the older SDKs send it, or of fields the fake does not know).
func (r *PatchUserRequest) changesNothing() bool {
	u := r.Update
	return len(r.Documents) == 0 && r.Permission == nil && r.Doc == nil &&
		(u == nil || u.Login == nil && u.RemoveLogin == nil && u.LegalName == nil && u.RemoveLegalName == nil &&
			u.PhoneNumber == nil && u.RemovePhoneNumber == nil && u.CipTag == nil && u.PublicNote == nil)
}

// Broken lists the contract's rules r breaks that the sandbox took.
func (r *PatchUserRequest) Broken() []BrokenRule {
	if r.changesNothing() {
		return []BrokenRule{{"a PATCH names something to change", apierr.Payload("nothing_to_update", "Supply update, documents or permission.")}}
	}
	var out []BrokenRule
	if u := r.Update; u != nil {
		if u.Login != nil {
			out = append(out, emailRule("update.login.email", *u.Login.Email)...)
		}
		out = append(out, cipTagRule("update.cip_tag", u.CipTag)...)
	}
	return out
}

// usersList is the wrapper of GET /users.
type usersList struct {
	ListMeta
	Users      []UserView `json:"users"`
	UsersCount int        `json:"users_count"`
}

// deleteDocument is the document_type of a sub-document, and the
// permission_scope of a base document, that removes the one of its id.
const deleteDocument = "DELETE_DOCUMENT"

// legacyAttachmentType is the physical document type the older form's
// attachment is filed as: the identity document it was.
const legacyAttachmentType = "GOVT_ID"

// userPermissions are the values PATCH may set.
var userPermissions = []string{PermissionUnverified, PermissionSendAndReceive, PermissionLocked, PermissionClosed, "RECEIVE", "SEND", "MAKE-IT-GO-AWAY"}
