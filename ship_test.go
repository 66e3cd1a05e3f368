package synapsefake_test

import (
	"net/http"
	"strings"
	"testing"

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
	node := fake.MustAddNode(t, fx.user.ID, synapsefake.NodeSeed{Nickname: "Checking"})
	fx.node = node
	card := addSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: "CARD"})
	acct := addSubnet(t, fake, fx, synapsefake.SubnetSeed{Nickname: "Account", AccountClass: "CHECKING"})
	other := newFixture(t, fake, 0)
	shipPath := subnetPath(fx.user.ID, node.ID, card.ID) + "/ship"
	body := map[string]any{"fee_node_id": node.ID, "expedite": false, "card_style_id": "555"}
	snapshot := func() []map[string]any {
		return []map[string]any{
			do(t, fake, call{method: "GET", path: subnetPath(fx.user.ID, node.ID, card.ID), header: fx.headers}).body,
			do(t, fake, call{method: "GET", path: shipPath, header: fx.headers}).body,
		}
	}
	before := snapshot()
	events := len(fake.Webhooks().All())

	for _, tc := range []struct {
		name      string
		c         call
		status    int
		errorCode string
	}{
		{"malformed JSON", call{method: "PATCH", path: shipPath, header: fx.headers, body: `{"fee_node_id":`}, 400, "200"},
		{"empty body", call{method: "PATCH", path: shipPath, header: fx.headers, body: ``}, 400, "200"},
		{"missing fee_node_id", call{method: "PATCH", path: shipPath, header: fx.headers, body: map[string]any{"expedite": true}}, 400, "200"},
		{"fee_node_id not a string", call{method: "PATCH", path: shipPath, header: fx.headers, body: with(map[string]any{}, "fee_node_id", 5)}, 400, "200"},
		{"expedite not a boolean", call{method: "PATCH", path: shipPath, header: fx.headers, body: map[string]any{"fee_node_id": node.ID, "expedite": "yes"}}, 400, "200"},
		{"secondary_label beyond what the fake keeps", call{method: "PATCH", path: shipPath, header: fx.headers, body: map[string]any{"fee_node_id": node.ID, "secondary_label": strings.Repeat("x", 1001)}}, 400, "200"},
		{"unknown fee node", call{method: "PATCH", path: shipPath, header: fx.headers, body: map[string]any{"fee_node_id": "0123456789abcdef01234567"}}, 404, "404"},
		{"another user's fee node", call{method: "PATCH", path: shipPath, header: fx.headers, body: map[string]any{"fee_node_id": other.node.ID}}, 401, "300"},
		{"unknown subnet", call{method: "PATCH", path: subnetPath(fx.user.ID, node.ID, "0123456789abcdef01234567") + "/ship", header: fx.headers, body: body}, 404, "404"},
		{"an account-number subnet", call{method: "PATCH", path: subnetPath(fx.user.ID, node.ID, acct.ID) + "/ship", header: fx.headers, body: body}, 409, "410"},
		{"another user's key", call{method: "PATCH", path: shipPath, header: other.headers, body: body}, 401, "300"},
		{"no oauth key", call{method: "PATCH", path: shipPath, header: gatewayHeaders(fake), body: body}, 401, "300"},
		{"scope SUBNET|PATCH not granted", call{method: "PATCH", path: shipPath, header: keyWithout(fake, fx, "SUBNET|PATCH"), body: body}, 401, "300"},
		{"no X-SP-USER-IP", call{method: "PATCH", path: shipPath, header: editHeaders(fx.headers, map[string]string{"X-SP-USER-IP": ""}), body: body}, 400, "200"},
		{"wrong gateway", call{method: "PATCH", path: shipPath, header: editHeaders(fx.headers, map[string]string{"X-SP-GATEWAY": "a|b"}), body: body}, 401, "100"},
		{"GET: scope SUBNET|GET not granted", call{method: "GET", path: shipPath, header: keyWithout(fake, fx, "SUBNET|GET")}, 401, "300"},
		{"GET: another user's key", call{method: "GET", path: shipPath, header: other.headers}, 401, "300"},
		{"GET: page 0", call{method: "GET", path: shipPath + "?page=0", header: fx.headers}, 400, "200"},
		{"GET one: unknown shipment", call{method: "GET", path: shipPath + "/0123456789abcdef01234567", header: fx.headers}, 404, "404"},
		{"DELETE: unknown shipment", call{method: "DELETE", path: shipPath + "/0123456789abcdef01234567", header: fx.headers}, 404, "404"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, do(t, fake, tc.c), tc.status, tc.errorCode, "")
		})
	}
	if diff := cmp.Diff(before, snapshot()); diff != "" {
		t.Fatalf("refusals changed the card (-before +after):\n%s", diff)
	}
	if n := len(fake.Webhooks().All()); n != events {
		t.Fatalf("refusals emitted %d events", n-events)
	}

	// SynapseGo ShipCard, then SynapsePy ship_card asking for OVERNIGHT.
	g := goSend(t, fake, goRequest{method: "PATCH", path: shipPath, body: mustJSON(t, body), authKey: fx.key, fingerprint: testFingerprint})
	if g.status != http.StatusOK || g.body["_id"] != card.ID || g.body["card_style_id"] != "555" {
		t.Fatalf("ShipCard: status %d: %s", g.status, g.raw)
	}
	p := do(t, fake, call{method: "PATCH", path: shipPath, header: pyHeaders(fake, fx.key),
		body: map[string]any{"fee_node_id": node.ID, "delivery": "OVERNIGHT", "secondary_label": "ACME"}})
	if p.status != http.StatusOK {
		t.Fatalf("ship_card: status %d: %s", p.status, p.raw)
	}

	// GetCardShipment / view_all_card_shipments(per_page=10, page=1).
	list := goSend(t, fake, goRequest{method: "GET", path: shipPath, authKey: fx.key, fingerprint: testFingerprint})
	pyList := do(t, fake, call{method: "GET", path: shipPath + "?page=1&per_page=10", header: pyHeaders(fake, fx.key)})
	ids := listIDs(list.body, "ships")
	if len(ids) != 2 {
		t.Fatalf("ships: %s", list.raw)
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
	if diff := cmp.Diff(want, list.body); diff != "" {
		t.Errorf("GetCardShipment (-want +got):\n%s", diff)
	}
	want["limit"] = float64(10)
	if diff := cmp.Diff(want, pyList.body); diff != "" {
		t.Errorf("view_all_card_shipments (-want +got):\n%s", diff)
	}

	// view_card_shipment, cancel_card_shipment, then a second cancel.
	one := do(t, fake, call{method: "GET", path: shipPath + "/" + ids[0], header: pyHeaders(fake, fx.key)})
	first["success"] = true
	if diff := cmp.Diff(first, one.body); diff != "" {
		t.Errorf("view_card_shipment (-want +got):\n%s", diff)
	}
	canceled := do(t, fake, call{method: "DELETE", path: shipPath + "/" + ids[0], header: pyHeaders(fake, fx.key)})
	first["status"] = "CANCELED"
	if diff := cmp.Diff(first, canceled.body); diff != "" {
		t.Errorf("cancel_card_shipment (-want +got):\n%s", diff)
	}
	wantError(t, do(t, fake, call{method: "DELETE", path: shipPath + "/" + ids[0], header: fx.headers}), 409, "410", "cannot_cancel_shipment")

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
	fx := newFixture(t, fake, 0)
	other := newFixture(t, fake, 0)
	path := "/users/" + fx.user.ID + "/nodes/" + fx.node.ID + "/applepay"
	body := map[string]any{"certificate": "your applepay cert", "nonce": "9c02xxx2", "nonce_signature": "4082f883ae62d0700c283e225ee9d286713ef74"}

	g := goSend(t, fake, goRequest{method: "PATCH", path: path, body: mustJSON(t, body), authKey: fx.key, fingerprint: testFingerprint})
	p := do(t, fake, call{method: "PATCH", path: path, header: pyHeaders(fake, fx.key), body: body})
	if g.status != http.StatusOK {
		t.Fatalf("status %d: %s", g.status, g.raw)
	}
	if diff := cmp.Diff(g.body, p.body); diff != "" {
		t.Errorf("two calls differ (-go +py):\n%s", diff)
	}
	auth, _ := g.body["data"].(map[string]any)["authentication"].(map[string]any)
	for _, f := range []string{"activation_data", "encrypted_data", "public_key"} {
		if s, _ := auth[f].(string); s == "" {
			t.Errorf("data.authentication.%s missing: %s", f, g.raw)
		}
	}
	if g.body["success"] != true || len(g.body) != 3 {
		t.Errorf("answer %s, want data, error and success", g.raw)
	}
	if diff := cmp.Diff(map[string]any{}, g.body["error"]); diff != "" {
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
		{"malformed JSON", path, fx.headers, `{"nonce":`, 400, "200"},
		{"nonce not a string", path, fx.headers, with(map[string]any{"certificate": "c", "nonce_signature": "s"}, "nonce", 1), 400, "200"},
		{"missing nonce", path, fx.headers, map[string]any{"certificate": "c", "nonce_signature": "s"}, 400, "200"},
		{"missing nonce_signature", path, fx.headers, map[string]any{"certificate": "c", "nonce": "n"}, 400, "200"},
		{"missing certificate", path, fx.headers, map[string]any{"nonce": "n", "nonce_signature": "s"}, 400, "200"},
		{"unknown node", "/users/" + fx.user.ID + "/nodes/0123456789abcdef01234567/applepay", fx.headers, body, 404, "404"},
		{"another user's node", "/users/" + fx.user.ID + "/nodes/" + other.node.ID + "/applepay", fx.headers, body, 401, "300"},
		{"another user's key", path, other.headers, body, 401, "300"},
		{"no oauth key", path, gatewayHeaders(fake), body, 401, "300"},
		{"scope NODE|PATCH not granted", path, keyWithout(fake, fx, "NODE|PATCH"), body, 401, "300"},
		{"no X-SP-USER-IP", path, editHeaders(fx.headers, map[string]string{"X-SP-USER-IP": ""}), body, 400, "200"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, do(t, fake, call{method: "PATCH", path: tc.path, header: tc.headers, body: tc.body}), tc.status, tc.errorCode, "")
		})
	}
}
