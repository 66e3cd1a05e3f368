// Users, the console's side: the control routes that make, read and change a user, its documents'
// reviews and its keys.

package console

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// controlUserView is a user as the control API shows it.
type controlUserView struct {
	ID           string          `json:"_id"`
	Emails       []string        `json:"emails"`
	PhoneNumbers []string        `json:"phone_numbers"`
	LegalNames   []string        `json:"legal_names"`
	Permission   bank.Permission `json:"permission"`
	RefreshToken string          `json:"refresh_token"`
	Fingerprints []string        `json:"fingerprints"`
	NodeIDs      []string        `json:"node_ids"`
	// Documents are its base documents with each sub-document's status,
	// and PermissionHistory every permission it held.
	Documents         []controlDocView        `json:"documents"`
	PermissionHistory []controlPermissionView `json:"permission_history"`
}

// controlDocView is a base document as the control API shows it.
type controlDocView struct {
	ID              string           `json:"id"`
	Name            string           `json:"name"`
	PermissionScope string           `json:"permission_scope"`
	SubDocuments    []controlSubView `json:"sub_documents"`
}

// controlSubView is a sub-document as the control API shows it; review_at
// is when its review completes (ms), null when none is scheduled.
type controlSubView struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Type     string `json:"document_type"`
	Status   string `json:"status"`
	ReviewAt *int64 `json:"review_at"`
}

// controlPermissionView is a step of a user's permission history.
type controlPermissionView struct {
	At         int64           `json:"at"`
	Permission bank.Permission `json:"permission"`
	By         string          `json:"by"`
}

func controlUser(u bank.User) controlUserView {
	docs := make([]controlDocView, len(u.Documents))
	for i, d := range u.Documents {
		subs := make([]controlSubView, len(d.SubDocuments))
		for j, sd := range d.SubDocuments {
			subs[j] = controlSubView{ID: sd.ID, Kind: sd.Kind, Type: sd.Type, Status: sd.Status}
			if !sd.ReviewAt.IsZero() {
				ms := bank.Ms(sd.ReviewAt)
				subs[j].ReviewAt = &ms
			}
		}
		docs[i] = controlDocView{ID: d.ID, Name: d.Name, PermissionScope: d.PermissionScope, SubDocuments: subs}
	}
	history := make([]controlPermissionView, len(u.PermissionHistory))
	for i, c := range u.PermissionHistory {
		history[i] = controlPermissionView{At: bank.Ms(c.At), Permission: c.Permission, By: c.By}
	}
	return controlUserView{ID: u.ID, Emails: bank.CloneList(u.Emails), PhoneNumbers: bank.CloneList(u.PhoneNumbers),
		LegalNames: bank.CloneList(u.LegalNames), Permission: u.Permission, RefreshToken: u.RefreshToken,
		Fingerprints: bank.CloneList(u.Fingerprints), NodeIDs: bank.CloneList(u.NodeIDs),
		Documents: docs, PermissionHistory: history}
}

// controlReviewRequest is the body of the review routes.
type controlReviewRequest struct {
	Status *string `json:"status"`
}

// status is the review's status, or the refusal of a body without one.
func (req controlReviewRequest) status() (string, error) {
	if req.Status == nil {
		return "", apierr.Payload("missing_status", "status is required: VALID, INVALID, or another sub-document status.")
	}
	return *req.Status, nil
}

// controlReviewDocument serves POST
// /_fake/users/{user_id}/documents/{document_id}/review {"status":
// "VALID"} (ReviewDocument). The answer is the user.
func (s *Console) controlReviewDocument(w http.ResponseWriter, r *http.Request) {
	s.controlReview(w, r, func(userID, status string) error {
		return s.ReviewDocument(userID, r.PathValue("document_id"), status)
	})
}

// controlReviewDocuments serves POST /_fake/users/{user_id}/documents/review
// {"status": "VALID"} (ReviewDocuments): every sub-document in review.
func (s *Console) controlReviewDocuments(w http.ResponseWriter, r *http.Request) {
	s.controlReview(w, r, s.ReviewDocuments)
}

// controlReview decodes a review's body, makes it, and answers the user.
func (s *Console) controlReview(w http.ResponseWriter, r *http.Request, review func(userID, status string) error) {
	req, err := ControlBody[controlReviewRequest](r)
	var status string
	if err == nil {
		status, err = req.status()
	}
	if err == nil {
		err = review(r.PathValue("user_id"), status)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	u, _ := s.User(r.PathValue("user_id"))
	s.ControlOK(w, map[string]any{"user": controlUser(u)})
}

// controlUserRequest is the body of POST /_fake/users: a UserSeed.
type controlUserRequest struct {
	Email        string          `json:"email"`
	PhoneNumbers []string        `json:"phone_numbers"`
	LegalNames   []string        `json:"legal_names"`
	Fingerprint  string          `json:"fingerprint"`
	SuppID       string          `json:"supp_id"`
	IsBusiness   bool            `json:"is_business"`
	Permission   bank.Permission `json:"permission"`
	// Documents are filed under one base document (UserSeed.Documents).
	Documents []controlDocSeed `json:"documents"`
}

// controlDocSeed is a sub-document of POST /_fake/users: a
// SubDocumentSeed.
type controlDocSeed struct {
	Kind   string `json:"kind"`
	Type   string `json:"type"`
	Value  string `json:"value"`
	Status string `json:"status"`
}

// seed is req as AddUser takes it.
func (req controlUserRequest) seed() bank.UserSeed {
	docs := make([]bank.SubDocumentSeed, len(req.Documents))
	for i, d := range req.Documents {
		docs[i] = bank.SubDocumentSeed(d)
	}
	return bank.UserSeed{Email: req.Email, PhoneNumbers: req.PhoneNumbers, LegalNames: req.LegalNames,
		Fingerprint: req.Fingerprint, SuppID: req.SuppID, IsBusiness: req.IsBusiness, Permission: req.Permission,
		Documents: docs}
}

// controlCreateUser serves POST /_fake/users.
func (s *Console) controlCreateUser(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlUserRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	u, err := s.AddUser(req.seed())
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"user": controlUser(u)})
}

// controlOAuthRequest is the body of POST /_fake/users/{user_id}/oauth.
type controlOAuthRequest struct {
	Fingerprint string   `json:"fingerprint"`
	Scopes      []string `json:"scopes"`
}

func (req controlOAuthRequest) Validate() error {
	if req.Fingerprint == "" {
		return apierr.Payload("missing_fingerprint", "fingerprint is required.")
	}
	if !bank.ValidFingerprint(req.Fingerprint) {
		return bank.ErrSeedFingerprint(req.Fingerprint)
	}
	for _, sc := range req.Scopes {
		if !reference.IsScope(sc) {
			return apierr.Payload("invalid_scope", "Unknown scope %q.", sc)
		}
	}
	return nil
}

// controlOAuthKey serves POST /_fake/users/{user_id}/oauth.
func (s *Console) controlOAuthKey(w http.ResponseWriter, r *http.Request) {
	req, err := controlBodyValid[controlOAuthRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	key := s.OAuthKey(r.PathValue("user_id"), req.Fingerprint, req.Scopes...)
	if key == "" {
		s.Fail(w, apierr.NotFound("user"))
		return
	}
	s.ControlOK(w, map[string]any{"oauth_key": key, "fingerprint": req.Fingerprint})
}

// controlForceMFA serves POST /_fake/users/{user_id}/force-mfa.
func (s *Console) controlForceMFA(w http.ResponseWriter, r *http.Request) {
	if _, err := ControlBody[struct{}](r); err != nil {
		s.Fail(w, err)
		return
	}
	if !s.ForceMFA(r.PathValue("user_id")) {
		s.Fail(w, apierr.NotFound("user"))
		return
	}
	s.ControlOK(w, nil)
}

// controlSetPermission serves POST /_fake/users/{user_id}/permission:
// {"permission": "SEND-AND-RECEIVE"} (SetPermission), the platform's way
// to lock or unlock a user. The answer is the user.
func (s *Console) controlSetPermission(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[struct {
		Permission *string `json:"permission"`
	}](r)
	if err == nil && req.Permission == nil {
		err = apierr.Payload("missing_permission", "permission is required.")
	}
	if err == nil {
		err = s.SetPermission(r.PathValue("user_id"), *req.Permission)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	u, _ := s.User(r.PathValue("user_id"))
	s.ControlOK(w, map[string]any{"user": controlUser(u)})
}

// controlMFAPin serves GET /_fake/users/{user_id}/mfa-pin.
func (s *Console) controlMFAPin(w http.ResponseWriter, r *http.Request) {
	pin := s.MFAPin(r.PathValue("user_id"))
	if pin == "" {
		s.Fail(w, apierr.NotFound("user"))
		return
	}
	s.ControlOK(w, map[string]any{"pin": pin})
}

// controlListUsers serves GET /_fake/users?limit=: the newest users, newest
// first, and how many there are.
func (s *Console) controlListUsers(w http.ResponseWriter, r *http.Request) {
	limit, err := controlLimit(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	users, total := s.NewestUsers(limit)
	views := make([]controlUserView, len(users))
	for i, u := range users {
		views[i] = controlUser(u)
	}
	s.ControlOK(w, map[string]any{"users": views, "users_count": total})
}

// controlGetUser serves GET /_fake/users/{user_id}.
func (s *Console) controlGetUser(w http.ResponseWriter, r *http.Request) {
	u, ok := s.User(r.PathValue("user_id"))
	if !ok {
		s.Fail(w, apierr.NotFound("user"))
		return
	}
	s.ControlOK(w, map[string]any{"user": controlUser(u)})
}
