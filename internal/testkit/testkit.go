// Package testkit holds the helpers the fake's tests share across packages.
package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/reference"
)

// BankLoginBody is the body of a bank login (ACH-US) with bank_id id and
// bank_pw pw.
func BankLoginBody(id, pw string) map[string]any {
	return map[string]any{"type": "ACH-US", "info": map[string]any{"bank_id": id, "bank_pw": pw, "bank_name": "fake"}}
}

// CtlSend sends one request with client to url and decodes the JSON object
// it answers; it fails the test if the answer is not one, or not
// application/json.
func CtlSend(t testing.TB, client *http.Client, method, url string, header map[string]string, body any) Response {
	t.Helper()
	req, err := http.NewRequest(method, url, BodyReader(t, body))
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", method, url, ct)
	}
	out := Response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if err := json.Unmarshal(raw, &out.Body); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %v\n%s", method, url, err, raw)
	}
	return out
}

// CtlRoot is the server's root URL, without the API's version prefix.
func CtlRoot(fake *synapsefake.Server) string { return strings.TrimSuffix(fake.URL(), "/v3.1") }

// Ctl calls the control API: path is below /_fake, e.g. "/users".
func Ctl(t testing.TB, fake *synapsefake.Server, method, path string, body any) Response {
	t.Helper()
	return CtlSend(t, fake.Client(), method, CtlRoot(fake)+"/_fake"+path, nil, body)
}

// CtlOK calls the control API and fails the test unless it answers 200.
func CtlOK(t testing.TB, fake *synapsefake.Server, method, path string, body any) map[string]any {
	t.Helper()
	r := Ctl(t, fake, method, path, body)
	if r.Status != http.StatusOK || r.Body["success"] != true {
		t.Fatalf("%s /_fake%s: status %d, want 200 with success true: %s", method, path, r.Status, r.Raw)
	}
	return r.Body
}

// CtlStr returns v as a string, "" when it is not one.
func CtlStr(v any) string { s, _ := v.(string); return s }

// CtlObj returns v as a JSON object, nil when it is not one.
func CtlObj(v any) map[string]any { m, _ := v.(map[string]any); return m }

// DisputeEnv is a txEnv whose sender paid a merchant outside the platform
// (an EXTERNAL-US node of a third user): the debits the user may dispute.
type DisputeEnv struct {
	TxEnv
	Merchant synapsefake.Node
}

// NewDisputeEnv is a txEnv (built with opts) and a merchant's EXTERNAL-US node.
func NewDisputeEnv(t testing.TB, opts ...synapsefake.Option) DisputeEnv {
	t.Helper()
	e := NewTxEnv(t, 1000_00, opts...)
	m := e.Fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Merchant Co"}})
	return DisputeEnv{TxEnv: e, Merchant: AddTxNode(t, e.Fake, m.ID, synapsefake.NodeSeed{Type: "EXTERNAL-US", Nickname: "Merchant"})}
}

// SettledDebit pays the merchant and settles the payment.
func (e DisputeEnv) SettledDebit(t testing.TB, amount float64) string {
	t.Helper()
	id := e.Create(t, e.Merchant, amount)
	if err := e.Fake.Settle(id); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	return id
}

// DisputePath is the path of a transaction's dispute.
func DisputePath(userID, nodeID, txID string) string {
	return TranPath(userID, nodeID, txID) + "/dispute"
}

// Balance is a node's balance in cents.
func Balance(t testing.TB, fake *synapsefake.Server, nodeID string) int64 {
	t.Helper()
	n, ok := fake.Node(nodeID)
	if !ok {
		t.Fatalf("Node(%s) not found", nodeID)
	}
	return n.BalanceCents
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

// Fixture is a user with a deposit node and an oauth key holding every scope.
type Fixture struct {
	User    synapsefake.User
	Node    synapsefake.Node
	Key     string
	Headers map[string]string
}

// NewFixture seeds a user with testFingerprint registered, a DEPOSIT-US node
// holding balanceCents and a key with the given scopes (all when none).
func NewFixture(t testing.TB, fake *synapsefake.Server, balanceCents int64, scopes ...string) Fixture {
	t.Helper()
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: TestFingerprint})
	n := fake.MustAddNode(t, u.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: balanceCents})
	key := fake.OAuthKey(u.ID, TestFingerprint, scopes...)
	return Fixture{User: u, Node: n, Key: key, Headers: UserHeaders(fake, key)}
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

// RecordingTB is a testing.TB that records what a helper reports instead
// of reporting it: Fatalf and Errorf record a failure (Fatalf does not stop
// the goroutine), Logf a line, Cleanup a function that end runs.
type RecordingTB struct {
	testing.TB
	Mu       sync.Mutex
	Fatals   []string
	Errors   []string
	Logs     []string
	Cleanups []func()
	Helped   bool // Helper was called
	Unhelped int  // failures reported before any call of Helper
}

// Cleanup records f for End.
func (r *RecordingTB) Cleanup(f func()) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Cleanups = append(r.Cleanups, f)
}

// End runs the recorded cleanups, last first, as a test's end does.
func (r *RecordingTB) End() {
	r.Mu.Lock()
	fs := r.Cleanups
	r.Cleanups = nil
	r.Mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// Logged returns a copy of the lines Logf recorded.
func (r *RecordingTB) Logged() []string {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return append([]string(nil), r.Logs...)
}

// Helper records that Helper was called.
func (r *RecordingTB) Helper() {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Helped = true
}

// Fatalf records a failure and returns.
func (r *RecordingTB) Fatalf(format string, args ...any) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Fatals = append(r.Fatals, fmt.Sprintf(format, args...))
	r.NoteHelped()
}

// Errorf records a failure.
func (r *RecordingTB) Errorf(format string, args ...any) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Errors = append(r.Errors, fmt.Sprintf(format, args...))
	r.NoteHelped()
}

// NoteHelped counts a failure reported before Helper: its line would be
// the helper's, not the test's. Callers hold mu.
func (r *RecordingTB) NoteHelped() {
	if !r.Helped {
		r.Unhelped++
	}
}

// Logf records a line.
func (r *RecordingTB) Logf(format string, args ...any) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Logs = append(r.Logs, fmt.Sprintf(format, args...))
}

// Failed reports whether a failure was recorded.
func (r *RecordingTB) Failed() bool {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return len(r.Fatals)+len(r.Errors) > 0
}

// Platform is a test's TRANS|POST|JIT receiver: it records each question
// and answers with what decide writes.
type Platform struct {
	Url    string
	Mu     sync.Mutex
	Asked  []JITQuestion
	Decide func(w http.ResponseWriter, r *http.Request)
}

// JITQuestion is one request the platform received.
type JITQuestion struct {
	Header http.Header
	Body   []byte
}

// NewPlatform starts a platform that answers with decide; the test's
// cleanup closes it.
func NewPlatform(t testing.TB, decide func(w http.ResponseWriter, r *http.Request)) *Platform {
	t.Helper()
	p := &Platform{Decide: decide}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		p.Mu.Lock()
		p.Asked = append(p.Asked, JITQuestion{Header: r.Header.Clone(), Body: body})
		p.Mu.Unlock()
		p.Decide(w, r)
	}))
	t.Cleanup(srv.Close)
	p.Url = srv.URL
	return p
}

// Answer is a decide func that answers status and body.
func Answer(status int, body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// Questions returns a copy of the questions received so far.
func (p *Platform) Questions() []JITQuestion {
	p.Mu.Lock()
	defer p.Mu.Unlock()
	return append([]JITQuestion(nil), p.Asked...)
}

// NodesPath is the path of a user's nodes.
func NodesPath(userID string) string { return "/users/" + userID + "/nodes" }

// NodePath is the path of a user's node.
func NodePath(userID, nodeID string) string { return NodesPath(userID) + "/" + nodeID }

// PostTx creates a transaction of amount dollars from fx's node to toNode
// over the API and returns its id.
func PostTx(t testing.TB, fake *synapsefake.Server, fx Fixture, toNode string, amount float64) string {
	t.Helper()
	r := Do(t, fake, Call{Method: "POST", Path: "/users/" + fx.User.ID + "/nodes/" + fx.Node.ID + "/trans", Header: fx.Headers,
		Body: map[string]any{"to": map[string]any{"type": "DEPOSIT-US", "id": toNode},
			"amount": map[string]any{"amount": amount, "currency": "USD"}, "extra": map[string]any{"ip": "127.0.0.1"}}})
	if r.Status != http.StatusOK {
		t.Fatalf("POST trans: status %d: %s", r.Status, r.Raw)
	}
	id, _ := r.Body["_id"].(string)
	return id
}

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

// NewPlatforms serves a Platforms on a loopback listener, with the base URL
// of that listener, and answers it and its root URL.
func NewPlatforms(t testing.TB, opts ...synapsefake.Option) (*synapsefake.Platforms, string) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	root := "http://" + ts.Listener.Addr().String()
	p := synapsefake.NewPlatforms(append(opts, synapsefake.WithBaseURL(root+"/v3.1"))...)
	ts.Config.Handler = p
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(p.Close)
	return p, root
}

// Et is a date and time in US Eastern time.
func Et(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, reference.Eastern)
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

// SavedState is the fake's whole saved state, to compare before and after.
func SavedState(t testing.TB, fake *synapsefake.Server) string {
	t.Helper()
	var b strings.Builder
	if err := fake.Snapshot(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// SnapshotBytes returns fake's Snapshot; it fails the test on an error.
func SnapshotBytes(t testing.TB, fake *synapsefake.Server) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := fake.Snapshot(&b); err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return b.Bytes()
}

// FirstDiff shows where got and want first differ.
func FirstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(i-150, 0)
	return fmt.Sprintf("at byte %d:\n got ...%.300s\nwant ...%.300s", i, got[lo:], want[lo:])
}

// StateBeyondJournal is a saved state without its request journal, which
// records refused calls too: what a refused call must leave as it was.
func StateBeyondJournal(t testing.TB, doc []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "journal")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// AllStatuses are the eight statuses of the spec's table, by status_id.
var AllStatuses = []synapsefake.Status{
	synapsefake.StatusQueuedBySynapse,
	synapsefake.StatusQueuedByReceiver,
	synapsefake.StatusCreated,
	synapsefake.StatusProcessingDebit,
	synapsefake.StatusProcessingCredit,
	synapsefake.StatusSettled,
	synapsefake.StatusCanceled,
	synapsefake.StatusReturned,
}

// Reach brings a CREATED transaction to status with the helpers, one legal
// move at a time where it can.
func Reach(f *synapsefake.Server, id string, status synapsefake.Status) error {
	var path []synapsefake.Status
	switch status {
	case synapsefake.StatusCreated:
	case synapsefake.StatusQueuedBySynapse, synapsefake.StatusQueuedByReceiver, synapsefake.StatusProcessingDebit, synapsefake.StatusCanceled:
		path = []synapsefake.Status{status}
	case synapsefake.StatusProcessingCredit:
		path = []synapsefake.Status{synapsefake.StatusProcessingDebit, status}
	case synapsefake.StatusSettled, synapsefake.StatusReturned:
		path = []synapsefake.Status{synapsefake.StatusProcessingDebit, synapsefake.StatusProcessingCredit, status}
	default:
		return fmt.Errorf("no way to %s", status)
	}
	for _, s := range path {
		if err := f.AdvanceTransaction(id, s); err != nil {
			return fmt.Errorf("AdvanceTransaction(%s): %w", s, err)
		}
	}
	return nil
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

// AddSubnet seeds a subnet on fx's node.
func AddSubnet(t testing.TB, fake *synapsefake.Server, fx Fixture, seed synapsefake.SubnetSeed) synapsefake.Subnet {
	t.Helper()
	sn, err := fake.AddSubnet(fx.User.ID, fx.Node.ID, seed)
	if err != nil {
		t.Fatalf("AddSubnet(%+v): %v", seed, err)
	}
	return sn
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

// BatchPath is POST .../batch-trans of the sender's DEPOSIT-US node.
func (e TxEnv) BatchPath() string {
	return "/users/" + e.Fx.User.ID + "/nodes/" + e.Fx.Node.ID + "/batch-trans"
}

// Friday is a Friday noon UTC: an ACH transfer created then settles on
// Monday, after the weekend.
var Friday = time.Date(2024, time.January, 5, 12, 0, 0, 0, time.UTC)

// TxIP is the extra.ip every test transaction carries.
const TxIP = "192.168.0.1"

// TxEnv is a fake on a mock clock set to friday with the nodes transaction
// tests need.
type TxEnv struct {
	Fake    *synapsefake.Server
	Mock    *clock.Mock
	Fx      Fixture          // the sender: "Sam Sender", a DEPOSIT-US node "Checking", every scope
	Savings synapsefake.Node // a second DEPOSIT-US node of the sender
	Bank    synapsefake.Node // an ACH-US node of the sender
	Payee   Fixture          // "Pat Payee" with a DEPOSIT-US node "Checking"
	FeeNode synapsefake.Node // a DEPOSIT-US node of "Platform Inc", credited with fees
}

// NewTxEnv builds a txEnv whose sender's DEPOSIT-US node holds balanceCents.
func NewTxEnv(t testing.TB, balanceCents int64, opts ...synapsefake.Option) TxEnv {
	t.Helper()
	mock := clock.NewMock()
	mock.Set(Friday)
	// Keys outlive every clock advance of the tests.
	base := []synapsefake.Option{synapsefake.WithClock(mock), synapsefake.WithOAuthKeyLifetime(365 * 24 * time.Hour)}
	fake := synapsefake.NewServer(t, append(base, opts...)...)
	e := TxEnv{Fake: fake, Mock: mock}
	e.Fx = NamedFixture(t, fake, "Sam Sender", balanceCents)
	e.Savings = AddTxNode(t, fake, e.Fx.User.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	e.Bank = AddTxNode(t, fake, e.Fx.User.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank",
		AccountNum: "123456789", RoutingNum: "051000017"})
	e.Payee = NamedFixture(t, fake, "Pat Payee", 0)
	platform := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Platform Inc"}})
	e.FeeNode = AddTxNode(t, fake, platform.ID, synapsefake.NodeSeed{Nickname: "Fees"})
	return e
}

// NamedFixture is newFixture for a user with the given legal name.
func NamedFixture(t testing.TB, fake *synapsefake.Server, name string, balanceCents int64, scopes ...string) Fixture {
	t.Helper()
	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: TestFingerprint, LegalNames: []string{name}})
	n := AddTxNode(t, fake, u.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: balanceCents})
	key := fake.OAuthKey(u.ID, TestFingerprint, scopes...)
	return Fixture{User: u, Node: n, Key: key, Headers: UserHeaders(fake, key)}
}

// AddTxNode seeds a node for userID; it fails the test on an error.
func AddTxNode(t testing.TB, fake *synapsefake.Server, userID string, seed synapsefake.NodeSeed) synapsefake.Node {
	t.Helper()
	n := fake.MustAddNode(t, userID, seed)
	return n
}

// TransPath is the path of a node's transactions.
func TransPath(userID, nodeID string) string {
	return "/users/" + userID + "/nodes/" + nodeID + "/trans"
}

// TranPath is the path of a node's transaction.
func TranPath(userID, nodeID, txID string) string { return TransPath(userID, nodeID) + "/" + txID }

// TxBody is the smallest valid create body: to, amount in USD and extra.ip.
func TxBody(to synapsefake.Node, amount float64) map[string]any {
	return map[string]any{
		"to":     map[string]any{"type": to.Type, "id": to.ID},
		"amount": map[string]any{"amount": amount, "currency": "USD"},
		"extra":  map[string]any{"ip": TxIP},
	}
}

// Post sends a create body from the sender's DEPOSIT-US node.
func (e TxEnv) Post(t testing.TB, body any) Response {
	t.Helper()
	return Do(t, e.Fake, Call{Method: "POST", Path: TransPath(e.Fx.User.ID, e.Fx.Node.ID), Header: e.Fx.Headers, Body: body})
}

// Create creates a transaction from the sender's DEPOSIT-US node and returns
// its id; anything but a 200 fails the test.
func (e TxEnv) Create(t testing.TB, to synapsefake.Node, amount float64) string {
	t.Helper()
	return e.CreateFrom(t, e.Fx, e.Fx.Node, TxBody(to, amount))
}

// CreateFrom posts body from node of fx and returns the new id.
func (e TxEnv) CreateFrom(t testing.TB, fx Fixture, from synapsefake.Node, body map[string]any) string {
	t.Helper()
	r := Do(t, e.Fake, Call{Method: "POST", Path: TransPath(fx.User.ID, from.ID), Header: fx.Headers, Body: body})
	if r.Status != 200 {
		t.Fatalf("create transaction: status %d: %s", r.Status, r.Raw)
	}
	id, _ := r.Body["_id"].(string)
	return id
}

// Get answers GET of one transaction seen from the sender's node.
func (e TxEnv) Get(t testing.TB, id string) Response {
	t.Helper()
	return Do(t, e.Fake, Call{Method: "GET", Path: TranPath(e.Fx.User.ID, e.Fx.Node.ID, id), Header: e.Fx.Headers})
}

// Tx is the inspection copy of a transaction that must exist.
func (e TxEnv) Tx(t testing.TB, id string) synapsefake.Transaction {
	t.Helper()
	tx, ok := e.Fake.Transaction(id)
	if !ok {
		t.Fatalf("Transaction(%s) not found", id)
	}
	return tx
}

// SettlesAt moves the clock to just before at, where transaction id must
// still be PROCESSING-CREDIT, then to at, where it must be SETTLED since
// at; it returns the transaction.
func (e TxEnv) SettlesAt(t testing.TB, id string, at time.Time) synapsefake.Transaction {
	t.Helper()
	e.Fake.AdvanceTo(at.Add(-time.Millisecond))
	if got := e.Tx(t, id).Status; got != synapsefake.StatusProcessingCredit {
		t.Fatalf("just before %v: %s, want %s", at, got, synapsefake.StatusProcessingCredit)
	}
	e.Fake.AdvanceTo(at)
	tx := e.Tx(t, id)
	if last := tx.Timeline[len(tx.Timeline)-1]; tx.Status != synapsefake.StatusSettled || !last.Date.Equal(at) {
		t.Fatalf("at %v: %s since %v, want SETTLED then", at, tx.Status, last.Date)
	}
	return tx
}

// Balances are the balances of every node of the env, in cents, by nickname.
func (e TxEnv) Balances(t testing.TB) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for name, id := range map[string]string{
		"sender": e.Fx.Node.ID, "savings": e.Savings.ID, "bank": e.Bank.ID, "payee": e.Payee.Node.ID, "fees": e.FeeNode.ID,
	} {
		n, ok := e.Fake.Node(id)
		if !ok {
			t.Fatalf("Node(%s) not found", id)
		}
		out[name] = n.BalanceCents
	}
	return out
}

// WantBalances compares the env's balances with want, which lists the nodes
// that differ from their start (sender: start, everything else 0).
func (e TxEnv) WantBalances(t testing.TB, start int64, want map[string]int64) {
	t.Helper()
	full := map[string]int64{"sender": start, "savings": 0, "bank": 0, "payee": 0, "fees": 0}
	maps.Copy(full, want)
	if diff := cmp.Diff(full, e.Balances(t)); diff != "" {
		t.Errorf("balances (-want +got):\n%s", diff)
	}
}

// TxState is what a refused call must leave alone: every node, the given
// transactions and the transaction lists of the sender and the payee.
type TxState struct {
	Nodes map[string]synapsefake.Node
	Txs   map[string]synapsefake.Transaction
	Lists map[string]map[string]any
}

// State reads the env's nodes, the transactions txIDs and the lists of the
// sender and the payee, to compare before and after a refused call.
func (e TxEnv) State(t testing.TB, txIDs ...string) TxState {
	t.Helper()
	s := TxState{Nodes: map[string]synapsefake.Node{}, Txs: map[string]synapsefake.Transaction{}, Lists: map[string]map[string]any{}}
	for _, id := range []string{e.Fx.Node.ID, e.Savings.ID, e.Bank.ID, e.Payee.Node.ID, e.FeeNode.ID} {
		n, ok := e.Fake.Node(id)
		if !ok {
			t.Fatalf("Node(%s) not found", id)
		}
		s.Nodes[id] = n
	}
	for _, id := range txIDs {
		s.Txs[id] = e.Tx(t, id)
	}
	for _, fx := range []Fixture{e.Fx, e.Payee} {
		r := Do(t, e.Fake, Call{Method: "GET", Path: "/users/" + fx.User.ID + "/trans", Header: fx.Headers})
		if r.Status != 200 {
			t.Fatalf("list transactions: status %d: %s", r.Status, r.Raw)
		}
		s.Lists[fx.User.ID] = r.Body
	}
	return s
}

// WantTxUnchanged fails when the env's state moved since before.
func (e TxEnv) WantTxUnchanged(t testing.TB, before TxState) {
	t.Helper()
	after := e.State(t, slices.Collect(maps.Keys(before.Txs))...)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("store changed by a refused call (-before +after):\n%s", diff)
	}
}

// WantTxJSON is the wire form of a transaction just created from node from
// to node to at time at with the smallest body (txBody). Callers adjust it
// with putPath and withEntries.
func WantTxJSON(t testing.TB, fake *synapsefake.Server, id string, from, to synapsefake.Node, amount float64, at time.Time) map[string]any {
	t.Helper()
	created := TxEntry(synapsefake.StatusCreated, "Transaction Created.", at)
	return map[string]any{
		"_id":    id,
		"_links": map[string]any{"self": map[string]any{"href": fake.URL() + TranPath(from.UserID, from.ID, id)}},
		"amount": map[string]any{"amount": amount, "currency": "USD"},
		"client": map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
		"extra": map[string]any{
			"asset":          nil,
			"created_on":     MsOf(at),
			"encrypted_note": "",
			"group_id":       nil,
			"ip":             TxIP,
			"latlon":         "0,0",
			"note":           "",
			"other":          map[string]any{},
			"process_on":     MsOf(at),
			"same_day":       false,
			"supp_id":        "",
			"filename":       nil, "location": map[string]any{"address_city": "", "address_country_code": "", "address_postal_code": "", "address_subdivision": "", "lat": 0.0, "lon": 0.0}, "rate": nil, "rate_limit": nil, "settlement_delay": 0.0, "tracking_number": nil, "txp_meta": map[string]any{"amount_types": []any{}, "amounts": []any{}, "payment_code": "", "tax_period_end_date": "", "taxpayer_verification": "", "tin": ""},
		},
		"fees":          []any{map[string]any{"fee": 0.0, "note": "Facilitator Fee", "to": map[string]any{"id": "None"}}},
		"from":          TxParty(t, fake, from),
		"recent_status": maps.Clone(created),
		"success":       true,
		"timeline":      []any{created},
		"to":            TxParty(t, fake, to),
	}
}

// TxParty is the wire form of node n as a transaction's from or to.
func TxParty(t testing.TB, fake *synapsefake.Server, n synapsefake.Node) map[string]any {
	t.Helper()
	u, ok := fake.User(n.UserID)
	if !ok {
		t.Fatalf("User(%s) not found", n.UserID)
	}
	names := make([]any, len(u.LegalNames))
	for i, name := range u.LegalNames {
		names[i] = name
	}
	return map[string]any{
		"id":       n.ID,
		"nickname": n.Nickname,
		"type":     n.Type,
		"user":     map[string]any{"_id": u.ID, "legal_names": names},
	}
}

// MsOf is at in milliseconds, as the wire's dates are.
func MsOf(at time.Time) float64 { return float64(at.UnixMilli()) }

// TxEntry is one timeline entry on the wire.
func TxEntry(status synapsefake.Status, note string, at time.Time) map[string]any {
	return map[string]any{"date": MsOf(at), "note": note, "status": string(status), "status_id": status.ID()}
}

// WithEntries appends timeline entries to an expected transaction and makes
// the last one its recent_status, with code when code is not "".
func WithEntries(want map[string]any, code string, entries ...map[string]any) map[string]any {
	want["timeline"] = append(want["timeline"].([]any), AnyOf(entries)...)
	rs := maps.Clone(entries[len(entries)-1])
	if code != "" {
		rs["code"] = code
	}
	want["recent_status"] = rs
	return want
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

// HexID matches a 24-character hex object id.
var HexID = regexp.MustCompile(`^[0-9a-f]{24}$`)

// WantTxBody compares an answered transaction with want as a whole. _id must
// be 24 hex characters (want's "" takes the answer's) and _v an integer.
func WantTxBody(t testing.TB, r Response, want map[string]any) {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d, want 200: %s", r.Status, r.Raw)
	}
	got := maps.Clone(r.Body)
	if id, _ := got["_id"].(string); !HexID.MatchString(id) {
		t.Errorf("_id %v is not 24 hex characters", got["_id"])
	}
	if want["_id"] == "" {
		want = maps.Clone(want)
		want["_id"] = got["_id"]
		href := want["_links"].(map[string]any)["self"].(map[string]any)["href"].(string)
		want["_links"] = map[string]any{"self": map[string]any{"href": href + fmt.Sprint(got["_id"])}}
	}
	if v, ok := got["_v"].(float64); !ok || v != float64(int64(v)) || v < 0 {
		t.Errorf("_v %v is not a non-negative integer", got["_v"])
	}
	delete(got, "_v")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transaction (-want +got):\n%s", diff)
	}
}

// UIGet fetches a dashboard path (below the root, e.g. "/_fake/ui/") without
// following redirects.
func UIGet(t testing.TB, fake *synapsefake.Server, path string) (*http.Response, string) {
	t.Helper()
	return GetNoRedirect(t, fake.Client(), CtlRoot(fake)+path, nil)
}

// GetNoRedirect GETs url with client and the header, answering a redirect
// as it is rather than following it.
func GetNoRedirect(t testing.TB, client *http.Client, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s: %v", url, err)
	}
	return resp, string(body)
}

// UIPage fetches a page and fails the test unless it is a 200 HTML page.
func UIPage(t testing.TB, fake *synapsefake.Server, path string) string {
	t.Helper()
	resp, body := UIGet(t, fake, path)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET %s: %d %q, want 200 text/html: %.300s", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	return body
}

// UIButton finds the data-post path of a button or form on a page.
func UIButton(t testing.TB, page, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(`data-(?:post|check)="(` + pattern + `)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no button %s on the page", pattern)
	}
	return strings.TrimPrefix(m[1], "/_fake")
}

// HeapAfterGC is the live heap, in bytes, once the garbage is collected.
func HeapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// HookDelivery is one POST a receiver got.
type HookDelivery struct {
	Method  string
	Header  http.Header
	Body    []byte
	Payload map[string]any
}

// Meta is webhook_meta[key] as a string.
func (d HookDelivery) Meta(key string) string {
	m, _ := d.Payload["webhook_meta"].(map[string]any)
	s, _ := m[key].(string)
	return s
}

// ObjectID is the payload's _id.$oid.
func (d HookDelivery) ObjectID() string {
	m, _ := d.Payload["_id"].(map[string]any)
	s, _ := m["$oid"].(string)
	return s
}

// Status is the payload's recent_status.status ("" for users and nodes).
func (d HookDelivery) Status() string {
	m, _ := d.Payload["recent_status"].(map[string]any)
	s, _ := m["status"].(string)
	return s
}

// HookReceiver is a consumer's webhook endpoint.
type HookReceiver struct {
	Url string
	Mu  sync.Mutex
	Got []HookDelivery
}

// NewHookReceiver starts a webhook endpoint that records every delivery and
// answers the nth (from 0) with answer's status and text; nil answers 200.
// answer runs outside the receiver's lock and may call the fake back.
func NewHookReceiver(t testing.TB, answer func(n int, d HookDelivery) (int, string)) *HookReceiver {
	t.Helper()
	rcv := &HookReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		d := HookDelivery{Method: r.Method, Header: r.Header.Clone(), Body: body}
		_ = json.Unmarshal(body, &d.Payload)
		rcv.Mu.Lock()
		n := len(rcv.Got)
		rcv.Got = append(rcv.Got, d)
		rcv.Mu.Unlock()
		code, text := http.StatusOK, "ok"
		if answer != nil {
			code, text = answer(n, d)
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, text)
	}))
	t.Cleanup(srv.Close)
	rcv.Url = srv.URL + "/hooks"
	return rcv
}

// Deliveries returns a copy of the deliveries received so far.
func (rcv *HookReceiver) Deliveries() []HookDelivery {
	rcv.Mu.Lock()
	defer rcv.Mu.Unlock()
	return slices.Clone(rcv.Got)
}

// DeadURL is an address nobody listens on.
func DeadURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/hooks"
}
