package synapsefake

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"slices"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// subnetsList is the wrapper of the subnet lists.
type subnetsList struct {
	listMeta
	Subnets      []subnetView `json:"subnets"`
	SubnetsCount int          `json:"subnets_count"`
}

// listSubnets serves a subnet list, oldest first.
func (s *Server) listSubnets(w http.ResponseWriter, r *http.Request, ids func(*store) ([]string, error)) {
	servePage(s, w, r, access{gateway: true, userIP: true, scope: reference.ScopeSubnetsGet}, false, ids,
		func(st *store, id string) subnetView { return st.subnetView(st.subnets[id], false) },
		func(meta listMeta, items []subnetView, total int) any {
			return subnetsList{listMeta: meta, Subnets: items, SubnetsCount: total}
		})
}

// createSubnetRequest is the body of POST .../nodes/{node_id}/subnets.
type createSubnetRequest struct {
	Nickname     *string `json:"nickname"`
	AccountClass string  `json:"account_class"`
	SuppID       *string `json:"supp_id"`
	CardStyleID  *string `json:"card_style_id"`
}

// class is the requested account class; DEBIT_CARD, which the official Go
// client sends, is a CARD.
func (r createSubnetRequest) class() string {
	switch r.AccountClass {
	case "":
		return ClassChecking
	case "DEBIT_CARD":
		return ClassCard
	}
	return r.AccountClass
}

func (r createSubnetRequest) validate() error {
	if r.Nickname == nil || *r.Nickname == "" {
		return apierr.Payload("missing_nickname", "nickname is required.")
	}
	if !slices.Contains([]string{ClassChecking, ClassSavings, ClassCard}, r.class()) {
		return apierr.Payload("invalid_account_class", "account_class must be CHECKING, SAVINGS or CARD.")
	}
	return nil
}

// broken lists the contract's rules r breaks that the sandbox took.
func (r createSubnetRequest) broken() []brokenRule {
	return blankNicknameRule(r.Nickname)
}

// blankNicknameRule is the fake's rule that a nickname is not blank, which
// no source says the service checked: one of spaces is taken.
func blankNicknameRule(nickname *string) []brokenRule {
	if nickname == nil || strings.TrimSpace(*nickname) != "" {
		return nil
	}
	return []brokenRule{{"nickname is not blank", apierr.Payload("invalid_nickname", "nickname must not be blank.")}}
}

// handleCreateSubnet serves POST /v3.1/users/{user_id}/nodes/{node_id}/subnets.
func (s *Server) handleCreateSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeSubnetsPost}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[createSubnetRequest](r)
	if err == nil {
		err = s.strictRules(r, req.broken())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	answerObject(s, w, func(st *store) (subnetView, error) {
		n, err := st.userNode(r.PathValue("user_id"), r.PathValue("node_id"))
		if err == nil {
			err = subnetNode(n)
		}
		if err != nil {
			return subnetView{}, err
		}
		sn := st.newSubnet(now, n, *req.Nickname, req.class(), req.SuppID, req.CardStyleID)
		v := st.subnetView(sn, false)
		st.emit(now, "SUBNETS|POST", "SUBNET", sn.id, v)
		return v, nil
	})
}

// handleListNodeSubnets serves GET /v3.1/users/{user_id}/nodes/{node_id}/subnets.
func (s *Server) handleListNodeSubnets(w http.ResponseWriter, r *http.Request) {
	s.listSubnets(w, r, ofPathNode(r, func(_ *store, n *nodeRecord) []string { return n.subnetIDs }))
}

// handleListUserSubnets serves GET /v3.1/users/{user_id}/subnets.
func (s *Server) handleListUserSubnets(w http.ResponseWriter, r *http.Request) {
	s.listSubnets(w, r, ofPathUser(r, func(_ *store, u *userRecord) []string { return u.subnetIDs }))
}

// subnetAction runs fn on the path's subnet under the lock and answers the
// subnet as it is afterwards.
func (s *Server) subnetAction(w http.ResponseWriter, r *http.Request, full bool, fn func(*store, *subnetRecord) error) {
	answerObject(s, w, func(st *store) (subnetView, error) {
		sn, err := st.nodeSubnet(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"))
		if err == nil {
			err = fn(st, sn)
		}
		if err != nil {
			return subnetView{}, err
		}
		return st.subnetView(sn, full), nil
	})
}

// handleGetSubnet serves GET .../subnets/{subnet_id}; full_dehydrate=YES
// shows the full card number, cvc and account number, any other value
// nothing more.
func (s *Server) handleGetSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true, userIP: true, scope: reference.ScopeSubnetGet}); err != nil {
		s.fail(w, err)
		return
	}
	full := false
	switch v := strings.ToUpper(r.URL.Query().Get("full_dehydrate")); v {
	case "", "NO":
	case "YES":
		full = true
	default: // NO, as GET /users/{user_id} reads it
		if err := s.strictRule(r, "full_dehydrate is YES or NO", apierr.Payload("invalid_full_dehydrate", "full_dehydrate must be YES or NO.")); err != nil {
			s.fail(w, err)
			return
		}
	}
	s.subnetAction(w, r, full, func(*store, *subnetRecord) error { return nil })
}

// patchSubnetRequest is the body of PATCH .../subnets/{subnet_id}.
// Preference limits are given in USD. card_pin, which the official Go
// client's documentation sends, is another name for pin.
type patchSubnetRequest struct {
	Status     *SubnetStatus `json:"status"`
	StatusCode *string       `json:"status_code"`
	Pin        *string       `json:"pin"`
	CardPin    *string       `json:"card_pin"`
	Nickname   *string       `json:"nickname"`
	SuppID     *string       `json:"supp_id"`
	// Allowed is the v3.1.0 way to set the status, which synapse_pay_rest's
	// Subnet.lock sends: LOCKED is INACTIVE, CREDIT and CREDIT-AND-DEBIT are
	// ACTIVE.
	Allowed     *string `json:"allowed"`
	Preferences *struct {
		AllowCashTransactions    *bool    `json:"allow_cash_transactions"`
		AllowForeignTransactions *bool    `json:"allow_foreign_transactions"`
		DailyCashLimit           *float64 `json:"daily_cash_limit"`
		DailyTransactionLimit    *float64 `json:"daily_transaction_limit"`
	} `json:"preferences"`
}

// pin is the pin the request sets, from pin or card_pin; nil for none.
func (r patchSubnetRequest) pin() *string {
	if r.Pin != nil {
		return r.Pin
	}
	return r.CardPin
}

// subnetAllowed maps the v3.1.0 allowed values to statuses; each value a
// subnet reads in allowed is one it takes back.
var subnetAllowed = map[string]SubnetStatus{AllowedLocked: SubnetInactive, AllowedCreditAndDebit: SubnetActive, AllowedCredit: SubnetActive}

// status is the status the request sets, from status or allowed; nil for none.
func (r patchSubnetRequest) status() *SubnetStatus {
	if r.Status != nil || r.Allowed == nil {
		return r.Status
	}
	to, ok := subnetAllowed[*r.Allowed]
	if !ok {
		return nil
	}
	return &to
}

func (r patchSubnetRequest) validate() error {
	if r.Allowed != nil {
		if _, ok := subnetAllowed[*r.Allowed]; !ok {
			return apierr.Payload("invalid_allowed", "allowed must be %s, %s or %s.", AllowedLocked, AllowedCredit, AllowedCreditAndDebit)
		}
	}
	if r.Status != nil && !slices.Contains([]SubnetStatus{SubnetActive, SubnetInactive, SubnetTerminated}, *r.Status) {
		return apierr.Payload("invalid_status", "status must be ACTIVE, INACTIVE or TERMINATED.")
	}
	if p := r.pin(); p != nil && *p == "" {
		return apierr.Payload("invalid_pin", "pin must not be empty.")
	}
	if r.Nickname != nil && *r.Nickname == "" {
		return apierr.Payload("invalid_nickname", "nickname must not be empty.")
	}
	if p := r.Preferences; p != nil {
		for _, l := range []*float64{p.DailyCashLimit, p.DailyTransactionLimit} {
			if l != nil {
				if _, err := usdToCents(*l); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// changesNothing reports whether r names nothing to change.
func (r patchSubnetRequest) changesNothing() bool {
	return r.Status == nil && r.Allowed == nil && r.StatusCode == nil && r.pin() == nil && r.Nickname == nil && r.SuppID == nil && r.Preferences == nil
}

// broken lists the contract's rules r breaks that the sandbox took; the
// fake reads such a request as documented beside each.
func (r patchSubnetRequest) broken() []brokenRule {
	if r.changesNothing() { // the subnet as it is
		return []brokenRule{{"a PATCH names something to change",
			apierr.Payload("nothing_to_update", "Supply status, allowed, status_code, pin, nickname, supp_id or preferences.")}}
	}
	var out []brokenRule
	if r.Allowed != nil && r.Status != nil && subnetAllowed[*r.Allowed] != *r.Status { // status wins
		out = append(out, brokenRule{"status and allowed agree",
			apierr.Payload("conflicting_status", "status %s and allowed %s differ; send one of them.", *r.Status, *r.Allowed)})
	}
	if r.Pin != nil && r.CardPin != nil && *r.Pin != *r.CardPin { // pin wins
		out = append(out, brokenRule{"pin and card_pin agree", apierr.Payload("conflicting_pin", "pin and card_pin differ; send one of them.")})
	}
	if r.StatusCode != nil && !slices.Contains(subnetStatusCodes, *r.StatusCode) { // kept and shown as sent
		out = append(out, brokenRule{"status_code is one of " + strings.Join(subnetStatusCodes, ", "),
			apierr.Payload("invalid_status_code", "status_code must be one of %v.", subnetStatusCodes)})
	}
	out = append(out, blankNicknameRule(r.Nickname)...)
	if p := r.Preferences; p != nil {
		for _, l := range []*float64{p.DailyCashLimit, p.DailyTransactionLimit} {
			if l != nil && (*l < 0 || hasSubCents(*l)) { // rounded to the cent
				out = append(out, brokenRule{"limits are USD from 0, in whole cents",
					apierr.Payload("invalid_limit", "Limits are amounts from 0 USD with at most two decimals.")})
				break
			}
		}
	}
	return out
}

// handlePatchSubnet serves PATCH .../subnets/{subnet_id}.
func (s *Server) handlePatchSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeSubnetPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[patchSubnetRequest](r)
	if err == nil {
		err = s.strictRules(r, req.broken())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	strict := func(broken ...brokenRule) error { return s.strictRules(r, broken) }
	s.subnetAction(w, r, false, func(st *store, sn *subnetRecord) error { return st.patchSubnet(sn, now, req, strict) })
}

// The three wallet push types. The spec names them only as <PROVIDER>_PUSH
// for a first, second and third provider.
const (
	PushApple   = "APPLE_PUSH"
	PushGoogle  = "GOOGLE_PUSH"
	PushSamsung = "SAMSUNG_PUSH"
)

// pushRequest is the body of POST .../subnets/{subnet_id}/push.
type pushRequest struct {
	Type           *string  `json:"type"`
	Nonce          *string  `json:"nonce"`
	NonceSignature *string  `json:"nonce_signature"`
	Certificates   []string `json:"certificates"`
}

func (r pushRequest) validate() error {
	if r.Type == nil || !slices.Contains([]string{PushApple, PushGoogle, PushSamsung}, *r.Type) {
		return apierr.Payload("invalid_push_type", "type must be %s, %s or %s.", PushApple, PushGoogle, PushSamsung)
	}
	if *r.Type != PushApple {
		return nil
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"nonce", r.Nonce}, {"nonce_signature", r.NonceSignature}} {
		if f.v == nil || *f.v == "" {
			return apierr.Payload("missing_"+f.name, "%s is required for %s.", f.name, PushApple)
		}
	}
	return nil
}

// broken lists the spec's rules for an APPLE_PUSH body that r breaks,
// which no source says the service checked.
func (r pushRequest) broken() []brokenRule {
	if *r.Type != PushApple {
		return nil
	}
	for _, f := range []struct {
		name string
		v    string
	}{{"nonce", *r.Nonce}, {"nonce_signature", *r.NonceSignature}} {
		if _, err := base64.StdEncoding.DecodeString(f.v); err != nil {
			return []brokenRule{{f.name + " is base64", apierr.Payload("invalid_"+f.name, "%s must be base64.", f.name)}}
		}
	}
	if len(r.Certificates) != 2 || slices.Contains(r.Certificates, "") {
		return []brokenRule{{"certificates are 2 strings",
			apierr.Payload("invalid_certificates", "certificates must hold exactly 2 certificates for %s.", PushApple)}}
	}
	return nil
}

type pushAuthentication struct {
	ActivationData string `json:"activation_data"`
	EncryptedData  string `json:"encrypted_data"`
	PublicKey      string `json:"public_key"`
}

type pushResponse struct {
	Data struct {
		Authentication pushAuthentication `json:"authentication"`
	} `json:"data"`
	Error   struct{} `json:"error"`
	Success bool     `json:"success"`
}

// handlePushSubnet serves POST .../subnets/{subnet_id}/push: a provisioning
// token for an ACTIVE card, derived deterministically from the card and
// the request.
func (s *Server) handlePushSubnet(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true, userIP: true, scope: reference.ScopeSubnetPatch}); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[pushRequest](r)
	if err == nil {
		err = s.strictRules(r, req.broken())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	out, err := withStore(s.store, func(st *store) (pushResponse, error) {
		var out pushResponse
		sn, err := st.nodeSubnet(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"))
		switch {
		case err != nil:
			return out, err
		case sn.class != ClassCard:
			return out, apierr.NotAllowed("not_a_card", "Only cards can be pushed to a wallet.")
		case sn.status != SubnetActive:
			return out, apierr.NotAllowed("card_not_active", "Only ACTIVE cards can be pushed to a wallet; this one is %s.", sn.status)
		}
		seed := sn.id + "|" + *req.Type + "|" + deref(req.Nonce)
		out.Success = true
		out.Data.Authentication = pushAuthentication{
			ActivationData: derived(seed, "activation", 32),
			EncryptedData:  derived(seed, "encrypted", 96),
			PublicKey:      derived(seed, "public_key", 65),
		}
		return out, nil
	})
	if err != nil {
		s.fail(w, err)
		return
	}
	s.ok(w, out)
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// derived returns n deterministic bytes from seed and label, base64-encoded.
func derived(seed, label string, n int) string {
	var out []byte
	for i := byte(0); len(out) < n; i++ {
		h := sha256.Sum256([]byte{i})
		h = sha256.Sum256(append(append(h[:], seed...), label...))
		out = append(out, h[:]...)
	}
	return base64.StdEncoding.EncodeToString(out[:n])
}
