package synapsefake

import (
	"net/http"
	"strconv"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

// statementList is the wrapper of the statement lists.
type statementList struct {
	listMeta
	Statements      []statementView `json:"statements"`
	StatementsCount int             `json:"statements_count"`
}

// listStatements serves a statement list, newest first.
func (s *wireCore) listStatements(w http.ResponseWriter, r *http.Request, list func(q listQuery) ([]statementView, int, error)) {
	servePage(s, w, r, access{userIP: true, scope: reference.ScopeStatementsGet}, true, list,
		func(meta listMeta, items []statementView, total int) any {
			return statementList{listMeta: meta, Statements: items, StatementsCount: total}
		})
}

// handleListUserStatements serves GET /users/{user_id}/statements, newest first.
func (s *wireCore) handleListUserStatements(w http.ResponseWriter, r *http.Request) {
	s.listStatements(w, r, func(q listQuery) ([]statementView, int, error) {
		return s.userStatementsPage(r.PathValue("user_id"), q)
	})
}

// handleListNodeStatements serves GET .../nodes/{node_id}/statements, newest first.
func (s *wireCore) handleListNodeStatements(w http.ResponseWriter, r *http.Request) {
	s.listStatements(w, r, func(q listQuery) ([]statementView, int, error) {
		return s.nodeStatementsPage(r.PathValue("user_id"), r.PathValue("node_id"), q)
	})
}

// handleGetStatement serves GET .../nodes/{node_id}/statements/{statement_id}.
func (s *wireCore) handleGetStatement(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeStatementGet}); err != nil {
		s.fail(w, err)
		return
	}
	answerValue(s, w, func() (statementView, error) {
		return s.getStatement(r.PathValue("user_id"), r.PathValue("node_id"), r.PathValue("statement_id"))
	})

}

// handleCreateStatement serves POST .../nodes/{node_id}/statements: an ad
// hoc statement of a deposit-type node, QUEUED until the clock moves (or at
// once with WithImmediateStatements).
func (s *wireCore) handleCreateStatement(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeStatementsPost}); err != nil {
		s.fail(w, err)
		return
	}
	now := s.Now()
	req, err := decodeOptional[createStatementRequest](r)
	var start, end time.Time
	if err == nil {
		start, end, err = req.period(now)
	}
	if err == nil {
		err = req.validWebhook()
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	answerValue(s, w, func() (statementView, error) {
		return s.createStatement(now, r.PathValue("user_id"), r.PathValue("node_id"), start, end, req.Webhook, s.cfg.immediateStatements)
	})

}

// handleStatementFile serves GET /statements/{statement_id}/{file}: the
// statement's CSV, JSON or PDF. The real service's urls were pre-signed
// links, so no user credentials are needed (a wrong gateway is still
// refused, as on every route).
func (s *wireCore) handleStatementFile(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{}); err != nil {
		s.fail(w, err)
		return
	}
	file := r.PathValue("file")
	doc, err := s.statementFile(r.PathValue("statement_id"), file)

	if err != nil {
		s.fail(w, err)
		return
	}
	doc.withFile(file, func(body []byte, ctype string) {
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Disposition", `inline; filename="statement-`+doc.statementID()+file[len("statement"):]+`"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	})
}
