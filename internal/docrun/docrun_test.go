package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDocumentsRunAsWritten: every shell block of the README and docs/ is
// either one the runner runs (it parses, sets every variable it uses and
// carries no id pasted from an answer) or is marked not run with a reason
// that holds; every other block names its language.
func TestDocumentsRunAsWritten(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := documents(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := load(root, files)
	if err != nil {
		t.Fatal(err)
	}
	var run, marked int
	for _, b := range blocks {
		if b.skip == "" {
			run++
		} else {
			marked++
		}
	}
	if run == 0 || !slices.ContainsFunc(blocks, func(b block) bool { return b.file == "README.md" && b.skip == "" }) {
		t.Errorf("%d blocks run, none of them the README's; want the README's sessions run", run)
	}
	t.Logf("%d shell blocks run, %d marked not run", run, marked)
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name     string
		doc      string
		wantSkip []string // per block, "" for run
		wantErr  string   // a part of the only problem; "" for none
	}{
		{"a shell block runs", "text\n\n```sh\necho hi\n```\n", []string{""}, ""},
		{"a mark skips it", "<!-- not run: too slow -->\n```bash\nsleep 600\n```\n", []string{"too slow"}, ""},
		{"a mark with blank lines after it", "<!-- not run: too slow -->\n\n```console\n$ sleep 600\n```\n", []string{"too slow"}, ""},
		{"an indented block", "- item\n\n  ```sh\n  echo hi\n  ```\n", []string{""}, ""},
		{"other languages never run", "```go\nfunc f() {}\n```\n```text\nout\n```\n", []string{"", ""}, ""},
		{"a block without a language", "```\ncurl localhost:8080\n```\n", []string{""}, "without a language"},
		{"shell under another name", "```shell\necho hi\n```\n", []string{""}, `unknown language "shell"`},
		{"a mark without a reason", "<!-- not run: -->\n```sh\necho\n```\n", []string{""}, "gives no reason"},
		{"a comment that is not a mark", "<!-- skip -->\n```sh\necho\n```\n", []string{""}, "is not a mark"},
		{"a mark before a Go block", "<!-- not run: no -->\n```go\nx\n```\n", []string{""}, "which never runs"},
		{"a mark before prose", "<!-- not run: why -->\nprose\n\n```sh\necho\n```\n", []string{""}, "not right before a block"},
		{"an unclosed fence", "```sh\necho\n", nil, "never closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blocks, problems := parse("doc.md", tc.doc)
			var skips []string
			for _, b := range blocks {
				skips = append(skips, b.skip)
			}
			if !slices.Equal(skips, tc.wantSkip) {
				t.Errorf("skips %q, want %q", skips, tc.wantSkip)
			}
			switch {
			case tc.wantErr == "" && len(problems) > 0:
				t.Errorf("problems %q, want none", problems)
			case tc.wantErr != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.wantErr)):
				t.Errorf("problems %q, want one with %q", problems, tc.wantErr)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, lang, body string
		want             []string // parts of the problems, in order
	}{
		{"variables set before use", "sh", "B=http://127.0.0.1:8080\nU=$(curl -s $B/_fake/users | jq -r .user._id)\ncurl $B/x/$U\n", nil},
		{"a variable never set", "sh", "curl -X POST http://127.0.0.1:8080/_fake/transactions/$TX/settle\n", []string{"$TX is used"}},
		{"braces", "sh", "echo ${NAME}/x\n", []string{"$NAME is used"}},
		{"single quotes do not expand", "sh", "jq -r '._id.\"$oid\"' body.json\n", nil},
		{"double quotes do", "sh", "echo \"$K|ada's laptop\"\n", []string{"$K is used"}},
		{"comments do not count", "sh", "# $NOTHING here\necho hi  # nor $HERE\n", nil},
		{"the environment", "sh", "ls $HOME $PWD\n", nil},
		{"loops and read set theirs", "sh", "for f in a b; do echo $f; done\nread -r line </dev/null || true\necho $line\n", nil},
		{"an id pasted into a command", "sh", "curl http://127.0.0.1:8080/_fake/users/14daf2cebfb6a6fb38dce416\n", []string{"carries 14daf2cebfb6a6fb38dce416"}},
		{"a key pasted into a command", "sh", "K=oauth_b7e543add900f1ae5fb549676eb81ef7f8ef059c\n", []string{"carries oauth_b7e5"}},
		{"an id in a session's output is fine", "console", "$ jq -r .user._id user.json\n14daf2cebfb6a6fb38dce416\n", nil},
		{"a session's variables", "console", "$ U=$(echo x)\n$ echo $U $N\nx\n", []string{"$N is used"}},
		{"a session with output first", "console", "output\n$ echo\n", []string{"output \"output\" before any command"}},
		{"a session without a command", "console", "# nothing\n", []string{"without a command"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := block{file: "doc.md", line: 1, lang: tc.lang, body: tc.body}.check()
			if len(problems) != len(tc.want) {
				t.Fatalf("problems %q, want %d", problems, len(tc.want))
			}
			for i, p := range problems {
				if !strings.Contains(p, tc.want[i]) {
					t.Errorf("problem %q, want one with %q", p, tc.want[i])
				}
			}
		})
	}
}

func TestCheckMark(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		".ci/run":            "step x\nnpm ci --prefix compat/node --no-audit\nbash compat/node/run.sh\nbash scripts/check.sh\n",
		"scripts/check.sh":   "",
		"scripts/unused.sh":  "",
		"scripts/notrun.txt": "",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, skip, body string
		want             string // a part of the only problem; "" for none
	}{
		{"commands .ci/run runs", ".ci/run runs it", "npm ci --prefix compat/node\nbash compat/node/run.sh   # comment\n", ""},
		{"a command .ci/run does not run", ".ci/run runs it", "bash compat/absent/run.sh\n", `no line starting "bash compat/absent/run.sh"`},
		{"a script .ci/run runs", "covered by scripts/check.sh", "anything\n", ""},
		{"a script that does not exist", "covered by scripts/gone.sh", "anything\n", "scripts/gone.sh: stat"},
		{"a script .ci/run never runs", "covered by scripts/unused.sh", "anything\n", "never runs"},
		{"another reason is taken as given", "podman cannot run here", "podman run x\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := checkMark(block{file: "doc.md", line: 1, lang: "sh", body: tc.body, skip: tc.skip}, root)
			switch {
			case tc.want == "" && len(problems) > 0:
				t.Errorf("problems %q, want none", problems)
			case tc.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.want)):
				t.Errorf("problems %q, want one with %q", problems, tc.want)
			}
		})
	}
}

func TestStartsServer(t *testing.T) {
	for script, want := range map[string]bool{
		"go run ./cmd/synapsefake\n":                                       true,
		"go run ./cmd/synapsefake -addr 127.0.0.1:8080 -clock manual  # x": true,
		"X=1\nsynapsefake -clock manual\n":                                 true,
		"synapsefake -version\n":                                           false,
		"go run ./cmd/synapsefake -h\n":                                    false,
		"synapsefake healthcheck -addr 127.0.0.1:8080\n":                   false,
		"go run ./cmd/synapsefake healthcheck\n":                           false,
		"go run ./cmd/synapsefakes\n":                                      false,
		"curl http://127.0.0.1:8080/_fake/clock\n":                         false,
		"# go run ./cmd/synapsefake\n":                                     false,
	} {
		if got := startsServer(script); got != want {
			t.Errorf("startsServer(%q) = %v, want %v", script, got, want)
		}
	}
}

// TestRunBlock runs blocks that need no fake through the runner: a
// failing command fails the block, a session's outputs are compared, and a
// process left in the background neither holds the block up nor outlives
// it.
func TestRunBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash")
	}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/there" {
			http.NotFound(w, r)
		}
	}))
	defer api.Close()
	for _, tc := range []struct {
		name, lang, body string
		want             string // a part of the error; "" for none
	}{
		{"curl answered 200", "sh", "curl -s " + api.URL + "/there\n", ""},
		{"curl answered 404", "sh", "curl -s " + api.URL + "/elsewhere\n", "exit status 22"},
		{"curl answered 404 in a session", "console", "$ curl -s " + api.URL + "/elsewhere\n404 page not found\n", ""},
		{"curl -f of the block's own", "sh", "curl -sf " + api.URL + "/there\n! curl -sf " + api.URL + "/elsewhere\n", ""},
		{"commands that succeed", "sh", "X=$(echo hi)\ntest \"$X\" = hi\n", ""},
		{"a command that fails", "sh", "true\nfalse\ntrue\n", "exit status 1"},
		{"a variable never set", "sh", "echo $NOT_SET\n", "exit status 1"},
		{"a pipeline's first command failing", "sh", "false | cat\n", "exit status 1"},
		{"a session as shown", "console", "$ X=$(echo hi)\n$ echo $X; echo there\nhi\nthere\n$ printf 'no newline'\nno newline\n", ""},
		{"a session that prints otherwise", "console", "$ echo hi\nhi\n$ echo there\nthere, said the doc\n", "line 4: `echo there` printed\nthere\nwhere the document shows\nthere, said the doc"},
		{"a session that stops", "console", "$ false\n$ echo hi\nhi\n", "line 3: not reached"},
		{"a background process", "sh", "sleep 30 &\necho $$ >\"$DOCRUN_DIR/pgid\"\n", ""},
		{"the documented ports become free ones", "console", "$ echo 8081 8082 8081 | tr ' ' '\\n' | sort -u | grep -vc 808\n2\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start, dir := time.Now(), t.TempDir()
			out, err := runBlock(block{file: "doc.md", line: 1, lang: tc.lang, body: tc.body}, t.TempDir(), t.TempDir(), dir, 20*time.Second)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none; output:\n%s", err, out)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one with %q; output:\n%s", err, tc.want, out)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the block took %v", took)
			}
			if b, err := os.ReadFile(filepath.Join(dir, "pgid")); err == nil {
				if pgid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pgid <= 0 || groupRunning(pgid) {
					t.Errorf("the block's process group %q still runs after it", b)
				}
			}
		})
	}
}

func TestLinkRootCopiesEmbeddedDirectories(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	files := map[string]string{
		"page.go":          "package x\n\nimport \"embed\"\n\n//go:embed web\nvar web embed.FS\n",
		"page_test.go":     "package x\n\n//go:embed testdata\n",
		"web/index.html":   "<p>hi</p>",
		"testdata/a.json":  "{}",
		"other/readme.txt": "linked",
	}
	for name, body := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := linkRoot(root, dir); err != nil {
		t.Fatal(err)
	}
	for name, wantLink := range map[string]bool{"web": false, "testdata": true, "other": true, "page.go": true} {
		info, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if isLink := info.Mode()&os.ModeSymlink != 0; isLink != wantLink {
			t.Errorf("%s: a symbolic link %v, want %v (only what non-test files embed is copied)", name, isLink, wantLink)
		}
	}
	if got, err := os.ReadFile(filepath.Join(dir, "web", "index.html")); err != nil || string(got) != "<p>hi</p>" {
		t.Errorf("copied web/index.html = %q, %v", got, err)
	}
}
