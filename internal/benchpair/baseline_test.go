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
