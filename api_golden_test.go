package synapsefake_test

import (
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var updateAPI = flag.Bool("update-api", false, "rewrite testdata/api.golden from the package's exported API")

// apiModulePath is the module whose named types the API dump prints by their
// bare name, wherever in the module they are declared.
const apiModulePath = "github.com/synapsefake/synapsefake"

// TestPublicAPI guards the root package's exported API: every exported
// const (type and value), var (type), func (signature) and type (its full
// underlying type: exported struct fields with their tags, the promoted
// fields of embedded structs, interface methods; the exported method sets of
// T and *T; whether T is comparable). It type-checks the package's non-test
// files from source, its imports from export data, and compares the dump
// with testdata/api.golden.
//
// The dump resolves aliases and prints the module's named types by their bare
// name (standard-library and other modules' types by their import path), so
// moving a type into an internal package and leaving `type X = pkg.X` at the
// root prints the same text (issue 39): only a real API change fails the
// test.
//
// After an intended API change, rewrite the golden file and review its diff:
//
//	go test -run TestPublicAPI -update-api .
func TestPublicAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the package from source (about 1 s); skipped under -short")
	}
	start := time.Now()
	pkg, _, err := apiLoadRoot()
	if err != nil {
		t.Fatalf("type-check %s: %v", apiModulePath, err)
	}
	got := apiDumpOf(pkg)
	t.Logf("type-checked and dumped in %v", time.Since(start).Round(time.Millisecond))

	golden := filepath.Join("testdata", "api.golden")
	if *updateAPI {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with: go test -run TestPublicAPI -update-api .)", err)
	}
	if got != string(want) {
		diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n"))
		t.Errorf("the exported API differs from %s (-golden +now):\n%s\n"+
			"If the change is intended, rewrite the golden file with\n"+
			"\tgo test -run TestPublicAPI -update-api .\nand review its diff.", golden, diff)
	}
}

// apiLoadRoot type-checks the package in the working directory (the module
// root) from its non-test source files, as go/build selects them, with its
// imports read from the export data `go list -export` gives (the build cache
// holds it, so this does not type-check the standard library from source).
func apiLoadRoot() (*types.Package, *token.FileSet, error) {
	bp, err := build.ImportDir(".", 0)
	if err != nil {
		return nil, nil, err
	}
	if len(bp.CgoFiles) > 0 {
		return nil, nil, fmt.Errorf("cgo files %v: apiLoadRoot does not handle them", bp.CgoFiles)
	}
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, bp.Imports...)
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list -export: %v", err)
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "\t")
		exports[path] = file
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		file := exports[path]
		if file == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(file)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	pkg, err := conf.Check(apiModulePath, fset, files, nil)
	return pkg, fset, err
}

// apiDumpOf writes one block per exported package-level object of pkg,
// sorted by name.
func apiDumpOf(pkg *types.Package) string {
	var b strings.Builder
	p := &apiPrinter{}
	scope := pkg.Scope()
	for _, name := range scope.Names() { // sorted
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			fmt.Fprintf(&b, "const %s %s = %s\n", name, p.typ(obj.Type()), obj.Val().ExactString())
		case *types.Var:
			fmt.Fprintf(&b, "var %s %s\n", name, p.typ(obj.Type()))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			fmt.Fprintf(&b, "func %s%s%s\n", name, p.typeParams(sig.TypeParams()), p.signature(sig))
		case *types.TypeName:
			p.typeDecl(&b, name, obj)
		default:
			fmt.Fprintf(&b, "%T %s\n", obj, name)
		}
	}
	return b.String()
}

type apiPrinter struct{}

// typeDecl prints type name, the underlying type of what it names (an alias
// resolved), then the exported methods of T and of *T.
func (p *apiPrinter) typeDecl(b *strings.Builder, name string, obj *types.TypeName) {
	t := types.Unalias(obj.Type())
	named, _ := t.(*types.Named)
	if named == nil {
		// An alias for an unnamed type (type F = func()): it is that type.
		fmt.Fprintf(b, "type %s = %s\n", name, p.typ(t))
		return
	}
	fmt.Fprintf(b, "type %s%s ", name, p.typeParams(named.TypeParams()))
	p.underlying(b, named.Underlying(), "")
	if !types.IsInterface(named) && !types.Comparable(named) {
		b.WriteString(" // not comparable")
	}
	b.WriteString("\n")
	for _, recv := range []types.Type{named, types.NewPointer(named)} {
		recvName := name
		if _, ok := recv.(*types.Pointer); ok {
			recvName = "*" + name
		}
		ms := types.NewMethodSet(recv)
		var lines []string
		for i := range ms.Len() {
			sel := ms.At(i)
			if !sel.Obj().Exported() {
				continue
			}
			sig := sel.Type().(*types.Signature)
			lines = append(lines, fmt.Sprintf("\tmethod (%s) %s%s\n", recvName, sel.Obj().Name(), p.signature(sig)))
		}
		slices.Sort(lines)
		for _, l := range lines {
			b.WriteString(l)
		}
	}
}

// underlying prints a type definition's underlying type: structs and
// interfaces one member a line, the rest as typ does.
func (p *apiPrinter) underlying(b *strings.Builder, u types.Type, indent string) {
	switch u := u.(type) {
	case *types.Struct:
		b.WriteString("struct {\n")
		p.fields(b, u, indent+"\t", 0)
		b.WriteString(indent + "}")
	case *types.Interface:
		b.WriteString("interface {\n")
		for i := range u.NumEmbeddeds() { // a constraint's terms; embedded interfaces' methods are below
			if e := u.EmbeddedType(i); !types.IsInterface(e) {
				fmt.Fprintf(b, "%s\t%s\n", indent, p.typ(e))
			}
		}
		for i := range u.NumMethods() { // sorted, embedded interfaces' methods included
			m := u.Method(i)
			if m.Exported() {
				fmt.Fprintf(b, "%s\t%s%s\n", indent, m.Name(), p.signature(m.Type().(*types.Signature)))
			} else {
				fmt.Fprintf(b, "%s\t%s (unexported method)\n", indent, m.Name())
			}
		}
		b.WriteString(indent + "}")
	default:
		b.WriteString(p.typ(u))
	}
}

// fields prints a struct's exported fields with their tags and a count of
// its unexported ones. An embedded struct's fields follow its line, indented
// one more level: they are promoted, so its exported ones are API even when
// the embedded type is not exported.
func (p *apiPrinter) fields(b *strings.Builder, s *types.Struct, indent string, depth int) {
	unexported := 0
	for i := range s.NumFields() {
		f := s.Field(i)
		if !f.Exported() && (!f.Embedded() || !promotesExported(f.Type(), depth)) {
			// An embedded struct of an unexported type that promotes no
			// exported field (Server's layers, issue 39) is one more
			// unexported field: its name cannot be written outside.
			unexported++
			continue
		}
		line := indent
		if f.Embedded() {
			line += "embedded " + p.typ(f.Type())
		} else {
			line += f.Name() + " " + p.typ(f.Type())
		}
		if tag := s.Tag(i); tag != "" {
			line += " " + fmt.Sprintf("%q", tag)
		}
		b.WriteString(line + "\n")
		if f.Embedded() && depth < 8 {
			et := types.Unalias(f.Type())
			if ptr, ok := et.(*types.Pointer); ok {
				et = types.Unalias(ptr.Elem())
			}
			if es, ok := et.Underlying().(*types.Struct); ok {
				p.fields(b, es, indent+"\t", depth+1)
			}
		}
	}
	if unexported > 0 {
		// Not how many: an added unexported field is not an API change, but
		// that a struct has them is (a literal must then name its fields).
		fmt.Fprintf(b, "%s// has unexported fields\n", indent)
	}
}

// promotesExported reports whether an embedded field of type t promotes an
// exported field, at any depth.
func promotesExported(t types.Type, depth int) bool {
	t = types.Unalias(t)
	if ptr, ok := t.(*types.Pointer); ok {
		t = types.Unalias(ptr.Elem())
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok || depth >= 8 {
		return false
	}
	for i := range s.NumFields() {
		if f := s.Field(i); f.Exported() || f.Embedded() && promotesExported(f.Type(), depth+1) {
			return true
		}
	}
	return false
}

// typ prints t on one line with every alias resolved, the module's named
// types by their bare name and other named types qualified by their package
// path.
func (p *apiPrinter) typ(t types.Type) string {
	switch t := t.(type) {
	case *types.Alias:
		return p.typ(types.Unalias(t))
	case *types.Basic:
		return t.Name() // "untyped int" for an untyped constant
	case *types.Named:
		obj := t.Obj()
		name := obj.Name()
		if pkg := obj.Pkg(); pkg != nil && pkg.Path() != apiModulePath && !strings.HasPrefix(pkg.Path(), apiModulePath+"/") {
			name = pkg.Path() + "." + name
		}
		if args := t.TypeArgs(); args.Len() > 0 {
			var as []string
			for i := range args.Len() {
				as = append(as, p.typ(args.At(i)))
			}
			name += "[" + strings.Join(as, ", ") + "]"
		}
		return name
	case *types.TypeParam:
		return t.Obj().Name()
	case *types.Pointer:
		return "*" + p.typ(t.Elem())
	case *types.Slice:
		return "[]" + p.typ(t.Elem())
	case *types.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), p.typ(t.Elem()))
	case *types.Map:
		return "map[" + p.typ(t.Key()) + "]" + p.typ(t.Elem())
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			return "chan<- " + p.typ(t.Elem())
		case types.RecvOnly:
			return "<-chan " + p.typ(t.Elem())
		}
		return "chan " + p.typ(t.Elem())
	case *types.Signature:
		return "func" + p.signature(t)
	case *types.Struct:
		var fs []string
		for i := range t.NumFields() {
			f := t.Field(i)
			s := f.Name() + " " + p.typ(f.Type())
			if f.Embedded() {
				s = "embedded " + p.typ(f.Type())
			}
			if tag := t.Tag(i); tag != "" {
				s += " " + fmt.Sprintf("%q", tag)
			}
			fs = append(fs, s)
		}
		return "struct{" + strings.Join(fs, "; ") + "}"
	case *types.Interface:
		var ms []string
		for i := range t.NumEmbeddeds() {
			ms = append(ms, p.typ(t.EmbeddedType(i)))
		}
		for i := range t.NumMethods() {
			m := t.Method(i)
			ms = append(ms, m.Name()+p.signature(m.Type().(*types.Signature)))
		}
		return "interface{" + strings.Join(ms, "; ") + "}"
	case *types.Union:
		var ts []string
		for i := range t.Len() {
			term := t.Term(i)
			s := p.typ(term.Type())
			if term.Tilde() {
				s = "~" + s
			}
			ts = append(ts, s)
		}
		return strings.Join(ts, " | ")
	case *types.Tuple:
		return p.tuple(t, false)
	}
	panic(fmt.Sprintf("apiPrinter: unexpected type %T %v", t, t))
}

// signature prints a func's parameter and result types, without their
// names (renaming a parameter does not change the API).
func (p *apiPrinter) signature(sig *types.Signature) string {
	s := p.tuple(sig.Params(), sig.Variadic())
	switch res := sig.Results(); res.Len() {
	case 0:
	case 1:
		s += " " + p.typ(res.At(0).Type())
	default:
		s += " " + p.tuple(res, false)
	}
	return s
}

func (p *apiPrinter) tuple(tup *types.Tuple, variadic bool) string {
	var ts []string
	for i := range tup.Len() {
		t := tup.At(i).Type()
		if variadic && i == tup.Len()-1 {
			ts = append(ts, "..."+p.typ(t.(*types.Slice).Elem()))
		} else {
			ts = append(ts, p.typ(t))
		}
	}
	return "(" + strings.Join(ts, ", ") + ")"
}

func (p *apiPrinter) typeParams(tps *types.TypeParamList) string {
	if tps.Len() == 0 {
		return ""
	}
	var ts []string
	for i := range tps.Len() {
		tp := tps.At(i)
		ts = append(ts, tp.Obj().Name()+" "+p.typ(tp.Constraint()))
	}
	return "[" + strings.Join(ts, ", ") + "]"
}

// TestConstantsMatchTheLayers: exports.go spells its constants' values
// as literals, so that go doc shows them ("SETTLED", not
// bank.StatusSettled); each must equal the constant of the same name its
// layer (internal/bank, internal/api or internal/console) uses, typed
// there or not. A constant of exports.go that no layer has is a mistake:
// the root would say a value no code uses.
func TestConstantsMatchTheLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the package from source (about 1 s); skipped under -short")
	}
	pkg, fset, err := apiLoadRoot()
	if err != nil {
		t.Fatalf("type-check %s: %v", apiModulePath, err)
	}
	var layers []*types.Package
	for _, imp := range pkg.Imports() {
		switch imp.Path() {
		case apiModulePath + "/internal/bank", apiModulePath + "/internal/api", apiModulePath + "/internal/console":
			layers = append(layers, imp)
		}
	}
	if len(layers) != 3 {
		t.Fatalf("the root imports %d of the three layers", len(layers))
	}
	checked := 0
	for _, name := range pkg.Scope().Names() {
		c, ok := pkg.Scope().Lookup(name).(*types.Const)
		if !ok || !c.Exported() || filepath.Base(fset.Position(c.Pos()).Filename) != "exports.go" {
			continue
		}
		var twin *types.Const
		for _, l := range layers {
			if lc, ok := l.Scope().Lookup(name).(*types.Const); ok {
				twin = lc
				break
			}
		}
		switch {
		case twin == nil:
			t.Errorf("%s: no layer has a constant of that name", name)
		case !constant.Compare(c.Val(), token.EQL, twin.Val()):
			t.Errorf("%s is %s at the root and %s in %s", name, c.Val(), twin.Val(), twin.Pkg().Path())
		case !types.Identical(types.Default(c.Type()).Underlying(), types.Default(twin.Type()).Underlying()):
			t.Errorf("%s is a %s at the root and a %s in %s", name, c.Type(), twin.Type(), twin.Pkg().Path())
		default:
			checked++
		}
	}
	if checked < 80 {
		t.Errorf("checked %d constants of exports.go, want about 90: is the test finding them?", checked)
	}
}
