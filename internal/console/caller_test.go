package console_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/phrase"
	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// TestHintsInTheCallersWords: a control request that names its client in
// X-Synapsefake-Client is answered hints in that client's calls (the
// journal's reasons, a failed wait); one that names none, in the control
// API's routes; the Go API keeps the Go calls. The refusals are the usual
// mistakes of a test in another language.
func TestHintsInTheCallersWords(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery(), synapsefake.WithoutDiagnostics())
	fx := testkit.NewFixture(t, fake, 50_00)
	other := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: "other-device"})
	wrongSecret := map[string]string{"X-SP-GATEWAY": fake.ClientID() + "|not-the-secret"}
	for _, c := range []testkit.Call{
		{Method: "GET", Path: "/users", Header: wrongSecret},
		{Method: "GET", Path: "/v3.1/users", Header: testkit.GatewayHeaders(fake)},
		{Method: "GET", Path: "/users/" + other.ID + "/nodes", Header: fx.Headers},
		{Method: "GET", Path: "/users/" + fx.User.ID + "/nodes", Header: testkit.UserHeaders(fake, "oauth_0123456789abcdef")},
		{Method: "POST", Path: "/oauth/" + other.ID, Header: testkit.GatewayHeaders(fake), Body: map[string]any{"refresh_token": other.RefreshToken}},
	} {
		if r := testkit.Do(t, fake, c); r.Status < 300 && r.Status != http.StatusAccepted {
			t.Fatalf("%s %s: %d, want a refusal: %s", c.Method, c.Path, r.Status, r.Raw)
		}
	}
	// A transfer on the frozen clock: a wait for its RETURNED webhook fails
	// at once, naming the advance that makes its next step due.
	tx := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/trans", Header: fx.Headers,
		Body: testkit.TxBody(fake.MustAddNode(t, fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"}), 1)})
	if tx.Status != http.StatusOK {
		t.Fatalf("transfer: %d %s", tx.Status, tx.Raw)
	}

	var goReasons []string
	for _, q := range fake.Requests() {
		goReasons = append(goReasons, q.Reason)
	}
	goText := strings.Join(goReasons, "\n")
	for _, want := range []string{"fake.Gateway()", `fake.OAuthKey("` + other.ID + `", fingerprint)`, "fake.URL()", "fake.OAuthKey(userID, fingerprint)", "UserSeed.Fingerprint"} {
		if !strings.Contains(goText, want) {
			t.Errorf("the Go API's reasons lack %q:\n%s", want, goText)
		}
	}

	root := testkit.CtlRoot(fake) + "/_fake"
	for _, tc := range []struct {
		client string
		want   []string // in the reasons, then in the failed wait
	}{
		{"", []string{"the gateway GET /_fake/platforms lists", `POST /_fake/users/` + other.ID + `/oauth {"fingerprint":"..."}`,
			"the base URL the binary prints", `"fingerprint" in POST /_fake/users`, `call POST /_fake/clock/advance {"duration":"1ms"}`}},
		{"curl/8.5.0", []string{"the gateway GET /_fake/platforms lists", `call POST /_fake/clock/advance {"duration":"1ms"}`}},
		{"python/0.0.0.dev0", []string{"synapsefake.gateway", `synapsefake.oauth_key("` + other.ID + `", fingerprint)`,
			"synapsefake.base_url", "synapsefake.oauth_key(user_id, fingerprint)", "synapsefake.add_user(fingerprint=...)", `call synapsefake.advance("1ms")`}},
		{"node/0.0.0-dev", []string{"platform.gateway", `platform.control.oauthKey('` + other.ID + `', fingerprint)`,
			"platform.baseUrl", "platform.control.oauthKey(userId, fingerprint)", "platform.control.addUser({ fingerprint })", `call platform.control.advance('1ms')`}},
		{"ruby", []string{"synapsefake.gateway", `synapsefake.oauth_key("` + other.ID + `", fingerprint)`,
			"synapsefake.base_url", "synapsefake.oauth_key(user_id, fingerprint)", "synapsefake.add_user(fingerprint: ...)", `call synapsefake.advance("1ms")`}},
	} {
		t.Run(tc.client, func(t *testing.T) {
			header := map[string]string{}
			if tc.client != "" {
				header["X-Synapsefake-Client"] = tc.client
			}
			r := testkit.CtlSend(t, fake.Client(), "GET", root+"/requests", header, nil)
			if r.Status != http.StatusOK {
				t.Fatalf("GET /_fake/requests: %d %s", r.Status, r.Raw)
			}
			var reasons []string
			for _, q := range r.Body["requests"].([]any) {
				if reason, _ := q.(map[string]any)["reason"].(string); reason != "" {
					reasons = append(reasons, reason)
				}
			}
			if len(reasons) != 5 {
				t.Fatalf("%d reasons, want the 5 refusals': %q", len(reasons), reasons)
			}
			w := testkit.CtlSend(t, fake.Client(), "POST", root+"/webhooks/wait", header,
				map[string]any{"object_id": tx.Body["_id"], "status": "RETURNED", "timeout": "0s"})
			testkit.WantError(t, w, http.StatusNotFound, "404", "no_matching_webhook")
			failure := w.Body["error"].(map[string]any)["en"].(string)
			text := strings.Join(reasons, "\n") + "\n" + failure
			for _, want := range tc.want {
				if !strings.Contains(text, want) {
					t.Errorf("lacks %q:\n%s", want, text)
				}
			}
			if m := phrase.GoCall(text); m != "" {
				t.Errorf("names the Go call %q:\n%s", m, text)
			}
		})
	}
}
