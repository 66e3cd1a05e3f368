package bank

import (
	"slices"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/jsonx"
	"github.com/synapsefake/synapsefake/reference"
)

// Validate refuses what the service would refuse of a user.
func (seed UserSeed) validate() error {
	if seed.Permission != "" && !slices.Contains(userPermissions, string(seed.Permission)) {
		return apierr.Payload("invalid_permission", "Unknown permission %q.", seed.Permission)
	}
	if seed.Fingerprint != "" && !ValidFingerprint(seed.Fingerprint) {
		return ErrSeedFingerprint(seed.Fingerprint)
	}
	for _, d := range seed.Documents {
		if err := d.validate(); err != nil {
			return err
		}
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
func (seed UserSeed) broken() []BrokenRule {
	if seed.Email == "" {
		return nil
	}
	return emailRule("Email (logins[].email)", seed.Email)
}

// Validate refuses what the service would refuse of a node.
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

// Now is documented at synapsefake.Server.Now.
func (s *Bank) Now() time.Time {
	if s.Clock == nil {
		return s.Frozen.Now()
	}
	return s.Clock.Now().Truncate(time.Millisecond)
}

// AddUser is documented at synapsefake.Server.AddUser.
func (s *Bank) AddUser(seed UserSeed) (User, error) { return s.AddUserAt(s.Now(), seed) }

// AddUserAt is AddUser with the user created at at.
func (s *Bank) AddUserAt(at time.Time, seed UserSeed) (User, error) {
	err := seed.validate()
	if err == nil {
		err = s.Up.SeedRules(seed.broken())
	}
	if err != nil {
		return User{}, err
	}
	st := s.store
	defer st.lock().unlock()
	if seed.Email == "" {
		seed.Email = "user" + st.randomHex(4) + "@example.com"
	}
	if len(seed.PhoneNumbers) == 0 {
		seed.PhoneNumbers = defaultSeedPhones // newUser copies it
	}
	if len(seed.LegalNames) == 0 {
		seed.LegalNames = defaultSeedNames
	}
	defer st.asBackend()()
	u := st.newUser(at, seed, nil, 1, nil)
	st.emitUser(u.created, "USERS|POST", u)
	st.reviewsDue(at)
	return u.public(), nil
}

// AddNode is documented at synapsefake.Server.AddNode.
func (s *Bank) AddNode(userID string, seed NodeSeed) (Node, error) {
	return s.AddNodeAt(s.Now(), userID, seed)
}

// AddNodeAt is AddNode with the node created at at.
func (s *Bank) AddNodeAt(at time.Time, userID string, seed NodeSeed) (Node, error) {
	if err := seed.validate(); err != nil {
		return Node{}, err
	}
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil || u == st.networkUser {
		return Node{}, apierr.NotFound("user")
	}
	if seed.Type == "" {
		seed.Type = reference.NodeDepositUS
	}
	if seed.Nickname == "" {
		seed.Nickname = "Node"
	}
	var typ, class string
	if seed.Type == reference.NodeACHUS {
		typ, class = "PERSONAL", "CHECKING"
	}
	defer st.asBackend()()
	n := st.newNode(at, u, seed, typ, class, nil)
	st.emitNodeSnap(n.created, "NODES|POST", n)
	return n.public(), nil
}

// Fund is documented at synapsefake.Server.Fund.
func (s *Bank) Fund(nodeID string, cents int64) error {
	if cents <= 0 || cents > MaxBalanceCents {
		return apierr.Payload("invalid_amount", "Fund takes from 1 to %d cents, not %d.", int64(MaxBalanceCents), cents)
	}
	now := s.Now()
	st := s.store
	defer st.lock().unlock()
	return st.fund(now, nodeID, cents)
}

// User is documented at synapsefake.Server.User.
func (s *Bank) User(id string) (User, bool) {
	st := s.store
	defer st.lock().unlock()
	u := st.users[id]
	if u == nil {
		return User{}, false
	}
	return u.public(), true
}

// Node is documented at synapsefake.Server.Node.
func (s *Bank) Node(id string) (Node, bool) {
	st := s.store
	defer st.lock().unlock()
	n := st.nodes[id]
	if n == nil {
		return Node{}, false
	}
	return n.public(), true
}

// OAuthKey is documented at synapsefake.Server.OAuthKey.
func (s *Bank) OAuthKey(userID, fingerprint string, scopes ...string) string {
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return ""
	}
	if !ValidFingerprint(fingerprint) || slices.ContainsFunc(scopes, func(sc string) bool { return !reference.IsScope(sc) }) {
		return ""
	}
	keyScopes := allUserScopes
	if len(scopes) > 0 {
		keyScopes = slices.Clone(scopes)
	}
	u.fingerprints[fingerprint] = true
	return st.newKey(s.Now().Add(s.Cfg.KeyLifetime), u.id, fingerprint, keyScopes).key
}

// Bank is the bank's part of a Server (issue 39): the records, the
// clock and the schedule the clock drives. Its methods use nothing above it.
type Bank struct {
	Cfg    *Config     // the options the bank reads: its part of the root's config
	Clock  clock.Clock // the injected clock; nil for the default frozen one
	Mock   *clock.Mock // the injected clock when it is a mock
	Frozen frozenClock // the default clock (clock.go)
	store  *Store
	Up     bankUp // what the bank asks of the layers above it: New sets it
}

// bankUp is every call the bank makes upward (issue 39 §3.4). The wire
// answers them; the wire's Connect sets it once (an interface holding a
// pointer, so that New allocates nothing more).
type bankUp interface {
	// RunDue is the wire's runDue: the due clock-driven work, webhook
	// retries included, which a scenario helper or a card operation runs
	// first, as a request does.
	RunDue()
	// AskPlatform puts a card swipe to the platform and waits for its
	// answer (jit.go; the Decider).
	AskPlatform(*JITAsk) JITOutcome
	// SeedRules is strict mode's verdict on a seed's broken contract rules
	// (strict.go; the seeding Enforcer): AddUser reports to NewServer's test.
	SeedRules([]BrokenRule) error
}

// ErrSeedFingerprint refuses to register a fingerprint that POST /oauth and
// POST /users would refuse in X-SP-USER.
func ErrSeedFingerprint(fp string) *apierr.Error {
	return apierr.Payload("invalid_fingerprint", "The fingerprint %q is not 1 to 256 letters, digits, '-', '_' or '.': POST /oauth would refuse it.", jsonx.Cut(fp, 64))
}

// defaultSeedPhones and defaultSeedNames are a UserSeed's defaults, read
// only.
var (
	defaultSeedPhones = []string{"901.111.1111"}
	defaultSeedNames  = []string{"Test User"}
)

// Config is the bank's part of the options, held in the wire's config
// (WireConfig), which the root's config holds in turn; the bank points at
// it (Cfg).
type Config struct {
	Seed        uint64        // WithIDSeed: the id stream and the webhook log ids
	KeyLifetime time.Duration // WithOAuthKeyLifetime
	// KYCReview is how long a sub-document's review takes on the fake's
	// clock, and KYCManual turns the reviews off: only ReviewDocument(s)
	// completes one (WithKYCReview).
	KYCReview time.Duration
	KYCManual bool
	// Incarnation tells apart the platforms a process made with one
	// client id: 0 for a server of its own and a Platforms' default, the
	// count of platforms its Platforms made, this one included, for a
	// made one. With the client id it is the platform's identity, which
	// its oauth keys and refresh tokens hold (store.secretHex).
	Incarnation uint64
}

// ValidateUserSeed is seed's check (AddUser's), for the layers above.
func ValidateUserSeed(seed UserSeed) error { return seed.validate() }

// ValidateNodeSeed is seed's check (AddNode's), for the layers above.
func ValidateNodeSeed(seed NodeSeed) error { return seed.validate() }

// ValidateCutoffs is c's check (WithCutoffs'), for the layers above.
func ValidateCutoffs(c Cutoffs) error { return c.validate() }

// ValidateReturnRule is r's check (AddReturnRule's), for the layers above.
func ValidateReturnRule(r ReturnRule) error { return r.validate() }

// The platform a server is until WithClientCredentials and WithClientName
// say otherwise.
const (
	DefaultClientID   = "client_id_synapsefake0000000000000000000000"
	DefaultClientName = "Synapsefake Test Platform"
)

// DefaultConfig is the bank's part of the default options: the id stream's
// seed 1, OAuth keys that live 2 hours.
func DefaultConfig() Config { return Config{Seed: 1, KeyLifetime: 7200 * time.Second} }
