package benchpair

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestBaseline(t *testing.T) {
	answer := []byte(`{"_id":"abc","success":true}`)
	h := Baseline(answer)
	for _, tc := range []struct {
		name, method, body string
		wantStatus         int
		wantBody           string
	}{
		{"create body", "POST", `{"to":{"type":"DEPOSIT-US","id":"x"},"amount":{"amount":0.01,"currency":"USD"},"extra":{"ip":"127.0.0.1"}}`, 200, string(answer)},
		{"GET", "GET", "", 200, string(answer)},
		{"body not JSON", "POST", `{"to":`, 400, "bad body: unexpected EOF\n"},
		{"body without extra", "POST", `{"to":{},"amount":{}}`, 400, "bad body: <nil>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tc.method, "/v3.1/x", strings.NewReader(tc.body)))
			if rec.Code != tc.wantStatus || rec.Body.String() != tc.wantBody {
				t.Errorf("%s: %d %q, want %d %q", tc.name, rec.Code, rec.Body, tc.wantStatus, tc.wantBody)
			}
		})
	}
}

func TestKeeper(t *testing.T) {
	answer := []byte(`{"_id":"abc","success":true}`)
	k := NewKeeper(answer)
	good := `{"to":{"type":"DEPOSIT-US","id":"x"},"amount":{"amount":0.01,"currency":"USD"},"extra":{"ip":"127.0.0.1","note":"n"}}`
	for i, tc := range []struct {
		method, body string
		wantStatus   int
		wantBody     string
		wantKept     int
	}{
		{"POST", good, 200, string(answer), 1},
		{"POST", good, 200, string(answer), 2},
		{"GET", "", 200, string(answer), 2},
		{"POST", `{"to":`, 400, "bad body: unexpected EOF\n", 2},
		{"POST", `{"to":{},"amount":{}}`, 400, "bad body: <nil>\n", 2},
	} {
		rec := httptest.NewRecorder()
		k.ServeHTTP(rec, httptest.NewRequest(tc.method, "/v3.1/x", strings.NewReader(tc.body)))
		if rec.Code != tc.wantStatus || rec.Body.String() != tc.wantBody || k.Len() != tc.wantKept {
			t.Errorf("request %d (%s): %d %q with %d kept, want %d %q with %d", i, tc.method, rec.Code, rec.Body, k.Len(), tc.wantStatus, tc.wantBody, tc.wantKept)
		}
	}
	// Each POST is kept whole, under an id of its own.
	if len(k.order) != 2 || k.order[0] == k.order[1] || len(k.order[0]) != 24 {
		t.Fatalf("ids %q, want two different 24-character ids", k.order)
	}
	for _, id := range k.order {
		p := k.kept[id]
		if p.id != id || *p.req.To.ID != "x" || p.req.Extra.Note != "n" || string(p.answer) != string(answer) || &p.answer[0] == &answer[0] {
			t.Errorf("kept %+v, want the body decoded and a copy of the answer", p)
		}
	}
}
