package synapsefake

import (
	"slices"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// SetPermission sets a user's permission as the platform does, with a
// USER|PATCH event, as PATCH /users/{user_id} {"permission": ...} with the
// user's key does, without a request. It returns an error for an unknown
// user or permission.
func (s *Server) SetPermission(userID, permission string) error {
	if !slices.Contains(userPermissions, permission) {
		return apierr.Payload("invalid_permission", "Unknown permission %q.", permission)
	}
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return apierr.NotFound("user")
	}
	defer st.asBackend()()
	now := s.Now()
	st.setPermission(u, permission)
	u.updated = now
	st.emitUser(now, "USER|PATCH", u)
	return nil
}
