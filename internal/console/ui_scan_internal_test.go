package console

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// TestUITransactionsScanIsBounded: a status filter, which no index
// answers, looks at no more than bank.UIScanLimit transactions under the lock;
// past them the page says that more may match. The user's and the node's
// filters read their indexes and count exactly.
func TestUITransactionsScanIsBounded(t *testing.T) {
	w := newTestWorld(t) // its one transaction, the oldest, is CREATED
	s := w.c
	for range bank.UIScanLimit + 10 {
		tx := w.createTx(t, w.user, w.node, testTx(w.peer, 0.01))
		if err := s.Cancel(tx, ""); err != nil {
			t.Fatal(err)
		}
	}
	total := bank.UIScanLimit + 11
	for _, tc := range []struct {
		query string
		want  string
	}{
		{"status=CREATED", "newest 0 shown; more match"},
		{"status=CANCELED&limit=5", "newest 5 shown; more match"},
		{"limit=5", "newest 5 of " + bank.Itoa(total) + " shown"},
		{"node=" + w.node + "&limit=5", "newest 5 of " + bank.Itoa(total) + " shown"},
		{"user=" + w.other + "&limit=5", "newest 5 of " + bank.Itoa(total) + " shown"},
		{"status=SETTLED&node=" + w.peer, "newest 0 shown; more match"},
		// A name is no index either.
		{"node=no+such+nickname", "newest 0 shown; more match"},
		{"user=no+such+name", "newest 0 shown; more match"},
		{"node=" + w.node + "&user=no+such+name", "newest 0 shown; more match"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeControl(rec, httptest.NewRequest("GET", "http://localhost/_fake/ui/transactions?"+tc.query, nil))
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), tc.want) {
				i := strings.Index(rec.Body.String(), `class="count`)
				t.Errorf("%d; want %q in the page; its count reads %.120s", rec.Code, tc.want, rec.Body.String()[max(i, 0):])
			}
		})
	}
}

// TestUIOverviewNameScanIsBounded: a name filter on the overview looks at
// no more than bank.UIScanLimit users; past them the page says that more may
// match.
func TestUIOverviewNameScanIsBounded(t *testing.T) {
	s := newTestConsole(t, nil)
	if _, err := s.AddUser(bank.UserSeed{LegalNames: []string{"Oldest Ozymandias"}}); err != nil {
		t.Fatal(err)
	}
	for range bank.UIScanLimit {
		if _, err := s.AddUser(bank.UserSeed{LegalNames: []string{"Plain Person"}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		query string
		want  string
	}{
		{"name=ozymandias", "newest 0 shown; more match"},
		{"name=plain&limit=5", "newest 5 shown; more match"},
		{"limit=5", "newest 5 of " + bank.Itoa(bank.UIScanLimit+1) + " shown"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeControl(rec, httptest.NewRequest("GET", "http://localhost/_fake/ui/?"+tc.query, nil))
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), tc.want) {
				i := strings.Index(rec.Body.String(), `class="count`)
				t.Errorf("%d; want %q in the page; its count reads %.120s", rec.Code, tc.want, rec.Body.String()[max(i, 0):])
			}
		})
	}
}
