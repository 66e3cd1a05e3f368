//go:build ignore

// Command export is issue 39's Phase B, part 1: still in one package, it
// renames to an exported name every unexported package-level object, field
// and method that a code file of another layer uses (the layers become the
// packages bank, api, console and the root), with the methods of the
// interfaces that a type of another layer implements. Uses from test files
// do not count (they move with their layer) but are renamed too. It refuses
// to rename a field of a type the state document saves by reflection (its
// keys are the Go field names) and reports names that would clash.
//
//	go run notes/tools/export.go [-n] [-as old=New,Type.old=New...]
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

var fileLayer = map[string]string{}

func init() {
	for layer, files := range map[string]string{
		"bank":    "banklogin barcode cardlife cards clock digitalwallet dishonor disputes dummy encode events idempotency jit money nodes oauth returns schedule shipments state_check statemachine statements statements_pdf store subnets transactions users filter",
		"api":     "handlers_users chaos diagnose fastdecode faults handlers handlers_kyc handlers_nodes handlers_oauth handlers_platform handlers_reference handlers_reference2 handlers_ship handlers_subnets handlers_transactions journal recovery router strict webhooks errors contractrules subscriptions",
		"console": "control control_reads origin ui ui_detail world state",
		"root":    "check client doc fake fakeoption listen scenarios platforms",
	} {
		for _, f := range strings.Fields(files) {
			fileLayer[f+".go"] = layer
		}
	}
}

func layerOf(file string) string {
	if strings.HasSuffix(file, "_test.go") {
		return "test"
	}
	for _, l := range []string{"bank", "api", "console", "root"} {
		if strings.HasPrefix(file, l+"_") {
			return l
		}
	}
	if l, ok := fileLayer[file]; ok {
		return l
	}
	panic("no layer for " + file)
}

func main() {
	dry := flag.Bool("n", false, "report only")
	force := flag.Bool("force", false, "rename even with problems (a trial)")
	as := flag.String("as", "", "names to use instead of the capitalized one: old=New or Type.old=New, comma separated")
	flag.Parse()
	manual := map[string]string{}
	for _, kv := range strings.Split(*as, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			manual[k] = v
		}
	}
	fset := token.NewFileSet()
	paths, _ := filepath.Glob("*.go")
	var files []*ast.File
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			panic(err)
		}
		if f.Name.Name != "synapsefake" {
			continue
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := conf.Check("github.com/synapsefake/synapsefake", fset, files, info)
	if err != nil {
		panic(err)
	}
	// A method or field of an instantiated generic type is its own object:
	// take the declared one.
	for id, obj := range info.Uses {
		switch o := obj.(type) {
		case *types.Func:
			info.Uses[id] = o.Origin()
		case *types.Var:
			info.Uses[id] = o.Origin()
		}
	}
	layer := func(pos token.Pos) string { return layerOf(filepath.Base(fset.Position(pos).Filename)) }
	isMember := func(obj types.Object) bool {
		switch o := obj.(type) {
		case *types.Var:
			return o.IsField()
		case *types.Func:
			return o.Type().(*types.Signature).Recv() != nil
		}
		return false
	}
	global := func(obj types.Object) bool { return obj.Parent() == pkg.Scope() }
	key := func(obj types.Object) string {
		if f, ok := obj.(*types.Func); ok {
			if r := f.Type().(*types.Signature).Recv(); r != nil {
				t := r.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if n, ok := t.(*types.Named); ok {
					return n.Obj().Name() + "." + obj.Name()
				}
				return "?." + obj.Name()
			}
		}
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			return "field " + fieldOwner[v] + "." + obj.Name()
		}
		return obj.Name()
	}
	// Every struct type's fields, with the named type that declares them.
	for _, obj := range info.Defs {
		tn, ok := obj.(*types.TypeName)
		if !ok {
			continue
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				if _, seen := fieldOwner[st.Field(i)]; !seen {
					fieldOwner[st.Field(i)] = tn.Name()
				}
			}
		}
	}

	// Frozen: the fields of the store and of every type reachable from
	// its saved fields.
	frozen := map[*types.Var]bool{}
	apart := map[string]bool{"mu": true, "era": true, "ids": true, "hooks": true, "networkUser": true, "base": true, "client": true, "microDeposits": true, "manualProcessing": true, "cutoffs": true, "defaultCutoffs": true, "immediateProvisional": true}
	seenT := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if seenT[t] {
			return
		}
		seenT[t] = true
		switch u := t.(type) {
		case *types.Named:
			if u.Obj().Pkg() != pkg {
				return
			}
			walk(u.Underlying())
		case *types.Pointer:
			walk(u.Elem())
		case *types.Slice:
			walk(u.Elem())
		case *types.Array:
			walk(u.Elem())
		case *types.Map:
			walk(u.Key())
			walk(u.Elem())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				frozen[u.Field(i)] = true
				walk(u.Field(i).Type())
			}
		}
	}
	storeT := pkg.Scope().Lookup("store").Type().Underlying().(*types.Struct)
	for i := 0; i < storeT.NumFields(); i++ {
		f := storeT.Field(i)
		frozen[f] = true
		if !apart[f.Name()] {
			walk(f.Type())
		}
	}

	need := map[types.Object]string{} // the object and why
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || obj.Exported() || !(global(obj) || isMember(obj)) {
			continue
		}
		from, to := layer(id.Pos()), layer(obj.Pos())
		if from == "test" || to == "test" || from == to {
			continue
		}
		if v, ok := obj.(*types.Var); ok && v.Embedded() {
			// An embedded field is named by its type.
			if n, ok := derefNamed(v.Type()); ok {
				need[n.Obj()] = from + " uses embedded " + to
			}
			continue
		}
		need[obj] = fmt.Sprintf("%s -> %s (%s)", from, to, filepath.Base(fset.Position(id.Pos()).Filename))
	}
	// Interfaces: a method of an interface and of each type implementing
	// it are one name; when they are in different layers, or one of them
	// is renamed, all are.
	var ifaces, concretes []*types.TypeName
	for _, obj := range info.Defs {
		tn, ok := obj.(*types.TypeName)
		if !ok || !global(tn) {
			continue
		}
		if types.IsInterface(tn.Type()) {
			ifaces = append(ifaces, tn)
		} else if _, ok := tn.Type().(*types.Named); ok {
			concretes = append(concretes, tn)
		}
	}
	sort.Slice(ifaces, func(i, j int) bool { return ifaces[i].Name() < ifaces[j].Name() })
	sort.Slice(concretes, func(i, j int) bool { return concretes[i].Name() < concretes[j].Name() })
	for changed := true; changed; {
		changed = false
		for _, it := range ifaces {
			iface := it.Type().Underlying().(*types.Interface)
			for _, ct := range concretes {
				var impl types.Type = ct.Type()
				if !types.Implements(impl, iface) {
					impl = types.NewPointer(ct.Type())
					if !types.Implements(impl, iface) {
						continue
					}
				}
				cross := layer(it.Pos()) != layer(ct.Pos())
				for i := 0; i < iface.NumMethods(); i++ {
					im := iface.Method(i)
					if im.Exported() {
						continue
					}
					cm, _, _ := types.LookupFieldOrMethod(impl, false, pkg, im.Name())
					if cm == nil || cm.Pkg() != pkg {
						continue
					}
					_, a := need[im]
					_, b := need[cm]
					if (cross || a || b) && !(a && b) {
						need[im], need[cm] = "interface "+it.Name()+" / "+ct.Name(), "implements "+it.Name()
						changed = true
					}
				}
			}
		}
	}
	newName := map[types.Object]string{}
	var problems []string
	for obj, why := range need {
		if v, ok := obj.(*types.Var); ok && frozen[v] {
			problems = append(problems, fmt.Sprintf("frozen field %s (%s)", key(obj), why))
			continue
		}
		n := manual[strings.TrimPrefix(key(obj), "field ")]
		if n == "" {
			r := []rune(obj.Name())
			r[0] = unicode.ToUpper(r[0])
			n = string(r)
		}
		newName[obj] = n
	}
	final := func(obj types.Object) string {
		if n, ok := newName[obj]; ok {
			return n
		}
		return obj.Name()
	}
	// Clashes among package-level names of one layer.
	byLayer := map[string]map[string][]types.Object{}
	for _, obj := range info.Defs {
		if obj == nil || !global(obj) || layer(obj.Pos()) == "test" {
			continue
		}
		l := layer(obj.Pos())
		if byLayer[l] == nil {
			byLayer[l] = map[string][]types.Object{}
		}
		byLayer[l][final(obj)] = append(byLayer[l][final(obj)], obj)
	}
	// Still one package until move.go: no two package-level names alike.
	all := map[string][]types.Object{}
	for _, m := range byLayer {
		for n, objs := range m {
			all[n] = append(all[n], objs...)
		}
	}
	for n, objs := range all {
		if len(objs) > 1 {
			problems = append(problems, fmt.Sprintf("clash in the package: %d objects named %s", len(objs), n))
		}
	}
	for l, m := range byLayer {
		for n, objs := range m {
			if len(objs) > 1 {
				problems = append(problems, fmt.Sprintf("clash in %s: %d objects named %s", l, len(objs), n))
			}
		}
	}
	// Clashes among the members a type reaches.
	for _, ct := range concretes {
		members := map[string]map[types.Object]int{}
		var visit func(t types.Type, depth int, seen map[*types.Named]bool)
		visit = func(t types.Type, depth int, seen map[*types.Named]bool) {
			n, ok := derefNamed(t)
			if ok {
				if n.Obj().Pkg() != pkg || seen[n] {
					return
				}
				seen[n] = true
				for i := 0; i < n.NumMethods(); i++ {
					m := n.Method(i)
					if members[final(m)] == nil {
						members[final(m)] = map[types.Object]int{}
					}
					members[final(m)][m] = depth
				}
			}
			var st *types.Struct
			if ok {
				st, _ = n.Underlying().(*types.Struct)
			}
			if st == nil {
				return
			}
			for i := 0; i < st.NumFields(); i++ {
				f := st.Field(i)
				name := final(f)
				if f.Embedded() {
					if en, ok := derefNamed(f.Type()); ok {
						name = final(en.Obj())
					}
				}
				if members[name] == nil {
					members[name] = map[types.Object]int{}
				}
				members[name][f] = depth
				if f.Embedded() {
					visit(f.Type(), depth+1, seen)
				}
			}
		}
		visit(ct.Type(), 0, map[*types.Named]bool{})
		for n, objs := range members {
			if len(objs) < 2 {
				continue
			}
			renamed := false
			var ks []string
			for o, d := range objs {
				if _, ok := newName[o]; ok {
					renamed = true
				}
				ks = append(ks, fmt.Sprintf("%s@%d", key(o), d))
			}
			if renamed {
				sort.Strings(ks)
				problems = append(problems, fmt.Sprintf("clash in %s: %s: %s", ct.Name(), n, strings.Join(ks, " ")))
			}
		}
	}
	// A method must be declared in its type's layer (its package, later).
	for id, obj := range info.Defs {
		f, ok := obj.(*types.Func)
		if !ok || layer(id.Pos()) == "test" {
			continue
		}
		if r := f.Type().(*types.Signature).Recv(); r != nil {
			if n, ok := derefNamed(r.Type()); ok && n.Obj().Pkg() == pkg && layer(n.Obj().Pos()) != layer(id.Pos()) {
				problems = append(problems, fmt.Sprintf("method %s.%s in a %s file (%s), its type in a %s one", n.Obj().Name(), f.Name(), layer(id.Pos()), filepath.Base(fset.Position(id.Pos()).Filename), layer(n.Obj().Pos())))
			}
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		fmt.Println("PROBLEM", p)
	}
	var list []string
	for obj, n := range newName {
		list = append(list, fmt.Sprintf("%s\t%s -> %s\t%s", layer(obj.Pos()), key(obj), n, need[obj]))
	}
	sort.Strings(list)
	if *dry {
		for _, l := range list {
			fmt.Println(l)
		}
	}
	fmt.Printf("# %d renames, %d problems\n", len(newName), len(problems))
	if *dry || (len(problems) > 0 && !*force) {
		return
	}
	// The edits: every definition and use of a renamed object, the
	// embedded fields named by a renamed type, and a doc comment's first
	// word when it is the old name.
	type edit struct {
		off, del int
		text     string
	}
	edits := map[string][]edit{}
	add := func(id *ast.Ident, text string) {
		p := fset.Position(id.Pos())
		edits[p.Filename] = append(edits[p.Filename], edit{p.Offset, len(id.Name), text})
	}
	for id, obj := range info.Defs {
		if obj == nil {
			continue
		}
		if n, ok := newName[obj]; ok {
			add(id, n)
		}
	}
	for id, obj := range info.Uses {
		if v, ok := obj.(*types.Var); ok && v.Embedded() && v.IsField() {
			if en, ok := derefNamed(v.Type()); ok {
				if n, ok := newName[en.Obj()]; ok && id.Name == v.Name() {
					add(id, n)
				}
			}
			continue
		}
		if n, ok := newName[obj]; ok {
			add(id, n)
		}
	}
	// A field made exported stays out of JSON: in a struct that has json
	// tags (encoding/json reads it), it gets json:"-" when it has no key.
	for _, f := range files {
		ast.Inspect(f, func(nd ast.Node) bool {
			st, ok := nd.(*ast.StructType)
			if !ok {
				return true
			}
			tagged := false
			for _, fl := range st.Fields.List {
				if fl.Tag != nil && strings.Contains(fl.Tag.Value, "json:") {
					tagged = true
				}
			}
			if !tagged {
				return true
			}
			for _, fl := range st.Fields.List {
				renamed := false
				for _, n := range fl.Names {
					if _, ok := newName[info.Defs[n]]; ok {
						renamed = true
					}
				}
				if !renamed {
					continue
				}
				switch {
				case fl.Tag == nil:
					p := fset.Position(fl.Type.End())
					edits[p.Filename] = append(edits[p.Filename], edit{p.Offset, 0, " `json:\"-\"`"})
				case !strings.Contains(fl.Tag.Value, "json:"):
					p := fset.Position(fl.Tag.End())
					edits[p.Filename] = append(edits[p.Filename], edit{p.Offset - 1, 0, ` json:"-"`})
				}
			}
			return true
		})
	}
	for _, f := range files {
		ast.Inspect(f, func(nd ast.Node) bool {
			var doc *ast.CommentGroup
			var names []*ast.Ident
			switch d := nd.(type) {
			case *ast.FuncDecl:
				doc, names = d.Doc, []*ast.Ident{d.Name}
			case *ast.TypeSpec:
				doc, names = d.Doc, []*ast.Ident{d.Name}
			case *ast.ValueSpec:
				doc, names = d.Doc, d.Names
			case *ast.Field:
				doc, names = d.Doc, d.Names
			case *ast.GenDecl:
				if len(d.Specs) == 1 {
					switch s := d.Specs[0].(type) {
					case *ast.TypeSpec:
						doc, names = d.Doc, []*ast.Ident{s.Name}
					case *ast.ValueSpec:
						doc, names = d.Doc, s.Names
					}
				}
			}
			if doc == nil || len(names) == 0 {
				return true
			}
			obj := info.Defs[names[0]]
			n, ok := newName[obj]
			if !ok {
				return true
			}
			c := doc.List[0]
			re := regexp.MustCompile(`^// (` + regexp.QuoteMeta(obj.Name()) + `)\b`)
			if loc := re.FindStringSubmatchIndex(c.Text); loc != nil {
				p := fset.Position(c.Pos())
				edits[p.Filename] = append(edits[p.Filename], edit{p.Offset + loc[2], loc[3] - loc[2], n})
			}
			return true
		})
	}
	for name, es := range edits {
		src, _ := os.ReadFile(name)
		sort.Slice(es, func(i, j int) bool { return es[i].off > es[j].off })
		last := -1
		for _, e := range es {
			if e.off == last {
				continue
			}
			last = e.off
			src = append(src[:e.off], append([]byte(e.text), src[e.off+e.del:]...)...)
		}
		if err := os.WriteFile(name, src, 0o644); err != nil {
			panic(err)
		}
	}
	fmt.Printf("# %d files edited\n", len(edits))
}

var fieldOwner = map[*types.Var]string{}

func derefNamed(t types.Type) (*types.Named, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return n, ok
}
