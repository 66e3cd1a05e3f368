package api_test

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// lastWebhook is the last webhook captured for a transaction.
func lastWebhook(t testing.TB, fake *synapsefake.Server, txID string) synapsefake.Webhook {
	t.Helper()
	var last synapsefake.Webhook
	for _, w := range fake.Webhooks().All() {
		if w.ObjectType == "TRAN" && w.ObjectID == txID {
			last = w
		}
	}
	if last.ObjectID == "" {
		t.Fatalf("no webhook of transaction %s", txID)
	}
	return last
}

// TestDisputeTransactionAsTheSDKsSend files disputes with the requests
// SynapseGo's DisputeTransaction and SynapsePy's dispute_trans send, and
// checks the docs' answer, the transaction's view, its webhook and the money.
func TestDisputeTransactionAsTheSDKsSend(t *testing.T) {
	for _, tc := range []struct {
		name            string
		amount          float64
		header          func(e testkit.DisputeEnv) map[string]string
		body            any
		wantReason      string
		wantMeta        any
		wantProvisional bool
	}{
		{
			name:   "SynapseGo DisputeTransaction (examples.md body)",
			amount: 40,
			header: func(e testkit.DisputeEnv) map[string]string {
				return map[string]string{"x-sp-gateway": e.Fake.Gateway(), "x-sp-user-ip": "127.0.0.1", "x-sp-user": e.Fx.Key + "|" + testkit.TestFingerprint}
			},
			body:       "{\n  \"dispute_reason\": \"CHARGE_BACK\"\n}",
			wantReason: "CHARGE_BACK",
			wantMeta:   map[string]any{},
		},
		{
			name:   "SynapsePy dispute_trans (samples.md arguments)",
			amount: 40,
			header: func(e testkit.DisputeEnv) map[string]string {
				h := testkit.UserHeaders(e.Fake, e.Fx.Key)
				h["X-SP-LANG"] = "en"
				return h
			},
			body: map[string]any{
				"dispute_reason": "Chargeback...",
				"dispute_meta": map[string]any{"type_of_merchandise_or_service": "groceries", "merchant_contacted": true,
					"contact_method": "phone", "contact_date": 1563474864000},
				"certification_date":  1579308186000,
				"dispute_attachments": []string{"data:image/gif;base64,SUQs=="},
			},
			wantReason: "Chargeback...",
			wantMeta: map[string]any{"type_of_merchandise_or_service": "groceries", "merchant_contacted": true,
				"contact_method": "phone", "contact_date": float64(1563474864000)},
		},
		{
			name:            "a debit of $25.00 or less gets a provisional credit",
			amount:          25,
			header:          func(e testkit.DisputeEnv) map[string]string { return e.Fx.Headers },
			body:            map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST", "dispute_meta": "lost on the bus"},
			wantReason:      "FRAUD|UNAUTHORIZED|CARD_LOST",
			wantMeta:        "lost on the bus",
			wantProvisional: true,
		},
		{
			name:            "returned merchandise gets a provisional credit",
			amount:          400,
			header:          func(e testkit.DisputeEnv) map[string]string { return e.Fx.Headers },
			body:            map[string]any{"dispute_reason": "SERVICE|MERCHANT|RETURNED_MERCH", "unknown_field": 1},
			wantReason:      "SERVICE|MERCHANT|RETURNED_MERCH",
			wantMeta:        map[string]any{},
			wantProvisional: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewDisputeEnv(t, synapsefake.WithImmediateProvisionalCredit())
			id := e.SettledDebit(t, tc.amount)
			paid := testkit.Balance(t, e.Fake, e.Fx.Node.ID)
			e.Mock.Add(time.Minute)
			filed := e.Fake.Now()

			r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: tc.header(e), Body: tc.body})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			tx := e.Tx(t, id)
			var provisional any
			if tc.wantProvisional {
				provisional = tx.DisputeCreditID
			}
			form := e.Fake.URL() + "/trans/" + id + "/dispute_form.pdf"
			wantAnswer := map[string]any{"dispute_form": form, "provisional_credit_tran": provisional, "success": true}
			if diff := cmp.Diff(wantAnswer, r.Body); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}

			view := e.Get(t, id).Body
			other := view["extra"].(map[string]any)["other"].(map[string]any)
			wantOther := map[string]any{"disputed": true, "dispute_reason": tc.wantReason, "dispute_meta": tc.wantMeta,
				"dispute_form": form, "dispute_status": "PENDING", "dispute_created_on": float64(filed.UnixMilli()),
				"provisional_credit_transaction_id": provisional}
			if diff := cmp.Diff(wantOther, other); diff != "" {
				t.Errorf("extra.other (-want +got):\n%s", diff)
			}
			wantStatus := map[string]any{"date": float64(filed.UnixMilli()), "note": "Transaction disputed: " + tc.wantReason + ".",
				"status": "SETTLED", "status_id": "4"}
			if diff := cmp.Diff(wantStatus, view["recent_status"]); diff != "" {
				t.Errorf("recent_status (-want +got):\n%s", diff)
			}
			hook := lastWebhook(t, e.Fake, id)
			if hook.Function != "TRAN|PATCH" || hook.Status != "SETTLED" || hook.UpdatedBy != "SELF" {
				t.Errorf("webhook %s %s by %s, want TRAN|PATCH SETTLED by SELF", hook.Function, hook.Status, hook.UpdatedBy)
			}
			if tx.Dispute != synapsefake.DisputePending {
				t.Errorf("Dispute = %q, want PENDING", tx.Dispute)
			}

			want := paid
			if tc.wantProvisional {
				want += int64(tc.amount * 100)
				c := e.Tx(t, tx.DisputeCreditID)
				if c.Status != synapsefake.StatusSettled || c.FromNodeID != e.Merchant.ID || c.ToNodeID != e.Fx.Node.ID {
					t.Errorf("provisional credit %s from %s to %s, want SETTLED from the merchant to the sender", c.Status, c.FromNodeID, c.ToNodeID)
				}
			} else if tx.DisputeCreditID != "" {
				t.Errorf("DisputeCreditID = %q, want none", tx.DisputeCreditID)
			}
			if got := testkit.Balance(t, e.Fake, e.Fx.Node.ID); got != want {
				t.Errorf("sender balance %d, want %d", got, want)
			}
		})
	}
}

// TestDisputeTransactionRefusals: bad input gets the real error envelope and
// changes nothing.
func TestDisputeTransactionRefusals(t *testing.T) {
	t.Parallel()
	e := testkit.NewDisputeEnv(t)
	debit := e.SettledDebit(t, 40)
	internal := e.Create(t, e.Payee.Node, 10)
	if err := e.Fake.Settle(internal); err != nil {
		t.Fatal(err)
	}
	pending := e.Create(t, e.Merchant, 10)
	disputed := e.SettledDebit(t, 30)
	if r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, disputed), Header: e.Fx.Headers,
		Body: map[string]any{"dispute_reason": "CHARGE_BACK"}}); r.Status != http.StatusOK {
		t.Fatalf("first dispute: %d %s", r.Status, r.Raw)
	}
	good := map[string]any{"dispute_reason": "CHARGE_BACK"}
	own := testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, debit)
	withHeader := func(k, v string) map[string]string {
		h := testkit.UserHeaders(e.Fake, e.Fx.Key)
		if v == "" {
			delete(h, k)
		} else {
			h[k] = v
		}
		return h
	}

	for _, tc := range []struct {
		name      string
		path      string
		header    map[string]string
		body      any
		status    int
		errorCode string
		code      string
	}{
		{"malformed JSON", own, e.Fx.Headers, `{"dispute_reason":`, 400, "200", "invalid_json"},
		{"not an object", own, e.Fx.Headers, `["CHARGE_BACK"]`, 400, "200", "invalid_json"},
		{"empty body", own, e.Fx.Headers, ``, 400, "200", "invalid_json"},
		{"reason of the wrong type", own, e.Fx.Headers, map[string]any{"dispute_reason": 5}, 400, "200", "invalid_field_type"},
		{"meta of the wrong type", own, e.Fx.Headers, map[string]any{"dispute_reason": "X", "dispute_meta": 5}, 400, "200", "invalid_field_type"},
		{"meta an array", own, e.Fx.Headers, map[string]any{"dispute_reason": "X", "dispute_meta": []int{1}}, 400, "200", "invalid_field_type"},
		{"certification_date a string", own, e.Fx.Headers, map[string]any{"dispute_reason": "X", "certification_date": "today"}, 400, "200", "invalid_field_type"},
		{"attachments not an array", own, e.Fx.Headers, map[string]any{"dispute_reason": "X", "dispute_attachments": "SUQs"}, 400, "200", "invalid_field_type"},
		{"an empty attachment", own, e.Fx.Headers, map[string]any{"dispute_reason": "X", "dispute_attachments": []string{""}}, 400, "200", "invalid_attachment"},
		{"missing dispute_reason", own, e.Fx.Headers, map[string]any{"dispute_meta": map[string]any{}}, 400, "200", "missing_dispute_reason"},
		{"blank dispute_reason", own, e.Fx.Headers, map[string]any{"dispute_reason": "  "}, 400, "200", "missing_dispute_reason"},
		{"dispute_reason too long", own, e.Fx.Headers, map[string]any{"dispute_reason": strings.Repeat("x", synapsefake.MaxDisputeReasonLength+1)}, 400, "200", "dispute_reason_too_long"},
		{"wrong gateway", own, withHeader("X-SP-GATEWAY", "client_id_x|client_secret_y"), good, 401, "100", ""},
		{"missing X-SP-USER", own, withHeader("X-SP-USER", ""), good, 400, "200", "missing_user_credentials"},
		{"missing oauth key", own, withHeader("X-SP-USER", "|"+testkit.TestFingerprint), good, 401, "300", "missing_oauth_key"},
		{"invalid oauth key", own, withHeader("X-SP-USER", "oauth_nope|"+testkit.TestFingerprint), good, 401, "110", ""},
		{"missing X-SP-USER-IP", own, withHeader("X-SP-USER-IP", ""), good, 400, "200", "missing_user_ip"},
		{"unknown transaction", testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, "0123456789abcdef01234567"), e.Fx.Headers, good, 404, "404", ""},
		{"unknown node", testkit.DisputePath(e.Fx.User.ID, "0123456789abcdef01234567", debit), e.Fx.Headers, good, 404, "404", ""},
		{"another user's path", own, e.Payee.Headers, good, 401, "300", ""},
		{"another user's transaction", testkit.DisputePath(e.Payee.User.ID, e.Payee.Node.ID, debit), e.Payee.Headers, good, 401, "300", "unauthorized_transaction"},
		{"a credit, disputed by its receiver", testkit.DisputePath(e.Payee.User.ID, e.Payee.Node.ID, internal), e.Payee.Headers, good, 409, "400", "not_disputable"},
		{"a transfer inside the platform", testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, internal), e.Fx.Headers, good, 409, "400", "not_disputable"},
		{"a debit not yet settled", testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, pending), e.Fx.Headers, good, 409, "400", "not_disputable"},
		{"disputed twice", testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, disputed), e.Fx.Headers, good, 409, "400", "already_disputed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before []synapsefake.Transaction
			for _, id := range []string{debit, internal, pending, disputed} {
				before = append(before, e.Tx(t, id))
			}
			balances := e.Balances(t)
			hooks := len(e.Fake.Webhooks().All())

			r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: tc.path, Header: tc.header, Body: tc.body})
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)

			var after []synapsefake.Transaction
			for _, id := range []string{debit, internal, pending, disputed} {
				after = append(after, e.Tx(t, id))
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("transactions changed (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(balances, e.Balances(t)); diff != "" {
				t.Errorf("balances changed (-before +after):\n%s", diff)
			}
			if n := len(e.Fake.Webhooks().All()); n != hooks {
				t.Errorf("%d webhooks after the refusal, want %d", n, hooks)
			}
		})
	}
}

// chargebackEnv has a platform deposit node funded from a card
// (INTERCHANGE-US) and charged back with IR999.
type chargebackEnv struct {
	testkit.DisputeEnv
	card synapsefake.Node
	id   string
}

func newChargebackEnv(t testing.TB) chargebackEnv {
	t.Helper()
	e := testkit.NewDisputeEnv(t)
	card := testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: "INTERCHANGE-US", Nickname: "Card"})
	id := e.CreateFrom(t, e.Fx, card, testkit.TxBody(e.Fx.Node, 50))
	if err := e.Fake.Settle(id); err != nil {
		t.Fatal(err)
	}
	if err := e.Fake.Return(id, "IR999"); err != nil {
		t.Fatal(err)
	}
	return chargebackEnv{DisputeEnv: e, card: card, id: id}
}

func chargebackPath(txID string) string { return "/trans/" + txID + "/dispute-chargeback" }

// TestDisputeChargeback files the platform's dispute of a chargeback as
// SynapsePy's dispute_chargeback sends it, then wins it.
func TestDisputeChargeback(t *testing.T) {
	for _, tc := range []struct {
		name            string
		body            any
		wantAttachments []any
	}{
		{"SynapsePy dispute_chargeback with no documents", map[string]any{}, []any{}},
		{"with documents", map[string]any{"docs": []string{"data:application/pdf;base64,SUQs=="}}, []any{"chargeback_docs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newChargebackEnv(t)
			charged := testkit.Balance(t, e.Fake, e.Fx.Node.ID)
			h := testkit.GatewayHeaders(e.Fake)
			h["X-SP-LANG"] = "en"
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: chargebackPath(e.id), Header: h, Body: tc.body})
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			if r.Body["success"] != true || r.Body["_id"] != e.id {
				t.Errorf("answer success %v _id %v, want the transaction %s", r.Body["success"], r.Body["_id"], e.id)
			}
			other := r.Body["extra"].(map[string]any)["other"].(map[string]any)
			for i, a := range tc.wantAttachments {
				tc.wantAttachments[i] = e.Fake.URL() + "/trans/" + e.id + "/" + a.(string) + ".pdf"
			}
			want := map[string]any{"chargeback_disputed": true, "attachments": tc.wantAttachments, "dispute_status": "PENDING"}
			if diff := cmp.Diff(want, other); diff != "" {
				t.Errorf("extra.other (-want +got):\n%s", diff)
			}
			rs := r.Body["recent_status"].(map[string]any)
			if rs["status"] != "RETURNED" || rs["code"] != "IR999" || rs["note"] != "Chargeback disputed." {
				t.Errorf("recent_status %v, want RETURNED IR999 with the note Chargeback disputed.", rs)
			}
			if hook := lastWebhook(t, e.Fake, e.id); hook.Function != "TRAN|PATCH" || hook.Code != "IR999" {
				t.Errorf("webhook %s code %s, want TRAN|PATCH IR999", hook.Function, hook.Code)
			}

			if err := e.Fake.WinDispute(e.id); err != nil {
				t.Fatalf("WinDispute: %v", err)
			}
			tx := e.Tx(t, e.id)
			c := e.Tx(t, tx.DisputeCreditID)
			if tx.Dispute != synapsefake.DisputeWon || c.Status != synapsefake.StatusSettled || c.FromNodeID != e.card.ID || c.ToNodeID != e.Fx.Node.ID {
				t.Errorf("after WinDispute: dispute %s, credit %s from %s to %s; want WON and a SETTLED credit from the card", tx.Dispute, c.Status, c.FromNodeID, c.ToNodeID)
			}
			if got := testkit.Balance(t, e.Fake, e.Fx.Node.ID); got != charged+50_00 {
				t.Errorf("platform balance %d, want %d", got, charged+50_00)
			}
		})
	}
}

// TestDisputeChargebackRefusals: only a recent IR999 return of an
// INTERCHANGE-US transaction, once, with the gateway.
func TestDisputeChargebackRefusals(t *testing.T) {
	t.Parallel()
	e := newChargebackEnv(t)
	settled := e.CreateFrom(t, e.Fx, e.card, testkit.TxBody(e.Fx.Node, 5))
	otherCode := e.CreateFrom(t, e.Fx, e.card, testkit.TxBody(e.Fx.Node, 5))
	for _, err := range []error{e.Fake.Settle(settled), e.Fake.Return(otherCode, "IR51")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	external := e.SettledDebit(t, 5)
	if err := e.Fake.Return(external, "IR999"); err != nil {
		t.Fatal(err)
	}
	twice := e.CreateFrom(t, e.Fx, e.card, testkit.TxBody(e.Fx.Node, 5))
	for _, err := range []error{e.Fake.Settle(twice), e.Fake.Return(twice, "IR999")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: chargebackPath(twice), Header: testkit.GatewayHeaders(e.Fake), Body: map[string]any{}}); r.Status != 200 {
		t.Fatalf("first chargeback dispute: %d %s", r.Status, r.Raw)
	}
	gw := testkit.GatewayHeaders(e.Fake)
	noGateway := testkit.GatewayHeaders(e.Fake)
	delete(noGateway, "X-SP-GATEWAY")
	badGateway := testkit.GatewayHeaders(e.Fake)
	badGateway["X-SP-GATEWAY"] = "client_id_x|client_secret_y"
	ids := []string{e.id, settled, otherCode, external, twice}

	for _, tc := range []struct {
		name      string
		id        string
		header    map[string]string
		body      any
		status    int
		errorCode string
		code      string
	}{
		{"missing gateway", e.id, noGateway, map[string]any{}, 400, "100", "missing_client_credentials"},
		{"wrong gateway", e.id, badGateway, map[string]any{}, 401, "100", "invalid_client_credentials"},
		{"malformed JSON", e.id, gw, `{"docs":`, 400, "200", "invalid_json"},
		{"docs not an array", e.id, gw, map[string]any{"docs": "SUQs"}, 400, "200", "invalid_field_type"},
		{"docs of numbers", e.id, gw, map[string]any{"docs": []int{1}}, 400, "200", "invalid_field_type"},
		{"unknown transaction", "0123456789abcdef01234567", gw, map[string]any{}, 404, "404", ""},
		{"settled, not charged back", settled, gw, map[string]any{}, 409, "400", "not_disputable"},
		{"returned with another code", otherCode, gw, map[string]any{}, 409, "400", "not_disputable"},
		{"not an INTERCHANGE-US transaction", external, gw, map[string]any{}, 409, "400", "not_disputable"},
		{"disputed twice", twice, gw, map[string]any{}, 409, "400", "already_disputed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before []synapsefake.Transaction
			for _, id := range ids {
				before = append(before, e.Tx(t, id))
			}
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: chargebackPath(tc.id), Header: tc.header, Body: tc.body})
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
			var after []synapsefake.Transaction
			for _, id := range ids {
				after = append(after, e.Tx(t, id))
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("transactions changed (-before +after):\n%s", diff)
			}
		})
	}

	t.Run("older than 14 days", func(t *testing.T) {
		e.Fake.Advance(14*24*time.Hour + time.Millisecond)
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: chargebackPath(e.id), Header: gw, Body: map[string]any{}})
		testkit.WantError(t, r, 409, "400", "not_disputable")
		if d := e.Tx(t, e.id).Dispute; d != synapsefake.DisputeNone {
			t.Errorf("Dispute = %q after the refusal, want none", d)
		}
	})
}

// TestResolveDispute decides disputes with the Go helpers and the control
// API and checks where the money ends.
func TestResolveDispute(t *testing.T) {
	for _, tc := range []struct {
		name       string
		amount     float64
		won        bool
		viaControl bool
		// wantSender is the sender's balance after the decision, from 1000_00.
		wantSender int64
		wantCredit synapsefake.Status // "" for no credit
		wantNote   string
	}{
		{"won: the debit comes back", 40, true, false, 1000_00, synapsefake.StatusSettled, "Dispute won."},
		{"lost: nothing moves", 40, false, false, 960_00, "", "Dispute lost."},
		{"won after a provisional credit: it stays", 20, true, false, 1000_00, synapsefake.StatusSettled, "Dispute won."},
		{"lost after a provisional credit: it is returned", 20, false, false, 980_00, synapsefake.StatusReturned, "Dispute lost."},
		{"won through the control API", 40, true, true, 1000_00, synapsefake.StatusSettled, "Dispute won."},
		{"lost through the control API", 20, false, true, 980_00, synapsefake.StatusReturned, "Dispute lost."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewDisputeEnv(t, synapsefake.WithImmediateProvisionalCredit())
			id := e.SettledDebit(t, tc.amount)
			merchant := testkit.Balance(t, e.Fake, e.Merchant.ID)
			if r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers,
				Body: map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"}}); r.Status != 200 {
				t.Fatalf("dispute: %d %s", r.Status, r.Raw)
			}
			switch {
			case tc.viaControl:
				outcome := map[bool]string{true: "won", false: "lost"}[tc.won]
				body := testkit.CtlOK(t, e.Fake, "POST", "/transactions/"+id+"/dispute", map[string]any{"outcome": outcome})
				tx := e.Tx(t, id)
				if body["dispute_status"] != string(tx.Dispute) || body["dispute_credit_transaction_id"] != tx.DisputeCreditID {
					t.Errorf("control answer %v, want dispute_status %s and credit %q", body, tx.Dispute, tx.DisputeCreditID)
				}
			case tc.won:
				if err := e.Fake.WinDispute(id); err != nil {
					t.Fatal(err)
				}
			default:
				if err := e.Fake.LoseDispute(id); err != nil {
					t.Fatal(err)
				}
			}
			tx := e.Tx(t, id)
			want := synapsefake.DisputeLost
			if tc.won {
				want = synapsefake.DisputeWon
			}
			if tx.Dispute != want {
				t.Errorf("Dispute = %s, want %s", tx.Dispute, want)
			}
			if last := tx.Timeline[len(tx.Timeline)-1]; last.Status != synapsefake.StatusSettled || last.Note != tc.wantNote {
				t.Errorf("last timeline entry %s %q, want SETTLED %q", last.Status, last.Note, tc.wantNote)
			}
			hook := lastWebhook(t, e.Fake, id)
			if hook.Function != "TRAN|PATCH" || hook.UpdatedBy != "BACKEND" {
				t.Errorf("webhook %s by %s, want TRAN|PATCH by BACKEND", hook.Function, hook.UpdatedBy)
			}
			if got := testkit.Balance(t, e.Fake, e.Fx.Node.ID); got != tc.wantSender {
				t.Errorf("sender balance %d, want %d", got, tc.wantSender)
			}
			if got, moved := testkit.Balance(t, e.Fake, e.Merchant.ID), tc.wantSender-(1000_00-int64(tc.amount*100)); got != merchant-moved {
				t.Errorf("merchant balance %d, want %d", got, merchant-moved)
			}
			if tc.wantCredit == "" {
				if tx.DisputeCreditID != "" {
					t.Errorf("DisputeCreditID = %q, want none", tx.DisputeCreditID)
				}
				return
			}
			c := e.Tx(t, tx.DisputeCreditID)
			if c.Status != tc.wantCredit {
				t.Errorf("credit %s, want %s", c.Status, tc.wantCredit)
			}
			view := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, c.ID), Header: e.Fx.Headers}).Body
			meta := view["from"].(map[string]any)["meta"].(map[string]any)
			if diff := cmp.Diff(map[string]any{"dispute_transaction_id": id, "is_dispute_posting": true}, meta); diff != "" {
				t.Errorf("credit from.meta (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResolveDisputeRefusals: a decision needs a pending dispute; the
// control API refuses a bad outcome.
func TestResolveDisputeRefusals(t *testing.T) {
	t.Parallel()
	e := testkit.NewDisputeEnv(t)
	plain := e.SettledDebit(t, 40)
	decided := e.SettledDebit(t, 40)
	if r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, decided), Header: e.Fx.Headers,
		Body: map[string]any{"dispute_reason": "CHARGE_BACK"}}); r.Status != 200 {
		t.Fatalf("dispute: %d %s", r.Status, r.Raw)
	}
	if err := e.Fake.LoseDispute(decided); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		fn   func(string) error
		id   string
	}{
		{"win an undisputed transaction", e.Fake.WinDispute, plain},
		{"lose an undisputed transaction", e.Fake.LoseDispute, plain},
		{"win a decided dispute", e.Fake.WinDispute, decided},
		{"lose a decided dispute", e.Fake.LoseDispute, decided},
		{"win an unknown transaction", e.Fake.WinDispute, "0123456789abcdef01234567"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			balances := e.Balances(t)
			if err := tc.fn(tc.id); err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(balances, e.Balances(t)); diff != "" {
				t.Errorf("balances changed (-before +after):\n%s", diff)
			}
		})
	}
	for _, tc := range []struct {
		name      string
		id        string
		body      any
		status    int
		errorCode string
		code      string
	}{
		{"missing outcome", decided, map[string]any{}, 400, "200", "invalid_outcome"},
		{"unknown outcome", decided, map[string]any{"outcome": "maybe"}, 400, "200", "invalid_outcome"},
		{"outcome of the wrong type", decided, map[string]any{"outcome": true}, 400, "200", "invalid_field_type"},
		{"unknown field", decided, map[string]any{"outcome": "won", "winner": "me"}, 400, "200", "unknown_field"},
		{"unknown transaction", "0123456789abcdef01234567", map[string]any{"outcome": "won"}, 404, "404", ""},
		{"not disputed", plain, map[string]any{"outcome": "won"}, 409, "400", "not_disputed"},
		{"already decided", decided, map[string]any{"outcome": "won"}, 409, "400", "dispute_decided"},
	} {
		t.Run("control API: "+tc.name, func(t *testing.T) {
			before := []synapsefake.Transaction{e.Tx(t, plain), e.Tx(t, decided)}
			r := testkit.Ctl(t, e.Fake, "POST", "/transactions/"+tc.id+"/dispute", tc.body)
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
			if diff := cmp.Diff(before, []synapsefake.Transaction{e.Tx(t, plain), e.Tx(t, decided)}); diff != "" {
				t.Errorf("transactions changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestDisputesConserveMoney files and decides disputes at random, by the
// user and as chargebacks, and checks after each step that the balances of
// every node involved add up to what they held at the start.
func TestDisputesConserveMoney(t *testing.T) {
	t.Parallel()
	e := newChargebackEnv(t)
	nodes := []string{e.Fx.Node.ID, e.Merchant.ID, e.card.ID}
	total := func() int64 {
		var sum int64
		for _, id := range nodes {
			sum += testkit.Balance(t, e.Fake, id)
		}
		return sum
	}
	want := total()
	rng := rand.New(rand.NewPCG(20261122, 12))
	reasons := []string{"CHARGE_BACK", "SERVICE|MERCHANT|RETURNED_MERCH", "FRAUD|UNAUTHORIZED|CARD_LOST"}
	var disputed []string
	done := map[string]int{}
	for step := range 120 {
		var op string
		var err error
		switch rng.IntN(4) {
		case 0:
			op = "dispute"
			id := e.SettledDebit(t, float64(rng.IntN(30_00)+1)/100)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers,
				Body: map[string]any{"dispute_reason": reasons[rng.IntN(len(reasons))]}})
			if r.Status == 200 {
				disputed = append(disputed, id)
			} else {
				err = errorf(r)
			}
		case 1:
			op = "chargeback"
			id := e.CreateFrom(t, e.Fx, e.card, testkit.TxBody(e.Fx.Node, float64(rng.IntN(30_00)+1)/100))
			if err = e.Fake.Settle(id); err == nil {
				err = e.Fake.Return(id, "IR999")
			}
			if err == nil {
				r := testkit.Do(t, e.Fake, testkit.Call{Method: "PATCH", Path: chargebackPath(id), Header: testkit.GatewayHeaders(e.Fake), Body: map[string]any{}})
				if r.Status == 200 {
					disputed = append(disputed, id)
				} else {
					err = errorf(r)
				}
			}
		default:
			if len(disputed) == 0 {
				continue
			}
			id := disputed[rng.IntN(len(disputed))]
			if rng.IntN(2) == 0 {
				op, err = "win", e.Fake.WinDispute(id)
			} else {
				op, err = "lose", e.Fake.LoseDispute(id)
			}
		}
		if err == nil {
			done[op]++
		}
		if got := total(); got != want {
			t.Fatalf("step %d (%s, error %v): balances add up to %d, want %d", step, op, err, got, want)
		}
	}
	for _, op := range []string{"dispute", "chargeback", "win", "lose"} {
		if done[op] == 0 {
			t.Errorf("no %s succeeded", op)
		}
	}
}

func errorf(r testkit.Response) error { return &httpError{r} }

type httpError struct{ r testkit.Response }

func (e *httpError) Error() string { return string(e.r.Raw) }

// purchase is a settled debit of a user's node to a node outside the
// platform, which the user may dispute.
type purchase struct {
	testkit.DisputeEnv
	id       string
	sender   string // the user's node
	receiver string // the node outside the platform
}

// newPurchase makes a settled purchase of amount cents: "card", a force
// post of a card on a node of $100.00 to the card network; "ach", a
// transfer of the $1,000.00 node to another user's ACH-US node; "external",
// to the merchant's EXTERNAL-US node. rule adds, before the purchase, a
// return rule returning it with R10 a day after it settles.
func newPurchase(t *testing.T, kind string, amount int64, rule bool) purchase {
	t.Helper()
	return newPurchaseWith(t, kind, amount, rule, synapsefake.WithImmediateProvisionalCredit())
}

// newPurchaseWith is newPurchase on a server built with opts.
func newPurchaseWith(t *testing.T, kind string, amount int64, rule bool, opts ...synapsefake.Option) purchase {
	t.Helper()
	p := purchase{DisputeEnv: testkit.NewDisputeEnv(t, opts...)}
	e := p.DisputeEnv
	to := e.Merchant
	if kind == "ach" {
		to = testkit.AddTxNode(t, e.Fake, e.Merchant.UserID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Merchant bank",
			AccountNum: "987654321", RoutingNum: "051000017"})
	}
	if rule {
		if _, err := e.Fake.AddReturnRule(synapsefake.ReturnRule{AmountCents: amount, Code: "R10", After: 24 * time.Hour}); err != nil {
			t.Fatal(err)
		}
	}
	if kind == "card" {
		cardFx := e.Fx
		cardFx.Node = testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Nickname: "Card account", BalanceCents: 100_00})
		card := testkit.AddSubnet(t, e.Fake, cardFx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD", Status: synapsefake.SubnetActive})
		tx, err := e.Fake.ForcePost(card.ID, synapsefake.CardAuth{AmountCents: amount})
		if err != nil {
			t.Fatal(err)
		}
		p.id, p.sender, p.receiver = tx.ID, tx.FromNodeID, tx.ToNodeID
		return p
	}
	p.id = e.Create(t, to, float64(amount)/100)
	if err := e.Fake.Settle(p.id); err != nil {
		t.Fatal(err)
	}
	p.sender, p.receiver = e.Fx.Node.ID, to.ID
	return p
}

// credit is the purchase's dispute credit, "" for none.
func (p purchase) credit(t testing.TB) string { return p.Tx(t, p.id).DisputeCreditID }

// purchaseStep is one move of TestDisputeAndReturnPayOnce.
type purchaseStep struct {
	name string
	do   func(t *testing.T, p purchase) error
	want string // the refusal's error.code; "" for success
}

func disputeStep(want string) purchaseStep {
	return purchaseStep{"dispute", func(t *testing.T, p purchase) error {
		return testkit.RespErr(testkit.Do(t, p.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(p.Fx.User.ID, p.sender, p.id), Header: p.Fx.Headers,
			Body: map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"}}))
	}, want}
}

func winStep(want string) purchaseStep {
	return purchaseStep{"win", func(t *testing.T, p purchase) error { return p.Fake.WinDispute(p.id) }, want}
}

func loseStep(want string) purchaseStep {
	return purchaseStep{"lose", func(t *testing.T, p purchase) error { return p.Fake.LoseDispute(p.id) }, want}
}

func returnStep(code, want string) purchaseStep {
	return purchaseStep{"return " + code, func(t *testing.T, p purchase) error { return p.Fake.Return(p.id, code) }, want}
}

func chargebackStep(want string) purchaseStep {
	return purchaseStep{"chargeback", func(t *testing.T, p purchase) error {
		return testkit.RespErr(testkit.Do(t, p.Fake, testkit.Call{Method: "PATCH", Path: chargebackPath(p.id), Header: testkit.GatewayHeaders(p.Fake), Body: map[string]any{}}))
	}, want}
}

func advanceStep(d time.Duration) purchaseStep {
	return purchaseStep{"advance " + d.String(), func(t *testing.T, p purchase) error { p.Fake.Advance(d); return nil }, ""}
}

// refusalEnvelope is the HTTP status and error_code of each refusal.
var refusalEnvelope = map[string]string{
	"transaction_disputed": "(error_code 410, http 409)",
	"dispute_posting":      "(error_code 410, http 409)",
	"not_disputable":       "(error_code 400, http 409)",
	"dispute_decided":      "(error_code 400, http 409)",
}

// TestDisputeAndReturnPayOnce: a disputed transaction is not also
// returned, by any road (the Go helpers, the control API, a planned return
// or a return rule falling due), and a dispute's credit moves only by the
// dispute's decision; no sequence of dispute, return, chargeback and
// decision pays the user twice. Each refusal changes nothing.
func TestDisputeAndReturnPayOnce(t *testing.T) {
	t.Parallel()
	disputed := "transaction_disputed"
	for _, tc := range []struct {
		name   string
		kind   string
		amount int64
		rule   bool
		steps  []purchaseStep
		// The sender's and the receiver's balances at the end.
		wantSender, wantReceiver int64
		wantNote                 string // a note of the purchase's timeline, "" to skip
	}{
		{name: "card $20: dispute (provisional credit), return IR999", kind: "card", amount: 20_00,
			steps:      []purchaseStep{disputeStep(""), returnStep("IR999", disputed)},
			wantSender: 100_00, wantReceiver: 0},
		{name: "ACH to another user's ACH-US: dispute, return R10", kind: "ach", amount: 20_00,
			steps:      []purchaseStep{disputeStep(""), returnStep("R10", disputed)},
			wantSender: 1000_00, wantReceiver: 0},
		{name: "$40 (no provisional credit): dispute, return, win", kind: "external", amount: 40_00,
			steps:      []purchaseStep{disputeStep(""), returnStep("R10", disputed), winStep("")},
			wantSender: 1000_00, wantReceiver: 0},
		{name: "$40: dispute, win, return", kind: "external", amount: 40_00,
			steps:      []purchaseStep{disputeStep(""), winStep(""), returnStep("R10", disputed)},
			wantSender: 1000_00, wantReceiver: 0},
		{name: "$20: dispute, lose, return", kind: "external", amount: 20_00,
			steps:      []purchaseStep{disputeStep(""), loseStep(""), returnStep("R10", disputed)},
			wantSender: 980_00, wantReceiver: 20_00},
		{name: "$40: dispute, then every other road to RETURNED", kind: "external", amount: 40_00,
			steps: []purchaseStep{disputeStep(""),
				{"late return", func(t *testing.T, p purchase) error { return p.Fake.Return(p.id, "R01", synapsefake.PastWindow()) }, disputed},
				{"schedule return", func(t *testing.T, p purchase) error {
					return p.Fake.Return(p.id, "R10", synapsefake.AfterSettlement(time.Hour))
				}, disputed},
				{"schedule late return", func(t *testing.T, p purchase) error {
					return p.Fake.Return(p.id, "R01", synapsefake.AfterSettlement(0), synapsefake.PastWindow())
				}, disputed},
				{"advance to RETURNED", func(t *testing.T, p purchase) error {
					return p.Fake.AdvanceTransaction(p.id, synapsefake.StatusReturned)
				}, disputed},
				{"control return", func(t *testing.T, p purchase) error {
					return testkit.RespErr(testkit.Ctl(t, p.Fake, "POST", "/transactions/"+p.id+"/return", map[string]any{"code": "R10"}))
				}, disputed},
				{"control late return", func(t *testing.T, p purchase) error {
					return testkit.RespErr(testkit.Ctl(t, p.Fake, "POST", "/transactions/"+p.id+"/return", map[string]any{"code": "R01", "late": true}))
				}, disputed},
				{"control schedule-return", func(t *testing.T, p purchase) error {
					return testkit.RespErr(testkit.Ctl(t, p.Fake, "POST", "/transactions/"+p.id+"/schedule-return", map[string]any{"code": "R10", "after": "1h"}))
				}, disputed},
				winStep(""),
			},
			wantSender: 1000_00, wantReceiver: 0},
		{name: "$20: return, dispute", kind: "external", amount: 20_00,
			steps:      []purchaseStep{returnStep("R10", ""), disputeStep("not_disputable")},
			wantSender: 1000_00, wantReceiver: 0},
		{name: "$20: return planned, dispute, the return falls due", kind: "external", amount: 20_00,
			steps: []purchaseStep{
				{"schedule return", func(t *testing.T, p purchase) error {
					return p.Fake.Return(p.id, "R10", synapsefake.AfterSettlement(24*time.Hour))
				}, ""},
				disputeStep(""), advanceStep(48 * time.Hour)},
			wantSender: 1000_00, wantReceiver: 0, wantNote: "Planned return R10 not made: transaction disputed."},
		{name: "$20: return rule, dispute, the return falls due", kind: "ach", amount: 20_00, rule: true,
			steps:      []purchaseStep{disputeStep(""), advanceStep(48 * time.Hour), loseStep("")},
			wantSender: 980_00, wantReceiver: 20_00, wantNote: "Planned return R10 not made: transaction disputed."},
		{name: "$20: the provisional credit is not returned, but a lost dispute takes it back", kind: "external", amount: 20_00,
			steps: []purchaseStep{disputeStep(""),
				{"return the credit", func(t *testing.T, p purchase) error { return p.Fake.Return(p.credit(t), "R01") }, "dispute_posting"},
				{"advance the credit to RETURNED", func(t *testing.T, p purchase) error {
					return p.Fake.AdvanceTransaction(p.credit(t), synapsefake.StatusReturned)
				}, "dispute_posting"},
				loseStep(""), loseStep("dispute_decided")},
			wantSender: 980_00, wantReceiver: 20_00},
		{name: "$40: the won dispute's credit is not returned", kind: "external", amount: 40_00,
			steps: []purchaseStep{disputeStep(""), winStep(""),
				{"schedule the credit's return", func(t *testing.T, p purchase) error {
					return p.Fake.Return(p.credit(t), "R01", synapsefake.AfterSettlement(0))
				}, "dispute_posting"}},
			wantSender: 1000_00, wantReceiver: 0},
		{name: "card $20: chargeback won, its credit neither returned nor disputed", kind: "card", amount: 20_00,
			steps: []purchaseStep{returnStep("IR999", ""), chargebackStep(""), winStep(""),
				{"return the credit", func(t *testing.T, p purchase) error { return p.Fake.Return(p.credit(t), "IR999") }, "dispute_posting"},
				{"dispute the credit", func(t *testing.T, p purchase) error {
					return testkit.RespErr(testkit.Do(t, p.Fake, testkit.Call{Method: "PATCH", Path: testkit.DisputePath(p.Fx.User.ID, p.sender, p.credit(t)), Header: p.Fx.Headers,
						Body: map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"}}))
				}, "not_disputable"}},
			wantSender: 80_00, wantReceiver: 20_00},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPurchase(t, tc.kind, tc.amount, tc.rule)
			for _, s := range tc.steps {
				ids := []string{p.id}
				if c := p.credit(t); c != "" {
					ids = append(ids, c)
				}
				var before []synapsefake.Transaction
				for _, id := range ids {
					before = append(before, p.Tx(t, id))
				}
				sender, receiver := testkit.Balance(t, p.Fake, p.sender), testkit.Balance(t, p.Fake, p.receiver)
				err := s.do(t, p)
				if got := testkit.ErrCode(err); got != s.want {
					t.Fatalf("%s: error %v, want %q", s.name, err, s.want)
				}
				if s.want == "" {
					continue
				}
				if !strings.Contains(err.Error(), refusalEnvelope[s.want]) {
					t.Errorf("%s: error %v, want %s", s.name, err, refusalEnvelope[s.want])
				}
				var after []synapsefake.Transaction
				for _, id := range ids {
					after = append(after, p.Tx(t, id))
				}
				if diff := cmp.Diff(before, after); diff != "" {
					t.Errorf("%s: transactions changed (-before +after):\n%s", s.name, diff)
				}
				if s, r := testkit.Balance(t, p.Fake, p.sender), testkit.Balance(t, p.Fake, p.receiver); s != sender || r != receiver {
					t.Errorf("balances %d and %d after the refusal, want %d and %d", s, r, sender, receiver)
				}
			}
			if s, r := testkit.Balance(t, p.Fake, p.sender), testkit.Balance(t, p.Fake, p.receiver); s != tc.wantSender || r != tc.wantReceiver {
				t.Errorf("sender %d, receiver %d; want %d and %d", s, r, tc.wantSender, tc.wantReceiver)
			}
			if tc.wantNote != "" {
				tx := p.Tx(t, p.id)
				noted := slices.ContainsFunc(tx.Timeline, func(e synapsefake.TimelineEntry) bool {
					return e.Status == synapsefake.StatusSettled && e.Note == tc.wantNote
				})
				if tx.Status != synapsefake.StatusSettled || !noted {
					t.Errorf("purchase %s, timeline %+v; want SETTLED with the note %q", tx.Status, tx.Timeline, tc.wantNote)
				}
			}
		})
	}
}
