//go:build ignore

// Command movetests is issue 39's step 7 for the root's external tests
// (package synapsefake_test): it moves each test file to the package its
// -dest map names (internal/api, internal/console... as package X_test,
// importing the root), and the helpers that files of two destinations
// share into internal/testkit, exported. -n reports only.
//
//	go run notes/tools/movetests.go [-n] -keep a_test.go,... -dest console=a_test.go,b_test.go
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

const mod = "github.com/synapsefake/synapsefake"

func main() {
	dry := flag.Bool("n", false, "report only")
	keep := flag.String("keep", "", "files that stay at the root")
	other := flag.String("dest", "", "layer=file,file;layer=file... for files going elsewhere than api")
	flag.Parse()
	destOf := map[string]string{}
	for _, f := range strings.Split(*keep, ",") {
		destOf[f] = "root"
	}
	for _, part := range strings.Split(*other, ";") {
		if l, fs, ok := strings.Cut(part, "="); ok {
			for _, f := range strings.Split(fs, ",") {
				destOf[f] = l
			}
		}
	}
	fset := token.NewFileSet()
	paths, _ := filepath.Glob("*_test.go")
	var files []*ast.File
	srcs := map[string][]byte{}
	for _, p := range paths {
		src, _ := os.ReadFile(p)
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			panic(err)
		}
		if f.Name.Name != "synapsefake_test" {
			continue
		}
		files = append(files, f)
		srcs[p] = src
		if _, ok := destOf[p]; !ok {
			destOf[p] = "api"
		}
	}
	// The root package with its in-package test files (export_test.go's
	// methods are what the external tests see).
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil), Error: func(error) {}}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, _ := conf.Check(mod+"_test", fset, files, info)
	fileOf := func(pos token.Pos) string { return filepath.Base(fset.Position(pos).Filename) }
	isTestFunc := func(obj types.Object) bool {
		f, ok := obj.(*types.Func)
		if !ok || f.Type().(*types.Signature).Recv() != nil {
			return false
		}
		for _, p := range []string{"Test", "Benchmark", "Example", "Fuzz"} {
			if strings.HasPrefix(f.Name(), p) {
				return true
			}
		}
		return f.Name() == "TestMain"
	}
	// Package-level objects used from a destination other than their file's.
	shared := map[types.Object]bool{}
	users := map[types.Object]map[string]bool{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || obj.Parent() != pkg.Scope() {
			continue
		}
		from, to := destOf[fileOf(id.Pos())], destOf[fileOf(obj.Pos())]
		if users[obj] == nil {
			users[obj] = map[string]bool{}
		}
		users[obj][from] = true
		if from != to {
			shared[obj] = true
		}
	}
	// What a shared helper uses goes with it.
	declOf := map[types.Object]ast.Node{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declOf[info.Defs[d.Name]] = d
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declOf[info.Defs[s.Name]] = d
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declOf[info.Defs[n]] = d
						}
					}
				}
			}
		}
	}
	// Methods of a shared type move with it: a method declared elsewhere
	// than its type cannot.
	methodsOf := map[types.Object][]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			t := fd.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if id, ok := t.(*ast.Ident); ok {
				methodsOf[info.Uses[id]] = append(methodsOf[info.Uses[id]], fd)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for obj := range shared {
			d := declOf[obj]
			if d == nil {
				continue
			}
			nodes := []ast.Node{d}
			for _, m := range methodsOf[obj] {
				nodes = append(nodes, m)
			}
			for _, d := range nodes {
				ast.Inspect(d, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						if u := info.Uses[id]; u != nil && u.Pkg() == pkg && u.Parent() == pkg.Scope() && !shared[u] {
							shared[u] = true
							changed = true
						}
					}
					return true
				})
			}
		}
	}
	for obj := range shared {
		for _, m := range methodsOf[obj] {
			declOf[info.Defs[m.Name]] = m
		}
	}
	var problems []string
	var names []string
	for obj := range shared {
		if isTestFunc(obj) {
			problems = append(problems, "a test function is used elsewhere: "+obj.Name())
		}
		if fileOf(obj.Pos()) == "export_test.go" {
			problems = append(problems, "export_test.go's "+obj.Name()+" is used by a file that leaves the root")
		}
		var us []string
		for u := range users[obj] {
			us = append(us, u)
		}
		sort.Strings(us)
		names = append(names, fmt.Sprintf("%s (%s; used by %s)", obj.Name(), fileOf(obj.Pos()), strings.Join(us, ",")))
	}
	sort.Strings(names)
	// Uses of export_test.go's methods (MoveFrozenClock) from files that leave.
	for sel, s := range info.Selections {
		if s.Obj().Pkg() != nil && fileOf(s.Obj().Pos()) == "export_test.go" && destOf[fileOf(sel.Pos())] != "root" {
			problems = append(problems, fmt.Sprintf("%s uses export_test.go's %s", fileOf(sel.Pos()), s.Obj().Name()))
		}
	}
	for _, n := range names {
		fmt.Println("SHARED", n)
	}
	sort.Strings(problems)
	for _, p := range problems {
		fmt.Println("PROBLEM", p)
	}
	count := map[string]int{}
	for _, d := range destOf {
		count[d]++
	}
	fmt.Println("# files per destination:", count, "shared helpers:", len(shared))
	if *dry || len(problems) > 0 {
		return
	}
	exportName := func(n string) string {
		r := []rune(n)
		r[0] = unicode.ToUpper(r[0])
		return string(r)
	}
	newName := map[types.Object]string{}
	for obj := range shared {
		newName[obj] = exportName(obj.Name())
	}
	// The fields and methods of a shared type are exported too (the
	// helpers' callers read them from other packages).
	for obj := range shared {
		tn, ok := obj.(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if st, ok := named.Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				if f := st.Field(i); !f.Exported() && !f.Embedded() {
					n := exportName(f.Name())
					if o, _, _ := types.LookupFieldOrMethod(named, true, pkg, n); o != nil && o != f {
						n += "s" // Fatal, a method of the embedded testing.TB: Fatals
						fmt.Println("RENAMED", tn.Name()+"."+f.Name(), "to", n)
					}
					newName[f] = n
				}
			}
		}
		for i := 0; i < named.NumMethods(); i++ {
			if m := named.Method(i); !m.Exported() {
				newName[m] = exportName(m.Name())
			}
		}
	}
	// An embedded field is named by its type.
	for obj, n := range newName {
		if _, ok := obj.(*types.TypeName); !ok {
			continue
		}
		for _, o := range info.Uses {
			if v, ok := o.(*types.Var); ok && v.Embedded() {
				t := v.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if nt, ok := t.(*types.Named); ok && nt.Obj() == obj {
					newName[v] = n
				}
			}
		}
	}
	type edit struct {
		off, del int
		text     string
	}
	edits := map[string][]edit{}
	add := func(pos token.Pos, del int, text string) {
		p := fset.Position(pos)
		edits[p.Filename] = append(edits[p.Filename], edit{p.Offset, del, text})
	}
	for id, obj := range info.Uses {
		if o, ok := obj.(*types.Func); ok {
			obj = o.Origin()
		}
		if o, ok := obj.(*types.Var); ok {
			obj = o.Origin()
		}
		if n, ok := newName[obj]; ok {
			if obj.Parent() == pkg.Scope() {
				add(id.Pos(), len(id.Name), "testkit."+n)
			} else {
				add(id.Pos(), len(id.Name), n)
			}
		}
	}
	// testkit.go gets the shared declarations, in file order.
	var kit bytes.Buffer
	kit.WriteString("// Package testkit holds the helpers the fake's tests share across packages.\npackage testkit\n\n")
	moved := map[ast.Node]bool{}
	for _, f := range files {
		src := srcs[fset.Position(f.Package).Filename]
		for _, d := range f.Decls {
			take := false
			for obj, n := range declOf {
				if n == d && shared[obj] {
					take = true
				}
				if fd, ok := n.(*ast.FuncDecl); ok && fd == d && fd.Recv != nil {
					take = true
				}
			}
			if !take || moved[d] {
				continue
			}
			moved[d] = true
			start := d.Pos()
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Doc != nil {
					start = d.Doc.Pos()
				}
			case *ast.GenDecl:
				if d.Doc != nil {
					start = d.Doc.Pos()
				}
			}
			a, b := fset.Position(start).Offset, fset.Position(d.End()).Offset
			text := []byte(string(src[a:b]))
			// Rename inside the moved text: definitions and uses of shared names.
			var es []edit
			ast.Inspect(d, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				obj := info.Defs[id]
				if _, ok := newName[obj]; !ok {
					obj = info.Uses[id]
				}
				if nn, ok := newName[obj]; ok {
					es = append(es, edit{fset.Position(id.Pos()).Offset - a, len(id.Name), nn})
				}
				return true
			})
			var doc *ast.CommentGroup
			var named *ast.Ident
			switch d := d.(type) {
			case *ast.FuncDecl:
				doc, named = d.Doc, d.Name
			case *ast.GenDecl:
				doc = d.Doc
				if len(d.Specs) == 1 {
					switch s := d.Specs[0].(type) {
					case *ast.TypeSpec:
						named = s.Name
					case *ast.ValueSpec:
						named = s.Names[0]
					}
				}
			}
			if doc != nil && named != nil {
				if nn, ok := newName[info.Defs[named]]; ok && strings.HasPrefix(doc.List[0].Text, "// "+named.Name+" ") {
					es = append(es, edit{fset.Position(doc.List[0].Pos()).Offset - a + 3, len(named.Name), nn})
				}
			}
			sort.Slice(es, func(i, j int) bool { return es[i].off > es[j].off })
			for _, e := range es {
				text = append(text[:e.off:e.off], append([]byte(e.text), text[e.off+e.del:]...)...)
			}
			kit.Write(text)
			kit.WriteString("\n\n")
			// Remove it from its file (uses inside it were added as edits:
			// drop those).
			full := fset.Position(d.Pos()).Filename
			var kept []edit
			for _, e := range edits[full] {
				if e.off < a || e.off >= b {
					kept = append(kept, e)
				}
			}
			edits[full] = append(kept, edit{a, b - a, ""})
		}
	}
	os.MkdirAll("internal/testkit", 0o755)
	os.WriteFile("internal/testkit/testkit.go", relink(kit.Bytes()), 0o644)
	var written []string
	for _, f := range files {
		name := fileOf(f.Package)
		full := fset.Position(f.Package).Filename
		src := append([]byte(nil), srcs[full]...)
		es := edits[full]
		d := destOf[name]
		if d != "root" {
			p := fset.Position(f.Name.Pos())
			es = append(es, edit{p.Offset, len(f.Name.Name), d + "_test"})
		}
		sort.Slice(es, func(i, j int) bool { return es[i].off > es[j].off })
		for _, e := range es {
			src = append(src[:e.off:e.off], append([]byte(e.text), src[e.off+e.del:]...)...)
		}
		if d != "root" {
			src = relink(src)
		}
		if bytes.Contains(src, []byte("testkit.")) {
			src = bytes.Replace(src, []byte("\nimport ("), []byte("\nimport (\n\t\""+mod+"/internal/testkit\""), 1)
			if !bytes.Contains(src, []byte("internal/testkit\"")) {
				i := bytes.Index(src, []byte("\npackage "))
				j := i + 1 + bytes.IndexByte(src[i+1:], '\n') + 1
				src = append(src[:j:j], append([]byte("\nimport \""+mod+"/internal/testkit\"\n"), src[j:]...)...)
			}
		}
		dst := name
		if d != "root" {
			dst = filepath.Join("internal", d, name)
			if err := exec.Command("git", "mv", name, dst).Run(); err != nil {
				panic(err)
			}
		}
		if b, err := format.Source(src); err == nil {
			src = b
		}
		os.WriteFile(dst, src, 0o644)
		written = append(written, dst)
	}
	cmd := exec.Command("/root/go/bin/goimports", append([]string{"-w", "internal/testkit/testkit.go"}, written...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Run()
	fmt.Println("# moved")
}

// relink rewrites the string literals that name a path below the
// repository's root, for a file two directories below it.
func relink(src []byte) []byte {
	for _, p := range []string{"testdata/", "docs/", "README.md", "../shared", "scripts/", "compat/", "clients/", "cmd/", "go.mod", "ARCHITECTURE.md", "CHANGELOG.md", "internal/", "notes/", "reference/", "scenarios/"} {
		src = bytes.ReplaceAll(src, []byte("\""+p), []byte("\"../../"+p))
		src = bytes.ReplaceAll(src, []byte("`"+p), []byte("`../../"+p))
	}
	return src
}
