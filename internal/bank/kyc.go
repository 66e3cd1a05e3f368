// KYC, the bank's side: documents' statuses and their reviews.

package bank

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// The statuses of a sub-document, and MISSING|INVALID, which only
// doc_status shows (docs/fidelity.md, "KYC").
const (
	DocSubmitted  = "SUBMITTED"
	DocReviewing  = "SUBMITTED|REVIEWING"
	DocMFAPending = "SUBMITTED|MFA_PENDING"
	DocValid      = "SUBMITTED|VALID"
	DocInvalid    = "SUBMITTED|INVALID"
	DocBlacklist  = "SUBMITTED|INVALID|BLACKLIST"
	DocMissing    = "MISSING|INVALID"
)

// docStatuses are the statuses a sub-document can hold, in the order the
// provider's docs list them.
var docStatuses = []string{DocSubmitted, DocReviewing, DocMFAPending, DocValid, DocInvalid, DocBlacklist}

// The permissions a user's documents can give besides UNVERIFIED and
// SEND-AND-RECEIVE.
const (
	PermissionReceive = "RECEIVE"
	PermissionSend    = "SEND"
)

// The permission scopes of a base document, as recorded with the
// permission each goes with.
const (
	ScopeUnverified     = "UNVERIFIED"
	ScopeReceive        = "RECEIVE|1000|DAILY"
	ScopeSendAndReceive = "SEND|RECEIVE|1000|DAILY"
)

// Sub-document kinds, as the Go API names them (the wire's lists are
// physical_docs, social_docs and virtual_docs).
const (
	KindPhysical = "physical"
	KindSocial   = "social"
	KindVirtual  = "virtual"
)

// kindOf is the wire list of a Go kind, "" for none.
func kindOf(kind string) string {
	switch kind {
	case KindPhysical:
		return physicalDocs
	case KindSocial:
		return socialDocs
	case KindVirtual:
		return virtualDocs
	}
	return ""
}

// goKind is the Go API's name of a wire list.
func goKind(list string) string { return strings.TrimSuffix(list, "_docs") }

// ParseDocStatus reads a review's outcome: VALID, INVALID, BLACKLIST,
// REVIEWING, MFA_PENDING or SUBMITTED, bare or as the wire spells it
// ("SUBMITTED|VALID"). Anything else is 400 / "200" invalid_status.
func ParseDocStatus(s string) (string, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if u == "BLACKLIST" {
		u = "INVALID|BLACKLIST"
	}
	for _, st := range docStatuses {
		if u == st || "SUBMITTED|"+u == st {
			return st, nil
		}
	}
	return "", apierr.Payload("invalid_status", "status %q is not a sub-document status: want VALID, INVALID, BLACKLIST, REVIEWING, MFA_PENDING or SUBMITTED (or the wire's SUBMITTED|VALID...).", s)
}

// twoFactorDocs are the social documents that wait for the code sent to
// the email or phone they name: SUBMITTED|MFA_PENDING until it is given.
var twoFactorDocs = []string{"EMAIL_2FA", "PHONE_NUMBER_2FA"}

// sandboxFailingSSN are the last four digits of a virtual document that
// the sandbox's test values fail: 1111, and the realtime SSN codes.
var sandboxFailingSSN = []string{"1111", "9000", "2225", "0010", "6666", "2220", "2800", "0005"}

// sandboxOutcome is what the sandbox's review made of a sub-document, by
// its documented test values (docs/fidelity.md, "KYC"): the values the
// docs name as failing are INVALID, every other value VALID.
func sandboxOutcome(list, typ, value string) string {
	lower := strings.ToLower(strings.TrimSpace(value))
	invalid := false
	switch list {
	case virtualDocs:
		if d := identityDigits(value, false); len(d) >= 4 {
			invalid = slices.Contains(sandboxFailingSSN, d[len(d)-4:])
		}
	case physicalDocs:
		invalid = lower == "data:image/invalid;base64,suqs=="
	case socialDocs:
		switch strings.ToUpper(typ) {
		case "FACEBOOK", "LINKEDIN", "TWITTER":
			invalid = strings.HasSuffix(strings.TrimRight(lower, "/"), "/invalid")
		case "EMAIL":
			invalid = lower == "invalid@gmail.com"
		case "IP":
			invalid = lower == "255.255.255.0"
		case "PHONE_NUMBER":
			invalid = identityDigits(value, false) == "5417543010"
		case "ADDRESS":
			invalid = strings.HasPrefix(lower, "123 fail address")
		}
	}
	if invalid {
		return DocInvalid
	}
	return DocValid
}

// derivedValue is the base document field a derived social document is
// reviewed by.
func derivedValue(typ string, f baseDocFields) string {
	switch typ {
	case "EMAIL":
		return Deref(f.Email)
	case "PHONE_NUMBER":
		return Deref(f.PhoneNumber)
	case "IP":
		return Deref(f.IP)
	case "ADDRESS":
		return Deref(f.AddressStreet)
	}
	return ""
}

// kycReview is a sub-document's review, due at at.
type kycReview struct {
	at     time.Time
	seq    uint64
	userID string
	docID  string
}

// submit puts a newly filed sub-document of list under review:
// SUBMITTED|REVIEWING, its review due after the platform's review time, or
// SUBMITTED|MFA_PENDING for a 2FA document, which waits for its code.
// Callers hold mu.
func (st *Store) submit(now time.Time, u *userRecord, d *subDocRecord, list string) {
	d.updated = now
	d.reviewAt = time.Time{}
	if list == socialDocs && slices.Contains(twoFactorDocs, strings.ToUpper(d.typ)) {
		d.status = DocMFAPending
		return
	}
	d.status = DocReviewing
	st.scheduleReview(u, d, now.Add(st.kycDelay))
}

// outcome is what the sandbox's review makes of d, a sub-document of list
// in base document b: its test values decide, read from d's value or, for
// a derived social document, from b's field.
func (b *baseDocRecord) outcome(d *subDocRecord, list string) string {
	value := Deref(d.value)
	if d.derived {
		value = derivedValue(d.typ, b.fields)
	}
	return sandboxOutcome(list, d.typ, value)
}

// scheduleReview queues d's review at at, unless reviews are manual.
// Callers hold mu.
func (st *Store) scheduleReview(u *userRecord, d *subDocRecord, at time.Time) {
	if st.kycManual {
		return
	}
	d.reviewAt = at
	st.seq++
	r := kycReview{at: at, seq: st.seq, userID: u.id, docID: d.id}
	i, _ := slices.BinarySearchFunc(st.kycReviews, r, func(a, b kycReview) int {
		return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.seq, b.seq))
	})
	st.kycReviews = slices.Insert(st.kycReviews, i, r)
}

// nextReview is when the first review falls due, in Unix milliseconds.
func (st *Store) nextReview() int64 {
	if len(st.kycReviews) == 0 {
		return math.MaxInt64
	}
	return ceilMs(st.kycReviews[0].at)
}

// reviewsDue completes every review due by now, in due order: the reviews
// of one instant change their users together, and each user changed sends
// one USER|PATCH, dated then, with the user as it is after the change.
// Callers hold mu.
func (st *Store) reviewsDue(now time.Time) {
	if len(st.kycReviews) == 0 || st.kycReviews[0].at.After(now) {
		return
	}
	defer st.asBackend()()
	for len(st.kycReviews) > 0 && !st.kycReviews[0].at.After(now) {
		at := st.kycReviews[0].at
		var changed []*userRecord
		for len(st.kycReviews) > 0 && st.kycReviews[0].at.Equal(at) {
			r := st.kycReviews[0]
			st.kycReviews = st.kycReviews[1:]
			u := st.users[r.userID]
			if u == nil {
				continue
			}
			b, d, list := u.subDoc(r.docID)
			if d == nil || d.status != DocReviewing || !d.reviewAt.Equal(r.at) {
				continue // replaced, deleted or reviewed by hand since
			}
			d.status, d.updated, d.reviewAt = b.outcome(d, list), at, time.Time{}
			if !slices.Contains(changed, u) {
				changed = append(changed, u)
			}
		}
		for _, u := range changed {
			st.documentsChanged(u, at)
			u.updated = at
			st.emitUser(at, "USER|PATCH", u)
			st.releaseKYCHolds(u, at)
		}
	}
	if len(st.kycReviews) == 0 {
		st.kycReviews = nil
	}
}

// subDoc finds one of u's sub-documents by id, with its base document and
// the wire list it is in.
func (u *userRecord) subDoc(id string) (*baseDocRecord, *subDocRecord, string) {
	for _, b := range u.documents {
		for _, list := range []string{physicalDocs, socialDocs, virtualDocs} {
			for _, d := range b.docs.of(list) {
				if d.id == id {
					return b, d, list
				}
			}
		}
	}
	return nil, nil, ""
}

// has reports whether b holds a sub-document of list in status.
func (b *baseDocRecord) has(list, status string) bool {
	return slices.ContainsFunc(b.docs.of(list), func(d *subDocRecord) bool { return d.status == status })
}

// permission is what b's sub-documents allow: SEND-AND-RECEIVE with a
// valid virtual and a valid physical document, RECEIVE with a valid
// virtual one alone, UNVERIFIED otherwise (social documents, documents in
// review or refused).
func (b *baseDocRecord) permission() string {
	switch {
	case !b.has(virtualDocs, DocValid):
		return PermissionUnverified
	case b.has(physicalDocs, DocValid):
		return PermissionSendAndReceive
	}
	return PermissionReceive
}

// scope is b's permission_scope, as recorded beside each permission.
func (b *baseDocRecord) scope() string {
	switch b.permission() {
	case PermissionSendAndReceive:
		return ScopeSendAndReceive
	case PermissionReceive:
		return ScopeReceive
	}
	return ScopeUnverified
}

// permissionRank orders the permissions documents give.
func permissionRank(p string) int {
	switch p {
	case PermissionSendAndReceive:
		return 2
	case PermissionReceive, PermissionSend:
		return 1
	}
	return 0
}

// kycPermission is the best permission u's base documents give.
func (u *userRecord) kycPermission() string {
	best := PermissionUnverified
	for _, b := range u.documents {
		if p := b.permission(); permissionRank(p) > permissionRank(best) {
			best = p
		}
	}
	return best
}

// docStatus is u's doc_status: for each of the virtual and physical kinds,
// SUBMITTED|VALID when a base document holds a valid one, SUBMITTED|INVALID
// when none is valid and one was refused, MISSING|INVALID otherwise (none,
// or all still in review), as recorded.
func (u *userRecord) docStatus() docStatus {
	of := func(list string) string {
		status := DocMissing
		for _, b := range u.documents {
			switch {
			case b.has(list, DocValid):
				return DocValid
			case b.has(list, DocInvalid) || b.has(list, DocBlacklist):
				status = DocInvalid
			}
		}
		return status
	}
	return docStatus{PhysicalDoc: of(physicalDocs), VirtualDoc: of(virtualDocs)}
}

// Why a user's permission changed, as its history records it.
const (
	PermissionByCreation = "created"
	PermissionByReview   = "documents"
	PermissionByPlatform = "platform"
)

// permissionChange is one entry of a user's permission history.
type permissionChange struct {
	at         time.Time
	permission string
	by         string
}

// PermissionChange is documented at synapsefake.PermissionChange.
type PermissionChange struct {
	At         time.Time
	Permission Permission
	By         string
}

// documentsChanged raises u's permission to what its documents now allow,
// as the service did after a review. Documents never lower it (a refused
// or re-submitted document leaves the permission it had, as recorded), and
// never lift a LOCKED, CLOSED or MAKE-IT-GO-AWAY user: those are the
// platform's or compliance's to lift. Callers hold mu.
func (st *Store) documentsChanged(u *userRecord, at time.Time) {
	if u.locked() {
		return
	}
	want := u.kycPermission()
	if permissionRank(want) <= permissionRank(u.permission) {
		return
	}
	st.setPermission(u, want, at, PermissionByReview)
}

// KYCHoldCode is the recent_status.code of a transfer queued because its
// sender's permission does not allow sending (RECEIVE).
const KYCHoldCode = "KYC_UNFINISHED_SENDER"

// kycHoldNote is the note of that move, in the help center's words.
const kycHoldNote = "KYC unfinished on Sender: a RECEIVE user may only receive funds."

// holdForKYC queues a transfer just created by a sender whose permission
// is RECEIVE (QUEUED-BY-SYNAPSE, KYCHoldCode), as the service queued the
// transactions of users whose KYC was unfinished; it goes on when the
// sender's documents give it SEND-AND-RECEIVE (releaseKYCHolds). An
// UNVERIFIED sender's transfer goes on as the sandbox let it (the
// official SDKs' suites moved money with such users). Callers hold mu.
func (st *Store) holdForKYC(t *txRecord, now time.Time) {
	if u := st.users[st.nodes[t.fromNode].userID]; u != nil && u.permission == PermissionReceive && t.status == StatusCreated {
		_ = st.move(t, StatusQueuedBySynapse, now, kycHoldNote, KYCHoldCode)
	}
}

// releaseKYCHolds moves u's transfers held for its KYC back to CREATED,
// their processing starting at at, once u is SEND-AND-RECEIVE. Callers
// hold mu.
func (st *Store) releaseKYCHolds(u *userRecord, at time.Time) {
	if u.permission != PermissionSendAndReceive {
		return
	}
	for _, id := range u.txIDs { // a move adds to no list of ids
		t := st.txs[id]
		if t != nil && t.status == StatusQueuedBySynapse && t.code == KYCHoldCode && st.nodes[t.fromNode].userID == u.id {
			_ = st.move(t, StatusCreated, at, "KYC verified: transaction released.", "")
		}
	}
}

// ReviewDocument is documented at synapsefake.Server.ReviewDocument.
func (s *Bank) ReviewDocument(userID, documentID, status string) error {
	return s.review(userID, status, func(u *userRecord) ([]*subDocRecord, error) {
		_, d, _ := u.subDoc(documentID)
		if d == nil {
			return nil, apierr.NotFound("document")
		}
		return []*subDocRecord{d}, nil
	})
}

// ReviewDocuments is documented at synapsefake.Server.ReviewDocuments.
func (s *Bank) ReviewDocuments(userID, status string) error {
	return s.review(userID, status, func(u *userRecord) ([]*subDocRecord, error) {
		var out []*subDocRecord
		for _, b := range u.documents {
			for _, list := range []string{physicalDocs, socialDocs, virtualDocs} {
				for _, d := range b.docs.of(list) {
					if d.status == DocReviewing || d.status == DocMFAPending {
						out = append(out, d)
					}
				}
			}
		}
		return out, nil
	})
}

// review sets the sub-documents pick finds to status.
func (s *Bank) review(userID, status string, pick func(*userRecord) ([]*subDocRecord, error)) error {
	want, err := ParseDocStatus(status)
	if err != nil {
		return err
	}
	s.Up.RunDue()
	st := s.store
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil || u == st.networkUser {
		return apierr.NotFound("user")
	}
	docs, err := pick(u)
	if err != nil {
		return err
	}
	defer st.asBackend()()
	now := s.Now()
	changed := false
	for _, d := range docs {
		if d.status == want {
			continue
		}
		// A document put back in review by hand stays there until the
		// next review by hand: the test has taken it over from the clock.
		d.status, d.updated, d.reviewAt = want, now, time.Time{}
		changed = true
	}
	if !changed {
		return nil
	}
	st.documentsChanged(u, now)
	u.updated = now
	st.emitUser(now, "USER|PATCH", u)
	st.releaseKYCHolds(u, now)
	return nil
}

// Document is documented at synapsefake.Document.
type Document struct {
	ID              string
	Name            string
	PermissionScope string
	SubDocuments    []SubDocument
}

// SubDocument is documented at synapsefake.SubDocument.
type SubDocument struct {
	ID string
	// Kind is KindPhysical, KindSocial or KindVirtual.
	Kind string
	// Type is its document_type (SSN, GOVT_ID, EMAIL...).
	Type   string
	Status string
	// ReviewAt is when its review completes on the fake's clock; zero
	// when none is scheduled (reviewed, manual reviews, or 2FA pending).
	ReviewAt time.Time
}

// publicDocuments are u's documents for User.
func (u *userRecord) publicDocuments() []Document {
	out := make([]Document, 0, len(u.documents))
	for _, b := range u.documents {
		d := Document{ID: b.id, Name: Deref(b.fields.Name), PermissionScope: b.scope()}
		for _, list := range []string{physicalDocs, socialDocs, virtualDocs} {
			for _, s := range b.docs.of(list) {
				d.SubDocuments = append(d.SubDocuments, SubDocument{ID: s.id, Kind: goKind(list), Type: s.typ, Status: s.status, ReviewAt: s.reviewAt})
			}
		}
		out = append(out, d)
	}
	return out
}

// SubDocumentSeed is documented at synapsefake.SubDocumentSeed.
type SubDocumentSeed struct {
	// Kind is KindPhysical, KindSocial or KindVirtual.
	Kind string
	// Type is the document_type: SSN, GOVT_ID, FACEBOOK...
	Type string
	// Value is the document_value; the sandbox's test values decide the
	// review's outcome (2222 passes, 1111 fails...).
	Value string
	// Status is where the document starts: "" to go under review as one
	// sent over the API does, else a status ParseDocStatus reads (VALID,
	// INVALID...), taken as already reviewed.
	Status string
}

// validate refuses a seed the store could not file.
func (d SubDocumentSeed) validate() error {
	if kindOf(d.Kind) == "" {
		return apierr.Payload("invalid_document_kind", "Documents[].Kind %q: want physical, social or virtual.", d.Kind)
	}
	if d.Type == "" {
		return apierr.Payload("missing_document_type", "Documents[].Type is required.")
	}
	if d.Status != "" {
		if _, err := ParseDocStatus(d.Status); err != nil {
			return err
		}
	}
	return nil
}

// fileSeedDocuments files seed documents under a new base document of u,
// named after its first legal name. Callers hold mu and have validated
// docs.
func (st *Store) fileSeedDocuments(now time.Time, u *userRecord, docs []SubDocumentSeed) {
	if len(docs) == 0 {
		return
	}
	name := ""
	if len(u.legalNames) > 0 {
		name = u.legalNames[0]
	}
	b := &baseDocRecord{id: st.randomHex(32)}
	b.fields.Name = &name
	u.documents = append(u.documents, b)
	for _, s := range docs {
		list := kindOf(s.Kind)
		value := s.Value
		d := &subDocRecord{id: st.randomHex(32), typ: s.Type, value: &value}
		b.docs.put(list, append(b.docs.of(list), d))
		if s.Status == "" {
			st.submit(now, u, d, list)
			continue
		}
		d.status, _ = ParseDocStatus(s.Status)
		d.updated = now
	}
}
