package bank

import (
	"maps"

	"github.com/synapsefake/synapsefake/internal/filter"
)

// The readers of list items' fields a filter names (listing.fields): each
// reads one top-level field of an item's view from its record, as the
// view would hold it, without building the view. TestFieldReadersAreTheViews
// compares each with the view's field on every item of a busy store.

// readerOf is a reader of a field the view always shows, made of what
// the view would hold there: its Go value, which the filter's document
// converts (project) as jsonValue would, or a selfConverter standing for
// it.
func readerOf[R, F any](field func(st *Store, r R) F) func(st *Store, r R) (any, bool) {
	return func(st *Store, r R) (any, bool) { return field(st, r), true }
}

// userFieldsOf are the readers of a user's fields, refresh_token's
// as GET /users shows it with (or without) the tokens.
func userFieldsOf(showTokens bool) map[string]func(st *Store, u *userRecord) (any, bool) {
	if showTokens {
		return userFieldsShowingTokens
	}
	return userFields
}

var userFieldsShowingTokens = func() map[string]func(st *Store, u *userRecord) (any, bool) {
	m := maps.Clone(userFields)
	m["refresh_token"] = func(_ *Store, u *userRecord) (any, bool) { return u.refreshToken, u.refreshToken != "" }
	return m
}()

// userFields are the readers of a user's fields, the list leaving out
// their refresh_token.
var userFields = map[string]func(st *Store, u *userRecord) (any, bool){
	"refresh_token": func(*Store, *userRecord) (any, bool) { return nil, false },
	"_id":           readerOf(func(_ *Store, u *userRecord) string { return u.id }),
	"_links":        readerOf(func(st *Store, u *userRecord) links { return linkTo(st.base + "/users/" + u.id) }),
	"client":        readerOf(func(st *Store, _ *userRecord) ClientView { return st.client }),
	"doc_status":    readerOf(func(_ *Store, u *userRecord) docStatus { return u.docStatus() }),
	"documents":     readerOf(func(_ *Store, u *userRecord) userDocuments { return userDocuments{u} }),
	"emails":        readerOf(func(*Store, *userRecord) []string { return []string{} }),
	"extra":         readerOf(func(_ *Store, u *userRecord) userExtra { return u.extra() }),
	"is_hidden":     readerOf(func(*Store, *userRecord) bool { return false }),
	"legal_names":   readerOf(func(_ *Store, u *userRecord) []string { return shareList(u.legalNames) }),
	"logins":        readerOf(func(_ *Store, u *userRecord) []loginView { return shareList(u.logins) }),
	"permission":    readerOf(func(_ *Store, u *userRecord) string { return u.permission }),
	"phone_numbers": readerOf(func(_ *Store, u *userRecord) []string { return shareList(u.phones) }),
	"photos":        readerOf(func(*Store, *userRecord) []string { return []string{} }),
}

var nodeFields = map[string]func(st *Store, n *nodeRecord) (any, bool){
	"_id":       readerOf(func(_ *Store, n *nodeRecord) string { return n.id }),
	"allowed":   readerOf(func(_ *Store, n *nodeRecord) string { return n.allowed }),
	"is_active": readerOf(func(_ *Store, n *nodeRecord) bool { return n.isActive }),
	"type":      readerOf(func(_ *Store, n *nodeRecord) string { return n.typ }),
	"user_id":   readerOf(func(_ *Store, n *nodeRecord) string { return n.userID }),
}

var txFields = map[string]func(st *Store, t *txRecord) (any, bool){
	"_id": readerOf(func(_ *Store, t *txRecord) string { return t.id }),
	"_v":  readerOf(func(_ *Store, t *txRecord) int { return len(t.timeline) + 1 }),
	"amount": readerOf(func(_ *Store, t *txRecord) amountView {
		amount := t.amount
		if t.card != nil {
			amount = t.card.show(len(t.timeline), map[string]any{}) // the members it adds to extra.other are not read here
		}
		return amountView{Amount: amount, Currency: t.currency}
	}),
	"recent_status": readerOf(func(_ *Store, t *txRecord) recentStatus {
		rs := recentOf(t.timeline)
		if t.code != "" {
			code := t.code
			rs.Code = &code
		}
		return rs
	}),
	"from": readerOf(func(st *Store, t *txRecord) partyView { return st.party(t.fromNode, t.fromMeta) }),
	"to":   readerOf(func(st *Store, t *txRecord) partyView { return st.party(t.toNode, t.toMeta) }),
}

var statementFields = map[string]func(st *Store, rec *statementRecord) (any, bool){
	"_id": readerOf(func(_ *Store, rec *statementRecord) string { return rec.id }),
}

var subnetFields = map[string]func(st *Store, sn *subnetRecord) (any, bool){
	"_id": readerOf(func(_ *Store, sn *subnetRecord) string { return sn.id }),
}

var subscriptionFields = map[string]func(st *Store, sub *subscriptionRecord) (any, bool){
	"_id": readerOf(func(_ *Store, sub *subscriptionRecord) string { return sub.id }),
}

// The typed readers (listing.typed): each reads what a path of an item's
// view leads to, as a filter.Typed reads it, without building or boxing
// anything, into v in place; a list it makes (filter.Each) it appends to
// buf, which the next item's read reuses. TestFieldReadersAreTheViews compares each
// with the view's JSON on every item of a busy store.

// noStrings is an empty list of strings, as a view shows one.
var noStrings = []string{}

// typedUserFieldsOf are the typed readers of a user's paths,
// refresh_token's as GET /users shows it with (or without) the tokens.
func typedUserFieldsOf(showTokens bool) map[string]func(st *Store, u *userRecord, v *filter.Value, buf *[]string) {
	if showTokens {
		return typedUserFieldsShowingTokens
	}
	return typedUserFields
}

var typedUserFieldsShowingTokens = func() map[string]func(st *Store, u *userRecord, v *filter.Value, buf *[]string) {
	m := maps.Clone(typedUserFields)
	m["refresh_token"] = func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) {
		if u.refreshToken == "" {
			v.SetMissing()
		} else {
			v.SetString(u.refreshToken)
		}
	}
	return m
}()

var typedUserFields = withDocumentPaths(map[string]func(st *Store, u *userRecord, v *filter.Value, buf *[]string){
	"refresh_token": func(_ *Store, _ *userRecord, v *filter.Value, _ *[]string) { v.SetMissing() },
	"_id":           func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) { v.SetString(u.id) },
	"emails":        func(_ *Store, _ *userRecord, v *filter.Value, _ *[]string) { v.SetStrings(noStrings) },
	"is_hidden":     func(_ *Store, _ *userRecord, v *filter.Value, _ *[]string) { v.SetBool(false) },
	"legal_names":   func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) { v.SetStrings(shareList(u.legalNames)) },
	"permission":    func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) { v.SetString(u.permission) },
	"phone_numbers": func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) { v.SetStrings(shareList(u.phones)) },
	"photos":        func(_ *Store, _ *userRecord, v *filter.Value, _ *[]string) { v.SetStrings(noStrings) },
	"extra.supp_id": func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) { v.SetString(u.suppID) },
	"extra.is_business": func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) {
		v.SetBool(u.isBusiness)
	},
	"extra.cip_tag": func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) {
		v.SetNumber(float64(u.cipTag))
	},
	"extra.date_joined": func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) {
		v.SetNumber(float64(Ms(u.created)))
	},
	"extra.last_updated": func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) {
		v.SetNumber(float64(Ms(u.updated)))
	},
	"extra.extra_security":    func(_ *Store, _ *userRecord, v *filter.Value, _ *[]string) { v.SetBool(false) },
	"doc_status.physical_doc": func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) { v.SetString(u.docStatus().PhysicalDoc) },
	"doc_status.virtual_doc":  func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) { v.SetString(u.docStatus().VirtualDoc) },
	"logins.email": func(_ *Store, u *userRecord, v *filter.Value, buf *[]string) {
		loginsValue(u, v, buf, func(l loginView) string { return l.Email })
	},
	"logins.scope": func(_ *Store, u *userRecord, v *filter.Value, buf *[]string) {
		loginsValue(u, v, buf, func(l loginView) string { return l.Scope })
	},
	"extra.public_note": func(_ *Store, u *userRecord, v *filter.Value, _ *[]string) {
		if u.publicNote == nil {
			v.SetNull()
		} else {
			v.SetString(*u.publicNote)
		}
	},
})

var typedNodeFields = map[string]func(st *Store, n *nodeRecord, v *filter.Value, buf *[]string){
	"_id":     func(_ *Store, n *nodeRecord, v *filter.Value, _ *[]string) { v.SetString(n.id) },
	"allowed": func(_ *Store, n *nodeRecord, v *filter.Value, _ *[]string) { v.SetString(n.allowed) },
	"is_active": func(_ *Store, n *nodeRecord, v *filter.Value, _ *[]string) {
		v.SetBool(n.isActive)
	},
	"type":    func(_ *Store, n *nodeRecord, v *filter.Value, _ *[]string) { v.SetString(n.typ) },
	"user_id": func(_ *Store, n *nodeRecord, v *filter.Value, _ *[]string) { v.SetString(n.userID) },
}

var typedTxFields = map[string]func(st *Store, t *txRecord, v *filter.Value, buf *[]string){
	"_id": func(_ *Store, t *txRecord, v *filter.Value, _ *[]string) { v.SetString(t.id) },
	"amount.amount": func(_ *Store, t *txRecord, v *filter.Value, _ *[]string) {
		amount := t.amount
		if t.card != nil {
			amount = t.card.show(len(t.timeline), map[string]any{}) // as txFields' amount
		}
		v.SetNumber(float64(amount) / 100) // as Cents.AppendJSON writes it
	},
	"amount.currency": func(_ *Store, t *txRecord, v *filter.Value, _ *[]string) { v.SetString(t.currency) },
	"recent_status.status": func(_ *Store, t *txRecord, v *filter.Value, _ *[]string) {
		v.SetString(string(recentOf(t.timeline).Status))
	},
	"recent_status.status_id": func(_ *Store, t *txRecord, v *filter.Value, _ *[]string) {
		v.SetString(recentOf(t.timeline).StatusID)
	},
}

// documentsValue is what documents.<kind>.<field> reaches in a user's
// documents as GET /users shows them: each base document's
// sub-documents of the kind (docKinds[kind]), field of each, and nothing
// where a base document has none of the kind, or the user no documents.
func documentsValue(u *userRecord, kind int, field subDocField, v *filter.Value, buf *[]string) {
	list, absent := (*buf)[:0], len(u.documents) == 0
	for _, b := range u.documents {
		subs := b.docs.lists[kind]
		if len(subs) == 0 {
			absent = true
		}
		for _, d := range subs {
			switch field {
			case subDocType:
				list = append(list, d.typ)
			case subDocID:
				list = append(list, d.id)
			default:
				list = append(list, d.status)
			}
		}
	}
	*buf = list
	v.SetEach(list, absent)
}

// subDocField is a field of a sub-document's view a filter reads.
type subDocField uint8

// The fields of a sub-document's view: document_type, id and status.
const (
	subDocType subDocField = iota
	subDocID
	subDocStatus
)

// loginsValue is what logins.<field> reaches in a user's logins.
func loginsValue(u *userRecord, v *filter.Value, buf *[]string, field func(l loginView) string) {
	list := (*buf)[:0]
	for _, l := range u.logins {
		list = append(list, field(l))
	}
	*buf = list
	v.SetEach(list, len(u.logins) == 0)
}

// withDocumentPaths is m with the readers of documents.id and
// documents.<kind>.{document_type,id,status}.
func withDocumentPaths(m map[string]func(st *Store, u *userRecord, v *filter.Value, buf *[]string)) map[string]func(st *Store, u *userRecord, v *filter.Value, buf *[]string) {
	m["documents.id"] = func(_ *Store, u *userRecord, v *filter.Value, buf *[]string) {
		list := (*buf)[:0]
		for _, b := range u.documents {
			list = append(list, b.id)
		}
		*buf = list
		v.SetEach(list, len(u.documents) == 0)
	}
	for kind, list := range docKinds {
		for name, field := range map[string]subDocField{"document_type": subDocType, "id": subDocID, "status": subDocStatus} {
			m["documents."+list+"."+name] = func(_ *Store, u *userRecord, v *filter.Value, buf *[]string) {
				documentsValue(u, kind, field, v, buf)
			}
		}
	}
	return m
}
