package synapsefake

import (
	"math/rand/v2"
	"net/http"
	"path"
	"testing"
)

// TestPlainPathIsClean: a path plainPath passes is one path.Clean leaves
// as it is, over handwritten and 20,000 random paths of /, . and letters.
func TestPlainPathIsClean(t *testing.T) {
	paths := []string{"/", "//", "/a", "/a/", "/a//b", "/./a", "/a/.", "/a/..", "/a/../b", "/.a", "/a/.b", "/a.b/c", "a", "", "/v3.1/users"}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20_000 {
		b := make([]byte, 1+rng.IntN(8))
		for i := range b {
			b[i] = "/.a"[rng.IntN(3)]
		}
		paths = append(paths, string(b))
	}
	passed := 0
	for _, p := range paths {
		if plainPath(p) {
			passed++
			if path.Clean(p) != p {
				t.Fatalf("plainPath(%q) but path.Clean gives %q", p, path.Clean(p))
			}
		}
	}
	if passed < 100 {
		t.Fatalf("plainPath passed only %d paths: the test does not exercise it", passed)
	}
}

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
