// Dummy transactions, the bank's side: the request and the transaction it makes.

package bank

import (
	"slices"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// Dummy transaction types, spelled as the spec shows them.
var dummyTypes = []string{"ACH", "WIRE", "INTERNAL_TRASFER"}

// DummyRequest is the body of POST .../subnets/{subnet_id}/dummy-tran.
type DummyRequest struct {
	Currency     *string  `json:"currency"`
	Amount       *float64 `json:"amount"`
	Type         *string  `json:"type"`
	Direction    *string  `json:"direction"`
	AccountNum   string   `json:"account_num"`
	RoutingNum   string   `json:"routing_num"`
	Addenda      string   `json:"addenda"`
	TrackingID   string   `json:"tracking_id"`
	PostingLabel string   `json:"posting_label"`
	CompanyID    string   `json:"company_id"`
	IndividualID string   `json:"individual_id"`
	Foreign      bool     `json:"-"` // the legacy GET form's foreign_transaction
}

// Validate checks the body's payload rules: amount, USD currency, type and
// direction.
func (r DummyRequest) Validate() error {
	switch {
	case r.Amount == nil || !ValidAmount(*r.Amount):
		return errInvalidAmount("amount")
	case r.Currency == nil || *r.Currency == "":
		return apierr.Payload("missing_currency", "currency is required.")
	case r.Type == nil || !slices.Contains(dummyTypes, *r.Type):
		return apierr.Payload("invalid_type", "type must be one of %v.", dummyTypes)
	case r.Direction == nil || *r.Direction != "DEPOSIT" && *r.Direction != "WITHDRAWAL":
		return apierr.Payload("invalid_direction", "direction must be DEPOSIT or WITHDRAWAL.")
	case *r.Currency != "USD":
		return apierr.Incorrect("unsupported_currency", "Dummy transactions support USD only.")
	}
	return nil
}

// dummyStandIn is the key under which dummy checks a transaction against a
// network node not made yet: no id of the fake's has this form.
const dummyStandIn = "network-stand-in"

// dummy creates a sandbox transaction between a node (through one of its
// account-number subnets, or directly when sn is nil) and the outside
// world: DEPOSIT credits the node, WITHDRAWAL debits it, both on the normal
// processing schedule. With checkFunds (WithFundsCheck) a withdrawal must
// fit in a deposit-type node's available balance. Callers hold mu.
func (st *Store) dummy(now time.Time, n *nodeRecord, sn *subnetRecord, req DummyRequest, checkFunds bool) (*txRecord, error) {
	if err := st.accountOpen(n); err != nil {
		return nil, err
	}
	amount := ToCents(*req.Amount)
	// A refused dummy makes nothing: until the checks pass, the hidden
	// network's EXTERNAL-US node, made on first use, is a stand-in of its
	// type holding no money (as the new node would), and no id is drawn.
	ext, standIn := st.nodes[st.network[reference.NodeExternalUS]], false
	if ext == nil {
		ext, standIn = &nodeRecord{id: dummyStandIn, typ: reference.NodeExternalUS, isActive: true}, true
		st.nodes[dummyStandIn] = ext
		defer delete(st.nodes, dummyStandIn)
	}
	t := &txRecord{userID: n.userID, fromNode: ext.id, toNode: n.id, amount: amount, currency: "USD",
		fees: []feeRecord{{note: "Facilitator Fee"}}, ip: "127.0.0.1", note: req.Addenda, created: now, processOn: now,
		start: now, status: StatusCreated, sameDay: *req.Type == "WIRE"}
	if *req.Direction == "WITHDRAWAL" {
		t.fromNode, t.toNode = n.id, ext.id
	}
	// As POST .../trans: the node's type must trade with the outside world
	// that way (the legacy form takes any node, not only a subnet's). A card
	// node takes dummy credits and debits too, as clients used the sandbox's:
	// a card swipe or a refund stands for one.
	if from, to := st.nodes[t.fromNode], st.nodes[t.toNode]; !reference.CanTransfer(from.typ, to.typ) &&
		reference.BaseNodeType(n.typ) != reference.NodeCardUS {
		return nil, apierr.Incorrect("transaction_not_allowed", "Transactions from a %s node to a %s node are not allowed.", from.typ, to.typ)
	}
	if err := st.checkPromise(t, checkFunds); err != nil {
		return nil, err
	}
	if standIn {
		netID := st.networkNode(now, reference.NodeExternalUS).id
		if t.fromNode == dummyStandIn {
			t.fromNode = netID
		} else {
			t.toNode = netID
		}
	}
	t.id = st.newID()
	subnetID := ""
	if sn != nil {
		subnetID = sn.id
	}
	name := req.PostingLabel
	if name == "" {
		name = "SYNAPSEFAKE SANDBOX"
	}
	t.fromMeta = map[string]any{
		"account_num": req.AccountNum, "addenda": req.Addenda, "company_entry_description": req.Addenda,
		"company_id": req.CompanyID, "company_name": name, "dispute_transaction_id": nil, "entry_class": "PPD",
		"foreign_transaction": req.Foreign, "fraud_score": map[string]any{"reason": "", "score": 0}, "high_risk": false,
		"individual_id": req.IndividualID, "is_dispute_posting": false, "is_force_post": false, "is_platform_fee": false,
		"merchant_name": name, "monitoring_class": "", "name": name, "network_id": *req.Type, "posted_date": Ms(now),
		"posting_data": nil, "routing_num": req.RoutingNum, "subnet_id": subnetID, "tracking_id": req.TrackingID, "type": *req.Type,
	}
	t.other = map[string]any{
		"affect_limits": true, "approved": true, "async_ran": false, "attachments": []string{}, "chargeback_disputed": false,
		"create_email_sent": false, "dispute_form": nil, "dispute_meta": map[string]any{}, "dispute_reason": nil,
		"disputed": false, "do_next": nil, "is_provisional_credit": false,
		"process": map[string]any{"credit": true, "debit": true}, "provisional_credit_transaction_id": nil,
		"settlement_batch_id": nil, "show_queue": false, "skip_validation": true,
	}
	st.addTx(t, statusEntry{Date: Ms(now), Note: "Transaction Created.", Status: StatusCreated})
	if sn != nil {
		sn.txIDs = append(sn.txIDs, t.id)
	}
	return t, nil
}

// dummyView makes a dummy transaction and returns its view. Callers hold mu.
func (st *Store) dummyView(now time.Time, n *nodeRecord, sn *subnetRecord, req DummyRequest, checkFunds bool) (TxView, error) {
	t, err := st.dummy(now, n, sn, req, checkFunds)
	if err != nil {
		return TxView{}, err
	}
	return st.txView(t), nil
}
