package synapsefake

import (
	"net/http"
	"time"
)

// runStatementsDue generates the statements that fell due by now.
func (s *Server) runStatementsDue(now time.Time) {}

func (s *Server) handleListUserStatements(w http.ResponseWriter, r *http.Request) {
	s.fail(w, errRouteNotFound)
}

func (s *Server) handleListNodeStatements(w http.ResponseWriter, r *http.Request) {
	s.fail(w, errRouteNotFound)
}

func (s *Server) handleCreateStatement(w http.ResponseWriter, r *http.Request) {
	s.fail(w, errRouteNotFound)
}

func (s *Server) handleGetStatement(w http.ResponseWriter, r *http.Request) {
	s.fail(w, errRouteNotFound)
}

func (s *Server) handleStatementFile(w http.ResponseWriter, r *http.Request) {
	s.fail(w, errRouteNotFound)
}
