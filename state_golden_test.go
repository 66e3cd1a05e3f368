package synapsefake_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

var updateState = flag.Bool("update-state", false, "rewrite testdata/state.golden.json from TestStateGolden's server")

// TestStateGolden guards the saved-state format: the bytes Snapshot writes
// for a server with a fixed id seed and start time, seeded through the Go
// API and over HTTP with a bit of everything (two users, one a business;
// DEPOSIT-US, ACH-US and CARD-US nodes; a card subnet and an account-number
// subnet; a settled transfer, one returned R01, a disputed card swipe, an
// ad hoc statement, an OAuth key, a subscription and the webhooks it
// captured), compared byte for byte with testdata/state.golden.json. It
// then restores the golden file into a fresh server and snapshots that: the
// bytes must not change (a round trip).
//
// A change of these bytes changes what Restore reads. If it is intended,
// consider first whether StateVersion must go up (and whether documents of
// the old version must still load), then rewrite the golden file and review
// its diff:
//
//	go test -run TestStateGolden -update-state .
func TestStateGolden(t *testing.T) {
	got := goldenStateServer(t)
	golden := filepath.Join("testdata", "state.golden.json")
	if *updateState {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with: go test -run TestStateGolden -update-state .)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Snapshot's bytes differ from %s (-golden +now):\n%s\n"+
			"If the change is intended, consider StateVersion, then rewrite the golden file with\n"+
			"\tgo test -run TestStateGolden -update-state .\nand review its diff.",
			golden, stateDiff(want, got))
	}

	// The round trip: the golden document, restored and saved again.
	fresh := synapsefake.New(goldenStateOptions()...)
	defer fresh.Close()
	if err := fresh.Restore(bytes.NewReader(want)); err != nil {
		t.Fatalf("Restore(%s): %v", golden, err)
	}
	var again bytes.Buffer
	if err := fresh.Snapshot(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), want) {
		t.Errorf("Snapshot after Restore(%s) differs from it (-golden +again):\n%s", golden, stateDiff(want, again.Bytes()))
	}
}

// stateDiff is the diff of two state documents, indented one JSON token a
// line (Snapshot writes one line), or of their raw bytes when they differ
// only in spacing or are not JSON.
func stateDiff(want, got []byte) string {
	lines := func(doc []byte) []string {
		var b bytes.Buffer
		if json.Indent(&b, doc, "", " ") != nil {
			return strings.Split(string(doc), "\n")
		}
		return strings.Split(b.String(), "\n")
	}
	if d := cmp.Diff(lines(want), lines(got)); d != "" {
		return d
	}
	return "(the same JSON, spaced differently)\n" + cmp.Diff(string(want), string(got))
}

// goldenStateOptions fix everything a snapshot shows: the id stream, the
// frozen clock (Monday 2026-03-02 15:00 UTC), and webhooks captured
// without a network.
func goldenStateOptions() []synapsefake.Option {
	return []synapsefake.Option{
		synapsefake.WithIDSeed(39),
		synapsefake.WithStartTime(time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)),
		synapsefake.WithoutWebhookDelivery(),
		synapsefake.WithImmediateStatements(),
	}
}

// goldenStateServer seeds TestStateGolden's server and returns its
// snapshot.
func goldenStateServer(t *testing.T) []byte {
	t.Helper()
	fake := synapsefake.New(goldenStateOptions()...)
	defer fake.Close()
	const fp = "golden-state-fingerprint"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	call := func(method, path, key string, body any, want int) map[string]any {
		t.Helper()
		var buf bytes.Buffer
		if body != nil {
			must(json.NewEncoder(&buf).Encode(body))
		}
		req, err := http.NewRequest(method, fake.URL()+path, &buf)
		must(err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-SP-GATEWAY", fake.Gateway())
		req.Header.Set("X-SP-USER", key+"|"+fp)
		req.Header.Set("X-SP-USER-IP", "127.0.0.1")
		resp, err := fake.Client().Do(req)
		must(err)
		defer resp.Body.Close()
		var out map[string]any
		must(json.NewDecoder(resp.Body).Decode(&out))
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d, want %d: %v", method, path, resp.StatusCode, want, out)
		}
		return out
	}

	_, err := fake.AddSubscription("https://platform.example/hooks")
	must(err)

	// A person, over HTTP, and its OAuth key from the refresh token.
	user := call("POST", "/users", "", map[string]any{
		"logins":        []any{map[string]any{"email": "ada@example.com"}},
		"phone_numbers": []any{"901.111.1111"},
		"legal_names":   []any{"Ada Lovelace"},
		"extra":         map[string]any{"supp_id": "golden-1"},
	}, 200)
	userID := user["_id"].(string)
	oauth := call("POST", "/oauth/"+userID, "", map[string]any{"refresh_token": user["refresh_token"]}, 200)
	key := oauth["oauth_key"].(string)

	// A business, through the Go API.
	biz, err := fake.AddUser(synapsefake.UserSeed{
		Email: "ops@acme.example", LegalNames: []string{"Acme Corp"}, IsBusiness: true, SuppID: "golden-2",
	})
	must(err)

	// Nodes: a funded DEPOSIT-US with a card subnet and an account-number
	// subnet, an ACH-US over HTTP, a CARD-US; the business's DEPOSIT-US.
	checking, err := fake.AddNode(userID, synapsefake.NodeSeed{Type: "DEPOSIT-US", Nickname: "Checking", BalanceCents: 500_00})
	must(err)
	ach := call("POST", "/users/"+userID+"/nodes", key, map[string]any{
		"type": "ACH-US",
		"info": map[string]any{
			"nickname": "External Checking", "account_num": "123456786", "routing_num": "051000017",
			"type": "PERSONAL", "class": "CHECKING",
		},
	}, 200)
	achID := ach["nodes"].([]any)[0].(map[string]any)["_id"].(string)
	_, err = fake.AddNode(userID, synapsefake.NodeSeed{Type: "CARD-US", Nickname: "Card", BalanceCents: 200_00})
	must(err)
	// Subnets are issued on DEPOSIT-US and SUBACCOUNT-US nodes only.
	cardSubnet, err := fake.AddSubnet(userID, checking.ID, synapsefake.SubnetSeed{Nickname: "Debit card", AccountClass: synapsefake.ClassCard, Status: synapsefake.SubnetActive})
	must(err)
	_, err = fake.AddSubnet(userID, checking.ID, synapsefake.SubnetSeed{Nickname: "Account number", AccountClass: synapsefake.ClassChecking})
	must(err)
	bizNode, err := fake.AddNode(biz.ID, synapsefake.NodeSeed{Type: "DEPOSIT-US", Nickname: "Operating", BalanceCents: 1_000_00})
	must(err)

	// Transfers: one to the business settled, one to the ACH-US node
	// returned R01.
	trans := "/users/" + userID + "/nodes/" + checking.ID + "/trans"
	transfer := func(toType, toID string, usd float64, note string) string {
		tx := call("POST", trans, key, map[string]any{
			"to":     map[string]any{"type": toType, "id": toID},
			"amount": map[string]any{"amount": usd, "currency": "USD"},
			"extra":  map[string]any{"ip": "127.0.0.1", "note": note},
		}, 200)
		return tx["_id"].(string)
	}
	settled := transfer("DEPOSIT-US", bizNode.ID, 25, "rent")
	must(fake.Settle(settled))
	returned := transfer("ACH-US", achID, 40, "savings")
	must(fake.Return(returned, "R01"))

	// A card swipe, settled and disputed.
	swipe, err := fake.CardAuthorization(cardSubnet.ID, synapsefake.CardAuth{AmountCents: 12_34, Merchant: "Corner Cafe"})
	must(err)
	if swipe.Status != synapsefake.StatusSettled {
		must(fake.Settle(swipe.ID))
	}
	call("PATCH", "/users/"+userID+"/nodes/"+checking.ID+"/trans/"+swipe.ID+"/dispute", key,
		map[string]any{"dispute_reason": "FRAUD|UNAUTHORIZED|CARD_LOST"}, 200)

	// An ad hoc statement of the checking node, for today.
	call("POST", "/users/"+userID+"/nodes/"+checking.ID+"/statements", key, map[string]any{}, 200)

	fake.Flush()
	var buf bytes.Buffer
	must(fake.Snapshot(&buf))
	return buf.Bytes()
}
