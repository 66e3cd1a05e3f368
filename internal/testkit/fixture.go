package testkit

// A user with a funded node and a key, the set-up most API tests begin with, and what they add to it.

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// DisputeEnv is a TxEnv whose sender paid a merchant outside the platform
// (an EXTERNAL-US node of a third user): the debits the user may dispute.
type DisputeEnv struct {
	TxEnv
	Merchant synapsefake.Node
}

// NewDisputeEnv is a TxEnv (built with opts) and a merchant's EXTERNAL-US node.
func NewDisputeEnv(t testing.TB, opts ...synapsefake.Option) DisputeEnv {
	t.Helper()
	e := NewTxEnv(t, 1000_00, opts...)
	m := e.Fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Merchant Co"}})
	return DisputeEnv{TxEnv: e, Merchant: AddTxNode(t, e.Fake, m.ID, synapsefake.NodeSeed{Type: "EXTERNAL-US", Nickname: "Merchant"})}
}

// SettledDebit pays the merchant and settles the payment.
func (e DisputeEnv) SettledDebit(t testing.TB, amount float64) string {
	t.Helper()
	id := e.Create(t, e.Merchant, amount)
	if err := e.Fake.Settle(id); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	return id
}

// Balance is a node's balance in cents.
func Balance(t testing.TB, fake *synapsefake.Server, nodeID string) int64 {
	t.Helper()
	n, ok := fake.Node(nodeID)
	if !ok {
		t.Fatalf("Node(%s) not found", nodeID)
	}
	return n.BalanceCents
}

// Fixture is a user with a deposit node and an oauth key holding every scope.
type Fixture struct {
	User    synapsefake.User
	Node    synapsefake.Node
	Key     string
	Headers map[string]string
}

// NewFixture seeds a user with TestFingerprint registered, a DEPOSIT-US node
// holding balanceCents and a key with the given scopes (all when none).
func NewFixture(t testing.TB, fake *synapsefake.Server, balanceCents int64, scopes ...string) Fixture {
	t.Helper()
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: TestFingerprint})
	n := fake.MustAddNode(t, u.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: balanceCents})
	key := fake.OAuthKey(u.ID, TestFingerprint, scopes...)
	return Fixture{User: u, Node: n, Key: key, Headers: UserHeaders(fake, key)}
}

// PostTx creates a transaction of amount dollars from fx's node to toNode
// over the API and returns its id.
func PostTx(t testing.TB, fake *synapsefake.Server, fx Fixture, toNode string, amount float64) string {
	t.Helper()
	r := Do(t, fake, Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/trans", Header: fx.Headers,
		Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": toNode},
			"amount": map[string]any{"amount": amount, "currency": "USD"}, "extra": map[string]any{"ip": "127.0.0.1"}}})
	if r.Status != http.StatusOK {
		t.Fatalf("POST trans: status %d: %s", r.Status, r.Raw)
	}
	id, _ := r.Body["_id"].(string)
	return id
}

// NewPlatforms serves a Platforms on a loopback listener, with the base URL
// of that listener, and answers it and its root URL.
func NewPlatforms(t testing.TB, opts ...synapsefake.Option) (*synapsefake.Platforms, string) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	root := "http://" + ts.Listener.Addr().String()
	p := synapsefake.NewPlatforms(append(opts, synapsefake.WithBaseURL(root+"/v3.1"))...)
	ts.Config.Handler = p
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(p.Close)
	return p, root
}

// Et is a date and time in US Eastern time.
func Et(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, reference.Eastern)
}

// AddSubnet seeds a subnet on fx's node.
func AddSubnet(t testing.TB, fake *synapsefake.Server, fx Fixture, seed synapsefake.SubnetSeed) synapsefake.Subnet {
	t.Helper()
	sn, err := fake.AddSubnet(fx.User.ID, fx.Node.ID, seed)
	if err != nil {
		t.Fatalf("AddSubnet(%+v): %v", seed, err)
	}
	return sn
}

// NamedFixture is NewFixture for a user with the given legal name.
func NamedFixture(t testing.TB, fake *synapsefake.Server, name string, balanceCents int64, scopes ...string) Fixture {
	t.Helper()
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: TestFingerprint, LegalNames: []string{name}})
	n := AddTxNode(t, fake, u.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: balanceCents})
	key := fake.OAuthKey(u.ID, TestFingerprint, scopes...)
	return Fixture{User: u, Node: n, Key: key, Headers: UserHeaders(fake, key)}
}
