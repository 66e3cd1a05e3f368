package synapsefake_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

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
			fx := newFixture(t, fake, 0)
			node := createdNode(t, fake, fx, map[string]any{"type": tc.typ, "info": tc.info})
			if node["type"] != tc.typ || node["allowed"] != tc.wantAllowed || getPath(node, tc.wantPath) == nil {
				t.Errorf("type %v allowed %v %s %v, want %s %s and a value", node["type"], node["allowed"], tc.wantPath, getPath(node, tc.wantPath), tc.typ, tc.wantAllowed)
			}
			id := node["_id"].(string)
			r := do(t, fake, call{method: "GET", path: nodePath(fx.user.ID, id), header: fx.headers})
			if r.status != http.StatusOK || r.body["type"] != tc.typ {
				t.Errorf("GET: %d type %v, want 200 %s", r.status, r.body["type"], tc.typ)
			}
			// The fixture's DEPOSIT-US node lists under the older names of
			// DEPOSIT-US too (TestOlderNodeNamesCompareAsTheirType).
			want := []string{id}
			if reference.BaseNodeType(tc.typ) == "DEPOSIT-US" {
				want = []string{fx.node.ID, id}
			}
			r = do(t, fake, call{method: "GET", path: nodesPath(fx.user.ID) + "?type=" + tc.typ, header: fx.headers})
			if diff := cmp.Diff(want, nodeIDs(r.body)); r.status != http.StatusOK || diff != "" {
				t.Errorf("GET ?type=%s: %d, nodes (-want +got):\n%s", tc.typ, r.status, diff)
			}
			r = do(t, fake, call{method: "GET", path: "/nodes/types", header: fx.headers})
			types, _ := r.body["node_types"].([]any)
			if r.status != http.StatusOK || len(types) == 0 {
				t.Fatalf("GET /nodes/types: %d %s, want the list of node types", r.status, r.raw)
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
	fx := newFixture(t, fake, 10_000)
	syn := createdNode(t, fake, fx, map[string]any{"type": "SYNAPSE-US", "info": map[string]any{"nickname": "Fees"}})
	synID := syn["_id"].(string)

	body := map[string]any{
		"to":     map[string]any{"type": "SYNAPSE-US", "id": synID},
		"amount": map[string]any{"amount": 10.0, "currency": "USD"},
		"extra":  map[string]any{"ip": txIP},
		"fees":   []any{map[string]any{"fee": 1.0, "note": "Facilitator Fee", "to": map[string]any{"id": synID}}},
	}
	r := do(t, fake, call{method: "POST", path: transPath(fx.user.ID, fx.node.ID), header: fx.headers, body: body})
	if r.status != http.StatusOK || getPath(r.body, "to.type") != "SYNAPSE-US" {
		t.Fatalf("transfer to and fee to a SYNAPSE-US node: %d %s, want 200", r.status, r.raw)
	}

	r = do(t, fake, call{method: "POST", path: subnetsPath(fx.user.ID, synID), header: fx.headers,
		body: map[string]any{"nickname": "Card", "account_class": "CARD"}})
	if r.status != http.StatusOK {
		t.Errorf("subnet on a SYNAPSE-US node: %d %s, want 200", r.status, r.raw)
	}

	sub := createdNode(t, fake, fx, map[string]any{"type": "SUBCARD-US", "info": map[string]any{"nickname": "Sub", "document_id": "doc"}})
	r = do(t, fake, call{method: "PATCH", path: nodePath(fx.user.ID, sub["_id"].(string)), header: fx.headers,
		body: map[string]any{"preferences": map[string]any{"max_pin_attempts": 4}}})
	if r.status != http.StatusOK || getPath(r.body, "info.preferences.max_pin_attempts") != 4.0 {
		t.Errorf("SUBCARD-US update_preferences: %d %s, want 200 and max_pin_attempts 4", r.status, r.raw)
	}

	seeded, err := fake.AddNode(fx.user.ID, synapsefake.NodeSeed{Type: "RESERVE-US", Nickname: "Reserve"})
	if err != nil || seeded.Type != "RESERVE-US" {
		t.Errorf("AddNode RESERVE-US = %+v, %v; want the node", seeded, err)
	}
}

// TestInterchangeEncryptedCardNumber: the SDKs send card_number encrypted;
// the node shows four digits, not the ciphertext's end ("Zg==").
func TestInterchangeEncryptedCardNumber(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := newFixture(t, fake, 0)
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
	fx := newFixture(t, fake, 0)
	info := map[string]any{"nickname": "Test WIRE-US Account", "account_num": "2222222222", "routing_num": validRouting,
		"name_on_account": "Payee", "correspondent_info": map[string]any{"routing_num": validRouting,
			"bank_name": "Bank of America", "address": "1 Corr St"}}
	node := createdNode(t, fake, fx, map[string]any{"type": "WIRE-US", "info": info})
	if getPath(node, "info.address") != "1 Corr St" || getPath(node, "info.correspondent_info.bank_name") != "Bank of America" ||
		getPath(node, "info.correspondent_info.routing_num") != "0017" {
		t.Errorf("info %v, want the correspondent's address and correspondent_info", node["info"])
	}

	before := inspectNodes(t, fake, []string{fx.user.ID})
	delete(info, "correspondent_info")
	r := do(t, fake, call{method: "POST", path: nodesPath(fx.user.ID), header: fx.headers, body: map[string]any{"type": "WIRE-US", "info": info}})
	wantErrorStatus(t, r, 400, "200", "missing_info")
	wantUnchanged(t, fake, before)
}

// TestCardNodeActionsAsTheSuiteExpected: reissue_card leaves the card
// INACTIVE (even an active one: the new number awaits activation), reorder
// keeps it as it is, and allowed PENDING is taken and read back.
func TestCardNodeActionsAsTheSuiteExpected(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := newFixture(t, fake, 0)
	card := createdNode(t, fake, fx, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "Debit Card", "document_id": "doc", "card_type": "PHYSICAL"}})
	path := nodePath(fx.user.ID, card["_id"].(string))
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
		r := do(t, fake, call{method: "PATCH", path: path + step.query, header: fx.headers, body: step.body})
		if r.status != http.StatusOK || r.body["allowed"] != step.wantAllowed || getPath(r.body, "info.card_type") != "PHYSICAL" {
			t.Fatalf("%s: %d allowed %v card_type %v, want 200 %s PHYSICAL", step.name, r.status, r.body["allowed"], getPath(r.body, "info.card_type"), step.wantAllowed)
		}
	}
	r := do(t, fake, call{method: "GET", path: path, header: fx.headers})
	if r.body["allowed"] != "PENDING" {
		t.Errorf("allowed %v after PATCH PENDING, want PENDING", r.body["allowed"])
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
			fx := newFixture(t, fake, 0)
			card := createdNode(t, fake, fx, map[string]any{"type": "CARD-US", "info": map[string]any{"nickname": "Card", "document_id": "doc"}})
			path := nodePath(fx.user.ID, card["_id"].(string))
			var body any
			if tc.method == "PATCH" {
				body = map[string]any{}
			}
			r := do(t, fake, call{method: tc.method, path: path + tc.query, header: fx.headers, body: body})
			if r.status != http.StatusOK {
				t.Fatalf("%s: %d %s, want 200", tc.name, r.status, r.raw)
			}
			got := do(t, fake, call{method: "GET", path: path, header: fx.headers})
			hooks := fake.Webhooks().All()
			last := hooks[len(hooks)-1].Payload()
			for _, b := range []map[string]any{r.body, got.body, last} {
				if diff := cmp.Diff(tc.notes, timelineNotes(b)); diff != "" {
					t.Errorf("timeline notes (-want +got):\n%s", diff)
				}
			}
			if tc.method == "PATCH" {
				r = do(t, fake, call{method: "PATCH", path: path + "?reset=YES", header: fx.headers, body: map[string]any{}})
				if diff := cmp.Diff(append(tc.notes, "Card reset."), timelineNotes(r.body)); diff != "" {
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
			fake, rec := synapsefake.NewServer(t), (*recordingTB)(nil)
			if strict {
				fake, rec = strictServer(t)
			}
			fx := newFixture(t, fake, 100_00)
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
				r := do(t, fake, call{method: "POST", path: transPath(fx.user.ID, fx.node.ID), header: fx.headers, body: map[string]any{
					"to": map[string]any{"type": tc.toType, "id": tc.toID}, "amount": map[string]any{"amount": 1.0, "currency": "USD"},
					"extra": map[string]any{"ip": txIP}}})
				if r.status != http.StatusOK || getPath(r.body, "to.type") != tc.wantType {
					t.Errorf("to.type %s to a %s node: %d %s, want 200 and to.type %s", tc.toType, tc.wantType, r.status, r.raw, tc.wantType)
				}
			}
			for _, tc := range []struct {
				path string
				want []string
			}{
				{nodesPath(fx.user.ID) + "?type=DEPOSIT-US", []string{fx.node.ID, syn}},
				{nodesPath(fx.user.ID) + "?type=SYNAPSE-US", []string{fx.node.ID, syn}},
				{nodesPath(fx.user.ID) + "?type=CLEARING-US", []string{fx.node.ID, syn}},
				{nodesPath(fx.user.ID) + "?type=TRIUMPH-SUBACCOUNT-US", []string{sub}},
				{"/nodes?type=SYNAPSE-US", []string{syn, fx.node.ID}}, // newest first
			} {
				h := fx.headers
				if strings.HasPrefix(tc.path, "/nodes") {
					h = gatewayHeaders(fake)
				}
				r := do(t, fake, call{method: "GET", path: tc.path, header: h})
				if diff := cmp.Diff(tc.want, nodeIDs(r.body)); r.status != http.StatusOK || diff != "" {
					t.Errorf("GET %s: %d, nodes (-want +got):\n%s", tc.path, r.status, diff)
				}
			}
			if rec != nil && rec.Failed() {
				t.Errorf("strict mode failed the test: %q", rec.errors)
			}
		})
	}
}
