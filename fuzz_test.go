package synapsefake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// fuzzWorld is a fake with one of everything, and the ids to aim at.
type fuzzWorld struct {
	s                                 *Server
	user, other, node, peer, tx, card string
	account, sub, key, otherKey       string
}

func newFuzzWorld(tb testing.TB) *fuzzWorld {
	s := New(WithoutWebhookDelivery())
	tb.Cleanup(s.Close)
	u := s.MustAddUser(tb, UserSeed{Fingerprint: "fp"})
	o := s.MustAddUser(tb, UserSeed{Fingerprint: "fp"})
	n := s.MustAddNode(tb, u.ID, NodeSeed{BalanceCents: 100000})
	p := s.MustAddNode(tb, o.ID, NodeSeed{BalanceCents: 5000})
	card := s.MustAddSubnet(tb, u.ID, n.ID, SubnetSeed{AccountClass: ClassCard, Status: SubnetActive})
	acct := s.MustAddSubnet(tb, u.ID, n.ID, SubnetSeed{})
	sub := s.MustAddSubscription(tb, "http://127.0.0.1:1/hook")
	w := &fuzzWorld{s: s, user: u.ID, other: o.ID, node: n.ID, peer: p.ID, card: card.ID, account: acct.ID, sub: sub.ID,
		key: s.core.OAuthKey(u.ID, "fp"), otherKey: s.core.OAuthKey(o.ID, "fp")}
	var t bank.TxView
	if err := s.core.CreateTxInto(s.core.Now(), u.ID, n.ID, fuzzTx(p.ID, 10), true, nil, &t); err != nil {
		tb.Fatal(err)
	}
	w.tx = t.ID
	return w
}

func fuzzTx(to string, amount float64) bank.CreateTxRequest {
	var r bank.CreateTxRequest
	_ = json.Unmarshal(fmt.Appendf(nil, `{"to":{"type":"DEPOSIT-US","id":%q},"amount":{"amount":%v,"currency":"USD"},"extra":{"ip":"1.1.1.1"}}`, to, amount), &r)
	return r
}

// fuzzRoutes are the API's routes, in a fixed order.
func fuzzRoutes() []string { return api.RoutePatterns() }

// path fills a route's wildcards with the world's ids, or another user's,
// or garbage, as pick says.
func (w *fuzzWorld) path(route string, pick byte) string {
	ids := map[string][]string{
		"user_id":         {w.user, w.other, "000000000000000000000000"},
		"node_id":         {w.node, w.peer, "nope"},
		"trans_id":        {w.tx, "nope", w.node},
		"subnet_id":       {w.card, w.account, "nope"},
		"subscription_id": {w.sub, "nope", w.user},
		"statement_id":    {"nope", w.node, ""},
		"file":            {"statement.pdf", "x", ""},
		"ship_id":         {"nope", w.card, ""},
	}
	var b strings.Builder
	b.WriteString("/v3.1")
	for _, seg := range strings.Split(route, "/")[1:] {
		b.WriteByte('/')
		if strings.HasPrefix(seg, "{") {
			choices := ids[strings.Trim(seg, "{}")]
			b.WriteString(choices[int(pick)%len(choices)])
			pick /= 3
			continue
		}
		b.WriteString(seg)
	}
	return b.String()
}

// A client's view of the store, whose digest no refused request may
// change, is s.core.ObservedDigest; the money no request may change,
// s.core.MoneyInStore (internal/bank/observe.go).

// checkAnswer applies the properties every answer must have.
func checkAnswer(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("answer is not a JSON object: %v: %q", err, rec.Body.String())
	}
	if rec.Code == http.StatusOK {
		return body
	}
	ec, ok1 := body["error_code"].(string)
	hc, ok2 := body["http_code"].(string)
	e, _ := body["error"].(map[string]any)
	en, ok3 := e["en"].(string)
	if !ok1 || !ok2 || !ok3 || ec == "" || en == "" || body["success"] != false {
		if rec.Code != http.StatusAccepted {
			t.Fatalf("status %d without the error envelope: %s", rec.Code, rec.Body)
		}
	}
	if want := strconv.Itoa(rec.Code); hc != want && e["code"] != "invalid_fingerprint" {
		t.Fatalf("status %d but http_code %q: %s", rec.Code, hc, rec.Body)
	}
	return body
}

// FuzzAPI sends random bodies, queries and headers to every route and
// checks that nothing panics, every answer is a JSON envelope whose
// http_code is its status, a refused request changes nothing, and money is
// conserved.
func FuzzAPI(f *testing.F) {
	seeds := []string{
		`{"to":{"type":"DEPOSIT-US","id":"PEER"},"amount":{"amount":12.5,"currency":"USD"},"extra":{"ip":"1.2.3.4","note":"rent"}}`,
		`{"transactions":[{"to":{"type":"DEPOSIT-US","id":"PEER"},"amount":{"amount":1,"currency":"USD"},"extra":{"ip":"1.2.3.4"}}]}`,
		`{"refresh_token":"x","scope":["USER|GET"]}`,
		`{"logins":[{"email":"a@b.c"}],"phone_numbers":["1"],"legal_names":["A"]}`,
		`{"type":"DEPOSIT-US","info":{"nickname":"x"}}`,
		`{"type":"ACH-US","info":{"nickname":"x","account_num":"1234","routing_num":"051000017"}}`,
		`{"nickname":"card","account_class":"CARD"}`,
		`{"status":"ACTIVE","preferences":{"daily_transaction_limit":12.34}}`,
		`{"type":"APPLE_PUSH","nonce":"AA==","nonce_signature":"AA==","certificates":["a","b"]}`,
		`{"currency":"USD","amount":5,"type":"ACH","direction":"DEPOSIT"}`,
		`{"comment":"hi"}`,
		`{"scope":["TRAN|PATCH"],"url":"http://127.0.0.1:1/x"}`,
		`{"is_active":false}`,
		`{"address_street":"100 Market Street","address_city":"SF","address_subdivision":"CA","address_postal_code":"94105","address_country_code":"US"}`,
		`{"amount":{"amount":10,"currency":"USD"},"retailer_id":1}`,
		`{"date_start":0,"date_end":1}`,
		`{"amount":{"amount":"12","currency":1}}`, `[]`, `{`, `{"a":1}{"b":2}`, `{"note":"\xff\xfe"}`,
		`{"extra":{"note":"` + strings.Repeat("x", 81) + `"}}`, `{"amount":{"amount":1e400}}`,
		strings.Repeat(`{"a":`, 200) + `1` + strings.Repeat(`}`, 200), `{"a":1,"a":2}`,
	}
	for i, s := range seeds {
		for _, method := range []byte{0, 1, 2, 3} {
			f.Add(uint8(i), method, uint8(i*7), uint8(0), []byte(s), "page=1&per_page=5")
		}
	}
	f.Add(uint8(3), uint8(1), uint8(0), uint8(1), []byte(`{}`), "page=0")
	f.Add(uint8(9), uint8(0), uint8(4), uint8(2), []byte(nil), "full_dehydrate=YES&per_page=99999999999999999999")
	routes := fuzzRoutes()
	methods := []string{"POST", "GET", "PATCH", "DELETE", "PUT"}
	f.Fuzz(func(t *testing.T, routeIdx, methodIdx, pick, headers uint8, body []byte, query string) {
		w := newFuzzWorld(t)
		route := routes[int(routeIdx)%len(routes)]
		method := methods[int(methodIdx)%len(methods)]
		body = bytes.ReplaceAll(body, []byte("PEER"), []byte(w.peer))
		req := httptest.NewRequest(method, w.path(route, pick), bytes.NewReader(body))
		req.URL.RawQuery = query
		key := w.key
		if headers&1 != 0 {
			key = w.otherKey
		}
		if headers&2 == 0 {
			req.Header.Set("X-SP-GATEWAY", w.s.Gateway())
		}
		if headers&4 == 0 {
			req.Header.Set("X-SP-USER", key+"|fp")
		}
		if headers&8 == 0 {
			req.Header.Set("X-SP-USER-IP", "127.0.0.1")
		}
		if headers&16 != 0 {
			req.Header.Set("X-SP-IDEMPOTENCY-KEY", "k")
		}
		before, money := w.s.core.ObservedDigest(), w.s.core.MoneyInStore()
		rec := httptest.NewRecorder()
		w.s.ServeHTTP(rec, req)
		checkAnswer(t, rec)
		if rec.Code != http.StatusOK && rec.Code != http.StatusAccepted {
			if after := w.s.core.ObservedDigest(); after != before {
				t.Fatalf("%s %s answered %d but changed the store: %s", method, req.URL, rec.Code, rec.Body)
			}
		}
		if got := w.s.core.MoneyInStore(); got != money {
			t.Fatalf("%s %s changed the money from %d to %d", method, req.URL, money, got)
		}
		w.s.core.Advance(25 * time.Hour)
		if got := w.s.core.MoneyInStore(); got != money {
			t.Fatalf("processing after %s %s changed the money from %d to %d", method, req.URL, money, got)
		}
	})
}

// TestHugeBody checks the body limit: a 10 MB body is refused with the
// envelope and changes nothing.
func TestHugeBody(t *testing.T) {
	w := newFuzzWorld(t)
	body := `{"extra":{"note":"` + strings.Repeat("x", 10<<20) + `"}}`
	req := httptest.NewRequest("POST", w.path("/users/{user_id}/nodes/{node_id}/trans", 0), strings.NewReader(body))
	req.Header.Set("X-SP-USER", w.key+"|fp")
	req.Header.Set("X-SP-USER-IP", "1.1.1.1")
	before := w.s.core.ObservedDigest()
	rec := httptest.NewRecorder()
	w.s.ServeHTTP(rec, req)
	b := checkAnswer(t, rec)
	if rec.Code != http.StatusBadRequest || b["error_code"] != "200" {
		t.Fatalf("10 MB body: %d %v", rec.Code, b)
	}
	if w.s.core.ObservedDigest() != before {
		t.Fatal("a refused body changed the store")
	}
}

// TestHugeHeaders checks the header limit: 64 KiB of headers are refused
// with the envelope.
func TestHugeHeaders(t *testing.T) {
	w := newFuzzWorld(t)
	req := httptest.NewRequest("GET", "/v3.1/loans-limits", nil)
	req.Header.Set("X-Padding", strings.Repeat("x", 64<<10))
	rec := httptest.NewRecorder()
	w.s.ServeHTTP(rec, req)
	b := checkAnswer(t, rec)
	if rec.Code != http.StatusBadRequest || b["error_code"] != "200" {
		t.Fatalf("64 KiB of headers: %d %v", rec.Code, b)
	}
}

// controlFuzzTargets are the control routes that take a document: the
// ones a hostile or careless client can feed the most.
var controlFuzzTargets = []struct{ method, path string }{
	{"POST", "/_fake/world"},
	{"PUT", "/_fake/state"},
	{"PUT", "/_fake/webhooks/chaos"},
	{"POST", "/_fake/return-rules"},
	{"POST", "/_fake/users"},
	{"POST", "/_fake/clock/advance"},
	{"POST", "/_fake/clock/cutoff"},
	{"POST", "/_fake/faults"},
}

// FuzzControl sends arbitrary bodies to the control routes that take
// documents: no panic (a 500), every answer a JSON object, and the fake
// still answers afterwards.
func FuzzControl(f *testing.F) {
	w := newFuzzWorld(f)
	var state bytes.Buffer
	if err := w.s.core.Snapshot(&state); err != nil {
		f.Fatal(err)
	}
	for i := range controlFuzzTargets {
		f.Add(uint8(i), []byte(`{}`))
		f.Add(uint8(i), []byte(`null`))
	}
	f.Add(uint8(0), []byte(`{"users":[{"name":"a","nodes":[{"name":"n","balance":"10"}]}],"transactions":[{"from":"n","to":"n","amount":1,"repeat":{"u":3}}]}`))
	f.Add(uint8(1), state.Bytes())
	f.Add(uint8(2), []byte(`{"seed":1,"default":{"duplicate":0.5,"delay_by":"-1s"}}`))
	f.Add(uint8(3), []byte(`{"note":"x","code":"R01","after":"99999999h"}`))
	f.Add(uint8(5), []byte(`{"duration":"9223372036854775807ns"}`))
	f.Fuzz(func(t *testing.T, target uint8, body []byte) {
		c := controlFuzzTargets[int(target)%len(controlFuzzTargets)]
		w.s.core.Reset() // each input on an empty fake, so that one world does not pile onto another
		if c.path == "/_fake/clock/advance" && bytes.Contains(body, []byte("h")) {
			return // a long advance is slow, not wrong: the API fuzz covers the clock
		}
		rec := httptest.NewRecorder()
		w.s.ServeHTTP(rec, httptest.NewRequest(c.method, "http://localhost"+c.path, bytes.NewReader(body))) // the control API answers loopback hosts
		if rec.Code == http.StatusInternalServerError {
			t.Fatalf("%s %s %q: 500 %s", c.method, c.path, body, rec.Body)
		}
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatalf("%s %s %q: answer is not a JSON object: %q", c.method, c.path, body, rec.Body)
		}
		rec = httptest.NewRecorder()
		w.s.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/_fake/clock", nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("after %s %s %q: GET /_fake/clock answered %d", c.method, c.path, body, rec.Code)
		}
	})
}

// FuzzPlatforms sends any method, path below /_fake/platforms and body to
// a Platforms holding one made platform: no input may answer 500 or stop
// the server answering. What an input makes is removed after it (and the
// made platform made again if it deleted it), so that inputs do not pile
// up.
func FuzzPlatforms(f *testing.F) {
	p := NewPlatforms(WithoutWebhookDelivery())
	defer p.Close()
	if _, err := p.Add(PlatformConfig{ClientID: "made", ClientSecret: "secret"}); err != nil {
		f.Fatal(err)
	}
	methods := []string{"GET", "POST", "PUT", "PATCH", "DELETE"}
	for i, path := range []string{"", "/", "/made", "/made/", "/made/users", "/made/clock/advance", "/made/ui/", "/made/state?copy=true",
		"/made/platforms", "/unknown/users", "/made/ui/find?id=x", "/default", "//", "/made/../made/users"} {
		f.Add(uint8(i), path, []byte(`{}`))
	}
	f.Add(uint8(1), "", []byte(`{"client_id":"a","client_secret":"b","start":"default","clock":"real","seed":3}`))
	f.Add(uint8(1), "", []byte(`{"client_id":"made"}`))
	f.Add(uint8(1), "/made/clock/advance", []byte(`{"duration":"1h"}`))
	f.Fuzz(func(t *testing.T, method uint8, path string, body []byte) {
		r := httptest.NewRequest("GET", "http://localhost/", bytes.NewReader(body))
		r.Method = methods[int(method)%len(methods)]
		r.URL.Path, r.URL.RawQuery, _ = strings.Cut("/_fake/platforms"+path, "?")
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, r)
		if rec.Code == http.StatusInternalServerError {
			t.Fatalf("%s %s %q: 500 %s", r.Method, r.URL, body, rec.Body)
		}
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s %q: the answer is not JSON: %q", r.Method, r.URL, body, rec.Body)
		}
		for _, s := range p.List()[1:] {
			if id := s.ClientID(); id != "made" {
				_ = p.Remove(id)
			}
		}
		if p.Get("made") == nil { // the input deleted it
			if _, err := p.Add(PlatformConfig{ClientID: "made", ClientSecret: "secret"}); err != nil {
				t.Fatal(err)
			}
		}
		for _, path := range []string{"/_fake/platforms", "/_fake/clock", "/_fake/platforms/made/clock"} {
			rec = httptest.NewRecorder()
			p.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+path, nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("after %s %s %q: GET %s answered %d %s", r.Method, r.URL, body, path, rec.Code, rec.Body)
			}
		}
	})
}
