package synapsefake

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// handleUBO serves PATCH /v3.1/users/{user_id}/ubo: the UBO / REG GG form
// is filed as a REG_GG physical document of the user's first base document
// (replacing an earlier one), and the user is answered.
func (s *wireCore) handleUBO(w http.ResponseWriter, r *http.Request) {
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

// handleGetDuplicates serves GET /v3.1/users/{user_id}/get-duplicates. The
// fake's duplicates of a user are the other users sharing a virtual
// document's value or a verified phone number with it (identityMarks),
// grouped by their permission; reason is why the first one is a duplicate.
func (s *wireCore) handleGetDuplicates(w http.ResponseWriter, r *http.Request) {
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

// handleSwapDuplicates serves PATCH /v3.1/users/{user_id}/swap-duplicate-users:
// a closed or locked user takes the permission of an open duplicate, which
// takes the closed one's in exchange (and loses its keys). Both must be
// duplicates by get-duplicates' rule. The path's user is answered.
func (s *wireCore) handleSwapDuplicates(w http.ResponseWriter, r *http.Request) {
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
