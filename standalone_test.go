package synapsefake_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/standalone"
)

// TestStandaloneRunDue: the binary's RunDue runs what fell due on a
// Server, and on every platform of a Platforms, with no request and no
// move of the clock; any other handler is a mistake.
func TestStandaloneRunDue(t *testing.T) {
	t.Parallel()
	const review = 20 * time.Second
	seed := synapsefake.UserSeed{Documents: []synapsefake.SubDocumentSeed{{Kind: synapsefake.KindVirtual, Type: "SSN", Value: "111-11-2222"}}}
	status := func(s *synapsefake.Server, id string) string {
		u, _ := s.User(id)
		return u.Documents[0].SubDocuments[0].Status
	}
	for _, tc := range []struct {
		name string
		make func(opts ...synapsefake.Option) (http.Handler, []*synapsefake.Server)
	}{
		{"a Server", func(opts ...synapsefake.Option) (http.Handler, []*synapsefake.Server) {
			s := synapsefake.New(opts...)
			return s, []*synapsefake.Server{s}
		}},
		{"a Platforms", func(opts ...synapsefake.Option) (http.Handler, []*synapsefake.Server) {
			p := synapsefake.NewPlatforms(opts...)
			t.Cleanup(p.Close)
			if _, err := p.Add(synapsefake.PlatformConfig{ClientID: "other"}); err != nil {
				t.Fatal(err)
			}
			return p, []*synapsefake.Server{p.Default(), p.Get("other")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, servers := tc.make(synapsefake.WithKYCReview(review))
			ids := make([]string, len(servers))
			for i, s := range servers {
				ids[i] = s.MustAddUser(t, seed).ID
				s.MoveFrozenClock(review)
			}
			for i, s := range servers {
				if got := status(s, ids[i]); got != synapsefake.DocReviewing {
					t.Fatalf("platform %d: %s before RunDue, want %s: nothing runs without a request", i, got, synapsefake.DocReviewing)
				}
			}
			standalone.RunDue(h)
			for i, s := range servers {
				if got := status(s, ids[i]); got != synapsefake.DocValid {
					t.Errorf("platform %d: %s after RunDue, want %s", i, got, synapsefake.DocValid)
				}
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("RunDue of another handler did not panic")
		}
	}()
	standalone.RunDue(http.NotFoundHandler())
}
