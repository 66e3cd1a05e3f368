//go:build ignore

// rename rewrites, by type and not by text, every use and declaration of
// package-level objects, fields and methods of one package (its code and
// its in-package test files; an external _test package cannot name them).
// It was written for issue 39 (notes/issue-39-plan.md), where gofmt -r
// cannot tell a field "status" of one type from another's, and gopls is not
// at hand.
//
//	go run notes/tools/rename.go [-dir .] [-skip a.go,b.go] [-n] old=new ...
//
// old is Name (a package-level object) or Type.member (a field or a
// method, also an interface's); new is the text put in its place, so it
// may qualify: apiError=apierr.Error, apiError.status=Status. -n prints
// the counts per file without writing. Files named in -skip are left as
// they are (the file a declaration moves out of). Run goimports on the
// files it changed afterwards, for the imports.
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

func main() {
	dir := flag.String("dir", ".", "package dir")
	skip := flag.String("skip", "", "files not to edit")
	dry := flag.Bool("n", false, "dry run")
	flag.Parse()
	skipped := map[string]bool{}
	for _, s := range strings.Split(*skip, ",") {
		if s != "" {
			skipped[s] = true
		}
	}
	fset := token.NewFileSet()
	paths, _ := filepath.Glob(filepath.Join(*dir, "*.go"))
	var files []*ast.File
	var pkgName string
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			panic(err)
		}
		if strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		pkgName = f.Name.Name
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil), Error: func(err error) { fmt.Fprintln(os.Stderr, err) }}
	pkg, err := conf.Check(pkgName, fset, files, info)
	if err != nil {
		fmt.Fprintln(os.Stderr, "type errors; stopping")
		os.Exit(1)
	}
	targets := map[types.Object]string{}
	for _, arg := range flag.Args() {
		old, nw, ok := strings.Cut(arg, "=")
		if !ok {
			panic(arg)
		}
		var obj types.Object
		if t, m, ok := strings.Cut(old, "."); ok {
			tn := pkg.Scope().Lookup(t)
			if tn == nil {
				panic("no type " + t)
			}
			obj, _, _ = types.LookupFieldOrMethod(tn.Type(), true, pkg, m)
		} else {
			obj = pkg.Scope().Lookup(old)
		}
		if obj == nil {
			panic("no object " + old)
		}
		targets[obj] = nw
	}
	type edit struct {
		off, end int
		text     string
	}
	edits := map[string][]edit{}
	counts := map[string]int{}
	add := func(id *ast.Ident, obj types.Object) {
		nw, ok := targets[obj]
		if !ok {
			return
		}
		pos := fset.Position(id.Pos())
		if skipped[filepath.Base(pos.Filename)] {
			return
		}
		edits[pos.Filename] = append(edits[pos.Filename], edit{pos.Offset, pos.Offset + len(id.Name), nw})
		counts[filepath.Base(pos.Filename)]++
	}
	for id, obj := range info.Uses {
		add(id, obj)
	}
	for id, obj := range info.Defs {
		if obj != nil {
			add(id, obj)
		}
	}
	total := 0
	names := []string{}
	for f, n := range counts {
		names = append(names, f)
		total += n
	}
	sort.Strings(names)
	for _, f := range names {
		fmt.Printf("%s %d\n", f, counts[f])
	}
	fmt.Printf("total %d\n", total)
	if *dry {
		return
	}
	for f, es := range edits {
		src, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		sort.Slice(es, func(i, j int) bool { return es[i].off > es[j].off })
		for _, e := range es {
			src = append(src[:e.off:e.off], append([]byte(e.text), src[e.end:]...)...)
		}
		if err := os.WriteFile(f, src, 0o644); err != nil {
			panic(err)
		}
	}
}
