package bank

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/synapsefake/synapsefake/internal/filter"
)

// TestViewDocIsTheAnswersJSON: the document a filter reads of a view holds
// each field it names as the list answer shows it (encoding/json's output,
// decoded), omitted fields absent, over views filled at random as in
// TestAppendJSONIsEncodingJSON.
func TestViewDocIsTheAnswersJSON(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	// A user's documents embed their personal fields, a name of which
	// the document's own hides: read field by field all the same.
	if jsonFieldsOf(reflect.TypeFor[baseDocView]()) == nil {
		t.Error("a base document is read through its whole JSON; it is expected to be read field by field")
	}
	infos := []reflect.Type{reflect.TypeFor[nodeInfo](), reflect.TypeFor[achNodeInfo](), reflect.TypeFor[map[string]any]()}
	for _, typ := range []reflect.Type{reflect.TypeFor[TxView](), reflect.TypeFor[NodeView](), reflect.TypeFor[UserView](),
		reflect.TypeFor[SubnetView](), reflect.TypeFor[SubscriptionView](), reflect.TypeFor[StatementView](), reflect.TypeFor[ShipView]()} {
		if jsonFieldsOf(typ) == nil {
			t.Errorf("%s is read through its whole JSON; a view is expected to be read field by field", typ)
		}
		var names []string
		for i := range typ.NumField() {
			if name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); name != "" {
				names = append(names, name)
			}
		}
		names = append(names, "no_such_field")
		checked := 0
		for i := 0; checked < 500 && i < 5000; i++ {
			v := reflect.New(typ)
			fillRandom(rng, v.Elem(), 0)
			if n, ok := v.Interface().(*NodeView); ok && rng.IntN(4) > 0 {
				info := reflect.New(infos[rng.IntN(len(infos))])
				fillRandom(rng, info.Elem(), 1)
				n.Info = info.Elem().Interface()
			}
			data, err := json.Marshal(v.Interface())
			if err != nil {
				continue // an infinity: no answer shows it
			}
			var want map[string]any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			got := map[string]any{}
			viewFields(got, v.Interface(), names, nil, nil)
			if diff := cmp.Diff(want, plain(got)); diff != "" {
				t.Fatalf("%s #%d: the filter's document differs from the answer's JSON (-answer +document):\n%s\n%s", typ, i, diff, data)
			}
			checked++
		}
		if checked < 100 {
			t.Errorf("%s: only %d views were checked", typ, checked)
		}
	}
}

// plain is v with each filter.Object a map, as encoding/json decodes an
// object.
func plain(v any) any {
	switch x := v.(type) {
	case filter.Object:
		m := make(map[string]any, len(x))
		for _, member := range x {
			m[member.Name] = plain(member.Value)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, c := range x {
			m[k] = plain(c)
		}
		return m
	case []any:
		list := make([]any, len(x))
		for i, c := range x {
			list[i] = plain(c)
		}
		return list
	}
	return v
}

// TestProjectionMatchesAsTheWhole: a view's document converted through a
// filter's projections (what its paths read) matches as the view's whole
// JSON does, over views filled at random (a user's documents with their
// personal fields too) and filters of one to three conditions on paths
// found in the view, on index paths and on missing ones, against values
// found in it and others.
func TestProjectionMatchesAsTheWhole(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(45, 2))
	ops := []string{"$eq", "$ne", "$in", "$nin", "$exists", "$gt", "$lte"}
	var a arena // its slabs reused, as a list reuses them
	for _, typ := range []reflect.Type{reflect.TypeFor[TxView](), reflect.TypeFor[NodeView](), reflect.TypeFor[UserView](),
		reflect.TypeFor[SubnetView](), reflect.TypeFor[SubscriptionView](), reflect.TypeFor[StatementView](), reflect.TypeFor[ShipView]()} {
		checked := 0
		for i := 0; checked < 1000 && i < 20000; i++ {
			v := reflect.New(typ)
			fillRandom(rng, v.Elem(), 0)
			if u, ok := v.Interface().(*UserView); ok {
				for j := range u.Documents {
					name, day := randomStrings[rng.IntN(len(randomStrings))], rng.IntN(31)
					u.Documents[j].baseDocFields = baseDocFields{Name: &name, Day: &day, Alias: &name}
				}
			}
			data, err := json.Marshal(v.Interface())
			if err != nil {
				continue
			}
			var whole map[string]any
			if err := json.Unmarshal(data, &whole); err != nil {
				t.Fatal(err)
			}
			var found []pathValue
			collectPaths(whole, "", &found)
			found = append(found, pathValue{"no_such_field", nil}, pathValue{"extra.no_such", "x"})
			for range 5 {
				conds := map[string]any{}
				for range 1 + rng.IntN(3) {
					pv := found[rng.IntN(len(found))]
					value := pv.value
					if rng.IntN(4) == 0 {
						value = found[rng.IntN(len(found))].value
					}
					op := ops[rng.IntN(len(ops))]
					switch op {
					case "$in", "$nin":
						value = []any{value, "x"}
					case "$exists":
						value = rng.IntN(2) == 0
					case "$gt", "$lte":
						if _, ok := value.(float64); !ok {
							value = "m"
						}
					}
					conds[pv.path] = map[string]any{op: value}
				}
				text, err := json.Marshal(conds)
				if err != nil {
					t.Fatal(err)
				}
				f, err := filter.Parse(string(text))
				if err != nil {
					t.Fatalf("Parse(%s): %v", text, err)
				}
				projections := projectionsOf(f.Paths())
				got := map[string]any{}
				a.reset() // the documents of the filter before are garbage
				viewFields(got, v.Interface(), f.Fields(), projections, &a)
				if f.Match(got) != f.Match(whole) {
					t.Fatalf("%s %s: the projected document matches %v, the whole %v\nview %s\nprojected %v", typ, text, f.Match(got), f.Match(whole), data, got)
				}
				// The readers' way: a field's Go value, projected.
				fields := jsonFieldsOf(typ)
				read := map[string]any{}
				for _, name := range f.Fields() {
					if jf := fields.byName[name]; jf != nil {
						if fv := v.Elem().FieldByIndex(jf.index); !jf.omitted(fv) {
							read[name] = project(fv.Interface(), projections[name], &a)
						}
					}
				}
				if f.Match(read) != f.Match(whole) {
					t.Fatalf("%s %s: the read document matches %v, the whole %v\nview %s\nread %v", typ, text, f.Match(read), f.Match(whole), data, read)
				}
				checked++
			}
		}
		if checked < 1000 {
			t.Errorf("%s: only %d filters were checked", typ, checked)
		}
	}
}

// pathValue is a path in a decoded document and a value it reaches.
type pathValue struct {
	path  string
	value any
}

// collectPaths lists the paths of v's members, an array's indexes, and
// those through its objects, with the value each reaches.
func collectPaths(v any, prefix string, into *[]pathValue) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if k == "" || strings.ContainsAny(k, ".$") {
				continue
			}
			*into = append(*into, pathValue{join(k), c})
			collectPaths(c, join(k), into)
		}
	case []any:
		for i, c := range x {
			*into = append(*into, pathValue{join(strconv.Itoa(i)), c})
			if m, ok := c.(map[string]any); ok {
				collectPaths(m, prefix, into)
			}
		}
	}
}

// TestTypedListIsTheWholeViewsList: a filtered list of users whose filter
// reads only the typed readers' paths (matched as filter.Typed, no
// document built) answers the users whose whole view's JSON the filter
// matches, in order, over users of several shapes (no legal names, one
// not valid UTF-8, business or not, each permission) and filters of
// every operator on each typed path (through the documents too).
func TestTypedListIsTheWholeViewsList(t *testing.T) {
	b := newTestBank(testBankOptions{})
	for i := range 40 {
		seed := UserSeed{SuppID: []string{"", "s1", "s2"}[i%3], IsBusiness: i%4 == 0,
			Permission: []Permission{"", PermissionLocked, PermissionMakeItGoAway}[i%3]}
		switch i % 5 {
		case 1:
			seed.LegalNames = []string{"A", "B"}
		case 2:
			seed.LegalNames = []string{"B \xff"}
			seed.PhoneNumbers = []string{"555"}
		case 3:
			seed.LegalNames = []string{"C"}
		case 4:
			seed.Documents = []SubDocumentSeed{{Kind: "physical", Type: "GOVT_ID", Value: "2222", Status: "VALID"},
				{Kind: "virtual", Type: "SSN", Value: "2222", Status: []string{"VALID", "INVALID"}[i%2]}}
		}
		mustAddUser(t, b, seed)
	}
	var whole []map[string]any // each user's view as GET /users shows it, in order
	for _, show := range []bool{true, false} {
		all, err := b.ListUsers(ListQuery{Page: Page{Number: 1, PerPage: 1000}}, "", show)
		if err != nil {
			t.Fatal(err)
		}
		whole = whole[:0]
		for _, u := range all.Users {
			data, err := json.Marshal(u)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			whole = append(whole, doc)
		}
		for _, text := range []string{
			`{"_id":"` + whole[3]["_id"].(string) + `"}`,
			`{"legal_names":"B"}`, `{"legal_names":"B \ufffd"}`, `{"legal_names":{"$in":["C","A",null]}}`,
			`{"legal_names":{"$nin":["A"]}}`, `{"legal_names":{"$gt":"B"}}`, `{"legal_names":{"$exists":true}}`,
			`{"phone_numbers":{"$ne":"555"}}`, `{"emails":{"$lte":""}}`, `{"photos":null}`, `{"is_hidden":false}`,
			`{"permission":{"$in":["LOCKED","UNVERIFIED"]}}`, `{"refresh_token":{"$exists":true}}`, `{"refresh_token":null}`,
			`{"extra.supp_id":{"$gte":"s1"}}`, `{"extra.is_business":true}`, `{"extra.cip_tag":{"$lt":2}}`,
			`{"extra.public_note":null}`,
			`{"documents.physical_docs.document_type":"GOVT_ID"}`, `{"documents.social_docs.id":null}`,
			`{"documents.id":{"$exists":false}}`, `{"documents.virtual_docs.status":{"$nin":["VALID"]}}`,
			`{"documents.virtual_docs.document_type":{"$in":["SSN",null]}}`,
			`{"$or":[{"legal_names":"A"},{"extra.supp_id":"s2"},{"permission":"LOCKED"}]}`,
			`{"$and":[{"legal_names":{"$ne":"C"}},{"extra.is_business":{"$in":[false,0]}}]}`,
		} {
			f := mustFilter(t, text)
			if typedOf(f, typedUserFieldsOf(show)) == nil {
				t.Fatalf("%s: not matched as filter.Typed", text)
			}
			var want []string
			for _, doc := range whole {
				if f.Match(doc) {
					want = append(want, doc["_id"].(string))
				}
			}
			got, err := b.ListUsers(ListQuery{Page: Page{Number: 1, PerPage: 1000}, Filter: f}, "", show)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, userIDs(got.Users), cmpopts.EquateEmpty()); diff != "" || got.UsersCount != len(want) {
				t.Errorf("show tokens %v, %s: users_count %d (-want +got):\n%s", show, text, got.UsersCount, diff)
			}
		}
	}
}

// TestUserRecsAreUserOrders: the store's userRecs (what a filtered list
// of users reads) are userOrder's records, index for index, after users
// are added, after a restore and after a reset; a list of users filtered
// after a restore answers the restored users.
func TestUserRecsAreUserOrders(t *testing.T) {
	b, ids := usersBank(t, 5)
	st := b.store
	check := func(when string) {
		t.Helper()
		defer st.lock().unlock()
		if !slices.Equal(st.userRecs, recordsOf(st.users, st.userOrder)) || len(st.userRecs) != len(st.userOrder) {
			t.Errorf("%s: userRecs %v are not userOrder %v's records", when, st.userRecs, st.userOrder)
		}
	}
	check("added")
	var saved bytes.Buffer
	if err := snapshot(b, &saved); err != nil {
		t.Fatal(err)
	}
	mustAddUser(t, b, UserSeed{LegalNames: []string{"User 1"}})
	check("added after the snapshot")
	if err := restore(b, &saved); err != nil {
		t.Fatal(err)
	}
	check("restored")
	got, err := b.ListUsers(ListQuery{Page: Page{Number: 1, PerPage: 20}, Filter: mustFilter(t, `{"legal_names":"User 1"}`)}, "", true)
	if err != nil || !slices.Equal(userIDs(got.Users), ids[1:2]) {
		t.Errorf("after the restore, the users named User 1 are %v (%v), want %v", userIDs(got.Users), err, ids[1:2])
	}
	b.ResetBank(func() {})
	check("reset")
	mustAddUser(t, b, UserSeed{})
	check("added after the reset")
}

// TestUserDocumentsAreTheirViews: a user's documents converted straight
// from its records (userDocuments) are what the generic converter makes
// of their views, and their JSON decoded, over records filled at random:
// no documents, or a few, with personal fields set or not (fillRandom),
// each kind's list nil, empty or not, strings that are not valid UTF-8,
// statuses that make each permission scope; an arena reused as a list
// reuses it.
func TestUserDocumentsAreTheirViews(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(45, 7))
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	statuses := append([]string{DocValid, DocValid, DocInvalid}, randomStrings...)
	var a arena
	for i := range 2000 {
		u := &userRecord{}
		if rng.IntN(8) > 0 {
			u.documents = []*baseDocRecord{}
		}
		for range rng.IntN(4) {
			b := &baseDocRecord{id: pick(randomStrings)}
			fillRandom(rng, reflect.ValueOf(&b.fields).Elem(), 0)
			for k := range docKinds {
				switch rng.IntN(3) {
				case 0: // nil
				case 1:
					b.docs.lists[k] = []*subDocRecord{}
				default:
					for range 1 + rng.IntN(3) {
						value := pick(randomStrings)
						b.docs.lists[k] = append(b.docs.lists[k], &subDocRecord{id: pick(randomStrings), typ: pick(randomStrings),
							value: &value, status: pick(statuses), updated: time.UnixMilli(rng.Int64N(1 << 42))})
					}
				}
			}
			u.documents = append(u.documents, b)
		}
		views := u.documentViews(false)
		data, err := json.Marshal(views)
		if err != nil {
			t.Fatal(err)
		}
		var want any
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		a.reset()
		got := userDocuments{u}.filterValue(&a)
		if diff := cmp.Diff(plain(jsonValue(reflect.ValueOf(views))), plain(got)); diff != "" {
			t.Fatalf("#%d: the documents converted from their records differ from their views converted (-views +records):\n%s", i, diff)
		}
		if diff := cmp.Diff(want, plain(got)); diff != "" {
			t.Fatalf("#%d: the documents converted from their records differ from their views' JSON (-JSON +records):\n%s\n%s", i, diff, data)
		}
	}
}

// convertKinds is a struct of a field of each kind the in-place
// converters read, left out when empty or zero and not, and the kinds
// they leave to reflect, for TestInPlaceIsJSONValue.
type convertKinds struct {
	convertInner
	S   string          `json:"s"`
	SE  string          `json:"se,omitempty"`
	B   bool            `json:"b"`
	BE  bool            `json:"be,omitempty"`
	I   int             `json:"i"`
	IE  int             `json:"ie,omitempty"`
	I8  int8            `json:"i8,omitempty"`
	I16 int16           `json:"i16,omitempty"`
	I32 int32           `json:"i32"`
	U   uint            `json:"u,omitempty"`
	U8  uint8           `json:"u8"`
	U16 uint16          `json:"u16,omitempty"`
	U32 uint32          `json:"u32,omitempty"`
	U64 uint64          `json:"u64"`
	F   float64         `json:"f,omitempty"`
	F32 float32         `json:"f32,omitempty"`
	FZ  float64         `json:"fz,omitzero"`
	P   *string         `json:"p,omitempty"`
	PI  *int            `json:"pi"`
	L   []string        `json:"l,omitempty"`
	LI  []convertInner  `json:"li"`
	LP  []*convertInner `json:"lp,omitempty"`
	A   [2]int          `json:"a"`
	A0  [0]int          `json:"a0,omitempty"`
	M   map[string]any  `json:"m,omitempty"`
	MS  map[string]int  `json:"ms"`
	X   any             `json:"x,omitempty"`
	T   time.Time       `json:"t,omitzero"`
	TE  time.Time       `json:"te"`
	Raw []byte          `json:"raw,omitempty"`
	St  namedString     `json:"st,omitempty"`
	In  convertInner    `json:"in,omitzero"`
}

type convertInner struct {
	Name string `json:"name,omitempty"`
	N    int64  `json:"n"`
}

// namedString is a string type of its own, converted as a string.
type namedString string

// TestInPlaceIsJSONValue: the in-place converters (ptrConverterOf) make
// of a struct what encoding/json writes, decoded, as jsonValue does of it
// held in an interface (not addressable), over values filled at random
// with every kind's zero and edges (-0, invalid UTF-8, nil and empty
// lists and maps).
func TestInPlaceIsJSONValue(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(45, 9))
	typ := reflect.TypeFor[convertKinds]()
	conv := ptrConverterOf(typ)
	var a arena
	for i := range 3000 {
		var v convertKinds
		fillRandom(rng, reflect.ValueOf(&v).Elem(), 0)
		if rng.IntN(2) == 0 { // the kinds fillRandom leaves zero
			v.I8, v.I16, v.I32 = int8(rng.IntN(256)-128), int16(rng.IntN(3)-1), int32(rng.IntN(3)-1)
			v.U, v.U8, v.U16, v.U32, v.U64 = uint(rng.IntN(2)), uint8(rng.IntN(256)), uint16(rng.IntN(2)), uint32(rng.IntN(2)), rng.Uint64()
			v.F32, v.A, v.T = float32(rng.IntN(3)-1), [2]int{rng.IntN(3), -1}, time.UnixMilli(rng.Int64N(3))
		}
		data, err := json.Marshal(v)
		if err != nil {
			continue // an infinity
		}
		var want any
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		a.reset()
		if diff := cmp.Diff(want, plain(conv(unsafe.Pointer(&v), &a))); diff != "" {
			t.Fatalf("#%d: in place (-JSON +converted):\n%s\n%s", i, diff, data)
		}
		if diff := cmp.Diff(want, plain(jsonValue(reflect.ValueOf(v)))); diff != "" {
			t.Fatalf("#%d: held in an interface (-JSON +converted):\n%s\n%s", i, diff, data)
		}
		if diff := cmp.Diff(want, plain(project(v, &projection{whole: true}, &a))); diff != "" {
			t.Fatalf("#%d: projected whole (-JSON +converted):\n%s\n%s", i, diff, data)
		}
	}
}
