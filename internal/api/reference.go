package api

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// Loan limits, entity types and address verification answer the exact
// shapes of the spec (an object keyed by state code, an object with
// BUSINESS and PERSONAL, the verification result) without an added success
// field, since the spec gives these shapes in full.

// The other routes of this file answer deterministic reference and market data from package
// reference. Client-level ones need only a right X-SP-GATEWAY; the /users/* and
// /nodes/types tables need no credentials (strict mode: the headers the contract lists
// for GET /users/entity-types).

// defaultLoanLimits is the reference table, built once and shared read-only.
var defaultLoanLimits = sync.OnceValue(reference.LoanLimits)

// handleLoanLimits serves GET /v3.1/loans-limits. No credentials are needed,
// but a wrong X-SP-GATEWAY is refused, as on every route.
func (s *Wire) handleLoanLimits(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{}); err != nil {
		s.Fail(w, err)
		return
	}
	if s.Cfg.LoanLimits != nil {
		s.Ok(w, s.Cfg.LoanLimits)
		return
	}
	s.Ok(w, defaultLoanLimits())
}

// handleEntityTypes serves GET /v3.1/users/entity-types, with no credentials
// needed as the other reference tables (serveTable).
func (s *Wire) handleEntityTypes(w http.ResponseWriter, r *http.Request) {
	serveTable(s, w, r, reference.AllEntityTypes)
}

// handleAddressVerification serves POST /v3.1/address-verification. No
// credentials are needed, but a wrong X-SP-GATEWAY is refused, as on every
// route. The spec lists the Content-Type and the five fields without saying
// either is required: a body of another Content-Type is read as JSON, and a
// missing field is verified as empty (a street without a number is
// primary_number_missing), unless WithStrictRequests refuses them.
func (s *Wire) handleAddressVerification(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{}); err != nil {
		s.Fail(w, err)
		return
	}
	enf := s.enforcerFor(r)
	if err := requireJSON(r); err != nil {
		if err := enf.Enforce(bank.BrokenRule{Rule: "Content-Type is application/json (the spec's header of POST /address-verification)", Err: err.(*apierr.Error)}); err != nil {
			s.Fail(w, err)
			return
		}
	}
	a, err := decode[reference.Address](r)
	if err == nil {
		if verr := a.Validate(); verr != nil {
			err = enf.Enforce(bank.BrokenRule{Rule: "address verification gets all five fields", Err: apierr.Payload("missing_field", "%s", verr.Error())})
		}
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, reference.VerifyAddress(a))
}

// tableAccess is what the contract lists for GET /users/entity-types, and the fake
// reads as the need of the other reference tables below /users and /nodes.
var tableAccess = access{gateway: true, user: true, userIP: true}

// tableHeadersRule names tableAccess for strict mode.
const tableHeadersRule = "the reference tables take X-SP-GATEWAY, X-SP-USER and X-SP-USER-IP (the contract's headers of GET /users/entity-types)"

// clientAccess is what the client-level reference routes need.
var clientAccess = access{gateway: true}

// serveTable answers a reference table. The sandbox answered clients that sent no
// headers at all; a wrong X-SP-GATEWAY is still refused, as on every route, and an
// X-SP-USER's oauth_key is not read (the table is no user's).
func serveTable[T any](s *Wire, w http.ResponseWriter, r *http.Request, table func() T) {
	if _, err := s.authorize(r, access{}); err != nil {
		s.Fail(w, err)
		return
	}
	if _, err := s.authorize(r, tableAccess); err != nil {
		if err := s.strictRule(r, tableHeadersRule, err.(*apierr.Error)); err != nil {
			s.Fail(w, err)
			return
		}
	}
	s.Ok(w, table())
}

// handleNodeTypes serves GET /v3.1/nodes/types.
func (s *Wire) handleNodeTypes(w http.ResponseWriter, r *http.Request) {
	serveTable(s, w, r, reference.AllAllowedNodeTypes)
}

// handleDocumentTypes serves GET /v3.1/users/document-types.
func (s *Wire) handleDocumentTypes(w http.ResponseWriter, r *http.Request) {
	serveTable(s, w, r, reference.AllDocumentTypes)
}

// handleEntityScopes serves GET /v3.1/users/entity-scopes.
func (s *Wire) handleEntityScopes(w http.ResponseWriter, r *http.Request) {
	serveTable(s, w, r, reference.AllEntityScopes)
}

// handleInstitutions serves GET /v3.1/institutions: {"banks": [...]} with
// the list envelope's error_code "0" and http_code "200".
func (s *Wire) handleInstitutions(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, clientAccess); err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, struct {
		Banks     []reference.Institution `json:"banks"`
		ErrorCode string                  `json:"error_code"`
		HTTPCode  string                  `json:"http_code"`
		Success   bool                    `json:"success"`
	}{reference.Institutions(), "0", "200", true})
}

// routingVerification is the answer of a routing-number verification.
type routingVerification struct {
	reference.RoutingBank
	Type string `json:"type"`
}

// handleRoutingNumberVerification serves POST /v3.1/routing-number-verification.
// A number whose ABA checksum fails is refused as an ACH-US node with it is.
func (s *Wire) handleRoutingNumberVerification(w http.ResponseWriter, r *http.Request) {
	req, err := decode[bank.RoutingRequest](r)
	if err == nil {
		err = req.Validate(s.enforcerFor(r))
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	if _, err := s.authorize(r, clientAccess); err != nil {
		s.Fail(w, err)
		return
	}
	bankName, ok := reference.LookupRoutingNumber(*req.RoutingNum)
	if !ok {
		s.Fail(w, apierr.Incorrect("unknown_routing_number", "Routing number %s is not a known bank.", *req.RoutingNum))
		return
	}
	typ := reference.NodeACHUS
	if req.Type != nil {
		typ = *req.Type
	}
	s.okObject(w, routingVerification{RoutingBank: bankName, Type: typ})
}

// atmList is the answer of GET /v3.1/nodes/atms.
type atmList struct {
	bank.ListMeta
	ATMs      []reference.NearbyATM `json:"atms"`
	ATMsCount int                   `json:"atms_count"`
}

// handleATMs serves GET /v3.1/nodes/atms?zip=|lat=&lon=, radius, page, per_page. A
// search with no location finds no ATMs: an empty page, as a client read it.
func (s *Wire) handleATMs(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, clientAccess); err != nil {
		s.Fail(w, err)
		return
	}
	p, err := readPage(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	center, radius, located, err := readATMSearch(r.URL.Query(), s.enforcerFor(r))
	if err != nil {
		s.Fail(w, err)
		return
	}
	atms := []reference.NearbyATM{}
	if located {
		atms = reference.NearbyATMs(center, radius)
	}
	lo, hi := p.Window(len(atms))
	s.Ok(w, atmList{
		ListMeta:  p.Meta(len(atms)),
		ATMs:      atms[lo:hi],
		ATMsCount: len(atms),
	})
}

// readATMSearch reads the centre and radius of an ATM search: lat and lon together
// (they win over zip), or a 5-digit zip, or neither (located false); radius in miles,
// above 0 and at most MaxATMRadius (default DefaultATMRadius). enf takes or refuses
// what the sandbox took: a radius that is no number above 0 is the default, one above
// MaxATMRadius is MaxATMRadius, and a location that is none (a zip of another form,
// coordinates out of range or one of the pair) finds no ATMs.
func readATMSearch(q url.Values, enf bank.Enforcer) (center reference.Place, radius float64, located bool, err error) {
	radius = reference.DefaultATMRadius
	if v := q.Get("radius"); v != "" {
		f, perr := strconv.ParseFloat(v, 64)
		if perr != nil || math.IsNaN(f) || f <= 0 || f > reference.MaxATMRadius {
			err := apierr.Payload("invalid_radius", "radius must be a number of miles above 0 and at most %g.", reference.MaxATMRadius)
			if err := enf.Enforce(bank.BrokenRule{Rule: fmt.Sprintf("radius is a number of miles above 0 and at most %g", reference.MaxATMRadius), Err: err}); err != nil {
				return center, 0, false, err
			}
		}
		switch {
		case perr == nil && f > reference.MaxATMRadius:
			radius = reference.MaxATMRadius
		case perr == nil && f > 0:
			radius = f
		}
	}
	lat, lon := q.Get("lat"), q.Get("lon")
	switch {
	case lat != "" || lon != "":
		la, errLat := strconv.ParseFloat(lat, 64)
		lo, errLon := strconv.ParseFloat(lon, 64)
		if errLat != nil || errLon != nil || math.IsNaN(la) || math.IsNaN(lo) || math.Abs(la) > 90 || math.Abs(lo) > 180 {
			err := apierr.Payload("invalid_coordinates", "lat and lon must be given together, lat from -90 to 90 and lon from -180 to 180.")
			return center, radius, false, enf.Enforce(bank.BrokenRule{Rule: "lat and lon are given together, lat from -90 to 90 and lon from -180 to 180", Err: err})
		}
		return reference.CoordinatesPlace(la, lo), radius, true, nil
	case q.Get("zip") != "":
		zip := q.Get("zip")
		if len(zip) != 5 || !bank.AllDigits(zip) {
			return center, radius, false, enf.Enforce(bank.BrokenRule{Rule: "zip is 5 digits", Err: apierr.Payload("invalid_zip", "zip must be 5 digits.")})
		}
		return reference.ZipPlace(zip), radius, true, nil
	}
	return center, radius, false, nil
}

// Public keys issued for a user last a day (the fake's choice: no source
// shows one); client-wide ones 900 s, as the sandbox gave them
// (synapsenode's test/clientTests.js expects expires_in "900", and the
// docs' "Issuing a public key" sample shows it).
const (
	userPublicKeyLifetime   = 24 * time.Hour
	clientPublicKeyLifetime = 900 * time.Second
)

// publicKeyView is the public_key_obj of GET /v3.1/client?issue_public_key=YES.
type publicKeyView struct {
	ClientObjID string   `json:"client_obj_id"`
	ExpiresAt   string   `json:"expires_at"`
	ExpiresIn   string   `json:"expires_in"`
	PublicKey   string   `json:"public_key"`
	Scope       []string `json:"scope"`
}

// handleClient serves GET /v3.1/client?issue_public_key=YES&scope=...[&user_id=...].
// scope is comma-separated (the Go and older Python clients) or repeated (SynapsePy);
// none means reference.ClientScopes. The key is issued, not kept: no route reads it.
func (s *Wire) handleClient(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, clientAccess); err != nil {
		s.Fail(w, err)
		return
	}
	q := r.URL.Query()
	if !strings.EqualFold(q.Get("issue_public_key"), "YES") {
		s.Fail(w, apierr.Payload("invalid_issue_public_key", "issue_public_key must be YES."))
		return
	}
	var scopes []string
	for _, v := range q["scope"] {
		for sc := range strings.SplitSeq(v, ",") {
			if sc = strings.TrimSpace(sc); sc == "" {
				continue
			}
			if !reference.IsPublicKeyScope(sc) {
				s.Fail(w, apierr.Payload("invalid_scope", "Unknown scope %s.", sc))
				return
			}
			scopes = append(scopes, sc)
		}
	}
	if len(scopes) == 0 {
		scopes = reference.ClientScopes()
	}
	userID := q.Get("user_id")
	clientID, lifetime, expires, key, err := s.PublicKey(userID, clientPublicKeyLifetime, userPublicKeyLifetime)
	view := publicKeyView{
		ClientObjID: clientID,
		ExpiresAt:   strconv.FormatInt(expires.Unix(), 10),
		ExpiresIn:   strconv.FormatInt(int64(lifetime/time.Second), 10),
		PublicKey:   "public_key_" + key,
		Scope:       scopes,
	}

	if err != nil {
		s.Fail(w, err)
		return
	}
	s.okObject(w, struct {
		PublicKeyObj publicKeyView `json:"public_key_obj"`
	}{view})
}

// handleCryptoQuotes serves GET /v3.1/nodes/crypto-quotes: {"BTCUSD": ..., "USDBTC": ..., ...}.
func (s *Wire) handleCryptoQuotes(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, clientAccess); err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, reference.CryptoQuotes(s.Now()))
}

// cryptoMarketView is the answer of GET /v3.1/nodes/crypto-market-watch?currency=: the
// one currency asked for.
type cryptoMarketView struct {
	Currency string                `json:"currency"`
	Limit    int                   `json:"limit"`
	Data     []reference.MarketDay `json:"data"`
}

// cryptoWatch is one currency of the answer without ?currency=, an object keyed by
// currency code.
type cryptoWatch struct {
	Data []reference.MarketDay `json:"data"`
	News []any                 `json:"news"` // the fake has no news feed: always empty
}

// handleCryptoMarketWatch serves GET /v3.1/nodes/crypto-market-watch?limit=&currency=.
// With a currency it answers that currency's days; without, every quoted currency's
// days and news, keyed by its code ({"BTC": {"data": [...], "news": [...]}, ...}), as
// clients read it.
func (s *Wire) handleCryptoMarketWatch(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, clientAccess); err != nil {
		s.Fail(w, err)
		return
	}
	q := r.URL.Query()
	days := reference.DefaultMarketDays
	if v := q.Get("limit"); v != "" {
		// The sandbox took any limit: one that is no number of days is the
		// default, one above MaxMarketDays is MaxMarketDays (a bound of the
		// fake's memory), unless WithStrictRequests refuses them.
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > reference.MaxMarketDays {
			err := apierr.Payload("invalid_limit", "limit must be a number of days from 1 to %d.", reference.MaxMarketDays)
			if err := s.strictRule(r, fmt.Sprintf("limit is a number of days from 1 to %d", reference.MaxMarketDays), err); err != nil {
				s.Fail(w, err)
				return
			}
		}
		switch {
		case err == nil && n > reference.MaxMarketDays:
			days = reference.MaxMarketDays
		case err == nil && n > 0:
			days = n
		}
	}
	now := s.Now()
	if q.Get("currency") == "" {
		all := map[string]cryptoWatch{}
		for _, c := range reference.CryptoCurrencies() {
			data, _ := reference.CryptoMarketData(c.Symbol, days, now)
			all[c.Symbol] = cryptoWatch{Data: data, News: []any{}}
		}
		s.Ok(w, all)
		return
	}
	currency := strings.ToUpper(q.Get("currency"))
	data, ok := reference.CryptoMarketData(currency, days, now)
	if !ok {
		s.Fail(w, apierr.Payload("invalid_currency", "currency %q is not a quoted cryptocurrency.", q.Get("currency")))
		return
	}
	s.okObject(w, cryptoMarketView{Currency: currency, Limit: days, Data: data})
}

// handleTradeMarketWatch serves GET /v3.1/nodes/trade-market-watch?ticker=AAPL. The Go
// client passes the bare symbol as its query string, so a query of one key with no
// value ("?AAPL=") names the ticker too.
func (s *Wire) handleTradeMarketWatch(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, clientAccess); err != nil {
		s.Fail(w, err)
		return
	}
	q := r.URL.Query()
	ticker := q.Get("ticker")
	if _, named := q["ticker"]; !named && len(q) == 1 {
		for k, v := range q {
			if len(v) == 1 && v[0] == "" {
				ticker = k
			}
		}
	}
	if ticker == "" {
		s.Fail(w, apierr.Payload("missing_ticker", "ticker is required."))
		return
	}
	// The sandbox quoted what it was asked; the fake quotes any symbol as it
	// quotes a ticker, unless WithStrictRequests refuses one of another form.
	symbol := strings.ToUpper(ticker)
	if !reference.ValidTicker(symbol) {
		err := apierr.Payload("invalid_ticker", "ticker %q is not a ticker symbol.", ticker)
		if err := s.strictRule(r, "ticker is 1 to 5 letters, with an optional class (BRK.B)", err); err != nil {
			s.Fail(w, err)
			return
		}
	}
	s.okObject(w, reference.TickerMarketData(symbol, s.Now()))
}
