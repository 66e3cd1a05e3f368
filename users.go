package synapsefake

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
)

// Permissions a user can hold.
const (
	PermissionUnverified     = "UNVERIFIED"
	PermissionSendAndReceive = "SEND-AND-RECEIVE"
	PermissionLocked         = "LOCKED"
	PermissionClosed         = "CLOSED"
	PermissionMakeItGoAway   = "MAKE-IT-GO-AWAY"
)

// locked reports whether u's permission forbids getting OAuth keys and
// moving money: LOCKED, CLOSED or MAKE-IT-GO-AWAY.
func (u *userRecord) locked() bool {
	return u.permission == PermissionLocked || u.permission == PermissionClosed || u.permission == PermissionMakeItGoAway
}

// errUserLocked refuses a locked user's OAuth call or money move:
// 409 / "410", action not allowed on the object. Not a 401: the official
// clients answer a 401 by fetching a new key, which cannot help.
func errUserLocked(u *userRecord) *apiError {
	return errNotAllowed("user_locked", "User %s has permission %s and cannot get keys or move money.", u.id, u.permission)
}

// defaultMFAPin is the code the sandbox "sent" for every MFA challenge.
const defaultMFAPin = "123456"

// refreshTokenUses is how many OAuth calls one refresh token is good for.
const refreshTokenUses = 10

type userRecord struct {
	id           string
	created      time.Time
	updated      time.Time
	logins       []loginView
	phones       []string
	legalNames   []string
	documents    []json.RawMessage
	suppID       string
	cipTag       int
	isBusiness   bool
	publicNote   *string
	permission   string
	refreshToken string
	refreshUses  int // uses left on refreshToken
	fingerprints map[string]bool
	forceMFA     bool
	pin          string
	nodeIDs      []string // active nodes, creation order
	txIDs        []string // transactions sent or received, oldest first
	subnetIDs    []string // creation order
}

type links struct {
	Self struct {
		Href string `json:"href"`
	} `json:"self"`
}

func linkTo(href string) links {
	var l links
	l.Self.Href = href
	return l
}

type clientView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type loginView struct {
	Email string `json:"email"`
	Scope string `json:"scope"`
}

type docStatus struct {
	PhysicalDoc string `json:"physical_doc"`
	VirtualDoc  string `json:"virtual_doc"`
}

type userExtra struct {
	CipTag        int     `json:"cip_tag"`
	DateJoined    int64   `json:"date_joined"`
	ExtraSecurity bool    `json:"extra_security"`
	IsBusiness    bool    `json:"is_business"`
	LastUpdated   int64   `json:"last_updated"`
	PublicNote    *string `json:"public_note"`
	SuppID        string  `json:"supp_id"`
}

// userView is a user as the API returns it.
type userView struct {
	ID           string            `json:"_id"`
	Links        links             `json:"_links"`
	Client       clientView        `json:"client"`
	DocStatus    docStatus         `json:"doc_status"`
	Documents    []json.RawMessage `json:"documents"`
	Emails       []string          `json:"emails"`
	Extra        userExtra         `json:"extra"`
	IsHidden     bool              `json:"is_hidden"`
	LegalNames   []string          `json:"legal_names"`
	Logins       []loginView       `json:"logins"`
	Permission   string            `json:"permission"`
	PhoneNumbers []string          `json:"phone_numbers"`
	Photos       []string          `json:"photos"`
	// RefreshToken is omitted from GET /users with show_refresh_tokens=no.
	RefreshToken string `json:"refresh_token,omitempty"`
}

func (st *store) userView(u *userRecord) userView {
	ds := docStatus{PhysicalDoc: "MISSING|INVALID", VirtualDoc: "MISSING|INVALID"}
	if len(u.documents) > 0 {
		ds = docStatus{PhysicalDoc: "SUBMITTED|VALID", VirtualDoc: "SUBMITTED|VALID"}
	}
	return userView{
		ID:           u.id,
		Links:        linkTo(st.base + "/users/" + u.id),
		Client:       st.client,
		DocStatus:    ds,
		Documents:    cloneList(u.documents),
		Emails:       []string{},
		Extra:        userExtra{CipTag: u.cipTag, DateJoined: ms(u.created), IsBusiness: u.isBusiness, LastUpdated: ms(u.updated), PublicNote: u.publicNote, SuppID: u.suppID},
		IsHidden:     false,
		LegalNames:   cloneList(u.legalNames),
		Logins:       cloneList(u.logins),
		Permission:   u.permission,
		PhoneNumbers: cloneList(u.phones),
		Photos:       []string{},
		RefreshToken: u.refreshToken,
	}
}

// cloneList copies a list for the wire, where an empty list is [] and never null.
func cloneList[T any](s []T) []T {
	return append(make([]T, 0, len(s)), s...)
}

// User is a copy of a user's state, for assertions in tests.
type User struct {
	ID           string
	Emails       []string
	PhoneNumbers []string
	LegalNames   []string
	Permission   string
	SuppID       string
	IsBusiness   bool
	// RefreshToken is the user's current refresh token, the one GET /users/:id shows.
	RefreshToken string
	// RefreshUsesLeft is how many OAuth calls RefreshToken is still good for.
	RefreshUsesLeft int
	// Fingerprints are the registered device fingerprints, sorted.
	Fingerprints []string
	NodeIDs      []string
	CreatedOn    time.Time
}

func (u *userRecord) public() User {
	emails := make([]string, len(u.logins))
	for i, l := range u.logins {
		emails[i] = l.Email
	}
	fps := make([]string, 0, len(u.fingerprints))
	for fp := range u.fingerprints {
		fps = append(fps, fp)
	}
	slices.Sort(fps)
	return User{
		ID: u.id, Emails: emails, PhoneNumbers: slices.Clone(u.phones), LegalNames: slices.Clone(u.legalNames),
		Permission: u.permission, SuppID: u.suppID, IsBusiness: u.isBusiness,
		RefreshToken: u.refreshToken, RefreshUsesLeft: u.refreshUses, Fingerprints: fps,
		NodeIDs: slices.Clone(u.nodeIDs), CreatedOn: u.created,
	}
}

// UserSeed describes a user for AddUser. Empty fields get plausible defaults.
type UserSeed struct {
	Email        string
	PhoneNumbers []string
	LegalNames   []string
	// Fingerprint, when set, is registered for the user, as the fingerprint
	// that created a user over HTTP is.
	Fingerprint string
	SuppID      string
	IsBusiness  bool
	// Permission defaults to UNVERIFIED.
	Permission string
}

// newUser builds and stores a user. Callers hold mu and have validated the input.
func (st *store) newUser(now time.Time, seed UserSeed, documents []json.RawMessage, cipTag int, note *string) *userRecord {
	u := &userRecord{
		id:           st.newID(),
		created:      now,
		updated:      now,
		phones:       slices.Clone(seed.PhoneNumbers),
		legalNames:   slices.Clone(seed.LegalNames),
		documents:    documents,
		suppID:       seed.SuppID,
		cipTag:       cipTag,
		isBusiness:   seed.IsBusiness,
		publicNote:   note,
		permission:   seed.Permission,
		fingerprints: map[string]bool{},
		pin:          defaultMFAPin,
	}
	if u.cipTag == 0 {
		u.cipTag = 1
	}
	if seed.Email != "" {
		u.logins = []loginView{{Email: seed.Email, Scope: "READ_AND_WRITE"}}
	}
	if u.permission == "" {
		u.permission = PermissionUnverified
		if len(documents) > 0 {
			u.permission = PermissionSendAndReceive
		}
	}
	if seed.Fingerprint != "" {
		u.fingerprints[seed.Fingerprint] = true
	}
	st.rotateRefreshToken(u)
	st.users[u.id] = u
	st.userOrder = append(st.userOrder, u.id)
	return u
}

func (st *store) rotateRefreshToken(u *userRecord) {
	u.refreshToken = "refresh_" + st.randomHex(20)
	u.refreshUses = refreshTokenUses
}

// matchesQuery reports whether a user matches GET /users?query=, which
// searches names and emails case-insensitively.
func (u *userRecord) matchesQuery(q string) bool {
	q = strings.ToLower(q)
	for _, n := range u.legalNames {
		if strings.Contains(strings.ToLower(n), q) {
			return true
		}
	}
	for _, l := range u.logins {
		if strings.Contains(strings.ToLower(l.Email), q) {
			return true
		}
	}
	return false
}
