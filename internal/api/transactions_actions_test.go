package api_test

import (
	"slices"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

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
			entry: []map[string]any{testkit.TxEntry(synapsefake.StatusQueuedBySynapse, "Transaction queued.", testkit.Friday())},
		},
		{
			name: "QUEUED-BY-RECEIVER",
			setup: func(f *synapsefake.Server, id string) error {
				return f.AdvanceTransaction(id, synapsefake.StatusQueuedByReceiver)
			},
			entry: []map[string]any{testkit.TxEntry(synapsefake.StatusQueuedByReceiver, "Transaction queued.", testkit.Friday())},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 100_00)
			id := e.Create(t, e.Bank, 10)
			if tc.setup != nil {
				if err := tc.setup(e.Fake, id); err != nil {
					t.Fatal(err)
				}
			}
			e.Fake.Advance(time.Second)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "DELETE", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers})
			want := testkit.WantTxJSON(t, e.Fake, id, e.Fx.Node, e.Bank, 10, testkit.Friday())
			entries := append(tc.entry, testkit.TxEntry(synapsefake.StatusCanceled, "Transaction canceled.", testkit.Friday().Add(time.Second)))
			testkit.WithEntries(want, "", entries...)
			testkit.WantTxBody(t, r, want)
			// It stays canceled: the clock moves nothing and GET shows the same.
			e.Fake.Advance(7 * 24 * time.Hour)
			testkit.WantTxBody(t, e.Get(t, id), want)
			e.WantBalances(t, 100_00, nil)
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
			e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
			id := e.Create(t, e.Bank, 10)
			if err := tc.setup(e.Fake, id); err != nil {
				t.Fatal(err)
			}
			before := e.State(t, id)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "DELETE", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers})
			wantErrorStatus(t, r, 409, "410", "cannot_cancel_transaction")
			e.WantTxUnchanged(t, before)
		})
	}
}

func TestCancelTransactionErrors(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	id := e.Create(t, e.Bank, 1)
	payeeSavings := testkit.AddTxNode(t, e.Fake, e.Payee.User.ID, synapsefake.NodeSeed{Nickname: "Payee savings", BalanceCents: 10_00})
	theirs := e.CreateFrom(t, e.Payee, payeeSavings, testkit.TxBody(e.Payee.Node, 1))
	for _, tc := range []struct {
		name    string
		path    string
		header  map[string]string
		status  int
		errCode string
		code    string
	}{
		{"another user's transaction", testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, theirs), e.Fx.Headers, 401, "300", "unauthorized_transaction"},
		{"unknown transaction", testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, "0123456789abcdef01234567"), e.Fx.Headers, 404, "404", "unable_to_locate_transaction"},
		{"key without TRAN|DELETE", testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id),
			testkit.UserHeaders(e.Fake, e.Fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint, "TRAN|GET", "TRAN|PATCH")), 401, "300", "scope_not_granted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.State(t, id, theirs)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "DELETE", Path: tc.path, Header: tc.header})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.WantTxUnchanged(t, before)
		})
	}
}

func TestCommentTransaction(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
	id := e.Create(t, e.Bank, 10)
	if err := e.Fake.Return(id, "R02"); err != nil {
		t.Fatal(err)
	}
	e.Fake.Advance(time.Minute)
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers,
		Body: map[string]any{"comment": "Customer called about it."}})
	want := testkit.WantTxJSON(t, e.Fake, id, e.Fx.Node, e.Bank, 10, testkit.Friday())
	testkit.WithEntries(want, "R02",
		testkit.TxEntry(synapsefake.StatusProcessingDebit, "Processing debit.", testkit.Friday()),
		testkit.TxEntry(synapsefake.StatusProcessingCredit, "Processing credit.", testkit.Friday()),
		testkit.TxEntry(synapsefake.StatusReturned, "R02: account closed.", testkit.Friday()),
		testkit.TxEntry(synapsefake.StatusReturned, "Customer called about it.", testkit.Friday().Add(time.Minute)),
	)
	// recent_status is the RETURNED status, its note followed by the comment.
	rs := testkit.TxEntry(synapsefake.StatusReturned, "R02: account closed. Customer called about it.", testkit.Friday())
	rs["code"] = "R02"
	want["recent_status"] = rs
	testkit.WantTxBody(t, r, want)
	testkit.WantTxBody(t, e.Get(t, id), want)
	if got := e.Tx(t, id); got.Status != synapsefake.StatusReturned || got.Code != "R02" {
		t.Errorf("after a comment: %s %q, want RETURNED R02", got.Status, got.Code)
	}
	e.WantBalances(t, 100_00, nil)
}

// TestCommentAppendsToRecentStatus: each comment is a timeline entry of
// its own, and recent_status keeps its status's note with the comments
// made since appended, as the provider's js wrapper's
// PATCH_COMMENT_ON_STATUS test read them; a later status starts afresh.
func TestCommentAppendsToRecentStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		comments []string
		settle   bool     // Settle after the comments
		after    []string // comments after Settle
		wantNote string
		wantStat synapsefake.Status
	}{
		{"one comment", []string{"first comment"}, false, nil, "Transaction Created. first comment", synapsefake.StatusCreated},
		{"two comments", []string{"first comment", "second comment"}, false, nil, "Transaction Created. first comment second comment", synapsefake.StatusCreated},
		{"a later status starts afresh", []string{"first comment"}, true, nil, "Transaction settled.", synapsefake.StatusSettled},
		{"a comment on the later status", []string{"first comment"}, true, []string{"third comment"}, "Transaction settled. third comment", synapsefake.StatusSettled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 100_00, synapsefake.WithManualProcessing())
			id := e.Create(t, e.Bank, 10)
			path := testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id)
			comment := func(c string) {
				r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: path, Header: e.Fx.Headers, Body: map[string]any{"comment": c}})
				if r.Status != 200 {
					t.Fatalf("comment %q: status %d: %s", c, r.Status, r.Raw)
				}
			}
			for _, c := range tc.comments {
				comment(c)
			}
			if tc.settle {
				if err := e.Fake.Settle(id); err != nil {
					t.Fatal(err)
				}
			}
			for _, c := range tc.after {
				comment(c)
			}
			r := e.Get(t, id)
			rs, _ := r.Body["recent_status"].(map[string]any)
			want := map[string]any{"date": rs["date"], "note": tc.wantNote, "status": string(tc.wantStat), "status_id": tc.wantStat.ID()}
			if diff := cmp.Diff(want, rs); diff != "" {
				t.Errorf("recent_status (-want +got):\n%s", diff)
			}
			// The timeline keeps each comment as an entry of its own.
			var notes []string
			for _, en := range r.Body["timeline"].([]any) {
				notes = append(notes, en.(map[string]any)["note"].(string))
			}
			for _, c := range append(slices.Clone(tc.comments), tc.after...) {
				if !slices.Contains(notes, c) {
					t.Errorf("timeline %q has no entry %q", notes, c)
				}
			}
		})
	}
}

func TestCommentTransactionErrors(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	id := e.Create(t, e.Bank, 1)
	path := testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id)
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
		{"comment not a string", path, e.Fx.Headers, map[string]any{"comment": 5}, 400, "200", "invalid_field_type"},
		{"comment not UTF-8", path, e.Fx.Headers, `{"comment":"caf` + "\xe9" + `"}`, 400, "200", "invalid_utf8"},
		{"malformed JSON", path, e.Fx.Headers, `{"comment"`, 400, "200", "invalid_json"},
		{"unknown transaction", testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, "0123456789abcdef01234567"), e.Fx.Headers, map[string]any{"comment": "x"}, 404, "404", "unable_to_locate_transaction"},
		{"key without TRAN|PATCH", path, testkit.UserHeaders(e.Fake, e.Fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint, "TRAN|GET")),
			map[string]any{"comment": "x"}, 401, "300", "scope_not_granted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.State(t, id)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: tc.path, Header: tc.header, Body: tc.body})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.WantTxUnchanged(t, before)
		})
	}
}

func TestBatchTransactions(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 10_00)
	noIP := testkit.TxBody(e.Bank, 1)
	delete(noIP["extra"].(map[string]any), "ip")
	items := []any{
		testkit.TxBody(e.Bank, 8),        // 0: created
		noIP,                             // 1: 400 / "200"
		testkit.TxBody(e.Payee.Node, 12), // 2: created although the node holds 10.00
		testkit.TxBody(e.Fx.Node, 1),     // 3: 409 / "400", to the sending node
		testkit.TxBody(e.Savings, 0.5),   // 4: created
	}
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: e.BatchPath(), Header: e.Fx.Headers, Body: map[string]any{"transactions": items}})
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Raw)
	}
	trans, _ := r.Body["trans"].([]any)
	if len(trans) != 3 {
		t.Fatalf("%d transactions, want 3: %s", len(trans), r.Raw)
	}
	var ids []any
	for _, tx := range trans {
		ids = append(ids, tx.(map[string]any)["_id"])
	}
	wantTrans := []any{}
	for i, to := range []synapsefake.Node{e.Bank, e.Payee.Node, e.Savings} {
		amount := []float64{8, 12, 0.5}[i]
		w := withID(testkit.WantTxJSON(t, e.Fake, "", e.Fx.Node, to, amount, testkit.Friday()), ids[i])
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
	if diff := cmp.Diff(want, r.Body, cmp.Comparer(func(a, b string) bool { return a == b || a == anyString && b != "" || b == anyString && a != "" })); diff != "" {
		t.Errorf("batch (-want +got):\n%s", diff)
	}
	// Each one is stored and listed, and processed on the clock: the
	// sender's balance goes negative.
	list := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: "/users/" + e.Fx.User.ID + "/trans", Header: e.Fx.Headers})
	if list.Body["trans_count"] != 3.0 {
		t.Errorf("trans_count %v, want 3", list.Body["trans_count"])
	}
	e.Fake.Advance(4 * 24 * time.Hour)
	e.WantBalances(t, 10_00, map[string]int64{"sender": 10_00 - 20_50, "bank": 8_00, "payee": 12_00, "savings": 50})
}

// anyString in an expected value matches any non-empty string.
const anyString = "\x00any"

func TestBatchTransactionsErrors(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 10_00)
	id := e.Create(t, e.Bank, 1)
	many := make([]any, 501)
	for i := range many {
		many[i] = testkit.TxBody(e.Bank, 0.01)
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
		{"501 transactions", e.BatchPath(), e.Fx.Headers, map[string]any{"transactions": many}, 400, "200", "batch_too_large"},
		{"no transactions", e.BatchPath(), e.Fx.Headers, map[string]any{}, 400, "200", "missing_transactions"},
		{"empty transactions", e.BatchPath(), e.Fx.Headers, map[string]any{"transactions": []any{}}, 400, "200", "missing_transactions"},
		{"transactions not an array", e.BatchPath(), e.Fx.Headers, map[string]any{"transactions": map[string]any{}}, 400, "200", "invalid_field_type"},
		{"an item of the wrong type", e.BatchPath(), e.Fx.Headers, map[string]any{"transactions": []any{"x"}}, 400, "200", "invalid_field_type"},
		{"malformed JSON", e.BatchPath(), e.Fx.Headers, `{"transactions":[`, 400, "200", "invalid_json"},
		{"not UTF-8", e.BatchPath(), e.Fx.Headers, "{\"transactions\":[{\"extra\":{\"note\":\"\xff\"}}]}", 400, "200", "invalid_utf8"},
		{"another user's node", "/users/" + e.Fx.User.ID + "/nodes/" + e.Payee.Node.ID + "/batch-trans", e.Fx.Headers,
			map[string]any{"transactions": []any{testkit.TxBody(e.Bank, 1)}}, 401, "300", "unauthorized_node"},
		{"unknown node", "/users/" + e.Fx.User.ID + "/nodes/0123456789abcdef01234567/batch-trans", e.Fx.Headers,
			map[string]any{"transactions": []any{testkit.TxBody(e.Bank, 1)}}, 404, "404", "unable_to_locate_node"},
		{"key without TRANS|POST", e.BatchPath(), testkit.UserHeaders(e.Fake, e.Fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint, "TRANS|GET")),
			map[string]any{"transactions": []any{testkit.TxBody(e.Bank, 1)}}, 401, "300", "scope_not_granted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.State(t, id)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: tc.path, Header: tc.header, Body: tc.body})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.WantTxUnchanged(t, before)
		})
	}
}

// TestBatchOfFiveHundred takes the documented maximum in one request.
func TestBatchOfFiveHundred(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 0, synapsefake.WithManualProcessing())
	items := make([]any, 500)
	for i := range items {
		items[i] = testkit.TxBody(e.Bank, 0.01)
	}
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: e.BatchPath(), Header: e.Fx.Headers, Body: map[string]any{"transactions": items}})
	if r.Status != 200 || r.Body["trans_count"] != 500.0 || len(r.Body["errors"].([]any)) != 0 {
		t.Fatalf("status %d, trans_count %v, errors %v", r.Status, r.Body["trans_count"], r.Body["errors"])
	}
	list := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: testkit.TransPath(e.Fx.User.ID, e.Bank.ID), Header: e.Fx.Headers})
	if list.Body["trans_count"] != 500.0 || list.Body["page_count"] != 25.0 {
		t.Errorf("listed %v in %v pages, want 500 in 25", list.Body["trans_count"], list.Body["page_count"])
	}
}
