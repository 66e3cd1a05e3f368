// Package phrase says the fake's hints in the words of whoever reads them:
// a hint names Go calls (fake.OAuthKey, Advance(1h)), and a client in
// another language, or curl, is told its own calls instead. The console
// phrases its answers for the client a control request names, and the
// binary its start-up line.
//
// It is a leaf: it imports only the standard library. Its table is keyed
// on the Go phrases the bank's and the wire's hints hold, so each layer's
// tests can check their own hints against it (the bank's
// TestPhraseLeavesNoGoCall reads hints that only the bank can reach).
package phrase

import (
	"regexp"
	"strings"
)

// Caller is who reads a hint: the fake's hints (the bank's Hint*
// constants, a failed wait's "call Advance(1h)", a refusal's reason) name
// Go calls, and a reader in another language is told its own calls
// instead. The Go API (the test's log, Requests, Wait, Check) reads them
// as they are made; a control API request says who asks in the
// X-Synapsefake-Client header (ClientHeader), and its answer is phrased
// for that caller. An API request's refusal is phrased when it is read,
// for whoever reads it: the journal keeps the Go words, and GET
// /_fake/requests answers them in the asking client's.
type Caller uint8

// The callers a hint is phrased for.
const (
	// CallerGo is the Go API: hints as they are made.
	CallerGo Caller = iota
	// CallerHTTP is curl, or a client that names none (or one not listed
	// here): the control API's routes.
	CallerHTTP
	// CallerPython is synapsefake's Python package (python/VERSION): the
	// pytest fixture's platform, synapsefake.
	CallerPython
	// CallerNode is synapsefake's npm package (node/VERSION): a platform's
	// control.
	CallerNode
	// CallerRuby is synapsefake's Ruby gem (ruby): the platform the RSpec
	// and Minitest helpers give a test, synapsefake, whose methods are
	// its control's.
	CallerRuby
)

// lastCaller is the last Caller a hint is phrased for.
const lastCaller = CallerRuby

// ClientHeader is the request header in which a control client names
// itself, "python/1.2.3", "node/1.2.3" or "ruby"; the binary reads the same value
// from the SYNAPSEFAKE_CLIENT environment variable for its banner.
const ClientHeader = "X-Synapsefake-Client"

// ParseCaller is the caller a ClientHeader value names: its part before
// "/" is python, node or ruby, anything else (none included) is
// CallerHTTP.
func ParseCaller(client string) Caller {
	name, _, _ := strings.Cut(client, "/")
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "python":
		return CallerPython
	case "node":
		return CallerNode
	case "ruby":
		return CallerRuby
	}
	return CallerHTTP
}

// phrasing is one Go phrase a hint may hold, and how each other caller
// says it: regexp replacement templates, indexed by Caller ($1 is the
// phrase's first group).
type phrasing struct {
	goPhrase *regexp.Regexp
	by       [lastCaller + 1]string
}

// phrasings are the Go phrases of the hints, the longest first where one
// holds another. A hint that gains a Go call gains a row here (the bank's
// TestPhraseLeavesNoGoCall reads its hints, the console's
// TestHintsInTheCallersWords the wire's).
var phrasings = []phrasing{
	{regexp.MustCompile(`keys live WithOAuthKeyLifetime \(7200s by default\) of fake time, and Advance moves it`), [...]string{
		CallerHTTP:   `keys live 7200s of the fake's time, and POST /_fake/clock/advance moves it`,
		CallerPython: `keys live 7200s of the fake's time, and synapsefake.advance moves it`,
		CallerNode:   `keys live 7200s of the fake's time, and platform.control.advance moves it`,
		CallerRuby:   `keys live 7200s of the fake's time, and synapsefake.advance moves it`,
	}},
	{regexp.MustCompile(`\bAdvance\(([0-9a-zµ.]+)\)`), [...]string{
		CallerHTTP:   `POST /_fake/clock/advance {"duration":"$1"}`,
		CallerPython: `synapsefake.advance("$1")`,
		CallerNode:   `platform.control.advance('$1')`,
		CallerRuby:   `synapsefake.advance("$1")`,
	}},
	{regexp.MustCompile(`fake\.OAuthKey\(userID, fingerprint\)`), [...]string{
		CallerHTTP:   `POST /_fake/users/{user_id}/oauth {"fingerprint":"..."}`,
		CallerPython: `synapsefake.oauth_key(user_id, fingerprint)`,
		CallerNode:   `platform.control.oauthKey(userId, fingerprint)`,
		CallerRuby:   `synapsefake.oauth_key(user_id, fingerprint)`,
	}},
	{regexp.MustCompile(`fake\.OAuthKey\("([^"]*)", fingerprint\)`), [...]string{
		CallerHTTP:   `POST /_fake/users/$1/oauth {"fingerprint":"..."}`,
		CallerPython: `synapsefake.oauth_key("$1", fingerprint)`,
		CallerNode:   `platform.control.oauthKey('$1', fingerprint)`,
		CallerRuby:   `synapsefake.oauth_key("$1", fingerprint)`,
	}},
	{regexp.MustCompile(`fake\.Gateway\(\)`), [...]string{
		CallerHTTP:   `the gateway GET /_fake/platforms lists`,
		CallerPython: `synapsefake.gateway`,
		CallerNode:   `platform.gateway`,
		CallerRuby:   `synapsefake.gateway`,
	}},
	{regexp.MustCompile(`fake\.URL\(\)`), [...]string{
		CallerHTTP:   `the base URL the binary prints`,
		CallerPython: `synapsefake.base_url`,
		CallerNode:   `platform.baseUrl`,
		CallerRuby:   `synapsefake.base_url`,
	}},
	{regexp.MustCompile(`UserSeed\.Fingerprint`), [...]string{
		CallerHTTP:   `"fingerprint" in POST /_fake/users`,
		CallerPython: `synapsefake.add_user(fingerprint=...)`,
		CallerNode:   `platform.control.addUser({ fingerprint })`,
		CallerRuby:   `synapsefake.add_user(fingerprint: ...)`,
	}},
	{regexp.MustCompile(`fake\.Fund, NodeSeed\.BalanceCents`), [...]string{
		CallerHTTP:   `POST /_fake/nodes/{node_id}/fund, or balance_cents in POST /_fake/users/{user_id}/nodes`,
		CallerPython: `synapsefake.fund(node_id, cents), or synapsefake.add_node(user_id, balance_cents=...)`,
		CallerNode:   `platform.control.fund(nodeId, cents), or platform.control.addNode(userId, { balance_cents })`,
		CallerRuby:   `synapsefake.fund(node_id, cents), or synapsefake.add_node(user_id, balance_cents: ...)`,
	}},
	{regexp.MustCompile(`fake\.User\(userID\)'s RefreshToken`), [...]string{
		CallerHTTP:   `GET /_fake/users/{user_id}'s refresh_token`,
		CallerPython: `synapsefake.user(user_id)["refresh_token"]`,
		CallerNode:   `(await platform.control.user(userId)).refresh_token`,
		CallerRuby:   `synapsefake.user(user_id)["refresh_token"]`,
	}},
	{regexp.MustCompile(`\bForceMFA asks`), [...]string{
		CallerHTTP:   `POST /_fake/users/{user_id}/force-mfa asks`,
		CallerPython: `synapsefake.force_mfa asks`,
		CallerNode:   `platform.control.forceMFA asks`,
		CallerRuby:   `synapsefake.force_mfa asks`,
	}},
}

// Phrase is text, a hint or a message that holds hints, in the caller's
// words: each Go call of phrasings becomes the caller's. CallerGo's is text
// itself.
func (c Caller) Phrase(text string) string {
	if c == CallerGo || c > lastCaller || text == "" {
		return text
	}
	for _, p := range phrasings {
		if p.goPhrase.MatchString(text) {
			text = p.goPhrase.ReplaceAllString(text, p.by[c])
		}
	}
	return text
}

// GoCall is the first part of text that names what only a Go test can
// call (a Server's method, a seed's field, an option, Advance, a User's
// RefreshToken), "" when none does: a hint phrased for another caller
// names none, which the layers' tests check of their hints with it.
func GoCall(text string) string { return goCall.FindString(text) }

var goCall = regexp.MustCompile(`fake\.[A-Z]|\bAdvance\b|Seed\.|\bWith[A-Z]\w+|\bForceMFA\b|RefreshToken\b`)
