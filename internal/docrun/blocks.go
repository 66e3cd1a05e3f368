package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// A block is one fenced code block of a document.
type block struct {
	file string // the document, as given
	line int    // the line of its opening fence, from 1
	lang string // the fence's info string: sh, bash, console, go, text...
	body string // the lines between the fences, indentation of the fence removed
	// skip is the reason of a "<!-- not run: REASON -->" right before the
	// block; "" for a block the runner runs.
	skip string
}

// shell reports whether the runner runs the block unless it is marked.
func (b block) shell() bool { return shellLangs[b.lang] }

func (b block) String() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// shellLangs are the info strings of blocks that run; otherLangs those of
// blocks that never run. Any other info string, or none, is a problem: a
// block without a language could be a command nobody runs.
var (
	shellLangs = map[string]bool{"sh": true, "bash": true, "console": true}
	otherLangs = map[string]bool{"go": true, "json": true, "jsonc": true, "python": true, "ruby": true,
		"js": true, "javascript": true, "text": true, "yaml": true}
	notRunMark = regexp.MustCompile(`^<!--\s*not run:\s*(.*?)\s*-->$`)
	fence      = regexp.MustCompile("^(\\s*)```(.*)$")
)

// parse splits a markdown document into its fenced blocks. Problems (an
// unknown or missing language, a mark not right before a shell block, a
// mark without a reason, an HTML comment right before a block that is not
// a mark, an unclosed fence) are returned, one line each.
func parse(file, text string) (blocks []block, problems []string) {
	lines := strings.Split(text, "\n")
	prev := "" // the last non-blank line outside a block
	prevLine := 0
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			if t := strings.TrimSpace(lines[i]); t != "" {
				if notRunMark.MatchString(prev) {
					problems = append(problems, fmt.Sprintf("%s:%d: a not-run mark that is not right before a block", file, prevLine))
				}
				prev, prevLine = t, i+1
			}
			continue
		}
		indent, lang := m[1], strings.TrimSpace(m[2])
		b := block{file: file, line: i + 1, lang: lang}
		var body []string
		closed := false
		for i++; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "```" {
				closed = true
				break
			}
			body = append(body, strings.TrimPrefix(lines[i], indent))
		}
		if !closed {
			problems = append(problems, fmt.Sprintf("%s: the fence is never closed", b))
			break
		}
		b.body = strings.Join(body, "\n") + "\n"
		switch {
		case lang == "":
			problems = append(problems, fmt.Sprintf("%s: a block without a language: name it (sh, bash or console to run it; text for output)", b))
		case !shellLangs[lang] && !otherLangs[lang]:
			problems = append(problems, fmt.Sprintf("%s: unknown language %q: shell blocks are sh, bash or console", b, lang))
		}
		if strings.HasPrefix(prev, "<!--") {
			mark := notRunMark.FindStringSubmatch(prev)
			switch {
			case mark == nil:
				problems = append(problems, fmt.Sprintf("%s: %q before the block is not a mark: write <!-- not run: REASON -->", b, prev))
			case mark[1] == "":
				problems = append(problems, fmt.Sprintf("%s: the not-run mark gives no reason", b))
			case !b.shell():
				problems = append(problems, fmt.Sprintf("%s: a not-run mark before a %s block, which never runs", b, lang))
			default:
				b.skip = mark[1]
			}
		}
		blocks = append(blocks, b)
		prev, prevLine = "", 0
	}
	return blocks, problems
}

// A step is one command of a console block, with the output it shows.
type step struct {
	line int    // the line of its "$ " in the document
	cmd  string // the command, continuation lines included
	want string // the output lines shown after it, "" for none
}

// steps reads a console block: "$ " starts a command, a command ending in
// a backslash continues on the next line, "#" lines and blank lines are
// comments, and every other line is output of the command before it.
func (b block) steps() ([]step, error) {
	var steps []step
	lines := strings.Split(strings.TrimSuffix(b.body, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "$ "):
			s := step{line: b.line + 1 + i, cmd: strings.TrimPrefix(l, "$ ")}
			for strings.HasSuffix(s.cmd, "\\") && i+1 < len(lines) {
				i++
				s.cmd += "\n" + lines[i]
			}
			steps = append(steps, s)
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#"):
		case len(steps) == 0:
			return nil, fmt.Errorf("%s: output %q before any command", b, l)
		default:
			s := &steps[len(steps)-1]
			s.want += l + "\n"
		}
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("%s: a console block without a command (a line starting with \"$ \")", b)
	}
	return steps, nil
}

// script is what the block runs: the block itself, or a console block's
// commands.
func (b block) script() (string, error) {
	if b.lang != "console" {
		return b.body, nil
	}
	steps, err := b.steps()
	if err != nil {
		return "", err
	}
	var cmds []string
	for _, s := range steps {
		cmds = append(cmds, s.cmd)
	}
	return strings.Join(cmds, "\n") + "\n", nil
}

// pastedID matches the ids and keys a fresh server hands out: object ids,
// OAuth keys and refresh tokens. A command that carries one was pasted
// from an earlier answer and fails against a server that gives others.
var pastedID = regexp.MustCompile(`\b[0-9a-f]{24}\b|\b(oauth|refresh)_[0-9a-f]{40}\b`)

// environment holds the variables a block may use without setting them.
var environment = map[string]bool{"HOME": true, "PATH": true, "PWD": true, "TMPDIR": true}

// check finds what would keep a runnable shell block from running as
// written: a pasted id, a variable used before the block sets it, a console
// block that does not parse.
func (b block) check() []string {
	script, err := b.script()
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	if id := pastedID.FindString(script); id != "" {
		problems = append(problems, fmt.Sprintf("%s: the command carries %s, pasted from an answer: capture it from the answer that gives it", b, id))
	}
	for _, v := range unsetVariables(script) {
		problems = append(problems, fmt.Sprintf("%s: $%s is used but the block never sets it", b, v))
	}
	return problems
}

var (
	assignment = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\+?=`)
	loopOrRead = regexp.MustCompile(`^(?:for|read(?:\s+-r)?)\s+([A-Za-z_][A-Za-z0-9_]*)`)
	reference  = regexp.MustCompile(`^\$\{?([A-Za-z_][A-Za-z0-9_]*)`)
)

// unsetVariables lists, in order, the variables a shell script expands
// before it assigns them (outside single quotes and comments), leaving out
// the environment's.
func unsetVariables(script string) []string {
	set := map[string]bool{}
	var unset []string
	wordStart, double := true, false
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case c == '\\':
			i++
		case c == '"':
			double = !double
		case c == '$':
			if m := reference.FindStringSubmatch(script[i:]); m != nil && !set[m[1]] && !environment[m[1]] {
				set[m[1]] = true // reported once
				unset = append(unset, m[1])
			}
		case double:
		case c == '\'':
			end := strings.IndexByte(script[i+1:], '\'')
			if end < 0 {
				return unset
			}
			i += end + 1
		case c == '#' && wordStart:
			for i < len(script) && script[i] != '\n' {
				i++
			}
		case wordStart:
			if m := assignment.FindStringSubmatch(script[i:]); m != nil {
				set[m[1]] = true
			} else if m := loopOrRead.FindStringSubmatch(script[i:]); m != nil {
				set[m[1]] = true
			}
		}
		wordStart = !double && i < len(script) && strings.IndexByte(" \t\n;&|(`", script[i]) >= 0
	}
	return unset
}

// ciRun names the CI script a mark may point to; scriptName matches a
// script a mark names.
const ciRun = ".ci/run"

var scriptName = regexp.MustCompile(`scripts/[A-Za-z0-9_.-]+\.sh`)

// checkMark checks what a not-run mark claims. A reason that says ".ci/run
// runs it" needs every command of the block (without its comment) at the
// start of a line of .ci/run; a reason naming a script under scripts/ needs
// that script to exist and .ci/run to run it.
func checkMark(b block, root string) []string {
	if b.skip == "" {
		return nil
	}
	var problems []string
	ci, err := os.ReadFile(root + "/" + ciRun)
	if err != nil {
		return []string{err.Error()}
	}
	var ciLines []string
	for _, l := range strings.Split(string(ci), "\n") {
		ciLines = append(ciLines, strings.TrimSpace(l))
	}
	if strings.Contains(b.skip, ciRun+" runs it") {
		for _, l := range strings.Split(b.body, "\n") {
			cmd := strings.TrimSpace(stripComment(l))
			if cmd == "" {
				continue
			}
			found := false
			for _, c := range ciLines {
				found = found || strings.HasPrefix(c, cmd)
			}
			if !found {
				problems = append(problems, fmt.Sprintf("%s: the mark says %s runs it, but %s has no line starting %q", b, ciRun, ciRun, cmd))
			}
		}
	}
	for _, s := range scriptName.FindAllString(b.skip, -1) {
		if _, err := os.Stat(root + "/" + s); err != nil {
			problems = append(problems, fmt.Sprintf("%s: the mark names %s: %v", b, s, err))
		} else if !strings.Contains(string(ci), s) {
			problems = append(problems, fmt.Sprintf("%s: the mark names %s, which %s never runs", b, s, ciRun))
		}
	}
	return problems
}

// stripComment removes a trailing "  # comment" from a command line.
func stripComment(l string) string {
	if i := strings.Index(l, " #"); i >= 0 {
		return l[:i]
	}
	if strings.HasPrefix(strings.TrimSpace(l), "#") {
		return ""
	}
	return l
}
