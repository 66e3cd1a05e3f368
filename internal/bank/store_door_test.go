package bank

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreHasOneDoor reads the package's source: the store's mutex is
// touched only inside store.lock and unlock, under whatever name the code
// gives the store (storeNames), and every call of lock is
// `defer X.lock().unlock()`, so that no code path, panicking or not, can
// leave the store locked. Other mutexes (the hooks', the journal's...) are
// not the store's and are not checked.
func TestStoreHasOneDoor(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	for _, f := range parsePackage(t, fset, false) {
		names := storeNames(f)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			door := isStoreMethod(fn, "lock") || isStoreMethod(fn, "unlock")
			// Calls that are the allowed form, found first so that the walk
			// below can tell them from others.
			allowed := map[*ast.CallExpr]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				d, ok := n.(*ast.DeferStmt)
				if !ok {
					return true
				}
				if sel, ok := d.Call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "unlock" && len(d.Call.Args) == 0 {
					if inner, ok := sel.X.(*ast.CallExpr); ok && isCallOf(inner, "lock") && len(inner.Args) == 0 {
						allowed[d.Call], allowed[inner] = true, true
						checked++
					}
				}
				return true
			})
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && isStoreMutex(sel, names) && !door {
					t.Errorf("%s: %s touches the store's mutex itself; use `defer X.lock().unlock()`", fset.Position(sel.Pos()), fn.Name.Name)
				}
				call, ok := n.(*ast.CallExpr)
				if !ok || allowed[call] {
					return true
				}
				if (isCallOf(call, "lock") || isCallOf(call, "unlock")) && len(call.Args) == 0 && !door {
					t.Errorf("%s: the store is entered only as `defer X.lock().unlock()`", fset.Position(call.Pos()))
				}
				return true
			})
		}
	}
	if checked < 30 {
		t.Errorf("found only %d entries to the store: the test reads the wrong files", checked)
	}
}

// TestTestsEnterTheStoreByItsDoor reads the package's test files: they may
// lock the store in any form, but only through lock and unlock, never
// through its mutex under any name (X.mu.TryLock() is how a test asks
// whether the lock is free). unlock notes when the store's next clock-driven work
// falls due; a test that released mu itself left that note stale, and the
// Advance after it found nothing due: BenchmarkAdvancePending's 5,000
// transfers stayed CREATED, so it timed nothing and never ended.
func TestTestsEnterTheStoreByItsDoor(t *testing.T) {
	fset := token.NewFileSet()
	doors := 0
	for _, f := range parsePackage(t, fset, true) {
		names := storeNames(f)
		tryLocks := map[*ast.SelectorExpr]bool{} // X.mu of X.mu.TryLock()
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if isCallOf(call, "lock") && len(call.Args) == 0 {
					doors++
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "TryLock" {
					if mu, ok := sel.X.(*ast.SelectorExpr); ok {
						tryLocks[mu] = true
					}
				}
			}
			if sel, ok := n.(*ast.SelectorExpr); ok && isStoreMutex(sel, names) && !tryLocks[sel] {
				t.Errorf("%s: a test touches the store's mutex itself; use X.lock() and X.unlock()", fset.Position(sel.Pos()))
			}
			return true
		})
	}
	if doors < 10 {
		t.Errorf("found only %d tests' entries to the store: the test reads the wrong files", doors)
	}
}

// parsePackage parses the package's files in the working directory: its
// test files when tests is true, its other files otherwise.
func parsePackage(t *testing.T, fset *token.FileSet, tests bool) []*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") != tests {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

func isStoreMethod(fn *ast.FuncDecl, name string) bool {
	if fn.Recv == nil || fn.Name.Name != name || len(fn.Recv.List) != 1 {
		return false
	}
	star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := star.X.(*ast.Ident)
	return ok && id.Name == "Store"
}

func isCallOf(call *ast.CallExpr, method string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == method
}

// isStoreMutex reports whether sel is X.mu where X is the store: a name
// in names (st, store, and the file's other names for it: storeNames), a
// selector ending in .store, or the store's address or contents.
func isStoreMutex(sel *ast.SelectorExpr, names map[string]bool) bool {
	return sel.Sel.Name == "mu" && isStoreExpr(sel.X, names)
}

func isStoreExpr(e ast.Expr, names map[string]bool) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return names[x.Name]
	case *ast.SelectorExpr:
		return x.Sel.Name == "store"
	case *ast.ParenExpr:
		return isStoreExpr(x.X, names)
	case *ast.StarExpr:
		return isStoreExpr(x.X, names)
	case *ast.UnaryExpr:
		return x.Op == token.AND && isStoreExpr(x.X, names)
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		return ok && id.Name == "newStore"
	}
	return false
}

// storeNames is the names a file gives the store: st and store, every
// name declared of type *Store or Store, and every name assigned a store
// (db := s.store), so that an alias does not hide X.mu from the checks.
func storeNames(f *ast.File) map[string]bool {
	names := map[string]bool{"st": true, "store": true}
	isStoreType := func(e ast.Expr) bool {
		if star, ok := e.(*ast.StarExpr); ok {
			e = star.X
		}
		id, ok := e.(*ast.Ident)
		return ok && id.Name == "Store"
	}
	for grew := true; grew; {
		grew = false
		add := func(id *ast.Ident) {
			if id != nil && id.Name != "_" && !names[id.Name] {
				names[id.Name], grew = true, true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Field:
				if isStoreType(x.Type) {
					for _, id := range x.Names {
						add(id)
					}
				}
			case *ast.ValueSpec:
				for i, id := range x.Names {
					if x.Type != nil && isStoreType(x.Type) || i < len(x.Values) && isStoreExpr(x.Values[i], names) {
						add(id)
					}
				}
			case *ast.AssignStmt:
				if len(x.Lhs) == len(x.Rhs) {
					for i, lhs := range x.Lhs {
						if id, ok := lhs.(*ast.Ident); ok && isStoreExpr(x.Rhs[i], names) {
							add(id)
						}
					}
				}
			}
			return true
		})
	}
	return names
}
