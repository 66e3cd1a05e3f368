package synapsefake_test

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/synapsefake/synapsefake"
)

// BenchmarkListFilter is GET of the first page of a node's 1,000
// transactions: unfiltered (O(page)), and with a filter, which builds each
// transaction's view once and decodes only the fields the filter names:
// "_id" matches one transaction, "amount" (a path into an object) every one.
func BenchmarkListFilter(b *testing.B) {
	e := newTxEnv(b, 0, synapsefake.WithManualProcessing())
	seedTransactions(b, e, 1_000)
	path := transPath(e.fx.user.ID, e.fx.node.ID)
	first := do(b, e.fake, call{method: "GET", path: path, header: e.fx.headers})
	oldest := listIDs(first.body, "trans")[0]
	client := e.fake.Client()
	for _, tc := range []struct{ name, filter string }{
		{"unfiltered", ""},
		{"_id", fmt.Sprintf(`{"_id":%q}`, oldest)},
		{"amount", `{"amount.amount":{"$gt":0}}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			target := e.fake.URL() + path
			if tc.filter != "" {
				target += "?filter=" + url.QueryEscape(tc.filter)
			}
			b.ReportAllocs()
			for b.Loop() {
				benchPost(b, client, "GET", target, e.fx.headers, nil)
			}
		})
	}
}
