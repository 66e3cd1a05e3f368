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

// appendJSONStrings appends a string slice: null when nil.
func appendJSONStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
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
	if t.Fees == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range t.Fees {
			f := &t.Fees[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"fee":`...)
			b = f.Fee.appendJSON(b)
			b = append(b, `,"note":`...)
			b = appendJSONString(b, f.Note)
			b = append(b, `,"to":{"id":`...)
			b = appendJSONString(b, f.To.ID)
			b = append(b, `}}`...)
		}
		b = append(b, ']')
	}
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
	if t.Timeline == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range t.Timeline {
			e := &t.Timeline[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			b = appendStatusFields(b, e.Date, e.Note, e.Status, e.StatusID)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
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
