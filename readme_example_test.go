package synapsefake_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
)

// TestPayRent is the README's example, kept compiling and passing.
func TestPayRent(t *testing.T) {
	fake := synapsefake.NewServer(t) // closed when the test ends
	user := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "device-1"})
	checking := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_00})
	bank := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Landlord"})
	key := fake.OAuthKey(user.ID, "device-1") // skips the OAuth dance

	body := `{"to":{"type":"ACH-US","id":"` + bank.ID + `"},"amount":{"amount":25,"currency":"USD"},"extra":{"ip":"127.0.0.1"}}`
	req, _ := http.NewRequest("POST", fake.URL()+"/users/"+user.ID+"/nodes/"+checking.ID+"/trans", strings.NewReader(body))
	req.Header.Set("X-SP-USER", key+"|device-1")
	req.Header.Set("X-SP-USER-IP", "127.0.0.1")
	resp, err := fake.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tx struct {
		ID string `json:"_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tx); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("create transaction: %s %v", resp.Status, err)
	}

	fake.Advance(24 * time.Hour) // created Tuesday 2026-04-14 10:00 ET (DefaultStartTime): SETTLED Wednesday 10:00 ET
	if got, _ := fake.Transaction(tx.ID); got.Status != synapsefake.StatusSettled {
		t.Errorf("status %s, want SETTLED", got.Status)
	}
}
