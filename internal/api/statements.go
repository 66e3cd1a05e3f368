// Statements, the wire's side: the statement routes.

package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// statementList is the wrapper of the statement lists.
type statementList struct {
	bank.ListMeta
	Statements      []bank.StatementView `json:"statements"`
	StatementsCount int                  `json:"statements_count"`
}

// listStatements serves a statement list, newest first.
func (s *Wire) listStatements(w http.ResponseWriter, r *http.Request, list func(q bank.ListQuery) ([]bank.StatementView, int, error)) {
	servePage(s, w, r, access{userIP: true, scope: reference.ScopeStatementsGet}, true, list,
		func(meta bank.ListMeta, items []bank.StatementView, total int) any {
			return statementList{ListMeta: meta, Statements: items, StatementsCount: total}
		})
}

// handleListUserStatements serves GET /users/{user_id}/statements, newest first.
func (s *Wire) handleListUserStatements(w http.ResponseWriter, r *http.Request) {
	s.listStatements(w, r, func(q bank.ListQuery) ([]bank.StatementView, int, error) {
		return s.UserStatementsPage(r.PathValue("user_id"), q)
	})
}

// handleListNodeStatements serves GET .../nodes/{node_id}/statements, newest first.
func (s *Wire) handleListNodeStatements(w http.ResponseWriter, r *http.Request) {
	s.listStatements(w, r, func(q bank.ListQuery) ([]bank.StatementView, int, error) {
		return s.NodeStatementsPage(r.PathValue("user_id"), r.PathValue("node_id"), q)
	})
}

// handleGetStatement serves GET .../nodes/{node_id}/statements/{statement_id}.
func (s *Wire) handleGetStatement(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeStatementGet}); err != nil {
		s.Fail(w, err)
		return
	}
	answerValue(s, w, func() (bank.StatementView, error) {
		return s.GetStatement(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("statement_id"))
	})

}

// handleCreateStatement serves POST .../nodes/{node_id}/statements: an ad
// hoc statement of a deposit-type node, QUEUED until the clock moves (or at
// once with WithImmediateStatements).
func (s *Wire) handleCreateStatement(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeStatementsPost}); err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	req, err := decodeOptional[bank.CreateStatementRequest](r)
	var start, end time.Time
	if err == nil {
		start, end, err = req.Period(now)
	}
	if err == nil {
		err = req.ValidWebhook()
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	answerValue(s, w, func() (bank.StatementView, error) {
		return s.CreateStatement(now, r.PathValue("user_id"), r.PathValue("node_id"), start, end, req.Webhook, s.Cfg.ImmediateStatements)
	})

}

// handleStatementFile serves GET /statements/{statement_id}/{file}: the
// statement's CSV, JSON or PDF. The real service's urls were pre-signed
// links, so no user credentials are needed (a wrong gateway is still
// refused, as on every route).
func (s *Wire) handleStatementFile(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{}); err != nil {
		s.Fail(w, err)
		return
	}
	file := r.PathValue("file")
	doc, err := s.StatementFile(r.PathValue("statement_id"), file)

	if err != nil {
		s.Fail(w, err)
		return
	}
	doc.WithFile(file, func(body []byte, ctype string) {
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Disposition", `inline; filename="statement-`+doc.StatementID()+file[len("statement"):]+`"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	})
}
