//go:build ignore

// Command cross lists, for issue 39's Phase B, every use of an unexported
// package-level object, field or method across layers (a file of one
// layer naming what a file of another declares), code and in-package
// tests: what must be exported (or moved) before the layers become
// packages. Run from the repository's root:
//
//	go run notes/tools/cross.go [-tests] [-v]
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
		return "test:" + file
	}
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
	tests := flag.Bool("tests", false, "include the in-package test files")
	verbose := flag.Bool("v", false, "where")
	flag.Parse()
	fset := token.NewFileSet()
	paths, _ := filepath.Glob("*.go")
	var files []*ast.File
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if f.Name.Name != "synapsefake" || (!*tests && strings.HasSuffix(p, "_test.go")) {
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
	type key struct{ from, to, name string }
	count := map[key]int{}
	where := map[key][]string{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() || obj.Exported() {
			continue
		}
		if v, ok := obj.(*types.Var); ok && !v.IsField() && obj.Parent() != pkg.Scope() {
			continue
		}
		switch o := obj.(type) {
		case *types.Func, *types.Var:
		default:
			if o.Parent() != pkg.Scope() {
				continue
			}
		}
		use := fset.Position(id.Pos())
		decl := fset.Position(obj.Pos())
		from, to := layerOf(filepath.Base(use.Filename)), layerOf(filepath.Base(decl.Filename))
		if from == to {
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
		if strings.HasPrefix(from, "test:") {
			k := key{from, to, name}
			count[k]++
			continue
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
			return a.from < b.from
		}
		if a.to != b.to {
			return a.to < b.to
		}
		return a.name < b.name
	})
	total := map[[2]string]int{}
	for _, k := range keys {
		total[[2]string{k.from, k.to}] += count[k]
		line := fmt.Sprintf("%s -> %s\t%s\t%d", k.from, k.to, k.name, count[k])
		if *verbose {
			line += "\t" + strings.Join(where[k], " ")
		}
		fmt.Println(line)
	}
	var ps [][2]string
	for p := range total {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i][0]+ps[i][1] < ps[j][0]+ps[j][1] })
	for _, p := range ps {
		fmt.Printf("# %s -> %s: %d uses\n", p[0], p[1], total[p])
	}
}
