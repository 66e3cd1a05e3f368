package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// strictKind is what strict decoding knows of a JSON value's shape.
type strictKind uint8

const (
	strictLeaf   strictKind = iota // a string, number or boolean: nothing to check inside
	strictFree                     // anything: free maps, raw JSON, custom decoders
	strictObject                   // a struct: its fields are the known keys
	strictList                     // a slice or array of elem
	strictDict                     // a map of elem, any keys
)

// strictShape is the shape of a request type, from its json tags.
type strictShape struct {
	kind   strictKind
	fields []strictField // strictObject, in declaration order
	elem   *strictShape  // strictList, strictDict
}

type strictField struct {
	name  string
	shape *strictShape
}

// strictShapes caches each request type's shape: reflection runs once
// per type and process.
var strictShapes sync.Map // reflect.Type -> *strictShape

// strictAs names the element types of the fields a handler decodes in a
// second step (a `strict:"<name>"` tag on a json.RawMessage slice).
var strictAs = map[string]reflect.Type{
	"document": reflect.TypeFor[bank.BaseDocRequest](),
}

// serviceFields are fields the service reads (the spec's fields seen on a
// transaction's extra, and those the official SDKs send) that the fake's
// request types do not have, by the struct that would hold them: strict
// decoding takes them, and anything inside them.
var serviceFields = map[reflect.Type][]string{
	reflect.TypeFor[bank.TxExtraRequest](): {"asset", "created_on", "encrypted_note", "filename", "latlon", "location",
		"rate", "rate_limit", "settlement_delay", "tracking_number", "txp_meta"},
	reflect.TypeFor[bank.CreateNodeRequest]():                    {"is_active"},                  // SynapseGo's CreateNode example
	reflect.TypeFor[bank.PatchNodeRequest]():                     {"expedite", "fee_node_id"},    // the SDKs' ship card node
	reflect.TypeOf(bank.PatchSubnetRequest{}.Preferences).Elem(): {"daily_atm_withdrawal_limit"}, // the SDKs' update subnet
}

var (
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// shapeOf returns t's shape, built on first use.
func shapeOf(t reflect.Type) *strictShape {
	if sh, ok := strictShapes.Load(t); ok {
		return sh.(*strictShape)
	}
	sh := buildShape(t, map[reflect.Type]*strictShape{})
	actual, _ := strictShapes.LoadOrStore(t, sh)
	return actual.(*strictShape)
}

// buildShape reads t's shape; seen holds the shapes being built, so that a
// recursive type ends.
func buildShape(t reflect.Type, seen map[reflect.Type]*strictShape) *strictShape {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if sh := seen[t]; sh != nil {
		return sh
	}
	if t == rawMessageType || t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return &strictShape{kind: strictFree}
	}
	switch t.Kind() {
	case reflect.Interface:
		return &strictShape{kind: strictFree}
	case reflect.Map:
		return &strictShape{kind: strictDict, elem: buildShape(t.Elem(), seen)}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return &strictShape{kind: strictLeaf} // base64 bytes
		}
		return &strictShape{kind: strictList, elem: buildShape(t.Elem(), seen)}
	case reflect.Struct:
		sh := &strictShape{kind: strictObject}
		seen[t] = sh
		sh.fields = structFields(t, seen)
		for _, name := range serviceFields[t] {
			sh.fields = append(sh.fields, strictField{name, &strictShape{kind: strictFree}})
		}
		return sh
	}
	return &strictShape{kind: strictLeaf}
}

// structFields lists the JSON fields of a struct as encoding/json sees
// them, embedded structs' fields promoted.
func structFields(t reflect.Type, seen map[reflect.Type]*strictShape) []strictField {
	var out []strictField
	for _, f := range reflect.VisibleFields(t) {
		if len(f.Index) > 1 || !f.IsExported() && !f.Anonymous {
			continue // promoted fields come with their embedded struct
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" && tag == "-" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			out = append(out, structFields(ft, seen)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		var sh *strictShape
		switch as := f.Tag.Get("strict"); {
		case as == "any":
			sh = &strictShape{kind: strictFree}
		case strictAs[as] != nil:
			sh = &strictShape{kind: strictList, elem: buildShape(strictAs[as], seen)}
		default:
			sh = buildShape(f.Type, seen)
		}
		out = append(out, strictField{name, sh})
	}
	return out
}

// field finds the field a key decodes into, as encoding/json matches it:
// the exact name, else the same name in another letter case.
func (sh *strictShape) field(key string) (strictField, bool) {
	for _, f := range sh.fields {
		if f.name == key {
			return f, true
		}
	}
	for _, f := range sh.fields {
		if strings.EqualFold(f.name, key) {
			return f, true
		}
	}
	return strictField{}, false
}

// strictProblem is one field the service would ignore: its path in the
// body and the known field it was most likely meant to be.
type strictProblem struct {
	path, nearest string
}

func (p strictProblem) String() string {
	if p.nearest == "" {
		return p.path
	}
	return p.path + " (did you mean " + p.nearest + "?)"
}

// strictProblems lists the fields of body that t does not know, in the
// order of their paths. body was already decoded leniently into a t.
func strictProblems(t reflect.Type, body []byte) []strictProblem {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	root := shapeOf(t)
	var out []strictProblem
	var walk func(sh *strictShape, v any, path string)
	walk = func(sh *strictShape, v any, path string) {
		switch sh.kind {
		case strictObject:
			obj, ok := v.(map[string]any)
			if !ok {
				return
			}
			for _, k := range slices.Sorted(maps.Keys(obj)) {
				f, ok := sh.field(k)
				if !ok {
					out = append(out, strictProblem{join(path, k), nearestField(root, sh, path, k)})
					continue
				}
				walk(f.shape, obj[k], join(path, f.name))
			}
		case strictList:
			if list, ok := v.([]any); ok {
				for i, e := range list {
					walk(sh.elem, e, fmt.Sprintf("%s[%d]", path, i))
				}
			}
		case strictDict:
			if obj, ok := v.(map[string]any); ok {
				for k, e := range obj {
					walk(sh.elem, e, join(path, k))
				}
			}
		}
	}
	walk(root, v, "")
	slices.SortFunc(out, func(a, b strictProblem) int { return strings.Compare(a.path, b.path) })
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// nearestField is the known field an unknown key at path (an object of
// shape here) was most likely meant to be: a field of the same name
// elsewhere in the request (a misplaced field), else the nearest name here
// by edit distance, else the nearest elsewhere; "" when none is near.
func nearestField(root, here *strictShape, path, key string) string {
	var elsewhere []string // paths, "[]" for any index
	var collect func(sh *strictShape, p string, depth int)
	collect = func(sh *strictShape, p string, depth int) {
		if depth > 8 {
			return // a recursive type
		}
		switch sh.kind {
		case strictObject:
			for _, f := range sh.fields {
				elsewhere = append(elsewhere, join(p, f.name))
				collect(f.shape, join(p, f.name), depth+1)
			}
		case strictList:
			collect(sh.elem, p+"[]", depth+1)
		}
	}
	collect(root, "", 0)
	slices.SortFunc(elsewhere, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	lastName := func(p string) string { return p[strings.LastIndexByte(p, '.')+1:] }
	for _, p := range elsewhere {
		if strings.EqualFold(lastName(p), key) {
			return p // misplaced: the shortest path with that name
		}
	}
	limit := min(max(len(key)/3, 1), 3)
	best, bestD := "", limit+1
	for _, f := range here.fields {
		if d := editDistance(strings.ToLower(key), strings.ToLower(f.name)); d < bestD {
			best, bestD = join(path, f.name), d
		}
	}
	if best != "" {
		return best
	}
	for _, p := range elsewhere {
		if d := editDistance(strings.ToLower(key), strings.ToLower(lastName(p))); d < bestD {
			best, bestD = p, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and transpositions of neighbours
// each cost one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// checkStrict refuses, on a server WithStrictRequests, a body whose fields
// T does not know, and fails the server's test. data was already decoded
// leniently into a T.
func checkStrict[T any](r *http.Request, data []byte) error {
	s, _ := r.Context().Value(ServerKey{}).(*Wire)
	if s == nil || !s.Cfg.Strict {
		return nil
	}
	problems := strictProblems(reflect.TypeFor[T](), data)
	if len(problems) == 0 {
		return nil
	}
	names := make([]string, len(problems))
	for i, p := range problems {
		names[i] = p.String()
	}
	what := "field"
	if len(problems) > 1 {
		what = "fields"
	}
	list := strings.Join(names, ", ")
	e := apierr.Payload("unknown_field", "Unknown %s %s.", what, list).
		Because("unknown %s %s: the service would ignore it; WithStrictRequests refuses it", what, list)
	if s.Tb != nil {
		s.Tb.Errorf("synapsefake: strict requests: %s %s: unknown %s %s: the service would ignore it", r.Method, strings.TrimPrefix(r.Pattern, APIPrefix), what, list)
		apierr.MarkReported(e)
	}
	return e
}

// strictRule is how a rule of the contract that the service did not
// enforce is kept: lenient by default, as the sandbox was, and on a server
// WithStrictRequests a refusal that names the rule and fails the server's
// test. rule is a short name of what the contract says ("logins[].email is
// an email address"); err is the refusal strict mode answers. It returns
// nil on a lenient server.
func (s *Wire) strictRule(r *http.Request, rule string, err *apierr.Error) error {
	if s == nil || !s.Cfg.Strict {
		return nil
	}
	where := "seeding"
	if r != nil {
		where = r.Method + " " + strings.TrimPrefix(r.Pattern, APIPrefix)
	}
	e := err.Because("%s: the sandbox took it; WithStrictRequests refuses it", rule)
	if s.Tb != nil {
		s.Tb.Errorf("synapsefake: strict requests: %s: %s: the service took it, the contract does not", where, rule)
		apierr.MarkReported(e)
	}
	return e
}

// SeedRules is strictRules for a seed (AddUser): the bank's bankUp.
func (s *Wire) SeedRules(broken []bank.BrokenRule) error { return s.strictRules(nil, broken) }

// strictRules is strictRule for the first of the rules a request breaks
// (a request type's broken method lists them): nil when it breaks none, or
// on a lenient server.
func (s *Wire) strictRules(r *http.Request, broken []bank.BrokenRule) error {
	if len(broken) == 0 {
		return nil
	}
	return s.strictRule(r, broken[0].Rule, broken[0].Err)
}
