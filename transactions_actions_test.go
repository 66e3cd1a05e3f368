package synapsefake_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

func TestCancelTransaction(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(f *synapsefake.Server, id string) error
		entry []map[string]any // entries before the cancel
	}{
		{name: "CREATED"},
		{
			name:  "QUEUED-BY-SYNAPSE",
			setup: func(f *synapsefake.Server, id string) error { return f.Queue(id, "") },
			entry: []map[string]any{txEntry(synapsefake.StatusQueuedBySynapse, "Transaction queued.", friday)},
		},
		{
			name: "QUEUED-BY-RECEIVER",
			setup: func(f *synapsefake.Server, id string) error {
				return f.AdvanceTransaction(id, synapsefake.StatusQueuedByReceiver)
			},
			entry: []map[string]any{txEntry(synapsefake.StatusQueuedByReceiver, "Transaction queued.", friday)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTxEnv(t, 100_00)
			id := e.create(t, e.bank, 10)
			if tc.setup != nil {
				if err := tc.setup(e.fake, id); err != nil {
					t.Fatal(err)
				}
			}
			e.fake.Advance(time.Second)
			r := do(t, e.fake, call{method: "DELETE", path: tranPath(e.fx.user.ID, e.fx.node.ID, id), header: e.fx.headers})
			want := wantTxJSON(t, e.fake, id, e.fx.node, e.bank, 10, friday)
			entries := append(tc.entry, txEntry(synapsefake.StatusCanceled, "Transaction canceled.", friday.Add(time.Second)))
			withEntries(want, "", entries...)
			wantTxBody(t, r, want)
			// It stays canceled: the clock moves nothing and GET shows the same.
			e.fake.Advance(7 * 24 * time.Hour)
			wantTxBody(t, e.get(t, id), want)
			e.wantBalances(t, 100_00, nil)
		})
	}
}

func TestCancelTransactionRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(f *synapsefake.Server, id string) error
	}{
		{"PROCESSING-DEBIT", func(f *synapsefake.Server, id string) error {
			return f.AdvanceTransaction(id, synapsefake.StatusProcessingDebit)
		}},
		{"PROCESSING-CREDIT", func(f *synapsefake.Server, id string) error {
			if err := f.AdvanceTransaction(id, synapsefake.StatusProcessingDebit); err != nil {
				return err
			}
			return f.AdvanceTransaction(id, synapsefake.StatusProcessingCredit)
		}},
		{"SETTLED", func(f *synapsefake.Server, id string) error { return f.Settle(id) }},
		{"RETURNED", func(f *synapsefake.Server, id string) error { return f.Return(id, "R02") }},
		{"CANCELED", func(f *synapsefake.Server, id string) error { return f.Cancel(id, "") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTxEnv(t, 100_00, synapsefake.WithManualProcessing())
			id := e.create(t, e.bank, 10)
			if err := tc.setup(e.fake, id); err != nil {
				t.Fatal(err)
			}
			before := e.state(t, id)
			r := do(t, e.fake, call{method: "DELETE", path: tranPath(e.fx.user.ID, e.fx.node.ID, id), header: e.fx.headers})
			wantErrorStatus(t, r, 409, "410", "cannot_cancel_transaction")
			e.wantTxUnchanged(t, before)
		})
	}
}

func TestCancelTransactionErrors(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 100_00)
	id := e.create(t, e.bank, 1)
	payeeSavings := addTxNode(t, e.fake, e.payee.user.ID, synapsefake.NodeSeed{Nickname: "Payee savings", BalanceCents: 10_00})
	theirs := e.createFrom(t, e.payee, payeeSavings, txBody(e.payee.node, 1))
	for _, tc := range []struct {
		name    string
		path    string
		header  map[string]string
		status  int
		errCode string
		code    string
	}{
		{"another user's transaction", tranPath(e.fx.user.ID, e.fx.node.ID, theirs), e.fx.headers, 401, "300", "unauthorized_transaction"},
		{"unknown transaction", tranPath(e.fx.user.ID, e.fx.node.ID, "0123456789abcdef01234567"), e.fx.headers, 404, "404", "unable_to_locate_transaction"},
		{"key without TRAN|DELETE", tranPath(e.fx.user.ID, e.fx.node.ID, id),
			userHeaders(e.fake, e.fake.OAuthKey(e.fx.user.ID, testFingerprint, "TRAN|GET", "TRAN|PATCH")), 401, "300", "scope_not_granted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.state(t, id, theirs)
			r := do(t, e.fake, call{method: "DELETE", path: tc.path, header: tc.header})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.wantTxUnchanged(t, before)
		})
	}
}

func TestCommentTransaction(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 100_00, synapsefake.WithManualProcessing())
	id := e.create(t, e.bank, 10)
	if err := e.fake.Return(id, "R02"); err != nil {
		t.Fatal(err)
	}
	e.fake.Advance(time.Minute)
	r := do(t, e.fake, call{method: "PATCH", path: tranPath(e.fx.user.ID, e.fx.node.ID, id), header: e.fx.headers,
		body: map[string]any{"comment": "Customer called about it."}})
	want := wantTxJSON(t, e.fake, id, e.fx.node, e.bank, 10, friday)
	withEntries(want, "R02",
		txEntry(synapsefake.StatusProcessingDebit, "Processing debit.", friday),
		txEntry(synapsefake.StatusProcessingCredit, "Processing credit.", friday),
		txEntry(synapsefake.StatusReturned, "R02: account closed.", friday),
		txEntry(synapsefake.StatusReturned, "Customer called about it.", friday.Add(time.Minute)),
	)
	wantTxBody(t, r, want)
	wantTxBody(t, e.get(t, id), want)
	if got := e.tx(t, id); got.Status != synapsefake.StatusReturned || got.Code != "R02" {
		t.Errorf("after a comment: %s %q, want RETURNED R02", got.Status, got.Code)
	}
	e.wantBalances(t, 100_00, nil)
}

func TestCommentTransactionErrors(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 100_00)
	id := e.create(t, e.bank, 1)
	path := tranPath(e.fx.user.ID, e.fx.node.ID, id)
	for _, tc := range []struct {
		name    string
		path    string
		header  map[string]string
		body    any
		status  int
		errCode string
		code    string
	}{
		// No comment is taken and changes nothing (TestContractRulesTheSandboxTook).
		{"comment not a string", path, e.fx.headers, map[string]any{"comment": 5}, 400, "200", "invalid_field_type"},
		{"comment not UTF-8", path, e.fx.headers, `{"comment":"caf` + "\xe9" + `"}`, 400, "200", "invalid_utf8"},
		{"malformed JSON", path, e.fx.headers, `{"comment"`, 400, "200", "invalid_json"},
		{"unknown transaction", tranPath(e.fx.user.ID, e.fx.node.ID, "0123456789abcdef01234567"), e.fx.headers, map[string]any{"comment": "x"}, 404, "404", "unable_to_locate_transaction"},
		{"key without TRAN|PATCH", path, userHeaders(e.fake, e.fake.OAuthKey(e.fx.user.ID, testFingerprint, "TRAN|GET")),
			map[string]any{"comment": "x"}, 401, "300", "scope_not_granted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.state(t, id)
			r := do(t, e.fake, call{method: "PATCH", path: tc.path, header: tc.header, body: tc.body})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.wantTxUnchanged(t, before)
		})
	}
}

// batchPath is POST .../batch-trans of the sender's DEPOSIT-US node.
func (e txEnv) batchPath() string {
	return "/users/" + e.fx.user.ID + "/nodes/" + e.fx.node.ID + "/batch-trans"
}

func TestBatchTransactions(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 10_00)
	noIP := txBody(e.bank, 1)
	delete(noIP["extra"].(map[string]any), "ip")
	items := []any{
		txBody(e.bank, 8),        // 0: created
		noIP,                     // 1: 400 / "200"
		txBody(e.payee.node, 12), // 2: created although the node holds 10.00
		txBody(e.fx.node, 1),     // 3: 409 / "400", to the sending node
		txBody(e.savings, 0.5),   // 4: created
	}
	r := do(t, e.fake, call{method: "POST", path: e.batchPath(), header: e.fx.headers, body: map[string]any{"transactions": items}})
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	trans, _ := r.body["trans"].([]any)
	if len(trans) != 3 {
		t.Fatalf("%d transactions, want 3: %s", len(trans), r.raw)
	}
	var ids []any
	for _, tx := range trans {
		ids = append(ids, tx.(map[string]any)["_id"])
	}
	wantTrans := []any{}
	for i, to := range []synapsefake.Node{e.bank, e.payee.node, e.savings} {
		amount := []float64{8, 12, 0.5}[i]
		w := withID(wantTxJSON(t, e.fake, "", e.fx.node, to, amount, friday), ids[i])
		delete(w, "success")
		w["_v"] = trans[i].(map[string]any)["_v"]
		wantTrans = append(wantTrans, w)
	}
	want := map[string]any{
		"error_code": "0",
		"errors": []any{
			map[string]any{"index": 1.0, "error": map[string]any{"en": "extra.ip is required.", "code": "missing_ip"}, "error_code": "200", "http_code": "400"},
			map[string]any{"index": 3.0, "error": map[string]any{"en": anyString, "code": "same_node"}, "error_code": "400", "http_code": "409"},
		},
		"http_code":   "200",
		"limit":       500.0,
		"page":        1.0,
		"page_count":  1.0,
		"success":     true,
		"trans":       wantTrans,
		"trans_count": 3.0,
	}
	if diff := cmp.Diff(want, r.body, cmp.Comparer(func(a, b string) bool { return a == b || a == anyString && b != "" || b == anyString && a != "" })); diff != "" {
		t.Errorf("batch (-want +got):\n%s", diff)
	}
	// Each one is stored and listed, and processed on the clock: the
	// sender's balance goes negative.
	list := do(t, e.fake, call{method: "GET", path: "/users/" + e.fx.user.ID + "/trans", header: e.fx.headers})
	if list.body["trans_count"] != 3.0 {
		t.Errorf("trans_count %v, want 3", list.body["trans_count"])
	}
	e.fake.Advance(4 * 24 * time.Hour)
	e.wantBalances(t, 10_00, map[string]int64{"sender": 10_00 - 20_50, "bank": 8_00, "payee": 12_00, "savings": 50})
}

// anyString in an expected value matches any non-empty string.
const anyString = "\x00any"

func TestBatchTransactionsErrors(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 10_00)
	id := e.create(t, e.bank, 1)
	many := make([]any, 501)
	for i := range many {
		many[i] = txBody(e.bank, 0.01)
	}
	for _, tc := range []struct {
		name    string
		path    string
		header  map[string]string
		body    any
		status  int
		errCode string
		code    string
	}{
		{"501 transactions", e.batchPath(), e.fx.headers, map[string]any{"transactions": many}, 400, "200", "batch_too_large"},
		{"no transactions", e.batchPath(), e.fx.headers, map[string]any{}, 400, "200", "missing_transactions"},
		{"empty transactions", e.batchPath(), e.fx.headers, map[string]any{"transactions": []any{}}, 400, "200", "missing_transactions"},
		{"transactions not an array", e.batchPath(), e.fx.headers, map[string]any{"transactions": map[string]any{}}, 400, "200", "invalid_field_type"},
		{"an item of the wrong type", e.batchPath(), e.fx.headers, map[string]any{"transactions": []any{"x"}}, 400, "200", "invalid_field_type"},
		{"malformed JSON", e.batchPath(), e.fx.headers, `{"transactions":[`, 400, "200", "invalid_json"},
		{"not UTF-8", e.batchPath(), e.fx.headers, "{\"transactions\":[{\"extra\":{\"note\":\"\xff\"}}]}", 400, "200", "invalid_utf8"},
		{"another user's node", "/users/" + e.fx.user.ID + "/nodes/" + e.payee.node.ID + "/batch-trans", e.fx.headers,
			map[string]any{"transactions": []any{txBody(e.bank, 1)}}, 401, "300", "unauthorized_node"},
		{"unknown node", "/users/" + e.fx.user.ID + "/nodes/0123456789abcdef01234567/batch-trans", e.fx.headers,
			map[string]any{"transactions": []any{txBody(e.bank, 1)}}, 404, "404", "unable_to_locate_node"},
		{"key without TRANS|POST", e.batchPath(), userHeaders(e.fake, e.fake.OAuthKey(e.fx.user.ID, testFingerprint, "TRANS|GET")),
			map[string]any{"transactions": []any{txBody(e.bank, 1)}}, 401, "300", "scope_not_granted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.state(t, id)
			r := do(t, e.fake, call{method: "POST", path: tc.path, header: tc.header, body: tc.body})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.wantTxUnchanged(t, before)
		})
	}
}

// TestBatchOfFiveHundred takes the documented maximum in one request.
func TestBatchOfFiveHundred(t *testing.T) {
	t.Parallel()
	e := newTxEnv(t, 0, synapsefake.WithManualProcessing())
	items := make([]any, 500)
	for i := range items {
		items[i] = txBody(e.bank, 0.01)
	}
	r := do(t, e.fake, call{method: "POST", path: e.batchPath(), header: e.fx.headers, body: map[string]any{"transactions": items}})
	if r.status != 200 || r.body["trans_count"] != 500.0 || len(r.body["errors"].([]any)) != 0 {
		t.Fatalf("status %d, trans_count %v, errors %v", r.status, r.body["trans_count"], r.body["errors"])
	}
	list := do(t, e.fake, call{method: "GET", path: transPath(e.fx.user.ID, e.bank.ID), header: e.fx.headers})
	if list.body["trans_count"] != 500.0 || list.body["page_count"] != 25.0 {
		t.Errorf("listed %v in %v pages, want 500 in 25", list.body["trans_count"], list.body["page_count"])
	}
}
