package api_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

func TestCreateTransaction(t *testing.T) {
	t.Parallel()
	const start = 100_00
	note80 := strings.Repeat("n", 80)
	noteRunes := strings.Repeat("é", 80)
	for _, tc := range []struct {
		name   string
		to     func(e testkit.TxEnv) synapsefake.Node
		amount float64
		edit   func(e testkit.TxEnv, body map[string]any)     // changes the smallest body
		want   func(e testkit.TxEnv, want map[string]any)     // changes the expected answer
		check  func(t *testing.T, tx synapsefake.Transaction) // the stored record
	}{
		{
			name:   "to an ACH-US node",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 10.5,
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if tx.AmountCents != 1050 || tx.Currency != "USD" {
					t.Errorf("amount %d %s, want 1050 USD", tx.AmountCents, tx.Currency)
				}
			},
		},
		{
			name:   "to another user's DEPOSIT-US node",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Payee.Node },
			amount: 0.01,
		},
		{
			name:   "the whole balance",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Savings },
			amount: 100,
		},
		{
			name:   "a note of 80 characters",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 1,
			edit:   func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "extra.note", note80) },
			want:   func(e testkit.TxEnv, w map[string]any) { testkit.PutPath(w, "extra.note", note80) },
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if tx.Note != note80 {
					t.Errorf("Note %q, want %q", tx.Note, note80)
				}
			},
		},
		{
			name:   "a note of 80 two-byte characters",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 1,
			edit:   func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "extra.note", noteRunes) },
			want:   func(e testkit.TxEnv, w map[string]any) { testkit.PutPath(w, "extra.note", noteRunes) },
		},
		{
			name:   "supp_id, group_id and same_day",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 1,
			edit: func(e testkit.TxEnv, b map[string]any) {
				testkit.PutPath(b, "extra.supp_id", "supp-1")
				testkit.PutPath(b, "extra.group_id", "group-1")
				testkit.PutPath(b, "extra.same_day", true)
			},
			want: func(e testkit.TxEnv, w map[string]any) {
				testkit.PutPath(w, "extra.supp_id", "supp-1")
				testkit.PutPath(w, "extra.group_id", "group-1")
				testkit.PutPath(w, "extra.same_day", true)
			},
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if tx.SuppID != "supp-1" || !tx.SameDay {
					t.Errorf("SuppID %q SameDay %v, want supp-1 true", tx.SuppID, tx.SameDay)
				}
			},
		},
		{
			name:   "process_on in 3 days",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 1,
			edit:   func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "extra.process_on", 3) },
			want: func(e testkit.TxEnv, w map[string]any) {
				testkit.PutPath(w, "extra.process_on", testkit.MsOf(testkit.Friday())+3*86400000)
			},
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if want := testkit.Friday().Add(72 * time.Hour); !tx.ProcessOn.Equal(want) || !tx.CreatedOn.Equal(testkit.Friday()) {
					t.Errorf("CreatedOn %v ProcessOn %v, want %v and %v", tx.CreatedOn, tx.ProcessOn, testkit.Friday(), want)
				}
			},
		},
		{
			name:   "process_on 0",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 1,
			edit:   func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "extra.process_on", 0) },
		},
		{
			name:   "padded base64 attachments",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 1,
			edit: func(e testkit.TxEnv, b map[string]any) {
				testkit.PutPath(b, "extra.other", map[string]any{"attachments": []any{"YWJj", "YQ==", "YWI="}})
			},
			want: func(e testkit.TxEnv, w map[string]any) {
				testkit.PutPath(w, "extra.other", map[string]any{"attachments": []any{"YWJj", "YQ==", "YWI="}})
			},
		},
		{
			name:   "one fee to a DEPOSIT-US node",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Payee.Node },
			amount: 20,
			edit: func(e testkit.TxEnv, b map[string]any) {
				b["fees"] = []any{map[string]any{"fee": 1.25, "note": "Platform fee", "to": map[string]any{"id": e.FeeNode.ID}}}
			},
			want: func(e testkit.TxEnv, w map[string]any) {
				w["fees"] = []any{map[string]any{"fee": 1.25, "note": "Platform fee", "to": map[string]any{"id": e.FeeNode.ID}}}
			},
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if len(tx.Fees) != 1 || tx.Fees[0].AmountCents != 125 {
					t.Errorf("Fees %+v, want one fee of 125 cents", tx.Fees)
				}
			},
		},
		{
			name:   "two fees, one to the sender's own DEPOSIT-US node",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 20,
			edit: func(e testkit.TxEnv, b map[string]any) {
				b["fees"] = []any{
					map[string]any{"fee": 1, "note": "a", "to": map[string]any{"id": e.FeeNode.ID}},
					map[string]any{"fee": 0.5, "to": map[string]any{"id": e.Savings.ID}},
				}
			},
			want: func(e testkit.TxEnv, w map[string]any) {
				w["fees"] = []any{
					map[string]any{"fee": 1.0, "note": "a", "to": map[string]any{"id": e.FeeNode.ID}},
					map[string]any{"fee": 0.5, "note": "", "to": map[string]any{"id": e.Savings.ID}},
				}
			},
		},
		{
			name:   "fees equal to the amount",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 2,
			edit: func(e testkit.TxEnv, b map[string]any) {
				b["fees"] = []any{map[string]any{"fee": 2, "note": "all", "to": map[string]any{"id": e.FeeNode.ID}}}
			},
			want: func(e testkit.TxEnv, w map[string]any) {
				w["fees"] = []any{map[string]any{"fee": 2.0, "note": "all", "to": map[string]any{"id": e.FeeNode.ID}}}
			},
		},
		{
			name:   "an empty fees list gets the default entry",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 1,
			edit:   func(e testkit.TxEnv, b map[string]any) { b["fees"] = []any{} },
		},
		{
			name:   "amounts are kept in exact cents",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 0.29,
			check: func(t *testing.T, tx synapsefake.Transaction) {
				if tx.AmountCents != 29 {
					t.Errorf("AmountCents %d, want 29", tx.AmountCents)
				}
			},
		},
		{
			name:   "unknown fields are ignored",
			to:     func(e testkit.TxEnv) synapsefake.Node { return e.Bank },
			amount: 1,
			edit: func(e testkit.TxEnv, b map[string]any) {
				b["unknown"] = true
				testkit.PutPath(b, "extra.latlon", "1,1")
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, start)
			to := tc.to(e)
			body := testkit.TxBody(to, tc.amount)
			if tc.edit != nil {
				tc.edit(e, body)
			}
			r := e.Post(t, body)
			want := testkit.WantTxJSON(t, e.Fake, "", e.Fx.Node, to, tc.amount, testkit.Friday())
			if tc.want != nil {
				tc.want(e, want)
			}
			testkit.WantTxBody(t, r, want)

			id, _ := r.Body["_id"].(string)
			tx := e.Tx(t, id)
			if tx.Status != synapsefake.StatusCreated || tx.UserID != e.Fx.User.ID ||
				tx.FromNodeID != e.Fx.Node.ID || tx.ToNodeID != to.ID || tx.Code != "" {
				t.Errorf("Transaction = %+v, want CREATED from %s to %s", tx, e.Fx.Node.ID, to.ID)
			}
			wantTimeline := []synapsefake.TimelineEntry{{Status: synapsefake.StatusCreated, Note: "Transaction Created.", Date: testkit.Friday()}}
			if diff := cmp.Diff(wantTimeline, tx.Timeline); diff != "" {
				t.Errorf("Timeline (-want +got):\n%s", diff)
			}
			if tc.check != nil {
				tc.check(t, tx)
			}
			// Creating moves no money.
			e.WantBalances(t, start, nil)
			// GET answers the same object.
			g := e.Get(t, id)
			testkit.WantTxBody(t, g, withID(want, r.Body["_id"]))
		})
	}
}

// withID fills in the _id and _links of an expected transaction made with "".
func withID(want map[string]any, id any) map[string]any {
	w := maps.Clone(want)
	w["_id"] = id
	href := w["_links"].(map[string]any)["self"].(map[string]any)["href"].(string)
	w["_links"] = map[string]any{"self": map[string]any{"href": href + fmt.Sprint(id)}}
	return w
}

// TestCreateTransactionFromExternalNode sends more than any balance from
// nodes of external types, which the fake does not limit, even
// WithFundsCheck.
func TestCreateTransactionFromExternalNode(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"ACH-US", "EXTERNAL-US", "INTERCHANGE-US"} {
		t.Run(typ, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, 0, synapsefake.WithFundsCheck())
			from := testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: typ, Nickname: "Outside"})
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: testkit.TransPath(e.Fx.User.ID, from.ID), Header: e.Fx.Headers,
				Body: testkit.TxBody(e.Fx.Node, 1_000_000)})
			testkit.WantTxBody(t, r, testkit.WantTxJSON(t, e.Fake, "", from, e.Fx.Node, 1_000_000, testkit.Friday()))
			// And a deposit-type node is limited.
			r = e.Post(t, testkit.TxBody(from, 0.01))
			wantErrorStatus(t, r, 409, "400", "insufficient_funds")
		})
	}
}

func TestCreateTransactionErrors(t *testing.T) {
	t.Parallel()
	const start = 50_00
	valid := func(e testkit.TxEnv) map[string]any { return testkit.TxBody(e.Bank, 10) }
	edited := func(edit func(e testkit.TxEnv, b map[string]any)) func(e testkit.TxEnv) any {
		return func(e testkit.TxEnv) any {
			b := valid(e)
			edit(e, b)
			return b
		}
	}
	deleteNode := func(t *testing.T, e testkit.TxEnv, n synapsefake.Node) {
		r := testkit.Do(t, e.Fake, testkit.Call{Method: "DELETE", Path: "/users/" + n.UserID + "/nodes/" + n.ID, Header: e.Fx.Headers})
		if r.Status != 200 {
			t.Fatalf("delete node: %d %s", r.Status, r.Raw)
		}
	}
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, e testkit.TxEnv)
		path    func(e testkit.TxEnv) string
		header  func(e testkit.TxEnv) map[string]string
		body    func(e testkit.TxEnv) any
		status  int
		errCode string
		code    string
	}{
		// Payload: 400 / "200".
		{name: "no to", body: edited(func(e testkit.TxEnv, b map[string]any) { delete(b, "to") }), status: 400, errCode: "200", code: "missing_to_type"},
		{name: "no to.type", body: edited(func(e testkit.TxEnv, b map[string]any) { delete(b["to"].(map[string]any), "type") }), status: 400, errCode: "200", code: "missing_to_type"},
		{name: "empty to.type", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "to.type", "") }), status: 400, errCode: "200", code: "missing_to_type"},
		{name: "no to.id", body: edited(func(e testkit.TxEnv, b map[string]any) { delete(b["to"].(map[string]any), "id") }), status: 400, errCode: "200", code: "missing_to_id"},
		{name: "no amount", body: edited(func(e testkit.TxEnv, b map[string]any) { delete(b, "amount") }), status: 400, errCode: "200", code: "missing_amount"},
		{name: "no amount.amount", body: edited(func(e testkit.TxEnv, b map[string]any) { delete(b["amount"].(map[string]any), "amount") }), status: 400, errCode: "200", code: "missing_amount"},
		{name: "no amount.currency", body: edited(func(e testkit.TxEnv, b map[string]any) { delete(b["amount"].(map[string]any), "currency") }), status: 400, errCode: "200", code: "missing_currency"},
		{name: "no extra", body: edited(func(e testkit.TxEnv, b map[string]any) { delete(b, "extra") }), status: 400, errCode: "200", code: "missing_ip"},
		{name: "no extra.ip", body: edited(func(e testkit.TxEnv, b map[string]any) { delete(b["extra"].(map[string]any), "ip") }), status: 400, errCode: "200", code: "missing_ip"},
		{name: "zero amount", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "amount.amount", 0) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "negative amount", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "amount.amount", -5) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "amount below a cent", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "amount.amount", 0.004) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "note of 1,001 characters", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "extra.note", strings.Repeat("x", 1001)) }), status: 400, errCode: "200", code: "note_too_long"},
		{name: "note of 1,001 two-byte characters", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "extra.note", strings.Repeat("é", 1001)) }), status: 400, errCode: "200", code: "note_too_long"},
		{name: "note that is not UTF-8", body: func(e testkit.TxEnv) any {
			return `{"to":{"type":"ACH-US","id":"` + e.Bank.ID + `"},"amount":{"amount":1,"currency":"USD"},"extra":{"ip":"1.1.1.1","note":"caf` + "\xe9" + `"}}`
		}, status: 400, errCode: "200", code: "invalid_utf8"},
		{name: "process_on past a year", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "extra.process_on", 366) }), status: 400, errCode: "200", code: "invalid_process_on"},
		{name: "body over 1 MiB", body: func(e testkit.TxEnv) any { return `{"padding":"` + strings.Repeat("a", 1<<20) + `"}` }, status: 400, errCode: "200", code: "body_too_large"},
		{name: "fractional process_on", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "extra.process_on", 1.5) }), status: 400, errCode: "200", code: "invalid_field_type"},
		// A negative process_on, attachments that are not padded base64 and
		// a to.type that names another type are taken: WithStrictRequests
		// refuses them (TestContractRulesTheSandboxTook).
		{name: "fee without amount", body: edited(func(e testkit.TxEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"note": "x", "to": map[string]any{"id": e.FeeNode.ID}}}
		}), status: 400, errCode: "200", code: "invalid_fee"},
		{name: "negative fee", body: edited(func(e testkit.TxEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": -1, "to": map[string]any{"id": e.FeeNode.ID}}}
		}), status: 400, errCode: "200", code: "invalid_fee"},
		{name: "fee below a cent", body: edited(func(e testkit.TxEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 0.001, "to": map[string]any{"id": e.FeeNode.ID}}}
		}), status: 400, errCode: "200", code: "invalid_fee"},
		{name: "amount with three decimals", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "amount.amount", 1.004) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "amount over MaxAmountCents", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "amount.amount", 1_000_000_000.01) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "the issue's $1e12", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "amount.amount", 1e12) }), status: 400, errCode: "200", code: "invalid_amount"},
		{name: "fee over MaxAmountCents", body: edited(func(e testkit.TxEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 1_000_000_000.01, "to": map[string]any{"id": e.FeeNode.ID}}}
		}), status: 400, errCode: "200", code: "invalid_fee"},
		{name: "fee without node", body: edited(func(e testkit.TxEnv, b map[string]any) { b["fees"] = []any{map[string]any{"fee": 1}} }), status: 400, errCode: "200", code: "missing_fee_node"},
		{name: "malformed JSON", body: func(e testkit.TxEnv) any { return `{"to":` }, status: 400, errCode: "200", code: "invalid_json"},
		{name: "array body", body: func(e testkit.TxEnv) any { return `[]` }, status: 400, errCode: "200", code: "invalid_json"},
		{name: "empty body", body: func(e testkit.TxEnv) any { return `` }, status: 400, errCode: "200", code: "invalid_json"},
		{name: "amount as a string", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "amount.amount", "10") }), status: 400, errCode: "200", code: "invalid_field_type"},
		{name: "to.id as a number", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "to.id", 5) }), status: 400, errCode: "200", code: "invalid_field_type"},
		{name: "same_day as a string", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "extra.same_day", "yes") }), status: 400, errCode: "200", code: "invalid_field_type"},
		{name: "fees as an object", body: edited(func(e testkit.TxEnv, b map[string]any) { b["fees"] = map[string]any{} }), status: 400, errCode: "200", code: "invalid_field_type"},

		// Values: 409 / "400".
		{name: "currency other than USD", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "amount.currency", "EUR") }), status: 409, errCode: "400", code: "unsupported_currency"},
		{name: "to the sending node", body: func(e testkit.TxEnv) any { return testkit.TxBody(e.Fx.Node, 1) }, status: 409, errCode: "400", code: "same_node"},
		{name: "fee node of type ACH-US", body: edited(func(e testkit.TxEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 1, "to": map[string]any{"id": e.Bank.ID}}}
		}), status: 409, errCode: "400", code: "invalid_fee_node"},
		{name: "unknown fee node", body: edited(func(e testkit.TxEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 1, "to": map[string]any{"id": "0123456789abcdef01234567"}}}
		}), status: 409, errCode: "400", code: "invalid_fee_node"},
		{name: "deleted fee node", setup: func(t *testing.T, e testkit.TxEnv) {
			owner := e.Fake.OAuthKey(e.FeeNode.UserID, testkit.TestFingerprint)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "DELETE", Path: "/users/" + e.FeeNode.UserID + "/nodes/" + e.FeeNode.ID, Header: testkit.UserHeaders(e.Fake, owner)})
			if r.Status != 200 {
				t.Fatalf("delete fee node: %d %s", r.Status, r.Raw)
			}
		}, body: edited(func(e testkit.TxEnv, b map[string]any) {
			b["fees"] = []any{map[string]any{"fee": 1, "to": map[string]any{"id": e.FeeNode.ID}}}
		}), status: 409, errCode: "400", code: "invalid_fee_node"},
		{name: "fees over the amount", body: edited(func(e testkit.TxEnv, b map[string]any) {
			b["fees"] = []any{
				map[string]any{"fee": 6, "to": map[string]any{"id": e.FeeNode.ID}},
				map[string]any{"fee": 4.01, "to": map[string]any{"id": e.FeeNode.ID}},
			}
		}), status: 409, errCode: "400", code: "fees_exceed_amount"},
		{name: "deleted receiver", setup: func(t *testing.T, e testkit.TxEnv) { deleteNode(t, e, e.Bank) }, body: func(e testkit.TxEnv) any { return valid(e) }, status: 409, errCode: "400", code: "receiver_inactive"},
		{name: "deleted sender", setup: func(t *testing.T, e testkit.TxEnv) { deleteNode(t, e, e.Fx.Node) }, body: func(e testkit.TxEnv) any { return valid(e) }, status: 409, errCode: "410", code: "node_inactive"},

		// Objects.
		{name: "unknown to.id", body: edited(func(e testkit.TxEnv, b map[string]any) { testkit.PutPath(b, "to.id", "0123456789abcdef01234567") }), status: 404, errCode: "404", code: "unable_to_locate_node"},
		{name: "unknown sending node", path: func(e testkit.TxEnv) string { return testkit.TransPath(e.Fx.User.ID, "0123456789abcdef01234567") }, status: 404, errCode: "404", code: "unable_to_locate_node"},
		{name: "another user's sending node", path: func(e testkit.TxEnv) string { return testkit.TransPath(e.Fx.User.ID, e.Payee.Node.ID) }, status: 401, errCode: "300", code: "unauthorized_node"},
		{name: "another user's path", path: func(e testkit.TxEnv) string { return testkit.TransPath(e.Payee.User.ID, e.Payee.Node.ID) }, status: 401, errCode: "300", code: "unauthorized_user"},

		// Credentials and scope.
		{name: "key without TRANS|POST", header: func(e testkit.TxEnv) map[string]string {
			return testkit.UserHeaders(e.Fake, e.Fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint, "TRANS|GET", "TRAN|GET"))
		}, status: 401, errCode: "300", code: "scope_not_granted"},
		{name: "no X-SP-USER", header: func(e testkit.TxEnv) map[string]string {
			h := maps.Clone(e.Fx.Headers)
			delete(h, "X-SP-USER")
			return h
		}, status: 400, errCode: "200", code: "missing_user_credentials"},
		{name: "empty oauth key", header: func(e testkit.TxEnv) map[string]string { return testkit.UserHeaders(e.Fake, "") }, status: 401, errCode: "300", code: "missing_oauth_key"},
		{name: "unknown oauth key", header: func(e testkit.TxEnv) map[string]string { return testkit.UserHeaders(e.Fake, "oauth_unknown") }, status: 401, errCode: "110", code: "invalid_oauth_key"},
		{name: "wrong gateway", header: func(e testkit.TxEnv) map[string]string {
			h := maps.Clone(e.Fx.Headers)
			h["X-SP-GATEWAY"] = e.Fake.ClientID() + "|wrong"
			return h
		}, status: 401, errCode: "100", code: "invalid_client_credentials"},
		{name: "no X-SP-USER-IP", header: func(e testkit.TxEnv) map[string]string {
			h := maps.Clone(e.Fx.Headers)
			delete(h, "X-SP-USER-IP")
			return h
		}, status: 400, errCode: "200", code: "missing_user_ip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, start)
			// An earlier transaction that must stay as it is.
			earlier := e.Create(t, e.Savings, 1)
			if tc.setup != nil {
				tc.setup(t, e)
			}
			path := testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)
			if tc.path != nil {
				path = tc.path(e)
			}
			header := e.Fx.Headers
			if tc.header != nil {
				header = tc.header(e)
			}
			var body any = valid(e)
			if tc.body != nil {
				body = tc.body(e)
			}
			before := e.State(t, earlier)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "POST", Path: path, Header: header, Body: body})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.WantTxUnchanged(t, before)
		})
	}
}

// TestTransactionBalances follows the money through every move: the sender
// at PROCESSING-DEBIT, the receiver (amount less fees) and the fee nodes at
// SETTLED, all of it back on RETURNED.
func TestTransactionBalances(t *testing.T) {
	t.Parallel()
	const start = 500_00
	fee := func(e testkit.TxEnv) []any {
		return []any{
			map[string]any{"fee": 2.5, "note": "Platform", "to": map[string]any{"id": e.FeeNode.ID}},
			map[string]any{"fee": 0.5, "note": "Ops", "to": map[string]any{"id": e.Savings.ID}},
		}
	}
	debited := map[string]int64{"sender": start - 100_00}
	settled := map[string]int64{"sender": start - 100_00, "payee": 97_00, "fees": 2_50, "savings": 50}
	for _, tc := range []struct {
		name  string
		steps []func(f *synapsefake.Server, id string) error
		want  []map[string]int64 // balances after each step
	}{
		{
			name: "one move at a time",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusProcessingDebit)
				},
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusProcessingCredit)
				},
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusSettled)
				},
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusReturned)
				},
			},
			want: []map[string]int64{debited, debited, settled, nil},
		},
		{
			name: "returned from PROCESSING-CREDIT refunds the sender",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusProcessingDebit)
				},
				func(f *synapsefake.Server, id string) error {
					return f.AdvanceTransaction(id, synapsefake.StatusProcessingCredit)
				},
				func(f *synapsefake.Server, id string) error { return f.Return(id, "R01") },
			},
			want: []map[string]int64{debited, debited, nil},
		},
		{
			name: "Settle then Return with a card code",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error { return f.Settle(id) },
				func(f *synapsefake.Server, id string) error { return f.Return(id, "IR51") },
			},
			want: []map[string]int64{settled, nil},
		},
		{
			name: "the clock settles an internal transfer",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error { f.Advance(time.Millisecond); return nil },
			},
			want: []map[string]int64{settled},
		},
		{
			name: "canceled before processing moves nothing",
			steps: []func(*synapsefake.Server, string) error{
				func(f *synapsefake.Server, id string) error { return f.Cancel(id, "") },
				func(f *synapsefake.Server, id string) error { f.Advance(30 * 24 * time.Hour); return nil },
			},
			want: []map[string]int64{nil, nil},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testkit.NewTxEnv(t, start)
			body := testkit.TxBody(e.Payee.Node, 100)
			body["fees"] = fee(e)
			id := e.CreateFrom(t, e.Fx, e.Fx.Node, body)
			e.WantBalances(t, start, nil)
			for i, step := range tc.steps {
				if err := step(e.Fake, id); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				e.WantBalances(t, start, tc.want[i])
			}
		})
	}
}

func TestGetTransaction(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	id := e.Create(t, e.Payee.Node, 12.34)
	want := testkit.WantTxJSON(t, e.Fake, id, e.Fx.Node, e.Payee.Node, 12.34, testkit.Friday())
	// The sender sees it under the sending node, the payee under the receiving one.
	testkit.WantTxBody(t, e.Get(t, id), want)
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: testkit.TranPath(e.Payee.User.ID, e.Payee.Node.ID, id), Header: e.Payee.Headers})
	testkit.WantTxBody(t, r, want)
	// A key with TRAN|GET alone is enough.
	key := e.Fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint, "TRAN|GET")
	r = testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: testkit.UserHeaders(e.Fake, key)})
	testkit.WantTxBody(t, r, want)
}

func TestGetTransactionErrors(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	mine := e.Create(t, e.Bank, 1)
	toPayee := e.Create(t, e.Payee.Node, 1)
	// A transaction between two nodes of the payee's.
	payeeSavings := testkit.AddTxNode(t, e.Fake, e.Payee.User.ID, synapsefake.NodeSeed{Nickname: "Payee savings", BalanceCents: 10_00})
	theirs := e.CreateFrom(t, e.Payee, payeeSavings, testkit.TxBody(e.Payee.Node, 1))
	const unknown = "0123456789abcdef01234567"
	for _, tc := range []struct {
		name    string
		path    string
		header  map[string]string
		status  int
		errCode string
		code    string
	}{
		{"another user's transaction", testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, theirs), e.Fx.Headers, 401, "300", "unauthorized_transaction"},
		{"another user's transaction under their node", testkit.TranPath(e.Fx.User.ID, e.Payee.Node.ID, theirs), e.Fx.Headers, 401, "300", "unauthorized_node"},
		{"another user's path", testkit.TranPath(e.Payee.User.ID, e.Payee.Node.ID, theirs), e.Fx.Headers, 401, "300", "unauthorized_user"},
		{"unknown transaction", testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, unknown), e.Fx.Headers, 404, "404", "unable_to_locate_transaction"},
		{"own transaction under a node it does not touch", testkit.TranPath(e.Fx.User.ID, e.Savings.ID, mine), e.Fx.Headers, 404, "404", "unable_to_locate_transaction"},
		{"the payee's transaction under the payee's other node", testkit.TranPath(e.Payee.User.ID, payeeSavings.ID, toPayee), e.Payee.Headers, 404, "404", "unable_to_locate_transaction"},
		{"unknown node", testkit.TranPath(e.Fx.User.ID, unknown, mine), e.Fx.Headers, 404, "404", "unable_to_locate_node"},
		{"key without TRAN|GET", testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, mine),
			testkit.UserHeaders(e.Fake, e.Fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint, "TRANS|GET")), 401, "300", "scope_not_granted"},
		{"unknown oauth key", testkit.TranPath(e.Fx.User.ID, e.Fx.Node.ID, mine), testkit.UserHeaders(e.Fake, "oauth_x"), 401, "110", "invalid_oauth_key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.State(t, mine, toPayee, theirs)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: tc.path, Header: tc.header})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.WantTxUnchanged(t, before)
		})
	}
}

// transWrapper is the list wrapper of the transaction lists.
func transWrapper(limit, page, pageCount, count int, trans []any) map[string]any {
	if trans == nil {
		trans = []any{}
	}
	return map[string]any{
		"error_code":  "0",
		"http_code":   "200",
		"limit":       float64(limit),
		"page":        float64(page),
		"page_count":  float64(pageCount),
		"success":     true,
		"trans":       trans,
		"trans_count": float64(count),
	}
}

// listedTx is a transaction as a list shows it: the single object without
// success, as the sender's user sees it.
func listedTx(t testing.TB, e testkit.TxEnv, id string) any {
	t.Helper()
	tx := e.Tx(t, id)
	node := tx.FromNodeID
	if tx.UserID != e.Fx.User.ID {
		node = tx.ToNodeID
	}
	r := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: testkit.TranPath(e.Fx.User.ID, node, id), Header: e.Fx.Headers})
	if r.Status != 200 {
		t.Fatalf("GET %s: %d %s", id, r.Status, r.Raw)
	}
	m := maps.Clone(r.Body)
	delete(m, "success")
	return m
}

func TestListTransactions(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 1000_00, synapsefake.WithManualProcessing())
	// Oldest first: four to the bank, one to the payee, one received from
	// the payee on the savings node. Manual processing keeps them CREATED.
	var ids []string
	for i := range 4 {
		ids = append(ids, e.Create(t, e.Bank, float64(i+1)))
		e.Fake.Advance(time.Second) // distinct created_on
	}
	ids = append(ids, e.Create(t, e.Payee.Node, 5))
	payeeSavings := testkit.AddTxNode(t, e.Fake, e.Payee.User.ID, synapsefake.NodeSeed{Nickname: "Payee savings", BalanceCents: 10_00})
	received := e.CreateFrom(t, e.Payee, payeeSavings, testkit.TxBody(e.Savings, 0.01))
	listed := func(ids ...string) []any {
		out := make([]any, len(ids))
		for i, id := range ids {
			out[i] = listedTx(t, e, id)
		}
		return out
	}
	user := "/users/" + e.Fx.User.ID + "/trans"
	for _, tc := range []struct {
		name string
		path string
		want map[string]any
	}{
		{"the user's, newest first", user, transWrapper(20, 1, 1, 6, listed(received, ids[4], ids[3], ids[2], ids[1], ids[0]))},
		{"the sending node's", testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID), transWrapper(20, 1, 1, 5, listed(ids[4], ids[3], ids[2], ids[1], ids[0]))},
		{"the bank node's", testkit.TransPath(e.Fx.User.ID, e.Bank.ID), transWrapper(20, 1, 1, 4, listed(ids[3], ids[2], ids[1], ids[0]))},
		{"the receiving node's", testkit.TransPath(e.Fx.User.ID, e.Savings.ID), transWrapper(20, 1, 1, 1, listed(received))},
		{"a node with none", testkit.TransPath(e.Fx.User.ID, testkit.AddTxNode(t, e.Fake, e.Fx.User.ID, synapsefake.NodeSeed{}).ID), transWrapper(20, 1, 0, 0, nil)},
		{"page 2 of 2", user + "?per_page=4&page=2", transWrapper(4, 2, 2, 6, listed(ids[1], ids[0]))},
		{"page 1 of 3", user + "?page=1&per_page=2", transWrapper(2, 1, 3, 6, listed(received, ids[4]))},
		{"a page past the end", user + "?per_page=4&page=3", transWrapper(4, 3, 2, 6, nil)},
		{"per_page above 20 is capped", user + "?per_page=100", transWrapper(20, 1, 1, 6, listed(received, ids[4], ids[3], ids[2], ids[1], ids[0]))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: tc.path, Header: e.Fx.Headers})
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			if diff := cmp.Diff(tc.want, r.Body); diff != "" {
				t.Errorf("list (-want +got):\n%s", diff)
			}
		})
	}
}

// TestListTransactionsPaging fills more than a page: the default page is the
// 20 newest, per_page defaults to 20.
func TestListTransactionsPaging(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 2000_00, synapsefake.WithManualProcessing())
	var ids []string
	for i := range 45 {
		ids = append(ids, e.Create(t, e.Bank, float64(i+1)))
	}
	slices.Reverse(ids)
	for _, tc := range []struct {
		query           string
		page, pageCount int
		want            []string
	}{
		{"", 1, 3, ids[:20]},
		{"?page=2", 2, 3, ids[20:40]},
		{"?page=3", 3, 3, ids[40:]},
		{"?page=4", 4, 3, nil},
	} {
		for _, path := range []string{"/users/" + e.Fx.User.ID + "/trans", testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)} {
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: path + tc.query, Header: e.Fx.Headers})
			trans, _ := r.Body["trans"].([]any)
			got := make([]string, len(trans))
			for i, tx := range trans {
				got[i], _ = tx.(map[string]any)["_id"].(string)
			}
			if !slices.Equal(got, tc.want) || r.Body["page"] != float64(tc.page) ||
				r.Body["page_count"] != float64(tc.pageCount) || r.Body["trans_count"] != 45.0 || r.Body["limit"] != 20.0 {
				t.Errorf("GET %s%s: page %v of %v (%v items, limit %v), ids %v; want page %d of %d, ids %v",
					path, tc.query, r.Body["page"], r.Body["page_count"], r.Body["trans_count"], r.Body["limit"], got, tc.page, tc.pageCount, tc.want)
			}
		}
	}
}

func TestListTransactionsErrors(t *testing.T) {
	t.Parallel()
	e := testkit.NewTxEnv(t, 100_00)
	id := e.Create(t, e.Bank, 1)
	user := "/users/" + e.Fx.User.ID + "/trans"
	for _, tc := range []struct {
		name    string
		path    string
		header  map[string]string
		status  int
		errCode string
		code    string
	}{
		{"page 0", user + "?page=0", e.Fx.Headers, 400, "200", "invalid_page"},
		{"page not a number", user + "?page=x", e.Fx.Headers, 400, "200", "invalid_page"},
		{"per_page 0", testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID) + "?per_page=0", e.Fx.Headers, 400, "200", "invalid_per_page"},
		{"another user's list", "/users/" + e.Payee.User.ID + "/trans", e.Fx.Headers, 401, "300", "unauthorized_user"},
		{"another user's node", testkit.TransPath(e.Fx.User.ID, e.Payee.Node.ID), e.Fx.Headers, 401, "300", "unauthorized_node"},
		{"unknown node", testkit.TransPath(e.Fx.User.ID, "0123456789abcdef01234567"), e.Fx.Headers, 404, "404", "unable_to_locate_node"},
		{"key without TRANS|GET", user, testkit.UserHeaders(e.Fake, e.Fake.OAuthKey(e.Fx.User.ID, testkit.TestFingerprint, "TRAN|GET")), 401, "300", "scope_not_granted"},
		{"no X-SP-USER-IP", user, map[string]string{"X-SP-GATEWAY": e.Fake.Gateway(), "X-SP-USER": e.Fx.Key + "|" + testkit.TestFingerprint}, 400, "200", "missing_user_ip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.State(t, id)
			r := testkit.Do(t, e.Fake, testkit.Call{Method: "GET", Path: tc.path, Header: tc.header})
			wantErrorStatus(t, r, tc.status, tc.errCode, tc.code)
			e.WantTxUnchanged(t, before)
		})
	}
}
