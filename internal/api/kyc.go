// KYC, the wire's side: the UBO and duplicates routes.

package api

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// handleUBO serves PATCH /v3.1/users/{user_id}/ubo: the UBO / REG GG form
// is filed as a REG_GG physical document of the user's first base document
// (replacing an earlier one), and the user is answered.
func (s *Wire) handleUBO(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeUserPatch}); err != nil {
		s.Fail(w, err)
		return
	}
	if _, err := decodeChecked[bank.UboRequest](s, r); err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (bank.UserView, error) { return s.FileUBO(now, r.PathValue("user_id")) })
}

// handleGetDuplicates serves GET /v3.1/users/{user_id}/get-duplicates. The
// fake's duplicates of a user are the other users sharing a virtual
// document's value or a verified phone number with it (identityMarks),
// grouped by their permission; reason is why the first one is a duplicate.
func (s *Wire) handleGetDuplicates(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeUserGet}); err != nil {
		s.Fail(w, err)
		return
	}
	answerValue(s, w, func() (bank.DuplicatesView, error) { return s.DuplicatesOf(r.PathValue("user_id")) })
}

// handleSwapDuplicates serves PATCH /v3.1/users/{user_id}/swap-duplicate-users:
// a closed or locked user takes the permission of an open duplicate, which
// takes the closed one's in exchange (and loses its keys). Both must be
// duplicates by get-duplicates' rule. The path's user is answered.
func (s *Wire) handleSwapDuplicates(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeUserPatch}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decode[bank.SwapRequest](r)
	if err == nil && (req.SwapToUserID == nil || *req.SwapToUserID == "") {
		err = apierr.Payload("missing_swap_to_user_id", "swap_to_user_id is required.")
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (bank.UserView, error) { return s.SwapDuplicates(now, r.PathValue("user_id"), *req.SwapToUserID) })
}
