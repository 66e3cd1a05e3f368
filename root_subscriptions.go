package synapsefake

import (
	"testing"
)

// MustAddSubscription is AddSubscription for a test that wants no error
// handling: an error fails tb at once.
func (s *Server) MustAddSubscription(tb testing.TB, url string, scopes ...string) Subscription {
	sub, err := s.core.AddSubscription(url, scopes...)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddSubscription: %v", err)
	}
	return sub
}
