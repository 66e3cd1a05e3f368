package synapsefake

import "github.com/synapsefake/synapsefake/internal/apierr"

// worldTx creates tp's transaction at its date, as POST .../trans would,
// and moves it to its declared status at that date, as the scenario helpers
// would.
func (st *store) worldTx(tp *txPlan) error {
	defer st.lock().unlock()
	id := tp.to.id
	tp.req.To.ID = &id
	t, err := st.createTx(tp.at, tp.from.user.id, tp.from.id, tp.req, true, nil)
	if err != nil {
		return err
	}
	tp.id = t.id
	defer st.asBackend()()
	switch tp.status {
	case StatusReturned:
		// As Return: the code must be one the transaction's rail takes.
		if err = st.checkReturn(t, tp.code); err == nil {
			err = st.walkAt(t, tp.status, tp.at, tp.code)
		}
	case StatusProcessingDebit, StatusProcessingCredit, StatusSettled:
		err = st.walkAt(t, tp.status, tp.at, tp.code)
	case StatusQueuedBySynapse, StatusQueuedByReceiver:
		err = st.move(t, tp.status, tp.at, "", tp.code)
	case StatusCanceled:
		err = st.cancel(t, tp.at, tp.code)
	}
	if err == nil && t.status != tp.status {
		err = apierr.NotAllowed("status_not_reached", "The transaction ended %s, not %s: %s.", t.status, tp.status, t.timeline[len(t.timeline)-1].Note)
	}
	return err
}
