//go:build ignore

// Command deembed turns Server's embedded consoleCore into a named field
// core (issue 39, before Phase B): every selector that reached a field or
// method through the embedding gets ".core", and each exported method that
// Server had through it gets a root wrapper with the same signature and doc
// comment (written to root_methods.go), so Server's method set and go doc
// stay as they were, while the layers' own methods, once exported in their
// packages, no longer join Server's.
//
//	go run notes/tools/deembed.go
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type edit struct {
	off  int
	del  int
	text string
}

func main() {
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
	server := pkg.Scope().Lookup("Server").(*types.TypeName).Type().(*types.Named)
	st := server.Underlying().(*types.Struct)
	embed := -1
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == "consoleCore" {
			embed = i
		}
	}
	edits := map[string][]edit{}
	add := func(pos token.Pos, del int, text string) {
		p := fset.Position(pos)
		edits[p.Filename] = append(edits[p.Filename], edit{p.Offset, del, text})
	}
	for sel, s := range info.Selections {
		r := s.Recv()
		if p, ok := r.(*types.Pointer); ok {
			r = p.Elem()
		}
		if r != server || s.Index()[0] != embed {
			continue
		}
		if len(s.Index()) == 1 {
			add(sel.Sel.Pos(), len("consoleCore"), "core")
		} else {
			add(sel.Sel.Pos(), 0, "core.")
		}
	}
	// The field itself, and composite literals keyed by it.
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == "Server" {
				for _, fl := range ts.Type.(*ast.StructType).Fields.List {
					if len(fl.Names) == 0 {
						if id, ok := fl.Type.(*ast.Ident); ok && id.Name == "consoleCore" {
							add(id.Pos(), 0, "core ")
						}
					}
				}
			}
			return true
		})
	}
	// Wrappers for the exported methods Server had through the embedding.
	ms := types.NewMethodSet(types.NewPointer(server))
	var out bytes.Buffer
	out.WriteString("package synapsefake\n\n")
	decls := map[token.Pos]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				decls[fd.Name.Pos()] = fd
			}
		}
	}
	var names []string
	for i := 0; i < ms.Len(); i++ {
		s := ms.At(i)
		if !s.Obj().Exported() || len(s.Index()) == 1 {
			continue
		}
		names = append(names, s.Obj().Name())
	}
	sort.Strings(names)
	for _, n := range names {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(server), true, pkg, n)
		fd := decls[obj.Pos()]
		if fd == nil {
			panic("no decl for " + n)
		}
		src, _ := os.ReadFile(fset.Position(fd.Pos()).Filename)
		text := func(n ast.Node) string {
			return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
		}
		if fd.Doc != nil {
			out.WriteString(text(fd.Doc) + "\n")
		}
		var args []string
		params := text(fd.Type.Params)
		for _, p := range fd.Type.Params.List {
			for _, nm := range p.Names {
				a := nm.Name
				if _, ok := p.Type.(*ast.Ellipsis); ok {
					a += "..."
				}
				args = append(args, a)
			}
			if len(p.Names) == 0 {
				panic("unnamed parameter in " + n)
			}
		}
		if fd.Type.TypeParams != nil {
			panic("generic " + n)
		}
		res := ""
		if fd.Type.Results != nil {
			res = " " + text(fd.Type.Results)
		}
		call := fmt.Sprintf("s.core.%s(%s)", n, strings.Join(args, ", "))
		if fd.Type.Results != nil {
			call = "return " + call
		}
		fmt.Fprintf(&out, "func (s *Server) %s%s%s {\n\t%s\n}\n\n", n, params, res, call)
	}
	for name, es := range edits {
		src, _ := os.ReadFile(name)
		sort.Slice(es, func(i, j int) bool { return es[i].off > es[j].off })
		for _, e := range es {
			src = append(src[:e.off], append([]byte(e.text), src[e.off+e.del:]...)...)
		}
		if err := os.WriteFile(name, src, 0o644); err != nil {
			panic(err)
		}
	}
	b, err := format.Source(out.Bytes())
	if err != nil {
		os.WriteFile("root_methods.go", out.Bytes(), 0o644)
		panic(err)
	}
	os.WriteFile("root_methods.go", b, 0o644)
	fmt.Println(len(names), "wrappers;", len(edits), "files edited")
}
