//go:build ignore

// Command literalconsts rewrites exports.go's constants `X = bank.X` to the
// layer's own spelling (`X Status = "CREATED"`), so that go doc shows the
// root's constants as before the move, and writes the test that each still
// equals its layer's twin (consts_golden_test.go... appended to
// api_golden_test.go). A value that names something of its package stays a
// reference.
//
//	go run notes/tools/literalconsts.go
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	fset := token.NewFileSet()
	spell := map[string]string{} // pkg.Name -> "Name Type = value" text
	for _, pkg := range []string{"bank", "api", "console"} {
		paths, _ := filepath.Glob(filepath.Join("internal", pkg, "*.go"))
		for _, p := range paths {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			src, _ := os.ReadFile(p)
			f, err := parser.ParseFile(fset, p, src, 0)
			if err != nil {
				panic(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					if len(vs.Names) != 1 || len(vs.Values) != 1 {
						continue
					}
					local := false
					ast.Inspect(vs.Values[0], func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok && id.Name != "true" && id.Name != "false" {
							local = true // names something of the package (or iota)
						}
						if _, ok := n.(*ast.SelectorExpr); ok {
							return false // time.Second and the like
						}
						return true
					})
					if local {
						continue
					}
					text := vs.Names[0].Name
					if vs.Type != nil {
						text += " " + string(src[fset.Position(vs.Type.Pos()).Offset:fset.Position(vs.Type.End()).Offset])
					}
					text += " = " + string(src[fset.Position(vs.Values[0].Pos()).Offset:fset.Position(vs.Values[0].End()).Offset])
					spell[pkg+"."+vs.Names[0].Name] = text
				}
			}
		}
	}
	src, _ := os.ReadFile("exports.go")
	f, err := parser.ParseFile(fset, "exports.go", src, parser.ParseComments)
	if err != nil {
		panic(err)
	}
	type edit struct {
		a, b int
		text string
	}
	var edits []edit
	var pairs []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Names) != 1 || len(vs.Values) != 1 {
				continue
			}
			sel, ok := vs.Values[0].(*ast.SelectorExpr)
			if !ok {
				continue
			}
			ref := sel.X.(*ast.Ident).Name + "." + sel.Sel.Name
			pairs = append(pairs, fmt.Sprintf("\t\t{%q, synapsefake.%s, %s},", vs.Names[0].Name, vs.Names[0].Name, ref))
			if t, ok := spell[ref]; ok {
				edits = append(edits, edit{fset.Position(vs.Names[0].Pos()).Offset, fset.Position(vs.Values[0].End()).Offset, t})
			}
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].a > edits[j].a })
	for _, e := range edits {
		src = append(src[:e.a:e.a], append([]byte(e.text), src[e.b:]...)...)
	}
	os.WriteFile("exports.go", src, 0o644)
	var t bytes.Buffer
	t.WriteString(`
// TestConstantsMatchTheLayers: the root spells its constants as they were
// before the layers (exports.go, for go doc); each must still equal the
// one its layer uses.
func TestConstantsMatchTheLayers(t *testing.T) {
	for _, c := range []struct {
		name        string
		root, layer any
	}{
`)
	t.WriteString(strings.Join(pairs, "\n"))
	t.WriteString(`
	} {
		if c.root != c.layer {
			t.Errorf("%s is %v at the root and %v in its layer", c.name, c.root, c.layer)
		}
	}
}
`)
	g, _ := os.ReadFile("api_golden_test.go")
	os.WriteFile("api_golden_test.go", append(g, t.Bytes()...), 0o644)
	fmt.Println(len(edits), "constants spelled,", len(pairs), "checked")
}
