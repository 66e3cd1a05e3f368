package scenarios_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
	"github.com/synapsefake/synapsefake/scenarios"
)

// exampleT stands in for the *testing.T of a real test, which an example
// does not have. The scenarios call only Helper and Fatalf.
type exampleT struct {
	testing.TB // nil: any other method panics
}

func (exampleT) Helper()                           {}
func (exampleT) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// payments is the application under test, cut down to two calls: it funds
// the user's deposit account from their bank account, and it reads back
// what became of a payment.
type payments struct {
	baseURL string
	client  *http.Client
	header  http.Header // the user's credentials
}

// call sends one JSON request and decodes the answer.
func (p payments) call(method, path string, body any) (map[string]any, error) {
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequest(method, p.baseURL+path, &buf)
	if err != nil {
		return nil, err
	}
	req.Header = p.header.Clone()
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %d %v", method, path, resp.StatusCode, out["error"])
	}
	return out, nil
}

// Fund pulls usd from the bank account node into the deposit node and
// returns the transaction id.
func (p payments) Fund(userID, bankNodeID, depositNodeID string, usd float64) (string, error) {
	tx, err := p.call("POST", "/users/"+userID+"/nodes/"+bankNodeID+"/trans", map[string]any{
		"to":     map[string]any{"type": "DEPOSIT-US", "id": depositNodeID},
		"amount": map[string]any{"amount": usd, "currency": "USD"},
		"extra":  map[string]any{"ip": "203.0.113.7", "note": "top-up"},
	})
	if err != nil {
		return "", err
	}
	return tx["_id"].(string), nil
}

// Status reports a payment as the app shows it: its status, and the reason
// code when there is one.
func (p payments) Status(userID, nodeID, txID string) (string, error) {
	tx, err := p.call("GET", "/users/"+userID+"/nodes/"+nodeID+"/trans/"+txID, nil)
	if err != nil {
		return "", err
	}
	rs := tx["recent_status"].(map[string]any)
	if code, ok := rs["code"].(string); ok {
		return fmt.Sprintf("%s (%s)", rs["status"], code), nil
	}
	return rs["status"].(string), nil
}

// A consumer's table test over every transaction outcome: the app funds an
// account, the scenario decides what becomes of the payment (card
// scenarios make a swipe instead), and the app reports what it sees. In a
// real test the loop body is a t.Run with t.Parallel and
// synapsefake.NewServer(t).
func ExampleTransactionOutcomes() {
	t := exampleT{} // in a test: the *testing.T
	for _, sc := range scenarios.TransactionOutcomes() {
		fake := synapsefake.New()
		env := scenarios.Setup(t, fake)
		app := payments{baseURL: fake.URL(), client: fake.Client(), header: env.Header()}

		// The scenario acts on the payment the app makes.
		env.Transfer = func(tb testing.TB) string {
			id, err := app.Fund(env.UserID, env.ACHNodeID, env.DepositNodeID, 10)
			if err != nil {
				tb.Fatalf("fund: %v", err)
			}
			return id
		}
		res := sc.Apply(t, fake, env)

		// The scenario may have moved the clock past the app's key.
		app.header = env.Header()
		app.header.Set("X-SP-USER", res.OAuthKey+"|"+env.Fingerprint)
		got, err := app.Status(env.UserID, res.NodeID, res.TransactionID)
		if err != nil {
			fmt.Println(sc.Name, "error:", err)
			continue
		}
		fmt.Printf("%s: %s\n", sc.Name, got)
	}
	// Output:
	// settled: SETTLED
	// canceled by the app: CANCELED
	// held in the service's queue: QUEUED-BY-SYNAPSE
	// queued, then canceled by the service: CANCELED
	// queued, released, then settled: SETTLED
	// returned R01 insufficient funds: RETURNED (R01)
	// returned R02 account closed: RETURNED (R02)
	// returned R03 no account: RETURNED (R03)
	// returned R04 invalid account number: RETURNED (R04)
	// returned R05 unauthorized debit: RETURNED (R05)
	// returned R06 returned per ODFI: RETURNED (R06)
	// returned R07 authorization revoked: RETURNED (R07)
	// returned R08 payment stopped: RETURNED (R08)
	// returned R09 uncollected funds: RETURNED (R09)
	// returned R10 not authorized: RETURNED (R10)
	// returned R16 account frozen: RETURNED (R16)
	// returned R20 non-transaction account: RETURNED (R20)
	// returned R29 corporate not authorized: RETURNED (R29)
	// card purchase settled: SETTLED
	// card declined IR04 card not activated: RETURNED (IR04)
	// card declined IR62 card restricted (terminated): RETURNED (IR62)
	// card declined IR54 card expired: RETURNED (IR54)
	// card declined IR57 not permitted to cardholder (cash): RETURNED (IR57)
	// card declined IR57 not permitted to cardholder (foreign): RETURNED (IR57)
	// card declined IR51 insufficient funds: RETURNED (IR51)
	// card declined IR185 daily limit exceeded (purchases): RETURNED (IR185)
	// card declined IR185 daily limit exceeded (cash): RETURNED (IR185)
	// card declined IR05 suspicious activity, do not honor: RETURNED (IR05)
	// card declined IR41 lost card: RETURNED (IR41)
	// card declined IR43 stolen card: RETURNED (IR43)
	// card declined IR59 fraud suspected: RETURNED (IR59)
}

// What an app's login meets on each OAuth path: the HTTP status, the
// error_code and the error.code of the path's last answer, as Observe reads
// them.
func ExampleOAuthPaths() {
	t := exampleT{}
	for _, sc := range scenarios.OAuthPaths() {
		fake := synapsefake.New()
		env := scenarios.Setup(t, fake)
		res := sc.Apply(t, fake, env)
		got := scenarios.Observe(t, fake, env, res)
		fmt.Printf("%s: %d %q %q success=%v\n", sc.Name, got.HTTPStatus, got.ErrorCode, got.Error, got.Success)
	}
	// Output:
	// registered device gets a key: 200 "" "" success=true
	// unregistered device is asked for MFA: 202 "10" "" success=false
	// MFA pin registers the device: 200 "" "" success=true
	// MFA code sent to a chosen phone: 202 "10" "" success=true
	// invalid fingerprint: 400 "300" "invalid_fingerprint" success=false
	// wrong MFA pin: 409 "400" "incorrect_validation_pin" success=false
	// expired oauth_key: 401 "110" "invalid_oauth_key" success=false
	// refresh token past its uses: 409 "400" "invalid_refresh_token" success=false
	// MFA forced on a registered device: 202 "10" "" success=false
	// MFA forced, then the pin: 200 "" "" success=true
}

// The banking calendar's rules as a table: each scenario makes its
// transaction at its date and leaves the clock where the rule says it
// settles (or where the platform decided a swipe).
func ExampleCalendarRules() {
	t := exampleT{}
	for _, sc := range scenarios.CalendarRules() {
		fake := synapsefake.New()
		env := scenarios.Setup(t, fake)
		res := sc.Apply(t, fake, env)
		sc.Check(t, fake, env, res)
		tx, _ := fake.Transaction(res.TransactionID)
		fmt.Printf("%s: %s%s %s\n", sc.Name, tx.Status, codeOf(tx), fake.Now().In(reference.Eastern).Format("Mon 01-02 15:04"))
	}
	// Output:
	// dummy ACH on Thanksgiving eve settles Friday: SETTLED Fri 11-27 12:00
	// dummy ACH on Christmas Eve settles Monday: SETTLED Mon 12-28 12:00
	// dummy WIRE on a Saturday settles Monday morning: SETTLED Mon 11-30 08:33
	// same-day ACH over $1,000,000 settles next day: SETTLED Fri 11-27 10:00
	// same-day ACH after the 14:00 ET cutoff settles the next business day: SETTLED Mon 11-23 15:00
	// next-day ACH at Wed 17:00 ET before Thanksgiving settles Friday: SETTLED Fri 11-27 17:00
	// wire at 17:59 ET settles before Fedwire closes: SETTLED Tue 11-24 18:02
	// push-to-card on Thanksgiving eve settles Friday: SETTLED Fri 11-27 12:00
	// JIT partial approval refused without partial_approval_allowed: RETURNED (IR180) Tue 04-14 10:00
	// JIT partial approval honoured with partial_approval_allowed: CREATED (IR10) Tue 04-14 10:00
}

// codeOf is " (CODE)" for a transaction with a recent_status.code, "".
func codeOf(tx synapsefake.Transaction) string {
	if tx.Code == "" {
		return ""
	}
	return " (" + tx.Code + ")"
}
