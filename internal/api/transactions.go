// Transactions, the wire's side: the transaction routes.

package api

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// transList is the wrapper of the transaction lists.
type transList struct {
	bank.ListMeta
	Trans      []bank.TxView `json:"trans"`
	TransCount int           `json:"trans_count"`
}

// listTransactions serves a transaction list, newest first.
func (s *Wire) listTransactions(w http.ResponseWriter, r *http.Request, list func(q bank.ListQuery) ([]bank.TxView, int, error)) {
	servePage(s, w, r, access{userIP: true, scope: reference.ScopeTransGet}, true, list,
		func(meta bank.ListMeta, items []bank.TxView, total int) any {
			return transList{ListMeta: meta, Trans: items, TransCount: total}
		})
}

// handleCreateTransaction serves POST /v3.1/users/{user_id}/nodes/{node_id}/trans.
func (s *Wire) handleCreateTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTransPost}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeTextValid[bank.CreateTxRequest](r)
	enf := s.enforcerFor(r)
	if err == nil {
		err = enf.Enforce(req.BrokenRule())
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerView(s, w, func(v *bank.TxView) error {
		return s.CreateTxInto(now, r.PathValue("user_id"), r.PathValue("node_id"), req, s.Cfg.FundsCheck, enf, v)
	})
}

// handleBatchTransactions serves POST /v3.1/users/{user_id}/nodes/{node_id}/batch-trans.
// Items are created together: no item is refused for the sender's balance,
// which may go negative, as the spec says, though not below
// -MaxBalanceCents.
func (s *Wire) handleBatchTransactions(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTransPost}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeText[bank.BatchRequest](r)
	if err == nil && len(req.Transactions) == 0 {
		err = apierr.Payload("missing_transactions", "transactions is required.")
	}
	if err == nil && len(req.Transactions) > bank.MaxBatch {
		err = apierr.Payload("batch_too_large", "A batch holds at most %d transactions.", bank.MaxBatch)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	out, err := s.CreateTxBatch(s.Now(), s.Cfg.ClientID, batchItemScope(r), r.PathValue("user_id"), r.PathValue("node_id"), req.Transactions, s.enforcerFor(r))
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.Ok(w, out)
}

// batchItemScope is the scope of a batch item's extra.idempotency_key: the
// batch's method and path, apart from the keys sent as the header there.
func batchItemScope(r *http.Request) string { return requestScope(r) + " item" }

// handleGetTransaction serves GET .../nodes/{node_id}/trans/{trans_id}.
func (s *Wire) handleGetTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTranGet}); err != nil {
		s.Fail(w, err)
		return
	}
	answerView(s, w, func(v *bank.TxView) error {
		return s.GetTxInto(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("trans_id"), v)
	})
}

// MaxCommentLength is documented at synapsefake.MaxCommentLength.
const MaxCommentLength = 1000

// handleCommentTransaction serves PATCH .../trans/{trans_id}: the comment
// becomes a timeline note under the current status.
func (s *Wire) handleCommentTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTranPatch}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeText[bank.CommentRequest](r)
	blank := err == nil && (req.Comment == nil || strings.TrimSpace(*req.Comment) == "")
	switch {
	case err != nil:
	case blank:
		// The sandbox took it; the transaction is answered as it is.
		err = s.strictRule(r, "a PATCH of a transaction carries a comment", apierr.Payload("missing_comment", "comment is required."))
	case utf8.RuneCountInString(*req.Comment) > MaxCommentLength:
		err = apierr.Payload("comment_too_long", "comment must be at most %d characters.", MaxCommentLength)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	comment := ""
	if !blank {
		comment = *req.Comment
	}
	answerView(s, w, func(v *bank.TxView) error {
		return s.CommentTxInto(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("trans_id"), blank, comment, v)
	})
}

// handleCancelTransaction serves DELETE .../trans/{trans_id}.
func (s *Wire) handleCancelTransaction(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeTranDelete}); err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerView(s, w, func(v *bank.TxView) error {
		return s.CancelTxInto(now, r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("trans_id"), v)
	})
}

// handleListNodeTransactions serves GET .../nodes/{node_id}/trans, newest first.
func (s *Wire) handleListNodeTransactions(w http.ResponseWriter, r *http.Request) {
	s.listTransactions(w, r, func(q bank.ListQuery) ([]bank.TxView, int, error) {
		return s.NodeTxsPage(r.PathValue("user_id"), r.PathValue("node_id"), q)
	})
}

// handleListUserTransactions serves GET /users/{user_id}/trans, newest first.
func (s *Wire) handleListUserTransactions(w http.ResponseWriter, r *http.Request) {
	s.listTransactions(w, r, func(q bank.ListQuery) ([]bank.TxView, int, error) { return s.UserTxsPage(r.PathValue("user_id"), q) })
}
