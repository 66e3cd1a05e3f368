package synapsefake

import (
	"testing"
)

// MustAddSubnet is AddSubnet for a test that wants no error handling: an
// error fails tb at once.
func (s *Server) MustAddSubnet(tb testing.TB, userID, nodeID string, seed SubnetSeed) Subnet {
	sn, err := s.core.AddSubnet(userID, nodeID, seed)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddSubnet: %v", err)
	}
	return sn
}
