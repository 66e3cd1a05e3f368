package synapsefake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// UserClient calls the API as one user from one device: each call carries
// the X-SP-GATEWAY of the platform, X-SP-USER "<oauth_key>|<fingerprint>"
// and X-SP-USER-IP, and a JSON body. Build one with Server.As. It renews
// its oauth_key when the key's lifetime has passed on the fake's clock.
// Its calls go through the API like any client's: they are journaled and
// answered with the real envelopes. It is safe for concurrent use, but
// change its fields only between calls.
type UserClient struct {
	// ID is the user's id and Fingerprint the device's; the handle holds a
	// key for this pair, and mints a new one when either changes.
	ID          string
	Fingerprint string
	// IP is sent as X-SP-USER-IP; As sets it to 127.0.0.1.
	IP string
	// Header holds extra headers sent with every call, such as
	// X-SP-IDEMPOTENCY-KEY.
	Header http.Header

	s  *Server
	tb TB

	mu      sync.Mutex
	key     string    // "" when none could be minted
	keyFor  string    // "<ID>|<Fingerprint>" the key was minted for
	expires time.Time // when the key expires, on the fake's clock
}

// Response is an answer to a UserClient's call.
type Response struct {
	Status int
	Header http.Header
	// Body is the answer decoded, when it is a JSON object (every answer
	// but a statement file's); nil otherwise.
	Body map[string]any
	// Raw is the answer as sent.
	Raw []byte
}

// Decode decodes the answer's JSON into v.
func (r Response) Decode(v any) error { return json.Unmarshal(r.Raw, v) }

// As returns a handle that calls the API as user userID from the device
// fingerprint, registering the fingerprint and minting a key with every
// user-level scope as OAuthKey does (no POST /oauth is sent and the
// refresh token is not spent). A call is then one line:
//
//	u := fake.As(t, user.ID, "device-1")
//	resp := u.Post("nodes/"+node.ID+"/trans", body)
//
// Its Get, Post, Patch and Delete fail tb at once (Fatalf) when a call
// cannot be made: a body that does not encode, a transport error. Answers,
// refusals included, are returned. For an unknown user no key can be
// minted: the calls go out with an empty key and get the service's
// answer to that. A LOCKED user's key opens only the user, and is not
// renewed after the refusals of other calls, as a client's POST /oauth
// would not renew it either. A
// fingerprint POST /oauth would refuse (not 1 to 256 letters, digits, '-',
// '_' or '.') fails tb at once, as OAuthKey would not mint a key for it.
func (s *Server) As(tb TB, userID, fingerprint string) *UserClient {
	if !bank.ValidFingerprint(fingerprint) {
		tb.Helper()
		tb.Fatalf("synapsefake: As: %v", bank.ErrSeedFingerprint(fingerprint))
	}
	return &UserClient{ID: userID, Fingerprint: fingerprint, IP: "127.0.0.1", s: s, tb: tb}
}

// Get sends GET path and returns the answer. A path starting with "/" is
// below URL() ("/users/"+u.ID); one without is below the user's own path
// ("nodes" is /users/<ID>/nodes, "" the user itself); a full URL, such as
// an href of _links, is sent as is.
func (c *UserClient) Get(path string) Response { return c.must(http.MethodGet, path, nil) }

// Post sends POST path with body encoded as JSON (nil for none; a
// []byte or json.RawMessage is sent as is). Paths are as for Get.
func (c *UserClient) Post(path string, body any) Response { return c.must(http.MethodPost, path, body) }

// Patch sends PATCH path with body encoded as JSON, as Post does.
func (c *UserClient) Patch(path string, body any) Response {
	return c.must(http.MethodPatch, path, body)
}

// Delete sends DELETE path. Paths are as for Get.
func (c *UserClient) Delete(path string) Response { return c.must(http.MethodDelete, path, nil) }

func (c *UserClient) must(method, path string, body any) Response {
	resp, err := c.Do(method, path, body)
	if err != nil {
		c.tb.Helper()
		c.tb.Fatalf("%v", err)
	}
	return resp
}

// Do is the call Get, Post, Patch and Delete make, returning an error
// where they fail the test: for a goroutine other than the test's.
func (c *UserClient) Do(method, path string, body any) (Response, error) {
	var payload io.Reader
	if body != nil {
		var b []byte
		switch v := body.(type) {
		case json.RawMessage:
			b = v
		case []byte:
			b = v
		default:
			var err error
			if b, err = json.Marshal(body); err != nil {
				return Response{}, fmt.Errorf("synapsefake: %s %s: encode body: %w", method, path, err)
			}
		}
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.url(path), payload)
	if err != nil {
		return Response{}, fmt.Errorf("synapsefake: %s %s: %w", method, path, err)
	}
	for k, vs := range c.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-SP-GATEWAY", c.s.Gateway())
	req.Header.Set("X-SP-USER", c.oauthKey()+"|"+c.Fingerprint)
	req.Header.Set("X-SP-USER-IP", c.IP)
	hr, err := c.s.Client().Do(req)
	if err != nil {
		return Response{}, fmt.Errorf("synapsefake: %s %s: %w", method, path, err)
	}
	defer hr.Body.Close()
	raw, err := io.ReadAll(hr.Body)
	if err != nil {
		return Response{}, fmt.Errorf("synapsefake: %s %s: read answer: %w", method, path, err)
	}
	resp := Response{Status: hr.StatusCode, Header: hr.Header, Raw: raw}
	if json.Unmarshal(raw, &resp.Body) != nil {
		resp.Body = nil
	}
	return resp, nil
}

// url resolves path as Get documents.
func (c *UserClient) url(path string) string {
	switch {
	case strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://"):
		return path
	case strings.HasPrefix(path, "/"):
		return c.s.URL() + path
	case path == "":
		return c.s.URL() + "/users/" + c.ID
	}
	return c.s.URL() + "/users/" + c.ID + "/" + path
}

// oauthKey returns the handle's key, minting one when it has none for its
// user and device or when the one it has expired.
func (c *UserClient) oauthKey() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	pair := c.ID + "|" + c.Fingerprint
	if c.keyFor == pair && c.key != "" && c.s.core.Now().Before(c.expires) {
		return c.key
	}
	c.key, c.expires = c.s.mintKey(c.ID, c.Fingerprint)
	c.keyFor = pair
	return c.key
}

// mintKey is OAuthKey with every user-level scope, also returning when the
// key expires; "" for an unknown user or a fingerprint POST /oauth would
// refuse.
func (s *Server) mintKey(userID, fingerprint string) (string, time.Time) {
	return s.core.MintUserKey(userID, fingerprint)
}

// serviceHosts are the hosts the official clients call.
var serviceHosts = []string{"api.synapsefi.com", "uat-api.synapsefi.com"}

// Intercept returns a RoundTripper that serves the requests for the given
// hosts (by default the service's, api.synapsefi.com and
// uat-api.synapsefi.com) in-process, as Transport does, whatever their
// scheme, and hands every other request to next. It is for a client that
// hard-codes the service's host and takes no *http.Client, such as
// SynapseGo (see docs/compatibility.md): only its calls reach the fake,
// while the rest of the process's HTTP, webhook deliveries included, goes
// through next unchanged. With next nil, a request for another host is an
// error.
func (s *Server) Intercept(next http.RoundTripper, hosts ...string) http.RoundTripper {
	if len(hosts) == 0 {
		hosts = serviceHosts
	}
	return interceptTransport{fake: handlerTransport{s}, next: next, hosts: append([]string(nil), hosts...)}
}

// interceptTransport is Intercept's RoundTripper.
type interceptTransport struct {
	fake  http.RoundTripper
	next  http.RoundTripper
	hosts []string
}

func (t interceptTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	for _, h := range t.hosts {
		if strings.EqualFold(r.URL.Hostname(), h) {
			return t.fake.RoundTrip(r)
		}
	}
	if t.next == nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, fmt.Errorf("synapsefake: Intercept: %s is not one of the hosts %q and next is nil", r.URL.Host, t.hosts)
	}
	return t.next.RoundTrip(r)
}
