package synapsefake_test

import (
	"bytes"
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLayers keeps the walls of ARCHITECTURE.md: the bank imports neither
// the wire, the console nor the root, nor net/http; the wire imports
// neither the console nor the root; the console does not import the root;
// no leaf imports a layer; and no code but tests imports internal/testkit.
func TestLayers(t *testing.T) {
	t.Parallel()
	const mod = "github.com/synapsefake/synapsefake"
	layers := []string{mod + "/internal/bank", mod + "/internal/api", mod + "/internal/console", mod}
	leaves := []string{mod + "/internal/jsonx", mod + "/internal/pdf", mod + "/internal/apierr", mod + "/internal/filter", mod + "/internal/phrase", mod + "/reference"}
	// One go list for every package: each line is a package and its
	// transitive imports (not its tests').
	pkgs := append(append([]string{mod + "/cmd/synapsefake"}, layers...), leaves...)
	out, err := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	all := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		all[f[0]] = f[1:]
	}
	deps := func(pkg string) []string {
		d, ok := all[pkg]
		if !ok {
			t.Fatalf("go list did not list %s", pkg)
		}
		return d
	}
	for _, l := range append(layers, mod+"/cmd/synapsefake") {
		if slices.Contains(deps(l), mod+"/internal/testkit") {
			t.Errorf("%s imports internal/testkit, the tests' helpers", l)
		}
	}
	for i, l := range layers[:3] {
		d := deps(l)
		for _, above := range layers[i+1:] {
			if slices.Contains(d, above) {
				t.Errorf("%s imports %s, a layer above it", l, above)
			}
		}
		if i == 0 && slices.Contains(d, "net/http") {
			t.Errorf("%s imports net/http (perhaps through a leaf)", l)
		}
	}
	for _, leaf := range leaves {
		d := deps(leaf)
		for _, l := range layers {
			if slices.Contains(d, l) {
				t.Errorf("the leaf %s imports the layer %s", leaf, l)
			}
		}
	}
}

// TestBankFileNames keeps each file of internal/bank named for the concept
// it holds: the bank has no HTTP handlers, no dashboard and no control API,
// so no file of it is named after one.
func TestBankFileNames(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob("internal/bank/*.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("no files in internal/bank: %v", err)
	}
	for _, name := range names {
		base := strings.TrimSuffix(filepath.Base(name), ".go")
		for _, word := range strings.Split(base, "_") {
			switch word {
			case "handler", "handlers", "ui", "dashboard", "control", "console":
				t.Errorf("%s is named after %s, which is not the bank's: name it for the concept it holds", name, word)
			}
		}
	}
}

// TestArchitectureNamesFiles fails when ARCHITECTURE.md names a Go file
// that is not there: a file of its "where a change goes" table in the
// package its group names, any other file in the repository (by its path
// when it gives one).
func TestArchitectureNamesFiles(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	anywhere := map[string]bool{}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			anywhere[d.Name()] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	goFile := regexp.MustCompile(`[A-Za-z0-9_./-]+\.go\b`)
	group := regexp.MustCompile("^\\| \\*\\*the [a-z]+\\*\\* \\(`([^`]+)`")
	dir, inTable := "", false
	for i, line := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			inTable, dir = line == "## Where a change goes", ""
			continue
		case inTable && strings.HasPrefix(line, "| **"):
			dir = ""
			if m := group.FindStringSubmatch(line); m != nil && m[1] != "synapsefake" {
				dir = m[1]
			}
			if strings.Contains(line, "**the leaves**") {
				dir = "-"
			}
			continue
		}
		for _, name := range goFile.FindAllString(line, -1) {
			var ok bool
			switch {
			case strings.Contains(name, "/"):
				_, err := os.Stat(name)
				ok = err == nil
			case inTable && dir != "-":
				_, err := os.Stat(filepath.Join(dir, name))
				ok = err == nil
			default:
				ok = anywhere[name]
			}
			if !ok {
				t.Errorf("ARCHITECTURE.md:%d names %s, which is not in %s", i+1, name, cmp.Or(dir, "the repository"))
			}
		}
	}
}

// TestTestkitFiles keeps internal/testkit in files of one concern each,
// each under 400 lines, with no package-level variable a test could change
// under another (a value is a constant or a function).
func TestTestkitFiles(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob("internal/testkit/*.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("no files in internal/testkit: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(src, []byte("\n")); n >= 400 {
			t.Errorf("%s has %d lines; a testkit file stays under 400: split it by what its helpers serve", name, n)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
				t.Errorf("%s: a package-level var; make it a constant or a function", fset.Position(g.Pos()))
			}
		}
	}
}

// TestSharedFileNamesSayWhich: a file name that stands in two layers holds
// the same concept at each layer's level, and each such file opens with a
// line saying which side of it the layer holds.
func TestSharedFileNamesSayWhich(t *testing.T) {
	t.Parallel()
	sides := map[string]string{".": "the root's side", "internal/bank": "the bank's side", "internal/api": "the wire's side", "internal/console": "the console's side"}
	in := map[string][]string{}
	for dir := range sides {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if base := filepath.Base(name); !strings.HasSuffix(base, "_test.go") {
				in[base] = append(in[base], dir)
			}
		}
	}
	for base, dirs := range in {
		if len(dirs) < 2 {
			continue
		}
		for _, dir := range dirs {
			src, err := os.ReadFile(filepath.Join(dir, base))
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			if !strings.HasPrefix(first, "// ") || !strings.Contains(first, sides[dir]) {
				t.Errorf("%s: %s stands in %d layers; open it with a line saying it holds %s of the concept, not %q", filepath.Join(dir, base), base, len(dirs), sides[dir], first)
			}
		}
	}
}
