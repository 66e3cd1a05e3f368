package api_test

import (
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// createdNode posts body to the fixture user's nodes and returns the one
// node answered.
func createdNode(t *testing.T, fake *synapsefake.Server, fx testkit.Fixture, body any) map[string]any {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: body})
	if r.Status != 200 {
		t.Fatalf("create node: status %d, want 200; body %s", r.Status, r.Raw)
	}
	nodes, _ := r.Body["nodes"].([]any)
	if len(nodes) != 1 {
		t.Fatalf("nodes %v, want one", r.Body["nodes"])
	}
	return nodes[0].(map[string]any)
}

// withWithdrawals is info with an interest-bearing node's monthly_withdrawals_remaining.
func withWithdrawals(info map[string]any) map[string]any {
	info["monthly_withdrawals_remaining"] = 6.0
	return info
}

// TestCreateNodeTypes creates each node type with the body the SDKs'
// samples and docs send and compares the info the fake shows.
func TestCreateNodeTypes(t *testing.T) {
	t.Parallel()
	bal := map[string]any{"amount": 0.0, "currency": "USD"}
	agreements := []any{map[string]any{"type": "NODE_AGREEMENT", "url": nodeAgreementURL}}
	deposit := func(nick string) map[string]any {
		return map[string]any{"agreements": agreements, "balance": bal, "bank_code": "EBT", "document_id": nil,
			"name_on_account": "Test User", "nickname": nick}
	}
	payee := map[string]any{"address_street": "1 Market St", "address_city": "SF", "address_subdivision": "CA",
		"address_country_code": "US", "address_postal_code": "94105"}
	for _, tc := range []struct {
		typ         string
		info        map[string]any
		wantAllowed string
		wantInfo    map[string]any // card_hash and card_number are checked apart
	}{
		{"CUSTODY-US", map[string]any{"nickname": "Custody"}, "CREDIT-AND-DEBIT", deposit("Custody")},
		{"SUBACCOUNT-US", map[string]any{"nickname": "Sub"}, "CREDIT-AND-DEBIT", deposit("Sub")},
		// The provider's Ruby integration suite expected monthly_withdrawals_remaining of both.
		{"IB-DEPOSIT-US", map[string]any{"nickname": "IB"}, "CREDIT-AND-DEBIT", withWithdrawals(deposit("IB"))},
		{"IB-SUBACCOUNT-US", map[string]any{"nickname": "IBS"}, "CREDIT-AND-DEBIT", withWithdrawals(deposit("IBS"))},
		{"CARD-US", map[string]any{"nickname": "My Debit Card", "document_id": "doc-1", "card_type": "PHYSICAL"}, "INACTIVE",
			map[string]any{"balance": bal, "card_style_id": nil, "card_type": "PHYSICAL", "document_id": "doc-1", "name_on_account": "Test User",
				"nickname": "My Debit Card", "preferences": map[string]any{"allow_foreign_transactions": false,
					"atm_withdrawal_limit": 100.0, "max_pin_attempts": 3.0, "pos_withdrawal_limit": 1000.0, "security_alerts": true}}},
		{"INTERCHANGE-US", map[string]any{"nickname": "Visa", "card_number": "4111111111111111", "exp_date": "202812", "document_id": "doc-1"},
			"CREDIT-AND-DEBIT", map[string]any{"balance": bal, "card_hash": "9bbef19476623ca56c17da75fd57734dbf82530686043a6e491c6d71befe8f6e", "card_number": "1111",
				"document_id": "doc-1", "is_international": false, "name_on_account": "Test User", "network": "VISA",
				"nickname": "Visa", "type": "DEBIT"}},
		{"WIRE-US", map[string]any{"nickname": "Wire", "account_num": "2222222222", "routing_num": validRouting,
			"name_on_account": "Payee Co", "address": "1 Main St, NY"}, "CREDIT-AND-DEBIT",
			map[string]any{"account_num": "2222", "address": "1 Main St, NY", "balance": bal, "bank_name": "BANK OF AMERICA",
				"document_id": nil, "name_on_account": "Payee Co", "nickname": "Wire", "routing_num": "0017"}},
		{"WIRE-INT", map[string]any{"nickname": "Swift", "bank_name": "Bank of Tokyo", "account_num": "99998888",
			"swift": "TSIGFR22", "name_on_account": "Payee KK", "address": "1 Ginza, Tokyo"}, "CREDIT-AND-DEBIT",
			map[string]any{"account_num": "8888", "address": "1 Ginza, Tokyo", "balance": bal, "bank_name": "Bank of Tokyo",
				"document_id": nil, "name_on_account": "Payee KK", "nickname": "Swift", "swift": "TSIGFR22"}},
		{"CHECK-US", map[string]any{"nickname": "Rent", "payee_name": "Landlord", "payee_address": payee}, "CREDIT-AND-DEBIT",
			map[string]any{"balance": bal, "document_id": nil, "name_on_account": "Test User", "nickname": "Rent",
				"payee_address": payee, "payee_name": "Landlord"}},
		{"IOU", map[string]any{"nickname": "Owed", "balance": map[string]any{"currency": "BTC"}}, "CREDIT-AND-DEBIT",
			map[string]any{"balance": map[string]any{"amount": 0.0, "currency": "BTC"}, "document_id": nil,
				"name_on_account": "Test User", "nickname": "Owed"}},
		{"CRYPTO-US", map[string]any{"nickname": "Wallet"}, "CREDIT-AND-DEBIT",
			map[string]any{"balance": bal, "document_id": nil, "name_on_account": "Test User", "nickname": "Wallet",
				"portfolio": map[string]any{"BTC": 0.0, "ETH": 0.0}}},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			node := createdNode(t, fake, fx, map[string]any{"type": tc.typ, "info": tc.info, "unknown": "ignored"})
			if node["type"] != tc.typ || node["allowed"] != tc.wantAllowed {
				t.Errorf("type %v allowed %v, want %s %s", node["type"], node["allowed"], tc.typ, tc.wantAllowed)
			}
			info := node["info"].(map[string]any)
			if tc.typ == "CARD-US" || tc.typ == "CRYPTO-US" {
				if tok, _ := getPath(node, "extra.other.access_token").(string); len(tok) != 24 {
					t.Errorf("extra.other.access_token %v, want a 24-character id", tok)
				}
			}
			if tc.typ == "CARD-US" {
				if h, _ := info["card_hash"].(string); len(h) != 64 {
					t.Errorf("card_hash %v, want 64 hex characters", info["card_hash"])
				}
				if n, _ := info["card_number"].(string); len(n) != 4 {
					t.Errorf("card_number %v, want 4 digits", info["card_number"])
				}
				delete(info, "card_hash")
				delete(info, "card_number")
			}
			if diff := cmp.Diff(tc.wantInfo, info); diff != "" {
				t.Errorf("info mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCreateNodeTypeMissingInfo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		body map[string]any
		code string
	}{
		{"CARD-US without document_id", map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "c"}}, "missing_info"},
		{"INTERCHANGE-US without exp_date", map[string]any{"type": "INTERCHANGE-US", "info": map[string]any{
			"nickname": "c", "card_number": "4111", "document_id": "d"}}, "missing_info"},
		{"WIRE-INT without swift", map[string]any{"type": "WIRE-INT", "info": map[string]any{"nickname": "w",
			"bank_name": "b", "account_num": "1", "name_on_account": "n", "address": "a"}}, "missing_info"},
		{"CHECK-US without postal code", map[string]any{"type": "CHECK-US", "info": map[string]any{"nickname": "c",
			"payee_name": "p", "payee_address": map[string]any{"address_street": "s", "address_city": "c",
				"address_subdivision": "CA", "address_country_code": "US"}}}, "missing_info"},
		{"IOU without currency", map[string]any{"type": "IOU", "info": map[string]any{"nickname": "i"}}, "missing_info"},
		{"CUSTODY-US without nickname", map[string]any{"type": "CUSTODY-US", "info": map[string]any{}}, "missing_nickname"},
		{"WIRE-US address of the wrong type", map[string]any{"type": "WIRE-US", "info": map[string]any{"nickname": "w",
			"account_num": "1", "routing_num": validRouting, "name_on_account": "n", "address": 5}}, "invalid_field_type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			before := inspectNodes(t, fake, []string{fx.User.ID})
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: tc.body})
			wantErrorStatus(t, r, 400, "200", tc.code)
			wantUnchanged(t, fake, before)
		})
	}
}

// TestTransferPairs sends money between node types: the pairs the docs
// allow are created, the others refused with 409 / "400".
func TestTransferPairs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from, to string
		ok       bool
	}{
		{"DEPOSIT-US", "CUSTODY-US", true},
		{"DEPOSIT-US", "WIRE-INT", true},
		{"DEPOSIT-US", "CHECK-US", true},
		{"DEPOSIT-US", "CARD-US", true},
		{"DEPOSIT-US", "IOU", true},
		{"DEPOSIT-US", "CRYPTO-US", true},
		{"IB-DEPOSIT-US", "IB-SUBACCOUNT-US", true},
		{"ACH-US", "DEPOSIT-US", true},
		{"INTERCHANGE-US", "SUBACCOUNT-US", true},
		{"IOU", "IOU", true},
		{"CRYPTO-US", "DEPOSIT-US", true},
		{"WIRE-US", "DEPOSIT-US", false},
		{"CHECK-US", "DEPOSIT-US", false},
		{"ACH-US", "ACH-US", false},
		{"ACH-US", "WIRE-US", false},
		{"CARD-US", "ACH-US", false},
		{"CRYPTO-US", "IOU", false},
		{"IOU", "CHECK-US", false},
	} {
		t.Run(tc.from+" to "+tc.to, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			seed := func(typ string) synapsefake.Node {
				return testkit.AddTxNode(t, fake, fx.User.ID, synapsefake.NodeSeed{Type: typ, BalanceCents: 100_00,
					AccountNum: "123456789", RoutingNum: validRouting})
			}
			from, to := seed(tc.from), seed(tc.to)
			before := inspectNodes(t, fake, []string{fx.User.ID})
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, from.ID), Header: fx.Headers, Body: testkit.TxBody(to, 10)})
			if !tc.ok {
				wantErrorStatus(t, r, 409, "400", "transaction_not_allowed")
				wantUnchanged(t, fake, before)
				return
			}
			if r.Status != 200 || getPath(r.Body, "recent_status.status") != "CREATED" {
				t.Errorf("status %d, recent_status %v; want 200 CREATED; body %s", r.Status, r.Body["recent_status"], r.Raw)
			}
		})
	}
}
