// Dummy transactions, the wire's side: the dummy-tran routes, new and legacy.

package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// handleDummyTransaction serves POST .../subnets/{subnet_id}/dummy-tran
// (sandbox only in the real service), on an account-number subnet.
func (s *Wire) handleDummyTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTransPost}); err != nil {
		s.Fail(w, err)
		return
	}
	if err := requireJSON(r); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeValid[bank.DummyRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (bank.TxView, error) {
		return s.DummyTx(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("subnet_id"), req, s.Cfg.FundsCheck)
	})

}

// handleLegacyDummyTransaction serves the older form the official Go client
// sends: GET .../nodes/{node_id}/dummy-tran?is_credit=YES&subnetid=...&amount=&type=.
// is_credit YES is a DEPOSIT (the default), NO a WITHDRAWAL; amount
// defaults to 100.00 and type to ACH.
func (s *Wire) handleLegacyDummyTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTransPost}); err != nil {
		s.Fail(w, err)
		return
	}
	q := r.URL.Query()
	amount, usd, typ, dir := 100.0, "USD", "ACH", "DEPOSIT"
	var err error
	if v := q.Get("amount"); v != "" {
		if amount, err = strconv.ParseFloat(v, 64); err != nil {
			s.Fail(w, apierr.Payload("invalid_amount", "amount must be a number."))
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
		s.Fail(w, apierr.Payload("invalid_is_credit", "is_credit must be YES or NO."))
		return
	}
	req := bank.DummyRequest{Amount: &amount, Currency: &usd, Type: &typ, Direction: &dir,
		Foreign: strings.EqualFold(q.Get("foreign_transaction"), "YES")}
	if err := req.Validate(); err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (bank.TxView, error) {
		return s.LegacyDummyTx(now, r.PathValue("user_id"), r.PathValue("node_id"), q.Get("subnetid"), req, s.Cfg.FundsCheck)
	})

}
