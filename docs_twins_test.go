package synapsefake_test

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// twinReceivers are the Go types a twin table's Go column names methods
// of: a bare name is *Server's, unless an earlier name of the same cell
// gave another receiver, which the names after it keep.
var twinReceivers = map[string]reflect.Type{
	"":              reflect.TypeFor[*synapsefake.Server](),
	"(*Platforms).": reflect.TypeFor[*synapsefake.Platforms](),
	"Webhooks().":   reflect.TypeFor[synapsefake.WebhookCapture](),
}

// goTwin is one Go name of a twin table's Go column: its receiver (a key
// of twinReceivers, or "" for *Server) and its method.
var goTwin = regexp.MustCompile(`^(\(\*Platforms\)\.|Webhooks\(\)\.)?([A-Z]\w*)\b`)

// twinTable is the rows of the table under header in doc: each row's
// cells.
func twinTable(t *testing.T, doc, header string) [][]string {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	at := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == header {
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("%s: no table %q", doc, header)
	}
	var rows [][]string
	for _, l := range lines[at+2:] {
		if !strings.HasPrefix(l, "|") {
			break
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	return rows
}

// codeSpan is a `code span` of a table cell.
var codeSpan = regexp.MustCompile("`([^`]+)`")

// TestDocsGoTwins: the tables of docs/python.md, docs/node.md and
// docs/ruby.md that give each call of a client its Go twin name methods
// Go has; the clients' own tests check the other column, the calls.
func TestDocsGoTwins(t *testing.T) {
	for _, c := range []struct{ doc, header string }{
		{"docs/python.md", "| Python | Route | Go |"},
		{"docs/node.md", "| Node | Route | Go |"},
		{"docs/ruby.md", "| Ruby | Route | Go |"},
	} {
		t.Run(c.doc, func(t *testing.T) {
			rows := twinTable(t, c.doc, c.header)
			if len(rows) < 30 {
				t.Fatalf("%d rows", len(rows))
			}
			named := 0
			for _, row := range rows {
				if len(row) != 3 {
					t.Errorf("a row of %d cells, want 3: %q", len(row), row)
					continue
				}
				if row[2] == "—" {
					continue
				}
				spans := codeSpan.FindAllStringSubmatch(row[2], -1)
				if len(spans) == 0 {
					t.Errorf("%s: the Go cell %q names nothing (— where Go has no twin)", row[0], row[2])
				}
				recv := ""
				for _, s := range spans {
					m := goTwin.FindStringSubmatch(s[1])
					if m == nil {
						t.Errorf("%s: %q is not a Go call", row[0], s[1])
						continue
					}
					if m[1] != "" {
						recv = m[1]
					}
					if _, ok := twinReceivers[recv].MethodByName(m[2]); !ok {
						t.Errorf("%s: %s has no method %s (the Go cell says %q)", row[0], twinReceivers[recv], m[2], s[1])
					}
					named++
				}
			}
			if named < 30 {
				t.Errorf("%d Go names checked", named)
			}
		})
	}
}

func TestDocsGoTwinsFindsAMethodGoLacks(t *testing.T) {
	for _, c := range []struct {
		span string
		ok   bool
	}{
		{"AddUser(UserSeed)", true},
		{"(*Platforms).Add(PlatformConfig)", true},
		{"Webhooks().WaitWithin", true},
		{"AddUsers(UserSeed)", false},
		{"(*Platforms).Delete(id)", false},
	} {
		m := goTwin.FindStringSubmatch(c.span)
		_, ok := twinReceivers[m[1]].MethodByName(m[2])
		if ok != c.ok {
			t.Errorf("%q: a method %v, want %v", c.span, ok, c.ok)
		}
	}
}
