package synapsefake

import (
	"slices"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// AddSubnet issues a subnet on a user's node directly in the store and
// returns a copy of it, or an error when the node is unknown, not the user's
// or of a type that holds no subnets, or the class or status is unknown.
func (s *Server) AddSubnet(userID, nodeID string, seed SubnetSeed) (Subnet, error) {
	return s.addSubnet(s.Now(), userID, nodeID, seed)
}

// MustAddSubnet is AddSubnet for a test that wants no error handling: an
// error fails tb at once.
func (s *Server) MustAddSubnet(tb testing.TB, userID, nodeID string, seed SubnetSeed) Subnet {
	sn, err := s.AddSubnet(userID, nodeID, seed)
	if err != nil {
		tb.Helper()
		tb.Fatalf("synapsefake: AddSubnet: %v", err)
	}
	return sn
}

// addSubnet is AddSubnet with the subnet created at at.
func (s *Server) addSubnet(at time.Time, userID, nodeID string, seed SubnetSeed) (Subnet, error) {
	st := s.store
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err == nil {
		err = subnetNode(n)
	}
	if err != nil {
		return Subnet{}, err
	}
	class := createSubnetRequest{AccountClass: seed.AccountClass}.class() // as the API reads it
	if !slices.Contains([]string{ClassChecking, ClassSavings, ClassCard}, class) {
		return Subnet{}, apierr.Payload("invalid_account_class", "Unknown account_class %q.", class)
	}
	if seed.Status != "" && !slices.Contains([]SubnetStatus{SubnetActive, SubnetInactive, SubnetTerminated}, seed.Status) {
		return Subnet{}, apierr.Payload("invalid_status", "Unknown subnet status %q.", seed.Status)
	}
	if seed.Nickname == "" {
		seed.Nickname = "Subnet"
	}
	defer st.asBackend()()
	sn := st.newSubnet(at, n, seed.Nickname, class, nil, nil)
	if seed.Status != "" {
		sn.status = seed.Status
	}
	st.emit(sn.created, "SUBNETS|POST", "SUBNET", sn.id, st.subnetView(sn, false))
	return sn.public(), nil
}

// Subnet returns a copy of a subnet and whether it exists.
func (s *Server) Subnet(id string) (Subnet, bool) {
	st := s.store
	defer st.lock().unlock()
	sn := st.subnets[id]
	if sn == nil {
		return Subnet{}, false
	}
	return sn.public(), true
}
