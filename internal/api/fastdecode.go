// The fast decoder: the request bodies the wire reads without reflection.

package api

import (
	"strconv"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// decodeFast decodes data into v when v is a body the fast decoder reads
// (a transaction's create body) and data has its usual shape. It reports
// false, and leaves v as it was, for anything it does not read exactly as
// encoding/json would (an unknown key, a key in another letter case, an
// escape, null, a value of another type, trailing data...), and
// encoding/json decodes the body instead. TestDecodeFastIsEncodingJSON
// holds it to that.
func decodeFast(v any, data []byte) bool {
	switch r := v.(type) {
	case *bank.CreateTxRequest:
		return decodeFastCreateTx(data, r)
	}
	return false
}

// decodeFastCreateTx reads into r a create body of to, amount and extra
// (fees and extra.other are left to encoding/json). Its strings are cut
// from one copy of the body.
func decodeFastCreateTx(data []byte, r *bank.CreateTxRequest) bool {
	s := jsonScan{b: data, text: string(data)}
	p := new(createTxParts)
	var v bank.CreateTxRequest
	ok := s.object(func(key string) bool {
		switch key {
		case "to":
			v.To = &p.to
			return s.object(func(key string) bool {
				switch key {
				case "type":
					return s.strPtr(&v.To.Type, &p.typ)
				case "id":
					return s.strPtr(&v.To.ID, &p.id)
				}
				return false
			})
		case "amount":
			v.Amount = &p.amount
			return s.object(func(key string) bool {
				var ok bool
				switch key {
				case "amount":
					p.value, ok = s.float()
					v.Amount.Amount = &p.value
				case "currency":
					return s.strPtr(&v.Amount.Currency, &p.currency)
				}
				return ok
			})
		case "extra":
			v.Extra = &p.extra
			x := v.Extra
			return s.object(func(key string) bool {
				var ok bool
				switch key {
				case "ip":
					return s.strPtr(&x.IP, &p.ip)
				case "note":
					x.Note, ok = s.str()
				case "supp_id":
					x.SuppID, ok = s.str()
				case "group_id":
					return s.strPtr(&x.GroupID, &p.groupID)
				case "process_on":
					p.processOn, ok = s.int()
					x.ProcessOn = &p.processOn
				case "same_day":
					x.SameDay, ok = s.bool()
				case "idempotency_key":
					x.IdempotencyKey, ok = s.str()
				}
				return ok
			})
		}
		return false
	})
	if !ok || !s.end() {
		return false
	}
	*r = v
	return true
}

// jsonScan reads JSON from b at i. text is b as a string, when set: the
// strings read are then cut from it rather than each copied.
type jsonScan struct {
	b    []byte
	text string
	i    int
}

// space skips JSON white space.
func (s *jsonScan) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next skips white space and reports whether c comes next, reading it.
func (s *jsonScan) next(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes, of valid UTF-8.
func (s *jsonScan) str() (string, bool) {
	if !s.next('"') {
		return "", false
	}
	start, ascii := s.i, true
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			if !ascii && !utf8.Valid(v) {
				return "", false
			}
			if s.text != "" {
				return s.text[start : s.i-1], true
			}
			return string(v), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// number reads a number as JSON writes one, and reports whether it is an
// integer (no fraction, no exponent).
func (s *jsonScan) number() (lit string, integer, ok bool) {
	s.space()
	b, start := s.b, s.i
	digits := func() bool {
		n := s.i
		for s.i < len(b) && b[s.i] >= '0' && b[s.i] <= '9' {
			s.i++
		}
		return s.i > n
	}
	if s.i < len(b) && b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(b) && b[s.i] == '0':
		s.i++
	case !digits():
		return "", false, false
	}
	integer = true
	if s.i < len(b) && b[s.i] == '.' {
		s.i++
		if !digits() {
			return "", false, false
		}
		integer = false
	}
	if s.i < len(b) && (b[s.i] == 'e' || b[s.i] == 'E') {
		s.i++
		if s.i < len(b) && (b[s.i] == '+' || b[s.i] == '-') {
			s.i++
		}
		if !digits() {
			return "", false, false
		}
		integer = false
	}
	return string(b[start:s.i]), integer, true
}

// float reads a number into a float64, as encoding/json does.
func (s *jsonScan) float() (float64, bool) {
	lit, _, ok := s.number()
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(lit, 64)
	return f, err == nil
}

// int reads an integer into an int, as encoding/json does.
func (s *jsonScan) int() (int, bool) {
	lit, integer, ok := s.number()
	if !ok || !integer {
		return 0, false
	}
	n, err := strconv.ParseInt(lit, 10, strconv.IntSize)
	return int(n), err == nil
}

// bool reads true or false.
func (s *jsonScan) bool() (v, ok bool) {
	s.space()
	for _, lit := range []string{"true", "false"} {
		if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
			s.i += len(lit)
			return lit == "true", true
		}
	}
	return false, false
}

// object reads an object, calling field for each key with the scan at its
// value; field reads the value and reports whether it could. A key seen
// twice is read again into the same place, which is how encoding/json
// merges the two.
func (s *jsonScan) object(field func(key string) bool) bool {
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return true
	}
	for {
		key, ok := s.str()
		if !ok || !s.next(':') {
			return false
		}
		if !field(key) {
			return false
		}
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// end reports whether only white space is left.
func (s *jsonScan) end() bool {
	s.space()
	return s.i == len(s.b)
}

// createTxParts holds what a create body's pointers point to, so that
// decodeFastCreateTx allocates once.
type createTxParts struct {
	to                             bank.TxToRequest
	amount                         bank.TxAmountRequest
	extra                          bank.TxExtraRequest
	typ, id, currency, ip, groupID string
	value                          float64
	processOn                      int
}

// strPtr reads a string into *into and points *p at it.
func (s *jsonScan) strPtr(p **string, into *string) bool {
	v, ok := s.str()
	*into, *p = v, into
	return ok
}
