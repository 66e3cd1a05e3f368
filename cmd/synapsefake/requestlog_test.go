package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestErrorCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body, want string
	}{
		{"error envelope", `{"error":{"en":"No.","code":"x"},"error_code":"400","http_code":"409","success":false}`, "400"},
		{"list wrapper", `{"error_code":"0","http_code":"200","limit":20,"users":[]}`, "0"},
		{"object without one", `{"_id":"a","amount":{"amount":1},"success":true}`, "-"},
		{"only nested ones", `{"errors":[{"index":0,"error_code":"200"}],"success":true}`, "-"},
		{"nested before top-level", `{"errors":[{"error_code":"200"}],"error_code":"0"}`, "0"},
		{"key inside a value", `{"note":"\"error_code\":\"9\"","x":{"error_code":"7"}}`, "-"},
		{"escaped quote before", `{"a":"\\\"","error_code":"10"}`, "10"},
		{"spaces", "{ \"error_code\" : \"300\" }", "300"},
		{"not a string", `{"error_code":200}`, "-"},
		{"empty string", `{"error_code":""}`, "-"},
		{"array", `[{"error_code":"1"}]`, "-"},
		{"plain text", "internal error\n", "-"},
		{"empty", "", "-"},
		{"cut short", `{"trans":[{"_id":"a"`, "-"},
		{"cut in a string", `{"a":"abc`, "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := errorCode([]byte(tc.body)); got != tc.want {
				t.Errorf("errorCode(%s) = %q, want %q", tc.body, got, tc.want)
			}
			// The decoding it replaced agrees wherever the body is whole JSON.
			var env struct {
				ErrorCode string `json:"error_code"`
			}
			if err := json.Unmarshal([]byte(tc.body), &env); err == nil && strings.HasPrefix(tc.body, "{") {
				if env.ErrorCode == "" {
					env.ErrorCode = "-"
				}
				if env.ErrorCode != tc.want {
					t.Errorf("json.Unmarshal finds %q, errorCode %q", env.ErrorCode, tc.want)
				}
			}
		})
	}
}

func TestRequestLogLines(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	l := newRequestLog(&out)
	h := l.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/err":
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"error":{"en":"No."},`))
			_, _ = w.Write([]byte(`"error_code":"400","http_code":"409","success":false}`))
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		case "/nothing":
			// No header, no body: net/http answers 200.
		case "/whole":
			// One write with its length, as the fake answers: read in place.
			body := `{"error":{"en":"No."},"error_code":"300","http_code":"404","success":false}`
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(body))
		case "/parts":
			// A length, but the body in two writes: read once written.
			body := `{"x":{"error_code":"1"},"error_code":"200","http_code":"409"}`
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(body[:30]))
			_, _ = w.Write([]byte(body[30:]))
		default:
			_, _ = w.Write([]byte(`{"error_code":"0","http_code":"200"}`))
		}
	}))
	const n = 200
	for i := range n {
		path := []string{"/err", "/empty", "/list", "/whole", "/parts", "/nothing"}[i%6]
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	l.close()
	l.close()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/after-close", nil))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), n, out.String())
	}
	for i, line := range lines {
		want := []string{"GET /err 409 400 ", "GET /empty 204 - ", "GET /list 200 0 ", "GET /whole 404 300 ", "GET /parts 409 200 ", "GET /nothing 200 - "}[i%6]
		if !strings.HasPrefix(line, want) || !strings.HasSuffix(line, "s") {
			t.Errorf("line %d is %q, want %q and a duration", i, line, want)
		}
	}
}
