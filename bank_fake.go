package synapsefake

import (
	"slices"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// validate refuses what the service would refuse of a user.
func (seed UserSeed) validate() error {
	if seed.Permission != "" && !slices.Contains(userPermissions, seed.Permission) {
		return apierr.Payload("invalid_permission", "Unknown permission %q.", seed.Permission)
	}
	if seed.Fingerprint != "" && !validFingerprint(seed.Fingerprint) {
		return errSeedFingerprint(seed.Fingerprint)
	}
	// Given fields follow POST /users' rules; empty ones get defaults.
	switch {
	case slices.Contains(seed.PhoneNumbers, ""):
		return apierr.Payload("missing_phone_numbers", "PhoneNumbers holds an empty phone number.")
	case slices.Contains(seed.LegalNames, ""):
		return apierr.Payload("missing_legal_names", "LegalNames holds an empty legal name.")
	}
	return nil
}

// broken lists the contract's rules seed breaks that POST /users takes, as
// the sandbox did.
func (seed UserSeed) broken() []brokenRule {
	if seed.Email == "" {
		return nil
	}
	return emailRule("Email (logins[].email)", seed.Email)
}

// validate refuses what the service would refuse of a node.
func (seed NodeSeed) validate() error {
	if err := validNickname("Nickname", seed.Nickname); err != nil {
		return err
	}
	switch {
	case seed.Type != "" && !knownNodeType(seed.Type):
		return apierr.Payload("invalid_node_type", "Unknown node type %q.", seed.Type)
	case seed.BalanceCents < -MaxBalanceCents || seed.BalanceCents > MaxBalanceCents:
		return apierr.Payload("invalid_balance", "BalanceCents %d is outside ±MaxBalanceCents (%d).", seed.BalanceCents, int64(MaxBalanceCents))
	case seed.RoutingNum != "" && !validRoutingNumber(seed.RoutingNum):
		return apierr.Payload("invalid_routing_num", "RoutingNum %q is not a valid routing number.", seed.RoutingNum)
	case seed.Type == reference.NodeACHUS && seed.AccountNum != "" && !validACHAccountNum(seed.AccountNum):
		return apierr.Payload("invalid_account_num", "AccountNum %q is not 4 to 17 digits, as POST .../nodes requires of an ACH-US node.", seed.AccountNum)
	}
	return nil
}
