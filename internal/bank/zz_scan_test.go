package bank

import (
	"fmt"
	"strings"
	"testing"
)

func BenchmarkZZScan(b *testing.B) {
	for _, users := range []int{1000, 10000} {
		bk := newTestBank(testBankOptions{})
		for i := range users {
			if _, err := bk.AddUser(UserSeed{LegalNames: []string{fmt.Sprint("User ", i)},
				Email: fmt.Sprintf("user%d@example.com", i), PhoneNumbers: []string{fmt.Sprintf("555%07d", i)}, SuppID: fmt.Sprint("supp-", i),
				Documents: []SubDocumentSeed{{Kind: "physical", Type: "GOVT_ID", Value: "2222", Status: "VALID"},
					{Kind: "social", Type: "FACEBOOK", Value: "https://facebook.com/user", Status: "VALID"},
					{Kind: "virtual", Type: "SSN", Value: "2222", Status: "VALID"}}}); err != nil {
				b.Fatal(err)
			}
		}
		names := make([]string, 1000)
		for i := range names {
			names[i] = fmt.Sprintf(`"User %d"`, i*10+1)
		}
		for _, tc := range []struct{ name, f string }{
			{"none", ""},
			{"id", `{"_id":"x"}`},
			{"legal", `{"legal_names":"User 5000"}`},
			{"in", `{"legal_names":{"$in":[` + strings.Join(names, ",") + `]}}`},
			{"or", `{"$or":[{"legal_names":"User 1"},{"extra.supp_id":"supp-2"},{"permission":"LOCKED"}]}`},
			{"docs", `{"documents.physical_docs.document_type":"GOVT_IX"}`},
		} {
			b.Run(fmt.Sprint(tc.name, "-", users), func(b *testing.B) {
				q := ListQuery{Page: Page{Number: 1, PerPage: 20}}
				if tc.f != "" {
					q.Filter = mustFilter(b, tc.f)
				}
				for b.Loop() {
					if _, err := bk.ListUsers(q, "", true); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(users), "ns/user")
			})
		}
	}
}
