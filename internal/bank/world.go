// Worlds, the bank's side: a world file's transaction as the store takes it.

package bank

import (
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// worldTx creates a world's transaction at its date at, as POST
// .../trans would (req from the node fromID of userID, to the node toID),
// and moves it to its declared status (with code) at that date, as the
// scenario helpers would. It answers the transaction's id, set even when
// the move fails.
func (st *Store) worldTx(at time.Time, userID, fromID, toID string, req CreateTxRequest, status Status, code string) (string, error) {
	defer st.lock().unlock()
	id := toID
	req.To.ID = &id
	t, err := st.createTx(at, userID, fromID, req, true, nil)
	if err != nil {
		return "", err
	}
	defer st.asBackend()()
	switch status {
	case StatusReturned:
		// As Return: the code must be one the transaction's rail takes.
		if err = st.checkReturn(t, code); err == nil {
			err = st.walkAt(t, status, at, code)
		}
	case StatusProcessingDebit, StatusProcessingCredit, StatusSettled:
		err = st.walkAt(t, status, at, code)
	case StatusQueuedBySynapse, StatusQueuedByReceiver:
		err = st.move(t, status, at, "", code)
	case StatusCanceled:
		err = st.cancel(t, at, code)
	}
	if err == nil && t.status != status {
		err = apierr.NotAllowed("status_not_reached", "The transaction ended %s, not %s: %s.", t.status, status, t.timeline[len(t.timeline)-1].Note)
	}
	return t.id, err
}
