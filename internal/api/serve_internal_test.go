package api

import (
	"math/rand/v2"
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
		if PlainPath(p) {
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
