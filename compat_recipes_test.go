package synapsefake_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCompatibilityRecipesAreTheRunnersCode checks that each client recipe
// in docs/compatibility.md (a python or ruby block) is code its CI runner
// executes: every line of the block, without its trailing comment, is a line
// of the runner.
func TestCompatibilityRecipesAreTheRunnersCode(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("docs/compatibility.md")
	if err != nil {
		t.Fatal(err)
	}
	runners := map[string][]string{"python": {"compat/python/compat.py"}, "ruby": {"compat/ruby/compat.rb"},
		"js": {"compat/node/compat.js", "compat/node/compat_synapsepay.js"}, "go": {"compat/go/recipe_test.go"}}
	hash, slashes := regexp.MustCompile(`\s+#.*$`), regexp.MustCompile(`\s+//.*$`)
	comment := map[string]*regexp.Regexp{"python": hash, "ruby": hash, "js": slashes, "go": slashes}
	blocks := regexp.MustCompile("(?s)```(python|ruby|js|go)\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	seen := map[string]bool{}
	for _, b := range blocks {
		lang, code := b[1], b[2]
		seen[lang] = true
		lines := map[string]bool{}
		for _, f := range runners[lang] {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(string(src), "\n") {
				lines[strings.TrimSpace(comment[lang].ReplaceAllString(l, ""))] = true
			}
		}
		for _, l := range strings.Split(code, "\n") {
			l = strings.TrimSpace(comment[lang].ReplaceAllString(l, ""))
			if l != "" && !lines[l] {
				t.Errorf("the %s recipe's line %q is not in %s", lang, l, runners[lang])
			}
		}
	}
	for lang := range runners {
		if !seen[lang] {
			t.Errorf("docs/compatibility.md has no %s recipe", lang)
		}
	}
}
