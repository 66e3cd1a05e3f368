package bank

import (
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// CreateSubnetRequest is the body of POST .../nodes/{node_id}/subnets.
type CreateSubnetRequest struct {
	Nickname     *string `json:"nickname"`
	AccountClass string  `json:"account_class"`
	SuppID       *string `json:"supp_id"`
	CardStyleID  *string `json:"card_style_id"`
}

// class is the requested account class; DEBIT_CARD, which the official Go
// client sends, is a CARD.
func (r CreateSubnetRequest) class() string {
	switch r.AccountClass {
	case "":
		return ClassChecking
	case "DEBIT_CARD":
		return ClassCard
	}
	return r.AccountClass
}

// Validate checks the body's payload rules: a nickname and a known
// account_class.
func (r CreateSubnetRequest) Validate() error {
	if r.Nickname == nil || *r.Nickname == "" {
		return apierr.Payload("missing_nickname", "nickname is required.")
	}
	if !slices.Contains([]string{ClassChecking, ClassSavings, ClassCard}, r.class()) {
		return apierr.Payload("invalid_account_class", "account_class must be CHECKING, SAVINGS or CARD.")
	}
	return nil
}

// Broken lists the contract's rules r breaks that the sandbox took.
func (r CreateSubnetRequest) Broken() []BrokenRule {
	return blankNicknameRule(r.Nickname)
}

// blankNicknameRule is the fake's rule that a nickname is not blank, which
// no source says the service checked: one of spaces is taken.
func blankNicknameRule(nickname *string) []BrokenRule {
	if nickname == nil || strings.TrimSpace(*nickname) != "" {
		return nil
	}
	return []BrokenRule{{"nickname is not blank", apierr.Payload("invalid_nickname", "nickname must not be blank.")}}
}

// PatchSubnetRequest is the body of PATCH .../subnets/{subnet_id}.
// Preference limits are given in USD. card_pin, which the official Go
// client's documentation sends, is another name for pin.
type PatchSubnetRequest struct {
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
func (r PatchSubnetRequest) pin() *string {
	if r.Pin != nil {
		return r.Pin
	}
	return r.CardPin
}

// status is the status the request sets, from status or allowed; nil for none.
func (r PatchSubnetRequest) status() *SubnetStatus {
	if r.Status != nil || r.Allowed == nil {
		return r.Status
	}
	to, ok := subnetAllowed[*r.Allowed]
	if !ok {
		return nil
	}
	return &to
}

// Validate checks the body's payload rules: known allowed and status values
// and no empty pin or nickname; the preferences' limits must be USD amounts.
func (r PatchSubnetRequest) Validate() error {
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
func (r PatchSubnetRequest) changesNothing() bool {
	return r.Status == nil && r.Allowed == nil && r.StatusCode == nil && r.pin() == nil && r.Nickname == nil && r.SuppID == nil && r.Preferences == nil
}

// Broken lists the contract's rules r breaks that the sandbox took; the
// fake reads such a request as documented beside each.
func (r PatchSubnetRequest) Broken() []BrokenRule {
	if r.changesNothing() { // the subnet as it is
		return []BrokenRule{{"a PATCH names something to change",
			apierr.Payload("nothing_to_update", "Supply status, allowed, status_code, pin, nickname, supp_id or preferences.")}}
	}
	var out []BrokenRule
	if r.Allowed != nil && r.Status != nil && subnetAllowed[*r.Allowed] != *r.Status { // status wins
		out = append(out, BrokenRule{"status and allowed agree",
			apierr.Payload("conflicting_status", "status %s and allowed %s differ; send one of them.", *r.Status, *r.Allowed)})
	}
	if r.Pin != nil && r.CardPin != nil && *r.Pin != *r.CardPin { // pin wins
		out = append(out, BrokenRule{"pin and card_pin agree", apierr.Payload("conflicting_pin", "pin and card_pin differ; send one of them.")})
	}
	if r.StatusCode != nil && !slices.Contains(subnetStatusCodes, *r.StatusCode) { // kept and shown as sent
		out = append(out, BrokenRule{"status_code is one of " + strings.Join(subnetStatusCodes, ", "),
			apierr.Payload("invalid_status_code", "status_code must be one of %v.", subnetStatusCodes)})
	}
	out = append(out, blankNicknameRule(r.Nickname)...)
	if p := r.Preferences; p != nil {
		for _, l := range []*float64{p.DailyCashLimit, p.DailyTransactionLimit} {
			if l != nil && (*l < 0 || hasSubCents(*l)) { // rounded to the cent
				out = append(out, BrokenRule{"limits are USD from 0, in whole cents",
					apierr.Payload("invalid_limit", "Limits are amounts from 0 USD with at most two decimals.")})
				break
			}
		}
	}
	return out
}

// PushRequest is the body of POST .../subnets/{subnet_id}/push.
type PushRequest struct {
	Type           *string  `json:"type"`
	Nonce          *string  `json:"nonce"`
	NonceSignature *string  `json:"nonce_signature"`
	Certificates   []string `json:"certificates"`
}

// Validate checks the body's payload rules: a known type and, for
// APPLE_PUSH, a nonce and a nonce_signature.
func (r PushRequest) Validate() error {
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

// Broken lists the spec's rules for an APPLE_PUSH body that r breaks,
// which no source says the service checked.
func (r PushRequest) Broken() []BrokenRule {
	if *r.Type != PushApple {
		return nil
	}
	for _, f := range []struct {
		name string
		v    string
	}{{"nonce", *r.Nonce}, {"nonce_signature", *r.NonceSignature}} {
		if _, err := base64.StdEncoding.DecodeString(f.v); err != nil {
			return []BrokenRule{{f.name + " is base64", apierr.Payload("invalid_"+f.name, "%s must be base64.", f.name)}}
		}
	}
	if len(r.Certificates) != 2 || slices.Contains(r.Certificates, "") {
		return []BrokenRule{{"certificates are 2 strings",
			apierr.Payload("invalid_certificates", "certificates must hold exactly 2 certificates for %s.", PushApple)}}
	}
	return nil
}

// Deref returns the string p points to, "" for nil.
func Deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Derived returns n deterministic bytes from seed and label, base64-encoded.
func Derived(seed, label string, n int) string {
	var out []byte
	for i := byte(0); len(out) < n; i++ {
		h := sha256.Sum256([]byte{i})
		h = sha256.Sum256(append(append(h[:], seed...), label...))
		out = append(out, h[:]...)
	}
	return base64.StdEncoding.EncodeToString(out[:n])
}

// subnetAllowed maps the v3.1.0 allowed values to statuses; each value a
// subnet reads in allowed is one it takes back.
var subnetAllowed = map[string]SubnetStatus{AllowedLocked: SubnetInactive, AllowedCreditAndDebit: SubnetActive, AllowedCredit: SubnetActive}
