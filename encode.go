package synapsefake

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// jsonAppender is a view that appends its own JSON: byte for byte what
// encoding/json writes for it (field order, escaping, numbers), without
// reflection. TestAppendJSONIsEncodingJSON holds each to that.
type jsonAppender interface {
	appendJSON(b []byte) ([]byte, error)
}

// appendJSONString appends s as encoding/json writes a string, HTML
// characters escaped. Plain ASCII goes as it is; anything else is left to
// encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plainJSON[s[i]] {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plainJSON are the bytes encoding/json writes as they are in a string:
// printable ASCII but for the quote, the backslash and <, > and &.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONList appends list as encoding/json writes a slice: null when
// nil, else each element as each appends it.
func appendJSONList[E any](b []byte, list []E, each func([]byte, *E) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, &list[i])
	}
	return append(b, ']')
}

// appendJSONStrings appends a string slice: null when nil.
func appendJSONStrings(b []byte, ss []string) []byte {
	return appendJSONList(b, ss, func(b []byte, s *string) []byte { return appendJSONString(b, *s) })
}

// appendJSONStringPtr appends *s, or null.
func appendJSONStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

// appendJSONFloat appends f as encoding/json writes a float64; a positive
// zero is written here, any other number by encoding/json.
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.Float64bits(f) == 0 {
		return append(b, '0'), nil
	}
	return appendJSONAny(b, f)
}

// appendJSONFloats appends a float64 slice: null when nil.
func appendJSONFloats(b []byte, fs []float64) ([]byte, error) {
	if fs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	var err error
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendJSONFloat(b, f); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// appendJSONFloatPtr appends *f, or null.
func appendJSONFloatPtr(b []byte, f *float64) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	return appendJSONFloat(b, *f)
}

// appendJSONObject appends a map of any: an empty one as {}, others by
// encoding/json (keys sorted).
func appendJSONObject(b []byte, m map[string]any) ([]byte, error) {
	switch {
	case m == nil:
		return append(b, "null"...), nil
	case len(m) == 0:
		return append(b, "{}"...), nil
	}
	return appendJSONAny(b, m)
}

// appendJSONAny appends v as encoding/json writes it.
func appendJSONAny(b []byte, v any) ([]byte, error) {
	q, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, q...), nil
}

// appendJSON appends c as its MarshalJSON writes it.
func (c cents) appendJSON(b []byte) []byte {
	return strconv.AppendFloat(b, float64(c)/100, 'f', -1, 64)
}

func appendJSONBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// appendJSON appends t's JSON.
func (t *txView) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"_id":`...)
	b = appendJSONString(b, t.ID)
	b = append(b, `,"_links":{"self":{"href":`...)
	b = appendJSONString(b, t.Links.Self.Href)
	b = append(b, `}},"_v":`...)
	b = strconv.AppendInt(b, int64(t.V), 10)
	b = append(b, `,"amount":{"amount":`...)
	b = t.Amount.Amount.appendJSON(b)
	b = append(b, `,"currency":`...)
	b = appendJSONString(b, t.Amount.Currency)
	b = append(b, `},"client":{"id":`...)
	b = appendJSONString(b, t.Client.ID)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, t.Client.Name)
	b = append(b, `},"extra":`...)
	if b, err = t.Extra.appendJSON(b); err != nil {
		return b, err
	}
	b = append(b, `,"fees":`...)
	b = appendJSONList(b, t.Fees, func(b []byte, f *feeView) []byte {
		b = append(b, `{"fee":`...)
		b = f.Fee.appendJSON(b)
		b = append(b, `,"note":`...)
		b = appendJSONString(b, f.Note)
		b = append(b, `,"to":{"id":`...)
		b = appendJSONString(b, f.To.ID)
		return append(b, `}}`...)
	})
	b = append(b, `,"from":`...)
	if b, err = t.From.appendJSON(b); err != nil {
		return b, err
	}
	b = append(b, `,"recent_status":{`...)
	rs := &t.RecentStatus
	if rs.Code != nil {
		b = append(b, `"code":`...)
		b = appendJSONString(b, *rs.Code)
		b = append(b, ',')
	}
	b = appendStatusFields(b, rs.Date, rs.Note, rs.Status, rs.StatusID)
	b = append(b, `},"timeline":`...)
	b = appendJSONList(b, t.Timeline, func(b []byte, e *statusView) []byte {
		b = append(b, '{')
		b = appendStatusFields(b, e.Date, e.Note, e.Status, e.StatusID)
		return append(b, '}')
	})
	b = append(b, `,"to":`...)
	if b, err = t.To.appendJSON(b); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

// appendStatusFields appends the fields a timeline entry and
// recent_status share.
func appendStatusFields(b []byte, date int64, note string, status Status, statusID string) []byte {
	b = append(b, `"date":`...)
	b = strconv.AppendInt(b, date, 10)
	b = append(b, `,"note":`...)
	b = appendJSONString(b, note)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, string(status))
	b = append(b, `,"status_id":`...)
	return appendJSONString(b, statusID)
}

// appendJSON appends p's JSON.
func (p *partyView) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"id":`...)
	b = appendJSONString(b, p.ID)
	if len(p.Meta) > 0 {
		b = append(b, `,"meta":`...)
		if b, err = appendJSONObject(b, p.Meta); err != nil {
			return b, err
		}
	}
	b = append(b, `,"nickname":`...)
	b = appendJSONString(b, p.Nickname)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, p.Type)
	b = append(b, `,"user":{"_id":`...)
	b = appendJSONString(b, p.User.ID)
	b = append(b, `,"legal_names":`...)
	b = appendJSONStrings(b, p.User.LegalNames)
	return append(b, `}}`...), nil
}

// appendJSON appends x's JSON.
func (x *txExtraView) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"asset":`...)
	b = appendJSONStringPtr(b, x.Asset)
	b = append(b, `,"created_on":`...)
	b = strconv.AppendInt(b, x.CreatedOn, 10)
	b = append(b, `,"encrypted_note":`...)
	b = appendJSONString(b, x.EncryptedNote)
	b = append(b, `,"filename":`...)
	b = appendJSONStringPtr(b, x.Filename)
	b = append(b, `,"group_id":`...)
	b = appendJSONStringPtr(b, x.GroupID)
	b = append(b, `,"ip":`...)
	b = appendJSONString(b, x.IP)
	b = append(b, `,"latlon":`...)
	b = appendJSONString(b, x.Latlon)
	l := &x.Location
	b = append(b, `,"location":{"address_city":`...)
	b = appendJSONString(b, l.AddressCity)
	b = append(b, `,"address_country_code":`...)
	b = appendJSONString(b, l.AddressCountryCode)
	b = append(b, `,"address_postal_code":`...)
	b = appendJSONString(b, l.AddressPostalCode)
	b = append(b, `,"address_subdivision":`...)
	b = appendJSONString(b, l.AddressSubdivision)
	b = append(b, `,"lat":`...)
	if b, err = appendJSONFloat(b, l.Lat); err != nil {
		return b, err
	}
	b = append(b, `,"lon":`...)
	if b, err = appendJSONFloat(b, l.Lon); err != nil {
		return b, err
	}
	b = append(b, `},"note":`...)
	b = appendJSONString(b, x.Note)
	b = append(b, `,"other":`...)
	if b, err = appendJSONObject(b, x.Other); err != nil {
		return b, err
	}
	b = append(b, `,"process_on":`...)
	b = strconv.AppendInt(b, x.ProcessOn, 10)
	b = append(b, `,"rate":`...)
	if b, err = appendJSONFloatPtr(b, x.Rate); err != nil {
		return b, err
	}
	b = append(b, `,"rate_limit":`...)
	if b, err = appendJSONFloatPtr(b, x.RateLimit); err != nil {
		return b, err
	}
	b = append(b, `,"same_day":`...)
	b = appendJSONBool(b, x.SameDay)
	b = append(b, `,"settlement_delay":`...)
	b = strconv.AppendInt(b, int64(x.SettlementDelay), 10)
	b = append(b, `,"supp_id":`...)
	b = appendJSONString(b, x.SuppID)
	b = append(b, `,"tracking_number":`...)
	b = appendJSONStringPtr(b, x.TrackingNumber)
	m := &x.TxpMeta
	b = append(b, `,"txp_meta":{"amount_types":`...)
	b = appendJSONStrings(b, m.AmountTypes)
	b = append(b, `,"amounts":`...)
	if b, err = appendJSONFloats(b, m.Amounts); err != nil {
		return b, err
	}
	b = append(b, `,"payment_code":`...)
	b = appendJSONString(b, m.PaymentCode)
	b = append(b, `,"tax_period_end_date":`...)
	b = appendJSONString(b, m.TaxPeriodEndDate)
	b = append(b, `,"taxpayer_verification":`...)
	b = appendJSONString(b, m.TaxpayerVerification)
	b = append(b, `,"tin":`...)
	b = appendJSONString(b, m.Tin)
	return append(b, `}}`...), nil
}

// appendJSON appends n's JSON.
func (n nodeView) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"_id":`...)
	b = appendJSONString(b, n.ID)
	b = append(b, `,"_links":{"self":{"href":`...)
	b = appendJSONString(b, n.Links.Self.Href)
	b = append(b, `}},"allowed":`...)
	b = appendJSONString(b, n.Allowed)
	b = append(b, `,"allowed_status_code":`...)
	b = appendJSONStringPtr(b, n.AllowedStatusCode)
	b = append(b, `,"client":{"id":`...)
	b = appendJSONString(b, n.Client.ID)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, n.Client.Name)
	b = append(b, `},"extra":{"note":`...)
	b = appendJSONStringPtr(b, n.Extra.Note)
	b = append(b, `,"other":`...)
	if b, err = appendJSONObject(b, n.Extra.Other); err != nil {
		return b, err
	}
	b = append(b, `,"supp_id":`...)
	b = appendJSONString(b, n.Extra.SuppID)
	b = append(b, `},"info":`...)
	switch info := n.Info.(type) {
	case nodeInfo:
		b = info.appendJSON(b)
	case achNodeInfo:
		b = info.appendJSON(b)
	default:
		if b, err = appendJSONAny(b, info); err != nil {
			return b, err
		}
	}
	b = append(b, `,"is_active":`...)
	b = appendJSONBool(b, n.IsActive)
	b = append(b, `,"timeline":`...)
	b = appendJSONList(b, n.Timeline, func(b []byte, e *nodeEvent) []byte {
		b = append(b, `{"date":`...)
		b = strconv.AppendInt(b, e.Date, 10)
		b = append(b, `,"note":`...)
		b = appendJSONString(b, e.Note)
		return append(b, '}')
	})
	b = append(b, `,"type":`...)
	b = appendJSONString(b, n.Type)
	b = append(b, `,"user_id":`...)
	b = appendJSONString(b, n.UserID)
	return append(b, '}'), nil
}

// appendJSON appends i's JSON.
func (i nodeInfo) appendJSON(b []byte) []byte {
	b = append(b, `{"agreements":`...)
	b = appendJSONList(b, i.Agreements, func(b []byte, a *agreement) []byte {
		b = append(b, `{"type":`...)
		b = appendJSONString(b, a.Type)
		b = append(b, `,"url":`...)
		b = appendJSONString(b, a.URL)
		return append(b, '}')
	})
	b = append(b, `,"balance":{"amount":`...)
	b = i.Balance.Amount.appendJSON(b)
	b = append(b, `,"currency":`...)
	b = appendJSONString(b, i.Balance.Currency)
	b = append(b, `},"bank_code":`...)
	b = appendJSONString(b, i.BankCode)
	b = append(b, `,"document_id":`...)
	b = appendJSONStringPtr(b, i.DocumentID)
	b = append(b, `,"name_on_account":`...)
	b = appendJSONString(b, i.NameOnAccount)
	b = append(b, `,"nickname":`...)
	b = appendJSONString(b, i.Nickname)
	if i.MonthlyWithdrawalsRemaining != nil {
		b = append(b, `,"monthly_withdrawals_remaining":`...)
		b = strconv.AppendInt(b, int64(*i.MonthlyWithdrawalsRemaining), 10)
	}
	return append(b, '}')
}

// appendJSON appends i's JSON.
func (i achNodeInfo) appendJSON(b []byte) []byte {
	b = append(b, `{"account_num":`...)
	b = appendJSONString(b, i.AccountNum)
	b = append(b, `,"address":`...)
	b = appendJSONString(b, i.Address)
	b = append(b, `,"balance":{"amount":`...)
	b = appendJSONString(b, i.Balance.Amount)
	b = append(b, `,"currency":`...)
	b = appendJSONString(b, i.Balance.Currency)
	b = append(b, `},"bank_logo":`...)
	b = appendJSONString(b, i.BankLogo)
	b = append(b, `,"bank_long_name":`...)
	b = appendJSONString(b, i.BankLongName)
	b = append(b, `,"bank_name":`...)
	b = appendJSONString(b, i.BankName)
	b = append(b, `,"class":`...)
	b = appendJSONString(b, i.Class)
	b = append(b, `,"match_info":{"email_match":`...)
	b = appendJSONString(b, i.MatchInfo.EmailMatch)
	b = append(b, `,"name_match":`...)
	b = appendJSONString(b, i.MatchInfo.NameMatch)
	b = append(b, `,"phonenumber_match":`...)
	b = appendJSONString(b, i.MatchInfo.PhonenumberMatch)
	b = append(b, `},"name_on_account":`...)
	b = appendJSONString(b, i.NameOnAccount)
	b = append(b, `,"nickname":`...)
	b = appendJSONString(b, i.Nickname)
	b = append(b, `,"routing_num":`...)
	b = appendJSONString(b, i.RoutingNum)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, i.Type)
	return append(b, '}')
}

// appendJSON appends u's JSON.
func (u userView) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"_id":`...)
	b = appendJSONString(b, u.ID)
	b = append(b, `,"_links":{"self":{"href":`...)
	b = appendJSONString(b, u.Links.Self.Href)
	b = append(b, `}},"client":{"id":`...)
	b = appendJSONString(b, u.Client.ID)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, u.Client.Name)
	b = append(b, `},"doc_status":{"physical_doc":`...)
	b = appendJSONString(b, u.DocStatus.PhysicalDoc)
	b = append(b, `,"virtual_doc":`...)
	b = appendJSONString(b, u.DocStatus.VirtualDoc)
	b = append(b, `},"documents":`...)
	switch {
	case u.Documents == nil:
		b = append(b, "null"...)
	case len(u.Documents) == 0:
		b = append(b, "[]"...)
	default:
		if b, err = appendJSONAny(b, u.Documents); err != nil {
			return b, err
		}
	}
	b = append(b, `,"emails":`...)
	b = appendJSONStrings(b, u.Emails)
	x := &u.Extra
	b = append(b, `,"extra":{"cip_tag":`...)
	b = strconv.AppendInt(b, int64(x.CipTag), 10)
	b = append(b, `,"date_joined":`...)
	b = strconv.AppendInt(b, x.DateJoined, 10)
	b = append(b, `,"extra_security":`...)
	b = appendJSONBool(b, x.ExtraSecurity)
	b = append(b, `,"is_business":`...)
	b = appendJSONBool(b, x.IsBusiness)
	b = append(b, `,"last_updated":`...)
	b = strconv.AppendInt(b, x.LastUpdated, 10)
	b = append(b, `,"public_note":`...)
	b = appendJSONStringPtr(b, x.PublicNote)
	b = append(b, `,"supp_id":`...)
	b = appendJSONString(b, x.SuppID)
	b = append(b, `},"is_hidden":`...)
	b = appendJSONBool(b, u.IsHidden)
	b = append(b, `,"legal_names":`...)
	b = appendJSONStrings(b, u.LegalNames)
	b = append(b, `,"logins":`...)
	b = appendJSONList(b, u.Logins, func(b []byte, l *loginView) []byte {
		b = append(b, `{"email":`...)
		b = appendJSONString(b, l.Email)
		b = append(b, `,"scope":`...)
		b = appendJSONString(b, l.Scope)
		return append(b, '}')
	})
	b = append(b, `,"permission":`...)
	b = appendJSONString(b, u.Permission)
	b = append(b, `,"phone_numbers":`...)
	b = appendJSONStrings(b, u.PhoneNumbers)
	b = append(b, `,"photos":`...)
	b = appendJSONStrings(b, u.Photos)
	if u.RefreshToken != "" {
		b = append(b, `,"refresh_token":`...)
		b = appendJSONString(b, u.RefreshToken)
	}
	return append(b, '}'), nil
}
