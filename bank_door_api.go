package synapsefake

import (
	"math"
	"slices"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/filter"
	"github.com/synapsefake/synapsefake/reference"
)

// The bank's door for the wire (notes/issue-39-plan.md §3.2): the
// operations the handlers call. Each takes the store's lock itself (most
// by calling a store method that does). A wire operation takes now as
// its first argument: a handler reads the clock once, at its top.

// dueAt is when the bank's first timed work falls due, in Unix
// milliseconds (runDue's fast path: one atomic load, inlined).
func (s *bankCore) dueAt() int64 { return s.store.due.Load() }

// runBankDue runs the bank's work due at now.
func (s *bankCore) runBankDue(now time.Time) { s.store.allDue(now) }

// txViewAt answers a transaction's view as of an event (its timeline up
// to then and its code), under the lock.
func (s *bankCore) txViewAt(t *txRecord, timeline []statusEntry, code string) txView {
	return s.store.txViewAtLocked(t, timeline, code)
}

// idemUsedAt answers when an idempotency key was used, and whether it
// still counts as used at now.
func (s *bankCore) idemUsedAt(key string, now time.Time) (time.Time, bool) {
	return s.store.idemUsedAt(key, now)
}

// useIdem records an idempotency key as used at now.
func (s *bankCore) useIdem(key string, now time.Time) { s.store.useIdemLocked(key, now) }

// resetBank empties the store; participant (the webhook side's reset)
// runs first inside the same lock hold, so that no event slips in
// between.
func (s *bankCore) resetBank(participant func()) {
	st := s.store
	defer st.lock().unlock()
	st.era++
	participant()
	st.resetLocked()
}

// nextCutoff answers the next instant after now of the cutoff c.
func (s *bankCore) nextCutoff(now time.Time, c Cutoff) (time.Time, error) {
	return s.store.cutoffs.next(now, c)
}

// keyGrant is what an oauth key grants: its user, the fingerprint it was
// minted for and its scopes (shared with the store, which never writes
// them).
type keyGrant struct {
	UserID      string
	Fingerprint string
	Scopes      []string
}

// Allows reports whether the key grants scope.
func (g *keyGrant) Allows(scope string) bool { return slices.Contains(g.Scopes, scope) }

// lookupKey answers what an oauth key grants at now, and the refusal of a
// locked user (the key still opens the user itself).
func (s *bankCore) lookupKey(key string, now time.Time) (keyGrant, *apierr.Error, error) {
	k, locked, err := s.store.lookupKey(key, now)
	return keyGrant{UserID: k.userID, Fingerprint: k.fingerprint, Scopes: k.scopes}, locked, err
}

// makeBarcode makes a cash-deposit barcode for a node.
func (s *bankCore) makeBarcode(userID, nodeID string, req barcodeRequest) (string, error) {
	return s.store.barcode(userID, nodeID, req)
}

// bankLogin starts a bank login (POST .../nodes with bank_id/bank_pw).
func (s *bankCore) bankLogin(now time.Time, userID, username, password, bankName string) (bankLoginAnswer, error) {
	return s.store.bankLogin(now, userID, username, password, bankName)
}

// answerBankMFA answers a bank login's MFA question.
func (s *bankCore) answerBankMFA(now time.Time, userID, token, answer string) (bankLoginAnswer, error) {
	return s.store.answerBankMFA(now, userID, token, answer)
}

// createNode makes a node (POST .../nodes).
func (s *bankCore) createNode(now time.Time, userID string, req createNodeRequest) (nodeView, error) {
	return s.store.createNode(now, userID, req)
}

// listNodes answers a user's page of nodes.
func (s *bankCore) listNodes(userID string, p page, typ string, f *filter.Filter) (nodesList, error) {
	return s.store.listNodes(userID, p, typ, f)
}

// getNode answers a node's view.
func (s *bankCore) getNode(userID, nodeID string) (nodeView, error) {
	return s.store.getNode(userID, nodeID)
}

// patchNode changes a node.
func (s *bankCore) patchNode(now time.Time, userID, nodeID string, req patchNodeRequest) (nodeView, error) {
	return s.store.patchNode(now, userID, nodeID, req)
}

// deleteNode deletes (deactivates) a node.
func (s *bankCore) deleteNode(now time.Time, userID, nodeID string) (nodeView, error) {
	return s.store.deleteNode(now, userID, nodeID)
}

// grantOAuth answers POST /oauth/{user_id}: a key, or an MFA question.
func (s *bankCore) grantOAuth(now time.Time, lifetime time.Duration, userID, fingerprint string, req oauthRequest) (any, int, error) {
	return s.store.oauth(now, lifetime, userID, fingerprint, req)
}

// createTxBatch makes a batch of transactions (POST .../trans/batch).
func (s *bankCore) createTxBatch(now time.Time, clientID, scope, userID, nodeID string, items []createTxRequest, enf enforcer) (batchResponse, error) {
	return s.store.batch(now, clientID, scope, userID, nodeID, items, enf)
}

// createUser makes a user (POST /users).
func (s *bankCore) createUser(now time.Time, req createUserRequest, fingerprint string) userView {
	return s.store.createUser(now, req, fingerprint)
}

// listUsers answers a page of users.
func (s *bankCore) listUsers(p page, query string, showTokens bool, f *filter.Filter) usersList {
	return s.store.listUsers(p, query, showTokens, f)
}

// getUser answers a user's view.
func (s *bankCore) getUser(id string, full bool) (userView, error) {
	return s.store.getUser(id, full)
}

// patchUser changes a user.
func (s *bankCore) patchUser(now time.Time, id string, req patchUserRequest, full bool, strict func(...brokenRule) error) (userView, error) {
	return s.store.patchUser(now, id, req, full, strict)
}

// resetLocked empties the store but for its era, id stream and options.
// Callers hold the lock.
func (st *store) resetLocked() {
	st.users, st.userOrder, st.goneUsers = map[string]*userRecord{}, nil, 0
	st.nodeOrder, st.txOrder = nil, nil
	st.nodes, st.keys, st.txs = map[string]*nodeRecord{}, map[string]*keyRecord{}, map[string]*txRecord{}
	st.subnets, st.subs, st.subOrder = map[string]*subnetRecord{}, map[string]*subscriptionRecord{}, nil
	st.steps, st.idem = nil, map[string]time.Time{}
	st.returnPlans, st.returnRules = nil, nil
	st.idemExpiry, st.keyExpiry = expiryQueue{}, expiryQueue{}
	st.bankLogins, st.bankLoginExpiry = nil, expiryQueue{}
	st.networkUser, st.network = nil, nil
	st.book = statementBook{}
	st.firstMonthly = math.MaxInt64
	st.bankLogins = nil
}

// listQuery is a list's page, order and filter (servePage reads them from
// the request).
type listQuery struct {
	page        page
	newestFirst bool
	filter      *filter.Filter
}

// pageLocked resolves a list's ids and builds the views of one page of
// it, in one lock hold: at a cost of O(page), or of one pass over the
// list with a filter. It answers the page and the (filtered) count.
func pageLocked[V any](s *bankCore, q listQuery, ids func(*store) ([]string, error), view func(*store, string) V) ([]V, int, error) {
	st := s.store
	defer st.lock().unlock()
	list, err := ids(st)
	if err != nil {
		return nil, 0, err
	}
	items, total := pageOf(list, q.page, q.newestFirst, nil, q.filter, func(id string) V { return view(st, id) })
	return items, total, nil
}

// ofNode resolves a list kept on a user's node.
func ofNode(userID, nodeID string, list func(*store, *nodeRecord) []string) func(*store) ([]string, error) {
	return func(st *store) ([]string, error) {
		n, err := st.userNode(userID, nodeID)
		if err != nil {
			return nil, err
		}
		return list(st, n), nil
	}
}

// ofUser resolves a list kept on a user.
func ofUser(userID string, list func(*store, *userRecord) []string) func(*store) ([]string, error) {
	return func(st *store) ([]string, error) {
		u := st.users[userID]
		if u == nil {
			return nil, apierr.NotFound("user")
		}
		return list(st, u), nil
	}
}

func txViewByID(st *store, id string) txView { return st.txView(st.txs[id]) }

func statementViewByID(st *store, id string) statementView {
	return st.statementView(st.book.byID[id])
}

func subnetViewByID(st *store, id string) subnetView { return st.subnetView(st.subnets[id], false) }

// nodeTxsPage answers a page of a node's transactions.
func (s *bankCore) nodeTxsPage(userID, nodeID string, q listQuery) ([]txView, int, error) {
	return pageLocked(s, q, ofNode(userID, nodeID, func(_ *store, n *nodeRecord) []string { return n.txIDs }), txViewByID)
}

// userTxsPage answers a page of a user's transactions.
func (s *bankCore) userTxsPage(userID string, q listQuery) ([]txView, int, error) {
	return pageLocked(s, q, ofUser(userID, func(_ *store, u *userRecord) []string { return u.txIDs }), txViewByID)
}

// clientTxsPage answers a page of every transaction of the client.
func (s *bankCore) clientTxsPage(q listQuery) ([]txView, int, error) {
	return pageLocked(s, q, func(st *store) ([]string, error) { return st.txOrder, nil }, txViewByID)
}

// clientNodesPage answers a page of every active node of the client's
// users, of the type typ (under any of its names) when it is not "".
func (s *bankCore) clientNodesPage(typ string, q listQuery) ([]nodeView, int, error) {
	return pageLocked(s, q,
		func(st *store) ([]string, error) {
			if typ == "" {
				return st.nodeOrder, nil
			}
			var ids []string
			for _, id := range st.nodeOrder {
				if sameNodeType(st.nodes[id].typ, typ) {
					ids = append(ids, id)
				}
			}
			return ids, nil
		},
		func(st *store, id string) nodeView { return st.nodeView(st.nodes[id]) })
}

// subscriptionsPage answers a page of the client's subscriptions.
func (s *bankCore) subscriptionsPage(q listQuery) ([]subscriptionView, int, error) {
	return pageLocked(s, q, func(st *store) ([]string, error) { return st.subOrder, nil },
		func(st *store, id string) subscriptionView { return st.subscriptionView(st.subs[id]) })
}

// userStatementsPage answers a page of a user's statements.
func (s *bankCore) userStatementsPage(userID string, q listQuery) ([]statementView, int, error) {
	return pageLocked(s, q, ofUser(userID, func(st *store, u *userRecord) []string { return st.book.byUser[u.id] }), statementViewByID)
}

// nodeStatementsPage answers a page of a node's statements.
func (s *bankCore) nodeStatementsPage(userID, nodeID string, q listQuery) ([]statementView, int, error) {
	return pageLocked(s, q, ofNode(userID, nodeID, func(st *store, n *nodeRecord) []string { return st.book.byNode[n.id] }), statementViewByID)
}

// nodeSubnetsPage answers a page of a node's subnets.
func (s *bankCore) nodeSubnetsPage(userID, nodeID string, q listQuery) ([]subnetView, int, error) {
	return pageLocked(s, q, ofNode(userID, nodeID, func(_ *store, n *nodeRecord) []string { return n.subnetIDs }), subnetViewByID)
}

// userSubnetsPage answers a page of a user's subnets.
func (s *bankCore) userSubnetsPage(userID string, q listQuery) ([]subnetView, int, error) {
	return pageLocked(s, q, ofUser(userID, func(_ *store, u *userRecord) []string { return u.subnetIDs }), subnetViewByID)
}

// shipmentsPage answers a page of a card subnet's shipments.
func (s *bankCore) shipmentsPage(userID, nodeID, subnetID string, q listQuery) ([]shipView, int, error) {
	var sn *subnetRecord
	return pageLocked(s, q,
		func(st *store) ([]string, error) {
			var err error
			sn, err = st.nodeSubnet(userID, nodeID, subnetID)
			if err != nil {
				return nil, err
			}
			ids := make([]string, len(sn.ships))
			for i, sh := range sn.ships {
				ids[i] = sh.id
			}
			return ids, nil
		},
		func(_ *store, id string) shipView { return sn.ship(id).view(sn) })
}

// fillTxLocked runs fn under the lock and, if it answers a transaction
// and no error, fills v with the transaction's view as it is afterwards.
func (s *bankCore) fillTxLocked(v *txView, fn func(*store) (*txRecord, error)) error {
	st := s.store
	defer st.lock().unlock()
	t, err := fn(st)
	if err == nil {
		st.fillTxView(v, t, t.timeline, t.code)
	}
	return err
}

// createTxInto makes a transaction (POST .../trans), applies the return
// rules (API transfers only) and fills v with its view.
func (s *bankCore) createTxInto(now time.Time, userID, nodeID string, req createTxRequest, fundsCheck bool, enf enforcer, v *txView) error {
	return s.fillTxLocked(v, func(st *store) (*txRecord, error) {
		t, err := st.createTx(now, userID, nodeID, req, fundsCheck, enf)
		if err == nil {
			st.applyReturnRules(t) // returns.go: API transfers only
		}
		return t, err
	})
}

// nodeTxAction runs fn, when not nil, on a node's transaction under the
// lock and fills v with the transaction's view as it is afterwards.
func (s *bankCore) nodeTxAction(userID, nodeID, txID string, v *txView, fn func(*store, *txRecord) error) error {
	return s.fillTxLocked(v, func(st *store) (*txRecord, error) {
		t, err := st.nodeTx(userID, nodeID, txID)
		if err == nil && fn != nil {
			err = fn(st, t)
		}
		return t, err
	})
}

// getTxInto fills v with a node's transaction's view.
func (s *bankCore) getTxInto(userID, nodeID, txID string, v *txView) error {
	return s.nodeTxAction(userID, nodeID, txID, v, nil)
}

// commentTxInto adds a comment to a node's transaction (none when blank)
// and fills v with its view.
func (s *bankCore) commentTxInto(now time.Time, userID, nodeID, txID string, blank bool, comment string, v *txView) error {
	return s.nodeTxAction(userID, nodeID, txID, v, func(st *store, t *txRecord) error {
		if blank {
			return nil
		}
		return st.addComment(t, now, comment)
	})
}

// cancelTxInto cancels a node's transaction and fills v with its view.
func (s *bankCore) cancelTxInto(now time.Time, userID, nodeID, txID string, v *txView) error {
	return s.nodeTxAction(userID, nodeID, txID, v, func(st *store, t *txRecord) error { return st.cancel(t, now, "") })
}

// createSubscription makes a webhook subscription.
func (s *bankCore) createSubscription(now time.Time, url string, scope []string) subscriptionView {
	st := s.store
	defer st.lock().unlock()
	return st.subscriptionView(st.newSubscription(now, url, scope))
}

// subscriptionAction runs fn, when not nil, on a subscription under the
// lock and answers its view afterwards.
func (s *bankCore) subscriptionAction(id string, fn func(*subscriptionRecord)) (subscriptionView, error) {
	st := s.store
	defer st.lock().unlock()
	sub := st.subs[id]
	if sub == nil {
		return subscriptionView{}, apierr.NotFound("subscription")
	}
	if fn != nil {
		fn(sub)
	}
	return st.subscriptionView(sub), nil
}

// getSubscription answers a subscription's view.
func (s *bankCore) getSubscription(id string) (subscriptionView, error) {
	return s.subscriptionAction(id, nil)
}

// patchSubscription changes what of a subscription is not nil.
func (s *bankCore) patchSubscription(id string, active *bool, url *string, scope *[]string) (subscriptionView, error) {
	return s.subscriptionAction(id, func(sub *subscriptionRecord) {
		if active != nil {
			sub.active = *active
		}
		if url != nil {
			sub.target = &hookTarget{subID: sub.id, url: *url}
		}
		if scope != nil {
			sub.scopes = slices.Clone(*scope)
		}
		sub.v++
	})
}

// disputeTx disputes a node's transaction.
func (s *bankCore) disputeTx(now time.Time, userID, nodeID, txID string, req disputeRequest) (disputeAnswer, error) {
	st := s.store
	defer st.lock().unlock()
	t, err := st.nodeTx(userID, nodeID, txID)
	if err != nil {
		return disputeAnswer{}, err
	}
	return st.dispute(t, nodeID, now, req)
}

// chargebackTx answers a dispute chargeback with docs documents, and the
// transaction's view afterwards.
func (s *bankCore) chargebackTx(now time.Time, txID string, docs int) (txView, error) {
	st := s.store
	defer st.lock().unlock()
	t := st.txs[txID]
	if t == nil {
		return txView{}, apierr.NotFound("transaction")
	}
	if err := st.disputeChargeback(t, now, docs); err != nil {
		return txView{}, err
	}
	return st.txView(t), nil
}

// dummyTx makes a dummy transaction on an account-number subnet.
func (s *bankCore) dummyTx(now time.Time, userID, nodeID, subnetID string, req dummyRequest, fundsCheck bool) (txView, error) {
	st := s.store
	defer st.lock().unlock()
	sn, err := st.nodeSubnet(userID, nodeID, subnetID)
	switch {
	case err != nil:
		return txView{}, err
	case sn.class == ClassCard:
		return txView{}, apierr.NotAllowed("not_an_account_number", "Dummy transactions need an account-number subnet, not a card.")
	case sn.status != SubnetActive:
		return txView{}, apierr.NotAllowed("subnet_not_active", "Subnet %s is %s; dummy transactions need an ACTIVE account number.", sn.id, sn.status)
	}
	return st.dummyView(now, st.nodes[sn.nodeID], sn, req, fundsCheck)
}

// legacyDummyTx makes a dummy transaction on a node, on its subnet
// subnetID when it is not "".
func (s *bankCore) legacyDummyTx(now time.Time, userID, nodeID, subnetID string, req dummyRequest, fundsCheck bool) (txView, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return txView{}, err
	}
	var sn *subnetRecord
	if subnetID != "" {
		if sn, err = st.nodeSubnet(userID, n.id, subnetID); err != nil {
			return txView{}, err
		}
	}
	return st.dummyView(now, n, sn, req, fundsCheck)
}

// getStatement answers a node's statement's view.
func (s *bankCore) getStatement(userID, nodeID, statementID string) (statementView, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return statementView{}, err
	}
	rec := st.book.byID[statementID]
	if rec == nil || rec.nodeID != n.id {
		return statementView{}, apierr.NotFound("statement")
	}
	return st.statementView(rec), nil
}

// createStatement makes an ad hoc statement of a deposit-type node over
// start..end, with its webhook when not nil: generated at once when
// immediate, QUEUED otherwise.
func (s *bankCore) createStatement(now time.Time, userID, nodeID string, start, end time.Time, webhook *string, immediate bool) (statementView, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err == nil && !reference.IsDepositType(n.typ) {
		err = apierr.Incorrect("statements_not_supported", "Node %s is of type %s; statements exist for deposit-type nodes only.", n.id, n.typ)
	}
	if err != nil {
		return statementView{}, err
	}
	rec := st.newStatement(now, n, StatementOnDemand, start, end)
	if webhook != nil {
		rec.webhook = *webhook
	}
	st.emitStatement(now, rec)
	if immediate {
		done := st.asBackend()
		st.generate(rec, now)
		st.emitStatement(now, rec)
		done()
	} else {
		st.book.pending = append(st.book.pending, rec.id)
	}
	return st.statementView(rec), nil
}

// statementFile answers what a generated statement's file is made from.
func (s *bankCore) statementFile(statementID, file string) (statementDoc, error) {
	st := s.store
	defer st.lock().unlock()
	rec := st.book.byID[statementID]
	switch {
	case rec == nil || rec.status != StatementGenerated:
		return statementDoc{}, apierr.NotFound("statement")
	case !slices.Contains(statementFiles, file):
		return statementDoc{}, apierr.NotFound("file")
	}
	return st.statementDoc(rec), nil
}

// duplicatesOf answers a user's duplicates, grouped by their permission.
func (s *bankCore) duplicatesOf(userID string) (duplicatesView, error) {
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return duplicatesView{}, apierr.NotFound("user")
	}
	v := duplicatesView{ClosedUsersID: []string{}, LockedUsersID: []string{}, OpenUsersID: []string{},
		Status: u.permission, UserID: u.id}
	for _, d := range st.duplicates(u) {
		switch d.user.permission {
		case PermissionClosed, PermissionMakeItGoAway:
			v.ClosedUsersID = append(v.ClosedUsersID, d.user.id)
		case PermissionLocked:
			v.LockedUsersID = append(v.LockedUsersID, d.user.id)
		default:
			v.OpenUsersID = append(v.OpenUsersID, d.user.id)
		}
		if v.Reason == nil {
			reason := d.reason
			v.Reason = &reason
		}
	}
	return v, nil
}

// swapDuplicates gives a closed or locked user the permission of its open
// duplicate toID, which takes the closed one's, and answers the user.
func (s *bankCore) swapDuplicates(now time.Time, userID, toID string) (userView, error) {
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return userView{}, apierr.NotFound("user")
	}
	to := st.users[toID]
	switch {
	case !st.isDuplicate(u, to):
		return userView{}, apierr.Incorrect("not_a_duplicate", "User %s is not a duplicate of user %s.", toID, u.id)
	case !u.locked():
		return userView{}, apierr.NotAllowed("user_not_closed", "User %s is %s; only a closed or locked user can be swapped in.", u.id, u.permission)
	case to.locked():
		return userView{}, apierr.NotAllowed("duplicate_not_open", "User %s is %s; the swap needs an open duplicate.", to.id, to.permission)
	}
	up, toP := to.permission, u.permission
	st.setPermission(u, up)
	st.setPermission(to, toP)
	u.updated, to.updated = now, now
	st.emitUser(now, "USER|PATCH", to)
	v := st.userView(u)
	st.emit(now, "USER|PATCH", "USER", u.id, v)
	return v, nil
}

// fileUBO files a user's UBO document.
func (s *bankCore) fileUBO(now time.Time, userID string) (userView, error) {
	st := s.store
	defer st.lock().unlock()
	return st.fileUBO(now, userID)
}

// subnetAction runs fn, when not nil, on a node's subnet under the lock
// and answers the subnet's view afterwards (full: the card number, cvc
// and account number).
func (s *bankCore) subnetAction(userID, nodeID, subnetID string, full bool, fn func(*store, *subnetRecord) error) (subnetView, error) {
	st := s.store
	defer st.lock().unlock()
	sn, err := st.nodeSubnet(userID, nodeID, subnetID)
	if err == nil && fn != nil {
		err = fn(st, sn)
	}
	if err != nil {
		return subnetView{}, err
	}
	return st.subnetView(sn, full), nil
}

// getSubnet answers a node's subnet's view.
func (s *bankCore) getSubnet(userID, nodeID, subnetID string, full bool) (subnetView, error) {
	return s.subnetAction(userID, nodeID, subnetID, full, nil)
}

// patchSubnet changes a node's subnet; strict reports the broken rules.
func (s *bankCore) patchSubnet(now time.Time, userID, nodeID, subnetID string, req patchSubnetRequest, strict func(...brokenRule) error) (subnetView, error) {
	return s.subnetAction(userID, nodeID, subnetID, false, func(st *store, sn *subnetRecord) error { return st.patchSubnet(sn, now, req, strict) })
}

// shipSubnet ships a card subnet.
func (s *bankCore) shipSubnet(now time.Time, userID, nodeID, subnetID string, req shipRequest) (subnetView, error) {
	return s.subnetAction(userID, nodeID, subnetID, false, func(st *store, sn *subnetRecord) error { return st.ship(sn, now, req) })
}

// shipmentAction runs fn, when not nil, on a card's shipment under the
// lock and answers the shipment's view afterwards.
func (s *bankCore) shipmentAction(userID, nodeID, subnetID, shipID string, fn func(*store, *subnetRecord, *shipRecord) error) (shipView, error) {
	st := s.store
	defer st.lock().unlock()
	sn, err := st.nodeSubnet(userID, nodeID, subnetID)
	if err != nil {
		return shipView{}, err
	}
	sh := sn.ship(shipID)
	if sh == nil {
		return shipView{}, apierr.NotFound("shipment")
	}
	if fn != nil {
		if err := fn(st, sn, sh); err != nil {
			return shipView{}, err
		}
	}
	return sh.view(sn), nil
}

// getShipment answers a card's shipment's view.
func (s *bankCore) getShipment(userID, nodeID, subnetID, shipID string) (shipView, error) {
	return s.shipmentAction(userID, nodeID, subnetID, shipID, nil)
}

// cancelShipment cancels a CREATED shipment; any other is refused.
func (s *bankCore) cancelShipment(now time.Time, userID, nodeID, subnetID, shipID string) (shipView, error) {
	return s.shipmentAction(userID, nodeID, subnetID, shipID, func(st *store, sn *subnetRecord, sh *shipRecord) error {
		if sh.status != ShipmentCreated {
			return apierr.NotAllowed("cannot_cancel_shipment", "Shipment in status %s cannot be canceled.", sh.status)
		}
		sh.status = ShipmentCanceled
		sn.updated = now
		st.emit(now, "SUBNET|PATCH", "SUBNET", sn.id, st.subnetView(sn, false))
		return nil
	})
}

// pushSeed answers what an ACTIVE card's push-to-wallet answer is derived
// from (the card, the wallet type and the nonce), or the refusal.
func (s *bankCore) pushSeed(userID, nodeID, subnetID, typ, nonce string) (string, error) {
	st := s.store
	defer st.lock().unlock()
	sn, err := st.nodeSubnet(userID, nodeID, subnetID)
	switch {
	case err != nil:
		return "", err
	case sn.class != ClassCard:
		return "", apierr.NotAllowed("not_a_card", "Only cards can be pushed to a wallet.")
	case sn.status != SubnetActive:
		return "", apierr.NotAllowed("card_not_active", "Only ACTIVE cards can be pushed to a wallet; this one is %s.", sn.status)
	}
	return sn.id + "|" + typ + "|" + nonce, nil
}

// applePaySeed answers what an active node's Apple Pay answer is derived
// from (the node and the nonce), or the refusal.
func (s *bankCore) applePaySeed(userID, nodeID, nonce string) (string, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return "", err
	}
	if !n.isActive {
		return "", apierr.NotAllowed("node_inactive", "Node %s is deleted.", n.id)
	}
	return n.id + "|" + PushApple + "|" + nonce, nil
}

// publicKey draws a client's (userID "") or a user's public key: the
// client's id, the key's lifetime (clientLifetime or userLifetime), when
// it expires and its random hex.
func (s *bankCore) publicKey(userID string, clientLifetime, userLifetime time.Duration) (clientID string, lifetime time.Duration, expires time.Time, key string, err error) {
	st := s.store
	defer st.lock().unlock()
	lifetime = clientLifetime
	if userID != "" {
		if st.users[userID] == nil {
			return "", 0, time.Time{}, "", apierr.NotFound("user")
		}
		lifetime = userLifetime
	}
	expires = s.Now().Add(lifetime)
	return st.client.ID, lifetime, expires, st.randomHex(20), nil
}

// createSubnet makes a subnet of a node and answers its view.
func (s *bankCore) createSubnet(now time.Time, userID, nodeID string, req createSubnetRequest) (subnetView, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err == nil {
		err = subnetNode(n)
	}
	if err != nil {
		return subnetView{}, err
	}
	sn := st.newSubnet(now, n, *req.Nickname, req.class(), req.SuppID, req.CardStyleID)
	v := st.subnetView(sn, false)
	st.emit(now, "SUBNETS|POST", "SUBNET", sn.id, v)
	return v, nil
}
