package bank

import (
	"context"
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

// DueAt is when the bank's first timed work falls due, in Unix
// milliseconds (runDue's fast path: one atomic load, inlined).
func (s *Bank) DueAt() int64 { return s.store.due.Load() }

// RunBankDue runs the bank's work due at now.
func (s *Bank) RunBankDue(now time.Time) { s.store.allDue(now) }

// TxViewAt answers a transaction's view as of an event (its timeline up
// to then and its code), under the lock.
func (s *Bank) TxViewAt(t *txRecord, timeline []statusEntry, code string) TxView {
	st := s.store
	defer st.lock().unlock()
	return st.txViewAt(t, timeline, code)
}

// IdemUsedAt answers when an idempotency key was used, and whether it
// still counts as used at now.
func (s *Bank) IdemUsedAt(key string, now time.Time) (time.Time, bool) {
	return s.store.idemUsedAt(key, now)
}

// UseIdem records an idempotency key as used at now.
func (s *Bank) UseIdem(key string, now time.Time) {
	st := s.store
	defer st.lock().unlock()
	st.useIdem(key, now)
}

// ResetBank empties the store; participant (the webhook side's reset)
// runs first inside the same lock hold, so that no event slips in
// between.
func (s *Bank) ResetBank(participant func()) {
	st := s.store
	defer st.lock().unlock()
	st.era++
	participant()
	st.resetLocked()
}

// NextCutoff answers the next instant after now of the cutoff c.
func (s *Bank) NextCutoff(now time.Time, c Cutoff) (time.Time, error) {
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

// LookupKey answers what an oauth key grants at now, and the refusal of a
// locked user (the key still opens the user itself).
func (s *Bank) LookupKey(key string, now time.Time) (keyGrant, *apierr.Error, error) {
	k, locked, err := s.store.lookupKey(key, now)
	return keyGrant{UserID: k.userID, Fingerprint: k.fingerprint, Scopes: k.scopes}, locked, err
}

// MakeBarcode makes a cash-deposit barcode for a node.
func (s *Bank) MakeBarcode(userID, nodeID string, req BarcodeRequest) (string, error) {
	return s.store.barcode(userID, nodeID, req)
}

// BankLogin starts a bank login (POST .../nodes with bank_id/bank_pw).
func (s *Bank) BankLogin(now time.Time, userID, username, password, bankName string) (BankLoginAnswer, error) {
	return s.store.bankLogin(now, userID, username, password, bankName)
}

// AnswerBankMFA answers a bank login's MFA question.
func (s *Bank) AnswerBankMFA(now time.Time, userID, token, answer string) (BankLoginAnswer, error) {
	return s.store.answerBankMFA(now, userID, token, answer)
}

// CreateNode makes a node (POST .../nodes).
func (s *Bank) CreateNode(now time.Time, userID string, req CreateNodeRequest) (NodeView, error) {
	return s.store.createNode(now, userID, req)
}

// ListNodes answers a user's page of nodes.
func (s *Bank) ListNodes(userID string, q ListQuery, typ string) (NodesList, error) {
	return s.store.listNodes(userID, q, typ)
}

// GetNode answers a node's view.
func (s *Bank) GetNode(userID, nodeID string) (NodeView, error) {
	return s.store.getNode(userID, nodeID)
}

// PatchNode changes a node.
func (s *Bank) PatchNode(now time.Time, userID, nodeID string, req PatchNodeRequest) (NodeView, error) {
	return s.store.patchNode(now, userID, nodeID, req)
}

// DeleteNode deletes (deactivates) a node.
func (s *Bank) DeleteNode(now time.Time, userID, nodeID string) (NodeView, error) {
	return s.store.deleteNode(now, userID, nodeID)
}

// GrantOAuth answers POST /oauth/{user_id}: a key, or an MFA question.
func (s *Bank) GrantOAuth(now time.Time, lifetime time.Duration, userID, fingerprint string, req OAuthRequest) (any, int, error) {
	return s.store.oauth(now, lifetime, userID, fingerprint, req)
}

// LoginRefreshToken answers POST /oauth/{user_id}/login: the user's
// current refresh token for one of its logins' email and password.
func (s *Bank) LoginRefreshToken(userID, fingerprint string, req LoginRequest) (any, error) {
	return s.store.login(userID, fingerprint, req)
}

// CreateTxBatch makes a batch of transactions (POST .../trans/batch).
func (s *Bank) CreateTxBatch(now time.Time, clientID, scope, userID, nodeID string, items []CreateTxRequest, enf Enforcer) (batchResponse, error) {
	return s.store.batch(now, clientID, scope, userID, nodeID, items, enf)
}

// CreateUser makes a user (POST /users).
func (s *Bank) CreateUser(now time.Time, req CreateUserRequest, fingerprint string) UserView {
	return s.store.createUser(now, req, fingerprint)
}

// ListUsers answers a page of users.
func (s *Bank) ListUsers(q ListQuery, query string, showTokens bool) (usersList, error) {
	return s.store.listUsers(q, query, showTokens)
}

// GetUser answers a user's view.
func (s *Bank) GetUser(id string, full bool) (UserView, error) {
	return s.store.getUser(id, full)
}

// PatchUser changes a user.
func (s *Bank) PatchUser(now time.Time, id string, req PatchUserRequest, full bool, strict func(...BrokenRule) error) (UserView, error) {
	return s.store.patchUser(now, id, req, full, strict)
}

// resetLocked empties the store but for its era, id stream and options.
// Callers hold the lock.
func (st *Store) resetLocked() {
	st.users, st.userOrder, st.userRecs, st.goneUsers = map[string]*userRecord{}, nil, nil, 0
	st.nodeOrder, st.txOrder = nil, nil
	st.nodes, st.keys, st.txs = map[string]*nodeRecord{}, map[string]*keyRecord{}, map[string]*txRecord{}
	st.subnets, st.subs, st.subOrder = map[string]*subnetRecord{}, map[string]*subscriptionRecord{}, nil
	st.steps, st.idem = nil, map[string]time.Time{}
	st.returnPlans, st.returnRules = nil, nil
	st.idemExpiry, st.keyExpiry = expiryQueue{}, expiryQueue{}
	st.bankLogins, st.bankLoginExpiry = nil, expiryQueue{}
	st.kycReviews = nil
	st.networkUser, st.network = nil, nil
	st.book = statementBook{}
	st.firstMonthly = math.MaxInt64
	st.bankLogins = nil
}

// ListQuery is a list's page, order and filter (servePage reads them from
// the request), and the request's context.
type ListQuery struct {
	Page        Page
	NewestFirst bool
	Filter      *filter.Filter
	// Ctx is the request's context: a filtered or searched list gives up
	// (503 / "503" request_canceled) when it ends. nil: never.
	Ctx context.Context

	// For tests: how many items a hold of the lock examines (0: as many as
	// listHold allows), and a function called between holds, the lock
	// released, with how many items have been examined.
	chunk   int
	between func(examined int)
}

// ofNode resolves a list kept on a user's node.
func ofNode(userID, nodeID string, list func(*Store, *nodeRecord) []string) func(*Store) ([]string, error) {
	return func(st *Store) ([]string, error) {
		n, err := st.userNode(userID, nodeID)
		if err != nil {
			return nil, err
		}
		return list(st, n), nil
	}
}

// ofUser resolves a list kept on a user.
func ofUser(userID string, list func(*Store, *userRecord) []string) func(*Store) ([]string, error) {
	return func(st *Store) ([]string, error) {
		u := st.users[userID]
		if u == nil {
			return nil, apierr.NotFound("user")
		}
		return list(st, u), nil
	}
}

// txsOf is the listing of a list of transactions.
func txsOf(ids func(*Store) ([]string, error)) listing[*txRecord, TxView] {
	return listing[*txRecord, TxView]{ids: ids, record: func(st *Store, id string) *txRecord { return st.txs[id] },
		view: (*Store).txView, fields: txFields, typed: typedTxFields}
}

// statementsOf is the listing of a list of statements.
func statementsOf(ids func(*Store) ([]string, error)) listing[*statementRecord, StatementView] {
	return listing[*statementRecord, StatementView]{ids: ids,
		record: func(st *Store, id string) *statementRecord { return st.book.byID[id] },
		view:   (*Store).statementView, fields: statementFields}
}

// subnetsOf is the listing of a list of subnets.
func subnetsOf(ids func(*Store) ([]string, error)) listing[*subnetRecord, SubnetView] {
	return listing[*subnetRecord, SubnetView]{ids: ids, record: func(st *Store, id string) *subnetRecord { return st.subnets[id] },
		view: func(st *Store, sn *subnetRecord) SubnetView { return st.subnetView(sn, false) }, fields: subnetFields}
}

// NodeTxsPage answers a page of a node's transactions.
func (s *Bank) NodeTxsPage(userID, nodeID string, q ListQuery) ([]TxView, int, error) {
	return pageOf(s.store, q, txsOf(ofNode(userID, nodeID, func(_ *Store, n *nodeRecord) []string { return n.txIDs })))
}

// UserTxsPage answers a page of a user's transactions.
func (s *Bank) UserTxsPage(userID string, q ListQuery) ([]TxView, int, error) {
	return pageOf(s.store, q, txsOf(ofUser(userID, func(_ *Store, u *userRecord) []string { return u.txIDs })))
}

// ClientTxsPage answers a page of every transaction of the client.
func (s *Bank) ClientTxsPage(q ListQuery) ([]TxView, int, error) {
	return pageOf(s.store, q, txsOf(func(st *Store) ([]string, error) { return st.txOrder, nil }))
}

// ClientNodesPage answers a page of every active node of the client's
// users, of the type typ (under any of its names) when it is not "".
func (s *Bank) ClientNodesPage(typ string, q ListQuery) ([]NodeView, int, error) {
	return pageOf(s.store, q, listing[*nodeRecord, NodeView]{
		ids:    func(st *Store) ([]string, error) { return st.nodeOrder, nil },
		record: nodeByID, skip: skipNodeType(typ), view: (*Store).nodeView, fields: nodeFields, typed: typedNodeFields,
	})
}

// SubscriptionsPage answers a page of the client's subscriptions.
func (s *Bank) SubscriptionsPage(q ListQuery) ([]SubscriptionView, int, error) {
	return pageOf(s.store, q, listing[*subscriptionRecord, SubscriptionView]{
		ids:    func(st *Store) ([]string, error) { return st.subOrder, nil },
		record: func(st *Store, id string) *subscriptionRecord { return st.subs[id] },
		view:   (*Store).subscriptionView, fields: subscriptionFields,
	})
}

// UserStatementsPage answers a page of a user's statements.
func (s *Bank) UserStatementsPage(userID string, q ListQuery) ([]StatementView, int, error) {
	return pageOf(s.store, q, statementsOf(ofUser(userID, func(st *Store, u *userRecord) []string { return st.book.byUser[u.id] })))
}

// NodeStatementsPage answers a page of a node's statements.
func (s *Bank) NodeStatementsPage(userID, nodeID string, q ListQuery) ([]StatementView, int, error) {
	return pageOf(s.store, q, statementsOf(ofNode(userID, nodeID, func(st *Store, n *nodeRecord) []string { return st.book.byNode[n.id] })))
}

// NodeSubnetsPage answers a page of a node's subnets.
func (s *Bank) NodeSubnetsPage(userID, nodeID string, q ListQuery) ([]SubnetView, int, error) {
	return pageOf(s.store, q, subnetsOf(ofNode(userID, nodeID, func(_ *Store, n *nodeRecord) []string { return n.subnetIDs })))
}

// UserSubnetsPage answers a page of a user's subnets.
func (s *Bank) UserSubnetsPage(userID string, q ListQuery) ([]SubnetView, int, error) {
	return pageOf(s.store, q, subnetsOf(ofUser(userID, func(_ *Store, u *userRecord) []string { return u.subnetIDs })))
}

// ShipmentsPage answers a page of a card subnet's shipments.
func (s *Bank) ShipmentsPage(userID, nodeID, subnetID string, q ListQuery) ([]ShipView, int, error) {
	var sn *subnetRecord // the subnet as of the hold: ids sets it
	return pageOf(s.store, q, listing[*shipRecord, ShipView]{
		ids: func(st *Store) ([]string, error) {
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
		record: func(_ *Store, id string) *shipRecord { return sn.ship(id) },
		view:   func(_ *Store, sh *shipRecord) ShipView { return sh.view(sn) },
	})
}

// fillTxAfter takes the lock, runs fn and, if it answers a transaction
// and no error, fills v with the transaction's view as it is afterwards.
func (s *Bank) fillTxAfter(v *TxView, fn func(*Store) (*txRecord, error)) error {
	st := s.store
	defer st.lock().unlock()
	t, err := fn(st)
	if err == nil {
		st.fillTxView(v, t, t.timeline, t.code)
	}
	return err
}

// CreateTxInto makes a transaction (POST .../trans), applies the return
// rules (API transfers only) and fills v with its view.
func (s *Bank) CreateTxInto(now time.Time, userID, nodeID string, req CreateTxRequest, fundsCheck bool, enf Enforcer, v *TxView) error {
	return s.fillTxAfter(v, func(st *Store) (*txRecord, error) {
		t, err := st.createTx(now, userID, nodeID, req, fundsCheck, enf)
		if err == nil {
			st.applyReturnRules(t) // returns.go: API transfers only
			st.holdForKYC(t, now)
		}
		return t, err
	})
}

// nodeTxAction runs fn, when not nil, on a node's transaction under the
// lock and fills v with the transaction's view as it is afterwards.
func (s *Bank) nodeTxAction(userID, nodeID, txID string, v *TxView, fn func(*Store, *txRecord) error) error {
	return s.fillTxAfter(v, func(st *Store) (*txRecord, error) {
		t, err := st.nodeTx(userID, nodeID, txID)
		if err == nil && fn != nil {
			err = fn(st, t)
		}
		return t, err
	})
}

// GetTxInto fills v with a node's transaction's view.
func (s *Bank) GetTxInto(userID, nodeID, txID string, v *TxView) error {
	return s.nodeTxAction(userID, nodeID, txID, v, nil)
}

// CommentTxInto adds a comment to a node's transaction (none when blank)
// and fills v with its view.
func (s *Bank) CommentTxInto(now time.Time, userID, nodeID, txID string, blank bool, comment string, v *TxView) error {
	return s.nodeTxAction(userID, nodeID, txID, v, func(st *Store, t *txRecord) error {
		if blank {
			return nil
		}
		return st.addComment(t, now, comment)
	})
}

// CancelTxInto cancels a node's transaction and fills v with its view.
func (s *Bank) CancelTxInto(now time.Time, userID, nodeID, txID string, v *TxView) error {
	return s.nodeTxAction(userID, nodeID, txID, v, func(st *Store, t *txRecord) error { return st.cancel(t, now, "") })
}

// CreateSubscription makes a webhook subscription.
func (s *Bank) CreateSubscription(now time.Time, url string, scope []string) SubscriptionView {
	st := s.store
	defer st.lock().unlock()
	return st.subscriptionView(st.newSubscription(now, url, scope))
}

// subscriptionAction runs fn, when not nil, on a subscription under the
// lock and answers its view afterwards.
func (s *Bank) subscriptionAction(id string, fn func(*subscriptionRecord)) (SubscriptionView, error) {
	st := s.store
	defer st.lock().unlock()
	sub := st.subs[id]
	if sub == nil {
		return SubscriptionView{}, apierr.NotFound("subscription")
	}
	if fn != nil {
		fn(sub)
	}
	return st.subscriptionView(sub), nil
}

// GetSubscription answers a subscription's view.
func (s *Bank) GetSubscription(id string) (SubscriptionView, error) {
	return s.subscriptionAction(id, nil)
}

// PatchSubscription changes what of a subscription is not nil.
func (s *Bank) PatchSubscription(id string, active *bool, url *string, scope *[]string) (SubscriptionView, error) {
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

// DisputeTx disputes a node's transaction.
func (s *Bank) DisputeTx(now time.Time, userID, nodeID, txID string, req DisputeRequest) (disputeAnswer, error) {
	st := s.store
	defer st.lock().unlock()
	t, err := st.nodeTx(userID, nodeID, txID)
	if err != nil {
		return disputeAnswer{}, err
	}
	return st.dispute(t, nodeID, now, req)
}

// ChargebackTx answers a dispute chargeback with docs documents, and the
// transaction's view afterwards.
func (s *Bank) ChargebackTx(now time.Time, txID string, docs int) (TxView, error) {
	st := s.store
	defer st.lock().unlock()
	t := st.txs[txID]
	if t == nil {
		return TxView{}, apierr.NotFound("transaction")
	}
	if err := st.disputeChargeback(t, now, docs); err != nil {
		return TxView{}, err
	}
	return st.txView(t), nil
}

// DummyTx makes a dummy transaction on an account-number subnet.
func (s *Bank) DummyTx(now time.Time, userID, nodeID, subnetID string, req DummyRequest, fundsCheck bool) (TxView, error) {
	st := s.store
	defer st.lock().unlock()
	sn, err := st.nodeSubnet(userID, nodeID, subnetID)
	switch {
	case err != nil:
		return TxView{}, err
	case sn.class == ClassCard:
		return TxView{}, apierr.NotAllowed("not_an_account_number", "Dummy transactions need an account-number subnet, not a card.")
	case sn.status != SubnetActive:
		return TxView{}, apierr.NotAllowed("subnet_not_active", "Subnet %s is %s; dummy transactions need an ACTIVE account number.", sn.id, sn.status)
	}
	return st.dummyView(now, st.nodes[sn.nodeID], sn, req, fundsCheck)
}

// LegacyDummyTx makes a dummy transaction on a node, on its subnet
// subnetID when it is not "".
func (s *Bank) LegacyDummyTx(now time.Time, userID, nodeID, subnetID string, req DummyRequest, fundsCheck bool) (TxView, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return TxView{}, err
	}
	var sn *subnetRecord
	if subnetID != "" {
		if sn, err = st.nodeSubnet(userID, n.id, subnetID); err != nil {
			return TxView{}, err
		}
	}
	return st.dummyView(now, n, sn, req, fundsCheck)
}

// GetStatement answers a node's statement's view.
func (s *Bank) GetStatement(userID, nodeID, statementID string) (StatementView, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return StatementView{}, err
	}
	rec := st.book.byID[statementID]
	if rec == nil || rec.nodeID != n.id {
		return StatementView{}, apierr.NotFound("statement")
	}
	return st.statementView(rec), nil
}

// CreateStatement makes an ad hoc statement of a deposit-type node over
// start..end, with its webhook when not nil: generated at once when
// immediate, QUEUED otherwise.
func (s *Bank) CreateStatement(now time.Time, userID, nodeID string, start, end time.Time, webhook *string, immediate bool) (StatementView, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err == nil && !reference.IsDepositType(n.typ) {
		err = apierr.Incorrect("statements_not_supported", "Node %s is of type %s; statements exist for deposit-type nodes only.", n.id, n.typ)
	}
	if err != nil {
		return StatementView{}, err
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

// StatementFile answers what a generated statement's file is made from.
func (s *Bank) StatementFile(statementID, file string) (statementDoc, error) {
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

// DuplicatesOf answers a user's duplicates, grouped by their permission.
func (s *Bank) DuplicatesOf(userID string) (DuplicatesView, error) {
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return DuplicatesView{}, apierr.NotFound("user")
	}
	v := DuplicatesView{ClosedUsersID: []string{}, LockedUsersID: []string{}, OpenUsersID: []string{},
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

// SwapDuplicates gives a closed or locked user the permission of its open
// duplicate toID, which takes the closed one's, and answers the user.
func (s *Bank) SwapDuplicates(now time.Time, userID, toID string) (UserView, error) {
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return UserView{}, apierr.NotFound("user")
	}
	to := st.users[toID]
	switch {
	case !st.isDuplicate(u, to):
		return UserView{}, apierr.Incorrect("not_a_duplicate", "User %s is not a duplicate of user %s.", toID, u.id)
	case !u.locked():
		return UserView{}, apierr.NotAllowed("user_not_closed", "User %s is %s; only a closed or locked user can be swapped in.", u.id, u.permission)
	case to.locked():
		return UserView{}, apierr.NotAllowed("duplicate_not_open", "User %s is %s; the swap needs an open duplicate.", to.id, to.permission)
	}
	up, toP := to.permission, u.permission
	st.setPermission(u, up, now, PermissionByPlatform)
	st.setPermission(to, toP, now, PermissionByPlatform)
	u.updated, to.updated = now, now
	st.emitUser(now, "USER|PATCH", to)
	v := st.userView(u)
	st.emit(now, "USER|PATCH", "USER", u.id, v)
	return v, nil
}

// FileUBO files a user's UBO document.
func (s *Bank) FileUBO(now time.Time, userID string) (UserView, error) {
	st := s.store
	defer st.lock().unlock()
	return st.fileUBO(now, userID)
}

// subnetAction runs fn, when not nil, on a node's subnet under the lock
// and answers the subnet's view afterwards (full: the card number, cvc
// and account number).
func (s *Bank) subnetAction(userID, nodeID, subnetID string, full bool, fn func(*Store, *subnetRecord) error) (SubnetView, error) {
	st := s.store
	defer st.lock().unlock()
	sn, err := st.nodeSubnet(userID, nodeID, subnetID)
	if err == nil && fn != nil {
		err = fn(st, sn)
	}
	if err != nil {
		return SubnetView{}, err
	}
	return st.subnetView(sn, full), nil
}

// GetSubnet answers a node's subnet's view.
func (s *Bank) GetSubnet(userID, nodeID, subnetID string, full bool) (SubnetView, error) {
	return s.subnetAction(userID, nodeID, subnetID, full, nil)
}

// PatchSubnet changes a node's subnet; strict reports the broken rules.
func (s *Bank) PatchSubnet(now time.Time, userID, nodeID, subnetID string, req PatchSubnetRequest, strict func(...BrokenRule) error) (SubnetView, error) {
	return s.subnetAction(userID, nodeID, subnetID, false, func(st *Store, sn *subnetRecord) error { return st.patchSubnet(sn, now, req, strict) })
}

// ShipSubnet ships a card subnet.
func (s *Bank) ShipSubnet(now time.Time, userID, nodeID, subnetID string, req ShipRequest) (SubnetView, error) {
	return s.subnetAction(userID, nodeID, subnetID, false, func(st *Store, sn *subnetRecord) error { return st.ship(sn, now, req) })
}

// shipmentAction runs fn, when not nil, on a card's shipment under the
// lock and answers the shipment's view afterwards.
func (s *Bank) shipmentAction(userID, nodeID, subnetID, shipID string, fn func(*Store, *subnetRecord, *shipRecord) error) (ShipView, error) {
	st := s.store
	defer st.lock().unlock()
	sn, err := st.nodeSubnet(userID, nodeID, subnetID)
	if err != nil {
		return ShipView{}, err
	}
	sh := sn.ship(shipID)
	if sh == nil {
		return ShipView{}, apierr.NotFound("shipment")
	}
	if fn != nil {
		if err := fn(st, sn, sh); err != nil {
			return ShipView{}, err
		}
	}
	return sh.view(sn), nil
}

// GetShipment answers a card's shipment's view.
func (s *Bank) GetShipment(userID, nodeID, subnetID, shipID string) (ShipView, error) {
	return s.shipmentAction(userID, nodeID, subnetID, shipID, nil)
}

// CancelShipment cancels a CREATED shipment; any other is refused.
func (s *Bank) CancelShipment(now time.Time, userID, nodeID, subnetID, shipID string) (ShipView, error) {
	return s.shipmentAction(userID, nodeID, subnetID, shipID, func(st *Store, sn *subnetRecord, sh *shipRecord) error {
		if sh.status != ShipmentCreated {
			return apierr.NotAllowed("cannot_cancel_shipment", "Shipment in status %s cannot be canceled.", sh.status)
		}
		sh.status = ShipmentCanceled
		sn.updated = now
		st.emit(now, "SUBNET|PATCH", "SUBNET", sn.id, st.subnetView(sn, false))
		return nil
	})
}

// PushSeed answers what an ACTIVE card's push-to-wallet answer is derived
// from (the card, the wallet type and the nonce), or the refusal.
func (s *Bank) PushSeed(userID, nodeID, subnetID, typ, nonce string) (string, error) {
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

// ApplePaySeed answers what an active node's Apple Pay answer is derived
// from (the node and the nonce), or the refusal.
func (s *Bank) ApplePaySeed(userID, nodeID, nonce string) (string, error) {
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

// PublicKey draws a client's (userID "") or a user's public key: the
// client's id, the key's lifetime (clientLifetime or userLifetime), when
// it expires and its random hex.
func (s *Bank) PublicKey(userID string, clientLifetime, userLifetime time.Duration) (clientID string, lifetime time.Duration, expires time.Time, key string, err error) {
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

// CreateSubnet makes a subnet of a node and answers its view.
func (s *Bank) CreateSubnet(now time.Time, userID, nodeID string, req CreateSubnetRequest) (SubnetView, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err == nil {
		err = subnetNode(n)
	}
	if err != nil {
		return SubnetView{}, err
	}
	sn := st.newSubnet(now, n, *req.Nickname, req.class(), req.SuppID, req.CardStyleID)
	v := st.subnetView(sn, false)
	st.emit(now, "SUBNETS|POST", "SUBNET", sn.id, v)
	return v, nil
}
