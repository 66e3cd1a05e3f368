// Package testkit holds the helpers the fake's tests share across packages,
// a file for each thing they serve.
package testkit

// The API's requests and answers over the wire, as the tests send and read them.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// BankLoginBody is the body of a bank login (ACH-US) with bank_id id and
// bank_pw pw.
func BankLoginBody(id, pw string) map[string]any {
	return map[string]any{"type": "ACH-US", "info": map[string]any{"bank_id": id, "bank_pw": pw, "bank_name": "fake"}}
}

// DisputePath is the path of a transaction's dispute.
func DisputePath(userID, nodeID, txID string) string {
	return TranPath(userID, nodeID, txID) + "/dispute"
}

// RespErr is a refused answer as the Go API would return it, a
// *synapsefake.Error, nil for 200.
func RespErr(r Response) error {
	if r.Status == http.StatusOK {
		return nil
	}
	e, _ := r.Body["error"].(map[string]any)
	return &synapsefake.Error{Status: r.Status, ErrorCode: CtlStr(r.Body["error_code"]), Code: CtlStr(e["code"]), Message: CtlStr(e["en"])}
}

// TestFingerprint is the device fingerprint the helpers register.
const TestFingerprint = "test-fingerprint"

// Call is one HTTP request to a fake, built by the helpers below.
type Call struct {
	Method string
	Path   string // below the base URL, e.g. "/users"
	Header map[string]string
	Body   any             // marshalled unless it is a string or []byte, which go as is
	Ctx    context.Context // nil for no deadline
}

// Response is a decoded answer.
type Response struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
}

// BodyReader is a request body: none for nil, a string or []byte as it is,
// anything else as JSON.
func BodyReader(t testing.TB, body any) io.Reader {
	t.Helper()
	switch b := body.(type) {
	case nil:
		return http.NoBody
	case string:
		return strings.NewReader(b)
	case []byte:
		return bytes.NewReader(b)
	}
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatalf("marshal body: %v", err)
	}
	return bytes.NewReader(data)
}

// Do sends c to the fake and decodes the JSON object it answers. It fails the
// test if the answer is not a JSON object with Content-Type application/json.
func Do(t testing.TB, fake *synapsefake.Server, c Call) Response {
	t.Helper()
	rdr := BodyReader(t, c.Body)
	ctx := c.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	req, err := http.NewRequestWithContext(ctx, c.Method, fake.URL()+c.Path, rdr)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	resp, err := fake.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", c.Method, c.Path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", c.Method, c.Path, ct)
	}
	out := Response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if err := json.Unmarshal(raw, &out.Body); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %v\n%s", c.Method, c.Path, err, raw)
	}
	return out
}

// GatewayHeaders are the headers of a client-level call.
func GatewayHeaders(fake *synapsefake.Server) map[string]string {
	return map[string]string{
		"X-SP-GATEWAY": fake.Gateway(),
		"X-SP-USER":    "|" + TestFingerprint,
		"X-SP-USER-IP": "127.0.0.1",
	}
}

// UserHeaders are the headers of a user-level call with oauth key key.
func UserHeaders(fake *synapsefake.Server, key string) map[string]string {
	return map[string]string{
		"X-SP-GATEWAY": fake.Gateway(),
		"X-SP-USER":    key + "|" + TestFingerprint,
		"X-SP-USER-IP": "127.0.0.1",
	}
}

// WantError checks that r is the error envelope with the given HTTP status,
// error_code and error.code (code "" skips the error.code check).
func WantError(t testing.TB, r Response, status int, errorCode, code string) {
	t.Helper()
	if r.Status != status {
		t.Errorf("status %d, want %d; body %s", r.Status, status, r.Raw)
	}
	if got, _ := r.Body["error_code"].(string); got != errorCode {
		t.Errorf("error_code %v, want %q; body %s", r.Body["error_code"], errorCode, r.Raw)
	}
	if _, ok := r.Body["http_code"].(string); !ok {
		t.Errorf("http_code %v is not a string", r.Body["http_code"])
	}
	if r.Body["success"] != false {
		t.Errorf("success %v, want false", r.Body["success"])
	}
	e, _ := r.Body["error"].(map[string]any)
	if en, _ := e["en"].(string); en == "" {
		t.Errorf("error.en missing: %s", r.Raw)
	}
	if code != "" && e["code"] != code {
		t.Errorf("error.code %v, want %q", e["code"], code)
	}
}

// PyHeaders are the headers SynapsePy sends with oauth key key ("" for
// none: "|<fingerprint>").
func PyHeaders(fake *synapsefake.Server, key string) map[string]string {
	return map[string]string{
		"Content-Type": "application/json",
		"X-SP-LANG":    "en",
		"X-SP-GATEWAY": fake.Gateway(),
		"X-SP-USER":    key + "|" + TestFingerprint,
		"X-SP-USER-IP": "127.0.0.1",
	}
}

// NodesPath is the path of a user's nodes.
func NodesPath(userID string) string { return "/users/" + userID + "/nodes" }

// NodePath is the path of a user's node.
func NodePath(userID, nodeID string) string { return NodesPath(userID) + "/" + nodeID }

// ListIDs returns the _id of each item of a list answer's field.
func ListIDs(body map[string]any, field string) []string {
	items, _ := body[field].([]any)
	ids := []string{}
	for _, it := range items {
		m, _ := it.(map[string]any)
		id, _ := m["_id"].(string)
		ids = append(ids, id)
	}
	return ids
}

// ErrCode is the error.code of the *synapsefake.Error err is or wraps: ""
// for nil, and "not a *synapsefake.Error" for an error of another type.
func ErrCode(err error) string {
	if err == nil {
		return ""
	}
	var e *synapsefake.Error
	if !errors.As(err, &e) {
		return "not a *synapsefake.Error"
	}
	return e.Code
}

// NodeStmtsPath is the path of n's statements.
func NodeStmtsPath(n synapsefake.Node) string {
	return "/users/" + n.UserID + "/nodes/" + n.ID + "/statements"
}

// SubnetsPath is the path of a node's subnets.
func SubnetsPath(userID, nodeID string) string {
	return "/users/" + userID + "/nodes/" + nodeID + "/subnets"
}

// SubnetPath is the path of a node's subnet.
func SubnetPath(userID, nodeID, subnetID string) string {
	return SubnetsPath(userID, nodeID) + "/" + subnetID
}

// EditHeaders returns a copy of h with changes applied; an empty value
// removes the header.
func EditHeaders(h map[string]string, changes map[string]string) map[string]string {
	out := maps.Clone(h)
	for k, v := range changes {
		if v == "" {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// AnyOf returns the elements of s as a []any.
func AnyOf[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// PutPath sets a value at a dotted path of nested objects.
func PutPath(m map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		m = m[k].(map[string]any)
	}
	m[keys[len(keys)-1]] = v
}
