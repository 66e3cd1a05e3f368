package main

import (
	"net/http"
	"testing"

	synapse "github.com/SynapseFI/SynapseGo"
	"github.com/parnurzeal/gorequest"
	"github.com/synapsefake/synapsefake"
)

// TestInterceptRecipe runs docs/compatibility.md's SynapseGo recipe as it
// is written there: the SDK, unmodified, against an in-process fake through
// Intercept, with the two process-wide assignments the SDK needs.
// TestCompatibilityRecipesAreTheRunnersCode (in the main module) checks
// that every line of the recipe is here.
func TestInterceptRecipe(t *testing.T) {
	fake := synapsefake.NewServer(t)
	seeded := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "device-1"})
	node := fake.MustAddNode(t, seeded.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_00})
	userID := seeded.ID

	gorequest.DisableTransportSwap = true
	old := http.DefaultTransport
	http.DefaultTransport = fake.Intercept(old)
	t.Cleanup(func() { http.DefaultTransport, gorequest.DisableTransportSwap = old, false })

	client := synapse.New(fake.ClientID(), fake.ClientSecret(), "device-1", "127.0.0.1")
	user, err := client.GetUser(userID, "device-1", "127.0.0.1")
	if err != nil {
		t.Fatalf("GetUser: %v", err)
	}
	if user.UserID != userID || user.RefreshToken != seeded.RefreshToken {
		t.Errorf("GetUser gave user %q with refresh token %q, want %q and %q", user.UserID, user.RefreshToken, userID, seeded.RefreshToken)
	}
	if _, err := user.Authenticate(`{"refresh_token":"`+user.RefreshToken+`"}`, "device-1", "127.0.0.1"); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	nodes, err := user.GetNodes()
	if err != nil {
		t.Fatalf("GetNodes: %v", err)
	}
	if got := nodes["node_count"]; got != float64(1) {
		t.Errorf("GetNodes: node_count %v, want 1", got)
	}
	fake.CheckRequest(t, "GET", "/users/{user_id}/nodes")
	fake.CheckBalance(t, node.ID, 100_00, 100_00)
}
