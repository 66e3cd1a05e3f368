//go:build ignore

// Command classify lists every top-level declaration of the root
// package's non-test files with a proposed layer: the file's default
// layer, overridden by the declaration's name and receiver.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
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
		for _, f := range strings.Fields(layer2(files)) {
			fileLayer[f+".go"] = layer
		}
	}
}

func layer2(s string) string { return s }

func recvName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

// overrides are declarations whose layer differs from what the rules give.
var overrides = map[string]string{}

func init() {
	for layer, names := range map[string]string{
		"bank": "storeFieldsApart cloneStore deepCopy encodeStore decodeStore encodeValue decodeValue exported savable strictUnmarshal " +
			"errNoUser errExpiredKey errUnknownKey errFingerprintFor errInvalidFingerprintFor dollars " +
			"uboPerson ownership duplicatesView validACHAccountNum allDigits blankNicknameRule deref derived cipTagRule emailRule parseDocuments loginScope",
		"api": "idemKey requestScope idemCtxKey checkIdempotency withIdempotency keyLocks keyLock statusRecorder " +
			"askPlatform jitDeadline jitAnswer parseJITAnswer event.body readFilter pageOf statementList listStatements transList batchResponse batchItemError " +
			"stateHooks hooks.snapshot hooks.restore delivery.finished delivery.index " +
			"Server.checkIdempotency Server.withIdempotency Server.jitDeadline Server.askPlatform Server.listStatements",
		"root": "Server.withHeld Server.postCard Server.pendingWork Server.scheduleReturn Server.addSubnet",
	} {
		for _, n := range strings.Fields(names) {
			overrides[n] = layer
		}
	}
}

type decl struct {
	file, layer, def, recv string
	names                  []string
	lines                  int
}

func main() {
	dir := os.Args[1]
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(files)
	fset := token.NewFileSet()
	var all []decl
	for _, path := range files {
		base := filepath.Base(path)
		if strings.HasSuffix(base, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			panic(err)
		}
		def := fileLayer[base]
		if def == "" {
			def = "?"
		}
		for _, d := range f.Decls {
			var names []string
			layer := def
			lines := fset.Position(d.End()).Line - fset.Position(d.Pos()).Line + 1
			switch d := d.(type) {
			case *ast.FuncDecl:
				r := recvName(d)
				n := d.Name.Name
				name := n
				if r != "" {
					name = r + "." + n
				}
				names = []string{name}
				switch {
				case r == "store":
					layer = "bank"
				case r == "Server" && strings.HasPrefix(n, "handle"):
					layer = "api"
				case r == "Server" && (strings.HasPrefix(n, "control") || strings.HasPrefix(n, "ui")):
					layer = "console"
				case r == "Server" && ast.IsExported(n):
					layer = "root"
				case r == "" && ast.IsExported(n) && (strings.HasPrefix(n, "With") || strings.HasPrefix(n, "New") || strings.HasPrefix(n, "Must")):
					layer = "root"
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names = append(names, s.Name.Name)
						if strings.HasPrefix(s.Name.Name, "control") || strings.HasPrefix(s.Name.Name, "ui") {
							layer = "console"
						} else if strings.HasSuffix(s.Name.Name, "Request") && strings.HasPrefix(base, "handlers") {
							layer = "bank"
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names = append(names, n.Name)
						}
					case *ast.ImportSpec:
						names = nil
					}
				}
				if d.Tok == token.IMPORT {
					continue
				}
			}
			r := ""
			if fd, ok := d.(*ast.FuncDecl); ok {
				r = recvName(fd)
			}
			all = append(all, decl{file: base, layer: layer, def: def, recv: r, names: names, lines: lines})
		}
	}
	typeLayer := map[string]string{}
	for i := range all {
		d := &all[i]
		for _, n := range d.names {
			if l, ok := overrides[n]; ok {
				d.layer = l
			}
		}
		if d.recv == "" {
			for _, n := range d.names {
				typeLayer[n] = d.layer
			}
		}
	}
	for i := range all {
		d := &all[i]
		if d.recv != "" && d.recv != "Server" && d.recv != "store" {
			if _, over := overrides[d.names[0]]; !over {
				if l, ok := typeLayer[d.recv]; ok {
					d.layer = l
				}
			}
		}
		mark := ""
		if d.layer != d.def {
			mark = " *"
		}
		fmt.Printf("%s\t%s\t%s\t%d%s\n", d.file, d.layer, strings.Join(d.names, ","), d.lines, mark)
	}
}
