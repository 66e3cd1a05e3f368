package console

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/jsonx"
	"github.com/synapsefake/synapsefake/reference"
)

// ControlPrefix is the root of the control API; it never shares a path with
// the real API, which lives under /v3.1.
const ControlPrefix = "/_fake/"

// controlRoutes maps each control route, below ControlPrefix, to its
// methods; controlMux fills it.
var controlRoutes = map[string]controlRoute{}

// controlHandler is a method of the console that serves one control route
// and method; controlRoute is a control path's handler of each method.
type (
	controlHandler func(*Console, http.ResponseWriter, *http.Request)
	controlRoute   map[string]controlHandler
)

// controlMux routes the control API. Like APIMux it is built once per
// process and finds its Server in the request context; each path is
// registered without a method so that a wrong method gets the envelope.
var controlMux = sync.OnceValue(func() *http.ServeMux {
	mux := http.NewServeMux()
	handle := func(p string, rt controlRoute) {
		controlRoutes[p] = rt
		mux.HandleFunc(ControlPrefix+p, rt.serveControl())
	}
	type S = Console
	handle("users", controlRoute{"GET": (*S).controlListUsers, "POST": (*S).controlCreateUser})
	handle("users/{user_id}", controlRoute{"GET": (*S).controlGetUser})
	handle("users/{user_id}/nodes", controlRoute{"GET": (*S).controlUserNodes, "POST": (*S).controlCreateNode})
	handle("users/{user_id}/transactions", controlRoute{"GET": (*S).controlTransactions})
	handle("nodes/{node_id}", controlRoute{"GET": (*S).controlGetNode})
	handle("nodes/{node_id}/transactions", controlRoute{"GET": (*S).controlTransactions})
	handle("nodes/{node_id}/fund", controlRoute{"POST": (*S).controlFund})
	handle("webhooks/flush", controlRoute{"POST": (*S).controlFlush})
	handle("webhooks/wait", controlRoute{"POST": (*S).controlWait})
	handle("users/{user_id}/nodes/{node_id}/subnets", controlRoute{"POST": (*S).controlCreateSubnet})
	handle("users/{user_id}/oauth", controlRoute{"POST": (*S).controlOAuthKey})
	handle("users/{user_id}/force-mfa", controlRoute{"POST": (*S).controlForceMFA})
	handle("users/{user_id}/permission", controlRoute{"POST": (*S).controlSetPermission})
	handle("users/{user_id}/mfa-pin", controlRoute{"GET": (*S).controlMFAPin})
	// KYC reviews (issue 44): ReviewDocument and ReviewDocuments.
	handle("users/{user_id}/documents/review", controlRoute{"POST": (*S).controlReviewDocuments})
	handle("users/{user_id}/documents/{document_id}/review", controlRoute{"POST": (*S).controlReviewDocument})
	handle("subscriptions", controlRoute{"POST": (*S).controlCreateSubscription})
	handle("clock", controlRoute{"GET": (*S).controlClock})
	handle("clock/advance", controlRoute{"POST": (*S).controlAdvanceClock})
	handle("transactions/{trans_id}", controlRoute{"GET": (*S).controlGetTransaction})
	handle("transactions/{trans_id}/settle", controlRoute{"POST": (*S).controlSettle})
	handle("transactions/{trans_id}/return", controlRoute{"POST": (*S).controlReturn})
	handle("transactions/{trans_id}/queue", controlRoute{"POST": (*S).controlQueue})
	handle("transactions/{trans_id}/release", controlRoute{"POST": (*S).controlRelease})
	handle("transactions/{trans_id}/cancel", controlRoute{"POST": (*S).controlCancel})
	handle("transactions/{trans_id}/advance", controlRoute{"POST": (*S).controlAdvanceTransaction})
	handle("transactions/{trans_id}/dispute", controlRoute{"POST": (*S).controlDispute}) // disputes (issue 12)
	handle("subnets/{subnet_id}/authorize", controlRoute{"POST": (*S).controlAuthorizeCard})
	// The card lifecycle (issue 14, section 4): cardlife.go.
	handle("subnets/{subnet_id}/force-post", controlRoute{"POST": (*S).controlForcePost})
	handle("subnets/{subnet_id}/refund", controlRoute{"POST": (*S).controlRefundCard})
	handle("transactions/{trans_id}/increment", controlRoute{"POST": (*S).controlIncrementAuthorization})
	handle("transactions/{trans_id}/reverse", controlRoute{"POST": (*S).controlReverseAuthorization})
	handle("transactions/{trans_id}/clear", controlRoute{"POST": (*S).controlClearAuthorization})
	handle("faults", controlRoute{"POST": (*S).controlFailNext})
	handle("faults/slow", controlRoute{"POST": (*S).controlSlowNext})
	handle("webhooks", controlRoute{"GET": (*S).controlWebhooks, "DELETE": (*S).controlResetWebhooks})
	handle("requests", controlRoute{"GET": (*S).controlRequests, "DELETE": (*S).controlResetRequests})
	handle("reset", controlRoute{"POST": (*S).controlReset})
	// Worlds from a file (issue 13, world.go).
	handle("world", controlRoute{"POST": (*S).controlLoadWorld})
	// Saved state (issue 13): the whole state as one document.
	handle("state", controlRoute{"GET": (*S).controlSnapshot, "PUT": (*S).controlRestore})
	// The banking calendar and returns (issue 14, sections 1 and 2):
	// schedule.go and returns.go.
	handle("clock/next-business-day", controlRoute{"POST": (*S).controlNextBusinessDay})
	handle("clock/cutoff", controlRoute{"POST": (*S).controlAdvanceToCutoff})
	handle("transactions/{trans_id}/schedule-return", controlRoute{"POST": (*S).controlScheduleReturn})
	// Returns of returns (issue 22, point 3): dishonor.go.
	handle("transactions/{trans_id}/dishonor", controlRoute{"POST": (*S).controlDishonor})
	handle("transactions/{trans_id}/contest", controlRoute{"POST": (*S).controlContest})
	handle("return-rules", controlRoute{"GET": (*S).controlReturnRules, "POST": (*S).controlAddReturnRule, "DELETE": (*S).controlClearReturnRules})
	// The dashboard (issue 13, section 1): ui.go. Its buttons call the routes
	// above; these are its pages, its event stream and the moves only it makes.
	handle("ui/{$}", controlRoute{"GET": (*S).uiOverview})
	handle("ui/transactions", controlRoute{"GET": (*S).uiTransactions})
	handle("ui/webhooks", controlRoute{"GET": (*S).uiWebhooksPage})
	handle("ui/webhooks/{seq}/redeliver", controlRoute{"POST": (*S).uiRedeliver})
	handle("ui/requests", controlRoute{"GET": (*S).uiRequests})
	handle("ui/oauth", controlRoute{"GET": (*S).uiOAuth})
	handle("ui/subscriptions", controlRoute{"GET": (*S).uiSubscriptions})
	handle("ui/find", controlRoute{"GET": (*S).uiFind})
	handle("ui/events", controlRoute{"GET": (*S).uiEvents})
	handle("ui/clock", controlRoute{"POST": (*S).uiClock})
	handle("ui/subnets/{subnet_id}/check", controlRoute{"POST": (*S).uiCheckCard})
	handle("ui/static/{file}", controlRoute{"GET": (*S).uiStatic})
	// Webhook chaos (issue 14, section 3): chaos.go.
	handle("webhooks/chaos", controlRoute{"GET": (*S).controlGetChaos, "PUT": (*S).controlSetChaos, "DELETE": (*S).controlDeleteChaos})
	handle("openapi.json", controlRoute{"GET": (*S).controlOpenAPI}) // issue 48
	mux.HandleFunc("/", api.ServeNotFound)
	return mux
})

// ServeControl serves the /_fake/ control API.
func (s *Console) ServeControl(w http.ResponseWriter, r *http.Request) {
	if s.serveOpen(w, r) { // livez, readyz, metrics: for probes and scrapers (health.go)
		return
	}
	if !s.GuardControl(w, r) { // only its own origin (origin.go)
		return
	}
	// The mux would answer a path with dot segments or doubled slashes with
	// a plain-text redirect; such a path names no endpoint.
	if path.Clean(r.URL.Path) != strings.TrimSuffix(r.URL.Path, "/") {
		s.Fail(w, apierr.RouteNotFound)
		return
	}
	s.RunDueFast()
	// ServerKey for the wire's code the control API shares (ServeNotFound,
	// checkStrict), consoleKey for its own handlers.
	ctx := context.WithValue(r.Context(), api.ServerKey{}, &s.Wire)
	r = r.WithContext(context.WithValue(ctx, consoleKey{}, s))
	controlMux().ServeHTTP(w, r)
}

// consoleKey is the context key under which serveControl passes the console
// to the control mux's handlers.
type consoleKey struct{}

// consoleOf is the console serving the control request r.
func consoleOf(r *http.Request) *Console {
	return r.Context().Value(consoleKey{}).(*Console)
}

// ControlBody decodes a control request body strictly. An empty body is an
// empty object.
func ControlBody[T any](r *http.Request) (T, error) {
	var v T
	data, err := io.ReadAll(io.LimitReader(r.Body, api.MaxBody+1))
	if err != nil {
		return v, apierr.Payload("invalid_body", "Unable to read the request body.")
	}
	if len(data) > api.MaxBody {
		return v, apierr.Payload("body_too_large", "Request body is larger than %d bytes.", api.MaxBody)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return v, nil
	}
	return v, jsonx.UnmarshalObject(data, &v, true)
}

// controlBodyValid is ControlBody followed by the body's own Validate.
func controlBodyValid[T interface{ Validate() error }](r *http.Request) (T, error) {
	v, err := ControlBody[T](r)
	if err == nil {
		err = v.Validate()
	}
	return v, err
}

// ControlOK answers {"success": true} plus the given fields.
func (s *Console) ControlOK(w http.ResponseWriter, fields map[string]any) {
	out := map[string]any{"success": true}
	for k, v := range fields {
		out[k] = v
	}
	s.Ok(w, out)
}

// Bounds of the control API's lists and waits.
const (
	defaultControlList = 100    // objects a list answers without ?limit=
	maxControlList     = 1000   // the largest ?limit=
	maxControlWait     = 30_000 // ms: the longest ?timeout= of a wait
	defaultControlWait = 5_000  // ms: a wait's timeout without ?timeout=
)

// controlLimit reads ?limit=, from 1 to maxControlList.
func controlLimit(r *http.Request) (int, error) {
	return queryLimit(r, defaultControlList, maxControlList)
}

// queryLimit reads ?limit= of a control or dashboard list: def when absent,
// else an integer from 1 to max (400 / "200" invalid_limit).
func queryLimit(r *http.Request, def, max int) (int, error) {
	v := r.URL.Query().Get("limit")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > max {
		return 0, apierr.Payload("invalid_limit", "limit must be an integer from 1 to %d.", max)
	}
	return n, nil
}

// allowHeader is the Allow header of a route: its methods, sorted.
func allowHeader[H any](rt map[string]H) string {
	methods := make([]string, 0, len(rt))
	for m := range rt {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	return strings.Join(methods, ", ")
}

// serveControl is serve for a control route: a wrong method is answered
// 405 with Allow, as HTTP says, in the error envelope.
func (rt controlRoute) serveControl() http.HandlerFunc {
	allow := allowHeader(rt)
	return func(w http.ResponseWriter, r *http.Request) {
		s := consoleOf(r)
		h, ok := rt[r.Method]
		if !ok {
			w.Header().Set("Allow", allow)
			s.Fail(w, &apierr.Error{Status: http.StatusMethodNotAllowed, ErrorCode: reference.ErrNotAllowed,
				Code: "method_not_allowed", Message: fmt.Sprintf("Method %s is not allowed on this route; it takes %s.", r.Method, allow)})
			return
		}
		h(s, w, r)
	}
}
