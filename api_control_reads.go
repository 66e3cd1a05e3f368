package synapsefake

import (
	"fmt"
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// serveControl is serve for a control route: a wrong method is answered
// 405 with Allow, as HTTP says, in the error envelope.
func (rt route) serveControl() http.HandlerFunc {
	allow := allowHeader(rt)
	return func(w http.ResponseWriter, r *http.Request) {
		s := serverOf(w, r)
		h, ok := rt[r.Method]
		if !ok {
			w.Header().Set("Allow", allow)
			s.fail(w, &apierr.Error{Status: http.StatusMethodNotAllowed, ErrorCode: reference.ErrNotAllowed,
				Code: "method_not_allowed", Message: fmt.Sprintf("Method %s is not allowed on this route; it takes %s.", r.Method, allow)})
			return
		}
		h(s, w, r)
	}
}
