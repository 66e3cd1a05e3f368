package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// TestShipCard checks card shipping as the SDKs send it: SynapseGo
// User.ShipCard and SynapsePy User.ship_card (PATCH .../ship with
// fee_node_id, expedite, card_style_id), SynapseGo User.GetCardShipment and
// SynapsePy view_all_card_shipments (GET .../ship), view_card_shipment and
// cancel_card_shipment (GET and DELETE .../ship/{ship_id}).
func TestShipCard(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := createDocUser(t, fake, "Ann Lee", "ann@example.com")
	node := fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Checking"})
	fx.Node = node
	card := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD"})
	acct := testkit.AddSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account", AccountClass: "CHECKING"})
	other := testkit.NewFixture(t, fake, 0)
	shipPath := testkit.SubnetPath(fx.User.ID, node.ID, card.ID) + "/ship"
	body := map[string]any{"fee_node_id": node.ID, "expedite": false, "card_style_id": "555"}
	snapshot := func() []map[string]any {
		return []map[string]any{
			testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.SubnetPath(fx.User.ID, node.ID, card.ID), Header: fx.Headers}).Body,
			testkit.Do(t, fake, testkit.Call{Method: "GET", Path: shipPath, Header: fx.Headers}).Body,
		}
	}
	before := snapshot()
	events := len(fake.Webhooks().All())

	for _, tc := range []struct {
		name      string
		c         testkit.Call
		status    int
		errorCode string
	}{
		{"malformed JSON", testkit.Call{Method: "PATCH", Path: shipPath, Header: fx.Headers, Body: `{"fee_node_id":`}, 400, "200"},
		{"empty body", testkit.Call{Method: "PATCH", Path: shipPath, Header: fx.Headers, Body: ``}, 400, "200"},
		{"missing fee_node_id", testkit.Call{Method: "PATCH", Path: shipPath, Header: fx.Headers, Body: map[string]any{"expedite": true}}, 400, "200"},
		{"fee_node_id not a string", testkit.Call{Method: "PATCH", Path: shipPath, Header: fx.Headers, Body: with(map[string]any{}, "fee_node_id", 5)}, 400, "200"},
		{"expedite not a boolean", testkit.Call{Method: "PATCH", Path: shipPath, Header: fx.Headers, Body: map[string]any{"fee_node_id": node.ID, "expedite": "yes"}}, 400, "200"},
		{"secondary_label beyond what the fake keeps", testkit.Call{Method: "PATCH", Path: shipPath, Header: fx.Headers, Body: map[string]any{"fee_node_id": node.ID, "secondary_label": strings.Repeat("x", 1001)}}, 400, "200"},
		{"unknown fee node", testkit.Call{Method: "PATCH", Path: shipPath, Header: fx.Headers, Body: map[string]any{"fee_node_id": "0123456789abcdef01234567"}}, 404, "404"},
		{"another user's fee node", testkit.Call{Method: "PATCH", Path: shipPath, Header: fx.Headers, Body: map[string]any{"fee_node_id": other.Node.ID}}, 401, "300"},
		{"unknown subnet", testkit.Call{Method: "PATCH", Path: testkit.SubnetPath(fx.User.ID, node.ID, "0123456789abcdef01234567") + "/ship", Header: fx.Headers, Body: body}, 404, "404"},
		{"an account-number subnet", testkit.Call{Method: "PATCH", Path: testkit.SubnetPath(fx.User.ID, node.ID, acct.ID) + "/ship", Header: fx.Headers, Body: body}, 409, "410"},
		{"another user's key", testkit.Call{Method: "PATCH", Path: shipPath, Header: other.Headers, Body: body}, 401, "300"},
		{"no oauth key", testkit.Call{Method: "PATCH", Path: shipPath, Header: testkit.GatewayHeaders(fake), Body: body}, 401, "300"},
		{"scope SUBNET|PATCH not granted", testkit.Call{Method: "PATCH", Path: shipPath, Header: keyWithout(fake, fx, "SUBNET|PATCH"), Body: body}, 401, "300"},
		{"no X-SP-USER-IP", testkit.Call{Method: "PATCH", Path: shipPath, Header: testkit.EditHeaders(fx.Headers, map[string]string{"X-SP-USER-IP": ""}), Body: body}, 400, "200"},
		{"wrong gateway", testkit.Call{Method: "PATCH", Path: shipPath, Header: testkit.EditHeaders(fx.Headers, map[string]string{"X-SP-GATEWAY": "a|b"}), Body: body}, 401, "100"},
		{"GET: scope SUBNET|GET not granted", testkit.Call{Method: "GET", Path: shipPath, Header: keyWithout(fake, fx, "SUBNET|GET")}, 401, "300"},
		{"GET: another user's key", testkit.Call{Method: "GET", Path: shipPath, Header: other.Headers}, 401, "300"},
		{"GET: page 0", testkit.Call{Method: "GET", Path: shipPath + "?page=0", Header: fx.Headers}, 400, "200"},
		{"GET one: unknown shipment", testkit.Call{Method: "GET", Path: shipPath + "/0123456789abcdef01234567", Header: fx.Headers}, 404, "404"},
		{"DELETE: unknown shipment", testkit.Call{Method: "DELETE", Path: shipPath + "/0123456789abcdef01234567", Header: fx.Headers}, 404, "404"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.WantError(t, testkit.Do(t, fake, tc.c), tc.status, tc.errorCode, "")
		})
	}
	if diff := cmp.Diff(before, snapshot()); diff != "" {
		t.Fatalf("refusals changed the card (-before +after):\n%s", diff)
	}
	if n := len(fake.Webhooks().All()); n != events {
		t.Fatalf("refusals emitted %d events", n-events)
	}

	// SynapseGo ShipCard, then SynapsePy ship_card asking for OVERNIGHT.
	g := goSend(t, fake, goRequest{method: "PATCH", path: shipPath, body: mustJSON(t, body), authKey: fx.Key, fingerprint: testkit.TestFingerprint})
	if g.Status != http.StatusOK || g.Body["_id"] != card.ID || g.Body["card_style_id"] != "555" {
		t.Fatalf("ShipCard: status %d: %s", g.Status, g.Raw)
	}
	p := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: shipPath, Header: testkit.PyHeaders(fake, fx.Key),
		Body: map[string]any{"fee_node_id": node.ID, "delivery": "OVERNIGHT", "secondary_label": "ACME"}})
	if p.Status != http.StatusOK {
		t.Fatalf("ship_card: status %d: %s", p.Status, p.Raw)
	}

	// GetCardShipment / view_all_card_shipments(per_page=10, page=1).
	list := goSend(t, fake, goRequest{method: "GET", path: shipPath, authKey: fx.Key, fingerprint: testkit.TestFingerprint})
	pyList := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: shipPath + "?page=1&per_page=10", Header: testkit.PyHeaders(fake, fx.Key)})
	ids := testkit.ListIDs(list.Body, "ships")
	if len(ids) != 2 {
		t.Fatalf("ships: %s", list.Raw)
	}
	now := float64(fake.Now().UnixMilli())
	address := map[string]any{"address_care_of": "Ann Lee", "address_city": "SF", "address_country_code": "US",
		"address_postal_code": "94105", "address_street": "1 MARKET ST.", "address_subdivision": "CA"}
	shipment := func(id, delivery string, label any, status string) map[string]any {
		return map[string]any{"_id": id, "address": address, "card_style_id": "555", "created_on": now, "delivery": delivery,
			"delivery_carrier": "6070 Poplar Avenue, Suite 100 Memphis, Tennessee 38119", "name": "Ann Lee",
			"node_id": node.ID, "secondary_label": label, "status": status, "subnet_id": card.ID, "tracking": nil}
	}
	first, second := shipment(ids[0], "STANDARD", false, "CREATED"), shipment(ids[1], "OVERNIGHT", "ACME", "CREATED")
	want := map[string]any{"error_code": "0", "http_code": "200", "limit": float64(20), "page": float64(1), "page_count": float64(1),
		"ship_count": float64(2), "ships": []any{first, second}, "success": true}
	if diff := cmp.Diff(want, list.Body); diff != "" {
		t.Errorf("GetCardShipment (-want +got):\n%s", diff)
	}
	want["limit"] = float64(10)
	if diff := cmp.Diff(want, pyList.Body); diff != "" {
		t.Errorf("view_all_card_shipments (-want +got):\n%s", diff)
	}

	// view_card_shipment, cancel_card_shipment, then a second cancel.
	one := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: shipPath + "/" + ids[0], Header: testkit.PyHeaders(fake, fx.Key)})
	first["success"] = true
	if diff := cmp.Diff(first, one.Body); diff != "" {
		t.Errorf("view_card_shipment (-want +got):\n%s", diff)
	}
	canceled := testkit.Do(t, fake, testkit.Call{Method: "DELETE", Path: shipPath + "/" + ids[0], Header: testkit.PyHeaders(fake, fx.Key)})
	first["status"] = "CANCELED"
	if diff := cmp.Diff(first, canceled.Body); diff != "" {
		t.Errorf("cancel_card_shipment (-want +got):\n%s", diff)
	}
	testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "DELETE", Path: shipPath + "/" + ids[0], Header: fx.Headers}), 409, "410", "cannot_cancel_shipment")

	var got []string
	for _, w := range fake.Webhooks().All()[events:] {
		got = append(got, w.Function+" "+w.ObjectID)
	}
	if diff := cmp.Diff([]string{"SUBNET|PATCH " + card.ID, "SUBNET|PATCH " + card.ID, "SUBNET|PATCH " + card.ID}, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestApplePay checks PATCH .../nodes/{node_id}/applepay as SynapseGo
// (User.GetApplePayToken) and SynapsePy (User.generate_apple_pay) send it
// with the samples' body: a push-to-wallet answer, the same for the same
// node and nonce.
func TestApplePay(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	fx := testkit.NewFixture(t, fake, 0)
	other := testkit.NewFixture(t, fake, 0)
	path := "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/applepay"
	body := map[string]any{"certificate": "your applepay cert", "nonce": "9c02xxx2", "nonce_signature": "4082f883ae62d0700c283e225ee9d286713ef74"}

	g := goSend(t, fake, goRequest{method: "PATCH", path: path, body: mustJSON(t, body), authKey: fx.Key, fingerprint: testkit.TestFingerprint})
	p := testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: path, Header: testkit.PyHeaders(fake, fx.Key), Body: body})
	if g.Status != http.StatusOK {
		t.Fatalf("status %d: %s", g.Status, g.Raw)
	}
	if diff := cmp.Diff(g.Body, p.Body); diff != "" {
		t.Errorf("two calls differ (-go +py):\n%s", diff)
	}
	auth, _ := g.Body["data"].(map[string]any)["authentication"].(map[string]any)
	for _, f := range []string{"activation_data", "encrypted_data", "public_key"} {
		if s, _ := auth[f].(string); s == "" {
			t.Errorf("data.authentication.%s missing: %s", f, g.Raw)
		}
	}
	if g.Body["success"] != true || len(g.Body) != 3 {
		t.Errorf("answer %s, want data, error and success", g.Raw)
	}
	if diff := cmp.Diff(map[string]any{}, g.Body["error"]); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}

	for _, tc := range []struct {
		name      string
		path      string
		headers   map[string]string
		body      any
		status    int
		errorCode string
	}{
		{"malformed JSON", path, fx.Headers, `{"nonce":`, 400, "200"},
		{"nonce not a string", path, fx.Headers, with(map[string]any{"certificate": "c", "nonce_signature": "s"}, "nonce", 1), 400, "200"},
		{"missing nonce", path, fx.Headers, map[string]any{"certificate": "c", "nonce_signature": "s"}, 400, "200"},
		{"missing nonce_signature", path, fx.Headers, map[string]any{"certificate": "c", "nonce": "n"}, 400, "200"},
		{"missing certificate", path, fx.Headers, map[string]any{"nonce": "n", "nonce_signature": "s"}, 400, "200"},
		{"unknown node", "/users/" + fx.User.ID + "/nodes/0123456789abcdef01234567/applepay", fx.Headers, body, 404, "404"},
		{"another user's node", "/users/" + fx.User.ID + "/nodes/" + other.Node.ID + "/applepay", fx.Headers, body, 401, "300"},
		{"another user's key", path, other.Headers, body, 401, "300"},
		{"no oauth key", path, testkit.GatewayHeaders(fake), body, 401, "300"},
		{"scope NODE|PATCH not granted", path, keyWithout(fake, fx, "NODE|PATCH"), body, 401, "300"},
		{"no X-SP-USER-IP", path, testkit.EditHeaders(fx.Headers, map[string]string{"X-SP-USER-IP": ""}), body, 400, "200"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.WantError(t, testkit.Do(t, fake, testkit.Call{Method: "PATCH", Path: tc.path, Header: tc.headers, Body: tc.body}), tc.status, tc.errorCode, "")
		})
	}
}
