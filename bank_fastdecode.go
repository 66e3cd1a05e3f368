package synapsefake

// decodeFast reads a create body of to, amount and extra (fees and
// extra.other are left to encoding/json). Its strings are cut from one
// copy of the body.
func (r *createTxRequest) decodeFast(data []byte) bool {
	s := jsonScan{b: data, text: string(data)}
	p := new(createTxParts)
	var v createTxRequest
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
