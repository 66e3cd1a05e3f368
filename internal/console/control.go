package console

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/jsonx"
	"github.com/synapsefake/synapsefake/reference"
)

// The control API is the fake's Go test helpers (seeding, the clock, the
// scenario helpers, fault injection, the webhook capture and the request
// journal) over HTTP, for tests written in other languages against the
// standalone server. It takes and answers JSON, refuses in the API's error
// envelope, needs no credentials and is not recorded in the journal.
// Request bodies are strict: an unknown field is refused (400 / "200"), so a
// misspelt option does not pass silently. A body with no required field may
// be left empty.

// ControlPrefix is the root of the control API; it never shares a path with
// the real API, which lives under /v3.1.
const ControlPrefix = "/_fake/"

// controlRoutes maps each control route, below controlPrefix, to its
// methods; controlMux fills it.
var controlRoutes = map[string]controlRoute{}

// controlHandler is a method of the console that serves one control route
// and method; controlRoute is a control path's handler of each method.
type (
	controlHandler func(*Console, http.ResponseWriter, *http.Request)
	controlRoute   map[string]controlHandler
)

// controlMux routes the control API. Like apiMux it is built once per
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
	// serverKey for the wire's code the control API shares (serveNotFound,
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
	return v, bank.UnmarshalObject(data, &v, true)
}

// ControlOK answers {"success": true} plus the given fields.
func (s *Console) ControlOK(w http.ResponseWriter, fields map[string]any) {
	out := map[string]any{"success": true}
	for k, v := range fields {
		out[k] = v
	}
	s.Ok(w, out)
}

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

// controlNodeView is a node as the control API shows it.
type controlNodeView struct {
	ID           string       `json:"_id"`
	UserID       string       `json:"user_id"`
	Type         string       `json:"type"`
	Nickname     string       `json:"nickname"`
	Allowed      bank.Allowed `json:"allowed"`
	BalanceCents int64        `json:"balance_cents"`
	// AvailableCents is the balance less the debits promised but not yet
	// made (Node.AvailableCents).
	AvailableCents int64 `json:"available_cents"`
	IsActive       bool  `json:"is_active"`
}

// controlNodeRequest is the body of POST /_fake/users/{user_id}/nodes: a NodeSeed.
type controlNodeRequest struct {
	Type         string `json:"type"`
	Nickname     string `json:"nickname"`
	BalanceCents int64  `json:"balance_cents"`
	AccountNum   string `json:"account_num"`
	RoutingNum   string `json:"routing_num"`
	SuppID       string `json:"supp_id"`
}

// Validate refuses a negative balance, which AddNode takes but the control
// API and worlds do not, then what AddNode refuses.
func (req controlNodeRequest) Validate() error {
	if req.BalanceCents < 0 {
		return apierr.Payload("invalid_balance", "balance_cents must be from 0 to %d.", int64(bank.MaxBalanceCents))
	}
	return bank.ValidateNodeSeed(bank.NodeSeed(req))
}

// controlCreateNode serves POST /_fake/users/{user_id}/nodes.
func (s *Console) controlCreateNode(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlNodeRequest](r)
	if err == nil {
		err = req.Validate()
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	n, err := s.AddNode(r.PathValue("user_id"), bank.NodeSeed(req))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"node": controlNodeRead(n)})
}

// controlSubnetView is a subnet as the control API shows it, with the full
// card or account number.
type controlSubnetView struct {
	ID           string            `json:"_id"`
	NodeID       string            `json:"node_id"`
	UserID       string            `json:"user_id"`
	AccountClass bank.AccountClass `json:"account_class"`
	Status       bank.SubnetStatus `json:"status"`
	StatusCode   string            `json:"status_code"`
	CardNumber   string            `json:"card_number"`
	AccountNum   string            `json:"account_num"`
}

// controlSubnetRequest is the body of POST .../subnets: a SubnetSeed.
type controlSubnetRequest struct {
	Nickname     string            `json:"nickname"`
	AccountClass bank.AccountClass `json:"account_class"`
	Status       bank.SubnetStatus `json:"status"`
}

// controlCreateSubnet serves POST /_fake/users/{user_id}/nodes/{node_id}/subnets.
func (s *Console) controlCreateSubnet(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlSubnetRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	sn, err := s.AddSubnet(r.PathValue("user_id"), r.PathValue("node_id"), bank.SubnetSeed(req))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"subnet": controlSubnetView{ID: sn.ID, NodeID: sn.NodeID, UserID: sn.UserID,
		AccountClass: sn.AccountClass, Status: sn.Status, StatusCode: sn.StatusCode, CardNumber: sn.CardNumber,
		AccountNum: sn.AccountNum}})
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
	req, err := ControlBody[controlOAuthRequest](r)
	if err == nil {
		err = req.Validate()
	}
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

// controlSubscriptionRequest is the body of POST /_fake/subscriptions.
type controlSubscriptionRequest struct {
	URL    string   `json:"url"`
	Scopes []string `json:"scopes"`
}

func (req controlSubscriptionRequest) Validate() error {
	if !bank.ValidWebhookURL(req.URL) {
		return apierr.Payload("invalid_url", "url must be an absolute http or https URL.")
	}
	if req.Scopes != nil && len(req.Scopes) == 0 {
		// Absent means all eight; an empty list is refused, as the API does.
		return apierr.Payload("missing_scope", "scopes, when given, must list at least one scope.")
	}
	for _, sc := range req.Scopes {
		if !reference.IsSubscriptionScope(sc) {
			return apierr.Payload("invalid_scope", "Unknown subscription scope %q.", sc)
		}
	}
	return nil
}

// controlCreateSubscription serves POST /_fake/subscriptions.
func (s *Console) controlCreateSubscription(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlSubscriptionRequest](r)
	if err == nil {
		err = req.Validate()
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	sub, err := s.AddSubscription(req.URL, req.Scopes...)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"subscription": map[string]any{"_id": sub.ID, "url": sub.URL,
		"scope": bank.CloneList(sub.Scopes), "is_active": sub.IsActive}})
}

// controlClock serves GET /_fake/clock.
func (s *Console) controlClock(w http.ResponseWriter, r *http.Request) {
	s.ControlOK(w, map[string]any{"now": bank.Ms(s.Now())})
}

// controlAdvanceRequest is the body of POST /_fake/clock/advance: a Go
// duration string or a number of milliseconds, not both.
type controlAdvanceRequest struct {
	Duration *string `json:"duration"`
	MS       *int64  `json:"ms"`
}

func (req controlAdvanceRequest) duration() (time.Duration, error) {
	switch {
	case (req.Duration == nil) == (req.MS == nil):
		return 0, apierr.Payload("invalid_duration", `Supply exactly one of duration (a Go duration such as "24h") and ms.`)
	case req.MS != nil:
		if *req.MS < 0 || *req.MS > math.MaxInt64/int64(time.Millisecond) {
			return 0, apierr.Payload("invalid_duration", "ms must be a non-negative number of milliseconds.")
		}
		return time.Duration(*req.MS) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(*req.Duration)
	if err != nil || d < 0 {
		return 0, apierr.Payload("invalid_duration", `duration must be a non-negative Go duration such as "90m" or "24h", got %q.`, *req.Duration)
	}
	return d, nil
}

// controlAdvanceClock serves POST /_fake/clock/advance.
func (s *Console) controlAdvanceClock(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlAdvanceRequest](r)
	var d time.Duration
	if err == nil {
		d, err = req.duration()
	}
	if err == nil && s.Now().After(bank.MaxStateTime.Add(-d)) {
		// A saved state holds times up to the end of 9999.
		err = apierr.Payload("invalid_duration", "Advancing by %s would take the clock past 9999-12-31.", d)
	}
	if err == nil && d > 0 && !s.ManualClock() {
		err = api.ErrClockNotManual("by " + d.String())
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Advance(d)
	s.ControlOK(w, map[string]any{"now": bank.Ms(s.Now())})
}

// controlTxView is a transaction as the control API shows it.
type controlTxView struct {
	ID          string              `json:"_id"`
	Status      bank.Status         `json:"status"`
	Code        string              `json:"code"`
	AmountCents int64               `json:"amount_cents"`
	FromNodeID  string              `json:"from_node_id"`
	ToNodeID    string              `json:"to_node_id"`
	Timeline    []controlStatusView `json:"timeline"`
	// RecentStatus is the wire's recent_status, as GET .../trans/{id}
	// shows it, beside status: a reader of both finds each field where
	// the other names it.
	RecentStatus bank.RecentStatus `json:"recent_status"`
}

type controlStatusView struct {
	Status bank.Status `json:"status"`
	Note   string      `json:"note"`
	Date   int64       `json:"date"`
}

// controlTx is t as the control API shows it, rs its recent_status.
func controlTx(t bank.Transaction, rs bank.RecentStatus) controlTxView {
	tl := make([]controlStatusView, len(t.Timeline))
	for i, e := range t.Timeline {
		tl[i] = controlStatusView{Status: e.Status, Note: e.Note, Date: bank.Ms(e.Date)}
	}
	return controlTxView{ID: t.ID, Status: t.Status, Code: t.Code, AmountCents: t.AmountCents,
		FromNodeID: t.FromNodeID, ToNodeID: t.ToNodeID, Timeline: tl, RecentStatus: rs}
}

// controlTxOf is t as the control API shows it, read again with its
// recent_status (both of one moment); t as it was, with an empty
// recent_status, when it is gone since (a reset).
func (s *Console) controlTxOf(t bank.Transaction) controlTxView {
	if v, ok := s.controlTxNow(t.ID); ok {
		return v
	}
	return controlTx(t, bank.RecentStatus{})
}

// controlTxNow is the transaction id as the control API shows it now, and
// whether it exists.
func (s *Console) controlTxNow(id string) (controlTxView, bool) {
	t, rs, ok := s.TransactionRecent(id)
	if !ok {
		return controlTxView{}, false
	}
	return controlTx(t, rs), true
}

// controlAnswerTx answers the transaction's state.
func (s *Console) controlAnswerTx(w http.ResponseWriter, id string) {
	v, ok := s.controlTxNow(id)
	if !ok {
		s.Fail(w, apierr.NotFound("transaction"))
		return
	}
	s.ControlOK(w, map[string]any{"transaction": v})
}

// controlGetTransaction serves GET /_fake/transactions/{trans_id}.
func (s *Console) controlGetTransaction(w http.ResponseWriter, r *http.Request) {
	s.controlAnswerTx(w, r.PathValue("trans_id"))
}

// controlTxRequest is the body of the transaction moves; each reads the
// fields it needs and refuses the others.
type controlTxRequest struct {
	Code   *string      `json:"code"`
	Status *bank.Status `json:"status"`
}

// controlMove serves one transaction move: it decodes the body, checks that
// it holds only the fields allowed, applies move and answers the result.
func (s *Console) controlMove(w http.ResponseWriter, r *http.Request, code, status bool, move func(id string, req controlTxRequest) error) {
	req, err := ControlBody[controlTxRequest](r)
	switch {
	case err != nil:
	case req.Code != nil && !code:
		err = apierr.Payload("unknown_field", `Unknown field "code".`)
	case req.Status != nil && !status:
		err = apierr.Payload("unknown_field", `Unknown field "status".`)
	}
	if err == nil {
		err = move(r.PathValue("trans_id"), req)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.controlAnswerTx(w, r.PathValue("trans_id"))
}

func (req controlTxRequest) code() string {
	if req.Code == nil {
		return ""
	}
	return *req.Code
}

// controlSettle serves POST /_fake/transactions/{trans_id}/settle.
func (s *Console) controlSettle(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, false, false, func(id string, _ controlTxRequest) error { return s.Settle(id) })
}

// controlQueue serves POST /_fake/transactions/{trans_id}/queue {code}.
func (s *Console) controlQueue(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, true, false, func(id string, req controlTxRequest) error { return s.Queue(id, req.code()) })
}

// controlRelease serves POST /_fake/transactions/{trans_id}/release.
func (s *Console) controlRelease(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, false, false, func(id string, _ controlTxRequest) error { return s.Release(id) })
}

// controlCancel serves POST /_fake/transactions/{trans_id}/cancel {code}.
func (s *Console) controlCancel(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, true, false, func(id string, req controlTxRequest) error { return s.Cancel(id, req.code()) })
}

// controlAdvanceTransaction serves POST /_fake/transactions/{trans_id}/advance {status}.
func (s *Console) controlAdvanceTransaction(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, false, true, func(id string, req controlTxRequest) error {
		if req.Status == nil || req.Status.ID() == "" {
			return apierr.Payload("invalid_status", "status must be a transaction status such as PROCESSING-DEBIT.")
		}
		return s.AdvanceTransaction(id, *req.Status)
	})
}

// controlCardRequest is the body of POST /_fake/subnets/{subnet_id}/authorize: a CardAuth.
type controlCardRequest struct {
	AmountCents int64  `json:"amount_cents"`
	Merchant    string `json:"merchant"`
	Foreign     bool   `json:"foreign"`
	Cash        bool   `json:"cash"`
	DeclineWith string `json:"decline_with"`
	Hold        bool   `json:"hold"`
	// PartialApprovalAllowed is CardAuth.PartialApprovalAllowed.
	PartialApprovalAllowed bool `json:"partial_approval_allowed"`
}

// controlAuthorizeCard serves POST /_fake/subnets/{subnet_id}/authorize.
func (s *Console) controlAuthorizeCard(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlCardRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	t, err := s.CardAuthorization(r.PathValue("subnet_id"), bank.CardAuth(req))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"transaction": s.controlTxOf(t)})
}

// controlFaultRequest is the body of POST /_fake/faults and /_fake/faults/slow.
type controlFaultRequest struct {
	Method    string  `json:"method"`
	Route     string  `json:"route"`
	ErrorCode *string `json:"error_code"`
	Delay     *string `json:"delay"`
	Times     int     `json:"times"`
}

// controlFault decodes a fault request, checks that it holds the one field
// of its kind, and runs add, turning its panic at a mistake into a 400.
func (s *Console) controlFault(w http.ResponseWriter, r *http.Request, slow bool, add func(req controlFaultRequest) error) {
	req, err := ControlBody[controlFaultRequest](r)
	switch {
	case err != nil:
	case slow && req.ErrorCode != nil:
		err = apierr.Payload("unknown_field", `Unknown field "error_code".`)
	case !slow && req.Delay != nil:
		err = apierr.Payload("unknown_field", `Unknown field "delay".`)
	case req.Times < 0:
		err = apierr.Payload("invalid_times", "times must not be negative (0 means 1).")
	}
	if err == nil {
		req.Method = strings.ToUpper(req.Method)
		err = recoverMistake(func() error { return add(req) })
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, nil)
}

// recoverMistake runs fn and turns a panic, the Go helpers' answer to a
// mistake in the test, into a 400.
func recoverMistake(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = apierr.Payload("invalid_fault", "%s", strings.TrimPrefix(fmt.Sprint(p), "synapsefake: "))
		}
	}()
	return fn()
}

// controlFailNext serves POST /_fake/faults.
func (s *Console) controlFailNext(w http.ResponseWriter, r *http.Request) {
	s.controlFault(w, r, false, func(req controlFaultRequest) error {
		if req.ErrorCode == nil {
			return apierr.Payload("missing_error_code", `error_code is required, e.g. "503".`)
		}
		s.FailNext(req.Method, req.Route, *req.ErrorCode, req.Times)
		return nil
	})
}

// controlSlowNext serves POST /_fake/faults/slow.
func (s *Console) controlSlowNext(w http.ResponseWriter, r *http.Request) {
	s.controlFault(w, r, true, func(req controlFaultRequest) error {
		var d time.Duration
		var err error
		if req.Delay != nil {
			d, err = time.ParseDuration(*req.Delay)
		}
		if req.Delay == nil || err != nil || d <= 0 {
			return apierr.Payload("invalid_delay", `delay must be a positive Go duration such as "2s".`)
		}
		s.SlowNext(req.Method, req.Route, d, req.Times)
		return nil
	})
}

type controlWebhookView struct {
	Function   string                `json:"function"`
	ObjectType string                `json:"object_type"`
	ObjectID   string                `json:"object_id"`
	Status     string                `json:"status"`
	Code       string                `json:"code"`
	UpdatedBy  string                `json:"updated_by"`
	Date       int64                 `json:"date"`
	Payload    json.RawMessage       `json:"payload"`
	Deliveries []controlDeliveryView `json:"deliveries"`
}

type controlDeliveryView struct {
	SubscriptionID string               `json:"subscription_id"`
	URL            string               `json:"url"`
	LogID          string               `json:"log_id"`
	Attempts       []controlAttemptView `json:"attempts"`
}

type controlAttemptView struct {
	Code  int    `json:"code"`
	Text  string `json:"text"`
	Date  int64  `json:"date"`
	Chaos string `json:"chaos,omitempty"` // what webhook chaos did (chaos.go)
}

// Bounds of a page of GET /_fake/webhooks: ?limit= webhooks (from 1 to
// maxControlWebhooks; defaultControlWebhooks without it), and at most
// MaxWebhookPageBytes bytes of JSON.
const (
	maxControlWebhooks     = 100_000
	defaultControlWebhooks = 1_000
)

// MaxWebhookPageBytes is documented at synapsefake.MaxWebhookPageBytes.
const MaxWebhookPageBytes = 4 << 20

// controlWebhooks serves GET /_fake/webhooks?limit=&cursor=: one page of
// the captured webhooks, oldest first. Without a cursor it starts at the
// oldest, or with ?limit=N at the N newest; with a cursor, after the last
// webhook of the page that gave it. next_cursor is there when more
// webhooks follow the page.
func (s *Console) controlWebhooks(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, newest := defaultControlWebhooks, 0
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxControlWebhooks {
			s.Fail(w, apierr.Payload("invalid_limit", "limit must be an integer from 1 to %d.", maxControlWebhooks))
			return
		}
		limit, newest = n, n
	}
	var after uint64
	if v := q.Get("cursor"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			s.Fail(w, apierr.Payload("invalid_cursor", "cursor must be a next_cursor of an earlier answer."))
			return
		}
		after, newest = n, 0
	}
	// What the answer adds around the webhooks, with the longest cursor.
	const envelope = len(`{"next_cursor":"18446744073709551615","success":true,"webhooks":[]}`)
	out, size := []json.RawMessage{}, envelope
	last, more := api.CapturePage(s.Webhooks(), after, newest, limit, func(h api.Webhook) bool {
		b, _ := json.Marshal(controlWebhook(h)) // its payload is valid JSON: nothing fails
		if len(out) > 0 && size+len(b)+1 > MaxWebhookPageBytes {
			return false
		}
		out, size = append(out, b), size+len(b)+1 // and its comma
		return true
	})
	fields := map[string]any{"webhooks": out}
	if more {
		fields["next_cursor"] = strconv.FormatUint(last, 10)
	}
	s.ControlOK(w, fields)
}

// controlWebhook is a captured webhook as GET /_fake/webhooks shows it.
func controlWebhook(h api.Webhook) controlWebhookView {
	v := controlWebhookView{Function: h.Function, ObjectType: h.ObjectType, ObjectID: h.ObjectID,
		Status: h.Status, Code: h.Code, UpdatedBy: h.UpdatedBy, Date: bank.Ms(h.Date), Payload: h.Body,
		Deliveries: make([]controlDeliveryView, len(h.Deliveries))}
	if !json.Valid(v.Payload) {
		v.Payload = json.RawMessage("null")
	}
	for j, d := range h.Deliveries {
		dv := controlDeliveryView{SubscriptionID: d.SubscriptionID, URL: d.URL, LogID: d.LogID,
			Attempts: make([]controlAttemptView, len(d.Attempts))}
		for k, a := range d.Attempts {
			dv.Attempts[k] = controlAttemptView{Code: a.Code, Text: a.Text, Date: bank.Ms(a.Date), Chaos: a.Chaos}
		}
		v.Deliveries[j] = dv
	}
	return v
}

// controlResetWebhooks serves DELETE /_fake/webhooks.
func (s *Console) controlResetWebhooks(w http.ResponseWriter, r *http.Request) {
	s.Webhooks().Reset()
	s.ControlOK(w, nil)
}

type controlRequestView struct {
	Method    string     `json:"method"`
	Path      string     `json:"path"`
	Route     string     `json:"route"`
	Query     url.Values `json:"query"`
	Status    int        `json:"status"`
	ErrorCode string     `json:"error_code"`
	Summary   string     `json:"summary"`
	Reason    string     `json:"reason,omitempty"` // why the fake refused it
	// NearMisses are the routes nearest to a call no route took.
	NearMisses []string `json:"near_misses,omitempty"`
}

// controlRequests serves GET /_fake/requests: the journal, oldest first,
// with its query redacted and no headers or bodies but their redacted
// summary, the reasons' hints in the caller's calls.
func (s *Console) controlRequests(w http.ResponseWriter, r *http.Request) {
	reqs := s.Requests()
	out := make([]controlRequestView, len(reqs))
	caller := callerOf(r)
	for i, q := range reqs {
		out[i] = controlRequestView{Method: q.Method, Path: q.Path, Route: q.Route, Query: api.RedactQuery(q.Query),
			Status: q.Status, ErrorCode: q.ErrorCode, Summary: q.String(), Reason: caller.Phrase(q.Reason), NearMisses: q.NearMisses}
	}
	s.ControlOK(w, map[string]any{"requests": out})
}

// controlResetRequests serves DELETE /_fake/requests.
func (s *Console) controlResetRequests(w http.ResponseWriter, r *http.Request) {
	s.ResetRequests()
	s.ControlOK(w, nil)
}

// controlReset serves POST /_fake/reset.
func (s *Console) controlReset(w http.ResponseWriter, r *http.Request) {
	if _, err := ControlBody[struct{}](r); err != nil {
		s.Fail(w, err)
		return
	}
	s.Reset()
	s.ControlOK(w, nil)
}

// controlSnapshot serves GET /_fake/state: the document Snapshot writes.
func (s *Console) controlSnapshot(w http.ResponseWriter, r *http.Request) {
	b, err := s.snapshot()
	if err != nil {
		s.Fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// controlRestore serves PUT /_fake/state: Restore from the body, or with
// ?copy=true RestoreCopy (another platform's document). A document Restore
// refuses is 400 / "200" (invalid_state, or body_too_large past the size
// limit), one sent while another is being restored 429 / "429"; each
// changes nothing.
func (s *Console) controlRestore(w http.ResponseWriter, r *http.Request) {
	restore := s.Restore
	switch q := r.URL.Query(); {
	case q.Get("copy") == "true":
		restore = s.RestoreCopy
	case q.Has("copy") && q.Get("copy") != "false":
		s.Fail(w, apierr.Payload("invalid_copy", "copy must be true or false, not %q.", jsonx.Clip(q.Get("copy"))))
		return
	}
	if err := restore(r.Body); err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, nil)
}
