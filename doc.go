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
// The package scenarios holds a catalog of named outcomes for table tests,
// and the package reference the service's static tables (codes, node types,
// scopes, the banking data). The same fake runs as a standalone server with a
// dashboard and a control API: see cmd/synapsefake and the docs/ folder of
// the repository.
package synapsefake
