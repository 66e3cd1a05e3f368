// Transactions, the console's side: the control routes that read a transaction and force its moves,
// and swipe a card.

package console

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// controlTxView is a transaction as the control API shows it.
type controlTxView struct {
	ID          string              `json:"_id"`
	Status      bank.Status         `json:"status"`
	Code        string              `json:"code"`
	AmountCents int64               `json:"amount_cents"`
	FromNodeID  string              `json:"from_node_id"`
	ToNodeID    string              `json:"to_node_id"`
	Timeline    []controlStatusView `json:"timeline"`
	// RecentStatus is the wire's recent_status, as GET .../trans/{id}
	// shows it, beside status: a reader of both finds each field where
	// the other names it.
	RecentStatus bank.RecentStatus `json:"recent_status"`
}

type controlStatusView struct {
	Status bank.Status `json:"status"`
	Note   string      `json:"note"`
	Date   int64       `json:"date"`
}

// controlTx is t as the control API shows it, rs its recent_status.
func controlTx(t bank.Transaction, rs bank.RecentStatus) controlTxView {
	tl := make([]controlStatusView, len(t.Timeline))
	for i, e := range t.Timeline {
		tl[i] = controlStatusView{Status: e.Status, Note: e.Note, Date: bank.Ms(e.Date)}
	}
	return controlTxView{ID: t.ID, Status: t.Status, Code: t.Code, AmountCents: t.AmountCents,
		FromNodeID: t.FromNodeID, ToNodeID: t.ToNodeID, Timeline: tl, RecentStatus: rs}
}

// controlTxOf is t as the control API shows it, read again with its
// recent_status (both of one moment); t as it was, with an empty
// recent_status, when it is gone since (a reset).
func (s *Console) controlTxOf(t bank.Transaction) controlTxView {
	if v, ok := s.controlTxNow(t.ID); ok {
		return v
	}
	return controlTx(t, bank.RecentStatus{})
}

// controlTxNow is the transaction id as the control API shows it now, and
// whether it exists.
func (s *Console) controlTxNow(id string) (controlTxView, bool) {
	t, rs, ok := s.TransactionRecent(id)
	if !ok {
		return controlTxView{}, false
	}
	return controlTx(t, rs), true
}

// controlAnswerTx answers the transaction's state.
func (s *Console) controlAnswerTx(w http.ResponseWriter, id string) {
	v, ok := s.controlTxNow(id)
	if !ok {
		s.Fail(w, apierr.NotFound("transaction"))
		return
	}
	s.ControlOK(w, map[string]any{"transaction": v})
}

// controlGetTransaction serves GET /_fake/transactions/{trans_id}.
func (s *Console) controlGetTransaction(w http.ResponseWriter, r *http.Request) {
	s.controlAnswerTx(w, r.PathValue("trans_id"))
}

// controlTxRequest is the body of the transaction moves; each reads the
// fields it needs and refuses the others.
type controlTxRequest struct {
	Code   *string      `json:"code"`
	Status *bank.Status `json:"status"`
}

// controlMove serves one transaction move: it decodes the body, checks that
// it holds only the fields allowed, applies move and answers the result.
func (s *Console) controlMove(w http.ResponseWriter, r *http.Request, code, status bool, move func(id string, req controlTxRequest) error) {
	req, err := ControlBody[controlTxRequest](r)
	switch {
	case err != nil:
	case req.Code != nil && !code:
		err = apierr.Payload("unknown_field", `Unknown field "code".`)
	case req.Status != nil && !status:
		err = apierr.Payload("unknown_field", `Unknown field "status".`)
	}
	if err == nil {
		err = move(r.PathValue("trans_id"), req)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.controlAnswerTx(w, r.PathValue("trans_id"))
}

func (req controlTxRequest) code() string {
	if req.Code == nil {
		return ""
	}
	return *req.Code
}

// controlSettle serves POST /_fake/transactions/{trans_id}/settle.
func (s *Console) controlSettle(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, false, false, func(id string, _ controlTxRequest) error { return s.Settle(id) })
}

// controlQueue serves POST /_fake/transactions/{trans_id}/queue {code}.
func (s *Console) controlQueue(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, true, false, func(id string, req controlTxRequest) error { return s.Queue(id, req.code()) })
}

// controlRelease serves POST /_fake/transactions/{trans_id}/release.
func (s *Console) controlRelease(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, false, false, func(id string, _ controlTxRequest) error { return s.Release(id) })
}

// controlCancel serves POST /_fake/transactions/{trans_id}/cancel {code}.
func (s *Console) controlCancel(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, true, false, func(id string, req controlTxRequest) error { return s.Cancel(id, req.code()) })
}

// controlAdvanceTransaction serves POST /_fake/transactions/{trans_id}/advance {status}.
func (s *Console) controlAdvanceTransaction(w http.ResponseWriter, r *http.Request) {
	s.controlMove(w, r, false, true, func(id string, req controlTxRequest) error {
		if req.Status == nil || req.Status.ID() == "" {
			return apierr.Payload("invalid_status", "status must be a transaction status such as PROCESSING-DEBIT.")
		}
		return s.AdvanceTransaction(id, *req.Status)
	})
}

// controlCardRequest is the body of POST /_fake/subnets/{subnet_id}/authorize: a CardAuth.
type controlCardRequest struct {
	AmountCents int64  `json:"amount_cents"`
	Merchant    string `json:"merchant"`
	Foreign     bool   `json:"foreign"`
	Cash        bool   `json:"cash"`
	DeclineWith string `json:"decline_with"`
	Hold        bool   `json:"hold"`
	// PartialApprovalAllowed is CardAuth.PartialApprovalAllowed.
	PartialApprovalAllowed bool `json:"partial_approval_allowed"`
}

// controlAuthorizeCard serves POST /_fake/subnets/{subnet_id}/authorize.
func (s *Console) controlAuthorizeCard(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlCardRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	t, err := s.CardAuthorization(r.PathValue("subnet_id"), bank.CardAuth(req))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"transaction": s.controlTxOf(t)})
}

// controlTransactions serves GET /_fake/users/{user_id}/transactions and
// GET /_fake/nodes/{node_id}/transactions?limit=: the newest transactions
// of the user (sent or received) or of the node, newest first.
func (s *Console) controlTransactions(w http.ResponseWriter, r *http.Request) {
	limit, err := controlLimit(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	txs, total, err := s.NewestTxs(r.PathValue("user_id"), r.PathValue("node_id"), limit)
	if err != nil {
		s.Fail(w, err)
		return
	}
	views := make([]controlTxView, len(txs))
	for i, t := range txs {
		views[i] = s.controlTxOf(t)
	}
	s.ControlOK(w, map[string]any{"transactions": views, "trans_count": total})
}
