package synapsefake

import (
	"net/http"
)

// handleListPlatformNodes serves GET /v3.1/nodes: every active node of the
// client's users, newest first, as the recorded answer lists them, with
// gateway credentials only. type=<node type> keeps the nodes of that type, under
// any of its names.
func (s *wireCore) handleListPlatformNodes(w http.ResponseWriter, r *http.Request) {
	typ := r.URL.Query().Get("type")
	servePage(s, w, r, access{gateway: true}, true,
		func(q listQuery) ([]nodeView, int, error) { return s.clientNodesPage(typ, q) },
		func(meta listMeta, items []nodeView, total int) any {
			return nodesList{ErrorCode: meta.ErrorCode, HTTPCode: meta.HTTPCode, Limit: meta.Limit, NodeCount: total,
				Nodes: items, Page: &meta.Page, PageCount: meta.PageCount, Success: meta.Success}
		})
}

// handleListPlatformTransactions serves GET /v3.1/trans: every transaction
// of the client, newest first, with gateway credentials only.
func (s *wireCore) handleListPlatformTransactions(w http.ResponseWriter, r *http.Request) {
	servePage(s, w, r, access{gateway: true}, true,
		s.clientTxsPage,
		func(meta listMeta, items []txView, total int) any {
			return transList{listMeta: meta, Trans: items, TransCount: total}
		})
}
