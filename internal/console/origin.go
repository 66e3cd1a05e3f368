package console

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/jsonx"
	"github.com/synapsefake/synapsefake/reference"
)

// The control API and the dashboard change and reveal the whole store with
// no credentials, so they answer only their own origin. Before anything
// else looks at a /_fake/ request (before due work runs), GuardControl
// refuses, in this order:
//
//   - a Host that is not a loopback name (localhost, *.localhost,
//     127.0.0.0/8, ::1), the in-process host of New, the host of the
//     server's own URL or one of WithAllowedHosts: 403 / "300"
//     foreign_host. A page reached through DNS rebinding sends its own
//     name as Host, so it cannot read the state;
//   - what a browser sends from another origin: an Origin header that is
//     not this Host, or Sec-Fetch-Site cross-site or same-site, except a
//     plain top-level GET navigation (following a link to a page, which
//     shows the other site nothing): 403 / "300" cross_origin_request.
//     Clients that send neither (curl, the SDKs, Go tests) are not
//     affected;
//   - with WithControlToken, a request that carries neither the token
//     (X-Fake-Control-Token or Authorization: Bearer) nor the cookie the
//     dashboard gets from /_fake/ui/?token=: 401 / "300".
//
// Requests that Client or Transport serve in-process come from no browser
// and skip the first two checks.
//
// The real API under /v3.1 is not checked: SDKs reach it under any name,
// and its credentials are headers a page on another origin cannot send
// without a CORS preflight, which the fake never grants.

// InProcessKey marks, in its context, a request Client or Transport serves
// in-process: no browser can send one, whatever its Host.
type InProcessKey struct{}

// inProcessHost is the host of noListenerBase, which New's URL and Client
// use.
const inProcessHost = "synapsefake.invalid"

// controlTokenHeader is the request header that carries the control token
// (WithControlToken); "Authorization: Bearer <token>" does too.
const controlTokenHeader = "X-Fake-Control-Token"

// controlTokenCookie is the cookie /_fake/ui/?token= sets for the
// dashboard. It holds a digest of the token, not the token itself.
const controlTokenCookie = "synapsefake_control"

// errForbidden is a refusal of who is asking rather than of what is asked.
// The error code table has no 403; error_code "300" (unauthorized action)
// is the nearest, and http_code follows the status.
func errForbidden(code, format string, args ...any) *apierr.Error {
	e := apierr.New(reference.ErrUnauthorized, code, format, args...)
	e.Status = http.StatusForbidden
	return e
}

// GuardControl answers a /_fake/ request that may not reach the control API
// and reports whether it may.
func (s *Console) GuardControl(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h.Set("X-Frame-Options", "DENY") // no clicking the dashboard's buttons through another site's frame
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if r.Context().Value(InProcessKey{}) == nil {
		if err := s.checkControlOrigin(r); err != nil {
			s.Fail(w, err)
			return false
		}
	}
	if s.Cfg.ControlToken == "" {
		return true
	}
	return s.checkControlToken(w, r)
}

// checkControlOrigin refuses a request for another host or from another
// origin.
func (s *Console) checkControlOrigin(r *http.Request) error {
	if !s.controlHost(r.Host) {
		return errForbidden("foreign_host", "Host %q may not use the control API: it answers loopback names, "+
			"its own address and the hosts given with -allow-host (WithAllowedHosts).", jsonx.Clip(r.Host))
	}
	for _, o := range r.Header.Values("Origin") {
		if !sameHost(o, r.Host) {
			return errForbidden("cross_origin_request", "Origin %q is not this server's origin: the control API "+
				"answers only its own pages and clients that send no Origin.", jsonx.Clip(o))
		}
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		if !topLevelNavigation(r) {
			return errForbidden("cross_origin_request", "A request from another site (Sec-Fetch-Site: %s) may not "+
				"use the control API: it answers only its own pages and clients that send no Origin.", jsonx.Clip(site))
		}
	}
	return nil
}

// topLevelNavigation reports whether r is a browser following a link to a
// page: it shows the linking site nothing and changes nothing.
func topLevelNavigation(r *http.Request) bool {
	dest := r.Header.Get("Sec-Fetch-Dest")
	return r.Method == http.MethodGet && r.Header.Get("Sec-Fetch-Mode") == "navigate" && (dest == "" || dest == "document")
}

// controlHost reports whether the control API answers requests for
// hostport. A request with no Host at all comes from no browser.
func (s *Console) controlHost(hostport string) bool {
	if hostport == "" {
		return true
	}
	host := HostOnly(hostport)
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || host == inProcessHost {
		return true
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.Unmap().IsLoopback() {
		return true
	}
	if u, err := url.Parse(s.Base); err == nil && host == HostOnly(u.Host) {
		return true
	}
	for _, h := range s.Cfg.AllowedHosts {
		if host == h {
			return true
		}
	}
	return false
}

// HostOnly is the host of a Host header or URL host, without port,
// brackets, final dot or upper case: "[::1]:8080" is "::1".
func HostOnly(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// sameHost reports whether the Origin header origin names the host and
// port of the Host header host. The scheme is not compared: a proxy that
// ends TLS in front of the fake forwards https pages' requests over http,
// and no other server can answer on the fake's own host and port.
func sameHost(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && (u.Scheme == "http" || u.Scheme == "https") &&
		u.Path == "" && strings.EqualFold(u.Host, host)
}

// checkControlToken answers a request that does not carry the control
// token, and a visit to a dashboard page with ?token=, which gets the
// cookie and a redirect to the page without the token in its address.
func (s *Console) checkControlToken(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, UIPrefix) && r.URL.Query().Has("token") {
		q := r.URL.Query()
		if !s.isControlToken(q.Get("token")) {
			s.failToken(w, "invalid_control_token", "The token in the address is not this server's control token.")
			return false
		}
		http.SetCookie(w, &http.Cookie{Name: controlTokenCookie, Value: s.controlCookie(), Path: ControlPrefix,
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
		q.Del("token")
		to := s.controlRoot() + strings.TrimPrefix(r.URL.EscapedPath(), ControlPrefix)
		if len(q) > 0 {
			to += "?" + q.Encode()
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return false
	}
	tok := r.Header.Get(controlTokenHeader)
	if a := r.Header.Get("Authorization"); tok == "" && len(a) > len("Bearer ") && strings.EqualFold(a[:len("Bearer ")], "Bearer ") {
		tok = a[len("Bearer "):]
	}
	if tok != "" {
		if s.isControlToken(tok) {
			return true
		}
		s.failToken(w, "invalid_control_token", "The control token is not this server's.")
		return false
	}
	if c, err := r.Cookie(controlTokenCookie); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.controlCookie())) == 1 {
		return true
	}
	s.failToken(w, "missing_control_token", "This server's control API needs its control token: send %s or "+
		"Authorization: Bearer, or open %s?token=... once in the browser.", controlTokenHeader, UIPrefix)
	return false
}

func (s *Console) failToken(w http.ResponseWriter, code, format string, args ...any) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="synapsefake control API"`)
	s.Fail(w, apierr.Unauthorized(code, format, args...))
}

func (s *Console) isControlToken(tok string) bool {
	return subtle.ConstantTimeCompare([]byte(tok), []byte(s.Cfg.ControlToken)) == 1
}

// controlCookie is the dashboard cookie's value: a digest of the token, so
// that any token fits in a cookie and the cookie does not hold the token.
func (s *Console) controlCookie() string {
	sum := sha256.Sum256([]byte("synapsefake control token\x00" + s.Cfg.ControlToken))
	return hex.EncodeToString(sum[:])
}
