// Package synapsefake is a fake of the v3.1 financial-account API (users,
// nodes, OAuth keys, transactions, subnets and cards, subscriptions and
// webhooks, statements, reference data) for Go tests.
//
// NewServer gives a test its own httptest server with an in-memory store,
// reproducible ids and a clock that moves only when the test says so:
//
//	fake := synapsefake.NewServer(t) // closed when the test ends; starts at DefaultStartTime()
//	client := myapp.New(fake.URL(), fake.ClientID(), fake.ClientSecret())
//	user := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "device-1"})
//	...
//	fake.Settle(txID)             // CREATED -> ... -> SETTLED, as the clock would
//	fake.Advance(24 * time.Hour)  // runs every step, expiry and retry that fell due
//	fake.CheckStatus(t, txID, synapsefake.StatusSettled)
//	w := fake.Webhooks().Wait(t, synapsefake.ForTransaction(txID, synapsefake.StatusSettled))
//
// Everything a client sees follows the real service's wire format: string
// error codes, the error envelope, HTTP statuses and field types, so an
// unmodified client, the official SDKs included, cannot tell the difference.
//
// Each headline feature has a runnable example, shown beside what it
// documents: the HTTP sign-up flow beside [NewServer], a key without the
// OAuth dance beside [Server.OAuthKey], the clock beside [Server.Advance],
// the scenario helpers beside [Server.Settle], [Server.Return] and
// [Server.CardAuthorization], webhooks beside WebhookCapture.Wait, faults
// and idempotent retries beside [Server.FailNext], reproducible ids beside
// [WithIDSeed], a world declared in a file beside [Server.LoadWorld], and the
// MFA path and idempotency keys among the package's examples.
//
// The scenario helpers (Settle, Return, Queue, CardAuthorization...) move
// a transaction as the real service would, through the same store
// operation the HTTP handlers and the clock use: timeline entries are
// dated by the fake's clock and the same events are emitted.
//
// # Errors
//
// A call the service would refuse returns an error and changes nothing:
// the seeds (AddUser, AddNode, AddSubnet, AddSubscription, Fund...), the
// scenario helpers (Settle, Return, CardAuthorization...), the clock's
// moves that can be refused (AdvanceToCutoff), Restore, LoadWorld, and
// the Add and Remove of Platforms. The error is an *Error carrying the
// envelope the API would answer, read with errors.As:
//
//	var e *synapsefake.Error
//	if errors.As(err, &e) && e.Code == "user_locked" { ... }
//
// The only errors that are not an *Error come from what a caller hands
// in: the io.Writer Snapshot writes to, and the body or transport of a
// UserClient's Do (whose refusals are answers, not errors). A lookup
// (Node, User, Subnet, Transaction) reports a missing object with a false
// second result, and OAuthKey, MFAPin and ForceMFA report an unknown user
// (for OAuthKey, also a fingerprint or scope it would refuse) with "" or
// false.
//
// For a test that wants no error handling, the Must methods (MustAddUser,
// MustAddNode, MustAddSubnet, MustAddSubscription, MustFund) fail the test
// at once (Fatalf) where the plain method returns an error; WebhookCapture's
// Wait, and a UserClient's Get, Post, Patch and Delete, also fail it at
// once. The Check methods (CheckStatus, CheckBalance, CheckPermission,
// CheckWebhook, CheckNoWebhook, CheckRequest) compare the state with what
// the test wants and, on a mismatch, report the difference (Errorf) and
// return false, letting the test go on.
//
// Only a mistake in the test's code panics, where it is made: an option
// out of its range (WithStartTime, WithCutoffs; WithWebhookChaos when New
// applies it), and a route or error code that FailNext or SlowNext does
// not know.
//
// The package scenarios holds a catalog of named outcomes for table tests,
// and the package reference the service's static tables (codes, node types,
// scopes, the banking data). The same fake runs as a standalone server with a
// dashboard and a control API: see cmd/synapsefake and the docs/ folder of
// the repository.
package synapsefake
