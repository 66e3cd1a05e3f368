package synapsefake

import (
	"net/http"
	"strings"
	"testing"
)

// callAPI sends method path (below s.URL()) with body over s's listener,
// as the platform and, unless userID is "", as userID's device "device-1",
// and returns the answer with its body closed.
func callAPI(t *testing.T, s *Server, method, path, userID, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-SP-GATEWAY", s.Gateway())
	if userID != "" {
		req.Header.Set("X-SP-USER", s.core.OAuthKey(userID, "device-1")+"|device-1")
		req.Header.Set("X-SP-USER-IP", "127.0.0.1")
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}
