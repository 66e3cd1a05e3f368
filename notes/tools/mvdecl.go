//go:build ignore

// Command mvdecl moves top-level declarations, with their doc comments,
// from one Go file to another of the same package:
//
//	mvdecl -from returns.go -to console_returns.go controlReturn Server.controlScheduleReturn T.Method typeName
//
// A method is named Recv.Method (the receiver's base type). A name in a
// grouped const/var/type block moves the whole block. The destination is
// made (with the source's package clause) when missing. Imports are not
// fixed: run goimports -w on both files after.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
)

func main() {
	from := flag.String("from", "", "source file")
	to := flag.String("to", "", "destination file")
	flag.Parse()
	if *from == "" || *to == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mvdecl -from SRC.go -to DST.go NAME...")
		os.Exit(2)
	}
	if err := run(*from, *to, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mvdecl:", err)
		os.Exit(1)
	}
}

type span struct{ start, end int }

func declNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			t := d.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if ix, ok := t.(*ast.IndexExpr); ok {
				t = ix.X
			}
			if id, ok := t.(*ast.Ident); ok {
				return []string{id.Name + "." + d.Name.Name}
			}
			return nil
		}
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
		return names
	}
	return nil
}

func run(from, to string, names []string) error {
	src, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, from, src, parser.ParseComments)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	found := map[string]bool{}
	var spans []span
	for _, d := range f.Decls {
		hit := false
		for _, n := range declNames(d) {
			if want[n] {
				hit, found[n] = true, true
			}
		}
		if !hit {
			continue
		}
		start := fset.Position(d.Pos()).Offset
		var doc *ast.CommentGroup
		switch d := d.(type) {
		case *ast.FuncDecl:
			doc = d.Doc
		case *ast.GenDecl:
			doc = d.Doc
		}
		if doc != nil {
			start = fset.Position(doc.Pos()).Offset
		}
		end := fset.Position(d.End()).Offset
		// Take the rest of the last line, and one blank line after.
		for end < len(src) && src[end] != '\n' {
			end++
		}
		if end < len(src) {
			end++
		}
		if end < len(src) && src[end] == '\n' {
			end++
		}
		spans = append(spans, span{start, end})
	}
	var missing []string
	for _, n := range names {
		if !found[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s has no top-level %s", from, strings.Join(missing, ", "))
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var moved, kept bytes.Buffer
	last := 0
	for _, s := range spans {
		kept.Write(src[last:s.start])
		moved.Write(src[s.start:s.end])
		if !bytes.HasSuffix(moved.Bytes(), []byte("\n\n")) {
			moved.WriteByte('\n')
		}
		last = s.end
	}
	kept.Write(src[last:])
	dst, err := os.ReadFile(to)
	if os.IsNotExist(err) {
		dst = []byte("package " + f.Name.Name + "\n")
	} else if err != nil {
		return err
	}
	if !bytes.HasSuffix(dst, []byte("\n\n")) {
		dst = append(dst, '\n')
	}
	dst = append(dst, bytes.TrimRight(moved.Bytes(), "\n")...)
	dst = append(dst, '\n')
	if err := os.WriteFile(to, dst, 0o644); err != nil {
		return err
	}
	return os.WriteFile(from, kept.Bytes(), 0o644)
}
