package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// newTestConsole builds a Console the way the root's New does with
// WithoutWebhookDelivery and the default options: its clock frozen at
// DefaultStartTime, an open store, the wire as its store's upper layer and
// the webhook side as its publisher. edit, when not nil, changes the
// console's config first (MaxState for WithMaxStateSize...). Its host
// answers LoadWorld's scratch server with another test console, and no
// platforms. The webhook side closes when the test ends.
func newTestConsole(tb testing.TB, edit func(*ConsoleConfig)) *Console {
	c := &Console{}
	cfg := DefaultConsoleConfig()
	cfg.DeliverWebhooks = false // WithoutWebhookDelivery
	if edit != nil {
		edit(&cfg)
	}
	c.SetConfig(&cfg)
	c.Host = testHost{tb}
	c.SetFrozenClock(bank.StartTime(time.Time{}))
	c.OpenStore(bank.ClientView{ID: c.Cfg.ClientID, Name: c.Cfg.ClientName}, false, false, false, bank.SharedDefaultCutoffs)
	c.Connect()
	c.WebhookClient = &http.Client{Timeout: 10 * time.Second}
	c.Base = "http://synapsefake.invalid" + api.APIPrefix
	c.SetStoreBase(c.Base)
	tb.Cleanup(c.Hooks.Close)
	return c
}

// testHost is the host of a test console: LoadWorld's scratch server is
// another test console, frozen at now; there are no platforms.
type testHost struct{ tb testing.TB }

func (h testHost) Scratch(now time.Time) (*Console, func()) {
	sc := newTestConsole(h.tb, func(c *ConsoleConfig) { c.CaptureLimit = 0 })
	sc.SetFrozenClock(now)
	return sc, sc.Hooks.Close
}

func (testHost) PlatformCores() []*Console { return nil }

// testWorld is a test console with one of everything, and the ids to aim
// at: the root's fuzz world (newFuzzWorld), as a console.
type testWorld struct {
	c                                 *Console
	user, other, node, peer, tx, card string
	account, sub                      string
}

func newTestWorld(tb testing.TB) *testWorld {
	tb.Helper()
	c := newTestConsole(tb, nil)
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	u, err := c.AddUser(bank.UserSeed{Fingerprint: "fp"})
	must(err)
	o, err := c.AddUser(bank.UserSeed{Fingerprint: "fp"})
	must(err)
	n, err := c.AddNode(u.ID, bank.NodeSeed{BalanceCents: 100000})
	must(err)
	p, err := c.AddNode(o.ID, bank.NodeSeed{BalanceCents: 5000})
	must(err)
	card, err := c.AddSubnet(u.ID, n.ID, bank.SubnetSeed{AccountClass: bank.ClassCard, Status: bank.SubnetActive})
	must(err)
	acct, err := c.AddSubnet(u.ID, n.ID, bank.SubnetSeed{})
	must(err)
	sub, err := c.AddSubscription("http://127.0.0.1:1/hook")
	must(err)
	w := &testWorld{c: c, user: u.ID, other: o.ID, node: n.ID, peer: p.ID, card: card.ID, account: acct.ID, sub: sub.ID}
	w.tx = w.createTx(tb, w.user, w.node, testTx(p.ID, 10))
	return w
}

// createTx makes a transaction from the node, its funds checked, as the
// API does, and answers its id.
func (w *testWorld) createTx(tb testing.TB, userID, nodeID string, req bank.CreateTxRequest) string {
	tb.Helper()
	var v bank.TxView
	if err := w.c.CreateTxInto(w.c.Now(), userID, nodeID, req, true, nil, &v); err != nil {
		tb.Fatal(err)
	}
	return v.ID
}

// testTx is a request for amount dollars to the DEPOSIT-US node to.
func testTx(to string, amount float64) bank.CreateTxRequest {
	var r bank.CreateTxRequest
	_ = json.Unmarshal(fmt.Appendf(nil, `{"to":{"type":"DEPOSIT-US","id":%q},"amount":{"amount":%v,"currency":"USD"},"extra":{"ip":"1.1.1.1"}}`, to, amount), &r)
	return r
}
