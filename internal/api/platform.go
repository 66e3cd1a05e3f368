package api

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// handleListPlatformNodes serves GET /v3.1/nodes: every active node of the
// client's users, newest first, as the recorded answer lists them, with
// gateway credentials only. type=<node type> keeps the nodes of that type, under
// any of its names.
func (s *Wire) handleListPlatformNodes(w http.ResponseWriter, r *http.Request) {
	typ := r.URL.Query().Get("type")
	servePage(s, w, r, access{gateway: true}, true,
		func(q bank.ListQuery) ([]bank.NodeView, int, error) { return s.ClientNodesPage(typ, q) },
		func(meta bank.ListMeta, items []bank.NodeView, total int) any {
			return bank.NodesList{ErrorCode: meta.ErrorCode, HTTPCode: meta.HTTPCode, Limit: meta.Limit, NodeCount: total,
				Nodes: items, Page: &meta.Page, PageCount: meta.PageCount, Success: meta.Success}
		})
}

// handleListPlatformTransactions serves GET /v3.1/trans: every transaction
// of the client, newest first, with gateway credentials only.
func (s *Wire) handleListPlatformTransactions(w http.ResponseWriter, r *http.Request) {
	servePage(s, w, r, access{gateway: true}, true,
		s.ClientTxsPage,
		func(meta bank.ListMeta, items []bank.TxView, total int) any {
			return transList{ListMeta: meta, Trans: items, TransCount: total}
		})
}
