package api_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/openapi"
)

// TestOpenAPIDescribesRecordedAnswers: the OpenAPI document describes every
// SDK fixture answer the project compares the fake's answers with (the
// shapes of SynapsePy's recorded answers in sdk_python_test.go): each key
// of a recorded answer is a field of the document's schema, of a JSON type
// the schema allows (null allows anything, as in the shape check). The
// answers themselves are checked against the document by openapi/check.
func TestOpenAPIDescribesRecordedAnswers(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(openapi.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, schema string
		recorded     map[string]any
	}{
		{"user_fixtures.simple_response", "UserObject", pyRecordedUser},
		{"users_resp.users[0]", "User", pyRecordedUser},
		{"node_fixtures.debit_us_get_response", "Node", pyRecordedDepositNode},
		{"node_fixtures.ach_us_get_response", "Node", pyRecordedACHNode},
		{"node_fixtures.ach_mfa_resp", "BankMFA", pyRecordedBankLoginMFA},
		{"node_fixtures.card_us_get_response", "Node", pyRecordedCardNode},
		{"trans_fixtures.trans_get_response", "TransactionObject", pyRecordedTrans},
		{"trans_fixtures.get_all_trans_resp.trans[0]", "Transaction", pyRecordedTrans},
		{"subnet_fixtures.subnet_get_resp", "SubnetObject", pyRecordedSubnet},
		{"subscription_fixtures.subs_resp", "SubscriptionObject", pyRecordedSubscription},
		{"subscription_fixtures.subss_resp.subscriptions[0]", "Subscription", pyRecordedSubscription},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := schemaWalker{doc}
			for _, p := range s.unlike(tt.recorded, map[string]any{"$ref": "#/components/schemas/" + tt.schema}, tt.schema) {
				t.Error(p)
			}
		})
	}
	// The check can fail: a field the document does not have, a type it
	// does not allow.
	bad := map[string]any{"_id": 1.0, "no_such_field": ""}
	if got := (schemaWalker{doc}).unlike(bad, map[string]any{"$ref": "#/components/schemas/Subscription"}, "Subscription"); len(got) != 2 {
		t.Errorf("a wrong type and an unknown field gave %q, want two complaints", got)
	}
}

// schemaWalker reads the document's JSON schemas as far as the shape check
// needs: $ref, allOf, anyOf, oneOf, type, const, enum, properties, items and
// whether an object is closed.
type schemaWalker struct{ doc map[string]any }

func (w schemaWalker) resolve(s map[string]any) map[string]any {
	for s != nil {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		var cur any = w.doc
		for _, k := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			m, _ := cur.(map[string]any)
			cur = m[k]
		}
		next, _ := cur.(map[string]any)
		s = next
	}
	return s
}

// alternatives are the schemas a value of s may match: s itself (its
// allOf merged into it) or, for anyOf and oneOf, each branch.
func (w schemaWalker) alternatives(s map[string]any) []map[string]any {
	s = w.resolve(s)
	for _, k := range []string{"anyOf", "oneOf"} {
		if branches, ok := s[k].([]any); ok {
			var out []map[string]any
			for _, b := range branches {
				bm, _ := b.(map[string]any)
				out = append(out, w.alternatives(bm)...)
			}
			return out
		}
	}
	merged := maps.Clone(s)
	props := map[string]any{}
	if p, ok := s["properties"].(map[string]any); ok {
		maps.Copy(props, p)
	}
	if all, ok := s["allOf"].([]any); ok {
		for _, a := range all {
			am, _ := a.(map[string]any)
			for _, alt := range w.alternatives(am) {
				if p, ok := alt["properties"].(map[string]any); ok {
					maps.Copy(props, p)
				}
				for _, k := range []string{"type", "items", "additionalProperties"} {
					if _, ok := merged[k]; !ok && alt[k] != nil {
						merged[k] = alt[k]
					}
				}
			}
		}
	}
	merged["properties"] = props
	return []map[string]any{merged}
}

func kindOf(v any) string {
	switch v.(type) {
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "null"
}

// allows reports whether s takes a value of JSON type kind.
func allows(s map[string]any, kind string) bool {
	if c, ok := s["const"]; ok {
		return kindOf(c) == kind
	}
	if e, ok := s["enum"].([]any); ok {
		return slices.ContainsFunc(e, func(v any) bool { return kindOf(v) == kind })
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, x.(string))
		}
	default:
		return true // no type: anything
	}
	return slices.Contains(types, kind) || kind == "number" && slices.Contains(types, "integer")
}

// unlike lists where recorded is not a value schema s describes.
func (w schemaWalker) unlike(recorded any, s map[string]any, path string) []string {
	kind := kindOf(recorded)
	if kind == "null" {
		return nil
	}
	var best []string
	for i, alt := range w.alternatives(s) {
		var out []string
		switch {
		case !allows(alt, kind):
			out = []string{path + " is " + kind + ", which the document does not allow"}
		case kind == "object":
			props := alt["properties"].(map[string]any)
			closed := alt["additionalProperties"] == false || alt["unevaluatedProperties"] == false
			rec := recorded.(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(rec)) {
				p, ok := props[k].(map[string]any)
				if !ok {
					if closed {
						out = append(out, path+"."+k+" is not in the document")
					}
					continue
				}
				out = append(out, w.unlike(rec[k], p, path+"."+k)...)
			}
		case kind == "array":
			if items, ok := alt["items"].(map[string]any); ok && len(recorded.([]any)) > 0 {
				out = w.unlike(recorded.([]any)[0], items, path+"[0]")
			}
		}
		if len(out) == 0 {
			return nil
		}
		if i == 0 || len(out) < len(best) {
			best = out
		}
	}
	return best
}
