package synapsefake_test

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// BenchmarkListFilter is GET of the first page of a node's 1,000
// transactions: unfiltered (O(page)), and with a filter, which builds each
// transaction's view once and decodes only the fields the filter names:
// "_id" matches one transaction, "amount" (a path into an object) every one.
func BenchmarkListFilter(b *testing.B) {
	e := testkit.NewTxEnv(b, 0, synapsefake.WithManualProcessing())
	seedTransactions(b, e, 1_000)
	path := testkit.TransPath(e.Fx.User.ID, e.Fx.Node.ID)
	first := testkit.Do(b, e.Fake, testkit.Call{Method: "GET", Path: path, Header: e.Fx.Headers})
	oldest := testkit.ListIDs(first.Body, "trans")[0]
	client := e.Fake.Client()
	for _, tc := range []struct{ name, filter string }{
		{"unfiltered", ""},
		{"_id", fmt.Sprintf(`{"_id":%q}`, oldest)},
		{"amount", `{"amount.amount":{"$gt":0}}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			target := e.Fake.URL() + path
			if tc.filter != "" {
				target += "?filter=" + url.QueryEscape(tc.filter)
			}
			b.ReportAllocs()
			for b.Loop() {
				benchPost(b, client, "GET", target, e.Fx.Headers, nil)
			}
		})
	}
}
