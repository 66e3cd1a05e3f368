package synapsefake_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocCommentsSaidOnce: a root declaration that forwards to a layer
// (a Server method to the console's, the wire's or the bank's method of
// that name) or stands again for a layer's (an alias, a constant spelled
// again, a function that forwards) is documented at the root, the public
// place; the layer's doc comment points there or says something else, and
// never repeats the root's opening sentence.
func TestDocCommentsSaidOnce(t *testing.T) {
	t.Parallel()
	root := docComments(t, ".")
	layers := map[string]map[string]string{}
	for _, dir := range []string{"internal/console", "internal/api", "internal/bank"} {
		layers[dir] = docComments(t, dir)
	}
	checked := 0
	for key, rootDoc := range root {
		var layerKeys []string
		if m, ok := strings.CutPrefix(key, "Server."); ok {
			// s.core.X: the console's method, else the wire's, else the bank's.
			layerKeys = []string{"internal/console Console." + m, "internal/api Wire." + m, "internal/bank Bank." + m}
		} else if !strings.Contains(key, ".") {
			layerKeys = []string{"internal/console " + key, "internal/api " + key, "internal/bank " + key}
		}
		for _, lk := range layerKeys {
			dir, name, _ := strings.Cut(lk, " ")
			layerDoc, ok := layers[dir][name]
			if !ok {
				continue
			}
			checked++
			if first := firstSentence(rootDoc); first != "" && strings.Contains(normalize(layerDoc), first) {
				t.Errorf("%s's doc comment in %s repeats the root's %q: document it once, at the root, and point there", name, dir, first)
			}
			break
		}
	}
	if checked < 100 {
		t.Errorf("compared %d declarations with their layer's, want more than 100: is the test finding them?", checked)
	}
}

// docComments are the doc comments of dir's exported declarations (not
// its tests'), by name: "X" for a package-level one, "T.M" for a method.
func docComments(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]string{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || d.Doc == nil {
					continue
				}
				key := d.Name.Name
				if d.Recv != nil {
					typ := d.Recv.List[0].Type
					if star, ok := typ.(*ast.StarExpr); ok {
						typ = star.X
					}
					id, ok := typ.(*ast.Ident)
					if !ok {
						continue
					}
					key = id.Name + "." + key
				}
				out[key] = d.Doc.Text()
			case *ast.GenDecl:
				for _, s := range d.Specs {
					var names []*ast.Ident
					var doc *ast.CommentGroup
					switch s := s.(type) {
					case *ast.TypeSpec:
						names, doc = []*ast.Ident{s.Name}, s.Doc
					case *ast.ValueSpec:
						names, doc = s.Names, s.Doc
					}
					if doc == nil && !d.Lparen.IsValid() {
						doc = d.Doc
					}
					for _, n := range names {
						if n.IsExported() && doc != nil {
							out[n.Name] = doc.Text()
						}
					}
				}
			}
		}
	}
	return out
}

// firstSentence is doc's opening sentence, spaces normalized, when it is
// long enough to say something ("" otherwise).
func firstSentence(doc string) string {
	s, _, _ := strings.Cut(normalize(doc), ". ")
	if len(s) < 30 {
		return ""
	}
	return s
}

func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }
