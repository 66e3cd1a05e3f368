package synapsefake_test

import (
	"bytes"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/rent"
)

// TestPayRent is the README's first test, kept compiling and passing:
// the application's own client (internal/rent) pointed at the fake.
func TestPayRent(t *testing.T) {
	fake := synapsefake.NewServer(t) // a server of its own, closed when the test ends
	user := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "device-1"})
	checking := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_00})
	landlord := fake.MustAddNode(t, user.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Landlord"})
	app := rent.Client{BaseURL: fake.URL(), ClientID: fake.ClientID(), ClientSecret: fake.ClientSecret(),
		UserKey: fake.OAuthKey(user.ID, "device-1"), Fingerprint: "device-1"}
	txID, err := app.PayRent(user.ID, checking.ID, landlord.ID, 25)
	if err != nil {
		t.Fatal(err)
	}
	fake.CheckBalance(t, checking.ID, 100_00, 75_00) // promised, not yet debited
	fake.Advance(24 * time.Hour)                     // from Tuesday 10:00 ET (DefaultStartTime): ACH settles Wednesday 10:00 ET
	fake.CheckStatus(t, txID, synapsefake.StatusSettled)
	fake.CheckBalance(t, checking.ID, 75_00, 75_00)
}

// TestReadmeCodeRuns: every Go block of the README is code that runs in CI:
// the test above, or the application's client in internal/rent.
func TestReadmeCodeRuns(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var sources []byte
	for _, f := range []string{"readme_example_test.go", "internal/rent/rent.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, b...)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) < 2 {
		t.Fatalf("the README has %d Go blocks, want the client and the test", len(blocks))
	}
	for _, b := range blocks {
		for _, decl := range bytes.Split(b[1], []byte("\n\n")) {
			if !bytes.Contains(sources, decl) {
				t.Errorf("this part of a README Go block is in neither readme_example_test.go nor internal/rent:\n%s", decl)
			}
		}
	}
}
