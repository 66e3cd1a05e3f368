//go:build ignore

// Command xref lists the root package's upward uses (issue 39): every use,
// in a non-test file, of a package-level object, field or method declared
// in a file of a higher layer (bank < api < console < root). A file's layer
// is its prefix (bank_, api_, console_, root_), else classify.go's
// fileLayer default. Run from the repository's root:
//
//	go run notes/tools/xref.go [-v]
//	go run notes/tools/xref.go -door [-v]
//
// It prints one line per (from-layer, to-layer, identifier) with the count
// of uses and, with -v, where. With -door it counts instead, per layer
// above the bank, the uses that go through the bank's door (step 4b):
// fields and methods of store, and unexported fields of any other type
// declared in a bank file (the records, events, deliveries...).
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
	"sort"
	"strings"
)

var rank = map[string]int{"leaf": 0, "bank": 1, "api": 2, "console": 3, "root": 4}

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
	for _, l := range []string{"bank", "api", "console", "root"} {
		if strings.HasPrefix(file, l+"_") {
			return l
		}
	}
	if l, ok := fileLayer[file]; ok {
		return l
	}
	return "?"
}

func main() {
	verbose := flag.Bool("v", false, "print where each use is")
	door := flag.Bool("door", false, "count the uses of the store's and the bank types' internals above the bank")
	flag.Parse()
	fset := token.NewFileSet()
	paths, _ := filepath.Glob("*.go")
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if f.Name.Name == "main" { // build-ignored tools
			continue
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := conf.Check("github.com/synapsefake/synapsefake", fset, files, info)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *door {
		doorCounts(fset, pkg, info, *verbose)
		return
	}
	type key struct{ from, to, name string }
	count := map[key]int{}
	where := map[key][]string{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		if v, ok := obj.(*types.Var); ok && !v.IsField() && obj.Parent() != pkg.Scope() {
			continue // a local
		}
		if _, ok := obj.(*types.Func); !ok {
			if _, ok := obj.(*types.Var); !ok && obj.Parent() != pkg.Scope() {
				continue
			}
		}
		use := fset.Position(id.Pos())
		decl := fset.Position(obj.Pos())
		from, to := layerOf(filepath.Base(use.Filename)), layerOf(filepath.Base(decl.Filename))
		if rank[from] >= rank[to] {
			continue
		}
		name := obj.Name()
		if f, ok := obj.(*types.Func); ok {
			if r := f.Type().(*types.Signature).Recv(); r != nil {
				name = strings.TrimPrefix(types.TypeString(r.Type(), types.RelativeTo(pkg)), "*") + "." + name
			}
		} else if v, ok := obj.(*types.Var); ok && v.IsField() {
			name = "field " + name
		}
		k := key{from, to, name}
		count[k]++
		where[k] = append(where[k], fmt.Sprintf("%s:%d", filepath.Base(use.Filename), use.Line))
	}
	keys := make([]key, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.from != b.from {
			return rank[a.from] < rank[b.from]
		}
		if a.to != b.to {
			return rank[a.to] < rank[b.to]
		}
		return a.name < b.name
	})
	total := map[[2]string]int{}
	for _, k := range keys {
		total[[2]string{k.from, k.to}] += count[k]
		line := fmt.Sprintf("%s -> %s\t%s\t%d", k.from, k.to, k.name, count[k])
		if *verbose {
			sort.Strings(where[k])
			line += "\t" + strings.Join(where[k], " ")
		}
		fmt.Println(line)
	}
	for _, p := range [][2]string{{"bank", "api"}, {"bank", "console"}, {"bank", "root"}, {"api", "console"}, {"api", "root"}, {"console", "root"}} {
		fmt.Printf("# %s -> %s: %d uses\n", p[0], p[1], total[p])
	}
}

// doorCounts prints, per layer above the bank, the uses of store's fields
// and methods and of the unexported fields of the other types declared in
// bank files.
func doorCounts(fset *token.FileSet, pkg *types.Package, info *types.Info, verbose bool) {
	type key struct{ layer, kind string }
	count := map[key]int{}
	names := map[key]map[string]int{}
	add := func(layer, kind, name string) {
		k := key{layer, kind}
		count[k]++
		if names[k] == nil {
			names[k] = map[string]int{}
		}
		names[k][name]++
	}
	for sel, s := range info.Selections {
		obj := s.Obj()
		if obj.Pkg() != pkg {
			continue
		}
		from := layerOf(filepath.Base(fset.Position(sel.Pos()).Filename))
		if from == "bank" || from == "?" {
			continue
		}
		recv := s.Recv()
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
		}
		named, ok := recv.(*types.Named)
		if !ok {
			continue
		}
		tn := named.Obj()
		if layerOf(filepath.Base(fset.Position(tn.Pos()).Filename)) != "bank" {
			continue
		}
		// The field or method must itself be declared in a bank file (not
		// promoted from an embedded type of another layer).
		if layerOf(filepath.Base(fset.Position(obj.Pos()).Filename)) != "bank" {
			continue
		}
		switch {
		case tn.Name() == "store" && s.Kind() == types.FieldVal:
			add(from, "store fields", obj.Name())
		case tn.Name() == "store":
			add(from, "store methods", obj.Name())
		case s.Kind() == types.FieldVal && !obj.Exported():
			add(from, "other bank types' unexported fields", tn.Name()+"."+obj.Name())
		}
	}
	for _, l := range []string{"api", "console", "root"} {
		for _, kind := range []string{"store fields", "store methods", "other bank types' unexported fields"} {
			k := key{l, kind}
			line := fmt.Sprintf("%s\t%s\t%d uses (%d names)", l, kind, count[k], len(names[k]))
			if verbose && len(names[k]) > 0 {
				var ns []string
				for n, c := range names[k] {
					ns = append(ns, fmt.Sprintf("%s %d", n, c))
				}
				sort.Strings(ns)
				line += "\t" + strings.Join(ns, ", ")
			}
			fmt.Println(line)
		}
	}
}
