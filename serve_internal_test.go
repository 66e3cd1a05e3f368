package synapsefake

import (
	"net/http"
	"testing"
)

// TestNewServerSpeaksHTTP1Only: NewServer's http.Server serves HTTP/1.1
// and never sets up HTTP/2 (TLSNextProto stays nil once it has served),
// which a plain listener could not use and which cost each test about 2%;
// a request still gets its answer over HTTP/1.1.
func TestNewServerSpeaksHTTP1Only(t *testing.T) {
	s := NewServer(t)
	resp := callAPI(t, s, http.MethodGet, "/institutions", "", "")
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 1 || resp.ProtoMinor != 1 {
		t.Errorf("answered %s over %s, want 200 OK over HTTP/1.1", resp.Status, resp.Proto)
	}
	s.Close() // Serve has returned: its writes to Config are done
	cfg := s.ts.Config
	if cfg.TLSNextProto != nil {
		t.Errorf("Serve set up TLSNextProto %v, want none", cfg.TLSNextProto)
	}
	if p := cfg.Protocols; p == nil || !p.HTTP1() || p.HTTP2() || p.UnencryptedHTTP2() {
		t.Errorf("Protocols %v, want HTTP/1.1 only", p)
	}
}
