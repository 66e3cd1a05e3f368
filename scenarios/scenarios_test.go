package scenarios_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
	"github.com/synapsefake/synapsefake/scenarios"
)

// get calls GET path on the fake with the user's headers and key and
// decodes the JSON object it answers.
func get(t testing.TB, fake *synapsefake.Server, env scenarios.Env, key, device, path string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("GET", fake.URL()+path, http.NoBody)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-SP-GATEWAY", env.Gateway)
	req.Header.Set("X-SP-USER", key+"|"+device)
	req.Header.Set("X-SP-USER-IP", "127.0.0.1")
	resp, err := fake.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("GET %s: not a JSON object: %v\n%s", path, err, raw)
	}
	return resp.StatusCode, body
}

// timelineOf is the statuses of a transaction's timeline.
func timelineOf(tx synapsefake.Transaction) []synapsefake.Status {
	var out []synapsefake.Status
	for _, e := range tx.Timeline {
		out = append(out, e.Status)
	}
	return out
}

// names is the scenario names of a catalog.
func names(list []scenarios.Scenario) []string {
	var out []string
	for _, sc := range list {
		out = append(out, sc.Name)
	}
	return out
}

func TestCatalogs(t *testing.T) {
	t.Parallel()
	outcomes, declines, oauth := scenarios.TransactionOutcomes(), scenarios.CardDeclines(), scenarios.OAuthPaths()
	for name, list := range map[string][]scenarios.Scenario{"TransactionOutcomes": outcomes, "CardDeclines": declines,
		"OAuthPaths": oauth, "ReturnTimings": scenarios.ReturnTimings(), "CalendarRules": scenarios.CalendarRules(), "KYCOutcomes": scenarios.KYCOutcomes()} {
		seen := map[string]bool{}
		for _, sc := range list {
			if sc.Name == "" || sc.Apply == nil || sc.Want.HTTPStatus == 0 {
				t.Errorf("%s: incomplete scenario %+v", name, sc)
			}
			if seen[sc.Name] {
				t.Errorf("%s: duplicate name %q", name, sc.Name)
			}
			seen[sc.Name] = true
		}
	}

	// Every card decline is also a transaction outcome, and is one.
	for _, sc := range declines {
		if !slices.Contains(names(outcomes), sc.Name) {
			t.Errorf("card decline %q missing from TransactionOutcomes", sc.Name)
		}
		if sc.Want.Status != synapsefake.StatusReturned || !strings.HasPrefix(sc.Want.Code, "IR") {
			t.Errorf("card decline %q wants %s %q, want RETURNED with an IR code", sc.Name, sc.Want.Status, sc.Want.Code)
		}
	}

	// The codes and statuses the catalog promises to cover.
	var codes []string
	statuses := map[synapsefake.Status]bool{}
	for _, sc := range outcomes {
		codes = append(codes, sc.Want.Code)
		statuses[sc.Want.Status] = true
	}
	for _, code := range []string{
		"R01", "R02", "R03", "R04", "R05", "R06", "R07", "R08", "R09", "R10", "R16", "R20", "R29",
		"IR04", "IR05", "IR41", "IR43", "IR51", "IR54", "IR57", "IR59", "IR62", "IR185",
	} {
		if !slices.Contains(codes, code) {
			t.Errorf("TransactionOutcomes lacks code %s", code)
		}
	}
	for _, s := range []synapsefake.Status{synapsefake.StatusSettled, synapsefake.StatusCanceled,
		synapsefake.StatusReturned, synapsefake.StatusQueuedBySynapse} {
		if !statuses[s] {
			t.Errorf("TransactionOutcomes lacks status %s", s)
		}
	}

	// Every OAuth answer the brief names.
	var answers []string
	for _, sc := range oauth {
		answers = append(answers, fmt.Sprintf("%d/%s/%s", sc.Want.HTTPStatus, sc.Want.ErrorCode, sc.Want.Error))
	}
	for _, want := range []string{"200//", "202/10/", "400/300/invalid_fingerprint", "409/400/incorrect_validation_pin",
		"401/110/invalid_oauth_key", "409/400/invalid_refresh_token"} {
		if !slices.Contains(answers, want) {
			t.Errorf("OAuthPaths lacks the answer %s; has %q", want, answers)
		}
	}

	// Fresh slices: a caller's change does not reach the next caller.
	outcomes[0].Name = "changed"
	if scenarios.TransactionOutcomes()[0].Name == "changed" {
		t.Error("TransactionOutcomes shares its slice between calls")
	}
}

func TestSetup(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	env := scenarios.Setup(t, fake)

	u, ok := fake.User(env.UserID)
	if !ok {
		t.Fatalf("user %s not found", env.UserID)
	}
	if diff := cmp.Diff([]string{scenarios.Fingerprint}, u.Fingerprints); diff != "" {
		t.Errorf("registered devices (-want +got):\n%s", diff)
	}
	if len(u.PhoneNumbers) == 0 {
		t.Error("user has no phone number for the MFA paths")
	}
	type nodeView struct {
		UserID, Type string
		Allowed      synapsefake.Allowed
		BalanceCents int64
		IsActive     bool
	}
	for id, want := range map[string]nodeView{
		env.DepositNodeID: {env.UserID, reference.NodeDepositUS, synapsefake.AllowedCreditAndDebit, scenarios.DepositCents, true},
		env.ACHNodeID:     {env.UserID, reference.NodeACHUS, synapsefake.AllowedCreditAndDebit, 0, true},
	} {
		n, ok := fake.Node(id)
		if !ok {
			t.Fatalf("node %s not found", id)
		}
		got := nodeView{n.UserID, n.Type, n.Allowed, n.BalanceCents, n.IsActive}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("node %s (-want +got):\n%s", id, diff)
		}
	}
	card, ok := fake.Subnet(env.CardID)
	if !ok {
		t.Fatalf("card %s not found", env.CardID)
	}
	if card.AccountClass != synapsefake.ClassCard || card.Status != synapsefake.SubnetActive || card.NodeID != env.DepositNodeID {
		t.Errorf("card is %s %s on %s, want an ACTIVE CARD on %s", card.Status, card.AccountClass, card.NodeID, env.DepositNodeID)
	}
	if env.Gateway != fake.Gateway() || env.Fingerprint != scenarios.Fingerprint || env.Transfer == nil {
		t.Errorf("env = %+v", env)
	}

	h := env.Header()
	want := http.Header{
		"X-Sp-Gateway": {fake.Gateway()},
		"X-Sp-User":    {env.OAuthKey + "|" + scenarios.Fingerprint},
		"X-Sp-User-Ip": {scenarios.UserIP},
	}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Errorf("Header (-want +got):\n%s", diff)
	}
	if status, body := get(t, fake, env, env.OAuthKey, env.Fingerprint, "/users/"+env.UserID+"/nodes"); status != http.StatusOK {
		t.Errorf("the env's key does not open GET /users/%s/nodes: %d %v", env.UserID, status, body)
	}

	// The default Transfer is a CREATED ACH debit of TransferCents into the deposit node.
	id := env.Transfer(t)
	tx, ok := fake.Transaction(id)
	if !ok {
		t.Fatalf("Transfer: transaction %s not found", id)
	}
	got := []any{tx.Status, tx.FromNodeID, tx.ToNodeID, tx.AmountCents, tx.UserID}
	if diff := cmp.Diff([]any{synapsefake.StatusCreated, env.ACHNodeID, env.DepositNodeID, int64(scenarios.TransferCents), env.UserID}, got); diff != "" {
		t.Errorf("Transfer's transaction (-want +got):\n%s", diff)
	}
}

// catalogs is every catalog by name, for the tests that run every scenario.
func catalogs() map[string][]scenarios.Scenario {
	return map[string][]scenarios.Scenario{
		"TransactionOutcomes": scenarios.TransactionOutcomes(),
		"CardDeclines":        scenarios.CardDeclines(),
		"CardDisputes":        scenarios.CardDisputes(),
		"CardLifecycle":       scenarios.CardLifecycle(),
		"ReturnTimings":       scenarios.ReturnTimings(),
		"CalendarRules":       scenarios.CalendarRules(),
		"CardDecisioning":     scenarios.CardDecisioning(),
		"OAuthPaths":          scenarios.OAuthPaths(),
		"KYCOutcomes":         scenarios.KYCOutcomes(),
	}
}

// TestKYCOutcomes runs every KYC outcome: the user's permission over HTTP
// and in the fake agree with Want, and each outcome differs from the
// others by its permission or its documents.
func TestKYCOutcomes(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, sc := range scenarios.KYCOutcomes() {
		seen[sc.Want.Permission] = true
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			env := scenarios.Setup(t, fake)
			res := sc.Apply(t, fake, env)
			if res.UserID == "" || res.UserID == env.UserID {
				t.Fatalf("Result.UserID %q: want the outcome's own user", res.UserID)
			}
			sc.Check(t, fake, env, res)
		})
	}
	for _, p := range []string{string(synapsefake.PermissionUnverified), string(synapsefake.PermissionReceive), string(synapsefake.PermissionSendAndReceive), string(synapsefake.PermissionLocked)} {
		if !seen[p] {
			t.Errorf("KYCOutcomes lacks the permission %s", p)
		}
	}
}

func TestTransactionScenarios(t *testing.T) {
	t.Parallel()
	for catalog, list := range catalogs() {
		if catalog == "OAuthPaths" || catalog == "KYCOutcomes" {
			continue
		}
		for _, sc := range list {
			t.Run(catalog+"/"+sc.Name, func(t *testing.T) {
				t.Parallel()
				fake := synapsefake.NewServer(t)
				env := scenarios.Setup(t, fake)
				res := sc.Apply(t, fake, env)

				// The fake's inspection API.
				tx, ok := fake.Transaction(res.TransactionID)
				if !ok {
					t.Fatalf("transaction %q not found", res.TransactionID)
				}
				if tx.Status != sc.Want.Status || tx.Code != sc.Want.Code {
					t.Errorf("fake.Transaction: %s %q, want %s %q", tx.Status, tx.Code, sc.Want.Status, sc.Want.Code)
				}
				if diff := cmp.Diff(sc.Want.Timeline, timelineOf(tx)); diff != "" {
					t.Errorf("fake.Transaction timeline (-want +got):\n%s", diff)
				}
				if res.NodeID != tx.FromNodeID && res.NodeID != tx.ToNodeID {
					t.Errorf("Result.NodeID %s is neither side of the transaction", res.NodeID)
				}

				// Over HTTP, as the app reads it.
				status, body := get(t, fake, env, res.OAuthKey, env.Fingerprint,
					"/users/"+env.UserID+"/nodes/"+res.NodeID+"/trans/"+res.TransactionID)
				if status != http.StatusOK || body["success"] != true {
					t.Fatalf("GET the transaction: %d %v", status, body)
				}
				rs, _ := body["recent_status"].(map[string]any)
				code, hasCode := rs["code"]
				if rs["status"] != string(sc.Want.Status) || rs["status_id"] != sc.Want.Status.ID() {
					t.Errorf("recent_status %v, want status %s (%s)", rs, sc.Want.Status, sc.Want.Status.ID())
				}
				if sc.Want.Code == "" && hasCode || sc.Want.Code != "" && code != sc.Want.Code {
					t.Errorf("recent_status.code %v (present %v), want %q", code, hasCode, sc.Want.Code)
				}
				var timeline []synapsefake.Status
				for _, e := range body["timeline"].([]any) {
					timeline = append(timeline, synapsefake.Status(e.(map[string]any)["status"].(string)))
				}
				if diff := cmp.Diff(sc.Want.Timeline, timeline); diff != "" {
					t.Errorf("timeline over HTTP (-want +got):\n%s", diff)
				}

				// The money: only a settled transaction moved the deposit
				// node's balance; a decline, a cancel, a queue, a return
				// or a won dispute (or a pending one's provisional
				// credit) left it where Setup put it.
				n, _ := fake.Node(env.DepositNodeID)
				want := int64(scenarios.DepositCents)
				givenBack := tx.Dispute == synapsefake.DisputeWon || tx.Dispute == synapsefake.DisputePending && tx.DisputeCreditID != ""
				if sc.Want.Status == synapsefake.StatusSettled && !givenBack {
					switch env.DepositNodeID {
					case tx.ToNodeID:
						want += tx.AmountCents
					case tx.FromNodeID:
						want -= tx.AmountCents
					}
				}
				if n.BalanceCents != want {
					t.Errorf("deposit balance %d, want %d", n.BalanceCents, want)
				}

				// The scenario's own check agrees.
				sc.Check(t, fake, env, res)
			})
		}
	}
}

// registeredAfter says, for every OAuth path, whether the device of its last
// call is registered afterwards.
var registeredAfter = map[string]bool{
	"registered device gets a key":         true,
	"unregistered device is asked for MFA": false,
	"MFA pin registers the device":         true,
	"MFA code sent to a chosen phone":      false,
	"invalid fingerprint":                  false,
	"wrong MFA pin":                        false,
	"expired oauth_key":                    true,
	"refresh token past its uses":          true,
	"MFA forced on a registered device":    true,
	"MFA forced, then the pin":             true,
}

func TestOAuthScenarios(t *testing.T) {
	t.Parallel()
	for _, sc := range scenarios.OAuthPaths() {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			wantReg, ok := registeredAfter[sc.Name]
			if !ok {
				t.Fatalf("no registeredAfter entry for %q", sc.Name)
			}
			fake := synapsefake.NewServer(t)
			env := scenarios.Setup(t, fake)
			res := sc.Apply(t, fake, env)
			r := res.Response

			// The answer the app got, field by field.
			if r.Status != sc.Want.HTTPStatus || r.Body["success"] != sc.Want.Success {
				t.Errorf("answer %d success %v, want %d %v: %v", r.Status, r.Body["success"], sc.Want.HTTPStatus, sc.Want.Success, r.Body)
			}
			for field, want := range map[string]string{"error_code": sc.Want.ErrorCode, "http_code": sc.Want.HTTPCode} {
				got, present := r.Body[field]
				if want == "" && present || want != "" && got != want {
					t.Errorf("%s %v (present %v), want %q", field, got, present, want)
				}
			}
			e, _ := r.Body["error"].(map[string]any)
			if sc.Want.Error != "" && e["code"] != sc.Want.Error {
				t.Errorf("error.code %v, want %q", e["code"], sc.Want.Error)
			}
			if sc.Want.HTTPStatus >= 400 && e["en"] == "" {
				t.Errorf("error.en missing: %v", r.Body)
			}

			// The fake's state.
			u, _ := fake.User(env.UserID)
			if got := slices.Contains(u.Fingerprints, res.Fingerprint); got != wantReg {
				t.Errorf("device %q registered %v, want %v", res.Fingerprint, got, wantReg)
			}
			if sc.Want.HTTPStatus == http.StatusOK {
				key, _ := r.Body["oauth_key"].(string)
				if r.Body["user_id"] != env.UserID || !strings.HasPrefix(key, "oauth_") {
					t.Errorf("200 answer %v is not a key of user %s", r.Body, env.UserID)
				}
				if status, body := get(t, fake, env, key, res.Fingerprint, "/users/"+env.UserID+"/nodes"); status != http.StatusOK {
					t.Errorf("the issued key does not open GET /users/%s/nodes: %d %v", env.UserID, status, body)
				}
			}
			// Result.OAuthKey is live whatever the path did.
			if status, body := get(t, fake, env, res.OAuthKey, env.Fingerprint, "/users/"+env.UserID+"/nodes"); status != http.StatusOK {
				t.Errorf("Result.OAuthKey does not open GET /users/%s/nodes: %d %v", env.UserID, status, body)
			}

			sc.Check(t, fake, env, res)
		})
	}
}

// TestOAuthRepeat checks what the paths promise about a second call: MFA
// forced stays until the pin, an expired key stays refused, a spent refresh
// token stays spent.
func TestOAuthRepeat(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"MFA forced on a registered device", "expired oauth_key", "refresh token past its uses", "invalid fingerprint"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			i := slices.IndexFunc(scenarios.OAuthPaths(), func(sc scenarios.Scenario) bool { return sc.Name == name })
			if i < 0 {
				t.Fatalf("no scenario %q", name)
			}
			sc := scenarios.OAuthPaths()[i]
			fake := synapsefake.NewServer(t)
			env := scenarios.Setup(t, fake)
			first := sc.Apply(t, fake, env)
			second := sc.Apply(t, fake, env)
			if first.Response.Status != second.Response.Status || first.Response.Body["error_code"] != second.Response.Body["error_code"] {
				t.Errorf("second run answered %d %v, first %d %v", second.Response.Status, second.Response.Body,
					first.Response.Status, first.Response.Body)
			}
			sc.Check(t, fake, env, second)
		})
	}
}

// recorder is a testing.TB that records Errorf and Fatalf. Fatalf ends the
// goroutine, as the testing package's does; run starts one.
type recorder struct {
	*testing.T
	mu     sync.Mutex
	errors []string
	fatal  string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.fatal = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}

// run calls f with r in a goroutine of its own and waits for it.
func (r *recorder) run(f func(tb testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
}

func find(t *testing.T, list []scenarios.Scenario, name string) scenarios.Scenario {
	t.Helper()
	for _, sc := range list {
		if sc.Name == name {
			return sc
		}
	}
	t.Fatalf("no scenario %q", name)
	return scenarios.Scenario{}
}

// TestCheckReportsMismatch shows that Check can fail: a scenario checked
// against another's promise is reported, and so is a failing Verify.
func TestCheckReportsMismatch(t *testing.T) {
	t.Parallel()
	outcomes, oauth := scenarios.TransactionOutcomes(), scenarios.OAuthPaths()
	for _, tc := range []struct {
		name    string
		applied scenarios.Scenario
		checked scenarios.Scenario
		want    []string // substrings of the reported errors, in order
	}{
		{
			name:    "settled checked as canceled",
			applied: find(t, outcomes, "settled"),
			checked: find(t, outcomes, "canceled by the app"),
			want:    []string{"the app sees", "fake.Transaction"},
		},
		{
			name:    "return code checked as another",
			applied: find(t, outcomes, "returned R01 insufficient funds"),
			checked: find(t, outcomes, "returned R02 account closed"),
			want:    []string{"the app sees", "fake.Transaction"},
		},
		{
			name:    "key checked as an invalid fingerprint",
			applied: find(t, oauth, "registered device gets a key"),
			checked: find(t, oauth, "invalid fingerprint"),
			want:    []string{"the app sees", "registered: true, want false"},
		},
		{
			name:    "MFA challenge checked as the pin",
			applied: find(t, oauth, "unregistered device is asked for MFA"),
			checked: find(t, oauth, "MFA pin registers the device"),
			want:    []string{"the app sees"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			env := scenarios.Setup(t, fake)
			res := tc.applied.Apply(t, fake, env)
			rec := &recorder{T: t}
			rec.run(func(tb testing.TB) { tc.checked.Check(tb, fake, env, res) })
			if rec.fatal != "" {
				t.Fatalf("Check stopped the test: %s", rec.fatal)
			}
			if len(rec.errors) != len(tc.want) {
				t.Fatalf("Check reported %d errors, want %d:\n%s", len(rec.errors), len(tc.want), strings.Join(rec.errors, "\n"))
			}
			for i, want := range tc.want {
				if !strings.Contains(rec.errors[i], want) {
					t.Errorf("error %d = %q, want it to mention %q", i, rec.errors[i], want)
				}
			}
			// The scenario checks clean against its own promise.
			tc.applied.Check(t, fake, env, res)
		})
	}
}

// TestTransferHook runs transaction outcomes on a transaction an "app"
// created: the hook's transaction is the one the scenario acts on.
func TestTransferHook(t *testing.T) {
	t.Parallel()
	for _, sc := range scenarios.TransactionOutcomes() {
		if strings.HasPrefix(sc.Name, "card ") {
			continue // card swipes do not start with a transfer
		}
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			env := scenarios.Setup(t, fake)
			var made []string
			// The app pays $25.00 out of the deposit node to the bank account.
			env.Transfer = func(tb testing.TB) string {
				req, _ := http.NewRequest("POST", fake.URL()+"/users/"+env.UserID+"/nodes/"+env.DepositNodeID+"/trans",
					strings.NewReader(`{"to":{"type":"ACH-US","id":"`+env.ACHNodeID+`"},"amount":{"amount":25,"currency":"USD"},"extra":{"ip":"10.0.0.1"}}`))
				req.Header = env.Header()
				resp, err := fake.Client().Do(req)
				if err != nil {
					tb.Fatal(err)
				}
				defer resp.Body.Close()
				var body struct {
					ID string `json:"_id"`
				}
				if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.ID == "" {
					tb.Fatalf("app's transfer: %d %v", resp.StatusCode, err)
				}
				made = append(made, body.ID)
				return body.ID
			}
			res := sc.Apply(t, fake, env)
			if len(made) != 1 || res.TransactionID != made[0] {
				t.Fatalf("scenario acted on %s; the app made %v", res.TransactionID, made)
			}
			if res.NodeID != env.DepositNodeID {
				t.Errorf("Result.NodeID %s, want the sending deposit node %s", res.NodeID, env.DepositNodeID)
			}
			sc.Check(t, fake, env, res)
		})
	}
}

// TestTransferDefault: an Env built by hand without Transfer still works.
func TestTransferDefault(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	env := scenarios.Setup(t, fake)
	env.Transfer = nil
	sc := find(t, scenarios.TransactionOutcomes(), "settled")
	res := sc.Apply(t, fake, env)
	tx, _ := fake.Transaction(res.TransactionID)
	if tx.FromNodeID != env.ACHNodeID || tx.AmountCents != scenarios.TransferCents {
		t.Errorf("default transfer from %s of %d, want from %s of %d", tx.FromNodeID, tx.AmountCents, env.ACHNodeID, scenarios.TransferCents)
	}
	sc.Check(t, fake, env, res)
}

// TestTransferRefused: a Transfer hook whose transaction is not CREATED
// stops the scenario with a message, rather than promising a wrong state.
func TestTransferRefused(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	env := scenarios.Setup(t, fake)
	sc := find(t, scenarios.TransactionOutcomes(), "canceled by the app")
	for _, tc := range []struct {
		name     string
		transfer func(tb testing.TB) string
		want     string
	}{
		{"unknown id", func(testing.TB) string { return "nope" }, `Transfer returned "nope"`},
		{"already settled", func(tb testing.TB) string {
			id := scenarios.Setup(tb, fake).Transfer(tb)
			if err := fake.Settle(id); err != nil {
				tb.Fatal(err)
			}
			return id
		}, "is SETTLED, want CREATED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := env
			e.Transfer = tc.transfer
			rec := &recorder{T: t}
			rec.run(func(tb testing.TB) { sc.Apply(tb, fake, e) })
			if !strings.Contains(rec.fatal, tc.want) {
				t.Errorf("Apply stopped with %q, want it to mention %q", rec.fatal, tc.want)
			}
		})
	}
}

// TestApplyAfterClockMoved: a test that moved the clock past the Env's key
// before Apply still gets every transaction outcome; the scenarios' own
// calls do not lean on the Env's key.
func TestApplyAfterClockMoved(t *testing.T) {
	t.Parallel()
	for _, sc := range scenarios.TransactionOutcomes() {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			env := scenarios.Setup(t, fake)
			fake.Advance(3 * time.Hour)
			res := sc.Apply(t, fake, env)
			sc.Check(t, fake, env, res)
		})
	}
}
