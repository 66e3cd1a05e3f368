package synapsefake_test

import (
	"os/exec"
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
	leaves := []string{mod + "/internal/jsonx", mod + "/internal/pdf", mod + "/internal/apierr", mod + "/internal/filter", mod + "/reference"}
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
