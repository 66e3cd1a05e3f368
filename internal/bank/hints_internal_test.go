package bank

import (
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/phrase"
)

// TestPhrase: each Go phrase of the hints in each caller's words, and Go's
// left as it is.
func TestPhrase(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		goText                   string
		http, python, node, ruby string
	}{
		{
			"pending (call Advance(1m)); due now: Advance(0) runs it",
			`pending (call POST /_fake/clock/advance {"duration":"1m"}); due now: POST /_fake/clock/advance {"duration":"0"} runs it`,
			`pending (call synapsefake.advance("1m")); due now: synapsefake.advance("0") runs it`,
			`pending (call platform.control.advance('1m')); due now: platform.control.advance('0') runs it`,
			`pending (call synapsefake.advance("1m")); due now: synapsefake.advance("0") runs it`,
		},
		{
			HintNewKey,
			`get a key from POST /oauth/{user_id} with the user's refresh_token, or POST /_fake/users/{user_id}/oauth {"fingerprint":"..."}`,
			`get a key from POST /oauth/{user_id} with the user's refresh_token, or synapsefake.oauth_key(user_id, fingerprint)`,
			`get a key from POST /oauth/{user_id} with the user's refresh_token, or platform.control.oauthKey(userId, fingerprint)`,
			`get a key from POST /oauth/{user_id} with the user's refresh_token, or synapsefake.oauth_key(user_id, fingerprint)`,
		},
		{
			`use a key of user u1: fake.OAuthKey("u1", fingerprint) or POST /oauth/u1`,
			`use a key of user u1: POST /_fake/users/u1/oauth {"fingerprint":"..."} or POST /oauth/u1`,
			`use a key of user u1: synapsefake.oauth_key("u1", fingerprint) or POST /oauth/u1`,
			`use a key of user u1: platform.control.oauthKey('u1', fingerprint) or POST /oauth/u1`,
			`use a key of user u1: synapsefake.oauth_key("u1", fingerprint) or POST /oauth/u1`,
		},
		{
			"the API's paths start with /v3.1, which fake.URL() includes",
			"the API's paths start with /v3.1, which the base URL the binary prints includes",
			"the API's paths start with /v3.1, which synapsefake.base_url includes",
			"the API's paths start with /v3.1, which platform.baseUrl includes",
			"the API's paths start with /v3.1, which synapsefake.base_url includes",
		},
		{
			hintFunds,
			`fund the node (POST /_fake/nodes/{node_id}/fund, or balance_cents in POST /_fake/users/{user_id}/nodes), or let the pending debits settle or cancel them`,
			`fund the node (synapsefake.fund(node_id, cents), or synapsefake.add_node(user_id, balance_cents=...)), or let the pending debits settle or cancel them`,
			`fund the node (platform.control.fund(nodeId, cents), or platform.control.addNode(userId, { balance_cents })), or let the pending debits settle or cancel them`,
			`fund the node (synapsefake.fund(node_id, cents), or synapsefake.add_node(user_id, balance_cents: ...)), or let the pending debits settle or cancel them`,
		},
		{
			"ForceMFA asks user u1 for MFA (hint: register the device first (fake.OAuthKey(userID, fingerprint) or UserSeed.Fingerprint)",
			`POST /_fake/users/{user_id}/force-mfa asks user u1 for MFA (hint: register the device first (POST /_fake/users/{user_id}/oauth {"fingerprint":"..."} or "fingerprint" in POST /_fake/users)`,
			`synapsefake.force_mfa asks user u1 for MFA (hint: register the device first (synapsefake.oauth_key(user_id, fingerprint) or synapsefake.add_user(fingerprint=...))`,
			`platform.control.forceMFA asks user u1 for MFA (hint: register the device first (platform.control.oauthKey(userId, fingerprint) or platform.control.addUser({ fingerprint }))`,
			`synapsefake.force_mfa asks user u1 for MFA (hint: register the device first (synapsefake.oauth_key(user_id, fingerprint) or synapsefake.add_user(fingerprint: ...))`,
		},
		{
			errExpiredKey(time.Unix(0, 0), time.Unix(60, 0)).Hint,
			`keys live 7200s of the fake's time, and POST /_fake/clock/advance moves it; renew the key: get a key from POST /oauth/{user_id} with the user's refresh_token, or POST /_fake/users/{user_id}/oauth {"fingerprint":"..."}`,
			`keys live 7200s of the fake's time, and synapsefake.advance moves it; renew the key: get a key from POST /oauth/{user_id} with the user's refresh_token, or synapsefake.oauth_key(user_id, fingerprint)`,
			`keys live 7200s of the fake's time, and platform.control.advance moves it; renew the key: get a key from POST /oauth/{user_id} with the user's refresh_token, or platform.control.oauthKey(userId, fingerprint)`,
			`keys live 7200s of the fake's time, and synapsefake.advance moves it; renew the key: get a key from POST /oauth/{user_id} with the user's refresh_token, or synapsefake.oauth_key(user_id, fingerprint)`,
		},
		{
			"or read the current one from GET /users/{user_id} or fake.User(userID)'s RefreshToken",
			"or read the current one from GET /users/{user_id} or GET /_fake/users/{user_id}'s refresh_token",
			`or read the current one from GET /users/{user_id} or synapsefake.user(user_id)["refresh_token"]`,
			"or read the current one from GET /users/{user_id} or (await platform.control.user(userId)).refresh_token",
			`or read the current one from GET /users/{user_id} or synapsefake.user(user_id)["refresh_token"]`,
		},
		{"no Go call here", "no Go call here", "no Go call here", "no Go call here", "no Go call here"},
	} {
		for _, c := range []struct {
			caller phrase.Caller
			want   string
		}{{phrase.CallerGo, tc.goText}, {phrase.CallerHTTP, tc.http}, {phrase.CallerPython, tc.python}, {phrase.CallerNode, tc.node}, {phrase.CallerRuby, tc.ruby}} {
			if got := c.caller.Phrase(tc.goText); got != c.want {
				t.Errorf("caller %d: Phrase(%q)\n = %q\nwant %q", c.caller, tc.goText, got, c.want)
			}
		}
	}
}

// TestPhraseLeavesNoGoCall: every hint this package makes, phrased for a
// client of another language, names none of the Go API. (The API layer's
// own hints are read the same way in its TestWireHintsLeaveNoGoCall, and
// over HTTP in the console's TestHintsInTheCallersWords.)
func TestPhraseLeavesNoGoCall(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 4, 14, 14, 0, 0, 0, time.UTC)
	hints := []string{
		HintUserHeader, HintNewKey, hintFingerprint, hintFunds, hintRotatedToken,
		errExpiredKey(now.Add(-time.Hour), now).Explanation(),
		errUnknownKey("oauth_0123456789").Explanation(),
		errRotatedToken(apierr.Incorrect("invalid_refresh_token", "Invalid refresh_token."), "u1").Explanation(),
		ErrFingerprintFor("key|fp", "fp1", "fp2").Explanation(),
		ErrFingerprintFor("key", "fp1", "").Explanation(),
		advanceHint(now, now.Add(90*time.Minute)),
		advanceHint(now, now),
	}
	for _, h := range hints {
		for _, c := range []phrase.Caller{phrase.CallerHTTP, phrase.CallerPython, phrase.CallerNode, phrase.CallerRuby} {
			if got := c.Phrase(h); phrase.GoCall(got) != "" {
				t.Errorf("caller %d: %q names a Go call: %q", c, got, phrase.GoCall(got))
			}
		}
	}
}
