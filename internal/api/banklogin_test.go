package api_test

import (
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// TestBankLogin walks the sandbox's bank-login paths: each step is a POST
// /users/{uid}/nodes with the body shown and the answer expected.
func TestBankLogin(t *testing.T) {
	t.Parallel()
	type step struct {
		body      func(token string) any // token: the last MFA access_token
		status    int
		errorCode string
		code      string // error.code of a refusal
		mfaType   string // "question" or "code" on a 202
		nodes     int    // nodes linked on a 200
	}
	answer := func(a string) func(string) any {
		return func(tok string) any { return map[string]any{"access_token": tok, "mfa_answer": a} }
	}
	login := func(id, pw string) func(string) any { return func(string) any { return testkit.BankLoginBody(id, pw) } }
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"no MFA links checking and savings", []step{{body: login("synapse_nomfa", "test1234"), status: 200, errorCode: "0", nodes: 2}}},
		{"MFA then the right answer", []step{
			{body: login("synapse_good", "test1234"), status: 202, errorCode: "10", mfaType: "question"},
			{body: answer("test_answer"), status: 200, errorCode: "0", nodes: 2}}},
		{"MFA again then the right answer", []step{
			{body: login("synapse_good", "test1234_checking"), status: 202, errorCode: "10", mfaType: "question"},
			{body: answer("again"), status: 202, errorCode: "10", mfaType: "question"},
			{body: answer("test_answer"), status: 200, errorCode: "0", nodes: 3}}},
		{"MFA then a wrong answer, then the right one", []step{
			{body: login("synapse_good", "test1234"), status: 202, errorCode: "10", mfaType: "question"},
			{body: answer("wrong"), status: 409, errorCode: "400", code: "incorrect_mfa_answer"},
			{body: answer("test_answer"), status: 200, errorCode: "0", nodes: 2}}},
		{"code MFA", []step{
			{body: login("synapse_code_mfa", "test1234"), status: 202, errorCode: "10", mfaType: "code"},
			{body: answer("test_answer"), status: 409, errorCode: "400", code: "incorrect_mfa_answer"},
			{body: answer("123456"), status: 200, errorCode: "0", nodes: 2}}},
		{"a spent token", []step{
			{body: login("synapse_good", "test1234"), status: 202, errorCode: "10", mfaType: "question"},
			{body: answer("test_answer"), status: 200, errorCode: "0", nodes: 2},
			{body: answer("test_answer"), status: 409, errorCode: "400", code: "invalid_access_token"}}},
		{"wrong password", []step{{body: login("synapse_good", "nope"), status: 400, errorCode: "200", code: "invalid_bank_credentials"}}},
		{"unknown username", []step{{body: login("someone", "test1234"), status: 400, errorCode: "200", code: "invalid_bank_credentials"}}},
		{"no accounts", []step{{body: login("synapse_no_accounts", "test1234"), status: 402, errorCode: "460", code: "no_ach_accounts"}}},
		{"bank requests attention", []step{{body: login("synapse_bank_request", "test1234"), status: 402, errorCode: "500", code: "bank_requests_attention"}}},
		{"bank maintenance", []step{{body: login("synapse_maintenance", "test1234"), status: 503, errorCode: "503", code: "bank_unavailable"}}},
		{"missing bank_pw", []step{{body: func(string) any {
			return map[string]any{"type": "ACH-US", "info": map[string]any{"bank_id": "synapse_nomfa", "bank_name": "fake"}}
		}, status: 400, errorCode: "200", code: "missing_bank_pw"}}},
		{"bank_pw of the wrong type", []step{{body: func(string) any {
			return map[string]any{"type": "ACH-US", "info": map[string]any{"bank_id": "synapse_nomfa", "bank_pw": 1234, "bank_name": "fake"}}
		}, status: 400, errorCode: "200", code: "invalid_field_type"}}},
		{"answer without mfa_answer", []step{{body: func(string) any { return map[string]any{"access_token": "fake_x"} },
			status: 400, errorCode: "200", code: "missing_mfa_answer"}}},
		{"malformed JSON", []step{{body: func(string) any { return `{"type":"ACH-US",` }, status: 400, errorCode: "200", code: "invalid_json"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, synapsefake.WithMicroDeposits())
			fx := testkit.NewFixture(t, fake, 0)
			token := ""
			for i, st := range tc.steps {
				before := inspectNodes(t, fake, []string{fx.User.ID})
				r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: st.body(token)})
				switch st.status {
				case 202:
					mfa, _ := r.Body["mfa"].(map[string]any)
					tok, _ := mfa["access_token"].(string)
					if r.Status != 202 || r.Body["error_code"] != "10" || r.Body["http_code"] != "202" || r.Body["success"] != true ||
						mfa["type"] != st.mfaType || mfa["message"] == "" || len(tok) != len("fake_")+64 || tok == token {
						t.Fatalf("step %d: got %d %s, want 202 / 10 with a new %s question", i, r.Status, r.Raw, st.mfaType)
					}
					if _, has := r.Body["error"]; has {
						t.Errorf("step %d: 202 body carries error: %s", i, r.Raw)
					}
					token = tok
					wantUnchanged(t, fake, before)
				case 200:
					nodes, _ := r.Body["nodes"].([]any)
					if r.Status != 200 || r.Body["http_code"] != "200" || len(nodes) != st.nodes || r.Body["node_count"] != float64(st.nodes) {
						t.Fatalf("step %d: got %d %s, want 200 with %d nodes", i, r.Status, r.Raw, st.nodes)
					}
					for _, n := range nodes {
						n := n.(map[string]any)
						if n["type"] != "ACH-US" || n["allowed"] != "CREDIT-AND-DEBIT" || getPath(n, "info.balance.amount") != "800.00" {
							t.Errorf("step %d: linked node %v, want an ACH-US CREDIT-AND-DEBIT node holding 800.00", i, n)
						}
					}
					if u, _ := fake.User(fx.User.ID); len(u.NodeIDs) != 1+st.nodes {
						t.Errorf("step %d: user has %d nodes, want %d", i, len(u.NodeIDs), 1+st.nodes)
					}
				default:
					wantErrorStatus(t, r, st.status, st.errorCode, st.code)
					wantUnchanged(t, fake, before)
				}
			}
		})
	}
}

// TestBankLoginOtherUsersToken: an MFA token answers only for its user.
func TestBankLoginOtherUsersToken(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	other := otherUser(t, fake)
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: testkit.BankLoginBody("synapse_good", "test1234")})
	token := getPath(r.Body, "mfa.access_token")
	before := inspectNodes(t, fake, []string{fx.User.ID, other.User.ID})
	r = testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(other.User.ID), Header: other.Headers,
		Body: map[string]any{"access_token": token, "mfa_answer": "test_answer"}})
	wantErrorStatus(t, r, 401, "300", "unauthorized_access_token")
	wantUnchanged(t, fake, before)
}

// TestMicroDepositFlow runs the SDKs' documented micro-deposit calls in both
// modes: resend_micro as a query parameter, then {"micro":[0.1,0.1]}.
func TestMicroDepositFlow(t *testing.T) {
	t.Parallel()
	ach := map[string]any{"type": "ACH-US", "info": map[string]any{"nickname": "Fake Account",
		"account_num": "12322134", "routing_num": validRouting, "type": "PERSONAL", "class": "CHECKING"}}
	for _, tc := range []struct {
		name         string
		opts         []synapsefake.Option
		wantCreated  string
		resendQuery  string
		resendBody   any
		wantTimeline []string
	}{
		{"default mode, SynapsePy", nil, "CREDIT-AND-DEBIT", "?resend_micro=YES", map[string]any{},
			[]string{"Node created.", "Micro deposits initiated.", "Micro deposits verified."}},
		{"default mode, SynapseGo", nil, "CREDIT-AND-DEBIT", "?resend_micro=YES", `{"resend_micro":"YES"}`,
			[]string{"Node created.", "Micro deposits initiated.", "Micro deposits verified."}},
		{"micro-deposit mode", []synapsefake.Option{synapsefake.WithMicroDeposits()}, "CREDIT", "?resend_micro=YES", "",
			[]string{"Node created.", "Micro deposits initiated.", "Micro deposits initiated.", "Micro deposits verified."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, tc.opts...)
			fx := testkit.NewFixture(t, fake, 0)
			node := createdNode(t, fake, fx, ach)
			if node["allowed"] != tc.wantCreated {
				t.Errorf("allowed %v after create, want %s", node["allowed"], tc.wantCreated)
			}
			path := testkit.NodePath(fx.User.ID, node["_id"].(string))
			r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + tc.resendQuery, Header: fx.Headers, Body: tc.resendBody})
			if r.Status != 200 || r.Body["allowed"] != tc.wantCreated {
				t.Fatalf("resend_micro: %d %s, want 200 and allowed %s", r.Status, r.Raw, tc.wantCreated)
			}
			r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"micro": []float64{0.1, 0.1}}})
			if r.Status != 200 || r.Body["allowed"] != "CREDIT-AND-DEBIT" {
				t.Fatalf("verify: %d %s, want 200 and CREDIT-AND-DEBIT", r.Status, r.Raw)
			}
			var notes []string
			for _, e := range r.Body["timeline"].([]any) {
				notes = append(notes, e.(map[string]any)["note"].(string))
			}
			if diff := cmp.Diff(tc.wantTimeline, notes); diff != "" {
				t.Errorf("timeline notes (-want +got):\n%s", diff)
			}
			before := inspectNodes(t, fake, []string{fx.User.ID})
			for _, q := range []string{"?resend_micro=YES", ""} {
				r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + q, Header: fx.Headers, Body: map[string]any{"micro": []float64{0.1, 0.1}}})
				wantErrorStatus(t, r, 409, "410", "micro_not_pending")
			}
			// A flag other than YES or NO is no flag: nothing to change.
			r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + "?resend_micro=MAYBE", Header: fx.Headers, Body: ""})
			if r.Status != 200 {
				t.Errorf("?resend_micro=MAYBE: %d %s, want 200 and the node as it is", r.Status, r.Raw)
			}
			wantUnchanged(t, fake, before)
		})
	}
}

// TestCardNodeShipAndReset sends the SDKs' ship and reset calls: query
// parameters, with a JSON body, {} or an empty form-encoded body.
func TestCardNodeShipAndReset(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	card := createdNode(t, fake, fx, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "My Debit Card", "document_id": "doc"}})
	path := testkit.NodePath(fx.User.ID, card["_id"].(string))
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	for k, v := range fx.Headers {
		form[k] = v
	}

	r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + "?ship=YES", Header: fx.Headers,
		Body: map[string]any{"fee_node_id": fx.Node.ID, "expedite": true}})
	if r.Status != 200 || getPath(r.Body, "info.card_number") != getPath(card, "info.card_number") {
		t.Fatalf("ship: %d %s, want 200 and the same card", r.Status, r.Raw)
	}
	r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + "?reset=YES", Header: form, Body: ""})
	if r.Status != 200 || getPath(r.Body, "info.card_hash") == getPath(card, "info.card_hash") {
		t.Fatalf("reset: %d %s, want 200 and a new card", r.Status, r.Raw)
	}
	r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + "?reset=YES", Header: fx.Headers, Body: map[string]any{}})
	if r.Status != 200 {
		t.Fatalf("reset with {}: %d %s, want 200", r.Status, r.Raw)
	}
	r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: fx.Headers, Body: map[string]any{"allowed": "CREDIT-AND-DEBIT"}})
	if r.Status != 200 || r.Body["allowed"] != "CREDIT-AND-DEBIT" {
		t.Fatalf("activate: %d %s, want 200 CREDIT-AND-DEBIT", r.Status, r.Raw)
	}
	var notes []string
	for _, e := range r.Body["timeline"].([]any) {
		notes = append(notes, e.(map[string]any)["note"].(string))
	}
	if diff := cmp.Diff([]string{"Node created.", "Card Created.", "Card sent for printing.", "Card reset.", "Card reset."}, notes); diff != "" {
		t.Errorf("timeline notes (-want +got):\n%s", diff)
	}

	before := inspectNodes(t, fake, []string{fx.User.ID})
	for _, tc := range []struct {
		name, path string
		body       any
		status     int
		errorCode  string
		code       string
	}{
		{"allowed of an unknown value", path, map[string]any{"allowed": "OPEN"}, 400, "200", "invalid_allowed"},
		{"allowed of the wrong type", path, map[string]any{"allowed": 1}, 400, "200", "invalid_field_type"},
		{"reset on a deposit node", testkit.NodePath(fx.User.ID, fx.Node.ID) + "?reset=YES", "", 409, "410", "not_a_card_node"},
		{"resend_micro on a card", path + "?resend_micro=YES", "", 409, "410", "micro_not_pending"},
		{"malformed JSON", path + "?ship=YES", "{", 400, "200", "invalid_json"},
	} {
		r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: tc.path, Header: fx.Headers, Body: tc.body})
		t.Run(tc.name, func(t *testing.T) { wantErrorStatus(t, r, tc.status, tc.errorCode, tc.code) })
	}
	wantUnchanged(t, fake, before)
}

// TestACHNodeMatchesRecordedShape compares an ACH-US node made in
// micro-deposit mode with SynapsePy's recorded ach_us_get_response
// (node_fixtures.py), volatile fields aside.
func TestACHNodeMatchesRecordedShape(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithMicroDeposits())
	fx := testkit.NewFixture(t, fake, 0)
	got := createdNode(t, fake, fx, map[string]any{"type": "ACH-US", "info": map[string]any{"nickname": "Fake Account",
		"account_num": "12322134", "routing_num": "051000017", "type": "PERSONAL", "class": "CHECKING"}})
	recorded := map[string]any{
		"allowed":             "CREDIT",
		"allowed_status_code": nil,
		"extra":               map[string]any{"note": nil, "other": map[string]any{"access_token": nil, "updated_on": nil}, "supp_id": ""},
		"info": map[string]any{
			"account_num":     "2134",
			"address":         "8001 VILLA PARK DRIVE, HENRICO, VA, US",
			"balance":         map[string]any{"amount": "0.00", "currency": "USD"},
			"bank_logo":       "https://cdn.synapsepay.com/bank_logos/new/bofa.png",
			"bank_long_name":  "BANK OF AMERICA",
			"bank_name":       "BANK OF AMERICA",
			"class":           "CHECKING",
			"match_info":      map[string]any{"email_match": "not_found", "name_match": "not_found", "phonenumber_match": "not_found"},
			"name_on_account": " ",
			"nickname":        "Fake Account",
			"routing_num":     "0017",
			"type":            "PERSONAL",
		},
		"is_active": true,
		"timeline":  []any{map[string]any{"note": "Node created."}, map[string]any{"note": "Micro deposits initiated."}},
		"type":      "ACH-US",
	}
	// Volatile: ids, links, client, dates, the user's name and the logo's host.
	for _, k := range []string{"_id", "_links", "client", "user_id"} {
		delete(got, k)
	}
	for _, e := range got["timeline"].([]any) {
		delete(e.(map[string]any), "date")
	}
	setPath(got, "info.name_on_account", " ")
	setPath(got, "info.bank_logo", "https://cdn.synapsepay.com/bank_logos/new/bofa.png")
	if diff := cmp.Diff(recorded, got); diff != "" {
		t.Errorf("ACH-US node differs from the recorded one (-recorded +fake):\n%s", diff)
	}
}

// TestCardNodeReissueAndReorder sends synapse_pay_rest's CardUsNode
// #reissue_card and #reorder_card: PATCH with ?reissue_card=YES (a reset: a
// new card number) or ?reorder_card=YES (a shipment of the same card) and
// the body {}.
func TestCardNodeReissueAndReorder(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	card := createdNode(t, fake, fx, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "My Debit Card", "document_id": "doc"}})
	path := testkit.NodePath(fx.User.ID, card["_id"].(string))

	r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + "?reorder_card=YES", Header: fx.Headers, Body: map[string]any{}})
	if r.Status != 200 || getPath(r.Body, "info.card_hash") != getPath(card, "info.card_hash") {
		t.Fatalf("reorder_card: %d %s, want 200 and the same card", r.Status, r.Raw)
	}
	r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + "?reissue_card=YES", Header: fx.Headers, Body: map[string]any{}})
	if r.Status != 200 || getPath(r.Body, "info.card_hash") == getPath(card, "info.card_hash") {
		t.Fatalf("reissue_card: %d %s, want 200 and a new card", r.Status, r.Raw)
	}
	var notes []string
	for _, e := range r.Body["timeline"].([]any) {
		notes = append(notes, e.(map[string]any)["note"].(string))
	}
	if diff := cmp.Diff([]string{"Node created.", "Card Created.", "Card sent for printing.", "Card reset."}, notes); diff != "" {
		t.Errorf("timeline notes (-want +got):\n%s", diff)
	}

	before := inspectNodes(t, fake, []string{fx.User.ID})
	for _, tc := range []struct {
		name, path string
		status     int
		errorCode  string
		code       string
	}{
		{"reissue_card on a deposit node", testkit.NodePath(fx.User.ID, fx.Node.ID) + "?reissue_card=YES", 409, "410", "not_a_card_node"},
		{"reorder_card on a deposit node", testkit.NodePath(fx.User.ID, fx.Node.ID) + "?reorder_card=YES", 409, "410", "not_a_card_node"},
	} {
		r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: tc.path, Header: fx.Headers, Body: map[string]any{}})
		t.Run(tc.name, func(t *testing.T) { wantErrorStatus(t, r, tc.status, tc.errorCode, tc.code) })
	}
	wantUnchanged(t, fake, before)
}
