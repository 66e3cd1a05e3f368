package synapsefake

import (
	"net/http"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/console"
)

// MaxComments is the most comments a transaction takes; once it has them,
// PATCH .../trans/{trans_id} is refused with 409 / "410" and changes
// nothing. Every comment is a webhook carrying the whole timeline, so the
// bound keeps what reading a transaction's webhooks costs within reach.
const MaxComments = 100

// Subscription is a copy of a subscription, for assertions in tests.
type Subscription = bank.Subscription

// Attempt is one POST of a delivery and the receiver's answer; a receiver
// that could not be reached is recorded as 408.
type Attempt = bank.Attempt

// AuthorizationHoldDays is how long a held card authorization (CardAuth.Hold)
// lasts: when the fake's clock passes the swipe plus this many days, the
// hold is released and the transaction CANCELED with IR154 ("authorization
// life cycle expired"), unless it was cleared or reversed first. Visa and
// Mastercard let most holds stand about seven days.
const AuthorizationHoldDays = 7

// CardAuth describes a card swipe for CardAuthorization.
type CardAuth = bank.CardAuth

// ChaosSettings are the odds, each from 0 to 1, of each kind of webhook
// chaos for one subscription's deliveries. The zero value is no chaos.
type ChaosSettings = api.ChaosSettings

// WebhookChaos configures webhook chaos (WithWebhookChaos,
// SetWebhookChaos, PUT /_fake/webhooks/chaos).
type WebhookChaos = api.WebhookChaos

// DefaultChaosDelay is how late a delayed delivery is when DelayBy is 0.
const DefaultChaosDelay = 5 * time.Minute

// ChaosHoldLimit is the longest, on the fake's clock, that a reordered
// delivery waits for a later one to overtake it.
const ChaosHoldLimit = time.Minute

// What chaos did to an attempt, as Attempt.Chaos lists it.
const (
	ChaosDelayed      = "delayed"       // its first attempt was DelayBy late
	ChaosReordered    = "reordered"     // held back until a later delivery was queued
	ChaosDropped      = "dropped"       // not sent; logged as a 503 to be retried
	ChaosDuplicate    = "duplicate"     // an extra copy of the attempt that follows
	ChaosBadSignature = "bad_signature" // sent with wrong signature headers
)

// ParseWebhookChaos reads webhook chaos from its JSON form, the body of PUT
// /_fake/webhooks/chaos:
//
//	{"seed": 7,
//	 "default": {"duplicate": 0.2, "reorder": 0.2, "delay": 0.1, "delay_by": "5m",
//	             "drop_first": 0.1, "bad_signature": 0.05},
//	 "subscriptions": {"<subscription id>": {"duplicate": 1}}}
//
// Every field may be left out. Unknown fields, probabilities outside 0..1
// and delays that are not positive Go durations are refused with the API's
// 400 / "200" error.
func ParseWebhookChaos(data []byte) (WebhookChaos, error) {
	return api.ParseWebhookChaos(data)
}

// DefaultStartTime is the instant a server's clock starts at unless
// WithStartTime or WithClock says otherwise: Tuesday 14 April 2026, 10:00
// US Eastern time (EDT, 14:00 UTC), the same in every run on every day.
//
// It is an ordinary business morning: before every ACH and wire cutoff
// (the first same-day ACH deadline is 10:30 ET), a Tuesday between two
// business days, with no Federal Reserve holiday within five weeks either
// way (Presidents Day is 16 February, Memorial Day 25 May), daylight saving
// time five weeks old, and the next monthly statements (made on the 15th
// for nodes that existed the month before) more than a month away. So an
// ACH transfer created at the start, then Advance(24*time.Hour), is
// SETTLED; a transfer to another deposit node settles on any Advance.
func DefaultStartTime() time.Time {
	return bank.DefaultStartTime()
}

// MaxWebhookPageBytes bounds an answer of GET /_fake/webhooks, in bytes of
// JSON: a page ends before the webhook that would pass it, and next_cursor
// reads on from there. A page holds at least one webhook, so a webhook
// larger than the bound alone is answered alone.
const MaxWebhookPageBytes = 4 << 20

// The three wallet push types. The spec names them only as <PROVIDER>_PUSH
// for a first, second and third provider.
const (
	PushApple   = "APPLE_PUSH"
	PushGoogle  = "GOOGLE_PUSH"
	PushSamsung = "SAMSUNG_PUSH"
)

// DisputeStatus is the state of a transaction's dispute, shown on the wire
// as extra.other.dispute_status.
type DisputeStatus = bank.DisputeStatus

// Dispute statuses. A transaction nobody disputed has DisputeNone.
const (
	DisputeNone    DisputeStatus = ""
	DisputePending DisputeStatus = "PENDING"
	DisputeWon     DisputeStatus = "WON"
	DisputeLost    DisputeStatus = "LOST"
)

// MaxDisputeReasonLength is the most characters a dispute_reason may have;
// a longer one is refused with 400 / "200".
const MaxDisputeReasonLength = 1000

// MaxCommentLength is the most characters a transaction comment may have;
// a longer one is refused with 400 / "200". Each comment is a timeline
// entry that every later view and webhook of the transaction carries.
const MaxCommentLength = 1000

// DefaultJITDeadline is how long a card swipe waits, in real time, for the
// answer of a TRANS|POST|JIT subscription: 1.00 s, as the service's guide
// says. WithJITDeadline changes it.
const DefaultJITDeadline = time.Second

// Request is one call the server answered, as recorded in its journal.
type Request = api.Request

// Money limits. Every amount the fake accepts is at most MaxAmountCents and
// every node's balance stays within ±MaxBalanceCents, so no sum the fake
// keeps (a balance, the pending debits or in-flight debits of a node, a
// batch, the fees of a transaction) comes near the range of int64.
const (
	// MaxAmountCents is the largest amount of one transaction, batch item,
	// fee, dummy transaction, barcode or card swipe: $1,000,000,000.00.
	// Larger amounts are refused with 400 / "200".
	MaxAmountCents = 1_000_000_000_00
	// MaxBalanceCents bounds every node's balance, both ways:
	// $1,000,000,000,000,000.00, under a ninetieth of math.MaxInt64.
	// A transaction whose debit would take the sender's available balance
	// below -MaxBalanceCents, or whose credit would take the receiver's
	// balance (counting its own debits still in flight, which may come
	// back) above MaxBalanceCents, is refused at creation with 409 / "400"
	// balance_limit; a credit that no longer fits when it settles is
	// returned with R23 instead, and a return of a settled transaction
	// that would not fit is refused. AddNode refuses a starting balance
	// outside ±MaxBalanceCents (400 / "200" invalid_balance); the control
	// API refuses one outside 0 to MaxBalanceCents.
	MaxBalanceCents = 1_000_000_000_000_000_00
)

// Allowed is a node's allowed field, spelled as on the wire: which ways
// money may move through the node.
type Allowed = bank.Allowed

// Values of a node's allowed field.
const (
	AllowedCreditAndDebit Allowed = "CREDIT-AND-DEBIT"
	AllowedCredit         Allowed = "CREDIT"
	AllowedDebit          Allowed = "DEBIT"
	AllowedLocked         Allowed = "LOCKED"
	AllowedInactive       Allowed = "INACTIVE"
	// AllowedPending: a card node's, as the integration suites of the
	// provider's Ruby client set it. Like CREDIT, INACTIVE and LOCKED it
	// lacks DEBIT: its transfers are canceled when they would start
	// processing. Transfers to it are made, as to every node.
	AllowedPending Allowed = "PENDING"
	// AllowedRejected is a node the service refused to open; it lacks
	// DEBIT.
	AllowedRejected Allowed = "REJECTED"
)

// Node is a copy of a node's state, for assertions in tests.
type Node = bank.Node

// NodeSeed describes a node for AddNode. Type defaults to DEPOSIT-US.
type NodeSeed = bank.NodeSeed

// ReturnRule returns or queues every new transaction it matches, in the
// spirit of moov-io's ach-test-harness: a black-box test, or a client in
// another language through POST /_fake/return-rules, picks outcomes without
// touching Go. Rules apply to transactions created through the API (POST
// .../trans and the batch endpoint) after the rule was added; the first
// rule that matches wins.
type ReturnRule = bank.ReturnRule

// Cutoffs are the banking calendar's times of day, each in US Eastern time
// as a duration since midnight (16*time.Hour + 45*time.Minute is 16:45 ET).
// ACH and wire transfers start processing only on Federal Reserve business
// days (reference.IsBusinessDay); internal transfers ignore the calendar.
// The service's own deadlines (ACH, SameDayACH, Wire) stand in front of
// the Federal Reserve's windows behind them (SameDay, NextDaySettlement,
// WireClose). A zero SameDayACH, NextDaySettlement or WireClose leaves
// that rule out, as the fake did before it had them.
type Cutoffs = bank.Cutoffs

// SameDayWindow is one same-day ACH window: its deposit deadline and its
// settlement time, Eastern wall-clock times as durations since midnight.
type SameDayWindow = bank.SameDayWindow

// DefaultCutoffs are the service's published ACH cutoffs in front of the
// Federal Reserve's published times: same-day ACH by 14:00 ET (11:00 AM
// PT) into the FedACH window whose deadline it meets (10:30 ET settling at
// 13:00, 14:45 ET settling at 17:00; the 16:45 ET window stays in SameDay
// but no transfer reaches it); next-day ACH by 18:00 ET (3:00 PM PT),
// settling at the same time the next business day (NextDaySettlement zero:
// the service's guide says "Next Business Day" and gives no hour;
// reference.FedACHNextDaySettlement, 08:30 ET, is FedACH's); wires by the
// Fedwire deadline for customer transfers (18:00 ET), settled before
// Fedwire closes (19:00 ET); carried-over work starting at 08:30 ET, when
// FedACH settles next-day entries.
func DefaultCutoffs() Cutoffs {
	return bank.DefaultCutoffs()
}

// Cutoff names one of the calendar's daily deadlines, for AdvanceToCutoff.
type Cutoff = bank.Cutoff

// The deadlines AdvanceToCutoff moves to.
const (
	CutoffACH     Cutoff = "ach"      // Cutoffs.ACH
	CutoffSameDay Cutoff = "same-day" // the next of Cutoffs.SameDay's deadlines, none after Cutoffs.SameDayACH
	CutoffWire    Cutoff = "wire"     // Cutoffs.Wire
)

// Shipment statuses. A new shipment is CREATED; the fake moves it only to
// CANCELED, by DELETE.
const (
	ShipmentCreated  = "CREATED"
	ShipmentCanceled = "CANCELED"
)

// StateVersion is the version of the document Snapshot writes; Restore
// refuses any other. Version 2 added transactions' comment counts and
// dispute credits, verified phones and the expiry of bank logins; version 3
// disputes' provisional credits due later and the steps that post them;
// version 4 the dishonors of returns and their contests; version 5 the
// documents' reviews, the users' permission histories and login passwords,
// and the comments' marks in transactions' timelines.
const StateVersion = 5

// DefaultMaxStateSize is the largest state document Restore and
// PUT /_fake/state read unless WithMaxStateSize says otherwise. Restoring
// allocates about 18 bytes per byte of the document (BenchmarkRestore).
const DefaultMaxStateSize = 64 << 20

// Status is a transaction status, spelled as on the wire.
type Status = bank.Status

// The transaction statuses of the spec's table.
const (
	StatusQueuedBySynapse  Status = "QUEUED-BY-SYNAPSE"
	StatusQueuedByReceiver Status = "QUEUED-BY-RECEIVER"
	StatusCreated          Status = "CREATED"
	StatusProcessingDebit  Status = "PROCESSING-DEBIT"
	StatusProcessingCredit Status = "PROCESSING-CREDIT"
	StatusSettled          Status = "SETTLED"
	StatusCanceled         Status = "CANCELED"
	StatusReturned         Status = "RETURNED"
)

// SubnetStatus is the status of a subnet (a card or an account number).
type SubnetStatus = bank.SubnetStatus

// Subnet statuses.
const (
	SubnetInactive   SubnetStatus = "INACTIVE"
	SubnetActive     SubnetStatus = "ACTIVE"
	SubnetTerminated SubnetStatus = "TERMINATED"
)

// Statement types and statuses, spelled as on the wire.
const (
	// StatementMonthly is the type of the statements the clock makes on the
	// 15th of each month for the previous month.
	StatementMonthly = "MONTHLY_STATEMENT"
	// StatementOnDemand is the type of the statements POST .../statements makes.
	StatementOnDemand = "ONDEMAND_STATEMENT"

	// StatementQueued is an ad hoc statement not generated yet: its urls and
	// balances are null.
	StatementQueued = "QUEUED"
	// StatementGenerated is a statement whose numbers and files are ready.
	StatementGenerated = "GENERATED"
)

// Kinds of a statement's movements.
const (
	MovementInitial = "INITIAL" // the balance a node was created with (AddNode)
	MovementDebit   = "DEBIT"   // the sender's debit, at PROCESSING-DEBIT (again at SETTLED when a return is dishonored)
	MovementCredit  = "CREDIT"  // the receiver's credit net of fees, at SETTLED
	MovementFee     = "FEE"     // a fee credited to a fee node, at SETTLED
	MovementReturn  = "RETURN"  // a return's reversal of the above, at RETURNED
	MovementFunds   = "FUNDS"   // money added by Fund, outside any transaction
)

// MaxMonthlyStatements is how many monthly statements a node keeps: the
// newest. When the clock makes a newer one, the node's oldest monthly
// statement is forgotten (its id and files answer 404), and a clock that
// skips more months than this makes only the newest MaxMonthlyStatements,
// so that a long Advance costs memory per node, not per node and month.
// Ad hoc statements are all kept.
const MaxMonthlyStatements = 60

// Movement is one change of a node's balance shown on a statement.
type Movement = bank.Movement

// Statement is a copy of a statement, for assertions in tests. A queued
// statement has no balances and no movements yet.
type Statement = bank.Statement

// AccountClass is a subnet's account class, spelled as on the wire.
type AccountClass = bank.AccountClass

// Account classes of a subnet.
const (
	ClassChecking AccountClass = "CHECKING"
	ClassSavings  AccountClass = "SAVINGS"
	ClassCard     AccountClass = "CARD"
)

// Subnet is a copy of a subnet's state, for assertions in tests.
type Subnet = bank.Subnet

// SubnetSeed describes a subnet for AddSubnet. AccountClass defaults to
// CHECKING; DEBIT_CARD, the older name the API also takes, is a CARD; a CARD
// starts INACTIVE unless Status says otherwise.
type SubnetSeed = bank.SubnetSeed

// Fee is one fee of a transaction.
type Fee = bank.Fee

// TimelineEntry is one status a transaction went through.
type TimelineEntry = bank.TimelineEntry

// Transaction is a copy of a transaction's state, for assertions in tests.
type Transaction = bank.Transaction

// Permission is a user's permission, spelled as on the wire: what money
// the user may move.
type Permission = bank.Permission

// Permissions a user can hold.
const (
	PermissionUnverified     Permission = "UNVERIFIED"
	PermissionSendAndReceive Permission = "SEND-AND-RECEIVE"
	PermissionLocked         Permission = "LOCKED"
	PermissionClosed         Permission = "CLOSED"
	PermissionMakeItGoAway   Permission = "MAKE-IT-GO-AWAY"
	PermissionReceive        Permission = "RECEIVE" // a valid virtual document alone
	PermissionSend           Permission = "SEND"
)

// The statuses of a KYC sub-document (ReviewDocument takes them, or their
// last word: "VALID", "INVALID"), and MISSING|INVALID, which only a
// user's doc_status shows.
const (
	DocSubmitted  = "SUBMITTED"
	DocReviewing  = "SUBMITTED|REVIEWING"
	DocMFAPending = "SUBMITTED|MFA_PENDING"
	DocValid      = "SUBMITTED|VALID"
	DocInvalid    = "SUBMITTED|INVALID"
	DocBlacklist  = "SUBMITTED|INVALID|BLACKLIST"
	DocMissing    = "MISSING|INVALID"
)

// The permission_scope of a base document, by the permission its
// documents give.
const (
	ScopeUnverified     = "UNVERIFIED"
	ScopeReceive        = "RECEIVE|1000|DAILY"
	ScopeSendAndReceive = "SEND|RECEIVE|1000|DAILY"
)

// The kinds of KYC sub-document, for SubDocumentSeed and SubDocument.
const (
	KindPhysical = "physical"
	KindSocial   = "social"
	KindVirtual  = "virtual"
)

// Why a user's permission changed, as PermissionChange.By says.
const (
	PermissionByCreation = "created"
	PermissionByReview   = "documents"
	PermissionByPlatform = "platform"
)

// User is a copy of a user's state, for assertions in tests.
type User = bank.User

// Document is a base document of a user, with its permission_scope and
// its sub-documents.
type Document = bank.Document

// SubDocument is a KYC sub-document's state: its kind, type, status and
// when its review completes.
type SubDocument = bank.SubDocument

// SubDocumentSeed is a sub-document filed with a seeded user (UserSeed's
// Documents), under one base document.
type SubDocumentSeed = bank.SubDocumentSeed

// PermissionChange is one step of a user's permission history: when, the
// permission it took, and why (PermissionByCreation, PermissionByReview or
// PermissionByPlatform).
type PermissionChange = bank.PermissionChange

// UserSeed describes a user for AddUser. Empty fields get plausible
// defaults; given ones follow POST /users' rules (no empty phone number or
// legal name; under WithStrictRequests, an Email with an @).
type UserSeed = bank.UserSeed

// Updaters recorded in webhook_meta.updated_by and the webhook log.
const (
	UpdatedBySelf    = "SELF"    // a change made through the API
	UpdatedByBackend = "BACKEND" // a change made by the clock or a scenario helper
)

// Webhook is one event the fake emitted: a resource created or changed, the
// body the service sends for it, and its delivery to each subscription
// whose scope matched.
type Webhook = api.Webhook

// Delivery is a webhook's delivery to one subscription.
type Delivery = api.Delivery

// WebhookMatcher selects webhooks for Wait.
type WebhookMatcher = api.WebhookMatcher

// ForTransaction matches the webhooks of a transaction that show a status
// ("" for any status).
func ForTransaction(id string, status Status) WebhookMatcher {
	return api.ForTransaction(id, status)
}

// ForFunction matches webhooks caused by one scope, e.g. "TRAN|PATCH".
func ForFunction(function string) WebhookMatcher {
	return api.ForFunction(function)
}

// ForObject matches the webhooks of one resource, whatever its type.
func ForObject(id string) WebhookMatcher {
	return api.ForObject(id)
}

// IgnoreVolatile is a go-cmp option for comparing decoded webhook payloads
// (or any decoded API object) whole: it ignores ids, dates, links, keys and
// tokens, which change from run to run.
func IgnoreVolatile() cmp.Option {
	return api.IgnoreVolatile()
}

// VerifySignature checks the two signature headers of a webhook delivery:
// X-Synapse-Signature, the hex HMAC-SHA1, and X-Synapse-Signature-Sha256,
// the hex HMAC-SHA256, both keyed with the client secret over
// "<object id>+<client id>". It reports whether both are present and valid.
func VerifySignature(h http.Header, objectID, clientID, clientSecret string) bool {
	return api.VerifySignature(h, objectID, clientID, clientSecret)
}

// Default bounds of the capture and the webhook log, in estimated bytes of
// memory (WithWebhookCaptureLimit, WithWebhookLogLimit).
const (
	DefaultWebhookCaptureLimit = 64 << 20
	DefaultWebhookLogLimit     = 16 << 20
)

// DefaultWebhookRate is the default of WithWebhookRate: webhook attempts
// per second a server makes in the background.
const DefaultWebhookRate = 500

// WebhookCapture is the in-memory record of the webhooks a Server emitted
// and of every delivery attempt, bounded by WithWebhookCaptureLimit: the
// oldest are forgotten first.
type WebhookCapture = api.WebhookCapture

// World is what LoadWorld made: the id of every object of a world file, by
// the name the file gave it. Every map is non-nil.
//
// A world file is one JSON object, strict (an unknown field is refused, so a
// typo does not pass silently), with three lists, each optional:
//
//	{
//	  "users": [{
//	    "name": "alice",                        // required, unique among users
//	    "legal_names": ["Alice Smith"],         // and email, phone_numbers, fingerprint,
//	    "permission": "SEND-AND-RECEIVE",       // supp_id, is_business: as POST /_fake/users
//	    "oauth": {"fingerprint": "alice-phone"},// optional: mint a key (scopes: all by default)
//	    "nodes": [{
//	      "name": "alice checking",             // required, unique among all nodes
//	      "type": "DEPOSIT-US",                 // default DEPOSIT-US; any type of GET /nodes/types
//	      "nickname": "Checking",               // default: the name
//	      "balance": "1500.00",                 // opening balance in USD, number or string
//	      "subnets": [{"name": "alice card", "account_class": "CARD", "status": "ACTIVE"}]
//	    }, {
//	      "name": "alice bank", "type": "ACH-US",
//	      "account_num": "123456789", "routing_num": "051000017"
//	    }]
//	  }],
//	  "transactions": [{
//	    "name": "paycheck",                     // optional, unique among transactions
//	    "from": "alice bank", "to": "alice checking",   // node names
//	    "amount": 2400,                         // USD, number or string
//	    "note": "Salary",                       // and supp_id, ip, same_day
//	    "date": "-14d",                         // "now" (default), "-3d", "-1d12h", "-90m", "-2w",
//	                                            // "2026-11-01" or RFC 3339; at most
//	                                            // 10 years back
//	    "status": "SETTLED",                    // default CREATED; any transaction status
//	    "code": ""                              // RETURNED: an R/IR/WR code; QUEUED-*, CANCELED: a reason
//	  }],
//	  "subscriptions": [{"name": "app", "url": "https://app.example/hooks", "scopes": ["USERS|POST"]}]
//	}
//
// Any entry of the three lists may carry "repeat": {"u": 50, "w": 4}: the
// entry stands for one copy per combination of the variables, each counting
// from 1 (the first variable varies slowest), with {u} and {w} replaced in
// every string of the copy, nested nodes and subnets included:
// "name": "user{u}", "date": "-{w}w", "amount": "{u}.25".
//
// Loading creates, in this order, each user with its OAuth key, nodes and
// subnets, created at the world's start: its earliest transaction date, or
// the clock's current time when it has none in the past, so that no
// transaction precedes its nodes (the OAuth keys are minted now, to live
// their whole lifetime). Then come the transactions in date order (the file's order within one date), each created at its date and
// moved to its status at that same date, then the subscriptions (so that
// loading sends them nothing). Everything goes through the store operations
// the API and the scenario helpers use, so every rule applies: a sender needs
// the funds, a transfer needs node types that may trade, a LOCKED user moves
// no money. A transaction left CREATED or processing must not already be due
// for its next automatic step, or it would not be in its declared status.
type World = console.World
