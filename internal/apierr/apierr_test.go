package apierr_test

import (
	"errors"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// wire is what an Error puts in the envelope: its status and the body's
// codes and message.
type wire struct {
	Status              int
	ErrorCode, HTTPCode string
	Code, Message       string
}

func wireOf(e *apierr.Error) wire {
	return wire{Status: e.Status, ErrorCode: e.ErrorCode, HTTPCode: e.HTTPCode(), Code: e.Code, Message: e.Message}
}

func TestConstructors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  *apierr.Error
		want wire
	}{
		{"New", apierr.New("404", "gone", "%s is %d", "x", 1),
			wire{Status: 404, ErrorCode: "404", Code: "gone", Message: "x is 1"}},
		{"New with an unknown error_code", apierr.New("999", "odd", "odd"),
			wire{Status: 500, ErrorCode: "999", Code: "odd", Message: "odd"}},
		{"Payload", apierr.Payload("invalid_amount", "amount %v", 1.5),
			wire{Status: 400, ErrorCode: "200", Code: "invalid_amount", Message: "amount 1.5"}},
		{"Incorrect", apierr.Incorrect("bad", "bad"), wire{Status: 409, ErrorCode: "400", Code: "bad", Message: "bad"}},
		{"Unauthorized", apierr.Unauthorized("no", "no"), wire{Status: 401, ErrorCode: "300", Code: "no", Message: "no"}},
		{"NotFound", apierr.NotFound("node"),
			wire{Status: 404, ErrorCode: "404", Code: "unable_to_locate_node", Message: "Unable to locate node."}},
		{"NotAllowed", apierr.NotAllowed("locked", "locked"), wire{Status: 409, ErrorCode: "410", Code: "locked", Message: "locked"}},
		{"MethodNotAllowed", apierr.MethodNotAllowed("PATCH"),
			wire{Status: 409, ErrorCode: "410", Code: "method_not_allowed", Message: "Method PATCH is not allowed on this route."}},
		{"MissingGateway", apierr.MissingGateway, wire{Status: 400, ErrorCode: "100", Code: "missing_client_credentials",
			Message: "Missing client credentials (X-SP-GATEWAY)."}},
		{"BadGateway", apierr.BadGateway, wire{Status: 401, ErrorCode: "100", Code: "invalid_client_credentials",
			Message: "Invalid client_id or client_secret."}},
		{"MissingUser", apierr.MissingUser, wire{Status: 400, ErrorCode: "200", Code: "missing_user_credentials",
			Message: "Missing user credentials (X-SP-USER)."}},
		{"MissingUserIP", apierr.MissingUserIP, wire{Status: 400, ErrorCode: "200", Code: "missing_user_ip",
			Message: "Missing user IP address (X-SP-USER-IP)."}},
		{"NoOAuthKey", apierr.NoOAuthKey, wire{Status: 401, ErrorCode: "300", Code: "missing_oauth_key",
			Message: "Missing oauth_key in X-SP-USER."}},
		{"BadOAuthKey", apierr.BadOAuthKey, wire{Status: 401, ErrorCode: "110", Code: "invalid_oauth_key",
			Message: "Invalid/expired oauth_key."}},
		{"Fingerprint", apierr.Fingerprint, wire{Status: 401, ErrorCode: "120", Code: "unauthorized_fingerprint",
			Message: "Fingerprint does not match the oauth_key."}},
		{"InvalidFingerprint", apierr.InvalidFingerprint, wire{Status: 400, ErrorCode: "300", HTTPCode: "401",
			Code: "invalid_fingerprint", Message: "Invalid fingerprint supplied."}},
		{"RouteNotFound", apierr.RouteNotFound, wire{Status: 404, ErrorCode: "404", Code: "not_found",
			Message: "Unable to locate the requested route."}},
	} {
		if tc.want.HTTPCode == "" {
			tc.want.HTTPCode = strconv.Itoa(tc.want.Status)
		}
		if got := wireOf(tc.err); got != tc.want {
			t.Errorf("%s = %+v, want %+v", tc.name, got, tc.want)
		}
		if tc.err.Reason != "" || tc.err.Hint != "" || apierr.Reported(tc.err) {
			t.Errorf("%s carries a reason %q, hint %q or report mark", tc.name, tc.err.Reason, tc.err.Hint)
		}
	}
}

// TestBecauseAndHinting: both answer a copy, so that a shared refusal
// (apierr.BadOAuthKey) never takes one request's reason.
func TestBecauseAndHinting(t *testing.T) {
	before := *apierr.BadOAuthKey
	e := apierr.BadOAuthKey.Because("expired %ds ago", 90).Hinting("renew it with %s", "POST /oauth")
	if *apierr.BadOAuthKey != before {
		t.Errorf("Because and Hinting changed the shared error: %+v", *apierr.BadOAuthKey)
	}
	want := before
	want.Reason, want.Hint = "expired 90s ago", "renew it with POST /oauth"
	if *e != want {
		t.Errorf("got %+v, want %+v", *e, want)
	}
}

func TestExplanation(t *testing.T) {
	base := apierr.Payload("c", "the wire's message")
	for _, tc := range []struct {
		name string
		err  *apierr.Error
		want string
	}{
		{"the message when no reason", base, "the wire's message"},
		{"the reason", base.Because("why"), "why"},
		{"the message and a hint", base.Hinting("fix"), "the wire's message (hint: fix)"},
		{"the reason and a hint", base.Because("why").Hinting("fix"), "why (hint: fix)"},
	} {
		if got := tc.err.Explanation(); got != tc.want {
			t.Errorf("%s: Explanation() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestError(t *testing.T) {
	var err error = apierr.NotFound("user").Because("not said by Error")
	if got, want := err.Error(), "synapsefake: unable_to_locate_user (error_code 404, http 404): Unable to locate user."; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code != "unable_to_locate_user" {
		t.Errorf("errors.As found %+v", ae)
	}
}

// TestNoNetHTTP: the bank imports this package and must never depend on
// net/http, even through it.
func TestNoNetHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	if deps := strings.Fields(string(out)); slices.Contains(deps, "net/http") {
		t.Errorf("apierr depends on net/http: %v", deps)
	}
}
