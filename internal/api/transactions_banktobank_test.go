package api_test

import (
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// TestBankToBankTransfer sends money from one ACH-US node to another, as
// the provider's integration suites did with two nodes of a bank login
// without MFA: a verified sender moves on the ACH schedule, debited and
// credited like any external node; an unverified one is refused.
func TestBankToBankTransfer(t *testing.T) {
	t.Parallel()
	byNumber := map[string]any{"type": "ACH-US", "info": map[string]any{"nickname": "By number",
		"account_num": "12322134", "routing_num": validRouting, "type": "PERSONAL", "class": "CHECKING"}}
	for _, tc := range []struct {
		name string
		opts []synapsefake.Option
		// from and to: "login" is a node linked by bank login (synapse_nomfa),
		// "number" one added by account and routing number, "verified" one
		// added by number whose micro deposits were confirmed.
		from, to string
		wantOK   bool
	}{
		{"bank login to bank login", nil, "login", "login", true},
		{"bank login to account number with micro deposits pending", nil, "login", "number", true},
		{"verified account number to bank login", nil, "verified", "login", true},
		{"micro deposits pending to bank login", nil, "number", "login", false},
		{"micro deposits pending (CREDIT) to bank login", []synapsefake.Option{synapsefake.WithMicroDeposits()}, "number", "login", false},
		{"micro deposits pending to micro deposits pending", nil, "number", "number", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, tc.opts...)
			fx := testkit.NewFixture(t, fake, 0)
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: testkit.BankLoginBody("synapse_nomfa", "test1234")})
			linked, _ := r.Body["nodes"].([]any)
			if r.Status != 200 || len(linked) != 2 {
				t.Fatalf("bank login: %d %s, want 200 and two nodes", r.Status, r.Raw)
			}
			logins := []string{linked[0].(map[string]any)["_id"].(string), linked[1].(map[string]any)["_id"].(string)}
			pick := func(kind string) synapsefake.Node {
				t.Helper()
				var id string
				switch kind {
				case "login":
					id, logins = logins[0], logins[1:]
				default:
					id = createdNode(t, fake, fx, byNumber)["_id"].(string)
					if kind == "verified" {
						v := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: testkit.NodePath(fx.User.ID, id), Header: fx.Headers, Body: map[string]any{"micro": []float64{0.1, 0.1}}})
						if v.Status != 200 {
							t.Fatalf("verify: %d %s", v.Status, v.Raw)
						}
					}
				}
				n, ok := fake.Node(id)
				if !ok {
					t.Fatalf("node %s not found", id)
				}
				return n
			}
			from, to := pick(tc.from), pick(tc.to)
			before := inspectNodes(t, fake, []string{fx.User.ID})
			r = testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, from.ID), Header: fx.Headers, Body: testkit.TxBody(to, 10)})
			if !tc.wantOK {
				wantErrorStatus(t, r, 409, "400", "transaction_not_allowed")
				wantUnchanged(t, fake, before)
				return
			}
			if r.Status != 200 || getPath(r.Body, "recent_status.status") != "CREATED" {
				t.Fatalf("status %d, recent_status %v; want 200 CREATED; body %s", r.Status, r.Body["recent_status"], r.Raw)
			}
			txID := r.Body["_id"].(string)
			// The default start is a Tuesday morning: the ACH schedule settles
			// on Wednesday morning.
			fake.Advance(23 * time.Hour)
			if tx, _ := fake.Transaction(txID); tx.Status != synapsefake.StatusProcessingCredit {
				t.Errorf("status %s a day less an hour later, want PROCESSING-CREDIT", tx.Status)
			}
			fake.Advance(time.Hour)
			if tx, _ := fake.Transaction(txID); tx.Status != synapsefake.StatusSettled {
				t.Errorf("status %s a day later, want SETTLED", tx.Status)
			}
			fake.CheckBalance(t, from.ID, from.BalanceCents-10_00, from.BalanceCents-10_00)
			fake.CheckBalance(t, to.ID, to.BalanceCents+10_00, to.BalanceCents+10_00)
			fake.CheckWebhook(t, synapsefake.ForFunction("TRANS|POST"), synapsefake.ForObject(txID))
			fake.CheckWebhook(t, synapsefake.ForTransaction(txID, synapsefake.StatusSettled))
		})
	}
}
