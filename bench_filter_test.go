package synapsefake_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/benchpair"
	"github.com/synapsefake/synapsefake/internal/filter"
	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// BenchmarkListFilter is GET of the first page of a node's 1,000
// transactions: unfiltered (O(page)), and with a filter: "_id", read from
// each transaction's record, matches one transaction; "amount" (a path
// into an object), read from each one's view, every one.
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

// reportLatencies reports the median, 99th percentile and maximum of took.
func reportLatencies(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(float64(len(took))/float64(b.N), "gets/op")
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "median-ns")
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(took[len(took)-1].Nanoseconds()), "max-ns")
}

// filterUsers is the number of users BenchmarkFilterUsers lists.
const filterUsers = 10_000

// BenchmarkFilterUsers is GET /users on a platform of 10,000 users, each
// with a legal name, an email, a phone number, a supp_id and three
// documents, handed to ServeHTTP as BenchmarkServeCreate does: each
// "paired-" row runs one filter's first page and the unfiltered first
// page (which reads its 20 users only) once each per iteration and
// reports x, the ratio of their medians. The filters: a user's _id, a
// legal name, $in of 1,000 legal names (MaxValues), a member of extra, an
// $or of three fields, a path into the documents, a field read from the
// whole view (refresh_token), and the costliest documents the limits
// accept that we know of (32 conditions each, MaxConditions): 16 $nin of
// an array against the documents (each user's documents hashed once,
// however many conditions), a composite $nin on every field of a user
// (each converted and hashed whole), and 16 deep paths through the
// documents. "get-during-worst" is GET /users/{id}, one after another,
// while another goroutine lists with the costliest of them (every field)
// without pause, each iteration for as long as one whole list takes:
// median-ns, p99-ns and max-ns of the GETs (the list holds the store's
// lock a millisecond at a time); "get-alone" is 3,000 of the same GETs an
// iteration with nothing else running, the baseline of those figures.
func BenchmarkFilterUsers(b *testing.B) {
	fake := synapsefake.NewServer(b, synapsefake.WithoutWebhookDelivery())
	ids := make([]string, filterUsers)
	for i := range ids {
		ids[i] = fake.MustAddUser(b, synapsefake.UserSeed{LegalNames: []string{fmt.Sprint("User ", i)},
			Email: fmt.Sprintf("user%d@example.com", i), PhoneNumbers: []string{fmt.Sprintf("555%07d", i)}, SuppID: fmt.Sprint("supp-", i),
			Documents: []synapsefake.SubDocumentSeed{{Kind: "physical", Type: "GOVT_ID", Value: "2222", Status: "VALID"},
				{Kind: "social", Type: "FACEBOOK", Value: "https://facebook.com/user", Status: "VALID"},
				{Kind: "virtual", Type: "SSN", Value: "2222", Status: "VALID"}}}).ID
	}
	headers := testkit.GatewayHeaders(fake)
	w := &discardWriter{}
	// get serves a clone of one request built beforehand: what is timed is
	// the fake's work, not httptest's parsing of a 16 KiB URL (a client's,
	// or net/http's, which keeps the query raw for the fake to decode).
	get := func(target string) func() {
		req := httptest.NewRequest("GET", target, nil)
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		ctx := req.Context()
		return func() {
			fake.ServeHTTP(w.reset(), req.Clone(ctx))
			if w.status != http.StatusOK {
				b.Fatalf("GET %.200s: status %d", target, w.status)
			}
		}
	}
	list := func(filter string) func() { return get("/v3.1/users?filter=" + url.QueryEscape(filter)) }
	repeat := func(n int, part string) string { return strings.TrimSuffix(strings.Repeat(part+",", n), ",") }
	names := make([]string, filter.MaxValues)
	for i := range names {
		names[i] = fmt.Sprintf(`"User %d"`, i*10+1)
	}
	var everyField []string
	for _, name := range []string{"_id", "_links", "client", "doc_status", "documents", "emails", "extra", "is_hidden",
		"legal_names", "logins", "permission", "phone_numbers", "photos", "refresh_token"} {
		everyField = append(everyField, fmt.Sprintf(`%q:{"$nin":[[0],{"a":0}]}`, name))
	}
	worst := []struct{ name, filter string }{
		{"paired-worst-composite", `{"$and":[` + repeat(16, `{"documents":{"$nin":[[0]]}}`) + `]}`},
		{"paired-worst-every-field", "{" + strings.Join(everyField, ",") + `,"$or":[` + repeat(9, `{"documents.id":{"$ne":0}}`) + "]}"},
		{"paired-worst-paths", `{"$and":[` + repeat(16, `{"documents.physical_docs.document_type.a.b.c.d.e.f.g.h.i.j.k.l":{"$ne":1}}`) + `]}`},
	}
	unfiltered := get("/v3.1/users")
	for _, tc := range append([]struct{ name, filter string }{
		{"paired-_id", fmt.Sprintf(`{"_id":%q}`, ids[filterUsers/2])},
		{"paired-legal_names", `{"legal_names":"User 5000"}`},
		{"paired-$in-1000", `{"legal_names":{"$in":[` + strings.Join(names, ",") + `]}}`},
		{"paired-extra.supp_id", `{"extra.supp_id":"supp-5000"}`},
		{"paired-$or", `{"$or":[{"legal_names":"User 1"},{"extra.supp_id":"supp-2"},{"permission":"LOCKED"}]}`},
		{"paired-documents", `{"documents.physical_docs.document_type":"GOVT_ID"}`},
		{"paired-refresh_token", `{"refresh_token":"none"}`},
	}, worst...) {
		if _, err := filter.Parse(tc.filter); err != nil {
			b.Fatalf("%s: %v", tc.name, err)
		}
		b.Run(tc.name, func(b *testing.B) { benchpair.Run(b, list(tc.filter), unfiltered) })
	}
	b.Run("get-during-worst", func(b *testing.B) {
		// The list runs on its own goroutine with its own writer, without
		// pause; lists counts the lists it has answered.
		lw := &discardWriter{}
		target := "/v3.1/users?filter=" + url.QueryEscape(worst[1].filter)
		var lists atomic.Int64
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := httptest.NewRequest("GET", target, nil)
				for k, v := range headers {
					r.Header.Set(k, v)
				}
				fake.ServeHTTP(lw.reset(), r)
				lists.Add(1)
			}
		}()
		one := get("/v3.1/users/" + ids[7])
		var took []time.Duration
		for b.Loop() {
			// GETs one after another for as long as one whole list takes.
			for from := lists.Load(); lists.Load() < from+2; {
				start := time.Now()
				one()
				took = append(took, time.Since(start))
			}
		}
		close(stop)
		<-done
		reportLatencies(b, took)
	})
	b.Run("get-alone", func(b *testing.B) {
		one := get("/v3.1/users/" + ids[7])
		var took []time.Duration
		for b.Loop() {
			for range 3000 {
				start := time.Now()
				one()
				took = append(took, time.Since(start))
			}
		}
		reportLatencies(b, took)
	})
}
