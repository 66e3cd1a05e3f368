package api_test

// TestGoClientEveryMethod holds one table covering every method of the
// official Go client, SynapseGo (client.go and users.go at its last commit),
// each row the exact request the method sends through goSend (see
// goclient_test.go) and what the answer must carry. Run against the fake
// unmodified, SynapseGo's methods all behave as they did against the
// service, except the two 202 answers it cannot read (marked panics below):
// the recorded answers have no error key, and SynapseGo's handleHTTPError
// reads error.en of every status other than 200.

import (
	"net/http"
	"slices"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// goSDKMethods lists every exported method of SynapseGo, in its source order:
// 22 of Client, 37 of User.
var goSDKMethods = []string{
	"Client.GetPublicKey", "Client.GetNodes", "Client.GetTradeMarketData", "Client.GetNodeTypes",
	"Client.GetCryptoMarketData", "Client.GetCryptoQuotes", "Client.GetInstitutions", "Client.LocateATMs",
	"Client.VerifyAddress", "Client.VerifyRoutingNumber", "Client.GetSubscriptions", "Client.GetSubscription",
	"Client.CreateSubscription", "Client.UpdateSubscription", "Client.GetWebhookLogs", "Client.GetTransactions",
	"Client.GetUsers", "Client.GetUser", "Client.CreateUser", "Client.GetUserDocumentTypes",
	"Client.GetUserEntityTypes", "Client.GetUserEntityScopes",
	"User.Authenticate", "User.GetRefreshToken", "User.RegisterFingerprint", "User.Select2FA",
	"User.SubmitMFA", "User.VerifyPIN", "User.GetNodes", "User.GetNode", "User.CreateNode",
	"User.UpdateNode", "User.DeleteNode", "User.VerifyMicroDeposit", "User.ReinitiateMicroDeposits",
	"User.ResetCardNode", "User.ShipCardNode", "User.GetApplePayToken", "User.GetStatements",
	"User.GetNodeStatements", "User.CreateNodeStatements", "User.GetSubnets", "User.GetNodeSubnets",
	"User.GetSubnet", "User.CreateSubnet", "User.UpdateSubnet", "User.ShipCard", "User.PushToWallet",
	"User.GetCardShipment", "User.GetTransactions", "User.GetNodeTransactions", "User.GetTransaction",
	"User.CreateTransaction", "User.CancelTransaction", "User.CommentOnTransactionStatus",
	"User.DisputeTransaction", "User.CreateDummyTransaction", "User.Update", "User.CreateUBO",
}

// goAuth is how a SynapseGo method authenticates.
type goAuth int

const (
	goAuthUser        goAuth = iota // User.do: the user's oauth key, re-auth on "300"
	goAuthClient                    // Client.do: the gateway, an empty oauth key
	goAuthOAuth                     // POST /oauth/{user_id}: the refresh token in the body
	goAuthUserGateway               // User.do on a route that needs only the gateway
)

// goMethodEnv is goFixture (a user, a funded DEPOSIT-US node, a second node
// and a CREATED transaction) with what the other methods work on.
type goMethodEnv struct {
	goFixture
	ach          synapsefake.Node   // ACH-US by account and routing number
	card         synapsefake.Node   // a CARD-US node
	subnet       synapsefake.Subnet // an ACTIVE card subnet of node
	cardDebit    string             // a SETTLED card purchase of node, which can be disputed
	subscription string
	token        string // set by a row's setup
}

func newGoMethodEnv(t *testing.T, fake *synapsefake.Server) *goMethodEnv {
	t.Helper()
	e := &goMethodEnv{goFixture: newGoFixture(t, fake)}
	uid := e.Fixture.User.ID
	e.ach = fake.MustAddNode(t, uid, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Fake Account", AccountNum: "1232225674134", RoutingNum: "051000017"})
	a := e.user.do(goRequest{method: "POST", path: e.userPath() + "/nodes",
		body: `{"type":"CARD-US","info":{"nickname":"My Debit Card","document_id":"2a4a5957a3a62aaac1a0dd0edcae96ea2cdee688ec6337b20745eed8869e3ac8","card_type":"PHYSICAL"}}`})
	if a.Status != http.StatusOK {
		t.Fatalf("create CARD-US: %d %s", a.Status, a.Raw)
	}
	e.card, _ = fake.Node(a.Body["nodes"].([]any)[0].(map[string]any)["_id"].(string))
	var err error
	if e.subnet, err = fake.AddSubnet(uid, e.Node.ID, synapsefake.SubnetSeed{Nickname: "Card", AccountClass: synapsefake.ClassCard, Status: synapsefake.SubnetActive}); err != nil {
		t.Fatalf("AddSubnet: %v", err)
	}
	a = e.user.do(goRequest{method: "GET", path: e.nodePath() + "/dummy-tran", query: "amount=5&is_credit=NO&type=INTERCHANGE&subnetid=" + e.subnet.ID})
	e.cardDebit, _ = a.Body["_id"].(string)
	if err := fake.Settle(e.cardDebit); err != nil {
		t.Fatalf("card debit %s: %v", a.Raw, err)
	}
	a = goSend(t, fake, goRequest{method: "POST", path: "/subscriptions", fingerprint: testkit.TestFingerprint,
		body: `{"scope":["USERS|POST","USER|PATCH","NODES|POST","NODE|PATCH","TRANS|POST","TRAN|PATCH"],"url":"https://requestb.in/zp216zzp"}`})
	if e.subscription, _ = a.Body["_id"].(string); e.subscription == "" {
		t.Fatalf("create subscription: %s", a.Raw)
	}
	fake.ResetRequests()
	return e
}

func (e *goMethodEnv) cardPath() string   { return e.userPath() + "/nodes/" + e.card.ID }
func (e *goMethodEnv) achPath() string    { return e.userPath() + "/nodes/" + e.ach.ID }
func (e *goMethodEnv) subnetPath() string { return e.nodePath() + "/subnets/" + e.subnet.ID }

// goRefresh is the body of every POST /oauth the Go client builds, extra
// fields appended.
func (e *goMethodEnv) goRefresh(extra string) string {
	return `{ "refresh_token": "` + e.Fixture.User.RefreshToken + `"` + extra + ` }`
}

// goNewFingerprint is the fingerprint RegisterFingerprint registers.
const goNewFingerprint = "go-new-device"

// goRegister is User.RegisterFingerprint: the same refresh token from a new
// fingerprint, 202 / "10".
func goRegister(t *testing.T, e *goMethodEnv) {
	t.Helper()
	a := goSend(t, e.fake(), goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, fingerprint: goNewFingerprint, body: e.goRefresh("")})
	if a.Status != http.StatusAccepted {
		t.Fatalf("RegisterFingerprint: %d %s", a.Status, a.Raw)
	}
}

func (e *goMethodEnv) fake() *synapsefake.Server { return e.user.fake }

func TestGoClientEveryMethod(t *testing.T) {
	t.Parallel()
	const doc = "2a4a5957a3a62aaac1a0dd0edcae96ea2cdee688ec6337b20745eed8869e3ac8"
	defaultScope := "OAUTH|POST,USERS|POST,USERS|GET,USER|GET,USER|PATCH,SUBSCRIPTIONS|GET,SUBSCRIPTIONS|POST,SUBSCRIPTION|GET,SUBSCRIPTION|PATCH,CLIENT|REPORTS,CLIENT|CONTROLS"
	rows := []struct {
		method  string // SynapseGo's method
		variant string
		auth    goAuth
		setup   func(t *testing.T, e *goMethodEnv) // state the call needs, before it
		req     func(e *goMethodEnv) goRequest
		// status and errorCode are the answer the service gave; errorCode ""
		// is a 200.
		status    int
		errorCode string
		// reads are the top-level fields the SDK or its caller reads.
		reads []string
	}{
		// Client: authentication, reference data, nodes, transactions.
		{method: "Client.GetPublicKey", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/client", query: "issue_public_key=YES&scope=" + defaultScope}
		}, status: 200, reads: []string{"public_key_obj"}},
		{method: "Client.GetPublicKey", variant: "scope and user id", auth: goAuthClient, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/client", query: "issue_public_key=YES&scope=OAUTH|POST,USERS|POST,USERS|GET,USER|GET,USER|PATCH&user_id=" + e.Fixture.User.ID}
		}, status: 200, reads: []string{"public_key_obj"}},
		{method: "Client.GetNodes", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes", query: "page=1&per_page=5"}
		}, status: 200, reads: []string{"limit", "node_count", "nodes", "page", "page_count"}},
		{method: "Client.GetTradeMarketData", variant: "the ticker as the whole query, ?AAPL=", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes/trade-market-watch", query: "AAPL"}
		}, status: 200},
		{method: "Client.GetNodeTypes", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes/types"}
		}, status: 200, reads: []string{"node_types"}},
		{method: "Client.GetCryptoMarketData", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes/crypto-market-watch"}
		}, status: 200, reads: []string{"BTC", "ETH"}},
		{method: "Client.GetCryptoQuotes", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes/crypto-quotes"}
		}, status: 200},
		{method: "Client.GetInstitutions", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/institutions"}
		}, status: 200, reads: []string{"banks"}},
		{method: "Client.LocateATMs", variant: "no query, as the example", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes/atms"}
		}, status: 200, reads: []string{"atms", "atms_count", "limit", "page", "page_count"}},
		{method: "Client.LocateATMs", variant: "zip, radius, paged", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes/atms", query: "zip=94114&radius=5&page=1&per_page=5"}
		}, status: 200, reads: []string{"atms", "atms_count"}},
		{method: "Client.LocateATMs", variant: "radius out of range, the default radius", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes/atms", query: "zip=94114&radius=0"}
		}, status: 200, reads: []string{"atms", "atms_count"}},
		{method: "Client.LocateATMs", variant: "page 0", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/nodes/atms", query: "zip=94114&page=0"}
		}, status: 400, errorCode: "200"},
		{method: "Client.VerifyAddress", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/address-verification",
				body: `{"address_street":"170 St Germain St","address_city":"SF","address_subdivision":"CA","address_country_code":"US","address_postal_code":"94404"}`}
		}, status: 200, reads: []string{"deliverability"}},
		{method: "Client.VerifyRoutingNumber", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/routing-number-verification", body: `{"routing_num":"084008426","type":"ACH-US"}`}
		}, status: 200, reads: []string{"bank_name"}},
		{method: "Client.VerifyRoutingNumber", variant: "not a routing number: an unknown bank", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/routing-number-verification", body: `{"routing_num":"12345","type":"ACH-US"}`}
		}, status: 409, errorCode: "400"},
		{method: "Client.VerifyRoutingNumber", variant: "no routing number", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/routing-number-verification", body: `{"type":"ACH-US"}`}
		}, status: 400, errorCode: "200"},
		{method: "Client.GetSubscriptions", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/subscriptions"}
		}, status: 200, reads: []string{"subscriptions", "subscriptions_count"}},
		{method: "Client.GetSubscription", auth: goAuthClient, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/subscriptions/" + e.subscription}
		}, status: 200, reads: []string{"_id", "scope", "url"}},
		{method: "Client.GetSubscription", variant: "unknown id", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/subscriptions/589b6adec83e17002122196c"}
		}, status: 404, errorCode: "404"},
		{method: "Client.CreateSubscription", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/subscriptions", idempotencyKey: "123456789",
				body: `{"scope":["USERS|POST","USER|PATCH"],"url":"https://requestb.in/zp216zzq"}`}
		}, status: 200, reads: []string{"_id", "scope", "url"}},
		{method: "Client.UpdateSubscription", auth: goAuthClient, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: "/subscriptions/" + e.subscription, body: `{"scope":["USERS|POST","USER|PATCH","NODES|POST"]}`}
		}, status: 200, reads: []string{"_id", "scope"}},
		{method: "Client.GetWebhookLogs", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/subscriptions/logs"}
		}, status: 200},
		{method: "Client.GetTransactions", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/trans", query: "page=1&per_page=5"}
		}, status: 200, reads: []string{"limit", "page", "page_count", "trans", "trans_count"}},
		{method: "Client.GetUsers", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/users", query: "per_page=3&page=1"}
		}, status: 200, reads: []string{"limit", "page", "page_count", "users", "users_count"}},
		{method: "Client.GetUser", auth: goAuthClient, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath(), query: "full_dehydrate=yes"}
		}, status: 200, reads: []string{"_id", "refresh_token"}},
		{method: "Client.GetUser", variant: "unknown id", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/users/5bec6ebebaabfc00ab168fa0"}
		}, status: 404, errorCode: "404"},
		{method: "Client.CreateUser", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/users", idempotencyKey: "go-user-every",
				body: `{"logins":[{"email":"test@synapsefi.com"}],"phone_numbers":["901.111.1111","test@synapsefi.com"],"legal_names":["Test User"]}`}
		}, status: 200, reads: []string{"_id", "refresh_token"}},
		{method: "Client.CreateUser", variant: "no logins", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/users", body: `{"phone_numbers":["901.111.1111"],"legal_names":["Test User"]}`}
		}, status: 400, errorCode: "200"},
		{method: "Client.GetUserDocumentTypes", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/users/document-types"}
		}, status: 200},
		{method: "Client.GetUserEntityTypes", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/users/entity-types"}
		}, status: 200},
		{method: "Client.GetUserEntityScopes", auth: goAuthClient, req: func(*goMethodEnv) goRequest {
			return goRequest{method: "GET", path: "/users/entity-scopes"}
		}, status: 200, reads: []string{"scopes"}},

		// User: authentication and MFA.
		{method: "User.Authenticate", auth: goAuthOAuth, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, body: e.goRefresh("")}
		}, status: 200, reads: []string{"oauth_key", "refresh_token"}},
		{method: "User.Authenticate", variant: "a wrong refresh token", auth: goAuthOAuth, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, body: `{ "refresh_token": "refresh_wrong" }`}
		}, status: 409, errorCode: "400"},
		{method: "User.GetRefreshToken", auth: goAuthUserGateway, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath()}
		}, status: 200, reads: []string{"refresh_token"}},
		{method: "User.RegisterFingerprint", auth: goAuthOAuth, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, fingerprint: goNewFingerprint, body: e.goRefresh("")}
		}, status: 202, errorCode: "10", reads: []string{"phone_numbers"}},
		{method: "User.Select2FA", variant: "the recorded 202 has no error.en: SynapseGo panics", auth: goAuthOAuth, setup: goRegister, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, fingerprint: goNewFingerprint,
				body: e.goRefresh(`, "phone_number": "901.111.1111"`), panics: true}
		}, status: 202, errorCode: "10", reads: []string{"message"}},
		{method: "User.VerifyPIN", auth: goAuthOAuth, setup: func(t *testing.T, e *goMethodEnv) {
			goRegister(t, e)
			goSend(t, e.fake(), goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, fingerprint: goNewFingerprint,
				body: e.goRefresh(`, "phone_number": "901.111.1111"`), panics: true})
			e.token = e.fake().MFAPin(e.Fixture.User.ID)
		}, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, fingerprint: goNewFingerprint,
				body: e.goRefresh(`, "validation_pin": "` + e.token + `"`)}
		}, status: 200, reads: []string{"oauth_key", "refresh_token"}},
		{method: "User.VerifyPIN", variant: "a wrong pin", auth: goAuthOAuth, setup: goRegister, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: "/oauth/" + e.Fixture.User.ID, fingerprint: goNewFingerprint,
				body: e.goRefresh(`, "validation_pin": "000000"`)}
		}, status: 409, errorCode: "400"},

		// User: nodes.
		{method: "User.GetNodes", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/nodes", query: "page=1&per_page=5&type=ACH-US"}
		}, status: 200, reads: []string{"limit", "node_count", "nodes", "page", "page_count"}},
		{method: "User.GetNode", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.nodePath()}
		}, status: 200, reads: []string{"_id", "allowed", "info", "type"}},
		{method: "User.GetNode", variant: "unknown id", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/nodes/594e606212e17a002f2e3251"}
		}, status: 404, errorCode: "404"},
		{method: "User.CreateNode", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.userPath() + "/nodes", idempotencyKey: "go-node-every",
				body: `{"type":"CUSTODY-US","info":{"nickname":"My Checking"},"extra":{"supp_id":"123456"},"is_active":true}`}
		}, status: 200, reads: []string{"node_count", "nodes"}},
		{method: "User.CreateNode", variant: "bank login asks a question: the recorded 202 has no error.en, SynapseGo panics", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.userPath() + "/nodes",
				body: `{"type":"ACH-US","info":{"bank_id":"synapse_good","bank_pw":"test1234","bank_name":"fake"}}`, panics: true}
		}, status: 202, errorCode: "10", reads: []string{"mfa"}},
		{method: "User.CreateNode", variant: "bank login with a wrong password", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.userPath() + "/nodes",
				body: `{"type":"ACH-US","info":{"bank_id":"synapse_good","bank_pw":"wrong","bank_name":"fake"}}`}
		}, status: 400, errorCode: "200"},
		{method: "User.SubmitMFA", setup: func(t *testing.T, e *goMethodEnv) {
			a := e.user.do(goRequest{method: "POST", path: e.userPath() + "/nodes",
				body: `{"type":"ACH-US","info":{"bank_id":"synapse_good","bank_pw":"test1234","bank_name":"fake"}}`, panics: true})
			e.token, _ = a.Body["mfa"].(map[string]any)["access_token"].(string)
		}, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.userPath() + "/nodes", body: `{"access_token":"` + e.token + `","mfa_answer":"test_answer"}`}
		}, status: 200, reads: []string{"node_count", "nodes"}},
		{method: "User.UpdateNode", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.nodePath(), body: `{"supp_id":"new_supp_id_1234"}`}
		}, status: 200, reads: []string{"_id", "extra"}},
		{method: "User.DeleteNode", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "DELETE", path: e.userPath() + "/nodes/" + e.other.ID}
		}, status: 200},
		{method: "User.VerifyMicroDeposit", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.achPath(), body: `{"micro":[0.1,0.1]}`}
		}, status: 200, reads: []string{"_id", "allowed"}},
		{method: "User.ReinitiateMicroDeposits", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.achPath(), query: "resend_micro=YES", body: `{"resend_micro":"YES"}`}
		}, status: 200, reads: []string{"_id", "allowed"}},
		{method: "User.ResetCardNode", variant: "an empty form-encoded body", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.cardPath(), query: "reset=YES", emptyForm: true}
		}, status: 200, reads: []string{"_id", "info"}},
		{method: "User.ResetCardNode", variant: "a deposit node is not a card", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.nodePath(), query: "reset=YES", emptyForm: true}
		}, status: 409, errorCode: "410"},
		{method: "User.ShipCardNode", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.cardPath(), query: "ship=YES", body: `{"fee_node_id":"` + e.Node.ID + `","expedite":true}`}
		}, status: 200, reads: []string{"_id", "info"}},
		{method: "User.ShipCardNode", variant: "the example's Python True goes form-encoded", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.cardPath(), query: "ship=YES", body: `{"fee_node_id":"` + e.Node.ID + `","expedite": True}`}
		}, status: 400, errorCode: "200"},
		{method: "User.GetApplePayToken", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.cardPath() + "/applepay",
				body: `{"certificate":"your applepay cert","nonce":"9c02xxx2","nonce_signature":"4082f883ae62d0700c283e225ee9d286713ef74"}`}
		}, status: 200, reads: []string{"data"}},

		// User: statements.
		{method: "User.GetStatements", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/statements"}
		}, status: 200, reads: []string{"statements"}},
		{method: "User.GetNodeStatements", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.nodePath() + "/statements"}
		}, status: 200, reads: []string{"statements"}},
		{method: "User.CreateNodeStatements", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.nodePath() + "/statements", idempotencyKey: "go-statement",
				body: `{"date_start":1525132800000,"date_end":1525132800000,"webhook":"https://wh.synapsefi.com/gen_me_statement_001"}`}
		}, status: 200},

		// User: subnets and shipments.
		{method: "User.GetSubnets", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/subnets"}
		}, status: 200, reads: []string{"subnets", "subnets_count"}},
		{method: "User.GetNodeSubnets", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.nodePath() + "/subnets", query: "page=4&per_page=10"}
		}, status: 200, reads: []string{"page", "subnets", "subnets_count"}},
		{method: "User.GetSubnet", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.subnetPath()}
		}, status: 200, reads: []string{"_id", "status"}},
		{method: "User.CreateSubnet", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.nodePath() + "/subnets", idempotencyKey: "go-subnet-every", body: `{"nickname":"Test AC/RT"}`}
		}, status: 200, reads: []string{"_id", "account_num", "routing_num"}},
		{method: "User.UpdateSubnet", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.subnetPath(),
				body: `{"preferences":{"allow_foreign_transactions":true,"daily_atm_withdrawal_limit":10,"daily_transaction_limit":1000}}`}
		}, status: 200, reads: []string{"_id", "preferences"}},
		{method: "User.UpdateSubnet", variant: "LOCKED is not a subnet status", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.subnetPath(), body: `{"status":"LOCKED"}`}
		}, status: 400, errorCode: "200"},
		{method: "User.ShipCard", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.subnetPath() + "/ship", body: `{"fee_node_id":"` + e.Node.ID + `","expedite":false,"card_style_id":"555"}`}
		}, status: 200},
		{method: "User.GetCardShipment", setup: func(t *testing.T, e *goMethodEnv) {
			e.user.do(goRequest{method: "PATCH", path: e.subnetPath() + "/ship", body: `{"fee_node_id":"` + e.Node.ID + `","expedite":false}`})
		}, req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.subnetPath() + "/ship"}
		}, status: 200, reads: []string{"ship_count", "ships"}},
		{method: "User.PushToWallet", variant: "the docs' body: two base64 certificates", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.subnetPath() + "/push",
				body: `{"type":"APPLE_PUSH","nonce":"RH0jOQ==","nonce_signature":"QNyNZuyDOO3yu5ymQacY8TjecyYOZP/HraOrc6X4FzNfXZNWG+Om/ocPGg/mQxnmYi2ldudvtny57rLOsiWa5zelzdjUnq0sgpz8kgkEFg/Q","certificates":["MIICzDCCAnKgAwIBAgICEAEwCgYIKoZIzj0EAwIw","MIIB8TCCAZegAwIBAgICEAAwCgYIKoZIzj0EAwIw"]}`}
		}, status: 200, reads: []string{"data"}},
		{method: "User.PushToWallet", variant: "the Go example's elided values, not base64, one certificate (WithStrictRequests refuses them)", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.subnetPath() + "/push",
				body: `{"type":"APPLE_PUSH","nonce":"RH0jOQ==","nonce_signature":"QNyNZuyDO...EFg/Q","certificates":["MIICzD....OPQ7"]}`}
		}, status: 200, reads: []string{"data"}},

		// User: transactions.
		{method: "User.GetTransactions", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.userPath() + "/trans"}
		}, status: 200, reads: []string{"trans", "trans_count"}},
		{method: "User.GetNodeTransactions", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.transPath()}
		}, status: 200, reads: []string{"trans", "trans_count"}},
		{method: "User.GetTransaction", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.txPath()}
		}, status: 200, reads: []string{"_id", "amount", "recent_status"}},
		{method: "User.CreateTransaction", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.transPath(), idempotencyKey: "go-tx-every",
				body: `{"to":{"type":"ACH-US","id":"` + e.ach.ID + `"},"amount":{"amount":20.1,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
		}, status: 200, reads: []string{"_id", "recent_status"}},
		{method: "User.CreateTransaction", variant: "beyond the balance, taken as the sandbox took it", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.transPath(),
				body: `{"to":{"type":"ACH-US","id":"` + e.ach.ID + `"},"amount":{"amount":100000,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
		}, status: 200, reads: []string{"_id", "recent_status"}},
		{method: "User.CreateTransaction", variant: "to its own node", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "POST", path: e.transPath(),
				body: `{"to":{"type":"DEPOSIT-US","id":"` + e.Fixture.Node.ID + `"},"amount":{"amount":1,"currency":"USD"},"extra":{"ip":"192.168.0.1"}}`}
		}, status: 409, errorCode: "400"},
		{method: "User.CancelTransaction", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "DELETE", path: e.txPath()}
		}, status: 200, reads: []string{"recent_status"}},
		{method: "User.CommentOnTransactionStatus", variant: "the idempotency key as a stray query key", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.txPath(), query: "go-comment", body: `{"comment":"Pending verification..."}`}
		}, status: 200, reads: []string{"_id", "timeline"}},
		{method: "User.DisputeTransaction", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.transPath() + "/" + e.cardDebit + "/dispute", body: `{"dispute_reason":"CHARGE_BACK"}`}
		}, status: 200, reads: []string{"dispute_form"}},
		{method: "User.DisputeTransaction", variant: "an ACH debit is not a card transaction", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.txPath() + "/dispute", body: `{"dispute_reason":"CHARGE_BACK"}`}
		}, status: 409, errorCode: "400"},
		{method: "User.CreateDummyTransaction", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "GET", path: e.nodePath() + "/dummy-tran", query: "is_credit=YES&type=INTERCHANGE&subnetid=" + e.subnet.ID + "&foreign_transaction=NO"}
		}, status: 200, reads: []string{"_id", "amount"}},

		// User: the user.
		{method: "User.Update", req: func(e *goMethodEnv) goRequest {
			return goRequest{method: "PATCH", path: e.userPath(),
				body: `{"update":{"login":{"email":"test2@synapsefi.com"},"phone_number":"901-111-2222"}}`}
		}, status: 200, reads: []string{"_id", "logins", "phone_numbers"}},
		{method: "User.CreateUBO", setup: func(t *testing.T, e *goMethodEnv) {
			a := e.user.do(goRequest{method: "PATCH", path: e.userPath(), body: `{"documents":[{"email":"test@test.com","phone_number":"901.111.1111","ip":"::1","name":"Test User","alias":"Test","entity_type":"LLC","entity_scope":"Arts & Entertainment","day":2,"month":5,"year":1989,"address_street":"1 Market St.","address_city":"SF","address_subdivision":"CA","address_postal_code":"94105","address_country_code":"US"}]}`})
			if a.Status != http.StatusOK {
				t.Fatalf("base document: %d %s", a.Status, a.Raw)
			}
		}, req: func(e *goMethodEnv) goRequest {
			person := `{"document_id":"` + doc + `","relationship_to_entity":"CEO"}`
			return goRequest{method: "PATCH", path: e.userPath() + "/ubo",
				body: `{"entity_info":{"cryptocurrency":true,"msb":{"federal":true,"states":["AL"]},"public_company":false,"majority_owned_by_listed":false,"registered_SEC":false,"regulated_financial":false,"gambling":false,"document_id":"` + doc + `"},` +
					`"signer":` + person + `,"compliance_contact":` + person + `,"primary_controlling_contact":` + person + `,"owners":[{"document_id":"` + doc + `","title":"CEO","ownership":95}]}`}
		}, status: 200, reads: []string{"_id", "documents"}},
	}

	covered := map[string]bool{}
	for _, r := range rows {
		if !slices.Contains(goSDKMethods, r.method) {
			t.Errorf("row for %s, which SynapseGo does not have", r.method)
		}
		covered[r.method] = true
	}
	for _, m := range goSDKMethods {
		if !covered[m] {
			t.Errorf("SynapseGo's %s has no row", m)
		}
	}

	for _, r := range rows {
		name := r.method
		if r.variant != "" {
			name += "/" + r.variant
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t)
			e := newGoMethodEnv(t, fake)
			if r.setup != nil {
				r.setup(t, e)
			}
			req := r.req(e)
			if r.status == http.StatusOK {
				goRefusesBadCredentials(t, e, r.auth, req)
			}
			var a goAnswer
			switch r.auth {
			case goAuthUser, goAuthUserGateway:
				a = e.user.do(req)
			default:
				if req.fingerprint == "" {
					req.fingerprint = testkit.TestFingerprint
				}
				a = goSend(t, fake, req)
			}
			if a.Status != r.status || a.errorCode != r.errorCode {
				t.Fatalf("status %d error_code %q, want %d %q: %s", a.Status, a.errorCode, r.status, r.errorCode, a.Raw)
			}
			if v, ok := a.Body["success"]; ok && v != true && r.status == http.StatusOK {
				t.Errorf("success %#v in a 200: %s", v, a.Raw)
			}
			for _, f := range r.reads {
				if _, ok := a.Body[f]; !ok {
					t.Errorf("no %s in %s", f, a.Raw)
				}
			}
		})
	}
}

// goRefusesBadCredentials sends req with a wrong gateway and, for a user
// route, with an unknown oauth key and with another user's key: each is
// refused with the service's envelope and changes nothing. (SynapseGo would
// answer the "300" by re-authenticating and retrying without end.)
func goRefusesBadCredentials(t *testing.T, e *goMethodEnv, auth goAuth, req goRequest) {
	t.Helper()
	fake := e.fake()
	if req.fingerprint == "" {
		req.fingerprint = testkit.TestFingerprint
	}
	if auth == goAuthUser || auth == goAuthUserGateway {
		req.authKey = e.user.authKey
	}
	type refusal struct {
		name      string
		edit      func(*goRequest)
		status    int
		errorCode string
	}
	cases := []refusal{{"wrong gateway", func(r *goRequest) {
		r.edit = func(h http.Header) { h["X-Sp-Gateway"] = []string{"id|wrong"} }
	}, 401, "100"}}
	if auth == goAuthUser {
		stranger := testkit.NewFixture(t, fake, 0)
		cases = append(cases,
			refusal{"unknown oauth key", func(r *goRequest) { r.authKey = "oauth_unknown" }, 401, "110"},
			refusal{"another user's key", func(r *goRequest) { r.authKey = stranger.Key }, 401, "300"})
	}
	for _, c := range cases {
		bad := req
		bad.panics = false
		c.edit(&bad)
		before := goSnapshot(t, fake, e.goFixture)
		n := len(fake.Requests())
		a := goSend(t, fake, bad)
		if a.Status != c.status || a.errorCode != c.errorCode {
			t.Errorf("%s: status %d error_code %q, want %d %q: %s", c.name, a.Status, a.errorCode, c.status, c.errorCode, a.Raw)
		}
		if diff := cmp.Diff(before, goSnapshot(t, fake, e.goFixture)); diff != "" {
			t.Errorf("%s: the store changed (-before +after):\n%s", c.name, diff)
		}
		if got := len(fake.Requests()); got != n+1 {
			t.Errorf("%s: %d requests journaled, want 1", c.name, got-n)
		}
	}
}
