package bank

import (
	"strconv"

	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// The views below append their own JSON (they are jsonx.Appenders, but for
// the parts that only ever sit inside one): byte for byte what encoding/json
// writes for them. TestAppendJSONIsEncodingJSON holds each to that.

// AppendJSON appends c as its MarshalJSON writes it.
func (c Cents) AppendJSON(b []byte) []byte {
	return strconv.AppendFloat(b, float64(c)/100, 'f', -1, 64)
}

// AppendJSON appends t's JSON.
func (t *TxView) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"_id":`...)
	b = jsonx.AppendString(b, t.ID)
	b = append(b, `,"_links":{"self":{"href":`...)
	b = jsonx.AppendString(b, t.Links.Self.Href)
	b = append(b, `}},"_v":`...)
	b = strconv.AppendInt(b, int64(t.V), 10)
	b = append(b, `,"amount":{"amount":`...)
	b = t.Amount.Amount.AppendJSON(b)
	b = append(b, `,"currency":`...)
	b = jsonx.AppendString(b, t.Amount.Currency)
	b = append(b, `},"client":{"id":`...)
	b = jsonx.AppendString(b, t.Client.ID)
	b = append(b, `,"name":`...)
	b = jsonx.AppendString(b, t.Client.Name)
	b = append(b, `},"extra":`...)
	if b, err = t.Extra.AppendJSON(b); err != nil {
		return b, err
	}
	b = append(b, `,"fees":`...)
	b = jsonx.AppendList(b, t.Fees, func(b []byte, f *feeView) []byte {
		b = append(b, `{"fee":`...)
		b = f.Fee.AppendJSON(b)
		b = append(b, `,"note":`...)
		b = jsonx.AppendString(b, f.Note)
		b = append(b, `,"to":{"id":`...)
		b = jsonx.AppendString(b, f.To.ID)
		return append(b, `}}`...)
	})
	b = append(b, `,"from":`...)
	if b, err = t.From.AppendJSON(b); err != nil {
		return b, err
	}
	b = append(b, `,"recent_status":{`...)
	rs := &t.RecentStatus
	if rs.Code != nil {
		b = append(b, `"code":`...)
		b = jsonx.AppendString(b, *rs.Code)
		b = append(b, ',')
	}
	b = appendStatusFields(b, rs.Date, rs.Note, rs.Status, rs.StatusID)
	b = append(b, `},"timeline":`...)
	b = jsonx.AppendList(b, t.Timeline, func(b []byte, e *statusView) []byte {
		b = append(b, '{')
		b = appendStatusFields(b, e.Date, e.Note, e.Status, e.StatusID)
		return append(b, '}')
	})
	b = append(b, `,"to":`...)
	if b, err = t.To.AppendJSON(b); err != nil {
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
	b = jsonx.AppendString(b, note)
	b = append(b, `,"status":`...)
	b = jsonx.AppendString(b, string(status))
	b = append(b, `,"status_id":`...)
	return jsonx.AppendString(b, statusID)
}

// AppendJSON appends p's JSON.
func (p *partyView) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"id":`...)
	b = jsonx.AppendString(b, p.ID)
	if len(p.Meta) > 0 {
		b = append(b, `,"meta":`...)
		if b, err = jsonx.AppendObject(b, p.Meta); err != nil {
			return b, err
		}
	}
	b = append(b, `,"nickname":`...)
	b = jsonx.AppendString(b, p.Nickname)
	b = append(b, `,"type":`...)
	b = jsonx.AppendString(b, p.Type)
	b = append(b, `,"user":{"_id":`...)
	b = jsonx.AppendString(b, p.User.ID)
	b = append(b, `,"legal_names":`...)
	b = jsonx.AppendStrings(b, p.User.LegalNames)
	return append(b, `}}`...), nil
}

// AppendJSON appends x's JSON.
func (x *txExtraView) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"asset":`...)
	b = jsonx.AppendStringPtr(b, x.Asset)
	b = append(b, `,"created_on":`...)
	b = strconv.AppendInt(b, x.CreatedOn, 10)
	b = append(b, `,"encrypted_note":`...)
	b = jsonx.AppendString(b, x.EncryptedNote)
	b = append(b, `,"filename":`...)
	b = jsonx.AppendStringPtr(b, x.Filename)
	b = append(b, `,"group_id":`...)
	b = jsonx.AppendStringPtr(b, x.GroupID)
	b = append(b, `,"ip":`...)
	b = jsonx.AppendString(b, x.IP)
	b = append(b, `,"latlon":`...)
	b = jsonx.AppendString(b, x.Latlon)
	l := &x.Location
	b = append(b, `,"location":{"address_city":`...)
	b = jsonx.AppendString(b, l.AddressCity)
	b = append(b, `,"address_country_code":`...)
	b = jsonx.AppendString(b, l.AddressCountryCode)
	b = append(b, `,"address_postal_code":`...)
	b = jsonx.AppendString(b, l.AddressPostalCode)
	b = append(b, `,"address_subdivision":`...)
	b = jsonx.AppendString(b, l.AddressSubdivision)
	b = append(b, `,"lat":`...)
	if b, err = jsonx.AppendFloat(b, l.Lat); err != nil {
		return b, err
	}
	b = append(b, `,"lon":`...)
	if b, err = jsonx.AppendFloat(b, l.Lon); err != nil {
		return b, err
	}
	b = append(b, `},"note":`...)
	b = jsonx.AppendString(b, x.Note)
	b = append(b, `,"other":`...)
	if b, err = jsonx.AppendObject(b, x.Other); err != nil {
		return b, err
	}
	b = append(b, `,"process_on":`...)
	b = strconv.AppendInt(b, x.ProcessOn, 10)
	b = append(b, `,"rate":`...)
	if b, err = jsonx.AppendFloatPtr(b, x.Rate); err != nil {
		return b, err
	}
	b = append(b, `,"rate_limit":`...)
	if b, err = jsonx.AppendFloatPtr(b, x.RateLimit); err != nil {
		return b, err
	}
	b = append(b, `,"same_day":`...)
	b = jsonx.AppendBool(b, x.SameDay)
	b = append(b, `,"settlement_delay":`...)
	b = strconv.AppendInt(b, int64(x.SettlementDelay), 10)
	b = append(b, `,"supp_id":`...)
	b = jsonx.AppendString(b, x.SuppID)
	b = append(b, `,"tracking_number":`...)
	b = jsonx.AppendStringPtr(b, x.TrackingNumber)
	m := &x.TxpMeta
	b = append(b, `,"txp_meta":{"amount_types":`...)
	b = jsonx.AppendStrings(b, m.AmountTypes)
	b = append(b, `,"amounts":`...)
	if b, err = jsonx.AppendFloats(b, m.Amounts); err != nil {
		return b, err
	}
	b = append(b, `,"payment_code":`...)
	b = jsonx.AppendString(b, m.PaymentCode)
	b = append(b, `,"tax_period_end_date":`...)
	b = jsonx.AppendString(b, m.TaxPeriodEndDate)
	b = append(b, `,"taxpayer_verification":`...)
	b = jsonx.AppendString(b, m.TaxpayerVerification)
	b = append(b, `,"tin":`...)
	b = jsonx.AppendString(b, m.Tin)
	return append(b, `}}`...), nil
}

// AppendJSON appends n's JSON.
func (n NodeView) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"_id":`...)
	b = jsonx.AppendString(b, n.ID)
	b = append(b, `,"_links":{"self":{"href":`...)
	b = jsonx.AppendString(b, n.Links.Self.Href)
	b = append(b, `}},"allowed":`...)
	b = jsonx.AppendString(b, n.Allowed)
	b = append(b, `,"allowed_status_code":`...)
	b = jsonx.AppendStringPtr(b, n.AllowedStatusCode)
	b = append(b, `,"client":{"id":`...)
	b = jsonx.AppendString(b, n.Client.ID)
	b = append(b, `,"name":`...)
	b = jsonx.AppendString(b, n.Client.Name)
	b = append(b, `},"extra":{"note":`...)
	b = jsonx.AppendStringPtr(b, n.Extra.Note)
	b = append(b, `,"other":`...)
	if b, err = jsonx.AppendObject(b, n.Extra.Other); err != nil {
		return b, err
	}
	b = append(b, `,"supp_id":`...)
	b = jsonx.AppendString(b, n.Extra.SuppID)
	b = append(b, `},"info":`...)
	switch info := n.Info.(type) {
	case nodeInfo:
		b = info.AppendJSON(b)
	case achNodeInfo:
		b = info.AppendJSON(b)
	default:
		if b, err = jsonx.AppendAny(b, info); err != nil {
			return b, err
		}
	}
	b = append(b, `,"is_active":`...)
	b = jsonx.AppendBool(b, n.IsActive)
	b = append(b, `,"timeline":`...)
	b = jsonx.AppendList(b, n.Timeline, func(b []byte, e *nodeEvent) []byte {
		b = append(b, `{"date":`...)
		b = strconv.AppendInt(b, e.Date, 10)
		b = append(b, `,"note":`...)
		b = jsonx.AppendString(b, e.Note)
		return append(b, '}')
	})
	b = append(b, `,"type":`...)
	b = jsonx.AppendString(b, n.Type)
	b = append(b, `,"user_id":`...)
	b = jsonx.AppendString(b, n.UserID)
	return append(b, '}'), nil
}

// AppendJSON appends i's JSON.
func (i nodeInfo) AppendJSON(b []byte) []byte {
	b = append(b, `{"agreements":`...)
	b = jsonx.AppendList(b, i.Agreements, func(b []byte, a *agreement) []byte {
		b = append(b, `{"type":`...)
		b = jsonx.AppendString(b, a.Type)
		b = append(b, `,"url":`...)
		b = jsonx.AppendString(b, a.URL)
		return append(b, '}')
	})
	b = append(b, `,"balance":{"amount":`...)
	b = i.Balance.Amount.AppendJSON(b)
	b = append(b, `,"currency":`...)
	b = jsonx.AppendString(b, i.Balance.Currency)
	b = append(b, `},"bank_code":`...)
	b = jsonx.AppendString(b, i.BankCode)
	b = append(b, `,"document_id":`...)
	b = jsonx.AppendStringPtr(b, i.DocumentID)
	b = append(b, `,"name_on_account":`...)
	b = jsonx.AppendString(b, i.NameOnAccount)
	b = append(b, `,"nickname":`...)
	b = jsonx.AppendString(b, i.Nickname)
	if i.MonthlyWithdrawalsRemaining != nil {
		b = append(b, `,"monthly_withdrawals_remaining":`...)
		b = strconv.AppendInt(b, int64(*i.MonthlyWithdrawalsRemaining), 10)
	}
	return append(b, '}')
}

// AppendJSON appends i's JSON.
func (i achNodeInfo) AppendJSON(b []byte) []byte {
	b = append(b, `{"account_num":`...)
	b = jsonx.AppendString(b, i.AccountNum)
	b = append(b, `,"address":`...)
	b = jsonx.AppendString(b, i.Address)
	b = append(b, `,"balance":{"amount":`...)
	b = jsonx.AppendString(b, i.Balance.Amount)
	b = append(b, `,"currency":`...)
	b = jsonx.AppendString(b, i.Balance.Currency)
	b = append(b, `},"bank_logo":`...)
	b = jsonx.AppendString(b, i.BankLogo)
	b = append(b, `,"bank_long_name":`...)
	b = jsonx.AppendString(b, i.BankLongName)
	b = append(b, `,"bank_name":`...)
	b = jsonx.AppendString(b, i.BankName)
	b = append(b, `,"class":`...)
	b = jsonx.AppendString(b, i.Class)
	b = append(b, `,"match_info":{"email_match":`...)
	b = jsonx.AppendString(b, i.MatchInfo.EmailMatch)
	b = append(b, `,"name_match":`...)
	b = jsonx.AppendString(b, i.MatchInfo.NameMatch)
	b = append(b, `,"phonenumber_match":`...)
	b = jsonx.AppendString(b, i.MatchInfo.PhonenumberMatch)
	b = append(b, `},"name_on_account":`...)
	b = jsonx.AppendString(b, i.NameOnAccount)
	b = append(b, `,"nickname":`...)
	b = jsonx.AppendString(b, i.Nickname)
	b = append(b, `,"routing_num":`...)
	b = jsonx.AppendString(b, i.RoutingNum)
	b = append(b, `,"type":`...)
	b = jsonx.AppendString(b, i.Type)
	return append(b, '}')
}

// AppendJSON appends u's JSON.
func (u UserView) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"_id":`...)
	b = jsonx.AppendString(b, u.ID)
	b = append(b, `,"_links":{"self":{"href":`...)
	b = jsonx.AppendString(b, u.Links.Self.Href)
	b = append(b, `}},"client":{"id":`...)
	b = jsonx.AppendString(b, u.Client.ID)
	b = append(b, `,"name":`...)
	b = jsonx.AppendString(b, u.Client.Name)
	b = append(b, `},"doc_status":{"physical_doc":`...)
	b = jsonx.AppendString(b, u.DocStatus.PhysicalDoc)
	b = append(b, `,"virtual_doc":`...)
	b = jsonx.AppendString(b, u.DocStatus.VirtualDoc)
	b = append(b, `},"documents":`...)
	switch {
	case u.Documents == nil:
		b = append(b, "null"...)
	case len(u.Documents) == 0:
		b = append(b, "[]"...)
	default:
		if b, err = jsonx.AppendAny(b, u.Documents); err != nil {
			return b, err
		}
	}
	b = append(b, `,"emails":`...)
	b = jsonx.AppendStrings(b, u.Emails)
	x := &u.Extra
	b = append(b, `,"extra":{"cip_tag":`...)
	b = strconv.AppendInt(b, int64(x.CipTag), 10)
	b = append(b, `,"date_joined":`...)
	b = strconv.AppendInt(b, x.DateJoined, 10)
	b = append(b, `,"extra_security":`...)
	b = jsonx.AppendBool(b, x.ExtraSecurity)
	b = append(b, `,"is_business":`...)
	b = jsonx.AppendBool(b, x.IsBusiness)
	b = append(b, `,"last_updated":`...)
	b = strconv.AppendInt(b, x.LastUpdated, 10)
	b = append(b, `,"public_note":`...)
	b = jsonx.AppendStringPtr(b, x.PublicNote)
	b = append(b, `,"supp_id":`...)
	b = jsonx.AppendString(b, x.SuppID)
	b = append(b, `},"is_hidden":`...)
	b = jsonx.AppendBool(b, u.IsHidden)
	b = append(b, `,"legal_names":`...)
	b = jsonx.AppendStrings(b, u.LegalNames)
	b = append(b, `,"logins":`...)
	b = jsonx.AppendList(b, u.Logins, func(b []byte, l *loginView) []byte {
		b = append(b, `{"email":`...)
		b = jsonx.AppendString(b, l.Email)
		b = append(b, `,"scope":`...)
		b = jsonx.AppendString(b, l.Scope)
		return append(b, '}')
	})
	b = append(b, `,"permission":`...)
	b = jsonx.AppendString(b, u.Permission)
	b = append(b, `,"phone_numbers":`...)
	b = jsonx.AppendStrings(b, u.PhoneNumbers)
	b = append(b, `,"photos":`...)
	b = jsonx.AppendStrings(b, u.Photos)
	if u.RefreshToken != "" {
		b = append(b, `,"refresh_token":`...)
		b = jsonx.AppendString(b, u.RefreshToken)
	}
	return append(b, '}'), nil
}
