package api_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// dummyFields is what a dummy transaction was asked for, as the answer
// reflects it.
type dummyFields struct {
	typ, direction                                string
	amount                                        float64
	accountNum, routingNum, addenda, trackingID   string
	postingLabel, companyID, individualID, subnet string
	foreign                                       bool
}

// dummyParty is a transaction's from or to for node nodeID.
func dummyParty(t testing.TB, fake *synapsefake.Server, nodeID string, meta map[string]any) map[string]any {
	t.Helper()
	n, ok := fake.Node(nodeID)
	if !ok {
		t.Fatalf("Node(%s) not found", nodeID)
	}
	u, _ := fake.User(n.UserID)
	names := []any{}
	for _, s := range u.LegalNames {
		names = append(names, s)
	}
	p := map[string]any{"id": n.ID, "nickname": n.Nickname, "type": n.Type, "user": map[string]any{"_id": u.ID, "legal_names": names}}
	if meta != nil {
		p["meta"] = meta
	}
	return p
}

// dummyJSON is the answer to a dummy transaction tx made now on fx's node:
// CREATED, between the node and the sandbox's EXTERNAL-US node, from.meta
// and extra.other holding the fields of the dummy-tran example.
func dummyJSON(t testing.TB, fake *synapsefake.Server, fx testkit.Fixture, tx synapsefake.Transaction, f dummyFields) map[string]any {
	t.Helper()
	now := float64(fake.Now().UnixMilli())
	name := f.postingLabel
	if name == "" {
		name = "SYNAPSEFAKE SANDBOX"
	}
	meta := map[string]any{
		"account_num": f.accountNum, "addenda": f.addenda, "company_entry_description": f.addenda,
		"company_id": f.companyID, "company_name": name, "dispute_transaction_id": nil, "entry_class": "PPD",
		"foreign_transaction": f.foreign, "fraud_score": map[string]any{"reason": "", "score": 0.0}, "high_risk": false,
		"individual_id": f.individualID, "is_dispute_posting": false, "is_force_post": false, "is_platform_fee": false,
		"merchant_name": name, "monitoring_class": "", "name": name, "network_id": f.typ, "posted_date": now,
		"posting_data": nil, "routing_num": f.routingNum, "subnet_id": f.subnet, "tracking_id": f.trackingID, "type": f.typ,
	}
	other := map[string]any{
		"affect_limits": true, "approved": true, "async_ran": false, "attachments": []any{}, "chargeback_disputed": false,
		"create_email_sent": false, "dispute_form": nil, "dispute_meta": map[string]any{}, "dispute_reason": nil,
		"disputed": false, "do_next": nil, "is_provisional_credit": false,
		"process": map[string]any{"credit": true, "debit": true}, "provisional_credit_transaction_id": nil,
		"settlement_batch_id": nil, "show_queue": false, "skip_validation": true,
	}
	ext := tx.FromNodeID
	if f.direction == "WITHDRAWAL" {
		ext = tx.ToNodeID
	}
	if n, _ := fake.Node(ext); n.Type != "EXTERNAL-US" || ext == fx.Node.ID {
		t.Errorf("counterparty %s is %+v, want the sandbox's EXTERNAL-US node", ext, n)
	}
	from, to := dummyParty(t, fake, ext, meta), dummyParty(t, fake, fx.Node.ID, nil)
	if f.direction == "WITHDRAWAL" {
		from, to = dummyParty(t, fake, fx.Node.ID, meta), dummyParty(t, fake, ext, nil)
	}
	created := map[string]any{"date": now, "note": "Transaction Created.", "status": "CREATED", "status_id": "1"}
	return map[string]any{
		"_id":    tx.ID,
		"_links": map[string]any{"self": map[string]any{"href": fake.URL() + "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/trans/" + tx.ID}},
		"_v":     2.0,
		"amount": map[string]any{"amount": f.amount, "currency": "USD"},
		"client": map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
		"extra": map[string]any{
			"asset": nil, "created_on": now, "encrypted_note": "", "group_id": nil, "ip": "127.0.0.1", "latlon": "0,0",
			"note": f.addenda, "other": other, "process_on": now, "same_day": f.typ == "WIRE", "supp_id": "",
			"filename": nil, "location": map[string]any{"address_city": "", "address_country_code": "", "address_postal_code": "", "address_subdivision": "", "lat": 0.0, "lon": 0.0}, "rate": nil, "rate_limit": nil, "settlement_delay": 0.0, "tracking_number": nil, "txp_meta": map[string]any{"amount_types": []any{}, "amounts": []any{}, "payment_code": "", "tax_period_end_date": "", "taxpayer_verification": "", "tin": ""},
		},
		"fees":          []any{map[string]any{"fee": 0.0, "note": "Facilitator Fee", "to": map[string]any{"id": "None"}}},
		"from":          from,
		"recent_status": created,
		"timeline":      []any{created},
		"to":            to,
		"success":       true,
	}
}

// wantDummy checks a dummy-tran answer and the transaction it made, then
// advances the clock to just before and to its settlement and checks the
// node's balance each time.
func wantDummy(t *testing.T, fake *synapsefake.Server, fx testkit.Fixture, r testkit.Response, f dummyFields, balance int64) {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Raw)
	}
	id, _ := r.Body["_id"].(string)
	tx, ok := fake.Transaction(id)
	if !ok {
		t.Fatalf("Transaction(%s) not found", id)
	}
	if diff := cmp.Diff(dummyJSON(t, fake, fx, tx, f), r.Body); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
	cents := int64(f.amount*100 + 0.5)
	if tx.Status != synapsefake.StatusCreated || tx.AmountCents != cents || tx.Note != f.addenda {
		t.Errorf("stored transaction %s, %d cents, note %q; want CREATED, %d, %q", tx.Status, tx.AmountCents, tx.Note, cents, f.addenda)
	}
	if b := balanceOf(t, fake, fx.Node.ID); b != balance {
		t.Errorf("balance %d right after, want %d", b, balance)
	}
	settle := 24 * time.Hour // ACH, from snMonday
	if f.typ == "WIRE" {
		settle = 3 * time.Minute // Fedwire settles at once
	}
	want := balance + cents
	if f.direction == "WITHDRAWAL" {
		want = balance - cents
	}
	fake.Advance(settle - time.Millisecond)
	if got, _ := fake.Transaction(id); got.Status != synapsefake.StatusProcessingCredit {
		t.Errorf("just before settlement: %s, want PROCESSING-CREDIT", got.Status)
	}
	fake.Advance(time.Millisecond)
	if got, _ := fake.Transaction(id); got.Status != synapsefake.StatusSettled {
		t.Errorf("at settlement: %s, want SETTLED", got.Status)
	}
	if b := balanceOf(t, fake, fx.Node.ID); b != want {
		t.Errorf("balance %d after settlement, want %d", b, want)
	}
}

func dummyPath(fx testkit.Fixture, sub synapsefake.Subnet) string {
	return testkit.SubnetPath(fx.User.ID, fx.Node.ID, sub.ID) + "/dummy-tran"
}

// postDummy makes a dummy transaction of amount USD through fx's subnet
// sub over HTTP, failing the test unless it is answered 200, and returns
// its id.
func postDummy(t testing.TB, fake *synapsefake.Server, fx testkit.Fixture, sub synapsefake.Subnet, typ, direction string, amount float64) string {
	t.Helper()
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: dummyPath(fx, sub), Header: fx.Headers,
		Body: map[string]any{"currency": "USD", "amount": amount, "type": typ, "direction": direction}})
	if r.Status != 200 {
		t.Fatalf("dummy-tran %s %s: status %d: %s", typ, direction, r.Status, r.Raw)
	}
	id, _ := r.Body["_id"].(string)
	return id
}

func TestDummyTransaction(t *testing.T) {
	t.Parallel()
	full := func(typ, direction string) (map[string]any, dummyFields) {
		return map[string]any{
				"currency": "USD", "amount": 12.34, "type": typ, "direction": direction,
				"account_num": "8901234567", "routing_num": "051000017", "addenda": "PAYROLL MARCH",
				"tracking_id": "20240108MMQFMP0X000001", "posting_label": "ACME PAYROLL", "company_id": "1234567890",
				"individual_id": "EMP-77",
			}, dummyFields{typ: typ, direction: direction, amount: 12.34, accountNum: "8901234567", routingNum: "051000017",
				addenda: "PAYROLL MARCH", trackingID: "20240108MMQFMP0X000001", postingLabel: "ACME PAYROLL",
				companyID: "1234567890", individualID: "EMP-77"}
	}
	for _, tc := range []struct {
		name  string
		class string // of the subnet; CHECKING when ""
		body  func() (map[string]any, dummyFields)
	}{
		{"ACH deposit", "", func() (map[string]any, dummyFields) { return full("ACH", "DEPOSIT") }},
		{"ACH withdrawal", "", func() (map[string]any, dummyFields) { return full("ACH", "WITHDRAWAL") }},
		{"wire deposit", "", func() (map[string]any, dummyFields) { return full("WIRE", "DEPOSIT") }},
		{"wire withdrawal", "", func() (map[string]any, dummyFields) { return full("WIRE", "WITHDRAWAL") }},
		{"internal transfer deposit", "SAVINGS", func() (map[string]any, dummyFields) { return full("INTERNAL_TRASFER", "DEPOSIT") }},
		{"internal transfer withdrawal", "", func() (map[string]any, dummyFields) { return full("INTERNAL_TRASFER", "WITHDRAWAL") }},
		{"required fields only", "", func() (map[string]any, dummyFields) {
			return map[string]any{"currency": "USD", "amount": 100, "type": "ACH", "direction": "DEPOSIT"},
				dummyFields{typ: "ACH", direction: "DEPOSIT", amount: 100}
		}},
		{"withdrawal of the whole balance", "", func() (map[string]any, dummyFields) {
			return map[string]any{"currency": "USD", "amount": 500, "type": "ACH", "direction": "WITHDRAWAL"},
				dummyFields{typ: "ACH", direction: "WITHDRAWAL", amount: 500}
		}},
		{"unknown fields are ignored", "", func() (map[string]any, dummyFields) {
			return map[string]any{"currency": "USD", "amount": 1, "type": "ACH", "direction": "DEPOSIT", "memo": "x"},
				dummyFields{typ: "ACH", direction: "DEPOSIT", amount: 1}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := newMondayServer(t)
			fx := testkit.NewFixture(t, fake, 50000)
			sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account", AccountClass: synapsefake.AccountClass(tc.class)})
			body, f := tc.body()
			f.subnet = sub.ID
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: dummyPath(fx, sub), Header: fx.Headers, Body: body})
			wantDummy(t, fake, fx, r, f, 50000)
		})
	}
}

func TestDummyTransactionErrors(t *testing.T) {
	t.Parallel()
	valid := func(changes map[string]any) map[string]any {
		b := map[string]any{"currency": "USD", "amount": 10, "type": "ACH", "direction": "DEPOSIT"}
		for k, v := range changes {
			if v == nil {
				delete(b, k)
				continue
			}
			b[k] = v
		}
		return b
	}
	post := func(body any) func(e snEnv) testkit.Call {
		return func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: dummyPath(e.fx, e.acct), Header: e.fx.Headers, Body: body}
		}
	}
	on := func(sub func(e snEnv) synapsefake.Subnet) func(e snEnv) testkit.Call {
		return func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: dummyPath(e.fx, sub(e)), Header: e.fx.Headers, Body: valid(nil)}
		}
	}
	runSnErrorCases(t, []snErrorCase{
		{name: "currency not USD", call: post(valid(map[string]any{"currency": "EUR"})), status: 409, errorCode: "400", code: "unsupported_currency"},
		{name: "lower-case usd", call: post(valid(map[string]any{"currency": "usd"})), status: 409, errorCode: "400", code: "unsupported_currency"},
		{name: "missing currency", call: post(valid(map[string]any{"currency": nil})), status: 400, errorCode: "200", code: "missing_currency"},
		{name: "currency a number", call: post(valid(map[string]any{"currency": 840})), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "missing amount", call: post(valid(map[string]any{"amount": nil})), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "zero amount", call: post(valid(map[string]any{"amount": 0})), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "negative amount", call: post(valid(map[string]any{"amount": -5})), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount under a cent", call: post(valid(map[string]any{"amount": 0.004})), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "half a cent", call: post(valid(map[string]any{"amount": 0.005})), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount with three decimals", call: post(valid(map[string]any{"amount": 10.005})), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount over MaxAmountCents", call: post(valid(map[string]any{"amount": 1e12})), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount too large", call: post(valid(map[string]any{"amount": 1e13})), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount a string", call: post(valid(map[string]any{"amount": "10"})), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "missing type", call: post(valid(map[string]any{"type": nil})), status: 400, errorCode: "200", code: "invalid_type"},
		{name: "unknown type", call: post(valid(map[string]any{"type": "CHECK"})), status: 400, errorCode: "200", code: "invalid_type"},
		{name: "lower-case type", call: post(valid(map[string]any{"type": "ach"})), status: 400, errorCode: "200", code: "invalid_type"},
		{name: "missing direction", call: post(valid(map[string]any{"direction": nil})), status: 400, errorCode: "200", code: "invalid_direction"},
		{name: "unknown direction", call: post(valid(map[string]any{"direction": "SIDEWAYS"})), status: 400, errorCode: "200", code: "invalid_direction"},
		{name: "account_num a number", call: post(valid(map[string]any{"account_num": 123})), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "tracking_id an object", call: post(valid(map[string]any{"tracking_id": map[string]any{}})), status: 400, errorCode: "200", code: "invalid_field_type"},
		{name: "malformed JSON", call: post(`{"currency":"USD",`), status: 400, errorCode: "200", code: "invalid_json"},
		{name: "array body", call: post(`[]`), status: 400, errorCode: "200", code: "invalid_json"},
		{name: "a card", call: on(func(e snEnv) synapsefake.Subnet { return e.active }), status: 409, errorCode: "410", code: "not_an_account_number"},
		{name: "a TERMINATED account number", setup: func(t *testing.T, e *snEnv) {
			e.extraSub = testkit.AddSubnet(t, e.fake, e.fx, synapsefake.SubnetSeed{Nickname: "Closed", Status: synapsefake.SubnetTerminated})
		}, call: on(func(e snEnv) synapsefake.Subnet { return e.extraSub }), status: 409, errorCode: "410", code: "subnet_not_active"},
		{name: "an INACTIVE account number", setup: func(t *testing.T, e *snEnv) {
			e.extraSub = testkit.AddSubnet(t, e.fake, e.fx, synapsefake.SubnetSeed{Nickname: "Locked", Status: synapsefake.SubnetInactive})
		}, call: on(func(e snEnv) synapsefake.Subnet { return e.extraSub }), status: 409, errorCode: "410", code: "subnet_not_active"},
		{name: "a deleted node", setup: func(t *testing.T, e *snEnv) {
			var err error
			if e.extraSub, err = e.fake.AddSubnet(e.fx.User.ID, e.second.ID, synapsefake.SubnetSeed{Nickname: "Gone"}); err != nil {
				t.Fatal(err)
			}
			deleteNode(t, e.fake, e.fx, e.second.ID)
		}, call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: testkit.SubnetPath(e.fx.User.ID, e.second.ID, e.extraSub.ID) + "/dummy-tran", Header: e.fx.Headers, Body: valid(nil)}
		}, status: 409, errorCode: "410", code: "node_inactive"},
		{name: "scope TRANS|POST not granted", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: dummyPath(e.fx, e.acct), Header: keyWithout(e.fake, e.fx, "TRANS|POST"), Body: valid(nil)}
		}, status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "missing X-SP-USER-IP", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: dummyPath(e.fx, e.acct), Header: testkit.EditHeaders(e.fx.Headers, map[string]string{"X-SP-USER-IP": ""}), Body: valid(nil)}
		}, status: 400, errorCode: "200", code: "missing_user_ip"},
		{name: "another user's subnet", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: dummyPath(e.fx, e.otherCard), Header: e.fx.Headers, Body: valid(nil)}
		}, status: 401, errorCode: "300", code: "unauthorized_subnet"},
		{name: "another user's node", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: testkit.SubnetPath(e.fx.User.ID, e.other.Node.ID, e.otherCard.ID) + "/dummy-tran", Header: e.fx.Headers, Body: valid(nil)}
		}, status: 401, errorCode: "300", code: "unauthorized_node"},
		{name: "unknown subnet", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: testkit.SubnetPath(e.fx.User.ID, e.fx.Node.ID, "0123456789abcdef01234567") + "/dummy-tran", Header: e.fx.Headers, Body: valid(nil)}
		}, status: 404, errorCode: "404", code: "unable_to_locate_subnet"},
		{name: "GET is not served", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: dummyPath(e.fx, e.acct), Header: e.fx.Headers}
		}, status: 409, errorCode: "410", code: "method_not_allowed"},
	})
}

func legacyDummyPath(fx testkit.Fixture, nodeID, query string) string {
	return "/users/" + fx.User.ID + "/nodes/" + nodeID + "/dummy-tran" + query
}

func TestLegacyDummyTransaction(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		query func(acct, card synapsefake.Subnet) string
		want  func(acct, card synapsefake.Subnet) dummyFields
	}{
		{
			name: "credit through an account number",
			query: func(acct, _ synapsefake.Subnet) string {
				return "?is_credit=YES&subnetid=" + acct.ID + "&amount=12.5&type=ACH"
			},
			want: func(acct, _ synapsefake.Subnet) dummyFields {
				return dummyFields{typ: "ACH", direction: "DEPOSIT", amount: 12.5, subnet: acct.ID}
			},
		},
		{
			name: "debit",
			query: func(acct, _ synapsefake.Subnet) string {
				return "?is_credit=NO&subnetid=" + acct.ID + "&amount=10&type=ACH"
			},
			want: func(acct, _ synapsefake.Subnet) dummyFields {
				return dummyFields{typ: "ACH", direction: "WITHDRAWAL", amount: 10, subnet: acct.ID}
			},
		},
		{
			name:  "defaults: a 100 USD ACH credit to the node",
			query: func(_, _ synapsefake.Subnet) string { return "" },
			want: func(_, _ synapsefake.Subnet) dummyFields {
				return dummyFields{typ: "ACH", direction: "DEPOSIT", amount: 100}
			},
		},
		{
			name: "the Go client's card form",
			query: func(_, card synapsefake.Subnet) string {
				return "?is_credit=yes&type=INTERCHANGE&subnetid=" + card.ID + "&foreign_transaction=YES"
			},
			want: func(_, card synapsefake.Subnet) dummyFields {
				return dummyFields{typ: "ACH", direction: "DEPOSIT", amount: 100, subnet: card.ID, foreign: true}
			},
		},
		{
			name:  "lower-case wire",
			query: func(_, _ synapsefake.Subnet) string { return "?type=wire&amount=7&foreign_transaction=NO" },
			want: func(_, _ synapsefake.Subnet) dummyFields {
				return dummyFields{typ: "WIRE", direction: "DEPOSIT", amount: 7}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := newMondayServer(t)
			fx := testkit.NewFixture(t, fake, 50000)
			acct := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account"})
			card := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD"})
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: legacyDummyPath(fx, fx.Node.ID, tc.query(acct, card)), Header: fx.Headers})
			wantDummy(t, fake, fx, r, tc.want(acct, card), 50000)
		})
	}
}

func TestLegacyDummyTransactionErrors(t *testing.T) {
	t.Parallel()
	get := func(query func(e snEnv) string) func(e snEnv) testkit.Call {
		return func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: legacyDummyPath(e.fx, e.fx.Node.ID, query(e)), Header: e.fx.Headers}
		}
	}
	q := func(s string) func(e snEnv) string { return func(snEnv) string { return s } }
	runSnErrorCases(t, []snErrorCase{
		{name: "is_credit neither YES nor NO", call: get(q("?is_credit=MAYBE")), status: 400, errorCode: "200", code: "invalid_is_credit"},
		{name: "amount not a number", call: get(q("?amount=ten")), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount NaN", call: get(q("?amount=NaN")), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount infinite", call: get(q("?amount=Inf")), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "negative amount", call: get(q("?amount=-1")), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount under a cent", call: get(q("?amount=0.001")), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "half a cent", call: get(q("?amount=0.005")), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount with three decimals", call: get(q("?amount=10.005")), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "amount over MaxAmountCents", call: get(q("?amount=1000000000.01")), status: 400, errorCode: "200", code: "invalid_amount"},
		{name: "unknown type", call: get(q("?type=CHECK")), status: 400, errorCode: "200", code: "invalid_type"},
		{name: "unknown subnetid", call: get(q("?subnetid=0123456789abcdef01234567")), status: 404, errorCode: "404", code: "unable_to_locate_subnet"},
		{name: "subnetid of another user", call: get(func(e snEnv) string { return "?subnetid=" + e.otherCard.ID }),
			status: 401, errorCode: "300", code: "unauthorized_subnet"},
		{name: "subnetid of one's other node", setup: func(t *testing.T, e *snEnv) {
			var err error
			if e.extraSub, err = e.fake.AddSubnet(e.fx.User.ID, e.second.ID, synapsefake.SubnetSeed{Nickname: "Elsewhere"}); err != nil {
				t.Fatal(err)
			}
		}, call: get(func(e snEnv) string { return "?subnetid=" + e.extraSub.ID }), status: 404, errorCode: "404", code: "unable_to_locate_subnet"},
		{name: "unknown node", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: legacyDummyPath(e.fx, "0123456789abcdef01234567", ""), Header: e.fx.Headers}
		}, status: 404, errorCode: "404", code: "unable_to_locate_node"},
		{name: "another user's node", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: legacyDummyPath(e.fx, e.other.Node.ID, ""), Header: e.fx.Headers}
		}, status: 401, errorCode: "300", code: "unauthorized_node"},
		{name: "scope TRANS|POST not granted", call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: legacyDummyPath(e.fx, e.fx.Node.ID, ""), Header: keyWithout(e.fake, e.fx, "TRANS|POST")}
		}, status: 401, errorCode: "300", code: "scope_not_granted"},
		{name: "a deleted node", setup: func(t *testing.T, e *snEnv) { deleteNode(t, e.fake, e.fx, e.second.ID) }, call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: legacyDummyPath(e.fx, e.second.ID, ""), Header: e.fx.Headers}
		}, status: 409, errorCode: "410", code: "node_inactive"},
		// The outside world (EXTERNAL-US) trades with deposit-type nodes
		// only, as POST .../trans allows, and card nodes
		// (TestDummyTransactionsIntoACard).
		{name: "a credit to an ACH-US node", setup: func(t *testing.T, e *snEnv) {
			e.extra = testkit.AddTxNode(t, e.fake, e.fx.User.ID, synapsefake.NodeSeed{Type: reference.NodeACHUS, Nickname: "Bank"})
		}, call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: legacyDummyPath(e.fx, e.extra.ID, "?is_credit=YES"), Header: e.fx.Headers}
		}, status: 409, errorCode: "400", code: "transaction_not_allowed"},
		{name: "a debit of a WIRE-US node", setup: func(t *testing.T, e *snEnv) {
			e.extra = testkit.AddTxNode(t, e.fake, e.fx.User.ID, synapsefake.NodeSeed{Type: reference.NodeWireUS, Nickname: "Wire"})
		}, call: func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: legacyDummyPath(e.fx, e.extra.ID, "?is_credit=NO&amount=5"), Header: e.fx.Headers}
		}, status: 409, errorCode: "400", code: "transaction_not_allowed"},
	})
}

// TestDummyDepositsCountForNothingButTheNode checks that money comes from
// outside: a deposit credits the node without debiting any user's node.
func TestDummyDepositsCountForNothingButTheNode(t *testing.T) {
	t.Parallel()
	fake := newMondayServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	other := testkit.NewFixture(t, fake, 7700)
	sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account"})
	for range 3 {
		postDummy(t, fake, fx, sub, "ACH", "DEPOSIT", 10)
	}
	fake.Advance(96 * time.Hour)
	if b := balanceOf(t, fake, fx.Node.ID); b != 3000 {
		t.Errorf("balance %d, want 3000", b)
	}
	if b := balanceOf(t, fake, other.Node.ID); b != 7700 {
		t.Errorf("another user's balance %d, want 7700", b)
	}
}

// TestInsufficientFundsNamesTheDummyCreditOnItsWay is the trap of funding
// a node with a dummy deposit under a manual clock: the deposit stays
// CREATED, so a transfer that counts on it is refused. The refusal names
// the deposit and the ways out; without such a deposit it is as before.
func TestInsufficientFundsNamesTheDummyCreditOnItsWay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		dummies   []string // directions of the dummy transactions made first
		settle    bool     // settle them before the transfer
		wantHint  bool
		wantAfter int64 // the sender's balance after the refusal
	}{
		{name: "a dummy deposit still CREATED", dummies: []string{"DEPOSIT"}, wantHint: true, wantAfter: 10_00},
		{name: "no dummy transaction", wantAfter: 10_00},
		{name: "a settled dummy deposit", dummies: []string{"DEPOSIT"}, settle: true, wantAfter: 110_00},
		{name: "a dummy withdrawal still CREATED", dummies: []string{"WITHDRAWAL"}, wantAfter: 10_00},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := newMondayServer(t, synapsefake.WithFundsCheck())
			fx := testkit.NewFixture(t, fake, 10_00)
			to := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
			sub := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account"})
			var dummyID string
			for _, dir := range tc.dummies {
				dummyID = postDummy(t, fake, fx, sub, "ACH", dir, 5)
				if tc.settle {
					if err := fake.Settle(dummyID); err != nil {
						t.Fatal(err)
					}
				}
			}
			if tc.settle {
				fake.MustFund(t, fx.Node.ID, 95_00) // with the deposit, 110.00
			}
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: testkit.TxBody(to, 150)})
			testkit.WantError(t, r, 409, "400", "insufficient_funds")
			e, _ := r.Body["error"].(map[string]any)
			want := "Insufficient funds in node " + fx.Node.ID + "."
			if tc.wantHint {
				want += " The incoming dummy transaction " + dummyID + " (5.00 USD) is still CREATED: advance the clock or settle it " +
					"(POST /_fake/clock/advance or /_fake/transactions/" + dummyID + "/settle; Advance or Settle in Go), " +
					"or fund the node (POST /_fake/nodes/" + fx.Node.ID + "/fund)."
			}
			if e["en"] != want {
				t.Errorf("error.en\n got %q\nwant %q", e["en"], want)
			}
			if b := balanceOf(t, fake, fx.Node.ID); b != tc.wantAfter {
				t.Errorf("balance after the refusal %d, want %d", b, tc.wantAfter)
			}
		})
	}
}

// TestRefusalsDrawNoID: a refused transfer or dummy transaction makes
// nothing, not even an id, nor the hidden network's node a dummy's first
// use makes: the next good call gets the id it would have got without the
// refusal, and the state is the same as a server's that never saw it.
func TestRefusalsDrawNoID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		refused func(e snEnv) testkit.Call
		code    string
	}{
		{"a transfer over the balance", func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: testkit.TransPath(e.fx.User.ID, e.fx.Node.ID), Header: e.fx.Headers, Body: testkit.TxBody(e.second, 5000)}
		}, "insufficient_funds"},
		{"a dummy withdrawal over the balance, the network's node not made yet", func(e snEnv) testkit.Call {
			return testkit.Call{Method: "POST", Path: dummyPath(e.fx, e.acct), Header: e.fx.Headers,
				Body: map[string]any{"currency": "USD", "amount": 5000, "type": "WIRE", "direction": "WITHDRAWAL"}}
		}, "insufficient_funds"},
		{"a legacy dummy credit to an ACH-US node", func(e snEnv) testkit.Call {
			return testkit.Call{Method: "GET", Path: legacyDummyPath(e.fx, e.extra.ID, "?is_credit=YES"), Header: e.fx.Headers}
		}, "transaction_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The same calls make the same ids; the funds rule is WithFundsCheck's.
			envs := [2]snEnv{newSnEnv(t, synapsefake.WithFundsCheck()), newSnEnv(t, synapsefake.WithFundsCheck())}
			for i := range envs {
				envs[i].extra = testkit.AddTxNode(t, envs[i].fake, envs[i].fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank"})
			}
			before := testkit.StateBeyondJournal(t, testkit.SnapshotBytes(t, envs[0].fake))
			r := testkit.Do(t, envs[0].fake, tc.refused(envs[0]))
			if code, _ := getTxPath(r.Body, "error.code").(string); r.Status < 400 || code != tc.code {
				t.Fatalf("the refused call: status %d, error.code %q; want %s", r.Status, code, tc.code)
			}
			if after := testkit.StateBeyondJournal(t, testkit.SnapshotBytes(t, envs[0].fake)); after != before {
				t.Errorf("the refused call changed the state: %s", testkit.FirstDiff(after, before))
			}
			ids := make([]string, 2)
			for i, e := range envs {
				ids[i] = postDummy(t, e.fake, e.fx, e.acct, "ACH", "DEPOSIT", 5)
			}
			if ids[0] != ids[1] {
				t.Errorf("after the refusal the next dummy is %s; without it, %s", ids[0], ids[1])
			}
		})
	}
}

// TestDummyTransactionsIntoACard: the legacy GET form makes dummy
// transactions on a CARD-US node (and SUBCARD-US), as clients used the
// sandbox's (issue 35; 409 transaction_not_allowed before). A credit
// (is_credit=YES) moves and reports as a dummy credit to a DEPOSIT-US node
// does: the same statuses and webhooks on the same calendar, and the card's
// balance grows at SETTLED. A debit (is_credit=NO) leaves a card whose
// allowed has DEBIT, and is canceled at processing from a card that has
// not been activated (allowed INACTIVE), as the card's transfers are. A
// card node keeps no ledger, as before; the saved state still checks.
func TestDummyTransactionsIntoACard(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		typ      string
		activate bool
		query    string
		want     synapsefake.Status
		balance  int64 // the card's, after 4 days; it starts at 10.00
	}{
		{"credit to a new card", "CARD-US", false, "?is_credit=YES&amount=25", synapsefake.StatusSettled, 35_00},
		{"credit to a SUBCARD-US node", "SUBCARD-US", false, "?amount=25", synapsefake.StatusSettled, 35_00},
		{"debit of an active card", "CARD-US", true, "?is_credit=NO&amount=4", synapsefake.StatusSettled, 6_00},
		{"debit of a card not activated", "CARD-US", false, "?is_credit=NO&amount=4", synapsefake.StatusCanceled, 10_00},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := newMondayServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			card := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Type: tc.typ, Nickname: "Card", BalanceCents: 10_00})
			if tc.activate {
				r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: testkit.NodePath(fx.User.ID, card.ID), Header: fx.Headers, Body: map[string]any{"allowed": "CREDIT-AND-DEBIT"}})
				if r.Status != 200 {
					t.Fatalf("activate: %d %s", r.Status, r.Raw)
				}
			}
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: legacyDummyPath(fx, card.ID, tc.query), Header: fx.Headers})
			if r.Status != 200 {
				t.Fatalf("dummy-tran on a %s node: status %d, want 200: %s", tc.typ, r.Status, r.Raw)
			}
			id := r.Body["_id"].(string)
			side, other := "to", "from"
			if strings.Contains(tc.query, "is_credit=NO") {
				side, other = "from", "to"
			}
			if getPath(r.Body, side+".id") != card.ID || getPath(r.Body, side+".type") != tc.typ || getPath(r.Body, other+".type") != "EXTERNAL-US" {
				t.Errorf("%s %v (%v), %s type %v; want the card, %s, and EXTERNAL-US", side, getPath(r.Body, side+".id"), getPath(r.Body, side+".type"), other, getPath(r.Body, other+".type"), tc.typ)
			}
			// The same dummy on the user's DEPOSIT-US node, for comparison.
			dep := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: legacyDummyPath(fx, fx.Node.ID, strings.Replace(tc.query, "is_credit=NO", "is_credit=YES", 1)), Header: fx.Headers})
			if dep.Status != 200 {
				t.Fatalf("dummy-tran on the DEPOSIT-US node: %d %s", dep.Status, dep.Raw)
			}
			fake.Advance(96 * time.Hour)
			fx.Headers = testkit.UserHeaders(fake, fake.OAuthKey(fx.User.ID, testkit.TestFingerprint))

			got, _ := fake.Transaction(id)
			if got.Status != tc.want {
				t.Fatalf("status %s, want %s; timeline %+v", got.Status, tc.want, got.Timeline)
			}
			fake.CheckBalance(t, card.ID, tc.balance, tc.balance)
			n := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodePath(fx.User.ID, card.ID), Header: fx.Headers})
			if amt := getPath(n.Body, "info.balance.amount"); amt != float64(tc.balance)/100 {
				t.Errorf("GET node: info.balance.amount %v, want %v", amt, float64(tc.balance)/100)
			}
			if tc.want == synapsefake.StatusSettled {
				depTx, _ := fake.Transaction(dep.Body["_id"].(string))
				if diff := cmp.Diff(hookStatuses(fake, depTx.ID), hookStatuses(fake, id)); diff != "" {
					t.Errorf("webhooks of the card's dummy against the DEPOSIT-US node's (-deposit +card):\n%s", diff)
				}
				if diff := cmp.Diff(timelineDates(depTx), timelineDates(got)); diff != "" {
					t.Errorf("the card's calendar against the DEPOSIT-US node's (-deposit +card):\n%s", diff)
				}
			} else if note := got.Timeline[len(got.Timeline)-1].Note; !strings.Contains(note, "'allowed' is INACTIVE") {
				t.Errorf("cancel note %q, want the card's allowed named", note)
			}
			r = testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodePath(fx.User.ID, card.ID) + "/statements", Header: fx.Headers, Body: map[string]any{}})
			wantErrorStatus(t, r, 409, "400", "statements_not_supported")
			var saved bytes.Buffer
			if err := fake.Snapshot(&saved); err != nil {
				t.Fatal(err)
			}
			if err := synapsefake.New().Restore(&saved); err != nil {
				t.Errorf("the saved state does not check: %v", err)
			}
		})
	}
}

// hookStatuses are the functions and statuses of a transaction's webhooks,
// in order.
func hookStatuses(fake *synapsefake.Server, txID string) []string {
	var out []string
	for _, w := range fake.Webhooks().All() {
		if w.ObjectID == txID {
			out = append(out, w.Function+" "+w.Status)
		}
	}
	return out
}

// timelineDates are a transaction's timeline statuses and their dates.
func timelineDates(tx synapsefake.Transaction) []string {
	var out []string
	for _, e := range tx.Timeline {
		out = append(out, string(e.Status)+" "+e.Date.Format(time.RFC3339))
	}
	return out
}
