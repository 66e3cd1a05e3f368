package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/jsonx"
	"github.com/synapsefake/synapsefake/reference"
)

// handler is a method of the wire that serves one route and method.
type handler func(*Wire, http.ResponseWriter, *http.Request)

// route is one path of the API with the handler of each method it serves.
type route map[string]handler

// apiRoutes maps each route, as the spec writes it without the version
// prefix, to its handlers. Written once by APIMux, read-only afterwards.
var apiRoutes = map[string]route{}

// serve dispatches a request to the route's handler for its method, or
// answers the wrong-method envelope. before, when not nil, runs first and
// may answer the request itself (fault injection).
func (rt route) serve(before func(*Wire, http.ResponseWriter, *http.Request) bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s := serverOf(w, r)
		if before != nil && before(s, w, r) {
			return
		}
		h, ok := rt[r.Method]
		if !ok {
			s.Fail(w, s.nearMissRefusal(w, r, apierr.MethodNotAllowed(r.Method).Because("the route serves %s, not %s", strings.Join(slices.Sorted(maps.Keys(rt)), ", "), r.Method)))
			return
		}
		h(s, w, r)
	}
}

// ServeNotFound answers any path no route matched. An API request's
// refusal names the nearest routes; the control API's, which the journal
// does not record, does not.
func ServeNotFound(w http.ResponseWriter, r *http.Request) {
	s := serverOf(w, r)
	err := apierr.RouteNotFound.Because("no route of the API matches %s %s", r.Method, r.URL.Path).Hinting("%s", routeHint(r.URL.Path))
	if recorderOf(w) != nil {
		err = s.nearMissRefusal(w, r, err)
	}
	s.Fail(w, err)
}

// ServerKey is the context key under which the control API passes the
// wire (the *Wire of its Server) to the wire's code its mux shares
// (ServeNotFound, checkStrict), and ServeAPI a strict server's to
// checkStrict. The control handlers find their console by consoleKey.
type ServerKey struct{}

// serverOf is the wire serving r with w, the one way the shared muxes'
// handlers find it. Every writer the API's handlers get wraps the
// journal's recorder, which names it (ServeHTTP does not copy the request
// to put it in a context); the control API's requests, which the journal
// does not record, carry it in their context.
func serverOf(w http.ResponseWriter, r *http.Request) *Wire {
	for {
		switch x := w.(type) {
		case *recorder:
			return x.s
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return r.Context().Value(ServerKey{}).(*Wire)
		}
	}
}

// APIMux is built once per process and shared read-only by every Server:
// building it costs more than the rest of NewServer. Each path is
// registered without a method so that a wrong method gets the error
// envelope, not a plain-text 405.
var APIMux = sync.OnceValue(func() *apiRouter {
	mux := &apiRouter{notFound: ServeNotFound}
	handle := func(path string, rt route) {
		apiRoutes[path] = rt
		mux.add(path, rt.serve(func(s *Wire, w http.ResponseWriter, r *http.Request) bool {
			return s.injectFault(w, r.Method, path)
		}))
	}
	type S = Wire
	handle("/oauth/{user_id}", route{"POST": (*S).handleOAuth})
	handle("/oauth/{user_id}/login", route{"POST": (*S).handleOAuthLogin})
	handle("/users", route{"POST": (*S).handleCreateUser, "GET": (*S).handleListUsers})
	handle("/users/{user_id}", route{"GET": (*S).handleGetUser, "PATCH": (*S).handlePatchUser})
	handle("/users/{user_id}/nodes", route{"POST": (*S).handleCreateNode, "GET": (*S).handleListNodes})
	handle("/users/{user_id}/nodes/{node_id}", route{"GET": (*S).handleGetNode, "PATCH": (*S).handlePatchNode, "DELETE": (*S).handleDeleteNode})
	handle("/users/{user_id}/trans", route{"GET": (*S).handleListUserTransactions})
	handle("/users/{user_id}/nodes/{node_id}/trans", route{"POST": (*S).handleCreateTransaction, "GET": (*S).handleListNodeTransactions})
	handle("/users/{user_id}/nodes/{node_id}/trans/{trans_id}", route{"GET": (*S).handleGetTransaction, "PATCH": (*S).handleCommentTransaction, "DELETE": (*S).handleCancelTransaction})
	handle("/users/{user_id}/nodes/{node_id}/batch-trans", route{"POST": (*S).handleBatchTransactions})
	handle("/users/{user_id}/nodes/{node_id}/barcode", route{"POST": (*S).handleBarcode})
	handle("/users/{user_id}/subnets", route{"GET": (*S).handleListUserSubnets})
	handle("/users/{user_id}/nodes/{node_id}/subnets", route{"POST": (*S).handleCreateSubnet, "GET": (*S).handleListNodeSubnets})
	handle("/users/{user_id}/nodes/{node_id}/subnets/{subnet_id}", route{"GET": (*S).handleGetSubnet, "PATCH": (*S).handlePatchSubnet})
	handle("/users/{user_id}/nodes/{node_id}/subnets/{subnet_id}/push", route{"POST": (*S).handlePushSubnet})
	handle("/users/{user_id}/nodes/{node_id}/subnets/{subnet_id}/dummy-tran", route{"POST": (*S).handleDummyTransaction})
	handle("/users/{user_id}/nodes/{node_id}/dummy-tran", route{"GET": (*S).handleLegacyDummyTransaction})
	handle("/subscriptions", route{"POST": (*S).handleCreateSubscription, "GET": (*S).handleListSubscriptions})
	handle("/subscriptions/logs", route{"GET": (*S).handleWebhookLogs})
	handle("/subscriptions/{subscription_id}", route{"GET": (*S).handleGetSubscription, "PATCH": (*S).handlePatchSubscription, "POST": (*S).handlePatchSubscription})
	handle("/users/{user_id}/statements", route{"GET": (*S).handleListUserStatements})
	handle("/users/{user_id}/nodes/{node_id}/statements", route{"GET": (*S).handleListNodeStatements, "POST": (*S).handleCreateStatement})
	handle("/users/{user_id}/nodes/{node_id}/statements/{statement_id}", route{"GET": (*S).handleGetStatement})
	handle("/statements/{statement_id}/{file}", route{"GET": (*S).handleStatementFile})
	handle("/users/entity-types", route{"GET": (*S).handleEntityTypes})
	handle("/loans-limits", route{"GET": (*S).handleLoanLimits})
	handle("/address-verification", route{"POST": (*S).handleAddressVerification})
	// Issue 12, platform and object routes: platform-wide lists, UBO,
	// duplicates, card shipments, Apple Pay.
	handle("/nodes", route{"GET": (*S).handleListPlatformNodes})
	handle("/trans", route{"GET": (*S).handleListPlatformTransactions})
	handle("/users/{user_id}/ubo", route{"PATCH": (*S).handleUBO})
	handle("/users/{user_id}/get-duplicates", route{"GET": (*S).handleGetDuplicates})
	handle("/users/{user_id}/swap-duplicate-users", route{"PATCH": (*S).handleSwapDuplicates})
	handle("/users/{user_id}/nodes/{node_id}/subnets/{subnet_id}/ship", route{"PATCH": (*S).handleShipSubnet, "POST": (*S).handleShipSubnet, "GET": (*S).handleListShipments})
	handle("/users/{user_id}/nodes/{node_id}/subnets/{subnet_id}/ship/{ship_id}", route{"GET": (*S).handleGetShipment, "DELETE": (*S).handleCancelShipment})
	handle("/users/{user_id}/nodes/{node_id}/applepay", route{"PATCH": (*S).handleApplePay})
	// Reference data the SDKs call (issue 12, section 1: reference routes).
	handle("/nodes/types", route{"GET": (*S).handleNodeTypes})
	handle("/users/document-types", route{"GET": (*S).handleDocumentTypes})
	handle("/users/entity-scopes", route{"GET": (*S).handleEntityScopes})
	handle("/institutions", route{"GET": (*S).handleInstitutions})
	handle("/routing-number-verification", route{"POST": (*S).handleRoutingNumberVerification})
	handle("/nodes/atms", route{"GET": (*S).handleATMs})
	handle("/client", route{"GET": (*S).handleClient})
	handle("/nodes/crypto-market-watch", route{"GET": (*S).handleCryptoMarketWatch})
	handle("/nodes/crypto-quotes", route{"GET": (*S).handleCryptoQuotes})
	handle("/nodes/trade-market-watch", route{"GET": (*S).handleTradeMarketWatch})
	// Disputes (issue 12, section 1).
	handle("/users/{user_id}/nodes/{node_id}/trans/{trans_id}/dispute", route{"PATCH": (*S).handleDisputeTransaction})
	handle("/trans/{trans_id}/dispute-chargeback", route{"PATCH": (*S).handleDisputeChargeback})
	return mux
})

// GrowStack (its result is only there so that its frame is not optimized
// away) grows a fresh connection's goroutine stack to the size the
// API's deepest handlers need, at the top of ServeHTTP, where few frames are
// on it: the runtime copies a growing stack frame by frame, and otherwise
// the growth came about fifteen frames deep, in the mux, which cost a
// request on a new connection (every test's first) several microseconds
// (BenchmarkReadmeTest). On a stack already grown it costs clearing
// growFrame bytes.
//
//go:noinline
func GrowStack(n int) byte {
	var frame [growFrame]byte
	frame[n%growFrame] = 1
	return frame[(n/2)%growFrame]
}

// growFrame is GrowStack's frame: with net/http's frames above ServeHTTP it
// takes a fresh connection goroutine's stack (2 KiB to start, in our
// benchmarks) to 8 KiB in one growth, which the create-transaction chain
// (about 5.6 KiB deep) fits in.
const growFrame = 4096

// PlainPath reports that p is a clean path without looking further: no
// empty, dot or trailing element.
func PlainPath(p string) bool {
	if len(p) < 2 || p[0] != '/' || p[len(p)-1] == '/' {
		return false
	}
	for i := 1; i < len(p); i++ {
		if p[i] == '/' && (p[i-1] == '/' || i+1 < len(p) && p[i+1] == '.') {
			return false
		}
	}
	return p[1] != '.'
}

// KeepQuerySemicolons returns r with each ';' of its query escaped, so that
// url.ParseQuery (which drops a pair holding one) reads it as part of its
// value, as the service read it: GET /users?query=asdfkl;fja searches for
// "asdfkl;fja". r itself is left as it was.
func KeepQuerySemicolons(r *http.Request) *http.Request {
	if !strings.Contains(r.URL.RawQuery, ";") {
		return r
	}
	u := *r.URL
	u.RawQuery = strings.ReplaceAll(u.RawQuery, ";", "%3B")
	r2 := r.WithContext(r.Context())
	r2.URL = &u
	return r2
}

// writeJSON writes v with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := jsonx.GetBuffer()
	defer jsonx.PutBuffer(buf)
	if err := encodeInto(buf, v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		_ = encodeInto(buf, bank.EnvelopeOf(apierr.New(reference.ErrServer, "internal_error", "%v", err)))
	}
	writeBody(w, status, buf.Bytes())
}

// writeBody writes an encoded JSON body in one write, with its length.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = contentTypeJSON
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// contentTypeJSON is every answer's Content-Type value, shared: net/http
// copies a header before it writes it, and nothing sets a value in place.
var contentTypeJSON = []string{"application/json"}

// encodeInto appends v's JSON to buf, as json.Marshal encodes it.
func encodeInto(buf *bytes.Buffer, v any) error {
	if a, ok := v.(jsonx.Appender); ok {
		b, err := a.AppendJSON(buf.AvailableBuffer())
		if err != nil {
			return err
		}
		buf.Write(b)
		return nil
	}
	n := buf.Len()
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		buf.Truncate(n)
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}

// Fail writes err in the error envelope. Errors that are not API errors are
// server errors.
func (s *Wire) Fail(w http.ResponseWriter, err error) {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		ae = apierr.New(reference.ErrServer, "internal_error", "%v", err)
	}
	noteRefusal(w, ae)
	writeJSON(w, ae.Status, bank.EnvelopeOf(ae))
}

// Ok writes a list wrapper or another body that carries its own success field.
func (s *Wire) Ok(w http.ResponseWriter, v any) { writeJSON(w, http.StatusOK, v) }

// okObject writes a single resource (a user, a node...) with "success": true
// added, since every body the real service sent carries success.
func (s *Wire) okObject(w http.ResponseWriter, v any) {
	if err := writeObject(w, v); err != nil {
		s.Fail(w, fmt.Errorf("encoding a %T: %v", v, err))
	}
}

var errNotAnObject = errors.New("not a JSON object")

// writeObject is okObject's writing: v is encoded (v may point to the
// object), success added, and the answer written; nothing is written when
// v's JSON is not an object.
func writeObject(w http.ResponseWriter, v any) error {
	const prefix = `{"success":true,`
	buf := jsonx.GetBuffer()
	defer jsonx.PutBuffer(buf)
	buf.WriteString(prefix)
	err := encodeInto(buf, v)
	b := buf.Bytes()
	obj := b[len(prefix):]
	switch {
	case err != nil:
		return err
	case len(obj) < 2 || obj[0] != '{':
		return errNotAnObject
	case len(obj) == 2:
		writeBody(w, http.StatusOK, []byte(`{"success":true}`))
		return nil
	}
	// Slide the prefix over the object's opening brace.
	copy(b[1:], b[:len(prefix)])
	writeBody(w, http.StatusOK, b[1:])
	return nil
}

// MaxHeaderBytes bounds the request headers the API reads.
const MaxHeaderBytes = 32 << 10

// HeaderBytes is the size of the request headers h, as MaxHeaderBytes
// counts them.
func HeaderBytes(h http.Header) int {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

// requireJSON refuses a body not sent as application/json, for the routes
// where the spec says the Content-Type must be that.
func requireJSON(r *http.Request) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return apierr.Payload("invalid_content_type", "Content-Type must be application/json.")
	}
	return nil
}

// MaxBody bounds a request body.
const MaxBody = 1 << 20

// decode reads a JSON object body into T. Fields T does not have are
// ignored, as the real service ignored them. Malformed JSON, a body that is
// not an object, a known field of the wrong type and trailing data are
// 400 / "200".
func decode[T any](r *http.Request) (T, error) {
	var v T
	data, err := readBody(r)
	if err != nil {
		return v, err
	}
	return v, decodeBody(r, data, &v)
}

// decodeOptional is decode for a route whose body is optional: an empty
// body, whatever its Content-Type (the official Go client sends an empty
// form-encoded one), and JSON null are the zero T.
func decodeOptional[T any](r *http.Request) (T, error) {
	var v T
	data, err := readBody(r)
	if err != nil {
		return v, err
	}
	if isEmptyBody(data) {
		return v, nil
	}
	return v, decodeBody(r, data, &v)
}

// isEmptyBody reports whether an optional body carries nothing.
func isEmptyBody(data []byte) bool {
	trimmed := bytes.TrimSpace(data)
	return len(trimmed) == 0 || string(trimmed) == "null"
}

// readBody reads a request body of at most MaxBody bytes.
func readBody(r *http.Request) ([]byte, error) {
	var data []byte
	var err error
	if rb, ok := r.Body.(*replayBody); ok {
		data, err = rb.rest()
	} else {
		data, err = io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	}
	if err != nil {
		return nil, apierr.Payload("invalid_body", "Unable to read the request body.")
	}
	if len(data) > MaxBody {
		return nil, apierr.Payload("body_too_large", "Request body is larger than %d bytes.", MaxBody)
	}
	return data, nil
}

// answerView answers the pooled view fill fills (a bank operation, which
// takes the lock itself), or fill's error. A view is large: it is
// recycled rather than made on the heap each time.
func answerView[V any](s *Wire, w http.ResponseWriter, fill func(*V) error) {
	pool := viewPool[V]()
	v := pool.Get().(*V)
	defer func() {
		var zero V
		*v = zero
		pool.Put(v)
	}()
	if err := fill(v); err != nil {
		s.Fail(w, err)
		return
	}
	if err := writeObject(w, v); err != nil {
		s.Fail(w, fmt.Errorf("encoding a %T: %v", *v, err))
	}
}

// answerValue answers the object fn (a bank operation) answers, or its
// error, through answerView's pooled views.
func answerValue[V any](s *Wire, w http.ResponseWriter, fn func() (V, error)) {
	answerView(s, w, func(v *V) (err error) {
		*v, err = fn()
		return err
	})
}

// viewPools are answerView's views, a pool for each type.
var viewPools sync.Map // reflect.Type -> *sync.Pool

func viewPool[V any]() *sync.Pool {
	t := reflect.TypeFor[V]()
	if p, ok := viewPools.Load(t); ok {
		return p.(*sync.Pool)
	}
	p, _ := viewPools.LoadOrStore(t, &sync.Pool{New: func() any { return new(V) }})
	return p.(*sync.Pool)
}

// Paging bounds. A page past the last one answers an empty page; a page
// above maxPage is refused, so that no page number reaches the window
// arithmetic unchecked.
const (
	maxPage    = 10_000_000
	maxPerPage = 20 // the real service's default and maximum
)

// readPage reads page and per_page: page is 1 to maxPage (default 1),
// per_page at least 1 (default 20; above 20 is capped at 20, as the real
// service capped it). Anything else is 400 / "200".
func readPage(r *http.Request) (bank.Page, error) { return pageIn(r.URL.Query()) }

// pageIn is readPage of a query already read.
func pageIn(q url.Values) (bank.Page, error) {
	p := bank.Page{Number: 1, PerPage: maxPerPage}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPage {
			return p, apierr.Payload("invalid_page", "page must be an integer from 1 to %d.", maxPage)
		}
		p.Number = n
	}
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return p, apierr.Payload("invalid_per_page", "per_page must be a positive integer.")
		}
		p.PerPage = min(n, maxPerPage)
	}
	return p, nil
}

// servePage serves a paged list: it authorizes, reads page, per_page and
// filter, then list (a bank operation) answers one page of views (newest
// first when asked) and the (filtered) count. wrap puts them under the
// list's own names.
func servePage[V any](s *Wire, w http.ResponseWriter, r *http.Request, need access, newestFirst bool,
	list func(q bank.ListQuery) ([]V, int, error), wrap func(meta bank.ListMeta, items []V, total int) any) {
	if _, err := s.authorize(r, need); err != nil {
		s.Fail(w, err)
		return
	}
	q, _, err := readList(w, r, newestFirst)
	if err != nil {
		s.Fail(w, err)
		return
	}
	items, total, err := list(q)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, wrap(q.Page.Meta(total), items, total))
}

// access says which credentials a route needs.
type access struct {
	gateway bool   // X-SP-GATEWAY must be present (a wrong one is refused anyway)
	user    bool   // X-SP-USER must be present, "|<fingerprint>" being enough
	userIP  bool   // X-SP-USER-IP must be present
	scope   string // an oauth_key with this scope, bound to the path's user_id
}

// caller is who an authorized request acts for.
type caller struct {
	userID      string // "" for client-level calls
	fingerprint string
}

// authorize checks the request's credentials against a route's needs:
// the gateway (100), X-SP-USER and its oauth_key (200, 300, 110, 120),
// the key's user against the path's user_id and the key's scopes (300),
// a locked user's key outside its user's own routes (410), then
// X-SP-USER-IP (200).
func (s *Wire) authorize(r *http.Request, need access) (caller, error) {
	var c caller
	if gw, present := header(r, "X-SP-GATEWAY"); present {
		if !s.isGateway(gw) {
			return c, s.errGatewayFor(gw)
		}
	} else if need.gateway {
		return c, apierr.MissingGateway.Hinting(hintGateway)
	}
	userHdr, hasUser := header(r, "X-SP-USER")
	key, fp, _ := strings.Cut(userHdr, "|")
	c.fingerprint = fp
	if need.scope != "" {
		if !hasUser {
			return c, apierr.MissingUser.Hinting(bank.HintUserHeader)
		}
		if key == "" {
			return c, apierr.NoOAuthKey.Because(`X-SP-USER has nothing before "|"`).Hinting(bank.HintNewKey)
		}
		k, locked, err := s.LookupKey(key, s.Now())
		if err != nil {
			return c, err
		}
		if k.Fingerprint != fp {
			return c, bank.ErrFingerprintFor(userHdr, k.Fingerprint, fp)
		}
		if uid := r.PathValue("user_id"); uid != "" && uid != k.UserID {
			return c, apierr.Unauthorized("unauthorized_user", "The oauth_key does not belong to user %s.", uid).
				Because("the oauth_key is user %s's; the path names user %s", k.UserID, uid).
				Hinting("use a key of user %s: fake.OAuthKey(%q, fingerprint) or POST /oauth/%s", uid, uid, uid)
		}
		if !k.Allows(need.scope) {
			return c, apierr.Unauthorized("scope_not_granted", "The oauth_key lacks the scope %s.", need.scope).
				Because("this route needs the scope %s; the oauth_key has %s", need.scope, strings.Join(k.Scopes, ", ")).
				Hinting("ask for the scope in POST /oauth/{user_id}'s scope, or mint a key with every scope: fake.OAuthKey(userID, fingerprint)")
		}
		if locked != nil && need.scope != reference.ScopeUserGet && need.scope != reference.ScopeUserPatch {
			// The key stays good for the user itself, so that the platform
			// can unlock or delete the user it locked.
			return c, locked.Because("the oauth_key's user is locked: it opens only the user (USER|GET, USER|PATCH routes)")
		}
		c.userID = k.UserID
	}
	if need.userIP {
		if ip, _ := header(r, "X-SP-USER-IP"); ip == "" {
			return c, apierr.MissingUserIP.Hinting(hintUserIP)
		}
	}
	if need.user && !hasUser {
		return c, apierr.MissingUser.Hinting(bank.HintUserHeader)
	}
	return c, s.checkIdempotency(r)
}

// header returns a header's value and whether it was sent at all. Header
// names are matched case-insensitively.
func header(r *http.Request, name string) (string, bool) {
	key, ok := canonicalHeaders[name]
	if !ok {
		key = http.CanonicalHeaderKey(name)
	}
	v, ok := r.Header[key]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[0], true
}

// canonicalHeaders spares header the canonicalisation of the names the
// API reads on every request.
var canonicalHeaders = map[string]string{
	"X-SP-GATEWAY":         "X-Sp-Gateway",
	"X-SP-USER":            "X-Sp-User",
	"X-SP-USER-IP":         "X-Sp-User-Ip",
	"X-SP-IDEMPOTENCY-KEY": "X-Sp-Idempotency-Key",
}

// validator is a request body that checks its own payload rules.
type validator interface{ Validate() error }

// decodeValid is decode followed by the body's own validate.
func decodeValid[T validator](r *http.Request) (T, error) {
	v, err := decode[T](r)
	if err == nil {
		err = v.Validate()
	}
	return v, err
}

// decodeChecked is decode followed by the body's own Validate and then
// its strict-mode rules (Broken), which a body with rules of both kinds
// takes.
func decodeChecked[T any, P interface {
	*T
	validator
	Broken() []bank.BrokenRule
}](s *Wire, r *http.Request) (T, error) {
	v, err := decode[T](r)
	if err == nil {
		err = P(&v).Validate()
	}
	if err == nil {
		err = s.strictRules(r, P(&v).Broken())
	}
	return v, err
}

// decodeTextValid is decodeText followed by the body's own validate.
func decodeTextValid[T validator](r *http.Request) (T, error) {
	v, err := decodeText[T](r)
	if err == nil {
		err = v.Validate()
	}
	return v, err
}

// decodeText is decode that also refuses a body that is not valid UTF-8:
// encoding/json would quietly turn such bytes into U+FFFD, and a note or
// comment would be stored other than it was sent.
func decodeText[T any](r *http.Request) (T, error) {
	var v T
	data, err := readBody(r)
	if err != nil {
		return v, err
	}
	if !utf8.Valid(data) {
		return v, apierr.Payload("invalid_utf8", "Request body must be valid UTF-8.")
	}
	return v, decodeBody(r, data, &v)
}

// decodeBody decodes a JSON object body into v, leniently (a body that
// the fast decoder reads, decodeFast, is read by it), then, on a server
// WithStrictRequests, refuses the fields T does not have (strict.go). v is
// zero.
func decodeBody[T any](r *http.Request, data []byte, v *T) error {
	// A fast decoder reads a fixed, shallow shape: only encoding/json's
	// bodies need jsonx.UnmarshalObject's depth check.
	if !decodeFast(v, data) {
		if err := jsonx.UnmarshalObject(data, v, false); err != nil {
			return err
		}
	}
	return checkStrict[T](r, data)
}

// RoutePatterns are the API's routes as the spec writes them without the
// version prefix, sorted: the fuzzers of the layers above aim at each.
func RoutePatterns() []string {
	APIMux()
	return slices.Sorted(maps.Keys(apiRoutes))
}
