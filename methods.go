package synapsefake

import (
	"io"
	"time"
)

// AddNode creates a node for an existing user directly in the store and
// returns a copy of it. Type defaults to DEPOSIT-US and Nickname to "Node".
// What the service would refuse is an error and adds nothing: an unknown
// user (404 / "404" on the wire) or node type, a Nickname longer than 256
// characters, a BalanceCents outside ±MaxBalanceCents, a RoutingNum that
// is not a routing number, an ACH-US AccountNum that is not 4 to 17 digits.
func (s *Server) AddNode(userID string, seed NodeSeed) (Node, error) {
	return s.core.AddNode(userID, seed)
}

// AddReturnRule adds a rule after the others and returns the rules now in
// force. A rule that matches nothing, a return code that is not one or an
// After past the code's window without Late is refused.
func (s *Server) AddReturnRule(r ReturnRule) ([]ReturnRule, error) {
	return s.core.AddReturnRule(r)
}

// AddSubnet issues a subnet on a user's node directly in the store and
// returns a copy of it, or an error when the node is unknown, not the user's
// or of a type that holds no subnets, or the class or status is unknown.
func (s *Server) AddSubnet(userID, nodeID string, seed SubnetSeed) (Subnet, error) {
	return s.core.AddSubnet(userID, nodeID, seed)
}

// AddSubscription subscribes url to webhooks of the given scopes (all eight
// subscription scopes when none are given: TRANS|POST|JIT, which makes url
// decide card swipes, only when asked for) and returns a copy of it. A
// scope that is not one of the eight nor TRANS|POST|JIT, or a url that is
// not an absolute http or https URL, is an error, as POST /subscriptions
// refuses them, and adds nothing.
func (s *Server) AddSubscription(url string, scopes ...string) (Subscription, error) {
	return s.core.AddSubscription(url, scopes...)
}

// AddUser creates a user directly in the store, without HTTP, and returns a
// copy of it. Empty fields of seed get defaults: an example.com email, the
// phone number 901.111.1111 and the legal name "Test User". A seed the
// service would refuse (an unknown Permission) is an error, and adds
// nothing.
func (s *Server) AddUser(seed UserSeed) (User, error) {
	return s.core.AddUser(seed)
}

// Advance moves the server's mock clock forward by d. Before it returns,
// everything that fell due (processing steps, expiries, webhook retries) has
// run, in due order, and every webhook delivery that caused has been
// attempted, within Flush's bound of real time (so do not call Advance from
// a webhook receiver's handler). With a clock given to WithClock that is
// not a *clock.Mock, Advance moves nothing and only runs what is already
// due (POST /_fake/clock/advance refuses such a clock a duration above 0,
// 409 / "410" clock_not_manual).
func (s *Server) Advance(d time.Duration) {
	s.core.Advance(d)
}

// AdvanceToCutoff moves the clock, as Advance does, to the next moment
// after now that the named deadline falls on a business day (for
// CutoffSameDay, the next same-day window's deadline), and returns the new
// time. A transfer created at that moment still makes the deadline. It
// returns an error for an unknown Cutoff (400 / "200" invalid_cutoff) and,
// as AdvanceTo does, for a clock given to WithClock that is not a
// *clock.Mock, which cannot be moved (409 / "410" clock_not_manual, as POST
// /_fake/clock/cutoff answers under the binary's -clock real); then it does
// nothing and returns Now.
func (s *Server) AdvanceToCutoff(c Cutoff) (time.Time, error) {
	return s.core.AdvanceToCutoff(c)
}

// AdvanceToNextBusinessDay moves the clock, as Advance does, to 00:00 US
// Eastern time of the next Federal Reserve business day, and returns the
// new time. A clock given to WithClock that is not a *clock.Mock cannot be
// moved: as Advance does, it then only runs what is already due, and it
// returns Now, not a business day (POST /_fake/clock/next-business-day
// refuses such a clock, 409 / "410" clock_not_manual).
func (s *Server) AdvanceToNextBusinessDay() time.Time {
	return s.core.AdvanceToNextBusinessDay()
}

// AdvanceTransaction makes one legal move of a transaction to status. It is
// the state machine's own step, without the rules of the helpers that name
// a reason: a move to RETURNED carries no code and checks no rail or
// return window (Return does both).
func (s *Server) AdvanceTransaction(id string, status Status) error {
	return s.core.AdvanceTransaction(id, status)
}

// Cancel cancels a CREATED or queued transaction with a reason code (may be
// empty), as DELETE does.
func (s *Server) Cancel(id, code string) error {
	return s.core.Cancel(id, code)
}

// CardAuthorization simulates a swipe of a card subnet. An approved swipe
// creates a transaction from the card's node to the card network's
// INTERCHANGE-US node that follows the normal state machine. A declined
// swipe is recorded as a RETURNED transaction, no money moved, with
// recent_status.code set, and is returned without an error. The rules,
// first match wins:
//
//	DeclineWith set                               -> that code
//	card's node deleted                           -> IR175 account closed
//	card's user LOCKED, CLOSED or MAKE-IT-GO-AWAY -> IR62 card restricted
//	card TERMINATED                               -> IR62 card restricted
//	card INACTIVE                                 -> IR04 card not activated
//	fake clock past the card's exp date           -> IR54 card expired
//	Cash and allow_cash_transactions false        -> IR57 not permitted to cardholder
//	Foreign and allow_foreign_transactions false  -> IR57 not permitted to cardholder
//	amount over the node's available balance      -> IR51 insufficient funds
//	  (its balance less approved swipes and
//	  transactions not yet debited)
//	today's approved swipes + amount over daily_transaction_limit -> IR185
//	Cash: today's approved cash + amount over daily_cash_limit    -> IR185
//
// "Today" is the fake clock's UTC day; only today's swipes that were
// approved and not since canceled or returned count toward the limits. An
// error means the swipe could not be made at all: an unknown subnet, one
// that is not a card, an amount that is not from 1 to MaxAmountCents or an
// unknown DeclineWith code.
//
// When an active subscription holds TRANS|POST|JIT, a swipe that passes
// the rules down to IR57 is first put to the platform (transaction
// decisioning, jit.go): CardAuthorization then waits, holding no lock, for
// its answer, at most the JIT deadline.
func (s *Server) CardAuthorization(subnetID string, auth CardAuth) (Transaction, error) {
	return s.core.CardAuthorization(subnetID, auth)
}

// ClearAuthorization clears a card authorization that still holds its
// amount (CREATED) for amountCents, which may be more (a tip, a fuel pump's
// final amount) or less than what was authorized: the hold becomes the
// debit of amountCents, and the transaction walks at once through
// PROCESSING-DEBIT (its note names both amounts), PROCESSING-CREDIT and
// SETTLED, each with its TRAN|PATCH showing amount.amount = the cleared
// amount and extra.other.authorized_amount = the authorized one. Clearing
// cannot be declined: a clearing over the available balance takes the
// node's available balance below zero. Only the balance limits refuse it
// (409 / "400" balance_limit).
func (s *Server) ClearAuthorization(id string, amountCents int64) error {
	return s.core.ClearAuthorization(id, amountCents)
}

// ClearReturnRules removes every return rule. Returns the rules already
// planned still happen.
func (s *Server) ClearReturnRules() {
	s.core.ClearReturnRules()
}

// ContestDishonor contests the dishonor of a transaction's return, as the
// receiving bank does with a contested dishonored return code (R71
// misrouted dishonored return, R72 untimely dishonored return, R73 timely
// original return, R74 corrected return, R75 return not a duplicate, R76
// no errors found, R77 non-acceptance of R62 dishonored return) within two
// banking days after the dishonor (to 24:00 ET of the second banking day).
// The return stands again: the sender gets the amount back, the receiver
// and fee nodes give back what they were credited, and the transaction is
// RETURNED with recent_status.code the contest's code, a timeline entry and
// a TRAN|PATCH webhook. Refused with 409 / "410", changing nothing:
// another code family (wrong_code_family), a transaction whose return was
// not dishonored (not_dishonored), a dishonor already contested
// (already_contested), past the window (contest_window_passed), a
// transaction its user disputed since (transaction_disputed).
func (s *Server) ContestDishonor(id, code string) error {
	return s.core.ContestDishonor(id, code)
}

// DishonorReturn dishonors the return of a RETURNED ACH transaction, as
// the originating bank does with a dishonored return code (R61 misrouted
// return, R62, R67 duplicate return, R68 untimely return, R69 field
// errors, R70 permissible return entry not accepted) within five banking
// days after the return's settlement (to 24:00 ET of the fifth banking
// day). The return is reversed: the sender pays the amount again, the
// receiver and fee nodes are credited again, and the transaction is
// SETTLED again with recent_status.code the dishonor's code, a timeline
// entry ("R68: untimely return. Return R01 dishonored; the transfer
// stands.") and a TRAN|PATCH webhook. Refused with 409 / "410", changing
// nothing: another code family (wrong_code_family), a transaction that is
// not RETURNED (not_returned), not on ACH (return_code_not_for_rail),
// already dishonored (already_dishonored), a dispute's credit returned by
// its lost dispute (dispute_posting), past the window
// (dishonor_window_passed); an unknown code is 400 / "200".
func (s *Server) DishonorReturn(id, code string) error {
	return s.core.DishonorReturn(id, code)
}

// FailNext makes the next times requests that match method and pattern
// answer the real error envelope of errorCode ("429", "500", "503", "504",
// "460", or any code of reference.ErrorCodes) and change nothing. pattern is
// the route as the spec writes it, without the version prefix, with {name}
// wildcards: FailNext("POST", "/users/{user_id}/nodes/{node_id}/trans", "503", 1).
// An empty or "*" method or pattern matches any. An unknown route or code
// panics, as a mistake in the test.
func (s *Server) FailNext(method, pattern string, errorCode string, times int) {
	s.core.FailNext(method, pattern, errorCode, times)
}

// Flush blocks until no webhook delivery is queued or in flight, for at
// most the webhook timeout plus a second of real time (a receiver that
// hangs holds up Flush and Advance no longer than that). Retries
// scheduled on the clock are not waited for: Advance makes them due.
// Do not call it from a webhook receiver's handler.
func (s *Server) Flush() {
	s.core.Flush()
}

// ForceMFA makes the next OAuth call for the user answer 202 (the MFA path)
// even for a registered fingerprint, until a correct validation_pin is sent.
// It reports false for an unknown user.
func (s *Server) ForceMFA(userID string) bool {
	return s.core.ForceMFA(userID)
}

// ForcePost clears a card purchase that was never authorized, as a merchant
// that was offline or below its floor limit does: a transaction of
// auth.AmountCents from the card's node to the card network, with
// from.meta.is_force_post true and extra.other.authorized_amount 0, made
// and walked to SETTLED at once (TRANS|POST, then a TRAN|PATCH per step).
// A force post cannot be declined: the card's rules are not applied and it
// may take the node's available balance below zero; it does count toward
// the card's daily limits for later swipes. AmountCents must be from 1 to
// MaxAmountCents; DeclineWith and Hold must be unset. A card whose node is
// deleted (node_inactive) or whose user is locked (user_locked) takes none.
func (s *Server) ForcePost(subnetID string, auth CardAuth) (Transaction, error) {
	return s.core.ForcePost(subnetID, auth)
}

// Fund adds cents to a node's balance, as AddNode's BalanceCents does: no
// transaction and no webhook, a line "Funds added" on its statements. It
// is for a node the application created over HTTP, which starts empty. A
// node that does not exist, is not active (409 / "410" node_inactive),
// whose user is LOCKED, CLOSED or MAKE-IT-GO-AWAY (409 / "410"
// user_locked: no money reaches such a user's node, as no transfer to it
// is taken; fund it before the lock, or give AddNode a BalanceCents), or
// whose balance would leave ±MaxBalanceCents, or cents that is not
// positive, is an error and changes nothing.
func (s *Server) Fund(nodeID string, cents int64) error {
	return s.core.Fund(nodeID, cents)
}

// IncrementAuthorization raises a card authorization that still holds its
// amount (CREATED) by amountCents, as a hotel or a car rental does: the
// amount and the hold grow, the available balance drops by amountCents, and
// the timeline gains a CREATED entry. The increment is checked like a swipe
// of amountCents (the card's status, the available balance, the daily
// limits counting the authorization's current amount); a declined increment
// is refused with 409 / "400" authorization_declined naming the IR code, and
// the authorization stands as it was. A hold's expiry does not move.
func (s *Server) IncrementAuthorization(id string, amountCents int64) error {
	return s.core.IncrementAuthorization(id, amountCents)
}

// LoadWorld reads a world file (see World for the format) and creates its
// objects. The ids come from the server's id stream, so the same file loaded
// into fresh servers of the same seed gives the same ids. A file that is not
// valid, or that breaks a rule of the API, is refused with an error naming
// the entry (400 / "200" over HTTP) and changes nothing: the world is first
// loaded into a scratch server of the same options and clock time.
func (s *Server) LoadWorld(r io.Reader) (World, error) {
	return s.core.LoadWorld(r)
}

// LoseDispute decides a transaction's dispute against the side that filed
// it: a provisional credit is returned, otherwise no money moves. The
// disputed transaction gets a timeline note and a TRAN|PATCH webhook.
func (s *Server) LoseDispute(txID string) error {
	return s.core.LoseDispute(txID)
}

// MFAPin is the validation pin the fake "sent" to the user's phone: 123456,
// as in the real sandbox. It returns "" for an unknown user.
func (s *Server) MFAPin(userID string) string {
	return s.core.MFAPin(userID)
}

// Node returns a copy of a node and whether it exists.
func (s *Server) Node(id string) (Node, bool) {
	return s.core.Node(id)
}

// Now is the server's current time, in milliseconds.
func (s *Server) Now() time.Time {
	return s.core.Now()
}

// OAuthKey registers fingerprint for the user and mints a valid oauth_key
// with the given scopes (every user-level scope when none are given), as if
// the OAuth dance had been walked. Clients send it as
// X-SP-USER: "<key>|<fingerprint>". It returns "" for an unknown user, a
// fingerprint POST /oauth would refuse (not 1 to 256 letters, digits, '-',
// '_' or '.') or an unknown scope. It
// mints a key for a LOCKED, CLOSED or MAKE-IT-GO-AWAY user too, whom
// POST /oauth refuses, so that a test can show what such a user's money
// moves get (409 / "410" user_locked).
func (s *Server) OAuthKey(userID, fingerprint string, scopes ...string) string {
	return s.core.OAuthKey(userID, fingerprint, scopes...)
}

// Queue puts a CREATED transaction in QUEUED-BY-SYNAPSE with a reason code
// (free text, shown in recent_status.code). Processing stops until Release.
func (s *Server) Queue(id, code string) error {
	return s.core.Queue(id, code)
}

// RefundCard credits a card's node with a merchant's refund: a transaction
// of amountCents from the card network's INTERCHANGE-US node to the card's
// node, with extra.other.is_refund true, made and walked to SETTLED at once
// (TRANS|POST, then a TRAN|PATCH per step), so the node's balance and
// available balance grow by amountCents. Refunds are not purchases: they do
// not count toward the card's limits and are made whatever the card's
// status, though not to a deleted node (node_inactive) or a locked user's
// (user_locked). amountCents must be from 1 to MaxAmountCents; merchant ""
// is SYNAPSEFAKE MERCHANT.
func (s *Server) RefundCard(subnetID string, amountCents int64, merchant string) (Transaction, error) {
	return s.core.RefundCard(subnetID, amountCents, merchant)
}

// Release moves a queued transaction back to CREATED; processing starts again
// from the clock's current time.
func (s *Server) Release(id string) error {
	return s.core.Release(id)
}

// Requests returns the API calls the server answered, oldest first: the
// newest calls that fit in the journal's bounds (WithJournalLimit; by
// default 10,000 calls and 8 MiB). The /_fake/ control API is not recorded.
func (s *Server) Requests() []Request {
	return s.core.Requests()
}

// RequestsTo returns the calls to one route, as FailNext names routes:
// RequestsTo("POST", "/users/{user_id}/nodes/{node_id}/trans"). An empty
// method matches any.
func (s *Server) RequestsTo(method, route string) []Request {
	return s.core.RequestsTo(method, route)
}

// Reset empties the whole store (users, nodes, transactions, subnets,
// subscriptions, keys, idempotency keys, bank-login questions, statements
// and their ledger), the webhook capture, the webhook log, queued
// deliveries and retries, the request journal and pending faults, as if
// the server had just started.
// The clock and the id stream go on.
func (s *Server) Reset() {
	s.core.Reset()
}

// ResetRequests empties the journal.
func (s *Server) ResetRequests() {
	s.core.ResetRequests()
}

// Restore replaces the server's whole state with a document Snapshot
// wrote. A document that is not valid JSON, is of another format or
// version, was saved by a server with another id seed or client id, or
// does not hold together (a transaction event of an unknown transaction,
// a log entry of a missing attempt...) is refused with an error, and the
// state is left as it was. The server keeps its options (URL, client
// credentials, webhook and journal limits). A mock or the default clock is
// set to the saved time; a real clock cannot be set, so what fell due
// between the save and now runs at the next request.
func (s *Server) Restore(r io.Reader) error {
	return s.core.Restore(r)
}

// RestoreCopy is Restore of a document another server saved, one with
// another client id or id seed: another platform of a Platforms, say, to
// start each test's platform from one prepared state. Its users, nodes,
// transactions, keys, subscriptions, clock, id stream, webhooks and
// journal become this server's; the server keeps its own credentials,
// name and options, so objects show this server's client and webhooks
// are signed with its secret from now on. What was recorded before the
// copy (the captured webhooks' bodies, the journal) stays as it was sent,
// and the webhook log's ids are this server's. Every other check of
// Restore holds.
func (s *Server) RestoreCopy(r io.Reader) error {
	return s.core.RestoreCopy(r)
}

// Return returns a transaction with an ACH (R01...), card (IR...) or wire
// (WR...) code: recent_status.code holds the code and the note its meaning,
// and the money goes back. A CREATED or processing transaction is first
// walked to PROCESSING-CREDIT, as the real service's returns were. A code
// of another rail than the transaction's (an IR or WR code on an ACH-US
// transfer, an R code on a card swipe or a wire) is refused (409 / "410"
// return_code_not_for_rail); internal transfers take the codes of every
// rail. A settled transaction is refused (409 / "410"
// return_window_passed) once its ACH code's NACHA window has closed: at
// the opening of business (08:30 ET) on the second banking day after the
// settlement date for most codes, 60 calendar days for unauthorized debits
// and R33, none for R06, R31 and R23 (which runs from the receiver's
// notice, the call itself), and at once for the ACH Operator's R13, R18
// and R19, which return only a transfer not yet settled
// (reference.ACHReturnWindow); with PastWindow it is returned anyway. The
// codes of returns of returns (R61, R62, R67-R77) are refused (409 / "410"
// wrong_code_family): DishonorReturn and ContestDishonor take them. A
// transaction whose return was dishonored is refused (return_dishonored).
// A transaction its user disputed is refused (409 / "410"
// transaction_disputed): its dispute's decision (WinDispute, LoseDispute)
// says whether the money comes back; so is a dispute's credit
// (dispute_posting).
//
// With AfterSettlement the return is planned for a later time instead of
// made now.
func (s *Server) Return(id, code string, opts ...ReturnOption) error {
	if len(opts) == 0 {
		return s.core.Return(id, code)
	}
	var p returnPlan
	for _, o := range opts {
		o(&p)
	}
	switch {
	case p.planned:
		return s.core.ScheduleReturnWith(id, code, p.after, p.pastWindow)
	case p.pastWindow:
		return s.core.ReturnLate(id, code)
	}
	return s.core.Return(id, code)
}

// A ReturnOption changes when or how Return returns a transaction.
type ReturnOption func(*returnPlan)

// returnPlan is what Return's options ask for.
type returnPlan struct {
	planned    bool          // AfterSettlement: after, not now
	after      time.Duration // since settlement
	pastWindow bool          // PastWindow
}

// AfterSettlement makes Return plan the return for d after the
// transaction settles, instead of making it now: "return this transfer
// with R10 thirty days after it settles" is
// Return(id, reference.ReturnNotAuthorized, AfterSettlement(30*24*time.Hour)).
// A transfer that has not settled yet is returned when it settles (d 0:
// returned instead of settling, PROCESSING-CREDIT to RETURNED) or d later;
// a settled one d after its settlement, or at once when that time has
// passed. The return happens on the fake's clock (Advance). An ACH code's
// delay must fit its window, unless PastWindow is given too: at most
// 32h30m for a two-banking-day code (a settlement at the end of a day to
// 08:30 ET two banking days later), 60 days for an unauthorized-debit
// code, any for R06, R31 and R23, only 0 for the ACH Operator's R13, R18
// and R19 (returned instead of settling); a code of another rail than the
// transfer's is refused (return_code_not_for_rail), and so is a negative
// d. A canceled, returned or disputed transaction is refused, and a
// return that falls due after the transaction was disputed is not made (a
// timeline note says so). A later plan for the same unsettled transaction
// replaces the earlier one.
func AfterSettlement(d time.Duration) ReturnOption {
	return func(p *returnPlan) { p.planned, p.after = true, d }
}

// PastWindow makes Return return a transaction whatever its code's window
// (a planned return too): the return of a settled transfer after NACHA
// allows it, for a test of what an app does with a return it did not
// expect any more.
func PastWindow() ReturnOption {
	return func(p *returnPlan) { p.pastWindow = true }
}

// ReturnRules returns the rules in force, in the order they are tried.
func (s *Server) ReturnRules() []ReturnRule {
	return s.core.ReturnRules()
}

// ReverseAuthorization releases amountCents of a card authorization that
// still holds its amount (CREATED), as a merchant does when an order
// shrinks or is called off. Less than the held amount is a partial
// reversal: the amount and the hold shrink, the available balance grows
// back by amountCents, and the timeline gains a CREATED entry. The whole
// held amount is a full reversal: the transaction is CANCELED with IR17
// ("customer cancelled or reversed") and the hold released. More than the
// held amount is refused with 400 / "200".
func (s *Server) ReverseAuthorization(id string, amountCents int64) error {
	return s.core.ReverseAuthorization(id, amountCents)
}

// ReviewDocument gives one of a user's KYC sub-documents status, as the
// provider's review would: "VALID", "INVALID" (or another sub-document
// status, DocValid...). The user's permission rises to what its documents
// then allow (documents never lower it) and USER|PATCH is sent with the
// user as it is after the change. documentID is the sub-document's id
// (User's Documents, or the id in the API's physical_docs, social_docs and
// virtual_docs). An unknown user (404 / "404" unable_to_locate_user),
// document (404 / "404" unable_to_locate_document) or status (400 / "200"
// invalid_status) is an error and changes nothing.
func (s *Server) ReviewDocument(userID, documentID, status string) error {
	return s.core.ReviewDocument(userID, documentID, status)
}

// ReviewDocuments gives every sub-document of the user still under review
// (SUBMITTED|REVIEWING or SUBMITTED|MFA_PENDING) status, as
// ReviewDocument does, with one USER|PATCH. A user with none under review
// is left as it is.
func (s *Server) ReviewDocuments(userID, status string) error {
	return s.core.ReviewDocuments(userID, status)
}

// SetPermission sets a user's permission as the platform does, with a
// USER|PATCH event, as PATCH /users/{user_id} {"permission": ...} with the
// user's key does, without a request. It returns an error for an unknown
// user or permission.
func (s *Server) SetPermission(userID string, permission Permission) error {
	return s.core.SetPermission(userID, string(permission))
}

// SetWebhookChaos replaces the webhook chaos settings; the zero
// WebhookChaos turns chaos off. It applies to attempts queued from now on
// (call Flush first for a clean cut); deliveries already held back or
// delayed keep their schedule. Reset keeps the settings. Invalid settings
// are refused and change nothing.
func (s *Server) SetWebhookChaos(c WebhookChaos) error {
	return s.core.SetWebhookChaos(c)
}

// Settle moves a transaction through every remaining processing step to
// SETTLED, as the clock would. It must be CREATED or processing.
func (s *Server) Settle(id string) error {
	return s.core.Settle(id)
}

// SlowNext makes the next times requests that match method and pattern wait
// d of real time before they are served, for client timeout tests. A client
// that gives up first finds nothing done: the request is dropped with a 504.
// Routes are as for FailNext; an unknown one panics, as a mistake in the
// test.
func (s *Server) SlowNext(method, pattern string, d time.Duration, times int) {
	s.core.SlowNext(method, pattern, d, times)
}

// Snapshot writes the server's whole state as one JSON document (format
// "synapsefake-state", version StateVersion): the store, the clock, the id
// stream, the webhook capture, log, queued deliveries and retries, the
// request journal and pending faults. Restore reads it back. Deliveries in
// the middle of an attempt are saved as queued: a restored server makes
// that attempt again.
func (s *Server) Snapshot(w io.Writer) error {
	return s.core.Snapshot(w)
}

// Subnet returns a copy of a subnet and whether it exists.
func (s *Server) Subnet(id string) (Subnet, bool) {
	return s.core.Subnet(id)
}

// Transaction returns a copy of a transaction and whether it exists.
func (s *Server) Transaction(id string) (Transaction, bool) {
	return s.core.Transaction(id)
}

// User returns a copy of a user and whether it exists.
func (s *Server) User(id string) (User, bool) {
	return s.core.User(id)
}

// WebhookChaos returns the webhook chaos settings in force.
func (s *Server) WebhookChaos() WebhookChaos {
	return s.core.WebhookChaos()
}

// Webhooks returns the server's webhook capture.
func (s *Server) Webhooks() WebhookCapture {
	return s.core.Webhooks()
}

// WinDispute decides a transaction's dispute for the side that filed it:
// the user's disputed debit comes back to its node (unless a provisional
// credit brought it already), a chargeback's amount goes back to the
// platform's node, each as a new settled transaction. The disputed
// transaction gets a timeline note and a TRAN|PATCH webhook.
func (s *Server) WinDispute(txID string) error {
	return s.core.WinDispute(txID)
}
