package synapsefake

import (
	"encoding/json"
	"slices"
	"time"
)

// deleteDocument is the permission_scope that removes a base document.
const deleteDocument = "DELETE_DOCUMENT"

// subDocumentKinds are the lists of a base document whose entries get an id.
var subDocumentKinds = []string{"physical_docs", "social_docs", "virtual_docs"}

// fileDocuments applies the documents of a create or PATCH to a user's base
// documents and returns the new list, leaving docs unchanged. A document
// without an id is added, with a new id, as are its physical, social and
// virtual documents (each SUBMITTED|REVIEWING); one with the id of a base
// document updates that document's fields, or removes it with
// permission_scope DELETE_DOCUMENT. An unknown id is 404 and changes
// nothing. Callers hold mu.
func (st *store) fileDocuments(now time.Time, docs, in []json.RawMessage) ([]json.RawMessage, error) {
	out := slices.Clone(docs)
	for _, raw := range in {
		var d map[string]json.RawMessage
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, errPayload("invalid_documents", "documents[] must be objects.")
		}
		var id, scope string
		if d["id"] != nil && json.Unmarshal(d["id"], &id) != nil {
			return nil, errPayload("invalid_field_type", "documents[].id must be a string.")
		}
		if d["permission_scope"] != nil && json.Unmarshal(d["permission_scope"], &scope) != nil {
			return nil, errPayload("invalid_field_type", "documents[].permission_scope must be a string.")
		}
		if id == "" {
			d["id"], _ = json.Marshal(st.randomHex(32))
			st.fileSubDocuments(now, d)
			doc, err := json.Marshal(d)
			if err != nil {
				return nil, err
			}
			out = append(out, doc)
			continue
		}
		i := slices.IndexFunc(out, func(doc json.RawMessage) bool { return documentID(doc) == id })
		if i < 0 {
			return nil, errNotFound("document")
		}
		if scope == deleteDocument {
			out = slices.Delete(out, i, i+1)
			continue
		}
		var base map[string]json.RawMessage
		if err := json.Unmarshal(out[i], &base); err != nil {
			return nil, err
		}
		st.fileSubDocuments(now, d)
		for k, v := range d {
			if kind := slices.Index(subDocumentKinds, k); kind >= 0 {
				var have, add []json.RawMessage
				_ = json.Unmarshal(base[k], &have)
				if json.Unmarshal(v, &add) == nil {
					v, _ = json.Marshal(append(have, add...))
				}
			}
			base[k] = v
		}
		doc, err := json.Marshal(base)
		if err != nil {
			return nil, err
		}
		out[i] = doc
	}
	return out, nil
}

// fileSubDocuments gives each new physical, social and virtual document of
// d an id, a status and a time. Callers hold mu.
func (st *store) fileSubDocuments(now time.Time, d map[string]json.RawMessage) {
	for _, kind := range subDocumentKinds {
		var subs []map[string]any
		if d[kind] == nil || json.Unmarshal(d[kind], &subs) != nil {
			continue
		}
		for _, sub := range subs {
			if _, ok := sub["id"]; !ok {
				sub["id"] = st.randomHex(32)
				sub["status"] = "SUBMITTED|REVIEWING"
				sub["last_updated"] = ms(now)
			}
		}
		d[kind], _ = json.Marshal(subs)
	}
}

// documentID is the id of a stored base document, "" when it has none.
func documentID(doc json.RawMessage) string {
	var d struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(doc, &d)
	return d.ID
}
