package bank

import (
	"maps"
	"slices"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// CreateNodeRequest is the body of POST /users/{user_id}/nodes: a node of
// any type, an ACH-US bank login (info.bank_id, bank_pw, bank_name), or the
// answer to a bank's MFA question (access_token, mfa_answer). Fields the
// fake does not know are ignored.
type CreateNodeRequest struct {
	Type  *string          `json:"type"`
	Info  *nodeInfoRequest `json:"info"`
	Extra struct {
		SuppID string         `json:"supp_id"`
		Note   *string        `json:"note"`
		Other  map[string]any `json:"other"`
	} `json:"extra"`
	AccessToken *string `json:"access_token"`
	MFAAnswer   *string `json:"mfa_answer"`

	RawInfo map[string]any `json:"-"` // info as sent, for the per-type required fields
}

// nodeInfoRequest is the info of a create-node body; each field is typed so
// that a known field of the wrong type is refused.
type nodeInfoRequest struct {
	Nickname      *string `json:"nickname"`
	AccountNum    string  `json:"account_num"`
	RoutingNum    string  `json:"routing_num"`
	Type          string  `json:"type"`
	Class         string  `json:"class"`
	DocumentID    *string `json:"document_id"`
	NameOnAccount *string `json:"name_on_account"`
	Address       *string `json:"address"`
	BankName      *string `json:"bank_name"`
	Swift         *string `json:"swift"`
	CardNumber    *string `json:"card_number"`
	ExpDate       *string `json:"exp_date"`
	CardType      *string `json:"card_type"`
	// CorrespondentInfo: WIRE-US and WIRE-INT, the intermediary bank.
	CorrespondentInfo *struct {
		Address    *string `json:"address"`
		BankName   *string `json:"bank_name"`
		RoutingNum *string `json:"routing_num"`
		Swift      *string `json:"swift"`
	} `json:"correspondent_info"`
	PayeeName    *string `json:"payee_name"`
	PayeeAddress *struct {
		Street      *string `json:"address_street"`
		City        *string `json:"address_city"`
		Subdivision *string `json:"address_subdivision"`
		CountryCode *string `json:"address_country_code"`
		PostalCode  *string `json:"address_postal_code"`
	} `json:"payee_address"`
	Balance *struct {
		Currency *string `json:"currency"`
	} `json:"balance"`
	BankID *string `json:"bank_id"`
	BankPW *string `json:"bank_pw"`
}

// IsBankLogin reports whether the body is an ACH-US bank login.
func (r CreateNodeRequest) IsBankLogin() bool {
	if r.Type == nil || *r.Type != reference.NodeACHUS || r.Info == nil {
		return false
	}
	return r.Info.BankID != nil || r.Info.BankPW != nil || r.Info.BankName != nil
}

// Validate refuses what the fake cannot make a node of (400 / "200", or an
// unknown bank: 409 / "400"); enf takes or refuses the contract's formats
// the sandbox took.
func (r CreateNodeRequest) Validate(enf Enforcer) error {
	if r.AccessToken != nil || r.MFAAnswer != nil {
		if r.AccessToken == nil || *r.AccessToken == "" {
			return apierr.Payload("missing_access_token", "access_token is required.")
		}
		if r.MFAAnswer == nil || *r.MFAAnswer == "" {
			return apierr.Payload("missing_mfa_answer", "mfa_answer is required.")
		}
		return nil
	}
	if r.Type == nil || *r.Type == "" {
		return apierr.Payload("missing_type", "type is required.")
	}
	nt, ok := reference.LookupNodeType(*r.Type)
	if !ok {
		return apierr.Payload("invalid_node_type", "Unsupported node type %q.", *r.Type)
	}
	if r.IsBankLogin() {
		for _, f := range []struct {
			name string
			v    *string
		}{{"bank_id", r.Info.BankID}, {"bank_pw", r.Info.BankPW}, {"bank_name", r.Info.BankName}} {
			if f.v == nil || *f.v == "" {
				return apierr.Payload("missing_"+f.name, "info.%s is required.", f.name)
			}
		}
		return nil
	}
	if r.Info == nil || r.Info.Nickname == nil || *r.Info.Nickname == "" {
		return apierr.Payload("missing_nickname", "info.nickname is required.")
	}
	if err := validNickname("info.nickname", *r.Info.Nickname); err != nil {
		return err
	}
	if *r.Type == reference.NodeACHUS {
		if r.Info.AccountNum == "" {
			return apierr.Payload("invalid_account_num", "info.account_num must be 4 to 17 digits.")
		}
		if r.Info.RoutingNum == "" {
			return apierr.Payload("invalid_routing_num", "info.routing_num must be 9 digits.")
		}
		if err := enf.Enforce(r.achRule()); err != nil {
			return err
		}
		if !validRoutingNumber(r.Info.RoutingNum) {
			return apierr.Incorrect("unknown_routing_number", "Routing number %s is not a known bank.", r.Info.RoutingNum)
		}
		return nil
	}
	for _, path := range nt.RequiredInfo {
		s, ok := infoString(r.RawInfo, path)
		if alt := infoAlternatives[[2]string{reference.BaseNodeType(nt.Type), path}]; (!ok || s == "") && alt != "" {
			s, ok = infoString(r.RawInfo, alt)
		}
		if !ok || s == "" {
			return apierr.Payload("missing_info", "info.%s is required for a %s node.", path, nt.Type)
		}
	}
	if *r.Type == reference.NodeWireUS && !validRoutingNumber(r.Info.RoutingNum) {
		return apierr.Incorrect("unknown_routing_number", "Routing number %s is not a known bank.", r.Info.RoutingNum)
	}
	return nil
}

// achRule is the first format an ACH-US node's info breaks that the sandbox
// took: the account is kept and shown as sent, and a routing number of
// another length is an unknown bank (409 / "400").
func (r CreateNodeRequest) achRule() BrokenRule {
	switch in := r.Info; {
	case !validACHAccountNum(in.AccountNum):
		return BrokenRule{"info.account_num is 4 to 17 digits", apierr.Payload("invalid_account_num", "info.account_num must be 4 to 17 digits.")}
	case !AllDigits(in.RoutingNum) || len(in.RoutingNum) != 9:
		return BrokenRule{"info.routing_num is 9 digits", apierr.Payload("invalid_routing_num", "info.routing_num must be 9 digits.")}
	case in.Type != "" && in.Type != "PERSONAL" && in.Type != "BUSINESS":
		return BrokenRule{"info.type is PERSONAL or BUSINESS", apierr.Payload("invalid_account_type", "info.type must be PERSONAL or BUSINESS.")}
	case in.Class != "" && in.Class != "CHECKING" && in.Class != "SAVINGS":
		return BrokenRule{"info.class is CHECKING or SAVINGS", apierr.Payload("invalid_account_class", "info.class must be CHECKING or SAVINGS.")}
	}
	return BrokenRule{}
}

// AllDigits reports whether s is not empty and holds only the digits 0-9.
func AllDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// PatchNodeRequest is the body of PATCH /users/{user_id}/nodes/{node_id},
// with the query parameters resend_micro, ship and reset (reorder_card and
// reissue_card) folded in. Fields
// the fake does not know (a shipment's fee_node_id, expedite...) are
// accepted and ignored.
type PatchNodeRequest struct {
	Nickname *string `json:"nickname"`
	SuppID   *string `json:"supp_id"`
	Info     *struct {
		Nickname *string `json:"nickname"`
	} `json:"info"`
	Extra *struct {
		SuppID *string `json:"supp_id"`
		Note   *string `json:"note"`
	} `json:"extra"`
	Allowed     *string                 `json:"allowed"`
	Micro       []float64               `json:"micro"`
	ResendMicro *string                 `json:"resend_micro"`
	Preferences *cardPreferencesRequest `json:"preferences"`

	Ship, Reset bool `json:"-"` // ?ship=YES, ?reset=YES
	Reissue     bool `json:"-"` // ?reissue_card=YES: a reset that leaves the card INACTIVE
}

// cardPreferencesRequest is the preferences of a CARD-US node's PATCH, as
// synapse_pay_rest's CardUsNode.update_preferences sends them. Limits are
// in USD, shown as sent.
type cardPreferencesRequest struct {
	AllowForeignTransactions *bool    `json:"allow_foreign_transactions"`
	ATMWithdrawalLimit       *float64 `json:"atm_withdrawal_limit"`
	MaxPinAttempts           *int     `json:"max_pin_attempts"`
	POSWithdrawalLimit       *float64 `json:"pos_withdrawal_limit"`
	SecurityAlerts           *bool    `json:"security_alerts"`
}

// brokenRule is the first rule the preferences break that the sandbox took:
// an empty object changes nothing, and limits are kept as sent.
func (p cardPreferencesRequest) brokenRule() BrokenRule {
	if p.AllowForeignTransactions == nil && p.ATMWithdrawalLimit == nil && p.MaxPinAttempts == nil &&
		p.POSWithdrawalLimit == nil && p.SecurityAlerts == nil {
		return BrokenRule{"preferences names a preference", apierr.Payload("nothing_to_update", "preferences must name at least one preference.")}
	}
	for _, l := range []struct {
		name string
		v    *float64
	}{{"atm_withdrawal_limit", p.ATMWithdrawalLimit}, {"pos_withdrawal_limit", p.POSWithdrawalLimit}} {
		if l.v != nil && *l.v < 0 {
			return BrokenRule{"preferences." + l.name + " is not negative", apierr.Payload("invalid_preferences", "preferences.%s must not be negative.", l.name)}
		}
	}
	if p.MaxPinAttempts != nil && *p.MaxPinAttempts < 1 {
		return BrokenRule{"preferences.max_pin_attempts is at least 1", apierr.Payload("invalid_preferences", "preferences.max_pin_attempts must be at least 1.")}
	}
	return BrokenRule{}
}

// applied is the preferences map prefs with p's changes, a new map.
func (p cardPreferencesRequest) applied(prefs map[string]any) map[string]any {
	out := maps.Clone(prefs)
	if out == nil {
		out = map[string]any{}
	}
	for k, v := range map[string]any{"allow_foreign_transactions": p.AllowForeignTransactions, "atm_withdrawal_limit": p.ATMWithdrawalLimit,
		"max_pin_attempts": p.MaxPinAttempts, "pos_withdrawal_limit": p.POSWithdrawalLimit, "security_alerts": p.SecurityAlerts} {
		switch v := v.(type) {
		case *bool:
			if v != nil {
				out[k] = *v
			}
		case *float64:
			if v != nil {
				out[k] = *v
			}
		case *int:
			if v != nil {
				out[k] = *v
			}
		}
	}
	return out
}

// Validate refuses what the fake cannot store (400 / "200"); enf takes or
// refuses the contract's rules the sandbox took: a PATCH that changes
// nothing answers the node as it is, and an empty nickname is stored.
func (r PatchNodeRequest) Validate(enf Enforcer) error {
	if r.Nickname == nil && r.SuppID == nil && r.Info == nil && r.Extra == nil && r.Micro == nil &&
		r.ResendMicro == nil && r.Allowed == nil && r.Preferences == nil && !r.Ship && !r.Reset {
		err := apierr.Payload("nothing_to_update", "Supply nickname, supp_id, info, extra, allowed, preferences or micro, or ship, reset or resend_micro.")
		if err := enf.Enforce(BrokenRule{"a PATCH of a node names something to change", err}); err != nil {
			return err
		}
	}
	if r.Preferences != nil {
		if err := enf.Enforce(r.Preferences.brokenRule()); err != nil {
			return err
		}
	}
	if r.Nickname != nil && *r.Nickname == "" || r.Info != nil && r.Info.Nickname != nil && *r.Info.Nickname == "" {
		if err := enf.Enforce(BrokenRule{"nickname is not empty", apierr.Payload("invalid_nickname", "nickname must not be empty.")}); err != nil {
			return err
		}
	}
	if r.Nickname != nil {
		if err := validNickname("nickname", *r.Nickname); err != nil {
			return err
		}
	}
	if r.Info != nil && r.Info.Nickname != nil {
		if err := validNickname("info.nickname", *r.Info.Nickname); err != nil {
			return err
		}
	}
	if r.Micro != nil && len(r.Micro) != 2 {
		return apierr.Payload("invalid_micro", "micro must hold the two micro-deposit amounts.")
	}
	if r.Allowed != nil && !slices.Contains(cardAllowed, *r.Allowed) {
		return apierr.Payload("invalid_allowed", "allowed must be one of %s.", strings.Join(cardAllowed, ", "))
	}
	return nil
}

// changesNothing reports whether the PATCH names nothing to change (an
// empty preferences object included): the node is answered as it is, with
// no webhook.
func (r PatchNodeRequest) changesNothing() bool {
	p := r.Preferences
	return r.Nickname == nil && r.SuppID == nil && r.Info == nil && r.Extra == nil && r.Micro == nil &&
		r.ResendMicro == nil && r.Allowed == nil && !r.Ship && !r.Reset &&
		(p == nil || p.AllowForeignTransactions == nil && p.ATMWithdrawalLimit == nil && p.MaxPinAttempts == nil &&
			p.POSWithdrawalLimit == nil && p.SecurityAlerts == nil)
}

// validACHAccountNum reports whether s is an ACH-US account number: 4 to 17
// digits.
func validACHAccountNum(s string) bool { return AllDigits(s) && len(s) >= 4 && len(s) <= 17 }

// NodesList is the wrapper of GET /users/{user_id}/nodes and of the answer
// to POST /users/{user_id}/nodes (which the real service sent without page).
type NodesList struct {
	ErrorCode string     `json:"error_code"`
	HTTPCode  string     `json:"http_code"`
	Limit     int        `json:"limit"`
	NodeCount int        `json:"node_count"`
	Nodes     []NodeView `json:"nodes"`
	Page      *int       `json:"page,omitempty"`
	PageCount int        `json:"page_count"`
	Success   bool       `json:"success"`
}

// infoAlternatives are the info fields that stand in for a required one
// missing, by node type and path: the provider's Ruby integration suite
// created WIRE-US nodes with correspondent_info.address and no address.
var infoAlternatives = map[[2]string]string{
	{reference.NodeWireUS, "address"}: "correspondent_info.address",
}

// infoString reads the string at a dotted path of info.
func infoString(info map[string]any, path string) (string, bool) {
	m := info
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		m, _ = m[k].(map[string]any)
	}
	s, ok := m[keys[len(keys)-1]].(string)
	return s, ok
}

// cardAllowed are the values PATCH may give a CARD-US node's allowed: every
// value the spec's FIDELITY.md lists for a node's allowed (INACTIVE when the card is
// misplaced, LOCKED when it is lost, PENDING as the provider's Ruby
// integration suite set and read back). Only those with DEBIT send.
var cardAllowed = []string{AllowedCreditAndDebit, AllowedCredit, AllowedDebit, AllowedPending, AllowedInactive, AllowedLocked, AllowedRejected}
