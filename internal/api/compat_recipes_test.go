package api_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCompatibilityRecipesAreTheRunnersCode checks that each recipe in
// docs/compatibility.md for a client CI runs (a js block: synapsenode and
// synapsepay come from npm) is code its runner executes: every line of the
// block, without its trailing comment, is a line of the runner. The recipes
// for the SDKs no registry CI reaches serves (go, python, ruby blocks) have
// no runner here.
func TestCompatibilityRecipesAreTheRunnersCode(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/compatibility.md")
	if err != nil {
		t.Fatal(err)
	}
	runners := map[string][]string{"js": {"../../compat/node/compat.js", "../../compat/node/compat_synapsepay.js"}}
	comment := map[string]*regexp.Regexp{"js": regexp.MustCompile(`\s+//.*$`)}
	blocks := regexp.MustCompile("(?s)```(js)\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
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
			t.Errorf("../../docs/compatibility.md has no %s recipe", lang)
		}
	}
}
