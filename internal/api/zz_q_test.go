package api

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/filter"
)

func BenchmarkZZQuery(b *testing.B) {
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf(`"User %d"`, i*10+1)
	}
	text := `{"legal_names":{"$in":[` + strings.Join(names, ",") + `]}}`
	raw := "filter=" + url.QueryEscape(text)
	b.Run("query", func(b *testing.B) {
		for b.Loop() {
			decodeQuery(raw)
		}
	})
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			f, _ := filter.Parse(text)
			f.Typed()
		}
	})
}
