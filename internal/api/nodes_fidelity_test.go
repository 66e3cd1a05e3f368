package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// The tests here follow the provider's own integration suites for its older
// Python and Ruby clients (issue 21), which passed against its sandbox.

// TestOlderNodeTypeNames creates a node under each older type name: it reads
// back with that name, lists under it, and behaves as today's type.
func TestOlderNodeTypeNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typ         string
		info        map[string]any
		wantAllowed string
		wantPath    string // an info field the type shows
	}{
		{"SYNAPSE-US", map[string]any{"nickname": "Test SYNAPSE-US Account"}, "CREDIT-AND-DEBIT", "info.agreements"},
		{"CLEARING-US", map[string]any{"nickname": "Clearing"}, "CREDIT-AND-DEBIT", "info.agreements"},
		{"RESERVE-US", map[string]any{"nickname": "Test RESERVE-US Account"}, "CREDIT-AND-DEBIT", "info.agreements"},
		{"TRIUMPH-SUBACCOUNT-US", map[string]any{"nickname": "Triumph"}, "CREDIT-AND-DEBIT", "info.agreements"},
		{"SUBCARD-US", map[string]any{"nickname": "Debit Card", "document_id": "doc", "card_type": "PHYSICAL"}, "INACTIVE", "info.card_hash"},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			node := createdNode(t, fake, fx, map[string]any{"type": tc.typ, "info": tc.info})
			if node["type"] != tc.typ || node["allowed"] != tc.wantAllowed || getPath(node, tc.wantPath) == nil {
				t.Errorf("type %v allowed %v %s %v, want %s %s and a value", node["type"], node["allowed"], tc.wantPath, getPath(node, tc.wantPath), tc.typ, tc.wantAllowed)
			}
			id := node["_id"].(string)
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodePath(fx.User.ID, id), Header: fx.Headers})
			if r.Status != http.StatusOK || r.Body["type"] != tc.typ {
				t.Errorf("GET: %d type %v, want 200 %s", r.Status, r.Body["type"], tc.typ)
			}
			// The fixture's DEPOSIT-US node lists under the older names of
			// DEPOSIT-US too (TestOlderNodeNamesCompareAsTheirType).
			want := []string{id}
			if reference.BaseNodeType(tc.typ) == "DEPOSIT-US" {
				want = []string{fx.Node.ID, id}
			}
			r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodesPath(fx.User.ID) + "?type=" + tc.typ, Header: fx.Headers})
			if diff := cmp.Diff(want, nodeIDs(r.Body)); r.Status != http.StatusOK || diff != "" {
				t.Errorf("GET ?type=%s: %d, nodes (-want +got):\n%s", tc.typ, r.Status, diff)
			}
			r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/nodes/types", Header: fx.Headers})
			types, _ := r.Body["node_types"].([]any)
			if r.Status != http.StatusOK || len(types) == 0 {
				t.Fatalf("GET /nodes/types: %d %s, want the list of node types", r.Status, r.Raw)
			}
			for _, nt := range types {
				if nt.(map[string]any)["type"] == tc.typ {
					t.Errorf("GET /nodes/types lists %s; older names are aliases, not types of their own", tc.typ)
				}
			}
		})
	}
}

// TestSynapseUSBehavesAsDeposit uses SYNAPSE-US nodes as the suites did: as
// transfer targets, fee nodes and subnet hosts; SUBCARD-US as a card.
func TestSynapseUSBehavesAsDeposit(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 10_000)
	syn := createdNode(t, fake, fx, map[string]any{"type": "SYNAPSE-US", "info": map[string]any{"nickname": "Fees"}})
	synID := syn["_id"].(string)

	body := map[string]any{
		"to":     map[string]any{"type": "SYNAPSE-US", "id": synID},
		"amount": map[string]any{"amount": 10.0, "currency": "USD"},
		"extra":  map[string]any{"ip": testkit.TxIP},
		"fees":   []any{map[string]any{"fee": 1.0, "note": "Facilitator Fee", "to": map[string]any{"id": synID}}},
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: body})
	if r.Status != http.StatusOK || getPath(r.Body, "to.type") != "SYNAPSE-US" {
		t.Fatalf("transfer to and fee to a SYNAPSE-US node: %d %s, want 200", r.Status, r.Raw)
	}

	r = testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.SubnetsPath(fx.User.ID, synID), Header: fx.Headers,
		Body: map[string]any{"nickname": "Card", "account_class": "CARD"}})
	if r.Status != http.StatusOK {
		t.Errorf("subnet on a SYNAPSE-US node: %d %s, want 200", r.Status, r.Raw)
	}

	sub := createdNode(t, fake, fx, map[string]any{"type": "SUBCARD-US", "info": map[string]any{"nickname": "Sub", "document_id": "doc"}})
	r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: testkit.NodePath(fx.User.ID, sub["_id"].(string)), Header: fx.Headers,
		Body: map[string]any{"preferences": map[string]any{"max_pin_attempts": 4}}})
	if r.Status != http.StatusOK || getPath(r.Body, "info.preferences.max_pin_attempts") != 4.0 {
		t.Errorf("SUBCARD-US update_preferences: %d %s, want 200 and max_pin_attempts 4", r.Status, r.Raw)
	}

	seeded, err := fake.AddNode(fx.User.ID, synapsefake.NodeSeed{Type: "RESERVE-US", Nickname: "Reserve"})
	if err != nil || seeded.Type != "RESERVE-US" {
		t.Errorf("AddNode RESERVE-US = %+v, %v; want the node", seeded, err)
	}
}

// TestInterchangeEncryptedCardNumber: the SDKs send card_number encrypted;
// the node shows four digits, not the ciphertext's end ("Zg==").
func TestInterchangeEncryptedCardNumber(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	const cipher = "Zoo8g2vBUjt7TwmEpRW8f6eQT3AOEEYePw2LkoxD+mO9lOT5OemHlGwgamgLGUbrmWu3DPwnEr2IqDy5YMFVgvQWP3w9nLOFzFFSW43auDgsVAqZScoRf8nI+6/B9KvOEV4XI8JeyXT+O+y3p3RtbiXGmYQNJ56Hy3hs2E5O+yn+3fpLfJQpVvNc38V+aE21VEsJuXFFNtS/8r4jJ6Dx/etTEaE/rtcEUEbwLLHFHjPiOWaHWZPuhXFLtyYrR9zG8FWSJVFwNTG/mEpv2O7We1iCB+9WoEKqdHyGwjjBcVgkUlU5huJIXv9xj53RGNvmHkDFTqgrlHpKkb0E/Ot0Zg=="
	node := createdNode(t, fake, fx, map[string]any{"type": "INTERCHANGE-US", "info": map[string]any{
		"nickname": "Debit Card", "card_number": cipher, "exp_date": "ctA4Zj1CP0WCiMefPYsyewVb", "document_id": "doc"}})
	n, _ := getPath(node, "info.card_number").(string)
	if len(n) != 4 || !allDigitsTest(n) {
		t.Errorf("card_number %q, want four digits", n)
	}
	for _, f := range []string{"info.network", "info.type", "info.card_hash", "info.is_international"} {
		if getPath(node, f) == nil {
			t.Errorf("%s missing", f)
		}
	}
}

func allDigitsTest(s string) bool {
	return !slices.ContainsFunc([]byte(s), func(c byte) bool { return c < '0' || c > '9' })
}

// TestWireUSCorrespondentAddress: the Ruby suite created WIRE-US nodes with
// correspondent_info and no info.address.
func TestWireUSCorrespondentAddress(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	info := map[string]any{"nickname": "Test WIRE-US Account", "account_num": "2222222222", "routing_num": validRouting,
		"name_on_account": "Payee", "correspondent_info": map[string]any{"routing_num": validRouting,
			"bank_name": "Bank of America", "address": "1 Corr St"}}
	node := createdNode(t, fake, fx, map[string]any{"type": "WIRE-US", "info": info})
	if getPath(node, "info.address") != "1 Corr St" || getPath(node, "info.correspondent_info.bank_name") != "Bank of America" ||
		getPath(node, "info.correspondent_info.routing_num") != "0017" {
		t.Errorf("info %v, want the correspondent's address and correspondent_info", node["info"])
	}

	before := inspectNodes(t, fake, []string{fx.User.ID})
	delete(info, "correspondent_info")
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodesPath(fx.User.ID), Header: fx.Headers, Body: map[string]any{"type": "WIRE-US", "info": info}})
	wantErrorStatus(t, r, 400, "200", "missing_info")
	wantUnchanged(t, fake, before)
}

// TestCardNodeActionsAsTheSuiteExpected: reissue_card leaves the card
// INACTIVE (even an active one: the new number awaits activation), reorder
// keeps it as it is, and allowed PENDING is taken and read back.
func TestCardNodeActionsAsTheSuiteExpected(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	card := createdNode(t, fake, fx, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "Debit Card", "document_id": "doc", "card_type": "PHYSICAL"}})
	path := testkit.NodePath(fx.User.ID, card["_id"].(string))
	for _, step := range []struct {
		name, query string
		body        map[string]any
		wantAllowed string
	}{
		{"reorder a new card", "?reorder_card=YES", map[string]any{}, "INACTIVE"},
		{"activate", "", map[string]any{"allowed": "CREDIT-AND-DEBIT"}, "CREDIT-AND-DEBIT"},
		{"reorder keeps it active", "?reorder_card=YES", map[string]any{}, "CREDIT-AND-DEBIT"},
		{"reissue", "?reissue_card=YES", map[string]any{}, "INACTIVE"},
		{"allowed PENDING", "", map[string]any{"allowed": "PENDING"}, "PENDING"},
	} {
		r := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + step.query, Header: fx.Headers, Body: step.body})
		if r.Status != http.StatusOK || r.Body["allowed"] != step.wantAllowed || getPath(r.Body, "info.card_type") != "PHYSICAL" {
			t.Fatalf("%s: %d allowed %v card_type %v, want 200 %s PHYSICAL", step.name, r.Status, r.Body["allowed"], getPath(r.Body, "info.card_type"), step.wantAllowed)
		}
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path, Header: fx.Headers})
	if r.Body["allowed"] != "PENDING" {
		t.Errorf("allowed %v after PATCH PENDING, want PENDING", r.Body["allowed"])
	}
}

// TestNodeTimelineNotesAsClientsRead: shipping a card node (?ship=YES and
// synapse_pay_rest's ?reorder_card=YES) ends its timeline with "Card sent
// for printing.", and deleting a node with "Node's 'is_active' toggled to
// False.", the notes clients look for (issue 35); a later reset still adds
// "Card reset.". The answer, a later GET and the NODE|PATCH webhook agree.
func TestNodeTimelineNotesAsClientsRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		method string
		query  string
		notes  []string // the timeline's notes after the call
	}{
		{"ship", "PATCH", "?ship=YES", []string{"Node created.", "Card Created.", "Card sent for printing."}},
		{"reorder_card", "PATCH", "?reorder_card=YES", []string{"Node created.", "Card Created.", "Card sent for printing."}},
		{"delete", "DELETE", "", []string{"Node created.", "Card Created.", "Node's 'is_active' toggled to False."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			fx := testkit.NewFixture(t, fake, 0)
			card := createdNode(t, fake, fx, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "Card", "document_id": "doc"}})
			path := testkit.NodePath(fx.User.ID, card["_id"].(string))
			var body any
			if tc.method == "PATCH" {
				body = map[string]any{}
			}
			r := testkit.Do(t, fake, testkit.Call{Method: tc.method, Path: path + tc.query, Header: fx.Headers, Body: body})
			if r.Status != http.StatusOK {
				t.Fatalf("%s: %d %s, want 200", tc.name, r.Status, r.Raw)
			}
			got := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path, Header: fx.Headers})
			hooks := fake.Webhooks().All()
			last := hooks[len(hooks)-1].Payload()
			for _, b := range []map[string]any{r.Body, got.Body, last} {
				if diff := cmp.Diff(tc.notes, timelineNotes(b)); diff != "" {
					t.Errorf("timeline notes (-want +got):\n%s", diff)
				}
			}
			if tc.method == "PATCH" {
				r = testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path + "?reset=YES", Header: fx.Headers, Body: map[string]any{}})
				if diff := cmp.Diff(append(tc.notes, "Card reset."), timelineNotes(r.Body)); diff != "" {
					t.Errorf("after a reset, timeline notes (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// timelineNotes are the notes of a node's timeline, oldest first.
func timelineNotes(node map[string]any) []string {
	var notes []string
	tl, _ := node["timeline"].([]any)
	for _, e := range tl {
		n, _ := e.(map[string]any)["note"].(string)
		notes = append(notes, n)
	}
	return notes
}

// nodeIDs are the ids of a nodes list's nodes, in its order.
func nodeIDs(list map[string]any) []string {
	var ids []string
	nodes, _ := list["nodes"].([]any)
	for _, n := range nodes {
		id, _ := n.(map[string]any)["_id"].(string)
		ids = append(ids, id)
	}
	return ids
}

// TestOlderNodeNamesCompareAsTheirType: wherever a node type is compared,
// an older name (reference.NodeTypeAliases) is its type's: a transfer's
// to.type may name a DEPOSIT-US node SYNAPSE-US and a SYNAPSE-US node
// DEPOSIT-US (409 node_type_mismatch before, issue 35), in strict mode too,
// and a nodes list's ?type= (the user's and the platform's) keeps the nodes
// of the type under any of its names. The answer shows each node's own type.
func TestOlderNodeNamesCompareAsTheirType(t *testing.T) {
	t.Parallel()
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprint("strict=", strict), func(t *testing.T) {
			t.Parallel()
			fake, rec := synapsefake.NewServer(t), (*testkit.RecordingTB)(nil)
			if strict {
				fake, rec = strictServer(t)
			}
			fx := testkit.NewFixture(t, fake, 100_00)
			syn := createdNode(t, fake, fx, map[string]any{"type": "SYNAPSE-US", "info": map[string]any{"nickname": "Held"}})["_id"].(string)
			sub := createdNode(t, fake, fx, map[string]any{"type": "SUBACCOUNT-US", "info": map[string]any{"nickname": "Sub"}})["_id"].(string)
			for _, tc := range []struct {
				toType, toID, wantType string
			}{
				{"SYNAPSE-US", syn, "SYNAPSE-US"},
				{"DEPOSIT-US", syn, "SYNAPSE-US"},
				{"RESERVE-US", syn, "SYNAPSE-US"},
				{"TRIUMPH-SUBACCOUNT-US", sub, "SUBACCOUNT-US"},
			} {
				r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.TransPath(fx.User.ID, fx.Node.ID), Header: fx.Headers, Body: map[string]any{
					"to": map[string]any{"type": tc.toType, "id": tc.toID}, "amount": map[string]any{"amount": 1.0, "currency": "USD"},
					"extra": map[string]any{"ip": testkit.TxIP}}})
				if r.Status != http.StatusOK || getPath(r.Body, "to.type") != tc.wantType {
					t.Errorf("to.type %s to a %s node: %d %s, want 200 and to.type %s", tc.toType, tc.wantType, r.Status, r.Raw, tc.wantType)
				}
			}
			for _, tc := range []struct {
				path string
				want []string
			}{
				{testkit.NodesPath(fx.User.ID) + "?type=DEPOSIT-US", []string{fx.Node.ID, syn}},
				{testkit.NodesPath(fx.User.ID) + "?type=SYNAPSE-US", []string{fx.Node.ID, syn}},
				{testkit.NodesPath(fx.User.ID) + "?type=CLEARING-US", []string{fx.Node.ID, syn}},
				{testkit.NodesPath(fx.User.ID) + "?type=TRIUMPH-SUBACCOUNT-US", []string{sub}},
				{"/nodes?type=SYNAPSE-US", []string{syn, fx.Node.ID}}, // newest first
			} {
				h := fx.Headers
				if strings.HasPrefix(tc.path, "/nodes") {
					h = testkit.GatewayHeaders(fake)
				}
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.path, Header: h})
				if diff := cmp.Diff(tc.want, nodeIDs(r.Body)); r.Status != http.StatusOK || diff != "" {
					t.Errorf("GET %s: %d, nodes (-want +got):\n%s", tc.path, r.Status, diff)
				}
			}
			if rec != nil && rec.Failed() {
				t.Errorf("strict mode failed the test: %q", rec.Errors)
			}
		})
	}
}
