package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// settledACH is an env whose sender sent $10.00 to its bank account on
// Tuesday 2026-11-24 at 09:00 ET; the transfer settled on Wednesday at
// 09:00 ET, and the clock is there.
func settledACH(t testing.TB) (testkit.TxEnv, string) {
	t.Helper()
	e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
	id := e.Create(t, e.Bank, 10)
	e.Fake.Advance(24 * time.Hour)
	if tx := e.Tx(t, id); tx.Status != synapsefake.StatusSettled {
		t.Fatalf("transfer is %s, want SETTLED", tx.Status)
	}
	return e, id
}

// TestReturnWindows returns a transfer settled on Wednesday 2026-11-25 at
// 09:00 ET at each code's last moment and just after: two banking days
// close at the opening of business (08:30 ET) on Monday 11-30 (Thanksgiving
// is not a banking day), 60 calendar days at the end of 2027-01-24; R06 and
// R31 have no fixed window.
func TestReturnWindows(t *testing.T) {
	t.Parallel()
	lastOfTwo := testkit.Et(2026, 11, 30, 8, 30)
	lastOfSixty := testkit.Et(2027, 1, 24, 23, 59).Add(59*time.Second + 999*time.Millisecond)
	type attempt struct {
		at      time.Time
		late    bool
		wantErr string
	}
	var cases []struct {
		code string
		attempt
	}
	add := func(code string, a attempt) {
		cases = append(cases, struct {
			code string
			attempt
		}{code, a})
	}
	for _, code := range []string{"R01", "R02", "R03", "R04", "R08", "R09", "R16", "R20", "R29"} {
		add(code, attempt{at: lastOfTwo})
		add(code, attempt{at: lastOfTwo.Add(time.Millisecond), wantErr: "return_window_passed"})
	}
	add("R01", attempt{at: testkit.Et(2026, 11, 30, 23, 0), wantErr: "return_window_passed"}) // issue 22's example
	for _, code := range []string{"R05", "R07", "R10", "R11", "R33", "R51"} {
		add(code, attempt{at: lastOfTwo.Add(time.Millisecond)})
		add(code, attempt{at: lastOfSixty})
		add(code, attempt{at: lastOfSixty.Add(time.Millisecond), wantErr: "return_window_passed"})
	}
	for _, code := range []string{"R06", "R31"} {
		add(code, attempt{at: lastOfTwo.Add(time.Millisecond)})
		add(code, attempt{at: lastOfSixty.AddDate(0, 6, 0)})
	}
	add("R01", attempt{at: testkit.Et(2026, 11, 30, 23, 0), late: true})
	add("R01", attempt{at: lastOfSixty, late: true})
	add("R10", attempt{at: lastOfSixty.AddDate(0, 6, 0), late: true})
	for _, tc := range cases {
		name := tc.code + " at " + tc.at.In(reference.Eastern).Format(time.DateTime+".000")
		if tc.late {
			name += " late"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, id := settledACH(t)
			e.Fake.Advance(tc.at.Sub(e.Fake.Now()))
			before := e.State(t, id)
			var err error
			if tc.late {
				err = e.Fake.Return(id, tc.code, synapsefake.PastWindow())
			} else {
				err = e.Fake.Return(id, tc.code)
			}
			if got := testkit.ErrCode(err); got != tc.wantErr {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if tc.wantErr != "" {
				w, _ := reference.ACHReturnWindow(tc.code)
				if !strings.Contains(err.Error(), "within "+w.String()+" of settlement") || !strings.Contains(err.Error(), "error_code 410, http 409") {
					t.Errorf("error %q does not name the window %s, or is not 409 / 410", err, w)
				}
				e.WantTxUnchanged(t, before)
				return
			}
			if tx := e.Tx(t, id); tx.Status != synapsefake.StatusReturned || tx.Code != tc.code || !tx.Timeline[len(tx.Timeline)-1].Date.Equal(tc.at) {
				t.Errorf("after the return: %s, code %q, last entry %+v", tx.Status, tx.Code, tx.Timeline[len(tx.Timeline)-1])
			}
			e.WantBalances(t, 100_00, nil)
		})
	}
}

func TestControlReturnLate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                  string
		body                  any
		status                int
		errorCode, code, want string
	}{
		{"in the window", map[string]any{"code": "R10"}, 200, "", "", "RETURNED"},
		{"past the window", map[string]any{"code": "R01"}, 409, "410", "return_window_passed", "SETTLED"},
		{"late", map[string]any{"code": "R01", "late": true}, 200, "", "", "RETURNED"},
		{"late false", map[string]any{"code": "R01", "late": false}, 409, "410", "return_window_passed", "SETTLED"},
		{"late as a string", map[string]any{"code": "R01", "late": "yes"}, 400, "200", "", "SETTLED"},
		{"unknown code", map[string]any{"code": "R99", "late": true}, 400, "200", "invalid_return_code", "SETTLED"},
		{"unknown field", map[string]any{"code": "R01", "status": "RETURNED"}, 400, "200", "", "SETTLED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, id := settledACH(t)
			e.Fake.Advance(7 * 24 * time.Hour)
			r := testkit.Ctl(t, e.Fake, "POST", "/transactions/"+id+"/return", tc.body)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Raw)
			}
			if tc.status != http.StatusOK {
				if ec, _ := r.Body["error_code"].(string); ec != tc.errorCode || tc.code != "" && bodyCode(r.Body) != tc.code {
					t.Errorf("error_code %q, error.code %q; want %q, %q", ec, bodyCode(r.Body), tc.errorCode, tc.code)
				}
			} else if tx, _ := r.Body["transaction"].(map[string]any); tx["status"] != tc.want {
				t.Errorf("answered %v, want status %s", tx, tc.want)
			}
			if got := e.Tx(t, id).Status; string(got) != tc.want {
				t.Errorf("status %s, want %s", got, tc.want)
			}
		})
	}
}

// timeline is a transaction's timeline as "STATUS date-in-ET" lines.
func timeline(tx synapsefake.Transaction) []string {
	var out []string
	for _, s := range tx.Timeline {
		out = append(out, string(s.Status)+" "+s.Date.In(reference.Eastern).Format("2006-01-02 15:04"))
	}
	return out
}

func TestScheduleReturn(t *testing.T) {
	t.Parallel()
	const month = 30 * 24 * time.Hour
	head := []string{"CREATED 2026-11-24 09:00", "PROCESSING-DEBIT 2026-11-24 09:01", "PROCESSING-CREDIT 2026-11-24 10:00"}
	for _, tc := range []struct {
		name     string
		settled  bool // schedule once settled, a week later
		schedule func(f *synapsefake.Server, id string) error
		wantErr  string
		want     []string // the timeline after it, head left out
		code     string
	}{
		{"R10 thirty days after settlement", false,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R10", synapsefake.AfterSettlement(month))
			},
			"", []string{"SETTLED 2026-11-25 09:00", "RETURNED 2026-12-25 09:00"}, "R10"},
		{"R10 thirty days after, scheduled once settled", true,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R10", synapsefake.AfterSettlement(month))
			},
			"", []string{"SETTLED 2026-11-25 09:00", "RETURNED 2026-12-25 09:00"}, "R10"},
		{"R01 at settlement: returned instead", false,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R01", synapsefake.AfterSettlement(0))
			},
			"", []string{"RETURNED 2026-11-25 09:00"}, "R01"},
		{"R01 a day after settlement, scheduled past it: at once", true,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R01", synapsefake.AfterSettlement(24*time.Hour), synapsefake.PastWindow())
			},
			"", []string{"SETTLED 2026-11-25 09:00", "RETURNED 2026-12-01 10:00"}, "R01"},
		{"R01 three days after settlement is past its window", false,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R01", synapsefake.AfterSettlement(72*time.Hour))
			},
			"return_window_passed", []string{"SETTLED 2026-11-25 09:00"}, ""},
		{"R01 a day after, once its window closed", true,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R01", synapsefake.AfterSettlement(24*time.Hour))
			},
			"return_window_passed", []string{"SETTLED 2026-11-25 09:00"}, ""},
		{"R01 three days after, late", false,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R01", synapsefake.AfterSettlement(72*time.Hour), synapsefake.PastWindow())
			},
			"", []string{"SETTLED 2026-11-25 09:00", "RETURNED 2026-11-28 09:00"}, "R01"},
		{"R10 sixty-one days after is past its window", false,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R10", synapsefake.AfterSettlement(61*24*time.Hour))
			},
			"return_window_passed", []string{"SETTLED 2026-11-25 09:00"}, ""},
		{"unknown code", false,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R99", synapsefake.AfterSettlement(0))
			},
			"invalid_return_code", []string{"SETTLED 2026-11-25 09:00"}, ""},
		{"negative delay", false,
			func(f *synapsefake.Server, id string) error {
				return f.Return(id, "R10", synapsefake.AfterSettlement(-time.Hour))
			},
			"invalid_duration", []string{"SETTLED 2026-11-25 09:00"}, ""},
		{"unknown transaction", false,
			func(f *synapsefake.Server, id string) error {
				return f.Return("0123456789abcdef01234567", "R10", synapsefake.AfterSettlement(0))
			},
			"unable_to_locate_transaction", []string{"SETTLED 2026-11-25 09:00"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
			id := e.Create(t, e.Bank, 10)
			e.Fake.Advance(time.Hour) // PROCESSING-CREDIT
			if tc.settled {
				e.Fake.Advance(7 * 24 * time.Hour)
			}
			before := e.State(t, id)
			err := tc.schedule(e.Fake, id)
			if got := testkit.ErrCode(err); got != tc.wantErr {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if err != nil {
				e.WantTxUnchanged(t, before)
			}
			e.Fake.Advance(testkit.Et(2027, 3, 1, 0, 0).Sub(e.Fake.Now()))
			tx := e.Tx(t, id)
			if diff := cmp.Diff(append(head, tc.want...), timeline(tx)); diff != "" || tx.Code != tc.code {
				t.Errorf("code %q, want %q; timeline (-want +got):\n%s", tx.Code, tc.code, diff)
			}
			if tc.code != "" {
				e.WantBalances(t, 100_00, nil)
			} else {
				e.WantBalances(t, 100_00, map[string]int64{"sender": 90_00, "bank": 10_00})
			}
		})
	}
}

func TestScheduleReturnRefusedOnAFinishedTransaction(t *testing.T) {
	t.Parallel()
	e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
	id := e.Create(t, e.Bank, 10)
	if err := e.Fake.Cancel(id, ""); err != nil {
		t.Fatal(err)
	}
	before := e.State(t, id)
	if err := e.Fake.Return(id, "R10", synapsefake.AfterSettlement(0)); testkit.ErrCode(err) != "illegal_status_change" {
		t.Fatalf("ScheduleReturn on a canceled transaction: %v, want illegal_status_change", err)
	}
	e.WantTxUnchanged(t, before)
}

func TestControlScheduleReturn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name            string
		body            any
		status          int
		errorCode, code string
		want            synapsefake.Status // a year on
	}{
		{"R10 thirty days on", map[string]any{"code": "R10", "after": "720h"}, 200, "", "", synapsefake.StatusReturned},
		{"R01 at settlement", map[string]any{"code": "R01"}, 200, "", "", synapsefake.StatusReturned},
		{"R01 past its window", map[string]any{"code": "R01", "after": "72h"}, 409, "410", "return_window_passed", synapsefake.StatusSettled},
		{"R01 past its window, late", map[string]any{"code": "R01", "after": "72h", "late": true}, 200, "", "", synapsefake.StatusReturned},
		{"after not a duration", map[string]any{"code": "R10", "after": "a month"}, 400, "200", "invalid_duration", synapsefake.StatusSettled},
		{"after negative", map[string]any{"code": "R10", "after": "-1h"}, 400, "200", "invalid_duration", synapsefake.StatusSettled},
		{"after as a number", map[string]any{"code": "R10", "after": 720}, 400, "200", "", synapsefake.StatusSettled},
		{"no code", nil, 400, "200", "invalid_return_code", synapsefake.StatusSettled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
			id := e.Create(t, e.Bank, 10)
			r := testkit.Ctl(t, e.Fake, "POST", "/transactions/"+id+"/schedule-return", tc.body)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Raw)
			}
			if tc.status != http.StatusOK {
				if ec, _ := r.Body["error_code"].(string); ec != tc.errorCode || tc.code != "" && bodyCode(r.Body) != tc.code {
					t.Errorf("error_code %q, error.code %q; want %q, %q", ec, bodyCode(r.Body), tc.errorCode, tc.code)
				}
			} else if tx, _ := r.Body["transaction"].(map[string]any); tx["status"] != "CREATED" {
				t.Errorf("answered %v, want the transaction, CREATED", tx)
			}
			e.Fake.Advance(365 * 24 * time.Hour)
			if got := e.Tx(t, id).Status; got != tc.want {
				t.Errorf("a year on: %s, want %s", got, tc.want)
			}
		})
	}
}

func TestReturnRules(t *testing.T) {
	t.Parallel()
	head := []string{"CREATED 2026-11-24 09:00", "PROCESSING-DEBIT 2026-11-24 09:01", "PROCESSING-CREDIT 2026-11-24 10:00"}
	for _, tc := range []struct {
		name   string
		rule   synapsefake.ReturnRule
		note   string
		want   []string
		code   string
		status synapsefake.Status
	}{
		{"amount: returned instead of settling", synapsefake.ReturnRule{AmountCents: 10_00, Code: "R01"}, "",
			append(head, "RETURNED 2026-11-25 09:00"), "R01", synapsefake.StatusReturned},
		{"account number: R10 thirty days after settlement", synapsefake.ReturnRule{AccountNum: "123456789", Code: "R10", After: 30 * 24 * time.Hour}, "",
			append(head, "SETTLED 2026-11-25 09:00", "RETURNED 2026-12-25 09:00"), "R10", synapsefake.StatusReturned},
		{"note: queued at once", synapsefake.ReturnRule{Note: "rent", Queue: true, Code: "HIGH_RISK"}, "November rent",
			[]string{"CREATED 2026-11-24 09:00", "QUEUED-BY-SYNAPSE 2026-11-24 09:00"}, "HIGH_RISK", synapsefake.StatusQueuedBySynapse},
		{"node: queued thirty seconds on", synapsefake.ReturnRule{Queue: true, Code: "REVIEW", After: 30 * time.Second}, "",
			[]string{"CREATED 2026-11-24 09:00", "QUEUED-BY-SYNAPSE 2026-11-24 09:00"}, "REVIEW", synapsefake.StatusQueuedBySynapse},
		{"no match: settles", synapsefake.ReturnRule{AmountCents: 11_00, Code: "R01"}, "",
			append(head, "SETTLED 2026-11-25 09:00"), "", synapsefake.StatusSettled},
		{"note does not match: settles", synapsefake.ReturnRule{Note: "rent", Code: "R01"}, "groceries",
			append(head, "SETTLED 2026-11-25 09:00"), "", synapsefake.StatusSettled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
			rule := tc.rule
			if rule.Queue && rule.After > 0 {
				rule.NodeID = e.Bank.ID
			}
			if _, err := e.Fake.AddReturnRule(rule); err != nil {
				t.Fatal(err)
			}
			body := testkit.TxBody(e.Bank, 10)
			if tc.note != "" {
				testkit.PutPath(body, "extra.note", tc.note)
			}
			id := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
			e.Fake.Advance(60 * 24 * time.Hour)
			tx := e.Tx(t, id)
			if diff := cmp.Diff(tc.want, timeline(tx)); diff != "" || tx.Code != tc.code || tx.Status != tc.status {
				t.Errorf("%s, code %q; want %s, %q; timeline (-want +got):\n%s", tx.Status, tx.Code, tc.status, tc.code, diff)
			}
		})
	}
}

// TestReturnRulesMatchAPITransfersOnly: a rule matches transfers created
// through the API, POST .../trans and POST .../batch-trans alike, and not a
// world's, which loads as declared and stays so (a world refused for a rule
// would have left its users behind: the trial load runs without rules).
func TestReturnRulesMatchAPITransfersOnly(t *testing.T) {
	t.Parallel()
	for _, rule := range []synapsefake.ReturnRule{
		{Note: "Salary", Code: "R01"},
		{Note: "Salary", Queue: true, Code: "REVIEW"},
	} {
		t.Run(map[bool]string{false: "return", true: "queue"}[rule.Queue], func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
			if _, err := e.Fake.AddReturnRule(rule); err != nil {
				t.Fatal(err)
			}
			w, err := e.Fake.LoadWorld(strings.NewReader(`{"users": [{"name": "ann", "nodes": [{"name": "a", "balance": 100}, {"name": "b"}]}],
				"transactions": [{"name": "pay", "from": "a", "to": "b", "amount": 10, "note": "Salary", "date": "-2d", "status": "SETTLED"}]}`))
			if err != nil {
				t.Fatalf("LoadWorld: %v", err)
			}
			body := testkit.TxBody(e.Bank, 10)
			testkit.PutPath(body, "extra.note", "Salary")
			single := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/batch-trans",
				Header: e.Fx.Headers, Body: map[string]any{"transactions": []any{body}}})
			if r.Status != 200 {
				t.Fatalf("batch-trans: %d %s", r.Status, r.Raw)
			}
			trans, _ := r.Body["trans"].([]any)
			if len(trans) != 1 {
				t.Fatalf("batch-trans made %d transactions: %s", len(trans), r.Raw)
			}
			batch, _ := trans[0].(map[string]any)["_id"].(string)
			e.Fake.Advance(60 * 24 * time.Hour)
			want := synapsefake.StatusReturned
			if rule.Queue {
				want = synapsefake.StatusQueuedBySynapse
			}
			for name, id := range map[string]string{"POST .../trans": single, "batch-trans": batch} {
				if tx := e.Tx(t, id); tx.Status != want || tx.Code != rule.Code {
					t.Errorf("%s: %s %q, want %s %s", name, tx.Status, tx.Code, want, rule.Code)
				}
			}
			if tx, _ := e.Fake.Transaction(w.Transactions["pay"]); tx.Status != synapsefake.StatusSettled || tx.Code != "" {
				t.Errorf("the world's transfer: %s %q, want SETTLED as declared", tx.Status, tx.Code)
			}
		})
	}
}

func TestReturnRulesRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		rule synapsefake.ReturnRule
		want string
	}{
		{"matches everything", synapsefake.ReturnRule{Code: "R01"}, "invalid_rule"},
		{"negative amount", synapsefake.ReturnRule{AmountCents: -1, Code: "R01"}, "invalid_rule"},
		{"unknown code", synapsefake.ReturnRule{AmountCents: 1, Code: "R99"}, "invalid_return_code"},
		{"past the window", synapsefake.ReturnRule{AmountCents: 1, Code: "R01", After: 72 * time.Hour}, "return_window_passed"},
		{"negative delay", synapsefake.ReturnRule{AmountCents: 1, Code: "R10", After: -time.Hour}, "invalid_duration"},
		{"negative queue delay", synapsefake.ReturnRule{AmountCents: 1, Queue: true, After: -time.Hour}, "invalid_duration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := synapsefake.New()
			if _, err := fake.AddReturnRule(tc.rule); testkit.ErrCode(err) != tc.want {
				t.Errorf("AddReturnRule: %v, want %s", err, tc.want)
			}
			if got := fake.ReturnRules(); len(got) != 0 {
				t.Errorf("rules after a refusal: %v", got)
			}
		})
	}
}

func TestControlReturnRules(t *testing.T) {
	t.Parallel()
	e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
	rule := map[string]any{"node_id": "", "account_num": "123456789", "amount_cents": float64(0), "note": "",
		"code": "R10", "queue": false, "after": "720h0m0s", "late": false}
	got := testkit.CtlOK(t, e.Fake, "POST", "/return-rules", map[string]any{"account_num": "123456789", "code": "R10", "after": "720h"})
	if diff := cmp.Diff(map[string]any{"success": true, "rules": []any{rule}}, got); diff != "" {
		t.Errorf("POST /_fake/return-rules (-want +got):\n%s", diff)
	}
	for _, bad := range []struct {
		body any
		code string
	}{
		{map[string]any{"code": "R10"}, "invalid_rule"},
		{map[string]any{"amount_cents": 100, "code": "R01", "after": "72h"}, "return_window_passed"},
		{map[string]any{"amount_cents": 100, "code": "R01", "after": "soon"}, "invalid_duration"},
		{map[string]any{"amount_cents": "1.00", "code": "R01"}, ""},
		{map[string]any{"amount_cents": 100, "code": "R01", "delay": "1h"}, ""},
	} {
		r := testkit.Ctl(t, e.Fake, "POST", "/return-rules", bad.body)
		if r.Status/100 != 4 || bad.code != "" && bodyCode(r.Body) != bad.code {
			t.Errorf("POST %v: %d %s, want a refusal %s", bad.body, r.Status, r.Raw, bad.code)
		}
	}
	if got := testkit.CtlOK(t, e.Fake, "GET", "/return-rules", nil); !cmp.Equal(got["rules"], []any{rule}) {
		t.Errorf("GET /_fake/return-rules: %v, want the one rule", got)
	}
	id := e.Create(t, e.Bank, 10)
	e.Fake.Advance(40 * 24 * time.Hour)
	if tx := e.Tx(t, id); tx.Status != synapsefake.StatusReturned || tx.Code != "R10" {
		t.Errorf("transfer under the rule: %s %q, want RETURNED R10", tx.Status, tx.Code)
	}
	if got := testkit.CtlOK(t, e.Fake, "DELETE", "/return-rules", nil); !cmp.Equal(got["rules"], []any{}) {
		t.Errorf("DELETE /_fake/return-rules: %v", got)
	}
	id = e.Create(t, e.Bank, 10)
	e.Fake.Advance(40 * 24 * time.Hour)
	if tx := e.Tx(t, id); tx.Status != synapsefake.StatusSettled {
		t.Errorf("transfer after the rules were cleared: %s, want SETTLED", tx.Status)
	}
	testkit.CtlOK(t, e.Fake, "POST", "/return-rules", map[string]any{"amount_cents": 100, "code": "R01"})
	e.Fake.Reset()
	if got := e.Fake.ReturnRules(); len(got) != 0 {
		t.Errorf("rules after Reset: %v", got)
	}
}

// TestDummyReturnCodesFollowTheirRail: a dummy ACH or WIRE transaction
// stands for an entry on its rail, though its counterparty (the hidden
// network's EXTERNAL-US node) names none, so it takes only that rail's
// return codes, as its calendar is that rail's; a dummy internal transfer
// takes the codes of every rail, as internal transfers do. A code of
// another rail is 409 / "410" return_code_not_for_rail and changes nothing.
func TestDummyReturnCodesFollowTheirRail(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typ, code string
		wantErr   string
	}{
		{"ACH", "R01", ""},
		{"ACH", "IR18", "return_code_not_for_rail"},
		{"ACH", "WR01", "return_code_not_for_rail"},
		{"WIRE", "WR01", ""},
		{"WIRE", "R01", "return_code_not_for_rail"},
		{"WIRE", "IR18", "return_code_not_for_rail"},
		{"INTERNAL_TRASFER", "R01", ""},
		{"INTERNAL_TRASFER", "IR18", ""},
		{"INTERNAL_TRASFER", "WR01", ""},
	} {
		t.Run(tc.typ+" "+tc.code, func(t *testing.T) {
			t.Parallel()
			start := testkit.Et(2026, 11, 24, 9, 0)
			fake := synapsefake.NewServer(t, synapsefake.WithStartTime(start))
			fx := testkit.NewFixture(t, fake, 500_00)
			sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account"})
			id := postDummy(t, fake, fx, sub, tc.typ, "DEPOSIT", 10)
			fake.AdvanceTo(start.Add(48 * time.Hour)) // settled, within R01's window
			before, ok := fake.Transaction(id)
			if !ok || before.Status != synapsefake.StatusSettled {
				t.Fatalf("the dummy before its return: %+v, %v; want SETTLED", before, ok)
			}
			err := fake.Return(id, tc.code)
			if got := testkit.ErrCode(err); got != tc.wantErr {
				t.Fatalf("Return(%s): %v, want %q", tc.code, err, tc.wantErr)
			}
			fake.Advance(time.Hour)
			after, _ := fake.Transaction(id)
			switch {
			case tc.wantErr != "" && !strings.Contains(err.Error(), "error_code 410, http 409"):
				t.Errorf("error %q is not 409 / 410", err)
			case tc.wantErr != "" && !cmp.Equal(after, before):
				t.Errorf("a refused return changed the dummy:\n%s", cmp.Diff(before, after))
			case tc.wantErr == "" && (after.Status != synapsefake.StatusReturned || after.Code != tc.code):
				t.Errorf("after the return: %s, code %q; want RETURNED %s", after.Status, after.Code, tc.code)
			}
		})
	}
}

// TestReturnCodeNotForRail: a return code belongs to its rail (R to ACH-US,
// IR to INTERCHANGE-US, WR to WIRE-US); a code of another rail is 409 /
// "410" return_code_not_for_rail and changes nothing, late or not,
// planned or not. Internal transfers take the codes of every rail.
func TestReturnCodeNotForRail(t *testing.T) {
	t.Parallel()
	later := 300 * 24 * time.Hour // within the keys' lifetime
	ret := func(f *synapsefake.Server, id, code string) error { return f.Return(id, code) }
	late := func(f *synapsefake.Server, id, code string) error {
		return f.Return(id, code, synapsefake.PastWindow())
	}
	plan := func(f *synapsefake.Server, id, code string) error {
		return f.Return(id, code, synapsefake.AfterSettlement(0), synapsefake.PastWindow())
	}
	control := func(f *synapsefake.Server, id, code string) error {
		return testkit.RespErr(testkit.Ctl(t, f, "POST", "/transactions/"+id+"/return", map[string]any{"code": code, "late": true}))
	}
	for _, tc := range []struct {
		name    string
		to      string // the receiving node: bank, card, wire or savings
		code    string
		op      func(*synapsefake.Server, string, string) error
		wantErr string
	}{
		{"ACH IR18 300 days late", "bank", "IR18", ret, "return_code_not_for_rail"},
		{"ACH IR18 late", "bank", "IR18", late, "return_code_not_for_rail"},
		{"ACH IR999 planned", "bank", "IR999", plan, "return_code_not_for_rail"},
		{"ACH WR01 control", "bank", "WR01", control, "return_code_not_for_rail"},
		{"ACH R01 late", "bank", "R01", late, ""},
		{"card R01 late", "card", "R01", late, "return_code_not_for_rail"},
		{"card WR01 late", "card", "WR01", late, "return_code_not_for_rail"},
		{"card IR18 late", "card", "IR18", late, ""},
		{"wire R01 late", "wire", "R01", late, "return_code_not_for_rail"},
		{"wire IR18 late", "wire", "IR18", late, "return_code_not_for_rail"},
		{"wire WR01 late", "wire", "WR01", late, ""},
		{"internal R01 late", "savings", "R01", late, ""},
		{"internal IR18", "savings", "IR18", ret, ""},
		{"internal WR01", "savings", "WR01", ret, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
			to := map[string]synapsefake.Node{
				"bank":    e.Bank,
				"savings": e.Savings,
				"card":    testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: reference.NodeInterchangeUS, Nickname: "Card"}),
				"wire":    testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: reference.NodeWireUS, Nickname: "Wire"}),
			}[tc.to]
			id := e.Create(t, to, 10)
			if err := e.Fake.Settle(id); err != nil {
				t.Fatal(err)
			}
			e.Fake.Advance(later)
			before := e.State(t, id)
			err := tc.op(e.Fake, id, tc.code)
			if got := testkit.ErrCode(err); got != tc.wantErr {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if tc.wantErr != "" {
				if !strings.Contains(err.Error(), "error_code 410, http 409") {
					t.Errorf("error %q is not 409 / 410", err)
				}
				e.WantTxUnchanged(t, before)
				e.Fake.Advance(time.Hour)
				e.WantTxUnchanged(t, before)
				return
			}
			e.Fake.Advance(time.Hour)
			if tx := e.Tx(t, id); tx.Status != synapsefake.StatusReturned || tx.Code != tc.code {
				t.Errorf("after the return: %s, code %q; want RETURNED %s", tx.Status, tx.Code, tc.code)
			}
		})
	}
}
