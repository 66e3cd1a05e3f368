package synapsefake

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// handleDummyTransaction serves POST .../subnets/{subnet_id}/dummy-tran
// (sandbox only in the real service), on an account-number subnet.
func (s *wireCore) handleDummyTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTransPost}); err != nil {
		s.fail(w, err)
		return
	}
	if err := requireJSON(r); err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeValid[dummyRequest](r)
	if err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (txView, error) {
		return s.dummyTx(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), req, s.cfg.fundsCheck)
	})

}

// handleLegacyDummyTransaction serves the older form the official Go client
// sends: GET .../nodes/{node_id}/dummy-tran?is_credit=YES&subnetid=...&amount=&type=.
// is_credit YES is a DEPOSIT (the default), NO a WITHDRAWAL; amount
// defaults to 100.00 and type to ACH.
func (s *wireCore) handleLegacyDummyTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTransPost}); err != nil {
		s.fail(w, err)
		return
	}
	q := r.URL.Query()
	amount, usd, typ, dir := 100.0, "USD", "ACH", "DEPOSIT"
	var err error
	if v := q.Get("amount"); v != "" {
		if amount, err = strconv.ParseFloat(v, 64); err != nil {
			s.fail(w, apierr.Payload("invalid_amount", "amount must be a number."))
			return
		}
	}
	if v := strings.ToUpper(q.Get("type")); v != "" && v != "INTERCHANGE" {
		typ = v
	}
	switch strings.ToUpper(q.Get("is_credit")) {
	case "", "YES":
	case "NO":
		dir = "WITHDRAWAL"
	default:
		s.fail(w, apierr.Payload("invalid_is_credit", "is_credit must be YES or NO."))
		return
	}
	req := dummyRequest{Amount: &amount, Currency: &usd, Type: &typ, Direction: &dir,
		foreign: strings.EqualFold(q.Get("foreign_transaction"), "YES")}
	if err := req.validate(); err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (txView, error) {
		return s.legacyDummyTx(now, r.PathValue("user_id"), r.PathValue("node_id"), q.Get("subnetid"), req, s.cfg.fundsCheck)
	})

}
