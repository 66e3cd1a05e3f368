package api

import (
	"testing"

	"github.com/synapsefake/synapsefake/internal/phrase"
)

// TestPhraseWireHints: the wire's hints in each caller's words, and Go's
// left as they are.
func TestPhraseWireHints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		goText                   string
		http, python, node, ruby string
	}{
		{
			hintGateway,
			`send X-SP-GATEWAY: "<client_id>|<client_secret>"; the gateway GET /_fake/platforms lists is this fake's`,
			`send X-SP-GATEWAY: "<client_id>|<client_secret>"; synapsefake.gateway is this fake's`,
			`send X-SP-GATEWAY: "<client_id>|<client_secret>"; platform.gateway is this fake's`,
			`send X-SP-GATEWAY: "<client_id>|<client_secret>"; synapsefake.gateway is this fake's`,
		},
		{hintUserIP, hintUserIP, hintUserIP, hintUserIP, hintUserIP},
		{hintIdempotency, hintIdempotency, hintIdempotency, hintIdempotency, hintIdempotency},
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

// TestWireHintsLeaveNoGoCall: the wire's hints, phrased for a client of
// another language, name none of the Go API.
func TestWireHintsLeaveNoGoCall(t *testing.T) {
	t.Parallel()
	hints := []string{
		hintGateway, hintUserIP, hintIdempotency,
		routeHint("/v3.1/v3.1/users"), routeHint("/users"), routeHint("/v3.1/nope"),
	}
	for _, h := range hints {
		for _, c := range []phrase.Caller{phrase.CallerHTTP, phrase.CallerPython, phrase.CallerNode, phrase.CallerRuby} {
			if got := c.Phrase(h); phrase.GoCall(got) != "" {
				t.Errorf("caller %d: %q names a Go call: %q", c, got, phrase.GoCall(got))
			}
		}
	}
}
