package filter

import (
	"fmt"
	"strings"
	"testing"
)

func BenchmarkZZParseIn(b *testing.B) {
	names := make([]string, MaxValues)
	for i := range names {
		names[i] = fmt.Sprintf(`"User %d"`, i*10+1)
	}
	text := `{"legal_names":{"$in":[` + strings.Join(names, ",") + `]}}`
	b.ReportAllocs()
	for b.Loop() {
		f, err := Parse(text)
		if err != nil {
			b.Fatal(err)
		}
		f.Typed()
	}
}
