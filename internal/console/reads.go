package console

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// The control API's reads and the helpers that a test in another language
// needs besides the moves: users, nodes with their balances and
// transactions as the Go helpers give them (User, Node, Transaction), Fund,
// Flush and Wait.

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

// controlNodeRead is a node as the control API's reads show it: its
// current and available balances.
func controlNodeRead(n bank.Node) controlNodeView {
	return controlNodeView{ID: n.ID, UserID: n.UserID, Type: n.Type, Nickname: n.Nickname, Allowed: n.Allowed,
		BalanceCents: n.BalanceCents, AvailableCents: n.AvailableCents, IsActive: n.IsActive}
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

// controlUserNodes serves GET /_fake/users/{user_id}/nodes: the user's
// active nodes, oldest first, with their balances.
func (s *Console) controlUserNodes(w http.ResponseWriter, r *http.Request) {
	u, ok := s.User(r.PathValue("user_id"))
	if !ok {
		s.Fail(w, apierr.NotFound("user"))
		return
	}
	views := make([]controlNodeView, 0, len(u.NodeIDs))
	for _, id := range u.NodeIDs {
		if n, ok := s.Node(id); ok {
			views = append(views, controlNodeRead(n))
		}
	}
	s.ControlOK(w, map[string]any{"nodes": views, "nodes_count": len(views)})
}

// controlGetNode serves GET /_fake/nodes/{node_id}.
func (s *Console) controlGetNode(w http.ResponseWriter, r *http.Request) {
	n, ok := s.Node(r.PathValue("node_id"))
	if !ok || n.UserID == s.NetworkUserID() {
		s.Fail(w, apierr.NotFound("node"))
		return
	}
	s.ControlOK(w, map[string]any{"node": controlNodeRead(n)})
}

// controlTransactions serves GET /_fake/users/{user_id}/transactions and
// GET /_fake/nodes/{node_id}/transactions?limit=: the newest transactions
// of the user (sent or received) or of the node, newest first.
func (s *Console) controlTransactions(w http.ResponseWriter, r *http.Request) {
	limit, err := controlLimit(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	txs, total, err := s.NewestTxs(r.PathValue("user_id"), r.PathValue("node_id"), limit)
	if err != nil {
		s.Fail(w, err)
		return
	}
	views := make([]controlTxView, len(txs))
	for i, t := range txs {
		views[i] = s.controlTxOf(t)
	}
	s.ControlOK(w, map[string]any{"transactions": views, "trans_count": total})
}

// controlFundRequest is the body of POST /_fake/nodes/{node_id}/fund.
type controlFundRequest struct {
	AmountCents *int64 `json:"amount_cents"`
}

// controlFund serves POST /_fake/nodes/{node_id}/fund {"amount_cents": N}:
// Fund, and the node as it is after.
func (s *Console) controlFund(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlFundRequest](r)
	if err == nil && req.AmountCents == nil {
		err = apierr.Payload("missing_amount_cents", "amount_cents is required.")
	}
	if err == nil {
		err = s.Fund(r.PathValue("node_id"), *req.AmountCents)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	n, _ := s.Node(r.PathValue("node_id"))
	s.ControlOK(w, map[string]any{"node": controlNodeRead(n)})
}

// controlFlush serves POST /_fake/webhooks/flush: Flush, then how many
// webhooks the capture holds.
func (s *Console) controlFlush(w http.ResponseWriter, r *http.Request) {
	if _, err := ControlBody[struct{}](r); err != nil {
		s.Fail(w, err)
		return
	}
	s.Flush()
	s.ControlOK(w, map[string]any{"webhooks_count": s.Webhooks().Len()})
}

// controlWaitRequest is the body of POST /_fake/webhooks/wait: what the
// webhook must be (every field given must match) and how long to wait.
type controlWaitRequest struct {
	ObjectID string `json:"object_id"`
	Function string `json:"function"`
	Status   string `json:"status"`
	Timeout  string `json:"timeout"` // a Go duration, at most 30s; default 5s
}

// matcher is the request as a WebhookMatcher. It reads no Body.
func (req controlWaitRequest) matcher() api.WebhookMatcher {
	return func(h api.Webhook) bool {
		return (req.ObjectID == "" || h.ObjectID == req.ObjectID) && (req.Function == "" || h.Function == req.Function) &&
			(req.Status == "" || h.Status == req.Status)
	}
}

// controlWait serves POST /_fake/webhooks/wait: Wait over HTTP. It answers
// the first captured webhook that matches, waiting for deliveries in flight
// up to the timeout; when none comes, 404 / "404" no_matching_webhook with
// what Wait says (what was captured, and on a frozen clock what is pending
// and when it falls due), its calls the caller's.
func (s *Console) controlWait(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlWaitRequest](r)
	timeout := time.Duration(defaultControlWait) * time.Millisecond
	if err == nil && req.Timeout != "" {
		timeout, err = time.ParseDuration(req.Timeout)
		if err != nil || timeout < 0 || timeout > time.Duration(maxControlWait)*time.Millisecond {
			err = apierr.Payload("invalid_timeout", "timeout must be a duration from 0s to %ds, as \"5s\".", maxControlWait/1000)
		}
	}
	if err == nil && req.ObjectID == "" && req.Function == "" && req.Status == "" {
		err = apierr.Payload("missing_match", "Give at least one of object_id, function and status.")
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	h, failure := api.CaptureAwait(s.Webhooks(), timeout, false, true, req.matcher()) // Wait, with the request's bound
	if failure != "" {
		s.Fail(w, apierr.New(reference.ErrNotFound, "no_matching_webhook", "%s", callerOf(r).Phrase(strings.TrimPrefix(failure, "synapsefake: "))))
		return
	}
	s.ControlOK(w, map[string]any{"webhook": controlWebhook(h)})
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
