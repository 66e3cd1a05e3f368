package bank

import "github.com/synapsefake/synapsefake/internal/apierr"

// newestUsers are the newest limit listed users, newest first, and how
// many users are listed.
func (st *Store) newestUsers(limit int) ([]User, int) {
	defer st.lock().unlock()
	n := len(st.userOrder)
	out := make([]User, 0, min(limit, n))
	for i := n - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, st.users[st.userOrder[i]].public())
	}
	return out, n
}

// newestTxs are the newest limit transactions of a user or a node (one of
// userID and nodeID is set), and how many it has.
func (st *Store) newestTxs(userID, nodeID string, limit int) ([]Transaction, int, error) {
	defer st.lock().unlock()
	var ids []string
	if nodeID != "" {
		n := st.nodes[nodeID]
		if n == nil || st.networkUser != nil && n.userID == st.networkUser.id {
			return nil, 0, apierr.NotFound("node")
		}
		ids = n.txIDs
	} else {
		u := st.users[userID]
		if u == nil || u == st.networkUser {
			return nil, 0, apierr.NotFound("user")
		}
		ids = u.txIDs
	}
	out := make([]Transaction, 0, min(limit, len(ids)))
	for i := len(ids) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, st.txs[ids[i]].public())
	}
	return out, len(ids), nil
}
