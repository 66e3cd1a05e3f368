//go:build ignore

// Command move is issue 39's Phase B, part 2: after export.go, it moves
// each layer's files into its package (internal/bank, internal/api,
// internal/console; the root keeps its own), qualifies every use of a
// package-level name across packages, and writes the root's exports.go:
// for every name of the public API (testdata/api.golden) now declared in a
// layer, an alias, a constant or a wrapper with its doc comment. In-package
// test files go where -tests says (file=layer,...), else stay at the root.
//
//	go run notes/tools/move.go [-n] [-tests a_test.go=bank,...]
package main

import (
	"bufio"
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
	"regexp"
	"sort"
	"strings"
)

const mod = "github.com/synapsefake/synapsefake"

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

var testPlace = map[string]string{}

func layerOf(file string) string {
	if strings.HasSuffix(file, "_test.go") {
		if l, ok := testPlace[file]; ok {
			return l
		}
		return "root"
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

func dest(file string) string {
	l := layerOf(file)
	if l == "root" {
		return file
	}
	return filepath.Join("internal", l, strings.TrimPrefix(file, l+"_"))
}

type edit struct {
	off, del int
	text     string
}

func main() {
	dry := flag.Bool("n", false, "report only")
	tests := flag.String("tests", "", "in-package test files and their layer: a_test.go=bank,...")
	flag.Parse()
	for _, kv := range strings.Split(*tests, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			testPlace[k] = v
		}
	}
	public := map[string]bool{}
	gf, err := os.Open("testdata/api.golden")
	if err != nil {
		panic(err)
	}
	re := regexp.MustCompile(`^(const|type|func|var) (\w+)`)
	for sc := bufio.NewScanner(gf); sc.Scan(); {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			public[m[2]] = true
		}
	}
	fset := token.NewFileSet()
	paths, _ := filepath.Glob("*.go")
	var files []*ast.File
	srcs := map[string][]byte{}
	for _, p := range paths {
		src, _ := os.ReadFile(p)
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			panic(err)
		}
		if f.Name.Name != "synapsefake" {
			continue
		}
		files = append(files, f)
		srcs[p] = src
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	pkg, err := conf.Check(mod, fset, files, info)
	if err != nil {
		panic(err)
	}
	fileOf := func(pos token.Pos) string { return filepath.Base(fset.Position(pos).Filename) }
	layer := func(pos token.Pos) string { return layerOf(fileOf(pos)) }
	var problems []string
	edits := map[string][]edit{}
	imports := map[string]map[string]bool{}
	// Locals or package-level names that would hide an imported package.
	defined := map[string]map[string]bool{}
	for id, obj := range info.Defs {
		if obj == nil {
			continue
		}
		f := fileOf(id.Pos())
		if defined[f] == nil {
			defined[f] = map[string]bool{}
		}
		defined[f][id.Name] = true
	}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || obj.Parent() != pkg.Scope() {
			continue
		}
		from, to := layer(id.Pos()), layer(obj.Pos())
		if from == to {
			continue
		}
		if from == "root" && public[obj.Name()] {
			continue // the root's alias or wrapper of it
		}
		if !obj.Exported() {
			problems = append(problems, fmt.Sprintf("%s (%s) uses %s's unexported %s", fileOf(id.Pos()), from, to, obj.Name()))
			continue
		}
		if to == "root" {
			problems = append(problems, fmt.Sprintf("%s (%s) uses the root's %s", fileOf(id.Pos()), from, obj.Name()))
			continue
		}
		f := fileOf(id.Pos())
		if imports[f] == nil {
			imports[f] = map[string]bool{}
		}
		imports[f][to] = true
		p := fset.Position(id.Pos())
		edits[p.Filename] = append(edits[p.Filename], edit{p.Offset, 0, to + "."})
	}
	for f, ps := range imports {
		for p := range ps {
			if defined[f][p] {
				problems = append(problems, fmt.Sprintf("%s declares %s, the name of a package it will import", f, p))
			}
		}
	}
	seen := map[string]string{}
	for _, f := range files {
		name := fileOf(f.Package)
		d := dest(name)
		if o, ok := seen[d]; ok {
			problems = append(problems, fmt.Sprintf("%s and %s both go to %s", o, name, d))
		}
		seen[d] = name
	}
	// The root's exports: the public names now declared in a layer.
	var out bytes.Buffer
	out.WriteString("package synapsefake\n\n")
	wrote := map[string]bool{}
	for _, f := range files {
		l := layerOf(fileOf(f.Package))
		if l == "root" || strings.HasSuffix(fileOf(f.Package), "_test.go") {
			continue
		}
		src := srcs[fset.Position(f.Package).Filename]
		text := func(n ast.Node) string {
			return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
		}
		doc := func(cg *ast.CommentGroup) string {
			if cg == nil {
				return ""
			}
			return text(cg) + "\n"
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil || !public[d.Name.Name] {
					continue
				}
				if d.Type.TypeParams != nil {
					problems = append(problems, "generic public func "+d.Name.Name)
					continue
				}
				var args []string
				for _, p := range d.Type.Params.List {
					for _, n := range p.Names {
						a := n.Name
						if _, ok := p.Type.(*ast.Ellipsis); ok {
							a += "..."
						}
						args = append(args, a)
					}
					if len(p.Names) == 0 {
						problems = append(problems, "unnamed parameter in "+d.Name.Name)
					}
				}
				res := ""
				call := fmt.Sprintf("%s.%s(%s)", l, d.Name.Name, strings.Join(args, ", "))
				if d.Type.Results != nil {
					res = " " + text(d.Type.Results)
					call = "return " + call
				}
				fmt.Fprintf(&out, "%sfunc %s%s%s {\n\t%s\n}\n\n", doc(d.Doc), d.Name.Name, text(d.Type.Params), res, call)
				wrote[d.Name.Name] = true
			case *ast.GenDecl:
				var specs []string
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !public[s.Name.Name] {
							continue
						}
						specs = append(specs, fmt.Sprintf("%s%s = %s.%s", doc(s.Doc), s.Name.Name, l, s.Name.Name))
						wrote[s.Name.Name] = true
					case *ast.ValueSpec:
						var names, vals []string
						for _, n := range s.Names {
							if public[n.Name] {
								names = append(names, n.Name)
								vals = append(vals, l+"."+n.Name)
								wrote[n.Name] = true
							}
						}
						if len(names) == 0 {
							continue
						}
						c := ""
						if s.Comment != nil {
							c = " " + text(s.Comment)
						}
						specs = append(specs, fmt.Sprintf("%s%s = %s%s", doc(s.Doc), strings.Join(names, ", "), strings.Join(vals, ", "), c))
					}
				}
				if len(specs) == 0 {
					continue
				}
				kw := d.Tok.String()
				if len(specs) == 1 && !d.Lparen.IsValid() {
					fmt.Fprintf(&out, "%s%s %s\n\n", doc(d.Doc), kw, specs[0])
				} else {
					fmt.Fprintf(&out, "%s%s (\n%s\n)\n\n", doc(d.Doc), kw, strings.Join(specs, "\n"))
				}
			}
		}
	}
	for n := range public {
		if obj := pkg.Scope().Lookup(n); obj != nil && layer(obj.Pos()) != "root" && !wrote[n] {
			problems = append(problems, "public "+n+" not re-exported")
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		fmt.Println("PROBLEM", p)
	}
	if *dry || len(problems) > 0 {
		fmt.Printf("# %d problems\n", len(problems))
		return
	}
	for _, l := range []string{"bank", "api", "console"} {
		os.MkdirAll(filepath.Join("internal", l), 0o755)
	}
	var written []string
	for _, f := range files {
		name := fileOf(f.Package)
		full := fset.Position(f.Package).Filename
		src := srcs[full]
		es := edits[full]
		l := layerOf(name)
		if l != "root" {
			p := fset.Position(f.Name.Pos())
			es = append(es, edit{p.Offset, len(f.Name.Name), l})
		}
		sort.Slice(es, func(i, j int) bool { return es[i].off > es[j].off })
		for _, e := range es {
			src = append(src[:e.off], append([]byte(e.text), src[e.off+e.del:]...)...)
		}
		if len(imports[name]) > 0 {
			var im []string
			for p := range imports[name] {
				im = append(im, fmt.Sprintf("import %q\n", mod+"/internal/"+p))
			}
			sort.Strings(im)
			i := bytes.Index(src, []byte("\npackage "))
			if !bytes.HasPrefix(src, []byte("package ")) && i >= 0 {
				i++
			} else {
				i = 0
			}
			j := i + bytes.IndexByte(src[i:], '\n') + 1
			src = append(src[:j:j], append([]byte("\n"+strings.Join(im, "")), src[j:]...)...)
		}
		d := dest(name)
		if d != name {
			if err := exec.Command("git", "mv", name, d).Run(); err != nil {
				panic(fmt.Sprint("git mv ", name, " ", d, ": ", err))
			}
		}
		if err := os.WriteFile(d, src, 0o644); err != nil {
			panic(err)
		}
		written = append(written, d)
	}
	b, err := format.Source(out.Bytes())
	if err != nil {
		os.WriteFile("exports.go", out.Bytes(), 0o644)
		panic(err)
	}
	os.WriteFile("exports.go", b, 0o644)
	written = append(written, "exports.go")
	cmd := exec.Command("/root/go/bin/goimports", append([]string{"-w"}, written...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Run()
	fmt.Printf("# %d files written\n", len(written))
}
