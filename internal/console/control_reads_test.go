package console_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// TestControlReads: the control API reads users, nodes with both balances
// and transactions as the Go helpers give them.
func TestControlReads(t *testing.T) {
	t.Parallel()
	e := newCtlEnv(t) // the sender's node holds $1,000 less a CREATED $12.34 transfer to the payee
	sender, payee := e.fx.User.ID, e.payee.User.ID
	for _, tc := range []struct {
		name string
		path string
		want map[string]any
	}{
		{"users, newest first", "/users?limit=1", map[string]any{"success": true, "users_count": 2,
			"users": []any{map[string]any{"_id": payee, "emails": ctlAny, "phone_numbers": ctlAny, "legal_names": ctlAny,
				"permission": "UNVERIFIED", "refresh_token": ctlAny, "fingerprints": []any{testkit.TestFingerprint}, "node_ids": []any{e.payee.Node.ID},
				"documents": []any{}, "permission_history": ctlAny}}}},
		{"a user", "/users/" + sender, map[string]any{"success": true, "user": map[string]any{"_id": sender, "emails": ctlAny,
			"phone_numbers": ctlAny, "legal_names": ctlAny, "permission": "UNVERIFIED", "refresh_token": ctlAny,
			"fingerprints": []any{testkit.TestFingerprint}, "node_ids": []any{e.fx.Node.ID, e.ach.ID},
			"documents": []any{}, "permission_history": []any{map[string]any{"at": float64(e.fake.Now().UnixMilli()), "permission": "UNVERIFIED", "by": "created"}}}}},
		{"a user's nodes with both balances", "/users/" + sender + "/nodes", map[string]any{"success": true, "nodes_count": 2,
			"nodes": []any{
				map[string]any{"_id": e.fx.Node.ID, "user_id": sender, "type": "DEPOSIT-US", "nickname": "Checking",
					"allowed": "CREDIT-AND-DEBIT", "balance_cents": 100000, "available_cents": 100000 - ctlTxCents, "is_active": true},
				map[string]any{"_id": e.ach.ID, "user_id": sender, "type": "ACH-US", "nickname": "Bank",
					"allowed": "CREDIT-AND-DEBIT", "balance_cents": 0, "available_cents": 0, "is_active": true},
			}}},
		{"a node", "/nodes/" + e.payee.Node.ID, map[string]any{"success": true, "node": map[string]any{"_id": e.payee.Node.ID,
			"user_id": payee, "type": "DEPOSIT-US", "nickname": "Checking", "allowed": "CREDIT-AND-DEBIT",
			"balance_cents": 0, "available_cents": 0, "is_active": true}}},
		{"a user's transactions", "/users/" + payee + "/transactions", map[string]any{"success": true, "trans_count": 1,
			"transactions": []any{map[string]any{"_id": e.tx, "status": "CREATED", "code": "", "amount_cents": ctlTxCents,
				"from_node_id": e.fx.Node.ID, "to_node_id": e.payee.Node.ID, "timeline": ctlAny,
				"recent_status": ctlRecent("CREATED", "Transaction Created.", e.now(), "")}}}},
		{"a node's transactions", "/nodes/" + e.fx.Node.ID + "/transactions?limit=5", map[string]any{"success": true, "trans_count": 1,
			"transactions": []any{map[string]any{"_id": e.tx, "status": "CREATED", "code": "", "amount_cents": ctlTxCents,
				"from_node_id": e.fx.Node.ID, "to_node_id": e.payee.Node.ID, "timeline": ctlAny,
				"recent_status": ctlRecent("CREATED", "Transaction Created.", e.now(), "")}}}},
		{"a node with no transaction", "/nodes/" + e.ach.ID + "/transactions", map[string]any{"success": true, "trans_count": 0,
			"transactions": []any{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testkit.Ctl(t, e.fake, "GET", tc.path, nil)
			if r.Status != http.StatusOK {
				t.Fatalf("GET /_fake%s: %d %s", tc.path, r.Status, r.Raw)
			}
			ctlWantBody(t, r, tc.want)
		})
	}
}

// TestControlFundFlushWait: fund a node, flush deliveries and wait for a
// webhook over HTTP.
func TestControlFundFlushWait(t *testing.T) {
	t.Parallel()
	e := newCtlEnv(t)
	got := testkit.CtlOK(t, e.fake, "POST", "/nodes/"+e.payee.Node.ID+"/fund", map[string]any{"amount_cents": 2500})
	node := got["node"].(map[string]any)
	if node["balance_cents"] != float64(2500) || node["available_cents"] != float64(2500) {
		t.Errorf("fund answered %v, want both balances 2500", node)
	}
	if n, _ := e.fake.Node(e.payee.Node.ID); n.BalanceCents != 2500 {
		t.Errorf("balance %d after fund, want 2500", n.BalanceCents)
	}

	if err := e.fake.Settle(e.tx); err != nil {
		t.Fatal(err)
	}
	flushed := testkit.CtlOK(t, e.fake, "POST", "/webhooks/flush", nil)
	if flushed["webhooks_count"] != float64(e.fake.Webhooks().Len()) {
		t.Errorf("flush counted %v webhooks, the capture holds %d", flushed["webhooks_count"], e.fake.Webhooks().Len())
	}
	w := testkit.CtlOK(t, e.fake, "POST", "/webhooks/wait", map[string]any{"object_id": e.tx, "status": "SETTLED", "timeout": "1s"})
	if h := w["webhook"].(map[string]any); h["object_id"] != e.tx || h["status"] != "SETTLED" || h["function"] != "TRAN|PATCH" {
		t.Errorf("wait answered %v, want the transaction's SETTLED webhook", h)
	}
	r := testkit.Ctl(t, e.fake, "POST", "/webhooks/wait", map[string]any{"object_id": e.tx, "status": "RETURNED", "timeout": "0s"})
	testkit.WantError(t, r, http.StatusNotFound, "404", "no_matching_webhook")
	if !strings.Contains(string(r.Raw), "SETTLED") {
		t.Errorf("the refusal does not list what was captured: %s", r.Raw)
	}
	// On the frozen clock with nothing in flight, nothing can come: the
	// wait answers at once, not after its 20 s, and says why.
	began := time.Now()
	r = testkit.Ctl(t, e.fake, "POST", "/webhooks/wait", map[string]any{"object_id": e.tx, "status": "RETURNED", "timeout": "20s"})
	testkit.WantError(t, r, http.StatusNotFound, "404", "no_matching_webhook")
	if waited := time.Since(began); waited > 10*time.Second || !strings.Contains(string(r.Raw), "frozen") {
		t.Errorf("waited %v and answered %s; want an answer at once that says the clock is frozen", waited, r.Raw)
	}
}

// TestControlReadRefusals: bad input to the new routes answers the error
// envelope and changes nothing; a wrong method is 405 with Allow.
func TestControlReadRefusals(t *testing.T) {
	t.Parallel()
	e := newCtlEnv(t)
	unknown := "000000000000000000000000"
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		errorCode, code    string
	}{
		{"users: limit 0", "GET", "/users?limit=0", nil, 400, "200", "invalid_limit"},
		{"users: limit too large", "GET", "/users?limit=1001", nil, 400, "200", "invalid_limit"},
		{"users: limit not a number", "GET", "/users?limit=ten", nil, 400, "200", "invalid_limit"},
		{"unknown user", "GET", "/users/" + unknown, nil, 404, "404", "unable_to_locate_user"},
		{"unknown user's nodes", "GET", "/users/" + unknown + "/nodes", nil, 404, "404", "unable_to_locate_user"},
		{"unknown user's transactions", "GET", "/users/" + unknown + "/transactions", nil, 404, "404", "unable_to_locate_user"},
		{"unknown node", "GET", "/nodes/" + unknown, nil, 404, "404", "unable_to_locate_node"},
		{"unknown node's transactions", "GET", "/nodes/" + unknown + "/transactions", nil, 404, "404", "unable_to_locate_node"},
		{"fund: unknown node", "POST", "/nodes/" + unknown + "/fund", map[string]any{"amount_cents": 1}, 404, "404", "unable_to_locate_node"},
		{"fund: no amount", "POST", "/nodes/{node}/fund", map[string]any{}, 400, "200", "missing_amount_cents"},
		{"fund: negative amount", "POST", "/nodes/{node}/fund", map[string]any{"amount_cents": -5}, 400, "200", "invalid_amount"},
		{"fund: amount as a string", "POST", "/nodes/{node}/fund", map[string]any{"amount_cents": "5"}, 400, "200", "invalid_field_type"},
		{"fund: malformed JSON", "POST", "/nodes/{node}/fund", `{"amount_cents":`, 400, "200", "invalid_json"},
		{"fund: unknown field", "POST", "/nodes/{node}/fund", map[string]any{"amount": 5}, 400, "200", "unknown_field"},
		{"fund: past the balance limit", "POST", "/nodes/{node}/fund", map[string]any{"amount_cents": synapsefake.MaxBalanceCents}, 409, "400", "balance_limit"},
		{"wait: nothing to match", "POST", "/webhooks/wait", map[string]any{"timeout": "1s"}, 400, "200", "missing_match"},
		{"wait: bad timeout", "POST", "/webhooks/wait", map[string]any{"function": "USERS|POST", "timeout": "forever"}, 400, "200", "invalid_timeout"},
		{"wait: timeout too long", "POST", "/webhooks/wait", map[string]any{"function": "USERS|POST", "timeout": "31s"}, 400, "200", "invalid_timeout"},
		{"flush: a body", "POST", "/webhooks/flush", map[string]any{"now": true}, 400, "200", "unknown_field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := testkit.SavedState(t, e.fake)
			body := tc.body
			if s, ok := body.(string); ok {
				body = e.expand(s)
			}
			testkit.WantError(t, testkit.Ctl(t, e.fake, tc.method, e.expand(tc.path), body), tc.status, tc.errorCode, tc.code)
			if after := testkit.SavedState(t, e.fake); after != before {
				t.Error("a refused call changed the fake's state")
			}
		})
	}
	for _, tc := range []struct{ method, path, allow string }{
		{"PATCH", "/users", "GET, POST"},
		{"DELETE", "/nodes/{node}", "GET"},
		{"GET", "/nodes/{node}/fund", "POST"},
		{"GET", "/webhooks/wait", "POST"},
		{"PUT", "/webhooks", "DELETE, GET"},
		{"GET", "/reset", "POST"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := testkit.Ctl(t, e.fake, tc.method, e.expand(tc.path), nil)
			testkit.WantError(t, r, http.StatusMethodNotAllowed, "410", "method_not_allowed")
			if got := r.Header.Get("Allow"); got != tc.allow {
				t.Errorf("Allow %q, want %q", got, tc.allow)
			}
		})
	}
}
