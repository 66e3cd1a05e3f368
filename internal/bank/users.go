// Users, the bank's side: the record, its permission and its links.

package bank

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// Permission is a user's permission: see synapsefake.Permission. The
// constants below are untyped, for the store's own string fields.
type Permission string

// Permissions a user can hold.
const (
	PermissionUnverified     = "UNVERIFIED"
	PermissionSendAndReceive = "SEND-AND-RECEIVE"
	PermissionLocked         = "LOCKED"
	PermissionClosed         = "CLOSED"
	PermissionMakeItGoAway   = "MAKE-IT-GO-AWAY"
)

// gone reports whether u is deleted (MAKE-IT-GO-AWAY): it leaves the
// platform's user list, as a deleted node leaves the node lists, and still
// answers GET /users/{user_id}.
func (u *userRecord) gone() bool { return u.permission == PermissionMakeItGoAway }

// recordsOf is the records of ids, in order.
func recordsOf[R any](records map[string]R, ids []string) []R {
	out := make([]R, len(ids))
	for i, id := range ids {
		out[i] = records[id]
	}
	return out
}

// goneUsersOf counts the gone users among users.
func goneUsersOf(users map[string]*userRecord) int {
	n := 0
	for _, u := range users {
		if u.gone() {
			n++
		}
	}
	return n
}

// locked reports whether u's permission forbids getting OAuth keys and
// moving money: LOCKED, CLOSED or MAKE-IT-GO-AWAY.
func (u *userRecord) locked() bool {
	return u.permission == PermissionLocked || u.permission == PermissionClosed || u.permission == PermissionMakeItGoAway
}

// accountOpen refuses money moves on n when it is deleted (409 / "410"
// node_inactive) or its user is locked (userOpen), as every door that
// moves money does. Callers hold mu.
func (st *Store) accountOpen(n *nodeRecord) error {
	if !n.isActive {
		return apierr.NotAllowed("node_inactive", "Node %s is deleted.", n.id)
	}
	return st.userOpen(n)
}

// userOpen refuses a new money move that takes money from n or brings
// money to it when n's user is LOCKED, CLOSED or MAKE-IT-GO-AWAY: 409 /
// "410" user_locked. It is the one rule of every door a move starts at: a
// transfer's sender, its receiver (to) and each of its fee nodes, the
// same for each batch item, a dummy transaction's node, a card's force
// post or refund, Fund. It is checked when the move is made: what a
// transaction made before the lock does later (its settlement crediting
// its receiver and fee nodes, a return refunding its sender, the dishonor
// of that return, the credit of its dispute) still runs, as the
// transaction does. Callers hold mu.
func (st *Store) userOpen(n *nodeRecord) error {
	if u := st.users[n.userID]; u != nil && u.locked() {
		return errUserLocked(u)
	}
	return nil
}

// errUserLocked refuses a locked user's OAuth call, money move, or key
// outside the user's own routes: 409 / "410", action not allowed on the
// object. Not a 401: the official clients answer a 401 by fetching a new
// key, which cannot help.
func errUserLocked(u *userRecord) *apierr.Error {
	return apierr.NotAllowed("user_locked", "User %s has permission %s: it cannot get keys or move money, and its key opens only the user.", u.id, u.permission)
}

// defaultMFAPin is the code the sandbox "sent" for every MFA challenge.
const defaultMFAPin = "123456"

// refreshTokenUses is how many OAuth calls one refresh token is good for.
const refreshTokenUses = 10

type userRecord struct {
	id      string
	created time.Time
	updated time.Time
	// logins, phones and legalNames are never written in place once the
	// user is made: a change builds a new list, so that views and events
	// may share them (shareList).
	logins       []loginView
	phones       []string
	legalNames   []string
	documents    []*baseDocRecord // base documents, oldest first
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
	// pinSentTo is the phone number the pending MFA pin went to, and
	// verifiedPhones the numbers a pin sent to them was validated for
	// (digits only): the phones the user showed it holds.
	pinSentTo      string
	verifiedPhones map[string]bool
	// permissionLog is the permission's history, oldest first.
	permissionLog []permissionChange
	nodeIDs       []string // active nodes, creation order
	txIDs         []string // transactions sent or received, oldest first
	subnetIDs     []string // creation order
	// passwords are the logins' passwords by email, as POST /users and
	// update.login sent them: write-only, read by POST /oauth/:id/login
	// alone and shown by no view. Nil until a login carries one.
	passwords map[string]string
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

// ClientView is the client object in the views of users, transactions and
// statements.
type ClientView struct {
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

// UserView is a user as the API returns it.
type UserView struct {
	ID           string        `json:"_id"`
	Links        links         `json:"_links"`
	Client       ClientView    `json:"client"`
	DocStatus    docStatus     `json:"doc_status"`
	Documents    []baseDocView `json:"documents"`
	Emails       []string      `json:"emails"`
	Extra        userExtra     `json:"extra"`
	IsHidden     bool          `json:"is_hidden"`
	LegalNames   []string      `json:"legal_names"`
	Logins       []loginView   `json:"logins"`
	Permission   string        `json:"permission"`
	PhoneNumbers []string      `json:"phone_numbers"`
	Photos       []string      `json:"photos"`
	// RefreshToken is omitted from GET /users with show_refresh_tokens=no.
	RefreshToken string `json:"refresh_token,omitempty"`
}

func (st *Store) userView(u *userRecord) UserView {
	ds := u.docStatus()
	return UserView{
		ID:           u.id,
		Links:        linkTo(st.base + "/users/" + u.id),
		Client:       st.client,
		DocStatus:    ds,
		Documents:    u.documentViews(false),
		Emails:       []string{},
		Extra:        u.extra(),
		IsHidden:     false,
		LegalNames:   shareList(u.legalNames),
		Logins:       shareList(u.logins),
		Permission:   u.permission,
		PhoneNumbers: shareList(u.phones),
		Photos:       []string{},
		RefreshToken: u.refreshToken,
	}
}

// extra is the user's view's extra.
func (u *userRecord) extra() userExtra {
	return userExtra{CipTag: u.cipTag, DateJoined: Ms(u.created), IsBusiness: u.isBusiness, LastUpdated: Ms(u.updated), PublicNote: u.publicNote, SuppID: u.suppID}
}

// emitUser records a user event that keeps the user's view unencoded:
// userView shares the user's lists, which are never written in place, and
// builds its documents afresh, so nothing the user changes later reaches
// it. Callers hold mu.
func (st *Store) emitUser(now time.Time, function string, u *userRecord) {
	st.emitLazy(now, function, "USER", u.id, &userSnap{st.userView(u)})
}

// userSnap is a user's view kept by its event, encoded when read.
type userSnap struct{ v UserView }

func (s *userSnap) appendView(b []byte) ([]byte, error) { return s.v.AppendJSON(b) }

// CloneList copies a list for the wire, where an empty list is [] and never null.
func CloneList[T any](s []T) []T {
	return append(make([]T, 0, len(s)), s...)
}

// shareList is s itself for the wire, or [] for none: for a list of a
// record that is never written in place (a user's legal names, phone
// numbers and logins), which a view may then share rather than copy.
func shareList[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// User is documented at synapsefake.User.
type User struct {
	ID           string
	Emails       []string
	PhoneNumbers []string
	LegalNames   []string
	Permission   Permission
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
	// Documents are its base documents with their sub-documents' statuses.
	Documents []Document
	// PermissionHistory is every permission it held, oldest first.
	PermissionHistory []PermissionChange
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
		Documents: u.publicDocuments(), PermissionHistory: u.publicHistory(),

		ID: u.id, Emails: emails, PhoneNumbers: slices.Clone(u.phones), LegalNames: slices.Clone(u.legalNames),
		Permission: Permission(u.permission), SuppID: u.suppID, IsBusiness: u.isBusiness,
		RefreshToken: u.refreshToken, RefreshUsesLeft: u.refreshUses, Fingerprints: fps,
		NodeIDs: slices.Clone(u.nodeIDs), CreatedOn: u.created,
	}
}

// publicHistory is u's permission history for User, oldest first.
func (u *userRecord) publicHistory() []PermissionChange {
	history := make([]PermissionChange, len(u.permissionLog))
	for i, c := range u.permissionLog {
		history[i] = PermissionChange{At: c.at, Permission: Permission(c.permission), By: c.by}
	}
	return history
}

// UserSeed is documented at synapsefake.UserSeed.
type UserSeed struct {
	Email        string
	PhoneNumbers []string
	LegalNames   []string
	// Fingerprint, when set, is registered for the user, as the fingerprint
	// that created a user over HTTP is.
	Fingerprint string
	SuppID      string
	IsBusiness  bool
	// Permission defaults to what Documents allow: UNVERIFIED without
	// them. Given, it holds until a review raises it (documents never
	// lower a permission).
	Permission Permission
	// Documents are filed under one base document: each goes under review
	// as one sent over the API does, or starts in the Status it gives.
	Documents []SubDocumentSeed
}

// newUser builds and stores a user. Callers hold mu and have validated the input.
func (st *Store) newUser(now time.Time, seed UserSeed, documents []BaseDocRequest, cipTag int, note *string) *userRecord {
	u := st.userSlab.takeOf(userSlabSize)
	*u = userRecord{
		id:           st.newID(),
		created:      now,
		updated:      now,
		phones:       slices.Clone(seed.PhoneNumbers),
		legalNames:   st.ownStrings(seed.LegalNames),
		suppID:       seed.SuppID,
		cipTag:       cipTag,
		isBusiness:   seed.IsBusiness,
		publicNote:   note,
		permission:   string(seed.Permission),
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
	}
	u.permissionLog = []permissionChange{{at: now, permission: u.permission, by: PermissionByCreation}}
	st.fileDocuments(now, u, documents)
	st.fileSeedDocuments(now, u, seed.Documents)
	if seed.Permission == "" {
		st.documentsChanged(u, now)
	}
	if seed.Fingerprint != "" {
		u.fingerprints[seed.Fingerprint] = true
	}
	st.rotateRefreshToken(u)
	st.users[u.id] = u
	st.userOrder = append(st.userOrder, u.id)
	st.userRecs = append(st.userRecs, u)
	if u.gone() {
		st.goneUsers++
	}
	return u
}

func (st *Store) rotateRefreshToken(u *userRecord) {
	u.refreshToken = "refresh_" + st.secretHex(20)
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

// baseDocFields are the personal fields of a base document. They are
// write-only: GET /users/{user_id}?full_dehydrate=yes shows them, other
// answers show only name, entity_type and entity_scope.
type baseDocFields struct {
	Alias              *string `json:"alias,omitempty"`
	Email              *string `json:"email,omitempty"`
	PhoneNumber        *string `json:"phone_number,omitempty"`
	IP                 *string `json:"ip,omitempty"`
	Name               *string `json:"name,omitempty"`
	EntityType         *string `json:"entity_type,omitempty"`
	EntityScope        *string `json:"entity_scope,omitempty"`
	Day                *int    `json:"day,omitempty"`
	Month              *int    `json:"month,omitempty"`
	Year               *int    `json:"year,omitempty"`
	AddressStreet      *string `json:"address_street,omitempty"`
	AddressCity        *string `json:"address_city,omitempty"`
	AddressSubdivision *string `json:"address_subdivision,omitempty"`
	AddressPostalCode  *string `json:"address_postal_code,omitempty"`
	AddressCountryCode *string `json:"address_country_code,omitempty"`
}

// merged is f with the fields o sets replaced. It shares no memory with
// either, so views built from an earlier f stay as they were.
func (f baseDocFields) merged(o baseDocFields) baseDocFields {
	var out baseDocFields
	for _, src := range []baseDocFields{f, o} {
		data, _ := json.Marshal(src) // plain strings and ints cannot fail
		_ = json.Unmarshal(data, &out)
	}
	return out
}

// derivedSocialDocs are the social documents the service files from a base
// document's own fields, in the order the recorded answer lists them
// around the social documents sent (EMAIL first, the others after).
var derivedSocialDocs = []struct {
	typ string
	set func(f baseDocFields) bool
}{
	{"EMAIL", func(f baseDocFields) bool { return f.Email != nil }},
	{"PHONE_NUMBER", func(f baseDocFields) bool { return f.PhoneNumber != nil }},
	{"DATE", func(f baseDocFields) bool { return f.Day != nil || f.Month != nil || f.Year != nil }},
	{"ADDRESS", func(f baseDocFields) bool {
		return f.AddressStreet != nil || f.AddressCity != nil || f.AddressSubdivision != nil ||
			f.AddressPostalCode != nil || f.AddressCountryCode != nil
	}},
	{"IP", func(f baseDocFields) bool { return f.IP != nil }},
}

// Kinds of sub-document, as their lists are named on the wire.
const (
	physicalDocs = "physical_docs"
	socialDocs   = "social_docs"
	virtualDocs  = "virtual_docs"
)

type subDocRecord struct {
	id      string
	typ     string
	value   *string // write-only; nil for the derived social documents
	derived bool    // filed from a base document field
	updated time.Time
	status  string
	// reviewAt is when its review is due; zero when none is scheduled.
	reviewAt time.Time
}

type baseDocRecord struct {
	id     string
	fields baseDocFields
	docs   subDocs
}

// subDocs are a base document's sub-documents by kind (docKinds), each
// kind's oldest first, in an array a list of users reads without hashing
// the kind. The saved state holds them as it held the map they were: an
// object of the kinds ever set (put), to their lists.
type subDocs struct {
	lists [len(docKinds)][]*subDocRecord
	set   [len(docKinds)]bool
}

// docKinds are the kinds of sub-documents, as the wire names their lists,
// in the order the saved state sorts them.
var docKinds = [...]string{physicalDocs, socialDocs, virtualDocs}

// kindIndex is kind's index in docKinds, -1 for another string.
func kindIndex(kind string) int {
	switch kind {
	case physicalDocs:
		return 0
	case socialDocs:
		return 1
	case virtualDocs:
		return 2
	}
	return -1
}

// of is the sub-documents of kind, nil for none (or no such kind).
func (s *subDocs) of(kind string) []*subDocRecord {
	if i := kindIndex(kind); i >= 0 {
		return s.lists[i]
	}
	return nil
}

// put makes list the sub-documents of kind, one of docKinds.
func (s *subDocs) put(kind string, list []*subDocRecord) {
	i := kindIndex(kind)
	s.lists[i], s.set[i] = list, true
}

// asMap is s as the map the saved state holds.
func (s *subDocs) asMap() map[string][]*subDocRecord {
	m := map[string][]*subDocRecord{}
	for i, kind := range docKinds {
		if s.set[i] {
			m[kind] = s.lists[i]
		}
	}
	return m
}

var subDocsType = reflect.TypeFor[subDocs]()

// encodeSubDocs writes s as the saved state has always held a base
// document's docs: the object of its kinds.
func encodeSubDocs(buf *bytes.Buffer, s subDocs) error {
	return EncodeValue(buf, reflect.ValueOf(s.asMap()))
}

// decodeSubDocs reads what encodeSubDocs wrote into v, a subDocs,
// refusing a kind that is not one of docKinds.
func decodeSubDocs(data []byte, v reflect.Value) error {
	var m map[string][]*subDocRecord
	if err := DecodeValue(data, reflect.ValueOf(&m).Elem()); err != nil {
		return err
	}
	if m == nil {
		return errors.New("want an object of document kinds, not null")
	}
	var s subDocs
	for kind, list := range m {
		if kindIndex(kind) < 0 {
			return fmt.Errorf("unknown document kind %q", kind)
		}
		s.put(kind, list)
	}
	v.Set(reflect.ValueOf(s))
	return nil
}

// subDocView is a sub-document on the wire. The value shows only with
// full_dehydrate=yes.
type subDocView struct {
	DocumentType  string  `json:"document_type"`
	DocumentValue *string `json:"document_value,omitempty"`
	ID            string  `json:"id"`
	LastUpdated   int64   `json:"last_updated"`
	Status        string  `json:"status"`
}

// baseDocView is a base document on the wire: its id, name, entity type and
// scope, permission scope and dehydrated sub-documents; with
// full_dehydrate=yes the personal fields too (the embedded baseDocFields,
// empty otherwise).
type baseDocView struct {
	baseDocFields
	EntityScope     string       `json:"entity_scope"`
	EntityType      string       `json:"entity_type"`
	ID              string       `json:"id"`
	Name            string       `json:"name"`
	PermissionScope string       `json:"permission_scope"`
	PhysicalDocs    []subDocView `json:"physical_docs"`
	SocialDocs      []subDocView `json:"social_docs"`
	VirtualDocs     []subDocView `json:"virtual_docs"`
}

func (b *baseDocRecord) view(full bool) baseDocView {
	subs := func(kind string) []subDocView {
		out := make([]subDocView, 0, len(b.docs.of(kind)))
		for _, d := range b.docs.of(kind) {
			v := subDocView{DocumentType: d.typ, ID: d.id, LastUpdated: Ms(d.updated), Status: d.status}
			if full && d.value != nil {
				value := *d.value
				v.DocumentValue = &value
			}
			out = append(out, v)
		}
		return out
	}
	v := baseDocView{EntityScope: Deref(b.fields.EntityScope), EntityType: Deref(b.fields.EntityType), ID: b.id,
		Name: Deref(b.fields.Name), PermissionScope: b.scope(),
		PhysicalDocs: subs(physicalDocs), SocialDocs: subs(socialDocs), VirtualDocs: subs(virtualDocs)}
	if full {
		v.baseDocFields = b.fields.merged(baseDocFields{})
	}
	return v
}

// documentViews are u's base documents for the wire, full with
// full_dehydrate=yes.
func (u *userRecord) documentViews(full bool) []baseDocView {
	out := make([]baseDocView, 0, len(u.documents))
	for _, b := range u.documents {
		out = append(out, b.view(full))
	}
	return out
}

// baseDoc finds one of u's base documents by id; nil when u has none such.
func (u *userRecord) baseDoc(id string) *baseDocRecord {
	for _, b := range u.documents {
		if b.id == id {
			return b
		}
	}
	return nil
}

// checkDocuments refuses documents that name a base document or a
// sub-document u does not have, or one an earlier element or sub-document
// of reqs deletes: 409 / "400". Callers hold mu.
func (u *userRecord) checkDocuments(reqs []BaseDocRequest) error {
	deleted := map[string]bool{} // by an earlier element of reqs, base and sub-documents alike
	for _, r := range reqs {
		var b *baseDocRecord
		if r.ID != nil {
			if deleted[*r.ID] {
				return apierr.Incorrect("unknown_document", "Base document %s is deleted earlier in this request.", *r.ID)
			}
			if b = u.baseDoc(*r.ID); b == nil {
				return apierr.Incorrect("unknown_document", "Base document %s is not on file for this user.", *r.ID)
			}
			if r.deletes() {
				deleted[*r.ID] = true
			}
		}
		for kind, subs := range r.subDocs() {
			for _, s := range subs {
				if s.ID == nil {
					continue
				}
				if b == nil || deleted[*s.ID] || !slices.ContainsFunc(b.docs.of(kind), func(d *subDocRecord) bool { return d.id == *s.ID }) {
					return apierr.Incorrect("unknown_document", "Sub-document %s is not on file under %s.", *s.ID, kind)
				}
				if s.deletes() {
					deleted[*s.ID] = true
				}
			}
		}
	}
	return nil
}

// fileDocuments adds or updates u's base documents: one with an id is
// merged into the base document of that id (fields replaced, sub-documents
// added, replaced by id, or removed by id with document_type
// DELETE_DOCUMENT), one without is added. A base document whose email or
// phone number changes takes a new id, as the sandbox gave it. Every
// sub-document filed goes under review (submit). Callers hold mu and have
// checked reqs with checkDocuments.
func (st *Store) fileDocuments(now time.Time, u *userRecord, reqs []BaseDocRequest) {
	for _, r := range reqs {
		var b *baseDocRecord
		if r.ID != nil {
			b = u.baseDoc(*r.ID)
		}
		if r.deletes() {
			u.documents = slices.DeleteFunc(u.documents, func(d *baseDocRecord) bool { return d == b })
			continue
		}
		first := b == nil
		if first {
			b = &baseDocRecord{id: st.randomHex(32)}
			u.documents = append(u.documents, b)
		} else if r.changesContact(b.fields) {
			b.id = st.randomHex(32)
		}
		b.fields = b.fields.merged(r.baseDocFields)
		for _, kind := range []string{physicalDocs, socialDocs, virtualDocs} {
			for _, s := range r.subDocs()[kind] {
				st.fileSubDoc(now, u, b, kind, s)
			}
		}
		// The derived social documents: refiled in place when there, else
		// added; on a new base document EMAIL leads the ones sent and the
		// others follow, as recorded.
		social := b.docs.of(socialDocs)
		for _, d := range derivedSocialDocs {
			if !d.set(r.baseDocFields) {
				continue
			}
			sub := &subDocRecord{id: st.randomHex(32), typ: d.typ, derived: true}
			switch j := slices.IndexFunc(social, func(s *subDocRecord) bool { return s.derived && s.typ == d.typ }); {
			case j >= 0:
				sub.id = social[j].id
				social[j] = sub
			case first && d.typ == "EMAIL":
				social = append([]*subDocRecord{sub}, social...)
			default:
				social = append(social, sub)
			}
			st.submit(now, u, sub, socialDocs) // under the id it keeps
		}
		b.docs.put(socialDocs, social)
	}
}

// fileSubDoc adds a sub-document to b, or replaces or removes the one of
// its id. Callers hold mu.
func (st *Store) fileSubDoc(now time.Time, u *userRecord, b *baseDocRecord, kind string, s subDocRequest) {
	if s.deletes() {
		b.docs.put(kind, slices.DeleteFunc(b.docs.of(kind), func(d *subDocRecord) bool { return d.id == *s.ID }))
		return
	}
	sub := &subDocRecord{id: st.randomHex(32)}
	defer st.submit(now, u, sub, kind) // once sub has its id: a new one, or the one it replaces
	if s.DocumentType != nil {
		sub.typ = *s.DocumentType
	}
	if s.DocumentValue != nil {
		value := *s.DocumentValue
		sub.value = &value
	}
	list := b.docs.of(kind)
	if s.ID != nil {
		if i := slices.IndexFunc(list, func(d *subDocRecord) bool { return d.id == *s.ID }); i >= 0 {
			old := list[i]
			sub.id, sub.derived = old.id, old.derived
			if sub.typ == "" {
				sub.typ = old.typ
			}
			if sub.value == nil {
				sub.value = old.value
			}
			list[i] = sub
			return
		}
	}
	b.docs.put(kind, append(list, sub))
}

func (st *Store) createUser(now time.Time, req CreateUserRequest, fingerprint string) UserView {
	defer st.lock().unlock()
	cip := 1
	if req.Extra.CipTag != nil {
		cip = *req.Extra.CipTag
	}
	u := st.newUser(now, UserSeed{
		Email: *req.Logins[0].Email, PhoneNumbers: req.PhoneNumbers, LegalNames: req.LegalNames,
		Fingerprint: fingerprint, SuppID: req.Extra.SuppID, IsBusiness: req.Extra.IsBusiness,
	}, req.docs, cip, cmp.Or(req.Extra.PublicNote, req.Extra.Note))
	for _, l := range req.Logins[1:] {
		u.logins = append(u.logins, loginView{Email: *l.Email, Scope: l.scope()})
	}
	u.logins[0].Scope = req.Logins[0].scope()
	for _, l := range req.Logins {
		u.setPassword(*l.Email, l.Password)
	}
	v := st.userView(u)
	st.emit(now, "USERS|POST", "USER", u.id, v)
	st.reviewsDue(now)
	return v
}

// listUsers answers a page of the users GET /users lists: every user but
// those gone (MAKE-IT-GO-AWAY), those query (when not "") finds, those
// q.Filter matches.
func (st *Store) listUsers(q ListQuery, query string, showTokens bool) (usersList, error) {
	users, total, err := pageOf(st, q, listing[*userRecord, UserView]{
		ids:     func(st *Store) ([]string, error) { return st.userOrder, nil },
		record:  func(st *Store, id string) *userRecord { return st.users[id] },
		records: func(st *Store) []*userRecord { return st.userRecs },
		skip: func(st *Store) func(*userRecord) bool {
			if query == "" && st.goneUsers == 0 {
				return nil
			}
			return func(u *userRecord) bool { return u.gone() || query != "" && !u.matchesQuery(query) }
		},
		view: func(st *Store, u *userRecord) UserView {
			v := st.userView(u)
			if !showTokens {
				v.RefreshToken = ""
			}
			return v
		},
		fields: userFieldsOf(showTokens),
		typed:  typedUserFieldsOf(showTokens),
	})
	if err != nil {
		return usersList{}, err
	}
	return usersList{ListMeta: q.Page.Meta(total), Users: users, UsersCount: total}, nil
}

func (st *Store) getUser(id string, full bool) (UserView, error) {
	defer st.lock().unlock()
	u := st.users[id]
	if u == nil {
		return UserView{}, errNoUser(id)
	}
	v := st.userView(u)
	if full {
		v.Documents = u.documentViews(true)
	}
	return v, nil
}

// patchUser applies a validated PATCH /users/{id} and answers the user,
// its documents in full with full (full_dehydrate=yes); the event shows
// them dehydrated. strict is the server's strictRules for the request, for
// the contract's rules only the user's state shows broken. A request that
// changes nothing answers the user as it is, with no event.
func (st *Store) patchUser(now time.Time, id string, req PatchUserRequest, full bool, strict func(...BrokenRule) error) (UserView, error) {
	defer st.lock().unlock()
	u := st.users[id]
	if u == nil {
		return UserView{}, errNoUser(id)
	}
	// Check every refusal before changing anything.
	if up := req.Update; up != nil {
		if up.RemoveLegalName != nil && !slices.Contains(u.legalNames, *up.RemoveLegalName) {
			if err := strict(BrokenRule{"update.remove_legal_name is a legal name on file",
				apierr.Incorrect("unknown_legal_name", "Legal name %q is not on file for this user.", *up.RemoveLegalName)}); err != nil {
				return UserView{}, err
			}
		}
	}
	if err := u.checkDocuments(req.docs); err != nil {
		return UserView{}, err
	}
	if req.changesNothing() {
		v := st.userView(u)
		if full {
			v.Documents = u.documentViews(true)
		}
		return v, nil
	}
	if up := req.Update; up != nil {
		if up.Login != nil && !slices.ContainsFunc(u.logins, func(l loginView) bool { return l.Email == *up.Login.Email }) {
			u.logins = append(slices.Clip(u.logins), loginView{Email: *up.Login.Email, Scope: up.Login.scope()})
		}
		if up.Login != nil {
			u.setPassword(*up.Login.Email, up.Login.Password)
		}
		if up.RemoveLogin != nil {
			u.logins = slices.DeleteFunc(slices.Clone(u.logins), func(l loginView) bool { return l.Email == *up.RemoveLogin.Email })
			delete(u.passwords, *up.RemoveLogin.Email)
		}
		if up.LegalName != nil && !slices.Contains(u.legalNames, *up.LegalName) {
			u.legalNames = append(slices.Clip(u.legalNames), *up.LegalName)
		}
		if up.PhoneNumber != nil && !slices.Contains(u.phones, *up.PhoneNumber) {
			u.phones = append(slices.Clip(u.phones), *up.PhoneNumber)
		}
		if up.RemoveLegalName != nil {
			u.legalNames = slices.DeleteFunc(slices.Clone(u.legalNames), func(n string) bool { return n == *up.RemoveLegalName })
		}
		if up.RemovePhoneNumber != nil {
			u.phones = slices.DeleteFunc(slices.Clone(u.phones), func(p string) bool { return p == *up.RemovePhoneNumber })
			delete(u.verifiedPhones, identityDigits(*up.RemovePhoneNumber, false)) // added again, it is not verified
		}
		if up.CipTag != nil {
			u.cipTag = *up.CipTag
		}
		if up.PublicNote != nil {
			u.publicNote = up.PublicNote
		}
	}
	docs := req.docs
	if req.Doc != nil {
		docs = append(slices.Clip(docs), u.legacyDoc(*req.Doc))
	}
	st.fileDocuments(now, u, docs)
	if req.Permission != nil {
		st.setPermission(u, *req.Permission, now, PermissionByPlatform)
	}
	u.updated = now
	v := st.userView(u)
	st.emit(now, "USER|PATCH", "USER", u.id, v)
	if full {
		v.Documents = u.documentViews(true)
	}
	st.reviewsDue(now)
	return v, nil
}

// legacyDoc is the older KYC form's doc as a documents[] element: merged
// into u's first base document when it has one, its sub-documents
// replacing those of their types there; a new base document otherwise.
// Callers hold mu.
func (u *userRecord) legacyDoc(d legacyDocRequest) BaseDocRequest {
	r := d.baseDoc()
	if len(u.documents) == 0 {
		return r
	}
	b := u.documents[0]
	r.ID = &b.id
	for kind, subs := range map[string][]subDocRequest{physicalDocs: r.PhysicalDocs, virtualDocs: r.VirtualDocs} {
		for i := range subs {
			if j := slices.IndexFunc(b.docs.of(kind), func(o *subDocRecord) bool { return strings.EqualFold(o.typ, *subs[i].DocumentType) }); j >= 0 {
				subs[i].ID = &b.docs.of(kind)[j].id
			}
		}
	}
	return r
}

// setPermission gives u permission p at at, for the reason by, and notes
// it in u's history when it changes. A LOCKED, CLOSED or MAKE-IT-GO-AWAY
// user keeps its oauth_keys, which then open only the user itself
// (authorize): the platform unlocks or deletes the user it locked with
// them. Callers hold mu.
func (st *Store) setPermission(u *userRecord, p string, at time.Time, by string) {
	if u.permission == p {
		return
	}
	if u.gone() {
		st.goneUsers--
	}
	u.permission = p
	if u.gone() {
		st.goneUsers++
	}
	u.permissionLog = append(u.permissionLog, permissionChange{at: at, permission: p, by: by})
}

// fileUBO adds the REG_GG document. Callers hold mu.
func (st *Store) fileUBO(now time.Time, userID string) (UserView, error) {
	u := st.users[userID]
	if u == nil {
		return UserView{}, apierr.NotFound("user")
	}
	if len(u.documents) == 0 {
		return UserView{}, apierr.Incorrect("missing_base_document", "User %s has no base document to file the UBO form under.", userID)
	}
	base := u.documents[0]
	base.docs.put(physicalDocs, slices.DeleteFunc(base.docs.of(physicalDocs), func(d *subDocRecord) bool { return d.typ == regGGDocType }))
	reg := &subDocRecord{id: st.randomHex(32), typ: regGGDocType}
	base.docs.put(physicalDocs, append(base.docs.of(physicalDocs), reg))
	st.submit(now, u, reg, physicalDocs)
	u.updated = now
	v := st.userView(u)
	st.emit(now, "USER|PATCH", "USER", u.id, v)
	st.reviewsDue(now)
	return v, nil
}

// Reasons get-duplicates gives, by what two users share.
const (
	reasonDocument      = "duplicate_document"
	reasonVerifiedPhone = "duplicate_verified_phone_number"
)

// identityMarks are what only the person behind u holds, each with the
// reason two users sharing it are duplicates: the values of its virtual
// documents (SSN, TIN, PASSPORT..., by type, letters and digits only,
// upper case) and the phone numbers on file it verified by MFA pin (digits
// only). Names and emails, which anyone can type, are not among them.
// Callers hold mu.
func (u *userRecord) identityMarks() map[string]string {
	marks := map[string]string{}
	for _, b := range u.documents {
		for _, d := range b.docs.of(virtualDocs) {
			if v := identityDigits(Deref(d.value), true); v != "" {
				marks["doc "+strings.ToUpper(d.typ)+" "+v] = reasonDocument
			}
		}
	}
	for _, p := range u.phones {
		if d := identityDigits(p, false); d != "" && u.verifiedPhones[d] {
			marks["phone "+d] = reasonVerifiedPhone
		}
	}
	return marks
}

// identityDigits is s with only its digits kept, and its letters too,
// upper-cased, when letters is set: "123-45-6789" and "123456789" are one
// SSN, "901.111.1111" and "(901) 111-1111" one phone number.
func identityDigits(s string, letters bool) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '0' && r <= '9':
			return r
		case letters && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			return unicode.ToUpper(r)
		}
		return -1
	}, s)
}

// verifyPhone records that u proved it holds the phone its pending pin
// went to. Callers hold mu.
func (u *userRecord) verifyPhone() {
	if d := identityDigits(u.pinSentTo, false); d != "" {
		if u.verifiedPhones == nil {
			u.verifiedPhones = map[string]bool{}
		}
		u.verifiedPhones[d] = true
	}
	u.pinSentTo = ""
}

// duplicate is another user sharing an identity mark, and why.
type duplicate struct {
	user   *userRecord
	reason string
}

// duplicates are u's duplicates, in creation order: the other users sharing
// one of its identityMarks. Callers hold mu.
func (st *Store) duplicates(u *userRecord) []duplicate {
	marks := u.identityMarks()
	if len(marks) == 0 {
		return nil
	}
	var out []duplicate
	for _, id := range st.userOrder {
		d := st.users[id]
		if d == u {
			continue
		}
		reason := ""
		for mark := range d.identityMarks() {
			if r, ok := marks[mark]; ok && (reason == "" || r == reasonDocument) {
				reason = r
			}
		}
		if reason != "" {
			out = append(out, duplicate{d, reason})
		}
	}
	return out
}

// isDuplicate reports whether a and b are duplicates. Callers hold mu.
func (st *Store) isDuplicate(a, b *userRecord) bool {
	return b != nil && slices.ContainsFunc(st.duplicates(a), func(d duplicate) bool { return d.user == b })
}

// SetPermission is documented at synapsefake.Server.SetPermission.
func (s *Bank) SetPermission(userID, permission string) error {
	if !slices.Contains(userPermissions, permission) {
		return apierr.Payload("invalid_permission", "Unknown permission %q.", permission)
	}
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return apierr.NotFound("user")
	}
	defer st.asBackend()()
	now := s.Now()
	st.setPermission(u, permission, now, PermissionByPlatform)
	u.updated = now
	st.emitUser(now, "USER|PATCH", u)
	st.releaseKYCHolds(u, now)
	return nil
}

// Updaters recorded in webhook_meta.updated_by and the webhook log.
const (
	UpdatedBySelf    = "SELF"    // a change made through the API
	UpdatedByBackend = "BACKEND" // a change made by the clock or a scenario helper
)
