package synapsefake_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// markdownLink matches [text](target) outside code spans well enough for
// the project's own documents.
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// markdownFile is a document's links and the anchors of its headings.
type markdownFile struct {
	links   []string
	anchors map[string]bool
}

// readMarkdown reads a document, skipping fenced code blocks, where "#"
// starts a shell comment, not a heading.
func readMarkdown(t *testing.T, path string) markdownFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := markdownFile{anchors: map[string]bool{}}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
			a := anchorOf(h)
			if n := seen[a]; n > 0 {
				f.anchors[a+"-"+strconv.Itoa(n)] = true
			} else {
				f.anchors[a] = true
			}
			seen[a]++
		}
		for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
			f.links = append(f.links, m[1])
		}
	}
	return f
}

// anchorOf is a heading's anchor as GitHub makes it.
func anchorOf(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocumentLinks: every relative link of the README and docs/ names a
// file that exists and, with a fragment, a heading of that file.
func TestDocumentLinks(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{"README.md"}, docs...)
	if len(docs) < 8 {
		t.Fatalf("docs/ holds %d documents, want the reference set", len(docs))
	}
	parsed := map[string]markdownFile{}
	for _, f := range files {
		parsed[filepath.Clean(f)] = readMarkdown(t, f)
	}
	for _, f := range files {
		for _, link := range parsed[filepath.Clean(f)].links {
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, fragment, _ := strings.Cut(link, "#")
			path := filepath.Clean(f)
			if target != "" {
				path = filepath.Join(filepath.Dir(f), target)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link %q: %v", f, link, err)
					continue
				}
			}
			if fragment == "" {
				continue
			}
			md, ok := parsed[path]
			if !ok {
				t.Errorf("%s: link %q: a fragment into a file that is not a document", f, link)
				continue
			}
			if !md.anchors[fragment] {
				t.Errorf("%s: link %q: %s has no heading #%s", f, link, path, fragment)
			}
		}
	}
}

// TestReadmeIsShort: the README is a front page; the reference is in docs/.
func TestReadmeIsShort(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 300 {
		t.Errorf("README.md has %d lines, want at most 300", n)
	}
}

// TestDiagnosticsSampleNamesTheLoggingLine checks the sample refusal line
// in docs/diagnostics.md against the source: a refusal is logged from the
// server's goroutine, so go test attributes it to the fake's own line in
// diagnose.go, not to the test's, and the sample must say which.
func TestDiagnosticsSampleNamesTheLoggingLine(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("internal/api/diagnose.go")
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, `logf("synapsefake: %s %s -> %d error_code`) {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatal("internal/api/diagnose.go has no refusal logf line")
	}
	doc, err := os.ReadFile("docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "\ndiagnose.go:" + strconv.Itoa(line) + ": synapsefake: GET /users/{user_id}/nodes -> 401"
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/diagnostics.md's sample refusal line should begin %q: the refusal is logged at that line", want[1:])
	}
	for _, m := range regexp.MustCompile(`diagnose\.go:(\d+):`).FindAllStringSubmatch(string(doc), -1) {
		if m[1] != strconv.Itoa(line) {
			t.Errorf("docs/diagnostics.md names %s; the refusal is logged at diagnose.go:%d", m[0], line)
		}
	}
}
