// Package scenarios is a catalog of named outcomes for table-driven tests
// against synapsefake: every way a transaction can end, every path of the
// OAuth dance and the common card declines, each ready for a t.Run loop.
//
// A scenario is applied to a fresh fake prepared by Setup. Apply brings the
// outcome about through the fake's exported API and its HTTP API, and
// returns what the app under test should look at; Want is what the app
// should then observe:
//
//	for _, sc := range scenarios.TransactionOutcomes() {
//		t.Run(sc.Name, func(t *testing.T) {
//			t.Parallel()
//			fake := synapsefake.NewServer(t)
//			env := scenarios.Setup(t, fake)
//			app := myapp.New(fake.URL(), fake.Gateway(), env.Fingerprint)
//			env.Transfer = func(tb testing.TB) string { return app.Fund(tb, env.ACHNodeID, env.DepositNodeID) }
//			res := sc.Apply(t, fake, env)
//			if got := app.Status(res.TransactionID, res.OAuthKey); got != sc.Want.Status {
//				t.Errorf("app sees %s, want %s", got, sc.Want.Status)
//			}
//			sc.Check(t, fake, env, res) // the fake agrees
//		})
//	}
//
// The scenarios assume a server with the default options: automatic
// processing (no WithManualProcessing), ACH-US nodes usable at once (no
// WithMicroDeposits), keys that live 7200 s and the default banking
// calendar (no WithCutoffs).
package scenarios

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// Fingerprint is the device fingerprint Setup registers for its user.
const Fingerprint = "scenarios-device"

// UserIP is the X-SP-USER-IP the scenarios send.
const UserIP = "127.0.0.1"

// DepositCents is the balance of the deposit node Setup creates: $5,000.00,
// more than a card's daily limits.
const DepositCents = 500000

// TransferCents is the amount of the transaction the default Transfer
// creates: $10.00.
const TransferCents = 1000

// newDevice is a well-formed fingerprint the OAuth paths call from when they
// need a device the user has not registered.
const newDevice = "scenarios-new-device"

// badFingerprint is a fingerprint the fake refuses as malformed.
const badFingerprint = "not a fingerprint!"

// wrongPin is a validation pin that is not the fake's.
const wrongPin = "000000"

// settleWithin bounds how far the clock is moved to settle a transaction:
// the ACH schedule settles one business day after processing starts, and a
// transfer made after the cutoff on the Wednesday before Thanksgiving
// starts on Friday and settles on Monday.
const settleWithin = 7 * 24 * time.Hour

// keyLifetime is the default life of an oauth_key.
const keyLifetime = 7200 * time.Second

// Env is the account the scenarios act on, made by Setup: a user with a
// registered device, a funded deposit node, an external bank account and an
// active debit card.
type Env struct {
	// Gateway is the X-SP-GATEWAY header value.
	Gateway string
	// UserID is the user; Fingerprint its registered device.
	UserID      string
	Fingerprint string
	// OAuthKey is a key with every user-level scope for UserID and
	// Fingerprint. It lives 7200 s of fake time: after a scenario that moved
	// the clock, use Result.OAuthKey.
	OAuthKey string
	// DepositNodeID is a DEPOSIT-US node holding DepositCents.
	DepositNodeID string
	// ACHNodeID is an ACH-US node, the user's account at another bank.
	ACHNodeID string
	// CardID is an ACTIVE card subnet on the deposit node, with the default
	// preferences.
	CardID string
	// Transfer creates the transaction the non-card transaction outcomes act
	// on and returns its id. It must be a CREATED transaction from or to one
	// of the user's nodes. Setup sets it to a POST .../trans over HTTP of
	// TransferCents from the ACH-US node into the deposit node (an ACH debit
	// of the user's bank account); a test sets it to the call of the app
	// under test, so that the scenarios act on the transaction the app made.
	// A nil Transfer is the default.
	Transfer func(tb testing.TB) string
}

// Setup creates the Env the scenarios act on in fake: a user whose device
// Fingerprint is registered, a DEPOSIT-US node holding DepositCents, an
// ACH-US node, an ACTIVE card on the deposit node and an oauth_key with every
// scope. It fails the test if the fake refuses any of them.
func Setup(tb testing.TB, fake *synapsefake.Server) Env {
	tb.Helper()
	u := fake.MustAddUser(tb, synapsefake.UserSeed{
		Email:        "scenarios@example.com",
		PhoneNumbers: []string{"901.111.1111", "901.222.2222"},
		LegalNames:   []string{"Scenario User"},
		Fingerprint:  Fingerprint,
		Permission:   synapsefake.PermissionSendAndReceive,
	})
	dep := fake.MustAddNode(tb, u.ID, synapsefake.NodeSeed{Type: reference.NodeDepositUS, Nickname: "Deposit", BalanceCents: DepositCents})
	ach := fake.MustAddNode(tb, u.ID, synapsefake.NodeSeed{Type: reference.NodeACHUS, Nickname: "Bank account",
		AccountNum: "123456789", RoutingNum: "051000017"})
	card, err := fake.AddSubnet(u.ID, dep.ID, synapsefake.SubnetSeed{Nickname: "Debit card",
		AccountClass: synapsefake.ClassCard, Status: synapsefake.SubnetActive})
	if err != nil {
		tb.Fatalf("scenarios: AddSubnet: %v", err)
	}
	env := Env{
		Gateway:       fake.Gateway(),
		UserID:        u.ID,
		Fingerprint:   Fingerprint,
		OAuthKey:      fake.OAuthKey(u.ID, Fingerprint),
		DepositNodeID: dep.ID,
		ACHNodeID:     ach.ID,
		CardID:        card.ID,
	}
	env.Transfer = func(tb testing.TB) string { return postTransfer(tb, fake, env) }
	return env
}

// Header is the headers of a call by the user from its device with the
// Env's key: X-SP-GATEWAY, X-SP-USER and X-SP-USER-IP.
func (e Env) Header() http.Header { return userHeader(e, e.OAuthKey, e.Fingerprint) }

// Scenario is one named outcome.
type Scenario struct {
	// Name describes the outcome; it is unique within a catalog.
	Name string
	// Apply brings the outcome about on a fake prepared by Setup and returns
	// what the app should look at. It fails the test if a step the outcome
	// depends on does not go as planned.
	Apply func(tb testing.TB, fake *synapsefake.Server, env Env) Result
	// Want is what the app should then observe.
	Want Outcome
	// Verify, when set, checks the state the scenario promises beyond Want,
	// through the fake's inspection API. Check calls it.
	Verify func(tb testing.TB, fake *synapsefake.Server, env Env, res Result)
}

// Result is what Apply leaves for the app to look at.
type Result struct {
	// TransactionID is the transaction a transaction outcome is about, ""
	// for the OAuth paths. NodeID is the user's node it can be read under:
	// GET /users/{UserID}/nodes/{NodeID}/trans/{TransactionID}.
	TransactionID string
	NodeID        string
	// OAuthKey is a live key with every scope for the Env's user and device,
	// minted once Apply is done: the Env's key may have expired while Apply
	// moved the clock.
	OAuthKey string
	// Fingerprint and RefreshToken are the device and refresh token of an
	// OAuth path's last call.
	Fingerprint  string
	RefreshToken string
	// Response is the answer to an OAuth path's last call, or to GET
	// /users/{UserID} after a KYC outcome: the one Want describes; zero for
	// the transaction outcomes.
	Response Response
	// UserID is the user a KYC outcome made and reviewed, "" for the
	// other catalogs.
	UserID string
}

// Response is an HTTP answer: its status and decoded JSON body.
type Response struct {
	Status int
	Body   map[string]any
}

// Outcome is what the app should observe once a scenario is applied: for a
// transaction, the answer of GET .../trans/{TransactionID}; for an OAuth
// path, the answer of the path's last call.
type Outcome struct {
	// HTTPStatus is the answer's HTTP status and Success the body's success.
	HTTPStatus int
	Success    bool
	// ErrorCode and HTTPCode are the body's error_code and http_code, ""
	// when the body has none (a single object: a transaction, an OAuth key).
	ErrorCode string
	HTTPCode  string
	// Error is the body's error.code, "" when there is none.
	Error string
	// Status is the transaction's recent_status.status, Code its
	// recent_status.code ("" when absent) and Timeline the statuses of its
	// timeline, oldest first. All three are empty for the OAuth paths.
	Status   synapsefake.Status
	Code     string
	Timeline []synapsefake.Status
	// Permission is the user's permission for a KYC outcome, "" for the
	// others.
	Permission string
}

// Observe reads what an app sees after Apply: for a transaction, the answer
// of GET .../trans/{TransactionID} with res.OAuthKey, over HTTP; for an OAuth
// path, res.Response.
func Observe(tb testing.TB, fake *synapsefake.Server, env Env, res Result) Outcome {
	tb.Helper()
	if res.TransactionID == "" {
		out := outcomeOf(res.Response)
		if res.UserID != "" {
			out.Permission = str(res.Response.Body["permission"])
		}
		return out
	}
	r := send(tb, fake, "GET", "/users/"+env.UserID+"/nodes/"+res.NodeID+"/trans/"+res.TransactionID,
		userHeader(env, res.OAuthKey, env.Fingerprint), nil)
	out := outcomeOf(r)
	rs, _ := r.Body["recent_status"].(map[string]any)
	out.Status = synapsefake.Status(str(rs["status"]))
	out.Code = str(rs["code"])
	entries, _ := r.Body["timeline"].([]any)
	for _, e := range entries {
		m, _ := e.(map[string]any)
		out.Timeline = append(out.Timeline, synapsefake.Status(str(m["status"])))
	}
	return out
}

// Check reports, through tb.Errorf, every way the fake after Apply differs
// from what sc promises: what Observe sees against Want; for a transaction,
// its status, code and timeline in the fake's inspection API; for an OAuth
// path that issued a key, that the device is registered and the key opens
// GET /users/{user_id}/nodes; then Verify.
func (sc Scenario) Check(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
	tb.Helper()
	if diff := cmp.Diff(sc.Want, Observe(tb, fake, env, res), cmpopts.EquateEmpty()); diff != "" {
		tb.Errorf("%s: the app sees (-want +got):\n%s", sc.Name, diff)
	}
	if res.TransactionID != "" {
		tx, ok := fake.Transaction(res.TransactionID)
		if !ok {
			tb.Errorf("%s: transaction %s not found", sc.Name, res.TransactionID)
			return
		}
		got := Outcome{Status: tx.Status, Code: tx.Code}
		for _, e := range tx.Timeline {
			got.Timeline = append(got.Timeline, e.Status)
		}
		want := Outcome{Status: sc.Want.Status, Code: sc.Want.Code, Timeline: sc.Want.Timeline}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			tb.Errorf("%s: fake.Transaction(%s) (-want +got):\n%s", sc.Name, res.TransactionID, diff)
		}
	}
	if key := str(res.Response.Body["oauth_key"]); key != "" && res.Response.Status == http.StatusOK {
		if u, _ := fake.User(env.UserID); !slices.Contains(u.Fingerprints, res.Fingerprint) {
			tb.Errorf("%s: device %q is not registered after a 200; registered: %q", sc.Name, res.Fingerprint, u.Fingerprints)
		}
		r := send(tb, fake, "GET", "/users/"+env.UserID+"/nodes", userHeader(env, key, res.Fingerprint), nil)
		if r.Status != http.StatusOK {
			tb.Errorf("%s: the issued key does not open GET /users/%s/nodes: %d %v", sc.Name, env.UserID, r.Status, r.Body)
		}
	}
	if sc.Verify != nil {
		sc.Verify(tb, fake, env, res)
	}
}

// TransactionOutcomes returns every outcome of a transaction the app may
// meet: settled through the clock, canceled, held in a queue, queued then
// released and settled, returned with each common ACH code (R01-R10, R16,
// R20, R29), a settled card purchase and the card declines of CardDeclines.
// The slice is fresh on every call.
func TransactionOutcomes() []Scenario {
	out := []Scenario{
		{
			Name: "settled",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := newTransfer(tb, fake, env)
				advanceUntil(tb, fake, id, synapsefake.StatusSettled)
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
		},
		{
			Name: "canceled by the app",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				res := txResult(tb, fake, env, newTransfer(tb, fake, env))
				r := send(tb, fake, "DELETE", "/users/"+env.UserID+"/nodes/"+res.NodeID+"/trans/"+res.TransactionID,
					userHeader(env, res.OAuthKey, env.Fingerprint), nil)
				mustStatus(tb, "DELETE the transaction", r, http.StatusOK)
				return res
			},
			Want: txOutcome(synapsefake.StatusCanceled, "", synapsefake.StatusCreated, synapsefake.StatusCanceled),
		},
		{
			Name: "held in the service's queue",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := newTransfer(tb, fake, env)
				must(tb, "Queue", fake.Queue(id, ""))
				fake.Advance(settleWithin) // a queued transaction does not move
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusQueuedBySynapse, "", synapsefake.StatusCreated, synapsefake.StatusQueuedBySynapse),
		},
		{
			Name: "queued, then canceled by the service",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := newTransfer(tb, fake, env)
				must(tb, "Queue", fake.Queue(id, ""))
				must(tb, "Cancel", fake.Cancel(id, ""))
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusCanceled, "",
				synapsefake.StatusCreated, synapsefake.StatusQueuedBySynapse, synapsefake.StatusCanceled),
		},
		{
			Name: "queued, released, then settled",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := newTransfer(tb, fake, env)
				must(tb, "Queue", fake.Queue(id, ""))
				must(tb, "Release", fake.Release(id))
				advanceUntil(tb, fake, id, synapsefake.StatusSettled)
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusSettled, "", append(
				[]synapsefake.Status{synapsefake.StatusCreated, synapsefake.StatusQueuedBySynapse},
				processed(synapsefake.StatusSettled)...)...),
		},
	}
	for _, code := range []string{
		reference.ReturnInsufficientFunds, reference.ReturnAccountClosed, reference.ReturnNoAccount,
		reference.ReturnInvalidAccountNumber, reference.ReturnUnauthorizedDebit, reference.ReturnPerODFI,
		reference.ReturnAuthorizationRevoked, reference.ReturnPaymentStopped, reference.ReturnUncollectedFunds,
		reference.ReturnNotAuthorized, reference.ReturnAccountFrozen, reference.ReturnNonTransactionAccount,
		reference.ReturnCorporateNotAuthorized,
	} {
		out = append(out, returned(code))
	}
	out = append(out, Scenario{
		Name: "card purchase settled",
		Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			res := swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: 2500, Merchant: "COFFEE SHOP"})
			advanceUntil(tb, fake, res.TransactionID, synapsefake.StatusSettled)
			return txResult(tb, fake, env, res.TransactionID)
		},
		Want: txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
	})
	return append(out, CardDeclines()...)
}

// ReturnTimings returns the outcomes of the banking calendar and of returns
// with their real windows: an ACH transfer made just after the day's cutoff
// (it starts the next business day), an R10 thirty days after settlement
// (Return with AfterSettlement), an R01 refused after its two-banking-day window, an R06
// a month after settlement (no fixed window), an R33 59 days after, an R01
// refused a minute after the opening of business (08:30 ET) on the second
// banking day after settlement, the R01 made late (Return with PastWindow), a transfer returned at settlement by
// a return rule, one queued by a rule, an R01 return dishonored R68 four
// days later (within five banking days: SETTLED again), a dishonor refused
// two weeks after the return (past its window), a dishonor contested R71
// (RETURNED again), an IR code refused on the ACH transfer (another rail's
// code), an ACH debit to another user's bank account disputed 61 days after
// settlement (refused, 409 / "400", past its 60-day filing window), an
// R13 returned by the ACH Operator while the transfer is processed and an
// R23 returned 90 days after settlement (its window runs from the
// receiver's notice, which the Return call is). The
// rule scenarios leave their rule on the fake. The slice is fresh on every
// call.
func ReturnTimings() []Scenario {
	settled := func(tb testing.TB, fake *synapsefake.Server, env Env) string {
		tb.Helper()
		id := newTransfer(tb, fake, env)
		advanceUntil(tb, fake, id, synapsefake.StatusSettled)
		return id
	}
	// returned is a transfer settled, then returned R01 an hour later.
	returned := func(tb testing.TB, fake *synapsefake.Server, env Env) string {
		tb.Helper()
		id := settled(tb, fake, env)
		fake.Advance(time.Hour)
		must(tb, "Return", fake.Return(id, reference.ReturnInsufficientFunds))
		return id
	}
	const week = 7 * 24 * time.Hour
	return []Scenario{
		{
			Name: "ACH after the cutoff starts the next business day",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				_, err := fake.AdvanceToCutoff(synapsefake.CutoffACH)
				must(tb, "AdvanceToCutoff", err)
				fake.Advance(time.Minute)
				return txResult(tb, fake, env, settled(tb, fake, env))
			},
			Want: txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
			Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
				tb.Helper()
				tx, _ := fake.Transaction(res.TransactionID)
				start := reference.AtEastern(reference.NextBusinessDay(tx.CreatedOn), 8*time.Hour+30*time.Minute)
				if debit := tx.Timeline[1].Date; !debit.Equal(start.Add(time.Minute)) {
					tb.Errorf("PROCESSING-DEBIT at %v, want %v: a minute after 08:30 ET on the next business day", debit, start.Add(time.Minute))
				}
			},
		},
		{
			Name: "returned R10 thirty days after settlement",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := newTransfer(tb, fake, env)
				must(tb, "Return", fake.Return(id, reference.ReturnNotAuthorized, synapsefake.AfterSettlement(30*24*time.Hour)))
				advanceUntil(tb, fake, id, synapsefake.StatusSettled)
				fake.Advance(30 * 24 * time.Hour)
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusReturned, reference.ReturnNotAuthorized,
				append(processed(synapsefake.StatusSettled), synapsefake.StatusReturned)...),
		},
		{
			Name: "R01 refused after its window",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := settled(tb, fake, env)
				fake.Advance(week)
				if err := fake.Return(id, reference.ReturnInsufficientFunds); err == nil || !strings.Contains(err.Error(), "return_window_passed") {
					tb.Fatalf("scenarios: Return a week after settlement: %v, want return_window_passed", err)
				}
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
		},
		returnedLater("returned R06 a month after settlement (no fixed window)", reference.ReturnPerODFI, 30*24*time.Hour),
		returnedLater("returned R33 59 days after settlement", "R33", 59*24*time.Hour),
		{
			Name: "R01 refused after the opening of business on the second banking day",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := settled(tb, fake, env)
				tx, _ := fake.Transaction(id)
				deadline := reference.AtEastern(reference.AddBusinessDays(tx.Timeline[len(tx.Timeline)-1].Date, 2), reference.ReturnOpeningOfBusiness)
				fake.Advance(deadline.Sub(fake.Now()) + time.Minute)
				if err := fake.Return(id, reference.ReturnInsufficientFunds); err == nil || !strings.Contains(err.Error(), "return_window_passed") {
					tb.Fatalf("scenarios: Return a minute after %v: %v, want return_window_passed", deadline, err)
				}
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
		},
		{
			Name: "returned R01 late, after its window",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := settled(tb, fake, env)
				fake.Advance(week)
				must(tb, "Return", fake.Return(id, reference.ReturnInsufficientFunds, synapsefake.PastWindow()))
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusReturned, reference.ReturnInsufficientFunds,
				append(processed(synapsefake.StatusSettled), synapsefake.StatusReturned)...),
		},
		{
			Name: "returned R01 at settlement by a return rule",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				_, err := fake.AddReturnRule(synapsefake.ReturnRule{NodeID: env.ACHNodeID, Code: reference.ReturnInsufficientFunds})
				must(tb, "AddReturnRule", err)
				id := newTransfer(tb, fake, env)
				advanceUntil(tb, fake, id, synapsefake.StatusReturned)
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusReturned, reference.ReturnInsufficientFunds, processed(synapsefake.StatusReturned)...),
		},
		{
			Name: "queued by a return rule",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				_, err := fake.AddReturnRule(synapsefake.ReturnRule{NodeID: env.ACHNodeID, Queue: true, Code: "HIGH_RISK", After: 30 * time.Second})
				must(tb, "AddReturnRule", err)
				id := newTransfer(tb, fake, env)
				fake.Advance(30 * time.Second)
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusQueuedBySynapse, "HIGH_RISK", synapsefake.StatusCreated, synapsefake.StatusQueuedBySynapse),
		},
		{
			Name: "return R01 dishonored R68 within five banking days",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := returned(tb, fake, env)
				fake.Advance(4 * 24 * time.Hour)
				must(tb, "DishonorReturn", fake.DishonorReturn(id, "R68"))
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusSettled, "R68",
				append(processed(synapsefake.StatusSettled), synapsefake.StatusReturned, synapsefake.StatusSettled)...),
			Verify: depositHolds(DepositCents + TransferCents),
		},
		{
			Name: "dishonor refused after its five banking days",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := returned(tb, fake, env)
				fake.Advance(2 * week)
				if err := fake.DishonorReturn(id, "R68"); err == nil || !strings.Contains(err.Error(), "dishonor_window_passed") {
					tb.Fatalf("scenarios: DishonorReturn two weeks after the return: %v, want dishonor_window_passed", err)
				}
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusReturned, reference.ReturnInsufficientFunds,
				append(processed(synapsefake.StatusSettled), synapsefake.StatusReturned)...),
			Verify: depositHolds(DepositCents),
		},
		{
			Name: "dishonor contested R71: the return stands",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := returned(tb, fake, env)
				fake.Advance(time.Hour)
				must(tb, "DishonorReturn", fake.DishonorReturn(id, "R68"))
				fake.Advance(time.Hour)
				must(tb, "ContestDishonor", fake.ContestDishonor(id, "R71"))
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusReturned, "R71", append(processed(synapsefake.StatusSettled),
				synapsefake.StatusReturned, synapsefake.StatusSettled, synapsefake.StatusReturned)...),
			Verify: depositHolds(DepositCents),
		},
		{
			Name: "card code refused on an ACH transfer",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := settled(tb, fake, env)
				if err := fake.Return(id, "IR18"); err == nil || !strings.Contains(err.Error(), "return_code_not_for_rail") {
					tb.Fatalf("scenarios: Return with IR18: %v, want return_code_not_for_rail", err)
				}
				return txResult(tb, fake, env, id)
			},
			Want: txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
		},
		{
			Name: "ACH debit disputed after its 60 days: refused",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				merchant := fake.MustAddUser(tb, synapsefake.UserSeed{LegalNames: []string{"Scenario Merchant"}})
				bank := fake.MustAddNode(tb, merchant.ID, synapsefake.NodeSeed{Type: reference.NodeACHUS, Nickname: "Merchant bank",
					AccountNum: "987654321", RoutingNum: "051000017"})
				r := send(tb, fake, "POST", "/users/"+env.UserID+"/nodes/"+env.DepositNodeID+"/trans", liveHeader(fake, env), map[string]any{
					"to":     map[string]any{"type": reference.NodeACHUS, "id": bank.ID},
					"amount": map[string]any{"amount": float64(TransferCents) / 100, "currency": "USD"},
					"extra":  map[string]any{"ip": UserIP, "note": "scenarios debit"},
				})
				mustStatus(tb, "POST .../trans", r, http.StatusOK)
				id := str(r.Body["_id"])
				advanceUntil(tb, fake, id, synapsefake.StatusSettled)
				fake.Advance((reference.ACHDisputeDays + 1) * 24 * time.Hour)
				res := txResult(tb, fake, env, id)
				r = send(tb, fake, "PATCH", "/users/"+env.UserID+"/nodes/"+env.DepositNodeID+"/trans/"+id+"/dispute",
					userHeader(env, res.OAuthKey, env.Fingerprint), map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"})
				if r.Status != http.StatusConflict || str(r.Body["error_code"]) != "400" {
					tb.Fatalf("scenarios: a dispute 61 days after settlement answered %d %v, want 409 / \"400\"", r.Status, r.Body)
				}
				return res
			},
			Want: txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
			Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
				tb.Helper()
				if tx, _ := fake.Transaction(res.TransactionID); tx.Dispute != synapsefake.DisputeNone || tx.DisputeCreditID != "" {
					tb.Errorf("dispute of %s is %q with credit %q, want none", res.TransactionID, tx.Dispute, tx.DisputeCreditID)
				}
				depositHolds(DepositCents-TransferCents)(tb, fake, env, res)
			},
		},
		{
			Name: "returned R13 by the ACH Operator while processed",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				id := newTransfer(tb, fake, env)
				must(tb, "Return", fake.Return(id, "R13"))
				return txResult(tb, fake, env, id)
			},
			Want:   txOutcome(synapsefake.StatusReturned, "R13", processed(synapsefake.StatusReturned)...),
			Verify: depositHolds(DepositCents),
		},
		returnedLater("returned R23 90 days after settlement, on the receiver's notice", reference.ReturnCreditRefused, 90*24*time.Hour),
	}
}

// returnedLater is the scenario of an ACH transfer settled, then returned
// with code after more time has passed: within code's window, so RETURNED.
func returnedLater(name, code string, after time.Duration) Scenario {
	return Scenario{
		Name: name,
		Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			id := newTransfer(tb, fake, env)
			advanceUntil(tb, fake, id, synapsefake.StatusSettled)
			fake.Advance(after)
			must(tb, "Return", fake.Return(id, code))
			return txResult(tb, fake, env, id)
		},
		Want: txOutcome(synapsefake.StatusReturned, code, append(processed(synapsefake.StatusSettled), synapsefake.StatusReturned)...),
	}
}

// depositHolds is a Verify that the Env's deposit node holds cents.
func depositHolds(cents int64) func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
	return func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
		tb.Helper()
		if n, _ := fake.Node(env.DepositNodeID); n.BalanceCents != cents {
			tb.Errorf("deposit balance %d, want %d", n.BalanceCents, cents)
		}
	}
}

// CalendarRules returns one scenario per rule of the banking calendar that
// issue 22 names, each at its date in 2026 (Eastern time) and each ending
// SETTLED at the moment the rule gives, which Verify checks:
//
//	dummy ACH on Thanksgiving eve       Wed 11-25 12:00 -> Fri 11-27 12:00 (not on Thanksgiving)
//	dummy ACH on Christmas Eve          Thu 12-24 12:00 -> Mon 12-28 12:00 (not on Christmas Day)
//	dummy WIRE on a Saturday            Sat 11-28 12:00 -> Mon 11-30 08:33 (carried to 08:30 ET)
//	same-day ACH over $1,000,000        Wed 11-25 10:00 -> Fri 11-27 10:00 (next-day, not 13:00)
//	same-day ACH after 14:00 ET         Fri 11-20 15:00 -> Mon 11-23 15:00 (the 11:00 AM PT cutoff)
//	next-day ACH before 18:00 ET        Wed 11-25 17:00 -> Fri 11-27 17:00 (the 3:00 PM PT cutoff)
//	wire at 17:59 ET                    Tue 11-24 17:59 -> Tue 11-24 18:02 (before Fedwire closes)
//	push-to-card on Thanksgiving eve    Wed 11-25 12:00 -> Fri 11-27 12:00 (not on Thanksgiving)
//
// and the two sides of JIT partial approval: a platform's total_amount
// refused on a swipe without partial_approval_allowed (RETURNED IR180) and
// honoured on one with it (CREATED IR10). The dated scenarios move the
// clock forward to their date, so they need a server that starts before
// Fri 2026-11-20 (the default start does); the slice is fresh on every
// call.
func CalendarRules() []Scenario {
	const amount = 4000
	return []Scenario{
		calendarRule("dummy ACH on Thanksgiving eve settles Friday", et(2026, 11, 25, 12, 0), et(2026, 11, 27, 12, 0),
			func(tb testing.TB, fake *synapsefake.Server, env Env) string { return dummyTran(tb, fake, env, "ACH") }),
		calendarRule("dummy ACH on Christmas Eve settles Monday", et(2026, 12, 24, 12, 0), et(2026, 12, 28, 12, 0),
			func(tb testing.TB, fake *synapsefake.Server, env Env) string { return dummyTran(tb, fake, env, "ACH") }),
		calendarRule("dummy WIRE on a Saturday settles Monday morning", et(2026, 11, 28, 12, 0), et(2026, 11, 30, 8, 33),
			func(tb testing.TB, fake *synapsefake.Server, env Env) string { return dummyTran(tb, fake, env, "WIRE") }),
		calendarRule("same-day ACH over $1,000,000 settles next day", et(2026, 11, 25, 10, 0), et(2026, 11, 27, 10, 0),
			func(tb testing.TB, fake *synapsefake.Server, env Env) string {
				return postFrom(tb, fake, env, env.ACHNodeID, reference.NodeDepositUS, env.DepositNodeID, 2_000_000_00, true)
			}),
		calendarRule("same-day ACH after the 14:00 ET cutoff settles the next business day", et(2026, 11, 20, 15, 0), et(2026, 11, 23, 15, 0),
			func(tb testing.TB, fake *synapsefake.Server, env Env) string {
				return postFrom(tb, fake, env, env.ACHNodeID, reference.NodeDepositUS, env.DepositNodeID, TransferCents, true)
			}),
		calendarRule("next-day ACH at Wed 17:00 ET before Thanksgiving settles Friday", et(2026, 11, 25, 17, 0), et(2026, 11, 27, 17, 0),
			newTransfer),
		calendarRule("wire at 17:59 ET settles before Fedwire closes", et(2026, 11, 24, 17, 59), et(2026, 11, 24, 18, 2),
			func(tb testing.TB, fake *synapsefake.Server, env Env) string {
				wire := fake.MustAddNode(tb, env.UserID, synapsefake.NodeSeed{Type: reference.NodeWireUS, Nickname: "Wire account"})
				return postFrom(tb, fake, env, env.DepositNodeID, reference.NodeWireUS, wire.ID, TransferCents, false)
			}),
		calendarRule("push-to-card on Thanksgiving eve settles Friday", et(2026, 11, 25, 12, 0), et(2026, 11, 27, 12, 0),
			func(tb testing.TB, fake *synapsefake.Server, env Env) string {
				card := fake.MustAddNode(tb, env.UserID, synapsefake.NodeSeed{Type: reference.NodeInterchangeUS, Nickname: "Debit card"})
				return postFrom(tb, fake, env, env.DepositNodeID, reference.NodeInterchangeUS, card.ID, TransferCents, false)
			}),
		{
			Name:   "JIT partial approval refused without partial_approval_allowed",
			Apply:  decidedSwipe(http.StatusOK, `{"decision":"PASS","total_amount":25}`, amount, false),
			Want:   txOutcome(synapsefake.StatusReturned, reference.IRDenied, synapsefake.StatusCreated, synapsefake.StatusReturned),
			Verify: money(DepositCents, DepositCents, amount),
		},
		{
			Name:   "JIT partial approval honoured with partial_approval_allowed",
			Apply:  decidedSwipe(http.StatusOK, `{"decision":"PASS","total_amount":25}`, amount, true),
			Want:   txOutcome(synapsefake.StatusCreated, reference.IRPartiallyApproved, synapsefake.StatusCreated),
			Verify: money(DepositCents, DepositCents-2500, 2500),
		},
	}
}

// et is a date and time in US Eastern time.
func et(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, reference.Eastern)
}

// calendarRule is the scenario of a transaction that create makes at start
// and that settles at settled: Apply moves the clock to start, makes it and
// moves the clock to settled; Verify checks that SETTLED is dated settled.
func calendarRule(name string, start, settled time.Time, create func(testing.TB, *synapsefake.Server, Env) string) Scenario {
	return Scenario{
		Name: name,
		Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			if now := fake.Now(); now.After(start) {
				tb.Fatalf("scenarios: the clock is at %v, past %v: %q needs a server that starts before it", now, start, name)
			}
			_, err := fake.AdvanceTo(start)
			must(tb, "AdvanceTo", err)
			id := create(tb, fake, env)
			_, err = fake.AdvanceTo(settled)
			must(tb, "AdvanceTo", err)
			return txResult(tb, fake, env, id)
		},
		Want: txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
		Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
			tb.Helper()
			tx, _ := fake.Transaction(res.TransactionID)
			if last := tx.Timeline[len(tx.Timeline)-1]; last.Status != synapsefake.StatusSettled || !last.Date.Equal(settled) {
				tb.Errorf("transaction %s: last %s at %v, want SETTLED at %v", tx.ID, last.Status, last.Date, settled)
			}
		},
	}
}

// dummyTran makes a dummy transaction of type typ crediting $10.00 to the
// deposit node, over HTTP (the legacy GET form, on the node), and returns
// its id.
func dummyTran(tb testing.TB, fake *synapsefake.Server, env Env, typ string) string {
	tb.Helper()
	r := send(tb, fake, "GET", "/users/"+env.UserID+"/nodes/"+env.DepositNodeID+"/dummy-tran?is_credit=YES&amount=10&type="+typ,
		liveHeader(fake, env), nil)
	mustStatus(tb, "GET .../dummy-tran", r, http.StatusOK)
	return str(r.Body["_id"])
}

// postFrom creates a transaction of cents from the user's node from to the
// node to of type toType, same-day or not, over HTTP, and returns its id.
func postFrom(tb testing.TB, fake *synapsefake.Server, env Env, from, toType, to string, cents int64, sameDay bool) string {
	tb.Helper()
	r := send(tb, fake, "POST", "/users/"+env.UserID+"/nodes/"+from+"/trans", liveHeader(fake, env), map[string]any{
		"to":     map[string]any{"type": toType, "id": to},
		"amount": map[string]any{"amount": float64(cents) / 100, "currency": "USD"},
		"extra":  map[string]any{"ip": UserIP, "note": "scenarios calendar", "same_day": sameDay},
	})
	mustStatus(tb, "POST .../trans", r, http.StatusOK)
	return str(r.Body["_id"])
}

// CardDisputes returns a settled card purchase of $40.00 (above the $25.00
// under which every dispute gets a provisional credit) disputed by the
// user over HTTP, then won (the money comes back to the deposit node) or
// lost (it stays with the merchant); the same purchase disputed 121 days
// after settlement, past the card filing window (refused, 409 / "400"); and
// a $20.00 purchase disputed and left pending until its provisional credit
// posts, 15 business days later (the Env's node is new). Each Verify checks
// the dispute's status and the deposit node's balance. The slice is fresh
// on every call.
func CardDisputes() []Scenario {
	dispute := func(won bool) Scenario {
		name, status, balance := "card purchase disputed and lost", synapsefake.DisputeLost, int64(DepositCents-4000)
		if won {
			name, status, balance = "card purchase disputed and won", synapsefake.DisputeWon, DepositCents
		}
		return Scenario{
			Name: name,
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				res := swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: 4000, Merchant: "ELECTRONICS SHOP"})
				mustApproved(tb, fake, res)
				advanceUntil(tb, fake, res.TransactionID, synapsefake.StatusSettled)
				res = txResult(tb, fake, env, res.TransactionID)
				r := send(tb, fake, "PATCH", "/users/"+env.UserID+"/nodes/"+res.NodeID+"/trans/"+res.TransactionID+"/dispute",
					userHeader(env, res.OAuthKey, env.Fingerprint), map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"})
				mustStatus(tb, "PATCH the dispute", r, http.StatusOK)
				if won {
					must(tb, "WinDispute", fake.WinDispute(res.TransactionID))
				} else {
					must(tb, "LoseDispute", fake.LoseDispute(res.TransactionID))
				}
				return res
			},
			Want: txOutcome(synapsefake.StatusSettled, "", append(processed(synapsefake.StatusSettled),
				synapsefake.StatusSettled, synapsefake.StatusSettled)...),
			Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
				tb.Helper()
				if tx, _ := fake.Transaction(res.TransactionID); tx.Dispute != status {
					tb.Errorf("dispute of %s is %q, want %s", res.TransactionID, tx.Dispute, status)
				}
				if n, _ := fake.Node(env.DepositNodeID); n.BalanceCents != balance {
					tb.Errorf("deposit balance %d, want %d", n.BalanceCents, balance)
				}
			},
		}
	}
	purchase := func(tb testing.TB, fake *synapsefake.Server, env Env, cents int64) Result {
		tb.Helper()
		res := swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: cents, Merchant: "ELECTRONICS SHOP"})
		mustApproved(tb, fake, res)
		advanceUntil(tb, fake, res.TransactionID, synapsefake.StatusSettled)
		return txResult(tb, fake, env, res.TransactionID)
	}
	file := func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) Response {
		tb.Helper()
		return send(tb, fake, "PATCH", "/users/"+env.UserID+"/nodes/"+res.NodeID+"/trans/"+res.TransactionID+"/dispute",
			userHeader(env, res.OAuthKey, env.Fingerprint), map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"})
	}
	late := Scenario{
		Name: "card purchase disputed after its 120 days: refused",
		Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			res := purchase(tb, fake, env, 4000)
			fake.Advance((reference.CardDisputeDays + 1) * 24 * time.Hour)
			res = txResult(tb, fake, env, res.TransactionID)
			r := file(tb, fake, env, res)
			if r.Status != http.StatusConflict || str(r.Body["error_code"]) != "400" {
				tb.Fatalf("scenarios: a dispute 121 days after settlement answered %d %v, want 409 / \"400\"", r.Status, r.Body)
			}
			return res
		},
		Want: txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
		Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
			tb.Helper()
			if tx, _ := fake.Transaction(res.TransactionID); tx.Dispute != synapsefake.DisputeNone {
				tb.Errorf("dispute of %s is %q, want none", res.TransactionID, tx.Dispute)
			}
			if n, _ := fake.Node(env.DepositNodeID); n.BalanceCents != DepositCents-4000 {
				tb.Errorf("deposit balance %d, want %d", n.BalanceCents, DepositCents-4000)
			}
		},
	}
	provisional := Scenario{
		Name: "card purchase of $20.00 disputed: provisional credit 15 business days later",
		Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			res := purchase(tb, fake, env, 2000)
			r := file(tb, fake, env, res)
			mustStatus(tb, "PATCH the dispute", r, http.StatusOK)
			if r.Body["provisional_credit_tran"] != nil {
				tb.Fatalf("scenarios: the dispute answered a provisional credit at once: %v", r.Body)
			}
			_, err := fake.AdvanceTo(reference.AddBusinessDays(fake.Now(), reference.NewAccountProvisionalCreditDays))
			must(tb, "AdvanceTo", err)
			return txResult(tb, fake, env, res.TransactionID)
		},
		Want: txOutcome(synapsefake.StatusSettled, "", append(processed(synapsefake.StatusSettled),
			synapsefake.StatusSettled, synapsefake.StatusSettled)...),
		Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
			tb.Helper()
			if tx, _ := fake.Transaction(res.TransactionID); tx.Dispute != synapsefake.DisputePending || tx.DisputeCreditID == "" {
				tb.Errorf("dispute of %s is %q with credit %q, want PENDING with a provisional credit", res.TransactionID, tx.Dispute, tx.DisputeCreditID)
			}
			if n, _ := fake.Node(env.DepositNodeID); n.BalanceCents != DepositCents {
				tb.Errorf("deposit balance %d, want %d", n.BalanceCents, DepositCents)
			}
		},
	}
	return []Scenario{dispute(true), dispute(false), late, provisional}
}

// CardLifecycle returns the card's life beyond approve and decline, each a
// swipe of the Env's card (or a force post or refund on it) driven through
// the fake's Go API: a hold pending (CREATED, the amount off the available
// balance only), a hold lapsed after synapsefake.AuthorizationHoldDays
// (CANCELED IR154), an incremental authorization, a partial and a full
// reversal (CANCELED IR17), a clearing for more than authorized (a tip) and
// for less (fuel), a force post without authorization and a refund. Each
// Verify checks the deposit node's balance and available balance and the
// transaction's amount. The slice is fresh on every call.
func CardLifecycle() []Scenario {
	held := func(tb testing.TB, fake *synapsefake.Server, env Env, cents int64) Result {
		tb.Helper()
		res := swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: cents, Merchant: "HOTEL", Hold: true})
		mustApproved(tb, fake, res)
		return res
	}
	created2 := []synapsefake.Status{synapsefake.StatusCreated, synapsefake.StatusCreated}
	return []Scenario{
		{
			Name: "card hold pending",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				res := held(tb, fake, env, 6000)
				fake.Advance(24 * time.Hour) // a hold does not process with the clock
				return txResult(tb, fake, env, res.TransactionID)
			},
			Want:   txOutcome(synapsefake.StatusCreated, "", synapsefake.StatusCreated),
			Verify: money(DepositCents, DepositCents-6000, 6000),
		},
		{
			Name: "card hold lapsed IR154",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				res := held(tb, fake, env, 6000)
				fake.Advance(synapsefake.AuthorizationHoldDays * 24 * time.Hour)
				return txResult(tb, fake, env, res.TransactionID)
			},
			Want:   txOutcome(synapsefake.StatusCanceled, "IR154", synapsefake.StatusCreated, synapsefake.StatusCanceled),
			Verify: money(DepositCents, DepositCents, 6000),
		},
		{
			Name: "card authorization incremented",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				res := held(tb, fake, env, 10000)
				must(tb, "IncrementAuthorization", fake.IncrementAuthorization(res.TransactionID, 2500))
				return txResult(tb, fake, env, res.TransactionID)
			},
			Want:   txOutcome(synapsefake.StatusCreated, "", created2...),
			Verify: money(DepositCents, DepositCents-12500, 12500),
		},
		{
			Name: "card authorization partly reversed",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				res := held(tb, fake, env, 10000)
				must(tb, "ReverseAuthorization", fake.ReverseAuthorization(res.TransactionID, 4000))
				return txResult(tb, fake, env, res.TransactionID)
			},
			Want:   txOutcome(synapsefake.StatusCreated, "", created2...),
			Verify: money(DepositCents, DepositCents-6000, 6000),
		},
		{
			Name: "card authorization fully reversed IR17",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				res := held(tb, fake, env, 10000)
				must(tb, "ReverseAuthorization", fake.ReverseAuthorization(res.TransactionID, 10000))
				return txResult(tb, fake, env, res.TransactionID)
			},
			Want:   txOutcome(synapsefake.StatusCanceled, "IR17", synapsefake.StatusCreated, synapsefake.StatusCanceled),
			Verify: money(DepositCents, DepositCents, 10000),
		},
		{
			Name: "card cleared for more than authorized (tip)",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				res := held(tb, fake, env, 4000)
				must(tb, "ClearAuthorization", fake.ClearAuthorization(res.TransactionID, 4800))
				return txResult(tb, fake, env, res.TransactionID)
			},
			Want:   txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
			Verify: money(DepositCents-4800, DepositCents-4800, 4800),
		},
		{
			Name: "card cleared for less than authorized (fuel)",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				res := held(tb, fake, env, 10000)
				must(tb, "ClearAuthorization", fake.ClearAuthorization(res.TransactionID, 3742))
				return txResult(tb, fake, env, res.TransactionID)
			},
			Want:   txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
			Verify: money(DepositCents-3742, DepositCents-3742, 3742),
		},
		{
			Name: "card force post without authorization",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				tx, err := fake.ForcePost(env.CardID, synapsefake.CardAuth{AmountCents: 1999, Merchant: "TRANSIT"})
				must(tb, "ForcePost", err)
				return txResult(tb, fake, env, tx.ID)
			},
			Want:   txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
			Verify: money(DepositCents-1999, DepositCents-1999, 1999),
		},
		{
			Name: "card refund",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				tx, err := fake.RefundCard(env.CardID, 2599, "SHOE STORE")
				must(tb, "RefundCard", err)
				return txResult(tb, fake, env, tx.ID)
			},
			Want:   txOutcome(synapsefake.StatusSettled, "", processed(synapsefake.StatusSettled)...),
			Verify: money(DepositCents+2599, DepositCents+2599, 2599),
		},
	}
}

// money is a Verify of the deposit node's balance and available balance
// and the transaction's amount, in cents.
func money(balance, available, amount int64) func(testing.TB, *synapsefake.Server, Env, Result) {
	return func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
		tb.Helper()
		n, _ := fake.Node(env.DepositNodeID)
		if n.BalanceCents != balance || n.AvailableCents != available {
			tb.Errorf("deposit node: balance %d available %d, want %d %d", n.BalanceCents, n.AvailableCents, balance, available)
		}
		if tx, _ := fake.Transaction(res.TransactionID); tx.AmountCents != amount {
			tb.Errorf("transaction %s: amount %d, want %d", tx.ID, tx.AmountCents, amount)
		}
	}
}

// CardDeclines returns the common card declines, each a swipe of a card of
// the Env that the fake declines by the card's own rules where it has one
// (IR04 not activated, IR62 terminated, IR54 expired, IR57 cash or foreign
// not permitted, IR51 insufficient funds, IR185 daily limits) and with
// CardAuth.DeclineWith otherwise (IR05, IR41, IR43, IR59). A declined swipe
// is a RETURNED transaction with the IR code in recent_status.code. The slice
// is fresh on every call.
func CardDeclines() []Scenario {
	out := []Scenario{
		declined(reference.IRCardNotActivated, "", func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			card, err := fake.AddSubnet(env.UserID, env.DepositNodeID, synapsefake.SubnetSeed{Nickname: "New card", AccountClass: synapsefake.ClassCard})
			must(tb, "AddSubnet", err)
			return swipe(tb, fake, env, card.ID, synapsefake.CardAuth{AmountCents: 2500})
		}),
		declined(reference.IRCardRestricted, "terminated", func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			patchCard(tb, fake, env, map[string]any{"status": synapsefake.SubnetTerminated})
			return swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: 2500})
		}),
		declined(reference.IRCardExpired, "", func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			card, ok := fake.Subnet(env.CardID)
			if !ok {
				tb.Fatalf("scenarios: card %s not found", env.CardID)
			}
			// A card is good through its exp day (UTC), three years after issue.
			fake.Advance(card.Exp.AddDate(0, 0, 1).Sub(fake.Now()))
			return swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: 2500})
		}),
		declined(reference.IRNotPermittedToCardholder, "cash", func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			patchCard(tb, fake, env, map[string]any{"preferences": map[string]any{"allow_cash_transactions": false}})
			return swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: 2000, Cash: true, Merchant: "ATM"})
		}),
		declined(reference.IRNotPermittedToCardholder, "foreign", func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			patchCard(tb, fake, env, map[string]any{"preferences": map[string]any{"allow_foreign_transactions": false}})
			return swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: 2500, Foreign: true, Merchant: "CAFE DE PARIS"})
		}),
		declined(reference.IRInsufficientFunds, "", func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			n, ok := fake.Node(env.DepositNodeID)
			if !ok {
				tb.Fatalf("scenarios: node %s not found", env.DepositNodeID)
			}
			return swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: n.BalanceCents + 1})
		}),
		declined(reference.IRDailyLimitExceeded, "purchases", func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			card, _ := fake.Subnet(env.CardID)
			first := swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: card.DailyTransactionLimitCents - 5000})
			mustApproved(tb, fake, first)
			return swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: 10000})
		}),
		declined(reference.IRDailyLimitExceeded, "cash", func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			card, _ := fake.Subnet(env.CardID)
			first := swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: card.DailyCashLimitCents - 5000, Cash: true, Merchant: "ATM"})
			mustApproved(tb, fake, first)
			return swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: 10000, Cash: true, Merchant: "ATM"})
		}),
	}
	for _, code := range []string{reference.IRDoNotHonor, reference.IRLostCard, reference.IRStolenCard, reference.IRFraudSuspected} {
		out = append(out, declined(code, "", func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			return swipe(tb, fake, env, env.CardID, synapsefake.CardAuth{AmountCents: 2500, DeclineWith: code})
		}))
	}
	return out
}

// OAuthPaths returns every path of POST /oauth/{user_id} an app's login may
// take, each driven over HTTP with fake.Client(): a registered device (200),
// an unregistered one (202 asking for MFA), the pin that registers it (200),
// the choice of a phone (202, success true), a malformed fingerprint (400
// with http_code "401"), a wrong pin (409 / "400"), a key past its 7200 s
// (401 / "110" on the app's next call, GET /users/{user_id}/nodes), a refresh token past its uses (409 /
// "400") and MFA forced on a registered device (202, then 200 with the pin).
// The slice is fresh on every call.
func OAuthPaths() []Scenario {
	return []Scenario{
		{
			Name: "registered device gets a key",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				return oauth(tb, fake, env, env.Fingerprint, nil)
			},
			Want: Outcome{HTTPStatus: http.StatusOK, Success: true},
		},
		{
			Name: "unregistered device is asked for MFA",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				return oauth(tb, fake, env, newDevice, nil)
			},
			Want: mfaPending(false),
			Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
				tb.Helper()
				wantRegistered(tb, fake, env, res.Fingerprint, false)
				u, _ := fake.User(env.UserID)
				var phones []string
				for _, p := range asSlice(res.Response.Body["phone_numbers"]) {
					phones = append(phones, str(p))
				}
				if diff := cmp.Diff(u.PhoneNumbers, phones); diff != "" {
					tb.Errorf("phone_numbers of the MFA challenge (-user's +got):\n%s", diff)
				}
			},
		},
		{
			Name: "MFA pin registers the device",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				mustStatus(tb, "OAuth from a new device", oauth(tb, fake, env, newDevice, nil).Response, http.StatusAccepted)
				return oauth(tb, fake, env, newDevice, map[string]any{"validation_pin": fake.MFAPin(env.UserID)})
			},
			Want: Outcome{HTTPStatus: http.StatusOK, Success: true},
		},
		{
			Name: "MFA code sent to a chosen phone",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				first := oauth(tb, fake, env, newDevice, nil).Response
				mustStatus(tb, "OAuth from a new device", first, http.StatusAccepted)
				phones := asSlice(first.Body["phone_numbers"])
				if len(phones) == 0 {
					tb.Fatalf("scenarios: MFA challenge without phone_numbers: %v", first.Body)
				}
				return oauth(tb, fake, env, newDevice, map[string]any{"phone_number": phones[len(phones)-1]})
			},
			Want: mfaPending(true),
			Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
				tb.Helper()
				wantRegistered(tb, fake, env, res.Fingerprint, false)
			},
		},
		{
			Name: "invalid fingerprint",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				return oauth(tb, fake, env, badFingerprint, nil)
			},
			// The one answer whose http_code differs from its HTTP status.
			Want: Outcome{HTTPStatus: http.StatusBadRequest, ErrorCode: reference.ErrUnauthorized, HTTPCode: "401", Error: "invalid_fingerprint"},
			Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
				tb.Helper()
				wantRegistered(tb, fake, env, res.Fingerprint, false)
			},
		},
		{
			Name: "wrong MFA pin",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				mustStatus(tb, "OAuth from a new device", oauth(tb, fake, env, newDevice, nil).Response, http.StatusAccepted)
				if fake.MFAPin(env.UserID) == wrongPin {
					tb.Fatalf("scenarios: the fake's pin is %s, the pin this scenario sends as wrong", wrongPin)
				}
				return oauth(tb, fake, env, newDevice, map[string]any{"validation_pin": wrongPin})
			},
			Want: errOutcome(http.StatusConflict, reference.ErrIncorrectValues, "incorrect_validation_pin"),
			Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
				tb.Helper()
				wantRegistered(tb, fake, env, res.Fingerprint, false)
			},
		},
		{
			Name: "expired oauth_key",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				fake.Advance(keyLifetime)
				r := send(tb, fake, "GET", "/users/"+env.UserID+"/nodes", env.Header(), nil)
				return Result{OAuthKey: fake.OAuthKey(env.UserID, env.Fingerprint), Fingerprint: env.Fingerprint, Response: r}
			},
			Want: errOutcome(http.StatusUnauthorized, reference.ErrUserCredentials, "invalid_oauth_key"),
		},
		{
			Name: "refresh token past its uses",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				u, _ := fake.User(env.UserID)
				for i := range u.RefreshUsesLeft {
					r := oauthWith(tb, fake, env, env.Fingerprint, u.RefreshToken, nil)
					mustStatus(tb, "OAuth use "+strconv.Itoa(i+1)+" of the refresh token", r.Response, http.StatusOK)
				}
				return oauthWith(tb, fake, env, env.Fingerprint, u.RefreshToken, nil)
			},
			Want: errOutcome(http.StatusConflict, reference.ErrIncorrectValues, "invalid_refresh_token"),
			Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
				tb.Helper()
				if u, _ := fake.User(env.UserID); u.RefreshToken == res.RefreshToken {
					tb.Errorf("the spent refresh token is still the user's")
				}
			},
		},
		{
			Name: "MFA forced on a registered device",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				if !fake.ForceMFA(env.UserID) {
					tb.Fatalf("scenarios: ForceMFA: user %s not found", env.UserID)
				}
				return oauth(tb, fake, env, env.Fingerprint, nil)
			},
			Want: mfaPending(false),
			Verify: func(tb testing.TB, fake *synapsefake.Server, env Env, res Result) {
				tb.Helper()
				wantRegistered(tb, fake, env, res.Fingerprint, true)
			},
		},
		{
			Name: "MFA forced, then the pin",
			Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
				tb.Helper()
				if !fake.ForceMFA(env.UserID) {
					tb.Fatalf("scenarios: ForceMFA: user %s not found", env.UserID)
				}
				mustStatus(tb, "OAuth with MFA forced", oauth(tb, fake, env, env.Fingerprint, nil).Response, http.StatusAccepted)
				return oauth(tb, fake, env, env.Fingerprint, map[string]any{"validation_pin": fake.MFAPin(env.UserID)})
			},
			Want: Outcome{HTTPStatus: http.StatusOK, Success: true},
		},
	}
}

// processed is the timeline of a transaction processed from CREATED to end.
func processed(end synapsefake.Status) []synapsefake.Status {
	return []synapsefake.Status{synapsefake.StatusCreated, synapsefake.StatusProcessingDebit, synapsefake.StatusProcessingCredit, end}
}

// txOutcome is what GET .../trans/{id} shows for a transaction.
func txOutcome(status synapsefake.Status, code string, timeline ...synapsefake.Status) Outcome {
	return Outcome{HTTPStatus: http.StatusOK, Success: true, Status: status, Code: code, Timeline: timeline}
}

// errOutcome is the error envelope with status and error_code.
func errOutcome(status int, errorCode, code string) Outcome {
	return Outcome{HTTPStatus: status, ErrorCode: errorCode, HTTPCode: strconv.Itoa(status), Error: code}
}

// mfaPending is a 202 of the MFA path: the challenge (success false) or the
// notice that the code was sent (success true).
func mfaPending(sent bool) Outcome {
	return Outcome{HTTPStatus: http.StatusAccepted, Success: sent, ErrorCode: reference.ErrAccepted, HTTPCode: "202"}
}

// returned is the ACH return of the transfer with code.
func returned(code string) Scenario {
	meaning, _ := reference.CodeMeaning(code)
	return Scenario{
		Name: "returned " + code + " " + meaning,
		Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			id := newTransfer(tb, fake, env)
			must(tb, "Return", fake.Return(id, code))
			return txResult(tb, fake, env, id)
		},
		Want: txOutcome(synapsefake.StatusReturned, code, processed(synapsefake.StatusReturned)...),
	}
}

// declined is a card decline with code; how tells two rules with the same
// code apart in the name.
func declined(code, how string, apply func(testing.TB, *synapsefake.Server, Env) Result) Scenario {
	meaning, _ := reference.InterchangeMeaning(code)
	name := "card declined " + code + " " + meaning
	if how != "" {
		name += " (" + how + ")"
	}
	return Scenario{
		Name:  name,
		Apply: apply,
		Want:  txOutcome(synapsefake.StatusReturned, code, synapsefake.StatusCreated, synapsefake.StatusReturned),
	}
}

// newTransfer creates the transaction the non-card outcomes act on.
func newTransfer(tb testing.TB, fake *synapsefake.Server, env Env) string {
	tb.Helper()
	var id string
	if env.Transfer != nil {
		id = env.Transfer(tb)
	} else {
		id = postTransfer(tb, fake, env)
	}
	tx, ok := fake.Transaction(id)
	if !ok {
		tb.Fatalf("scenarios: Transfer returned %q, not a transaction of the fake", id)
	}
	if tx.Status != synapsefake.StatusCreated {
		tb.Fatalf("scenarios: Transfer's transaction %s is %s, want CREATED", id, tx.Status)
	}
	return id
}

// postTransfer is the default Transfer: an ACH debit of TransferCents from
// the user's bank account into the deposit node, over HTTP.
func postTransfer(tb testing.TB, fake *synapsefake.Server, env Env) string {
	tb.Helper()
	r := send(tb, fake, "POST", "/users/"+env.UserID+"/nodes/"+env.ACHNodeID+"/trans", liveHeader(fake, env), map[string]any{
		"to":     map[string]any{"type": reference.NodeDepositUS, "id": env.DepositNodeID},
		"amount": map[string]any{"amount": float64(TransferCents) / 100, "currency": "USD"},
		"extra":  map[string]any{"ip": UserIP, "note": "scenarios transfer"},
	})
	mustStatus(tb, "POST .../trans", r, http.StatusOK)
	id := str(r.Body["_id"])
	if id == "" {
		tb.Fatalf("scenarios: POST .../trans answered no _id: %v", r.Body)
	}
	return id
}

// advanceUntil moves the clock a day at a time until the transaction
// reaches status, and fails the test if it does not within settleWithin.
func advanceUntil(tb testing.TB, fake *synapsefake.Server, id string, status synapsefake.Status) {
	tb.Helper()
	for range settleWithin / (24 * time.Hour) {
		fake.Advance(24 * time.Hour)
		if tx, _ := fake.Transaction(id); tx.Status == status {
			return
		}
	}
	tx, _ := fake.Transaction(id)
	tb.Fatalf("scenarios: transaction %s is %s after %v, want %s", id, tx.Status, settleWithin, status)
}

// swipe makes a card swipe and returns its transaction.
func swipe(tb testing.TB, fake *synapsefake.Server, env Env, cardID string, auth synapsefake.CardAuth) Result {
	tb.Helper()
	tx, err := fake.CardAuthorization(cardID, auth)
	must(tb, "CardAuthorization", err)
	return txResult(tb, fake, env, tx.ID)
}

// mustApproved fails the test unless the swipe was approved.
func mustApproved(tb testing.TB, fake *synapsefake.Server, res Result) {
	tb.Helper()
	if tx, _ := fake.Transaction(res.TransactionID); tx.Status == synapsefake.StatusReturned {
		tb.Fatalf("scenarios: swipe %s declined with %s, want approved", tx.ID, tx.Code)
	}
}

// patchCard PATCHes the Env's card over HTTP.
func patchCard(tb testing.TB, fake *synapsefake.Server, env Env, body map[string]any) {
	tb.Helper()
	r := send(tb, fake, "PATCH", "/users/"+env.UserID+"/nodes/"+env.DepositNodeID+"/subnets/"+env.CardID, liveHeader(fake, env), body)
	mustStatus(tb, "PATCH the card", r, http.StatusOK)
}

// txResult is the Result of a transaction outcome, with a fresh key.
func txResult(tb testing.TB, fake *synapsefake.Server, env Env, id string) Result {
	tb.Helper()
	tx, ok := fake.Transaction(id)
	if !ok {
		tb.Fatalf("scenarios: transaction %s not found", id)
	}
	node := tx.FromNodeID
	if n, _ := fake.Node(node); n.UserID != env.UserID {
		node = tx.ToNodeID
	}
	return Result{TransactionID: id, NodeID: node, OAuthKey: fake.OAuthKey(env.UserID, env.Fingerprint)}
}

// oauth calls POST /oauth/{user_id} from device with the user's current
// refresh token and the extra body fields.
func oauth(tb testing.TB, fake *synapsefake.Server, env Env, device string, extra map[string]any) Result {
	tb.Helper()
	u, ok := fake.User(env.UserID)
	if !ok {
		tb.Fatalf("scenarios: user %s not found", env.UserID)
	}
	return oauthWith(tb, fake, env, device, u.RefreshToken, extra)
}

// oauthWith calls POST /oauth/{user_id} from device with refreshToken.
func oauthWith(tb testing.TB, fake *synapsefake.Server, env Env, device, refreshToken string, extra map[string]any) Result {
	tb.Helper()
	body := map[string]any{"refresh_token": refreshToken}
	for k, v := range extra {
		body[k] = v
	}
	r := send(tb, fake, "POST", "/oauth/"+env.UserID, userHeader(env, "", device), body)
	return Result{OAuthKey: fake.OAuthKey(env.UserID, env.Fingerprint), Fingerprint: device, RefreshToken: refreshToken, Response: r}
}

// wantRegistered reports whether device's registration is as wanted.
func wantRegistered(tb testing.TB, fake *synapsefake.Server, env Env, device string, want bool) {
	tb.Helper()
	u, _ := fake.User(env.UserID)
	if got := slices.Contains(u.Fingerprints, device); got != want {
		tb.Errorf("device %q registered: %v, want %v (registered: %q)", device, got, want, u.Fingerprints)
	}
}

// liveHeader is the headers of a call by the Env's user and device with a
// new key, live whatever the clock did since Setup.
func liveHeader(fake *synapsefake.Server, env Env) http.Header {
	return userHeader(env, fake.OAuthKey(env.UserID, env.Fingerprint), env.Fingerprint)
}

// userHeader is the headers of a call with key from device.
func userHeader(env Env, key, device string) http.Header {
	h := http.Header{}
	h.Set("X-SP-GATEWAY", env.Gateway)
	h.Set("X-SP-USER", key+"|"+device)
	h.Set("X-SP-USER-IP", UserIP)
	return h
}

// send makes one JSON call to the fake and decodes its answer, which must
// be a JSON object.
func send(tb testing.TB, fake *synapsefake.Server, method, path string, h http.Header, body any) Response {
	tb.Helper()
	var rdr io.Reader = http.NoBody
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			tb.Fatalf("scenarios: marshal: %v", err)
		}
		rdr = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, fake.URL()+path, rdr)
	if err != nil {
		tb.Fatalf("scenarios: %v", err)
	}
	req.Header = h.Clone()
	req.Header.Set("Content-Type", "application/json")
	resp, err := fake.Client().Do(req)
	if err != nil {
		tb.Fatalf("scenarios: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("scenarios: %s %s: %v", method, path, err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		tb.Fatalf("scenarios: %s %s: answer is not a JSON object: %v\n%s", method, path, err, raw)
	}
	return Response{Status: resp.StatusCode, Body: out}
}

// outcomeOf reads the envelope fields of an answer.
func outcomeOf(r Response) Outcome {
	e, _ := r.Body["error"].(map[string]any)
	ok, _ := r.Body["success"].(bool)
	return Outcome{HTTPStatus: r.Status, Success: ok, ErrorCode: str(r.Body["error_code"]),
		HTTPCode: str(r.Body["http_code"]), Error: str(e["code"])}
}

// mustStatus fails the test when a step answered another status.
func mustStatus(tb testing.TB, step string, r Response, status int) {
	tb.Helper()
	if r.Status != status {
		tb.Fatalf("scenarios: %s: status %d, want %d: %v", step, r.Status, status, r.Body)
	}
}

// must fails the test on a helper's error.
func must(tb testing.TB, step string, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatalf("scenarios: %s: %v", step, err)
	}
}

// str is v as a string: a JSON string as is, a number in decimal, "" for
// anything else.
func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// asSlice is v as a JSON array, nil for anything else.
func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
