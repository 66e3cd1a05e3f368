package synapsefake

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreHasOneDoor reads the package's source: the store's mutex is
// taken only inside store.lock, and every call of lock is
// `defer X.lock().unlock()`, so that no code path, panicking or not, can
// leave the store locked. Other mutexes (the hooks', the journal's...) are
// not the store's and are not checked.
func TestStoreHasOneDoor(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
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
				call, ok := n.(*ast.CallExpr)
				if !ok || allowed[call] {
					return true
				}
				pos := fset.Position(call.Pos())
				switch {
				case (isCallOf(call, "lock") || isCallOf(call, "unlock")) && len(call.Args) == 0 && !door:
					t.Errorf("%s: the store is entered only as `defer X.lock().unlock()`", pos)
				case isStoreMutexCall(call) && !door:
					t.Errorf("%s: %s takes the store's mutex itself; use `defer X.lock().unlock()`", pos, fn.Name.Name)
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
// X.mu.Lock() or X.mu.Unlock() (X.mu.TryLock() is how a test asks whether
// the lock is free). unlock notes when the store's next clock-driven work
// falls due; a test that released mu itself left that note stale, and the
// Advance after it found nothing due: BenchmarkAdvancePending's 5,000
// transfers stayed CREATED, so it timed nothing and never ended.
func TestTestsEnterTheStoreByItsDoor(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	doors := 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if isCallOf(call, "lock") && len(call.Args) == 0 {
				doors++
			}
			if isStoreMutexCall(call) && call.Fun.(*ast.SelectorExpr).Sel.Name != "TryLock" {
				t.Errorf("%s: a test takes or releases the store's mutex itself; use X.lock() and X.unlock()", fset.Position(call.Pos()))
			}
			return true
		})
	}
	if doors < 10 {
		t.Errorf("found only %d tests' entries to the store: the test reads the wrong files", doors)
	}
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
	return ok && id.Name == "store"
}

func isCallOf(call *ast.CallExpr, method string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == method
}

// isStoreMutexCall reports whether call is X.mu.Lock() (or Unlock, TryLock)
// where X is the store: the name st, store or a selector ending in .store.
func isStoreMutexCall(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !strings.Contains(sel.Sel.Name, "Lock") && sel.Sel.Name != "Unlock" {
		return false
	}
	mu, ok := sel.X.(*ast.SelectorExpr)
	if !ok || mu.Sel.Name != "mu" {
		return false
	}
	switch x := mu.X.(type) {
	case *ast.Ident:
		return x.Name == "st" || x.Name == "store"
	case *ast.SelectorExpr:
		return x.Sel.Name == "store"
	}
	return false
}
