package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// returnedACH is settledACH (a $10.00 transfer from the sender's DEPOSIT-US
// node to its bank account, settled Wed 2026-11-25 09:00 ET) returned R01
// the same day at 15:00 ET; the clock is there.
func returnedACH(t testing.TB) (testkit.TxEnv, string) {
	t.Helper()
	e, id := settledACH(t)
	e.Fake.Advance(6 * time.Hour)
	if err := e.Fake.Return(id, "R01"); err != nil {
		t.Fatal(err)
	}
	return e, id
}

// txHookMoves are the TRAN|PATCH webhooks of transaction id as "STATUS
// CODE", oldest first.
func txHookMoves(fake *synapsefake.Server, id string) []string {
	var out []string
	for _, w := range fake.Webhooks().All() {
		if w.ObjectID == id && w.Function == "TRAN|PATCH" {
			out = append(out, w.Status+" "+w.Code)
		}
	}
	return out
}

// refused runs move, named name, on transaction id and checks its error
// code against wantErr ("" for none). A refusal must carry the HTTP status
// given and change neither the transaction nor its webhooks; refused
// reports whether move was refused.
func refused(t *testing.T, e testkit.TxEnv, id, name string, move func() error, wantErr string, status int) bool {
	t.Helper()
	before := e.State(t, id)
	hooks := txHookMoves(e.Fake, id)
	err := move()
	if got := testkit.ErrCode(err); got != wantErr {
		t.Fatalf("%s: %v, want %q", name, err, wantErr)
	}
	if wantErr == "" {
		return false
	}
	if want := httpStatus(status); !strings.Contains(err.Error(), want) {
		t.Errorf("%s: error %q is not %s", name, err, want)
	}
	e.WantTxUnchanged(t, before)
	if got := txHookMoves(e.Fake, id); !cmp.Equal(got, hooks) {
		t.Errorf("%s: webhooks %v after a refusal, want %v", name, got, hooks)
	}
	return true
}

// TestDishonorReturn dishonors the R01 return (Wed 2026-11-25 15:00 ET) of
// a transfer settled that morning: within five banking days after the
// return's settlement, to 24:00 ET on Thu 12-03 (Thanksgiving is not a
// banking day), the money moves as the transfer had it and the
// transaction is SETTLED again with the dishonor's code and a webhook;
// past that, or with the wrong code, nothing changes.
func TestDishonorReturn(t *testing.T) {
	t.Parallel()
	last := testkit.Et(2026, 12, 3, 23, 59).Add(59*time.Second + 999*time.Millisecond)
	const unknown = "0123456789abcdef01234567"
	for _, tc := range []struct {
		name    string
		at      time.Time
		code    string
		id      string // "" for the returned transfer
		status  int    // of the error, 0 for success
		wantErr string
	}{
		{"R68 at the window's last moment", last, "R68", "", 0, ""},
		{"R68 the same day as the return", testkit.Et(2026, 11, 25, 16, 0), "R68", "", 0, ""},
		{"R61 on Wed 12-02", testkit.Et(2026, 12, 2, 12, 0), "R61", "", 0, ""},
		{"R62", testkit.Et(2026, 12, 2, 12, 0), "R62", "", 0, ""},
		{"R67", testkit.Et(2026, 12, 2, 12, 0), "R67", "", 0, ""},
		{"R69", testkit.Et(2026, 12, 2, 12, 0), "R69", "", 0, ""},
		{"R70", testkit.Et(2026, 12, 2, 12, 0), "R70", "", 0, ""},
		{"R68 a millisecond after the window", last.Add(time.Millisecond), "R68", "", 409, "dishonor_window_passed"},
		{"R68 on Fri 12-04", testkit.Et(2026, 12, 4, 9, 0), "R68", "", 409, "dishonor_window_passed"},
		{"a return code", testkit.Et(2026, 11, 26, 9, 0), "R01", "", 409, "wrong_code_family"},
		{"a contest code", testkit.Et(2026, 11, 26, 9, 0), "R71", "", 409, "wrong_code_family"},
		{"a card code", testkit.Et(2026, 11, 26, 9, 0), "IR18", "", 409, "wrong_code_family"},
		{"a wire code", testkit.Et(2026, 11, 26, 9, 0), "WR01", "", 409, "wrong_code_family"},
		{"an unknown code", testkit.Et(2026, 11, 26, 9, 0), "R99", "", 400, "invalid_return_code"},
		{"no code", testkit.Et(2026, 11, 26, 9, 0), "", "", 400, "invalid_return_code"},
		{"an unknown transaction", testkit.Et(2026, 11, 26, 9, 0), "R68", unknown, 404, "unable_to_locate_transaction"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, id := returnedACH(t)
			e.Fake.Advance(tc.at.Sub(e.Fake.Now()))
			hooks := txHookMoves(e.Fake, id)
			if refused(t, e, id, "DishonorReturn", func() error { return e.Fake.DishonorReturn(cmpOr(tc.id, id), tc.code) }, tc.wantErr, tc.status) {
				return
			}
			tx := e.Tx(t, id)
			wantLast := synapsefake.TimelineEntry{Status: synapsefake.StatusSettled, Date: tc.at,
				Note: tc.code + ": " + meaning(tc.code) + ". Return R01 dishonored; the transfer stands."}
			if got := tx.Timeline[len(tx.Timeline)-1]; tx.Status != synapsefake.StatusSettled || tx.Code != tc.code || !cmp.Equal(got, wantLast) {
				t.Errorf("after the dishonor: %s, code %q, last entry %+v; want SETTLED, %q, %+v", tx.Status, tx.Code, got, tc.code, wantLast)
			}
			e.WantBalances(t, 100_00, map[string]int64{"sender": 90_00, "bank": 10_00})
			if got, want := txHookMoves(e.Fake, id), append(hooks, "SETTLED "+tc.code); !cmp.Equal(got, want) {
				t.Errorf("webhooks %v, want %v", got, want)
			}
		})
	}
}

// TestDishonorRefusals dishonors what has no return a bank could refuse:
// a settled transfer, an internal transfer's return, a card chargeback, a
// return dishonored already and one dishonored and contested. Each is
// refused with 409 / "410" and changes nothing.
func TestDishonorRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, e testkit.TxEnv) string
		wantErr string
	}{
		{"a settled transfer", func(t *testing.T, e testkit.TxEnv) string {
			id := e.Create(t, e.Bank, 10)
			e.Fake.Advance(24 * time.Hour)
			return id
		}, "not_returned"},
		{"a transfer not yet settled", func(t *testing.T, e testkit.TxEnv) string { return e.Create(t, e.Bank, 10) }, "not_returned"},
		{"an internal transfer's return", func(t *testing.T, e testkit.TxEnv) string {
			id := e.Create(t, e.Payee.Node, 10)
			e.Fake.Advance(time.Minute)
			mustDo(t, e.Fake.Return(id, "R01"))
			return id
		}, "return_code_not_for_rail"},
		{"a return dishonored already", func(t *testing.T, e testkit.TxEnv) string {
			id := e.Create(t, e.Bank, 10)
			e.Fake.Advance(24 * time.Hour)
			mustDo(t, e.Fake.Return(id, "R01"))
			mustDo(t, e.Fake.DishonorReturn(id, "R68"))
			return id
		}, "already_dishonored"},
		{"a dishonor contested", func(t *testing.T, e testkit.TxEnv) string {
			id := e.Create(t, e.Bank, 10)
			e.Fake.Advance(24 * time.Hour)
			mustDo(t, e.Fake.Return(id, "R01"))
			mustDo(t, e.Fake.DishonorReturn(id, "R68"))
			mustDo(t, e.Fake.ContestDishonor(id, "R73"))
			return id
		}, "already_dishonored"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
			id := tc.setup(t, e)
			if !refused(t, e, id, "DishonorReturn", func() error { return e.Fake.DishonorReturn(id, "R68") }, tc.wantErr, http.StatusConflict) {
				t.Fatalf("DishonorReturn: accepted, want %s", tc.wantErr)
			}
		})
	}
}

// TestDishonorOfAChargeback: a card purchase charged back (RETURNED IR999)
// is not an ACH return; dishonoring it is refused and changes nothing.
func TestDishonorOfAChargeback(t *testing.T) {
	t.Parallel()
	e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
	card := e.Fake.MustAddSubnet(t, e.Fx.User.ID, e.Fx.Node.ID, synapsefake.SubnetSeed{AccountClass: synapsefake.ClassCard, Status: synapsefake.SubnetActive})
	tx, err := e.Fake.ForcePost(card.ID, synapsefake.CardAuth{AmountCents: 40_00})
	mustDo(t, err)
	if tx := e.Tx(t, tx.ID); tx.Status != synapsefake.StatusSettled {
		mustDo(t, e.Fake.Settle(tx.ID))
	}
	mustDo(t, e.Fake.Return(tx.ID, reference.IRChargeback))
	before := e.State(t, tx.ID)
	if err := e.Fake.DishonorReturn(tx.ID, "R68"); testkit.ErrCode(err) != "return_code_not_for_rail" {
		t.Fatalf("DishonorReturn of a chargeback: %v, want return_code_not_for_rail", err)
	}
	e.WantTxUnchanged(t, before)
}

// TestContestDishonor contests the dishonor (Thu 2026-12-03 10:00 ET) of a
// transfer's R01 return: within two banking days after it, to 24:00 ET on
// Mon 12-07, the return stands again (RETURNED, the money back with the
// sender, a webhook); past that, of a return not dishonored, twice or with
// the wrong code, nothing changes.
func TestContestDishonor(t *testing.T) {
	t.Parallel()
	last := testkit.Et(2026, 12, 7, 23, 59).Add(59*time.Second + 999*time.Millisecond)
	for _, tc := range []struct {
		name     string
		dishonor bool // dishonor the return first, at Thu 12-03 10:00 ET
		twice    bool // contest it first, with R76
		at       time.Time
		code     string
		status   int
		wantErr  string
	}{
		{"R73 at the window's last moment", true, false, last, "R73", 0, ""},
		{"R71", true, false, testkit.Et(2026, 12, 4, 9, 0), "R71", 0, ""},
		{"R72", true, false, testkit.Et(2026, 12, 4, 9, 0), "R72", 0, ""},
		{"R74", true, false, testkit.Et(2026, 12, 4, 9, 0), "R74", 0, ""},
		{"R75", true, false, testkit.Et(2026, 12, 4, 9, 0), "R75", 0, ""},
		{"R76", true, false, testkit.Et(2026, 12, 4, 9, 0), "R76", 0, ""},
		{"R77", true, false, testkit.Et(2026, 12, 4, 9, 0), "R77", 0, ""},
		{"R73 a millisecond after the window", true, false, last.Add(time.Millisecond), "R73", 409, "contest_window_passed"},
		{"a return not dishonored", false, false, testkit.Et(2026, 12, 4, 9, 0), "R73", 409, "not_dishonored"},
		{"contested twice", true, true, testkit.Et(2026, 12, 4, 9, 0), "R73", 409, "already_contested"},
		{"a dishonor code", true, false, testkit.Et(2026, 12, 4, 9, 0), "R68", 409, "wrong_code_family"},
		{"a return code", true, false, testkit.Et(2026, 12, 4, 9, 0), "R01", 409, "wrong_code_family"},
		{"an unknown code", true, false, testkit.Et(2026, 12, 4, 9, 0), "R78", 400, "invalid_return_code"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, id := returnedACH(t)
			if tc.dishonor {
				e.Fake.Advance(testkit.Et(2026, 12, 3, 10, 0).Sub(e.Fake.Now()))
				mustDo(t, e.Fake.DishonorReturn(id, "R68"))
			}
			if tc.twice {
				mustDo(t, e.Fake.ContestDishonor(id, "R76"))
			}
			e.Fake.Advance(tc.at.Sub(e.Fake.Now()))
			hooks := txHookMoves(e.Fake, id)
			if refused(t, e, id, "ContestDishonor", func() error { return e.Fake.ContestDishonor(id, tc.code) }, tc.wantErr, tc.status) {
				return
			}
			tx := e.Tx(t, id)
			wantLast := synapsefake.TimelineEntry{Status: synapsefake.StatusReturned, Date: tc.at,
				Note: tc.code + ": " + meaning(tc.code) + ". Dishonor R68 contested; return R01 stands."}
			if got := tx.Timeline[len(tx.Timeline)-1]; tx.Status != synapsefake.StatusReturned || tx.Code != tc.code || !cmp.Equal(got, wantLast) {
				t.Errorf("after the contest: %s, code %q, last entry %+v; want RETURNED, %q, %+v", tx.Status, tx.Code, got, tc.code, wantLast)
			}
			if got, want := timeline(tx), []string{"CREATED 2026-11-24 09:00", "PROCESSING-DEBIT 2026-11-24 09:01",
				"PROCESSING-CREDIT 2026-11-24 10:00", "SETTLED 2026-11-25 09:00", "RETURNED 2026-11-25 15:00",
				"SETTLED 2026-12-03 10:00", "RETURNED " + tc.at.In(reference.Eastern).Format("2006-01-02 15:04")}; !cmp.Equal(got, want) {
				t.Errorf("timeline %v, want %v", got, want)
			}
			e.WantBalances(t, 100_00, nil)
			if got, want := txHookMoves(e.Fake, id), append(hooks, "RETURNED "+tc.code); !cmp.Equal(got, want) {
				t.Errorf("webhooks %v, want %v", got, want)
			}
		})
	}
}

// TestDishonoredReturnIsNotReturnedAgain: once its return was dishonored, a
// transfer goes back to RETURNED only by the contest of the dishonor, not
// by another return (even R10, whose window is open), a late one, a
// planned one or a single move; each is refused and changes nothing.
func TestDishonoredReturnIsNotReturnedAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		move func(f *synapsefake.Server, id string) error
	}{
		{"Return R10", func(f *synapsefake.Server, id string) error { return f.Return(id, "R10") }},
		{"ReturnLate R01", func(f *synapsefake.Server, id string) error { return f.Return(id, "R01", synapsefake.PastWindow()) }},
		{"ScheduleReturn R10", func(f *synapsefake.Server, id string) error {
			return f.Return(id, "R10", synapsefake.AfterSettlement(time.Hour))
		}},
		{"ScheduleLateReturn R01", func(f *synapsefake.Server, id string) error {
			return f.Return(id, "R01", synapsefake.AfterSettlement(0), synapsefake.PastWindow())
		}},
		{"AdvanceTransaction RETURNED", func(f *synapsefake.Server, id string) error {
			return f.AdvanceTransaction(id, synapsefake.StatusReturned)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, id := returnedACH(t)
			e.Fake.Advance(24 * time.Hour)
			mustDo(t, e.Fake.DishonorReturn(id, "R68"))
			before := e.State(t, id)
			if err := tc.move(e.Fake, id); testkit.ErrCode(err) != "return_dishonored" {
				t.Fatalf("%s: %v, want return_dishonored", tc.name, err)
			}
			e.Fake.Advance(7 * 24 * time.Hour)
			e.WantTxUnchanged(t, before)
		})
	}
}

// TestDishonorAndDisputesPayOnce: a dispute's credit returned by its lost
// dispute is not a bank's return and cannot be dishonored; a transfer
// disputed after its return was dishonored cannot have that return stand
// again by a contest, which would pay the user twice.
func TestDishonorAndDisputesPayOnce(t *testing.T) {
	t.Parallel()
	setup := func(t *testing.T) (testkit.TxEnv, string) {
		e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00, synapsefake.WithImmediateProvisionalCredit())
		merchant := testkit.AddTxNode(t, e.Fake, e.Payee.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Merchant",
			AccountNum: "987654321", RoutingNum: "051000017"})
		id := e.Create(t, merchant, 10)
		e.Fake.Advance(24 * time.Hour)
		return e, id
	}
	dispute := func(t *testing.T, e testkit.TxEnv, id string) {
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id) + "/dispute", Header: e.Fx.Headers,
			Body: map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"}})
		if r.Status != http.StatusOK {
			t.Fatalf("dispute: %d %s", r.Status, r.Raw)
		}
	}
	t.Run("a lost dispute's credit", func(t *testing.T) {
		t.Parallel()
		e, id := setup(t)
		dispute(t, e, id)
		mustDo(t, e.Fake.LoseDispute(id))
		credit := e.Tx(t, id).DisputeCreditID
		if c := e.Tx(t, credit); c.Status != synapsefake.StatusReturned {
			t.Fatalf("the lost dispute's credit is %s, want RETURNED", c.Status)
		}
		before := e.State(t, id, credit)
		if err := e.Fake.DishonorReturn(credit, "R68"); testkit.ErrCode(err) != "dispute_posting" {
			t.Fatalf("DishonorReturn of the credit: %v, want dispute_posting", err)
		}
		e.WantTxUnchanged(t, before)
	})
	t.Run("disputed after the dishonor", func(t *testing.T) {
		t.Parallel()
		e, id := setup(t)
		mustDo(t, e.Fake.Return(id, "R01"))
		mustDo(t, e.Fake.DishonorReturn(id, "R68"))
		dispute(t, e, id)
		before := e.State(t, id)
		if err := e.Fake.ContestDishonor(id, "R73"); testkit.ErrCode(err) != "transaction_disputed" {
			t.Fatalf("ContestDishonor of a disputed transfer: %v, want transaction_disputed", err)
		}
		e.WantTxUnchanged(t, before)
		e.WantBalances(t, 100_00, nil) // paid, then given back once by the dispute's provisional credit
	})
}

// TestReturnRefusesReturnsOfReturns: R61, R62 and R67-R77 act on a return,
// not on an entry; every way of returning a transfer refuses them with 409
// / "410" wrong_code_family, naming the helper that takes them, and
// changes nothing.
func TestReturnRefusesReturnsOfReturns(t *testing.T) {
	t.Parallel()
	for _, code := range []string{"R61", "R62", "R67", "R68", "R69", "R70", "R71", "R72", "R73", "R74", "R75", "R76", "R77"} {
		helper := "DishonorReturn"
		if code >= "R71" {
			helper = "ContestDishonor"
		}
		for _, way := range []struct {
			name string
			call func(e testkit.TxEnv, id string) error
		}{
			{"Return", func(e testkit.TxEnv, id string) error { return e.Fake.Return(id, code) }},
			{"ReturnLate", func(e testkit.TxEnv, id string) error { return e.Fake.Return(id, code, synapsefake.PastWindow()) }},
			{"ScheduleReturn", func(e testkit.TxEnv, id string) error { return e.Fake.Return(id, code, synapsefake.AfterSettlement(0)) }},
			{"AddReturnRule", func(e testkit.TxEnv, id string) error {
				_, err := e.Fake.AddReturnRule(synapsefake.ReturnRule{NodeID: e.Bank.ID, Code: code})
				return err
			}},
			{"the control route", func(e testkit.TxEnv, id string) error {
				r := testkit.Ctl(t, e.Fake, "POST", "/transactions/"+id+"/return", map[string]any{"code": code})
				return testkit.RespErr(r)
			}},
		} {
			t.Run(code+" by "+way.name, func(t *testing.T) {
				t.Parallel()
				e, id := settledACH(t)
				before := e.State(t, id)
				err := way.call(e, id)
				if testkit.ErrCode(err) != "wrong_code_family" || !strings.Contains(err.Error(), helper) {
					t.Fatalf("%v, want wrong_code_family naming %s", err, helper)
				}
				if r := e.Fake.ReturnRules(); len(r) != 0 {
					t.Errorf("return rules %v, want none", r)
				}
				e.Fake.Advance(time.Hour)
				e.WantTxUnchanged(t, before)
				e.WantBalances(t, 100_00, map[string]int64{"sender": 90_00, "bank": 10_00})
			})
		}
	}
}

// TestOperatorAndNoticeReturns: the ACH Operator's codes (R13, R18, R19)
// return an entry as it is processed, before it settles: a transfer in
// processing is returned, a settled one (Wed 2026-11-25 09:00 ET) is
// refused even a minute later, unless late. R23 (credit refused by the
// receiver) runs from the receiver's notice, not from settlement: a month
// after settlement it is still in time.
func TestOperatorAndNoticeReturns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		settled bool
		after   time.Duration // after settlement
		code    string
		late    bool
		wantErr string
	}{
		{"R13 in processing", false, 0, "R13", false, ""},
		{"R18 in processing", false, 0, "R18", false, ""},
		{"R19 in processing", false, 0, "R19", false, ""},
		{"R13 at settlement", true, 0, "R13", false, "return_window_passed"},
		{"R13 a minute after settlement", true, time.Minute, "R13", false, "return_window_passed"},
		{"R18 a minute after settlement", true, time.Minute, "R18", false, "return_window_passed"},
		{"R19 a minute after settlement", true, time.Minute, "R19", false, "return_window_passed"},
		{"R13 a minute after settlement, late", true, time.Minute, "R13", true, ""},
		{"R23 a month after settlement", true, 30 * 24 * time.Hour, "R23", false, ""},
		{"R23 300 days after settlement", true, 300 * 24 * time.Hour, "R23", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
			id := e.Create(t, e.Bank, 10)
			e.Fake.Advance(time.Hour) // PROCESSING-CREDIT
			if tc.settled {
				e.Fake.Advance(23*time.Hour + tc.after)
			}
			before := e.State(t, id)
			var err error
			if tc.late {
				err = e.Fake.Return(id, tc.code, synapsefake.PastWindow())
			} else {
				err = e.Fake.Return(id, tc.code)
			}
			if got := testkit.ErrCode(err); got != tc.wantErr {
				t.Fatalf("Return(%s): %v, want %q", tc.code, err, tc.wantErr)
			}
			if tc.wantErr != "" {
				if !strings.Contains(err.Error(), "ACH Operator") || !strings.Contains(err.Error(), "error_code 410, http 409") {
					t.Errorf("error %q does not say the ACH Operator returns it before settlement, or is not 409 / 410", err)
				}
				e.WantTxUnchanged(t, before)
				return
			}
			if tx := e.Tx(t, id); tx.Status != synapsefake.StatusReturned || tx.Code != tc.code {
				t.Errorf("%s, code %q; want RETURNED %s", tx.Status, tx.Code, tc.code)
			}
			e.WantBalances(t, 100_00, nil)
		})
	}
}

// TestOperatorReturnPlans: an operator's code may be planned only at
// settlement (returned instead of settling), not after it.
func TestOperatorReturnPlans(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		after   time.Duration
		wantErr string
		want    synapsefake.Status
	}{
		{"at settlement", 0, "", synapsefake.StatusReturned},
		{"a second after", time.Second, "return_window_passed", synapsefake.StatusSettled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := txEnvAt(t, testkit.Et(2026, 11, 24, 9, 0), 100_00)
			id := e.Create(t, e.Bank, 10)
			if err := e.Fake.Return(id, "R13", synapsefake.AfterSettlement(tc.after)); testkit.ErrCode(err) != tc.wantErr {
				t.Fatalf("ScheduleReturn: %v, want %q", err, tc.wantErr)
			}
			_, err := e.Fake.AddReturnRule(synapsefake.ReturnRule{NodeID: e.Bank.ID, Code: "R19", After: tc.after})
			if testkit.ErrCode(err) != tc.wantErr {
				t.Fatalf("AddReturnRule: %v, want %q", err, tc.wantErr)
			}
			e.Fake.Advance(48 * time.Hour)
			if tx := e.Tx(t, id); tx.Status != tc.want {
				t.Errorf("%s, want %s", tx.Status, tc.want)
			}
		})
	}
}

// TestControlDishonorAndContest drives both moves through the control API:
// each answers the transaction; bad input answers the error envelope and
// changes nothing.
func TestControlDishonorAndContest(t *testing.T) {
	t.Parallel()
	const unknown = "0123456789abcdef01234567"
	for _, tc := range []struct {
		name       string
		path       string // {tx} for the returned transfer
		body       any
		dishonored bool // dishonor it first
		status     int
		errorCode  string
		code       string
		want       string // the status after
	}{
		{"dishonor", "/transactions/{tx}/dishonor", map[string]any{"code": "R68"}, false, 200, "", "", "SETTLED"},
		{"contest", "/transactions/{tx}/contest", map[string]any{"code": "R73"}, true, 200, "", "", "RETURNED"},
		{"dishonor: malformed JSON", "/transactions/{tx}/dishonor", `{"code":`, false, 400, "200", "invalid_json", "RETURNED"},
		{"dishonor: code as a number", "/transactions/{tx}/dishonor", map[string]any{"code": 68}, false, 400, "200", "invalid_field_type", "RETURNED"},
		{"dishonor: no code", "/transactions/{tx}/dishonor", map[string]any{}, false, 400, "200", "missing_code", "RETURNED"},
		{"dishonor: no body", "/transactions/{tx}/dishonor", nil, false, 400, "200", "missing_code", "RETURNED"},
		{"dishonor: empty code", "/transactions/{tx}/dishonor", map[string]any{"code": ""}, false, 400, "200", "missing_code", "RETURNED"},
		{"dishonor: unknown field", "/transactions/{tx}/dishonor", map[string]any{"code": "R68", "late": true}, false, 400, "200", "unknown_field", "RETURNED"},
		{"dishonor: unknown code", "/transactions/{tx}/dishonor", map[string]any{"code": "R99"}, false, 400, "200", "invalid_return_code", "RETURNED"},
		{"dishonor: a return code", "/transactions/{tx}/dishonor", map[string]any{"code": "R01"}, false, 409, "410", "wrong_code_family", "RETURNED"},
		{"dishonor: unknown transaction", "/transactions/" + unknown + "/dishonor", map[string]any{"code": "R68"}, false, 404, "404", "unable_to_locate_transaction", "RETURNED"},
		{"dishonor: twice", "/transactions/{tx}/dishonor", map[string]any{"code": "R68"}, true, 409, "410", "already_dishonored", "SETTLED"},
		{"contest: malformed JSON", "/transactions/{tx}/contest", `[`, true, 400, "200", "invalid_json", "SETTLED"},
		{"contest: code as a list", "/transactions/{tx}/contest", map[string]any{"code": []string{"R73"}}, true, 400, "200", "invalid_field_type", "SETTLED"},
		{"contest: no code", "/transactions/{tx}/contest", map[string]any{}, true, 400, "200", "missing_code", "SETTLED"},
		{"contest: a dishonor code", "/transactions/{tx}/contest", map[string]any{"code": "R68"}, true, 409, "410", "wrong_code_family", "SETTLED"},
		{"contest: not dishonored", "/transactions/{tx}/contest", map[string]any{"code": "R73"}, false, 409, "410", "not_dishonored", "RETURNED"},
		{"contest: unknown transaction", "/transactions/" + unknown + "/contest", map[string]any{"code": "R73"}, true, 404, "404", "unable_to_locate_transaction", "SETTLED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, id := returnedACH(t)
			if tc.dishonored {
				mustDo(t, e.Fake.DishonorReturn(id, "R68"))
			}
			before := e.State(t, id)
			r := testkit.Ctl(t, e.Fake, "POST", strings.ReplaceAll(tc.path, "{tx}", id), tc.body)
			if tc.status != http.StatusOK {
				testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
				if hc, _ := r.Body["http_code"].(string); hc != strconv.Itoa(tc.status) {
					t.Errorf("http_code %q, want %d", hc, tc.status)
				}
				e.WantTxUnchanged(t, before)
			} else if tx, _ := r.Body["transaction"].(map[string]any); r.Status != 200 || tx["status"] != tc.want {
				t.Errorf("answered %d %s, want 200 with status %s", r.Status, r.Raw, tc.want)
			}
			if got := e.Tx(t, id).Status; string(got) != tc.want {
				t.Errorf("status %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("GET is 405 with Allow", func(t *testing.T) {
		t.Parallel()
		e, id := returnedACH(t)
		for _, move := range []string{"dishonor", "contest"} {
			r := testkit.Ctl(t, e.Fake, "GET", "/transactions/"+id+"/"+move, nil)
			testkit.WantError(t, r, http.StatusMethodNotAllowed, "410", "method_not_allowed")
			if allow := r.Header.Get("Allow"); allow != "POST" {
				t.Errorf("%s: Allow %q, want POST", move, allow)
			}
		}
	})
}

func mustDo(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// meaning is a code's meaning, which must exist.
func meaning(code string) string {
	m, ok := reference.CodeMeaning(code)
	if !ok {
		panic("unknown code " + code)
	}
	return m
}

// httpStatus is how an error of the fake names its HTTP status, with the
// error_code the status carries in these tests: every 409 here is a move
// the state machine does not allow ("410").
func httpStatus(status int) string {
	if status == http.StatusConflict {
		return "error_code 410, http 409"
	}
	return "http " + strconv.Itoa(status)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestDashboardDishonorAndContest: a RETURNED ACH transfer's detail offers
// to dishonor its return, and the dishonored one to contest the dishonor;
// each form moves it, and neither is offered once it no longer applies.
func TestDashboardDishonorAndContest(t *testing.T) {
	t.Parallel()
	e, id := returnedACH(t)
	page := testkit.UIPage(t, e.Fake, "/_fake/ui/transactions?open="+id)
	if strings.Contains(page, "/_fake/transactions/"+id+"/contest") || !strings.Contains(page, `<option value="R68">untimely return</option>`) {
		t.Error("a returned transfer's detail offers a contest, or lacks the dishonor codes")
	}
	testkit.CtlOK(t, e.Fake, "POST", testkit.UIButton(t, page, "/_fake/transactions/"+id+"/dishonor"), map[string]any{"code": "R68"})
	if tx := e.Tx(t, id); tx.Status != synapsefake.StatusSettled || tx.Code != "R68" {
		t.Fatalf("after the dishonor form: %s %s, want SETTLED R68", tx.Status, tx.Code)
	}
	page = testkit.UIPage(t, e.Fake, "/_fake/ui/transactions?open="+id)
	for _, move := range []string{"dishonor", "return"} {
		if strings.Contains(page, "/_fake/transactions/"+id+"/"+move) {
			t.Errorf("a dishonored transfer's detail offers %s", move)
		}
	}
	testkit.CtlOK(t, e.Fake, "POST", testkit.UIButton(t, page, "/_fake/transactions/"+id+"/contest"), map[string]any{"code": "R73"})
	if tx := e.Tx(t, id); tx.Status != synapsefake.StatusReturned || tx.Code != "R73" {
		t.Fatalf("after the contest form: %s %s, want RETURNED R73", tx.Status, tx.Code)
	}
	page = testkit.UIPage(t, e.Fake, "/_fake/ui/transactions?open="+id)
	for _, move := range []string{"dishonor", "contest", "return"} {
		if strings.Contains(page, "/_fake/transactions/"+id+"/"+move) {
			t.Errorf("a contested transfer's detail offers %s", move)
		}
	}
}

// TestDishonorOnTheStatement: the sender's monthly statement shows each
// move of a transfer returned (Wed 2026-11-25), dishonored (Fri 11-27) and
// contested (Mon 11-30): debited, refunded, debited again, refunded again,
// and it reconciles.
func TestDishonorOnTheStatement(t *testing.T) {
	t.Parallel()
	e, id := returnedACH(t)
	e.Fake.Advance(testkit.Et(2026, 11, 27, 10, 0).Sub(e.Fake.Now()))
	mustDo(t, e.Fake.DishonorReturn(id, "R68"))
	e.Fake.Advance(testkit.Et(2026, 11, 30, 10, 0).Sub(e.Fake.Now()))
	mustDo(t, e.Fake.ContestDishonor(id, "R74"))
	e.Fake.Advance(testkit.Et(2026, 12, 16, 12, 0).Sub(e.Fake.Now()))
	list := e.Fake.Statements(e.Fx.Node.ID)
	if len(list) == 0 {
		t.Fatal("no statements")
	}
	nov := list[len(list)-1]
	if nov.Start.UTC().Month() != time.November || nov.OpeningBalanceCents != 100_00 || nov.EndingBalanceCents != 100_00 {
		t.Fatalf("last statement %s-%s, %d to %d; want November's, 10000 to 10000", nov.Start, nov.End, nov.OpeningBalanceCents, nov.EndingBalanceCents)
	}
	want := []movementKey{
		{synapsefake.MovementDebit, id, -10_00},
		{synapsefake.MovementReturn, id, 10_00},
		{synapsefake.MovementDebit, id, -10_00},
		{synapsefake.MovementReturn, id, 10_00},
	}
	if diff := cmp.Diff(want, movementKeys(nov.Movements)); diff != "" {
		t.Errorf("movements (-want +got):\n%s", diff)
	}
	reconcile(t, e.Fake, nov)
}

// TestDishonorOnTheWire: GET shows a dishonored transfer SETTLED with the
// dishonor's code in recent_status and the whole story in its timeline, as
// its webhook does.
func TestDishonorOnTheWire(t *testing.T) {
	t.Parallel()
	e, id := returnedACH(t)
	at := testkit.Et(2026, 11, 27, 10, 0)
	e.Fake.Advance(at.Sub(e.Fake.Now()))
	mustDo(t, e.Fake.DishonorReturn(id, "R68"))
	note := "R68: untimely return. Return R01 dishonored; the transfer stands."
	wantRecent := map[string]any{"code": "R68", "date": float64(at.UnixMilli()), "note": note, "status": "SETTLED", "status_id": "4"}
	wantLast := []any{
		map[string]any{"date": float64(testkit.Et(2026, 11, 25, 15, 0).UnixMilli()), "note": "R01: insufficient funds.", "status": "RETURNED", "status_id": "6"},
		map[string]any{"date": float64(at.UnixMilli()), "note": note, "status": "SETTLED", "status_id": "4"},
	}
	r := e.Get(t, id)
	if r.Status != http.StatusOK {
		t.Fatalf("GET: %d %s", r.Status, r.Raw)
	}
	var hook map[string]any
	for _, w := range e.Fake.Webhooks().All() {
		if w.ObjectID == id {
			hook = w.Payload()
		}
	}
	for name, body := range map[string]map[string]any{"GET": r.Body, "the webhook": hook} {
		if diff := cmp.Diff(wantRecent, body["recent_status"]); diff != "" {
			t.Errorf("%s: recent_status (-want +got):\n%s", name, diff)
		}
		timeline, _ := body["timeline"].([]any)
		if len(timeline) < 2 {
			t.Fatalf("%s: timeline %v", name, timeline)
		}
		if diff := cmp.Diff(wantLast, timeline[len(timeline)-2:]); diff != "" {
			t.Errorf("%s: the timeline's last entries (-want +got):\n%s", name, diff)
		}
	}
}
